"""Prices, token counts and the dry-run estimate."""
from __future__ import annotations

import json

import pytest

from promptanatomy_core.models.base import ChatRequest, ChatResponse, Message, ModelSpec
from promptanatomy_core.models.cache import ResponseCache, request_key
from promptanatomy_core.models.pricing import (DEFAULT_PRICES, PRICES_ENV, Price, PriceTable, TokenCounter,
                                               approx_tokens, estimate, load_prices, total)


def test_lookup_exact_snapshot_and_longest_prefix():
    table = PriceTable()
    assert table.lookup("openai", "gpt-4o-mini") == Price(0.15, 0.60)
    assert table.lookup("openai", "gpt-4o-mini-2024-07-18") == Price(0.15, 0.60)  # a dated snapshot
    assert table.lookup("openai", "gpt-5-mini-2025-08-07") == Price(0.25, 2.00)  # not gpt-5's price
    assert table.lookup("anthropic", "claude-haiku-4-5-20251001") == Price(1.00, 5.00)
    assert table.lookup("anthropic", "claude-sonnet-5-5") == Price(2.00, 10.00)
    assert table.lookup("openai", "gpt-4o-minimal") is None  # a prefix only counts at a '-' boundary
    assert table.lookup("openai", "no-such-model") is None


def test_every_builtin_price_is_sane():
    for provider, models in DEFAULT_PRICES.items():
        for model, (inp, out) in models.items():
            assert 0 < inp <= out <= 200, (provider, model)


def test_local_and_self_hosted_cost_nothing_unknown_api_models_are_unpriced():
    table = PriceTable()
    assert table.cost({"provider": "local", "model": "local:embedded:x"}, 1000, 1000) == 0.0
    assert table.cost({"provider": "openai", "model": "llama3", "base_url": "http://127.0.0.1:8000/v1"}, 9, 9) == 0.0
    assert table.cost({"provider": "openai", "model": "mystery", "base_url": None}, 1, 1) is None
    assert table.cost({"provider": "anthropic", "model": "claude-haiku-5-5"}, 1_000_000, 2_000_000) == \
        pytest.approx(0.10 + 2 * 0.50)


def test_overrides_as_dict_json_toml_and_env(tmp_path, monkeypatch):
    table = PriceTable({"openai:gpt-6-luna": [1, 2], "claude-haiku-5-5": {"input": 3, "output": 4},
                        "local": {"local:my-model": [5, 6]}, "my-proxy-model": [7, 8]})
    assert table.lookup("openai", "gpt-6-luna") == Price(1, 2)
    assert table.lookup("anthropic", "claude-haiku-5-5") == Price(3, 4)
    assert table.lookup("local", "local:my-model") == Price(5, 6)
    assert table.lookup("openai", "my-proxy-model") == Price(7, 8)

    js = tmp_path / "prices.json"
    js.write_text(json.dumps({"openai:gpt-6-sol": [9, 10]}))
    toml = tmp_path / "prices.toml"
    toml.write_text('[anthropic]\n"claude-opus-5-5" = { input = 11, output = 12 }\n')
    assert load_prices(js).lookup("openai", "gpt-6-sol") == Price(9, 10)
    assert load_prices(toml).lookup("anthropic", "claude-opus-5-5") == Price(11, 12)
    monkeypatch.setenv(PRICES_ENV, str(js))
    assert load_prices().lookup("openai", "gpt-6-sol") == Price(9, 10)
    assert load_prices(overrides={"openai:gpt-6-sol": [1, 1]}).lookup("openai", "gpt-6-sol") == Price(1, 1)


@pytest.mark.parametrize("bad", [{"gpt-x": "cheap"}, {"gpt-x": [1]}, {"gpt-x": [-1, 2]}, {"gpt-x": {"input": 1}}])
def test_bad_prices_are_refused_with_the_name(bad):
    with pytest.raises(ValueError, match="gpt-x"):
        PriceTable(bad)


def test_bad_price_files(tmp_path):
    broken = tmp_path / "p.json"
    broken.write_text("{nope")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_prices(broken)
    with pytest.raises(ValueError, match="cannot read"):
        load_prices(tmp_path / "missing.json")


def test_token_counts():
    assert approx_tokens("") == 0 and approx_tokens("abc") == 1 and approx_tokens("a" * 40) == 10
    counter = TokenCounter(spec=ModelSpec("anthropic", "claude-haiku-5-5"))
    request = ChatRequest((Message("system", "a" * 40), Message("user", "b" * 8)))
    assert counter.request(request) == 10 + 4 + 2 + 4 and not counter.exact


def test_local_token_count_uses_the_models_tokenizer():
    from promptanatomy_core.models.embedded import EmbeddedModelError, checkpoint_dir, is_converted

    try:
        assert is_converted(checkpoint_dir()), "make install converts the embedded model"
    except EmbeddedModelError as exc:
        pytest.fail(str(exc))
    counter = TokenCounter(spec=ModelSpec("local"))
    assert counter.exact
    n = counter.request(ChatRequest((Message("user", "What is the capital of France?"),)))
    assert 8 < n < 60  # the chat template's tokens plus the question's


def test_estimate_counts_requests_tokens_dollars_and_cache_hits(tmp_path):
    requests = [ChatRequest((Message("user", "x" * 400),), max_tokens=100, temperature=0.7, sample_index=i)
                for i in range(4)] + [ChatRequest((Message("user", "x" * 400),), max_tokens=100, temperature=0.7)]
    spec = "openai:gpt-4o-mini"
    identity = {"provider": "openai", "model": "gpt-4o-mini", "base_url": None}
    with ResponseCache(tmp_path) as cache:
        cache.set(request_key(identity, requests[0]), ChatResponse(text="cached"))
        est = estimate(requests, spec, cache=cache, expected_output_tokens=10)  # no key needed for a dry run
    assert (est.requests, est.unique_requests, est.cache_hits, est.to_send) == (5, 4, 1, 3)
    assert est.output_tokens_max == 300
    assert est.input_tokens in range(3 * 100, 3 * 110 + 1)  # tiktoken when installed, else ~4 characters a token
    assert est.dollars == pytest.approx((est.input_tokens * 0.15 + 300 * 0.60) / 1e6)
    assert est.dollars_expected == pytest.approx((est.input_tokens * 0.15 + 30 * 0.60) / 1e6)
    unpriced = estimate(requests, "anthropic:claude-unknown-9")
    assert unpriced.dollars is None and not unpriced.priced and "no price" in unpriced.notes[0]
    both = total([est, unpriced])
    assert both["dollars"] is None and both["requests"] == 10 and both["cache_hits"] == 1
    assert json.loads(json.dumps(est.to_json()))["to_send"] == 3
