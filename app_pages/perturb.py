"""Perturb: pick components × strategies, make seeded variants of the dissected prompt, score them by perplexity,
keep the most disturbed ones per cell, and read each one as an inline diff against the clean prompt."""
import json
import math

import pandas as pd
import streamlit as st

from promptanatomy_core import glossary
from promptanatomy_core.perturb import BASELINES, COMPERTURB, MAX_VARIANTS, PerturbError
from promptanatomy_core.types import COMPONENTS, CONTROL, WHOLE_PROMPT
from ui import components, diff, engine, state
from ui.highlight import STYLES

RATIO = "perturb.ratio"
N = "perturb.n"
SEED = "perturb.seed"
FILTER = "perturb.filter"
SHARE = "perturb.share"
OFFLINE_SER = "perturb.offline_ser"
BASELINE_PICK = "perturb.baselines"
FULL = "perturb.full"
VIEW_CELL = "perturb.view_cell"
SHOW = "perturb.show"
PAGE = "perturb.page"
SORT = "perturb.sort"
GENERATE = "perturb.generate"

ROWS = tuple(c.value for c in COMPONENTS) + (CONTROL,)
FILTERS = {"top": "Keep the top share", "all": "Keep all (scored)", "off": "Off: no perplexity (fast)"}
ALL_CELLS = "All cells"
SHOWS = ("All", "Kept", "Dropped")
PAGE_SIZE = 10
CONTEXT_CHARS = 240


def _cell_key(component: str, strategy: str) -> str:
    return f"perturb.cell.{component}.{strategy}"


def _set_cells(value: bool, present: list[str]) -> None:
    for component in present:
        for strategy in COMPERTURB:
            st.session_state[_cell_key(component, strategy)] = value


def _row_label(component: str, present: bool) -> str:
    if component == CONTROL:
        return f"**{CONTROL}** · control group"
    badge = STYLES[next(c for c in COMPONENTS if c.value == component)].badge
    return f"**{badge}** · {component}" + ("" if present else " · :gray[*not present*]")


def _message(exc: Exception) -> str:
    """A specific message for a failed generation (never a traceback)."""
    if isinstance(exc, RuntimeError):  # missing WordNet data: the message names the fix
        return f"A resource the perturbation needs is missing: {exc}"
    if isinstance(exc, (PerturbError, ValueError)):
        return f"Cannot perturb with these settings: {exc}"
    return f"Generating the variants failed ({type(exc).__name__}): {exc}"


def _grid(present: set[str]) -> list[tuple[str, str]]:
    """The component × strategy checkboxes; returns the ticked cells (components in canonical order, CRT last)."""
    widths = [2.1] + [1] * len(COMPERTURB)
    head = st.columns(widths, vertical_alignment="bottom")
    head[0].markdown("**Component**")
    for col, strategy in zip(head[1:], COMPERTURB):
        col.markdown(f"**{strategy}**", help=glossary.STRATEGIES[strategy])
    chosen = []
    for component in ROWS:
        here = component == CONTROL or component in present
        cols = st.columns(widths, vertical_alignment="center")
        cols[0].markdown(_row_label(component, here),
                         help="Same edit budget as a mean component, placed anywhere in the prompt without regard "
                              "to the components." if component == CONTROL else None)
        for col, strategy in zip(cols[1:], COMPERTURB):
            key = _cell_key(component, strategy)
            if not here:
                st.session_state[key] = False
            col.checkbox(f"{component} × {strategy}", key=key, label_visibility="collapsed", disabled=not here)
            if st.session_state[key]:
                chosen.append((component, strategy))
    return chosen


