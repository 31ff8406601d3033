"""What the metrics read from a result record, and grouping.

A *record* is one judged response: a mapping (a dict, a pandas row as ``row._asdict()``/``row.to_dict()``) or any
object with attributes. The metrics read these fields (missing ones count as None):

``instance``       which test input / dataset instance the prompt was asked with (PSS and flip rate group by it);
``correct``        the criterion's verdict on the response (``Judgment.correct``): True, False or None (not judged:
                   a provider error, a missing reference, a failed judge) -- None records are left out of every
                   denominator and counted apart as ``unjudged``;
``score``          graded correctness in [0, 1] (``Judgment.score``), used by PSS when asked to;
``clean_correct``  the verdict on the *clean* prompt's response for the same instance and model (flip rate);
``confidence``     the decoding confidence of the response (see ``confidence.py``);

plus whatever names the cell: ``model``, ``component``, ``perturbation``, ``ppl_filter`` ... (the caller says which).

An attack succeeded on a record when ``correct is False`` (the model failed under the perturbation).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Hashable, Iterable, Sequence


def field_of(record: Any, name: str, default: Any = None) -> Any:
    """``record[name]`` for a mapping, else ``getattr(record, name)``; ``default`` when absent."""
    if isinstance(record, Mapping):
        return record.get(name, default)
    return getattr(record, name, default)


def as_verdict(value: Any) -> bool | None:
    """True / False / None from a stored verdict (bools, 0/1, "true"/"false", None/NaN/"")."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and value != value:  # NaN from a data frame
        return None
    if isinstance(value, (int, float)):
        return bool(value)
    text = str(value).strip().lower()
    if text in {"true", "1", "yes"}:
        return True
    if text in {"false", "0", "no"}:
        return False
    return None


def as_number(value: Any) -> float | None:
    """A float, or None for None / NaN / text that is not a number."""
    if value is None:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return None if x != x else x


def group_by(records: Iterable[Any], keys: Sequence[str] | Callable[[Any], Hashable]) -> dict[Hashable, list[Any]]:
    """Records grouped by the tuple of their ``keys`` fields (or by a key function), in first-seen order."""
    key_of = keys if callable(keys) else (lambda r: tuple(field_of(r, k) for k in keys))
    groups: dict[Hashable, list[Any]] = {}
    for r in records:
        groups.setdefault(key_of(r), []).append(r)
    return groups
