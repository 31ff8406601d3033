"""The sidebar's Models section: which models to run (several at once), their keys, base URLs, concurrency and
sampling settings, and a "Test connection" button per model.

Keys typed here live only in this browser session's widget state: they are never written to disk, the cache, a run
record or a log, never shown again (password fields; the status says only where a key comes from), and an empty
field falls back to ``.streamlit/secrets.toml`` and then the environment (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``,
``OPENAI_COMPATIBLE_API_KEY`` for other OpenAI-compatible servers).

Pages read the choices with :func:`selected_models` and build backends with :func:`build_backend`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import streamlit as st

from promptanatomy_core.models.base import ModelSpec, parse_spec
from promptanatomy_core.models.keys import COMPATIBLE_KEY_ENV, KEY_ENV, key_from_secrets, key_variable
from promptanatomy_core.models.prompting import MODES
from promptanatomy_core.models.runner import DEFAULT_CONCURRENCY, ConnectionCheck

SELECTED = "pa.models.selected"
#: Connection test results by SPEC (plain values: ok, message).
CHECKS = "pa.models.checks"
#: Password fields, one per key variable.
KEY_FIELDS = {KEY_ENV["openai"]: "pa.key.openai", KEY_ENV["anthropic"]: "pa.key.anthropic",
              COMPATIBLE_KEY_ENV: "pa.key.compatible"}
#: Models offered before the user types one (any SPEC can be typed in).
PRESETS = ("local", "openai:gpt-6-luna", "openai:gpt-4o-mini", "anthropic:claude-haiku-5-5",
           "anthropic:claude-sonnet-5-5", "openai:llama3@http://127.0.0.1:8000/v1")
DEFAULT_MODELS = ("local",)


@dataclass(frozen=True)
class ModelChoice:
    """One model to run and its settings (all plain values; no key)."""

    spec: str
    temperature: float = 0.0
    max_tokens: int = 256
    top_p: float | None = None
    seed: int | None = None
    system_mode: str = "user"
    concurrency: int = DEFAULT_CONCURRENCY
    timeout: float = 60.0

    def request_settings(self) -> dict[str, Any]:
        """The ChatRequest fields these settings fix (for ``prompting.make_request``)."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "top_p": self.top_p,
                "seed": self.seed}


def _wkey(spec: str, name: str) -> str:
    return f"pa.model.{spec}.{name}"


def _secrets() -> Any:
    """``st.secrets`` when a secrets file exists, else None (reading it without one raises)."""
    try:
        return st.secrets if len(st.secrets) else None
    except Exception:
        return None


def key_source(variable: str) -> str:
    """Where the key in ``variable`` would come from: the field, secrets, the environment, or nowhere."""
    if (st.session_state.get(KEY_FIELDS[variable]) or "").strip():
        return "from the field above"
    provider = "anthropic" if variable == KEY_ENV["anthropic"] else "openai"
    if key_from_secrets(_secrets(), provider, variable):
        return "from .streamlit/secrets.toml"
    if (os.environ.get(variable) or "").strip():
        return "from the environment"
    return "not set"


def _spec_with_base_url(spec: str, base_url: str) -> str:
    parsed = parse_spec(spec)
    if parsed.provider != "openai":
        return spec
    return str(ModelSpec(parsed.provider, parsed.model, base_url.strip() or None))


def model_choice(spec: str) -> ModelChoice:
    """The settings chosen for ``spec`` (the SPEC gets the base URL typed in, if any)."""
    def get(name: str, default: Any) -> Any:
        value = st.session_state.get(_wkey(spec, name), default)
        return default if value is None and default is not None else value

    try:
        full = _spec_with_base_url(spec, get("base_url", parse_spec(spec).base_url or ""))
    except ValueError:
        full = spec
    top_p = float(get("top_p", 1.0))
    seed = get("seed", None)
    return ModelChoice(spec=full, temperature=float(get("temperature", 0.0)), max_tokens=int(get("max_tokens", 256)),
                       top_p=None if top_p >= 1.0 else top_p, seed=None if seed is None else int(seed),
                       system_mode=get("system_mode", "user"),
                       concurrency=int(get("concurrency", 1 if spec.startswith("local") else DEFAULT_CONCURRENCY)),
                       timeout=float(get("timeout", 60.0)))


def selected_models() -> list[ModelChoice]:
    """The models ticked in the sidebar, with their settings."""
    return [model_choice(spec) for spec in st.session_state.get(SELECTED) or []]


