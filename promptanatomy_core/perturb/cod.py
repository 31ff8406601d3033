"""COD, component deletion: remove every sentence of the component (its spans, white space inside them included).

Protected regions inside the component go with it. The white space around the component (outside its spans) stays as it was. In the control group (CRT) the same
strategy deletes one contiguous run of sentences of about the mean component length, anywhere in the prompt.
"""
from __future__ import annotations

import random
from typing import Sequence

from ..types import Edit
from .base import Context, Strategy, register
from .words import Unit


@register("COD")
class ComponentDeletion(Strategy):
    """Delete the whole component (``ratio`` does not apply)."""

    unit = "sentence"
    needs = "a sentence"
    deletes_protected = True

    def budget(self, n_units: int) -> int:
        return n_units

    def choose(self, candidates: Sequence[Unit], k: int, rng: random.Random) -> list[Unit]:
        """A contiguous run of ``k`` sentences starting at a uniformly drawn one (all of them when ``k`` is all)."""
        first = rng.randrange(len(candidates) - k + 1)
        return list(candidates[first:first + k])

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit:
        return Edit(unit.start, unit.end, "")
