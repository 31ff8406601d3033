"""The response cache: a diskcache store of answers, keyed by everything that changes the output.

The key is the sha256 of canonical JSON (sorted keys, no spaces, numbers normalised so ``0.0 == 0`` and
``1 == 1.0``) of the model's identity (provider, model, base_url) and the request (messages, temperature, max_tokens,
top_p, seed, stop, logprobs and, with ``temperature > 0``, the sample index: one entry per sample, so a rerun is
reproducible and asking for more samples adds only the new ones). API keys are never part of it.

Only answers are stored; a response with ``error`` set is refused. :class:`CachingBackend` wraps any backend with
the cache; the runner (``runner.py``) uses the same keys and adds concurrency.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from .base import Backend, ChatRequest, ChatResponse

#: Bump when the key's recipe or the stored value's shape changes (old entries are then simply not found).
KEY_VERSION = 1
#: The cache folder's name under ``settings.cache_dir()``.
FOLDER = "responses"
#: Environment variable that turns the cache off (any of 1/true/yes), like ``--no-cache``.
NO_CACHE_ENV = "PROMPTANATOMY_NO_CACHE"


def _normalise(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"cannot put {value!r} in a cache key")
        return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number
    if isinstance(value, Mapping):
        return {str(k): _normalise(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalise(v) for v in value]
    raise TypeError(f"cannot put a {type(value).__name__} in a cache key")


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: sorted keys, no whitespace, integral numbers written as integers."""
    return json.dumps(_normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(identity: Mapping[str, Any], request: ChatRequest) -> str:
    """The cache key (64 hex digits) of ``request`` sent to the model named by ``identity``."""
    payload = {
        "v": KEY_VERSION,
        "provider": identity.get("provider"),
        "model": identity.get("model"),
        "base_url": (identity.get("base_url") or "").rstrip("/") or None,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "top_p": request.top_p,
        "seed": request.seed,
        "stop": list(request.stop),
        "logprobs": request.logprobs,
        # greedy decoding gives one answer however many samples are asked for
        "sample_index": request.sample_index if request.temperature > 0 else 0,
    }
    extra = identity.get("options")
    if extra:  # backend options that change the output (e.g. the prompt format of a completion endpoint)
        payload["options"] = extra
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def cache_disabled() -> bool:
    """True when ``PROMPTANATOMY_NO_CACHE`` turns the cache off."""
    return os.environ.get(NO_CACHE_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def default_path() -> Path:
    from ..settings import cache_dir

    return cache_dir() / FOLDER


class ResponseCache:
    """Answers on disk (diskcache; safe across threads and processes). ``path`` defaults to
    ``cache_dir()/responses``."""

    def __init__(self, path: str | os.PathLike[str] | None = None, size_limit: int = 2 ** 32) -> None:
        import diskcache

        self.path = Path(path) if path is not None else default_path()
        self.path.mkdir(parents=True, exist_ok=True)
        self._store = diskcache.Cache(str(self.path), size_limit=size_limit)
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> ChatResponse | None:
        raw = self._store.get(key)
        with self._lock:
            if raw is None:
                self.misses += 1
                return None
            self.hits += 1
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            return None
        return replace(ChatResponse.from_json(data), cached=True, latency=0.0, attempts=0)

    def __contains__(self, key: str) -> bool:
        return key in self._store

    def set(self, key: str, response: ChatResponse) -> bool:
        """Store ``response`` under ``key``; an error (or an empty, failed answer) is never stored. True if stored."""
        if response.error is not None:
            return False
        data = response.to_json()
        for transient in ("cached", "latency", "attempts"):
            data.pop(transient, None)
        self._store.set(key, json.dumps(data, ensure_ascii=False))
        return True

    def delete(self, key: str) -> bool:
        return bool(self._store.delete(key))

    def info(self) -> dict[str, Any]:
        """Where the cache is, how many answers it holds and how many bytes they take."""
        return {"path": str(self.path), "entries": len(self._store), "bytes": int(self._store.volume())}

    def clear(self) -> int:
        """Remove every answer; return how many there were."""
        return int(self._store.clear())

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> "ResponseCache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CachingBackend(Backend):
    """Any backend, answering from ``cache`` where it can and storing every new answer (never an error)."""

    def __init__(self, inner: Backend, cache: ResponseCache) -> None:
        super().__init__(inner.spec)
        self.inner = inner
        self.cache = cache
        self.max_concurrency = inner.max_concurrency
        self.supports_async = inner.supports_async

    def cache_identity(self) -> dict[str, Any]:
        return self.inner.cache_identity()

    def key(self, request: ChatRequest) -> str:
        return request_key(self.cache_identity(), request)

    def generate(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        requests = list(requests)
        keys = [self.key(r) for r in requests]
        out: list[ChatResponse | None] = [self.cache.get(k) for k in keys]
        missing = [i for i, r in enumerate(out) if r is None]
        if missing:
            fresh = self.inner.generate([requests[i] for i in missing])
            for i, response in zip(missing, fresh):
                self.cache.set(keys[i], response)
                out[i] = response
        return [r if r is not None else ChatResponse(error="no response produced") for r in out]

    async def acomplete(self, request: ChatRequest, timeout: float | None = None) -> ChatResponse:
        key = self.key(request)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        response = await self.inner.acomplete(request, timeout)
        self.cache.set(key, response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()