def build_backend(choice: ModelChoice):
    """The backend for ``choice``, with the session's key for its provider (else secrets, else the environment).
    Raises BackendError (naming the key's variable when one is missing) or ValueError for a bad SPEC."""
    from promptanatomy_core.models.remote import make_backend

    spec = parse_spec(choice.spec)
    variable = key_variable(spec.provider, spec.base_url) if spec.provider != "local" else None
    typed = (st.session_state.get(KEY_FIELDS[variable]) or "").strip() if variable else ""
    return make_backend(spec, api_key=typed or None, secrets=_secrets(), timeout=choice.timeout,
                        concurrency=choice.concurrency)


def test_connection(choice: ModelChoice) -> ConnectionCheck:
    from promptanatomy_core.models.runner import check_connection

    try:
        backend = build_backend(choice)
    except Exception as exc:  # a missing key or a bad SPEC: say so, in one line
        from promptanatomy_core.models.keys import redact

        return ConnectionCheck(False, redact(str(exc)))
    return check_connection(backend, timeout=min(choice.timeout, 120.0))


def _model_settings(spec: str) -> None:
    try:
        parsed = parse_spec(spec)
    except ValueError as exc:
        st.error(f"Bad SPEC {spec!r}: {exc}")
        return
    if parsed.provider == "openai":
        st.text_input("Base URL", value=parsed.base_url or "", key=_wkey(spec, "base_url"),
                      placeholder="https://api.openai.com/v1", persist_state="session",
                      help="Any OpenAI-compatible server (vLLM, Ollama, llama.cpp, `transformers serve`); "
                           "empty: the OpenAI API.")
    c1, c2 = st.columns(2)
    c1.number_input("Temperature", min_value=0.0, max_value=2.0, value=0.0, step=0.1, key=_wkey(spec, "temperature"),
                    persist_state="session")
    c2.number_input("Max tokens", min_value=1, max_value=32768, value=256, step=32, key=_wkey(spec, "max_tokens"),
                    persist_state="session")
    c1.number_input("Top p", min_value=0.01, max_value=1.0, value=1.0, step=0.05, key=_wkey(spec, "top_p"),
                    persist_state="session", help="1 = the model's default (not sent)")
    c2.number_input("Seed", min_value=0, value=None, step=1, key=_wkey(spec, "seed"), persist_state="session",
                    help="Where the model takes one (local, OpenAI); empty = none")
    c1.number_input("Concurrency", min_value=1, max_value=64,
                    value=1 if parsed.provider == "local" else DEFAULT_CONCURRENCY, key=_wkey(spec, "concurrency"),
                    persist_state="session", help="Requests in flight at once for this model")
    c2.number_input("Time-out (s)", min_value=1.0, max_value=3600.0, value=60.0, step=10.0,
                    key=_wkey(spec, "timeout"), persist_state="session", help="Per attempt")
    st.selectbox("Send the prompt as", MODES, key=_wkey(spec, "system_mode"), persist_state="session",
                 format_func={"user": "user message", "system": "system message",
                              "split": "split: Role as system, rest as user"}.get)
    if st.button("Test connection", key=_wkey(spec, "test"), icon=":material/network_check:"):
        with st.spinner("Asking the model…"):
            result = test_connection(model_choice(spec))
        st.session_state.setdefault(CHECKS, {})[spec] = (result.ok, result.message)
    check = (st.session_state.get(CHECKS) or {}).get(spec)
    if check is not None:
        ok, message = check
        (st.success if ok else st.error)(("Connected: " if ok else "Failed: ") + message,
                                         icon=":material/check_circle:" if ok else ":material/error:")


def models_sidebar() -> None:
    """The Models section of the sidebar (call from app.py, inside nothing: it opens the sidebar itself)."""
    with st.sidebar:
        st.header("Models")
        st.session_state.setdefault(SELECTED, list(DEFAULT_MODELS))
        options = list(dict.fromkeys([*PRESETS, *st.session_state[SELECTED]]))
        st.multiselect("Models to run", options, key=SELECTED, accept_new_options=True,
                       help="Pick several, or type a SPEC: `local`, `local:<hf id or path>`, `openai:<model>`, "
                            "`openai:<model>@<base_url>`, `anthropic:<model>`.")
        for spec in st.session_state[SELECTED]:
            with st.expander(spec, expanded=False):
                _model_settings(spec)
        with st.expander("API keys", icon=":material/key:"):
            st.caption("Kept in this browser session only: never saved, cached, logged or shown. An empty field "
                       "uses .streamlit/secrets.toml, then the environment variable.")
            for variable, key in KEY_FIELDS.items():
                label = {KEY_ENV["openai"]: "OpenAI", KEY_ENV["anthropic"]: "Anthropic",
                         COMPATIBLE_KEY_ENV: "OpenAI-compatible server"}[variable]
                st.text_input(f"{label} key", type="password", key=key, autocomplete="off",
                              help=f"Else {variable}")
                st.caption(f"{variable}: {key_source(variable)}")
