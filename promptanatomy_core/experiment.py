"""The experiment: a grid spec → a plan → a dry-run estimate → execution into the run store → results per cell.

``spec = ExperimentSpec(instances=(Instance("q1", prompt=..., expected="yes"),), models=("local",), n=3)``;
``p = plan(spec)`` dissects each instance (an instance given as XML-tagged text keeps its tags as its dissection),
perturbs it over components × strategies (plus ``baselines`` on the whole prompt), scores and filters the variants by
perplexity when ``keep_top`` is set, and lists one request per (prompt, model): the clean prompt of every instance
and every variant. ``estimate(p)`` counts what would be sent and what it would cost, sending nothing.
``execute(p, store)`` writes the run and sends what the store does not have yet; ``resume(store, run_id)`` carries
on an interrupted run from what the store holds (nothing is perturbed or scored again). ``results(run_id, store)``
gives a pandas frame per cell.

Resuming: every request has a deterministic key, the sha256 of canonical JSON of the model SPEC, the variant's id
(``instance|component|strategy|seed``, or ``instance|clean``) and the full request (messages, temperature,
max_tokens, …). A run stores every answer the moment it lands, so after a crash or a cancel the rerun sends exactly
the requests whose key has no stored response. Requests that failed are sent again on a rerun (``retry_errors``);
their failures stay in the ``errors`` table.

Judging: the spec's criterion (:mod:`.scoring.criteria`) judges each answer against the instance's expected answer
and the clean prompt's answer from the same model. ``Judgment.correct`` False is an attack success. A provider error
is never judged and never an attack success: it leaves the cell's ``n`` and is counted in ``errors``.

With ``keep_top`` (the paper's 0.2) every variant is scored and, by default (``send_dropped``), every variant is sent,
so :func:`results` reports each cell twice: ``ppl_filter = "all"`` (every variant) and ``"top20%"`` (only the variants
the filter kept). ``send_dropped=False`` sends only the kept ones (cheaper; the "all" rows then hold the kept ones
too and are left out). ``keep_top=None`` scores nothing; the rows say ``"all"``.

A template experiment (:meth:`ExperimentSpec.from_template`): a prompt template with ``{name}`` placeholders and a
table of test inputs. The template is dissected and perturbed once (placeholders are protected, so every variant keeps
them); the clean template and each variant are then filled with every row (``str.format_map``; ``{{``/``}}`` are
literal braces), one instance per row with the row's expected answer, so PSS per instance is the sensitivity across
the same prompt variants for each test input, as in ProSA.
"""
from __future__ import annotations

import bisect
import hashlib
import re
import string
import threading
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from .lease import Heartbeat
from .models.base import ChatRequest, ChatResponse, TokenProb
from .perturb import COMPERTURB, DEFAULT_RATIO, perturb_grid
from .scoring.filter import DEFAULT_KEEP_TOP, check_keep_top, score_and_filter
from .types import COMPONENTS, CONTROL, WHOLE_PROMPT, Component, Dissection, Edit, Sentence, Variant

#: The component and strategy name of an instance's clean prompt.
CLEAN = "clean"
#: Default components: the five and the control group.
DEFAULT_COMPONENTS: tuple[str, ...] = tuple(c.value for c in COMPONENTS) + (CONTROL,)
#: Bump when the request key's recipe changes.
KEY_VERSION = 1


class ExperimentError(ValueError):
    """A spec or plan that cannot run; the message says what to change."""


# --------------------------------------------------------------------------------------------------------- the spec

