"""The runner: rate-limit headers, backoff, merging, progress, cancellation, budget and batch backends.

The HTTP parts run against the loopback server of tests/fault_server.py through the real openai backend; the long
waits (a 60-second rate-limit window) run against a scripted backend with the runner's sleep replaced, so the test
checks the waits without spending them."""
from __future__ import annotations

import asyncio
import email.utils
import random
import threading
import time
from typing import Sequence

import pytest

from promptanatomy_core.models.base import Backend, ChatRequest, ChatResponse, Message, ModelSpec, RequestError
from promptanatomy_core.models.cache import ResponseCache
from promptanatomy_core.models.pricing import PriceTable
from promptanatomy_core.models.runner import (RetryPolicy, Runner, is_not_run, parse_duration,
                                              retry_after_from_headers)

from fault_server import FaultServer


def req(text: str, **kw) -> ChatRequest:
    return ChatRequest((Message("user", text),), **kw)


# ------------------------------------------------------------------------------------------------ headers, backoff

@pytest.mark.parametrize("text, seconds", [("1", 1.0), ("0.5", 0.5), ("20ms", 0.02), ("1s", 1.0), ("6m0s", 360.0),
                                           ("1h2m3.5s", 3723.5), ("", None), ("soon", None)])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == seconds


def test_retry_after_headers():
    now = 1_800_000_000.0
    assert retry_after_from_headers({"Retry-After": "7"}, now) == 7.0
    assert retry_after_from_headers({"retry-after-ms": "250", "retry-after": "9"}, now) == 0.25
    http_date = email.utils.formatdate(now + 30, usegmt=True)
    assert retry_after_from_headers({"Retry-After": http_date}, now) == pytest.approx(30, abs=1)
    assert retry_after_from_headers({"x-ratelimit-reset-requests": "1s", "x-ratelimit-reset-tokens": "6m0s"},
                                    now) == 360.0
    assert retry_after_from_headers({"x-ratelimit-reset": str(int(now + 12))}, now) == pytest.approx(12)
    reset = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + 45))
    assert retry_after_from_headers({"anthropic-ratelimit-requests-reset": reset}, now) == pytest.approx(45, abs=1)
    assert retry_after_from_headers({"content-type": "application/json"}, now) is None


def test_backoff_grows_is_capped_and_jittered_and_server_waits_win():
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0, jitter_s=0.5)
    rng = random.Random(0)
    for attempt, cap in [(1, 1), (2, 2), (3, 4), (4, 8), (9, 8)]:
        delays = {policy.delay(attempt, None, rng) for _ in range(20)}
        assert all(cap / 2 <= d <= cap for d in delays) and len(delays) > 1
    assert 60 <= policy.delay(1, 60.0, rng) <= 60.5


class Scripted(Backend):
    """Answers after the scripted failures (a stand-in for a rate-limited API; the real HTTP path is in the fault
    server tests)."""

    supports_async = True

    def __init__(self, failures: Sequence[RequestError] = (), delay: float = 0.0) -> None:
        super().__init__(ModelSpec("openai", "scripted", "http://127.0.0.1:9/v1"))
        self.failures = list(failures)
        self.delay = delay
        self.received: list[ChatRequest] = []

    def generate(self, requests):
        raise NotImplementedError

    async def acomplete(self, request, timeout=None):
        self.received.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.failures:
            raise self.failures.pop(0)
        return ChatResponse(text="ok:" + request.messages[-1].content, input_tokens=10, output_tokens=5)


def fake_sleep(runner: Runner) -> list[float]:
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    runner.sleep = record
    return waits


def test_a_60_second_rate_limit_window_is_outlasted_with_the_default_policy():
    limited = [RequestError("429 rate limited", retryable=True, retry_after=60.0, status=429) for _ in range(2)]
    backend = Scripted(limited)
    runner = Runner(backend, cache=False)
    waits = fake_sleep(runner)
    r = runner.run([req("hi")]).responses[0]
    assert r.ok and r.attempts == 3
    assert sum(w for w in waits if w >= 60) >= 120  # both server-given waits were honoured in full


