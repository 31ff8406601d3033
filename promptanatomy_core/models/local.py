"""The local backend: a transformers causal LM in this process (provider ``local``).

``local`` is the default model (``PROMPTANATOMY_MODEL``, else the embedded SmolLM2 checkpoint); ``local:<id or path>``
names a Hugging Face model id or a checkpoint folder. torch and transformers are imported on first use.

Generation is a small decoding loop of its own over a batch of left-padded prompts, so every request in a batch keeps
its own settings: greedy when ``temperature == 0``, else sampling from ``softmax(logits / temperature)`` with a
``torch.Generator`` seeded from the request's ``seed`` (the same request gives the same sample in any batch);
``max_tokens`` and ``stop`` per row; rows that finish leave the batch (their KV cache rows are dropped). Each generated
token comes back with its probability under the model's own distribution (``softmax(logits)``, temperature 1),
which is what decoding-confidence metrics need. ``top_p`` (when set) restricts sampling to the nucleus; a request's
``sample_index`` is mixed into its seed, so the samples of one request differ but each is reproducible. A request that fails (bad input, prompt too long, an exception in the
model) gets a response with ``error`` set; the others in its batch are answered one by one.
"""
from __future__ import annotations

import inspect
import os
import secrets
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from .base import Backend, BackendError, ChatRequest, ChatResponse, ModelSpec, TokenProb, register_provider

#: Roles a chat request may use.
ROLES = frozenset({"system", "user", "assistant"})
#: At most this many prompt tokens (rows × padded length) go through the model in one batch.
TOKEN_BUDGET_CPU = 8192
TOKEN_BUDGET_GPU = 65536
MAX_BATCH_CPU = 16
MAX_BATCH_GPU = 64
#: Environment variable fixing the number of CPU threads torch uses while generating (default: automatic).
THREADS_ENV = "PROMPTANATOMY_TORCH_THREADS"
#: A batch whose prompts share at least this many leading tokens runs that prefix once and reuses its KV cache.
MIN_SHARED_PREFIX = 16


@dataclass
class LoadedModel:
    """A tokenizer and model loaded once per process (see :func:`load_model`)."""

    path: str
    model: Any
    tokenizer: Any
    device: str
    dtype: Any
    eos_ids: frozenset[int]
    context: int
    load_seconds: float
    default_threads: int = 1
    cache_arg: str = "cache"  # the forward() keyword for the KV cache ("past_key_values" before transformers 5.x)
    lock: threading.Lock = field(default_factory=threading.Lock)  # one generation at a time per model


_LOADED: dict[tuple[str, str, str], LoadedModel] = {}
_LOAD_LOCK = threading.Lock()


def pick_device() -> str:
    """``cuda`` if available, else ``mps``, else ``cpu``."""
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def pick_dtype(device: str) -> Any:
    """bf16 on CUDA (fp16 where bf16 is unsupported, and on MPS), fp32 on CPU."""
    import torch

    if device.startswith("cuda"):
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    if device.startswith("mps"):
        return torch.float16
    return torch.float32