@dataclass(frozen=True)
class Instance:
    """One prompt to test: plain ``prompt`` text (dissected with the spec's dissector) or XML-``tagged`` text (its
    tags are the dissection), and the ``expected`` answer (None for criteria that compare with the clean answer)."""

    id: str
    prompt: str = ""
    tagged: str = ""
    expected: str | None = None

    def __post_init__(self) -> None:
        if not self.id:
            raise ExperimentError("every instance needs an id")
        if bool(self.prompt) == bool(self.tagged):
            raise ExperimentError(f"instance {self.id!r}: give either prompt or tagged text (exactly one)")

    def dissect(self, dissector: Any = "rules") -> Dissection:
        """The tags' dissection, or ``dissector`` (a registered name or a built dissector) applied to the prompt."""
        if self.tagged:
            from .tagged import parse_tagged

            return parse_tagged(self.tagged, source="gold")
        if isinstance(dissector, str):
            from . import dissect as _dissect  # noqa: F401  (registers the built-in dissectors)
            from .dissect.base import get_dissector

            dissector = get_dissector(dissector)
        return dissector.dissect(self.prompt)

    @classmethod
    def from_record(cls, record: Any) -> "Instance":
        """An instance from a -PA dataset record (``datasets.Record``): its tags and its answer."""
        return cls(id=f"{record.dataset}#{record.index}", tagged=record.tagged, expected=record.answer)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ExperimentSpec:
    """Everything that defines a run (stored as JSON with it). See the module doc for ``keep_top``/``send_dropped``."""

    instances: tuple[Instance, ...]
    models: tuple[str, ...] = ("local",)
    components: tuple[str, ...] = DEFAULT_COMPONENTS
    strategies: tuple[str, ...] = COMPERTURB
    #: Whole-prompt baselines (perturb's BASELINES names), applied to the whole prompt.
    baselines: tuple[str, ...] = ()
    n: int = 1
    ratio: float = DEFAULT_RATIO
    seed: int = 0
    keep_top: float | None = DEFAULT_KEEP_TOP
    send_dropped: bool = True
    system_mode: str = "user"
    temperature: float = 0.0
    max_tokens: int = 256
    criterion: str = "contains"
    criterion_params: Mapping[str, Any] = field(default_factory=dict)
    dissector: str = "rules"
    name: str = ""
    #: A template experiment: the template (plain, or XML-tagged when the instances are) and, per instance, the
    #: placeholder values of its row (see :meth:`from_template`); "" and () otherwise.
    template: str = ""
    rows: tuple[Mapping[str, str], ...] = ()

    def __post_init__(self) -> None:
        for name in ("instances", "models", "components", "strategies", "baselines"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = (value,)
            object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "instances", tuple(i if isinstance(i, Instance) else Instance(**i)
                                                    for i in self.instances))
        object.__setattr__(self, "criterion_params", dict(self.criterion_params or {}))
        object.__setattr__(self, "rows", tuple(dict(r) for r in self.rows))
        if self.template and len(self.rows) != len(self.instances):
            raise ExperimentError("a template experiment needs one row of values per instance")
        if not self.instances:
            raise ExperimentError("an experiment needs at least one instance (a prompt or a dataset record)")
        ids = [i.id for i in self.instances]
        if len(set(ids)) != len(ids):
            raise ExperimentError("instance ids must be unique")
        if not self.models:
            raise ExperimentError("an experiment needs at least one model SPEC")
        if not (self.strategies and self.components) and not self.baselines:
            raise ExperimentError("nothing to perturb: give components and strategies, or baselines")
        check_keep_top(self.keep_top)
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1:
            raise ExperimentError(f"n (variants per cell) must be a positive integer, not {self.n!r}")
        if self.max_tokens < 1:
            raise ExperimentError("max_tokens must be at least 1")
        from .models.base import parse_spec
        from .models.prompting import MODES

        for m in self.models:
            parse_spec(m)
        if self.system_mode not in MODES:
            raise ExperimentError(f"unknown system mode {self.system_mode!r}; one of {', '.join(MODES)}")

    @classmethod
    def from_prompt(cls, prompt: str, expected: str | None = None, *, tagged: bool = False,
                    **options: Any) -> "ExperimentSpec":
        """A spec for one prompt (plain, or XML-tagged with ``tagged=True``)."""
        inst = Instance("prompt", tagged=prompt, expected=expected) if tagged else Instance("prompt", prompt=prompt,
                                                                                           expected=expected)
        return cls(instances=(inst,), **options)

    @classmethod
    def from_template(cls, template: str, rows: Sequence[Mapping[str, Any]], expected_key: str = "expected", *,
                      tagged: bool | None = None, **options: Any) -> "ExperimentSpec":
        """A spec for a prompt ``template`` (plain, or XML-tagged; ``tagged=None`` looks for component tags) with
        ``{name}`` placeholders, and one instance (``row1``, ``row2``, …) per row: the template filled with the row's
        values and its ``expected_key`` value as the expected answer (none when absent or empty). Columns that are no
        placeholder are ignored; a placeholder without a value in a row is an error."""
        names = template_fields(template)
        if not names:
            raise ExperimentError("the template has no {placeholder} to fill with the inputs")
        if tagged is None:
            from .datasets import _COMPONENT_TAG

            tagged = bool(_COMPONENT_TAG.search(template))
        values, instances = [], []
        for k, row in enumerate(rows, 1):
            missing = [n for n in names if row.get(n) is None]
            if missing:
                raise ExperimentError(f"row {k}: no value for the placeholder {{{missing[0]}}}")
            values.append({n: str(row[n]) for n in names})
            text = fill_template(template, values[-1])
            expected = row.get(expected_key)
            expected = None if expected is None or str(expected) == "" else str(expected)
            instances.append(Instance(f"row{k}", prompt="" if tagged else text, tagged=text if tagged else "",
                                      expected=expected))
        return cls(instances=tuple(instances), template=template, rows=tuple(values), **options)

    def criterion_object(self) -> Any:
        from .scoring.criteria import get_criterion

        return get_criterion(self.criterion, **self.criterion_params)

    def to_json(self) -> dict:
        data = asdict(self)
        data["instances"] = [i.to_json() for i in self.instances]
        data["rows"] = [dict(r) for r in self.rows]
        if not self.template:  # a plain experiment's JSON stays as it was (stored runs still match)
            del data["template"], data["rows"]
        for k in ("models", "components", "strategies", "baselines"):
            data[k] = list(data[k])
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ExperimentSpec":
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["instances"] = tuple(Instance(**i) for i in data["instances"])
        return cls(**known)


