"""The Results page's wrapping of the run store and the report: cached reads keyed by (store path, run id, the run's
``updated`` stamp), so a renamed or resumed run is read again and an unchanged one is not."""
from __future__ import annotations

import html
import json
import tempfile
from pathlib import Path

import streamlit as st

from promptanatomy_core import report
from promptanatomy_core.store import RunStore

#: Session keys of the page (not widget keys).
CONFIRM_DELETE = "pa.results.confirm_delete"
REPORT_HTML = "pa.results.report_html"
#: (run id, updated) pairs whose prompt complexity the user asked for (it loads a model: on demand only).
PCM_SCORED = "pa.results.pcm_scored"


def session_runs(run_id: int | None = None) -> list[dict]:
    """This session's records of its runs (the Start and Run pages each keep their last run: ``run_id``,
    ``dissection_key``, …), only those of ``run_id`` when given; for the sidebar and the stale marks."""
    from . import quick, run as ui_run

    return [r for r in (st.session_state.get(quick.LAST), st.session_state.get(ui_run.LAST))
            if r and (run_id is None or r.get("run_id") == run_id)]


def ranking_markdown(frame, ppl_filter: str, model: str) -> str:
    """The components of ``model`` most fragile first, as a numbered markdown list of one-line readings."""
    return "\n".join(f"{i}. {html.escape(f.reading)}"
                     for i, f in enumerate(report.ranking(frame, ppl_filter, model), start=1))


def open_store() -> RunStore:
    """The run store at its default place (``$PROMPTANATOMY_STORE`` or the cache folder); the caller closes it."""
    return RunStore()


@st.cache_data(show_spinner=False, max_entries=16)
def cells(path: str, run_id: int, updated: str):
    """:func:`experiment.results` of the run (one row per cell)."""
    from promptanatomy_core.experiment import results

    with RunStore(path) as store:
        return results(run_id, store)


@st.cache_data(show_spinner=False, max_entries=16)
def records(path: str, run_id: int, updated: str) -> list[dict]:
    """:func:`experiment.result_records` of the run (per request: instance, correctness, decoding confidence)."""
    from promptanatomy_core.experiment import result_records

    with RunStore(path) as store:
        return result_records(run_id, store)


@st.cache_data(show_spinner=False, max_entries=16)
def complexity(path: str, run_id: int, updated: str) -> report.RunComplexity | str:
    """:func:`report.run_complexity` of the run's clean prompt(s), computed once per run (the sentence-embedding
    model loads lazily, on the first prompt with two sentences or more); a string saying why when it failed."""
    try:
        with RunStore(path) as store:
            return report.run_complexity(store, run_id)
    except Exception as exc:  # the page degrades with a note, never an exception
        return f"Prompt complexity not computed: {exc}"


@st.cache_data(show_spinner=False, max_entries=32)
def cell_variants(path: str, run_id: int, updated: str, model: str, component: str, perturbation: str,
                  ppl_filter: str) -> list[dict]:
    with RunStore(path) as store:
        return report.cell_variants(run_id, store, model, component, perturbation, ppl_filter)


@st.cache_data(show_spinner=False, max_entries=4)
def html_report(path: str, run_id: int, updated: str, ppl_filter: str) -> str:
    pcm = complexity(path, run_id, updated)
    with RunStore(path) as store:
        return report.build_html(run_id, store, ppl_filter=ppl_filter, frame=cells(path, run_id, updated),
                                 records=records(path, run_id, updated),
                                 complexity=pcm if isinstance(pcm, report.RunComplexity) else None)


def variants_csv(store: RunStore, run_id: int) -> str:
    """The per-variant results as CSV text (the store's CSV export)."""
    with tempfile.TemporaryDirectory() as tmp:
        return store.export_csv(run_id, Path(tmp) / "variants.csv").read_text(encoding="utf-8")


def run_json(store: RunStore, run_id: int) -> str:
    return json.dumps(store.export_json(run_id), ensure_ascii=False, indent=1)


def clear() -> None:
    """Forget cached reads (after a rename or a delete)."""
    cells.clear()
    records.clear()
    complexity.clear()
    cell_variants.clear()
    html_report.clear()
