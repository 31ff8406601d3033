"""Success criteria: does a model's answer to a (perturbed) prompt still count as right?

Every criterion answers the same question, **"is this response still correct?"**, and returns a :class:`Judgment`
whose ``correct`` is True, False or None. The experiment derives the attack outcome from it:

* ``Judgment.correct``        the response is acceptable (right answer / unchanged from the clean response);
* ``Judgment.attack_success`` the perturbation broke the answer: ``not correct`` (None stays None).

``None`` means *could not judge*: the response is a provider error (or was never run), the reference the criterion
needs is missing, or the LLM judge failed. A provider error is therefore **never** counted as a correct answer and
**never** as a successful attack; metrics leave such records out of their denominators.

For :class:`DiffersFromClean` "correct" means "the same answer as the clean prompt gave", so the attack succeeded
exactly when the response differs from the clean one.

``Judgment.score`` is a graded correctness in [0, 1] where one is meaningful (BLEU / 100, the judge's score / 10,
the similarity to the clean response); otherwise 1.0 / 0.0 mirroring ``correct``. ProSA's PSS uses it as Y.

Criteria (registry names; :func:`get_criterion` builds one by name with its options):

``contains``   the expected answer occurs in the response (normalised, whole words); yes/no/maybe labels and numbers
               follow the PubMedQA / Leetcode rules described in :class:`ContainsAnswer`.
``exact``      the normalised response equals the normalised expected answer.
``regex``      a regular expression (the user's) matches the response.
``numeric``    a number in the response equals the expected number within a tolerance.
``bleu``       sentence BLEU against the reference (sacrebleu, 0-100) is at least a threshold (default 20): the
               paper's translation rule reads "attack succeeded when BLEU < 20", i.e. ``correct = BLEU >= 20``.
``differs``    compare with the clean prompt's response: short outputs by their normalised answer, long outputs by
               a similarity (difflib ratio) against a threshold.
``judge``      an LLM judge (any backend SPEC) with the fixed, visible :data:`JUDGE_RUBRIC`.

Expected answers may be given as text, as a list of acceptable answers, or as the -PA datasets' JSON list text
(``'[ "yes" ]'``); :func:`parse_expected` turns all of these into a tuple of strings (any one of them counts).
"""
from __future__ import annotations

import difflib
import json
import math
import re
import string
import unicodedata
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..models.base import ChatRequest, ChatResponse, Message

Responseish = ChatResponse | str | None


# --------------------------------------------------------------------------------------------------------------------
# the judgment
# --------------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Judgment:
    """One criterion's verdict on one response.

    ``correct``: the response is still right (None: could not judge, with ``reason`` saying why).
    ``score``: graded correctness in [0, 1] (None when not judged). ``reason``: a short human-readable explanation.
    """

    correct: bool | None
    score: float | None = None
    reason: str = ""

    @property
    def judged(self) -> bool:
        return self.correct is not None

    @property
    def attack_success(self) -> bool | None:
        """True when the perturbation broke the answer (``not correct``); None when not judged."""
        return None if self.correct is None else not self.correct

    # ``success`` is the attack's success, the quantity ASR counts
    success = attack_success

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "attack_success": self.attack_success, "score": self.score,
                "reason": self.reason}

    @classmethod
    def unjudged(cls, reason: str) -> "Judgment":
        return cls(None, None, reason)

    @classmethod
    def of(cls, correct: bool, reason: str, score: float | None = None) -> "Judgment":
        return cls(bool(correct), float(correct) if score is None else max(0.0, min(1.0, float(score))), reason)


# --------------------------------------------------------------------------------------------------------------------
# normalisation helpers
# --------------------------------------------------------------------------------------------------------------------

_PUNCT = {ord(c): " " for c in string.punctuation + "“”‘’«»–—…"}


