"""Results: pick a stored run, read its ASR and PSS heatmaps (one per model, one colour scale), the components most
fragile first, drill into a cell's variants, compare two runs (before / after an edit) and export the run."""
import html

import streamlit as st

from promptanatomy_core import glossary, report
from promptanatomy_core.store import StoreError
from ui import components, diff, state
from ui import results as ui_results

RUN = "results.run"
FILTER = "results.filter"
COMPARE = "results.compare"
NEW_NAME = "results.new_name"
DRILL_MODEL = "results.drill.model"
DRILL_COMPONENT = "results.drill.component"
DRILL_PERTURBATION = "results.drill.pert"
CONTEXT_CHARS = 240
NONE = "—"


def _delta_style(d: float) -> str:
    """More failures after the edit: orange, fewer: purple (PuOr, colour-blind-safe), stronger with the size."""
    if d != d or d == 0:
        return ""
    alpha = 0.15 + 0.55 * min(1.0, abs(d))
    rgb = "230,97,1" if d > 0 else "94,60,153"
    return f"background-color: rgba({rgb},{alpha:.2f}); font-weight: 600"


def _side_figure(run_frame, run, model: str, when: str, flt: str):
    """One run's ASR heatmap for the Compare runs tab, titled with the run (``Before: #id · name``); the chosen
    variants filter where that run has it, else the run's default one."""
    shown = flt if flt in report.filters(run_frame) else report.default_filter(run_frame)
    title = (f"{when}: #{run.id} · {html.escape(run.name)}<br><span style=\"font-size:12px\">ASR · "
             f"{html.escape(model)} · {html.escape(shown)}</span>")
    return report.heatmap_figure(run_frame, model, "asr", shown, title=title).update_layout(margin={"t": 70})


def _complexity(pcm) -> None:
    """The PCM table of a run (``ui.results.complexity``'s result: a RunComplexity, or a string saying why not)."""
    if isinstance(pcm, str):
        st.warning(pcm)
        return
    if not pcm.rows:
        st.info("No clean prompt stored: no prompt complexity.")
        return
    import pandas as pd  # a static table: the one-line meanings wrap instead of being cut

    st.table(pd.DataFrame(
        [{"part": r["part"], "value": report.number(r["mean"]), "weight": f"{r['weight']:g}",
          "what it measures": r["meaning"]} for r in pcm.rows]
        + [{"part": "PCM (weighted total)", "value": report.number(pcm.total), "weight": "",
            "what it measures": ""}]).set_index("part"))
    scope = f"{pcm.prompts} distinct clean prompt(s)"
    if pcm.total_prompts > pcm.prompts:
        scope += f" (the first {pcm.prompts} of {pcm.total_prompts})"
    st.caption(f"Over {scope}" + (": values are means." if pcm.prompts > 1 else "."))
    for note in pcm.notes:
        (st.warning if "not computed" in note else st.caption)(note)


