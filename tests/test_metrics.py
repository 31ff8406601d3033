"""Metrics against hand-computed values: Wilson intervals, ASR, flip rate, PSS, decoding confidence, the summary."""
from __future__ import annotations

import math
import random

import pytest

from promptanatomy_core.metrics import (asr, attack_successes, bootstrap_interval, confidence_vs_pss,
                                        first_token_confidence, flip_rate, instance_pss, instance_scores, pearson, pss,
                                        pss_table, summarize, wilson_interval)
from promptanatomy_core.models import ChatResponse, TokenProb
from promptanatomy_core.scoring.criteria import get_criterion

Z = 1.959963984540054


def closed_form(k, n):
    p, z2 = k / n, Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(1, 3), (5, 10), (3, 20), (47, 50), (250, 1000)])
def test_wilson_matches_the_closed_form(k, n):
    assert wilson_interval(k, n) == pytest.approx(closed_form(k, n), abs=1e-12)


def test_wilson_hand_values_and_edges():
    # 0/10: the upper bound is z²/(n+z²) = 3.841459/13.841459; 10/10: the lower bound is n/(n+z²)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 3.841459 / 13.841459), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((10 / 13.841459, 1.0), abs=1e-6)
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    lo, hi = wilson_interval(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_asr_counts_failures_and_leaves_out_unjudged():
    records = [{"correct": False}, {"correct": True}, {"correct": False}, {"correct": None}, {"correct": True}]
    r = asr(records)
    assert (r.k, r.n, r.unjudged) == (2, 4, 1)
    assert r.rate == 0.5 and (r.low, r.high) == pytest.approx(closed_form(2, 4))
    assert math.isnan(asr([{"correct": None}]).rate)
    # stored verdicts as 0/1, text and NaN read the same way
    assert attack_successes([0, 1, "false", float("nan")]).k == 2


def test_provider_errors_never_count_as_attack_successes():
    contains = get_criterion("contains")
    judgments = [contains.judge(ChatResponse(error="HTTP 429"), "yes"),
                 contains.judge(ChatResponse(text="no"), "yes"),
                 contains.judge(ChatResponse(text="yes"), "yes")]
    r = asr({"correct": j.correct} for j in judgments)
    assert (r.k, r.n, r.unjudged) == (1, 2, 1)


def test_flip_rate_by_hand():
    records = [
        {"instance": 1, "clean_correct": True, "correct": False},   # flipped
        {"instance": 2, "clean_correct": True, "correct": True},    # held
        {"instance": 3, "clean_correct": False, "correct": False},  # wrong already: not in the flip rate
        {"instance": 4, "clean_correct": None, "correct": False},   # clean unjudged: left out
        {"instance": 5, "clean_correct": True, "correct": None},    # perturbed unjudged
        {"instance": 6, "clean_correct": True, "correct": False},   # flipped
    ]
    f = flip_rate(records)
    assert (f.k, f.n, f.unjudged) == (2, 3, 1) and f.rate == pytest.approx(2 / 3)
    a = asr(records)
    assert (a.k, a.n) == (4, 5)  # ASR also counts the answers that were wrong on the clean prompt


def test_instance_pss_by_hand():
    assert instance_pss([1, 1, 1]) == 0
    assert instance_pss([1, 0]) == 1
    # 1,0,0: pairs (1,0),(1,0),(0,0) → (1+1+0)/3
    assert instance_pss([1, 0, 0]) == pytest.approx(2 / 3)
    # 1,1,0,0: 4 of 6 pairs differ
    assert instance_pss([1, 1, 0, 0]) == pytest.approx(4 / 6)
    # scores 0.2, 0.5, 0.9: |0.3| + |0.7| + |0.4| = 1.4 over 3 pairs
    assert instance_pss([0.2, 0.5, 0.9]) == pytest.approx(1.4 / 3)
    assert instance_pss([1]) is None and instance_pss([]) is None


def test_pss_table_by_hand():
    table = [[1, 1, 1], [1, 0, 0], [0.2, 0.5, 0.9], [1, None, None]]
    assert pss_table(table) == pytest.approx((0 + 2 / 3 + 1.4 / 3) / 3)


def test_pss_over_records_with_and_without_the_clean_prompt():
    records = [
        {"instance": "a", "correct": True, "clean_correct": True},
        {"instance": "a", "correct": False, "clean_correct": True},
        {"instance": "b", "correct": True, "clean_correct": False},
        {"instance": "c", "correct": None, "clean_correct": True},
    ]
    # without the clean prompt: a = PSS(1, 0) = 1; b and c have fewer than two variants
    p = pss(records, include_clean=False)
    assert (p.pss, p.instances, p.skipped) == (1.0, 1, 2)
    # with it: a = PSS(1, 0, 1) = 2/3; b = PSS(1, 0) = 1; c has only its clean prompt
    p = pss(records)
    assert p.pss == pytest.approx((2 / 3 + 1) / 2) and (p.instances, p.skipped) == (2, 1)


def test_pss_on_scores():
    records = [{"instance": 1, "score": 0.2}, {"instance": 1, "score": 0.9}, {"instance": 2, "score": 0.5},
               {"instance": 2, "score": 0.5}]
    assert pss(records, y="score", include_clean=False).pss == pytest.approx((0.7 + 0.0) / 2)
    with pytest.raises(ValueError):
        pss(records, y="bogus")


def naive_bootstrap(values, b=1000, level=0.95, seed=0):
    """The textbook percentile bootstrap: draw the instances one by one, average, take the empirical quantiles."""
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(values, k=len(values))) / len(values) for _ in range(b))
    return means[int(b * (1 - level) / 2)], means[int(b * (1 + level) / 2) - 1]