def normalize(text: str) -> str:
    """Lowercase, Unicode NFKC, punctuation replaced by spaces, white space collapsed."""
    text = unicodedata.normalize("NFKC", text or "").lower().translate(_PUNCT)
    return " ".join(text.split())


def parse_expected(expected: Any) -> tuple[str, ...]:
    """The acceptable answers: ``'[ "yes" ]'`` (the -PA JSON list text), a list/tuple, or plain text."""
    if expected is None:
        return ()
    if isinstance(expected, (list, tuple)):
        return tuple(str(e) for e in expected if str(e).strip())
    text = str(expected)
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            value = json.loads(stripped)
        except ValueError:
            value = None
        if isinstance(value, list):
            return tuple(str(v) for v in value if str(v).strip())
    return (text,) if stripped else ()


def response_text(response: Responseish) -> tuple[str | None, str | None]:
    """(text, None) for a usable response; (None, why) for an error, a not-run placeholder or nothing."""
    if response is None:
        return None, "no response"
    if isinstance(response, ChatResponse):
        if not response.ok:
            return None, f"response error: {response.error}"
        return response.text, None
    return str(response), None


_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text`` (thousands separators allowed), in order."""
    out = []
    for m in _NUMBER.finditer(text or ""):
        try:
            out.append(float(m.group().replace(",", "")))
        except ValueError:  # pragma: no cover - the pattern only matches numbers
            continue
    return out


_WHOLE_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?")


def parse_number(text: str) -> float | None:
    """The number ``text`` is, as a whole (white space and one trailing period ignored; ``1,000`` allowed), or None."""
    t = (text or "").strip()
    if t.endswith(".") and not t.endswith(".."):
        t = t[:-1].rstrip()
    if not t or not any(c.isdigit() for c in t) or not _WHOLE_NUMBER.fullmatch(t):
        return None
    try:
        return float(t.replace(",", ""))
    except ValueError:
        return None


def _contains_words(haystack: str, needle: str) -> bool:
    """Whole-word containment on normalised text."""
    h, n = normalize(haystack), normalize(needle)
    if not n:
        return False
    return re.search(r"(?<!\S)" + re.escape(n) + r"(?!\S)", h) is not None


# --------------------------------------------------------------------------------------------------------------------
# the criteria
# --------------------------------------------------------------------------------------------------------------------

class Criterion(ABC):
    """Base class: :meth:`judge` handles errors and missing references; leaves implement :meth:`_judge`."""

    #: Registry name.
    name: ClassVar[str] = ""
    #: One line for the UI.
    description: ClassVar[str] = ""
    #: True when the criterion needs the expected answer; False when it needs the clean response instead.
    needs_expected: ClassVar[bool] = True
    needs_clean: ClassVar[bool] = False

    def __new__(cls, *args: Any, **options: Any) -> "Criterion":
        obj = super().__new__(cls)
        obj._options = dict(options)  # what config() reports (keyword options only)
        return obj

    def config(self) -> dict[str, Any]:
        """``{"name": ..., <keyword options>}``, JSON-safe, for the run store; ``get_criterion(**config)`` rebuilds
        it (options that are not plain JSON values, e.g. a backend object, are left out)."""
        safe = {k: v for k, v in getattr(self, "_options", {}).items()
                if v is None or isinstance(v, (str, int, float, bool))}
        return {"name": self.name, **safe}

    def judge(self, response: Responseish, expected: Any = None, clean: Responseish = None) -> Judgment:
        """Judge ``response`` (a :class:`ChatResponse` or its text) against ``expected`` and/or ``clean``."""
        text, why = response_text(response)
        if text is None:
            return Judgment.unjudged(why or "no response")
        answers = parse_expected(expected)
        if self.needs_expected and not answers:
            return Judgment.unjudged(f"{self.name}: no expected answer to compare with")
        clean_text = None
        if self.needs_clean:
            clean_text, why = response_text(clean)
            if clean_text is None:
                return Judgment.unjudged(f"clean prompt's {why}")
        try:
            return self._judge(text, answers, clean_text)
        except _CannotJudge as exc:
            return Judgment.unjudged(str(exc))

    def judge_clean(self, clean: Responseish, expected: Any = None) -> Judgment:
        """The verdict on the *clean* prompt's response (the records' ``clean_correct``, for the flip rate and PSS).
        Ordinarily the same criterion applied to it; :class:`DiffersFromClean` overrides it."""
        return self.judge(clean, expected)

    def judge_many(self, responses: Sequence[Responseish], expected: Sequence[Any] | None = None,
                   clean: Sequence[Responseish] | None = None) -> list[Judgment]:
        """Judge several responses (parallel lists of expected answers and clean responses, when given)."""
        n = len(responses)
        expected = list(expected) if expected is not None else [None] * n
        clean = list(clean) if clean is not None else [None] * n
        if len(expected) != n or len(clean) != n:
            raise ValueError("responses, expected and clean must have the same length")
        return [self.judge(r, e, c) for r, e, c in zip(responses, expected, clean)]

    @abstractmethod
    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        """Judge a usable response text."""

    def describe(self) -> str:
        return self.description


class _CannotJudge(Exception):
    pass


_CRITERIA: dict[str, type[Criterion]] = {}


def register_criterion(cls: type[Criterion]) -> type[Criterion]:
    """Class decorator: register a criterion under its ``name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    _CRITERIA[cls.name] = cls
    return cls


