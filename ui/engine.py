"""The one place that wraps the engine for Streamlit: cached calls on explicit, hashable arguments.

Heavy parts (the dissectors' modules, models, dataset files) load on first use, never at import.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from promptanatomy_core.datasets import PacpDataset, data_dir, find_pacp, read_pacp
from promptanatomy_core.types import Dissection, Variant

ASSETS = Path(__file__).resolve().parent.parent / "assets"
EXAMPLES_DIR = ASSETS / "examples"
#: Dissectors that take a model SPEC (``model=``).
MODEL_DISSECTORS = frozenset({"llm"})


def _registry() -> None:
    import promptanatomy_core.dissect  # noqa: F401  (registers every built-in dissector)


def available_dissectors() -> list[str]:
    from promptanatomy_core.dissect.base import available

    _registry()
    return available()


def dissector_label(name: str, model: str) -> str:
    """How a dissector run is named in the UI and the JSON download, e.g. ``rules`` or ``llm:local``."""
    return f"{name}:{model}" if name in MODEL_DISSECTORS else name


@st.cache_resource(show_spinner=False, max_entries=8)
def get_dissector(name: str, model: str):
    """A built dissector, kept for the server's lifetime (a model loads once); ``model`` is the SPEC for the
    dissectors that use a model."""
    from promptanatomy_core.dissect.base import get_dissector as build

    _registry()
    return build(name, model=model) if name in MODEL_DISSECTORS else build(name)


@dataclass(frozen=True)
class DissectResult:
    """A dissection, and the model's problems with single sentences (those took the fallback labels)."""

    dissection: Dissection
    problems: tuple[str, ...] = ()


def dissect(prompt: str, name: str, model: str, timeout: float | None = None,
            progress: Callable[[int, int], None] | None = None) -> DissectResult:
    """Dissect ``prompt`` (``timeout``: seconds to wait for a model's answers; ``progress(answered, to_ask)`` as a
    model's answers land, in this thread); errors propagate.

    Not cached here: ``rules`` is fast, and ``llm`` caches each answer itself (never a failed one), so a retry after
    a time-out or a stop asks the model only for what is missing."""
    dissector = get_dissector(name, model if name in MODEL_DISSECTORS else "")
    if name in MODEL_DISSECTORS:
        dissector.timeout = timeout  # seconds for the model's answers; a late answer counts as a failure
        dissector.report_progress(progress)
    dissection = dissector.dissect(prompt)
    problems = tuple(f"sentence {e.index + 1} ({e.stage}): {e.message}"
                     for e in getattr(dissector, "last_errors", ()) or ())
    return DissectResult(dissection, problems)


@st.cache_data(show_spinner=False)
def css() -> str:
    return (ASSETS / "components.css").read_text(encoding="utf-8")


@st.cache_data(show_spinner=False)
def example_prompts() -> dict[str, str]:
    """Title → text of the example prompts in ``assets/examples/*.txt``."""
    out = {}
    for path in sorted(EXAMPLES_DIR.glob("*.txt")):
        title = path.stem.split("_", 1)[-1] if path.stem[:2].isdigit() else path.stem
        out[title.replace("_", " ").capitalize()] = path.read_text(encoding="utf-8")
    return out


def dataset_files() -> dict[str, str]:
    """Dataset name → file path (str) in the data folder; {} when the folder is missing."""
    return {name: str(path) for name, path in find_pacp().items()}


def dataset_dir() -> str:
    return str(data_dir())


@st.cache_resource(show_spinner=False, max_entries=8)
def _dataset(path: str, mtime_ns: int) -> PacpDataset:
    return read_pacp(path)


def dataset(path: str) -> PacpDataset:
    """One dataset file, read once per version of the file (DatasetError propagates)."""
    return _dataset(path, Path(path).stat().st_mtime_ns)


# ------------------------------------------------------------------------------------------------------ perturb

#: The perplexity model of the filter (the default local model: PROMPTANATOMY_MODEL, else the embedded SmolLM2).
PPL_MODEL = "local"


@st.cache_resource(show_spinner=False, max_entries=2)
def get_scorer(model: str = PPL_MODEL):
    """The perplexity scorer, kept for the server's lifetime (its model loads on first use, once)."""
    from promptanatomy_core.scoring import PerplexityScorer

    return PerplexityScorer(model=model)


