"""The strategy base class (a template method), its registry, and the errors of ComPerturb.

:meth:`Strategy.perturb` does everything that is the same for all strategies: it resolves the target (a component's
spans, the whole prompt, or the control group), collects the units (words, content words or sentences) inside it
that lie outside protected regions (:mod:`.words`), sizes the edit budget from ``ratio``, picks units with the
``random.Random(seed)`` it creates (never the module-global ``random``), asks the leaf for the edit of each picked unit,
tidies and applies the edits in place and builds the :class:`~promptanatomy_core.types.Variant`. A leaf implements
:meth:`Strategy.edit`, and may narrow :meth:`Strategy.eligible`, :meth:`Strategy.budget` or :meth:`Strategy.choose`.

Budget: ``max(1, round_half_up(ratio × units))`` units of the strategy's kind in the target, never more than the
eligible ones. ``ratio`` lies in (0, 1]; the paper's text uses 0.1 (:data:`DEFAULT_RATIO`), its reference code 0.2
(:data:`REFERENCE_RATIO`).

Deleting whole words or sentences also removes the spaces that would be left doubled: consecutive deletions separated
only by white space merge into one, and a deletion of whole words takes one neighbouring run of spaces or tabs (the one
before it, or the one after it at the start of a line) — never a line break, and never anything outside the target.
"""
from __future__ import annotations

import inspect
import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Iterable, Sequence

from ..types import CONTROL, WHOLE_PROMPT, Component, Dissection, Edit, Variant
from .words import STOP_WORDS, Unit, inside, overlaps, protected_spans, words_in

#: The paper's text perturbs 10% of the units; its reference code used 20%.
DEFAULT_RATIO = 0.1
REFERENCE_RATIO = 0.2


class PerturbError(ValueError):
    """A perturbation that cannot be made; the message says why."""


class ComponentNotPresent(PerturbError):
    """The target component has no sentence in this prompt."""

    def __init__(self, component: Component, present: Sequence[Component]) -> None:
        self.component = component
        self.present = tuple(present)
        names = ", ".join(c.value for c in self.present) or "none"
        super().__init__(f"component {component.value!r} is not present in this prompt (present: {names})")


class NothingToPerturb(PerturbError):
    """The target is too short for the strategy (no eligible word or sentence)."""


def check_ratio(ratio: object) -> float:
    """``ratio`` as a float in (0, 1]; ValueError otherwise."""
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not math.isfinite(ratio) \
            or not 0 < ratio <= 1:
        raise PerturbError(f"ratio must be a number in (0, 1] (the paper's text uses {DEFAULT_RATIO}, its reference "
                           f"code {REFERENCE_RATIO}), not {ratio!r}")
    return float(ratio)


def round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5 + 1e-9))


def resolve_target(component: Component | str) -> Component | str:
    """A :class:`Component`, :data:`CONTROL` or :data:`WHOLE_PROMPT` from a name (case and spacing ignored)."""
    if isinstance(component, Component):
        return component
    if not isinstance(component, str):
        raise PerturbError(f"component must be a component name, {CONTROL!r} or {WHOLE_PROMPT!r}, "
                           f"not {type(component).__name__}")
    key = " ".join(component.replace("_", " ").split()).lower()
    if key in {CONTROL.lower(), "control"}:
        return CONTROL
    if key in {WHOLE_PROMPT, "whole", "prompt", "all"}:
        return WHOLE_PROMPT
    try:
        return Component.parse(component)
    except ValueError:
        names = ", ".join(c.value for c in Component)
        raise PerturbError(f"unknown component {component!r}; expected one of: {names}, {CONTROL} (the control "
                           f"group) or {WHOLE_PROMPT!r}") from None


def label(target: Component | str) -> str:
    """The ``Variant.component`` value of a target."""
    return target.value if isinstance(target, Component) else target


@dataclass
class Context:
    """What a leaf may look at while it edits: the prompt, its dissection, the target's regions and notes to add."""

    prompt: str
    dissection: Dissection
    target: Component | str
    regions: tuple[tuple[int, int], ...]
    protected: tuple[tuple[int, int], ...]
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Plan:
    """The units of a target, the eligible ones and the number of edits the strategy makes there."""

    units: tuple[Unit, ...]
    candidates: tuple[Unit, ...]
    budget: int


