"""The sidebar's Models section, driven through Streamlit's AppTest (the real app), with the connection test sent to
the loopback OpenAI-compatible server of tests/fault_server.py through the real openai backend."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fault_server import FaultServer

APP = str(Path(__file__).resolve().parents[1] / "app.py")
SECRET = "sk-proj-TypedIntoTheSidebar0123456789abcd"


@pytest.fixture
def app(monkeypatch, tmp_path) -> AppTest:
    monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_COMPATIBLE_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    parts = [e.value for kind in ("success", "error", "caption", "markdown", "warning", "info", "code", "json")
             for e in getattr(at, kind)]
    return " ".join(str(p) for p in parts)


def test_models_section_defaults_and_key_fields(app):
    sel = app.sidebar.multiselect(key="pa.models.selected")
    assert sel.value == ["local"] and "anthropic:claude-haiku-5-5" in sel.options
    for key in ("pa.key.openai", "pa.key.anthropic", "pa.key.compatible"):
        assert app.sidebar.text_input(key=key).proto.type == app.sidebar.text_input(key=key).proto.PASSWORD
    assert "OPENAI_API_KEY: not set" in texts(app)


def test_connection_to_a_loopback_server_and_a_missing_key(app):
    with FaultServer() as server:
        spec = f"openai:fault-model@{server.base_url}"
        app.sidebar.multiselect(key="pa.models.selected").set_value([spec, "openai:gpt-6-luna"]).run()
        app.sidebar.number_input(key=f"pa.model.{spec}.temperature").set_value(0.5).run()
        app.sidebar.button(key=f"pa.model.{spec}.test").click().run()
        assert not app.exception, [e.value for e in app.exception]
        assert server.requests == 1
        ok = [s.value for s in app.sidebar.success]
        assert ok and ok[0].startswith("Connected: answered 'echo: Reply with the single word OK.'")

        app.sidebar.button(key="pa.model.openai:gpt-6-luna.test").click().run()
        errors = [e.value for e in app.sidebar.error]
        assert errors and errors[0].startswith("Failed: ") and "OPENAI_API_KEY" in errors[0]

        # a key typed in the field is used, reported by source only, never shown
        app.sidebar.text_input(key="pa.key.openai").input(SECRET).run()
        assert "OPENAI_API_KEY: from the field above" in texts(app)
        assert SECRET not in texts(app)
        from ui.models_sidebar import model_choice  # noqa: F401  (the module the pages use)


def test_selected_models_carry_their_settings(monkeypatch):
    import streamlit as st

    from ui import models_sidebar as ms

    state = {ms.SELECTED: ["openai:llama3@http://127.0.0.1:8000/v1", "local"],
             "pa.model.openai:llama3@http://127.0.0.1:8000/v1.base_url": "http://127.0.0.1:9000/v1",
             "pa.model.openai:llama3@http://127.0.0.1:8000/v1.temperature": 0.7,
             "pa.model.openai:llama3@http://127.0.0.1:8000/v1.top_p": 0.9,
             "pa.model.openai:llama3@http://127.0.0.1:8000/v1.seed": 4,
             "pa.model.local.system_mode": "split"}
    monkeypatch.setattr(st, "session_state", state)
    served, local = ms.selected_models()
    assert served.spec == "openai:llama3@http://127.0.0.1:9000/v1"
    assert served.request_settings() == {"temperature": 0.7, "max_tokens": 256, "top_p": 0.9, "seed": 4}
    assert served.concurrency == 8
    assert (local.spec, local.system_mode, local.concurrency, local.top_p, local.seed) == ("local", "split", 1, None,
                                                                                           None)
