"""Dissectors: the interface and registry (``base``), ``rules`` (offline default) and ``llm`` (a model labels each
sentence; Algorithm 1 of the PromptAnatomy paper). Importing this package registers both."""
from __future__ import annotations

from .base import Dissector, available, get_dissector, register
from . import rules  # noqa: F401  (registers "rules")
from . import llm  # noqa: F401  (registers "llm")
from .llm import LLMDissector
from .rules import RulesDissector

__all__ = ["Dissector", "LLMDissector", "RulesDissector", "available", "get_dissector", "register"]