class Strategy(ABC):
    """One perturbation strategy. Subclasses set :attr:`unit` and implement :meth:`edit`."""

    #: The registry name (set by :func:`register`).
    name: ClassVar[str] = ""
    #: What the strategy edits and the budget counts: "word", "content word" (not a stop word) or "sentence".
    unit: ClassVar[str] = "word"
    #: The target used when the caller names none: None (a component is required) or WHOLE_PROMPT (baselines).
    default_target: ClassVar[str | None] = None
    #: Fewest units a target needs, and the phrase that says what they are.
    min_units: ClassVar[int] = 1
    needs: ClassVar[str] = "a word outside protected regions"
    #: True for a strategy that removes whole sentences, protected text included (COD).
    deletes_protected: ClassVar[bool] = False

    def __init__(self, ratio: float = DEFAULT_RATIO) -> None:
        self.ratio = check_ratio(ratio)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(ratio={self.ratio})"

    # ----------------------------------------------------------------------------------------------- leaf hooks

    @abstractmethod
    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit | Sequence[Edit] | None:
        """The edit(s) of one picked unit (offsets into the clean prompt, inside the unit)."""

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        """True if :meth:`edit` can change ``unit`` (must not draw from any random generator)."""
        return True

    def budget(self, n_units: int) -> int:
        """How many units to edit in a target with ``n_units`` units."""
        return max(1, round_half_up(self.ratio * n_units))

    def cap(self, n_units: int) -> int:
        """The most units that may be edited in a target with ``n_units`` units."""
        return n_units

    def choose(self, candidates: Sequence[Unit], k: int, rng: random.Random) -> list[Unit]:
        """``k`` of ``candidates``, uniformly at random, in text order."""
        return sorted(rng.sample(list(candidates), k), key=lambda u: u.start)

    # ------------------------------------------------------------------------------------------ template method

    def units(self, ctx: Context) -> list[Unit]:
        """The units of the strategy's kind inside the target."""
        if self.unit == "sentence":
            return [Unit(s.start, s.end, s.text) for s in ctx.dissection.sentences if inside(ctx.regions, s.start, s.end)]
        found = words_in(ctx.prompt, list(ctx.regions))
        if self.unit == "content word":
            found = [w for w in found if w.text.lower() not in STOP_WORDS and any(c.isalpha() for c in w.text)]
        return found

    def plan(self, ctx: Context) -> Plan:
        """Units, eligible units and budget for ``ctx``'s target; NothingToPerturb when it is too short."""
        units = tuple(self.units(ctx))
        candidates = tuple(u for u in units if self.eligible(u, ctx))
        where = ("the whole prompt" if ctx.target in (WHOLE_PROMPT, CONTROL)
                 else f"component {label(ctx.target)!r}")
        if len(units) < self.min_units or not candidates:
            raise NothingToPerturb(f"{where} is too short to perturb with {self.name}: it needs {self.needs} "
                                   f"(found {len(units)} {self.unit}{'' if len(units) == 1 else 's'}, "
                                   f"{len(candidates)} usable)")
        k = min(self.budget(len(units)), self.cap(len(units)), len(candidates))
        return Plan(units, candidates, k)

    def context(self, dissection: Dissection, target: Component | str) -> Context:
        prompt = dissection.prompt
        if isinstance(target, Component):
            regions = tuple(dissection.spans(target))
            if not regions:
                raise ComponentNotPresent(target, dissection.components())
        else:
            regions = ((0, len(prompt)),)
        return Context(prompt, dissection, target, regions, protected_spans(prompt))

    def perturb(self, dissection: Dissection, component: Component | str | None = None, seed: int = 0) -> Variant:
        """One variant of ``dissection.prompt`` with ``component`` (a Component, CONTROL or WHOLE_PROMPT) perturbed."""
        if component is None:
            if self.default_target is None:
                raise PerturbError(f"{self.name} needs a component: one of {', '.join(c.value for c in Component)} "
                                   f"or {CONTROL}")
            component = self.default_target
        target = resolve_target(component)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise PerturbError(f"seed must be an integer, not {seed!r}")
        ctx = self.context(dissection, target)
        if target == CONTROL:
            from .control import control_budget

            budget, note = control_budget(self, dissection)
            plan = self.plan(ctx)
            plan = Plan(plan.units, plan.candidates, min(budget, self.cap(len(plan.units)), len(plan.candidates)))
            ctx.notes.append(note)
        else:
            plan = self.plan(ctx)
        rng = random.Random(seed)
        edits: list[Edit] = []
        for unit in self.choose(plan.candidates, plan.budget, rng):
            made = self.edit(unit, ctx, rng)
            if made is None:
                continue
            edits.extend([made] if isinstance(made, Edit) else made)
        edits = tidy_edits(ctx.prompt, edits, ctx.regions, () if self.deletes_protected else ctx.protected)
        return Variant(strategy=self.name, component=label(target), seed=seed, text=apply_edits(ctx.prompt, edits),
                       edits=tuple(edits), note="; ".join(n for n in ctx.notes if n))


def spread(candidates: Sequence[Unit], k: int, rng: random.Random) -> list[Unit]:
    """``k`` of ``candidates`` spread evenly: one drawn uniformly from each of ``k`` near-equal consecutive strata."""
    n = len(candidates)
    bounds = [round_half_up(i * n / k) for i in range(k + 1)]
    return [candidates[rng.randrange(a, b)] for a, b in zip(bounds, bounds[1:]) if b > a]


