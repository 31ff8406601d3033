"""How fast the local model runs on this machine, measured from what it did: the run store's recent answers.

The app says how long the local models (SPEC ``local`` or ``local:…``) will take before anything is sent. Fixed speeds
measured once on one machine are far off on another (a faster CPU, a GPU, a busier machine), so :func:`local_speeds`
fits them to the answers this machine's local models gave lately; callers fall back to :data:`DEFAULT` when it
returns None.

The model: ``seconds ≈ input_tokens / in_speed + output_tokens / out_speed``.

How the latencies are read. The local backend answers a batch of requests in one call, and the runner
(``models/runner.py``, ``_run_batches``) gives every answer of a batch the same latency: the batch's wall time
divided by the requests sent in it. One answer's latency therefore says nothing about its own tokens (a 5-token and a
64-token answer of one batch share it); a fit per answer would read that as "length costs nothing" and pull the
speeds up. So the answers are grouped back into batches — same run, same model, same latency (an exact float,
shared by a batch's answers; two batches that happen to share it merge, which a fit on sums does not mind) — and the
fit is on each batch's sums: ``Σ latency`` (the batch's wall time, less the shares of its failed requests) ≈
``Σ input / in_speed + Σ output / out_speed``. The speeds are thus throughput while batching, the per-request share the estimates need.
Answers that a backend timed one by one are batches of one and fit the same. Only answers that were sent count (a
cache hit took no model time); the first batch of a process also carries the model's loading (about a second).

The fit: least squares on the two unknowns ``1/in_speed`` and ``1/out_speed``. The batches of one run look much alike
(variants of one prompt, answers up to ``max_tokens``), so the two sums are often nearly proportional and the data do
not say how the time splits between reading and writing. The two-speed fit is kept only with at least
:data:`MIN_BATCHES_FOR_TWO` batches, both unknowns positive and each one's standard error within
:data:`MAX_REL_ERROR` of it; otherwise the default speeds are scaled by one factor fitted to the same sums (this
machine's overall pace against the defaults), which the data always determine. Speeds are clamped to
:data:`IN_RANGE` / :data:`OUT_RANGE`. None: fewer than :data:`MIN_RESPONSES` answers, or nothing positive to fit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

#: The default speeds of the embedded model (tokens a second), measured once on a busy 2-core machine: about 2 s for a
#: 64-token answer to a 330-token prompt.
DEFAULT_IN_TOKENS_S = 400.0
DEFAULT_OUT_TOKENS_S = 30.0
#: Fewer answers than this: no calibration.
MIN_RESPONSES = 8
#: How many of the newest sent answers the fit reads.
RECENT = 256
#: The two-speed fit needs this many batches (one degree of freedom for its error) ...
MIN_BATCHES_FOR_TWO = 3
#: ... and each speed's relative standard error within this.
MAX_REL_ERROR = 0.3
#: Sane ranges (tokens a second) the speeds are clamped to.
IN_RANGE = (5.0, 1e6)
OUT_RANGE = (0.2, 1e5)


@dataclass(frozen=True)
class Speeds:
    """Reading (``in_tokens_s``) and writing (``out_tokens_s``) speeds in tokens a second; ``fit`` says where they
    come from: ``"two speeds"`` (both fitted), ``"scaled"`` (the defaults scaled by one fitted factor) or
    ``"default"``; ``responses`` and ``batches``: what the fit read."""

    in_tokens_s: float = DEFAULT_IN_TOKENS_S
    out_tokens_s: float = DEFAULT_OUT_TOKENS_S
    fit: str = "default"
    responses: int = 0
    batches: int = 0

    @property
    def measured(self) -> bool:
        """True when the speeds come from this machine's answers, not the defaults."""
        return self.fit != "default"

    def seconds(self, input_tokens: float, output_tokens: float) -> float:
        """Seconds to read ``input_tokens`` and write ``output_tokens``."""
        return input_tokens / self.in_tokens_s + output_tokens / self.out_tokens_s


#: The defaults (what callers use when :func:`local_speeds` returns None).
DEFAULT = Speeds()


def is_local(spec: Any) -> bool:
    """True for a local model's SPEC (``local`` or ``local:…``)."""
    return str(spec).split(":", 1)[0].strip() == "local"


