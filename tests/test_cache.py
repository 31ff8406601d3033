"""The response cache: canonical keys, answers only, info/clear, and the caching wrapper over a real HTTP backend."""
from __future__ import annotations

import json

import pytest

from promptanatomy_core.models.base import ChatRequest, ChatResponse, Message, ModelSpec, TokenProb
from promptanatomy_core.models.cache import CachingBackend, ResponseCache, canonical_json, request_key

from fault_server import FaultServer

IDENTITY = {"provider": "openai", "model": "gpt-6-luna", "base_url": None}


def req(text="What is 2+2?", **kw) -> ChatRequest:
    return ChatRequest((Message("system", "Be brief."), Message("user", text)), **kw)


def test_canonical_json_normalises_numbers_and_orders_keys():
    assert canonical_json({"b": 1, "a": 0.0}) == canonical_json({"a": 0, "b": 1.0}) == '{"a":0,"b":1}'
    assert canonical_json([0.5, 2.0, True, None]) == "[0.5,2,true,null]"
    assert canonical_json({"x": {"z": 1e0, "y": "é"}}) == '{"x":{"y":"é","z":1}}'
    with pytest.raises(ValueError):
        canonical_json({"t": float("nan")})


def test_key_covers_everything_that_changes_the_output():
    base = request_key(IDENTITY, req())
    assert base == request_key(dict(IDENTITY), req(temperature=0, max_tokens=256.0))  # 0.0 == 0, 256 == 256.0
    assert len(base) == 64 and int(base, 16) >= 0
    changed = [req("What is 2+3?"), req(temperature=0.5), req(max_tokens=10), req(top_p=0.9), req(seed=1),
               req(stop=("\n",)), req(logprobs=True),
               ChatRequest((Message("user", "Be brief."), Message("user", "What is 2+2?")))]
    keys = {request_key(IDENTITY, r) for r in changed}
    assert base not in keys and len(keys) == len(changed)
    for other in ({**IDENTITY, "model": "gpt-6-sol"}, {**IDENTITY, "provider": "anthropic"},
                  {**IDENTITY, "base_url": "http://127.0.0.1:8000/v1"}):
        assert request_key(other, req()) != base
    # a trailing slash on base_url is the same server
    assert request_key({**IDENTITY, "base_url": "http://h/v1/"}, req()) == request_key(
        {**IDENTITY, "base_url": "http://h/v1"}, req())


def test_sample_index_counts_only_when_sampling():
    assert request_key(IDENTITY, req(sample_index=3)) == request_key(IDENTITY, req())  # greedy: one answer
    sampled = {request_key(IDENTITY, req(temperature=0.7, sample_index=i)) for i in range(5)}
    assert len(sampled) == 5


def test_key_never_holds_the_api_key(monkeypatch):
    from promptanatomy_core.models.openai_backend import OpenAIBackend

    a = OpenAIBackend("openai:gpt-6-luna", api_key="sk-proj-" + "a" * 40)
    b = OpenAIBackend("openai:gpt-6-luna", api_key="sk-proj-" + "b" * 40)
    assert a.cache_identity() == b.cache_identity() == IDENTITY
    assert "sk-proj" not in json.dumps(a.cache_identity())


def test_store_answers_only_and_survive_reopening(tmp_path):
    answer = ChatResponse(text="4", tokens=(TokenProb("4", 0.93),), input_tokens=20, output_tokens=1,
                          finish_reason="stop", latency=1.5, attempts=2)
    with ResponseCache(tmp_path) as cache:
        assert cache.set("k1", answer)
        assert not cache.set("k2", ChatResponse(error="HTTP 500: boom"))
        assert "k2" not in cache
        info = cache.info()
        assert info["entries"] == 1 and info["path"] == str(tmp_path) and info["bytes"] > 0
    with ResponseCache(tmp_path) as cache:
        hit = cache.get("k1")
        assert hit.text == "4" and hit.tokens == (TokenProb("4", 0.93),) and hit.cached
        assert (hit.latency, hit.attempts, hit.finish_reason) == (0.0, 0, "stop")
        assert cache.get("missing") is None and (cache.hits, cache.misses) == (1, 1)
        assert cache.clear() == 1 and cache.info()["entries"] == 0


def test_caching_backend_over_http_and_more_samples_add_only_new_ones(tmp_path):
    from promptanatomy_core.models.openai_backend import OpenAIBackend
    from promptanatomy_core.models.runner import RetryPolicy

    with FaultServer() as server, ResponseCache(tmp_path) as cache:
        fast = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.01)
        backend = CachingBackend(OpenAIBackend(f"openai:fault-model@{server.base_url}", retry=fast), cache)
        first = backend.generate([req(temperature=0.7, sample_index=i) for i in range(3)])
        assert all(r.ok and not r.cached for r in first) and server.requests == 3
        more = backend.generate([req(temperature=0.7, sample_index=i) for i in range(5)])
        assert server.requests == 5  # only samples 3 and 4 were sent
        assert [r.cached for r in more] == [True, True, True, False, False]
        errors = backend.generate([req("[always500]no")])
        assert not errors[0].ok and cache.info()["entries"] == 5


def test_caching_backend_keeps_the_inner_backends_identity():
    class Inner(CachingBackend.__mro__[1]):  # a minimal Backend
        model_id = "local:embedded:SmolLM2"

        def generate(self, requests):
            return [ChatResponse(text="x") for _ in requests]

    inner = Inner(ModelSpec("local"))
    assert inner.cache_identity() == {"provider": "local", "model": "local:embedded:SmolLM2", "base_url": None}
