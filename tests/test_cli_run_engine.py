"""The run-engine commands: ``ask``, ``cache info|clear``, ``estimate`` (in-process, against the loopback server)."""
from __future__ import annotations

import json

import pytest

from promptanatomy_core.cli import main

from fault_server import FaultServer


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PROMPTANATOMY_NO_CACHE", raising=False)
    monkeypatch.delenv("PROMPTANATOMY_PRICES", raising=False)
    return tmp_path / "cache"


@pytest.fixture()
def server():
    with FaultServer() as srv:
        yield srv


@pytest.fixture()
def prompt_file(tmp_path):
    path = tmp_path / "prompt.txt"
    path.write_text("You are a geographer. What is the capital of France?\n", encoding="utf-8")
    return path


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ask_prints_the_answer_and_tokens_then_answers_from_the_cache(cache_dir, server, prompt_file, capsys):
    spec = f"openai:fault-model@{server.base_url}"
    code, out, err = run_cli(capsys, "ask", "--model", spec, str(prompt_file))
    assert code == 0, err
    assert out == "echo: You are a geographer. What is the capital of France?\n"
    assert "input +" in err and "output tokens" in err and "$0.000000" in err and "cache" not in err
    code, out2, err2 = run_cli(capsys, "ask", "--model", spec, str(prompt_file))
    assert code == 0 and out2 == out and "from cache" in err2 and server.requests == 1
    code, out3, _ = run_cli(capsys, "ask", "--model", spec, "--no-cache", str(prompt_file))
    assert code == 0 and out3 == out and server.requests == 2

    code, out, _ = run_cli(capsys, "cache", "info")
    info = json.loads(out)
    assert code == 0 and info["entries"] == 1 and info["path"].startswith(str(cache_dir))
    code, out, _ = run_cli(capsys, "cache", "clear")
    assert code == 0 and json.loads(out)["removed"] == 1
    assert json.loads(run_cli(capsys, "cache", "info")[1])["entries"] == 0


def test_ask_system_modes(cache_dir, server, prompt_file, capsys):
    spec = f"openai:fault-model@{server.base_url}"
    code, out, _ = run_cli(capsys, "ask", "--model", spec, "--system-mode", "split", str(prompt_file))
    assert code == 0 and out == "echo: What is the capital of France?\n"  # Role went to the system message
    code, out, _ = run_cli(capsys, "ask", "--model", spec, "--system-mode", "system", str(prompt_file))
    assert code == 0 and out == "echo: Follow the instructions.\n"


def test_ask_errors_are_one_line(cache_dir, server, prompt_file, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, out, err = run_cli(capsys, "ask", "--model", "openai:gpt-6-luna", str(prompt_file))
    assert code == 1 and out == "" and err.startswith("promptanatomy: error: ") and "OPENAI_API_KEY" in err
    assert err.count("\n") == 1
    code, _, err = run_cli(capsys, "ask", "--model", "nosuch:model", str(prompt_file))
    assert code == 2 and "unknown provider" in err
    code, _, err = run_cli(capsys, "ask", "--model", "local", "--system-mode", "both", str(prompt_file))
    assert code == 2 and "--system-mode" in err
    code, _, err = run_cli(capsys, "ask", "--model", "local", "--temperature", "-1", str(prompt_file))
    assert code == 2 and "--temperature" in err
    # a request that finally fails is an error, not an answer (500, twice)
    bad = tmp_path / "bad.txt"
    bad.write_text("[always500]broken", encoding="utf-8")
    code, out, err = run_cli(capsys, "ask", "--model", f"openai:fault-model@{server.base_url}", "--attempts", "2",
                             str(bad))
    assert code == 1 and out == "" and "500" in err and "gave up after 2 attempts" in err


def test_estimate_dry_run_json(cache_dir, server, prompt_file, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    local_spec = f"openai:fault-model@{server.base_url}"
    assert run_cli(capsys, "ask", "--model", local_spec, "--temperature", "0.7", "--max-tokens", "50",
                   str(prompt_file))[0] == 0
    code, out, err = run_cli(capsys, "estimate", "--model", "openai:gpt-4o-mini", "--model",
                             "anthropic:claude-haiku-5-5", "--model", local_spec, "--samples", "3",
                             "--temperature", "0.7", "--max-tokens", "50", str(prompt_file))
    assert code == 0, err
    data = json.loads(out)
    gpt, claude, served = data["models"]
    assert gpt["requests"] == 3 and gpt["to_send"] == 3 and gpt["output_tokens_max"] == 150
    assert gpt["dollars"] == pytest.approx((gpt["input_tokens"] * 0.15 + 150 * 0.60) / 1e6, abs=1e-6)
    assert claude["price_per_mtok"] == [0.10, 0.50]
    assert served["cache_hits"] == 1 and served["to_send"] == 2 and served["dollars"] == 0  # sample 0 is cached
    assert data["total"]["requests"] == 9 and data["total"]["cache_hits"] == 1
    assert server.requests == 1  # the dry run sent nothing

    prices = cache_dir.parent / "prices.json"
    prices.write_text(json.dumps({"openai:gpt-4o-mini": [1000, 1000]}))
    code, out, _ = run_cli(capsys, "estimate", "--model", "openai:gpt-4o-mini", "--prices", str(prices),
                           "--max-tokens", "10", str(prompt_file))
    assert code == 0 and json.loads(out)["models"][0]["price_per_mtok"] == [1000, 1000]
    code, _, err = run_cli(capsys, "estimate", "--model", "openai:gpt-4o-mini", "--samples", "0", str(prompt_file))
    assert code == 2 and "--samples" in err
    code, _, err = run_cli(capsys, "estimate", str(prompt_file))
    assert code == 2 and "--model" in err