def template_fields(template: str) -> list[str]:
    """The placeholder names of ``template`` (``{name}``), in order, each once; ExperimentError for a bad template."""
    try:
        names = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError as exc:
        raise ExperimentError(f"bad template: {exc}") from None
    if any(not n.isidentifier() for n in names):
        raise ExperimentError("template placeholders must be names, like {question}")
    return list(dict.fromkeys(names))


def fill_template(template: str, values: Mapping[str, str]) -> str:
    """``template`` with its placeholders filled from ``values`` (``{{``/``}}`` give literal braces)."""
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError) as exc:
        raise ExperimentError(f"cannot fill the template: {exc!r}") from None


_FIELD = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def _filler(template: str, values: Mapping[str, str]) -> Callable[[int], int]:
    """Maps an offset of ``template`` to its place in the filled text."""
    ends, deltas, delta = [], [], 0
    for m in _FIELD.finditer(template):
        delta += len(fill_template(m.group(), values)) - len(m.group())
        ends.append(m.end())
        deltas.append(delta)
    return lambda pos: pos + (deltas[i - 1] if (i := bisect.bisect_right(ends, pos)) else 0)


def _fill_dissection(d: Dissection, values: Mapping[str, str]) -> Dissection:
    at, text = _filler(d.prompt, values), fill_template(d.prompt, values)
    return Dissection(text, tuple(replace(s, start=at(s.start), end=at(s.end), text=text[at(s.start):at(s.end)])
                                  for s in d.sentences), d.sources)


def _fill_variant(v: Variant, template: str, values: Mapping[str, str]) -> Variant:
    at = _filler(template, values)
    return replace(v, text=fill_template(v.text, values),
                   edits=tuple(Edit(at(e.start), at(e.end), e.replacement) for e in v.edits))


# --------------------------------------------------------------------------------------------------------- the plan

@dataclass(frozen=True)
class PlannedVariant:
    """A prompt to send: an instance's clean prompt (``is_clean``) or one of its variants."""

    variant_id: str
    instance_id: str
    variant: Variant

    @property
    def is_clean(self) -> bool:
        return self.variant.strategy == CLEAN


@dataclass(frozen=True)
class PlannedRequest:
    """One request of the plan: the prompt ``variant_id`` sent to ``model``, under its deterministic ``key``."""

    key: str
    variant_id: str
    model: str
    request: ChatRequest


@dataclass
class Plan:
    """What a run will do. ``skipped``: (instance, component, strategy, reason) of cells that could not be filled;
    ``unsent``: variant ids that are planned but not sent (empty text, or dropped by the filter without
    ``send_dropped``)."""

    spec: ExperimentSpec
    dissections: dict[str, Dissection]
    variants: list[PlannedVariant]
    requests: list[PlannedRequest]
    skipped: list[tuple[str, str, str, str]] = field(default_factory=list)
    clean_ppl: dict[str, float] = field(default_factory=dict)
    unsent: list[str] = field(default_factory=list)

    def sizes(self) -> dict[str, int]:
        clean = sum(1 for v in self.variants if v.is_clean)
        return {"instances": len(self.dissections), "models": len(self.spec.models), "clean": clean,
                "variants": len(self.variants) - clean, "requests": len(self.requests),
                "skipped_cells": len(self.skipped), "unsent": len(self.unsent)}


def variant_id(instance_id: str, variant: Variant) -> str:
    if variant.strategy == CLEAN:
        return f"{instance_id}|{CLEAN}"
    return f"{instance_id}|{variant.component}|{variant.strategy}|{variant.seed}"


def request_key(model: str, vid: str, request: ChatRequest) -> str:
    """The deterministic key of a planned request (what resuming matches on)."""
    from .models.cache import canonical_json

    payload = {"v": KEY_VERSION, "model": str(model), "variant": vid, "request": request.to_json()}
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def messages_hash(request: ChatRequest) -> str:
    from .models.cache import canonical_json

    return hashlib.sha256(canonical_json(request.to_json()["messages"]).encode("utf-8")).hexdigest()


