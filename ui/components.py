"""Widgets shared by the pages: the settings sidebar, the highlighted prompt, the summary, the label editor."""
from __future__ import annotations

import json
from collections.abc import Mapping

import pandas as pd
import streamlit as st

from promptanatomy_core.settings import cache_dir
from promptanatomy_core.tagged import render_tagged
from promptanatomy_core.types import COMPONENTS, Dissection

from . import engine, state
from .highlight import STYLES, highlight_html, legend_html
from .summary import agreement, component_summary, unlabelled_count


def inject_css() -> None:
    """Load assets/components.css into the page (call once per run, from app.py)."""
    st.html(f"<style>{engine.css()}</style>")


def is_dark() -> bool:
    """Whether the browser shows the dark theme (unknown, e.g. in AppTest: light)."""
    return st.context.theme.type == "dark"


def settings_sidebar() -> None:
    """Dissector, model SPEC and where caches and datasets live."""
    with st.sidebar:
        st.header("Settings")
        names = engine.available_dissectors()
        if not names:
            st.error("No dissector is installed (promptanatomy_core.dissect registered none).")
            return
        if st.session_state.get(state.SETTING_DISSECTOR) not in names:
            st.session_state[state.SETTING_DISSECTOR] = (
                state.DEFAULT_DISSECTOR if state.DEFAULT_DISSECTOR in names else names[0])
        st.selectbox("Dissector", names, key=state.SETTING_DISSECTOR,
                     help="rules: fast, offline cue rules; on prompts unlike the ones they were written on, about "
                          "four sentences in five get the labels an independent annotator gives (README, Accuracy), "
                          "so check the labels and fix them by hand on the Dissect page. llm: asks a model about "
                          "each sentence (slow on CPU: tens of seconds); worth it with a capable model, not with the "
                          "small embedded one, which labels far fewer sentences right than rules.")
        uses_model = st.session_state[state.SETTING_DISSECTOR] in engine.MODEL_DISSECTORS
        st.session_state.setdefault(state.SETTING_MODEL, state.DEFAULT_MODEL)
        st.text_input("Model SPEC (llm dissector)", key=state.SETTING_MODEL, disabled=not uses_model,
                      help="`local` (the embedded model), `local:<hf id or path>`, `openai:<model>`, "
                           "`openai:<model>@<base_url>`, `anthropic:<model>`")
        st.session_state.setdefault(state.SETTING_TIMEOUT, state.DEFAULT_TIMEOUT_S)
        st.number_input("Model time-out (seconds)", min_value=5, max_value=3600, step=30, key=state.SETTING_TIMEOUT,
                        disabled=not uses_model,
                        help="How long to wait for the model's answers; sentences still unanswered then take the "
                             "rules dissector's labels.")
        st.caption(f"Cache folder: `{cache_dir()}`")
        st.caption(f"Datasets folder: `{engine.dataset_dir()}`")


#: The marks of a step in the sidebar's "Your analysis": each its own icon, so colour is never the only cue.
STEP_MARKS = {"warn": ":orange[:material/warning:]", "done": ":green[:material/check_circle:]",
              "todo": ":gray[:material/radio_button_unchecked:]"}


def _step(done: bool, text: str, stale: bool = False, warn: bool = False) -> str:
    """One line of the sidebar's "Your analysis": its mark (a warning when ``stale`` or ``warn``, else done or not
    yet) and ``text``, marked stale when it is."""
    mark = STEP_MARKS["warn" if stale or warn else "done" if done else "todo"]
    return f"{mark} {text}" + (" · **stale**" if stale else "")


def flow_sidebar() -> None:
    """Where the user is: the prompt, its dissection, the variants and the last run of this session, each marked
    done, stale (made from an earlier prompt or labels) or not yet; and the run store in use."""
    from promptanatomy_core.store import default_path

    from . import results

    prompt, dissection = state.get_prompt(), state.get_dissection()
    variants = state.get_variants()
    lines = [_step(bool(prompt.strip()), f"Prompt: {len(prompt):,} characters" if prompt.strip() else "Prompt")]
    if dissection is None:
        lines.append(_step(False, "Dissection"))
    else:
        edited = " · edited" if "manual" in dissection.source_list else ""
        text = f"Dissection: {len(dissection.sentences)} sentences · {state.get_dissector()}{edited}"
        lines.append(_step(True, text, stale=state.is_stale()))
    if variants is None:
        lines.append(_step(False, "Variants (Perturb)"))
    else:
        lines.append(_step(True, f"Variants: {len(variants.variants)}", stale=state.variants_stale()))
    runs = results.session_runs()
    if not runs:
        lines.append(_step(False, "Run"))
    else:
        last = max(runs, key=lambda r: r["run_id"])
        status = f" · {last['status']}" if "status" in last else ""
        lines.append(_step(True, f"Last run: #{last['run_id']}{status}", stale=state.run_stale(last),
                           warn=last.get("status") not in (None, "done")))
    with st.container():
        st.header("Your analysis")
        st.markdown("  \n".join(lines), help="Stale: made from an earlier version of the prompt or of its labels; "
                                             "run that step again.")
        st.caption(f"Run store: `{default_path()}`")


