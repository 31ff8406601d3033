"""The Start page's one-button analysis: the defaults, a dry count of what it will send with a time estimate, and the
partial results read from the run store while answers land.

The defaults follow the paper: the five components and the control group, the five ComPerturb strategies, the 20%
perplexity filter; ``samples`` variants are sent per cell, so ``samples / 20%`` candidates are made and scored per
cell and only the kept ones are sent (``send_dropped=False``). The run itself is the Run page's: ``ui.run.make_plan``
→ ``ui.run.start``, stored in the run store, resumable.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from promptanatomy_core.experiment import DEFAULT_COMPONENTS, ExperimentSpec
from promptanatomy_core.perturb import COMPERTURB, DEFAULT_RATIO
from promptanatomy_core.scoring.filter import DEFAULT_KEEP_TOP
from promptanatomy_core.speed import DEFAULT, Speeds, is_local
from promptanatomy_core.types import CONTROL, Dissection

from . import run as ui_run

#: Session key: the last one-button run of this session, {"run_id": int, "dissection_key": str}.
LAST = "pa.quick.last"
#: Rough CPU speed of the embedded model scoring perplexity (tokens a second), for the estimate until the scorer has
#: measured its own in this process (``PerplexityScorer.tokens_per_second``).
PPL_TOKENS_S = 3000.0
#: Seconds between two refreshes of the partial results while a run is going.
REFRESH_S = 3.0


@dataclass(frozen=True)
class QuickSettings:
    """The one-button run's budget: variants sent per cell, the answers' length, the seed and the edit ratio."""

    samples: int = 2
    max_tokens: int = 64
    seed: int = 0
    ratio: float = DEFAULT_RATIO
    keep_top: float = DEFAULT_KEEP_TOP

    @property
    def candidates(self) -> int:
        """Variants made and scored per cell so that the filter keeps ``samples`` of them."""
        return max(self.samples, math.ceil(self.samples / self.keep_top - 1e-9))


def components_of(dissection: Dissection) -> tuple[str, ...]:
    """The components present in ``dissection`` (canonical order) and the control group."""
    present = {c.value for c in dissection.components()}
    return tuple(c for c in DEFAULT_COMPONENTS if c in present or c == CONTROL)


def quick_spec(dissection: Dissection, dissector: str, dissection_key: str, models: list, settings: QuickSettings,
               expected: str | None = None) -> ExperimentSpec:
    """The spec of the one-button run on ``dissection`` against the sidebar's ``models`` (ModelChoice): every
    component present and the control group × every strategy, the perplexity filter, only kept variants sent;
    criterion ``contains`` with an expected answer, else ``differs`` (the clean prompt's answer is the reference)."""
    first = models[0]
    return ui_run.prompt_spec(
        dissection, dissector, dissection_key, expected, models=tuple(m.spec for m in models),
        components=components_of(dissection), strategies=COMPERTURB, n=settings.candidates, ratio=settings.ratio,
        seed=settings.seed, keep_top=settings.keep_top, send_dropped=False, max_tokens=settings.max_tokens,
        temperature=first.temperature, system_mode=first.system_mode,
        criterion="contains" if (expected or "").strip() else "differs", name="Quick analysis")


@dataclass(frozen=True)
class DryCount:
    """What the one-button run will do, counted without a model: cells filled, candidates scored, requests per model
    (the clean prompt included); for its time: the tokens the perplexity filter reads (candidates and the clean
    prompt), the prompt's tokens, and the local SPECs among the models."""

    cells: int
    skipped: int
    candidates: int
    requests_per_model: int
    models: int
    scored_tokens: float = 0.0
    prompt_tokens: float = 0.0
    local: tuple[str, ...] = ()

    @property
    def requests(self) -> int:
        return self.requests_per_model * self.models


def _tokens(text: str) -> float:
    return len(text) / 4.0  # about four characters a token in English prompts


@st.cache_data(show_spinner=False, max_entries=32)
def dry_count(_dissection: Dissection, dissection_key: str, settings: QuickSettings, model_specs: tuple[str, ...]
              ) -> DryCount:
    """Perturb as the run will (offline SER: no model) and count; cached per dissection (``dissection_key``),
    settings and models (the time is :func:`time_estimate`'s, from speeds that change as runs land)."""
    from promptanatomy_core.perturb import perturb_grid
    from promptanatomy_core.scoring.filter import keep_count

    grid = perturb_grid(_dissection, components_of(_dissection), COMPERTURB, ratio=settings.ratio,
                        seed=settings.seed, n=settings.candidates, params={"SER": {"offline": True}})
    sizes: dict[tuple[str, str], int] = {}
    texts = set()
    for v in grid.all():
        if v.text.strip():
            sizes[(v.component, v.strategy)] = sizes.get((v.component, v.strategy), 0) + 1
            texts.add(v.text)
    sent = sum(keep_count(n, settings.keep_top) for n in sizes.values())
    prompt_tokens = _tokens(_dissection.prompt)
    return DryCount(len(sizes), len(grid.skipped), len(texts), sent + 1, len(model_specs),
                    sum(_tokens(t) for t in texts) + prompt_tokens, prompt_tokens,
                    tuple(m for m in model_specs if is_local(m)))


def ppl_tokens_s() -> float | None:
    """The perplexity scorer's throughput measured in this process (None before it has scored enough)."""
    from . import engine

    rate = getattr(engine.get_scorer(), "tokens_per_second", None)
    return float(rate) if isinstance(rate, (int, float)) and rate > 0 else None


def time_estimate(count: DryCount, settings: QuickSettings, speeds: dict[str, Speeds] | None = None,
                  ppl_rate: float | None = None) -> str | None:
    """The local models' time for the run: scoring the candidates plus every answer at full length, and where the
    speeds come from (``about 31 s, rough default speed``); None when no local model runs. ``speeds`` (SPEC →
    Speeds) and ``ppl_rate`` (tokens a second) default to this machine's measured ones (:func:`ui.run.local_speeds`,
    :func:`ppl_tokens_s`), the defaults where there are none."""
    if not count.local:
        return None
    speeds = ui_run.local_speeds(count.local) if speeds is None else speeds
    ppl_rate = ppl_tokens_s() if ppl_rate is None else ppl_rate
    seconds = count.scored_tokens / (ppl_rate or PPL_TOKENS_S)
    answers = [speeds.get(m, DEFAULT) for m in count.local]
    seconds += count.requests_per_model * sum(s.seconds(count.prompt_tokens, settings.max_tokens) for s in answers)
    return ui_run.timed(seconds, [ppl_rate is not None, *(s.measured for s in answers)])


@dataclass
class Partial:
    """The results frame of a run (judged so far) and how far the run is."""

    run_id: int
    status: str
    requests: int
    responses: int
    errors: int
    frame: Any


def partial(run_id: int) -> Partial:
    """Judge what can be judged of run ``run_id`` (never a variant before its clean answer) and read its cells."""
    from promptanatomy_core.experiment import judge_run, results

    from . import results as ui_results

    with ui_results.open_store() as store:
        judge_run(store, run_id, wait_for_clean=True)
        info = store.get_run(run_id)
        return Partial(run_id, info.status, info.requests, info.responses, info.errors, results(run_id, store))


def settled(run_id: int, timeout: float = 120.0, poll: float = 0.5) -> Partial:
    """:func:`partial` once the run is no longer ``running``, or after ``timeout`` seconds. A stopped script leaves
    its execution unwinding for a moment (the batch in flight lands, then the run is stored as interrupted) while
    Streamlit already runs the page again. Polls only the run's status; judges and reads the cells once."""
    from . import results as ui_results

    deadline = time.monotonic() + timeout
    with ui_results.open_store() as store:
        while store.get_run(run_id).status == "running" and time.monotonic() < deadline:
            time.sleep(poll)
    return partial(run_id)


def throttled(draw: Callable[[Partial], None], every: float = REFRESH_S) -> Callable[[Any], None]:
    """A progress callback for ``ui.run.start`` that calls ``draw`` with the partial results at most every
    ``every`` seconds (the first answer draws at once)."""
    last = [0.0]

    def on_progress(ev: Any) -> None:
        if ev.stage != "request" or ev.run_id is None:
            return
        now = time.monotonic()
        if now - last[0] >= every or ev.done == ev.total:
            last[0] = now
            draw(partial(ev.run_id))

    return on_progress