def _clean_variant(prompt: str) -> Variant:
    return Variant(strategy=CLEAN, component=CLEAN, seed=0, text=prompt)


def _requests(spec: ExperimentSpec, dissections: Mapping[str, Dissection], variants: Sequence[PlannedVariant]
              ) -> tuple[list[PlannedRequest], list[str]]:
    from .models.prompting import make_request

    out: list[PlannedRequest] = []
    unsent: list[str] = []
    filtered = spec.keep_top is not None and not spec.send_dropped
    built: dict[str, ChatRequest] = {}
    for pv in variants:
        if not pv.variant.text.strip() or (filtered and not pv.is_clean and not pv.variant.kept):
            unsent.append(pv.variant_id)
            continue
        built[pv.variant_id] = make_request(pv.variant.text, spec.system_mode,
                                            dissections[pv.instance_id] if pv.is_clean else None,
                                            temperature=spec.temperature, max_tokens=spec.max_tokens)
    for model in spec.models:
        for pv in variants:
            req = built.get(pv.variant_id)
            if req is not None:
                out.append(PlannedRequest(request_key(model, pv.variant_id, req), pv.variant_id, model, req))
    return out, unsent


def plan(spec: ExperimentSpec, *, scorer: Any = None, strategy_params: Mapping[str, dict] | None = None,
         dissector: Any = None, progress: Callable[[str, int, int], None] | None = None) -> Plan:
    """Dissect, perturb and (with ``keep_top``) score every instance; list the requests. ``scorer``: a
    :class:`~.scoring.PerplexityScorer` (default: the embedded model); ``strategy_params``: extra parameters per
    strategy (e.g. ``{"SER": {"backend": b}}``); ``dissector``: a built dissector for plain prompts (e.g. the llm
    one with its model), instead of ``spec.dissector`` by name; ``progress(stage, done, total)``: stage "perturb"
    after each instance, "score" as the perplexity batches of an instance finish (done of total distinct texts)."""
    dissections: dict[str, Dissection] = {}
    variants: list[PlannedVariant] = []
    skipped: list[tuple[str, str, str, str]] = []
    clean_ppl: dict[str, float] = {}
    total = len(spec.instances)
    dissector = dissector if dissector is not None else spec.dissector

    def perturb(d: Dissection) -> tuple[list[Variant], list[tuple[str, str, str]]]:
        found, skips = [], []
        cells = []
        if spec.components and spec.strategies:
            cells.append((spec.components, spec.strategies))
        if spec.baselines:
            cells.append(((WHOLE_PROMPT,), spec.baselines))
        for comps, strats in cells:
            grid = perturb_grid(d, comps, strats, ratio=spec.ratio, seed=spec.seed, n=spec.n,
                                params=dict(strategy_params or {}))
            found.extend(grid.all())
            skips.extend((c, s, reason) for (c, s), reason in grid.skipped.items())
        return found, skips

    if spec.template:  # dissected and perturbed once; filled per row below
        tagged = bool(spec.instances[0].tagged)
        template_d = Instance("template", prompt="" if tagged else spec.template,
                              tagged=spec.template if tagged else "").dissect(dissector)
        template_found, template_skips = perturb(template_d)
    for k, inst in enumerate(spec.instances):
        if spec.template:
            values = spec.rows[k]
            d = _fill_dissection(template_d, values)
            found, skips = [], list(template_skips)
            for v in template_found:
                try:
                    found.append(_fill_variant(v, template_d.prompt, values))
                except ExperimentError:  # e.g. a whole-prompt baseline that broke a placeholder's braces
                    skips.append((v.component, v.strategy, f"seed {v.seed}: the variant's placeholders are broken"))
        else:
            d = inst.dissect(dissector)
            found, skips = perturb(d)
        dissections[inst.id] = d
        skipped.extend((inst.id, *skip) for skip in skips)
        if spec.keep_top is not None and found:
            if scorer is None:
                from .scoring.perplexity import PerplexityScorer

                scorer = PerplexityScorer()
            scored = None if progress is None else (lambda done, total: progress("score", done, total))
            clean_ppl[inst.id], found = score_and_filter(d.prompt, found, scorer, spec.keep_top, progress=scored)
        variants.append(PlannedVariant(f"{inst.id}|{CLEAN}", inst.id, _clean_variant(d.prompt)))
        variants.extend(PlannedVariant(variant_id(inst.id, v), inst.id, v) for v in found)
        if progress is not None:
            progress("perturb", k + 1, total)
    requests, unsent = _requests(spec, dissections, variants)
    return Plan(spec, dissections, variants, requests, skipped, clean_ppl, unsent)


