"""A small OpenAI-compatible HTTP server on loopback that injects faults (a test fixture and the benchmark's server).

It answers ``POST /v1/chat/completions`` with a chat completion echoing the last user message, after ``latency``
seconds, and ``GET /health``. A user message may start with a fault tag that decides what its attempts get while
``faults`` is on:

``[429xN]``      the first N attempts get 429 with ``Retry-After: 1`` (``[429rxN]``: ``x-ratelimit-reset-requests``)
``[500xN]``      the first N attempts get 500
``[hangxN]``     the first N attempts get no answer (the server waits until the client gives up)
``[dropxN]``     the first N attempts have their connection closed without an answer
``[badjsonxN]``  the first N attempts get 200 with a body that is not JSON
``[emptyxN]``    the first N attempts get 200 with JSON that holds no choices
``[always500]``  every attempt gets 500 (until ``faults`` is turned off)
``[alwayshang]`` every attempt hangs (until ``faults`` is turned off)

The server counts the requests it is working on (``in_flight``, from a complete request until its answer is written
or its client has gone) and keeps the peak, so a test can check a client's concurrency bound from the outside.
It runs its own event loop in a daemon thread; use it as a context manager.
"""
from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections import Counter
from typing import Any

_TAG = re.compile(r"^\[(429r?|500|hang|drop|badjson|empty)x(\d+)\]|^\[(always500|alwayshang)\]")


class FaultServer:
    def __init__(self, latency: float = 0.0, host: str = "127.0.0.1", hang_s: float = 60.0) -> None:
        self.latency = latency
        self.host = host
        self.hang_s = hang_s
        self.port = 0
        self.faults = True
        self.in_flight = 0
        self.peak = 0
        self.requests = 0  # complete chat requests received (all attempts)
        self.answered = 0  # 200 answers with a valid completion
        self.attempts: Counter[str] = Counter()  # per user message
        self.statuses: Counter[str] = Counter()
        self.seen_auth: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def reset_counts(self) -> None:
        with self._lock:
            self.peak = self.in_flight
            self.requests = self.answered = 0
            self.statuses.clear()

    # -- lifecycle ----------------------------------------------------------------------------------------------------

    def start(self) -> "FaultServer":
        self._thread = threading.Thread(target=self._serve, name="fault-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("fault server did not start")
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> "FaultServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._server = loop.run_until_complete(asyncio.start_server(self._handle, self.host, 0, backlog=512))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    # -- HTTP ---------------------------------------------------------------------------------------------------------

    async def _read_request(self, reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], bytes] | None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            return None
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        body = b""
        length = int(headers.get("content-length", "0") or 0)
        if length:
            try:
                body = await reader.readexactly(length)
            except (asyncio.IncompleteReadError, ConnectionError):
                return None
        return method, path, headers, body

    @staticmethod
    def _response(status: int, body: bytes, headers: dict[str, str] | None = None,
                  content_type: str = "application/json") -> bytes:
        reason = {200: "OK", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"}.get(status, "X")
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {content_type}", f"Content-Length: {len(body)}",
                 "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        counted = False
        try:
            request = await self._read_request(reader)
            if request is None:
                return
            method, path, headers, body = request
            if method == "GET" and path.rstrip("/") in ("/health", "/v1/health"):
                writer.write(self._response(200, b'{"status":"ok"}'))
                return
            if method == "GET" and path.rstrip("/") == "/v1/models":
                writer.write(self._response(200, b'{"object":"list","data":[{"id":"fault-model","object":"model"}]}'))
                return
            if not (method == "POST" and path.rstrip("/") == "/v1/chat/completions"):
                writer.write(self._response(404, b'{"error":{"message":"not found"}}'))
                return
            with self._lock:
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
                self.requests += 1
                counted = True
                if "authorization" in headers:
                    self.seen_auth.add(headers["authorization"])
            await self._chat(reader, writer, body)
        finally:
            if counted:
                with self._lock:
                    self.in_flight -= 1
            try:
                await writer.drain()
                writer.close()
            except Exception:
                pass

    async def _chat(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, body: bytes) -> None:
        payload = json.loads(body or b"{}")
        messages = payload.get("messages") or []
        user = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
        with self._lock:
            self.attempts[user] += 1
            attempt = self.attempts[user]
        fault = None
        m = _TAG.match(user)
        if self.faults and m:
            if m.group(3):
                fault = m.group(3)[len("always"):]
            elif attempt <= int(m.group(2)):
                fault = m.group(1)
        if self.latency:
            await asyncio.sleep(self.latency)
        if fault in ("429", "429r"):
            headers = {"Retry-After": "1"} if fault == "429" else {"x-ratelimit-reset-requests": "1s"}
            self._count("429")
            writer.write(self._response(429, b'{"error":{"message":"Rate limit reached","type":"requests"}}',
                                        headers))
        elif fault == "500":
            self._count("500")
            writer.write(self._response(500, b'{"error":{"message":"The server had an error"}}'))
        elif fault == "hang":
            self._count("hang")
            try:  # wait until the client gives up (closes the connection) or hang_s passes
                await asyncio.wait_for(reader.read(1), self.hang_s)
            except (asyncio.TimeoutError, ConnectionError):
                pass
        elif fault == "drop":
            self._count("drop")
            writer.transport.abort()
        elif fault == "badjson":
            self._count("badjson")
            writer.write(self._response(200, b'{"id": "chatcmpl-1", "choices": [{"message": '))
        elif fault == "empty":
            self._count("empty")
            writer.write(self._response(200, b'{"id": "chatcmpl-1", "object": "chat.completion"}'))
        else:
            self._count("200")
            writer.write(self._response(200, json.dumps(self.completion(payload, user)).encode()))
            with self._lock:
                self.answered += 1

    def _count(self, what: str) -> None:
        with self._lock:
            self.statuses[what] += 1

    @staticmethod
    def completion(payload: dict[str, Any], user: str) -> dict[str, Any]:
        text = f"echo: {user}"
        words = text.split()
        choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": text},
                                  "finish_reason": "stop"}
        if payload.get("logprobs"):
            choice["logprobs"] = {"content": [{"token": w, "logprob": -0.5, "bytes": None, "top_logprobs": []}
                                              for w in words]}
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in payload.get("messages") or [])
        return {"id": f"chatcmpl-{abs(hash(user)) % 10 ** 8}", "object": "chat.completion", "created": int(time.time()),
                "model": payload.get("model", "fault-model"), "choices": [choice],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(words),
                          "total_tokens": prompt_tokens + len(words)}}
