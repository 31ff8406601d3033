"""The model backend interface, SPEC strings and the backend registry."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Sequence


class BackendError(RuntimeError):
    """A backend could not be built or a request failed; the message says which and why."""


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

    @property
    def ok(self) -> bool:
        return self.error is None


class Backend(ABC):
    """A model that answers chat requests in batches."""

    def __init__(self, spec: ModelSpec) -> None:
        self.spec = spec

    @abstractmethod
    def generate(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        """Answer every request, in order; a failed request gives a response with ``error`` set."""


_PROVIDERS: dict[str, Callable[[ModelSpec], Backend]] = {}


def register_provider(name: str) -> Callable[[Callable[[ModelSpec], Backend]], Callable[[ModelSpec], Backend]]:
    """Register a backend factory for SPECs whose provider is ``name``."""

    def deco(factory: Callable[[ModelSpec], Backend]) -> Callable[[ModelSpec], Backend]:
        _PROVIDERS[name] = factory
        return factory

    return deco


def get_backend(spec: str | ModelSpec) -> Backend:
    """Build the backend for ``spec``."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    try:
        factory = _PROVIDERS[parsed.provider]
    except KeyError:
        raise BackendError(f"no backend for provider {parsed.provider!r} in this build; available: "
                           f"{', '.join(sorted(_PROVIDERS))}") from None
    return factory(parsed)
