"""Perplexity of texts under a local causal language model (the embedded SmolLM2 by default).

``PPL(text) = exp(sum of the tokens' negative log-likelihoods / number of scored tokens)``.

How a text is read
------------------
* **BOS policy** (one, everywhere): the text is encoded with ``add_special_tokens=False`` and exactly one
  begin-of-sequence token is put in front of it: the tokenizer's BOS token, else its EOS token (GPT-2 style models
  use ``<|endoftext|>`` for both). The BOS token is context only, never scored, so *every* token of the text is scored,
  the first one included, and a text of ``n`` tokens has ``n`` scored tokens. A tokenizer with neither token leaves
  the first token unscored (context only); such a text needs at least two tokens.
* Special-token strings inside the text (``<|im_end|>`` in the middle of a prompt) are read as the tokenizer reads
  them and scored like any other token: nothing stops at an EOS.
* A text longer than the model's context is scored with a strided sliding window (window = the context, stride = half
  of it by default): the first window scores its tokens, each later window scores only the tokens that the previous
  windows have not, each with at least ``context - stride`` tokens of left context. Nothing is truncated. Later windows
  start without the BOS token (they start inside the text).
* An empty text is a ``ValueError``.

How it is computed
------------------
* Distinct texts are scored once; results are cached in this process and on disk (SQLite under
  ``cache_dir()/ppl``), keyed by the model (its id and a revision: a hash of its config and weight-file sizes, or the
  Hugging Face commit), the dtype, the window settings, this module's scoring version and the text's sha256.
* On CPU, torch's thread count follows the local backend's policy (``PROMPTANATOMY_TORCH_THREADS``, else one thread
  while the machine is busy: measured here, a batch ran about twice as fast on one thread as on two when other
  processes kept both cores busy).
* Texts (and windows) are sorted by length and cut into batches of at most ``batch_size`` rows and
  ``max_tokens_per_batch`` padded tokens, and where a row is much shorter than its batch's longest (10% on CPU, 25% on
  a GPU: :data:`MAX_PAD`); rows are right-padded and carry an attention mask; pad positions never
  count. The language-model head runs only at the positions that are scored, in chunks, and the log-softmax /
  cross-entropy runs on float32 logits; the per-text sums are accumulated in float64. Results come back in the
  caller's order.
* :meth:`PerplexityScorer.score_variants` scores the variants of one clean prompt with prefix reuse: the clean prompt
  runs once with a KV cache; each variant's longest common *token* prefix with the clean prompt (computed on the token
  ids of the full texts, so the tokenisation at the edit's boundary is the variant's own) is not run again: its
  tokens' log-likelihoods are the clean prompt's, and only the rest of the variant runs, in batches that share the
  clean prompt's cached keys and values (each row masks the cached positions beyond its own prefix). The numbers equal
  full recomputation to float rounding (tested within 1e-4 relative in fp32).
* :attr:`PerplexityScorer.tokens_per_second` keeps the throughput of the scorer's last computation of at least
  :data:`MIN_RATE_TOKENS` text tokens (cache hits take no time and do not count), for time estimates.

The model and tokenizer come from :func:`promptanatomy_core.models.local.load_model` (loaded once per process and
shared with the local chat backend). torch and transformers are imported on first use.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

#: Changes whenever a change here would change a score (part of every cache key).
SCORER_VERSION = "ppl-1"
#: Batch limits by device kind: rows, padded tokens per forward pass, positions per language-model-head chunk.
BATCH_ROWS = {"cpu": 16, "gpu": 256}
BATCH_TOKENS = {"cpu": 4096, "gpu": 131072}
HEAD_CHUNK = {"cpu": 1024, "gpu": 8192}
#: A row more than this share shorter than its batch's longest starts a new batch. On CPU a batch gains little over
#: one row at a time (measured here: within noise), so padding is mostly waste; on a GPU bigger batches matter more.
MAX_PAD = {"cpu": 0.1, "gpu": 0.25}
#: A computation of at least this many text tokens measures the scorer's throughput (:attr:`tokens_per_second`).
MIN_RATE_TOKENS = 200

#: (progress callback) called with (texts done, texts in all) as batches finish.
Progress = Callable[[int, int], None]


class PerplexityError(ValueError):
    """A text cannot be scored (empty, no tokens) or the scorer was set up wrongly; the message says which."""


@dataclass(frozen=True)
class PplScore:
    """One text's score: ``ppl = exp(nll / tokens)``; ``nll`` is the total in nats over ``tokens`` scored tokens."""

    ppl: float
    nll: float
    tokens: int

    @classmethod
    def of(cls, nll: float, tokens: int) -> "PplScore":
        try:
            ppl = math.exp(nll / tokens)
        except OverflowError:
            ppl = math.inf
        return cls(ppl=ppl, nll=float(nll), tokens=int(tokens))