def criterion_names() -> list[str]:
    return list(_CRITERIA)


def get_criterion(name: str, **options: Any) -> Criterion:
    """Build the criterion registered as ``name`` with ``options`` (e.g. ``pattern=``, ``threshold=``); an invalid
    option raises ValueError naming it."""
    try:
        cls = _CRITERIA[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown success criterion {name!r}; expected one of: {', '.join(_CRITERIA)}") from None
    try:
        return cls(**options)
    except TypeError as exc:
        raise ValueError(f"criterion {cls.name!r}: {exc}") from None


#: Closed label sets: when the expected answer is one of these labels, the response's *first* label decides.
LABEL_SETS: tuple[frozenset[str], ...] = (frozenset({"yes", "no", "maybe"}),)


@register_criterion
class ContainsAnswer(Criterion):
    """The expected answer occurs in the response as whole words, after :func:`normalize`.

    Rules for the paper's datasets:

    * **Labels** (PubMedQA: yes / no / maybe): the first of these labels that occurs as a word in the response is
      its answer; correct when it is the expected label ("Yes, ... no evidence ..." answers yes). A response with no
      label is wrong.
    * **Numbers** (Leetcode): when the expected answer is a number, the response is correct when any number written
      in it equals the expected number (``11``, ``11.0``, ``1,000`` = ``1000``); other text does not count.
    * Anything else: whole-word containment of the normalised expected text.

    Several acceptable answers (a JSON list): any one of them counts.
    """

    name = "contains"
    description = "the expected answer occurs in the response (normalised, whole words; yes/no and number rules)"

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        words = normalize(text).split()
        for answer in answers:
            label = normalize(answer)
            labels = next((s for s in LABEL_SETS if label in s), None)
            if labels is not None:
                first = next((w for w in words if w in labels), None)
                if first == label:
                    return Judgment.of(True, f"first label in the response is {first!r}")
                continue
            number = parse_number(answer)
            if number is not None:
                if any(math.isclose(v, number, rel_tol=0.0, abs_tol=1e-9) for v in numbers_in(text)):
                    return Judgment.of(True, f"the response contains the number {answer.strip()}")
                continue
            if _contains_words(text, answer):
                return Judgment.of(True, f"the response contains {answer.strip()[:60]!r}")
        return Judgment.of(False, f"the response does not contain {' / '.join(a.strip()[:40] for a in answers)!r}")


@register_criterion
class ExactMatch(Criterion):
    """The normalised response equals one normalised expected answer."""

    name = "exact"
    description = "the normalised response equals the expected answer"

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        got = normalize(text)
        ok = any(got == normalize(a) for a in answers)
        return Judgment.of(ok, "exact match" if ok else f"{got[:60]!r} is not the expected answer")


@register_criterion
class RegexMatch(Criterion):
    """A regular expression (``pattern``, Python syntax, searched anywhere; ``flags`` e.g. ``re.I``) matches the
    response. The pattern is the reference; no expected answer is needed."""

    name = "regex"
    description = "a regular expression matches the response"
    needs_expected = False

    def __init__(self, pattern: str, flags: int = re.IGNORECASE) -> None:
        try:
            self.regex = re.compile(pattern, flags)
        except re.error as exc:
            raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
        self.pattern = pattern

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        m = self.regex.search(text)
        return Judgment.of(m is not None, f"/{self.pattern}/ matched {m.group()[:40]!r}" if m
                           else f"/{self.pattern}/ did not match")


@register_criterion
class NumericEqual(Criterion):
    """A number in the response equals the expected number within ``abs_tol`` or ``rel_tol``.

    ``which``: ``"any"`` (default: any number written in the response), ``"last"`` or ``"first"`` (only that one)."""

    name = "numeric"
    description = "a number in the response equals the expected number (within a tolerance)"

    def __init__(self, abs_tol: float = 1e-6, rel_tol: float = 0.0, which: str = "any") -> None:
        if which not in {"any", "first", "last"}:
            raise ValueError("which must be 'any', 'first' or 'last'")
        self.abs_tol, self.rel_tol, self.which = float(abs_tol), float(rel_tol), which

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        targets = [n for n in (parse_number(a) for a in answers) if n is not None]
        if not targets:
            raise _CannotJudge(f"numeric: the expected answer {answers[0][:40]!r} is not a number")
        found = numbers_in(text)
        if not found:
            return Judgment.of(False, "no number in the response")
        pool = found if self.which == "any" else [found[0] if self.which == "first" else found[-1]]
        for v in pool:
            for t in targets:
                if math.isclose(v, t, rel_tol=self.rel_tol, abs_tol=self.abs_tol):
                    return Judgment.of(True, f"{v:g} equals {t:g}")
        return Judgment.of(False, f"{', '.join(f'{v:g}' for v in pool[:5])} ≠ {targets[0]:g}")


def sentence_bleu(hypothesis: str, references: Sequence[str]) -> float:
    """Sentence BLEU on a 0-100 scale: sacrebleu's ``sentence_bleu`` (its default 13a tokenizer and exponential
    smoothing; sacrebleu is a dependency). Where sacrebleu is missing: NLTK's ``sentence_bleu`` over whitespace
    tokens of the normalised texts with ``SmoothingFunction().method1``, times 100 (close, not identical)."""
    try:
        import sacrebleu
    except ImportError:
        from nltk.translate.bleu_score import SmoothingFunction
        from nltk.translate.bleu_score import sentence_bleu as nltk_bleu

        refs = [normalize(r).split() for r in references]
        hyp = normalize(hypothesis).split()
        if not hyp:
            return 0.0
        return 100.0 * float(nltk_bleu(refs, hyp, smoothing_function=SmoothingFunction().method1))
    return float(sacrebleu.sentence_bleu(hypothesis, list(references)).score)


@register_criterion
class BleuAbove(Criterion):
    """Sentence BLEU (sacrebleu, 0-100) of the response against the reference(s) is at least ``threshold``.

    The paper counts a translation attack as successful when BLEU < 20; here ``correct = BLEU >= threshold`` and
    ``score = BLEU / 100``."""

    name = "bleu"
    description = "BLEU against the reference is at least the threshold (attack succeeded when below; default 20)"

    def __init__(self, threshold: float = 20.0) -> None:
        self.threshold = float(threshold)

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        bleu = sentence_bleu(text, answers)
        ok = bleu >= self.threshold
        return Judgment.of(ok, f"BLEU {bleu:.1f} {'≥' if ok else '<'} {self.threshold:g}", score=bleu / 100.0)


@register_criterion
class DiffersFromClean(Criterion):
    """Compare the response with the clean prompt's response (no expected answer needed).

    ``correct`` here means *unchanged*: the attack succeeded when the answer differs.

    * Short outputs (both at most ``short_words`` words after :func:`normalize`): unchanged when the normalised
      texts are equal.
    * Long outputs: unchanged when ``difflib.SequenceMatcher`` ratio over the normalised word sequences is at least
      ``threshold`` (default 0.8). ``score`` is that similarity (1.0 / 0.0 for short outputs).
    """

    name = "differs"
    description = "the response differs from the clean prompt's response (attack succeeded when it differs)"
    needs_expected = False
    needs_clean = True

    def __init__(self, threshold: float = 0.8, short_words: int = 5) -> None:
        self.threshold, self.short_words = float(threshold), int(short_words)

    def judge_clean(self, clean: Responseish, expected: Any = None) -> Judgment:
        """The clean response is the reference: correct by definition (None when it is an error)."""
        text, why = response_text(clean)
        if text is None:
            return Judgment.unjudged(why or "no response")
        return Judgment.of(True, "the clean response is the reference")

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        a, b = normalize(text).split(), normalize(clean or "").split()
        if len(a) <= self.short_words and len(b) <= self.short_words:
            same = a == b
            return Judgment.of(same, "same short answer as the clean prompt" if same else
                               f"short answer changed: {' '.join(b)[:40]!r} → {' '.join(a)[:40]!r}")
        ratio = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
        same = ratio >= self.threshold
        return Judgment.of(same, f"similarity to the clean response {ratio:.2f} {'≥' if same else '<'} "
                                 f"{self.threshold:g}", score=ratio)


#: The LLM judge's rubric: fixed and shown to the user; {question}, {reference} and {response} are filled in.
JUDGE_RUBRIC = """You are grading an answer produced by an AI model.

Task given to the model:
<task>
{question}
</task>

Reference answer (may be empty when there is none):
<reference>
{reference}
</reference>

Model's answer:
<answer>
{response}
</answer>

Grade how well the model's answer solves the task, using the reference when there is one.
For code: does it do what the task asks and would it run? Minor style differences do not matter.
For open answers: is it correct, complete and on topic?
Score from 0 (wrong, empty or off-topic) to 10 (fully correct).
Reply with exactly one line: SCORE: <integer 0-10>"""

_SCORE = re.compile(r"\bscore\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(?:/\s*10)?", re.I)
_VERDICT = re.compile(r"\b(PASS|FAIL)\b")


def parse_judge_reply(reply: str) -> float | None:
    """The judge's score in [0, 1]: ``SCORE: n`` (0-10, ``n/10`` too), else PASS (1) / FAIL (0), else a lone number
    0-10; None when nothing parses."""
    m = _SCORE.search(reply or "")
    if m:
        value = float(m.group(1))
        return min(value, 10.0) / 10.0 if value <= 10 else None
    m = _VERDICT.search(reply or "")
    if m:
        return 1.0 if m.group(1) == "PASS" else 0.0
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/\s*10)?\s*\.?\s*", reply or "")
    if m and float(m.group(1)) <= 10:
        return float(m.group(1)) / 10.0
    return None