def _settings_column() -> None:
    st.number_input("Ratio", min_value=0.01, max_value=1.0, step=0.05, format="%.2f", key=RATIO,
                    help="Share of the words (SCI, SYR, WOD) the strategy edits, in (0, 1]. 0.1 follows the paper's "
                         "text (the default); 0.2 its reference code. SER rewrites one sentence, COD removes the "
                         "whole component.")
    c1, c2 = st.columns(2)
    c1.number_input("Variants per cell", min_value=1, max_value=100, step=1, key=N,
                    help="N candidates made per cell (seeds seed … seed+N−1); the filter keeps the top share.")
    c2.number_input("Seed", min_value=0, max_value=2 ** 31 - 1, step=1, key=SEED,
                    help="The same seed makes the same variants.")
    st.radio("Perplexity filter", list(FILTERS), format_func=FILTERS.get, key=FILTER, horizontal=True,
             help="Ratio = PPL(variant) / PPL(clean) under the embedded model; per cell the variants with the highest "
                  "ratios are kept (the paper keeps the top 20%). Dropped variants stay visible, marked.")
    st.slider("Share kept per cell", min_value=5, max_value=100, step=5, format="%d%%", key=SHARE,
              disabled=st.session_state[FILTER] != "top")
    st.toggle("Offline SER (WordNet rewrite)", key=OFFLINE_SER,
              help="On: SER rewrites the sentence with WordNet synonyms, at once. Off: the embedded model writes "
                   "paraphrases (checked for similarity; the WordNet rewrite is the fallback) — slow on CPU, "
                   "seconds per sentence.")


def _settings(cells: list[tuple[str, str]]) -> engine.PerturbSettings:
    mode = st.session_state[FILTER]
    return engine.PerturbSettings(
        cells=tuple(cells), ratio=float(st.session_state[RATIO]), n=int(st.session_state[N]),
        seed=int(st.session_state[SEED]), score=mode != "off",
        keep_top=st.session_state[SHARE] / 100 if mode == "top" else None,
        offline_ser=bool(st.session_state[OFFLINE_SER]))


def _generate(dissection, cells: list[tuple[str, str]]) -> None:
    if not cells:
        st.warning("Nothing to generate: tick at least one component × strategy cell, or pick a whole-prompt "
                   "baseline.")
        return
    settings = _settings(cells)
    if len(cells) * settings.n > MAX_VARIANTS:
        st.warning(f"{len(cells)} cells × {settings.n} variants is more than {MAX_VARIANTS:,} variants: pick fewer "
                   f"cells or fewer variants per cell.")
        return
    bar = st.progress(0.0, text="Starting…")

    def progress(text: str, fraction: float) -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=text)

    try:
        result = engine.generate_variants(dissection, settings, progress)
    except Exception as exc:  # noqa: BLE001 - every failure becomes a message; the choices stay as they were
        st.error(_message(exc))
    else:
        state.set_variants(result, dissection)
        st.session_state[PAGE] = 1
    finally:
        bar.empty()


def _cell_rows(result: engine.PerturbResult) -> pd.DataFrame:
    by_cell: dict[tuple[str, str], list] = {}
    for v in result.variants:
        by_cell.setdefault((v.component, v.strategy), []).append(v)
    skipped = {(c, s): reason for c, s, reason in result.skipped}
    rows = []
    for cell in result.settings.cells:
        vs = by_cell.get(cell, [])
        ratios = [v.ppl_ratio for v in vs if v.ppl_ratio is not None]
        if cell in skipped:
            kind, _, why = skipped[cell].partition(": ")
            status = f"skipped: {kind}"
        else:
            status, why = "made", ""
        rows.append({"Component": cell[0], "Strategy": cell[1], "Variants": len(vs),
                     "Distinct": len({v.text for v in vs}),
                     "Kept": sum(v.kept is True for v in vs) if result.scored else None,
                     "Mean PPL ratio": sum(ratios) / len(ratios) if ratios else None,
                     "Max PPL ratio": max(ratios) if ratios else None, "Status": status, "Why": why})
    return pd.DataFrame(rows)


