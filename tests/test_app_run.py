"""The Run page through Streamlit's AppTest: guidance without input, a run of the current dissection and of a dataset
file with a column mapping against the scripted backend of test_experiment (under a test provider that takes the
sidebar's options), a bad mapping, and — marked slow — one tiny run on the real embedded model."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from streamlit.testing.v1 import AppTest

from promptanatomy_core.models.base import register_provider
from promptanatomy_core.store import RunStore
from test_experiment import TAGGED, Scripted

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PAGE = "app_pages/run.py"
MODEL = "scriptedapp:good"
PROMPT = ("You are a careful medical researcher.\n"
          "Read the abstract and answer the question with yes, no or maybe.\n"
          "Answer with one word.")

register_provider("scriptedapp")(lambda spec, **_: Scripted(spec))


@pytest.fixture()
def store_path(tmp_path, monkeypatch):
    path = tmp_path / "runs.sqlite"
    monkeypatch.setenv("PROMPTANATOMY_STORE", str(path))
    monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PROMPTANATOMY_DATA_DIR", str(tmp_path / "no-data"))
    return path


def rules(prompt: str):
    import promptanatomy_core.dissect  # noqa: F401  (registers the dissectors)
    from promptanatomy_core.dissect.base import get_dissector

    return get_dissector("rules").dissect(prompt)


def page(dissection=None, models=(MODEL,), **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page(PAGE)
    at.session_state["pa.models.selected"] = list(models)
    if dissection is not None:
        at.session_state["pa.dissection"] = dissection
        at.session_state["pa.dissection_base"] = dissection
        at.session_state["pa.prompt"] = dissection.prompt
        at.session_state["pa.dissector_used"] = "rules"
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    ok(at)
    return at


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at: AppTest, key: str, timeout: float = 120) -> AppTest:
    at.button(key=key).click()
    at.run(timeout=timeout)
    return ok(at)


def metrics(at: AppTest) -> dict:
    return {m.label: m.value for m in at.metric}


def test_no_dissection_and_no_dataset_give_guidance(store_path):
    at = page()
    assert any("no dissection yet" in i.value for i in at.info)
    at.radio(key="run.mode").set_value("Dataset").run()
    ok(at)
    assert any("Upload a CSV" in i.value for i in at.info)
    assert not at.error


def test_prompt_run_estimate_start_and_results(store_path):
    at = page(rules(PROMPT))
    at.multiselect(key="run.components").set_value(["Role", "Directive"])
    at.multiselect(key="run.strategies").set_value(["SCI", "WOD"]).run()
    ok(at)
    assert at.button(key="run.start").disabled
    click(at, "run.estimate")
    m = metrics(at)
    # 2 components × 2 strategies × n=1 + the clean prompt, one model
    assert m["Requests"] == "5" and m["Dollars"] == "unknown"
    assert not at.button(key="run.start").disabled
    click(at, "run.start")
    assert not at.error, [e.value for e in at.error]
    with RunStore(store_path) as store:
        runs = store.list_runs()
        assert len(runs) == 1 and runs[0].status == "done" and runs[0].responses == 5
        assert runs[0].spec["criterion"] == "differs" and runs[0].spec["models"] == [MODEL]
    done = [s.value for s in at.success]
    assert done and done[0].startswith(f"Run #{runs[0].id}: done")
    # the run carries on (nothing left to send) and the button selects it on the Results page
    click(at, "run.open_results")
    assert at.session_state["results.run"] == runs[0].id
    assert at.selectbox(key="results.run").value == runs[0].id


def test_an_interrupted_run_resumes(store_path):
    import threading

    from promptanatomy_core.experiment import ExperimentSpec, execute, plan
    from promptanatomy_core.models.base import get_backend
    from promptanatomy_core.models.runner import Runner

    spec = ExperimentSpec.from_prompt(PROMPT, "yes", models=(MODEL,), components=("Role", "Directive"),
                                      strategies=("SCI", "WOD"), keep_top=None, max_tokens=4)
    cancel = threading.Event()
    with RunStore(store_path) as store:
        first = execute(plan(spec), store, runner=lambda m: Runner(get_backend(m), cache=False, batch_size=1),
                        progress=lambda ev: cancel.set(), cancel=cancel)
        assert first.status == "interrupted" and first.answered < 5
    at = page()
    assert at.selectbox(key="run.resume_pick").value == first.run_id
    click(at, "run.resume")
    assert not at.error, [e.value for e in at.error]
    with RunStore(store_path) as store:
        info = store.get_run(first.run_id)
        assert info.status == "done" and info.responses == 5
    assert any(s.value.startswith(f"Run #{first.run_id}: done") for s in at.success)


def _estimate_and_start(at: AppTest, components=("Directive",), strategies=("WOD",)) -> AppTest:
    at.multiselect(key="run.components").set_value(list(components))
    at.multiselect(key="run.strategies").set_value(list(strategies)).run()
    click(at, "run.estimate")
    return click(at, "run.start")


def test_provider_errors_and_a_missing_key_are_messages(store_path, monkeypatch):
    at = page(rules(PROMPT), models=("scriptedapp:flaky",))
    _estimate_and_start(at, ("Role", "Directive", "Output Formatting"), ("SCI", "WOD"))
    errors = [e.value for e in at.error]
    assert errors and "request(s) failed (last: HTTP 500: scripted failure)" in errors[0]
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.errors > 0 and info.responses + info.errors == info.requests  # nothing lost
    for variable in ("OPENAI_API_KEY", "OPENAI_COMPATIBLE_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    at = page(rules(PROMPT), models=("openai:gpt-4o-mini",))
    _estimate_and_start(at)
    errors = [e.value for e in at.error]
    assert errors and errors[0].startswith("Cannot start:") and "OPENAI_API_KEY" in errors[0]


def test_the_perturb_pages_settings_and_a_pa_dataset(store_path, tmp_path, monkeypatch):
    from ui import engine

    d = rules(PROMPT)
    settings = engine.PerturbSettings(cells=(("Role", "SCI"), ("Directive", "SCI")), n=2, seed=3, score=False)
    from ui.state import VariantSet, dissection_key

    stored = VariantSet(dissection_key(d), engine.PerturbResult(settings, d.prompt))
    at = page(d, **{"pa.variants": stored})
    assert at.toggle(key="run.use_perturb").value
    assert not any(m.key == "run.components" for m in at.multiselect)
    click(at, "run.estimate")
    assert metrics(at)["Requests"] == str(2 * 2 + 1)
    click(at, "run.start")
    with RunStore(store_path) as store:
        spec = store.list_runs()[0].spec
        assert (spec["components"], spec["strategies"], spec["n"], spec["seed"]) == (["Role", "Directive"], ["SCI"],
                                                                                      2, 3)
    folder = tmp_path / "pacp"
    folder.mkdir()
    (folder / "Tiny-PA.json").write_text(json.dumps([
        {"context_output": TAGGED.format(topic="Aspirin", n=120), "answer": "yes"},
        {"context_output": TAGGED.format(topic="Statins", n=80), "answer": "no"}]), encoding="utf-8")
    monkeypatch.setenv("PROMPTANATOMY_DATA_DIR", str(folder))
    at = page(**{"run.mode": "Dataset"})
    assert at.selectbox(key="run.source").value == "Tiny-PA"
    at.number_input(key="run.limit").set_value(1)
    _estimate_and_start(at)
    assert not at.error, [e.value for e in at.error]
    with RunStore(store_path) as store:
        info = store.list_runs()[0]
        assert info.responses == 2 and [i["id"] for i in info.spec["instances"]] == ["Tiny-PA#0"]


def _jsonl(tmp_path, rows) -> str:
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return str(path)


def _dataset_page(path: str) -> AppTest:
    at = page(**{"run.mode": "Dataset"})
    at.selectbox(key="run.source").set_value("A file on this machine").run()
    at.text_input(key="run.path").set_value(path).run()
    return ok(at)


def test_dataset_file_with_a_column_mapping(store_path, tmp_path):
    path = _jsonl(tmp_path, [{"q": PROMPT, "gold": "yes"},
                             {"q": PROMPT.replace("careful", "seasoned"), "gold": "no"}])
    at = _dataset_page(path)
    assert at.selectbox(key="run.col.prompt").value == "q"
    at.selectbox(key="run.col.answer").set_value("gold").run()
    at.multiselect(key="run.components").set_value(["Directive"])
    at.multiselect(key="run.strategies").set_value(["WOD"]).run()
    ok(at)
    assert any("2 instance(s) · 2 with an expected answer" in c.value for c in at.caption)
    click(at, "run.estimate")
    assert metrics(at)["Requests"] == "4"
    click(at, "run.start")
    assert not at.error, [e.value for e in at.error]
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.status == "done" and info.responses == 4 and info.spec["criterion"] == "contains"
        assert [i["expected"] for i in info.spec["instances"]] == ["yes", "no"]


def test_bad_mapping_is_an_error(store_path, tmp_path):
    path = _jsonl(tmp_path, [{"q": PROMPT, "gold": "yes"}, {"text": PROMPT, "gold": "no"}])
    at = _dataset_page(path)
    errors = [e.value for e in at.error]
    assert errors and "line 2" in errors[0] and "'q'" in errors[0]
    at.selectbox(key="run.col.prompt").set_value("—").run()
    ok(at)
    assert any("Choose the prompt column" in e.value for e in at.error)
    assert not any(b.key == "run.start" for b in at.button)
    for bad in (str(tmp_path / "missing.jsonl"), str(tmp_path / "notes.txt")):
        at = _dataset_page(bad)
        assert any(bad in e.value for e in at.error), [e.value for e in at.error]


def test_stop_leaves_an_interrupted_resumable_run(store_path):
    """The Stop button works as any click during a run does: Streamlit interrupts the script at its next call (here
    the progress display), execute stores the run as interrupted with every answer that landed."""
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

    from promptanatomy_core.experiment import ExperimentSpec, plan
    from ui import run as ui_run

    spec = ExperimentSpec.from_prompt(PROMPT, None, models=(MODEL,), components=("Role", "Directive"),
                                      strategies=("SCI", "WOD"), keep_top=None, max_tokens=4, criterion="differs")
    seen = []

    def progress(ev):
        seen.append(ev)
        if len(seen) == 2:
            raise RerunException(None)

    planned = ui_run.Planned(ui_run.spec_key(spec), plan(spec), None, None)
    with pytest.raises(RerunException):
        ui_run.start(planned, ui_run.build_runners(ui_run.run_models((MODEL,), [])), "", progress)
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.status == "interrupted" and info.responses == 2 < info.requests
    assert [r.id for r in ui_run.interrupted_runs()] == [info.id]


def test_a_run_executing_elsewhere_is_a_message_and_not_interrupted(store_path):
    """Another tab, a stopped run still unwinding or ``promptanatomy run`` holds the run's lease: the run is not
    listed as interrupted, and Start says so instead of sending (or showing a traceback)."""
    import threading

    from promptanatomy_core.experiment import execute
    from promptanatomy_core.models.base import get_backend
    from promptanatomy_core.models.runner import Runner
    from ui import run as ui_run

    at = page(rules(PROMPT))
    at.multiselect(key="run.components").set_value(["Role", "Directive"])
    at.multiselect(key="run.strategies").set_value(["SCI", "WOD"]).run()
    click(at, "run.estimate")
    planned = at.session_state[ui_run.PLAN]
    cancel = threading.Event()
    with RunStore(store_path) as store:
        first = execute(planned.plan, store, runner=Runner(get_backend(MODEL), cache=False, batch_size=1),
                        progress=lambda ev: cancel.set(), cancel=cancel)
        assert first.status == "interrupted" and first.answered < 5
        owner = store.acquire_lease(first.run_id)
        at.run()
        assert not [e for e in at.expander if e.label.startswith("Interrupted runs")]  # it is running
        Scripted.sent.clear()
        click(at, "run.start")
        assert not Scripted.sent
        (message,) = [e.value for e in at.error]
        assert re.fullmatch(rf"Not started: run #{first.run_id} is already being executed by another execution in "
                            rf"this process \(pid {os.getpid()}, last active \d+ s ago\); wait for it to finish or "
                            rf"stop it first\. A run just stopped is free again once its answers in flight are "
                            rf"stored\.", message), message
        assert not at.button(key="run.start").disabled  # the plan stays: Start again later
        store.release_lease(first.run_id, owner)
    at.run()
    assert [e.label for e in at.expander if e.label.startswith("Interrupted runs")] == ["Interrupted runs (1)"]
    click(at, "run.start")
    assert not at.error and len(Scripted.sent) == 5 - first.answered
    with RunStore(store_path) as store:
        assert store.get_run(first.run_id).status == "done"


@pytest.mark.slow
def test_tiny_run_on_the_embedded_model(store_path):
    at = page(rules(PROMPT), models=("local",), **{"pa.model.local.max_tokens": 4})
    at.multiselect(key="run.components").set_value(["Directive"])
    at.multiselect(key="run.strategies").set_value(["WOD"]).run()
    click(at, "run.estimate", timeout=600)
    assert metrics(at)["Requests"] == "2"
    assert any("local model time: about" in c.value for c in at.caption)
    click(at, "run.start", timeout=600)
    assert not at.error, [e.value for e in at.error]
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.status == "done" and info.responses == 2


def test_no_model_selected_is_a_warning_and_nothing_can_start(store_path):
    at = page(rules(PROMPT), models=())
    assert any("No model is selected" in w.value for w in at.warning)
    assert not [b for b in at.button if b.key in ("run.estimate", "run.start")]
    with RunStore(store_path) as store:
        assert store.list_runs() == []


def test_the_time_hint_uses_this_machines_measured_speeds(store_path):
    """time_hint: the local models' requests to send at the speeds fitted to the run store's answers (says so), the
    default speeds while there are too few answers (says so too); remote models and cache hits take no local time."""
    from promptanatomy_core.models.pricing import Estimate
    from promptanatomy_core.speed import DEFAULT
    from stored_runs import timed_batches
    from test_speed import IN_S, OUT_S, VARIED
    from ui import run as ui_run

    def est(local_to_send: int):
        return SimpleNamespace(models=[
            Estimate("local", 40, 40, 40 - local_to_send, local_to_send, 330 * local_to_send, 64 * local_to_send,
                     None),
            Estimate("openai:gpt-4o-mini", 40, 40, 0, 40, 330 * 40, 64 * 40, 0.01)])

    rough = ui_run.time_hint(est(40))
    seconds = DEFAULT.seconds(330 * 40, 64 * 40)
    assert rough == f"{ui_run.duration(seconds)}, rough default speed"
    assert ui_run.time_hint(est(0)) is None  # all cached: nothing local to send
    with RunStore(store_path) as store:
        timed_batches(store, VARIED, IN_S, OUT_S)
    ui_run._measured_speeds.clear()  # the page keeps measured speeds a few seconds
    seconds = 40 * (330 / IN_S + 64 / OUT_S)
    assert ui_run.time_hint(est(40)) == f"{ui_run.duration(seconds)}, from this machine's last runs"
    assert ui_run.time_hint(est(40)) != rough
    mixed = SimpleNamespace(models=est(40).models + [Estimate("local:other", 1, 1, 0, 1, 330, 64, None)])
    assert ui_run.time_hint(mixed).endswith(", partly from this machine's last runs")
