"""WOD, word deletion: delete ``ratio`` of the target's words — at least one, never all of them.

A deleted word takes one neighbouring run of spaces with it (see :mod:`.base`), so no double space is left behind;
punctuation stays ("Translate the text, please." → "Translate the, please.").
"""
from __future__ import annotations

import random

from ..types import Edit
from .base import Context, Strategy, register
from .words import Unit


@register("WOD")
class WordDeletion(Strategy):
    """Delete ``ratio`` of the words (at least one, never all)."""

    unit = "word"
    min_units = 2
    needs = "at least two words (WOD deletes at least one and never all)"

    def cap(self, n_units: int) -> int:
        return n_units - 1

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit:
        return Edit(unit.start, unit.end, "")
