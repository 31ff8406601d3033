"""Figures and the self-contained HTML report of a stored run. Pure functions over :func:`experiment.results`'s frame
(and the run store); plotly is imported lazily. No Streamlit.

- :func:`heatmap_figure`: ASR or PSS, rows = components (and the control group ``CRT``, and ``whole prompt`` for
  baselines), columns = perturbations, one figure per model. Every figure uses the same colour scale over the fixed
  range 0..1 (:data:`ZMIN`, :data:`ZMAX`), so colours compare across models and runs. The scale is Cividis
  (sequential, readable with the common colour-vision deficiencies and in grey). Each cell shows its value; hovering
  shows the value, the ASR's Wilson 95% interval, n, the flip rate and the PSS with its bootstrap 95% interval.
- :func:`ranking`: the components, most fragile first (pooled ASR over the component's perturbations, per model),
  each with a one-line reading.
- :func:`delta_frame` / :func:`delta_figure`: two runs side by side (before / after an edit), ASR after − before.
- :func:`confidence_view` / :func:`confidence_figure`: decoding confidence (mean first-token probability) against
  PSS, ProSA's view, one point per instance (or per cell), one colour per model, Pearson's r in the title; a note
  instead of an empty plot when the backend gave no token probabilities.
- :func:`run_complexity` / :func:`complexity_table`: the PCM of the run's clean prompt(s), its five parts, weights
  and weighted total, each part's meaning in one line.
- :func:`build_html` / :func:`write_html`: one HTML file holding plotly.js inline (no CDN: it opens offline), the
  run's spec, the prompt complexity, the heatmaps, the ranking, confidence vs PSS and the per-cell table. Every
  piece of user text is HTML-escaped.

Pooling for the ranking: a component's successes and judged answers are summed over its cells (perturbations) and
the Wilson interval is computed on the sums. The answers of one instance are not independent, so read the interval as
a guide, not an exact coverage.
"""
from __future__ import annotations

import html
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from . import glossary
from .palette import BADGES, COLOURS
from .types import COMPONENTS, CONTROL, WHOLE_PROMPT

#: The fixed colour range of every ASR and PSS heatmap (one shared scale across models and runs).
ZMIN, ZMAX = 0.0, 1.0
#: A sequential, colour-blind-safe scale.
COLORSCALE = "Cividis"
#: The diverging scale of the before/after difference (range −1..1), also colour-blind-safe.
DELTA_COLORSCALE = "PuOr_r"
METRICS = {"asr": "ASR", "pss": "PSS"}
METRIC_HELP = {
    "asr": "ASR: the share of judged answers the perturbation made fail (attack successes / n).",
    "pss": "PSS (ProSA): mean |Y(p_i) − Y(p_j)| over pairs of an instance's prompts (0 = never changes, 1 = always).",
}
#: Row order of the heatmaps.
ROW_ORDER: tuple[str, ...] = tuple(c.value for c in COMPONENTS) + (CONTROL, WHOLE_PROMPT)
#: Column order of the heatmaps (other names follow, sorted).
COLUMN_ORDER: tuple[str, ...] = ("SCI", "SYR", "WOD", "SER", "COD")
CLEAN = "clean"


def _nan(x: Any) -> bool:
    try:
        return x is None or math.isnan(float(x))
    except (TypeError, ValueError):
        return True


def pct(x: Any) -> str:
    """``0.623`` → ``62%``; missing → ``–``."""
    return "–" if _nan(x) else f"{float(x) * 100:.0f}%"


def interval(low: Any, high: Any) -> str:
    """``48–74%`` (the Wilson 95% interval), or ``–``."""
    if _nan(low) or _nan(high):
        return "–"
    return f"{float(low) * 100:.0f}–{float(high) * 100:.0f}%"


def _rows(frame: Any) -> list[dict]:
    if frame is None or len(frame) == 0:
        return []
    return frame.to_dict("records")


def filters(frame: Any) -> list[str]:
    """The ``ppl_filter`` values of the frame, ``all`` first."""
    found = sorted({r["ppl_filter"] for r in _rows(frame)}, key=lambda f: (f != "all", f))
    return found


def default_filter(frame: Any) -> str:
    """The filter the figures show by default: the perplexity filter's kept variants (``top…%``, as in the paper's
    figures) when the run used one, else ``all``."""
    found = filters(frame)
    return next((f for f in found if f != "all"), found[0] if found else "all")


def models(frame: Any) -> list[str]:
    """The models of the frame, in first-seen order."""
    return list(dict.fromkeys(r["model"] for r in _rows(frame)))


def _cells(frame: Any, model: str | None, ppl_filter: str | None) -> list[dict]:
    return [r for r in _rows(frame) if r["component"] != CLEAN and (model is None or r["model"] == model)
            and (ppl_filter is None or r["ppl_filter"] == ppl_filter)]


def _ordered(names: Iterable[str], order: Sequence[str]) -> list[str]:
    names = set(names)
    return [n for n in order if n in names] + sorted(names - set(order))


def axes(frame: Any, ppl_filter: str | None = None) -> tuple[list[str], list[str]]:
    """(rows, columns) shared by every model's heatmap: the components and perturbations present in the run."""
    cells = _cells(frame, None, ppl_filter)
    return (_ordered((r["component"] for r in cells), ROW_ORDER),
            _ordered((r["perturbation"] for r in cells), COLUMN_ORDER))


def _cell_value_text(metric: str, value: Any) -> str:
    if _nan(value):
        return ""
    return pct(value) if metric == "asr" else f"{float(value):.2f}"


