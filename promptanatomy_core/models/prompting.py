"""How a prompt is sent to a model: as the user message (default), as the system message, or split.

``split`` sends the sentences labelled Role as the system message and the rest of the prompt, as written, as the user
message (a sentence that carries Role among other labels goes to the system message whole). It needs a
:class:`~promptanatomy_core.types.Dissection`; without one the offline rules dissector labels the prompt. A prompt
with no Role sentence is sent as the user message alone, and so is one that would leave the user message empty.
"""
from __future__ import annotations

import re
from typing import Sequence

from ..types import Component, Dissection
from .base import ChatRequest, Message

#: The ways a prompt can be sent.
MODES = ("user", "system", "split")
#: Sent as the user message when the prompt itself goes in the system message (APIs want a user turn).
SYSTEM_MODE_USER_TEXT = "Follow the instructions."


def _check_mode(mode: str) -> str:
    mode = (mode or "user").strip().lower()
    if mode not in MODES:
        raise ValueError(f"unknown system mode {mode!r}; use one of: {', '.join(MODES)}")
    return mode


def split_role(prompt: str, dissection: Dissection) -> tuple[str, str]:
    """(the Role sentences joined by line breaks, the prompt without them) for ``dissection`` of ``prompt``."""
    if dissection.prompt != prompt:
        raise ValueError("the dissection is of another prompt")
    role_parts: list[str] = []
    user = ""
    pos = 0
    for s in dissection.sentences:
        if Component.ROLE in s.labels:
            user = _join(user, prompt[pos:s.start])
            role_parts.append(s.text.strip())
            pos = s.end
    user = _join(user, prompt[pos:])
    user = re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", user)  # a removed paragraph leaves no run of blank lines
    return "\n".join(p for p in role_parts if p), user.strip()


def _join(left: str, right: str) -> str:
    """``left + right`` where a sentence was cut out between them: one separator, not two."""
    if left and right and left[-1].isspace() and right[0] in " \t":
        right = right.lstrip(" \t")
    return left + right


def build_messages(prompt: str, mode: str = "user", dissection: Dissection | None = None,
                   history: Sequence[Message] = ()) -> tuple[Message, ...]:
    """The messages that send ``prompt`` in ``mode`` (``user`` | ``system`` | ``split``), after ``history``."""
    mode = _check_mode(mode)
    if mode == "user":
        return (*history, Message("user", prompt))
    if mode == "system":
        return (Message("system", prompt), *history, Message("user", SYSTEM_MODE_USER_TEXT))
    if dissection is None:
        from ..dissect.base import get_dissector
        from .. import dissect as _dissect  # noqa: F401  (registers the built-in dissectors)

        dissection = get_dissector("rules").dissect(prompt)
    system, user = split_role(prompt, dissection)
    if not system or not user:
        return (*history, Message("user", prompt))
    return (Message("system", system), *history, Message("user", user))


def make_request(prompt: str, mode: str = "user", dissection: Dissection | None = None, **settings) -> ChatRequest:
    """A :class:`ChatRequest` sending ``prompt`` in ``mode``; ``settings`` are its other fields (temperature, …)."""
    if "stop" in settings and settings["stop"] is not None:
        settings["stop"] = tuple(settings["stop"])
    return ChatRequest(messages=build_messages(prompt, mode, dissection), **settings)
