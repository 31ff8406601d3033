"""Regular expressions made fast for the dissector's long alternations of cue words: searched as case-sensitive
patterns over lower-cased text, with the alternatives that open on an anchor gathered under it."""
from __future__ import annotations

import re


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a regular expression (``a|(b|c)|[|]`` → ``a``, ``(b|c)``, ``[|]``)."""
    parts, depth, start, in_class, i = [], 0, 0, False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    return parts + [pattern[start:]]


def by_anchor(pattern: str) -> str:
    """The same alternation with the alternatives that open on "^" or "\\b" gathered under one anchor each: the
    engine then tries the anchor once per position instead of once per alternative (a third faster for OUTPUT)."""
    parts = alternatives(pattern)
    groups = [[p[len(a):] for p in parts if p.startswith(a)] for a in ("^", "\\b")]
    rest = [p for p in parts if not p.startswith(("^", "\\b"))]
    return "|".join([f"{a}(?:{'|'.join(g)})" for a, g in zip(("^", "\\b"), groups) if g] + rest)


class Folded:
    """A case-insensitive pattern of lower-case words, matched as a case-sensitive one against the lower-cased text
    (twice as fast for a long alternation: the regex engine skips an alternative on its first letter only when case
    is exact), with the alternatives that depend on case ("YYYY-MM-DD") apart."""

    def __init__(self, folded: str, cased: str | None = None) -> None:
        self.pattern = folded
        self._folded = re.compile(by_anchor(folded))
        self._cased = re.compile(cased) if cased else None

    def search(self, text: str) -> re.Match[str] | None:
        return self._folded.search(text.lower()) or (self._cased.search(text) if self._cased else None)

    def match(self, text: str) -> re.Match[str] | None:
        return self._folded.match(text.lower()) or (self._cased.match(text) if self._cased else None)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self._folded.fullmatch(text.lower()) or (self._cased.fullmatch(text) if self._cased else None)
