"""SYR, synonym replacement: replace ``ratio`` of the content words with WordNet synonyms (NLTK's WordNet reader,
set up offline by :mod:`promptanatomy_core.resources`).

Content words are the target's words that are not stop words (:data:`.words.STOP_WORDS`); the budget counts them,
and only those with a usable synonym are picked. A word is skipped when it looks like a name (capitalised inside a
sentence, or all capitals) or has an inflection the rules below cannot reproduce.

Part of speech, without a tagger (NLTK's perceptron tagger needs a download this project cannot count on):

1. the parts of speech WordNet knows the word as: those where ``wn.morphy(word, pos)`` finds a base form;
2. if there are several, a cue from the word before it or from the word's shape picks one that is among them:
   after a determiner or possessive → noun; after ``to``, a modal (``can``, ``should`` …), ``please``, ``not``, or
   at the start of a sentence (prompts are imperative: "Translate …", "Output …") → verb; after ``very``/``more``/
   ``most``/``too``/``so`` → adjective, then adverb; ``-ly`` → adverb; ``-ing``/``-ed`` → verb; noun suffixes
   (``-tion``, ``-ment``, ``-ness``, ``-ity`` …) → noun; adjective suffixes (``-ous``, ``-ful``, ``-ive``, ``-able``,
   ``-al``, ``-ic`` …) → adjective;
3. otherwise the part of speech whose senses of the base form are most frequent in WordNet's sense-tagged corpus
   (``lemma.count()``), ties in the order noun, verb, adjective, adverb.

Synonyms come from the first three senses (WordNet orders senses by frequency) of the base form in that part of speech:
single lower-case words only, never the base form itself, nor a word that begins with the other (``class`` for
``classify``), nor a stop word. The replacement is re-inflected by simple rules — plural nouns, verbs in ``-s``,
``-ing`` and ``-ed`` (silent ``e``, consonant + ``y``, a short consonant-vowel-consonant ending doubled) — and takes
the original's capitalisation (all capitals, capitalised, lower case); punctuation is outside the word and stays.
A word is never replaced by itself.
"""
from __future__ import annotations

import random
import re
import threading
from functools import lru_cache

from ..types import Edit
from .base import DEFAULT_RATIO, Context, Strategy, register
from .words import STOP_WORDS, Unit, is_sentence_start

POS_ORDER = ("n", "v", "a", "r")
SENSES = 3

DETERMINERS = frozenset("""a an the this that these those my your his her its our their each every any some no
another either neither such whose which what""".split())
VERB_CUES = frozenset("to will would can could should must may might shall please not don't doesn't didn't never "
                      "always also".split())
ADJ_CUES = frozenset("very more most less least too so quite rather".split())
NOUN_SUFFIXES = ("tion", "tions", "sion", "sions", "ment", "ments", "ness", "ity", "ities", "ance", "ence", "ism",
                 "ist", "ists", "ship", "hood", "ure", "ures", "age")
ADJ_SUFFIXES = ("ous", "ful", "ive", "able", "ible", "al", "ic", "less", "ary", "ish")
_PREV_WORD = re.compile(r"([A-Za-z']+)[^A-Za-z'\n]*$")
_VOWELS = "aeiou"


_WN = None
#: NLTK's WordNet reader is not thread-safe (its lemma counts come from a binary search over one shared file
#: handle): every lookup holds this lock, since Streamlit runs sessions (and a stopped run still unwinding) in
#: threads of one process.
_WORDNET_LOCK = threading.RLock()


def _wordnet():
    """NLTK's WordNet reader, set up offline (RuntimeError naming the fix when the data is missing); loaded once."""
    global _WN
    with _WORDNET_LOCK:
        if _WN is None:
            from ..resources import wordnet

            _WN = wordnet()
    return _WN


@lru_cache(maxsize=65536)
def _count(base: str, pos: str) -> int:
    """How often ``base`` is tagged with a sense of ``pos`` in WordNet's sense-tagged corpus."""
    with _WORDNET_LOCK:
        return sum(lemma.count() for synset in _wordnet().synsets(base, pos) for lemma in synset.lemmas()
                   if lemma.name().lower() == base)


def _cue(word: str, prev: str, sentence_start: bool) -> tuple[str, ...]:
    """Parts of speech the context or the word's shape suggests, most likely first."""
    if prev in DETERMINERS:
        return ("n", "a")
    if prev in VERB_CUES or sentence_start:
        return ("v",)
    if prev in ADJ_CUES:
        return ("a", "r")
    if word.endswith("ly"):
        return ("r",)
    if word.endswith(("ing", "ed")):
        return ("v",)
    if word.endswith(NOUN_SUFFIXES):
        return ("n",)
    if word.endswith(ADJ_SUFFIXES):
        return ("a",)
    return ()


@lru_cache(maxsize=65536)
def _bases(word: str) -> tuple[tuple[str, str], ...]:
    """``(pos, base form)`` for every part of speech WordNet knows lower-case ``word`` as."""
    wn = _wordnet()
    with _WORDNET_LOCK:
        return tuple((p, base) for p in POS_ORDER for base in [wn.morphy(word, p)] if base)