def test_pss_bootstrap_interval_on_known_inputs():
    # ten instances with PSS 0 and ten with PSS 1: mean 0.5, standard error 0.5/sqrt(20) ≈ 0.112 → about ±0.22
    values = [0.0, 1.0] * 10
    low, high = bootstrap_interval(values)
    assert low < 0.5 < high
    assert (low, high) == pytest.approx((0.5 - 1.96 * 0.5 / math.sqrt(20), 0.5 + 1.96 * 0.5 / math.sqrt(20)), abs=0.05)
    assert (low, high) == pytest.approx(naive_bootstrap(values, b=4000), abs=0.05)  # same distribution, other draws
    # every resample mean is a multiple of 1/20 within [0, 1]
    assert all(0 <= x <= 1 and round(x * 20, 9).is_integer() for x in (low, high))
    # two instances, PSS 0 and 2/3: resample means are 0, 1/3, 2/3 with chance 1/4, 1/2, 1/4 → the extremes
    assert bootstrap_interval([0.0, 2 / 3]) == pytest.approx((0.0, 2 / 3))
    skewed = [0.0] * 7 + [2 / 3, 1.0, 0.5]
    low, high = bootstrap_interval(skewed)
    assert low <= sum(skewed) / len(skewed) <= high and low >= 0 and high <= 1


def test_pss_bootstrap_is_deterministic_for_its_seed():
    values = [i / 36 for i in range(37)]
    first = bootstrap_interval(values, seed=7)
    assert bootstrap_interval(values, seed=7) == first and bootstrap_interval(list(values), seed=7) == first
    assert bootstrap_interval(values, seed=8) != first
    assert bootstrap_interval(values, b=50, seed=7) != first


def test_pss_bootstrap_degenerate_cases():
    assert bootstrap_interval([0.4] * 5) == (0.4, 0.4)  # no spread between instances: a point
    assert bootstrap_interval([2 / 3, 2 / 3]) == (2 / 3, 2 / 3)
    for few in ([], [0.5]):  # one instance: nothing to resample
        low, high = bootstrap_interval(few)
        assert math.isnan(low) and math.isnan(high)
    with pytest.raises(ValueError):
        bootstrap_interval([0.1, 0.2], level=1.0)
    with pytest.raises(ValueError):
        bootstrap_interval([0.1, 0.2], b=0)
    with pytest.raises(ValueError):
        bootstrap_interval([0.1, math.nan])