# ----------------------------------------------------------------------------------------------------- the estimate

@dataclass
class PlanEstimate:
    """Per-model dry-run estimates (``models.pricing.Estimate``) and their total."""

    models: list[Any]
    total: dict[str, Any]

    def to_json(self) -> dict:
        return {"models": [e.to_json() for e in self.models], "total": self.total}


def estimate(p: Plan, *, cache: Any = None, prices: Any = None, store: Any = None, run_id: int | None = None,
             expected_output_tokens: int | None = None) -> PlanEstimate:
    """What executing ``p`` would send and cost, sending nothing: requests already answered in ``store``'s run
    ``run_id`` and (with ``cache``) answers the response cache holds are left out of what is sent."""
    from .models.pricing import estimate as estimate_requests
    from .models.pricing import total

    done = store.answered(run_id) if store is not None and run_id is not None else set()
    out = []
    for model in p.spec.models:
        todo = [r.request for r in p.requests if r.model == model and r.key not in done]
        out.append(estimate_requests(todo, model, cache=cache, prices=prices,
                                     expected_output_tokens=expected_output_tokens))
    return PlanEstimate(out, total(out))


# ---------------------------------------------------------------------------------------------------- execution

@dataclass(frozen=True)
class ExperimentProgress:
    """One answer landing: ``done`` of ``total`` requests this execution sends; ``stage`` "request" or "judge";
    ``run_id`` the stored run it lands in (so a display can read the partial results)."""

    stage: str
    done: int
    total: int
    model: str
    planned: PlannedRequest | None = None
    response: ChatResponse | None = None
    run_id: int | None = None


@dataclass
class ExecuteResult:
    run_id: int
    status: str
    planned: int = 0  # requests in the plan
    already: int = 0  # answered before this execution
    sent: int = 0  # requests this execution tried to answer (cache hits included)
    answered: int = 0
    errors: int = 0
    not_run: int = 0
    judged: int = 0

    def to_json(self) -> dict:
        return asdict(self)


def _save_plan(p: Plan, store: Any, run_id: int) -> dict[str, int]:
    for pos, (iid, d) in enumerate(p.dissections.items()):
        inst = next(i for i in p.spec.instances if i.id == iid)
        store.save_dissection(run_id, iid, pos, d.prompt, inst.expected, d.to_json(p.spec.dissector))
    store.save_variants(run_id, [
        {"variant_id": pv.variant_id, "instance_id": pv.instance_id, "position": pos,
         "component": pv.variant.component, "strategy": pv.variant.strategy,
         "seed": None if pv.is_clean else pv.variant.seed, "text": pv.variant.text,
         "edits": [[e.start, e.end, e.replacement] for e in pv.variant.edits], "note": pv.variant.note,
         "ppl": p.clean_ppl.get(pv.instance_id) if pv.is_clean else pv.variant.ppl,
         "ppl_ratio": pv.variant.ppl_ratio, "kept": pv.variant.kept, "is_clean": pv.is_clean}
        for pos, pv in enumerate(p.variants)])
    store.save_skipped(run_id, p.skipped)
    return store.ensure_requests(run_id, [
        {"key": r.key, "variant_id": r.variant_id, "model": r.model, "messages_hash": messages_hash(r.request),
         "params": {k: v for k, v in r.request.to_json().items() if k != "messages"}, "position": pos}
        for pos, r in enumerate(p.requests)])


def _runner_for(runner: Any, model: str) -> Any:
    from .models.runner import Runner

    if runner is None:
        from .models.base import get_backend

        return Runner(get_backend(model))
    if isinstance(runner, Runner):
        from .models.base import parse_spec

        if runner.backend.spec != parse_spec(model):
            raise ExperimentError(f"the runner is for {runner.backend.spec}, not {model}; pass a mapping or a "
                                  f"callable SPEC → Runner for several models")
        return runner
    if isinstance(runner, Mapping):
        return runner[model]
    return runner(model)


