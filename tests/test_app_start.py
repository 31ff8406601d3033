"""The Start page (the one-button analysis) through AppTest: guidance without a prompt or a model, the dry count
before anything runs (checked against what the run then stores), a run with partial results, a stopped run carried
on, stale results after an edit. The models are the scripted backend of test_experiment and a length-based
perplexity stand-in; the browser test (test_e2e_browser.py) runs the real embedded model end to end."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from promptanatomy_core.models.base import ChatResponse, register_provider
from promptanatomy_core.store import RunStore
from promptanatomy_core.types import Component
from test_app_run import MODEL, ok, store_path  # noqa: F401  (store_path: the fixture, a run store in tmp_path)
from test_experiment import LengthScorer, Scripted

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PROMPT = ("You are a careful medical researcher. Read the abstract and answer the question with yes, no or maybe. "
          "The abstract comes from a peer-reviewed journal and may mention statistics. "
          "Answer with one word in lower case.")


@pytest.fixture(autouse=True)
def length_scorer(monkeypatch):
    """The perplexity filter scores with the text's length here (the browser tests score with the real model)."""
    import ui.engine

    monkeypatch.setattr(ui.engine, "get_scorer", lambda model="local": LengthScorer())


def start(models=(MODEL,), **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pa.models.selected"] = list(models)
    for k, v in state.items():
        at.session_state[k] = v
    return ok(at.run())


def estimate(at: AppTest) -> str:
    (line,) = [m.value for m in at.markdown if "Will send" in m.value]
    return line


def test_start_is_the_landing_page_and_guides_without_prompt_or_model(store_path):
    at = start()
    assert at.title[0].value == "PromptAnatomy Studio"
    assert any("Paste a prompt" in i.value for i in at.info)
    assert at.button(key="start.analyse").disabled
    at = start(models=())
    at.text_area(key="start.prompt").input(PROMPT).run()
    assert any("No model is selected" in w.value for w in at.warning)
    assert at.button(key="start.analyse").disabled
    at = start()
    at.text_area(key="start.prompt").input("   \n ").run()
    assert at.button(key="start.analyse").disabled


def test_an_example_fills_the_prompt_and_shows_the_count_first(store_path):
    at = start()
    at.selectbox(key="start.example").set_value("Few shot sentiment").run()
    ok(at)
    assert at.text_area(key="start.prompt").value.startswith(at.session_state["pa.prompt"][:40])
    line = estimate(at)
    assert "Will send" in line and f"to {MODEL}" in line and "after scoring" in line
    assert "local model time" not in line  # no local model: no local time
    with RunStore(store_path) as store:
        assert store.list_runs() == []  # nothing ran


def test_analyse_runs_every_stage_and_the_count_matches_the_run(store_path):
    at = start()
    at.number_input(key="start.samples").set_value(1)
    at.text_area(key="start.prompt").input(PROMPT).run()
    line = estimate(at)
    at.button(key="start.analyse").click().run()
    ok(at)
    assert not at.error, [e.value for e in at.error]
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.status == "done" and info.responses == info.requests
        assert f"**Will send {info.requests} request(s)**" in line
        spec = info.spec
    assert spec["keep_top"] == 0.2 and spec["send_dropped"] is False and spec["n"] == 5
    assert set(spec["strategies"]) == {"SCI", "SYR", "WOD", "SER", "COD"} and "CRT" in spec["components"]
    assert spec["criterion"] == "differs"
    # the dissection is the one the other pages now show
    assert at.session_state["pa.dissection"].prompt == PROMPT
    assert at.session_state["pa.quick.last"]["run_id"] == info.id
    titles = [c.proto.spec for c in at.get("plotly_chart")]
    assert len(titles) == 2 and all("top20%" in t for t in titles)  # ASR and PSS, the filter's kept variants
    assert any(m.value.startswith("**Most fragile on") for m in at.markdown)
    flow = sidebar_flow(at)
    assert f"Last run: #{info.id}" in flow and "stale" not in flow and "Dissection: " in flow
    # an edit to the prompt marks these results stale instead of mixing them with the new prompt
    at.text_area(key="start.prompt").input(PROMPT + " Be brief.").run()
    assert any("earlier version of the prompt" in w.value for w in at.warning)
    assert f"Last run: #{info.id} · **stale**" in sidebar_flow(at)
    at.switch_page("app_pages/results.py").run()
    ok(at)
    assert any(f"Run #{info.id} was made in this session from an earlier version" in w.value for w in at.warning)


def test_the_count_says_where_its_local_time_comes_from(store_path, monkeypatch):
    """The local model's time before Analyse: at the default speeds while the run store has too few of its answers,
    then at the speeds fitted to them, and fully measured once the perplexity scorer has measured its own."""
    import ui.engine
    from stored_runs import timed_batches
    from test_speed import IN_S, OUT_S, VARIED
    from ui import run as ui_run

    at = start(models=("local",))
    at.text_area(key="start.prompt").input(PROMPT).run()
    line = estimate(at)
    assert "candidates · local model time: about " in line and line.endswith(", rough default speed.")
    with RunStore(store_path) as store:
        timed_batches(store, VARIED, IN_S, OUT_S)
    ui_run._measured_speeds.clear()  # the page keeps measured speeds a few seconds
    at.run()
    assert estimate(at).endswith(", partly from this machine's last runs.")  # the stand-in scorer measured nothing
    measured = LengthScorer()
    measured.tokens_per_second = 1500.0
    monkeypatch.setattr(ui.engine, "get_scorer", lambda model="local": measured)
    at.run()
    assert estimate(at).endswith(", from this machine's last runs.")
    with RunStore(store_path) as store:
        assert [r.name for r in store.list_runs()] == ["timed"]  # nothing ran


def test_the_time_estimate_adds_scoring_and_answering_at_the_given_speeds():
    from promptanatomy_core.speed import DEFAULT, Speeds
    from ui import quick, run as ui_run

    settings = quick.QuickSettings(max_tokens=64)
    count = quick.DryCount(cells=10, skipped=0, candidates=50, requests_per_model=21, models=3, scored_tokens=4000.0,
                           prompt_tokens=80.0, local=("local", "local:other"))
    fast = Speeds(800.0, 60.0, "two speeds", 20, 4)
    seconds = 4000.0 / 2000.0 + 21 * (fast.seconds(80, 64) + DEFAULT.seconds(80, 64))
    assert quick.time_estimate(count, settings, {"local": fast, "local:other": DEFAULT}, 2000.0) == \
        f"{ui_run.duration(seconds)}, partly from this machine's last runs"
    seconds = 4000.0 / quick.PPL_TOKENS_S + 21 * 2 * fast.seconds(80, 64)
    assert quick.time_estimate(count, settings, {"local": fast, "local:other": fast}) == \
        f"{ui_run.duration(seconds)}, partly from this machine's last runs"  # no scorer has measured itself yet
    no_local = quick.DryCount(10, 0, 50, 21, 1, 4000.0, 80.0, ())
    assert quick.time_estimate(no_local, settings) is None


def sidebar_flow(at: AppTest) -> str:
    (flow,) = [m.value for m in at.sidebar.markdown if "Prompt" in m.value and "Dissection" in m.value]
    return flow


def test_a_stopped_run_shows_what_landed_and_analyse_carries_it_on(store_path):
    """Stopping is any click during the run (see test_app_run): execute stores the run as interrupted. The page then
    shows the partial results; Analyse with the same settings says so while another execution holds the run, and
    then sends only what is missing."""
    from promptanatomy_core.experiment import execute, plan
    from promptanatomy_core.models.runner import Runner
    from promptanatomy_core.models.base import get_backend
    from ui import quick, run as ui_run
    import promptanatomy_core.dissect  # noqa: F401
    from promptanatomy_core.dissect.base import get_dissector
    from ui.state import dissection_key

    d = get_dissector("rules").dissect(PROMPT)
    settings = quick.QuickSettings(samples=1)
    spec = quick.quick_spec(d, "rules", dissection_key(d), [ui_run.run_models((MODEL,), [])[0]], settings)
    cancel = threading.Event()

    def progress(ev):
        if ev.stage == "request" and ev.done == 6:
            cancel.set()

    p = plan(spec, scorer=LengthScorer(), strategy_params={"SER": {"offline": True}}, dissector=ui_run.FixedDissector(d))
    with RunStore(store_path) as store:
        first = execute(p, store, runner=Runner(get_backend(MODEL), cache=False, batch_size=1), progress=progress,
                        cancel=cancel, name="Quick analysis")
        answered = store.answered(first.run_id)
    assert first.status == "interrupted"
    missing = {r.request.messages[-1].content for r in p.requests if r.key not in answered}
    state = {"pa.prompt": PROMPT, "start.prompt": PROMPT, "pa.dissection": d, "pa.dissection_base": d,
             "pa.dissector_used": "rules", "start.samples": 1,
             "pa.quick.last": {"run_id": first.run_id, "dissection_key": dissection_key(d)}}
    at = start(**state)
    stopped = [w.value for w in at.warning if w.value.startswith("Stopped:")]
    assert stopped and f"{first.answered} of {len(p.requests)} answers kept" in stopped[0]
    assert len(at.get("plotly_chart")) == 2  # what was judged so far
    Scripted.sent.clear()
    with RunStore(store_path) as store:  # while another execution holds the run, Analyse says so and sends nothing
        owner = store.acquire_lease(first.run_id)
        at.button(key="start.analyse").click().run()
        ok(at)
        assert not Scripted.sent
        assert [e.value for e in at.error if e.value.startswith(f"Not started: run #{first.run_id} is already being "
                                                                f"executed")]
        store.release_lease(first.run_id, owner)
    at.button(key="start.analyse").click().run()
    ok(at)
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.id == first.run_id and info.status == "done" and info.responses == len(p.requests)
    assert sorted(Scripted.sent) == sorted("good:" + m for m in missing)  # only what was missing (each text once)
    assert not [w for w in at.warning if w.value.startswith("Stopped:")]


def test_about_page_summarises_the_method_with_references(store_path):
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("app_pages/about.py").run()
    ok(at)
    text = " ".join(m.value for m in at.markdown)
    for term in ("PromptAnatomy", "ComPerturb", "PSS", "CRT", "perplexity", "Wilson"):
        assert term in text, term
    assert "aclanthology.org/2024.findings-emnlp.108" in text and "Are All Prompt Components Value-Neutral?" in text
    for strategy in ("SCI", "SYR", "WOD", "SER", "COD"):
        assert f"**{strategy}**" in text


class Labeller(Scripted):
    """Answers the llm dissector's questions (any request naming a TARGET sentence) with a Directive tag, and every
    other request as test_experiment's scripted model does."""

    def generate(self, requests):
        out = super().generate(requests)
        return [ChatResponse(text="<Directive>") if "TARGET:" in r.messages[-1].content else o
                for r, o in zip(requests, out)]


register_provider("labeller")(lambda spec, **_: Labeller(spec))


def test_analyse_with_the_llm_dissector_shows_its_progress_and_labels(store_path):
    at = start(**{"pa.setting.dissector": "llm", "pa.setting.model": "labeller:x"})
    at.number_input(key="start.samples").set_value(1)
    at.text_area(key="start.prompt").input(PROMPT).run()
    at.button(key="start.analyse").click().run()
    ok(at)
    assert not at.error, [e.value for e in at.error]
    d = at.session_state["pa.dissection"]
    assert set(d.source_list) == {"llm"} and all(s.labels == {Component.DIRECTIVE} for s in d.sentences)
    assert at.session_state["pa.dissector_used"] == "llm:labeller:x"
    with RunStore(store_path) as store:
        (info,) = store.list_runs()
        assert info.status == "done" and info.spec["dissector"].startswith("llm:labeller:x#")
