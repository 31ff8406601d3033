"""Tokens and cost: a price table for current OpenAI and Anthropic models, token counts, and the dry-run estimate.

Prices are US dollars per million tokens (input, output), standard tier, short context, no batch or cache discount,
as published by the providers (checked on :data:`PRICES_AS_OF`). They change: override or extend them with a JSON or
TOML file (``PROMPTANATOMY_PRICES`` or ``--prices``) or a dict, e.g. ``{"openai:gpt-6-luna": [0.10, 0.50]}`` or
``{"gpt-6-luna": {"input": 0.10, "output": 0.50}}``. A model name matches its entry exactly or as a dated snapshot
(``gpt-4o-mini-2024-07-18`` → ``gpt-4o-mini``).

Local models cost nothing; so does an OpenAI-compatible server at another base_url unless the table names its model
with that provider. A model with no price is reported as unpriced (its dollars are unknown, never silently 0).

Tokens come from the API's usage (responses) or, before a run, from a count: the model's own tokenizer for local
models, ``tiktoken`` for OpenAI models when it is installed, else about four characters a token.
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .base import Backend, ChatRequest, ChatResponse, ModelSpec

#: Environment variable naming a JSON or TOML price file that overrides the built-in table.
PRICES_ENV = "PROMPTANATOMY_PRICES"
#: The date the built-in prices were checked against the providers' pricing pages.
PRICES_AS_OF = "2026-11"
#: Per-message overhead of the chat format, in tokens (role markers), used when counting before a run.
MESSAGE_OVERHEAD = 4


@dataclass(frozen=True)
class Price:
    """Dollars per million input and output tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1e6


#: provider -> model -> (input, output) in $ per million tokens.
DEFAULT_PRICES: dict[str, dict[str, tuple[float, float]]] = {
    "openai": {
        "gpt-6-astra": (10.00, 50.00),
        "gpt-6-sol": (2.00, 10.00),
        "gpt-6.1-sol": (2.00, 10.00),
        "gpt-6-luna": (0.10, 0.50),
        "gpt-5.6-sol": (5.00, 30.00),
        "gpt-5.6-terra": (2.00, 12.00),
        "gpt-5.6-luna": (0.20, 1.20),
        "gpt-5.5": (5.00, 30.00),
        "gpt-5.5-pro": (30.00, 180.00),
        "gpt-5.4": (2.50, 15.00),
        "gpt-5.4-pro": (30.00, 180.00),
        "gpt-5.4-mini": (0.75, 4.50),
        "gpt-5.4-nano": (0.20, 1.25),
        "gpt-5.1": (1.25, 10.00),
        "gpt-5": (1.25, 10.00),
        "gpt-5-mini": (0.25, 2.00),
        "gpt-5-nano": (0.05, 0.40),
        "gpt-4.1": (2.00, 8.00),
        "gpt-4.1-mini": (0.40, 1.60),
        "gpt-4.1-nano": (0.10, 0.40),
        "gpt-4o": (2.50, 10.00),
        "gpt-4o-mini": (0.15, 0.60),
        "o3": (2.00, 8.00),
        "o3-mini": (1.10, 4.40),
        "o4-mini": (1.10, 4.40),
    },
    "anthropic": {
        "claude-fable-5-1": (10.00, 50.00),
        "claude-fable-5": (10.00, 50.00),
        "claude-opus-5-5": (4.00, 20.00),
        "claude-opus-5": (5.00, 25.00),
        "claude-sonnet-5-5": (2.00, 10.00),
        "claude-sonnet-5": (2.00, 10.00),
        "claude-haiku-5-5": (0.10, 0.50),
        "claude-opus-4-8": (5.00, 25.00),
        "claude-opus-4-7": (5.00, 25.00),
        "claude-opus-4-6": (5.00, 25.00),
        "claude-opus-4-5": (5.00, 25.00),
        "claude-sonnet-4-6": (3.00, 15.00),
        "claude-sonnet-4-5": (3.00, 15.00),
        "claude-haiku-4-5": (1.00, 5.00),
    },
}


#: A dated snapshot of a model: ``gpt-4o-mini-2024-07-18``, ``claude-haiku-4-5-20251001``, ``…-latest``.
_SNAPSHOT = re.compile(r"^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$")