# ------------------------------------------------------------------------------------------------------- the cache

_MEMORY: dict[str, PplScore] = {}
_MEMORY_LOCK = threading.Lock()


def clear_memory_cache() -> None:
    """Forget the scores cached in this process (the disk cache stays)."""
    with _MEMORY_LOCK:
        _MEMORY.clear()


class _DiskCache:
    """Scores in one SQLite file; any SQLite error turns the disk cache off for this object (never fails a score)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / "ppl.sqlite"
        self.ok = True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("CREATE TABLE IF NOT EXISTS ppl (key TEXT PRIMARY KEY, ppl REAL, nll REAL, tokens INTEGER)")
        except (OSError, sqlite3.Error):
            self.ok = False

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(str(self.path), timeout=30)

    def get(self, keys: Sequence[str]) -> dict[str, PplScore]:
        found: dict[str, PplScore] = {}
        if not self.ok or not keys:
            return found
        try:
            with self._connect() as db:
                for i in range(0, len(keys), 500):
                    chunk = list(keys[i:i + 500])
                    marks = ",".join("?" * len(chunk))
                    for key, ppl, nll, tokens in db.execute(
                            f"SELECT key, ppl, nll, tokens FROM ppl WHERE key IN ({marks})", chunk):
                        found[key] = PplScore(ppl=float(ppl), nll=float(nll), tokens=int(tokens))
        except sqlite3.Error:
            self.ok = False
        return found

    def put(self, items: dict[str, PplScore]) -> None:
        if not self.ok or not items:
            return
        try:
            with self._connect() as db:
                db.executemany("INSERT OR REPLACE INTO ppl (key, ppl, nll, tokens) VALUES (?, ?, ?, ?)",
                               [(k, s.ppl, s.nll, s.tokens) for k, s in items.items()])
        except sqlite3.Error:
            self.ok = False


# ---------------------------------------------------------------------------------------------------- model spec

def parse_model(model: str | None) -> str | None:
    """The model name to resolve from a scorer's ``model`` argument: None/``local`` → the default local model,
    ``local:<hf id or path>`` → that model, anything else → a Hugging Face id or a path as given. Other providers'
    SPECs (``openai:…``, ``anthropic:…``) are rejected: perplexity needs the model's token log-likelihoods."""
    if model is None:
        return None
    text = model.strip()
    provider, sep, rest = text.partition(":")
    if sep and provider.lower() == "local":
        return rest.strip() or None
    if not sep and text.lower() == "local":
        return None
    if sep and provider.lower() in {"openai", "anthropic"}:
        raise PerplexityError(f"perplexity needs a local transformers model, not {text!r}; "
                              f"use 'local' or 'local:<hf id or path>'")
    return text or None