def test_retry_time_cap_gives_up_cleanly():
    limited = [RequestError("429 rate limited", retryable=True, retry_after=60.0, status=429) for _ in range(5)]
    runner = Runner(Scripted(limited), cache=False, retry=RetryPolicy(max_retry_time=90))
    fake_sleep(runner)
    r = runner.run([req("hi")]).responses[0]
    assert not r.ok and "retry limit of 90 s" in r.error and r.attempts == 2


def test_permanent_errors_are_not_retried_and_keys_are_redacted():
    key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
    runner = Runner(Scripted([RequestError(f"401 Incorrect API key provided: {key}", retryable=False, status=401)]),
                    cache=False)
    r = runner.run([req("hi")]).responses[0]
    assert not r.ok and r.attempts == 1 and key not in r.error and "[REDACTED]" in r.error


def test_sampled_requests_get_one_seed_each():
    import openai  # noqa: F401  (make install provides it: a missing one fails)
    from promptanatomy_core.models.openai_backend import OpenAIBackend

    backend = OpenAIBackend("openai:gpt-4o-mini", api_key="sk-test-0123456789abcdef")
    seeds = [backend.build_params(req("q", temperature=0.8, seed=10, sample_index=i)).get("seed") for i in range(3)]
    assert seeds == [10, 11, 12]
    assert backend.build_params(req("g", seed=10, sample_index=2))["seed"] == 10  # greedy: one answer
    assert "seed" not in backend.build_params(req("q", temperature=0.8, sample_index=1))


def test_openai_request_building_for_the_api_and_for_other_servers():
    import openai  # noqa: F401  (make install provides it: a missing one fails)
    from promptanatomy_core.models.openai_backend import OpenAIBackend

    request = req("q", temperature=0.3, top_p=0.9, max_tokens=20, stop=("END",), logprobs=True)
    api = OpenAIBackend("openai:gpt-4o-mini", api_key="sk-test-0123456789abcdef").build_params(request)
    assert api == {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "q"}], "max_completion_tokens": 20,
                   "temperature": 0.3, "top_p": 0.9, "stop": ["END"], "logprobs": True}
    reasoning = OpenAIBackend("openai:gpt-6-luna", api_key="sk-test-0123456789abcdef").build_params(request)
    assert "temperature" not in reasoning and "top_p" not in reasoning  # reasoning models refuse them
    served = OpenAIBackend("openai:llama@http://127.0.0.1:8000/v1").build_params(request)
    assert served["max_tokens"] == 20 and served["temperature"] == 0.3 and "max_completion_tokens" not in served


# ------------------------------------------------------------------------------------- over HTTP, real openai backend

@pytest.fixture()
def server():
    import openai  # noqa: F401  (make install provides it: a missing one fails)
    with FaultServer(latency=0.05) as srv:
        yield srv


def openai_backend(server):
    from promptanatomy_core.models.openai_backend import OpenAIBackend

    return OpenAIBackend(f"openai:fault-model@{server.base_url}")


def test_identical_requests_in_flight_are_merged_across_runs(server):
    server.latency = 0.4
    runner = Runner(openai_backend(server), cache=False)

    async def two_runs():
        return await asyncio.gather(runner.arun([req("same"), req("same"), req("a")]),
                                    runner.arun([req("same"), req("b")]))

    async def main():
        try:
            return await two_runs()
        finally:
            await runner.backend.aclose()

    first, second = asyncio.run(main())
    assert server.attempts["same"] == 1
    assert [r.text for r in first.responses + second.responses] == ["echo: same"] * 2 + ["echo: a", "echo: same",
                                                                                        "echo: b"]
    assert first.stats.merged + second.stats.merged == 2


def test_progress_streams_every_result_as_it_lands(server, tmp_path):
    seen = []
    prompts = [f"p{i}" for i in range(12)] + ["p0"]
    with ResponseCache(tmp_path) as cache:
        cache.set(Runner(openai_backend(server), cache=False).key(req("p5")), ChatResponse(text="from cache"))
        result = Runner(openai_backend(server), cache=cache, progress=seen.append).run([req(p) for p in prompts])
    assert [p.done for p in seen] == list(range(1, 14))
    assert sorted(p.index for p in seen) == list(range(13))
    assert seen[0].index == 5 and seen[0].response.cached  # the cache hit lands first, before anything is sent
    assert all(p.response is result.responses[p.index] for p in seen)
    assert result.stats.cache_hits == 1 and result.stats.sent == 11


