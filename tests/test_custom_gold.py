"""The independent gold set (bench/data/custom_prompts.jsonl): well-formed, complete, and aligned with the splitter.

Format: one JSON object per line with ``id`` (unique slug), ``domain`` (free text) and ``tagged`` (the prompt in the
PACP XML-tagged format: each sentence inside the tag of every component it belongs to, tags in text order).
``parse_tagged`` rebuilds the untagged prompt and the gold label set of each sentence.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from promptanatomy_core.tagged import parse_tagged, render_tagged
from promptanatomy_core.text import split_sentences
from promptanatomy_core.types import COMPONENTS, Dissection

GOLD_PATH = Path(__file__).resolve().parents[1] / "bench" / "data" / "custom_prompts.jsonl"


def load_gold_records(path: str | Path = GOLD_PATH) -> list[dict]:
    """The raw records (``id``, ``domain``, ``tagged``) of a gold JSONL file; blank lines are skipped."""
    records = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
    return records


def load_gold_jsonl(path: str | Path = GOLD_PATH) -> list[tuple[str, Dissection]]:
    """``(id, gold dissection)`` for every record of a gold JSONL file."""
    return [(rec["id"], parse_tagged(rec["tagged"], source="gold")) for rec in load_gold_records(path)]


RECORDS = load_gold_records()
IDS = [rec.get("id", f"line{i}") for i, rec in enumerate(RECORDS)]


def test_size_and_unique_ids():
    assert len(RECORDS) >= 30
    ids = [rec["id"] for rec in RECORDS]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_record_fields(rec):
    assert set(rec) == {"id", "domain", "tagged"}
    assert isinstance(rec["id"], str) and rec["id"].strip()
    assert isinstance(rec["domain"], str) and rec["domain"].strip()
    assert isinstance(rec["tagged"], str) and rec["tagged"].strip()


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_parses_and_every_sentence_labelled(rec):
    d = parse_tagged(rec["tagged"])
    assert d.sentences
    unlabelled = [s.text for s in d.sentences if not s.labels]
    assert not unlabelled, f"untagged sentences: {unlabelled}"
    for s in d.sentences:
        assert d.prompt[s.start:s.end] == s.text


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_gold_sentences_are_the_splitters_sentences(rec):
    """A dissector labels split_sentences(prompt); gold must label those very sentences to be comparable.
    A failure here after a splitter change means the entry needs re-tagging along the new boundaries."""
    d = parse_tagged(rec["tagged"])
    assert [s.text for s in split_sentences(d.prompt)] == [s.text for s in d.sentences]
    assert [(s.start, s.end) for s in split_sentences(d.prompt)] == [(s.start, s.end) for s in d.sentences]


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_render_parse_round_trip(rec):
    d = parse_tagged(rec["tagged"])
    again = parse_tagged(render_tagged(d))
    # render_tagged writes components in canonical order, so sentence order may change; the labelled set may not
    assert Counter((s.text, s.labels) for s in again.sentences) == Counter((s.text, s.labels) for s in d.sentences)
    # and a second render is stable
    assert parse_tagged(render_tagged(again)).prompt == again.prompt


def test_all_components_and_multi_labels_present():
    gold = load_gold_jsonl()
    seen = Counter(c for _, d in gold for s in d.sentences for c in s.labels)
    assert set(seen) == set(COMPONENTS), seen
    multi = [s.text for _, d in gold for s in d.sentences if len(s.labels) > 1]
    assert len(multi) >= 5
    no_role = [pid for pid, d in gold if all(c.value != "Role" for c in d.components())]
    assert len(no_role) >= 5
