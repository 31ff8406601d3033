"""The second blind gold set (bench/data/blind_prompts.jsonl): well-formed, complete, and aligned with the splitter.

The prompts were written and labelled blind (without looking at any dissector, the other gold sets or accuracy
results) to measure a dissector on prompts it was never tuned on: do not tune dissectors on it.

Format: one JSON object per line with ``id`` (unique, ``bl-`` slug), ``domain`` (free text) and ``tagged`` (the
prompt in the XML-tagged format, tags in text order: each sentence inside the tag of every component it belongs to,
a multi-label sentence repeated in each of its tags). ``parse_tagged`` rebuilds the untagged prompt and the gold
label set of each sentence.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from promptanatomy_core.tagged import parse_tagged, render_tagged
from promptanatomy_core.text import split_sentences
from promptanatomy_core.types import COMPONENTS, Component, Dissection

BLIND_PATH = Path(__file__).resolve().parents[1] / "bench" / "data" / "blind_prompts.jsonl"
MIN_ENTRIES = 40


def _load() -> list[dict]:
    records = []
    with open(BLIND_PATH, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as exc:  # pragma: no cover - reported as a failure
                    pytest.fail(f"{BLIND_PATH.name}:{lineno}: not JSON ({exc})")
    return records


RECORDS = _load()
IDS = [r.get("id", f"line-{i}") for i, r in enumerate(RECORDS, 1)]


def _key(d: Dissection) -> list[tuple[str, frozenset]]:
    return [(s.text, s.labels) for s in d.sentences]


def test_file_has_enough_entries_with_unique_ids():
    assert len(RECORDS) >= MIN_ENTRIES
    ids = [r["id"] for r in RECORDS]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate ids: {dupes}"
    assert all(i.startswith("bl-") for i in ids)


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_record_fields(record):
    assert set(record) == {"id", "domain", "tagged"}
    for field in ("id", "domain", "tagged"):
        assert isinstance(record[field], str) and record[field].strip(), field


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_parses_and_every_sentence_is_labelled(record):
    d = parse_tagged(record["tagged"])
    assert d.sentences
    unlabelled = [s.text for s in d.sentences if not s.labels]
    assert not unlabelled, f"sentences outside every tag: {unlabelled}"


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_tag_boundaries_are_sentence_boundaries(record):
    """Each tagged sentence is a whole sentence of the untagged prompt as split_sentences sees it, offsets included."""
    d = parse_tagged(record["tagged"])
    found = [(s.start, s.end, s.text) for s in split_sentences(d.prompt)]
    assert found == [(s.start, s.end, s.text) for s in d.sentences]
    for s in d.sentences:
        assert d.prompt[s.start:s.end] == s.text


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_no_sentence_text_has_two_label_sets(record):
    """A sentence text never appears twice in the prompt with different labels (that would merge on parsing)."""
    d = parse_tagged(record["tagged"])
    labels_by_text: dict[str, set] = {}
    for s in d.sentences:
        labels_by_text.setdefault(s.text, set()).add(s.labels)
    clashes = {t: ls for t, ls in labels_by_text.items() if len(ls) > 1}
    assert not clashes


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_render_round_trip_keeps_sentences_and_labels(record):
    d = parse_tagged(record["tagged"])
    again = parse_tagged(render_tagged(d))
    assert Counter(_key(again)) == Counter(_key(d))
    assert parse_tagged(render_tagged(again)).prompt == again.prompt


def test_all_components_and_a_mix_of_prompt_shapes_appear():
    dissections = [parse_tagged(r["tagged"]) for r in RECORDS]
    present = {c for d in dissections for s in d.sentences for c in s.labels}
    assert present == set(COMPONENTS)
    assert sum(1 for d in dissections for s in d.sentences if len(s.labels) > 1) >= 10
    no_role = [d for d in dissections if not any(Component.ROLE in s.labels for s in d.sentences)]
    assert len(no_role) >= 10
    assert sum(1 for d in dissections if any(Component.EXAMPLES in s.labels for s in d.sentences)) >= 5
    assert sum(1 for d in dissections if len(d.sentences) == 1) >= 3
    assert sum(1 for d in dissections if len(d.sentences) >= 15) >= 3
    assert len({r["domain"] for r in RECORDS}) >= 30
