"""SCI, special character insertion: one special character inside each of ``ratio`` of the words, spread evenly.

"a sentiment classification agent" → "a senti!ment c#lassification agent". The budget counts every word of the
target (its token positions); a word takes one character at a uniformly drawn interior position (never before its
first or after its last character), and the picked words are spread evenly: one drawn from each of ``budget``
consecutive, near-equal strata of the target's words (:func:`~.base.spread`).
"""
from __future__ import annotations

import random
from typing import Sequence

from ..types import Edit
from .base import DEFAULT_RATIO, Context, Strategy, register, spread
from .words import Unit

#: The paper's characters.
SPECIAL_CHARACTERS = "#$%&@!"


@register("SCI")
class SpecialCharacterInsertion(Strategy):
    """Insert a special character inside ``ratio`` of the words."""

    unit = "word"
    needs = "a word of at least two characters"

    def __init__(self, ratio: float = DEFAULT_RATIO, chars: str = SPECIAL_CHARACTERS) -> None:
        super().__init__(ratio)
        if not isinstance(chars, str) or not chars or any(c.isspace() for c in chars):
            raise ValueError(f"chars must be a non-empty string without white space, not {chars!r}")
        self.chars = chars

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        return len(unit.text) >= 2

    def choose(self, candidates: Sequence[Unit], k: int, rng: random.Random) -> list[Unit]:
        return spread(candidates, k, rng)

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit:
        at = unit.start + rng.randrange(1, len(unit.text))
        return Edit(at, at, rng.choice(self.chars))
