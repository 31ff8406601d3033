"""Per-component numbers for a dissection (pure; no Streamlit)."""
from __future__ import annotations

from dataclasses import dataclass

from promptanatomy_core.types import COMPONENTS, Component, Dissection


@dataclass(frozen=True)
class ComponentStats:
    """How much of the prompt one component holds. ``share`` is a fraction of the prompt's sentence characters."""

    component: Component
    sentences: int
    words: int
    chars: int
    share: float


def component_summary(dissection: Dissection) -> list[ComponentStats]:
    """One row per component, in canonical order (zeros for absent ones).

    A sentence with several labels counts for each of them, so shares can add up to more than 1.
    """
    total = sum(len(s.text) for s in dissection.sentences) or 1
    rows = []
    for comp in COMPONENTS:
        mine = [s for s in dissection.sentences if comp in s.labels]
        chars = sum(len(s.text) for s in mine)
        rows.append(ComponentStats(comp, len(mine), sum(len(s.text.split()) for s in mine), chars, chars / total))
    return rows


def unlabelled_count(dissection: Dissection) -> int:
    """Sentences no label was given to."""
    return sum(1 for s in dissection.sentences if not s.labels)


def agreement(dissection: Dissection, gold: Dissection) -> tuple[int, int] | None:
    """(sentences whose label sets equal the gold ones, sentences) when both split the same prompt the same way,
    else None."""
    if dissection.prompt != gold.prompt or [(s.start, s.end) for s in dissection.sentences] != [
            (s.start, s.end) for s in gold.sentences]:
        return None
    same = sum(a.labels == b.labels for a, b in zip(dissection.sentences, gold.sentences))
    return same, len(gold.sentences)
