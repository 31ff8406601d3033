"""Cold start: how long the Streamlit app takes from a fresh server process to a first page a person can use.

Each round starts ``streamlit run app.py --server.headless true --server.port <free port> --server.address
127.0.0.1`` in a new process (with a fresh, empty ``PROMPTANATOMY_CACHE_DIR``, as the app tests do) and measures:

1. ``health``: seconds from starting the process until ``/_stcore/health`` answers ``ok``;
2. ``first page``: seconds from starting the process until a headless Chromium (started before the server, so its
   own start is not counted) shows the first page interactive: a textarea visible and
   ``[data-testid=stApp][data-test-script-state=notRunning]``; the part of it after the health check (the page's own
   load: the browser fetches the front end, opens the session, the script runs) is printed too;
3. ``second session``: the same for a second browser session (a new browser context: its own cookies and session)
   on the now warm server, from ``goto`` to interactive.

The rounds (``--repeat``, default 3) each use a new server process; the medians are printed last.

    python bench/cold_start.py [--repeat 3] [--chromium /usr/bin/chromium] [--timeout 120]

Needs Debian's chromium and Playwright for Python (``make test`` installs both). Exit status 1 if a round fails.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
INTERACTIVE = "[data-testid=stApp][data-test-script-state=notRunning]"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with status {proc.returncode}: "
                               + proc.stderr.read().decode(errors="replace")[-2000:])
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as answer:
                if answer.read() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"no healthy answer from {url} within {timeout:.0f} s")


def open_page(browser, url: str, timeout_ms: float) -> float:
    """A new browser session on ``url``; the monotonic time at which its first page became interactive."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(url, wait_until="commit", timeout=timeout_ms)
        page.wait_for_selector("textarea", state="visible", timeout=timeout_ms)
        page.wait_for_selector(INTERACTIVE, timeout=timeout_ms)
        return time.monotonic()
    finally:
        context.close()


def one_round(browser, timeout: float) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp:
        env = dict(os.environ, PROMPTANATOMY_CACHE_DIR=str(Path(tmp) / "cache"))
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                                 "--server.port", str(port), "--server.address", "127.0.0.1"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_healthy(url, proc, timeout)
            healthy = time.monotonic()
            first = open_page(browser, url, timeout * 1000)
            again = time.monotonic()
            second = open_page(browser, url, timeout * 1000)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return {"health": healthy - started, "first page": first - started, "page after health": first - healthy,
            "second session": second - again}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds, each with a new server process (default 3)")
    parser.add_argument("--chromium", type=Path, default=CHROMIUM)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds each wait may take (default 120)")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("cold_start: Playwright for Python is not installed (pip install playwright)", file=sys.stderr)
        return 1
    if not args.chromium.exists():
        print(f"cold_start: no chromium at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return 1
    try:
        load = f", load average {os.getloadavg()[0]:.1f} at the start"
    except OSError:
        load = ""
    print(f"cold start of app.py: {args.repeat} round(s), {os.cpu_count()} CPU(s){load}")
    rounds: list[dict[str, float]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(args.chromium), args=CHROMIUM_ARGS)
        try:
            for k in range(1, args.repeat + 1):
                try:
                    figures = one_round(browser, args.timeout)
                except Exception as exc:  # noqa: BLE001 - report the round and stop
                    print(f"round {k}: failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                    return 1
                rounds.append(figures)
                print(f"round {k}: " + ", ".join(f"{name} {value:.2f} s" for name, value in figures.items()),
                      flush=True)
        finally:
            browser.close()
    print("median over the rounds:")
    for name in rounds[0]:
        print(f"  {name + ':':<19} {statistics.median(r[name] for r in rounds):6.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
