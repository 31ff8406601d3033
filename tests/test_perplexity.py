"""The perplexity scorer with the real embedded model (fp32 on CPU): batching, order, prefix reuse, EOS in the middle,
long texts (sliding window), the cache. The tests that run the model are marked slow; argument checks run fast."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promptanatomy_core.scoring import PerplexityError, PerplexityScorer, clear_memory_cache, score_and_filter
from promptanatomy_core.scoring.perplexity import parse_model
from promptanatomy_core.types import Variant

REL = 1e-4

TEXTS = [
    "Hi.",
    "You are a careful medical expert.",
    "Answer yes or no.<|im_end|>\nThen explain why in one sentence, citing the abstract.",
    "def add(a, b):\n    return a + b\n\nprint(add(2, 3))",
    "Summarise the following abstract in two sentences for a general audience: aspirin lowered the risk of a "
    "first stroke in adults over seventy, but it raised the risk of bleeding in the stomach.",
    "Résumé: naïve café — 東京 🚀 and some ASCII words after the emoji.",
    "Output only the label, in lower case, without punctuation.",
    "Examples: Input: 2 + 2 Output: 4. Input: 3 * 3 Output: 9. Input: 10 - 7 Output: 3.",
]

CLEAN = ("You are a careful medical expert. Read the question and the abstract, then decide whether the abstract "
         "supports the answer. Reply with yes, no or maybe, in lower case. Question: Does aspirin prevent a first "
         "stroke in older adults? Abstract: In a large trial, aspirin lowered the risk of a first stroke in adults "
         "over seventy, but it raised the risk of bleeding.")


def rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)


@pytest.fixture(scope="module")
def scorer() -> PerplexityScorer:
    s = PerplexityScorer(device="cpu", cache=False)
    s.load()
    return s


@pytest.fixture(scope="module")
def reference(scorer):
    """Each text scored alone (a batch of one, no padding)."""
    return [scorer.score_detailed([t])[0] for t in TEXTS]


# ---------------------------------------------------------------------------------------------------------- fast

def test_parse_model():
    assert parse_model(None) is None and parse_model("local") is None and parse_model("local:") is None
    assert parse_model("local:HuggingFaceTB/SmolLM2-135M") == "HuggingFaceTB/SmolLM2-135M"
    assert parse_model("/models/my-llama") == "/models/my-llama"
    with pytest.raises(PerplexityError, match="local"):
        parse_model("openai:gpt-4o-mini")


def test_empty_text_is_a_clear_error_before_any_model_loads():
    s = PerplexityScorer(cache=False)
    with pytest.raises(ValueError, match="text 1 is empty"):
        s.score(["fine", ""])
    with pytest.raises(ValueError, match="text 0 is empty"):
        s.score_variants("", ["a variant"])
    with pytest.raises(ValueError, match="not a string"):
        s.score([None])  # type: ignore[list-item]
    assert s._loaded is None
    assert s.score([]) == []


@pytest.mark.parametrize("option", ["batch_size", "max_tokens_per_batch", "max_context", "stride"])
def test_bad_options(option):
    with pytest.raises(PerplexityError, match=option):
        PerplexityScorer(**{option: 0})


# ---------------------------------------------------------------------------------------------------------- slow

@pytest.mark.slow
def test_equals_the_reference_loss(scorer, reference):
    """exp(mean NLL) as transformers computes it for labels = input ids, with the same BOS token in front."""
    import torch

    model = scorer.load().model
    for text, ours in zip(TEXTS, reference):
        ids = torch.tensor([scorer.encode([text])[0]])
        with torch.inference_mode():
            loss = model(input_ids=ids, labels=ids).loss
        assert rel(ours.ppl, math.exp(float(loss))) < REL
        assert ours.tokens == ids.shape[1] - 1 == scorer.count_tokens(text)


@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(len(TEXTS))), batch_size=st.integers(1, 8),
       max_tokens=st.sampled_from([40, 128, 4096]))
def test_batched_equals_unbatched_in_any_order(scorer, reference, order, batch_size, max_tokens):
    s = PerplexityScorer(device="cpu", cache=False, batch_size=batch_size, max_tokens_per_batch=max_tokens)
    texts = [TEXTS[i] for i in order] + [TEXTS[order[0]]]  # a duplicate too
    got = s.score_detailed(texts)
    want = [reference[i] for i in order] + [reference[order[0]]]
    assert [g.tokens for g in got] == [w.tokens for w in want]
    assert max(rel(g.ppl, w.ppl) for g, w in zip(got, want)) < REL
    assert s.stats["texts_computed"] == len(TEXTS)  # the duplicate was scored once


@pytest.mark.slow
def test_prefix_reuse_equals_full_recomputation(scorer):
    variants = [
        CLEAN.replace("careful", "car#eful"),  # an edit near the start
        CLEAN.replace("lower case", "lowercase"),  # in the middle
        CLEAN.replace("bleeding.", "bleed!ing."),  # at the end
        CLEAN.replace("Read the question and the abstract, then decide", "Decide"),  # a deletion
        CLEAN,  # identical to the clean prompt
        CLEAN[:-30],  # a prefix of it
        CLEAN + " Think step by step.",  # the clean prompt and more
        "Something else entirely.",  # nothing shared
        CLEAN.replace("lower case", "lowercase"),  # a duplicate
        "x" + CLEAN,  # differs in the first token
    ]
    before = dict(scorer.stats)
    clean_score, scores = scorer.score_variants_detailed(CLEAN, variants)
    fed = scorer.stats["tokens"] - before["tokens"]
    full = [scorer.score_detailed([t])[0] for t in [CLEAN] + variants]
    assert rel(clean_score.ppl, full[0].ppl) < REL and clean_score.tokens == full[0].tokens
    for got, want in zip(scores, full[1:]):
        assert got.tokens == want.tokens
        assert rel(got.ppl, want.ppl) < REL
    distinct = list(dict.fromkeys([CLEAN] + variants))
    assert fed < sum(len(ids) for ids in scorer.encode(distinct)) * 0.6  # the shared prefixes ran once


@pytest.mark.slow
def test_prefix_reuse_in_small_batches_with_many_prefix_lengths(scorer):
    words = CLEAN.split(" ")
    variants = [" ".join(words[:i] + ["@" + words[i]] + words[i + 1:]) for i in range(0, len(words), 5)]
    s = PerplexityScorer(device="cpu", cache=False, batch_size=3)
    _, got = s.score_variants(CLEAN, variants)
    want = scorer.score(variants)
    assert max(rel(g, w) for g, w in zip(got, want)) < REL


@pytest.mark.slow
def test_eos_token_in_the_middle_is_scored_with_what_follows(scorer):
    tok = scorer.load().tokenizer
    text = TEXTS[2]
    ids = tok(text, add_special_tokens=False)["input_ids"]
    assert tok.eos_token_id in ids[1:-1]
    score = scorer.score_detailed([text])[0]
    assert score.tokens == len(ids)  # every token, the EOS and all after it
    other = scorer.score_detailed([text.replace("citing the abstract", "in French")])[0]
    assert other.ppl != score.ppl  # the tokens after the EOS count


@pytest.mark.slow
def test_long_text_uses_a_sliding_window_not_truncation(scorer):
    import torch
    import torch.nn.functional as F

    text = TEXTS[4]
    window, stride = 16, 8
    s = PerplexityScorer(device="cpu", cache=False, max_context=window, stride=stride, batch_size=1)
    got = s.score_detailed([text])[0]
    ids = s.encode([text])[0]
    assert len(ids) > 2 * window
    assert got.tokens == len(ids) - 1  # nothing truncated
    assert s.stats["forward_calls"] == math.ceil((len(ids) - window) / stride) + 1  # one window a call
    # the same windows computed here directly: each window scores the tokens the previous ones did not
    model = s.load().model
    nll, scored_to, begin = 0.0, 1, 0
    while True:
        end = min(begin + window, len(ids))
        chunk = torch.tensor([ids[begin:end]])
        with torch.inference_mode():
            logits = model(input_ids=chunk).logits[0].float()
        for t in range(max(scored_to, begin + 1), end):
            nll += float(F.cross_entropy(logits[t - begin - 1][None], chunk[0, t - begin][None]))
        scored_to = end
        if end == len(ids):
            break
        begin += stride
    assert rel(got.ppl, math.exp(nll / (len(ids) - 1))) < REL
    assert rel(got.ppl, scorer.score([text])[0]) > 1e-3  # the window really cut the context
    # the windows batch with other texts and give the same numbers
    s2 = PerplexityScorer(device="cpu", cache=False, max_context=window, stride=stride, batch_size=4)
    assert rel(s2.score([TEXTS[1], text, TEXTS[0]])[1], got.ppl) < REL


@pytest.mark.slow
def test_cache_hit_returns_the_value_without_recomputing(tmp_path):
    text = "A sentence to cache, scored once."
    s1 = PerplexityScorer(device="cpu", cache=tmp_path)
    first = s1.score([text])[0]
    calls = s1.stats["forward_calls"]
    assert calls >= 1
    assert s1.score([text, text])[0] == first
    assert s1.stats["forward_calls"] == calls and s1.stats["cache_hits"] >= 1
    clear_memory_cache()  # only the disk cache is left
    s2 = PerplexityScorer(device="cpu", cache=tmp_path)
    assert s2.score([text]) == [first]
    assert s2.stats["forward_calls"] == 0 and s2._loaded is None  # not even the model was loaded
    _, (variant,) = s2.score_variants(text, [text])
    assert variant == first and s2.stats["forward_calls"] == 0
    s3 = PerplexityScorer(device="cpu", cache=tmp_path, max_context=4)  # other settings: another key
    s3.score([text])
    assert s3.stats["forward_calls"] >= 1


@pytest.mark.slow
def test_score_and_filter_with_the_real_scorer(scorer):
    variants = [Variant("SCI", "Role", i, CLEAN.replace("careful", c)) for i, c in enumerate(["car#eful", "ca@r!eful",
                                                                                               "careful!", "c%areful",
                                                                                               "care$ful"])]
    variants += [Variant("COD", "Role", 0, CLEAN.replace("You are a careful medical expert. ", ""))]
    clean_ppl, out = score_and_filter(CLEAN, variants, scorer=scorer)
    assert rel(clean_ppl, scorer.score([CLEAN])[0]) < REL
    assert [o.text for o in out] == [v.text for v in variants]
    assert all(o.ppl is not None and rel(o.ppl_ratio, o.ppl / clean_ppl) < 1e-12 for o in out)
    sci = [o for o in out if o.strategy == "SCI"]
    assert sum(o.kept for o in sci) == 1 and max(sci, key=lambda o: o.ppl_ratio).kept
    assert out[-1].kept is True  # the only variant of its cell


@pytest.mark.slow
def test_throughput_is_measured_by_a_large_enough_computation(tmp_path):
    """tokens_per_second: set by a computation of at least MIN_RATE_TOKENS text tokens, kept through a small one and
    through cache hits (which take no model time)."""
    from promptanatomy_core.scoring.perplexity import MIN_RATE_TOKENS

    s = PerplexityScorer(device="cpu", cache=tmp_path)
    assert s.tokens_per_second is None
    s.score(["Too short to measure."])
    assert s.tokens_per_second is None
    many = [f"{CLEAN} ({i})" for i in range(4)]
    assert sum(len(ids) for ids in s.encode(many)) >= MIN_RATE_TOKENS
    s.score(many)
    rate = s.tokens_per_second
    assert rate is not None and rate > 0
    s.score(many + ["Another short one."])  # cache hits and a small computation: the measure stays
    assert s.tokens_per_second == rate
