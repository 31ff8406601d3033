"""promptanatomy_core.datasets: reading the PACP dataset files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptanatomy_core.datasets import DATA_ENV, DatasetError, data_dir, find_pacp, load_pacp, read_pacp
from promptanatomy_core.types import Component

PACP = Path(__file__).resolve().parents[2] / "shared" / "data" / "pacp"

GOOD = {"context_output": "<Role>You are a judge.</Role>\n<Directive>Decide. Now complete the question: Is it?</Directive>",
        "answer": '[ "yes" ]'}
ERROR = {"context_output": "Error: Error code: 500 - {'error': {'message': 'CUDA error: out of memory'}}",
         "answer": "def f(): pass"}


def write(tmp_path: Path, data, name: str = "Toy-PA.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_records_keep_their_file_index_and_untagged_ones_are_counted(tmp_path):
    path = write(tmp_path, [GOOD, ERROR, dict(GOOD, answer=["a", 1])])
    ds = read_pacp(path)
    assert ds.name == "Toy-PA" and ds.total == 3 and ds.skipped == (1,)
    assert [r.index for r in ds.records] == [0, 2]
    assert ds.records[1].answer == '["a", 1]'
    assert [r.index for r in load_pacp(path)] == [0, 2]
    rec = ds.record(0)
    assert rec.prompt == "You are a judge.\nDecide. Now complete the question: Is it?"
    gold = rec.gold()
    assert gold.sentences[0].labels == {Component.ROLE} and set(gold.source_list) == {"gold"}
    with pytest.raises(KeyError, match="record 1 of Toy-PA has no component tags"):
        ds.record(1)
    with pytest.raises(KeyError, match="no record 7"):
        ds.record(7)


@pytest.mark.parametrize("data, message", [
    ("{not json", "not valid JSON"),
    ('{"context_output": "x", "answer": "y"}', "expected a JSON list of records, found a JSON dict"),
    ([GOOD, {"answer": "y"}], "record 1 lacks the field\\(s\\) context_output"),
    ([GOOD, GOOD, {}], "record 2 lacks the field\\(s\\) context_output, answer"),
    ([GOOD, ["x"]], "record 1 is a JSON list, not an object"),
    ([{"context_output": 5, "answer": "y"}], "record 0 has a int context_output"),
])
def test_malformed_files_raise_dataset_error_naming_the_problem(tmp_path, data, message):
    path = write(tmp_path, data)
    with pytest.raises(DatasetError, match=message) as info:
        read_pacp(path)
    assert str(path) in str(info.value)


def test_unreadable_and_binary_files(tmp_path):
    with pytest.raises(DatasetError, match="cannot read"):
        read_pacp(tmp_path / "missing.json")
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DatasetError, match="not valid JSON"):
        read_pacp(path)


def test_data_dir_from_the_environment_and_missing_folders(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    assert data_dir() == tmp_path
    assert find_pacp() == {}
    write(tmp_path, [GOOD], "B-PA.json")
    write(tmp_path, [GOOD], "A-PA.json")
    (tmp_path / "notes.txt").write_text("x")
    assert list(find_pacp()) == ["A-PA", "B-PA"]
    assert find_pacp(tmp_path / "absent") == {}
    monkeypatch.delenv(DATA_ENV)
    assert data_dir() == Path(__file__).resolve().parents[2] / "shared" / "data" / "pacp"


def test_the_four_paper_datasets_load():
    assert PACP.is_dir(), f"the PACP datasets are required in {PACP}"
    found = find_pacp(PACP)
    assert set(found) == {"CodeGeneration-PA", "EMEA-PA", "Leetcode-PA", "PubMedQA-PA"}
    for name, path in found.items():
        ds = read_pacp(path)
        assert ds.total == 1000
        assert len(ds.skipped) == (204 if name == "CodeGeneration-PA" else 0)
        for rec in ds.records[::97]:
            assert "<Role>" not in rec.prompt and rec.gold().components()
