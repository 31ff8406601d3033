"""`promptanatomy perturb`: tagged and plain input, every strategy, the control group, baselines, one-line errors, and
(slow) the perplexity filter with the embedded model."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from promptanatomy_core.cli import main
from promptanatomy_core.perturb import BASELINES, COMPERTURB
from promptanatomy_core.tagged import parse_tagged

REPO_ROOT = Path(__file__).resolve().parents[1]
ERROR_PREFIX = "promptanatomy: error: "
KEYS = {"strategy", "component", "seed", "text", "ppl", "ppl_ratio", "kept"}

TAGGED = (
    "<Role>You are a careful sentiment classification agent for a bookshop.</Role>\n"
    "<Directive>Classify the customer review below as positive or negative. Review: {input}</Directive>\n"
    "<Output Formatting>Answer with one word in lower case, nothing else.</Output Formatting>"
)
PLAIN = ("You are a careful sentiment classification agent for a bookshop.\n"
         "Classify the customer review below as positive or negative.\n"
         "Answer with one word in lower case, nothing else.\n"
         "Review: {input}")


def run_cli(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    assert err.startswith(ERROR_PREFIX) and err.count("\n") == 1 and "Traceback" not in err, err
    return err[len(ERROR_PREFIX):]


@pytest.fixture()
def tagged_file(tmp_path):
    f = tmp_path / "tagged.txt"
    f.write_text(TAGGED, encoding="utf-8")
    return f


@pytest.fixture()
def plain_file(tmp_path):
    f = tmp_path / "plain.txt"
    f.write_text(PLAIN, encoding="utf-8")
    return f


def test_tagged_input_prints_variants_without_tags(capsys, tagged_file):
    clean = parse_tagged(TAGGED).prompt
    code, out, err = run_cli(capsys, ["perturb", "--strategy", "SCI", "--component", "Role", "--seed", "7", "-n", "3",
                                      "--ratio", "0.2", "--no-score", str(tagged_file)])
    assert code == 0 and err == ""
    variants = json.loads(out)
    assert [v["seed"] for v in variants] == [7, 8, 9]
    for v in variants:
        assert KEYS <= set(v)
        assert v["strategy"] == "SCI" and v["component"] == "Role"
        assert v["ppl"] is None and v["ppl_ratio"] is None and v["kept"] is None
        assert "<Role>" not in v["text"] and v["text"] != clean
        assert v["text"].endswith(clean[clean.index("\n"):])  # everything after the Role is byte-identical


def test_plain_input_is_dissected_and_control_and_baselines_work(capsys, plain_file):
    code, out, err = run_cli(capsys, ["perturb", "--strategy", "WOD", "--component", "CRT", "--no-score",
                                      str(plain_file)])
    assert code == 0, err
    (v,) = json.loads(out)
    assert v["component"] == "CRT" and "control:" in v["note"] and len(v["text"]) < len(PLAIN)
    for name in BASELINES:
        code, out, err = run_cli(capsys, ["perturb", "--strategy", name, "--no-score", str(plain_file)])
        assert code == 0, err
        (v,) = json.loads(out)
        assert v["component"] == "whole prompt" and v["strategy"] == name and "{input}" in v["text"]
    code, out, err = run_cli(capsys, ["perturb", "--strategy", "MTTM-Char", "--component", "Role", "--no-score",
                                      str(plain_file)])
    assert code == 0 and json.loads(out)[0]["component"] == "Role"


@pytest.mark.parametrize("strategy", COMPERTURB)
def test_every_strategy_from_stdin(capsys, monkeypatch, strategy):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TAGGED.encode()), encoding="utf-8"))
    extra = ["--offline"] if strategy == "SER" else []
    code, out, err = run_cli(capsys, ["perturb", "--strategy", strategy, "--component", "Directive", "--no-score",
                                      *extra])
    assert code == 0, err
    (v,) = json.loads(out)
    assert v["strategy"] == strategy and v["text"].startswith("You are a careful")
    assert "{input}" in v["text"] or strategy == "COD"


@pytest.mark.parametrize("argv,needle", [
    (["--strategy", "XYZ", "--component", "Role"], "unknown strategy 'XYZ'; choose one of: SCI, SYR, WOD, SER, COD"),
    (["--strategy", "SCI", "--component", "Persona"], "unknown component 'Persona'"),
    (["--strategy", "SCI"], "--component is required for SCI"),
    (["--strategy", "SCI", "--component", "Role", "--ratio", "0"], "ratio must be a number in (0, 1]"),
    (["--strategy", "SCI", "--component", "Role", "--ratio", "1.5"], "ratio must be a number in (0, 1]"),
    (["--strategy", "SCI", "--component", "Role", "--keep-top", "2"], "--keep-top must be a share in (0, 1] or none"),
    (["--strategy", "SCI", "--component", "Role", "-n", "0"], "-n must be from 1 to 1000"),
    (["--strategy", "SCI", "--component", "Role", "--offline"], "apply to --strategy SER only"),
    (["--strategy", "SER", "--component", "Role", "--paraphrase-model", "nosuch:x"], "unknown provider 'nosuch'"),
    (["--strategy", "SCI", "--component", "Role", "--ppl-model", "openai:gpt-4o"], "bad --ppl-model"),
    (["--strategy", "SCI", "--component", "Role", "--dissector", "nope"], "unknown dissector 'nope'"),
    (["--strategy", "SCI", "--component", "Examples", "--no-score"], "'Examples' is not present in this prompt "
                                                                     "(present: Role, Directive, Output Formatting)"),
    (["--strategy", "SCI", "--component", "Role", "--dissector", "rules"], "--dissector has no effect on XML-tagged"),
])
def test_bad_arguments_are_one_line_errors(capsys, tagged_file, argv, needle):
    code, out, err = run_cli(capsys, ["perturb", *argv, str(tagged_file)])
    assert code == 2 and out == ""
    assert needle in one_error_line(err)


def test_bad_input_is_a_one_line_error(capsys, tmp_path):
    missing = tmp_path / "nope.txt"
    code, _, err = run_cli(capsys, ["perturb", "--strategy", "SCI", "--component", "Role", str(missing)])
    assert code == 2 and "no such file" in one_error_line(err)
    broken = tmp_path / "broken.txt"
    broken.write_text("<Role>never closed", encoding="utf-8")
    code, _, err = run_cli(capsys, ["perturb", "--strategy", "SCI", "--component", "Role", "--no-score", str(broken)])
    assert code == 2 and "bad tagged input" in one_error_line(err)
    short = tmp_path / "short.txt"
    short.write_text("<Role>Expert.</Role>\n<Directive>Summarise the text.</Directive>", encoding="utf-8")
    code, _, err = run_cli(capsys, ["perturb", "--strategy", "WOD", "--component", "Role", "--no-score", str(short)])
    assert code == 2 and "too short to perturb with WOD" in one_error_line(err)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_perplexity_filter_end_to_end(tmp_path):
    """`python -m promptanatomy_core perturb` with the embedded model scoring: ratios set, the top 20% kept."""
    f = tmp_path / "tagged.txt"
    f.write_text(TAGGED, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "promptanatomy_core", "perturb", "--strategy", "WOD", "--component",
                           "Directive", "-n", "5", "--ratio", "0.2", str(f)], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr
    variants = json.loads(proc.stdout)
    assert len(variants) == 5
    assert all(v["ppl"] > 0 and v["ppl_ratio"] > 0 for v in variants)
    kept = [v for v in variants if v["kept"]]
    assert len(kept) == 1  # ceil(0.2 × 5)
    assert kept[0]["ppl_ratio"] == max(v["ppl_ratio"] for v in variants)
    proc = subprocess.run([sys.executable, "-m", "promptanatomy_core", "perturb", "--strategy", "WOD", "--component",
                           "Directive", "-n", "5", "--ratio", "0.2", "--keep-top", "none", str(f)],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert all(v["kept"] for v in json.loads(proc.stdout))
