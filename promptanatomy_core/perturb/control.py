"""CRT, the control group: the same perturbation with the same edit budget, placed without regard to the components.

Definition (used for every strategy; component name :data:`~promptanatomy_core.types.CONTROL`, ``"CRT"``):

1. The *budget* is the number of units the component-targeted variant would edit, averaged over the components present
   in the prompt: for each present component ``c``, the strategy's own plan for ``c`` gives ``k_c`` (SCI/WOD:
   ``max(1, round(ratio × words in c))``; SYR: the same over content words, at most the replaceable ones; SER: one
   sentence; COD: every sentence of ``c``). The control budget is ``round_half_up(mean of k_c)``, at least 1, over the
   components whose plan succeeds (a component too short for the strategy does not count). A prompt with no labelled
   component falls back to the strategy's own budget over the whole prompt.
2. The *positions* are drawn with the variant's seeded ``random.Random`` from the eligible units of the **whole prompt**
   (every sentence, whatever its labels, protected regions still excluded), by the strategy's own rule: uniformly
   (SYR, WOD, SER), spread evenly over the prompt (SCI), or — for COD — one contiguous run of ``budget`` sentences
   (about the mean component length in sentences) starting at a uniformly drawn sentence.

So a CRT cell differs from a component cell only in *where* the edits go, never in how many or of what kind. The
variant's ``note`` records the budget and where it came from.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..types import Dissection
from .base import PerturbError, round_half_up

if TYPE_CHECKING:  # pragma: no cover
    from .base import Strategy


def component_budgets(strategy: "Strategy", dissection: Dissection) -> dict[str, int]:
    """Component name → the number of edits the component-targeted variant gets (components too short are left out)."""
    budgets: dict[str, int] = {}
    for comp in dissection.components():
        try:
            budgets[comp.value] = strategy.plan(strategy.context(dissection, comp)).budget
        except PerturbError:
            continue
    return budgets


def control_budget(strategy: "Strategy", dissection: Dissection) -> tuple[int, str]:
    """The control group's budget for ``strategy`` on ``dissection``, and a note saying how it was set."""
    budgets = component_budgets(strategy, dissection)
    if not budgets:
        from ..types import WHOLE_PROMPT

        k = strategy.plan(strategy.context(dissection, WHOLE_PROMPT)).budget
        return k, f"control: {k} {strategy.unit} edit(s) anywhere (no labelled component to size the budget)"
    k = max(1, round_half_up(sum(budgets.values()) / len(budgets)))
    detail = ", ".join(f"{name} {n}" for name, n in budgets.items())
    return k, f"control: {k} {strategy.unit} edit(s) anywhere in the prompt (mean component budget: {detail})"
