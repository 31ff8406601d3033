"""The ``anthropic`` backend: the official SDK's ``AsyncAnthropic`` Messages API (``anthropic:<model>``).

The SDK is imported on first use; its own retries are off (the runner retries, honouring ``retry-after`` and the
``anthropic-ratelimit-*-reset`` headers). System messages go into the request's ``system`` field, the other turns
into ``messages`` (consecutive turns of one role are merged: the API wants them alternating). The answer is the text
of the ``text`` content blocks (``thinking`` blocks are left out); usage gives the tokens (input counts cache reads
and writes as well).

Sampling: SDK 2.x sends API version 2026-10-21, which refuses ``temperature``, ``top_p`` and ``top_k`` on every model,
and has dropped them from ``messages.create``; with such an SDK they are not sent (the model samples with its own
settings). With an SDK whose ``messages.create`` still takes ``temperature``, temperature and top_p are sent.
The API has no seed and no logprobs: ``seed`` is ignored and no token probabilities come back.
"""
from __future__ import annotations

import inspect
from typing import Any

from .base import ChatRequest, ChatResponse, ModelSpec, RequestError, register_provider
from .remote import RemoteBackend


def sdk_takes_sampling(client: Any) -> bool:
    """True when this SDK's ``messages.create`` still takes ``temperature``."""
    try:
        return "temperature" in inspect.signature(client.messages.create).parameters
    except (TypeError, ValueError):
        return False


class AnthropicBackend(RemoteBackend):
    """Messages through ``AsyncAnthropic``; options as in :class:`~.remote.RemoteBackend`, plus ``base_url`` (a
    proxy or a test server)."""

    provider = "anthropic"
    sdk_module = "anthropic"

    def __init__(self, spec: ModelSpec | str, *, base_url: str | None = None, **options: Any) -> None:
        super().__init__(spec, **options)
        self.base_url = base_url

    def _new_client(self, sdk: Any, options: dict[str, Any]) -> Any:
        if self.base_url:
            options["base_url"] = self.base_url
        return sdk.AsyncAnthropic(**options)

    def build_params(self, request: ChatRequest, sampling: bool = False) -> dict[str, Any]:
        """The keyword arguments of ``messages.create`` for ``request`` (``sampling``: send temperature/top_p)."""
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        turns: list[dict[str, Any]] = []
        for m in request.messages:
            if m.role == "system":
                continue
            if m.role not in ("user", "assistant"):
                raise RequestError(f"unknown message role {m.role!r}", retryable=False)
            if turns and turns[-1]["role"] == m.role:
                turns[-1]["content"] += "\n\n" + m.content
            else:
                turns.append({"role": m.role, "content": m.content})
        if not turns:
            raise RequestError("the request has no user message", retryable=False)
        params: dict[str, Any] = {"model": self.spec.model, "max_tokens": request.max_tokens, "messages": turns}
        if system:
            params["system"] = system
        if request.stop:
            params["stop_sequences"] = list(request.stop)
        if sampling:
            params["temperature"] = request.temperature
            if request.top_p is not None:
                params["top_p"] = request.top_p
        return params

    def parse(self, message: Any) -> ChatResponse:
        """A :class:`ChatResponse` from a ``Message`` (RequestError if it is not one)."""
        content = getattr(message, "content", None)
        if content is None or getattr(message, "type", "message") != "message":
            raise RequestError("malformed response: not a message", retryable=True)
        text = "".join(getattr(block, "text", "") or "" for block in content if getattr(block, "type", "") == "text")
        usage = getattr(message, "usage", None)
        inputs = 0
        if usage is not None:
            for name in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
                inputs += int(getattr(usage, name, 0) or 0)
        return ChatResponse(text=text, input_tokens=inputs,
                            output_tokens=int(getattr(usage, "output_tokens", 0) or 0) if usage is not None else 0,
                            finish_reason=getattr(message, "stop_reason", None))

    async def _call(self, client: Any, request: ChatRequest, timeout: float) -> Any:
        return await client.messages.create(**self.build_params(request, sampling=sdk_takes_sampling(client)),
                                            timeout=timeout)


@register_provider("anthropic")
def _factory(spec: ModelSpec, **options: Any) -> AnthropicBackend:
    return AnthropicBackend(spec, **options)