def error_message(exc: BaseException) -> str:
    """A specific, one-paragraph message for the user (never a traceback)."""
    from promptanatomy_core.models.base import BackendError
    from promptanatomy_core.text import PromptError

    if isinstance(exc, PromptError):
        return f"Cannot dissect this prompt: {exc}"
    if isinstance(exc, BackendError):
        return f"The model failed: {exc}"
    if isinstance(exc, TimeoutError):
        return f"The model timed out: {exc or 'no answer in time'}"
    if isinstance(exc, ValueError):  # e.g. a model SPEC that does not parse
        return f"Cannot dissect: {exc}"
    return f"Dissection failed ({type(exc).__name__}): {exc}"


def model_problems(result: engine.DissectResult) -> None:
    """Say which sentences the model could not label (they took the fallback dissector's labels)."""
    if not result.problems:
        return
    n, total = len(result.problems), len(result.dissection.sentences)
    shown = "; ".join(result.problems[:3]) + (f"; and {n - 3} more" if n > 3 else "")
    text = (f"The model could not label {n} of {total} sentence(s); they took the rules dissector's labels "
            f"(source shown as a fallback). {shown}")
    (st.error if n == total else st.warning)(text)


def gold_agreement(dissection: Dissection | None, gold: Dissection) -> None:
    """How many sentences of the current dissection carry exactly the gold labels."""
    if dissection is None or dissection is gold:
        return
    result = agreement(dissection, gold)
    if result is None:
        if dissection.prompt == gold.prompt:
            st.caption("The dissector split the sentences differently from the gold annotation, so they are not "
                       "compared sentence by sentence.")
        return
    same, total = result
    st.caption(f"Agreement with the gold labels: {same} of {total} sentences ({100 * same / total:.0f}%) "
               f"have exactly the same labels.")


def legend() -> None:
    st.html(legend_html(dark=is_dark()))


def highlighted(dissection: Dissection) -> None:
    st.html(highlight_html(dissection, dark=is_dark()))


def summary_table(dissection: Dissection) -> None:
    rows = [{"Component": f"{STYLES[s.component].badge} · {s.component.value}", "Sentences": s.sentences,
             "Words": s.words, "Share": round(100 * s.share, 1)}
            for s in component_summary(dissection)]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config={
        "Component": st.column_config.TextColumn("Component", width=190),
        **{name: st.column_config.NumberColumn(name, width=85) for name in ("Sentences", "Words")},
        "Share": st.column_config.ProgressColumn("Share of prompt", help="% of the prompt's sentence characters",
                                                 format="%.1f%%", min_value=0, max_value=100)})
    unlabelled = unlabelled_count(dissection)
    note = f" {unlabelled} sentence(s) have no label." if unlabelled else ""
    st.caption(f"{len(dissection.sentences)} sentences. A sentence with several labels counts for each.{note}")


def _with_edits(base: Dissection, edited_rows: Mapping) -> Dissection:
    """``base`` with the editor's changed cells applied; a changed row gets the source ``manual`` unless it is back
    to its original labels."""
    result = base
    for row, changes in edited_rows.items():
        i = int(row)
        if not 0 <= i < len(base.sentences):
            continue
        labels = set(base.sentences[i].labels)
        for comp in COMPONENTS:
            if comp.value in changes:
                (labels.add if changes[comp.value] else labels.discard)(comp)
        if labels != base.sentences[i].labels:
            result = result.relabel(i, labels, source="manual")
    return result


def label_editor(base: Dissection, key: str) -> Dissection:
    """A table of sentences with one checkbox per component; returns ``base`` with the edited rows relabelled.

    The table's labels always start from ``base`` (the editor keeps the user's changes as differences to it); its
    Source column shows the sources after the changes, so an edited row reads *manual* at once."""
    pending = st.session_state.get(key) or {}
    current = _with_edits(base, pending.get("edited_rows") or {})
    frame = pd.DataFrame({
        "#": range(1, len(base.sentences) + 1),
        "Sentence": [s.text for s in base.sentences],
        **{c.value: [c in s.labels for s in base.sentences] for c in COMPONENTS},
        "Source": list(current.source_list),
    })
    config = {c.value: st.column_config.CheckboxColumn(STYLES[c].badge, help=c.value, width=64) for c in COMPONENTS}
    config["#"] = st.column_config.NumberColumn("#", width=45)
    config["Sentence"] = st.column_config.TextColumn("Sentence", help="Hover a cell for the whole sentence",
                                                     width="large")
    config["Source"] = st.column_config.TextColumn("Source", width=90)
    st.data_editor(frame, key=key, hide_index=True, num_rows="fixed", width="stretch",
                   height=min(36 * (len(frame) + 1) + 3, 560),
                   disabled=["#", "Sentence", "Source"], column_config=config)
    return _with_edits(base, (st.session_state.get(key) or {}).get("edited_rows") or {})


def downloads(dissection: Dissection, dissector: str) -> None:
    as_json = json.dumps(dissection.to_json(dissector), indent=2, ensure_ascii=False)
    st.download_button("Download JSON", as_json, file_name="dissection.json", mime="application/json",
                       key="download.json", width="stretch")
    st.download_button("Download tagged text", render_tagged(dissection), file_name="dissection.tagged.txt",
                       mime="text/plain", key="download.tagged", width="stretch")
