"""The PromptAnatomy paper's annotated datasets (PACP): JSON lists of ``{"context_output", "answer"}`` records.

``context_output`` is the prompt in the XML-tagged format of :mod:`promptanatomy_core.tagged`. Some files also hold
records whose ``context_output`` is an error string from the annotation run (no component tags at all); those are
skipped and counted, never parsed.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .tagged import parse_tagged
from .types import COMPONENTS, Dissection

#: Environment variable naming the folder that holds the ``*.json`` dataset files.
DATA_ENV = "PROMPTANATOMY_DATA_DIR"
REQUIRED_FIELDS = ("context_output", "answer")

_COMPONENT_TAG = re.compile("</?(?:" + "|".join(re.escape(c.value) for c in COMPONENTS) + ")>")


class DatasetError(ValueError):
    """A dataset file that cannot be read; the message names the file and, where it applies, the record."""


@dataclass(frozen=True)
class Record:
    """One annotated prompt: ``tagged`` is its XML-tagged text, ``index`` its position in the file."""

    dataset: str
    index: int
    tagged: str
    answer: str

    def gold(self) -> Dissection:
        """The annotators' dissection of the untagged prompt (labels from the tags, source ``gold``)."""
        return parse_tagged(self.tagged, source="gold")

    @property
    def prompt(self) -> str:
        """The prompt without its tags."""
        return self.gold().prompt


@dataclass(frozen=True)
class PacpDataset:
    """A loaded dataset file: the usable records and the indices of the skipped (untagged) ones."""

    name: str
    records: tuple[Record, ...]
    skipped: tuple[int, ...]

    @property
    def total(self) -> int:
        return len(self.records) + len(self.skipped)

    def record(self, index: int) -> Record:
        """The record at file position ``index``; KeyError says why when it was skipped or does not exist."""
        for rec in self.records:
            if rec.index == index:
                return rec
        if index in self.skipped:
            raise KeyError(f"record {index} of {self.name} has no component tags (an error string); it was skipped")
        raise KeyError(f"{self.name} has no record {index} (indices 0 to {self.total - 1})")


def data_dir() -> Path:
    """Where the dataset files live: ``$PROMPTANATOMY_DATA_DIR``, else ``<repo>/../shared/data/pacp``."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pacp"


def find_pacp(folder: str | os.PathLike[str] | None = None) -> dict[str, Path]:
    """Dataset name (file stem) → path for every ``*.json`` in ``folder`` (default :func:`data_dir`); {} if absent."""
    root = Path(folder) if folder is not None else data_dir()
    if not root.is_dir():
        return {}
    return {p.stem: p for p in sorted(root.glob("*.json")) if p.is_file()}


def read_pacp(path: str | os.PathLike[str]) -> PacpDataset:
    """Read one dataset file; raise :class:`DatasetError` for a file that is not a JSON list of records."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, list):
        raise DatasetError(f"{path}: expected a JSON list of records, found a JSON {type(data).__name__}")
    records: list[Record] = []
    skipped: list[int] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise DatasetError(f"{path}: record {i} is a JSON {type(item).__name__}, not an object")
        missing = [f for f in REQUIRED_FIELDS if f not in item]
        if missing:
            raise DatasetError(f"{path}: record {i} lacks the field(s) {', '.join(missing)}")
        text = item["context_output"]
        if not isinstance(text, str):
            raise DatasetError(f"{path}: record {i} has a {type(text).__name__} context_output, not text")
        if not _COMPONENT_TAG.search(text):
            skipped.append(i)
            continue
        answer = item["answer"]
        records.append(Record(path.stem, i, text, answer if isinstance(answer, str) else json.dumps(answer)))
    return PacpDataset(path.stem, tuple(records), tuple(skipped))


def load_pacp(path: str | os.PathLike[str]) -> list[Record]:
    """The usable records of one dataset file (untagged error strings skipped; see :func:`read_pacp`)."""
    return list(read_pacp(path).records)
