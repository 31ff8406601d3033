"""What the pages share, kept in ``st.session_state`` under ``pa.*`` keys (never widget keys, which Streamlit drops
when a page that owns the widget is not shown).

The current dissection is kept with the dissector that produced it and a *version*: :func:`set_dissection` stores a
new result (new version; the hand-edit table starts again from it), :func:`update_dissection` replaces it by an
edited copy (same version). A dissection is *stale* when the prompt text changed after dissecting.

Variants made on the Perturb page are kept with the :func:`dissection_key` of the dissection they came from; they are
stale once the current dissection differs (new prompt, new or hand-edited labels). The run step reads them with
:func:`get_variants`.
"""
from __future__ import annotations

import hashlib
import json
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


# ------------------------------------------------------------------------------------------------------ variants

VARIANTS = "pa.variants"
#: Saved values of page widgets (see :func:`keep_widgets`).
WIDGETS = "pa.widgets"


def dissection_key(dissection: Dissection) -> str:
    """A fingerprint of what perturbation depends on: the prompt text and every sentence's span and labels (not who
    set them). Equal for equal dissections, in any session or process."""
    payload = json.dumps([dissection.prompt, [[s.start, s.end, sorted(c.value for c in s.labels)]
                                              for s in dissection.sentences]], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class VariantSet:
    """Variants made on the Perturb page (an ``engine.PerturbResult``) and the :func:`dissection_key` of the
    dissection they came from."""

    dissection_key: str
    result: Any

    @property
    def variants(self) -> tuple:
        return self.result.variants


def set_variants(result: Any, dissection: Dissection) -> None:
    """Store ``result`` (an ``engine.PerturbResult``) as the variants of ``dissection``."""
    st.session_state[VARIANTS] = VariantSet(dissection_key(dissection), result)


def get_variants(fresh_only: bool = False) -> VariantSet | None:
    """The stored variants; with ``fresh_only``, None when they are :func:`variants_stale`."""
    stored = _get(VARIANTS)
    if stored is None or (fresh_only and variants_stale()):
        return None
    return stored


def variants_stale() -> bool:
    """True when variants are stored but the current dissection is not the one they came from (the prompt or its
    labels changed, or there is no dissection any more)."""
    stored = _get(VARIANTS)
    if stored is None:
        return False
    current = get_dissection()
    return current is None or dissection_key(current) != stored.dissection_key


def keep_widgets(defaults: dict[str, Any]) -> None:
    """Let page widgets keep their values while another page is shown (Streamlit drops the state of widgets that a
    run does not draw). Call before drawing the widgets, which then take no ``value``/``index`` argument: a widget
    key already in the session is saved; a missing one is restored from the saved value, else set to its default."""
    saved = st.session_state.setdefault(WIDGETS, {})
    for key, default in defaults.items():
        if key in st.session_state:
            saved[key] = st.session_state[key]
        else:
            st.session_state[key] = saved.get(key, default)


def run_stale(last: dict | None) -> bool:
    """True when ``last`` (a run of this session: ``{"run_id", "dissection_key", …}``) came from a dissection other
    than the current one (the prompt or its labels changed since); a dataset run (no key) is never stale."""
    key = (last or {}).get("dissection_key")
    if key is None:
        return False
    current = get_dissection()
    return current is None or is_stale() or dissection_key(current) != key