def cpu_threads(default: int) -> int:
    """Threads for one CPU generation call: ``PROMPTANATOMY_TORCH_THREADS`` if set (a positive number), else torch's default, or 1 when
    the machine is already busy (1-minute load average at or above the core count). Measured here: with other
    processes busy on 2 cores, decoding on 2 threads ran about 10x slower than on 1 (OpenMP threads wait on each
    other at every small operation), while on an idle machine 2 threads gain well under 2x."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    try:
        busy = os.getloadavg()[0] >= (os.cpu_count() or 1)
    except (OSError, AttributeError):  # no load average on this platform
        busy = False
    return 1 if busy else default


def _eos_ids(model: Any, tokenizer: Any) -> frozenset[int]:
    ids: set[int] = set()
    for source in (getattr(model, "generation_config", None), model.config):
        value = getattr(source, "eos_token_id", None) if source is not None else None
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, (list, tuple)):
            ids.update(v for v in value if isinstance(v, int))
    if tokenizer.eos_token_id is not None:
        ids.add(tokenizer.eos_token_id)
    for name in ("<|im_end|>", "<|eot_id|>", "<|endoftext|>", "<end_of_turn>"):
        tid = tokenizer.convert_tokens_to_ids(name) if name in tokenizer.get_vocab() else None
        if isinstance(tid, int) and tid != tokenizer.unk_token_id:
            ids.add(tid)
    return frozenset(ids)


def load_model(path: str, device: str | None = None, dtype: Any = None) -> LoadedModel:
    """Load (once per process; later calls return the same object) the tokenizer and model at ``path``."""
    import torch

    device = device or pick_device()
    dtype = dtype if dtype is not None else pick_dtype(device)
    key = (path, device, str(dtype))
    with _LOAD_LOCK:
        loaded = _LOADED.get(key)
        if loaded is not None:
            return loaded
        from transformers import AutoModelForCausalLM, AutoTokenizer

        started = time.monotonic()
        try:
            tokenizer = AutoTokenizer.from_pretrained(path)
            model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype)
        except Exception as exc:
            hint = ("" if os.path.isdir(path) else " (a Hugging Face id must already be in the local Hugging Face "
                                                   "cache when there is no network; or give a checkpoint folder)")
            raise BackendError(f"cannot load local model {path!r}: {type(exc).__name__}: {exc}{hint}") from exc
        model.to(device)
        model.eval()
        tokenizer.padding_side = "left"
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        context = int(getattr(model.config, "max_position_embeddings", 0) or 0) or 2048
        params = inspect.signature(model.forward).parameters
        loaded = LoadedModel(path=path, model=model, tokenizer=tokenizer, device=device, dtype=dtype,
                             eos_ids=_eos_ids(model, tokenizer), context=context,
                             load_seconds=time.monotonic() - started, default_threads=torch.get_num_threads(),
                             cache_arg="cache" if "cache" in params else "past_key_values")
        _LOADED[key] = loaded
        return loaded


# --------------------------------------------------------------------------------------------------------------------
# prompt preparation
# --------------------------------------------------------------------------------------------------------------------

def _render(tokenizer: Any, request: ChatRequest) -> list[int]:
    """The prompt token ids for ``request`` (chat template with the generation prompt); ValueError if unusable."""
    if not request.messages:
        raise ValueError("the request has no messages")
    messages = []
    for m in request.messages:
        if m.role not in ROLES:
            raise ValueError(f"unknown message role {m.role!r}; use one of {', '.join(sorted(ROLES))}")
        if not isinstance(m.content, str):
            raise ValueError(f"message content must be text, not {type(m.content).__name__}")
        messages.append({"role": m.role, "content": m.content})
    if request.max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, not {request.max_tokens}")
    if request.temperature < 0:
        raise ValueError(f"temperature must be >= 0, not {request.temperature}")
    top_p = getattr(request, "top_p", None)
    if top_p is not None and not 0 < top_p <= 1:
        raise ValueError(f"top_p must be in (0, 1], not {top_p}")
    if getattr(tokenizer, "chat_template", None):
        text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    else:  # a base model without a template: a plain transcript
        text = "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant:"
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    if not ids:
        raise ValueError("the prompt encodes to no tokens")
    return list(ids)


_RESPONSE_FIELDS = frozenset(getattr(ChatResponse, "__dataclass_fields__", ()))


def _seed(request: ChatRequest) -> int:
    """The sampling seed: the request's (mixed with its ``sample_index``, so the samples of one request differ),
    else a random one."""
    if request.seed is None:
        return secrets.randbits(63)
    index = int(getattr(request, "sample_index", 0) or 0)
    return (int(request.seed) + index * 1_000_003) % (2 ** 63) if index else int(request.seed) % (2 ** 63)


def _sampling_probs(logits: Any, temperature: float, top_p: float | None) -> Any:
    """``softmax(logits / temperature)``, restricted to the smallest set of tokens whose mass reaches ``top_p``."""
    import torch

    probs = torch.softmax(logits / temperature, dim=-1)
    if top_p is not None and 0 < top_p < 1:
        sorted_p, order = torch.sort(probs, descending=True)
        outside = sorted_p.cumsum(-1) - sorted_p >= top_p  # tokens after the nucleus is full
        sorted_p[outside] = 0
        probs = torch.zeros_like(probs).scatter(-1, order, sorted_p)
        probs = probs / probs.sum()
    return probs


def _common_prefix(prompts: list[list[int]]) -> int:
    """Length of the token prefix all ``prompts`` share, leaving every prompt at least one token of its own."""
    first = prompts[0]
    n = min(len(p) for p in prompts) - 1
    for p in prompts[1:]:
        i = 0
        while i < n and p[i] == first[i]:
            i += 1
        n = i
    return max(n, 0)


def _truncate_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    cut = min((i for i in (text.find(s) for s in stops if s) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)


@dataclass
class _Row:
    index: int  # position in the caller's request list
    request: ChatRequest
    prompt: list[int]
    generator: Any = None
    ids: list[int] = field(default_factory=list)
    probs: list[float] = field(default_factory=list)
    text: str | None = None
    done: bool = False
    ended_by_eos: bool = False
    finish: str = "length"


def _decode_batch(loaded: LoadedModel, rows: list[_Row]) -> None:
    """Run the decoding loop for ``rows`` (prompts prepared), filling each row's ids, probs and text."""
    import torch

    tok, model, device = loaded.tokenizer, loaded.model, loaded.device
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    for r in rows:
        if r.request.temperature > 0:
            r.generator = torch.Generator(device="cpu").manual_seed(_seed(r.request))
    # a prefix every prompt shares (system prompt, few-shot turns) goes through the model once
    shared = _common_prefix([r.prompt for r in rows]) if len(rows) > 1 else 0
    past = None
    if shared >= MIN_SHARED_PREFIX:
        with torch.inference_mode():
            prefix = torch.tensor([rows[0].prompt[:shared]], dtype=torch.long, device=device)
            out = model(input_ids=prefix, use_cache=True, logits_to_keep=1)
        past = out.cache if loaded.cache_arg == "cache" else out.past_key_values
        past.batch_repeat_interleave(len(rows))
    else:
        shared = 0
    width = max(len(r.prompt) for r in rows) - shared
    input_ids = torch.full((len(rows), width), pad, dtype=torch.long)
    suffix_mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        n = len(r.prompt) - shared
        input_ids[i, width - n:] = torch.tensor(r.prompt[shared:], dtype=torch.long)
        suffix_mask[i, width - n:] = 1
    input_ids, suffix_mask = input_ids.to(device), suffix_mask.to(device)
    positions = shared + (suffix_mask.cumsum(-1) - 1).clamp(min=0)
    mask = torch.cat([torch.ones((len(rows), shared), dtype=torch.long, device=device), suffix_mask], dim=-1)
    active = list(range(len(rows)))  # rows still decoding, in the order of the tensors' batch dimension
    step_ids, step_pos = input_ids, positions
    max_new = max(r.request.max_tokens for r in rows)
    with torch.inference_mode():
        for _ in range(max_new):
            out = model(input_ids=step_ids, attention_mask=mask, position_ids=step_pos, use_cache=True,
                        logits_to_keep=1, **{loaded.cache_arg: past})
            past = out.cache if loaded.cache_arg == "cache" else out.past_key_values
            logits = out.logits[:, -1, :].float()
            probs = torch.softmax(logits, dim=-1).cpu()
            chosen = torch.argmax(logits, dim=-1).cpu()
            for j, ri in enumerate(active):
                req = rows[ri].request
                if req.temperature > 0:
                    p = _sampling_probs(logits[j].cpu(), req.temperature, getattr(req, "top_p", None))
                    chosen[j] = torch.multinomial(p, 1, generator=rows[ri].generator)[0]
            keep: list[int] = []
            for j, ri in enumerate(active):
                r = rows[ri]
                tid = int(chosen[j])
                if tid in loaded.eos_ids:
                    r.done, r.ended_by_eos, r.finish = True, True, "stop"
                    continue
                r.ids.append(tid)
                r.probs.append(float(probs[j, tid]))
                if r.request.stop:
                    text, hit = _truncate_at_stop(tok.decode(r.ids, skip_special_tokens=True), r.request.stop)
                    if hit:
                        r.text, r.done, r.finish = text, True, "stop"
                        continue
                if len(r.ids) >= r.request.max_tokens:
                    r.done, r.finish = True, "length"
                    continue
                keep.append(j)
            if not keep:
                break
            if len(keep) < len(active):
                idx = torch.tensor(keep, dtype=torch.long, device=device)
                past.batch_select_indices(idx)
                mask, step_pos, chosen = mask[idx], step_pos[idx], chosen[torch.tensor(keep, dtype=torch.long)]
                active = [active[j] for j in keep]
            step_ids = chosen.to(device).unsqueeze(-1)
            step_pos = step_pos[:, -1:] + 1
            mask = torch.cat([mask, torch.ones((len(active), 1), dtype=mask.dtype, device=device)], dim=-1)
    for r in rows:
        if r.text is None:
            r.text = tok.decode(r.ids, skip_special_tokens=True)
            if r.request.stop:
                r.text = _truncate_at_stop(r.text, r.request.stop)[0]


