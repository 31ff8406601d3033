"""Instances for the dataset mode, read from a file: the paper's -PA JSON format, or CSV / JSONL with a column mapping.

- ``.json``: a JSON list of ``{"context_output", "answer"}`` records (the -PA format, :mod:`.datasets`; records
  without component tags are skipped), or — when a column mapping names other fields — a JSON list of objects read
  like JSONL.
- ``.jsonl`` / ``.ndjson``: one JSON object a line (blank lines skipped).
- ``.csv`` (``.tsv``: tab-separated): a header row, then one instance a row.

The mapping (:class:`Columns`): ``prompt`` names the plain prompt's column (dissected by the experiment's dissector),
``tagged`` an XML-tagged prompt's column (its tags are the dissection; it wins over ``prompt`` when given), ``answer``
the expected answer's (optional: a missing default column means no expected answers, for criteria like ``differs``;
an empty cell is no answer), ``id`` the instance id's (default ``<file stem>#<row>``). Every error is a
:class:`DatasetInputError` naming the file and, where it applies, the line (CSV and JSONL: the line in the file;
JSON: the record's index) and the column.
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from .experiment import Instance
from .jsonlines import json_lines

FORMATS = ("pa-json", "json", "jsonl", "csv", "tsv")
_BY_SUFFIX = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "tsv"}


class DatasetInputError(ValueError):
    """A dataset file that cannot be read as instances; the message names the file, line and column."""


@dataclass(frozen=True)
class Columns:
    """Which field holds what. ``None`` for ``answer``/``prompt`` means the default name if present."""

    prompt: str | None = None
    answer: str | None = None
    tagged: str | None = None
    id: str | None = None

    @property
    def custom(self) -> bool:
        return any(v is not None for v in (self.prompt, self.answer, self.tagged, self.id))


DEFAULT_PROMPT = "prompt"
DEFAULT_ANSWER = "answer"


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format its suffix says (json, jsonl, csv or tsv); DatasetInputError for another suffix."""
    suffix = Path(path).suffix.lower()
    try:
        return _BY_SUFFIX[suffix]
    except KeyError:
        raise DatasetInputError(f"{path}: cannot tell the format from the suffix {suffix or '(none)'!r}; use .json "
                                f"(-PA records or a list of objects), .jsonl, .csv or .tsv") from None


def _text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise DatasetInputError(f"{path}: is a directory, not a file") from None
    except FileNotFoundError:
        raise DatasetInputError(f"{path}: no such file") from None
    except OSError as exc:
        raise DatasetInputError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetInputError(f"{path}: not UTF-8 text (undecodable byte at offset {exc.start})") from None


def _jsonl_rows(path: Path, text: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for number, item in json_lines(text, str(path), DatasetInputError):
        if not isinstance(item, dict):
            raise DatasetInputError(f"{path} line {number}: expected a JSON object, found a JSON "
                                    f"{type(item).__name__}")
        yield f"line {number}", item


def _csv_rows(path: Path, text: str, delimiter: str) -> Iterator[tuple[str, Mapping[str, Any], list[str]]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise DatasetInputError(f"{path}: the file is empty; expected a header row") from None
    except csv.Error as exc:
        raise DatasetInputError(f"{path} line 1: not valid CSV ({exc})") from None
    header = [h.strip() for h in header]
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DatasetInputError(f"{path} line {reader.line_num}: not valid CSV ({exc})") from None
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise DatasetInputError(f"{path} line {reader.line_num}: {len(row)} fields, but the header has "
                                    f"{len(header)}")
        yield f"line {reader.line_num}", dict(zip(header, row)), header


def _field(path: Path, where: str, item: Mapping[str, Any], column: str) -> str | None:
    value = item.get(column)
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float, bool)):
        return json.dumps(value)
    raise DatasetInputError(f"{path} {where}: column {column!r} holds a JSON {type(value).__name__}, not text")