def guess_pos(word: str, prev: str = "", sentence_start: bool = False) -> tuple[str, str] | None:
    """``(pos, base form)`` of lower-case ``word`` by the rules in the module docstring; None if WordNet lacks it."""
    known = dict(_bases(word))
    if len(known) > 1:
        preferred = [p for p in _cue(word, prev, sentence_start) if p in known]
        pos = preferred[0] if preferred else max(known, key=lambda p: (_count(known[p], p), -POS_ORDER.index(p)))
        return pos, known[pos]
    return next(iter(known.items()), None)


def _double_final(word: str) -> bool:
    """A short word ending consonant-vowel-consonant doubles its last letter before -ing/-ed (stop → stopping)."""
    return (len(word) <= 4 and len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS
            and word[-3] not in _VOWELS)


def plural(word: str) -> str:
    """Plural noun / third-person verb by rule (box → boxes, query → queries, answer → answers)."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def ing_form(word: str) -> str:
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")) and len(word) > 2:
        return word[:-1] + "ing"
    if _double_final(word):
        return word + word[-1] + "ing"
    return word + "ing"


def ed_form(word: str) -> str:
    if word.endswith("e"):
        return word + "d"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ied"
    if _double_final(word):
        return word + word[-1] + "ed"
    return word + "ed"


def _inflector(word: str, base: str, pos: str):
    """The function that inflects a base form like ``word`` is inflected from ``base``; None if no rule fits."""
    if word == base:
        return lambda w: w
    if pos == "n" and word.endswith("s"):
        return plural
    if pos == "v":
        if word.endswith("ing"):
            return ing_form
        if word.endswith("ed"):
            return ed_form
        if word.endswith("s"):
            return plural
    return None


def match_case(template: str, word: str) -> str:
    """``word`` in ``template``'s capitalisation: all capitals, capitalised, or as is (lower case)."""
    if len(template) > 1 and template.isupper():
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


@lru_cache(maxsize=65536)
def synonyms(word: str, prev: str = "", sentence_start: bool = False) -> tuple[str, ...]:
    """Replacements for ``word`` (as written: case kept) in its context, in WordNet's order; () if none is usable."""
    if not word.isalpha() or len(word) < 3:
        return ()
    if word.isupper() and len(word) > 1:
        return ()  # an acronym
    if word[:1].isupper() and not sentence_start:
        return ()  # a name
    lower = word.lower()
    if lower in STOP_WORDS:
        return ()
    guess = guess_pos(lower, prev, sentence_start)
    if guess is None:
        return ()
    pos, base = guess
    inflect = _inflector(lower, base, pos)
    if inflect is None:
        return ()
    out: list[str] = []
    for lemma in _lemmas(base, pos):
        form = match_case(word, inflect(lemma))
        if form.lower() != lower and form not in out:
            out.append(form)
    return tuple(out)


@lru_cache(maxsize=65536)
def _lemmas(base: str, pos: str) -> tuple[str, ...]:
    """Single-word synonyms of ``base`` from its first :data:`SENSES` senses in ``pos``, in WordNet's order."""
    out: list[str] = []
    with _WORDNET_LOCK:
        names = [synset.lemma_names() for synset in _wordnet().synsets(base, pos)[:SENSES]]
    for lemma_names in names:
        for lemma in lemma_names:
            if not re.fullmatch(r"[a-z]+", lemma) or lemma in STOP_WORDS or lemma in out:
                continue
            if lemma == base or lemma.startswith(base) or base.startswith(lemma):
                continue
            out.append(lemma)
    return tuple(out)


def context_of(prompt: str, start: int) -> tuple[str, bool]:
    """The lower-case word before offset ``start`` (in its line) and whether a word there starts a sentence."""
    m = _PREV_WORD.search(prompt[max(0, start - 40):start])
    return (m.group(1).lower() if m else ""), is_sentence_start(prompt, start)


@lru_cache(maxsize=262144)
def _replacements(prompt: str, start: int, word: str) -> tuple[str, ...]:
    return synonyms(word, *context_of(prompt, start))


def replacements(prompt: str, unit: Unit) -> tuple[str, ...]:
    """The synonyms :class:`SynonymReplacement` may put in place of the word ``unit``."""
    return _replacements(prompt, unit.start, unit.text)


@register("SYR")
class SynonymReplacement(Strategy):
    """Replace ``ratio`` of the content words with a WordNet synonym of their most plausible part of speech."""

    unit = "content word"
    needs = "a content word with a WordNet synonym"

    def __init__(self, ratio: float = DEFAULT_RATIO) -> None:
        super().__init__(ratio)
        _wordnet()  # fail now, with the fix in the message, when WordNet is missing

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        return bool(replacements(ctx.prompt, unit))

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> Edit:
        return Edit(unit.start, unit.end, rng.choice(replacements(ctx.prompt, unit)))
