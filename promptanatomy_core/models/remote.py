"""What the SDK backends (``openai``, ``anthropic``) share: the key, one async client per event loop, one attempt
per request mapped to :class:`RequestError`, and ``generate`` through the runner.

A subclass names its provider and SDK and implements :meth:`RemoteBackend._new_client` (build the SDK's async
client), :meth:`RemoteBackend._call` (one SDK call) and :meth:`RemoteBackend.parse` (the SDK's answer to a
:class:`ChatResponse`). The SDK's own retries are off (``max_retries=0``): the runner retries under its bound.
"""
from __future__ import annotations

import asyncio
import importlib
from typing import Any, Callable, ClassVar, Mapping, Sequence

from .base import Backend, BackendError, ChatRequest, ChatResponse, ModelSpec, parse_spec
from .keys import resolve_key


class RemoteBackend(Backend):
    """``api_key``: explicit key (else ``secrets``, else the environment; see ``keys.py``); ``timeout``: seconds per
    attempt; ``http_client_factory``: builds the SDK's ``httpx`` client (tests); ``concurrency``: the runner's default
    bound for this backend; ``retry``: the :class:`~.runner.RetryPolicy` that :meth:`generate` uses."""

    provider: ClassVar[str]
    sdk_module: ClassVar[str]
    supports_async = True

    def __init__(self, spec: ModelSpec | str, *, api_key: str | None = None, secrets: Mapping[str, Any] | None = None,
                 timeout: float = 60.0, http_client_factory: Callable[[], Any] | None = None,
                 concurrency: int | None = None, retry: Any = None) -> None:
        spec = parse_spec(spec) if isinstance(spec, str) else spec
        if spec.provider != self.provider:
            raise BackendError(f"{type(self).__name__} serves provider {self.provider!r}, not {spec.provider!r}")
        super().__init__(spec)
        self.__key = resolve_key(self.provider, explicit=api_key, secrets=secrets, base_url=spec.base_url)
        self.timeout = timeout
        self.retry = retry
        self._http_client_factory = http_client_factory
        self._clients: dict[int, Any] = {}
        if concurrency:
            self.max_concurrency = int(concurrency)

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}({str(self.spec)!r})"

    def sdk(self) -> Any:
        """The SDK module, imported on first use."""
        try:
            return importlib.import_module(self.sdk_module)
        except ImportError:
            raise BackendError(f"the {self.provider} backend needs the {self.sdk_module} package: "
                               f"pip install {self.sdk_module}") from None

    # -- the client: one per event loop (an httpx pool belongs to the loop that opened it) ------------------------

    def _new_client(self, sdk: Any, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def client(self) -> Any:
        loop = asyncio.get_running_loop()
        client = self._clients.get(id(loop))
        if client is None:
            options: dict[str, Any] = {"api_key": self.__key, "max_retries": 0, "timeout": self.timeout}
            if self._http_client_factory is not None:
                options["http_client"] = self._http_client_factory()
            client = self._new_client(self.sdk(), options)
            self._clients[id(loop)] = client
        return client

    async def aclose(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        client = self._clients.pop(id(loop), None)
        if client is not None:
            await client.close()

    # -- one request ----------------------------------------------------------------------------------------------

    async def _call(self, client: Any, request: ChatRequest, timeout: float) -> Any:
        raise NotImplementedError

    def parse(self, answer: Any) -> ChatResponse:
        raise NotImplementedError

    async def acomplete(self, request: ChatRequest, timeout: float | None = None) -> ChatResponse:
        sdk = self.sdk()
        try:
            answer = await self._call(self.client(), request, timeout if timeout is not None else self.timeout)
        except Exception as exc:
            from .runner import request_error_from_sdk

            raise request_error_from_sdk(exc, sdk) from None
        return self.parse(answer)

    def generate(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        """Answer ``requests`` concurrently (the runner's defaults, no cache); errors come back as responses."""
        from .runner import Runner

        return Runner(self, cache=False, timeout=self.timeout, retry=self.retry).run(requests).responses


def make_backend(spec: ModelSpec | str, *, api_key: str | None = None, secrets: Mapping[str, Any] | None = None,
                 timeout: float | None = None, concurrency: int | None = None) -> Backend:
    """Any backend from the registry, with the key options given only to the providers that take them
    (``api_key`` empty: the secrets, then the environment)."""
    from .base import get_backend

    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.provider == "local":
        backend = get_backend(parsed)
        if concurrency:
            backend.max_concurrency = int(concurrency)
        return backend
    options: dict[str, Any] = {"api_key": api_key or None, "secrets": secrets, "concurrency": concurrency}
    if timeout is not None:
        options["timeout"] = float(timeout)
    return get_backend(parsed, **options)