# ------------------------------------------------------------------------------------------------------- edits

def _word_char(ch: str) -> bool:
    return bool(ch) and (ch.isalnum() or ch in "'’-")


def _whole_words(prompt: str, start: int, end: int) -> bool:
    """True if ``prompt[start:end]`` is not part of a longer word on either side."""
    return end > start and not _word_char(prompt[start - 1:start] if start else "") and not _word_char(prompt[end:end + 1])


def tidy_edits(prompt: str, edits: Iterable[Edit], regions: Sequence[tuple[int, int]],
               protected: tuple[tuple[int, int], ...] = ()) -> list[Edit]:
    """Sort ``edits``, merge deletions separated only by white space, let whole-word deletions take one neighbouring
    run of spaces (see the module docstring), and check that every edit lies inside ``regions``, does not touch
    ``protected`` (nor insert inside it), and that none overlap (AssertionError: a strategy bug)."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    merged: list[Edit] = []
    for e in ordered:
        prev = merged[-1] if merged else None
        if (prev is not None and prev.replacement == "" and e.replacement == "" and e.start >= prev.end
                and not prompt[prev.end:e.start].strip() and inside(regions, prev.start, e.end)):
            merged[-1] = Edit(prev.start, max(prev.end, e.end), "")
        else:
            merged.append(e)
    out: list[Edit] = []
    for i, e in enumerate(merged):
        if e.replacement == "" and _whole_words(prompt, e.start, e.end):
            region = next((r for r in regions if r[0] <= e.start and e.end <= r[1]), None)
            if region is None:
                out.append(e)  # outside the target: reported below
                continue
            prev_end = out[-1].end if out else region[0]
            next_start = merged[i + 1].start if i + 1 < len(merged) else region[1]
            a = e.start
            while a > max(region[0], prev_end) and prompt[a - 1] in " \t":
                a -= 1
            b = e.end
            while b < min(region[1], next_start) and prompt[b] in " \t":
                b += 1
            line_start = a == 0 or prompt[a - 1] == "\n" or a == region[0]
            if a < e.start and not line_start:
                e = Edit(a, e.end, "")
            elif b > e.end:
                e = Edit(e.start, b, "")
        out.append(e)
    last = -1
    for e in out:
        assert e.start >= last, f"overlapping edits at {e.start}"
        assert inside(regions, e.start, e.end), f"edit {e} outside the target"
        assert not (e.end > e.start and overlaps(protected, e.start, e.end)), f"edit {e} inside a protected region"
        assert not any(a < e.start < b for a, b in protected), f"edit {e} inside a protected region"
        last = e.end
    return out


def apply_edits(prompt: str, edits: Sequence[Edit]) -> str:
    """``prompt`` with sorted, non-overlapping ``edits`` applied."""
    parts: list[str] = []
    pos = 0
    for e in edits:
        parts.append(prompt[pos:e.start])
        parts.append(e.replacement)
        pos = e.end
    parts.append(prompt[pos:])
    return "".join(parts)


# ---------------------------------------------------------------------------------------------------- registry

_REGISTRY: dict[str, type[Strategy]] = {}


def register(name: str) -> Callable[[type[Strategy]], type[Strategy]]:
    """Class decorator adding a strategy to the registry under ``name`` (looked up case-insensitively)."""

    def deco(cls: type[Strategy]) -> type[Strategy]:
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return deco


def available_strategies() -> list[str]:
    """The registered strategy names: the five ComPerturb strategies, then the whole-prompt baselines."""
    return list(_REGISTRY)


def strategy_class(name: str) -> type[Strategy]:
    """The class registered as ``name`` (case-insensitive); PerturbError listing the valid names otherwise."""
    if isinstance(name, str):
        for key, cls in _REGISTRY.items():
            if key.lower() == name.strip().lower():
                return cls
    valid = ", ".join(available_strategies())
    if isinstance(name, str) and name.strip().upper() == CONTROL:
        raise PerturbError(f"{CONTROL} is the control group, not a strategy: give component {CONTROL!r} with one of "
                           f"the strategies: {valid}")
    raise PerturbError(f"unknown strategy {name!r}; choose one of: {valid}")


def get_strategy(name: str, **params: object) -> Strategy:
    """Build the strategy ``name`` with ``params`` (e.g. ``ratio=0.2``); PerturbError naming a bad one."""
    cls = strategy_class(name)
    accepted = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise PerturbError(f"strategy {cls.name} takes no parameter {', '.join(map(repr, unknown))}; "
                           f"it takes: {', '.join(accepted)}")
    return cls(**params)
