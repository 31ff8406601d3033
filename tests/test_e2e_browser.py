"""The whole app as a person uses it, in a real headless chromium against ``streamlit run app.py``: paste a prompt on
the Start page, read the count, shrink the budget, Analyse on the embedded model, see the coloured components and
the heatmaps, find the same dissection on the Dissect page and the run on the Results page, read the About page —
then the same with a prompt carrying ``<script>alert(1)</script>``, which must show as text and run nothing.

Screenshots of every step land in ``artifacts/e2e/`` (the README's pictures come from there)."""
from __future__ import annotations

import re

import pytest

import browser

PROMPT = ("You are a friendly support assistant for an online bookshop. "
          "Answer the customer's question about their order in two sentences. "
          "Orders ship within three working days and returns are free for thirty days. "
          "Reply in plain text without lists.")
SCRIPT_PROMPT = ("<script>alert(1)</script> You are a careful editor. Fix the spelling in the text below. "
                 "Return only the corrected text.")
#: A small budget: one variant per cell, answers of at most 8 tokens.
SAMPLES, MAX_TOKENS = "1", "8"
RUN_TIMEOUT_MS = 600_000


def _wait_for_tables(page) -> None:
    """The Dissect page's summary table and label editor draw after the highlighted text: wait for both."""
    browser.wait_idle(page)
    page.wait_for_function("document.querySelectorAll('[data-testid=stDataFrame] canvas').length >= 2",
                           timeout=30_000)


def _shot(page, name: str) -> None:
    browser.SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(browser.SHOTS / f"{name}.png"), full_page=True)


