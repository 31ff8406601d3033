"""The model-based dissector: the PromptAnatomy paper's Algorithm 1 with a verification pass.

For every sentence one classification request goes to a model: the target sentence with up to two sentences before
and two after it as context, the five component definitions, and the instruction to answer with the XML tag of every
component that applies (multi-label), e.g. ``<Directive></Directive>``. The answer only *chooses labels*: the tags are
read out of it and everything else is ignored, so a model can never change the prompt's text or offsets.

Verification: a sentence whose answer names no component, or names a tag outside the five, is asked once more (the
bad answer shown, the allowed tags listed again). If the second answer is bad too, or the model failed (error,
time-out), the sentence takes the ``rules`` dissector's labels and the source ``llm→rules``; model-labelled
sentences have the source ``llm``. Problems are kept in :attr:`LLMDissector.last_errors`, counts in
:attr:`LLMDissector.last_stats`.

Requests go out concurrently (batches over a thread pool; a local model gets one batch, it batches itself) and are
cached in this object and on disk under ``cache_dir()/dissect-llm`` (SQLite), keyed by the SHA-256 of the canonical
JSON of the model, the messages and the generation parameters. Failed answers are never cached.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import sqlite3
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..models.base import Backend, BackendError, ChatRequest, ChatResponse, Message, get_backend, parse_spec
from ..settings import cache_dir
from ..types import COMPONENTS, Component, Dissection, Sentence
from .base import Dissector, get_dissector, register

#: Sources recorded on the dissection.
SOURCE_LLM = "llm"
SOURCE_FALLBACK = "llm→rules"
#: Sentences of context on each side of the target.
CONTEXT = 2
#: Generation settings of the classification requests (greedy: the same prompt gives the same labels).
MAX_TOKENS = 48
#: Answers kept in the in-process cache before it starts afresh (the on-disk cache keeps them all).
MEMORY_ENTRIES = 100_000
#: Bump when the request wording changes in a way the messages alone would not show (they are in the key anyway).
CACHE_VERSION = 1

DEFINITIONS: dict[Component, str] = {
    Component.ROLE: "the persona or expertise the model is asked to adopt.",
    Component.DIRECTIVE: "the task or instruction to carry out, including the task's input (the question, text, "
                         "code or data to work on).",
    Component.ADDITIONAL_INFORMATION: "background, context or constraints that help with the task.",
    Component.OUTPUT_FORMATTING: "requirements on the answer's format, length or style.",
    Component.EXAMPLES: "demonstrations: sample inputs and outputs of the task.",
}

#: Worked demonstrations shown as earlier chat turns (before, target, after, labels): they fix the answer format,
#: which small models otherwise ignore. One shows a sentence with two components.
DEMONSTRATIONS: tuple[tuple[tuple[str, ...], str, tuple[str, ...], tuple[Component, ...]], ...] = (
    ((), "As an experienced nurse, explain to the patient how to take the tablets.",
     ("The patient is 80 years old.",), (Component.ROLE, Component.DIRECTIVE)),
    (("Use bullet points and stay under 100 words.",), "Example: Risk: late fees. Reason: clause 4.", (),
     (Component.EXAMPLES,)),
    (("Review the contract below and list its risks.",), "The client is a small bakery in Lyon.",
     ("Use bullet points and stay under 100 words.",), (Component.ADDITIONAL_INFORMATION,)),
    ((), "You are a senior tax lawyer.", ("Review the contract below and list its risks.",), (Component.ROLE,)),
    (("The client is a small bakery in Lyon.",), "Use bullet points and stay under 100 words.",
     ("Example: Risk: late fees. Reason: clause 4.",), (Component.OUTPUT_FORMATTING,)),
    (("You are a senior tax lawyer.",), "Review the contract below and list its risks.",
     ("The client is a small bakery in Lyon.",), (Component.DIRECTIVE,)),
)


def _tag(c: Component) -> str:
    return f"<{c.value}></{c.value}>"


def _answer(labels: Sequence[Component]) -> str:
    return "".join(_tag(c) for c in COMPONENTS if c in labels)


def system_message() -> str:
    """The definitions of the five components and the answer format."""
    defs = "\n".join(f"<{c.value}>: {DEFINITIONS[c]}" for c in COMPONENTS)
    return ("You label the TARGET sentence of a prompt with the prompt components it belongs to:\n"
            f"{defs}\n"
            "The sentences before and after the target are context only. A sentence can belong to several "
            "components. Answer only with the XML tag of every component that applies, for example "
            f"{_tag(Component.DIRECTIVE)} or {_tag(Component.ROLE)}{_tag(Component.DIRECTIVE)}, and nothing else.")


def _user(before: Sequence[str], target: str, after: Sequence[str]) -> str:
    return (f"TARGET: {target}\n"
            "Before: " + (" ".join(before) if before else "(start of prompt)") + "\n"
            "After: " + (" ".join(after) if after else "(end of prompt)"))


def build_messages(sentences: Sequence[Sentence], index: int) -> tuple[Message, ...]:
    """The classification request for sentence ``index``: definitions, demonstrations, then the target with up to
    two sentences of context on each side."""
    before = [s.text for s in sentences[max(0, index - CONTEXT):index]]
    after = [s.text for s in sentences[index + 1:index + 1 + CONTEXT]]
    messages = [Message("system", system_message())]
    for demo_before, demo_target, demo_after, demo_labels in DEMONSTRATIONS:
        messages.append(Message("user", _user(demo_before, demo_target, demo_after)))
        messages.append(Message("assistant", _answer(demo_labels)))
    messages.append(Message("user", _user(before, sentences[index].text, after)))
    return tuple(messages)


def build_reask(messages: tuple[Message, ...], answer: str) -> tuple[Message, ...]:
    """The verification request: the first exchange, then a reminder of the only allowed tags."""
    allowed = " ".join(_tag(c) for c in COMPONENTS)
    shown = answer.strip()[:400] or "(an empty answer)"
    return messages + (
        Message("assistant", shown),
        Message("user", "That answer does not name the components with the allowed tags. Answer again with only "
                        f"the tags that apply to the TARGET sentence, chosen from: {allowed}"),
    )


# --------------------------------------------------------------------------------------------------------------------
# reading labels out of an answer
# --------------------------------------------------------------------------------------------------------------------

_TAG_RE = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z _\-]{0,40}?)\s*/?\s*>")


def _norm(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())


_NAMES: dict[str, Component] = {_norm(c.value): c for c in COMPONENTS}
_NAMES.update({"example": Component.EXAMPLES, "additionalinfo": Component.ADDITIONAL_INFORMATION,
               "outputformat": Component.OUTPUT_FORMATTING, "directives": Component.DIRECTIVE,
               "roles": Component.ROLE})


@dataclass(frozen=True)
class ParsedAnswer:
    labels: frozenset[Component]
    unknown: tuple[str, ...]  # tag names outside the five

    @property
    def ok(self) -> bool:
        return bool(self.labels) and not self.unknown


def parse_labels(answer: str) -> ParsedAnswer:
    """The components named by XML tags in ``answer`` (case, spacing, ``_``/``-`` tolerated) and any other tags."""
    labels: set[Component] = set()
    unknown: list[str] = []
    for m in _TAG_RE.finditer(answer or ""):
        name = m.group(1)
        comp = _NAMES.get(_norm(name))
        if comp is not None:
            labels.add(comp)
        elif name.strip() not in unknown:
            unknown.append(name.strip())
    return ParsedAnswer(frozenset(labels), tuple(unknown))


# --------------------------------------------------------------------------------------------------------------------
# caching
# --------------------------------------------------------------------------------------------------------------------

def request_key(model_id: str, request: ChatRequest) -> str:
    """SHA-256 of the canonical JSON of everything that changes the answer."""
    payload = {"v": CACHE_VERSION, "model": model_id, **asdict(request)}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class _DiskCache:
    """A tiny SQLite key → answer-text store (one connection per call: safe across threads and processes)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "answers.sqlite"
        with self._connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, text TEXT NOT NULL, "
                       "created REAL NOT NULL)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        if not keys:
            return found
        db = self._connect()
        try:
            for i in range(0, len(keys), 500):
                chunk = list(keys[i:i + 500])
                rows = db.execute(f"SELECT key, text FROM answers WHERE key IN ({','.join('?' * len(chunk))})",
                                  chunk).fetchall()
                found.update(rows)
        finally:
            db.close()
        return found

    def put_many(self, items: dict[str, str]) -> None:
        if not items:
            return
        db = self._connect()
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO answers (key, text, created) VALUES (?, ?, ?)",
                               [(k, v, time.time()) for k, v in items.items()])
        finally:
            db.close()