class PriceTable:
    """Prices by provider and model; ``overrides`` (a mapping, see the module doc) replace or add entries."""

    def __init__(self, overrides: Mapping[str, Any] | None = None, *, defaults: bool = True) -> None:
        self._prices: dict[str, dict[str, Price]] = {}
        if defaults:
            for provider, models in DEFAULT_PRICES.items():
                for model, (inp, out) in models.items():
                    self.set(provider, model, Price(inp, out))
        if overrides:
            self.update(overrides)

    def set(self, provider: str, model: str, price: Price) -> None:
        self._prices.setdefault(provider.lower(), {})[model.lower()] = price

    def update(self, overrides: Mapping[str, Any]) -> None:
        """Add entries from ``overrides``: ``{"provider:model": [in, out]}``, ``{"model": {"input":…, "output":…}}``
        (provider guessed from the name: claude-… is anthropic, else openai) or ``{"provider": {"model": …}}``."""
        for name, value in overrides.items():
            name = str(name).strip()
            if name.lower() in {"openai", "anthropic", "local"} and isinstance(value, Mapping) and not _is_price(value):
                for model, price in value.items():
                    self.set(name, str(model), _price(price, f"{name}:{model}"))
                continue
            provider, sep, model = name.partition(":")
            if not sep:
                provider, model = ("anthropic" if name.lower().startswith("claude") else "openai"), name
            self.set(provider, model, _price(value, name))

    def lookup(self, provider: str, model: str) -> Price | None:
        """The price of ``model``: its entry, or the entry of the model it is a dated snapshot of."""
        table = self._prices.get(provider.lower(), {})
        model = (model or "").lower().strip()
        if model in table:
            return table[model]
        m = _SNAPSHOT.match(model)
        return table.get(m.group(1)) if m else None

    def price_for(self, identity: Mapping[str, Any]) -> Price | None:
        """The price for a backend's identity; local models and self-hosted servers cost 0 unless listed."""
        provider = str(identity.get("provider") or "")
        model = str(identity.get("model") or "")
        price = self.lookup(provider, model)
        if price is not None:
            return price
        if provider == "local":
            return Price(0.0, 0.0)
        if provider == "openai":
            from .keys import is_official_openai

            if not is_official_openai(identity.get("base_url")):
                return Price(0.0, 0.0)
        return None

    def cost(self, identity: Mapping[str, Any], input_tokens: int, output_tokens: int) -> float | None:
        price = self.price_for(identity)
        return None if price is None else price.cost(input_tokens, output_tokens)

    def to_json(self) -> dict[str, dict[str, list[float]]]:
        return {p: {m: [v.input, v.output] for m, v in sorted(ms.items())} for p, ms in sorted(self._prices.items())}


def _is_price(value: Any) -> bool:
    return isinstance(value, Mapping) and {"input", "output"} <= set(value)


def _price(value: Any, name: str) -> Price:
    try:
        if isinstance(value, Mapping):
            inp, out = value["input"], value["output"]
        else:
            inp, out = value
        price = Price(float(inp), float(out))
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"bad price for {name!r}: {value!r}; write [input, output] or "
                         f"{{\"input\": …, \"output\": …}} in $ per million tokens") from None
    if not (math.isfinite(price.input) and math.isfinite(price.output)) or price.input < 0 or price.output < 0:
        raise ValueError(f"bad price for {name!r}: prices must be non-negative numbers")
    return price


def read_price_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The overrides in a JSON or TOML file (TOML: by the ``.toml`` suffix)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read price file {str(p)!r}: {exc.strerror or exc}") from None
    try:
        if p.suffix.lower() == ".toml":
            import tomllib

            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"price file {str(p)!r} is not valid {'TOML' if p.suffix.lower() == '.toml' else 'JSON'}: "
                         f"{exc}") from None
    if not isinstance(data, Mapping):
        raise ValueError(f"price file {str(p)!r} must hold a table of models")
    return dict(data)


def load_prices(path: str | os.PathLike[str] | None = None, overrides: Mapping[str, Any] | None = None) -> PriceTable:
    """The built-in table, overridden by ``path`` (or ``PROMPTANATOMY_PRICES``), then by ``overrides``."""
    table = PriceTable()
    path = path or os.environ.get(PRICES_ENV) or None
    if path:
        table.update(read_price_file(path))
    if overrides:
        table.update(overrides)
    return table


# ------------------------------------------------------------------------------------------------------ token counts

@lru_cache(maxsize=8)
def _local_tokenizer(path: str) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(path)


@lru_cache(maxsize=1)
def _tiktoken_encoding() -> Any:
    try:
        import tiktoken
    except ImportError:
        return None
    try:
        return tiktoken.get_encoding("o200k_base")
    except Exception:  # the encoding file is downloaded on first use; offline it may be missing
        return None


def approx_tokens(text: str) -> int:
    """About four characters a token (English prose), at least one for non-empty text."""
    return max(1, math.ceil(len(text) / 4)) if text else 0


class TokenCounter:
    """Counts a request's input tokens before it is sent: the local model's tokenizer (with its chat template),
    tiktoken for OpenAI models where installed, else :func:`approx_tokens`. ``exact`` says which was used."""

    def __init__(self, backend: Backend | None = None, spec: ModelSpec | None = None) -> None:
        self.spec = backend.spec if backend is not None else spec
        self.backend = backend
        self._tokenizer: Any = None
        self.exact = False
        if self.spec is not None and self.spec.provider == "local":
            path = getattr(backend, "model_path", None)
            try:
                if path is None:
                    from .embedded import resolve_model

                    path = resolve_model(self.spec.model or None)
                self._tokenizer = _local_tokenizer(str(path))
                self.exact = True
            except Exception:  # no model at hand: fall back to the approximation
                self._tokenizer = None
        elif self.spec is not None and self.spec.provider == "openai" and _tiktoken_encoding() is not None:
            self.exact = True

    def text(self, text: str) -> int:
        if self._tokenizer is not None:
            return len(self._tokenizer(text, add_special_tokens=False)["input_ids"])
        enc = _tiktoken_encoding() if self.spec is not None and self.spec.provider == "openai" else None
        return len(enc.encode(text)) if enc is not None else approx_tokens(text)

    def request(self, request: ChatRequest) -> int:
        tok = self._tokenizer
        if tok is not None and getattr(tok, "chat_template", None):
            messages = [{"role": m.role, "content": m.content} for m in request.messages]
            try:
                ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
                return len(ids["input_ids"] if isinstance(ids, Mapping) else ids)
            except Exception:
                pass
        return sum(self.text(m.content) + MESSAGE_OVERHEAD for m in request.messages)


