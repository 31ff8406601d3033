"""The perplexity filter (ComPerturb): keep, per cell, the variants a reference model finds most disturbed.

A cell is one (component, strategy) pair. For each variant ``Ratio = PPL(variant) / PPL(clean)``; within a cell the
variants are ranked by ratio, highest first (ties keep their input order), and the top ``keep_top`` share is kept:
``ceil(keep_top × n)`` of the cell's ``n`` scored variants, at least one. The others stay in the list, marked
``kept=False``. ``keep_top=None`` keeps every scored variant. A variant without a perplexity (its text was empty, e.g.
a component deletion that removed the whole prompt) gets ``ppl_ratio=None`` and ``kept=False`` and does not count in
its cell's ``n``. The paper keeps the top 20% (the default).
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from ..types import Variant

if TYPE_CHECKING:  # pragma: no cover
    from .perplexity import PerplexityScorer, Progress

#: The paper's share of each cell that the filter keeps.
DEFAULT_KEEP_TOP = 0.2


def cell_of(variant: Variant) -> tuple[str, str]:
    """The cell a variant belongs to: (component, strategy)."""
    return (variant.component, variant.strategy)


def check_keep_top(keep_top: float | None) -> None:
    """ValueError unless ``keep_top`` is None or a share in (0, 1]."""
    if keep_top is None:
        return
    if isinstance(keep_top, bool) or not isinstance(keep_top, (int, float)) or not 0 < keep_top <= 1:
        raise ValueError(f"keep_top must be a share in (0, 1] (e.g. 0.2 keeps the top 20%) or None to keep all, "
                         f"not {keep_top!r}")


def keep_count(n: int, keep_top: float | None) -> int:
    """How many of a cell's ``n`` scored variants the filter keeps: ``ceil(keep_top × n)``, at least one."""
    if n <= 0:
        return 0
    if keep_top is None:
        return n
    return min(n, max(1, math.ceil(keep_top * n - 1e-9)))  # 1e-9: 0.14 × 50 is 7.000000000000001 in floating point


def ppl_filter(variants: Sequence[Variant], clean_ppl: float, keep_top: float | None = DEFAULT_KEEP_TOP
               ) -> list[Variant]:
    """The variants in their input order with ``ppl_ratio`` and ``kept`` set (see the module's notes).
    Each variant's ``ppl`` must already be set (None marks an unscorable one)."""
    check_keep_top(keep_top)
    if isinstance(clean_ppl, bool) or not isinstance(clean_ppl, (int, float)) or not (
            math.isfinite(clean_ppl) and clean_ppl > 0):
        raise ValueError(f"clean_ppl must be a positive finite perplexity, not {clean_ppl!r}")
    ratios: list[float | None] = []
    cells: dict[tuple[str, str], list[int]] = {}
    for i, v in enumerate(variants):
        if v.ppl is None or (isinstance(v.ppl, float) and math.isnan(v.ppl)):
            ratios.append(None)
            continue
        ratios.append(v.ppl / clean_ppl)
        cells.setdefault(cell_of(v), []).append(i)
    kept: set[int] = set()
    for members in cells.values():
        ranked = sorted(members, key=lambda i: -ratios[i])  # sorted() is stable: ties keep their input order
        kept.update(ranked[:keep_count(len(members), keep_top)])
    return [replace(v, ppl_ratio=ratios[i], kept=i in kept) for i, v in enumerate(variants)]


def score_and_filter(clean: str, variants: Sequence[Variant], scorer: "PerplexityScorer | None" = None,
                     keep_top: float | None = DEFAULT_KEEP_TOP, progress: "Progress | None" = None
                     ) -> tuple[float, list[Variant]]:
    """Score ``variants`` of the prompt ``clean`` (with prefix reuse) and filter them: ``(PPL(clean), variants)``,
    the variants in their input order with ``ppl``, ``ppl_ratio`` and ``kept`` set. ``scorer`` defaults to a
    :class:`~promptanatomy_core.scoring.perplexity.PerplexityScorer` over the default local model."""
    check_keep_top(keep_top)
    if scorer is None:
        from .perplexity import PerplexityScorer

        scorer = PerplexityScorer()
    scorable = [v.text for v in variants if v.text]
    clean_ppl, ppls = scorer.score_variants(clean, scorable, progress)
    found = iter(ppls)
    scored = [replace(v, ppl=next(found) if v.text else None) for v in variants]
    return clean_ppl, ppl_filter(scored, clean_ppl, keep_top)
