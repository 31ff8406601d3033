"""Reading dataset-mode instances: the -PA JSON format, CSV/TSV/JSONL/JSON lists with a column mapping, and clear
errors for malformed files."""
from __future__ import annotations

import json

import pytest

from promptanatomy_core.dataset_input import Columns, DatasetInputError, read_instances

from pacp import _path

TAGGED = "<Role>You are a doctor.</Role>\n<Directive>Answer yes or no.</Directive>"


def test_pa_json_from_the_real_dataset():
    got = read_instances(_path("PubMedQA"), limit=5)
    assert len(got) == 5
    assert got[0].id == "PubMedQA-PA#0" and got[0].tagged.startswith("<Role>") and not got[0].prompt
    assert all(json.loads(i.expected)[0] in ("yes", "no", "maybe") for i in got)  # answers as the file has them


def test_pa_json_skips_untagged_records(tmp_path):
    path = tmp_path / "Mini-PA.json"
    path.write_text(json.dumps([{"context_output": "Error: rate limited", "answer": "x"},
                                {"context_output": TAGGED, "answer": "yes"}]), encoding="utf-8")
    (only,) = read_instances(path)
    assert (only.id, only.tagged, only.expected) == ("Mini-PA#1", TAGGED, "yes")


def test_csv_with_default_and_chosen_columns(tmp_path):
    path = tmp_path / "qs.csv"
    path.write_text('prompt,answer\n"You are a tutor. What is 2+2, in words?",four\n\nName a colour.,\n',
                    encoding="utf-8")
    a, b = read_instances(path)
    assert (a.id, a.prompt, a.expected) == ("qs#0", "You are a tutor. What is 2+2, in words?", "four")
    assert (b.id, b.prompt, b.expected) == ("qs#1", "Name a colour.", None)  # empty cell: no expected answer
    other = tmp_path / "other.csv"
    other.write_text("key,question,gold,tags\nq7,What is up?,sky,\"" + TAGGED.replace("\n", " ") + "\"\n",
                     encoding="utf-8")
    (i,) = read_instances(other, Columns(prompt="question", answer="gold", id="key"))
    assert (i.id, i.prompt, i.expected, i.tagged) == ("q7", "What is up?", "sky", "")
    (t,) = read_instances(other, Columns(tagged="tags", answer="gold"))
    assert t.tagged.startswith("<Role>") and not t.prompt and t.dissect().prompt.startswith("You are a doctor.")


def test_tsv_jsonl_and_json_list(tmp_path):
    tsv = tmp_path / "a.tsv"
    tsv.write_text("prompt\tanswer\nSay hi.\thi\n", encoding="utf-8")
    assert [(i.prompt, i.expected) for i in read_instances(tsv)] == [("Say hi.", "hi")]
    jsonl = tmp_path / "a.jsonl"
    jsonl.write_text('{"q": "One?", "a": 1}\n\n{"q": "Two?", "a": "2"}\n{"q": "Three?", "a": "3"}\n', encoding="utf-8")
    got = read_instances(jsonl, Columns(prompt="q", answer="a"), limit=2)
    assert [(i.id, i.prompt, i.expected) for i in got] == [("a#0", "One?", "1"), ("a#1", "Two?", "2")]
    js = tmp_path / "b.json"
    js.write_text(json.dumps([{"question": "Why?", "label": "because"}]), encoding="utf-8")
    (i,) = read_instances(js, Columns(prompt="question", answer="label"))
    assert (i.prompt, i.expected) == ("Why?", "because")


@pytest.mark.parametrize("name, content, columns, message", [
    ("x.csv", "question,answer\nHi?,yes\n", Columns(), "x.csv header: no column 'prompt'; the columns are "
                                                        "'question', 'answer' (choose the columns with"),
    ("x.csv", "prompt,answer\nHi?,yes\n", Columns(answer="gold"), "x.csv header: no column 'gold'; the columns are "
                                                                   "'prompt', 'answer'"),
    ("x.csv", "prompt,answer\nHi?,yes\n , yes\n", Columns(), "x.csv line 3: column 'prompt' is empty"),
    ("x.csv", "prompt,answer\nHi?,yes,extra\n", Columns(), "x.csv line 2: 3 fields, but the header has 2"),
    ("x.csv", "", Columns(), "x.csv: the file is empty; expected a header row"),
    ("x.csv", "prompt,answer\n", Columns(), "x.csv: holds no instances"),
    ("x.jsonl", '{"prompt": "a"}\n{"prompt": "b"\n', Columns(), "x.jsonl line 2: not valid JSON"),
    ("x.jsonl", '{"prompt": "a"}\n["b"]\n', Columns(), "x.jsonl line 2: expected a JSON object, found a JSON list"),
    ("x.jsonl", '{"prompt": "a"}\n{"text": "b"}\n', Columns(), "x.jsonl line 2: no column 'prompt'"),
    ("x.jsonl", '{"prompt": ["a"]}\n', Columns(), "x.jsonl line 1: column 'prompt' holds a JSON list, not text"),
    ("x.jsonl", '{"prompt": "a", "k": 1}\n{"prompt": "b", "k": 1}\n', Columns(id="k"),
     "the id '1' occurs more than once in column 'k'"),
    ("x.json", '{"prompt": "a"}', Columns(), "x.json: expected a JSON list of objects, found a JSON dict"),
    ("x.json", '[{"prompt": "a"},\n 3]', Columns(), "x.json record 1: expected a JSON object, found a JSON int"),
    ("x.json", '[{"prompt": "a"},\n', Columns(), "x.json line 2: not valid JSON"),
    ("x.json", '[{"context_output": "no tags here", "answer": "a"}]', Columns(), "no record has component tags"),
    ("x.json", '[{"context_output": "<Role>R.</Role>"}]', Columns(), "record 0 lacks the field(s) answer"),
    ("x.txt", "prompt\nHi\n", Columns(), "cannot tell the format from the suffix '.txt'"),
])
def test_malformed_files_name_file_line_and_column(tmp_path, name, content, columns, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DatasetInputError) as err:
        read_instances(path, columns)
    assert message in str(err.value)
    assert str(tmp_path) in str(err.value) or "occurs more than once" in str(err.value)


def test_unreadable_inputs(tmp_path):
    with pytest.raises(DatasetInputError, match="no such file"):
        read_instances(tmp_path / "missing.csv")
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"prompt\n\xff\xfe\n")
    with pytest.raises(DatasetInputError, match="not UTF-8 text"):
        read_instances(bad)
    with pytest.raises(DatasetInputError, match="limit must be at least 1"):
        read_instances(bad, limit=0)
