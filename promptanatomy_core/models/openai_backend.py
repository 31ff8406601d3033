"""The ``openai`` backend: the official SDK's ``AsyncOpenAI`` chat completions, at api.openai.com or at any
OpenAI-compatible ``base_url`` (vLLM, Ollama, llama.cpp, ``transformers serve``): ``openai:<model>@<base_url>``.

The SDK is imported on first use (see ``remote.py``). Its own retries are off (``max_retries=0``): the runner retries, honouring the
rate-limit headers, under its concurrency bound. Logprobs are asked for when the request says so; where the server
gives them, each generated token comes back with its probability (``exp(logprob)``).

On the OpenAI API itself, ``max_completion_tokens`` is sent (``max_tokens`` is deprecated there and refused by
reasoning models), and reasoning models (o-series, GPT-5 and later, except ``*-chat*``) get no temperature or top_p,
which they reject; other servers get the classic ``max_tokens`` and every sampling setting.
"""
from __future__ import annotations

import math
import re
from typing import Any, Mapping

from .base import ChatRequest, ChatResponse, ModelSpec, RequestError, TokenProb, register_provider
from .keys import is_official_openai
from .remote import RemoteBackend

#: Models on the OpenAI API that take no temperature/top_p (reasoning models).
REASONING_MODEL = re.compile(r"^(o\d|gpt-[5-9]|gpt-\d\d)")


class OpenAIBackend(RemoteBackend):
    """Chat completions through ``AsyncOpenAI``; options as in :class:`~.remote.RemoteBackend`, plus
    ``default_headers`` sent with every request."""

    provider = "openai"
    sdk_module = "openai"

    def __init__(self, spec: ModelSpec | str, *, default_headers: Mapping[str, str] | None = None,
                 **options: Any) -> None:
        super().__init__(spec, **options)
        self.official = is_official_openai(self.spec.base_url)
        self._default_headers = dict(default_headers or {})

    def _new_client(self, sdk: Any, options: dict[str, Any]) -> Any:
        if self.spec.base_url:
            options["base_url"] = self.spec.base_url
        if self._default_headers:
            options["default_headers"] = self._default_headers
        return sdk.AsyncOpenAI(**options)

    def build_params(self, request: ChatRequest) -> dict[str, Any]:
        """The keyword arguments of ``chat.completions.create`` for ``request``."""
        if not request.messages:
            raise RequestError("the request has no messages", retryable=False)
        params: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        }
        reasoning = self.official and REASONING_MODEL.match(self.spec.model) and "-chat" not in self.spec.model
        params["max_completion_tokens" if self.official else "max_tokens"] = request.max_tokens
        if not reasoning:
            params["temperature"] = request.temperature
            if request.top_p is not None:
                params["top_p"] = request.top_p
        if request.seed is not None:  # the samples of one sampled request get seeds of their own
            params["seed"] = request.seed + (request.sample_index if request.temperature > 0 else 0)
        if request.stop:
            params["stop"] = list(request.stop)
        if request.logprobs:
            params["logprobs"] = True
        return params

    def parse(self, completion: Any) -> ChatResponse:
        """A :class:`ChatResponse` from a ``ChatCompletion`` (RequestError if it holds no answer)."""
        choices = getattr(completion, "choices", None)
        if not choices:
            raise RequestError("malformed response: no choices in the completion", retryable=True)
        choice = choices[0]
        message = getattr(choice, "message", None)
        if message is None:
            raise RequestError("malformed response: the choice has no message", retryable=True)
        text = getattr(message, "content", None) or ""
        if not isinstance(text, str):
            raise RequestError(f"malformed response: message content is {type(text).__name__}", retryable=True)
        tokens: list[TokenProb] = []
        logprobs = getattr(choice, "logprobs", None)
        for item in (getattr(logprobs, "content", None) or []) if logprobs is not None else []:
            lp = getattr(item, "logprob", None)
            if lp is not None:
                tokens.append(TokenProb(str(getattr(item, "token", "")), math.exp(float(lp))))
        usage = getattr(completion, "usage", None)
        return ChatResponse(
            text=text, tokens=tuple(tokens),
            input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0) if usage is not None else 0,
            output_tokens=int(getattr(usage, "completion_tokens", 0) or 0) if usage is not None else 0,
            finish_reason=getattr(choice, "finish_reason", None),
        )

    async def _call(self, client: Any, request: ChatRequest, timeout: float) -> Any:
        return await client.chat.completions.create(**self.build_params(request), timeout=timeout)


@register_provider("openai")
def _factory(spec: ModelSpec, **options: Any) -> OpenAIBackend:
    return OpenAIBackend(spec, **options)