def _response(loaded: LoadedModel, r: _Row) -> ChatResponse:
    tok = loaded.tokenizer
    tokens = tuple(TokenProb(tok.decode([t]), p) for t, p in zip(r.ids, r.probs))
    extra = {"finish_reason": r.finish} if "finish_reason" in _RESPONSE_FIELDS else {}
    return ChatResponse(text=r.text or "", tokens=tokens, input_tokens=len(r.prompt),
                        output_tokens=len(r.ids) + (1 if r.ended_by_eos else 0), **extra)


def _error(exc: BaseException) -> ChatResponse:
    return ChatResponse(error=f"{type(exc).__name__}: {exc}")


@contextmanager
def _threads(loaded: LoadedModel) -> Iterator[None]:
    """Set torch's CPU thread count for one generation call (CPU only), then put it back."""
    if not loaded.device.startswith("cpu"):
        yield
        return
    import torch

    before = torch.get_num_threads()
    wanted = cpu_threads(loaded.default_threads)
    if wanted != before:
        torch.set_num_threads(wanted)
    try:
        yield
    finally:
        if wanted != before:
            torch.set_num_threads(before)


def _batches(rows: list[_Row], budget: int, max_rows: int) -> list[list[_Row]]:
    """Rows sorted by prompt length, cut into batches whose padded prompt size stays within ``budget`` tokens (a
    prefix all the rows share counts once: it goes through the model once)."""
    if not rows:
        return []
    shared = _common_prefix([r.prompt for r in rows]) if len(rows) > 1 else 0
    shared = shared if shared >= MIN_SHARED_PREFIX else 0
    batches: list[list[_Row]] = []
    current: list[_Row] = []
    width = 0
    for r in sorted(rows, key=lambda r: (len(r.prompt), r.request.max_tokens)):
        grown = max(width, len(r.prompt) - shared)
        if current and (len(current) >= max_rows or shared + grown * (len(current) + 1) > budget):
            batches.append(current)
            current, grown = [], len(r.prompt) - shared
        current.append(r)
        width = grown
    if current:
        batches.append(current)
    return batches


