"""The model backend interface, SPEC strings and the backend registry.

A backend answers batches of chat requests (:meth:`Backend.generate`). Remote backends (``openai``, ``anthropic``)
also answer one request at a time asynchronously (:meth:`Backend.acomplete`, one attempt, raising
:class:`RequestError` with what a retry needs); the runner (``runner.py``) adds concurrency, retries and the cache.
The built-in providers' modules are imported on first use, so their SDKs are imported only when needed.
"""
from __future__ import annotations

import asyncio
import importlib
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence


class BackendError(RuntimeError):
    """A backend could not be built or a request failed; the message says which and why."""


class RequestError(BackendError):
    """One attempt at one request failed. ``retryable``: whether trying again may succeed (rate limits, server
    errors, time-outs, dropped connections, malformed answers); ``retry_after``: seconds the server asked to wait
    (``Retry-After`` and rate-limit reset headers), if any; ``status``: the HTTP status, if any."""

    def __init__(self, message: str, *, retryable: bool, retry_after: float | None = None,
                 status: int | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status


@dataclass(frozen=True)
class ModelSpec:
    """A parsed SPEC string: ``local``, ``local:<id or path>``, ``openai:<model>[@<base_url>]``, ``anthropic:<model>``."""

    provider: str
    model: str = ""
    base_url: str | None = None

    def __str__(self) -> str:
        text = self.provider + (f":{self.model}" if self.model else "")
        return text + (f"@{self.base_url}" if self.base_url else "")


def parse_spec(spec: str) -> ModelSpec:
    """Parse a SPEC string; raise ValueError naming the problem."""
    spec = (spec or "").strip()
    if not spec:
        raise ValueError("empty model SPEC; use e.g. 'local', 'local:<hf id or path>', 'openai:gpt-4o-mini', "
                         "'anthropic:claude-sonnet-4-5' or 'openai:<model>@<base_url>'")
    provider, _, rest = spec.partition(":")
    provider = provider.strip().lower()
    model, base_url = rest, None
    if "@" in rest and provider == "openai":
        model, _, base_url = rest.partition("@")
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url in {spec!r} must start with http:// or https://")
    model = model.strip()
    if provider != "local" and not model:
        raise ValueError(f"model SPEC {spec!r} names no model; write {provider}:<model>")
    return ModelSpec(provider, model, base_url)


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion request; every field that changes the output is here."""

    messages: tuple[Message, ...]
    temperature: float = 0.0
    max_tokens: int = 256
    seed: int | None = None
    stop: tuple[str, ...] = ()
    logprobs: bool = False
    top_p: float | None = None
    #: Which sample this is when the same request is sampled several times (``temperature > 0``); the cache keeps
    #: one answer per index, so a rerun is reproducible and more samples add only new ones.
    sample_index: int = 0

    def to_json(self) -> dict[str, Any]:
        """Every field, as plain JSON values (messages as ``{"role", "content"}`` objects)."""
        data = asdict(self)
        data["messages"] = [{"role": m.role, "content": m.content} for m in self.messages]
        data["stop"] = list(self.stop)
        return data


@dataclass(frozen=True)
class TokenProb:
    token: str
    prob: float


@dataclass(frozen=True)
class ChatResponse:
    """A completion, or an error (``error`` set, ``text`` empty); errors never count as answers."""

    text: str = ""
    tokens: tuple[TokenProb, ...] = field(default=())
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None
    #: Why generation ended, as the backend reports it ("stop", "length", "end_turn", ...), if known.
    finish_reason: str | None = None
    #: Seconds the request took (all attempts; 0 for a cache hit).
    latency: float = 0.0
    #: True when the answer came from the response cache.
    cached: bool = False
    #: Attempts made (retries + 1); 0 for a cache hit.
    attempts: int = 1

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["tokens"] = [[t.token, t.prob] for t in self.tokens]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ChatResponse":
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["tokens"] = tuple(TokenProb(str(t), float(p)) for t, p in data.get("tokens") or ())
        return cls(**known)


class Backend(ABC):
    """A model that answers chat requests in batches."""

    #: How many requests the runner may have in flight at once by default (None: the runner's default, 8).
    max_concurrency: int | None = None

    def __init__(self, spec: ModelSpec) -> None:
        self.spec = spec

    @abstractmethod
    def generate(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        """Answer every request, in order; a failed request gives a response with ``error`` set."""

    # -- optional: one request at a time, asynchronously (remote backends) -------------------------------------------

    #: True when :meth:`acomplete` is implemented (the runner then sends requests one by one, concurrently).
    supports_async: bool = False

    async def acomplete(self, request: ChatRequest, timeout: float | None = None) -> ChatResponse:
        """One attempt at ``request``; raise :class:`RequestError` when it fails."""
        response = (await asyncio.to_thread(self.generate, [request]))[0]
        if response.error is not None:
            raise RequestError(response.error, retryable=False)
        return response

    async def aclose(self) -> None:
        """Release the clients this backend opened in the running event loop (if any)."""

    def cache_identity(self) -> dict[str, Any]:
        """What names this model in cache keys: provider, model and base_url (never a key)."""
        model_id = getattr(self, "model_id", None)  # the local backend's stable name of its checkpoint
        return {"provider": self.spec.provider, "model": model_id if isinstance(model_id, str) else self.spec.model,
                "base_url": self.spec.base_url}


_PROVIDERS: dict[str, Callable[..., Backend]] = {}
#: Built-in providers and the module that registers each (imported on first use).
_BUILTIN = {"local": ".local", "openai": ".openai_backend", "anthropic": ".anthropic_backend"}


def register_provider(name: str) -> Callable[[Callable[[ModelSpec], Backend]], Callable[[ModelSpec], Backend]]:
    """Register a backend factory for SPECs whose provider is ``name``."""

    def deco(factory: Callable[[ModelSpec], Backend]) -> Callable[[ModelSpec], Backend]:
        _PROVIDERS[name] = factory
        return factory

    return deco


def get_backend(spec: str | ModelSpec, **options: Any) -> Backend:
    """Build the backend for ``spec``; ``options`` (e.g. ``api_key=``, ``timeout=``) go to its factory."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.provider not in _PROVIDERS and parsed.provider in _BUILTIN:
        importlib.import_module(_BUILTIN[parsed.provider], __package__)
    try:
        factory = _PROVIDERS[parsed.provider]
    except KeyError:
        raise BackendError(f"no backend for provider {parsed.provider!r} in this build; available: "
                           f"{', '.join(sorted(_PROVIDERS))}") from None
    return factory(parsed, **options) if options else factory(parsed)
