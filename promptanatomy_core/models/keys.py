"""API keys: where they come from, and keeping them out of everything else.

A key comes, in this order, from the value given explicitly (the app's password field, ``api_key=``), from a
``st.secrets``-like mapping passed in (``OPENAI_API_KEY = "…"`` at the top level, or ``[openai] api_key = "…"``), or
from the environment. A missing key fails with a :class:`BackendError` that names the variable.

Every key that is resolved here is remembered (in this process only) so :func:`redact` can blank it out of error
messages, log lines and exports; well-known key shapes (``sk-…``, ``sk-ant-…``, ``Bearer …``) are blanked as well.
Keys are never part of cache keys, responses or run records.
"""
from __future__ import annotations

import os
import re
import threading
from typing import Any, Mapping
from urllib.parse import urlparse

from .base import BackendError

#: The environment variable (and secrets name) holding each provider's key.
KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
#: The key for an OpenAI-compatible server at another base_url (vLLM ``--api-key``, a proxy). The OpenAI key is not
#: sent to other hosts unless given explicitly, so a self-hosted server never sees it.
COMPATIBLE_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY"
#: What is sent to an OpenAI-compatible server when no key is set (most local servers want none).
NO_KEY = "no-key"
#: The text that replaces a secret.
MASK = "[REDACTED]"

_KNOWN: set[str] = set()
_LOCK = threading.Lock()
_PATTERNS = (
    re.compile(r"sk-ant-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9_\-.=]{12,}"),
    re.compile(r"(?i)((?:x-)?api[-_]?key[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9_\-.]{12,}"),
)


def remember(secret: str | None) -> None:
    """Add ``secret`` to the values :func:`redact` removes (short values are ignored: they would mask ordinary text)."""
    if secret and len(secret) >= 8 and secret != NO_KEY:
        with _LOCK:
            _KNOWN.add(secret)


def redact(text: Any) -> str:
    """``text`` with every known key and anything shaped like a key replaced by ``[REDACTED]``."""
    text = "" if text is None else str(text)
    with _LOCK:
        known = sorted(_KNOWN, key=len, reverse=True)
    for secret in known:
        if secret in text:
            text = text.replace(secret, MASK)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) if m.re.groups else "") + MASK, text)
    return text


def key_from_secrets(secrets: Mapping[str, Any] | None, provider: str, var: str) -> str | None:
    """The key in a ``st.secrets``-like mapping: ``var`` at the top level, else ``[provider] api_key`` (only for the
    provider's own variable: the OpenAI key is never the key of another server)."""
    if not secrets:
        return None
    try:
        value = secrets.get(var)
        if not value and var == KEY_ENV.get(provider):
            section = secrets.get(provider)
            if isinstance(section, Mapping) or hasattr(section, "get"):
                value = section.get("api_key")
    except Exception:  # st.secrets raises when there is no secrets.toml at all
        return None
    return str(value).strip() if value else None


def is_official_openai(base_url: str | None) -> bool:
    """True for the OpenAI API itself (no base_url, or one on api.openai.com)."""
    if not base_url:
        return True
    host = (urlparse(base_url).hostname or "").lower()
    return host == "api.openai.com"


def key_variable(provider: str, base_url: str | None = None) -> str | None:
    """The environment variable a key for ``provider`` (at ``base_url``) is read from; None for ``local``."""
    if provider == "openai" and not is_official_openai(base_url):
        return COMPATIBLE_KEY_ENV
    return KEY_ENV.get(provider)


def resolve_key(provider: str, *, explicit: str | None = None, secrets: Mapping[str, Any] | None = None,
                base_url: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The API key for ``provider``: ``explicit``, else ``secrets``, else the environment.

    For ``openai`` at a base_url other than api.openai.com the variable is ``OPENAI_COMPATIBLE_API_KEY`` and a missing
    key is no error (most self-hosted servers want none; :data:`NO_KEY` is sent). Otherwise a missing key raises
    :class:`BackendError` naming the variable.
    """
    env = os.environ if env is None else env
    var = key_variable(provider, base_url)
    if var is None:
        raise BackendError(f"provider {provider!r} takes no API key")
    value = (explicit or "").strip() or key_from_secrets(secrets, provider, var) or (env.get(var) or "").strip()
    if value:
        remember(value)
        return value
    if var == COMPATIBLE_KEY_ENV:
        return NO_KEY
    raise BackendError(f"no API key for {provider}: set the environment variable {var} (or put {var} in "
                       f".streamlit/secrets.toml, or enter the key in the app's sidebar)")


def describe_key(key: str | None) -> str:
    """A safe description of a key for the screen: ``sk-…abcd`` style (its last 4 characters) or ``not set``."""
    if not key or key == NO_KEY:
        return "not set"
    return f"…{key[-4:]}" if len(key) >= 16 else "set"
