"""The offline rules dissector for tests, and each sentence of a prompt with the label code it gets ("D", "AO")."""
from __future__ import annotations

from promptanatomy_core.accuracy import label_code
from promptanatomy_core.dissect import get_dissector

RULES = get_dissector("rules")


def codes(prompt: str) -> list[tuple[str, str]]:
    """Each sentence's text and the code of the labels the rules give it."""
    return [(s.text, label_code(s.labels)) for s in RULES.dissect(prompt).sentences]