@dataclass(frozen=True)
class PerturbSettings:
    """What the Perturb page asks for: cells (component labels × strategy names, plus whole-prompt baselines), the
    ratio, variants per cell, the first seed, the filter (``score`` False: no perplexity; ``keep_top`` None: keep
    every scored variant) and whether SER uses only the offline WordNet rewrite."""

    cells: tuple[tuple[str, str], ...]
    ratio: float = 0.1
    n: int = 5
    seed: int = 0
    score: bool = True
    keep_top: float | None = 0.2
    offline_ser: bool = True
    ppl_model: str = PPL_MODEL


@dataclass(frozen=True)
class PerturbResult:
    """Variants of the clean ``prompt`` (cell by cell, in the order asked), the cells that could not be filled
    (component, strategy, reason), the clean prompt's perplexity (None when not scored) and problems worth a warning."""

    settings: PerturbSettings
    prompt: str
    variants: tuple[Variant, ...] = ()
    skipped: tuple[tuple[str, str, str], ...] = ()
    clean_ppl: float | None = None
    problems: tuple[str, ...] = ()

    @property
    def scored(self) -> bool:
        return self.clean_ppl is not None


def _paraphrase_problems(variants) -> tuple[str, ...]:
    """SER variants whose paraphrase model failed or gave nothing usable (they took the offline rewrite)."""
    failed = [v for v in variants if v.strategy == "SER" and "offline WordNet rewrite (" in v.note
              and "(offline)" not in v.note]
    if not failed:
        return ()
    reason = failed[0].note.split("offline WordNet rewrite (", 1)[1].rstrip(")")
    return (f"{len(failed)} SER variant(s) got the offline WordNet rewrite instead of a model paraphrase "
            f"(the first: {reason}). Their notes say why.",)


def generate_variants(dissection: Dissection, settings: PerturbSettings,
                      progress: Callable[[str, float], None] | None = None) -> PerturbResult:
    """Perturb every cell of ``settings`` (a cell that cannot be filled becomes a skipped entry with its reason), then,
    when ``settings.score``, compute every variant's perplexity and apply the filter.

    Bad settings (an unknown component or strategy, a ratio outside (0, 1], n out of range) raise PerturbError before
    any work, missing WordNet data a RuntimeError naming the fix. A scoring failure does not lose the variants: they
    come back unscored, with the failure in ``problems``. ``progress(text, fraction)`` is called as the cells are made
    (fraction of the cells) and as perplexity batches finish (fraction of the distinct texts)."""
    from promptanatomy_core.perturb import get_strategy, perturb_grid
    from promptanatomy_core.perturb.base import check_ratio, resolve_target

    report = progress or (lambda text, fraction: None)
    check_ratio(settings.ratio)
    for component, _ in settings.cells:
        resolve_target(component)
    strategies = {}
    for _, name in settings.cells:
        if name not in strategies:
            params = {"offline": settings.offline_ser} if name == "SER" else {}
            strategies[name] = get_strategy(name, ratio=settings.ratio, **params)
    variants, skipped = [], []
    for i, (component, name) in enumerate(settings.cells):
        report(f"Perturbing {component} × {name} (cell {i + 1} of {len(settings.cells)})", i / len(settings.cells))
        grid = perturb_grid(dissection, [component], [strategies[name]], seed=settings.seed, n=settings.n)
        variants.extend(grid.all())
        skipped.extend((c, s, reason) for (c, s), reason in grid.skipped.items())
    report(f"Made {len(variants)} variant(s)", 1.0)
    problems = _paraphrase_problems(variants)
    clean_ppl = None
    if settings.score and variants:
        from promptanatomy_core.scoring import score_and_filter

        report("Computing perplexity: loading the model (once per server) and scoring the clean prompt…", 0.0)

        def scored(done: int, total: int) -> None:
            report(f"Computing perplexity: {done} of {total} distinct texts", done / max(total, 1))

        try:
            clean_ppl, variants = score_and_filter(dissection.prompt, variants, get_scorer(settings.ppl_model),
                                                   keep_top=settings.keep_top, progress=scored)
        except Exception as exc:  # noqa: BLE001 - a model that cannot load or run: keep the variants, say why
            problems += (f"Perplexity could not be computed ({type(exc).__name__}: {exc}); the variants below are "
                         f"unscored.",)
    return PerturbResult(settings, dissection.prompt, tuple(variants), tuple(skipped), clean_ppl, problems)
