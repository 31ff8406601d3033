"""The perplexity filter with hand-computed values (fast: no model; the real scorer's run is in test_perplexity.py)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptanatomy_core.scoring.filter import keep_count, ppl_filter, score_and_filter
from promptanatomy_core.types import Variant


def v(component: str, strategy: str, ppl: float | None, seed: int = 0, text: str = "x") -> Variant:
    return Variant(strategy=strategy, component=component, seed=seed, text=text, ppl=ppl)


def test_top_20_percent_of_one_cell_by_ratio():
    variants = [v("Role", "SCI", p, seed=i) for i, p in enumerate([12.0, 30.0, 11.0, 25.0, 20.0])]
    out = ppl_filter(variants, clean_ppl=10.0)
    assert [o.ppl_ratio for o in out] == pytest.approx([1.2, 3.0, 1.1, 2.5, 2.0])
    assert [o.kept for o in out] == [False, True, False, False, False]  # ceil(0.2 * 5) = 1: the highest ratio


def test_share_rounds_up_and_order_and_fields_are_kept():
    variants = [v("Role", "SCI", p, seed=i, text=f"t{i}") for i, p in enumerate([12.0, 30.0, 11.0, 25.0, 20.0])]
    out = ppl_filter(variants, clean_ppl=10.0, keep_top=0.5)  # ceil(2.5) = 3: ratios 3.0, 2.5, 2.0
    assert [o.kept for o in out] == [False, True, False, True, True]
    assert [(o.seed, o.text, o.ppl) for o in out] == [(x.seed, x.text, x.ppl) for x in variants]
    assert all(x.kept is None and x.ppl_ratio is None for x in variants)  # the inputs are not changed


def test_cells_are_ranked_separately_and_keep_at_least_one():
    variants = [v("Role", "SCI", 50.0), v("Role", "SCI", 40.0), v("Role", "WOD", 5.0),
                v("Examples", "SCI", 11.0), v("Examples", "SCI", 12.0)]
    out = ppl_filter(variants, clean_ppl=10.0)
    # (Role, SCI): 1 of 2 kept; (Role, WOD): its only variant is kept although its ratio (0.5) is the lowest overall;
    # (Examples, SCI): the higher of 1.1 and 1.2
    assert [o.kept for o in out] == [True, False, True, False, True]
    assert out[2].ppl_ratio == pytest.approx(0.5)


def test_ties_keep_input_order():
    out = ppl_filter([v("Role", "SCI", 20.0, seed=i) for i in range(4)], clean_ppl=10.0, keep_top=0.5)
    assert [o.kept for o in out] == [True, True, False, False]


def test_keep_top_none_keeps_all_with_ratios():
    out = ppl_filter([v("Role", "SCI", 5.0), v("Role", "SCI", 20.0)], clean_ppl=10.0, keep_top=None)
    assert [o.kept for o in out] == [True, True]
    assert [o.ppl_ratio for o in out] == pytest.approx([0.5, 2.0])


def test_floating_point_share_does_not_round_up_an_exact_count():
    assert 0.14 * 50 > 7  # 7.000000000000001
    assert keep_count(50, 0.14) == 7
    assert keep_count(5, 0.2) == 1 and keep_count(6, 0.2) == 2 and keep_count(1, 0.2) == 1
    assert keep_count(7, 1.0) == 7 and keep_count(7, None) == 7 and keep_count(0, 0.2) == 0


def test_unscored_variants_are_dropped_and_not_counted():
    out = ppl_filter([v("Role", "COD", None), v("Role", "COD", 30.0)], clean_ppl=10.0)
    assert (out[0].ppl_ratio, out[0].kept) == (None, False)
    assert (out[1].ppl_ratio, out[1].kept) == (pytest.approx(3.0), True)


@pytest.mark.parametrize("keep_top", [0, -0.1, 1.5, True, "0.2", float("nan")])
def test_bad_keep_top(keep_top):
    with pytest.raises(ValueError, match="keep_top"):
        ppl_filter([v("Role", "SCI", 10.0)], clean_ppl=10.0, keep_top=keep_top)


@pytest.mark.parametrize("clean_ppl", [0, -1.0, float("nan"), float("inf"), None])
def test_bad_clean_ppl(clean_ppl):
    with pytest.raises(ValueError, match="clean_ppl"):
        ppl_filter([v("Role", "SCI", 10.0)], clean_ppl=clean_ppl)


cells = st.sampled_from([("Role", "SCI"), ("Role", "WOD"), ("Directive", "SCI"), ("Examples", "COD")])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(cells, st.floats(0.5, 1000)), min_size=1, max_size=40),
       st.one_of(st.none(), st.floats(0.01, 1.0)))
def test_every_kept_ratio_beats_every_dropped_one_in_its_cell(items, keep_top):
    variants = [v(c, s, p, seed=i) for i, ((c, s), p) in enumerate(items)]
    out = ppl_filter(variants, clean_ppl=7.0, keep_top=keep_top)
    for cell in {(c, s) for (c, s), _ in items}:
        members = [o for o in out if (o.component, o.strategy) == cell]
        kept = [o.ppl_ratio for o in members if o.kept]
        dropped = [o.ppl_ratio for o in members if not o.kept]
        assert len(kept) == keep_count(len(members), keep_top) >= 1
        assert not dropped or min(kept) >= max(dropped)
        assert len(kept) == (len(members) if keep_top is None else max(1, math.ceil(keep_top * len(members) - 1e-9)))


class FakeScorer:
    """Stands in for PerplexityScorer (the real one runs in test_perplexity.py): PPL = number of characters."""

    def __init__(self):
        self.calls = []

    def score_variants(self, clean, variants, progress=None):
        self.calls.append((clean, list(variants)))
        return float(len(clean)), [float(len(t)) for t in variants]


def test_score_and_filter_scores_with_prefix_reuse_and_filters():
    clean = "ten chars!"
    variants = [v("Role", "SCI", None, text="ten c#hars!"), v("Role", "SCI", None, text="ten c#h@ars!"),
                v("Role", "COD", None, text=""), v("Role", "COD", None, text="ten")]
    scorer = FakeScorer()
    clean_ppl, out = score_and_filter(clean, variants, scorer=scorer, keep_top=0.5)
    assert clean_ppl == 10.0
    assert scorer.calls == [(clean, ["ten c#hars!", "ten c#h@ars!", "ten"])]  # the empty text is not scored
    assert [o.ppl for o in out] == [11.0, 12.0, None, 3.0]
    assert [out[i].ppl_ratio for i in (0, 1, 3)] == pytest.approx([1.1, 1.2, 0.3]) and out[2].ppl_ratio is None
    assert [o.kept for o in out] == [False, True, False, True]


def test_score_and_filter_rejects_a_bad_share_before_scoring():
    scorer = FakeScorer()
    with pytest.raises(ValueError, match="keep_top"):
        score_and_filter("clean", [v("Role", "SCI", None)], scorer=scorer, keep_top=2)
    assert scorer.calls == []
