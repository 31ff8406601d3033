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
    # the component axis carries each component's badge in its colour; a cell's hover says what its strategy does
    axis = fig.layout.yaxis
    assert list(axis.tickvals) == ["Role", "Directive", "CRT (control)"]
    assert axis.ticktext[0] == '<b><span style="color:#0072B2">R</span></b> · Role'
    assert axis.ticktext[1].endswith("D</span></b> · Directive") and axis.ticktext[2] == "CRT (control)"
    assert "Word deletion" in hover[1][1] and "Special character insertion" in hover[1][0]
    # PSS's bootstrap interval over the 2 instances: both 2/3 → a point; m2's Role × SCI: 0 and 2/3 → 0–2/3
    assert "PSS 0.67 (95% bootstrap CI 0.67–0.67) over 2 instance(s)" in pss.hovertext[1][0]
    m2 = report.heatmap_figure(frame, "scripted:m2", "pss").data[0]
    assert m2.z[0][0] == pytest.approx(1 / 3) and "PSS 0.33 (95% bootstrap CI 0.00–0.67)" in m2.hovertext[0][0]


def test_pss_without_interval_for_one_instance(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        frame = results(make_run(store, "one instance", models=("scripted:m1",), error=False, instances=("a",)), store)
    cells = frame[frame.component != "clean"]
    assert (cells.pss_instances == 1).all() and cells.pss.notna().all()
    assert cells.pss_low.isna().all() and cells.pss_high.isna().all()
    hover = report.heatmap_figure(frame, "scripted:m1", "pss").data[0].hovertext[1][0]
    assert "PSS 0.67 over 1 instance(s)" in hover and "bootstrap" not in hover


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
    table = raw[raw.index('class="dataframe pa-cell-table"'):]
    assert "<th>pss_low</th>" in table and "<th>pss_high</th>" in table and "<td>0.667</td>" in table


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


# ------------------------------------------------------------------------------- decoding confidence vs PSS

def test_confidence_vs_pss_per_cell(tmp_path):
    from promptanatomy_core.experiment import result_records
    from promptanatomy_core.metrics import pearson

    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id = make_run(store, probabilities=True)
        frame, records = results(run_id, store), result_records(run_id, store)
    view = report.confidence_view(frame, records)
    # two instances only: one point per cell (3 components × 2 perturbations × 2 models)
    assert view.by == "cell" and len(view.points) == 12 and not view.missing and view.note is None
    # Directive × WOD on m1: every answer wrong, first tokens 0.35 / 0.45 → 0.40; PSS per instance 2/3
    dot = next(p for p in view.points if p.model == "scripted:m1" and p.label == "Directive × WOD")
    assert dot.confidence == pytest.approx(0.40) and dot.pss == pytest.approx(2 / 3)
    cells = frame[(frame.component != "clean") & frame.confidence.notna() & frame.pss.notna()]
    assert view.r == pytest.approx(pearson(list(cells.confidence), list(cells.pss))) and view.r < -0.5
    fig = report.confidence_figure(view)
    assert [t.type for t in fig.data] == ["scatter", "scatter"]
    assert sum(int(t[1:]) if t else 1 for tr in fig.data for t in tr.text) == 12  # coinciding points drawn once
    assert f"Pearson r = {view.r:+.2f} over 12 points" in fig.layout.title.text
    assert "scripted:m1 (r = " in fig.data[0].name


def test_confidence_vs_pss_per_instance(tmp_path):
    from promptanatomy_core.experiment import result_records
    from promptanatomy_core.metrics import confidence_vs_pss

    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id = make_run(store, probabilities=True, instances=("a", "b", "c"))
        frame, records = results(run_id, store), result_records(run_id, store)
    view = report.confidence_view(frame, records)
    assert view.by == "instance" and len(view.points) == 6
    a = next(p for p in view.points if p.model == "scripted:m1" and p.label == "a")
    # instance a on m1: 8 right answers (0.95), Directive's wrong ones 0.45, 0.35, 0.45; one provider error
    assert a.confidence == pytest.approx((8 * 0.95 + 0.45 + 0.35 + 0.45) / 11)
    perturbed = [dict(r, instance=(r["model"], r["instance"])) for r in records if r["component"] != "clean"]
    assert view.r == pytest.approx(confidence_vs_pss(perturbed).r)
    assert f"one point per instance · Pearson r = {view.r:+.2f} over 6 points" in (
        report.confidence_figure(view).layout.title.text)
    assert report.confidence_view(frame, records, by="cell").by == "cell"


def test_confidence_without_token_probabilities_says_so(run, tmp_path):
    store, run_id, frame = run
    view = report.confidence_view(frame)
    assert not view.points and view.missing == MODELS
    assert "No token probabilities from scripted:m1, scripted:m2" in view.note and "logprobs" in view.note
    fig = report.confidence_figure(view)
    assert not fig.data and fig.layout.annotations[0].text == view.note.replace("'", "&#x27;")
    raw = report.build_html(run_id, store, complexity=report.RunComplexity(0, 0, (), None, ()))
    assert "Decoding confidence vs PSS" in raw and "No token probabilities from scripted:m1" in raw
    assert 'data-metric="confidence"' not in raw


# --------------------------------------------------------------------------------------- prompt complexity

def _pcm_rows(raw: str) -> list[str]:
    import re

    table = re.search(r'<table class="pa-pcm">(.*?)</table>', raw, re.S)
    assert table, "no PCM table"
    return re.findall(r'<tr data-part="(\w+)">', table.group(1))


def test_html_report_with_confidence_figure_and_pcm_table(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id = make_run(store, "probs", probabilities=True)
        raw = report.build_html(run_id, store)
    p = _Parse()
    p.feed(raw)
    assert ("confidence", "") in [(f["data-metric"], f["data-model"]) for f in p.figures]
    assert p.graph_divs == 5 and 'id="pa-confidence"' in raw
    assert "No token probabilities" not in raw
    assert _pcm_rows(raw) == ["lexical", "syntactic", "semantic", "structural", "task"]
    assert "PCM (weighted total)" in raw and "all-MiniLM-L6-v2" in raw
    assert "Prompt complexity not computed" not in raw and "semantic part not computed" not in raw


def test_run_complexity_degrades_without_the_embedder(run, monkeypatch):
    from promptanatomy_core.metrics.pcm import MiniLMEmbedder

    store, run_id, _ = run

    def broken(cls):
        raise RuntimeError("no model here")

    monkeypatch.setattr(MiniLMEmbedder, "load", classmethod(broken))
    c = report.run_complexity(store, run_id)
    rows = {r["part"]: r for r in c.rows}
    assert list(rows) == ["lexical", "syntactic", "semantic", "structural", "task"] and c.prompts == 1
    assert rows["semantic"]["mean"] is None and any("semantic part not computed" in n and "no model here" in n
                                                     for n in c.notes)
    assert c.total == pytest.approx(sum(r["mean"] for k, r in rows.items() if k != "semantic"))
    html_table = report.complexity_table(c)
    assert "semantic part not computed" in html_table and "total without: semantic" in html_table
    assert _pcm_rows(html_table) == list(rows)
