"""``promptanatomy run``: the dataset mode and the single-prompt mode, in process, and a run that another execution
holds.

The fast tests use a scripted backend registered under a test provider (``runscripted``); the slow test beside them
runs the embedded model over 5 PubMedQA-PA instances and checks the store against results.csv."""
from __future__ import annotations

import json
import math
import sqlite3

import pandas as pd
import pytest

from promptanatomy_core.cli import main
from promptanatomy_core.metrics import wilson_interval
from promptanatomy_core.models.base import ChatResponse, register_provider
from promptanatomy_core.store import RunStore
from scripted import ScriptedBackend, prompt_hash

from pacp import _path

RESULT_COLUMNS = ["model", "component", "perturbation", "ppl_filter", "n", "successes", "asr", "asr_low", "asr_high",
                  "flip_rate", "pss"]
TAGGED = ("<Role>You are a careful geographer.</Role>\n<Directive>Answer the question with one word.</Directive>\n"
          "<Additional Information>Question: {q}</Additional Information>\n"
          "<Output Formatting>Reply in lower case.</Output Formatting>")


class RunScripted(ScriptedBackend):
    """Scripted answers: "paris" or "lyon" from a hash of the prompt; model ``down`` fails every request."""

    sent: list[str] = []

    def answer(self, text: str) -> ChatResponse:
        if self.spec.model == "down":
            return ChatResponse(error="HTTP 503: scripted outage")
        return ChatResponse(text="paris" if prompt_hash(text) % 3 else "lyon", input_tokens=30, output_tokens=1)


register_provider("runscripted")(lambda spec: RunScripted(spec))


@pytest.fixture()
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("PROMPTANATOMY_STORE", str(tmp_path / "runs.sqlite"))
    monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PROMPTANATOMY_NO_CACHE", "1")
    RunScripted.sent.clear()
    return tmp_path


@pytest.fixture()
def dataset(env):
    path = env / "geo.csv"
    rows = [("g1", "What is the capital of France?", "paris"), ("g2", "Which French city hosts the Louvre?", "paris"),
            ("g3", "Where is the Eiffel Tower?", "paris")]
    pd.DataFrame([{"key": k, "tagged": TAGGED.format(q=q), "gold": a} for k, q, a in rows]).to_csv(path, index=False)
    return path


