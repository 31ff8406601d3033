"""ComPerturb: component-wise perturbations of a dissected prompt, the control group and whole-prompt baselines.

``perturb(dissection, "SCI", "Role", ratio=0.1, seed=0, n=3)`` gives three variants of the prompt with only the Role's
spans changed; ``component="CRT"`` gives the control group (:mod:`.control`), ``"whole prompt"`` a monolithic
perturbation. :func:`perturb_grid` runs components × strategies and reports the cells it could not fill.

Strategies (one small class each, registered by name): ``SCI``, ``SYR``, ``WOD``, ``SER``, ``COD`` and the baselines
``PromptRobust-DeepWordBug``, ``PromptRobust-TextBugger``, ``PromptRobust-TextFooler``, ``MTTM-Char``, ``MTTM-Word``,
``MTTM-Sentence`` (:mod:`.baselines`).

Seeds: variant ``i`` of ``n`` uses seed ``seed + i`` (its ``Variant.seed``), so ``perturb(..., seed=v.seed, n=1)``
rebuilds any variant on its own. Each variant's positions and choices come from its own ``random.Random(seed)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..types import CONTROL, WHOLE_PROMPT, Component, Dissection, Variant
from .base import (DEFAULT_RATIO, REFERENCE_RATIO, ComponentNotPresent, NothingToPerturb, PerturbError, Strategy,
                   apply_edits, available_strategies, check_ratio, get_strategy, label, register, resolve_target,
                   strategy_class)
from . import sci, syr, wod, ser, cod, baselines  # noqa: F401,E402  (register, in canonical order)

#: The five ComPerturb strategies, in the paper's order.
COMPERTURB = ("SCI", "SYR", "WOD", "SER", "COD")
#: The whole-prompt baselines.
BASELINES = tuple(name for name in available_strategies() if name not in COMPERTURB)
MAX_VARIANTS = 1000

__all__ = ["BASELINES", "COMPERTURB", "CONTROL", "DEFAULT_RATIO", "REFERENCE_RATIO", "WHOLE_PROMPT",
           "ComponentNotPresent", "GridResult", "NothingToPerturb", "PerturbError", "Strategy", "apply_edits",
           "available_strategies", "get_strategy", "perturb", "perturb_grid", "register", "resolve_target",
           "strategy_class"]


def _build(strategy: str | Strategy, ratio: float, params: dict) -> Strategy:
    if isinstance(strategy, Strategy):
        if params:
            raise PerturbError(f"parameters {', '.join(sorted(params))} apply when the strategy is given by name")
        return strategy
    return get_strategy(strategy, ratio=check_ratio(ratio), **params)


def _check_n(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_VARIANTS:
        raise PerturbError(f"n (variants per cell) must be an integer from 1 to {MAX_VARIANTS}, not {n!r}")
    return n


def perturb(dissection: Dissection, strategy: str | Strategy, component: Component | str | None = None, *,
            ratio: float = DEFAULT_RATIO, seed: int = 0, n: int = 1, **params: object) -> list[Variant]:
    """``n`` variants of ``dissection.prompt`` with ``component`` perturbed by ``strategy`` (seeds ``seed … seed+n-1``).

    ``component``: a :class:`Component` or its name, ``"CRT"`` (the control group) or ``"whole prompt"``; None means
    the strategy's default (the whole prompt for baselines). ``params`` go to the strategy (e.g. ``backend=`` for SER).
    Raises :class:`ComponentNotPresent` (a ValueError) when the component has no sentence in the prompt,
    :class:`NothingToPerturb` when it is too short for the strategy, PerturbError for bad parameters.
    """
    n = _check_n(n)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PerturbError(f"seed must be an integer, not {seed!r}")
    built = _build(strategy, ratio, params)
    return [built.perturb(dissection, component, seed + i) for i in range(n)]


@dataclass(frozen=True)
class GridResult:
    """The variants of every cell (component label, strategy name) that could be filled, and why the others were not."""

    variants: dict[tuple[str, str], list[Variant]] = field(default_factory=dict)
    skipped: dict[tuple[str, str], str] = field(default_factory=dict)

    def all(self) -> list[Variant]:
        """Every variant, cell by cell."""
        return [v for vs in self.variants.values() for v in vs]


def perturb_grid(dissection: Dissection, components: Iterable[Component | str], strategies: Sequence[str | Strategy],
                 *, ratio: float = DEFAULT_RATIO, seed: int = 0, n: int = 1,
                 params: dict[str, dict] | None = None) -> GridResult:
    """Variants for every component × strategy cell. A component not present, or too short for a strategy, becomes a
    ``skipped`` entry with the reason; bad arguments (unknown names, ratio, n) raise before any work.

    ``params`` maps a strategy name to its extra parameters (e.g. ``{"SER": {"backend": my_backend}}``); each strategy
    is built once and serves all components.
    """
    n = _check_n(n)
    params = params or {}
    built = [_build(s, ratio, dict(params.get(s, {})) if isinstance(s, str) else {}) for s in strategies]
    targets = [resolve_target(c) for c in components]
    result = GridResult()
    for target in targets:
        for strategy in built:
            cell = (label(target), strategy.name)
            try:
                result.variants[cell] = [strategy.perturb(dissection, target, seed + i) for i in range(n)]
            except (ComponentNotPresent, NothingToPerturb) as exc:
                reason = "not present" if isinstance(exc, ComponentNotPresent) else "too short"
                result.skipped[cell] = f"{reason}: {exc}"
    return result
