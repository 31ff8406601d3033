"""SER, sentence rewriting: replace one sentence of the component with a paraphrase of the same meaning.

The sentence is drawn uniformly (seeded) among the target's sentences that have at least three words and at least one
content word with a WordNet synonym (so the offline fallback can rewrite it too), and that no protected region crosses.
Protected text inside the sentence (a placeholder, code, a URL …) must come back verbatim and in order in the
paraphrase; the edits then replace only the text between those pieces, so protected text is never touched.

Paraphrases come from a model backend: any SPEC (``local`` — the embedded SmolLM2-135M — by default, built lazily on
first use) or a :class:`~promptanatomy_core.models.base.Backend` passed in. The model sees only the sentence: the user
message is the sentence itself, and the system message is one fixed instruction (:data:`SYSTEM`); nothing else of the
prompt is sent. ``attempts`` samples (temperature 0.8, seeds drawn from the variant's generator) go out in one batch;
the first that passes the similarity check is used:

- ``similarity`` is difflib's ratio over the two sentences' lower-case word sequences (1 = same words in the same
  order);
- *echo*: the paraphrase has the same words as the original, or similarity ≥ ``max_similarity`` (0.9);
- *drift*: similarity < ``min_similarity`` (0.35), or it keeps fewer than ``min_overlap`` (30%) of the original's
  content words (compared by their first five letters), or its length is outside half to twice the original's word
  count, or it lost or reordered a protected piece.

The thresholds were set on SmolLM2-135M's samples for -PA sentences: faithful rewrites scored 0.38–0.78, answers to the
sentence or inventions (the model following the sentence instead of rewriting it) mostly below 0.3.

When no sample passes, the backend fails, or ``offline=True``, the sentence gets the offline WordNet rewrite instead
(about half of its content words, at least one, replaced by synonyms with SYR's rules), and ``Variant.note`` says so
and why. ``fallback=False`` raises instead.
"""
from __future__ import annotations

import difflib
import random
import re
from typing import Any

from ..types import Edit
from .base import DEFAULT_RATIO, Context, PerturbError, Strategy, register
from .syr import _wordnet, replacements
from .words import STOP_WORDS, WORD, Unit, words_in

#: The only instruction the paraphrase model receives; the user message is the sentence alone.
SYSTEM = "Paraphrase the user's sentence: same meaning, different words. Reply with the paraphrase only."
MIN_WORDS = 3
TEMPERATURE = 0.8
#: Share of the content words the offline rewrite replaces.
FALLBACK_SHARE = 0.5
_PREAMBLE = re.compile(r"^(?:sure|certainly|okay|ok|here(?:'s| is| are)|paraphrase|paraphrased|rewritten|rewrite|"
                       r"answer|output|sentence)\b[^:\n]{0,60}:\s*", re.I)
_QUOTES = "\"'“”‘’`"


def _words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def similarity(a: str, b: str) -> float:
    """difflib's ratio over the lower-case word sequences of ``a`` and ``b``."""
    return difflib.SequenceMatcher(None, _words(a), _words(b), autojunk=False).ratio()


def content_overlap(original: str, paraphrase: str) -> float:
    """Share of ``original``'s content words (first five letters) that appear in ``paraphrase``."""
    content = {w[:5] for w in _words(original) if w not in STOP_WORDS}
    if not content:
        return 1.0
    kept = {w[:5] for w in _words(paraphrase)}
    return len(content & kept) / len(content)


MIN_SIMILARITY = 0.35
MAX_SIMILARITY = 0.9
MIN_OVERLAP = 0.3