def execute(p: Plan, store: Any, *, run_id: int | None = None, name: str | None = None, runner: Any = None,
            progress: Callable[[ExperimentProgress], None] | None = None, cancel: threading.Event | None = None,
            retry_errors: bool = True, judge: bool = True) -> ExecuteResult:
    """Run ``p`` into ``store`` (a :class:`~.store.RunStore`): a new run, or the run ``run_id`` (same spec) carried on.
    Sends only the requests without a stored answer (and, unless ``retry_errors`` is False, those that failed
    before), stores each answer as it lands, then judges the answers not judged yet.

    ``runner``: a :class:`~.models.runner.Runner` (one model), a mapping SPEC → Runner, or a callable SPEC → Runner;
    default ``Runner(get_backend(spec))`` with the response cache. ``cancel``: an event; once set, nothing new starts
    and the run is stored as ``interrupted`` with what finished (``resume`` carries on).

    One execution of a run at a time: the run's lease (:meth:`~.store.RunStore.holding`) is taken before anything is
    written and released at the end, whatever happens; while another execution holds it, :class:`~.store.RunBusyError`
    and nothing is sent."""
    spec_json = p.spec.to_json()
    if run_id is None:
        run_id = store.create_run(name or p.spec.name or "", spec_json)
    else:
        stored = store.get_run(run_id).spec
        if stored.get("instances") != spec_json["instances"] or stored.get("models") != spec_json["models"]:
            raise ExperimentError(f"run {run_id} was made from another spec; start a new run for this one")
    with store.holding(run_id) as lease:
        return _execute(p, store, run_id, lease, runner, progress, cancel, retry_errors, judge)


def _execute(p: Plan, store: Any, run_id: int, lease: Heartbeat, runner: Any,
             progress: Callable[[ExperimentProgress], None] | None, cancel: threading.Event | None,
             retry_errors: bool, judge: bool) -> ExecuteResult:
    """:func:`execute` under the run's ``lease`` (a :class:`~.lease.Heartbeat`): stops at the next answer when it is
    cancelled or the lease is lost, and writes statuses only while the lease is held."""
    from .models.runner import is_not_run

    def stopping() -> bool:
        return (cancel is not None and cancel.is_set()) or lease.lost.is_set()

    ids = _save_plan(p, store, run_id)
    answered = store.answered(run_id)
    failed = {e["request_id"] for e in store.errors(run_id) if e["stage"] == "request"}
    key_of = {v: k for k, v in ids.items()}
    failed_keys = {key_of[i] for i in failed if i in key_of}
    result = ExecuteResult(run_id, "running", planned=len(p.requests), already=len(answered))
    store.set_status(run_id, "running", lease.owner)
    todo_all = [r for r in p.requests if r.key not in answered and (retry_errors or r.key not in failed_keys)]
    result.sent = len(todo_all)
    done = 0
    lock = threading.Lock()
    cancelled = False
    try:
        for model in p.spec.models:
            todo = [r for r in todo_all if r.model == model]
            if not todo:
                continue
            if stopping():
                cancelled = True
                break
            run = _runner_for(runner, model)
            saved: set[int] = set()
            previous = run.progress

            def land(pr: Any, todo: list[PlannedRequest] = todo, run: Any = run, saved: set[int] = saved,
                     previous: Any = previous, model: str = model) -> None:
                nonlocal done
                planned = todo[pr.index]
                _record(store, run_id, ids[planned.key], pr.response, result, is_not_run)
                with lock:
                    saved.add(pr.index)
                    done += 1
                if previous is not None:
                    previous(pr)
                if progress is not None:
                    progress(ExperimentProgress("request", done, result.sent, model, planned, pr.response, run_id))
                if stopping():
                    run.cancel()

            run.progress = land
            try:
                outcome = run.run([r.request for r in todo])
            finally:
                run.progress = previous
            for i, (planned, response) in enumerate(zip(todo, outcome.responses)):
                if i not in saved:  # a progress callback that failed must not lose the answer
                    _record(store, run_id, ids[planned.key], response, result, is_not_run)
            if outcome.stats.cancelled or stopping():
                cancelled = True
                break
        if judge:
            result.judged = judge_run(store, run_id, p.spec, progress=progress)
    except BaseException:
        store.set_status(run_id, "interrupted", lease.owner)
        raise
    result.status = "interrupted" if cancelled else "done"
    store.set_status(run_id, result.status, lease.owner)
    return result


def _record(store: Any, run_id: int, request_id: int, response: ChatResponse, result: ExecuteResult,
            is_not_run: Callable[[ChatResponse], bool]) -> None:
    if response.error is None:
        store.save_response(request_id, response)
        result.answered += 1
    elif is_not_run(response):
        result.not_run += 1
    else:
        store.save_error(run_id, request_id, response.error)
        result.errors += 1


def _response(answer: Mapping[str, Any]) -> ChatResponse:
    return ChatResponse(text=answer["text"], tokens=tuple(TokenProb(str(t), float(pr)) for t, pr in answer["tokens"]))


