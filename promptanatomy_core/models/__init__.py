"""Model backends: the protocol and registry (``base``), the local transformers backend (``local``, registered as
provider ``local``) and the embedded SmolLM2 checkpoint (``embedded``).

Importing this package is cheap: torch and transformers are imported only when a local model is first used.
"""
from __future__ import annotations

from typing import Any

from .base import (Backend, BackendError, ChatRequest, ChatResponse, Message, ModelSpec, TokenProb, get_backend,
                   parse_spec, register_provider)
from . import local  # noqa: F401,E402  (registers provider "local")
from .local import LocalBackend

__all__ = ["Backend", "BackendError", "ChatRequest", "ChatResponse", "EmbeddedModelError", "LocalBackend", "Message",
           "ModelSpec", "TokenProb", "get_backend", "parse_spec", "register_provider", "resolve_model"]


def __getattr__(name: str) -> Any:
    # the embedded module is imported on demand, so `python -m promptanatomy_core.models.embedded` runs it fresh
    if name in {"resolve_model", "EmbeddedModelError"}:
        from . import embedded

        return getattr(embedded, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