def test_cancel_keeps_what_finished_and_a_rerun_does_the_rest(server, tmp_path):
    prompts = [f"c{i}" for i in range(20)]
    with ResponseCache(tmp_path) as cache:
        runner = Runner(openai_backend(server), cache=cache, concurrency=2)

        def stop_after_four(p):
            if p.done == 4:
                threading.Thread(target=runner.cancel).start()  # cancel() is safe from any thread

        runner.progress = stop_after_four
        first = runner.run([req(p) for p in prompts])
        finished = [p for p, r in zip(prompts, first.responses) if r.ok]
        assert first.stats.cancelled and 4 <= len(finished) < 20
        assert all(r.ok or is_not_run(r) for r in first.responses)
        assert first.stats.not_run == 20 - len(finished)
        assert cache.info()["entries"] == len(finished)

        server.reset_counts()
        runner.progress = None
        second = runner.run([req(p) for p in prompts])  # the same runner runs again after a cancel
        assert all(r.ok for r in second.responses)
        assert second.stats.cache_hits == len(finished) and server.requests == 20 - len(finished)


def test_budget_cap_stops_cleanly(server):
    prices = PriceTable({"openai:fault-model": [10_000.0, 10_000.0]})  # $0.01 a token, to make the cap bite
    requests = [req(f"budget question {i}", max_tokens=10) for i in range(10)]
    result = Runner(openai_backend(server), cache=False, prices=prices, budget_usd=1.0, concurrency=2).run(requests)
    ok = [r for r in result.responses if r.ok]
    assert result.stats.budget_reached and 1 <= len(ok) < 10
    assert all(r.ok or r.error == "not run: budget" for r in result.responses)
    assert result.stats.cost_usd <= 1.0
    assert result.stats.cost_usd == pytest.approx(sum(r.input_tokens + r.output_tokens for r in ok) * 0.01)


# ------------------------------------------------------------------------------------------------ batch backends

class Batch(Backend):
    """A batch backend like the local one (checked against the real local model in test_local_runs_through_runner)."""

    max_concurrency = 1

    def __init__(self) -> None:
        super().__init__(ModelSpec("local", "fake-batch"))
        self.batches: list[int] = []

    def generate(self, requests):
        self.batches.append(len(requests))
        return [ChatResponse(error="bad") if r.messages[0].content == "bad" else
                ChatResponse(text=r.messages[0].content.upper(), input_tokens=3, output_tokens=1) for r in requests]


def test_batch_backend_gets_chunks_and_errors_are_not_cached(tmp_path):
    backend = Batch()
    prompts = [f"b{i}" for i in range(10)] + ["bad", "b1"]
    with ResponseCache(tmp_path) as cache:
        result = Runner(backend, cache=cache, batch_size=4).run([req(p) for p in prompts])
        assert backend.batches == [4, 4, 3]
        assert [r.text for r in result.responses[:10]] == [f"B{i}" for i in range(10)]
        assert result.responses[10].error == "bad" and result.responses[11].text == "B1"
        assert cache.info()["entries"] == 10
        again = Runner(backend, cache=cache, batch_size=4).run([req(p) for p in prompts])
        assert backend.batches == [4, 4, 3, 1] and again.stats.cache_hits == 10


@pytest.mark.slow
def test_local_runs_through_runner(tmp_path):
    from promptanatomy_core.models.local import LocalBackend

    backend = LocalBackend("local")
    requests = [req("Say yes.", max_tokens=4), req("Say no.", max_tokens=4), req("Say yes.", max_tokens=4)]
    with ResponseCache(tmp_path) as cache:
        first = Runner(backend, cache=cache).run(requests)
        assert all(r.ok and r.output_tokens >= 1 and r.input_tokens > 0 for r in first.responses), first.responses
        assert first.responses[0].text == first.responses[2].text
        second = Runner(backend, cache=cache).run(requests)
        assert second.stats.cache_hits == 2 and [r.text for r in second.responses] == [r.text for r in
                                                                                     first.responses]
