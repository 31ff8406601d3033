"""The command line: `promptanatomy dissect` in-process (capsys), plus one end-to-end run of `python -m promptanatomy_core`."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import promptanatomy_core.dissect  # noqa: F401 - registers the built-in dissectors
from promptanatomy_core.cli import main
from promptanatomy_core.dissect.base import available
from promptanatomy_core.tagged import parse_tagged
from promptanatomy_core.text import MAX_PROMPT_CHARS
from promptanatomy_core.types import COMPONENTS

REPO_ROOT = Path(__file__).resolve().parents[1]
CANONICAL = [c.value for c in COMPONENTS]
ERROR_PREFIX = "promptanatomy: error: "

PROMPT = (
    "You are a senior Python reviewer. Review the function below and list every bug.\n"
    "The code runs on Python 3.11, e.g. in a Docker image; see https://example.com/style.html for the style guide.\n"
    "Answer in at most five bullet points.\n"
    "Here are some examples:\n"
    "Input: def f(): return 1/0 Output: - division by zero\n"
    "Code: {code}"
)


def _gold_prompts() -> list[tuple[str, str]]:
    path = REPO_ROOT / "bench" / "data" / "custom_prompts.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["id"], r["tagged"]) for r in rows]


GOLD = _gold_prompts()


def run_cli(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def feed_stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def assert_one_error_line(err: str) -> None:
    assert err.startswith(ERROR_PREFIX), err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "Traceback" not in err
    assert len(err.strip()) > len(ERROR_PREFIX) + 5  # says something


def check_json(doc: dict, prompt: str, dissector: str = "rules") -> None:
    assert set(doc) == {"dissector", "sentences"}
    assert doc["dissector"] == dissector
    assert doc["sentences"], "no sentences"
    prev_end = 0
    for s in doc["sentences"]:
        assert set(s) == {"start", "end", "text", "labels", "source"}
        assert isinstance(s["start"], int) and isinstance(s["end"], int)
        assert prev_end <= s["start"] < s["end"] <= len(prompt)
        assert prompt[s["start"]:s["end"]] == s["text"]
        assert all(lab in CANONICAL for lab in s["labels"]), s["labels"]
        assert s["labels"] == sorted(s["labels"], key=CANONICAL.index)  # canonical order, no duplicates
        assert len(set(s["labels"])) == len(s["labels"])
        assert isinstance(s["source"], str) and s["source"]
        prev_end = s["end"]
    # nothing but white space between and around the sentences
    covered = "".join(prompt[a["end"]:b["start"]] for a, b in zip(doc["sentences"], doc["sentences"][1:]))
    assert not covered.strip()


# ----------------------------------------------------------------------------------------------------- success paths

def test_rules_is_registered():
    assert "rules" in available()


def test_dissect_file_json(capsys, tmp_path):
    f = tmp_path / "prompt.txt"
    f.write_text(PROMPT, encoding="utf-8")
    code, out, err = run_cli(capsys, ["dissect", str(f)])
    assert code == 0 and err == ""
    doc = json.loads(out)
    check_json(doc, PROMPT)
    assert all(s["source"] == "rules" for s in doc["sentences"])
    assert any(s["labels"] for s in doc["sentences"])


def test_default_dissector_is_rules_and_explicit_flag_matches(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(PROMPT, encoding="utf-8")
    _, default_out, _ = run_cli(capsys, ["dissect", str(f)])
    code, explicit_out, _ = run_cli(capsys, ["dissect", "--dissector", "rules", "--format", "json", str(f)])
    assert code == 0 and default_out == explicit_out


@pytest.mark.parametrize("pid,tagged", GOLD, ids=[g[0] for g in GOLD])
def test_offsets_on_varied_prompts(capsys, tmp_path, pid, tagged):
    prompt = parse_tagged(tagged).prompt
    f = tmp_path / f"{pid}.txt"
    f.write_bytes(prompt.encode("utf-8"))
    code, out, err = run_cli(capsys, ["dissect", str(f)])
    assert code == 0, err
    check_json(json.loads(out), prompt)


def test_offsets_index_the_file_as_read_crlf_and_unicode(capsys, tmp_path):
    prompt = "Tu es un traducteur expérimenté. 🙂\r\nTraduis le texte suivant en anglais.\r\nTexte : « Bonjour »"
    f = tmp_path / "crlf.txt"
    f.write_bytes(prompt.encode("utf-8"))
    code, out, err = run_cli(capsys, ["dissect", str(f)])
    assert code == 0, err
    assert "🙂" in out  # not \\u-escaped
    check_json(json.loads(out), prompt)


def test_byte_order_mark_is_dropped(capsys, tmp_path):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + PROMPT.encode("utf-8"))
    code, out, _ = run_cli(capsys, ["dissect", str(f)])
    assert code == 0
    check_json(json.loads(out), PROMPT)


def test_tagged_output_parses_back_to_the_same_labels(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(PROMPT, encoding="utf-8")
    _, json_out, _ = run_cli(capsys, ["dissect", str(f)])
    code, tagged_out, err = run_cli(capsys, ["dissect", "--format", "tagged", str(f)])
    assert code == 0 and err == ""
    doc = json.loads(json_out)
    expected = Counter((s["text"], frozenset(s["labels"])) for s in doc["sentences"])
    back = parse_tagged(tagged_out)
    got = Counter((s.text, frozenset(c.value for c in s.labels)) for s in back.sentences)
    assert got == expected


def test_stdin_implicit_and_dash(capsys, monkeypatch):
    feed_stdin(monkeypatch, PROMPT.encode("utf-8"))
    code, out_implicit, err = run_cli(capsys, ["dissect"])
    assert code == 0 and err == ""
    check_json(json.loads(out_implicit), PROMPT)
    feed_stdin(monkeypatch, PROMPT.encode("utf-8"))
    code, out_dash, _ = run_cli(capsys, ["dissect", "-"])
    assert code == 0 and out_dash == out_implicit


def test_stdin_text_stream_without_buffer(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(PROMPT))
    code, out, _ = run_cli(capsys, ["dissect", "-"])
    assert code == 0
    check_json(json.loads(out), PROMPT)


@pytest.mark.parametrize("pid,tagged", GOLD[:8], ids=[g[0] for g in GOLD[:8]])
def test_tagged_input_is_re_emitted_as_gold(capsys, monkeypatch, pid, tagged):
    gold = parse_tagged(tagged)
    feed_stdin(monkeypatch, tagged.encode("utf-8"))
    code, out, err = run_cli(capsys, ["dissect", "--input-format", "tagged"])
    assert code == 0, err
    doc = json.loads(out)
    check_json(doc, gold.prompt, dissector="gold")
    assert [(s["text"], set(s["labels"])) for s in doc["sentences"]] == \
        [(s.text, {c.value for c in s.labels}) for s in gold.sentences]
    feed_stdin(monkeypatch, tagged.encode("utf-8"))
    code, out, _ = run_cli(capsys, ["dissect", "--input-format", "tagged", "--format", "tagged"])
    assert code == 0
    again = parse_tagged(out)
    assert Counter((s.text, s.labels) for s in again.sentences) == Counter((s.text, s.labels) for s in gold.sentences)


def test_help_exits_zero(capsys):
    code, out, err = run_cli(capsys, ["--help"])
    assert code == 0 and "dissect" in out and err == ""
    code, out, _ = run_cli(capsys, ["dissect", "--help"])
    assert code == 0 and "--dissector" in out and "--format" in out


# ------------------------------------------------------------------------------------------------------- bad input

def _write(tmp_path: Path, name: str, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


BAD_FILES = {
    "empty": (b"", "empty"),
    "whitespace": (b"  \n\t\r\n  ", "empty"),
    "nul-bytes": (b"You are a bot.\x00\x00\x01\x02", "binary"),
    "undecodable": (b"Summarise this \xff\xfe\xfa text.", "UTF-8"),
    "png-header": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ""),
    "too-long": (b"word " * (MAX_PROMPT_CHARS // 5 + 10), "limit"),
    "far-too-long": (b"x" * (MAX_PROMPT_CHARS * 4 + 10), "limit"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_contents(capsys, tmp_path, case):
    data, needle = BAD_FILES[case]
    path = _write(tmp_path, f"{case}.txt", data)
    code, out, err = run_cli(capsys, ["dissect", path])
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert needle in err


@pytest.mark.parametrize("case", ["empty", "nul-bytes", "undecodable"])
def test_bad_stdin(capsys, monkeypatch, case):
    feed_stdin(monkeypatch, BAD_FILES[case][0])
    code, out, err = run_cli(capsys, ["dissect", "-"])
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert "stdin" in err


def test_missing_file(capsys, tmp_path):
    code, out, err = run_cli(capsys, ["dissect", str(tmp_path / "nope.txt")])
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert "no such file" in err and "nope.txt" in err


def test_directory(capsys, tmp_path):
    code, out, err = run_cli(capsys, ["dissect", str(tmp_path)])
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert "directory" in err


@pytest.mark.parametrize("tagged,needle", [
    ("<Role>You are a bot.", "never closed"),
    ("<Role>You are a bot.</Directive>", "closes"),
    ("You are a bot.</Role>", "no opening tag"),
    ("<Rol>You are a bot.</Rol>", "unknown tag"),
    ("<Role>You are <Directive>a bot.</Directive></Role>", "nest"),
    ("You are a bot. Answer briefly.", "no component tags"),
])
def test_bad_tagged_input(capsys, tmp_path, tagged, needle):
    path = _write(tmp_path, "t.txt", tagged.encode("utf-8"))
    code, out, err = run_cli(capsys, ["dissect", "--input-format", "tagged", path])
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert needle in err


@pytest.mark.parametrize("argv,needle", [
    (["dissect", "--dissector", "nope"], "unknown dissector"),
    (["dissect", "--dissector", "llm", "--model", ""], "SPEC"),
    (["dissect", "--dissector", "llm", "--model", "openai:"], "SPEC"),
    (["dissect", "--dissector", "llm", "--model", "openai:gpt-4o-mini@ftp://x"], "SPEC"),
    (["dissect", "--dissector", "llm", "--model", "nosuchprovider:some-model"], "unknown provider"),
    (["dissect", "--model", "local"], "--model"),
    (["dissect", "--input-format", "tagged", "--dissector", "rules"], "no effect"),
    (["dissect", "--format", "xml"], "invalid choice"),
    (["dissect", "--input-format", "yaml"], "invalid choice"),
    (["dissect", "--bogus"], "unrecognized"),
    (["dissect", "a.txt", "b.txt"], "unrecognized"),
    ([], "required"),
    (["frobnicate"], "invalid choice"),
])
def test_usage_errors(capsys, monkeypatch, argv, needle):
    feed_stdin(monkeypatch, PROMPT.encode("utf-8"))
    if "llm" in argv and "llm" not in available():
        needle = "unknown dissector"  # until the llm dissector is registered the name itself is the error
    code, out, err = run_cli(capsys, argv)
    assert code == 2 and out == ""
    assert_one_error_line(err)
    assert needle in err


def test_bad_spec_is_rejected_before_reading_stdin(capsys, monkeypatch):
    assert "llm" in available()

    class Exploding(io.StringIO):
        def read(self, *a):  # pragma: no cover - must not be called
            raise AssertionError("stdin read before the arguments were checked")

    monkeypatch.setattr(sys, "stdin", Exploding())
    code, _, err = run_cli(capsys, ["dissect", "--dissector", "llm", "--model", "openai:"])
    assert code == 2
    assert_one_error_line(err)


def test_model_load_error_is_runtime_error(capsys, monkeypatch, tmp_path):
    """The real llm dissector pointed at a local model path that does not exist: exit 1, one line."""
    assert "llm" in available()
    feed_stdin(monkeypatch, PROMPT.encode("utf-8"))
    code, out, err = run_cli(capsys, ["dissect", "--dissector", "llm", "--model", f"local:{tmp_path / 'no-model'}"])
    assert code == 1 and out == ""
    assert_one_error_line(err)


# ------------------------------------------------------------------------------ runtime errors: exit 1, and --debug

class _Failing:
    """Registry entries whose construction or dissection fails as a model backend can."""

    def __init__(self, exc: BaseException, when: str) -> None:
        self.exc, self.when = exc, when

    def factory(self, **options):
        if self.when == "build":
            raise self.exc
        outer = self

        class _D:
            name = "failing"

            def dissect(self, prompt, sentences=None):
                raise outer.exc

        return _D()


@pytest.mark.parametrize("exc,when,code,needle", [
    ("backend", "build", 1, "could not load"),
    ("backend", "dissect", 1, "could not load"),
    ("timeout", "dissect", 1, "timed out"),
    ("runtime", "dissect", 1, "RuntimeError"),
    ("keyerror", "dissect", 1, "KeyError"),
    ("interrupt", "dissect", 130, "interrupted"),
])
def test_runtime_errors_map_to_exit_codes(capsys, monkeypatch, exc, when, code, needle):
    from promptanatomy_core.dissect import base
    from promptanatomy_core.models.base import BackendError

    errors = {
        "backend": BackendError("could not load model 'x':\nfile not found"),  # a newline must not split the line
        "timeout": TimeoutError("model did not answer in 30 s"),
        "runtime": RuntimeError("boom"),
        "keyerror": KeyError("labels"),
        "interrupt": KeyboardInterrupt(),
    }
    monkeypatch.setitem(base._REGISTRY, "failing", _Failing(errors[exc], when).factory)
    feed_stdin(monkeypatch, PROMPT.encode("utf-8"))
    got, out, err = run_cli(capsys, ["dissect", "--dissector", "failing"])
    assert got == code and out == ""
    assert_one_error_line(err)
    assert needle in err


@pytest.mark.parametrize("argv", [
    ["--debug", "dissect", "{missing}"],
    ["dissect", "--debug", "{missing}"],
])
def test_debug_reraises(capsys, tmp_path, argv):
    argv = [a.replace("{missing}", str(tmp_path / "missing.txt")) for a in argv]
    with pytest.raises(Exception, match="no such file"):
        main(argv)


def test_without_debug_an_unexpected_error_suggests_it(capsys, monkeypatch):
    from promptanatomy_core.dissect import base

    monkeypatch.setitem(base._REGISTRY, "failing", _Failing(ZeroDivisionError("division by zero"), "dissect").factory)
    feed_stdin(monkeypatch, PROMPT.encode("utf-8"))
    code, _, err = run_cli(capsys, ["dissect", "--dissector", "failing"])
    assert code == 1
    assert_one_error_line(err)
    assert "--debug" in err


# ------------------------------------------------------------------------------------------------------ end to end

def test_python_dash_m_end_to_end(tmp_path):
    """`python -m promptanatomy_core dissect` in a fresh interpreter: a good file, stdin, and a bad file."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
               PYTHONIOENCODING="utf-8")
    f = tmp_path / "p.txt"
    f.write_text(PROMPT, encoding="utf-8")
    cmd = [sys.executable, "-m", "promptanatomy_core", "dissect"]

    ok = subprocess.run(cmd + [str(f)], capture_output=True, text=True, encoding="utf-8", env=env, cwd=tmp_path,
                        timeout=120)
    assert ok.returncode == 0, ok.stderr
    check_json(json.loads(ok.stdout), PROMPT)

    piped = subprocess.run(cmd + ["--format", "tagged"], input=PROMPT, capture_output=True, text=True,
                           encoding="utf-8", env=env, cwd=tmp_path, timeout=120)
    assert piped.returncode == 0, piped.stderr
    assert parse_tagged(piped.stdout).sentences

    bad = _write(tmp_path, "bin.dat", b"\x00\x01\x02\xff")
    fail = subprocess.run(cmd + [bad], capture_output=True, text=True, encoding="utf-8", env=env, cwd=tmp_path,
                          timeout=120)
    assert fail.returncode == 2 and fail.stdout == ""
    assert_one_error_line(fail.stderr)
