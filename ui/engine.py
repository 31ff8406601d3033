"""The one place that wraps the engine for Streamlit: cached calls on explicit, hashable arguments.

Heavy parts (the dissectors' modules, models, dataset files) load on first use, never at import.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from promptanatomy_core.datasets import PacpDataset, data_dir, find_pacp, read_pacp
from promptanatomy_core.types import Dissection

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


def dissect(prompt: str, name: str, model: str, timeout: float | None = None) -> DissectResult:
    """Dissect ``prompt`` (``timeout``: seconds to wait for a model's answers); errors propagate.

    Not cached here: ``rules`` is fast, and ``llm`` caches each answer itself (never a failed one), so a retry after
    a time-out asks the model again."""
    dissector = get_dissector(name, model if name in MODEL_DISSECTORS else "")
    if name in MODEL_DISSECTORS:
        dissector.timeout = timeout  # seconds for the model's answers; a late answer counts as a failure
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