def request_cost_bound(prices: PriceTable, identity: Mapping[str, Any], counter: TokenCounter,
                       request: ChatRequest) -> float | None:
    """The most ``request`` can cost: its counted input and ``max_tokens`` of output."""
    return prices.cost(identity, counter.request(request), request.max_tokens)


def response_cost(prices: PriceTable, identity: Mapping[str, Any], response: ChatResponse) -> float | None:
    """What ``response`` cost (0 for a cache hit or an error with no usage)."""
    if response.cached:
        return 0.0
    return prices.cost(identity, response.input_tokens, response.output_tokens)


# ---------------------------------------------------------------------------------------------------------- estimate

@dataclass
class Estimate:
    """A dry run: what a batch of requests to one model would send and cost, before sending anything.
    ``dollars`` assumes every request writes ``max_tokens`` of output (an upper bound); ``dollars_expected`` assumes
    ``expected_output_tokens`` each when given."""

    model: str
    requests: int
    unique_requests: int
    cache_hits: int
    to_send: int
    input_tokens: int
    output_tokens_max: int
    dollars: float | None
    dollars_expected: float | None = None
    priced: bool = True
    price_per_mtok: list[float] | None = None
    token_count: str = "approximate"
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("dollars", "dollars_expected"):
            if data[key] is not None:
                data[key] = round(data[key], 6)
        return data


def identity_of(model: Backend | ModelSpec | str) -> tuple[dict[str, Any], Backend | None, ModelSpec]:
    """(cache identity, backend or None, spec) of ``model`` without needing an API key: remote models are named by
    their SPEC; a local model gets its backend (cheap: nothing loads until a request)."""
    from .base import get_backend, parse_spec

    if isinstance(model, Backend):
        return model.cache_identity(), model, model.spec
    spec = parse_spec(model) if isinstance(model, str) else model
    if spec.provider == "local":
        backend = get_backend(spec)
        return backend.cache_identity(), backend, spec
    return {"provider": spec.provider, "model": spec.model, "base_url": spec.base_url}, None, spec


def estimate(requests: Sequence[ChatRequest], model: Backend | ModelSpec | str, *, cache: Any = None,
             prices: PriceTable | None = None, expected_output_tokens: int | None = None) -> Estimate:
    """Count what running ``requests`` on ``model`` (a backend or a SPEC; no key needed) would send, leaving out
    what ``cache`` already holds, and what it would cost."""
    from .cache import request_key

    prices = prices or load_prices()
    identity, backend, spec = identity_of(model)
    counter = TokenCounter(backend, spec)
    seen: dict[str, ChatRequest] = {}
    for r in requests:
        seen.setdefault(request_key(identity, r), r)
    hits = sum(1 for k in seen if k in cache) if cache is not None else 0
    to_send = [r for k, r in seen.items() if cache is None or k not in cache]
    input_tokens = sum(counter.request(r) for r in to_send)
    output_max = sum(r.max_tokens for r in to_send)
    price = prices.price_for(identity)
    notes: list[str] = []
    if price is None:
        notes.append(f"no price for {spec}; add one with --prices or {PRICES_ENV}")
    if not counter.exact:
        notes.append("input tokens approximated at about 4 characters a token")
    expected = None
    if price is not None and expected_output_tokens is not None:
        expected = price.cost(input_tokens, sum(min(expected_output_tokens, r.max_tokens) for r in to_send))
    return Estimate(
        model=str(spec), requests=len(requests), unique_requests=len(seen), cache_hits=hits,
        to_send=len(to_send), input_tokens=input_tokens, output_tokens_max=output_max,
        dollars=None if price is None else price.cost(input_tokens, output_max), dollars_expected=expected,
        priced=price is not None, price_per_mtok=None if price is None else [price.input, price.output],
        token_count="exact" if counter.exact else "approximate", notes=notes,
    )


def total(estimates: Iterable[Estimate]) -> dict[str, Any]:
    """The sum over several models' estimates (dollars None if any model is unpriced)."""
    items = list(estimates)
    dollars: float | None = 0.0
    for e in items:
        dollars = None if dollars is None or e.dollars is None else dollars + e.dollars
    return {"requests": sum(e.requests for e in items), "cache_hits": sum(e.cache_hits for e in items),
            "to_send": sum(e.to_send for e in items), "input_tokens": sum(e.input_tokens for e in items),
            "output_tokens_max": sum(e.output_tokens_max for e in items),
            "dollars": None if dollars is None else round(dollars, 6)}
