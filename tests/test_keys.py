"""API keys: sources in order, missing keys named, and never sent or shown where they do not belong."""
from __future__ import annotations

import pytest

from promptanatomy_core.models.base import BackendError, ChatRequest, Message, get_backend
from promptanatomy_core.models.keys import (COMPATIBLE_KEY_ENV, NO_KEY, describe_key, key_variable, redact, remember,
                                            resolve_key)

from fault_server import FaultServer

OPENAI_KEY = "sk-proj-Zx8Qv2Lm9Tr4Np6Ws1Yb3Kd5Hf7Jg0Ac"
ENV = {"OPENAI_API_KEY": "sk-from-env-0123456789abcdef", "ANTHROPIC_API_KEY": "sk-ant-from-env-0123456789"}


class Secrets(dict):
    """Like st.secrets: a mapping with nested sections."""


class NoSecretsFile:
    """Like st.secrets without a secrets.toml: every access raises."""

    def get(self, name, default=None):
        raise FileNotFoundError("No secrets files found")


def test_explicit_then_secrets_then_environment():
    assert resolve_key("openai", explicit=" sk-typed-in-0123456789 ", secrets=Secrets(OPENAI_API_KEY="sk-secret-123456"),
                       env=ENV) == "sk-typed-in-0123456789"
    assert resolve_key("openai", secrets=Secrets(OPENAI_API_KEY="sk-secret-123456"), env=ENV) == "sk-secret-123456"
    assert resolve_key("anthropic", secrets=Secrets(anthropic={"api_key": "sk-ant-section-1234"}),
                       env=ENV) == "sk-ant-section-1234"
    assert resolve_key("openai", secrets=NoSecretsFile(), env=ENV) == ENV["OPENAI_API_KEY"]
    # the [openai] section is the OpenAI key: never sent to another OpenAI-compatible server
    assert resolve_key("openai", secrets=Secrets(openai={"api_key": "sk-section-123456789"}), env={},
                       base_url="http://127.0.0.1:8000/v1") == NO_KEY
    assert resolve_key("anthropic", env=ENV) == ENV["ANTHROPIC_API_KEY"]


@pytest.mark.parametrize("provider, var", [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")])
def test_missing_key_names_the_variable(provider, var, monkeypatch):
    with pytest.raises(BackendError, match=var):
        resolve_key(provider, env={})
    monkeypatch.delenv(var, raising=False)
    with pytest.raises(BackendError, match=var):
        get_backend(f"{provider}:some-model")


def test_openai_key_is_not_sent_to_other_servers(monkeypatch):
    import openai  # noqa: F401  (make install provides it: a missing one fails)
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.delenv(COMPATIBLE_KEY_ENV, raising=False)
    assert key_variable("openai", "http://127.0.0.1:8000/v1") == COMPATIBLE_KEY_ENV
    assert key_variable("openai", "https://api.openai.com/v1") == "OPENAI_API_KEY"
    with FaultServer() as server:
        backend = get_backend(f"openai:fault-model@{server.base_url}")
        assert backend.generate([ChatRequest((Message("user", "hi"),))])[0].ok
        assert server.seen_auth == {f"Bearer {NO_KEY}"}
        monkeypatch.setenv(COMPATIBLE_KEY_ENV, "vllm-server-key-1234")
        get_backend(f"openai:fault-model@{server.base_url}").generate([ChatRequest((Message("user", "again"),))])
        assert "Bearer vllm-server-key-1234" in server.seen_auth
        assert not any(OPENAI_KEY in a for a in server.seen_auth)


def test_redact_known_keys_and_key_shapes():
    remember("my-very-own-server-token-42")
    text = (f"401: Incorrect API key provided: {OPENAI_KEY}. Headers: Authorization: Bearer abcdefghijklmnop123; "
            f"x-api-key: sk-ant-api03-abcdefghijklmnop; token my-very-own-server-token-42; api_key='zzzzzzzzzzzzzzzz'")
    clean = redact(text)
    for secret in (OPENAI_KEY, "abcdefghijklmnop123", "sk-ant-api03-abcdefghijklmnop", "my-very-own-server-token-42",
                   "zzzzzzzzzzzzzzzz"):
        assert secret not in clean
    assert clean.startswith("401: Incorrect API key provided: [REDACTED]")
    assert redact("temperature must be between 0 and 2") == "temperature must be between 0 and 2"
    assert redact(None) == ""


def test_describe_key_shows_only_the_tail():
    assert describe_key(OPENAI_KEY) == "…" + OPENAI_KEY[-4:]
    assert describe_key(None) == describe_key(NO_KEY) == "not set"
    assert describe_key("short") == "set"
