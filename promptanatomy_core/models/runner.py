"""The runner: sends many requests to one backend fast, cheaply and without losing anything.

- Answers come from the response cache where it has them (``cache.py``); every new answer is stored at once, so a
  stopped or crashed run keeps everything it finished. Errors are never stored.
- Identical requests are sent once: duplicates in one run share the answer, and so do identical requests of two runs
  in flight at the same time on the same runner.
- At most ``concurrency`` requests are in flight (default: the backend's ``max_concurrency``, else 8).
- A failed attempt that may succeed later (429, 408, 409, 5xx, a time-out, a dropped connection, a malformed answer)
  is retried with exponential backoff and jitter; a wait the server asks for (``Retry-After``,
  ``retry-after-ms``, ``x-ratelimit-reset-*``, ``anthropic-ratelimit-*-reset``) is honoured and pauses every request
  to that backend, so a run outlasts a 60-second rate-limit window. Each attempt has a time-out; the total time a
  request may spend waiting to retry is capped (:class:`RetryPolicy`). A request that finally fails is returned as a
  response with ``error`` set (its message, keys redacted), never as an answer.
- Results stream back through ``progress`` as they finish. :meth:`Runner.cancel` (from any thread) stops the run: what
  finished is kept and returned, the rest comes back as ``not run: cancelled``.
- ``budget_usd`` caps the spend: a request is started only while the dollars spent, plus the most every request in
  flight and this one can cost (counted input, ``max_tokens`` output), stay within it; the rest come back as
  ``not run: budget``.

Backends that answer one request at a time asynchronously (``supports_async``: openai, anthropic) are driven
concurrently; batch backends (local) get the misses in chunks of ``batch_size``, in a worker thread.
"""
from __future__ import annotations

import asyncio
import email.utils
import random
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from .base import Backend, ChatRequest, ChatResponse, Message, RequestError
from .keys import redact

#: Default number of requests in flight per backend.
DEFAULT_CONCURRENCY = 8
#: Default time-out of one attempt, in seconds.
DEFAULT_TIMEOUT = 60.0
#: Prefix of the error of a request that was never sent (cancelled, over budget).
NOT_RUN = "not run"
#: HTTP statuses worth retrying.
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})


@dataclass(frozen=True)
class RetryPolicy:
    """How failed attempts are retried.

    ``max_attempts`` attempts at most; the n-th wait is ``base_delay * 2**(n-1)`` capped at ``max_delay``, drawn with
    jitter from its upper half (``[d/2, d]``); a wait the server gives (``Retry-After``, reset headers) replaces it,
    plus up to ``jitter_s`` so the waiting requests do not all return at the same instant. A request gives up once its
    waits would pass ``max_retry_time`` seconds in all (default 180: enough for a 60-second rate-limit window).
    """

    max_attempts: int = 10
    base_delay: float = 1.0
    max_delay: float = 60.0
    max_retry_time: float = 180.0
    jitter_s: float = 0.5

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """The wait before attempt ``attempt + 1`` (``attempt`` >= 1 attempts made so far)."""
        if retry_after is not None and retry_after > 0:
            return retry_after + rng.uniform(0, self.jitter_s)
        cap = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        return rng.uniform(cap / 2, cap)


# --------------------------------------------------------------------------------------------- rate-limit headers

_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$")


def parse_duration(text: str) -> float | None:
    """Seconds in ``"1.5"``, ``"20ms"``, ``"6m0s"``, ``"1h2m3.5s"`` (OpenAI's reset headers); None if unreadable."""
    text = (text or "").strip().lower()
    if not text:
        return None
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    m = _DURATION.match(text)
    if not m or not any(m.groups()):
        return None
    h, mi, s, ms = (float(g) if g else 0.0 for g in m.groups())
    return h * 3600 + mi * 60 + s + ms / 1000


def _until(timestamp: str, now: float) -> float | None:
    """Seconds from ``now`` (epoch) until an HTTP date or an RFC 3339 timestamp; None if unreadable."""
    try:
        parsed = email.utils.parsedate_to_datetime(timestamp)
        return max(0.0, parsed.timestamp() - now)
    except (TypeError, ValueError, IndexError):
        pass
    from datetime import datetime

    try:
        return max(0.0, datetime.fromisoformat(timestamp.strip().replace("Z", "+00:00")).timestamp() - now)
    except ValueError:
        return None


