"""Sentence splitting with character offsets, and prompt validation.

Boundaries: newlines, and ``.``/``?``/``!`` followed by white space or a capitalised word. Never inside fenced or
inline code, URLs, e-mail addresses, file names, decimals, abbreviations, a dot between names in code
(``c.CustomerName``, ``java.lang.NullPointerException``), or an ``Input: … Output: …`` example.
"""
from __future__ import annotations

import re

from .types import Sentence

MAX_PROMPT_CHARS = 100_000


class PromptError(ValueError):
    """A prompt that cannot be processed; the message says why."""


def validate_prompt(prompt: object) -> str:
    """Return ``prompt`` if it is usable text, else raise :class:`PromptError` with a specific reason."""
    if isinstance(prompt, (bytes, bytearray)):
        try:
            prompt = bytes(prompt).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PromptError(f"the input is not UTF-8 text (undecodable byte at offset {exc.start})") from None
    if not isinstance(prompt, str):
        raise PromptError(f"the prompt must be text, not {type(prompt).__name__}")
    if not prompt.strip():
        raise PromptError("the prompt is empty (only white space)")
    bad = re.search(r"[\x00-\x08\x0b\x0e-\x1f\x7f]", prompt)
    if bad:
        raise PromptError(f"the input looks binary: control character {bad.group()!r} at offset {bad.start()}")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise PromptError(f"the prompt has {len(prompt):,} characters; the limit is {MAX_PROMPT_CHARS:,}")
    return prompt


ABBREVIATIONS = frozenset(
    """e.g i.e vs cf al approx dr mr mrs ms prof sr jr st no nos fig figs eq eqs inc ltd co corp dept est
    jan feb mar apr jun jul aug sep sept oct nov dec a.m p.m u.s u.k ph.d resp viz ca""".split()
)

_PROTECTED = re.compile(
    r"```(?:.*?```|[^\n]*)"  # fenced code block (an unterminated one runs to the end of its line)
    r"|`[^`\n]+`"  # inline code
    r"|\b(?:https?|ftp)://[^\s<>\"'`]+[^\s<>\"'`.,;:!?)\]]"  # URL (without trailing punctuation)
    r"|\bwww\.[^\s<>\"'`]+[^\s<>\"'`.,;:!?)\]]"
    r"|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # e-mail address
    r"|(?<![\w/.])(?:[\w-]+/)*[\w-]+(?:\.[a-z0-9][A-Za-z0-9]{0,5})+(?![\w])(?=\S)",  # file name / dotted name
    re.S,
)
_EXAMPLE = re.compile(r"\bInput\s*:(?:(?!\n).)*?\bOutput\s*:[^\n]*?(?=[.?!][\"')\]]*(?:\s|$|[A-Z][a-z])|\n|$)", re.S)
#: A member name after a dot in code: "c.CustomerName", "o.OrderDate" (a capital inside the word).
_CODE_NAME = re.compile(r"[A-Z][a-z0-9]+[A-Z]")
#: A short lower-case name before such a dot: the "dbo" of "dbo.Customers", the "o" of "o.Total".
_CODE_OWNER = re.compile(r"(?<![\w.])[a-z_][a-z0-9_]{0,2}$")
#: A dotted lower-case path before such a dot: the "pandas.core.frame" of "pandas.core.frame.DataFrame".
_CODE_PATH = re.compile(r"(?<![\w.])[a-z_]\w*(?:\.[a-z_]\w*)+$")
#: A line of SQL: "FROM dbo.Customers c", "LEFT JOIN dbo.Orders o ON …".
_SQL_LINE = re.compile(r"\s*(?:SELECT|FROM|WHERE|(?:LEFT |RIGHT |INNER |OUTER |CROSS )?JOIN|GROUP BY|ORDER BY|HAVING|"
                       r"ON|AND|OR|UPDATE|INSERT INTO|DELETE FROM|SET|WITH)\b")
_TERMINATOR = re.compile(r"[.?!]+[\"'”’)\]]*")


def _protected_mask(text: str) -> bytearray:
    mask = bytearray(len(text))
    for pattern in (_PROTECTED, _EXAMPLE):
        for m in pattern.finditer(text):
            mask[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    return mask


def _is_abbreviation(text: str, dot: int) -> bool:
    """True if the '.' at ``dot`` ends an abbreviation or a single initial."""
    m = re.search(r"([A-Za-z](?:\.[A-Za-z])*\.?[A-Za-z]*)$", text[max(0, dot - 12):dot])
    if not m:
        return False
    word = m.group(1)
    if word.lower().rstrip(".") in ABBREVIATIONS:
        return True
    return len(word) == 1 and word.isupper()


def _is_list_marker(text: str, dot: int) -> bool:
    """True if the '.' at ``dot`` closes a list number at the start of a line ("1. Read the ticket.")."""
    line_start = text.rfind("\n", 0, dot) + 1
    return re.fullmatch(r"\s*(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})", text[line_start:dot]) is not None


def _code_dot(text: str, dot: int, after: int) -> bool:
    """True if the '.' at ``dot`` joins names in code ("c.CustomerName", "SUM(o.Total)", "FROM dbo.Customers",
    "java.lang.NullPointerException"), ``after`` being where the next word starts."""
    near = max(0, dot - 120)  # the names before the dot, searched near it, not from the text's start
    if _CODE_OWNER.search(text, near, dot):
        return bool(_CODE_NAME.match(text, after) or text[dot - 2:dot - 1] == "(" or
                    _SQL_LINE.match(text, text.rfind("\n", 0, dot) + 1))
    return bool(_CODE_PATH.search(text, near, dot) and _CODE_NAME.match(text, after))


def boundaries(text: str) -> list[int]:
    """Cut positions (sorted, unique) between sentences of ``text``."""
    mask = _protected_mask(text)
    cuts = {m.end() for m in re.finditer(r"\n", text) if not mask[m.start()]}
    for m in _TERMINATOR.finditer(text):
        first = m.start()
        if mask[first]:
            continue
        end = m.end()
        nxt = text[end:end + 2]
        if nxt[:1] and not nxt[:1].isspace():
            # no space after the terminator: only a capitalised word starts a new sentence ("CRS.The", "5.Positive")
            if not (nxt[:1].isupper() and nxt[1:2].islower()):
                continue
            if text[first - 1:first].isspace() or first == 0 or m.group() == "." and _code_dot(text, first, end):
                continue
        else:
            following = text[end:].lstrip(" \t")[:1]
            if following.islower() or following in {",", ";", ":"}:
                continue
        if text[first] == "." and m.group() == "." and (_is_abbreviation(text, first) or _is_list_marker(text, first)):
            continue
        cuts.add(end)
    return sorted(c for c in cuts if 0 < c < len(text))


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences with offsets; white space between sentences belongs to none."""
    sentences: list[Sentence] = []
    start = 0
    for cut in boundaries(text) + [len(text)]:
        seg = text[start:cut]
        stripped = seg.strip()
        if stripped:
            lead = len(seg) - len(seg.lstrip())
            s = start + lead
            sentences.append(Sentence(s, s + len(stripped), stripped))
        start = cut
    return sentences
