"""Whole-prompt baselines for the paper's Table 1: monolithic perturbations applied without regard to components.

Each is named after its source and targets the whole prompt by default (``component="whole prompt"``); any component
or ``CRT`` may be targeted as well. All respect protected regions and ``ratio`` (share of words, or of sentences for
MTTM-Sentence). The attacks' search for the most damaging position (gradient or query based) is not reproduced: like
the ComPerturb strategies, positions are drawn uniformly with the seeded generator.

- ``PromptRobust-DeepWordBug`` — PromptRobust/PromptBench (Zhu et al., 2023) character attack after DeepWordBug
  (Gao et al., 2018): in each picked word one of swap two adjacent letters, substitute a letter, delete a letter,
  insert a letter.
- ``PromptRobust-TextBugger`` — PromptRobust's character attack after TextBugger (Li et al., 2019): insert a space,
  delete an inner letter, swap two adjacent inner letters, or substitute a look-alike character (o→0, l→1, a→@ …).
- ``PromptRobust-TextFooler`` — PromptRobust's word attack after TextFooler (Jin et al., 2020): synonym swaps;
  WordNet synonyms (SYR's rules) stand in for TextFooler's counter-fitted embeddings.
- ``MTTM-Char`` — MTTM (Wang et al., ICSE 2023) character-level metamorphic relations: a visually similar Unicode
  character (Cyrillic/Greek homoglyph), a leetspeak digit or symbol, or an inserted noise character.
- ``MTTM-Word`` — MTTM's word-level relations: split a word with a space or a hyphen, or abbreviate it the way
  chat text does (``you`` → ``u``, ``please`` → ``pls``).
- ``MTTM-Sentence`` — MTTM's sentence-level relation: insert an irrelevant neutral sentence after a sentence.
"""
from __future__ import annotations

import random
import string

from ..types import WHOLE_PROMPT, Edit
from .base import Context, Strategy, register
from .syr import SynonymReplacement
from .words import Unit

HOMOGLYPHS = {"a": "а", "c": "с", "e": "е", "i": "і", "j": "ј", "o": "о", "p": "р", "s": "ѕ", "x": "х", "y": "у",
              "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "I": "І", "K": "К", "M": "М", "O": "О", "P": "Р",
              "T": "Т", "X": "Х", "Y": "Υ", "v": "ν"}
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7", "l": "1", "g": "9", "b": "8"}
LOOK_ALIKE = {"o": "0", "l": "1", "i": "1", "a": "@", "s": "$", "e": "3", "O": "0", "I": "1", "S": "5", "B": "8",
              "g": "9", "t": "7", "z": "2"}
NOISE = ".*-_~'"
ABBREVIATIONS = {"you": "u", "your": "ur", "are": "r", "please": "pls", "because": "bc", "with": "w/",
                 "without": "w/o", "and": "&", "for": "4", "to": "2", "before": "b4", "people": "ppl",
                 "message": "msg", "information": "info", "question": "q", "questions": "qs", "answer": "ans",
                 "example": "ex", "examples": "exs", "number": "no.", "between": "btw", "okay": "ok",
                 "thanks": "thx", "tomorrow": "tmrw", "really": "rly", "about": "abt", "something": "sth"}
NEUTRAL_SENTENCES = ("The sky is blue.", "Water boils at 100 degrees Celsius.", "A week has seven days.",
                     "Paris is the capital of France.", "Grass is green.", "The sun rises in the east.",
                     "Cats are mammals.", "A year has twelve months.")


class _WordBaseline(Strategy):
    """A whole-prompt baseline that rewrites each picked word through :meth:`variants` of it."""

    unit = "word"
    default_target = WHOLE_PROMPT
    min_length = 3
    needs = "a word of at least three letters"

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        return len(unit.text) >= self.min_length and unit.text.isalpha()

    def mutate(self, word: str, rng: random.Random) -> str:
        """One rewritten form of ``word`` (may equal it; :meth:`edit` retries)."""
        raise NotImplementedError

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit:
        new = unit.text
        for _ in range(8):
            new = self.mutate(unit.text, rng)
            if new != unit.text:
                break
        return Edit(unit.start, unit.end, new)