def _instances(path: Path, rows: Iterator[tuple], columns: Columns) -> list[Instance]:
    out: list[Instance] = []
    checked = False
    for k, (where, item, *rest) in enumerate(rows):
        names = rest[0] if rest else list(item)
        if not checked or not rest:  # a CSV header is checked once, every JSON object on its own
            _check_columns(path, where if not rest else "header", names, columns)
            checked = True
        answer_col = columns.answer or (DEFAULT_ANSWER if DEFAULT_ANSWER in names else None)
        if columns.tagged:
            tagged, prompt = _field(path, where, item, columns.tagged), None
            column = columns.tagged
        else:
            column = columns.prompt or DEFAULT_PROMPT
            tagged, prompt = None, _field(path, where, item, column)
        text = tagged if tagged is not None else prompt
        if text is None or not text.strip():
            raise DatasetInputError(f"{path} {where}: column {column!r} is empty")
        expected = _field(path, where, item, answer_col) if answer_col else None
        ident = _field(path, where, item, columns.id) if columns.id else None
        ident = ident.strip() if ident else f"{path.stem}#{k}"
        try:
            out.append(Instance(ident, prompt=prompt or "", tagged=tagged or "",
                                expected=expected if expected not in (None, "") else None))
        except ValueError as exc:
            raise DatasetInputError(f"{path} {where}: {exc}") from None
    ids = [i.id for i in out]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise DatasetInputError(f"{path}: the id {dup!r} occurs more than once in column {columns.id!r}")
    return out


def _check_columns(path: Path, where: str, names: list[str], columns: Columns) -> None:
    wanted = [columns.tagged or columns.prompt or DEFAULT_PROMPT]
    wanted += [c for c in (columns.answer, columns.id) if c]
    missing = [c for c in wanted if c not in names]
    if missing:
        have = ", ".join(repr(n) for n in names) or "none"
        hint = "" if columns.custom else " (choose the columns with --prompt-column/--tagged-column/--answer-column)"
        raise DatasetInputError(f"{path} {where}: no column {', '.join(repr(m) for m in missing)}; the columns are "
                                f"{have}{hint}")


def _is_pa(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and all(isinstance(x, dict) and "context_output" in x for x in data)


def read_instances(path: str | os.PathLike[str], columns: Columns | None = None, *, limit: int | None = None,
                   fmt: str | None = None) -> list[Instance]:
    """The instances in ``path`` (format from ``fmt`` or the suffix), the first ``limit`` when given."""
    columns = columns or Columns()
    path = Path(path)
    if limit is not None and limit < 1:
        raise DatasetInputError(f"limit must be at least 1, not {limit}")
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise DatasetInputError(f"unknown dataset format {fmt!r}; one of {', '.join(FORMATS)}")
    text = _text(path)
    if fmt in ("json", "pa-json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DatasetInputError(f"{path} line {exc.lineno}: not valid JSON ({exc.msg} at column {exc.colno})"
                                    ) from None
        if fmt == "pa-json" or (_is_pa(data) and not columns.custom):
            from .datasets import DatasetError, read_pacp

            try:
                records = read_pacp(path).records
            except DatasetError as exc:
                raise DatasetInputError(str(exc)) from None
            if not records:
                raise DatasetInputError(f"{path}: no record has component tags; nothing to run")
            return [Instance.from_record(r) for r in records[:limit]]
        if not isinstance(data, list):
            raise DatasetInputError(f"{path}: expected a JSON list of objects, found a JSON {type(data).__name__}")
        for i, item in enumerate(data):
            if not isinstance(item, dict):
                raise DatasetInputError(f"{path} record {i}: expected a JSON object, found a JSON "
                                        f"{type(item).__name__}")
        rows: Iterator[tuple] = ((f"record {i}", item) for i, item in enumerate(data))
    elif fmt == "jsonl":
        rows = _jsonl_rows(path, text)
    else:
        rows = _csv_rows(path, text, "\t" if fmt == "tsv" else ",")
    if limit is not None:
        rows = (r for _, r in zip(range(limit), rows))
    out = _instances(path, rows, columns)
    if not out:
        raise DatasetInputError(f"{path}: holds no instances")
    return out
