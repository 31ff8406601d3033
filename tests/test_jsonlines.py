"""The shared JSON-lines reader, and the gold-set loader that uses it."""
from __future__ import annotations

import pytest

from promptanatomy_core.accuracy import load_gold_jsonl
from promptanatomy_core.jsonlines import json_lines


class Oops(ValueError):
    pass


def test_values_with_their_line_numbers_blank_lines_and_bom_skipped() -> None:
    text = '\ufeff{"a": 1}\n\n  \n[2, 3]\n"x"\n'
    assert list(json_lines(text, "f.jsonl", Oops)) == [(1, {"a": 1}), (4, [2, 3]), (5, "x")]


def test_the_first_invalid_line_is_named_in_the_callers_error_type() -> None:
    lines = json_lines('{"a": 1}\n{"a": \n{"b": 2}\n', "in.jsonl", Oops)
    assert next(lines) == (1, {"a": 1})
    with pytest.raises(Oops, match=r"^in\.jsonl line 2: not valid JSON \(Expecting value at column 7\)$"):
        next(lines)


@pytest.mark.parametrize("line, problem", [
    ('{"id": "x"}', "line 2: not a gold record ('tagged')"),
    ('{"id": "x", "tagged": "no tags here"}', "line 2: not a gold record (no component tags found"),
    ('["x"]', "line 2: not a gold record"),
    ('{"id": "x", "tagged": ', "line 2: not valid JSON"),
])
def test_gold_loader_names_the_bad_line(tmp_path, line: str, problem: str) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text('{"id": "ok", "tagged": "<Directive>Do it.</Directive>"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:
        load_gold_jsonl(path)
    assert problem in str(info.value)