@register_provider("local")
class LocalBackend(Backend):
    """A transformers model in this process. ``device``/``dtype`` default to cuda > mps > cpu, bf16 on GPU."""

    #: Calls into one local model are serialised (it batches internally), so callers need not send them concurrently.
    max_concurrency = 1

    def __init__(self, spec: ModelSpec | str = "local", device: str | None = None, dtype: Any = None,
                 token_budget: int | None = None, max_batch: int | None = None) -> None:
        if isinstance(spec, str):
            from .base import parse_spec

            spec = parse_spec(spec)
        if spec.provider != "local":
            raise BackendError(f"LocalBackend serves provider 'local', not {spec.provider!r}")
        super().__init__(spec)
        self.device = device
        self.dtype = dtype
        self.token_budget = token_budget
        self.max_batch = max_batch
        self._path: str | None = None

    @property
    def model_path(self) -> str:
        """The checkpoint folder or Hugging Face id this backend loads (the embedded model is converted here)."""
        if self._path is None:
            from .embedded import EmbeddedModelError, resolve_model

            try:
                self._path = resolve_model(self.spec.model or None)
            except EmbeddedModelError as exc:
                raise BackendError(str(exc)) from exc
        return self._path

    @property
    def model_id(self) -> str:
        """A stable name of the model for cache keys (the embedded model's does not depend on the cache folder)."""
        from ..settings import default_local_model

        if self.spec.model:
            return self.spec.model
        if default_local_model():
            return str(default_local_model())
        from .embedded import EmbeddedModelError, embedded_model_id

        try:
            return embedded_model_id()
        except EmbeddedModelError as exc:
            raise BackendError(str(exc)) from exc

    def load(self) -> LoadedModel:
        """Load the model now (it is otherwise loaded on the first request); BackendError if it cannot be."""
        return load_model(self.model_path, self.device, self.dtype)

    def generate(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        requests = list(requests)
        if not requests:
            return []
        try:
            loaded = self.load()
        except Exception as exc:  # never raise to the caller: every request gets the error
            return [_error(exc) for _ in requests]
        responses: list[ChatResponse | None] = [None] * len(requests)
        rows: list[_Row] = []
        for i, req in enumerate(requests):
            try:
                prompt = _render(loaded.tokenizer, req)
                if len(prompt) + req.max_tokens > loaded.context:
                    raise ValueError(f"the prompt has {len(prompt)} tokens; with max_tokens={req.max_tokens} it "
                                     f"exceeds the model's context of {loaded.context} tokens")
                rows.append(_Row(i, req, prompt))
            except Exception as exc:
                responses[i] = _error(exc)
        gpu = not loaded.device.startswith("cpu")
        budget = self.token_budget or (TOKEN_BUDGET_GPU if gpu else TOKEN_BUDGET_CPU)
        max_rows = self.max_batch or (MAX_BATCH_GPU if gpu else MAX_BATCH_CPU)
        with loaded.lock, _threads(loaded):
            for batch in _batches(rows, budget, max_rows):
                try:
                    _decode_batch(loaded, batch)
                    for r in batch:
                        responses[r.index] = _response(loaded, r)
                except Exception as exc:
                    if len(batch) == 1:
                        responses[batch[0].index] = _error(exc)
                        continue
                    for r in batch:  # find the request that failed: answer the batch one by one
                        fresh = _Row(r.index, r.request, r.prompt)
                        try:
                            _decode_batch(loaded, [fresh])
                            responses[r.index] = _response(loaded, fresh)
                        except Exception as single_exc:
                            responses[r.index] = _error(single_exc)
        return [resp if resp is not None else ChatResponse(error="no response produced") for resp in responses]
