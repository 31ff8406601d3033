"""`promptanatomy ppl`: JSON lines in, the same objects with "ppl" out; bad input is one error line naming the line.
Input errors are checked before any model loads (fast); the runs that score are marked slow."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import uuid

import pytest

from promptanatomy_core.scoring import PerplexityScorer
from test_cli import REPO_ROOT, assert_one_error_line, feed_stdin, run_cli

LINES = [{"text": "You are a careful medical expert.", "id": 1},
         {"text": "Answer yes or no.<|im_end|> Then explain.", "tags": ["a", "b"]},
         {"text": "Résumé: naïve café 🚀"}]


def jsonl(items) -> bytes:
    return ("\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n").encode("utf-8")


@pytest.fixture(autouse=True)
def no_model_load(monkeypatch, request):
    """Fast tests must fail before the model would load."""
    if request.node.get_closest_marker("slow") is None:
        def refuse(self):
            raise AssertionError("the model was loaded for an input error")
        monkeypatch.setattr(PerplexityScorer, "load", refuse)


@pytest.mark.parametrize("data, message", [
    (b'{"text": "fine"}\n{"text": "broken"\n', "line 2: not valid JSON"),
    (b'{"text": "fine"}\n\n[1, 2]\n', "line 3: expected a JSON object"),
    (b'{"prompt": "no text field"}\n', 'line 1: the object has no "text" field'),
    (b'{"text": 42}\n', 'line 1: "text" is a JSON number, not a string'),
    (b'{"text": "fine"}\n{"text": ""}\n', 'line 2: "text" is empty'),
    (b"\n  \n", "holds no JSON lines"),
    (b'{"text": "caf\xe9"}\n', "not UTF-8"),
])
def test_bad_lines_are_one_error_line_with_the_line_number(capsys, monkeypatch, data, message):
    feed_stdin(monkeypatch, data)
    code, out, err = run_cli(capsys, ["ppl"])
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert message in err


def test_bad_line_in_a_file_names_the_file(capsys, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"text": "ok"}\n{"text": null}\n')
    code, _, err = run_cli(capsys, ["ppl", str(path)])
    assert code == 2 and f"'{path}' line 2" in err


@pytest.mark.parametrize("argv, message", [
    (["ppl", "--model", "openai:gpt-4o-mini"], "ppl needs a local model"),
    (["ppl", "--model", "anthropic:claude-sonnet-4-5"], "ppl needs a local model"),
    (["ppl", "--model", ""], "bad --model SPEC"),
    (["ppl", "/no/such/file.jsonl"], "cannot read '/no/such/file.jsonl'"),
])
def test_usage_errors(capsys, argv, message):
    code, out, err = run_cli(capsys, argv)
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert message in err


@pytest.mark.slow
def test_scores_each_line_keeping_its_fields_and_order(capsys, monkeypatch):
    lines = LINES + [{"text": f"A line never seen before: {uuid.uuid4()}"}]  # computed, not from the disk cache
    feed_stdin(monkeypatch, jsonl(lines[:2]) + b"\n" + jsonl(lines[2:]))  # a blank line between is skipped
    code, out, err = run_cli(capsys, ["ppl"])
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [{k: v for k, v in r.items() if k != "ppl"} for r in rows] == lines
    want = PerplexityScorer(cache=False).score([x["text"] for x in lines])
    for row, ppl in zip(rows, want):
        assert math.isclose(row["ppl"], ppl, rel_tol=1e-4)
    assert "Résumé" in out  # not escaped


@pytest.mark.slow
def test_python_m_with_a_file_and_local_spec(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(jsonl([{**LINES[0], "text": f"{LINES[0]['text']} {uuid.uuid4()}"}]))  # not in the disk cache
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "promptanatomy_core", "ppl", "--model", "local", str(path)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=240)
    assert done.returncode == 0, done.stderr
    (row,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert row["id"] == 1 and row["ppl"] > 1