def judge_run(store: Any, run_id: int, spec: ExperimentSpec | None = None, *,
              progress: Callable[[ExperimentProgress], None] | None = None, wait_for_clean: bool = False) -> int:
    """Judge every answered, unjudged request of run ``run_id`` with the spec's criterion; returns how many were
    judged. A variant's answer is judged against the instance's expected answer and the same model's answer to the
    clean prompt; a clean prompt's answer by ``judge_clean`` (for "differs" it is the reference). An LLM judge is
    given the instance's clean prompt as the task (``questions``).

    ``wait_for_clean`` (judging a run still in progress): a variant whose criterion needs the clean answer and whose
    clean answer has not landed yet is left unjudged for a later call instead of being judged without it."""
    import inspect

    spec = spec or ExperimentSpec.from_json(store.get_run(run_id).spec)
    criterion = spec.criterion_object()
    answers = store.answers(run_id)
    clean = {(a["model"], a["instance_id"]): _response(a) for a in answers if a["is_clean"]}
    todo = [a for a in answers if not a["judged"] and not (
        wait_for_clean and criterion.needs_clean and not a["is_clean"] and (a["model"], a["instance_id"]) not in clean)]
    if not todo:
        return 0
    prompts = {d["instance_id"]: d["prompt"] for d in store.dissections(run_id)}
    judged: dict[int, Any] = {}
    for a in todo:
        if a["is_clean"]:
            judged[a["request_id"]] = criterion.judge_clean(_response(a), a["expected"])
    variants = [a for a in todo if not a["is_clean"]]
    if variants:
        options: dict[str, Any] = {}
        if "questions" in inspect.signature(criterion.judge_many).parameters:
            options["questions"] = [prompts.get(a["instance_id"]) for a in variants]
        found = criterion.judge_many([_response(a) for a in variants], [a["expected"] for a in variants],
                                     [clean.get((a["model"], a["instance_id"])) for a in variants], **options)
        judged.update((a["request_id"], j) for a, j in zip(variants, found))
    for k, a in enumerate(todo):
        j = judged[a["request_id"]]
        store.save_judgment(a["request_id"], j.correct, j.score, j.reason, spec.criterion)
        if progress is not None:
            progress(ExperimentProgress("judge", k + 1, len(todo), a["model"]))
    return len(todo)


# -------------------------------------------------------------------------------------------------- reopening

def _dissection_from_json(prompt: str, data: Mapping[str, Any]) -> Dissection:
    sents = tuple(Sentence(s["start"], s["end"], s["text"], frozenset(Component.parse(c) for c in s["labels"]))
                  for s in data.get("sentences", ()))
    return Dissection(prompt, sents, tuple(s.get("source", "") for s in data.get("sentences", ())))


def load_plan(store: Any, run_id: int) -> Plan:
    """The plan of a stored run, rebuilt from what the store holds (no perturbing, no scoring)."""
    spec = ExperimentSpec.from_json(store.get_run(run_id).spec)
    dissections = {d["instance_id"]: _dissection_from_json(d["prompt"], d["dissection"])
                   for d in store.dissections(run_id)}
    variants: list[PlannedVariant] = []
    clean_ppl: dict[str, float] = {}
    for row in store.variants(run_id):
        if row["is_clean"]:
            v = _clean_variant(row["text"])
            if row["ppl"] is not None:
                clean_ppl[row["instance_id"]] = row["ppl"]
        else:
            v = Variant(row["strategy"], row["component"], row["seed"], row["text"],
                        tuple(Edit(*e) for e in row["edits"]), row["note"], row["ppl"], row["ppl_ratio"], row["kept"])
        variants.append(PlannedVariant(row["variant_id"], row["instance_id"], v))
    requests, unsent = _requests(spec, dissections, variants)
    skipped = [(s["instance_id"], s["component"], s["strategy"], s["reason"]) for s in store.skipped(run_id)]
    return Plan(spec, dissections, variants, requests, skipped, clean_ppl, unsent)


def resume(store: Any, run_id: int, **options: Any) -> ExecuteResult:
    """Carry on the stored run ``run_id``: send only what is missing (options as for :func:`execute`)."""
    return execute(load_plan(store, run_id), store, run_id=run_id, **options)


# ----------------------------------------------------------------------------------------------------- results

#: The columns of :func:`results`, in order.
RESULT_COLUMNS = ("model", "component", "perturbation", "ppl_filter", "n", "successes", "asr", "asr_low", "asr_high",
                  "flip_rate", "flip_n", "flip_low", "flip_high", "pss", "pss_low", "pss_high", "pss_instances",
                  "confidence", "errors", "unjudged", "not_run", "instances")


