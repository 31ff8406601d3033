"""Scripted model backends for tests: the batch loop once, each test module's script in a small subclass."""
from __future__ import annotations

import hashlib
from typing import ClassVar

from promptanatomy_core.models.base import Backend, ChatResponse


def prompt_hash(text: str) -> int:
    """A stable number from a prompt, for answers that differ between prompts but not between runs."""
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


class ScriptedBackend(Backend):
    """A batch backend whose ``answer`` to each prompt is scripted; every prompt sent is recorded in ``sent`` (as
    ``record`` writes it; each subclass keeps its own list)."""

    max_concurrency = 1
    sent: ClassVar[list[str]] = []

    def generate(self, requests):
        out = []
        for r in requests:
            text = r.messages[-1].content
            type(self).sent.append(self.record(text))
            out.append(self.answer(text))
        return out

    def record(self, text: str) -> str:
        return text

    def answer(self, text: str) -> ChatResponse:
        raise NotImplementedError