def _run(capsys, *argv):
    code = main(["run", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


GRID = ("--components", "Role", "Directive", "CRT", "--strategies", "SCI", "WOD", "-n", "2", "--keep-top", "none",
        "--max-tokens", "4")


def test_dataset_run_writes_results_tables_and_report(env, dataset, capsys):
    out_dir = env / "out"
    code, out, err = _run(capsys, "--dataset", dataset, "--tagged-column", "tagged", "--answer-column", "gold",
                          "--id-column", "key", "--models", "runscripted:a", "runscripted:b",
                          "--baselines", "MTTM-Char", *GRID, "--out", out_dir)
    assert code == 0, err
    summary = json.loads(out)
    assert summary["status"] == "done" and summary["errors"] == 0 and summary["sent"] == summary["planned"]
    assert "estimate runscripted:a:" in err and "estimate total:" in err and "cache hits" in err
    assert "requests: 100%" in err  # the progress bar
    assert f"run {summary['run_id']}: done" in err
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(summary["files"]) == sorted(
        ["results.csv", "table1.csv", "table1.md", "table2.csv", "table2.md", "report.html"])
    frame = pd.read_csv(out_dir / "results.csv")
    assert set(RESULT_COLUMNS) <= set(frame.columns) and list(frame.columns[:6]) == RESULT_COLUMNS[:6]
    cells = frame[frame.component != "clean"]
    # 3 instances × 2 seeds in each of 3 components × 2 strategies, + the baseline, per model
    assert set(zip(cells.model, cells.component, cells.perturbation)) == {
        (m, c, s) for m in ("runscripted:a", "runscripted:b") for c, s in
        [("Role", "SCI"), ("Role", "WOD"), ("Directive", "SCI"), ("Directive", "WOD"), ("CRT", "SCI"),
         ("CRT", "WOD"), ("whole prompt", "MTTM-Char")]}
    assert (cells.n == 6).all() and (cells.ppl_filter == "all").all()
    assert (frame.asr == frame.successes / frame.n).all()
    t2 = pd.read_csv(out_dir / "table2.csv")
    assert list(t2.columns) == ["model", "component", "SCI", "WOD"]
    assert len(t2) == 6  # 2 models × (Role, Directive, CRT)
    role = frame[(frame.model == "runscripted:a") & (frame.component == "Role") & (frame.perturbation == "SCI")]
    assert t2[(t2.model == "runscripted:a") & (t2.component == "Role")].SCI.item() == pytest.approx(role.asr.item())
    t1 = pd.read_csv(out_dir / "table1.csv")
    assert set(t1.family) == {"component-wise", "whole-prompt"}
    assert (out_dir / "table2.md").read_text().startswith("| model | component | SCI | WOD |")
    assert "<html" in (out_dir / "report.html").read_text(encoding="utf-8").lower()
    with RunStore(env / "runs.sqlite") as store:
        info = store.get_run(summary["run_id"])
        assert info.status == "done" and info.requests == summary["planned"] == info.responses


def test_rerunning_the_same_command_carries_on_the_same_run(env, dataset, capsys):
    args = ("--dataset", dataset, "--tagged-column", "tagged", "--answer-column", "gold", "--models", "runscripted:a",
            *GRID, "--out", env / "out")
    code, out, err = _run(capsys, *args)
    first = json.loads(out)
    assert code == 0 and first["sent"] == first["planned"] > 0
    RunScripted.sent.clear()
    code, out, err = _run(capsys, *args, "--name", "renamed is the same spec")
    again = json.loads(out)
    assert code == 0 and again["run_id"] == first["run_id"] and again["sent"] == 0 and not RunScripted.sent
    assert f"carrying on run {first['run_id']}" in err
    code, out, err = _run(capsys, "--resume", first["run_id"], "--out", env / "out2")
    assert code == 0 and json.loads(out)["run_id"] == first["run_id"]
    assert pd.read_csv(env / "out2" / "results.csv").equals(pd.read_csv(env / "out" / "results.csv"))
    # another spec makes another run; --resume with another spec is refused
    code, out, err = _run(capsys, *args[:-2], "--seed", "7", "--out", env / "out3")
    assert code == 0 and json.loads(out)["run_id"] != first["run_id"]
    code, out, err = _run(capsys, *args[:-2], "--seed", "8", "--resume", first["run_id"], "--out", env / "out4")
    assert code == 2 and err.startswith("promptanatomy: error: run ") and "another spec" in err


def test_single_prompt_with_expected_answer(env, capsys):
    prompt = env / "p.txt"
    prompt.write_text(TAGGED.format(q="What is the capital of France?"), encoding="utf-8")
    code, out, err = _run(capsys, "--prompt", prompt, "--expected", "paris", "--models", "runscripted:a",
                          "--components", "Directive", "--strategies", "SCI", "-n", "3", "--keep-top", "none",
                          "--out", env / "one")
    assert code == 0, err
    frame = pd.read_csv(env / "one" / "results.csv")
    cell = frame[frame.component == "Directive"].iloc[0]
    assert cell.n == 3 and cell.instances == 1
    with RunStore(env / "runs.sqlite") as store:
        (d,) = store.dissections(json.loads(out)["run_id"])
        assert d["expected"] == "paris" and d["instance_id"] == "prompt"
    plain = env / "plain.txt"
    plain.write_text("You are a geographer. What is the capital of France? Answer in one word.", encoding="utf-8")
    code, out, err = _run(capsys, "--prompt", plain, "--criterion", "differs", "--models", "runscripted:a",
                          "--components", "Directive", "--strategies", "WOD", "--keep-top", "none",
                          "--out", env / "plain")
    assert code == 0, err
    assert (pd.read_csv(env / "plain" / "results.csv").component == "Directive").any()


def test_template_with_inputs_table(env, capsys):
    template = env / "template.txt"
    template.write_text("You are a careful geographer. Answer the question with one word.\nQuestion: {question}\n"
                        "Reply in lower case.", encoding="utf-8")
    inputs = env / "inputs.csv"
    pd.DataFrame([{"question": "What is the capital of France?", "gold": "paris", "note": "unused"},
                  {"question": "Which French city hosts the Louvre?", "gold": "paris", "note": ""},
                  {"question": "Where is the Eiffel Tower?", "gold": "paris", "note": ""}]).to_csv(inputs, index=False)
    code, out, err = _run(capsys, "--prompt", template, "--inputs", inputs, "--expected-column", "gold",
                          "--models", "runscripted:a", "--components", "Role", "Directive", "--strategies", "SCI",
                          "WOD", "-n", "2", "--keep-top", "none", "--max-tokens", "4", "--out", env / "tpl")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["status"] == "done" and summary["planned"] == 3 * (1 + 2 * 2 * 2)
    frame = pd.read_csv(env / "tpl" / "results.csv")
    cells = frame[frame.component != "clean"]
    assert len(cells) == 4 and (cells.n == 6).all() and (cells.instances == 3).all()
    assert (cells.pss_instances == 3).all()
    assert frame[frame.component == "clean"].n.item() == 3
    assert RunScripted.sent and not any("{question}" in t for t in RunScripted.sent)
    for q in ("What is the capital of France?", "Where is the Eiffel Tower?"):  # every variant filled with each row
        assert sum(q in t for t in RunScripted.sent) == 1 + 2 * 2 * 2  # the label "Question:" may be perturbed
    with RunStore(env / "runs.sqlite") as store:
        ds = store.dissections(summary["run_id"])
        assert [d["expected"] for d in ds] == ["paris"] * 3
        assert ds[1]["prompt"].endswith("Question: Which French city hosts the Louvre?\nReply in lower case.")
    code, out, err = _run(capsys, "--prompt", template, "--inputs", inputs, "--expected-column", "gold",
                          "--models", "runscripted:a", "--components", "Role", "Directive", "--strategies", "SCI",
                          "WOD", "-n", "2", "--keep-top", "none", "--max-tokens", "4", "--out", env / "tpl")
    assert code == 0 and json.loads(out)["sent"] == 0 and json.loads(out)["run_id"] == summary["run_id"]


@pytest.mark.parametrize("text, rows, message", [
    ("Say yes or no.", "question\nx\n", "the template has no {placeholder}"),
    ("Answer {question} in {language}.", "question\nx\n", "row 1: no value for the placeholder {language}"),
])
def test_template_errors_are_one_line(env, capsys, text, rows, message):
    template, inputs = env / "t.txt", env / "rows.csv"
    template.write_text(text, encoding="utf-8")
    inputs.write_text(rows, encoding="utf-8")
    code, out, err = _run(capsys, "--prompt", template, "--inputs", inputs, "--models", "runscripted:a",
                          "--out", env / "o")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("promptanatomy: error: ") and message in lines[0]


def test_failed_requests_exit_1_after_writing_what_there_is(env, dataset, capsys):
    code, out, err = _run(capsys, "--dataset", dataset, "--tagged-column", "tagged", "--models", "runscripted:down",
                          "--components", "Role", "--strategies", "SCI", "--keep-top", "none", "--out", env / "down")
    assert code == 1
    assert json.loads(out)["errors"] == 6
    assert err.splitlines()[-1].startswith("promptanatomy: error: 6 of 6 requests failed (last: HTTP 503")
    assert (env / "down" / "results.csv").exists()
    frame = pd.read_csv(env / "down" / "results.csv")
    assert (frame.n == 0).all() and frame.errors.sum() == 6


def test_a_run_executing_elsewhere_is_one_line_and_exit_1(env, dataset, capsys):
    grid = ("--components", "Role", "--strategies", "SCI", "--keep-top", "none")
    code, out, err = _run(capsys, "--dataset", dataset, "--tagged-column", "tagged", "--models", "runscripted:down",
                          *grid, "--out", env / "first")
    run_id = json.loads(out)["run_id"]  # its 6 failed requests are what --resume sends again
    RunScripted.sent.clear()
    with RunStore(env / "runs.sqlite") as app:  # the app executing the same run
        owner = app.acquire_lease(run_id)
        code, out, err = _run(capsys, "--resume", run_id, "--out", env / "second")
        assert code == 1 and out == "" and not RunScripted.sent
        assert f"carrying on run {run_id} (status running)" in err
        last = err.strip().splitlines()[-1]
        assert last.startswith(f"promptanatomy: error: run #{run_id} is already being executed by another "
                               f"execution in this process") and last.endswith("wait for it to finish or stop it first")
        app.release_lease(run_id, owner)
    code, out, err = _run(capsys, "--resume", run_id, "--out", env / "third")
    assert json.loads(out)["sent"] == len(RunScripted.sent) == 6


@pytest.mark.parametrize("argv, message", [
    (["--models", "runscripted:a", "--out", "o"], "give --dataset FILE or --prompt FILE"),
    (["--dataset", "{d}", "--prompt", "{d}", "--models", "runscripted:a", "--out", "o"], "one of them"),
    (["--dataset", "{d}", "--models", "runscripted:a"], "--out DIR is required"),
    (["--dataset", "{d}", "--out", "o"], "--models SPEC... is required"),
    (["--dataset", "{d}", "--models", "nosuch:x", "--out", "o"], "unknown provider"),
    (["--dataset", "{d}", "--models", "runscripted:a", "--out", "o"], "geo.csv header: no column 'prompt'"),
    (["--dataset", "{d}", "--tagged-column", "tags", "--models", "runscripted:a", "--out", "o"], "no column 'tags'"),
    (["--dataset", "{d}", "--tagged-column", "tagged", "--models", "runscripted:a", "--keep-top", "2", "--out", "o"],
     "--keep-top must be a share"),
    (["--dataset", "{d}", "--tagged-column", "tagged", "--models", "runscripted:a", "--pattern", "x", "--out", "o"],
     "--pattern applies to --criterion regex"),
    (["--dataset", "{d}", "--tagged-column", "tagged", "--models", "runscripted:a", "--baselines", "Nope",
      "--out", "o"], "unknown baseline 'Nope'"),
    (["--dataset", "{d}", "--tagged-column", "tagged", "--models", "runscripted:a", "--strategies", "XYZ",
      "--keep-top", "none", "--out", "o"], "unknown strategy 'XYZ'"),
    (["--dataset", "{d}", "--tagged-column", "tagged", "--models", "runscripted:a", "--components", "Intro",
      "--out", "o"], "unknown component 'Intro'"),
    (["--dataset", "{d}", "--expected", "x", "--models", "runscripted:a", "--out", "o"], "--expected applies to"),
    (["--resume", "99", "--out", "o"], "no run 99"),
    (["--dataset", "{d}", "--inputs", "{d}", "--models", "runscripted:a", "--out", "o"],
     "--inputs applies to --prompt"),
    (["--dataset", "{d}", "--expected-column", "x", "--models", "runscripted:a", "--out", "o"],
     "--expected-column applies to --inputs"),
    (["--prompt", "{d}", "--inputs", "{d}", "--expected", "x", "--models", "runscripted:a", "--out", "o"],
     "with --inputs the answers come from --expected-column"),
])
def test_errors_are_one_line(env, dataset, capsys, argv, message):
    code, out, err = _run(capsys, *[a.replace("{d}", str(dataset)) for a in argv])
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("promptanatomy: error: ") and message in lines[0]
    assert not RunScripted.sent


# -------------------------------------------------------------------------------------------- the real model

@pytest.mark.slow
@pytest.mark.timeout(600)
def test_embedded_model_over_five_pubmedqa_instances(env, capsys):
    out_dir = env / "pubmedqa"
    code, out, err = _run(capsys, "--dataset", _path("PubMedQA"), "--limit", "5", "--models", "local",
                          "--components", "Directive", "CRT", "--strategies", "SCI", "-n", "1", "--max-tokens", "4",
                          "--keep-top", "none", "--out", out_dir)
    assert code == 0, err
    summary = json.loads(out)
    run_id = summary["run_id"]
    assert summary["errors"] == 0 and summary["answered"] == summary["planned"] == 5 * 3  # clean + 2 variants each
    frame = pd.read_csv(out_dir / "results.csv")
    with RunStore(env / "runs.sqlite") as store:
        info = store.get_run(run_id)
        assert info.status == "done" and info.requests == info.responses == summary["planned"]
        assert len(store.dissections(run_id)) == 5
    con = sqlite3.connect(str(env / "runs.sqlite"))
    rows = con.execute("SELECT q.model, v.instance_id, v.component, v.strategy, j.correct FROM requests q "
                       "JOIN variants v ON v.run_id=q.run_id AND v.variant_id=q.variant_id "
                       "JOIN judgments j ON j.request_id=q.id WHERE q.run_id=?", (run_id,)).fetchall()
    con.close()
    assert len(rows) == summary["planned"]  # every answer judged
    clean = {(m, i): c for m, i, comp, _, c in rows if comp == "clean"}
    # counts add up: every judged answer is in exactly one cell
    assert frame.n.sum() + frame.unjudged.sum() == len(rows)
    for cell in frame.itertuples(index=False):
        verdicts = [(i, c) for m, i, comp, s, c in rows
                    if (m, comp, s) == (cell.model, cell.component, cell.perturbation) and c is not None]
        k = sum(1 for _, c in verdicts if c == 0)
        assert (cell.n, cell.successes) == (len(verdicts), k)
        assert cell.asr == pytest.approx(k / len(verdicts))
        assert (cell.asr_low, cell.asr_high) == pytest.approx(wilson_interval(k, len(verdicts)))
        if cell.component == "clean":
            continue
        per = []  # PSS: per instance, the mean |Y_i - Y_j| over the pairs of its variants and its clean prompt
        for iid in {i for i, _ in verdicts}:
            ys = [float(c) for i, c in verdicts if i == iid] + [float(clean[(cell.model, iid)])]
            pairs = [abs(a - b) for n, a in enumerate(ys) for b in ys[n + 1:]]
            per.append(sum(pairs) / len(pairs))
        assert cell.pss == pytest.approx(sum(per) / len(per))
        flips = [c for i, c in verdicts if clean[(cell.model, i)] == 1]
        if flips:
            assert cell.flip_rate == pytest.approx(sum(1 for c in flips if c == 0) / len(flips))
        else:
            assert math.isnan(cell.flip_rate)
    t2 = pd.read_csv(out_dir / "table2.csv")
    assert list(t2.component) == ["Directive", "CRT"] and list(t2.columns) == ["model", "component", "SCI"]
    assert "<html" in (out_dir / "report.html").read_text(encoding="utf-8").lower()


def test_ppl_filter_rows_and_columns(env, dataset, capsys, monkeypatch):
    class LengthScorer:  # perplexity stand-in: the text's length (the real scorer runs in test_experiment's slow test)
        def score_variants(self, clean, variants, progress=None):
            return float(len(clean)), [float(len(v)) for v in variants]

    monkeypatch.setattr("promptanatomy_core.scoring.perplexity.PerplexityScorer", LengthScorer)
    code, out, err = _run(capsys, "--dataset", dataset, "--tagged-column", "tagged", "--answer-column", "gold",
                          "--models", "runscripted:a", "--components", "Role", "Directive", "--strategies", "SCI",
                          "WOD", "-n", "2", "--keep-top", "0.5", "--out", env / "filtered")
    assert code == 0, err
    frame = pd.read_csv(env / "filtered" / "results.csv")
    cells = frame[frame.component != "clean"]
    assert set(cells.ppl_filter) == {"all", "top50%"}
    assert (cells[cells.ppl_filter == "all"].n == 6).all() and (cells[cells.ppl_filter == "top50%"].n == 3).all()
    t2 = pd.read_csv(env / "filtered" / "table2.csv")
    assert list(t2.columns) == ["model", "component", "SCI", "SCI top50%", "WOD", "WOD top50%"]
    t1 = pd.read_csv(env / "filtered" / "table1.csv")
    assert set(t1.ppl_filter) == {"all", "top50%"}
