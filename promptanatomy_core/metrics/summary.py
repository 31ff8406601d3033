"""One row of metrics per cell: ASR with its interval, flip rate, PSS with its interval and mean decoding
confidence."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from .asr import asr, flip_rate
from .confidence import mean_confidence
from .pss import bootstrap_interval, instance_scores, pss_of
from .records import as_number, field_of, group_by

#: The usual cell: one model, one component (or the control group / whole prompt), one perturbation.
CELL = ("model", "component", "perturbation")


def summarize(records: Iterable[Any], by: Sequence[str] = CELL, y: str = "correct", include_clean: bool = True,
              boot: int = 1000, seed: int = 0) -> list[dict[str, Any]]:
    """One dict per group of ``records`` sharing the ``by`` fields, in first-seen order, with the ``by`` fields and:

    ``n`` (judged responses), ``successes`` (attack successes), ``unjudged``, ``asr``, ``asr_low``, ``asr_high``
    (Wilson 95%), ``flip_n`` (judged responses whose clean prompt was right), ``flips``, ``flip_rate``, ``flip_low``,
    ``flip_high``, ``pss``, ``pss_low``, ``pss_high`` (percentile bootstrap 95% over the instances, ``boot``
    resamples, ``seed``; NaN with fewer than two instances: see :func:`pss.bootstrap_interval`), ``pss_instances``,
    ``confidence`` (mean decoding confidence, None when unknown).
    Group by ``("model", "component")`` for per-component figures.
    """
    rows = []
    for key, recs in group_by(records, tuple(by)).items():
        per = instance_scores(recs, y, include_clean)
        a, f, p = asr(recs), flip_rate(recs), pss_of(per)
        p_low, p_high = bootstrap_interval([v for v in per if v is not None], b=boot, seed=seed)
        row = dict(zip(by, key))
        row.update(n=a.n, successes=a.k, unjudged=a.unjudged, asr=a.rate, asr_low=a.low, asr_high=a.high,
                   flip_n=f.n, flips=f.k, flip_rate=f.rate, flip_low=f.low, flip_high=f.high,
                   pss=p.pss, pss_low=p_low, pss_high=p_high, pss_instances=p.instances,
                   confidence=mean_confidence(as_number(field_of(r, "confidence")) for r in recs))
        rows.append(row)
    return rows
