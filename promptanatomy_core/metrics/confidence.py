"""Decoding confidence (ProSA) and how it relates to PSS.

**Decoding confidence** of one response: the probability the model gave to the first token of its answer, as the
backend reports it (``ChatResponse.tokens``; the local backend always returns token probabilities, OpenAI-compatible
servers when ``logprobs`` was asked and supported). Leading tokens that are only white space or only
punctuation/markup (``"\\n"``, ``" "``, ``"**"``, ``"```"``) are skipped: the first token carrying a letter or digit is
the answer's first token. None when the backend gave no probabilities, the response is an error, or no such token.

ProSA reports that prompts on which a model decodes more confidently are less sensitive. :func:`confidence_vs_pss`
gives, per instance, the mean confidence of its responses against the instance's PSS, and their Pearson correlation
(a negative value supports that reading).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .pss import instance_outcomes, instance_pss
from .records import as_number, field_of, group_by


def first_token_confidence(response: Any) -> float | None:
    """The probability of the first answer token of ``response`` (a ChatResponse), or None (see the module doc)."""
    if response is None or getattr(response, "error", None) is not None:
        return None
    for tok in getattr(response, "tokens", ()) or ():
        text = getattr(tok, "token", None)
        prob = getattr(tok, "prob", None)
        if text is None and isinstance(tok, (list, tuple)) and len(tok) == 2:  # stored JSON pair [token, prob]
            text, prob = tok
        if any(ch.isalnum() for ch in str(text)):
            p = as_number(prob)
            return None if p is None else min(1.0, max(0.0, p))
    return None


def mean_confidence(values: Iterable[float | None]) -> float | None:
    """Mean of the known confidences; None when none is known."""
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else None


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r of two equal-length sequences; None with fewer than 3 points or a constant sequence."""
    if len(xs) != len(ys):
        raise ValueError("xs and ys must have the same length")
    n = len(xs)
    if n < 3:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sxx * syy)


@dataclass(frozen=True)
class ConfidencePoint:
    instance: Any
    confidence: float
    pss: float


@dataclass(frozen=True)
class ConfidenceVsPss:
    """Per-instance (mean confidence, PSS) points and Pearson's r between them (None when undefined)."""

    points: tuple[ConfidencePoint, ...]
    r: float | None


def confidence_vs_pss(records: Iterable[Any], y: str = "correct", include_clean: bool = True) -> ConfidenceVsPss:
    """For each instance with both a known mean ``confidence`` (records' field) and a PSS: a point; then Pearson's r.

    Records without a ``confidence`` field value (None) do not count towards the mean."""
    records = list(records)
    outcomes = instance_outcomes(records, y, include_clean)
    points = []
    for inst, recs in group_by(records, lambda r: field_of(r, "instance")).items():
        conf = mean_confidence(as_number(field_of(r, "confidence")) for r in recs)
        p = instance_pss(outcomes.get(inst, []))
        if conf is not None and p is not None:
            points.append(ConfidencePoint(inst, conf, p))
    r = pearson([p.confidence for p in points], [p.pss for p in points])
    return ConfidenceVsPss(tuple(points), r)
