"""The paper's four annotated datasets (``../shared/data/pacp`` or ``$PROMPTANATOMY_DATA_DIR``) for tests.

They are required: a missing file fails the test that needs it, with the fix in the message.
"""
from __future__ import annotations

import json

import pytest

from promptanatomy_core.datasets import data_dir, load_pacp
from promptanatomy_core.types import Dissection

DATASETS = ("PubMedQA", "EMEA", "Leetcode", "CodeGeneration")


def _path(name: str):
    path = data_dir() / f"{name}-PA.json"
    if not path.exists():
        pytest.fail(f"dataset {path} is missing; set PROMPTANATOMY_DATA_DIR to the folder holding the *-PA.json files")
    return path


def records(name: str) -> list[dict]:
    """The raw records of one dataset file, error strings included."""
    return json.loads(_path(name).read_text(encoding="utf-8"))


def gold(name: str) -> list[Dissection]:
    """The tagged records of one dataset as gold dissections (untagged error strings skipped)."""
    return [r.gold() for r in load_pacp(_path(name))]
