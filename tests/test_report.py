"""The report: heatmap figures (shared colour range, intervals on hover), the fragility ranking, the before/after
difference, the drill-down rows and the self-contained HTML report (parsed with html.parser)."""
from __future__ import annotations

import math
from html.parser import HTMLParser

import pytest

from promptanatomy_core import report
from promptanatomy_core.experiment import results
from promptanatomy_core.store import RunStore
from stored_runs import PROMPT, make_run

MODELS = ("scripted:m1", "scripted:m2")


@pytest.fixture()
def run(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite")
    run_id = make_run(store, "demo <run>")
    yield store, run_id, results(run_id, store)
    store.close()


def test_heatmaps_share_one_scale_and_show_intervals(run):
    _, _, frame = run
    for metric in ("asr", "pss"):
        figs = report.heatmaps(frame, metric)
        assert list(figs) == list(MODELS)
        for model, fig in figs.items():
            assert len(fig.data) == 1 and fig.data[0].type == "heatmap"
            trace = fig.data[0]
            assert (trace.zmin, trace.zmax) == (0.0, 1.0) and trace.colorscale == report.heatmap_figure(
                frame, MODELS[0], metric).data[0].colorscale
            assert list(trace.y) == ["Role", "Directive", "CRT (control)"] and list(trace.x) == ["SCI", "WOD"]
    fig = report.heatmap_figure(frame, "scripted:m1", "asr")
    z, hover, text = fig.data[0].z, fig.data[0].hovertext, fig.data[0].text
    # Directive × WOD: 4 of 4 fail → ASR 1, Wilson 51–100%
    assert z[1][1] == 1.0 and text[1][1] == "100%"
    assert "ASR 100% (95% CI 51–100%)" in hover[1][1] and "4 of 4" in hover[1][1]
    # CRT × SCI: one provider error, left out of n
    assert "3 of 3" not in hover[2][0] and "0 of 3" in hover[2][0] and "1 errors" in hover[2][0]
    pss = report.heatmap_figure(frame, "scripted:m1", "pss").data[0]
    assert pss.z[1][0] == pytest.approx(2 / 3) and pss.text[1][0] == "0.67"


def test_ranking_most_fragile_first(run):
    _, _, frame = run
    m2 = report.ranking(frame, model="scripted:m2")
    assert [f.component for f in m2] == ["Directive", "Role", "CRT"]
    d = m2[0]
    assert (d.successes, d.n, d.worst) == (6, 8, "WOD") and d.asr == pytest.approx(0.75)
    assert d.reading == ("Directive: 75% of perturbations made the model fail (95% CI 41–93%, n=8), "
                         "most under WOD (100%).")
    assert m2[2].reading.startswith("CRT (control group): 0%")
    assert len(report.ranking(frame)) == 6


def test_delta_between_runs(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        before = results(make_run(store, "before"), store)
        after = results(make_run(store, "after", shift=1), store)
    delta = report.delta_frame(before, after)
    row = delta[(delta.model == "scripted:m1") & (delta.component == "Directive") & (delta.perturbation == "SCI")]
    assert row["delta_asr"].iloc[0] == pytest.approx(-0.5)
    assert math.isclose(abs(delta["delta_asr"].iloc[0]), 0.5)  # largest change first
    fig = report.delta_figure(delta, "scripted:m1")
    assert (fig.data[0].zmin, fig.data[0].zmax) == (-1, 1) and "50% → 0%" in fig.data[0].hovertext[1][0]
    # runs with different single models are paired
    other = before.assign(model="openai:x")
    assert report.pair_models(other, after.query("model == 'scripted:m1'")) == [("openai:x", "scripted:m1")]


def test_cell_variants_for_drill_down(run):
    store, run_id, _ = run
    items = report.cell_variants(run_id, store, "scripted:m1", "Directive", "WOD")
    assert len(items) == 4
    it = items[0]
    assert it["clean"] == PROMPT and it["variant"].edits and it["variant"].text != PROMPT
    assert it["response"] == "No." and it["correct"] is False and it["clean_response"] == "Yes."
    assert it["ppl_ratio"] is not None
    failed = report.cell_variants(run_id, store, "scripted:m1", "CRT", "SCI")
    assert sum(1 for i in failed if not i["answered"] and "HTTP 500" in i["error"]) == 1


class _Parse(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts: list[dict] = []
        self.figures: list[dict] = []
        self.graph_divs = 0
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts.append({"src": a.get("src"), "body": ""})
            self._in_script = True
        if tag == "div" and "pa-figure" in (a.get("class") or ""):
            self.figures.append(a)
        if tag == "div" and "plotly-graph-div" in (a.get("class") or ""):
            self.graph_divs += 1

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1]["body"] += data
        else:
            self.text.append(data)


def test_html_report_is_self_contained(run, tmp_path):
    store, run_id, _ = run
    path = report.write_html(run_id, store, tmp_path / "out" / "report.html")
    raw = path.read_text(encoding="utf-8")
    p = _Parse()
    p.feed(raw)
    # plotly.js inline, nothing fetched
    assert not [s for s in p.scripts if s["src"]]
    assert any("Plotly" in s["body"] and len(s["body"]) > 1_000_000 for s in p.scripts)
    lib = max(p.scripts, key=lambda s: len(s["body"]))["body"]
    rest = raw.replace(lib, "")
    assert "cdn.plot.ly" not in rest and 'src="http' not in rest  # (plotly.js itself names its CDN for topojson)
    # one heatmap div per model and metric
    assert sorted((f["data-metric"], f["data-model"]) for f in p.figures) == sorted(
        (m, model) for m in ("asr", "pss") for model in MODELS)
    assert p.graph_divs == 4
    # user text escaped: the prompt's <script>, the run name
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in raw and "<script>alert(1)" not in raw
    assert "demo &lt;run&gt;" in raw and "<run>" not in raw
    text = "".join(p.text)
    assert "<script>alert(1)</script>" in text  # what a reader sees
    assert "Directive: 75% of perturbations made the model fail" in text
    assert "Every cell" in text and "scripted:m2" in text


def test_html_report_of_an_unjudged_run(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id = store.create_run("empty", {"models": ["scripted:m1"], "instances": []})
        raw = report.build_html(run_id, store)
    assert "nothing to plot" in raw and "plotly-graph-div" not in raw


def test_filtered_run_shows_the_kept_variants_by_default(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id = make_run(store, keep_top=0.5)
        frame = results(run_id, store)
        assert report.filters(frame) == ["all", "top50%"] and report.default_filter(frame) == "top50%"
        # Directive × SCI: seed 1 fails, seed 0 (the kept one) does not
        assert report.matrix(frame, "scripted:m1", "asr", "top50%").z[1][0] == 0.0
        assert report.matrix(frame, "scripted:m1", "asr", "all").z[1][0] == 0.5
        assert len(report.cell_variants(run_id, store, "scripted:m1", "Directive", "SCI", "top50%")) == 2
        assert "figures show the variants <b>top50%</b>" in report.build_html(run_id, store)