def pss_interval(low: Any, high: Any) -> str:
    """``0.33–0.67`` (PSS's bootstrap 95% interval), or ``–``."""
    if _nan(low) or _nan(high):
        return "–"
    return f"{float(low):.2f}–{float(high):.2f}"


def cell_hover(row: Mapping[str, Any]) -> str:
    """The hover text of one cell: ASR with its Wilson interval, n, flip rate and PSS with its bootstrap interval
    where it has one (plotly's ``<br>`` breaks; user text escaped)."""
    e = html.escape
    lines = [f"<b>{e(str(row['component']))} × {e(str(row['perturbation']))}</b> · {e(str(row['model']))}",
             f"ASR {pct(row.get('asr'))} (95% CI {interval(row.get('asr_low'), row.get('asr_high'))}): "
             f"{row.get('successes', 0)} of {row.get('n', 0)} judged answers failed"]
    if not _nan(row.get("flip_rate")):
        lines.append(f"flip rate {pct(row['flip_rate'])} (95% CI {interval(row.get('flip_low'), row.get('flip_high'))}"
                     f") of {row.get('flip_n', 0)} answers right on the clean prompt")
    if not _nan(row.get("pss")):
        ci = pss_interval(row.get("pss_low"), row.get("pss_high"))
        lines.append(f"PSS {float(row['pss']):.2f}" + ("" if ci == "–" else f" (95% bootstrap CI {ci})")
                     + f" over {row.get('pss_instances', 0)} instance(s)")
    extra = [f"{row[k]} {k.replace('_', ' ')}" for k in ("errors", "unjudged", "not_run") if row.get(k)]
    if extra:
        lines.append("left out of n: " + ", ".join(extra))
    perturbation = str(row["perturbation"])
    if perturbation in glossary.STRATEGIES or perturbation in glossary.BASELINES:
        lines.append(f"<i>{e(glossary.strategy_help(perturbation))}</i>")
    return "<br>".join(lines)


@dataclass(frozen=True)
class Matrix:
    """One model's heatmap data: ``z[i][j]`` for ``rows[i]`` × ``columns[j]`` (None where there is no cell)."""

    model: str
    metric: str
    rows: list[str]
    columns: list[str]
    z: list[list[float | None]]
    text: list[list[str]]
    hover: list[list[str]]


