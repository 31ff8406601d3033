"""The Results page through Streamlit's AppTest, on runs written to a temporary run store (``$PROMPTANATOMY_STORE``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from promptanatomy_core.store import RunStore
from stored_runs import make_run

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PAGE = "app_pages/results.py"


@pytest.fixture()
def store_path(tmp_path, monkeypatch):
    path = tmp_path / "runs.sqlite"
    monkeypatch.setenv("PROMPTANATOMY_STORE", str(path))
    return path


def page(**state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(PAGE)
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> list:
    return at.get("plotly_chart")


def figures(at: AppTest) -> list[dict]:
    """The plotly figures on the page, as plotly JSON (``data``, ``layout``), in page order."""
    return [json.loads(c.proto.spec) for c in charts(at)]


def test_empty_store_says_so(store_path):
    at = page()
    assert any("No stored runs yet" in i.value for i in at.info)
    assert not charts(at)


def test_stored_run_heatmaps_ranking_drilldown(store_path):
    with RunStore(store_path) as store:
        first = make_run(store, "before")
        run_id = make_run(store, "after <b>edit</b>", shift=1)
    at = page()
    run = at.selectbox(key="results.run")
    assert run.value == run_id and set(run.options) == {f"#{run_id} · after <b>edit</b> · done · "
                                                        f"{run.format_func(run_id).split(' · ')[-1]}",
                                                        run.format_func(first)}
    # ASR and PSS for two models
    assert len(charts(at)) == 4
    text = " ".join(m.value for m in at.markdown)
    assert "1. Directive: 50% of perturbations made the model fail" in text
    # drill-down: first cell is Role × SCI of scripted:m1; pick Directive × WOD (always fails)
    at.selectbox(key="results.drill.component").set_value("Directive")
    at.selectbox(key="results.drill.pert").set_value("WOD").run()
    assert not at.exception
    cards = [h.value for h in at.get("html") if 'class="pa-variant' in h.value]
    assert len(cards) == 4  # 2 instances × 2 seeds
    assert all('<del class="pa-del"' in c for c in cards)
    assert all("&lt;script&gt;" in c and "<script>" not in c for c in cards)  # the prompt's <script> is escaped
    assert any("No." in c.value for c in at.code)
    assert any("failed (attack success)" in e.label for e in at.expander)


def test_compare_and_delete_with_confirmation(store_path):
    with RunStore(store_path) as store:
        first = make_run(store, "before")
        second = make_run(store, "after", shift=1)
    at = page()
    at.selectbox(key="results.compare").set_value(first).run()
    assert not at.exception
    # heatmaps (ASR, PSS × 2 models) + per model the two runs side by side (before | after) + one delta heatmap
    assert len(charts(at)) == 4 + 2 * 2 + 2
    side = figures(at)[4:8]
    titles = [f["layout"]["title"]["text"] for f in side]
    for k, model in enumerate(("scripted:m1", "scripted:m2")):
        assert titles[2 * k].startswith(f"Before: #{first} · before<br>") and f"ASR · {model} · all" in titles[2 * k]
        assert titles[2 * k + 1].startswith(f"After: #{second} · after<br>")
        assert f"ASR · {model} · all" in titles[2 * k + 1]
    for f in side:  # one colour scale, 0 to 1, and every cell of the run (3 components × 2 perturbations)
        trace = f["data"][0]
        assert trace["type"] == "heatmap" and (trace["zmin"], trace["zmax"]) == (0, 1)
        assert trace["y"] == ["Role", "Directive", "CRT (control)"] and trace["x"] == ["SCI", "WOD"]
    # m1's Directive × SCI: ASR 50% before the edit, 0% after (the delta below says −50 points)
    assert side[0]["data"][0]["z"][1][0] == pytest.approx(0.5) and side[1]["data"][0]["z"][1][0] == 0
    assert [f["layout"]["title"]["text"] for f in figures(at)[8:]] == [
        "ASR after − before · scripted:m1", "ASR after − before · scripted:m2"]
    frames = at.dataframe
    assert any("delta_asr" in f.value.columns for f in frames)
    delta = next(f.value for f in frames if "delta_asr" in f.value.columns)
    row = delta[(delta.model == "scripted:m1") & (delta.component == "Directive") & (delta.perturbation == "SCI")]
    assert row["delta_asr"].iloc[0] == pytest.approx(-0.5)
    # delete asks first
    at.button(key="results.delete").click().run()
    assert any("cannot be undone" in w.value for w in at.warning)
    at.button(key="results.delete_yes").click().run()
    assert not at.exception
    with RunStore(store_path) as store:
        assert [r.id for r in store.list_runs()] == [first]
    assert at.selectbox(key="results.run").value == first
    assert second not in at.selectbox(key="results.run").options


def test_rename(store_path):
    with RunStore(store_path) as store:
        run_id = make_run(store, "old name", models=("scripted:m1",), error=False)
    at = page()
    at.text_input(key=f"results.new_name.{run_id}").set_value("new name")
    at.button(key="results.rename").click().run()
    assert not at.exception
    with RunStore(store_path) as store:
        assert store.get_run(run_id).name == "new name"
    assert "new name" in at.selectbox(key="results.run").format_func(run_id)


def test_exports_and_filter(store_path):
    with RunStore(store_path) as store:
        make_run(store, "filtered", keep_top=0.5)
    at = page()
    assert at.radio(key="results.filter").value == "top50%"
    assert {b.label for b in at.get("download_button")} >= {"Cells (CSV)", "Variants (CSV)", "Run (JSON)"}
    at.button(key="results.build_html").click().run()
    assert not at.exception
    assert "Download report.html" in {b.label for b in at.get("download_button")}
    at.radio(key="results.filter").set_value("all").run()
    assert not at.exception and len(charts(at)) == 4


def test_confidence_tab_and_prompt_complexity(store_path):
    with RunStore(store_path) as store:
        make_run(store, "with probabilities", probabilities=True)
    at = page()
    labels = [t.label for t in at.tabs]
    assert "Confidence vs PSS" in labels and "Prompt complexity" in labels
    assert len(charts(at)) == 4 + 1  # the heatmaps + the confidence scatter
    assert not any("No token probabilities" in i.value for i in at.info)
    assert any("Decoding confidence (ProSA)" in c.value for c in at.caption)
    assert not [t for t in at.table if "what it measures" in t.value.columns]  # on demand: it loads a model
    at.button(key="results.pcm").click().run()
    pcm = next(t.value for t in at.table if "what it measures" in t.value.columns)
    assert list(pcm.index) == ["lexical", "syntactic", "semantic", "structural", "task", "PCM (weighted total)"]
    assert "–" not in list(pcm["value"])  # every part computed
    assert not at.warning


def test_confidence_tab_without_token_probabilities(store_path):
    with RunStore(store_path) as store:
        make_run(store, "no logprobs", models=("scripted:m1",), error=False)
    at = page()
    assert len(charts(at)) == 2  # ASR and PSS heatmaps, no empty scatter
    assert any("No token probabilities from scripted:m1" in i.value for i in at.info)
