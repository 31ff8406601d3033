"""The paper's tables, as pure functions over the per-cell results frame (:func:`experiment.results`).

- :func:`table2`: the paper's Table 2 layout. One row per (model, component) — the five components, then the control
  group ``CRT`` — one column per (perturbation, ppl_filter): every perturbation without the perplexity filter
  (``all``) and, where the run filtered, with it (e.g. ``top20%``). Cells hold the ASR (or another column of the
  results, ``value=``). Whole-prompt baselines and the clean prompts are not components and stay out.
- :func:`table1`: the paper's Table 1 layout, component-wise perturbation against the whole-prompt baselines. One row
  per (model, ppl_filter, family, method): ``family`` is ``component-wise`` (the ComPerturb strategies applied to one
  component at a time; the control group ``CRT`` is not a component and is left out) or ``whole-prompt`` (the
  baselines). ``best_asr`` is the highest cell ASR of the method (``best_at`` names that component), ``mean_asr`` the
  unweighted mean of its cells' ASRs; a row per family with method ``(all)`` takes the best and mean over all its
  cells. A whole-prompt baseline has one cell, so its best and mean are that cell's ASR.
- :func:`wide_columns` flattens Table 2's column pairs to ``"SCI"`` / ``"SCI top20%"`` (CSV) and :func:`to_markdown`
  renders any of these frames as a GitHub-style markdown table without extra dependencies.

Cells whose ASR is NaN (no judged answer) count in neither best nor mean; a method with no judged cell has NaN.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from .types import COMPONENTS, CONTROL, WHOLE_PROMPT

#: The clean prompts' rows of the results frame.
CLEAN = "clean"
#: The rows of Table 2 per model, in order.
TABLE2_COMPONENTS: tuple[str, ...] = tuple(c.value for c in COMPONENTS) + (CONTROL,)
#: The columns of :func:`table1`, in order.
TABLE1_COLUMNS = ("model", "ppl_filter", "family", "method", "best_asr", "best_at", "mean_asr", "cells")
COMPONENT_WISE = "component-wise"
WHOLE = "whole-prompt"
ALL_METHODS = "(all)"

_PERTURBATION_ORDER = ("SCI", "SYR", "WOD", "SER", "COD")


def _filter_order(labels: Iterable[str]) -> list[str]:
    """``all`` first, then the filter labels as they sort."""
    labels = set(labels)
    return (["all"] if "all" in labels else []) + sorted(labels - {"all"})


def _perturbation_order(names: Iterable[str]) -> list[str]:
    names = set(names)
    known = [p for p in _PERTURBATION_ORDER if p in names]
    return known + sorted(names - set(known))


def _is_nan(value: Any) -> bool:
    try:
        return value is None or math.isnan(float(value))
    except (TypeError, ValueError):
        return False


def table2(frame: Any, value: str = "asr") -> Any:
    """Table 2 of the paper from a results frame: index (model, component), columns a MultiIndex
    (perturbation, ppl_filter), cells ``value`` (default the ASR). Components absent from the frame are left out;
    a cell the run did not fill is NaN."""
    import pandas as pd

    cells = frame[frame["component"].isin(TABLE2_COMPONENTS)]
    perts = _perturbation_order(cells["perturbation"].unique())
    filters = _filter_order(cells["ppl_filter"].unique())
    columns = pd.MultiIndex.from_tuples([(p, f) for p in perts for f in filters], names=["perturbation", "ppl_filter"])
    models = list(dict.fromkeys(cells["model"]))
    rows = [(m, c) for m in models for c in TABLE2_COMPONENTS
            if ((cells["model"] == m) & (cells["component"] == c)).any()]
    index = pd.MultiIndex.from_tuples(rows, names=["model", "component"])
    out = pd.DataFrame(index=index, columns=columns, dtype=float)
    for r in cells.itertuples(index=False):
        out.loc[(r.model, r.component), (r.perturbation, r.ppl_filter)] = getattr(r, value)
    return out


def wide_columns(table: Any) -> Any:
    """Table 2 with flat columns: ``model``, ``component``, then ``"SCI"`` (no filter) and ``"SCI top20%"``…"""
    flat = table.copy()
    flat.columns = [p if f == "all" else f"{p} {f}" for p, f in table.columns]
    return flat.reset_index()


def _method_rows(model: str, ppl_filter: str, family: str, method: str, cells: Any) -> dict:
    asrs = [(float(a), c) for a, c in zip(cells["asr"], cells["component"]) if not _is_nan(a)]
    if asrs:
        best, at = max(asrs, key=lambda t: t[0])
        mean = sum(a for a, _ in asrs) / len(asrs)
    else:
        best, at, mean = math.nan, "", math.nan
    if family == WHOLE:
        at = WHOLE_PROMPT if asrs else ""
    elif method == ALL_METHODS and asrs:
        pairs = [(float(a), f"{c} / {p}") for a, c, p in zip(cells["asr"], cells["component"], cells["perturbation"])
                 if not _is_nan(a)]
        at = max(pairs, key=lambda t: t[0])[1]
    return {"model": model, "ppl_filter": ppl_filter, "family": family, "method": method, "best_asr": best,
            "best_at": at, "mean_asr": mean, "cells": len(asrs)}


def table1(frame: Any) -> Any:
    """Table 1 of the paper from a results frame (see the module doc): best and mean ASR per model of every
    component-wise method and every whole-prompt baseline, per ppl_filter, with an ``(all)`` row per family."""
    import pandas as pd

    components = tuple(c.value for c in COMPONENTS)
    rows: list[dict] = []
    for model in dict.fromkeys(frame["model"]):
        mine = frame[frame["model"] == model]
        for ppl_filter in _filter_order(mine["ppl_filter"].unique()):
            cells = mine[mine["ppl_filter"] == ppl_filter]
            families = ((COMPONENT_WISE, cells[cells["component"].isin(components)]),
                        (WHOLE, cells[cells["component"] == WHOLE_PROMPT]))
            for family, part in families:
                if part.empty:
                    continue
                for method in _perturbation_order(part["perturbation"].unique()):
                    rows.append(_method_rows(model, ppl_filter, family, method,
                                             part[part["perturbation"] == method]))
                rows.append(_method_rows(model, ppl_filter, family, ALL_METHODS, part))
    return pd.DataFrame(rows, columns=list(TABLE1_COLUMNS))


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, float):
        return "–" if math.isnan(value) else f"{value:.{digits}f}"
    if value is None:
        return "–"
    return str(value).replace("|", "\\|").replace("\n", " ")


def to_markdown(table: Any, digits: int = 3, index: bool = False) -> str:
    """A GitHub-style markdown table of ``table`` (numbers to ``digits`` places, NaN as an en dash). With
    ``index`` the index levels become the first columns (as for Table 2 before :func:`wide_columns`)."""
    frame = table.reset_index() if index else table
    headers: Sequence[str] = [" ".join(str(p) for p in c if str(p) not in ("all", "")) if isinstance(c, tuple) else str(c)
                              for c in frame.columns]
    lines = ["| " + " | ".join(_cell(h, digits) for h in headers) + " |",
             "|" + "|".join("---" for _ in headers) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v, digits) for v in row) + " |")
    return "\n".join(lines) + "\n"