def _number(page, label: str, value: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(value)
    box.press("Enter")
    browser.wait_idle(page)


def _analyse(page, prompt: str) -> int:
    """Paste ``prompt`` on the Start page, set the small budget, read the count, press Analyse and wait for the end;
    returns the count of requests the page announced."""
    page.get_by_role("textbox", name="Prompt").fill(prompt)
    page.keyboard.press("Control+Enter")
    browser.wait_idle(page)
    if not page.get_by_label("Variants sent per cell", exact=True).is_visible():
        page.get_by_text("Budget", exact=True).click()
    _number(page, "Answer length (max tokens)", MAX_TOKENS)
    _number(page, "Variants sent per cell", SAMPLES)
    count = page.locator("[data-testid=stMarkdownContainer]", has_text=f"× {SAMPLES} variant(s)").first
    count.wait_for(timeout=30_000)  # the count shows the new budget: the page has taken it
    browser.wait_idle(page)
    announced = re.search(r"Will send (\d+) request\(s\) to local: .* local model time: about \d+", count.inner_text())
    assert announced, count.inner_text()
    page.get_by_role("button", name="Analyse").click()
    page.get_by_text("Done: run #", exact=False).first.wait_for(timeout=RUN_TIMEOUT_MS)
    browser.wait_idle(page, RUN_TIMEOUT_MS)
    stop = page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop")
    assert stop.count() == 0  # the page's Stop shows only while a run goes
    return int(announced.group(1))


def _heatmaps(page) -> list[str]:
    """The titles of the plotly heatmaps on the page (after they have drawn)."""
    page.wait_for_selector(".js-plotly-plot .heatmaplayer", timeout=60_000)
    return page.locator(".js-plotly-plot .gtitle").evaluate_all("els => els.map(e => e.textContent)")


def _open(page, title: str, heading: str) -> None:
    """Go to the page ``title`` by the sidebar's navigation and wait until it shows its ``heading``."""
    page.locator("[data-testid=stSidebarNav]").get_by_text(title, exact=True).click()
    page.get_by_role("heading", name=heading, exact=True).wait_for(timeout=60_000)
    browser.wait_idle(page)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_from_pasted_prompt_to_heatmap_in_chromium(tmp_path):
    browser.require_browser()
    env = {"PROMPTANATOMY_CACHE_DIR": str(tmp_path / "cache"), "PROMPTANATOMY_STORE": str(tmp_path / "runs.sqlite")}
    dialogs: list[str] = []
    with browser.streamlit_server(env) as url, browser.sync_playwright()() as p:
        chromium = p.chromium.launch(executable_path=str(browser.CHROMIUM), args=browser.ARGS)
        try:
            page = chromium.new_page(viewport={"width": 1440, "height": 2300})
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(url, wait_until="networkidle")
            page.get_by_role("textbox", name="Prompt").wait_for(timeout=60_000)
            browser.wait_idle(page)
            assert page.get_by_role("heading", name="PromptAnatomy Studio").count() == 1
            sidebar = page.locator("[data-testid=stSidebar]")
            assert sidebar.get_by_text("Models to run", exact=True).count() == 1
            _shot(page, "01_start")

            requests = _analyse(page, PROMPT)
            _shot(page, "02_start_results")
            doc = page.locator(".pa-doc").first
            assert doc.locator(".pa-badge").count() > 0  # the coloured, labelled components
            titles = _heatmaps(page)
            assert any(t.startswith("ASR · local") for t in titles) and any(t.startswith("PSS · local")
                                                                          for t in titles)
            assert page.get_by_text("Most fragile on local", exact=True).count() == 1

            _open(page, "Dissect", "Dissect a prompt")  # the dissection carries over to the other pages
            page.wait_for_selector(".pa-doc [data-i]", timeout=30_000)
            assert "Orders ship within three working days" in page.locator(".pa-doc").first.inner_text()
            _wait_for_tables(page)
            _shot(page, "03_dissect")

            _open(page, "Results", "Results")
            assert any(t.startswith("ASR · local") for t in _heatmaps(page))
            metric = page.locator("[data-testid=stMetric]", has_text="Requests").first.inner_text()
            assert metric.split() == ["Requests", str(requests)]  # the run sent what the Start page announced
            _shot(page, "04_results")

            _open(page, "About the method", "About the method")
            assert page.get_by_role("link", name="aclanthology.org/2024.findings-emnlp.108").count() == 1
            _shot(page, "05_about")

            _open(page, "Start", "PromptAnatomy Studio")
            _analyse(page, SCRIPT_PROMPT)
            doc = page.locator(".pa-doc").first
            assert doc.locator("script").count() == 0
            assert "<script>alert(1)</script>" in doc.inner_text()
            assert page.locator("script:has-text('alert(1)')").count() == 0
            _heatmaps(page)
            _shot(page, "06_script_prompt")

            dark = chromium.new_page(viewport={"width": 1440, "height": 2300}, color_scheme="dark")
            dark.goto(url + "/dissect", wait_until="networkidle")
            browser.wait_idle(dark)
            dark.get_by_role("textbox", name="Prompt").fill(PROMPT)
            dark.keyboard.press("Control+Enter")
            dark.get_by_role("button", name="Dissect", exact=True).click()
            dark.wait_for_selector(".pa-doc.pa-dark [data-i]", timeout=30_000)
            _wait_for_tables(dark)
            _shot(dark, "07_dissect_dark")
        finally:
            chromium.close()
    assert dialogs == []


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_stop_keeps_what_landed_and_analyse_carries_on(tmp_path):
    """Stop in the middle of a run on the embedded model: the heatmaps drawn so far stay, the page says how many
    answers were kept, and Analyse sends only the rest."""
    browser.require_browser()
    env = {"PROMPTANATOMY_CACHE_DIR": str(tmp_path / "cache"), "PROMPTANATOMY_STORE": str(tmp_path / "runs.sqlite")}
    with browser.streamlit_server(env) as url, browser.sync_playwright()() as p:
        chromium = p.chromium.launch(executable_path=str(browser.CHROMIUM), args=browser.ARGS)
        try:
            page = chromium.new_page(viewport={"width": 1440, "height": 2300})
            page.goto(url, wait_until="networkidle")
            page.get_by_role("textbox", name="Prompt").wait_for(timeout=60_000)
            browser.wait_idle(page)
            page.get_by_role("textbox", name="Prompt").fill(PROMPT)
            page.keyboard.press("Control+Enter")
            browser.wait_idle(page)
            page.get_by_text("Budget", exact=True).click()
            _number(page, "Answer length (max tokens)", "16")
            _number(page, "Variants sent per cell", "2")
            _shot(page, "08_budget")
            page.locator("[data-testid=stMarkdownContainer]", has_text="× 2 variant(s)").first.wait_for()
            browser.wait_idle(page)
            page.get_by_role("button", name="Analyse").click()
            # partial results: a heatmap appears while the answers are still coming
            page.wait_for_selector(".js-plotly-plot .heatmaplayer", timeout=RUN_TIMEOUT_MS)
            page.get_by_text(re.compile(r"local: ([4-9]|\d\d) of \d+ answered")).first.wait_for(timeout=RUN_TIMEOUT_MS)
            _shot(page, "08_partial_results")
            page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop").click()
            stopped = page.get_by_text(re.compile(r"Stopped: \d+ of \d+ answers kept \(interrupted\)")).first
            stopped.wait_for(timeout=120_000)
            browser.wait_idle(page)
            kept, total = map(int, re.search(r"Stopped: (\d+) of (\d+)", stopped.inner_text()).groups())
            assert 4 <= kept < total
            assert page.locator(".js-plotly-plot .heatmaplayer").count() >= 2  # what was judged so far stays
            _shot(page, "09_stopped")
            page.get_by_role("button", name="Analyse").click()
            done = page.get_by_text(re.compile(r"Done: run #1 · \d+ answered now, \d+ before")).first
            done.wait_for(timeout=RUN_TIMEOUT_MS)
            now, before = map(int, re.search(r"(\d+) answered now, (\d+) before", done.inner_text()).groups())
            assert before >= kept and before + now == total  # carried on: only what was missing was sent
            browser.wait_idle(page, RUN_TIMEOUT_MS)
            assert page.get_by_text(re.compile(r"Stopped: ")).count() == 0
        finally:
            chromium.close()