def _summary(result: engine.PerturbResult) -> None:
    kept = sum(v.kept is True for v in result.variants)
    m = st.columns(5)
    m[0].metric("Variants", len(result.variants))
    m[1].metric("Kept", kept if result.scored else "—",
                help="Not scored: the filter was off." if not result.scored else None)
    m[2].metric("Cells made", len(result.settings.cells) - len(result.skipped))
    m[3].metric("Cells skipped", len(result.skipped))
    m[4].metric("Clean PPL", f"{result.clean_ppl:.2f}" if result.scored else "—")
    s = result.settings
    keep = ("off" if not s.score else "keep all" if s.keep_top is None else f"keep top {s.keep_top:.0%}")
    st.caption(f"Ratio {s.ratio:g} · {s.n} variant(s) per cell · seed {s.seed} · filter: {keep} · SER: "
               f"{'offline WordNet rewrite' if s.offline_ser else 'model paraphrase'}")
    st.dataframe(_cell_rows(result), hide_index=True, width="stretch", column_config={
        "Mean PPL ratio": st.column_config.NumberColumn(format="%.3f", help="mean of PPL(variant) / PPL(clean)"),
        "Max PPL ratio": st.column_config.NumberColumn(format="%.3f"),
        "Kept": st.column_config.NumberColumn(help="variants the perplexity filter kept"),
        "Distinct": st.column_config.NumberColumn(help="different texts among the cell's variants (COD removes the "
                                                       "whole component, so all its seeds give the same text)"),
        "Why": st.column_config.TextColumn(width="large"),
    })


def _browse(result: engine.PerturbResult) -> None:
    cells = list(dict.fromkeys((v.component, v.strategy) for v in result.variants))
    if not cells:
        return
    labels = [ALL_CELLS] + [f"{c} × {s}" for c, s in cells]
    if st.session_state.get(VIEW_CELL) not in labels:
        st.session_state[VIEW_CELL] = ALL_CELLS
    c1, c2, c3 = st.columns([3, 3, 2], vertical_alignment="bottom")
    c1.selectbox("Cell", labels, key=VIEW_CELL)
    c2.radio("Show", SHOWS, key=SHOW, horizontal=True, disabled=not result.scored,
             help="Kept: the variants the perplexity filter kept; dropped ones stay visible, marked.")
    c3.toggle("Highest PPL ratio first", key=SORT, disabled=not result.scored)
    c3.toggle("Whole prompt in each diff", key=FULL,
              help=f"Off: unchanged text more than {CONTEXT_CHARS} characters from an edit is folded away.")
    chosen = st.session_state[VIEW_CELL]
    shown = [v for v in result.variants if chosen == ALL_CELLS or f"{v.component} × {v.strategy}" == chosen]
    show = st.session_state[SHOW] if result.scored else "All"
    if show == "Kept":
        shown = [v for v in shown if v.kept is True]
    elif show == "Dropped":
        shown = [v for v in shown if v.kept is False]
    if result.scored and st.session_state[SORT]:
        shown.sort(key=lambda v: -(v.ppl_ratio if v.ppl_ratio is not None else -math.inf))
    if not shown:
        st.caption("No variant to show with this choice.")
        return
    pages = math.ceil(len(shown) / PAGE_SIZE)
    st.session_state[PAGE] = min(max(int(st.session_state.get(PAGE) or 1), 1), pages)
    if pages > 1:
        p1, p2 = st.columns([1, 4], vertical_alignment="bottom")
        p1.number_input("Page", min_value=1, max_value=pages, step=1, key=PAGE)
    else:
        p2 = st.container()
    page = st.session_state[PAGE]
    first = (page - 1) * PAGE_SIZE
    p2.caption(f"Variants {first + 1}–{min(first + PAGE_SIZE, len(shown))} of {len(shown)}"
               + (f" · page {page} of {pages}" if pages > 1 else ""))
    st.html(diff.legend_html(dark=components.is_dark()))
    context = None if st.session_state[FULL] else CONTEXT_CHARS
    dark = components.is_dark()
    for v in shown[first:first + PAGE_SIZE]:
        with st.container(border=True):
            st.html(diff.variant_card_html(result.prompt, v, context=context, dark=dark))


