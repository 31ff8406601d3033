"""The Run page's wrapping of the experiment engine: specs from the page's choices, a plan and its dry-run estimate kept
in the session, backends from the sidebar's models, execution into the run store with a progress callback, and the
hand-over to the Results page.

The same engine calls as ``promptanatomy run`` (:mod:`promptanatomy_core.cli.run`): ``plan`` → ``estimate`` →
``execute`` / ``resume``; running the same spec again carries on its stored run (``find_run``).
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import streamlit as st

from promptanatomy_core.experiment import ExperimentSpec, Instance
from promptanatomy_core.speed import DEFAULT, Speeds, is_local
from promptanatomy_core.types import Dissection

#: Session keys (never widget keys).
PLAN = "pa.run.plan"
LAST = "pa.run.last"
#: The Results page's run selectbox (its widget key): set to show a finished run there.
RESULTS_RUN = "results.run"
RESULTS_PAGE = "app_pages/results.py"
#: How a time estimate says where its speeds come from: the local models' recent answers in the run store
#: (:mod:`promptanatomy_core.speed`), the default speeds, or some of each.
MEASURED = "from this machine's last runs"
ROUGH = "rough default speed"
PARTLY = "partly from this machine's last runs"
#: Seconds the measured speeds are kept before the run store is read again.
SPEEDS_TTL_S = 10


class FixedDissector:
    """Gives the dissection the user made (with hand edits) for its prompt: the run uses it as it is."""

    def __init__(self, dissection: Dissection) -> None:
        self.dissection = dissection

    def dissect(self, prompt: str) -> Dissection:
        return self.dissection


def prompt_spec(dissection: Dissection, dissector: str, dissection_key: str, expected: str | None,
                **options: Any) -> ExperimentSpec:
    """A spec for the current dissection; the dissector's name carries the dissection's fingerprint, so an edited
    dissection is a new spec (a new run), the same one carries on its run."""
    return ExperimentSpec.from_prompt(dissection.prompt, (expected or "").strip() or None,
                                      dissector=f"{dissector or 'session'}#{dissection_key}", **options)


def columns_of(path: str) -> list[str]:
    """The column names of a CSV/TSV header, or of the first object of a JSONL / JSON-list file ([] if none)."""
    from promptanatomy_core.dataset_input import detect_format

    fmt = detect_format(path)
    text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    if fmt in ("csv", "tsv"):
        import csv
        import io

        header = next(csv.reader(io.StringIO(text), delimiter="\t" if fmt == "tsv" else ","), [])
        return [h.strip() for h in header]
    try:
        if fmt == "jsonl":
            first = next((line for line in text.splitlines() if line.strip()), "{}")
            item = json.loads(first)
        else:
            data = json.loads(text)
            item = data[0] if isinstance(data, list) and data else {}
    except (json.JSONDecodeError, IndexError):
        return []
    return list(item) if isinstance(item, dict) else []


def save_upload(name: str, data: bytes) -> str:
    """An uploaded file written to a temporary folder under its own name (the suffix tells the format)."""
    folder = Path(tempfile.mkdtemp(prefix="pa-upload-"))
    path = folder / Path(name).name
    path.write_bytes(data)
    return str(path)


def read_dataset(path: str, prompt: str | None, tagged: str | None, answer: str | None, limit: int) -> list[Instance]:
    """The instances of a dataset file with the chosen columns (DatasetInputError names file, line and column)."""
    from promptanatomy_core.dataset_input import Columns, read_instances

    return read_instances(path, Columns(prompt=prompt or None, tagged=tagged or None, answer=answer or None),
                          limit=limit)


def spec_key(spec: ExperimentSpec) -> str:
    return hashlib.sha256(json.dumps(spec.to_json(), sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass
class Planned:
    """A plan for the spec with key ``key``, its estimate and the stored run it would carry on (None: a new run)."""

    key: str
    plan: Any
    estimate: Any
    run_id: int | None


def make_plan(spec: ExperimentSpec, *, offline_ser: bool = True,
              dissection: Dissection | None = None,
              progress: Callable[[str, int, int], None] | None = None) -> Planned:
    """Dissect (or take ``dissection``), perturb and — with ``keep_top`` — score by perplexity; then the dry-run
    estimate against the response cache and the run store (a stored run of the same spec: only what it lacks)."""
    from promptanatomy_core.cli.run import find_run
    from promptanatomy_core.experiment import estimate, plan
    from promptanatomy_core.models.cache import ResponseCache

    from ui import engine, results

    scorer = engine.get_scorer() if spec.keep_top is not None else None
    p = plan(spec, scorer=scorer, strategy_params={"SER": {"offline": offline_ser}},
             dissector=FixedDissector(dissection) if dissection is not None else None, progress=progress)
    with results.open_store() as store:
        run_id = find_run(store, spec)
        cache = ResponseCache()
        try:
            est = estimate(p, cache=cache, store=store, run_id=run_id)
        finally:
            cache.close()
    return Planned(spec_key(spec), p, est, run_id)


def plan_progress_text(stage: str, done: int, total: int) -> str:
    """The label of :func:`make_plan`'s progress bar for one ``progress(stage, done, total)`` call."""
    if stage == "score":
        return f"Perplexity filter: {done} of {total} distinct texts scored"
    return f"Perturbing: {done} of {total} prompt(s)"


