"""The anthropic backend offline: the real ``AsyncAnthropic`` client over an httpx mock transport that replays
recorded Messages API responses (tests/data/anthropic/: status, headers and body as the API sends them)."""
from __future__ import annotations

import json
from pathlib import Path

import httpx2 as httpx  # the HTTP client the anthropic SDK is built on
import pytest

from promptanatomy_core.models.anthropic_backend import AnthropicBackend
from promptanatomy_core.models.base import BackendError, ChatRequest, Message, get_backend
from promptanatomy_core.models.runner import RetryPolicy, Runner

DATA = Path(__file__).parent / "data" / "anthropic"
KEY = "sk-ant-api03-test-0123456789abcdefghij"


def recorded(name: str) -> httpx.Response:
    rec = json.loads((DATA / f"{name}.json").read_text())
    return httpx.Response(rec["status"], headers=rec["headers"], json=rec["body"])


class Replay:
    """Answers each request with the next recorded response; keeps what was sent."""

    def __init__(self, *names: str) -> None:
        self.names = list(names)
        self.sent: list[tuple[dict, dict]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((dict(request.headers), json.loads(request.content)))
        return recorded(self.names.pop(0) if len(self.names) > 1 else self.names[0])


def backend(replay: Replay, model: str = "claude-haiku-5-5") -> AnthropicBackend:
    return AnthropicBackend(f"anthropic:{model}", api_key=KEY,
                            http_client_factory=lambda: httpx.AsyncClient(transport=httpx.MockTransport(replay)))


def run(b: AnthropicBackend, requests, **kw):
    kw.setdefault("cache", False)
    kw.setdefault("retry", RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.02))
    runner = Runner(b, **kw)
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    runner.sleep = no_wait
    return runner.run(requests), waits


ASK = ChatRequest((Message("system", "You are a pharmacologist."), Message("user", "Does aspirin inhibit platelets?")),
                  max_tokens=64, temperature=0.7, top_p=0.9, seed=3, stop=("\n\n",))


def test_request_building_and_text_response():
    replay = Replay("message_text")
    result, _ = run(backend(replay), [ASK])
    r = result.responses[0]
    assert r.ok and r.text.startswith("Yes. Aspirin irreversibly inhibits COX-1")
    assert (r.input_tokens, r.output_tokens, r.finish_reason) == (58, 24, "end_turn")
    headers, body = replay.sent[0]
    assert body == {"model": "claude-haiku-5-5", "max_tokens": 64, "system": "You are a pharmacologist.",
                    "messages": [{"role": "user", "content": "Does aspirin inhibit platelets?"}],
                    "stop_sequences": ["\n\n"]}  # SDK 2.x: no temperature/top_p (API 2026-10-21 refuses them)
    assert KEY in (headers.get("authorization", "") + headers.get("x-api-key", ""))
    assert headers.get("x-stainless-retry-count") == "0"  # the SDK's own retries are off; the runner retries


def test_turns_of_one_role_are_merged_and_sampling_sent_when_asked():
    b = backend(Replay("message_text"))
    req = ChatRequest((Message("system", "A."), Message("system", "B."), Message("user", "one"),
                       Message("user", "two"), Message("assistant", "ok"), Message("user", "three")),
                      temperature=0.5, top_p=0.8)
    params = b.build_params(req, sampling=True)
    assert params["system"] == "A.\n\nB."
    assert params["messages"] == [{"role": "user", "content": "one\n\ntwo"}, {"role": "assistant", "content": "ok"},
                                  {"role": "user", "content": "three"}]
    assert (params["temperature"], params["top_p"]) == (0.5, 0.8)
    assert "temperature" not in b.build_params(req)


@pytest.mark.parametrize("name, text, reason, inputs, outputs", [
    ("message_thinking", "yes", "end_turn", 12 + 1830, 41),  # thinking left out; cache reads count as input
    ("message_max_tokens", "def two_sum(nums, target):\n    seen = {}\n    for i, n in enumerate(nums):", "max_tokens",
     140, 16),
    ("message_stop_sequence", "Answer: maybe", "stop_sequence", 77, 4),
    ("message_refusal", "", "refusal", 35, 0),  # a refusal is an answer (empty), not an error
])
def test_recorded_responses_parse(name, text, reason, inputs, outputs):
    result, _ = run(backend(Replay(name)), [ASK])
    r = result.responses[0]
    assert r.ok, r.error
    assert (r.text, r.finish_reason, r.input_tokens, r.output_tokens) == (text, reason, inputs, outputs)


def test_rate_limit_retry_after_is_honoured_then_answer():
    replay = Replay("error_rate_limit_429", "message_text")
    result, waits = run(backend(replay), [ASK])
    r = result.responses[0]
    assert r.ok and r.attempts == 2
    assert len(replay.sent) == 2
    assert 13.0 <= max(waits) <= 14.0  # retry-after: 13 (plus a little jitter), not the short backoff


def test_overloaded_is_retried_until_the_limit_then_recorded():
    replay = Replay("error_overloaded_529")
    result, _ = run(backend(replay), [ASK])
    r = result.responses[0]
    assert not r.ok and r.attempts == 3 and "Overloaded" in r.error and "gave up after 3 attempts" in r.error
    assert r.text == ""


@pytest.mark.parametrize("name, words", [("error_invalid_request_400", "Extra inputs are not permitted"),
                                         ("error_authentication_401", "invalid x-api-key")])
def test_client_errors_are_not_retried(name, words):
    replay = Replay(name)
    result, _ = run(backend(replay), [ASK])
    r = result.responses[0]
    assert not r.ok and r.attempts == 1 and len(replay.sent) == 1
    assert words in r.error and KEY not in r.error


def test_registry_and_missing_key(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(BackendError, match="ANTHROPIC_API_KEY"):
        get_backend("anthropic:claude-haiku-5-5")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    b = get_backend("anthropic:claude-haiku-5-5")
    assert isinstance(b, AnthropicBackend) and KEY not in repr(b)
    assert b.cache_identity() == {"provider": "anthropic", "model": "claude-haiku-5-5", "base_url": None}