@register_criterion
class LLMJudge(Criterion):
    """An LLM judge: any backend SPEC (``get_backend``) grades the response with :data:`JUDGE_RUBRIC`.

    ``correct = score >= pass_score`` (default 0.5, i.e. 5/10); ``score`` is the judge's grade / 10. The judge runs
    greedily (temperature 0) through the runner (``models/runner.py``: the response cache, retries, concurrency;
    ``runner=`` passes the runner's options, e.g. ``{"cache": False}``). A judge error or an unparseable reply gives
    ``correct = None`` with the reason. The task shown to the judge is ``question=`` (set at construction) or, per
    response, the ``questions`` given to :meth:`judge_many` / :meth:`judge_with_question` (the experiment passes the
    clean prompt: the task as the user meant it); the reference is the expected answer when given (optional).
    """

    name = "judge"
    description = "an LLM judge grades the answer with a fixed rubric (0-10)"
    needs_expected = False

    def __init__(self, spec: Any = "local", question: str = "", pass_score: float = 0.5, max_tokens: int = 16,
                 backend: Any = None, runner: Mapping[str, Any] | None = None, **backend_options: Any) -> None:
        self.spec = spec
        self.question = question
        self.pass_score = float(pass_score)
        self.max_tokens = int(max_tokens)
        self._backend = backend
        self._runner = dict(runner or {})
        self._backend_options = backend_options

    @property
    def backend(self) -> Any:
        if self._backend is None:
            from ..models import get_backend

            self._backend = get_backend(self.spec, **self._backend_options)
        return self._backend

    def request(self, text: str, reference: str = "", question: str | None = None) -> ChatRequest:
        prompt = JUDGE_RUBRIC.format(question=self.question if question is None else question,
                                     reference=reference, response=text)
        return ChatRequest(messages=(Message("user", prompt),), temperature=0.0, max_tokens=self.max_tokens)

    def verdict(self, reply: ChatResponse) -> Judgment:
        """Turn the judge's reply into a judgment."""
        if not reply.ok:
            return Judgment.unjudged(f"judge error: {reply.error}")
        score = parse_judge_reply(reply.text)
        if score is None:
            return Judgment.unjudged(f"judge reply not understood: {reply.text.strip()[:80]!r}")
        return Judgment.of(score >= self.pass_score, f"judge score {score * 10:g}/10", score=score)

    def judge_with_question(self, response: Responseish, question: str, expected: Any = None) -> Judgment:
        return self.judge_many([response], [expected], questions=[question])[0]

    def _ask(self, requests: list[ChatRequest]) -> list[Judgment]:
        try:
            from ..models.runner import run_requests

            replies = run_requests(self.backend, requests, **self._runner).responses
        except Exception as exc:  # a backend that cannot be built or raises: every judgment is unjudged
            return [Judgment.unjudged(f"judge error: {type(exc).__name__}: {exc}") for _ in requests]
        return [self.verdict(r) for r in replies]

    def _judge(self, text: str, answers: tuple[str, ...], clean: str | None) -> Judgment:
        return self._ask([self.request(text, "\n".join(answers))])[0]

    def judge_many(self, responses: Sequence[Responseish], expected: Sequence[Any] | None = None,
                   clean: Sequence[Responseish] | None = None,
                   questions: Sequence[str | None] | None = None) -> list[Judgment]:
        """One run of the judge over every usable response (``questions``: the task per response, else
        ``question``)."""
        n = len(responses)
        expected = list(expected) if expected is not None else [None] * n
        questions = list(questions) if questions is not None else [None] * n
        if len(expected) != n or len(questions) != n:
            raise ValueError("responses, expected and questions must have the same length")
        out: list[Judgment | None] = [None] * n
        todo: list[tuple[int, ChatRequest]] = []
        for i, (r, e, q) in enumerate(zip(responses, expected, questions)):
            text, why = response_text(r)
            if text is None:
                out[i] = Judgment.unjudged(why or "no response")
            else:
                todo.append((i, self.request(text, "\n".join(parse_expected(e)), q)))
        if todo:
            for (i, _), j in zip(todo, self._ask([req for _, req in todo])):
                out[i] = j
        return [j if j is not None else Judgment.unjudged("not judged") for j in out]


#: A criterion factory signature, for callers that build criteria from UI settings.
CriterionFactory = Callable[..., Criterion]
