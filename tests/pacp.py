"""Access to the paper's four annotated datasets (../shared/data/pacp) for tests."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from promptanatomy_core.tagged import TagError, parse_tagged
from promptanatomy_core.types import Dissection

DATA_DIR = Path(os.environ.get("PROMPTANATOMY_DATA_DIR") or Path(__file__).resolve().parents[1].parent / "shared/data/pacp")
DATASETS = ("PubMedQA", "EMEA", "Leetcode", "CodeGeneration")


def records(name: str) -> list[dict]:
    path = DATA_DIR / f"{name}-PA.json"
    if not path.exists():
        pytest.fail(f"dataset {path} is missing; set PROMPTANATOMY_DATA_DIR to the folder holding the *-PA.json files")
    return json.loads(path.read_text(encoding="utf-8"))


def gold(name: str) -> list[Dissection]:
    """The parseable records of one dataset as gold dissections (error records skipped)."""
    out = []
    for rec in records(name):
        try:
            out.append(parse_tagged(rec["context_output"]))
        except TagError:
            pass
    return out