def _swap(word: str, i: int) -> str:
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


@register("PromptRobust-DeepWordBug")
class DeepWordBug(_WordBaseline):
    """Swap, substitute, delete or insert one letter in ``ratio`` of the words."""

    def mutate(self, word: str, rng: random.Random) -> str:
        op = rng.randrange(4)
        i = rng.randrange(len(word) - 1)
        if op == 0:
            return _swap(word, i)
        letter = rng.choice(string.ascii_lowercase)
        if op == 1:
            return word[:i] + letter + word[i + 1:]
        if op == 2:
            return word[:i] + word[i + 1:]
        return word[:i + 1] + letter + word[i + 1:]


@register("PromptRobust-TextBugger")
class TextBugger(_WordBaseline):
    """Insert a space, delete or swap inner letters, or substitute a look-alike character in ``ratio`` of the words."""

    def mutate(self, word: str, rng: random.Random) -> str:
        op = rng.randrange(4)
        i = rng.randrange(1, len(word) - 1)  # an inner position
        if op == 0:
            return word[:i] + " " + word[i:]
        if op == 1:
            return word[:i] + word[i + 1:]
        if op == 2 and len(word) >= 4:
            return _swap(word, rng.randrange(1, len(word) - 2))
        spots = [j for j, ch in enumerate(word) if ch in LOOK_ALIKE]
        if not spots:
            return word[:i] + word[i + 1:]
        j = rng.choice(spots)
        return word[:j] + LOOK_ALIKE[word[j]] + word[j + 1:]


@register("PromptRobust-TextFooler")
class TextFooler(SynonymReplacement):
    """Swap ``ratio`` of the content words for WordNet synonyms, anywhere in the prompt."""

    default_target = WHOLE_PROMPT


@register("MTTM-Char")
class MTTMChar(_WordBaseline):
    """A homoglyph, a leetspeak character or an inserted noise character in ``ratio`` of the words."""

    min_length = 2
    needs = "a word of at least two letters"

    def mutate(self, word: str, rng: random.Random) -> str:
        op = rng.randrange(3)
        table = HOMOGLYPHS if op == 0 else LEET
        spots = [j for j, ch in enumerate(word) if ch in table]
        if op == 2 or not spots:
            i = rng.randrange(1, len(word))
            return word[:i] + rng.choice(NOISE) + word[i:]
        j = rng.choice(spots)
        return word[:j] + table[word[j]] + word[j + 1:]


@register("MTTM-Word")
class MTTMWord(_WordBaseline):
    """Split ``ratio`` of the words with a space or a hyphen, or abbreviate them."""

    min_length = 2
    needs = "a word of at least two letters"

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        return unit.text.isalpha() and (len(unit.text) >= 4 or unit.text.lower() in ABBREVIATIONS)

    def mutate(self, word: str, rng: random.Random) -> str:
        short = ABBREVIATIONS.get(word.lower())
        if short is not None and (len(word) < 4 or rng.random() < 0.5):
            return short.upper() if word.isupper() and len(word) > 1 else (
                short[:1].upper() + short[1:] if word[:1].isupper() else short)
        i = rng.randrange(1, len(word))
        return word[:i] + rng.choice(" -") + word[i:]


@register("MTTM-Sentence")
class MTTMSentence(Strategy):
    """Insert an irrelevant neutral sentence after ``ratio`` of the sentences (at least one)."""

    unit = "sentence"
    default_target = WHOLE_PROMPT
    needs = "a sentence that does not end inside a protected region"

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        return not any(a < unit.end < b for a, b in ctx.protected)

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit:
        return Edit(unit.end, unit.end, " " + rng.choice(NEUTRAL_SENTENCES))
