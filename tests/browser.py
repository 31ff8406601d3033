"""Helpers for the browser tests: a real ``streamlit run app.py`` on a free loopback port, and Debian's headless
chromium driven by Playwright for Python (``executable_path``; no browser download)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
#: Where the browser tests save their screenshots (the CI keeps the folder as the run's artifacts).
SHOTS = REPO / "artifacts" / "e2e"


def sync_playwright():
    """Playwright's ``sync_playwright`` (make test installs the package); None when it is missing."""
    try:
        from playwright.sync_api import sync_playwright as found
    except ImportError:
        return None
    return found


def require_browser() -> None:
    assert CHROMIUM.exists() and sync_playwright() is not None, "make test installs Debian's chromium and playwright"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(env: dict[str, str]) -> Iterator[str]:
    """``streamlit run app.py`` with ``env`` added to the environment; yields its URL once it answers /health."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(REPO / "app.py"), "--server.headless",
                             "true", "--server.port", str(port), "--server.address", "127.0.0.1"],
                            cwd=REPO, env=dict(os.environ, **env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.25)
        else:
            raise RuntimeError("streamlit did not start: " + proc.stderr.read1(4000).decode(errors="replace"))
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # busy in a model call: it does not stop on SIGTERM in time
            proc.kill()
            proc.wait(timeout=20)


def wait_idle(page, timeout_ms: int = 60_000) -> None:
    """Wait until the app's script run has finished (Streamlit marks it on the app's root element)."""
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=timeout_ms)
