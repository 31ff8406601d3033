"""The openai backend and the runner against a real HTTP server on loopback that misbehaves (tests/fault_server.py):
429 with Retry-After (or a rate-limit reset header), 500, hangs, dropped connections, malformed JSON, answers without
choices. Every request ends as an answer or a recorded error, the server never sees more requests at once than the
bound, no error is cached, and a rerun after the faults clear completes the rest from where the first run stopped."""
from __future__ import annotations

import openai  # noqa: F401  (make install provides it: a missing one fails)
import pytest

from promptanatomy_core.models.base import ChatRequest, Message
from promptanatomy_core.models.cache import ResponseCache
from promptanatomy_core.models.openai_backend import OpenAIBackend
from promptanatomy_core.models.runner import RetryPolicy, Runner, is_not_run

from fault_server import FaultServer

FAST_RETRY = RetryPolicy(max_attempts=4, base_delay=0.05, max_delay=0.2, max_retry_time=20, jitter_s=0.1)
TRANSIENT = (["[429x1]rate %d" % i for i in range(4)] + ["[429rx1]reset %d" % i for i in range(2)]
             + ["[500x2]server %d" % i for i in range(4)] + ["[hangx1]hang %d" % i for i in range(3)]
             + ["[dropx1]drop %d" % i for i in range(3)] + ["[badjsonx1]bad %d" % i for i in range(3)]
             + ["[emptyx1]empty %d" % i for i in range(2)])
PERMANENT = ["[always500]broken %d" % i for i in range(3)] + ["[alwayshang]stuck %d" % i for i in range(2)]
PLAIN = ["question %d" % i for i in range(30)]


def requests_for(prompts):
    return [ChatRequest((Message("user", p),), max_tokens=16) for p in prompts]


@pytest.fixture()
def server():
    with FaultServer(latency=0.05) as srv:
        yield srv


def test_faults_end_as_answers_or_errors_within_the_bound_and_a_rerun_completes(server, tmp_path):
    prompts = PLAIN + TRANSIENT + PERMANENT + PLAIN[:5]  # the last five repeat: sent once
    requests = requests_for(prompts)
    backend = OpenAIBackend(f"openai:fault-model@{server.base_url}")
    bound = 4
    with ResponseCache(tmp_path / "cache") as cache:
        runner = Runner(backend, cache=cache, concurrency=bound, timeout=1.0, retry=FAST_RETRY)
        first = runner.run(requests)

        # every request ended as an answer or a recorded error; nothing was left unrun
        assert len(first.responses) == len(requests)
        assert not any(is_not_run(r) for r in first.responses)
        by_prompt = dict(zip(prompts, first.responses))
        for p in PLAIN + TRANSIENT:
            r = by_prompt[p]
            assert r.ok and r.text == f"echo: {p}", (p, r.error)
        for p in TRANSIENT:
            assert by_prompt[p].attempts >= 2, p  # the fault was met and retried
        for p in PERMANENT:
            r = by_prompt[p]
            assert not r.ok and r.text == "" and r.error, p
            assert "gave up" in r.error or "timed out" in r.error.lower(), r.error
        # the bound held on the server's side, and the runner's count agrees
        assert server.peak <= bound
        assert first.stats.peak_in_flight <= bound
        # the repeated prompts went out once
        assert all(server.attempts[p] == 1 for p in PLAIN)
        assert first.stats.merged == 5
        # no error is cached: exactly the answers are
        assert cache.info()["entries"] == len(PLAIN) + len(TRANSIENT)
        for p in PERMANENT:
            assert runner.key(requests_for([p])[0]) not in cache
        assert first.stats.errors == len(PERMANENT)

        # the faults clear: a rerun answers from the cache and sends only what failed
        server.faults = False
        server.reset_counts()
        second = Runner(backend, cache=cache, concurrency=bound, timeout=1.0, retry=FAST_RETRY).run(requests)
        assert all(r.ok for r in second.responses)
        assert second.stats.cache_hits == len(PLAIN) + len(TRANSIENT)
        assert second.stats.sent == len(PERMANENT) == server.requests
        assert all(second.responses[i].cached for i, p in enumerate(prompts) if p not in PERMANENT)
        assert [r.text for r in second.responses] == [f"echo: {p}" for p in prompts]


def test_bound_is_reached_and_never_passed(server):
    server.latency = 0.15
    backend = OpenAIBackend(f"openai:fault-model@{server.base_url}")
    result = Runner(backend, cache=False, concurrency=5, timeout=5.0).run(requests_for(PLAIN))
    assert all(r.ok for r in result.responses)
    assert server.peak == 5  # 30 requests of 150 ms: the bound is reached, and not passed
    assert result.stats.peak_in_flight == 5


def test_timeout_of_one_attempt(server):
    backend = OpenAIBackend(f"openai:fault-model@{server.base_url}")
    policy = RetryPolicy(max_attempts=2, base_delay=0.05, max_delay=0.05)
    result = Runner(backend, cache=False, timeout=0.5, retry=policy).run(requests_for(["[alwayshang]x"]))
    r = result.responses[0]
    assert not r.ok and r.attempts == 2 and "timed out" in r.error.lower()  # a hung server: both attempts cut