def batch_sums(rows: Iterable[Mapping[str, Any]]) -> list[tuple[float, float, float]]:
    """``(Σ input_tokens, Σ output_tokens, Σ latency)`` per batch of answers (``run_id``, ``model``, ``latency``
    equal; see the module doc); answers without a positive latency are left out."""
    groups: dict[tuple[Any, Any, float], list[float]] = {}
    for r in rows:
        latency = float(r["latency"] or 0.0)
        if not latency > 0 or not math.isfinite(latency):
            continue
        g = groups.setdefault((r["run_id"], r["model"], latency), [0.0, 0.0, 0.0])
        g[0] += float(r["input_tokens"] or 0)
        g[1] += float(r["output_tokens"] or 0)
        g[2] += latency
    return [(i, o, t) for i, o, t in groups.values()]


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return min(max(value, bounds[0]), bounds[1])


def _speeds(per_in: float, per_out: float, fit: str, responses: int, batches: int) -> Speeds:
    """Speeds from seconds per input and per output token (both positive), clamped."""
    return Speeds(_clamp(1.0 / per_in, IN_RANGE), _clamp(1.0 / per_out, OUT_RANGE), fit, responses, batches)


def _two_speeds(batches: list[tuple[float, float, float]]) -> tuple[float, float] | None:
    """Least squares ``t ≈ a·i + b·o``: ``(a, b)`` when both are positive and determined (see the module doc)."""
    n = len(batches)
    if n < MIN_BATCHES_FOR_TWO:
        return None
    sii = sum(i * i for i, _, _ in batches)
    soo = sum(o * o for _, o, _ in batches)
    sio = sum(i * o for i, o, _ in batches)
    det = sii * soo - sio * sio
    if not sii > 0 or not soo > 0 or det <= 1e-9 * sii * soo:  # a column of zeros, or the columns proportional
        return None
    siy = sum(i * t for i, _, t in batches)
    soy = sum(o * t for _, o, t in batches)
    a = (soo * siy - sio * soy) / det
    b = (sii * soy - sio * siy) / det
    if not (a > 0 and b > 0):
        return None
    s2 = sum((t - a * i - b * o) ** 2 for i, o, t in batches) / (n - 2)
    if math.sqrt(s2 * soo / det) > MAX_REL_ERROR * a or math.sqrt(s2 * sii / det) > MAX_REL_ERROR * b:
        return None
    return a, b


def fit_speeds(batches: list[tuple[float, float, float]], responses: int) -> Speeds | None:
    """Speeds fitted to per-batch ``(Σ input, Σ output, seconds)`` sums (see the module doc); None when nothing
    positive can be fitted. ``responses``: how many answers the sums hold (reported on the result)."""
    two = _two_speeds(batches)
    if two is not None:
        return _speeds(*two, "two speeds", responses, len(batches))
    d = [(i / DEFAULT_IN_TOKENS_S + o / DEFAULT_OUT_TOKENS_S, t) for i, o, t in batches]
    dd = sum(x * x for x, _ in d)
    if not dd > 0:
        return None
    k = sum(x * t for x, t in d) / dd  # this machine's seconds per default-speed second
    if not (k > 0 and math.isfinite(k)):
        return None
    return _speeds(k / DEFAULT_IN_TOKENS_S, k / DEFAULT_OUT_TOKENS_S, "scaled", responses, len(batches))


def local_speeds(store: Any, model: str | None = None, *, recent: int = RECENT,
                 min_responses: int = MIN_RESPONSES) -> Speeds | None:
    """The local model's speeds on this machine from the newest ``recent`` answers the run store ``store``
    (:class:`~.store.RunStore`) holds that local models sent (``model``: only that local SPEC; else every one);
    None with fewer than ``min_responses`` of them or no usable fit (callers then use :data:`DEFAULT`)."""
    if model is not None and not is_local(model):
        return None
    rows = store.sent_timings(provider="local", model=model, limit=recent)
    rows = [r for r in rows if float(r["latency"] or 0.0) > 0]
    if len(rows) < max(min_responses, 1):
        return None
    return fit_speeds(batch_sums(rows), len(rows))
