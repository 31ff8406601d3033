"""ProSA's Prompt Sensitivity Score (PSS).

For one instance with prompt variants p_1 … p_m and outcomes Y(p_i) in [0, 1]::

    PSS(instance) = mean over the m(m-1)/2 pairs i < j of |Y(p_i) - Y(p_j)|

0 when every variant gets the same outcome, up to about 0.5 for 0/1 outcomes split half and half (m/(2(m-1)) exactly,
e.g. 1.0 for two variants that disagree). The PSS of a set of records (a cell, a component, a dataset) is the mean
over its instances. Instances with fewer than two judged outcomes have no PSS and are left out (counted in
``skipped``).

Y is the criterion's ``correct`` as 0/1 by default (``y="correct"``), or its graded ``score`` (``y="score"``, e.g. the
judge's grade / 10 or BLEU / 100). Unjudged records (``correct``/``score`` None) are not variants.

Which prompts are an instance's variants: the perturbed prompts of the records given (e.g. a cell's samples for that
instance) and, with ``include_clean=True`` (the default), the clean prompt as one more variant, its Y read from the
records' ``clean_correct`` (or ``clean_score``). With the clean prompt included a cell with one sample per instance
still has a PSS: |Y(clean) - Y(perturbed)| averaged over instances.

Interval: :func:`bootstrap_interval`, a seeded percentile bootstrap over instances (the per-instance PSS values are
resampled with replacement and averaged, B times; the 2.5th and 97.5th percentiles of those means). It needs at least
two instances: with one there is no spread between instances to resample, and the interval is (NaN, NaN).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Sequence

from .records import as_number, as_verdict, field_of, group_by


def pairwise_mean_abs_diff(values: Sequence[float]) -> float | None:
    """Mean of |v_i - v_j| over all pairs i < j; None with fewer than two values. O(m log m) via the sorted sum."""
    m = len(values)
    if m < 2:
        return None
    xs = sorted(float(v) for v in values)
    total = sum(x * (2 * i - m + 1) for i, x in enumerate(xs))  # Σ_{i<j} (x_j - x_i)
    return total / (m * (m - 1) / 2)


#: One instance's PSS.
instance_pss = pairwise_mean_abs_diff


def outcome(record: Any, y: str = "correct", clean: bool = False) -> float | None:
    """Y of a record (or of its clean prompt with ``clean=True``) in [0, 1], or None when not judged."""
    if y == "correct":
        v = as_verdict(field_of(record, "clean_correct" if clean else "correct"))
        return None if v is None else float(v)
    if y == "score":
        v = as_number(field_of(record, "clean_score" if clean else "score"))
        return None if v is None else min(1.0, max(0.0, v))
    raise ValueError(f"y must be 'correct' or 'score', not {y!r}")


@dataclass(frozen=True)
class Pss:
    """A PSS: the mean over ``instances`` instances; ``skipped``: instances with fewer than two judged variants."""

    pss: float
    instances: int
    skipped: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def instance_outcomes(records: Iterable[Any], y: str = "correct",
                      include_clean: bool = True) -> dict[Any, list[float]]:
    """Each instance's variant outcomes: the records' Y and, with ``include_clean``, the clean prompt's Y (once)."""
    out: dict[Any, list[float]] = {}
    for inst, recs in group_by(records, lambda r: field_of(r, "instance")).items():
        values = [v for v in (outcome(r, y) for r in recs) if v is not None]
        if include_clean:
            clean = next((c for c in (outcome(r, y, clean=True) for r in recs) if c is not None), None)
            if clean is not None:
                values.append(clean)
        out[inst] = values
    return out


def instance_scores(records: Iterable[Any], y: str = "correct", include_clean: bool = True) -> list[float | None]:
    """Each instance's PSS over ``records`` (see the module doc), in first-seen order; None for an instance with
    fewer than two judged variants."""
    return [instance_pss(v) for v in instance_outcomes(records, y, include_clean).values()]


def pss_of(per: Sequence[float | None]) -> Pss:
    """The :class:`Pss` of per-instance values (None: the instance has no PSS and is counted in ``skipped``)."""
    got = [p for p in per if p is not None]
    return Pss(sum(got) / len(got) if got else math.nan, len(got), len(per) - len(got))


def pss(records: Iterable[Any], y: str = "correct", include_clean: bool = True) -> Pss:
    """PSS of ``records``: per-instance PSS (see the module doc) averaged over instances; NaN when none has one."""
    return pss_of(instance_scores(records, y, include_clean))


def bootstrap_interval(values: Sequence[float], b: int = 1000, level: float = 0.95,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (one value per instance, e.g. its PSS).

    ``b`` resamples of ``len(values)`` instances drawn with replacement, each averaged; the interval is the
    ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of those ``b`` means (numpy's linear interpolation).
    Deterministic: the same ``values``, ``b`` and ``seed`` always give the same interval. A resample is drawn as
    multinomial counts over the distinct values, which has exactly the distribution of drawing the instances one by
    one and costs O(b · distinct values) instead of O(b · instances).

    (NaN, NaN) with fewer than two values: one instance has no spread to resample. ``(v, v)`` when every value is
    ``v``. NaN values are not allowed.
    """
    if b < 1 or not 0 < level < 1:
        raise ValueError(f"need b >= 1 and 0 < level < 1, got b={b}, level={level}")
    m = len(values)
    if m < 2:
        return math.nan, math.nan
    import numpy as np

    xs = np.asarray(values, dtype=float)
    if np.isnan(xs).any():
        raise ValueError("bootstrap_interval: NaN among the values")
    distinct, counts = np.unique(xs, return_counts=True)
    if len(distinct) == 1:
        return float(distinct[0]), float(distinct[0])
    draws = np.random.default_rng(seed).multinomial(m, counts / m, size=b)
    means = np.clip(draws @ distinct / m, distinct[0], distinct[-1])  # no rounding past the values' range
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


def pss_table(table: Sequence[Sequence[float | None]]) -> float:
    """PSS of a plain table: one row per instance, one column per prompt variant (None: not judged)."""
    per = [instance_pss([v for v in row if v is not None]) for row in table]
    got = [p for p in per if p is not None]
    return sum(got) / len(got) if got else math.nan