def _page(store) -> None:
    """The page for an open run store (returns early when there is nothing to show)."""
    runs = store.list_runs()
    if not runs:
        st.info("No stored runs yet. Run an experiment (the `promptanatomy run` command or the Run page); its results "
                f"land in the run store `{store.path}` and show here.")
        return
    by_id = {r.id: r for r in runs}
    if st.session_state.get(RUN) not in by_id:
        st.session_state[RUN] = runs[0].id

    def _label(run_id: int) -> str:
        r = by_id[run_id]
        return f"#{r.id} · {r.name} · {r.status} · {r.created.replace('T', ' ').rstrip('Z')}"

    st.selectbox("Run", list(by_id), format_func=_label, key=RUN,
                 help=f"Runs in the run store `{store.path}`, newest first.")
    info = by_id[st.session_state[RUN]]
    if any(state.run_stale(last) for last in ui_results.session_runs(info.id)):
        st.warning(f"Run #{info.id} was made in this session from an earlier version of the prompt or of its labels: "
                   f"it does not describe the current dissection.")
    path = str(store.path)

    with st.expander("Rename or delete this run"):
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        c1.text_input("New name", value=info.name, key=f"{NEW_NAME}.{info.id}")
        if c2.button("Rename", key="results.rename"):
            try:
                store.rename_run(info.id, st.session_state[f"{NEW_NAME}.{info.id}"])
            except StoreError as exc:
                st.error(str(exc))
            else:
                ui_results.clear()
                st.rerun()
        if st.session_state.get(ui_results.CONFIRM_DELETE) == info.id:
            st.warning(f"Delete run #{info.id} ({info.name}) and everything stored for it? This cannot be undone.")
            d1, d2 = st.columns(2)
            if d1.button("Yes, delete it", type="primary", key="results.delete_yes"):
                store.delete_run(info.id)
                st.session_state.pop(ui_results.CONFIRM_DELETE, None)
                st.session_state.pop(RUN, None)
                ui_results.clear()
                st.rerun()
            if d2.button("Cancel", key="results.delete_no"):
                st.session_state.pop(ui_results.CONFIRM_DELETE, None)
                st.rerun()
        elif st.button("Delete this run…", key="results.delete"):
            st.session_state[ui_results.CONFIRM_DELETE] = info.id
            st.rerun()

    frame = ui_results.cells(path, info.id, info.updated)
    spec = info.spec or {}
    m = st.columns(4)
    m[0].metric("Requests", info.requests)
    m[1].metric("Answered", info.responses)
    m[2].metric("Errors", info.errors, help="Provider errors: outside every cell's n.")
    m[3].metric("Instances", len(spec.get("instances", ())))
    keep = spec.get("keep_top")
    st.caption(f"Models: {', '.join(map(str, spec.get('models', ())))} · criterion: `{spec.get('criterion', '')}` · "
               f"n={spec.get('n', '')} per cell · PPL filter: "
               + ("none" if keep is None else f"top {float(keep) * 100:g}%"))
    if frame.empty:
        st.info("This run has no judged answers yet: resume it to fill its cells.")
        return

    found = report.filters(frame)
    if st.session_state.get(FILTER) not in found:
        st.session_state[FILTER] = report.default_filter(frame)
    if len(found) > 1:
        st.radio("Variants", found, key=FILTER, horizontal=True,
                 help="all: every variant sent; top…%: only those the perplexity filter kept.")
    flt = st.session_state[FILTER]
    cleans = report.clean_rates(frame)
    if cleans:
        st.caption(" · ".join(f"Clean prompts on {mod}: {report.pct(r['asr'])} failed "
                              f"(95% CI {report.interval(r['asr_low'], r['asr_high'])}, n={r['n']})"
                              for mod, r in cleans.items()))

    tabs = st.tabs(["Heatmaps", "Most fragile", "Drill-down", "Compare runs", "Cells", "Export",
                    "Confidence vs PSS", "Prompt complexity"])
    models = report.models(frame)

    with tabs[0]:
        for metric, label in report.METRICS.items():
            st.subheader(f"{label} by component × perturbation", help=glossary.METRICS[label])
            st.caption(report.METRIC_HELP[metric] + " One colour scale (0 to 1) for every model; hover a cell for "
                       "its interval.")
            cols = st.columns(min(2, len(models)))
            for k, mod in enumerate(models):
                with cols[k % len(cols)]:
                    st.plotly_chart(report.heatmap_figure(frame, mod, metric, flt), width="stretch",
                                    key=f"results.heat.{metric}.{k}")

    with tabs[1]:
        st.caption("Pooled over each component's perturbations. CRT, the control group, puts the same edits anywhere "
                   "in the prompt: a component above it is more fragile than chance.")
        for mod in models:
            st.markdown(f"**{html.escape(mod)}**")
            st.markdown(ui_results.ranking_markdown(frame, flt, mod))

    with tabs[2]:
        rows, cols_ = report.axes(frame, flt)
        c1, c2, c3 = st.columns(3)
        model = c1.selectbox("Model", models, key=DRILL_MODEL)
        component = c2.selectbox("Component", rows, key=DRILL_COMPONENT)
        perturbation = c3.selectbox("Perturbation", cols_, key=DRILL_PERTURBATION)
        items = ui_results.cell_variants(path, info.id, info.updated, model, component, perturbation, flt)
        if not items:
            st.info("No variants in this cell.")
        else:
            st.html(diff.legend_html(dark=components.is_dark()))
        for k, it in enumerate(items):
            verdict = {True: "✓ correct", False: "✗ failed (attack success)", None: "not judged"}[it["correct"]]
            if not it["answered"]:
                verdict = "✗ no answer (provider error)"
            ratio = "" if it["ppl_ratio"] is None else f" · PPL ratio {it['ppl_ratio']:.3f}"
            with st.expander(f"{it['instance_id']} · seed {it['variant'].seed} · {verdict}{ratio}", expanded=k == 0):
                st.html(diff.variant_card_html(it["clean"], it["variant"], context=CONTEXT_CHARS,
                                               dark=components.is_dark()))
                a, b = st.columns(2)
                with a:
                    st.markdown("**Response**")
                    if it["answered"]:
                        st.code(it["response"] or "", language=None, wrap_lines=True)
                    else:
                        st.error(it["error"] or "not answered")
                    st.markdown(f"**Judgment:** {verdict}" + ("" if it["score"] is None else
                                                              f" · score {it['score']:.2f}"))
                    if it["reason"]:
                        st.caption(it["reason"])
                with b:
                    st.markdown("**Clean prompt's response**")
                    st.code(it["clean_response"] or "", language=None, wrap_lines=True)
                    if it["expected"] is not None:
                        st.caption(f"Expected answer: {it['expected']}")

    with tabs[3]:
        others = [r for r in runs if r.id != info.id]
        if not others:
            st.info("Store a second run (for example after editing the prompt) to compare it with this one.")
        else:
            choice = st.selectbox("Compare with (before)", [None] + [r.id for r in others], key=COMPARE,
                                  format_func=lambda i: NONE if i is None else _label(i),
                                  help="This run is *after*; the chosen one *before*. Cells show ASR after − before.")
            if choice is not None:
                before = ui_results.cells(path, choice, by_id[choice].updated)
                delta = report.delta_frame(before, frame)
                if delta.empty:
                    st.warning("The two runs share no model: nothing to compare cell by cell.")
                else:
                    st.caption("Each run's own ASR, before | after, on the same colour scale (0 to 1); hover a cell "
                               "for its interval.")
                    for k, (m_before, m_after) in enumerate(report.pair_models(before, frame)):
                        side = st.columns(2)
                        for col, (when, run_frame, r, mod) in zip(side, (("Before", before, by_id[choice], m_before),
                                                                         ("After", frame, info, m_after))):
                            with col:
                                st.plotly_chart(_side_figure(run_frame, r, mod, when, flt), width="stretch",
                                                key=f"results.side.{k}.{when.lower()}")
                    shown = delta[delta["ppl_filter"] == flt] if (delta["ppl_filter"] == flt).any() else delta
                    pairs = list(dict.fromkeys(shown["model"]))
                    dcols = st.columns(min(2, len(pairs)))
                    for k, mod in enumerate(pairs):
                        with dcols[k % len(dcols)]:
                            st.plotly_chart(report.delta_figure(shown, mod, None), width="stretch",
                                            key=f"results.delta.{k}")
                    st.caption("Largest ASR changes first; positive = more failures after the edit.")
                    st.dataframe(
                        shown.style.format({"asr_before": "{:.0%}", "asr_after": "{:.0%}", "delta_asr": "{:+.0%}",
                                            "pss_before": "{:.2f}", "pss_after": "{:.2f}", "delta_pss": "{:+.2f}"},
                                           na_rep="–")
                        .map(_delta_style, subset=["delta_asr"]),
                        hide_index=True, width="stretch")

    with tabs[4]:
        st.dataframe(frame, hide_index=True, width="stretch")

    with tabs[5]:
        slug = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in info.name)[:40] or "run"
        e1, e2, e3, e4 = st.columns(4)
        e1.download_button("Cells (CSV)", frame.to_csv(index=False), f"run{info.id}_{slug}_results.csv",
                           "text/csv", key="results.dl.cells", on_click="ignore")
        e2.download_button("Variants (CSV)", ui_results.variants_csv(store, info.id),
                           f"run{info.id}_{slug}_variants.csv", "text/csv", key="results.dl.variants",
                           on_click="ignore")
        e3.download_button("Run (JSON)", ui_results.run_json(store, info.id), f"run{info.id}_{slug}.json",
                           "application/json", key="results.dl.json", on_click="ignore")
        with e4:
            if st.button("Build the HTML report", key="results.build_html",
                         help="One self-contained file (plotly embedded, about 5 MB) that opens offline."):
                st.session_state[ui_results.REPORT_HTML] = (info.id, info.updated, flt)
            if st.session_state.get(ui_results.REPORT_HTML) == (info.id, info.updated, flt):
                st.download_button("Download report.html", ui_results.html_report(path, info.id, info.updated, flt),
                                   f"run{info.id}_{slug}_report.html", "text/html", key="results.dl.html",
                                   on_click="ignore")

    with tabs[6]:
        st.caption(report.CONFIDENCE_HELP)
        view = report.confidence_view(frame, ui_results.records(path, info.id, info.updated), flt)
        if view.points:
            st.plotly_chart(report.confidence_figure(view), width="stretch", key="results.confidence")
        if view.note:
            st.info(view.note)

    with tabs[7]:
        st.caption("PCM, the paper's Prompt Complexity Metric, of this run's clean prompt(s): five parts on their own "
                   "scales and their weighted total (comparable only between prompts scored with the same weights).")
        scored = st.session_state.setdefault(ui_results.PCM_SCORED, set())
        if (info.id, info.updated) not in scored and st.button(
                "Score the prompt complexity", key="results.pcm", icon=":material/functions:",
                help="Loads a sentence-embedding model (tens of seconds the first time on a CPU), then scores the "
                     "clean prompt(s) once per run."):
            scored.add((info.id, info.updated))
        if (info.id, info.updated) in scored:
            with st.spinner("Scoring the prompt's complexity (loads a sentence-embedding model once)…"):
                _complexity(ui_results.complexity(path, info.id, info.updated))


st.title("Results")
st.caption("Which component of the prompt is fragile, against which perturbation, on which model, and how sure we "
           "are. **ASR**: share of judged answers a perturbation made fail (Wilson 95% interval). **Flip rate**: the "
           "same among answers that were right on the clean prompt. **PSS**: how often an instance's answer changes "
           "between its prompts (0 = never, 1 = always).")
st.html(f"<style>{diff.CSS}</style>")

try:
    store = ui_results.open_store()
except StoreError as exc:
    st.error(f"The run store cannot be opened: {exc}")
else:
    try:
        _page(store)
    finally:
        store.close()
