"""Words with character offsets, protected regions, and the small word lists the strategies share.

A *word* is a run of letters and digits, with inner apostrophes and hyphens (``don't``, ``well-structured``).

*Protected* regions are never edited by any strategy (a word that overlaps one is not a word for perturbation, and a
sentence that contains one is never rewritten):

- template placeholders: ``{input}``, ``{{ x }}``, ``${x}``, ``<<x>>``, ``[[x]]``, ``%(x)s`` — and, because a single
  brace pair is also how code writes dicts and sets, any ``{…}`` on one line;
- fenced code (```…```, an unterminated fence runs to the end of its line) and inline code (`…`);
- URLs, e-mail addresses and file or dotted names (the sentence splitter's rules, :mod:`promptanatomy_core.text`);
- code-like tokens: a white-space-delimited chunk that contains one of ``_ = [ ] { } < > \\ | ^ ~ ≤ ≥``, a call
  (``f(``), a dot between lower-case names (``np.array``; ``mice.Output`` is prose that lost a space), or letters and
  digits mixed in one word (``aA1``, ``ILC2s``). Unfenced code and identifiers in the -PA datasets look like this;
  prose words, even in parentheses, do not.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from ..text import _PROTECTED as _SPLITTER_PROTECTED

_PLACEHOLDER = re.compile(
    r"\{\{.*?\}\}"  # {{ x }} (Jinja, Mustache)
    r"|\$\{[^}\n]*\}"  # ${x}
    r"|\{[^{}\n]*\}"  # {input}, and a one-line dict/set literal
    r"|<<[^<>\n]*>>"  # <<x>>
    r"|\[\[[^\[\]\n]*\]\]"  # [[x]]
    r"|%\(\w+\)[sdfr]",  # %(x)s
    re.S,
)
_CHUNK = re.compile(r"\S+")
_CODE_CHARS = re.compile(r"[_=\[\]{}<>\\|^~≤≥]|\w\(|[a-z0-9_]\.[a-z_]")

WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")


@dataclass(frozen=True)
class Unit:
    """A word or a sentence of the prompt, the thing a strategy edits: ``prompt[start:end] == text``."""

    start: int
    end: int
    text: str


def _mixed(word: str) -> bool:
    """True for a word with both letters and digits (``aA1``, ``ILC2s``, ``COVID-19``)."""
    return any(c.isdigit() for c in word) and any(c.isalpha() for c in word)


def _merge(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            if b > merged[-1][1]:
                merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return tuple(merged)


@lru_cache(maxsize=256)
def protected_spans(prompt: str) -> tuple[tuple[int, int], ...]:
    """The protected regions of ``prompt`` (sorted, merged, half-open)."""
    spans: list[tuple[int, int]] = []
    for pattern in (_SPLITTER_PROTECTED, _PLACEHOLDER):  # the splitter's: fenced and inline code, URLs, names
        spans += [m.span() for m in pattern.finditer(prompt) if m.end() > m.start()]
    for m in _CHUNK.finditer(prompt):
        chunk = m.group()
        if _CODE_CHARS.search(chunk) or any(_mixed(w) for w in WORD.findall(chunk)):
            spans.append(m.span())
    return _merge(spans)


def overlaps(spans: tuple[tuple[int, int], ...], start: int, end: int) -> bool:
    """True if ``[start, end)`` shares a character with one of the sorted, merged ``spans``."""
    i = bisect.bisect_right(spans, (start, float("inf"))) - 1
    if i >= 0 and spans[i][1] > start:
        return True
    return i + 1 < len(spans) and spans[i + 1][0] < end


def inside(spans: tuple[tuple[int, int], ...] | list[tuple[int, int]], start: int, end: int) -> bool:
    """True if ``[start, end)`` (or the insertion point ``start == end``) lies within one of ``spans``."""
    return any(a <= start and end <= b for a, b in spans)


def words(prompt: str) -> tuple[Unit, ...]:
    """The words of ``prompt`` outside protected regions, in order."""
    return _indexed_words(prompt)[0]


@lru_cache(maxsize=256)
def _indexed_words(prompt: str) -> tuple[tuple[Unit, ...], list[int]]:
    protected = protected_spans(prompt)
    found = tuple(Unit(m.start(), m.end(), m.group()) for m in WORD.finditer(prompt)
                  if not overlaps(protected, m.start(), m.end()))
    return found, [w.start for w in found]


def words_in(prompt: str, regions: list[tuple[int, int]]) -> list[Unit]:
    """The unprotected words of ``prompt`` that lie wholly inside one of ``regions``."""
    all_words, starts = _indexed_words(prompt)
    out: list[Unit] = []
    for a, b in regions:
        i = bisect.bisect_left(starts, a)
        j = bisect.bisect_right(starts, b)
        out.extend(w for w in all_words[i:j] if w.end <= b)
    return out


def is_sentence_start(prompt: str, start: int) -> bool:
    """True if the word at ``start`` opens a sentence, line or clause (nothing but ``"'([`` and space before it back
    to a terminator, a colon, a line break or the start)."""
    i = start - 1
    while i >= 0 and prompt[i] in " \t\"'“‘([*-":
        i -= 1
    return i < 0 or prompt[i] in ".!?:\n"


# English stop words (NLTK's list, which needs a download, plus prompt boilerplate): SYR never replaces these.
STOP_WORDS = frozenset("""
a about above after again against ain all am an and any are aren aren't as at be because been before being below
between both but by can couldn couldn't d did didn didn't do does doesn doesn't doing don don't down during each few
for from further had hadn hadn't has hasn hasn't have haven haven't having he her here hers herself him himself his
how i if in into is isn isn't it it's its itself just ll m ma me mightn mightn't more most mustn mustn't my myself
needn needn't no nor not now o of off on once only or other our ours ourselves out over own re s same shan shan't she
she's should should've shouldn shouldn't so some such t than that that'll the their theirs them themselves then there
these they this those through to too under until up ve very was wasn wasn't we were weren weren't what when where
which while who whom why will with won won't wouldn wouldn't y you you'd you'll you're you've your yours yourself
yourselves also may might must shall would could upon via per etc e.g i.e let lets please one two three yes
""".split())