def _results() -> None:
    stored = state.get_variants()
    if stored is None:
        return
    result = stored.result
    st.divider()
    st.subheader("Variants")
    if state.variants_stale():
        st.warning("Stale: these variants were made from an earlier dissection (the prompt or its labels changed "
                   "since). Press **Generate** to make variants of the current one.")
    for problem in result.problems:
        st.warning(problem)
    _summary(result)
    st.download_button("Download the variants (JSON)", key="perturb.download",
                       data=json.dumps([v.to_json() for v in result.variants], ensure_ascii=False, indent=2),
                       file_name="variants.json", mime="application/json", icon=":material/download:",
                       disabled=not result.variants)
    st.caption("The variants stay in this session for the run step (the kept ones, when the filter ran).")
    _browse(result)


st.html(f"<style>{diff.CSS}</style>")
st.title("Perturb a prompt")
st.caption("Perturb one component at a time (ComPerturb), beside a control group with the same edit budget, then "
           "keep per cell the variants a reference model finds most disturbed (perplexity ratio).")

dissection = state.get_dissection()
if dissection is None:
    st.info("There is no dissection yet. Dissect a prompt first: its components are what this page perturbs.")
    st.page_link("app_pages/dissect.py", label="Go to Dissect", icon=":material/biotech:")
else:
    state.keep_widgets({RATIO: 0.1, N: 5, SEED: 0, FILTER: "top", SHARE: 20, OFFLINE_SER: True, BASELINE_PICK: [],
                        FULL: False, SHOW: "All", PAGE: 1, SORT: False,
                        **{_cell_key(c, s): False for c in ROWS for s in COMPERTURB}})
    if state.is_stale():
        st.warning("The prompt on the Dissect page changed after it was dissected: variants are made from the "
                   "dissected text. Dissect again to perturb the new text.")
    present = [c.value for c in dissection.components()]
    with st.expander(f"The dissected prompt · {len(dissection.prompt):,} characters, {len(dissection.sentences)} "
                     f"sentences · {state.get_dissector() or 'unknown dissector'}"):
        components.legend()
        components.highlighted(dissection)

    left, right = st.columns([3, 2], gap="large")
    with left:
        st.subheader("Cells")
        cells = _grid(set(present))
        b1, b2, _ = st.columns([1, 1, 3])
        b1.button("Select all", key="perturb.all", on_click=_set_cells, args=(True, present + [CONTROL]),
                  width="stretch")
        b2.button("Clear", key="perturb.none", on_click=_set_cells, args=(False, present + [CONTROL]),
                  width="stretch")
        with st.expander("Whole-prompt baselines (Table 1 comparison)"):
            st.multiselect("Baselines", list(BASELINES), key=BASELINE_PICK,
                           help="PromptRobust-style character and word edits and MTTM-style metamorphic "
                                "transformations, applied to the whole prompt without the dissection.")
            st.caption("  \n".join(f"**{name}**: {glossary.BASELINES[name].split(': ', 1)[1]}"
                                    for name in BASELINES))
        cells += [(WHOLE_PROMPT, b) for b in st.session_state[BASELINE_PICK]]
    with right:
        st.subheader("Settings")
        _settings_column()

    n = int(st.session_state[N])
    g1, g2 = st.columns([1, 4], vertical_alignment="center")
    go = g1.button("Generate", type="primary", key=GENERATE, width="stretch", icon=":material/shuffle:")
    scoring = " · then perplexity on the embedded model" if st.session_state[FILTER] != "off" else ""
    g2.caption(f"{len(cells)} cell(s) × {n} = {len(cells) * n:,} variant(s){scoring}")
    if go:
        stop = g1.empty()
        stop.button("Stop", key="perturb.stop", icon=":material/stop:", width="stretch",
                    help="Stops at once; the perplexities already computed are cached, so Generate carries on "
                         "from them.")
        _generate(dissection, cells)
        stop.empty()
    _results()