def matrix(frame: Any, model: str, metric: str = "asr", ppl_filter: str | None = None) -> Matrix:
    """The heatmap data of ``model`` for ``metric`` (``asr`` or ``pss``) over the run's shared axes."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; one of {', '.join(METRICS)}")
    ppl_filter = ppl_filter or default_filter(frame)
    rows, cols = axes(frame, ppl_filter)
    at = {(r["component"], r["perturbation"]): r for r in _cells(frame, model, ppl_filter)}
    z, text, hover = [], [], []
    for comp in rows:
        zr, tr, hr = [], [], []
        for col in cols:
            r = at.get((comp, col))
            v = None if r is None or _nan(r.get(metric)) else float(r[metric])
            zr.append(v)
            tr.append("" if r is None else _cell_value_text(metric, v))
            hr.append(f"{html.escape(comp)} × {html.escape(col)}: no variants" if r is None else cell_hover(r))
        z.append(zr)
        text.append(tr)
        hover.append(hr)
    return Matrix(model, metric, rows, cols, z, text, hover)


def _row_label(name: str) -> str:
    return f"{CONTROL} (control)" if name == CONTROL else name


def _row_axis(rows: Sequence[str]) -> dict[str, Any]:
    """The component axis: the rows as categories, each tick shown with the component's badge in its colour (the
    badge, not only the hue, tells the components apart)."""
    by_name = {c.value: c for c in COMPONENTS}
    labels = _labels(_row_label(r) for r in rows)
    ticks = [label if name not in by_name else
             f'<b><span style="color:{COLOURS[by_name[name]]}">{BADGES[by_name[name]]}</span></b> · {label}'
             for name, label in zip(rows, labels)]
    return {"tickmode": "array", "tickvals": labels, "ticktext": ticks}


def _labels(names: Iterable[str]) -> list[str]:
    """Axis labels, escaped (plotly reads a few HTML tags in labels)."""
    return [html.escape(str(n)) for n in names]


def heatmap_figure(frame: Any, model: str, metric: str = "asr", ppl_filter: str | None = None,
                   title: str | None = None) -> Any:
    """A plotly heatmap of ``metric`` for ``model``: components × perturbations, colour range fixed to 0..1."""
    import plotly.graph_objects as go

    ppl_filter = ppl_filter or default_filter(frame)
    m = matrix(frame, model, metric, ppl_filter)
    fig = go.Figure(go.Heatmap(
        z=m.z, x=_labels(m.columns), y=_labels(_row_label(r) for r in m.rows), text=m.text, texttemplate="%{text}",
        hovertext=m.hover, hovertemplate="%{hovertext}<extra></extra>", colorscale=COLORSCALE,
        zmin=ZMIN, zmax=ZMAX, xgap=2, ygap=2, hoverongaps=False, name=html.escape(model),
        colorbar={"title": {"text": METRICS[metric]}, "tickformat": ".0%" if metric == "asr" else ".1f",
                  "len": 0.9}))
    heading = title if title is not None else f"{METRICS[metric]} · {html.escape(model)} · {html.escape(ppl_filter)}"
    fig.update_layout(
        title={"text": heading, "font": {"size": 15}},
        xaxis={"title": "perturbation", "side": "bottom", "type": "category"},
        yaxis={"title": "component", "autorange": "reversed", "type": "category", **_row_axis(m.rows)},
        height=max(260, 70 + 46 * len(m.rows)), margin={"l": 10, "r": 10, "t": 50, "b": 40},
        font={"size": 13})
    return fig


def heatmaps(frame: Any, metric: str = "asr", ppl_filter: str | None = None) -> dict[str, Any]:
    """One :func:`heatmap_figure` per model (same axes, same colour range)."""
    return {m: heatmap_figure(frame, m, metric, ppl_filter) for m in models(frame)}


# ----------------------------------------------------------------------------------------------------- ranking

@dataclass(frozen=True)
class Fragility:
    """One component of one model in the ranking (pooled over its perturbations)."""

    model: str
    component: str
    n: int
    successes: int
    asr: float
    low: float
    high: float
    worst: str  # the perturbation with the highest ASR
    worst_asr: float
    pss: float | None
    reading: str

    def to_json(self) -> dict:
        return asdict(self)


def _reading(component: str, asr: float, low: float, high: float, n: int, worst: str, worst_asr: float) -> str:
    name = f"{CONTROL} (control group)" if component == CONTROL else component
    if n == 0:
        return f"{name}: no judged answers."
    what = f"{pct(asr)} of perturbations made the model fail (95% CI {interval(low, high)}, n={n})"
    if worst and not _nan(worst_asr) and worst_asr > 0:
        what += f", most under {worst} ({pct(worst_asr)})"
    elif asr == 0:
        what += "; no perturbation broke it"
    return f"{name}: {what}."


def ranking(frame: Any, ppl_filter: str | None = None, model: str | None = None) -> list[Fragility]:
    """The components (the control group included, as a reference), most fragile first, per model: pooled ASR over
    the component's perturbations, then its lower bound, then its name. ``model`` keeps only that model."""
    from .metrics import wilson_interval

    ppl_filter = ppl_filter or default_filter(frame)
    out: list[Fragility] = []
    for mod in models(frame):
        if model is not None and mod != model:
            continue
        cells = _cells(frame, mod, ppl_filter)
        by: dict[str, list[dict]] = {}
        for r in cells:
            by.setdefault(r["component"], []).append(r)
        items = []
        for comp, rows in by.items():
            n = int(sum(int(r["n"] or 0) for r in rows))
            k = int(sum(int(r["successes"] or 0) for r in rows))
            low, high = wilson_interval(k, n)
            rate = k / n if n else math.nan
            judged = [r for r in rows if int(r["n"] or 0) > 0 and not _nan(r["asr"])]
            worst = max(judged, key=lambda r: (float(r["asr"]), int(r["n"])), default=None)
            worst_name = "" if worst is None else str(worst["perturbation"])
            worst_asr = math.nan if worst is None else float(worst["asr"])
            pss_vals = [float(r["pss"]) for r in rows if not _nan(r.get("pss"))]
            items.append(Fragility(mod, comp, n, k, rate, low, high, worst_name, worst_asr,
                                   sum(pss_vals) / len(pss_vals) if pss_vals else None,
                                   _reading(comp, rate, low, high, n, worst_name, worst_asr)))
        order = {c: i for i, c in enumerate(ROW_ORDER)}
        items.sort(key=lambda f: (-(f.asr if not _nan(f.asr) else -1), -(f.low if not _nan(f.low) else -1),
                                  order.get(f.component, len(order))))
        out.extend(items)
    return out


def clean_rates(frame: Any) -> dict[str, dict]:
    """Per model, the clean prompts' row (their failure rate is the ``asr``), if the frame has one."""
    return {r["model"]: r for r in _rows(frame) if r["component"] == CLEAN}


# ----------------------------------------------------------------------------------------------- before / after

DELTA_COLUMNS = ("model", "component", "perturbation", "ppl_filter", "n_before", "asr_before", "n_after", "asr_after",
                 "delta_asr", "pss_before", "pss_after", "delta_pss")


def pair_models(before: Any, after: Any) -> list[tuple[str, str]]:
    """The models to compare: those in both runs; when the runs share none and each has one, that pair."""
    a, b = models(before), models(after)
    common = [m for m in a if m in b]
    if common:
        return [(m, m) for m in common]
    return [(a[0], b[0])] if len(a) == 1 and len(b) == 1 else []


def delta_frame(before: Any, after: Any) -> Any:
    """One row per cell present in either run (paired models, see :func:`pair_models`): ASR and PSS before, after
    and after − before. Sorted by the size of the ASR change, largest first."""
    import pandas as pd

    rows = []
    for ma, mb in pair_models(before, after):
        a = {(r["component"], r["perturbation"], r["ppl_filter"]): r for r in _rows(before)
             if r["model"] == ma and r["component"] != CLEAN}
        b = {(r["component"], r["perturbation"], r["ppl_filter"]): r for r in _rows(after)
             if r["model"] == mb and r["component"] != CLEAN}
        label = ma if ma == mb else f"{ma} → {mb}"
        for key in list(dict.fromkeys(list(a) + list(b))):
            ra, rb = a.get(key, {}), b.get(key, {})
            asr_a, asr_b = ra.get("asr", math.nan), rb.get("asr", math.nan)
            pss_a, pss_b = ra.get("pss", math.nan), rb.get("pss", math.nan)
            rows.append({"model": label, "component": key[0], "perturbation": key[1], "ppl_filter": key[2],
                         "n_before": ra.get("n", 0), "asr_before": asr_a, "n_after": rb.get("n", 0),
                         "asr_after": asr_b,
                         "delta_asr": math.nan if _nan(asr_a) or _nan(asr_b) else float(asr_b) - float(asr_a),
                         "pss_before": pss_a, "pss_after": pss_b,
                         "delta_pss": math.nan if _nan(pss_a) or _nan(pss_b) else float(pss_b) - float(pss_a)})
    frame = pd.DataFrame(rows, columns=list(DELTA_COLUMNS))
    if not frame.empty:
        frame = frame.assign(_a=frame["delta_asr"].abs()).sort_values("_a", ascending=False, na_position="last",
                                                                      kind="stable").drop(columns="_a")
        frame = frame.reset_index(drop=True)
    return frame