@st.cache_data(ttl=SPEEDS_TTL_S, show_spinner=False, max_entries=16)
def _measured_speeds(path: str, specs: tuple[str, ...]) -> dict[str, Speeds | None]:
    from promptanatomy_core.speed import local_speeds as fit
    from promptanatomy_core.store import RunStore

    with RunStore(path) as store:
        return {spec: fit(store, spec) for spec in specs}


def local_speeds(specs: Any) -> dict[str, Speeds]:
    """Each local SPEC among ``specs`` → its speeds measured from this machine's recent answers in the run store
    (:func:`promptanatomy_core.speed.local_speeds`), else the defaults (too few answers, an unreadable store)."""
    from promptanatomy_core.store import default_path

    local = tuple(dict.fromkeys(str(s) for s in specs if is_local(s)))
    if not local:
        return {}
    try:
        measured = _measured_speeds(str(default_path()), local)
    except Exception:  # noqa: BLE001 - an estimate never fails for want of a store
        measured = {}
    return {spec: measured.get(spec) or DEFAULT for spec in local}


def duration(seconds: float) -> str:
    """``about 40 s`` / ``about 3 min``."""
    return f"about {seconds / 60:.0f} min" if seconds >= 90 else f"about {max(seconds, 1):.0f} s"


def timed(seconds: float, measured: list[bool]) -> str:
    """``about 3 min, from this machine's last runs`` (every speed used was measured), ``…, rough default speed``
    (none was) or ``…, partly from this machine's last runs``."""
    source = MEASURED if measured and all(measured) else PARTLY if any(measured) else ROUGH
    return f"{duration(seconds)}, {source}"


def time_hint(est: Any, speeds: dict[str, Speeds] | None = None) -> str | None:
    """The time the local models' requests still to send will take (every answer at full length), and where the
    speeds come from; None when no local model has requests to send. ``speeds``: SPEC → Speeds (default: measured,
    :func:`local_speeds`). An estimate's tokens are those of the requests it sends already (cache hits left out)."""
    todo = [e for e in est.models if is_local(e.model) and e.to_send]
    if speeds is None:
        speeds = local_speeds(e.model for e in todo)
    seconds, measured = 0.0, []
    for e in todo:
        s = speeds.get(str(e.model), DEFAULT)
        seconds += s.seconds(e.input_tokens, e.output_tokens_max)
        measured.append(s.measured)
    return timed(seconds, measured) if seconds > 0 else None


def build_runners(models: list) -> dict[str, Any]:
    """A Runner per sidebar model (its key, concurrency and time-out); raises BackendError / ValueError with the
    specific message (a missing key names its variable) before anything is sent."""
    from promptanatomy_core.models.runner import Runner

    from ui import models_sidebar

    return {choice.spec: Runner(models_sidebar.build_backend(choice), concurrency=choice.concurrency,
                                timeout=choice.timeout) for choice in models}


def start(planned: Planned, runners: dict[str, Any], name: str, progress: Callable[[Any], None]) -> Any:
    """Execute the plan into the run store, carrying on the stored run of the same spec when there is one (e.g. a
    run stopped since the estimate); returns ExecuteResult and the last provider error message (or None)."""
    from promptanatomy_core.cli.run import find_run
    from promptanatomy_core.experiment import execute

    from ui import results

    with results.open_store() as store:
        run_id = find_run(store, planned.plan.spec)
        out = execute(planned.plan, store, run_id=run_id, name=name or None, runner=runners, progress=progress)
        errors = store.errors(out.run_id) if out.errors else []
    results.clear()
    return out, (errors[-1]["message"] if errors else None)


def resume_run(run_id: int, runners: dict[str, Any], progress: Callable[[Any], None]) -> Any:
    from promptanatomy_core.experiment import resume

    from ui import results

    with results.open_store() as store:
        out = resume(store, run_id, runner=runners, progress=progress)
        errors = store.errors(out.run_id) if out.errors else []
    results.clear()
    return out, (errors[-1]["message"] if errors else None)


def interrupted_runs() -> list:
    """Stored runs left ``interrupted`` (a stopped page, or a crashed execution), newest first; a run still being
    executed (its lease is live) is ``running``, not listed."""
    from ui import results

    with results.open_store() as store:
        return [r for r in store.list_runs() if r.status == "interrupted"]


def not_started(box: Any, exc: Exception) -> None:
    """Say in ``box`` (the page's ``st.status``) and under it that the run is being executed elsewhere
    (``RunBusyError``): by a run just stopped that is still storing its answers in flight, another browser tab, or
    ``promptanatomy run``."""
    box.update(label="Not started", state="error")
    st.error(f"Not started: {exc}. A run just stopped is free again once its answers in flight are stored.")


def run_models(spec_models: tuple[str, ...], available: list) -> list:
    """The sidebar choices for the SPECs of a stored run (a SPEC no longer in the sidebar gets default settings)."""
    from ui import models_sidebar

    by_spec = {c.spec: c for c in available}
    return [by_spec.get(m) or models_sidebar.ModelChoice(spec=m) for m in spec_models]


def show_in_results(run_id: int) -> None:
    """Select ``run_id`` on the Results page (a button callback)."""
    st.session_state[RESULTS_RUN] = run_id