def _import_provider(provider: str) -> None:
    """Import the models package (it registers its backends) and a module named after ``provider`` if there is one."""
    import importlib
    import importlib.util

    importlib.import_module("promptanatomy_core.models")
    name = f"promptanatomy_core.models.{provider}"
    if provider.isidentifier() and importlib.util.find_spec(name) is not None:
        importlib.import_module(name)


@dataclass(frozen=True)
class SentenceError:
    """A problem with one sentence's classification (the sentence then took the rules' labels)."""

    index: int
    stage: str  # "classify" | "verify" | "fallback" (index -1: the rules dissector itself failed)
    message: str


def _read_answers(indices: Iterable[int], responses: Sequence[ChatResponse], stage: str,
                  labels: dict[int, frozenset[Component]], errors: list[SentenceError]) -> list[int]:
    """Record each answer's labels (or its provider error) and return the indices whose answer named no valid label."""
    unreadable = []
    for i, resp in zip(indices, responses):
        if not resp.ok:
            errors.append(SentenceError(i, stage, resp.error or "error"))
            continue
        parsed = parse_labels(resp.text)
        if parsed.ok:
            labels[i] = parsed.labels
        else:
            unreadable.append(i)
    return unreadable


@register("llm")
class LLMDissector(Dissector):
    """Labels each sentence with a model (Algorithm 1); ``rules`` is the fallback for sentences it cannot label."""

    def __init__(self, model: str = "local", backend: Backend | None = None, concurrency: int = 4,
                 cache: bool = True, timeout: float | None = None, batch_size: int = 8) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, not {concurrency}")
        self.model = model
        self.spec = backend.spec if backend is not None else parse_spec(model)
        self._backend = backend
        self.concurrency = concurrency
        self.cache = cache
        self.timeout = timeout
        self.batch_size = max(1, batch_size)
        self._memory: dict[str, str] = {}
        self._memory_lock = threading.Lock()
        self._backend_lock = threading.Lock()
        self._last = threading.local()

    # ``last_errors`` / ``last_stats`` belong to the thread that ran ``dissect`` (one shared dissector may serve
    # several Streamlit sessions, each in its own thread).
    @property
    def last_errors(self) -> list[SentenceError]:
        """Problems of the last ``dissect`` call in this thread: one per sentence that took the rules' labels."""
        return getattr(self._last, "errors", [])

    @last_errors.setter
    def last_errors(self, value: list[SentenceError]) -> None:
        self._last.errors = value

    @property
    def last_stats(self) -> dict[str, int]:
        """Counts of the last ``dissect`` call in this thread: cache hits, backend calls, re-asks, fallbacks."""
        return getattr(self._last, "stats", {})

    @last_stats.setter
    def last_stats(self, value: dict[str, int]) -> None:
        self._last.stats = value

    # ---------------------------------------------------------------------------------------------------------------
    # the backend
    # ---------------------------------------------------------------------------------------------------------------

    @property
    def backend(self) -> Backend:
        """The model backend (built and loaded on first use); BackendError with the reason if it cannot be."""
        with self._backend_lock:
            if self._backend is None:
                _import_provider(self.spec.provider)
                try:
                    backend = get_backend(self.spec)
                except BackendError:
                    raise
                except Exception as exc:
                    raise BackendError(f"cannot build model {self.model!r} for the llm dissector: "
                                       f"{type(exc).__name__}: {exc}") from exc
                self._backend = backend
                load = getattr(backend, "load", None)
                if callable(load):
                    try:
                        load()
                    except BackendError as exc:
                        self._backend = None
                        raise BackendError(f"the llm dissector cannot load model {self.model!r}: {exc}") from exc
                    except Exception as exc:
                        self._backend = None
                        raise BackendError(f"the llm dissector cannot load model {self.model!r}: "
                                           f"{type(exc).__name__}: {exc}") from exc
            return self._backend

    def _model_id(self, backend: Backend) -> str:
        """What names the model in cache keys: provider, model (the local backend's stable checkpoint name) and
        base_url."""
        identity = getattr(backend, "cache_identity", None)
        try:
            if callable(identity):
                return json.dumps(identity(), sort_keys=True)
            model_id = getattr(backend, "model_id", None)
            return f"{backend.spec.provider}:{model_id}" if isinstance(model_id, str) else str(backend.spec)
        except Exception:
            return str(backend.spec)

    # ---------------------------------------------------------------------------------------------------------------
    # asking
    # ---------------------------------------------------------------------------------------------------------------

    def _ask(self, backend: Backend, model_id: str, requests: list[ChatRequest],
             stats: dict[str, int]) -> list[ChatResponse]:
        """Answer ``requests`` from the caches or the backend (concurrently); errors are returned, never raised."""
        keys = [request_key(model_id, r) for r in requests]
        answers: list[ChatResponse | None] = [None] * len(requests)
        disk: _DiskCache | None = None
        if self.cache:
            try:
                disk = _DiskCache(cache_dir() / "dissect-llm")
            except (OSError, sqlite3.Error):  # an unwritable cache folder: keep the in-process cache only
                disk = None
        if self.cache:
            with self._memory_lock:
                for i, k in enumerate(keys):
                    if k in self._memory:
                        answers[i] = ChatResponse(text=self._memory[k])
                        stats["memory_hits"] += 1
            missing = [keys[i] for i in range(len(keys)) if answers[i] is None]
            try:
                stored = disk.get_many(missing) if disk else {}
            except (OSError, sqlite3.Error):
                stored = {}
            for i, k in enumerate(keys):
                if answers[i] is None and k in stored:
                    answers[i] = ChatResponse(text=stored[k])
                    stats["disk_hits"] += 1
        todo = [i for i in range(len(requests)) if answers[i] is None]
        if todo:
            backend_limit = getattr(backend, "max_concurrency", None)
            limit = max(1, min(self.concurrency, int(backend_limit)) if backend_limit else self.concurrency)
            size = max(1, min(self.batch_size, math.ceil(len(todo) / limit)))  # batches: progress and a cancel
            chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
            stats["backend_calls"] += len(chunks)
            stats["requests_sent"] += len(todo)

            def call(chunk: list[int]) -> list[ChatResponse]:
                out = list(backend.generate([requests[i] for i in chunk]))
                if len(out) != len(chunk):
                    raise BackendError(f"the backend answered {len(out)} of {len(chunk)} requests")
                return out

            progress = getattr(self._last, "progress", None)
            deadline = None if self.timeout is None else time.monotonic() + self.timeout
            pool = ThreadPoolExecutor(max_workers=min(limit, len(chunks)), thread_name_prefix="dissect-llm")
            futures = {pool.submit(call, chunk): chunk for chunk in chunks}
            pending = set(futures)
            landed = 0
            try:
                while pending:
                    left = None if deadline is None else max(0.0, deadline - time.monotonic())
                    done, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
                    if not done:  # the time-out passed
                        break
                    for fut in done:
                        chunk = futures[fut]
                        try:
                            result = fut.result()
                        except Exception as exc:  # a backend that raises instead of answering with an error
                            result = [ChatResponse(error=f"{type(exc).__name__}: {exc}")] * len(chunk)
                        for i, resp in zip(chunk, result):
                            answers[i] = resp
                        self._remember({keys[i]: answers[i].text for i in chunk if answers[i].ok}, disk)
                        landed += len(chunk)
                    if progress is not None:  # may raise (a stopped Streamlit script): what landed is cached
                        progress(landed, len(todo))
                for fut in pending:
                    fut.cancel()
                    for i in futures[fut]:
                        answers[i] = ChatResponse(error=f"timed out after {self.timeout:g} s")
            finally:
                pool.shutdown(wait=not pending, cancel_futures=True)  # a timed-out call is left to finish alone
        return [a if a is not None else ChatResponse(error="no answer") for a in answers]

    def _remember(self, fresh: dict[str, str], disk: "_DiskCache | None") -> None:
        """Keep answers in the in-process and the disk cache (a disk failure only costs the disk copy)."""
        if not self.cache or not fresh:
            return
        with self._memory_lock:
            if len(self._memory) + len(fresh) > MEMORY_ENTRIES:
                self._memory.clear()
            self._memory.update(fresh)
        try:
            if disk is not None:
                disk.put_many(fresh)
        except (OSError, sqlite3.Error):
            pass

    def report_progress(self, callback: "Callable[[int, int], None] | None") -> None:
        """Call ``callback(answered, to_ask)`` in this thread as batches of the model's answers land during this
        thread's ``dissect`` calls (None: no more calls). Per thread: one dissector may serve several sessions. The
        callback may raise to stop (a Streamlit rerun): the answers that landed stay cached, so a retry resumes."""
        self._last.progress = callback

    # ---------------------------------------------------------------------------------------------------------------
    # Algorithm 1
    # ---------------------------------------------------------------------------------------------------------------

    def _label(self, prompt: str, sentences: tuple[Sentence, ...]) -> Dissection:
        backend = self.backend  # raises BackendError (clear message) if the model cannot be loaded
        model_id = self._model_id(backend)
        stats = {"sentences": len(sentences), "memory_hits": 0, "disk_hits": 0, "backend_calls": 0,
                 "requests_sent": 0, "reasked": 0, "fallbacks": 0}
        errors: list[SentenceError] = []
        first = [ChatRequest(messages=build_messages(sentences, i), temperature=0.0, max_tokens=MAX_TOKENS)
                 for i in range(len(sentences))]
        answers = self._ask(backend, model_id, first, stats)

        labels: dict[int, frozenset[Component]] = {}
        reask = _read_answers(range(len(sentences)), answers, "classify", labels, errors)
        if reask:
            stats["reasked"] = len(reask)
            second = [ChatRequest(messages=build_reask(first[i].messages, answers[i].text), temperature=0.0,
                                  max_tokens=MAX_TOKENS) for i in reask]
            second_answers = self._ask(backend, model_id, second, stats)
            by_index = dict(zip(reask, second_answers))
            for i in _read_answers(reask, second_answers, "verify", labels, errors):
                text = by_index[i].text
                parsed = parse_labels(text)
                why = (f"tags outside the five components: {', '.join(parsed.unknown)}" if parsed.unknown
                       else "no component tag")
                errors.append(SentenceError(i, "verify", f"{why} in {text.strip()[:120]!r}"))

        sources = [SOURCE_LLM] * len(sentences)
        missing = [i for i in range(len(sentences)) if i not in labels]
        if missing:
            stats["fallbacks"] = len(missing)
            try:
                fallback = get_dissector("rules").dissect(prompt, sentences).sentences
            except Exception as exc:  # never lose the prompt: the sentences stay, unlabelled
                errors.append(SentenceError(-1, "fallback", f"rules dissector failed: {type(exc).__name__}: {exc}"))
                fallback = sentences
            for i in missing:
                labels[i] = fallback[i].labels
                sources[i] = SOURCE_FALLBACK
        self.last_errors = errors
        self.last_stats = stats
        sents = tuple(s.with_labels(labels[i]) for i, s in enumerate(sentences))
        return Dissection(prompt=prompt, sentences=sents, sources=tuple(sources))