def delta_figure(delta: Any, model: str, ppl_filter: str | None = None) -> Any:
    """A heatmap of ASR after − before for one (paired) model of :func:`delta_frame`: range −1..1, 0 neutral."""
    import plotly.graph_objects as go

    cells = [r for r in _rows(delta) if r["model"] == model and (ppl_filter is None or r["ppl_filter"] == ppl_filter)]
    rows = _ordered((r["component"] for r in cells), ROW_ORDER)
    cols = _ordered((r["perturbation"] for r in cells), COLUMN_ORDER)
    at = {(r["component"], r["perturbation"]): r for r in cells}
    z, text, hover = [], [], []
    for comp in rows:
        zr, tr, hr = [], [], []
        for col in cols:
            r = at.get((comp, col))
            d = None if r is None or _nan(r["delta_asr"]) else float(r["delta_asr"])
            zr.append(d)
            tr.append("" if d is None else f"{d * 100:+.0f}")
            hr.append(f"<b>{html.escape(comp)} × {html.escape(col)}</b><br>"
                      + ("not in both runs" if r is None or d is None else
                         f"ASR {pct(r['asr_before'])} → {pct(r['asr_after'])} ({d * 100:+.0f} points)<br>"
                         f"n {r['n_before']} → {r['n_after']}"))
        z.append(zr)
        text.append(tr)
        hover.append(hr)
    fig = go.Figure(go.Heatmap(z=z, x=_labels(cols), y=_labels(_row_label(r) for r in rows), text=text,
                               texttemplate="%{text}", hovertext=hover, hovertemplate="%{hovertext}<extra></extra>",
                               colorscale=DELTA_COLORSCALE, zmin=-1, zmax=1, zmid=0, xgap=2, ygap=2,
                               hoverongaps=False,
                               colorbar={"title": {"text": "Δ ASR"}, "tickformat": "+.0%", "len": 0.9}))
    fig.update_layout(title={"text": f"ASR after − before · {html.escape(model)}", "font": {"size": 15}},
                      xaxis={"title": "perturbation", "type": "category"},
                      yaxis={"title": "component", "autorange": "reversed", "type": "category",
                             **_row_axis(rows)},
                      height=max(260, 70 + 46 * len(rows)), margin={"l": 10, "r": 10, "t": 50, "b": 40})
    return fig


# ------------------------------------------------------------------------------------------------ drill-down

def cell_variants(run_id: int, store: Any, model: str, component: str, perturbation: str,
                  ppl_filter: str = "all") -> list[dict]:
    """The prompts behind one cell, for a drill-down: per request, ``instance_id``, ``clean`` (the instance's clean
    prompt), ``variant`` (a :class:`~.types.Variant` with its edits), ``response``, ``correct``, ``score``,
    ``reason``, ``error``, ``ppl_ratio``, ``kept``, ``clean_response`` (the same model's answer to the clean
    prompt). With a ``top…%`` filter only the kept variants."""
    from .types import Edit, Variant

    rows = store.variant_results(run_id)
    clean = {(r["model"], r["instance_id"]): r for r in rows if r["is_clean"]}
    texts = {d["instance_id"]: d["prompt"] for d in store.dissections(run_id)}
    stored = {v["variant_id"]: v for v in store.variants(run_id)}
    out = []
    for r in rows:
        if r["is_clean"] or r["model"] != model or r["component"] != component or r["strategy"] != perturbation:
            continue
        if ppl_filter != "all" and not r["kept"]:
            continue
        v = stored.get(r["variant_id"], {})
        variant = Variant(r["strategy"], r["component"], r["seed"] if r["seed"] is not None else 0, r["prompt"],
                          tuple(Edit(*e) for e in v.get("edits", ())), v.get("note", ""), r["ppl"], r["ppl_ratio"],
                          r["kept"])
        c = clean.get((r["model"], r["instance_id"]))
        out.append({"instance_id": r["instance_id"], "variant_id": r["variant_id"],
                    "clean": texts.get(r["instance_id"], ""), "variant": variant, "response": r["response"],
                    "answered": r["answered"], "correct": r["correct"], "score": r["score"], "reason": r["reason"],
                    "error": r["error"], "ppl_ratio": r["ppl_ratio"], "kept": r["kept"], "expected": r["expected"],
                    "clean_response": None if c is None else c["response"],
                    "clean_correct": None if c is None else c["correct"]})
    return out