def judge(original: str, paraphrase: str, min_similarity: float = MIN_SIMILARITY,
          max_similarity: float = MAX_SIMILARITY, min_overlap: float = MIN_OVERLAP) -> tuple[bool, str]:
    """``(accepted, reason)`` for a paraphrase by the echo and drift rules of the module docstring."""
    if not paraphrase.strip():
        return False, "empty"
    a, b = _words(original), _words(paraphrase)
    if a == b:
        return False, "echo (same words)"
    sim = similarity(original, paraphrase)
    if sim >= max_similarity:
        return False, f"echo (similarity {sim:.2f} ≥ {max_similarity})"
    if sim < min_similarity:
        return False, f"drift (similarity {sim:.2f} < {min_similarity})"
    if not 0.5 * len(a) <= len(b) <= 2 * len(a):
        return False, f"drift (length {len(b)} words for {len(a)})"
    overlap = content_overlap(original, paraphrase)
    if overlap < min_overlap:
        return False, f"drift (keeps {overlap:.0%} of the content words)"
    return True, f"similarity {sim:.2f}"


def clean_paraphrase(raw: str, original: str) -> str:
    """The paraphrase in a model's answer: first non-empty line, preamble and quotes removed, spaces collapsed, and
    the original's closing punctuation (``.``/``?``/``!``/``:``) restored when missing."""
    lines = [ln.strip() for ln in raw.strip().splitlines() if ln.strip()]
    while len(lines) > 1 and lines[0].endswith(":"):
        lines = lines[1:]  # "Here is the paraphrase:" on a line of its own
    text = lines[0] if lines else ""
    text = _PREAMBLE.sub("", text)
    text = " ".join(text.strip().strip(_QUOTES).split())
    end = original.rstrip()[-1:]
    if text and end in ".?!:" and text[-1] not in ".?!:":
        text += end
    elif text and end not in ".?!:" and text[-1] in ".!" and not text.endswith(".."):
        text = text[:-1]
    return text


