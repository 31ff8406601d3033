"""Attack success rate (ASR) with Wilson 95% intervals, and the flip rate.

Definitions (a record's fields are described in ``records.py``):

* **Attack success** on one response: the model's answer under the perturbation is *not correct*
  (``correct is False``; for the "differs from clean" criterion: the answer changed). A record that could not be
  judged (``correct is None``: a provider error, a failed judge) is neither a success nor a failure: it is left out
  of ``n`` and counted in ``unjudged``.
* **ASR** of a cell (the paper's Eq. 2) = successes / n over the cell's judged responses. It mixes two things: answers
  the perturbation broke, and answers that were wrong already on the clean prompt.
* **Flip rate** of a cell = among the cell's judged responses whose instance's *clean* prompt was answered correctly
  (``clean_correct is True``), the share whose perturbed answer is not correct. It counts only answers the
  perturbation broke. With the "differs" criterion the clean response is the reference, so every clean answer counts
  as correct and the flip rate equals the ASR.

Intervals: the Wilson score interval for a binomial proportion, z = 1.959964 (95%)::

    centre = (p + z²/2n) / (1 + z²/n),   half = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)

With ``n == 0`` the rate and both bounds are NaN.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from .records import as_verdict, field_of

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials; (nan, nan) when ``n == 0``."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return math.nan, math.nan
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` with the rate and its Wilson 95% interval; ``unjudged``: records left out (not judged)."""

    k: int
    n: int
    rate: float
    low: float
    high: float
    unjudged: int = 0

    @classmethod
    def of(cls, k: int, n: int, unjudged: int = 0, z: float = Z95) -> "Rate":
        low, high = wilson_interval(k, n, z)
        return cls(k, n, k / n if n else math.nan, low, high, unjudged)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def attack_successes(verdicts: Iterable[Any]) -> Rate:
    """ASR from ``correct`` verdicts (True / False / None): k = how many are False, n = how many are not None."""
    k = n = unjudged = 0
    for v in verdicts:
        c = as_verdict(v)
        if c is None:
            unjudged += 1
            continue
        n += 1
        k += not c
    return Rate.of(k, n, unjudged)


def asr(records: Iterable[Any]) -> Rate:
    """ASR of ``records`` (one cell): successes / judged responses, with the Wilson 95% interval."""
    return attack_successes(field_of(r, "correct") for r in records)


def flip_rate(records: Iterable[Any]) -> Rate:
    """Flip rate of ``records`` (one cell): among judged responses whose clean prompt was answered correctly
    (``clean_correct is True``), the share answered wrongly under the perturbation. Records whose clean answer is
    wrong or unjudged are left out (``unjudged`` counts only perturbed responses that could not be judged)."""
    return attack_successes(field_of(r, "correct") for r in records
                            if as_verdict(field_of(r, "clean_correct")) is True)
