"""The openai backend against a real OpenAI-compatible server: ``transformers serve`` on the converted embedded
model, started on a free loopback port (slow: the server loads the model, and generation runs on the CPU)."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

import openai  # noqa: E402,F401  (make install provides it: a missing one fails)
import fastapi  # noqa: E402,F401  (make install provides it: a missing one fails)
import uvicorn  # noqa: E402,F401  (make install provides it: a missing one fails)

from promptanatomy_core.models.base import ChatRequest, Message, get_backend  # noqa: E402
from promptanatomy_core.models.cache import ResponseCache  # noqa: E402
from promptanatomy_core.models.prompting import build_messages  # noqa: E402
from promptanatomy_core.models.runner import RetryPolicy, Runner  # noqa: E402

STARTUP_S = 240


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_command() -> list[str]:
    exe = Path(sys.executable).with_name("transformers")
    if exe.exists():
        return [str(exe), "serve"]
    found = shutil.which("transformers")
    if found:
        return [found, "serve"]
    pytest.fail("the transformers CLI is not installed (requirements.txt installs transformers[serving])")


@pytest.fixture(scope="module")
def served_model(tmp_path_factory):
    from promptanatomy_core.models.embedded import EmbeddedModelError, resolve_model

    try:
        model = resolve_model(None)
    except EmbeddedModelError as exc:
        pytest.fail(str(exc))
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    env = dict(os.environ, PYTHONUNBUFFERED="1", TRANSFORMERS_VERBOSITY="warning")
    with open(log, "wb") as out:
        proc = subprocess.Popen(_serve_command() + [model, "--host", "127.0.0.1", "--port", str(port),
                                                    "--device", "cpu", "--dtype", "float32"],
                                stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"transformers serve exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"transformers serve did not answer /health in {STARTUP_S} s: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield model, f"http://127.0.0.1:{port}/v1"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the server's own process group (start_new_session)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def test_openai_backend_against_transformers_serve(served_model, tmp_path):
    model, base_url = served_model
    backend = get_backend(f"openai:{model}@{base_url}", timeout=300.0)
    prompt = "You are a geography teacher. What is the capital of France? Answer in one word."
    requests = [
        ChatRequest((Message("user", "What is the capital of France? Answer in one word."),), max_tokens=8, seed=1,
                    logprobs=True),
        ChatRequest(build_messages(prompt, "split"), max_tokens=8, seed=1),
    ]
    assert requests[1].messages[0].role == "system"
    with ResponseCache(tmp_path) as cache:
        runner = Runner(backend, cache=cache, concurrency=2, timeout=300.0,
                        retry=RetryPolicy(max_attempts=2, base_delay=1, max_delay=2))
        first = runner.run(requests + requests[:1])  # the repeat is merged, not sent
        for r in first.responses:
            assert r.ok, r.error
            assert r.text.strip() and r.input_tokens > 0 and 0 < r.output_tokens <= 8
        assert first.stats.sent == 2 and first.stats.merged == 1
        assert "paris" in first.responses[0].text.lower()
        # this server gives no logprobs (measured with transformers 5.x); if one does, they are probabilities
        assert all(0 < t.prob <= 1 for t in first.responses[0].tokens)

        second = Runner(backend, cache=cache).run(requests)
        assert second.stats.cache_hits == 2 and second.stats.sent == 0
        assert [r.text for r in second.responses] == [r.text for r in first.responses[:2]]


def test_a_model_the_server_does_not_serve_is_a_recorded_error_not_retried(served_model):
    _, base_url = served_model
    backend = get_backend(f"openai:/no/such/model@{base_url}", timeout=120.0)
    result = Runner(backend, cache=False).run([ChatRequest((Message("user", "hi"),), max_tokens=2)])
    r = result.responses[0]
    # transformers serve answers 400 for a model it does not serve: a client error, recorded at once, never retried
    assert not r.ok and r.text == "" and "400" in r.error and r.attempts == 1
