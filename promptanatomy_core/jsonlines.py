"""JSON lines (one JSON value a line, blank lines skipped), read with errors that name the line."""
from __future__ import annotations

import json
from typing import Any, Iterator


def json_lines(text: str, where: str, error: type[Exception]) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of ``text``; raises ``error`` naming ``where`` and the line of the
    first one that is not valid JSON. A leading byte-order mark is ignored."""
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{where} line {number}: not valid JSON ({exc.msg} at column {exc.colno})") from None
