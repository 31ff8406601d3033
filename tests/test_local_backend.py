"""The local transformers backend on the real embedded model (SmolLM2-135M-Instruct, converted once)."""
from __future__ import annotations

import time

import pytest

from promptanatomy_core.models import ChatRequest, LocalBackend, Message, get_backend, parse_spec
from promptanatomy_core.models import local as local_mod
from promptanatomy_core.settings import cache_dir

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(900),
]


@pytest.fixture(scope="module")
def backend() -> LocalBackend:
    from promptanatomy_core.models.embedded import ensure_converted

    path = ensure_converted(cache_dir())  # converts once per machine (about 30 s), then reused
    b = get_backend(parse_spec(f"local:{path}"))
    assert isinstance(b, LocalBackend)
    started = time.monotonic()
    loaded = b.load()
    print(f"\nload {time.monotonic() - started:.1f} s on {loaded.device} ({loaded.dtype})")
    return b


def ask(text: str, **kw) -> ChatRequest:
    return ChatRequest(messages=(Message("user", text),), **kw)


def test_loaded_once_per_process(backend):
    assert backend.load() is backend.load()
    again = LocalBackend(backend.spec)
    assert again.load() is backend.load()


def test_greedy_is_deterministic_and_answers(backend):
    req = ask("What is the capital of France?", max_tokens=16)
    first, second = backend.generate([req]), backend.generate([req])
    assert first[0].ok and first[0].text == second[0].text and first[0].tokens == second[0].tokens
    assert "Paris" in first[0].text
    r = first[0]
    assert r.input_tokens > 10  # the chat template (with its system turn) was applied
    assert len(r.tokens) in (r.output_tokens, r.output_tokens - 1)  # the end-of-turn token carries no text


def test_token_probabilities(backend):
    (r,) = backend.generate([ask("Name three colours.", max_tokens=12)])
    assert r.ok and r.tokens
    assert all(0.0 < t.prob <= 1.0 for t in r.tokens)
    assert "".join(t.token for t in r.tokens).strip() == r.text.strip()


def test_same_seed_same_sample_in_any_batch(backend):
    req = ask("Write one sentence about the sea.", temperature=1.0, seed=1234, max_tokens=12)
    alone = backend.generate([req])[0]
    again = backend.generate([req])[0]
    batched = backend.generate([ask("Say hello.", max_tokens=6), req,
                                ask("Count to three.", temperature=0.7, seed=5, max_tokens=6)])[1]
    assert alone.ok and alone.text and alone.text == again.text == batched.text
    assert alone.tokens == again.tokens
    other = backend.generate([ask("Write one sentence about the sea.", temperature=1.0, seed=s, max_tokens=12)
                              for s in (1, 2)])
    assert len({o.text for o in other} | {alone.text}) > 1  # sampling does sample


def test_top_p_and_sample_index(backend):
    greedy = backend.generate([ask("Name a fruit.", max_tokens=8)])[0]
    nucleus = backend.generate([ChatRequest(messages=(Message("user", "Name a fruit."),), temperature=1.0, seed=9,
                                            top_p=1e-6, max_tokens=8)])[0]
    assert nucleus.ok and nucleus.text == greedy.text  # a tiny nucleus holds only the most likely token
    samples = backend.generate([ChatRequest(messages=(Message("user", "Write a word."),), temperature=1.5, seed=9,
                                            sample_index=i, max_tokens=8) for i in range(3)])
    assert all(r.ok for r in samples) and len({r.text for r in samples}) > 1


def test_stop_sequences_truncate(backend):
    full = backend.generate([ask("Count from 1 to 10, one number per line.", max_tokens=24)])[0]
    assert "5" in full.text
    stopped = backend.generate([ask("Count from 1 to 10, one number per line.", max_tokens=24, stop=("5",))])[0]
    assert stopped.ok and "5" not in stopped.text
    assert full.text.startswith(stopped.text)
    assert stopped.output_tokens < full.output_tokens
    if hasattr(stopped, "finish_reason"):
        assert stopped.finish_reason == "stop" and full.finish_reason in ("stop", "length")


def test_batch_equals_single_for_greedy(backend):
    reqs = [ask("What is 2 + 2?", max_tokens=12), ask("Give a synonym of happy.", max_tokens=12),
            ask("Translate 'bonjour' into English.", max_tokens=12),
            ChatRequest(messages=(Message("system", "You are a terse assistant."), Message("user", "Hi!")),
                        max_tokens=12)]
    started = time.monotonic()
    batch = backend.generate(reqs)
    batch_s = time.monotonic() - started
    single = [backend.generate([r])[0] for r in reqs]
    assert [b.text for b in batch] == [s.text for s in single]
    for b, s in zip(batch, single):
        assert [t.token for t in b.tokens] == [t.token for t in s.tokens]
        assert all(abs(x.prob - y.prob) < 1e-3 for x, y in zip(b.tokens, s.tokens))
    print(f"\nbatch of {len(reqs)}: {batch_s:.2f} s")


def test_bad_requests_become_error_responses(backend):
    good = ask("What is the capital of France?", max_tokens=8)
    responses = backend.generate([
        good,
        ask("x", max_tokens=0),
        ChatRequest(messages=(Message("robot", "hi"),)),
        ChatRequest(messages=()),
        ask("word " * 9000, max_tokens=8),  # longer than the model's context
    ])
    assert responses[0].ok and "Paris" in responses[0].text
    for r in responses[1:]:
        assert not r.ok and r.text == "" and r.error
    assert "max_tokens" in responses[1].error and "robot" in responses[2].error and "context" in responses[4].error


def test_an_exception_inside_generation_hits_only_its_request(backend, monkeypatch):
    real = local_mod._decode_batch

    def flaky(loaded, rows):
        if any("EXPLODE" in r.request.messages[-1].content for r in rows):
            raise RuntimeError("simulated failure inside the model")
        return real(loaded, rows)

    monkeypatch.setattr(local_mod, "_decode_batch", flaky)
    reqs = [ask("What is the capital of France?", max_tokens=8), ask("EXPLODE", max_tokens=8),
            ask("What is 2 + 2?", max_tokens=8)]
    out = backend.generate(reqs)
    assert out[0].ok and "Paris" in out[0].text and out[2].ok and out[2].text
    assert not out[1].ok and "simulated failure" in out[1].error and out[1].text == ""


def test_unloadable_model_gives_errors_not_exceptions(tmp_path):
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    b = LocalBackend(parse_spec(f"local:{empty}"))
    out = b.generate([ask("hi"), ask("there")])
    assert all(not r.ok and "cannot load local model" in r.error for r in out)
