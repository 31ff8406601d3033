"""What the pages share, kept in ``st.session_state`` under ``pa.*`` keys (never widget keys, which Streamlit drops
when a page that owns the widget is not shown).

The current dissection is kept with the dissector that produced it and a *version*: :func:`set_dissection` stores a
new result (new version; the hand-edit table starts again from it), :func:`update_dissection` replaces it by an
edited copy (same version). A dissection is *stale* when the prompt text changed after dissecting.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from promptanatomy_core.types import Dissection

PROMPT = "pa.prompt"
DISSECTION = "pa.dissection"
BASE = "pa.dissection_base"
DISSECTOR = "pa.dissector_used"
VERSION = "pa.dissection_version"
GOLD = "pa.gold"
#: Sidebar settings (widget keys set in app.py, shown on every page, so Streamlit keeps them).
SETTING_DISSECTOR = "pa.setting.dissector"
SETTING_MODEL = "pa.setting.model"
SETTING_TIMEOUT = "pa.setting.timeout"
DEFAULT_DISSECTOR = "rules"
DEFAULT_MODEL = "local"
DEFAULT_TIMEOUT_S = 300


@dataclass(frozen=True)
class GoldExample:
    """A dataset record loaded as the prompt: its gold dissection and expected answer."""

    dataset: str
    index: int
    answer: str
    dissection: Dissection


def _get(key: str, default: Any = None) -> Any:
    return st.session_state.get(key, default)


def get_prompt() -> str:
    """The prompt text the user last entered ("" at first)."""
    return _get(PROMPT, "")


def set_prompt(text: str) -> None:
    st.session_state[PROMPT] = text


def get_dissection() -> Dissection | None:
    """The current dissection (with any hand edits), or None."""
    return _get(DISSECTION)


def get_base_dissection() -> Dissection | None:
    """The dissection as the dissector returned it, before hand edits."""
    return _get(BASE)


def get_dissector() -> str:
    """Who produced the current dissection, e.g. ``rules`` or ``llm (local)``; "" when there is none."""
    return _get(DISSECTOR, "")


def dissection_version() -> int:
    """Increases with every new dissection (not with hand edits)."""
    return _get(VERSION, 0)


def set_dissection(dissection: Dissection, dissector: str) -> None:
    """Store a new dissection produced by ``dissector``."""
    st.session_state[DISSECTION] = dissection
    st.session_state[BASE] = dissection
    st.session_state[DISSECTOR] = dissector
    st.session_state[VERSION] = dissection_version() + 1


def update_dissection(dissection: Dissection) -> None:
    """Replace the current dissection by an edited copy of it (hand labels)."""
    st.session_state[DISSECTION] = dissection


def is_stale() -> bool:
    """True when the prompt text changed after the current dissection was made."""
    d = get_dissection()
    return d is not None and d.prompt != get_prompt()


def get_gold() -> GoldExample | None:
    """The gold labels of the loaded dataset example, while the prompt is still that example's text."""
    gold = _get(GOLD)
    return gold if gold is not None and gold.dissection.prompt == get_prompt() else None


def set_gold(gold: GoldExample | None) -> None:
    st.session_state[GOLD] = gold


def dissector_setting() -> tuple[str, str, float]:
    """The sidebar's choice: (dissector name, model SPEC and answer time-out in seconds for the llm dissector)."""
    return (_get(SETTING_DISSECTOR, DEFAULT_DISSECTOR), (_get(SETTING_MODEL, DEFAULT_MODEL) or "").strip(),
            float(_get(SETTING_TIMEOUT, DEFAULT_TIMEOUT_S)))