# ------------------------------------------------------------------------------------------------ the report

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5rem auto; max-width: 1200px;
  padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.pa-meta { color: #555; font-size: 0.92rem; }
table { border-collapse: collapse; font-size: 0.85rem; } th, td { border: 1px solid #ddd; padding: 0.2rem 0.45rem; }
th { background: #f3f3f3; text-align: left; } td { font-variant-numeric: tabular-nums; }
pre.pa-prompt { white-space: pre-wrap; overflow-wrap: anywhere; background: #f7f7f7; border: 1px solid #e2e2e2;
  padding: 0.6rem 0.8rem; border-radius: 0.4rem; max-height: 22rem; overflow-y: auto; }
.pa-grid .pa-figure { max-width: 900px; margin-bottom: 0.6rem; }
ol.pa-ranking li { margin: 0.2rem 0; } .pa-note { color: #555; font-size: 0.88rem; }
.pa-cells { max-height: 40rem; overflow: auto; }
"""


def _spec_table(info: Any) -> str:
    spec = info.spec or {}
    e = html.escape
    keep = spec.get("keep_top")
    items = [("Run", f"#{info.id} · {e(info.name)}"), ("Status", e(info.status)),
             ("Created / updated (UTC)", f"{e(info.created)} / {e(info.updated)}"),
             ("Models", e(", ".join(map(str, spec.get("models", ()))))),
             ("Components", e(", ".join(map(str, spec.get("components", ()))))),
             ("Perturbations", e(", ".join(map(str, spec.get("strategies", ()))))
              + (e(" · baselines: " + ", ".join(spec["baselines"])) if spec.get("baselines") else "")),
             ("Variants per cell (n) · edit ratio · seed",
              e(f"{spec.get('n', '')} · {spec.get('ratio', '')} · {spec.get('seed', '')}")),
             ("Perplexity filter", "none" if keep is None else e(f"keep the top {float(keep) * 100:g}% by PPL ratio")),
             ("Success criterion", e(str(spec.get("criterion", ""))
                                     + (f" {json.dumps(spec['criterion_params'])}" if spec.get("criterion_params")
                                        else ""))),
             ("Instances", str(len(spec.get("instances", ())))),
             ("Requests · answered · errors", f"{info.requests} · {info.responses} · {info.errors}")]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in items)
    return f'<table class="pa-spec">{body}</table>'


def _prompts(store: Any, run_id: int, limit: int = 3) -> str:
    ds = store.dissections(run_id)
    parts = []
    for d in ds[:limit]:
        exp = "" if d["expected"] is None else f' · expected answer: <code>{html.escape(str(d["expected"]))}</code>'
        parts.append(f'<p class="pa-meta">Instance <code>{html.escape(d["instance_id"])}</code>{exp}</p>'
                     f'<pre class="pa-prompt">{html.escape(d["prompt"])}</pre>')
    if len(ds) > limit:
        parts.append(f'<p class="pa-note">… and {len(ds) - limit} more instance(s).</p>')
    return "".join(parts)


def _figure_div(fig: Any, div_id: str, model: str, metric: str) -> str:
    inner = fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                        config={"displaylogo": False, "responsive": True})
    return (f'<div class="pa-figure" data-metric="{html.escape(metric, quote=True)}" '
            f'data-model="{html.escape(model, quote=True)}">{inner}</div>')


def _cells_table(frame: Any) -> str:
    if frame is None or len(frame) == 0:
        return "<p>No cells.</p>"
    shown = frame.copy()
    for col in ("asr", "asr_low", "asr_high", "flip_rate", "flip_low", "flip_high", "pss", "pss_low", "pss_high",
                "confidence"):
        if col in shown:
            shown[col] = shown[col].map(lambda x: "" if _nan(x) else f"{float(x):.3f}")
    return shown.to_html(index=False, escape=True, na_rep="", border=0, classes="pa-cell-table")


def _complexity_section(store: Any, run_id: int, complexity: RunComplexity | None) -> str:
    if complexity is None:
        try:
            complexity = run_complexity(store, run_id)
        except Exception as exc:  # never lose the whole report to the complexity metric
            return f'<p class="pa-note">Prompt complexity not computed: {html.escape(str(exc))}</p>'
    return complexity_table(complexity)


def _confidence_section(frame: Any, records: Any, ppl_filter: str) -> str:
    view = confidence_view(frame, records, ppl_filter)
    parts = [f'<p class="pa-note">{html.escape(CONFIDENCE_HELP)}</p>']
    if view.points:
        inner = confidence_figure(view).to_html(full_html=False, include_plotlyjs=False, div_id="pa-confidence",
                                                config={"displaylogo": False, "responsive": True})
        parts.append(f'<div class="pa-figure" data-metric="confidence" data-model="">{inner}</div>')
    if view.note:
        parts.append(f'<p class="pa-confidence-note"><b>{html.escape(view.note)}</b></p>')
    return "".join(parts)


def build_html(run_id: int, store: Any, *, ppl_filter: str | None = None, frame: Any = None, records: Any = None,
               complexity: RunComplexity | None = None) -> str:
    """The self-contained HTML report of run ``run_id`` (see the module doc). ``records``
    (:func:`experiment.result_records`) and ``complexity`` (:func:`run_complexity`) are computed when not given."""
    from plotly.offline import get_plotlyjs

    from .experiment import result_records, results

    info = store.get_run(run_id)
    frame = results(run_id, store) if frame is None else frame
    ppl_filter = ppl_filter or default_filter(frame)
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<title>PromptAnatomy report · {e(info.name)}</title><style>{_CSS}</style>"
             f"<script type=\"text/javascript\">{get_plotlyjs()}</script></head><body>",
             f"<h1>PromptAnatomy report: {e(info.name)}</h1>",
             f'<p class="pa-meta">Run #{info.id} · {e(info.status)} · figures show the variants '
             f"<b>{e(ppl_filter)}</b> (ppl_filter) · made offline: this file holds everything it shows.</p>",
             "<h2>The run</h2>", _spec_table(info), _prompts(store, run_id),
             "<h2>Prompt complexity (PCM)</h2>", _complexity_section(store, run_id, complexity)]
    cleans = clean_rates(frame)
    if cleans:
        parts.append("<p>" + " · ".join(
            f"Clean prompts on <b>{e(m)}</b>: {pct(r['asr'])} failed (95% CI {interval(r['asr_low'], r['asr_high'])},"
            f" n={r['n']})" for m, r in cleans.items()) + "</p>")
    if not _cells(frame, None, ppl_filter):
        parts.append("<p>No judged cells yet: nothing to plot.</p>")
    else:
        for metric, label in METRICS.items():
            parts.append(f"<h2>{label} heatmaps</h2><p class=\"pa-note\">{e(METRIC_HELP[metric])} One colour scale "
                         f"(0 to 1) for every model; hover a cell for its interval.</p><div class=\"pa-grid\">")
            for k, m in enumerate(models(frame)):
                parts.append(_figure_div(heatmap_figure(frame, m, metric, ppl_filter), f"pa-{metric}-{k}", m, metric))
            parts.append("</div>")
        parts.append("<h2>Most fragile components first</h2><p class=\"pa-note\">Pooled over each component's "
                     "perturbations (successes / judged answers, Wilson 95% interval). CRT, the control group, puts "
                     "the same edits anywhere in the prompt: a component above it is more fragile than chance.</p>")
        for m in models(frame):
            items = ranking(frame, ppl_filter, m)
            parts.append(f"<h3>{e(m)}</h3><ol class=\"pa-ranking\">"
                         + "".join(f"<li>{e(f.reading)}</li>" for f in items) + "</ol>")
        parts.append("<h2>Decoding confidence vs PSS</h2>")
        parts.append(_confidence_section(frame, result_records(run_id, store) if records is None else records,
                                         ppl_filter))
    parts.append("<h2>Every cell</h2><p class=\"pa-note\">asr = successes / n (judged answers), asr_low/asr_high "
                 "its Wilson 95% interval; flip_rate: among answers right on the clean prompt; pss_low/pss_high: "
                 "PSS's bootstrap 95% interval over instances (empty with one instance); errors, unjudged and "
                 "not_run are outside n.</p>"
                 f'<div class="pa-cells">{_cells_table(frame)}</div></body></html>')
    return "".join(parts)


def write_html(run_id: int, store: Any, path: str | os.PathLike[str], **options: Any) -> Path:
    """Write :func:`build_html` to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(build_html(run_id, store, **options), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ decoding confidence vs PSS

CONFIDENCE_HELP = ("Decoding confidence (ProSA): the probability the model gave to the first token of its answer, "
                   "averaged over a point's perturbed prompts; PSS on the other axis. ProSA finds that prompts a model "
                   "decodes more confidently are less sensitive: a negative Pearson r supports that reading.")
#: Okabe–Ito colours (colour-blind-safe), one per model, and a marker symbol per model so grey prints still tell
#: them apart.
MODEL_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
MODEL_SYMBOLS = ("circle-open", "diamond-open", "square-open", "triangle-up-open", "cross-open", "x-open",
                 "star-open", "hexagon-open")
#: Per instance needs at least this many instances with a point in some model (else one point per cell).
MIN_INSTANCES = 3


@dataclass(frozen=True)
class ConfidenceDot:
    """One point of :func:`confidence_view`: an instance (or a cell ``component × perturbation``) of one model."""

    model: str
    label: str
    confidence: float
    pss: float


@dataclass(frozen=True)
class ConfidenceView:
    """The points of the confidence-vs-PSS figure, Pearson's r over all of them (``r``, None when undefined: fewer
    than 3 points or a constant axis) and per model, ``by`` (``instance`` or ``cell``) and the models whose backend
    gave no token probabilities (``missing``)."""

    by: str
    points: tuple[ConfidenceDot, ...]
    r: float | None
    r_by_model: Mapping[str, float | None]
    missing: tuple[str, ...]

    @property
    def note(self) -> str | None:
        """What a reader needs to know when points are missing (None when every model has its points)."""
        if self.missing:
            one = len(self.missing) == 1
            return (f"No token probabilities from {', '.join(self.missing)}: "
                    + ("its backend" if one else "their backends")
                    + " returned none (for example an OpenAI-compatible server without logprobs, or the Anthropic "
                    "API), so " + ("its" if one else "their") + " decoding confidence is unknown and "
                    + ("it has" if one else "they have") + " no points here.")
        if not self.points:
            return "No point has both a decoding confidence and a PSS yet (PSS needs judged answers)."
        return None


def _r_text(r: float | None) -> str:
    return "r undefined" if r is None else f"r = {r:+.2f}"


def confidence_view(frame: Any, records: Sequence[Mapping[str, Any]] | None = None, ppl_filter: str | None = None,
                    by: str = "auto") -> ConfidenceView:
    """Decoding confidence against PSS, per model. ``by="instance"`` (needs ``records``, the rows of
    :func:`experiment.result_records`): one point per instance, its mean confidence over its perturbed prompts against
    its PSS (:func:`metrics.confidence_vs_pss`); ``by="cell"``: one point per cell of ``frame`` (its ``confidence``
    and ``pss`` columns); ``"auto"``: per instance when records are given and some model has at least
    :data:`MIN_INSTANCES` instance points, else per cell. Pooled r: over every model's points."""
    from .metrics import confidence_vs_pss, pearson

    if by not in ("auto", "instance", "cell"):
        raise ValueError(f"by must be auto, instance or cell, got {by!r}")
    ppl_filter = ppl_filter or default_filter(frame)
    mods = models(frame)
    missing = tuple(m for m in mods if all(_nan(r.get("confidence")) for r in _rows(frame) if r["model"] == m))
    per_model: dict[str, Any] = {}
    if records is not None and by != "cell":
        recs = [r for r in records if r.get("component") != CLEAN and r.get("ppl_filter") == ppl_filter]
        per_model = {m: confidence_vs_pss([r for r in recs if r.get("model") == m]) for m in mods}
        enough = any(len(v.points) >= MIN_INSTANCES for v in per_model.values())
        if by == "instance" or enough:
            points = tuple(ConfidenceDot(m, str(p.instance), p.confidence, p.pss)
                           for m, v in per_model.items() for p in v.points)
            pooled = confidence_vs_pss([{**r, "instance": (r.get("model"), r.get("instance"))} for r in recs])
            return ConfidenceView("instance", points, pooled.r, {m: v.r for m, v in per_model.items()}, missing)
    if by == "instance":
        raise ValueError("by='instance' needs the run's records (experiment.result_records)")
    points = tuple(ConfidenceDot(r["model"], f"{r['component']} × {r['perturbation']}", float(r["confidence"]),
                                 float(r["pss"]))
                   for r in _cells(frame, None, ppl_filter) if not _nan(r.get("confidence")) and not _nan(r.get("pss")))
    r_by_model = {m: pearson([p.confidence for p in points if p.model == m], [p.pss for p in points if p.model == m])
                  for m in mods}
    return ConfidenceView("cell", points, pearson([p.confidence for p in points], [p.pss for p in points]),
                          r_by_model, missing)


def confidence_figure(view: ConfidenceView, title: str | None = None) -> Any:
    """A plotly scatter of :func:`confidence_view`: x = mean first-token probability, y = PSS, both 0..1, one colour
    and marker per model (its own r in the legend), the pooled Pearson r in the title. Without points: no axes, the
    view's note in the middle instead of an empty plot."""
    import plotly.graph_objects as go

    e = html.escape
    fig = go.Figure()
    if not view.points:
        fig.add_annotation(text=e(view.note or "No points."), showarrow=False, x=0.5, y=0.5, xref="paper",
                           yref="paper", font={"size": 14, "color": "#555"}, width=640, align="center")
        fig.update_layout(title={"text": "Decoding confidence vs PSS: nothing to plot", "font": {"size": 15}},
                          xaxis={"visible": False}, yaxis={"visible": False}, height=260,
                          margin={"l": 10, "r": 10, "t": 50, "b": 20}, plot_bgcolor="white")
        return fig
    unit = "instance" if view.by == "instance" else "cell (component × perturbation)"
    for k, mod in enumerate(dict.fromkeys(p.model for p in view.points)):
        pts = [p for p in view.points if p.model == mod]
        # points of one model at the same place are drawn once, larger, their labels listed on hover
        spots: dict[tuple[float, float], list[ConfidenceDot]] = {}
        for p in pts:
            spots.setdefault((round(p.confidence, 3), round(p.pss, 3)), []).append(p)
        fig.add_trace(go.Scatter(
            x=[xy[0] for xy in spots], y=[xy[1] for xy in spots], mode="markers+text",
            name=f"{e(mod)} ({_r_text(view.r_by_model.get(mod))}, {len(pts)} points)",
            text=[f"×{len(g)}" if len(g) > 1 else "" for g in spots.values()], textposition=("top right", "top left", "bottom right", "bottom left")[k % 4],
            textfont={"size": 11, "color": MODEL_COLOURS[k % len(MODEL_COLOURS)]},
            marker={"size": [11 + 4 * math.sqrt(len(g) - 1) for g in spots.values()],
                    "color": MODEL_COLOURS[k % len(MODEL_COLOURS)], "symbol": MODEL_SYMBOLS[k % len(MODEL_SYMBOLS)],
                    "line": {"width": 2.5, "color": MODEL_COLOURS[k % len(MODEL_COLOURS)]}},
            hovertext=[f"{e(mod)} · confidence {xy[0]:.3f} · PSS {xy[1]:.2f}<br>"
                       + "<br>".join(e(p.label) for p in g) for xy, g in spots.items()],
            hovertemplate="%{hovertext}<extra></extra>"))
    heading = title if title is not None else (
        f"Decoding confidence vs PSS · one point per {unit} · Pearson {_r_text(view.r)} "
        f"over {len(view.points)} points")
    fig.update_layout(
        title={"text": heading, "font": {"size": 15}},
        xaxis={"title": "decoding confidence (mean first-token probability)", "range": [-0.05, 1.05],
               "tickformat": ".1f", "zeroline": False},
        yaxis={"title": "PSS (0 = never changes, 1 = always)", "range": [-0.05, 1.05], "tickformat": ".1f",
               "zeroline": False},
        legend={"orientation": "h", "yanchor": "top", "y": -0.18, "x": 0},
        height=460, margin={"l": 10, "r": 10, "t": 50, "b": 40}, font={"size": 13})
    return fig


# ------------------------------------------------------------------------------------------- prompt complexity

#: One line per PCM part: what it measures (``metrics/pcm.py`` documents every choice).
PCM_HELP = {
    "lexical": "mean IDF of the prompt's words against WordNet 3.0's glosses: rarer words score higher ('the' ≈ 1.9, "
               "an unseen word ≈ 12.7).",
    "syntactic": "mean approximate parse depth per sentence (clause and bracket nesting; 1 = a simple sentence), a "
                 "stand-in for a parse tree.",
    "semantic": "mean pairwise cosine distance of the sentences' all-MiniLM-L6-v2 embeddings (0 = every sentence "
                "says the same; higher = more varied content).",
    "structural": "k · ln(sentences / k + 1), k = the components present in the dissection: more parts, more "
                  "structure.",
    "task": "task level 1–5 (1 choose or classify … 5 design, prove or plan), estimated from cue words unless set.",
}


@dataclass(frozen=True)
class RunComplexity:
    """The PCM of a run's clean prompt(s): per part (``rows``: ``part``, ``mean``, ``low``, ``high``, ``weight``,
    ``meaning``; ``mean`` None when the part could not be computed), the weighted ``total`` (mean over prompts, of
    the parts computed), how many distinct clean prompts were scored (``prompts`` of ``total_prompts``), and
    ``notes`` (what went wrong or was estimated)."""

    prompts: int
    total_prompts: int
    rows: tuple[Mapping[str, Any], ...]
    total: float | None
    notes: tuple[str, ...]

    def to_json(self) -> dict:
        return {"prompts": self.prompts, "total_prompts": self.total_prompts, "rows": [dict(r) for r in self.rows],
                "total": self.total, "notes": list(self.notes)}


def run_complexity(store: Any, run_id: int, *, limit: int = 20, embed: Any = None, reference: Any = None,
                   weights: Mapping[str, float] | None = None, task: int | None = None) -> RunComplexity:
    """:func:`metrics.pcm.pcm` of the run's distinct clean prompts (the first ``limit``), with their stored
    dissections (the rule-based dissector where none was stored). The sentence embedder (all-MiniLM-L6-v2) loads
    only when a prompt has two sentences or more; when it, or the WordNet reference, cannot be loaded, that part is
    left out (``mean`` None, a note says why) and the total is the weighted sum of the other parts."""
    from .experiment import _dissection_from_json
    import importlib

    pcm_mod = importlib.import_module(".metrics.pcm", __package__)  # the module (``metrics.pcm`` is the function)

    notes: list[str] = []
    failed: set[str] = set()
    if reference is None:
        try:
            reference = pcm_mod.wordnet_reference()
        except Exception as exc:  # WordNet missing: lexical left out
            notes.append(f"lexical part not computed: {exc}")
            failed.add("lexical")
            reference = pcm_mod.IdfReference.from_documents([], name="none")
    if embed is None:
        real = pcm_mod.MiniLMEmbedder()

        def embed(texts: list[str]) -> Any:  # lazy: the model loads on the first prompt with 2+ sentences
            if "semantic" not in failed:
                try:
                    return real(texts)
                except Exception as exc:
                    notes.append(f"semantic part not computed (the sentence-embedding model could not be loaded: "
                                 f"{exc})")
                    failed.add("semantic")
            return [[1.0] for _ in texts]

    seen: dict[str, Any] = {}
    for d in store.dissections(run_id):
        if d["prompt"] not in seen:
            seen[d["prompt"]] = d
    chosen = list(seen.values())[:limit]
    scores = []
    for d in chosen:
        diss = _dissection_from_json(d["prompt"], d.get("dissection") or {})
        scores.append(pcm_mod.pcm(diss if diss.sentences else d["prompt"], task=task, weights=weights, embed=embed,
                                  reference=reference))
    rows, total = [], None
    if scores:
        w = scores[0].weights
        for part in pcm_mod.PARTS:
            vals = [s.parts()[part] for s in scores]
            ok = part not in failed
            rows.append({"part": part, "mean": sum(vals) / len(vals) if ok else None,
                         "low": min(vals) if ok else None, "high": max(vals) if ok else None,
                         "weight": w[part], "meaning": PCM_HELP[part]})
        total = sum(r["weight"] * r["mean"] for r in rows if r["mean"] is not None)
        if any(s.task_estimated for s in scores):
            notes.append("task: no level was set for this run, so it is estimated from the prompt's cue words.")
        if failed:
            notes.append(f"total without: {', '.join(sorted(failed))}.")
    return RunComplexity(len(chosen), len(seen), tuple(rows), total, tuple(notes))


def number(x: Any) -> str:
    """``6.4255`` → ``6.43``; missing → ``–``."""
    return "–" if _nan(x) else f"{float(x):.2f}"


def complexity_table(c: RunComplexity) -> str:
    """The PCM of a run as a small HTML table (part, value or mean with range, weight, meaning), text escaped."""
    e = html.escape
    if not c.rows:
        return '<p class="pa-note">No clean prompt stored: no prompt complexity.</p>'
    several = c.prompts > 1
    head = ("<tr><th>part</th><th>" + ("mean (min–max)" if several else "value") + "</th><th>weight</th>"
            "<th>what it measures</th></tr>")
    body = "".join(
        f'<tr data-part="{e(r["part"])}"><td>{e(r["part"])}</td><td>{number(r["mean"])}'
        + (f" ({number(r['low'])}–{number(r['high'])})" if several and r["mean"] is not None else "")
        + f"</td><td>{float(r['weight']):g}</td><td>{e(r['meaning'])}</td></tr>" for r in c.rows)
    body += f'<tr class="pa-total"><th>PCM (weighted total)</th><th>{number(c.total)}</th><td></td><td></td></tr>'
    scope = (f"{c.prompts} distinct clean prompt(s)" + (f" (the first {c.prompts} of {c.total_prompts})"
                                                         if c.total_prompts > c.prompts else ""))
    notes = "".join(f'<p class="pa-note">{e(n)}</p>' for n in c.notes)
    return (f'<p class="pa-note">Over {e(scope)}. The parts are on their own scales; the total is comparable only '
            f'between prompts scored with the same weights.</p><table class="pa-pcm">{head}{body}</table>{notes}')