def test_summarize_gives_the_pss_interval_over_instances():
    def cell(comp, outcomes):  # one record per (instance, outcome), the clean prompt always right
        return [{"model": "m", "component": comp, "perturbation": "SCI", "instance": i, "correct": c,
                 "clean_correct": True} for i, cs in enumerate(outcomes) for c in cs]

    records = cell("Role", [[True], [False], [True], [False]]) + cell("Task", [[False, True]])
    role, task = summarize(records)
    # Role: instances' PSS 0, 1, 0, 1 → 0.5 over 4 instances, a bootstrap interval around it
    assert instance_scores(cell("Role", [[True], [False], [True], [False]])) == [0.0, 1.0, 0.0, 1.0]
    assert role["pss"] == 0.5 and role["pss_instances"] == 4
    assert (role["pss_low"], role["pss_high"]) == bootstrap_interval([0.0, 1.0, 0.0, 1.0])
    assert role["pss_low"] < 0.5 < role["pss_high"]
    # Task: one instance (PSS 2/3), no interval
    assert task["pss"] == pytest.approx(2 / 3) and task["pss_instances"] == 1
    assert math.isnan(task["pss_low"]) and math.isnan(task["pss_high"])
    assert summarize(records, seed=3)[0]["pss_low"] == bootstrap_interval([0.0, 1.0, 0.0, 1.0], seed=3)[0]


def test_first_token_confidence():
    r = ChatResponse(text=" Yes", tokens=(TokenProb("\n", 0.9), TokenProb(" **", 0.5), TokenProb(" Yes", 0.73)))
    assert first_token_confidence(r) == 0.73
    assert first_token_confidence(ChatResponse(text="yes")) is None  # no token probabilities from the backend
    assert first_token_confidence(ChatResponse(error="boom", tokens=(TokenProb("a", 0.5),))) is None
    assert first_token_confidence(ChatResponse.from_json({"text": "no", "tokens": [["no", 0.4]]})) == 0.4


def test_pearson_by_hand():
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    # x = 1,2,3,4; y = 1,3,2,4: sxy = 4, sxx = syy = 5 → 0.8
    assert pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert pearson([1, 1, 1], [1, 2, 3]) is None and pearson([1, 2], [1, 2]) is None


def test_confidence_vs_pss():
    records = [
        {"instance": 1, "correct": True, "confidence": 0.9}, {"instance": 1, "correct": True, "confidence": 0.9},
        {"instance": 2, "correct": True, "confidence": 0.5}, {"instance": 2, "correct": False, "confidence": 0.3},
        {"instance": 3, "correct": False, "confidence": 0.6}, {"instance": 3, "correct": True, "confidence": None},
        {"instance": 4, "correct": True, "confidence": None}, {"instance": 4, "correct": True, "confidence": None},
    ]
    out = confidence_vs_pss(records, include_clean=False)
    assert [(p.instance, p.confidence, p.pss) for p in out.points] == [(1, 0.9, 0.0), (2, pytest.approx(0.4), 1.0),
                                                                        (3, 0.6, 1.0)]
    # x = 0.9, 0.4, 0.6; y = 0, 1, 1
    assert out.r == pytest.approx(pearson([0.9, 0.4, 0.6], [0.0, 1.0, 1.0]))
    assert out.r < 0


def test_summarize_per_cell_and_per_component():
    records = []
    for comp, pert, outcomes in (("Directive", "SCI", [True, False, False, None]),
                                 ("Directive", "WOD", [True, True, True, True]),
                                 ("Role", "SCI", [False, True, True, True])):
        for i, c in enumerate(outcomes):
            records.append({"model": "m", "component": comp, "perturbation": pert, "instance": i, "correct": c,
                            "clean_correct": True, "confidence": 0.5})
    rows = summarize(records)
    assert [(r["component"], r["perturbation"], r["n"], r["successes"], r["unjudged"]) for r in rows] == [
        ("Directive", "SCI", 3, 2, 1), ("Directive", "WOD", 4, 0, 0), ("Role", "SCI", 4, 1, 0)]
    first = rows[0]
    assert first["asr"] == pytest.approx(2 / 3) and (first["asr_low"], first["asr_high"]) == pytest.approx(
        closed_form(2, 3))
    assert first["flip_rate"] == pytest.approx(2 / 3) and first["confidence"] == 0.5
    # PSS with the clean prompt (always right here): instance 0 → (1,1) 0; 1 → (0,1) 1; 2 → 1; 3 unjudged, 1 variant
    assert first["pss"] == pytest.approx(2 / 3) and first["pss_instances"] == 3
    by_component = summarize(records, by=("model", "component"))
    assert [(r["component"], r["n"], r["successes"]) for r in by_component] == [("Directive", 7, 2), ("Role", 4, 1)]