def _revision(path: str) -> str:
    """A short fingerprint of the checkpoint at ``path``: its config and weight files' names and sizes (a folder),
    else the Hugging Face commit of the cached snapshot (or a hash of the config when there is none)."""
    digest = hashlib.sha256()
    folder = Path(path)
    if folder.is_dir():
        config = folder / "config.json"
        digest.update(config.read_bytes() if config.is_file() else b"")
        for f in sorted(folder.iterdir()):
            if f.suffix in {".safetensors", ".bin", ".gguf", ".pt"} and f.is_file():
                digest.update(f"{f.name}:{f.stat().st_size}".encode())
        return digest.hexdigest()[:16]
    try:
        from transformers import AutoConfig

        config = AutoConfig.from_pretrained(path)
    except Exception:  # noqa: BLE001 - the load that follows reports the real problem
        return "unknown"
    commit = getattr(config, "_commit_hash", None)
    return str(commit) if commit else hashlib.sha256(config.to_json_string().encode()).hexdigest()[:16]


def _dtype_name(dtype: Any) -> str:
    return str(dtype).replace("torch.", "")


def _parse_dtype(dtype: Any) -> Any:
    if dtype is None or not isinstance(dtype, str):
        return dtype
    import torch

    names = {"float32": torch.float32, "fp32": torch.float32, "float": torch.float32, "bfloat16": torch.bfloat16,
             "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16, "half": torch.float16}
    try:
        return names[dtype.strip().lower()]
    except KeyError:
        raise PerplexityError(f"unknown dtype {dtype!r}; use float32, bfloat16 or float16") from None


# ------------------------------------------------------------------------------------------------------ the rows

@dataclass
class _Row:
    """One sequence fed to the model: ``ids`` at positions ``start, start+1, …``; the targets ``ids[t]`` for
    ``t >= first`` are scored (each from the output at ``t - 1``) and added to the text ``owner``. With a prefix
    cache the row also sees the cached positions ``0 … start-1``."""

    owner: int
    ids: list[int]
    first: int = 1
    start: int = 0


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _batches(rows: list[_Row], max_rows: int, max_tokens: int, max_pad: float = 1.0) -> list[list[_Row]]:
    """Rows sorted by length (longest first), cut into batches within ``max_rows`` rows and ``max_tokens`` padded
    tokens (a row longer than ``max_tokens`` goes alone); a row shorter than the batch's first by more than the share
    ``max_pad`` of it starts a new batch."""
    batches: list[list[_Row]] = []
    current: list[_Row] = []
    width = 0
    for row in sorted(rows, key=lambda r: len(r.ids), reverse=True):
        if current and (len(current) >= max_rows or width * (len(current) + 1) > max_tokens
                        or width - len(row.ids) > max_pad * width):
            batches.append(current)
            current = []
        if not current:
            width = len(row.ids)
        current.append(row)
    if current:
        batches.append(current)
    return batches


# ---------------------------------------------------------------------------------------------------- the scorer

class PerplexityScorer:
    """Perplexity under a local causal LM. ``model``: None or ``local`` (the default local model: PROMPTANATOMY_MODEL,
    else the embedded SmolLM2), ``local:<hf id or path>``, or a Hugging Face id / checkpoint folder. ``device``:
    ``auto`` (cuda > mps > cpu) or a torch device; ``dtype``: default bf16 on CUDA (fp16 on MPS), fp32 on CPU.
    ``batch_size`` / ``max_tokens_per_batch``: rows and padded tokens per forward pass (None: 16 / 4096 on CPU,
    256 / 131072 on a GPU). ``max_context``: the window length (default the model's context); ``stride``: the window
    step (default half the window). ``cache``: True (this process + ``cache_dir()/ppl``), a folder for the disk
    cache, or False (no caching at all; identical texts in one call are still scored once)."""

    def __init__(self, model: str | None = None, device: str = "auto", dtype: Any = None,
                 batch_size: int | None = None, max_tokens_per_batch: int | None = None,
                 max_context: int | None = None, stride: int | None = None,
                 cache: bool | str | os.PathLike[str] = True) -> None:
        self.model_name = parse_model(model)
        self.device_arg = device or "auto"
        self.dtype_arg = _parse_dtype(dtype)
        for name, value in (("batch_size", batch_size), ("max_tokens_per_batch", max_tokens_per_batch),
                            ("max_context", max_context), ("stride", stride)):
            if value is not None and (not isinstance(value, int) or value < 1):
                raise PerplexityError(f"{name} must be a positive integer, not {value!r}")
        if max_context is not None and max_context < 2:
            raise PerplexityError("max_context must be at least 2 tokens")
        self.batch_size = batch_size
        self.max_tokens_per_batch = max_tokens_per_batch
        self._max_context = max_context
        self._stride = stride
        self._cache_arg = cache
        self._disk: _DiskCache | None = None
        self._path: str | None = None
        self._model_id: str | None = None
        self._revision: str | None = None
        self._device: str | None = None
        self._dtype: Any = None
        self._loaded: Any = None
        self._layout: dict[str, Any] | None = None
        #: Work counters: forward passes, real and padded tokens fed, texts computed, cache hits.
        self.stats = {"forward_calls": 0, "tokens": 0, "padded_tokens": 0, "texts_computed": 0, "cache_hits": 0}
        #: Text tokens scored a second by the last computation of at least :data:`MIN_RATE_TOKENS` tokens (None before
        #: one): the texts' own tokens over the wall time after the model was loaded, prefix reuse and padding
        #: included, i.e. what scoring that many tokens again is likely to take on this machine.
        self.tokens_per_second: float | None = None

    # ------------------------------------------------------------------------------------------- identity & setup

    @property
    def model_path(self) -> str:
        """The checkpoint folder or Hugging Face id scored with (the embedded model is converted on first use)."""
        if self._path is None:
            from ..models.base import BackendError
            from ..models.embedded import EmbeddedModelError, resolve_model

            try:
                self._path = resolve_model(self.model_name)
            except EmbeddedModelError as exc:
                raise BackendError(str(exc)) from exc
        return self._path

    @property
    def model_id(self) -> str:
        """A stable name of the model for cache keys (the embedded model's does not depend on the cache folder)."""
        if self._model_id is None:
            from ..settings import default_local_model

            name = self.model_name or default_local_model()
            if name:
                self._model_id = f"local:{name}"
            else:
                from ..models.embedded import embedded_model_id

                self._model_id = f"local:{embedded_model_id()}"
        return self._model_id

    @property
    def revision(self) -> str:
        if self._revision is None:
            self._revision = _revision(self.model_path)
        return self._revision

    @property
    def device(self) -> str:
        if self._device is None:
            if self.device_arg == "auto":
                from ..models.local import pick_device

                self._device = pick_device()
            else:
                self._device = self.device_arg
        return self._device

    @property
    def dtype(self) -> Any:
        if self._dtype is None:
            from ..models.local import pick_dtype

            self._dtype = self.dtype_arg if self.dtype_arg is not None else pick_dtype(self.device)
        return self._dtype

    @property
    def on_gpu(self) -> bool:
        return not self.device.startswith("cpu")

    def load(self) -> Any:
        """Load the model now (once per process, shared with the local backend); BackendError if it cannot be."""
        if self._loaded is None:
            from ..models.local import load_model

            self._loaded = load_model(self.model_path, self.device, self.dtype)
        return self._loaded

    @property
    def context(self) -> int:
        """The window length: ``max_context`` if given (at most the model's), else the model's context."""
        model_context = self.load().context
        return min(self._max_context, model_context) if self._max_context else model_context

    @property
    def stride(self) -> int:
        context = self.context
        return max(1, min(self._stride or context // 2, context - 1))

    @property
    def bos_id(self) -> int | None:
        """The token put in front of every text (the BOS policy: the tokenizer's BOS, else its EOS, else none)."""
        tok = self.load().tokenizer
        return tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id

    def _limits(self) -> tuple[int, int, int, float]:
        """Rows and padded tokens per batch, positions per head chunk, and the padding share that cuts a batch."""
        kind = "gpu" if self.on_gpu else "cpu"
        rows = self.batch_size or BATCH_ROWS[kind]
        tokens = self.max_tokens_per_batch or BATCH_TOKENS[kind]
        return rows, tokens, HEAD_CHUNK[kind], MAX_PAD[kind]

    # ----------------------------------------------------------------------------------------------- tokenising

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids as scored (the BOS policy applied): ``[bos] + tokens(text)``."""
        tok = self.load().tokenizer
        encoded = tok(list(texts), add_special_tokens=False)["input_ids"] if texts else []
        bos = self.bos_id
        out = [([bos] if bos is not None else []) + list(ids) for ids in encoded]
        for text, ids in zip(texts, out):
            if len(ids) < 2:
                raise PerplexityError(f"the text {text[:40]!r} encodes to too few tokens to score")
        return out

    def count_tokens(self, text: str) -> int:
        """The number of tokens of ``text`` that a score covers."""
        _check_texts([text])
        return len(self.encode([text])[0]) - 1

    def _windows(self, owner: int, ids: list[int]) -> list[_Row]:
        context = self.context
        if len(ids) <= context:
            return [_Row(owner, ids)]
        stride, rows, begin, scored_to = self.stride, [], 0, 1
        while True:
            end = min(begin + context, len(ids))
            rows.append(_Row(owner, ids[begin:end], first=max(scored_to, begin + 1) - begin))
            scored_to = end
            if end == len(ids):
                return rows
            begin += stride

    # ----------------------------------------------------------------------------------------------- caching

    def _key(self, text: str) -> str:
        parts = [SCORER_VERSION, self.model_id, self.revision, _dtype_name(self.dtype), self._max_context or 0,
                 self._stride or 0, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()

    def _disk_cache(self) -> _DiskCache | None:
        if self._cache_arg is False:
            return None
        if self._disk is None:
            if self._cache_arg is True:
                from ..settings import cache_dir

                folder = cache_dir() / "ppl"
            else:
                folder = Path(self._cache_arg)  # type: ignore[arg-type]
            self._disk = _DiskCache(folder)
        return self._disk

    def _lookup(self, texts: Sequence[str]) -> dict[str, PplScore]:
        """Cached scores of ``texts`` (distinct), by text."""
        if self._cache_arg is False or not texts:
            return {}
        keys = {self._key(t): t for t in texts}
        found: dict[str, PplScore] = {}
        with _MEMORY_LOCK:
            for key, text in keys.items():
                if key in _MEMORY:
                    found[text] = _MEMORY[key]
        missing = [k for k, t in keys.items() if t not in found]
        disk = self._disk_cache()
        if missing and disk is not None:
            from_disk = disk.get(missing)
            with _MEMORY_LOCK:
                _MEMORY.update(from_disk)
            for key, score in from_disk.items():
                found[keys[key]] = score
        self.stats["cache_hits"] += len(found)
        return found

    def _store(self, scores: dict[str, PplScore]) -> None:
        if self._cache_arg is False or not scores:
            return
        keyed = {self._key(t): s for t, s in scores.items()}
        with _MEMORY_LOCK:
            _MEMORY.update(keyed)
        disk = self._disk_cache()
        if disk is not None:
            disk.put(keyed)

    # ----------------------------------------------------------------------------------------------- public API

    def score(self, texts: Sequence[str], progress: Progress | None = None) -> list[float]:
        """The perplexity of each text, in order (see the module's notes); ValueError for an empty text."""
        return [s.ppl for s in self.score_detailed(texts, progress)]

    def score_one(self, text: str) -> float:
        return self.score([text])[0]

    def score_detailed(self, texts: Sequence[str], progress: Progress | None = None) -> list[PplScore]:
        """Like :meth:`score`, with each text's total NLL and scored-token count."""
        texts = list(texts)
        _check_texts(texts)
        distinct = list(dict.fromkeys(texts))
        results = self._lookup(distinct)
        todo = [t for t in distinct if t not in results]
        if todo:
            computed = self._compute(todo, progress, done=len(distinct) - len(todo), total=len(distinct))
            self._store(computed)
            results.update(computed)
        elif progress is not None:
            progress(len(distinct), len(distinct))
        return [results[t] for t in texts]

    def score_variants(self, clean: str, variants: Sequence[str],
                       progress: Progress | None = None) -> tuple[float, list[float]]:
        """``(PPL(clean), [PPL(variant) …])`` with prefix reuse: the tokens a variant shares with the start of the
        clean prompt are computed once (see the module's notes). Equals :meth:`score` to float rounding."""
        clean_score, scores = self.score_variants_detailed(clean, variants, progress)
        return clean_score.ppl, [s.ppl for s in scores]

    def score_variants_detailed(self, clean: str, variants: Sequence[str],
                                progress: Progress | None = None) -> tuple[PplScore, list[PplScore]]:
        variants = list(variants)
        _check_texts([clean] + variants)
        distinct = list(dict.fromkeys([clean] + variants))
        results = self._lookup(distinct)
        todo = [t for t in distinct if t not in results]
        if todo:
            computed = self._compute(todo, progress, done=len(distinct) - len(todo), total=len(distinct),
                                     clean=clean)
            self._store(computed)
            results.update(computed)
        elif progress is not None:
            progress(len(distinct), len(distinct))
        return results[clean], [results[t] for t in variants]

    # ----------------------------------------------------------------------------------------------- computing

    def _compute(self, texts: list[str], progress: Progress | None, done: int, total: int,
                 clean: str | None = None) -> dict[str, PplScore]:
        """Score the distinct ``texts`` (none cached); with ``clean``, reuse the clean prompt's prefix."""
        import torch

        from ..models.local import _threads as cpu_thread_scope  # the local backend's CPU thread policy

        loaded = self.load()
        started = time.monotonic()
        ids = self.encode(texts)
        nll = [0.0] * len(texts)
        counts = [0] * len(texts)
        plain: list[_Row] = []  # whole texts and windows
        reused: list[_Row] = []  # variants' suffixes after the prefix they share with the clean prompt
        context = self.context
        with loaded.lock, cpu_thread_scope(loaded), torch.inference_mode():
            kv = cum = None
            if clean is not None and any(t != clean for t in texts) and self._prefix_reuse_ok():
                clean_ids = self.encode([clean])[0]
                if len(clean_ids) <= context:
                    kv, cum = self._run_clean(clean_ids)  # kv None: a cache this module cannot copy (no reuse)
            for i, (text, seq) in enumerate(zip(texts, ids)):
                if cum is not None and text == clean:
                    nll[i], counts[i] = cum[-1], len(seq) - 1
                    continue
                # q: the variant's tokens 0 … q-1 are the clean prompt's and stay cached; it runs from token q
                # (the clean prompt's too, so targets 1 … q are the clean prompt's) and scores targets q+1 …
                q = _common_prefix(seq, clean_ids) - 1 if kv is not None and len(seq) <= context else 0
                if q >= 1:
                    nll[i], counts[i] = cum[q], q
                    reused.append(_Row(i, seq[q:], first=1, start=q))
                else:
                    plain.extend(self._windows(i, seq))
            pending: dict[int, int] = {}
            for row in plain + reused:
                pending[row.owner] = pending.get(row.owner, 0) + 1
            done += len(texts) - len(pending)
            if progress is not None:
                progress(done, total)
            max_rows, max_tokens, _, max_pad = self._limits()
            work = [(b, None) for b in _batches(plain, max_rows, max_tokens, max_pad)]
            work += [(b, kv) for b in _batches(reused, max_rows, max_tokens, max_pad)]
            for batch, prefix_kv in work:
                for row, (s, c) in zip(batch, self._run_rows(batch, prefix_kv)):
                    nll[row.owner] += s
                    counts[row.owner] += c
                    pending[row.owner] -= 1
                    done += pending[row.owner] == 0
                if progress is not None:
                    progress(done, total)
        self.stats["texts_computed"] += len(texts)
        fed = sum(len(seq) for seq in ids)
        elapsed = time.monotonic() - started
        if fed >= MIN_RATE_TOKENS and elapsed > 0:
            self.tokens_per_second = fed / elapsed
        return {t: PplScore.of(nll[i], counts[i]) for i, t in enumerate(texts)}

    def _prefix_reuse_ok(self) -> bool:
        """Prefix reuse needs plain (full-attention) layers whose keys and values this module can copy."""
        config = self.load().model.config
        text_config = config.get_text_config(decoder=True) if hasattr(config, "get_text_config") else config
        if getattr(text_config, "sliding_window", None) or getattr(text_config, "attention_chunk_size", None):
            return False
        layer_types = getattr(text_config, "layer_types", None)
        return not layer_types or all(t == "full_attention" for t in layer_types)

    def _model_layout(self) -> dict[str, Any]:
        """How to run the model: its decoder and head separately (the head then runs only at scored positions)
        when the causal-LM head is a plain linear layer, else the whole model."""
        if self._layout is None:
            import torch

            loaded = self.load()
            model = loaded.model
            config = model.config
            head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
            body = getattr(model, "base_model", None)
            scaled = any(getattr(config, name, None) not in (None, 1, 1.0) for name in
                         ("final_logit_softcapping", "logit_scale", "logits_scaling", "output_multiplier_scale"))
            split = (isinstance(head, torch.nn.Linear) and body is not None and body is not model and not scaled)
            runner = body if split else model
            import inspect

            params = inspect.signature(runner.forward).parameters
            cache_arg = "cache" if "cache" in params else "past_key_values"
            self._layout = {"split": split, "runner": runner, "head": head, "cache_arg": cache_arg}
        return self._layout

    def _forward(self, input_ids: Any, attention_mask: Any, position_ids: Any, cache: Any = None,
                 use_cache: bool = False) -> tuple[Any, Any]:
        """Hidden states (split layout) or logits (whole model) for a batch, and the returned cache."""
        layout = self._model_layout()
        kwargs = {"input_ids": input_ids, "attention_mask": attention_mask, "position_ids": position_ids,
                  "use_cache": use_cache}
        if cache is not None:
            kwargs[layout["cache_arg"]] = cache
        out = layout["runner"](**kwargs)
        self.stats["forward_calls"] += 1
        values = out.last_hidden_state if layout["split"] else out.logits
        new_cache = getattr(out, "cache", None) if hasattr(out, "cache") else getattr(out, "past_key_values", None)
        return values, new_cache

    def _token_nll(self, values: Any, targets: Any) -> Any:
        """Per-position NLL (float32) of ``targets`` given hidden states / logits at those positions, in chunks."""
        import torch
        import torch.nn.functional as F

        layout = self._model_layout()
        chunk = self._limits()[2]
        parts = []
        for i in range(0, values.shape[0], chunk):
            v = values[i:i + chunk]
            logits = layout["head"](v) if layout["split"] else v
            parts.append(F.cross_entropy(logits.float(), targets[i:i + chunk], reduction="none"))
        return torch.cat(parts) if parts else values.new_zeros(0, dtype=torch.float32)

    def _run_clean(self, clean_ids: list[int]) -> tuple[Any, list[float]]:
        """Run the clean prompt once: its KV cache (per layer keys and values; None if the model's cache does not
        hold them as tensors) and the cumulative NLL ``cum[t]`` of its targets ``1 … t`` (``cum[0] = 0``)."""
        import torch

        device = self.load().device
        n = len(clean_ids)
        input_ids = torch.tensor([clean_ids], dtype=torch.long, device=device)
        mask = torch.ones_like(input_ids)
        pos = torch.arange(n, device=device).unsqueeze(0)
        values, cache = self._forward(input_ids, mask, pos, use_cache=True)
        self.stats["tokens"] += n
        self.stats["padded_tokens"] += n
        token_nll = self._token_nll(values[0, :-1], input_ids[0, 1:]).cpu().double()  # no float64 on MPS
        cum = [0.0] + torch.cumsum(token_nll, 0).tolist()
        layers = getattr(cache, "layers", None) or []
        kv = [(getattr(layer, "keys", None), getattr(layer, "values", None)) for layer in layers]
        usable = bool(kv) and all(isinstance(k, torch.Tensor) and isinstance(v, torch.Tensor) and k.shape[-2] == n
                                  for k, v in kv)
        return (kv if usable else None), cum

    def _run_rows(self, batch: list[_Row], prefix_kv: Any = None) -> list[tuple[float, int]]:
        """Forward one batch of rows (right-padded, masked); per row the summed NLL of its scored targets and
        their number. With ``prefix_kv`` (the clean prompt's keys and values) row r also sees cached positions
        ``0 … r.start-1``."""
        import torch

        loaded = self.load()
        device = loaded.device
        pad = loaded.tokenizer.pad_token_id if loaded.tokenizer.pad_token_id is not None else 0
        rows, width = len(batch), max(len(r.ids) for r in batch)
        lengths = torch.tensor([len(r.ids) for r in batch], dtype=torch.long)
        input_ids = torch.full((rows, width), pad, dtype=torch.long)
        for i, r in enumerate(batch):
            input_ids[i, :len(r.ids)] = torch.tensor(r.ids, dtype=torch.long)
        cols = torch.arange(width).unsqueeze(0)
        real = cols < lengths.unsqueeze(1)
        starts = torch.tensor([r.start for r in batch], dtype=torch.long).unsqueeze(1)
        # pad positions repeat the row's last position (never beyond a learned position table)
        position_ids = starts + torch.minimum(cols, (lengths - 1).unsqueeze(1))
        cache = None
        if prefix_kv is not None:
            span = max(r.start for r in batch)
            seen = torch.arange(span).unsqueeze(0) < starts  # cached position j < row's own prefix length
            mask = torch.cat([seen, real], dim=1)
            if span > 0:
                from transformers import DynamicCache

                cache = DynamicCache(ddp_cache_data=[(k[:, :, :span].expand(rows, -1, -1, -1),
                                                      v[:, :, :span].expand(rows, -1, -1, -1))
                                                     for k, v in prefix_kv])
            else:
                mask = real
        else:
            mask = real
        values, _ = self._forward(input_ids.to(device), mask.long().to(device), position_ids.to(device),
                                  cache=cache, use_cache=cache is not None)
        self.stats["tokens"] += int(lengths.sum())
        self.stats["padded_tokens"] += rows * width
        # target t of a row (t >= first, t < length) is predicted by the output at t - 1
        firsts = torch.tensor([r.first for r in batch], dtype=torch.long).unsqueeze(1)
        target_cols = cols[:, 1:]
        scored = (target_cols >= firsts) & (target_cols < lengths.unsqueeze(1))
        scored_dev = scored.to(device)
        token_nll = self._token_nll(values[:, :-1][scored_dev], input_ids[:, 1:].to(device)[scored_dev])
        owner = torch.arange(rows).unsqueeze(1).expand(rows, width - 1)[scored]
        # summed on the CPU in float64 (MPS has no float64; the per-token values are few)
        sums = torch.zeros(rows, dtype=torch.float64).index_add_(0, owner, token_nll.cpu().double())
        counts = scored.sum(dim=1)
        return list(zip(sums.tolist(), counts.tolist()))


def _check_texts(texts: Iterable[Any]) -> None:
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise PerplexityError(f"text {i} is a {type(text).__name__}, not a string")
        if not text:
            raise PerplexityError(f"text {i} is empty; perplexity needs at least one token")