@register("SER")
class SentenceRewriting(Strategy):
    """Replace one sentence with a model paraphrase that passes the similarity check (offline fallback: WordNet)."""

    unit = "sentence"
    needs = f"a sentence of at least {MIN_WORDS} words with a replaceable content word and no protected region"

    def __init__(self, ratio: float = DEFAULT_RATIO, backend: Any = "local", offline: bool = False, fallback: bool = True,
                 attempts: int = 4, min_similarity: float = MIN_SIMILARITY, max_similarity: float = MAX_SIMILARITY,
                 min_overlap: float = MIN_OVERLAP, temperature: float = TEMPERATURE) -> None:
        super().__init__(ratio)
        if not isinstance(attempts, int) or isinstance(attempts, bool) or not 1 <= attempts <= 16:
            raise ValueError(f"attempts must be an integer from 1 to 16, not {attempts!r}")
        if not 0 <= min_similarity < max_similarity <= 1:
            raise ValueError(f"need 0 <= min_similarity < max_similarity <= 1, not {min_similarity}, {max_similarity}")
        if not offline and backend is None:
            offline = True
        self.backend = backend
        self.offline = bool(offline)
        self.fallback = bool(fallback)
        self.attempts = attempts
        self.min_similarity = min_similarity
        self.max_similarity = max_similarity
        self.min_overlap = min_overlap
        self.temperature = temperature
        self._backend: Any = None
        _wordnet()  # the fallback and the eligibility test need it

    # ------------------------------------------------------------------------------------------------- hooks

    def budget(self, n_units: int) -> int:
        return 1

    def eligible(self, unit: Unit, ctx: Context) -> bool:
        if any(a < unit.start < b or a < unit.end < b for a, b in ctx.protected):
            return False  # a protected region crosses the sentence boundary
        found = words_in(ctx.prompt, [(unit.start, unit.end)])
        return len(found) >= MIN_WORDS and any(replacements(ctx.prompt, w) for w in found)

    def edit(self, unit: Unit, ctx: Context, rng: random.Random) -> list[Edit]:
        seeds = [rng.randrange(2 ** 31) for _ in range(self.attempts)]
        fallback_rng = random.Random(rng.randrange(2 ** 31))
        if self.offline:
            reason = "offline"
        else:
            pieces = [(a, b) for a, b in ctx.protected if unit.start <= a and b <= unit.end]
            edits, reason = self.paraphrase(ctx.prompt, unit, pieces, seeds)
            if edits is not None:
                ctx.notes.append(f"paraphrase by {self.backend_name} ({reason})")
                return edits
            if not self.fallback:
                raise PerturbError(f"SER: no paraphrase of {unit.text[:60]!r} from {self.backend_name}: {reason}")
        ctx.notes.append(f"offline WordNet rewrite ({reason})")
        return self.wordnet_rewrite(ctx.prompt, unit, fallback_rng)

    # ------------------------------------------------------------------------------------------------- model

    @property
    def backend_name(self) -> str:
        b = self.backend
        return str(getattr(b, "spec", b)) if b is not None else "none"

    def get_backend(self) -> Any:
        """The backend, built from its SPEC on first use (BackendError when it cannot be)."""
        if self._backend is None:
            if isinstance(self.backend, str):
                from ..models import get_backend  # importing the package registers the providers

                self._backend = get_backend(self.backend)
            else:
                self._backend = self.backend
        return self._backend

    def requests(self, sentence: str, seeds: list[int]) -> list[Any]:
        from ..models.base import ChatRequest, Message

        messages = (Message("system", SYSTEM), Message("user", sentence))
        max_tokens = min(256, 16 + len(sentence) // 3)  # about twice the sentence's tokens
        return [ChatRequest(messages, temperature=self.temperature, max_tokens=max_tokens, seed=s) for s in seeds]

    def paraphrase(self, prompt: str, unit: Unit, pieces: list[tuple[int, int]],
                   seeds: list[int]) -> tuple[list[Edit] | None, str]:
        """``(edits, reason)``: the edits that put the first sample passing the check in place of ``unit`` (keeping
        the protected ``pieces``), or ``(None, why no sample did)``."""
        from ..models.base import BackendError

        sentence = unit.text
        try:
            responses = self.get_backend().generate(self.requests(sentence, seeds))
        except (BackendError, ValueError, OSError) as exc:
            return None, f"paraphrase model {self.backend_name} failed: {exc}"
        errors, rejected = [], []
        for response in responses:
            if not response.ok:
                errors.append(response.error)
                continue
            text = clean_paraphrase(response.text, sentence)
            ok, why = judge(sentence, text, self.min_similarity, self.max_similarity, self.min_overlap)
            edits = around(prompt, unit, pieces, text) if ok else None
            if edits is not None:
                return edits, why
            rejected.append(why if not ok else "drift (lost or moved protected text)")
        if errors and not rejected:
            return None, f"paraphrase model {self.backend_name} failed: {errors[0]}"
        return None, f"no paraphrase passed the similarity check in {len(responses)} tries: {'; '.join(rejected)}"

    # ----------------------------------------------------------------------------------------------- offline

    def wordnet_rewrite(self, prompt: str, unit: Unit, rng: random.Random) -> list[Edit]:
        """Edits swapping about half of ``unit``'s replaceable content words for WordNet synonyms."""
        found = [(w, replacements(prompt, w)) for w in words_in(prompt, [(unit.start, unit.end)])]
        usable = [(w, options) for w, options in found if options]
        k = max(1, round(FALLBACK_SHARE * len(usable)))
        picked = sorted(rng.sample(usable, k), key=lambda pair: pair[0].start)
        return [Edit(w.start, w.end, rng.choice(options)) for w, options in picked]


def around(prompt: str, unit: Unit, pieces: list[tuple[int, int]], paraphrase: str) -> list[Edit] | None:
    """Edits that turn ``unit``'s text into ``paraphrase`` while leaving the protected ``pieces`` (offsets into
    ``prompt``, inside ``unit``, in order) untouched; None when the paraphrase lacks one of them or moves them."""
    edits: list[Edit] = []
    pos_old, pos_new = unit.start, 0
    for a, b in pieces:
        found = paraphrase.find(prompt[a:b], pos_new)
        if found < 0:
            return None
        edits.append(Edit(pos_old, a, paraphrase[pos_new:found]))
        pos_old, pos_new = b, found + (b - a)
    edits.append(Edit(pos_old, unit.end, paraphrase[pos_new:]))
    return [e for e in edits if e.replacement != prompt[e.start:e.end]]