def filter_label(keep_top: float | None) -> str:
    """The ``ppl_filter`` value of rows restricted to the filter's kept variants (e.g. ``top20%``)."""
    return "all" if keep_top is None else f"top{keep_top * 100:g}%"


def result_records(run_id: int, store: Any, *, include_clean: bool = True) -> list[dict]:
    """The metrics' records (``metrics/records.py``) of run ``run_id``: one per (request, ppl_filter row) with
    ``model``, ``component``, ``perturbation``, ``ppl_filter``, ``instance``, ``correct``, ``score``,
    ``clean_correct``, ``clean_score``, ``confidence`` (first answer token's probability, where the backend gave
    token probabilities) and the store's ``answered``/``error``. A variant the filter kept appears
    twice: under ``"all"`` and under ``"top…%"`` (see the module doc)."""
    info = store.get_run(run_id)
    keep_top = info.spec.get("keep_top")
    send_dropped = info.spec.get("send_dropped", True)
    from .metrics import first_token_confidence

    rows = store.variant_results(run_id)
    confidence = {a["request_key"]: first_token_confidence(_response(a)) for a in store.answers(run_id)}
    clean = {(r["model"], r["instance_id"]): r for r in rows if r["is_clean"]}
    out: list[dict] = []
    for r in rows:
        base = {"model": r["model"], "instance": r["instance_id"], "correct": r["correct"], "score": r["score"],
                "answered": r["answered"], "error": r["error"], "variant_id": r["variant_id"],
                "confidence": confidence.get(r["request_key"])}
        if r["is_clean"]:
            if include_clean:
                out.append({**base, "component": CLEAN, "perturbation": CLEAN, "ppl_filter": "all",
                            "clean_correct": None, "clean_score": None})
            continue
        c = clean.get((r["model"], r["instance_id"]))
        base.update(component=r["component"], perturbation=r["strategy"],
                    clean_correct=None if c is None else c["correct"], clean_score=None if c is None else c["score"])
        if keep_top is None or send_dropped:
            out.append({**base, "ppl_filter": "all"})
        if keep_top is not None and r["kept"]:
            out.append({**base, "ppl_filter": filter_label(keep_top)})
    return out


def results(run_id: int, store: Any, *, include_clean: bool = True) -> Any:
    """One row per cell (model × component × perturbation × ppl_filter) of run ``run_id``, columns
    :data:`RESULT_COLUMNS`, computed by :func:`metrics.summarize` over :func:`result_records`:

    - ``n``: judged answers; ``successes``: answers judged not correct (attack successes); ``asr`` = successes / n
      with its Wilson 95% interval (NaN when n is 0). Provider errors (``errors``), answers the criterion could not
      judge (``unjudged``) and requests never run (``not_run``, e.g. cancelled) are outside ``n``.
    - ``flip_rate``: successes among the ``flip_n`` answers whose instance's clean prompt the same model answered
      correctly: how often a perturbation breaks an answer that was right.
    - ``pss``: ProSA's sensitivity over each instance's prompts in the cell plus its clean prompt (Y = correctness
      0/1), averaged over ``pss_instances`` instances. ``pss_low``/``pss_high``: its percentile bootstrap 95%
      interval over those instances (1000 resamples, seed 0: the same run always gives the same interval); NaN when
      the cell has fewer than two instances with a PSS, since one instance has no spread to resample.
    - ``confidence``: mean decoding confidence (ProSA; None where the backend gives no token probabilities).
    - ``include_clean``: a row per model with component and perturbation ``clean``: its ASR is the clean prompts'
      failure rate.
    """
    import pandas as pd

    from .metrics import group_by, summarize

    records = result_records(run_id, store, include_clean=include_clean)
    by = ("model", "component", "perturbation", "ppl_filter")
    summary = summarize(records, by=by)
    groups = group_by(records, by)
    for row in summary:
        members = groups[tuple(row[k] for k in by)]
        row["errors"] = sum(1 for r in members if not r["answered"] and r["error"])
        row["not_run"] = sum(1 for r in members if not r["answered"] and not r["error"])
        row["unjudged"] = sum(1 for r in members if r["answered"] and r["correct"] is None)
        row["instances"] = len({r["instance"] for r in members})
    order = {c: i for i, c in enumerate((CLEAN,) + DEFAULT_COMPONENTS + (WHOLE_PROMPT,))}
    frame = pd.DataFrame(summary, columns=list(RESULT_COLUMNS))
    if not frame.empty:
        frame["_o"] = frame["component"].map(lambda c: order.get(c, len(order)))
        frame = frame.sort_values(["model", "_o", "perturbation", "ppl_filter"], kind="stable").drop(columns="_o")
        frame = frame.reset_index(drop=True)
    return frame