def retry_after_from_headers(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """The wait, in seconds, that response ``headers`` ask for: ``retry-after-ms``, ``retry-after`` (seconds or an
    HTTP date), else the longest of the rate-limit reset headers (``x-ratelimit-reset-requests``/``-tokens``, OpenAI's
    durations; ``x-ratelimit-reset``, seconds or an epoch time; ``anthropic-ratelimit-*-reset``, RFC 3339)."""
    if not headers:
        return None
    h = {str(k).lower(): str(v) for k, v in headers.items()}
    now = time.time() if now is None else now
    if "retry-after-ms" in h:
        try:
            return max(0.0, float(h["retry-after-ms"]) / 1000)
        except ValueError:
            pass
    if "retry-after" in h:
        value = h["retry-after"].strip()
        try:
            return max(0.0, float(value))
        except ValueError:
            until = _until(value, now)
            if until is not None:
                return until
    waits: list[float] = []
    for name, value in h.items():
        if name in {"x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"}:
            d = parse_duration(value)
        elif name == "x-ratelimit-reset":
            d = parse_duration(value)
            if d is not None and d > 10 ** 9:  # an epoch time, not a duration
                d = max(0.0, d - now)
        elif name.startswith("anthropic-ratelimit-") and name.endswith("-reset"):
            d = _until(value, now)
        else:
            continue
        if d is not None:
            waits.append(d)
    return max(waits) if waits else None


def request_error_from_sdk(exc: BaseException, sdk: Any) -> RequestError:
    """A :class:`RequestError` for an exception of the OpenAI or Anthropic SDK (both share one error hierarchy)."""
    if isinstance(exc, RequestError):
        return exc
    message = redact(f"{type(exc).__name__}: {exc}")
    status_error = getattr(sdk, "APIStatusError", ())
    if status_error and isinstance(exc, status_error):
        status = int(getattr(exc, "status_code", 0) or 0)
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        wait = retry_after_from_headers(headers) if status in RETRY_STATUSES else None
        retryable = status in RETRY_STATUSES or status >= 500
        should = (headers or {}).get("x-should-retry") if headers is not None else None
        if should in ("true", "false"):
            retryable = should == "true"
        return RequestError(message, retryable=retryable, retry_after=wait, status=status)
    for name in ("APITimeoutError", "APIConnectionError", "APIResponseValidationError"):
        cls = getattr(sdk, name, None)
        if cls is not None and isinstance(exc, cls):
            return RequestError(message, retryable=True)
    if isinstance(exc, (ValueError, KeyError, TypeError, AttributeError)):  # a malformed answer (bad JSON, no choices)
        return RequestError(f"malformed response: {message}", retryable=True)
    if isinstance(exc, (OSError, asyncio.TimeoutError)):
        return RequestError(message, retryable=True)
    return RequestError(message, retryable=False)


# -------------------------------------------------------------------------------------------------------- results

@dataclass(frozen=True)
class Progress:
    """One result landing: ``done`` of ``total`` requests have their response (duplicates counted)."""

    done: int
    total: int
    index: int
    request: ChatRequest
    response: ChatResponse


@dataclass
class RunStats:
    requests: int = 0
    unique: int = 0
    cache_hits: int = 0
    merged: int = 0  # duplicates and requests answered by another run's identical request in flight
    sent: int = 0  # requests sent to the backend (at least one attempt)
    ok: int = 0
    errors: int = 0
    not_run: int = 0
    attempts: int = 0
    retries: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    unpriced: int = 0  # answers whose cost is unknown (no price for the model)
    peak_in_flight: int = 0  # the most requests this runner has had in flight at once (all its runs so far)
    elapsed_s: float = 0.0
    cancelled: bool = False
    budget_reached: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["cost_usd"] = round(self.cost_usd, 6)
        data["elapsed_s"] = round(self.elapsed_s, 3)
        return data


@dataclass
class RunResult:
    responses: list[ChatResponse]
    stats: RunStats = field(default_factory=RunStats)


def not_run(reason: str) -> ChatResponse:
    return ChatResponse(error=f"{NOT_RUN}: {reason}", attempts=0)


def is_not_run(response: ChatResponse) -> bool:
    return bool(response.error and response.error.startswith(NOT_RUN + ":"))


# --------------------------------------------------------------------------------------------------------- runner

class Runner:
    """Runs batches of requests on ``backend``; see the module doc. ``cache``: a :class:`ResponseCache`, ``None``
    (the default cache unless ``PROMPTANATOMY_NO_CACHE`` is set) or ``False`` (no cache)."""

    def __init__(self, backend: Backend, *, cache: Any = None, concurrency: int | None = None,
                 retry: RetryPolicy | None = None, timeout: float | None = DEFAULT_TIMEOUT,
                 budget_usd: float | None = None, prices: Any = None,
                 progress: Callable[[Progress], None] | None = None, batch_size: int = 16,
                 seed: int | None = None) -> None:
        from .cache import ResponseCache, cache_disabled

        self.backend = backend
        if cache is None:
            cache = False if cache_disabled() else ResponseCache()
        self.cache = cache or None
        limit = concurrency or backend.max_concurrency or DEFAULT_CONCURRENCY
        if limit < 1:
            raise ValueError(f"concurrency must be at least 1, not {limit}")
        self.concurrency = int(limit)
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.budget_usd = budget_usd
        self.progress = progress
        self.batch_size = max(1, int(batch_size))
        self._prices = prices
        self._rng = random.Random(seed)
        self.identity = backend.cache_identity()
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task] = set()
        self._inflight: dict[str, asyncio.Future] = {}
        self._sem: asyncio.Semaphore | None = None
        self._sem_loop: asyncio.AbstractEventLoop | None = None
        self._pause_until = 0.0
        self._active = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self._spent = 0.0
        self._reserved = 0.0
        self._counter: Any = None
        #: How the runner waits between attempts (tests replace it to check long waits without waiting).
        self.sleep: Callable[[float], Any] = asyncio.sleep

    # -- control ---------------------------------------------------------------------------------------------------

    def cancel(self) -> None:
        """Stop the run (safe from any thread): nothing new starts, attempts in flight are abandoned."""
        self._cancel.set()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._cancel_tasks)
            except RuntimeError:  # the loop just closed
                pass

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def _cancel_tasks(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    @property
    def prices(self) -> Any:
        if self._prices is None:
            from .pricing import load_prices

            self._prices = load_prices()
        return self._prices

    def key(self, request: ChatRequest) -> str:
        from .cache import request_key

        return request_key(self.identity, request)

    # -- running ---------------------------------------------------------------------------------------------------

    def run(self, requests: Sequence[ChatRequest]) -> RunResult:
        """Run ``requests`` to the end (or until cancelled) and return every response, in order. Works with or
        without an event loop running in this thread (with one, the run goes to a worker thread)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._run_and_close(requests))
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, self._run_and_close(requests)).result()

    async def _run_and_close(self, requests: Sequence[ChatRequest]) -> RunResult:
        try:
            return await self.arun(requests)
        finally:
            try:
                await self.backend.aclose()
            except Exception:
                pass

    async def arun(self, requests: Sequence[ChatRequest]) -> RunResult:
        """Run ``requests`` in the running event loop; see :meth:`run`."""
        started = time.monotonic()
        requests = list(requests)
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._active += 1
        if self._sem is None or self._sem_loop is not loop:
            self._sem, self._sem_loop = asyncio.Semaphore(self.concurrency), loop
        stats = RunStats(requests=len(requests))
        responses: list[ChatResponse | None] = [None] * len(requests)
        done = 0

        def land(indices: list[int], response: ChatResponse) -> None:
            nonlocal done
            for i in indices:
                responses[i] = response
                done += 1
                if self.progress is not None:
                    try:
                        self.progress(Progress(done, len(requests), i, requests[i], response))
                    except Exception:  # a failing progress display must not lose results
                        pass

        # group identical requests
        groups: dict[str, list[int]] = {}
        for i, r in enumerate(requests):
            groups.setdefault(self.key(r), []).append(i)
        stats.unique = len(groups)
        stats.merged = len(requests) - len(groups)
        todo: list[tuple[str, list[int]]] = []
        for key, indices in groups.items():
            hit = self.cache.get(key) if self.cache is not None else None
            if hit is not None:
                stats.cache_hits += 1
                land(indices, hit)
            else:
                todo.append((key, indices))

        try:
            if todo and not self._cancel.is_set():
                if self.backend.supports_async:
                    await self._run_async(requests, todo, stats, land)
                else:
                    await self._run_batches(requests, todo, stats, land)
        except asyncio.CancelledError:
            stats.cancelled = True
            self._cancel_tasks()
            raise
        finally:
            self._active -= 1
            if self._loop is loop and not self._tasks:
                self._loop = None
        for key, indices in todo:
            if responses[indices[0]] is None:
                land(indices, not_run("budget" if stats.budget_reached and not self._cancel.is_set() else "cancelled"))
        stats.cancelled = stats.cancelled or self._cancel.is_set()
        out = [r if r is not None else not_run("cancelled") for r in responses]
        for r in out:
            if is_not_run(r):
                stats.not_run += 1
        stats.peak_in_flight = max(stats.peak_in_flight, self.peak_in_flight)
        stats.elapsed_s = time.monotonic() - started
        if self._active == 0:
            self._cancel.clear()  # a cancel ends the runs it caught; the runner can run again
        return RunResult(out, stats)

    # -- bookkeeping shared by both paths ----------------------------------------------------------------------------

    def _finish(self, key: str, response: ChatResponse, stats: RunStats, reserved: float) -> ChatResponse:
        """Record a fresh response: cache it (answers only), count tokens and dollars."""
        if response.error is not None:
            response = replace(response, error=redact(response.error))
        if self.cache is not None and response.error is None:
            try:
                self.cache.set(key, response)
            except Exception:  # a full or broken disk loses the cache entry, not the answer
                pass
        stats.attempts += max(response.attempts, 0)
        stats.retries += max(response.attempts - 1, 0)
        if response.error is None:
            stats.ok += 1
        elif not is_not_run(response):
            stats.errors += 1
        stats.input_tokens += response.input_tokens
        stats.output_tokens += response.output_tokens
        cost = self.prices.cost(self.identity, response.input_tokens, response.output_tokens)
        with self._lock:
            self._reserved -= reserved
            if cost is None:
                if response.input_tokens or response.output_tokens:
                    stats.unpriced += 1
            else:
                self._spent += cost
                stats.cost_usd += cost
        return response

    def _reserve(self, request: ChatRequest, stats: RunStats) -> float | None:
        """Reserve the most ``request`` can cost against the budget; None when the budget does not allow it."""
        if self.budget_usd is None:
            return 0.0
        from .pricing import TokenCounter

        if self._counter is None:
            self._counter = TokenCounter(self.backend)
        bound = self.prices.cost(self.identity, self._counter.request(request), request.max_tokens)
        bound = 0.0 if bound is None else bound  # an unpriced model is not stopped by the budget
        with self._lock:
            if self._spent + self._reserved + bound > self.budget_usd + 1e-12:
                stats.budget_reached = True
                return None
            self._reserved += bound
        return bound

    # -- one request at a time, concurrently ------------------------------------------------------------------------

    async def _run_async(self, requests: list[ChatRequest], todo: list[tuple[str, list[int]]], stats: RunStats,
                         land: Callable[[list[int], ChatResponse], None]) -> None:
        async def one(key: str, indices: list[int]) -> None:
            request = requests[indices[0]]
            other = self._inflight.get(key)
            if other is not None:  # the same request is in flight in another run: share its answer
                response = await asyncio.shield(other)
                stats.merged += len(indices)
                land(indices, response)
                return
            if self._cancel.is_set():
                return
            reserved = self._reserve(request, stats)
            if reserved is None:
                return
            future: asyncio.Future = asyncio.get_running_loop().create_future()
            self._inflight[key] = future
            try:
                response = await self._attempts(request)
                stats.sent += 1
                response = self._finish(key, response, stats, reserved)
                if not future.done():
                    future.set_result(response)
                land(indices, response)
            except BaseException as exc:
                with self._lock:
                    self._reserved -= reserved
                if not future.done():
                    future.set_result(not_run("cancelled"))
                if not isinstance(exc, asyncio.CancelledError):
                    raise
            finally:
                if self._inflight.get(key) is future:
                    del self._inflight[key]

        # start tasks in waves no larger than needed, so a cancel or the budget stops the rest before they start
        pending: set[asyncio.Task] = set()
        queue = list(todo)
        while queue or pending:
            while queue and len(pending) < self.concurrency * 2 and not self._cancel.is_set() \
                    and not stats.budget_reached:
                key, indices = queue.pop(0)
                task = asyncio.create_task(one(key, indices))
                pending.add(task)
                self._tasks.add(task)
            if self._cancel.is_set() or stats.budget_reached:
                queue.clear()
            if not pending:
                break
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                self._tasks.discard(task)
                if not task.cancelled() and task.exception() is not None:
                    for t in pending:
                        t.cancel()
                    raise task.exception()  # type: ignore[misc]

    async def _attempts(self, request: ChatRequest) -> ChatResponse:
        """Attempts at ``request`` until an answer, a permanent error, or the retry limits."""
        assert self._sem is not None
        started = time.monotonic()
        waited = 0.0
        attempt = 0
        last: RequestError | None = None
        while True:
            pause = self._pause_until - time.monotonic()
            if pause > 0:
                await self.sleep(pause)
            attempt += 1
            async with self._sem:
                self.in_flight += 1
                self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
                try:
                    call = self.backend.acomplete(request, self.timeout)
                    if self.timeout is not None:
                        response = await asyncio.wait_for(call, self.timeout + 1.0)
                    else:
                        response = await call
                    return replace(response, latency=time.monotonic() - started, attempts=attempt, cached=False)
                except RequestError as exc:
                    last = exc
                except asyncio.TimeoutError:
                    last = RequestError(f"timed out after {self.timeout:g} s", retryable=True)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # a backend bug: report it, do not retry it
                    last = RequestError(f"{type(exc).__name__}: {exc}", retryable=False)
                finally:
                    self.in_flight -= 1
            elapsed = time.monotonic() - started
            if not last.retryable:
                return self._failed(last, attempt, elapsed)
            if attempt >= self.retry.max_attempts:
                return self._failed(last, attempt, elapsed, f"gave up after {attempt} attempts" if attempt > 1 else "")
            delay = self.retry.delay(attempt, last.retry_after, self._rng)
            if waited + delay > self.retry.max_retry_time:
                return self._failed(last, attempt, elapsed, f"gave up after {attempt} attempts: the next wait "
                                    f"({delay:.1f} s) would pass the retry limit of "
                                    f"{self.retry.max_retry_time:g} s")
            if last.retry_after is not None and last.status == 429:
                # the server said when it will take requests again: hold every request to it until then
                self._pause_until = max(self._pause_until, time.monotonic() + delay)
            waited += delay
            await self.sleep(delay)

    @staticmethod
    def _failed(error: RequestError, attempts: int, elapsed: float, prefix: str = "") -> ChatResponse:
        message = redact(str(error))
        if error.status and str(error.status) not in message:
            message = f"HTTP {error.status}: {message}"
        return ChatResponse(error=f"{prefix}: {message}" if prefix else message, attempts=attempts, latency=elapsed)

    # -- batches in a worker thread (local models) ------------------------------------------------------------------

    async def _run_batches(self, requests: list[ChatRequest], todo: list[tuple[str, list[int]]], stats: RunStats,
                           land: Callable[[list[int], ChatResponse], None]) -> None:
        assert self._sem is not None
        for start in range(0, len(todo), self.batch_size):
            if self._cancel.is_set():
                return
            chunk = todo[start:start + self.batch_size]
            reserved = []
            admitted = []
            for key, indices in chunk:
                r = self._reserve(requests[indices[0]], stats)
                if r is None:
                    break
                reserved.append(r)
                admitted.append((key, indices))
            if not admitted:
                return
            sent = [requests[indices[0]] for _, indices in admitted]
            async with self._sem:
                self.in_flight += len(sent)
                self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
                t0 = time.monotonic()
                try:
                    fresh = await asyncio.to_thread(self.backend.generate, sent)
                except Exception as exc:
                    fresh = [ChatResponse(error=f"{type(exc).__name__}: {exc}") for _ in sent]
                finally:
                    self.in_flight -= len(sent)
                per = (time.monotonic() - t0) / max(len(sent), 1)
            for (key, indices), response, res in zip(admitted, fresh, reserved):
                stats.sent += 1
                response = replace(response, cached=False, attempts=1, latency=response.latency or per)
                land(indices, self._finish(key, response, stats, res))
            if len(admitted) < len(chunk):
                return


@dataclass(frozen=True)
class ConnectionCheck:
    """The result of :func:`check_connection`: ``ok``, a message for the screen, seconds taken, the answer."""

    ok: bool
    message: str
    seconds: float = 0.0
    answer: str = ""


#: What a connection test asks.
CONNECTION_PROMPT = "Reply with the single word OK."


def check_connection(backend: Backend, timeout: float = 30.0) -> ConnectionCheck:
    """Send one tiny request to ``backend`` (no cache, one attempt) and say whether an answer came back."""
    request = ChatRequest((Message("user", CONNECTION_PROMPT),), max_tokens=5)
    started = time.monotonic()
    try:
        result = Runner(backend, cache=False, timeout=timeout, retry=RetryPolicy(max_attempts=1)).run([request])
        response = result.responses[0]
    except Exception as exc:  # a backend that cannot even start (e.g. the local model is missing)
        return ConnectionCheck(False, redact(f"{type(exc).__name__}: {exc}"), time.monotonic() - started)
    seconds = time.monotonic() - started
    if response.error is not None:
        return ConnectionCheck(False, redact(response.error), seconds)
    answer = " ".join(response.text.split())
    shown = answer if len(answer) <= 40 else answer[:39] + "…"
    return ConnectionCheck(True, f"answered {shown!r} in {seconds:.1f} s", seconds, response.text)


def run_requests(backend: Backend, requests: Sequence[ChatRequest], **options: Any) -> RunResult:
    """Shorthand: ``Runner(backend, **options).run(requests)``."""
    return Runner(backend, **options).run(requests)
