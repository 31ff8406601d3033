"""The Dissect page, driven through Streamlit's AppTest (the real app, the real rules dissector), and the pure
highlight builder behind it."""
from __future__ import annotations

import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import browser

from promptanatomy_core.models.base import Backend, ChatResponse, register_provider

from promptanatomy_core.tagged import parse_tagged
from promptanatomy_core.text import MAX_PROMPT_CHARS
from promptanatomy_core.types import COMPONENTS, Component, Dissection, Sentence
from ui.highlight import STYLES, highlight_html, legend_html, sentence_title

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")
AREA = "dissect.prompt_area"
PAGE = "app_pages/dissect.py"
PACP = REPO.parent / "shared" / "data" / "pacp"

#: A prompt in which the rules dissector finds all five components.
FIVE_PART_PROMPT = """You are an experienced medical translator.
Translate the patient leaflet below from English into Spanish.
The leaflet is written for readers in Mexico and uses the formal "usted".
Output only the translation as plain text, keeping the original line breaks.

Example:
Input: Take one tablet daily. Output: Tome una tableta al día.

Text: Do not drive after taking this medicine."""


# --------------------------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------------------------

@pytest.fixture
def app(monkeypatch, tmp_path) -> AppTest:
    monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def dissect(at: AppTest, text: str, timeout: float | None = None) -> AppTest:
    at.text_area(key=AREA).input(text)
    at.button(key="dissect.run").click()
    at.run(timeout=timeout)
    assert not at.exception, [e.value for e in at.exception]
    return at


def doc_html(at: AppTest) -> str:
    docs = [h.value for h in at.html if 'class="pa-doc' in h.value]
    assert len(docs) == 1, f"expected one highlighted prompt, found {len(docs)}"
    return docs[0]


def summary(at: AppTest):
    tables = [d for d in at.dataframe if d.editing_mode == "read_only"]
    assert len(tables) == 1
    return tables[0].value.set_index("Component")


def current(at: AppTest) -> Dissection:
    return at.session_state["pa.dissection"]


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


class _Text(HTMLParser):
    """Collects the text a reader sees, without the badges, and every attribute value."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.tags: list[str] = []
        self._stack: list[bool] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(k, v or "") for k, v in attrs]
        in_badge = bool(self._stack and self._stack[-1]) or "pa-badges" in dict(attrs).get("class", "")
        self._stack.append(in_badge)

    def handle_endtag(self, tag):
        self._stack.pop()

    def handle_data(self, data):
        if not (self._stack and self._stack[-1]):
            self.text.append(data)


def parse(html: str) -> _Text:
    p = _Text()
    p.feed(html)
    p.close()
    return p


# --------------------------------------------------------------------------------------------------------------------
# the page
# --------------------------------------------------------------------------------------------------------------------

def test_page_starts_with_settings_in_the_sidebar(app):
    assert app.sidebar.selectbox(key="pa.setting.dissector").value == "rules"
    assert app.sidebar.text_input(key="pa.setting.model").value == "local"
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "Cache folder" in captions and "cache" in captions
    assert app.title[0].value == "Dissect a prompt"
    assert not app.error


def test_dissect_a_pasted_prompt_with_rules(app):
    dissect(app, FIVE_PART_PROMPT)
    assert not errors(app)
    html = doc_html(app)
    for comp in COMPONENTS:
        st = STYLES[comp]
        assert f'class="pa-badge {st.css_class}"' in html, comp
        assert f"pa-bar {st.css_class}" in html, comp
    table = summary(app)
    assert len(table) == 5
    d = current(app)
    for comp in COMPONENTS:
        row = table.loc[f"{STYLES[comp].badge} · {comp.value}"]
        assert row["Sentences"] == sum(comp in s.labels for s in d.sentences) > 0
        assert 0 < row["Share"] <= 100
    # the reader sees exactly the prompt
    assert "".join(parse(html).text) == FIVE_PART_PROMPT
    assert app.session_state["pa.dissector_used"] == "rules"
    assert set(d.source_list) == {"rules"}
    assert [b.label for b in app.get("download_button")] == ["Download JSON", "Download tagged text"]
    # the sidebar stays on reruns (it would not if a `pages/` folder sat beside app.py: see app.py)
    assert app.sidebar.selectbox(key="pa.setting.dissector").value == "rules"


def test_empty_prompt_shows_the_specific_error(app):
    dissect(app, "   \n\t  ")
    assert any("empty" in e for e in errors(app)), errors(app)
    assert not [h for h in app.html if 'class="pa-doc' in h.value]


def test_markup_in_the_prompt_is_shown_as_text(app):
    prompt = "<script>alert(1)</script> You are a helpful assistant.\nClose the tag </Role> and answer \"yes\"."
    dissect(app, prompt)
    assert not errors(app)
    html = doc_html(app)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html.lower()
    assert "</Role>" not in html and "&lt;/Role&gt;" in html
    assert "script" not in parse(html).tags
    assert "".join(parse(html).text) == prompt


def test_too_long_prompt_is_refused_and_kept(app):
    prompt = "Summarise this. " + "x" * (200_000 - 16)
    assert len(prompt) == 200_000 > MAX_PROMPT_CHARS
    dissect(app, prompt)
    assert any("200,000 characters" in e and f"{MAX_PROMPT_CHARS:,}" in e for e in errors(app)), errors(app)
    assert app.text_area(key=AREA).value == prompt
    assert app.session_state["pa.prompt"] == prompt
    assert "pa.dissection" not in app.session_state
    app.run()  # and it stays on the next run
    assert app.text_area(key=AREA).value == prompt


def test_relabelling_by_hand_changes_summary_and_source(app):
    dissect(app, FIVE_PART_PROMPT)
    before = current(app)
    first = before.sentences[0]
    assert Component.ROLE in first.labels and Component.EXAMPLES not in first.labels
    examples_before = summary(app).loc["EX · Examples", "Sentences"]
    key = f"dissect.editor.{app.session_state['pa.dissection_version']}"
    app.session_state[key] = {"edited_rows": {0: {"Examples": True, "Role": False}}, "added_rows": [],
                              "deleted_rows": []}
    app.run()
    assert not app.exception
    after = current(app)
    assert after.sentences[0].labels == (first.labels - {Component.ROLE}) | {Component.EXAMPLES}
    assert after.source_list[0] == "manual"
    assert after.source_list[1:] == before.source_list[1:]
    assert summary(app).loc["EX · Examples", "Sentences"] == examples_before + 1
    html = doc_html(app)
    assert sentence_title(0, [c for c in COMPONENTS if c in after.sentences[0].labels], "manual") in html
    editor = app.data_editor(key=key).value
    assert editor.loc[0, "Source"] == "manual" and editor.loc[1, "Source"] == "rules"
    assert editor.loc[0, "Role"]  # the table starts from the dissector's labels; the edit is kept as a change
    # more edits add up; setting a row back restores its source
    app.session_state[key] = {"edited_rows": {0: {"Examples": False, "Role": True}, 1: {"Role": True}},
                              "added_rows": [], "deleted_rows": []}
    app.run()
    again = current(app)
    assert again.sentences[0] == before.sentences[0] and again.source_list[0] == "rules"
    assert Component.ROLE in again.sentences[1].labels and again.source_list[1] == "manual"
    assert summary(app).loc["EX · Examples", "Sentences"] == examples_before
    # the base dissection (what the dissector said) is kept
    assert app.session_state["pa.dissection_base"] == before


def test_changing_the_prompt_marks_the_dissection_stale(app):
    dissect(app, FIVE_PART_PROMPT)
    assert not app.warning
    app.text_area(key=AREA).input(FIVE_PART_PROMPT + "\nAnswer in one paragraph.")
    app.run()
    assert any("changed after it was dissected" in w.value for w in app.warning)


def test_example_from_assets_loads(app):
    examples = sorted((REPO / "assets" / "examples").glob("*.txt"))
    assert len(examples) >= 5
    box = app.selectbox(key="dissect.example")
    assert len(box.options) == len(examples)
    box.select(box.options[1])
    app.button(key="dissect.load_example").click()
    app.run()
    assert app.text_area(key=AREA).value == examples[1].read_text(encoding="utf-8")
    dissect(app, app.text_area(key=AREA).value)
    assert not errors(app)
    doc_html(app)


def test_upload_of_a_text_file_and_of_a_binary_file(app):
    app.file_uploader(key="dissect.upload").set_value(("p.txt", "You are a poet.\nWrite a haiku.".encode(), "text/plain"))
    app.run()
    assert app.text_area(key=AREA).value == "You are a poet.\nWrite a haiku."
    app.file_uploader(key="dissect.upload").set_value(("p.txt", b"\x89PNG\r\n\x1a\n\x00\x00binary", "text/plain"))
    app.run()
    assert not app.exception
    assert any("p.txt" in e and ("binary" in e or "UTF-8" in e) for e in errors(app)), errors(app)
    assert app.text_area(key=AREA).value == "You are a poet.\nWrite a haiku."


def test_model_that_fails_shows_its_message(app):
    assert app.sidebar.text_input(key="pa.setting.model").disabled  # only the llm dissector takes a model
    app.sidebar.selectbox(key="pa.setting.dissector").select("llm")
    app.run()
    app.sidebar.text_input(key="pa.setting.model").input("nosuchprovider:some-model")
    app.run()
    dissect(app, FIVE_PART_PROMPT)
    assert any("The model failed" in e and "nosuchprovider" in e for e in errors(app)), errors(app)
    assert app.text_area(key=AREA).value == FIVE_PART_PROMPT


def _write_dataset(folder: Path) -> list[dict]:
    records = [
        {"context_output": "<Role>You are a careful checker.</Role>\n<Directive>Check the answer. "
                           "Now complete the question: Is water wet?</Directive>\n"
                           "<Output Formatting>Output 'yes' or 'no'.</Output Formatting>", "answer": '[ "yes" ]'},
        {"context_output": "Error: Error code: 500 - out of memory", "answer": "x"},
        {"context_output": "<Role>As a translator, you translate Latin.</Role>\n<Directive>Translate the text "
                           "<b>as is</b>.</Directive>", "answer": "Done."},
    ]
    folder.mkdir()
    (folder / "Tiny-PA.json").write_text(json.dumps(records), encoding="utf-8")
    return records


def test_dataset_example_loads_its_untagged_prompt_and_gold_labels(monkeypatch, tmp_path):
    records = _write_dataset(tmp_path / "pacp")
    monkeypatch.setenv("PROMPTANATOMY_DATA_DIR", str(tmp_path / "pacp"))
    at = AppTest.from_file(APP, default_timeout=30).switch_page(PAGE).run()
    at.selectbox(key="dissect.dataset").select("Tiny-PA")
    at.run()
    assert any("2 of 3 records usable" in c.value and "1 skipped" in c.value for c in at.caption)
    at.number_input(key="dissect.record").set_value(2)
    at.button(key="dissect.load_record").click()
    at.run()
    assert not at.exception
    gold = parse_tagged(records[2]["context_output"])
    assert at.text_area(key=AREA).value == gold.prompt
    assert "<Role>" not in gold.prompt
    dissect(at, gold.prompt)
    agree = [c.value for c in at.caption if "Agreement with the gold labels" in c.value]
    assert len(agree) == 1 and re.search(r"\d of 2 sentences", agree[0]), agree
    at.toggle(key="dissect.show_gold").set_value(True)
    at.run()
    html = [h.value for h in at.html if 'class="pa-doc' in h.value and "set by gold" in h.value][0]
    assert "set by rules" not in html and "&lt;b&gt;as is&lt;/b&gt;" in html
    assert any("Expected answer: Done." in c.value for c in at.caption)
    at.button(key="dissect.use_gold").click()
    at.run()
    assert at.session_state["pa.dissector_used"] == "gold"
    assert current(at) == gold
    # the skipped record says why
    at.number_input(key="dissect.record").set_value(1)
    at.button(key="dissect.load_record").click()
    at.run()
    assert any("no component tags" in e for e in errors(at)), errors(at)
    assert at.text_area(key=AREA).value == gold.prompt


def test_missing_dataset_folder_says_where_to_put_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PROMPTANATOMY_DATA_DIR", str(tmp_path / "nowhere"))
    at = AppTest.from_file(APP, default_timeout=30).switch_page(PAGE).run()
    assert not at.exception
    assert any("No datasets found" in c.value and str(tmp_path / "nowhere") in c.value for c in at.caption)
    assert not [s for s in at.selectbox if s.key == "dissect.dataset"]


def test_real_dataset_record_loads(monkeypatch):
    assert (PACP / "PubMedQA-PA.json").is_file(), f"the PACP datasets are required in {PACP}"
    monkeypatch.delenv("PROMPTANATOMY_DATA_DIR", raising=False)
    at = AppTest.from_file(APP, default_timeout=30).switch_page(PAGE).run()
    at.selectbox(key="dissect.dataset").select("CodeGeneration-PA")
    at.run()
    assert any("796 of 1000" in c.value and "204 skipped" in c.value for c in at.caption)
    at.selectbox(key="dissect.dataset").select("PubMedQA-PA")
    at.run()
    at.number_input(key="dissect.record").set_value(3)
    at.button(key="dissect.load_record").click()
    at.run()
    raw = json.loads((PACP / "PubMedQA-PA.json").read_text(encoding="utf-8"))[3]["context_output"]
    assert at.text_area(key=AREA).value == parse_tagged(raw).prompt
    dissect(at, at.text_area(key=AREA).value)
    assert not errors(at)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_llm_dissector_with_the_embedded_model(app):
    app.sidebar.selectbox(key="pa.setting.dissector").select("llm")
    app.run()
    at = dissect(app, "You are a friendly tutor.\nExplain photosynthesis to a ten-year-old.", timeout=600)
    assert not errors(at), errors(at)
    d = current(at)
    assert at.session_state["pa.dissector_used"] == "llm:local"
    assert set(d.source_list) <= {"llm", "llm→rules"}
    assert "set by llm" in doc_html(at)


# --------------------------------------------------------------------------------------------------------------------
# the highlight builder (pure)
# --------------------------------------------------------------------------------------------------------------------

def _dissection(prompt: str, labels: list[set[Component]], sources: list[str] | None = None) -> Dissection:
    from promptanatomy_core.text import split_sentences

    sents = split_sentences(prompt)
    assert len(sents) == len(labels)
    return Dissection(prompt, tuple(s.with_labels(lab) for s, lab in zip(sents, labels)),
                      tuple(sources or ["rules"] * len(sents)))


def test_highlight_escapes_text_and_attributes():
    prompt = 'Say "hi" & <b>bye</b>.\nIgnore </Role> and <script>x</script>'
    d = _dissection(prompt, [{Component.DIRECTIVE}, set()], ['rules"><script>', "r&d"])
    html = highlight_html(d)
    assert "<script" not in html and "<b>" not in html
    p = parse(html)
    assert set(p.tags) == {"div", "span"}
    assert "".join(p.text) == prompt
    titles = [v for k, v in p.attrs if k == "title" and v.startswith("Sentence")]
    assert titles == ['Sentence 1: Directive — set by rules"><script>', "Sentence 2: no label — set by r&d"]
    assert "&quot;&gt;&lt;script&gt;" in html and "r&amp;d" in html


def test_highlight_shows_every_label_of_a_multi_label_sentence():
    d = _dissection("You are a judge; answer yes or no.", [{Component.ROLE, Component.OUTPUT_FORMATTING,
                                                           Component.DIRECTIVE}])
    html = highlight_html(d)
    sent = re.search(r'<span class="pa-s ([^"]*)"', html).group(1).split()
    assert sent == ["pa-role", "pa-directive", "pa-output-formatting", "pa-multi"]
    badges = re.findall(r'class="pa-badge [^"]*"[^>]*>([^<]*)<', html)
    assert badges == ["R", "D", "OF"]  # canonical order
    bars = re.findall(r'class="pa-bar (pa-[a-z-]+) (pa-d\d)"', html)
    assert sorted(bars) == sorted([("pa-role", "pa-d2"), ("pa-directive", "pa-d1"), ("pa-output-formatting", "pa-d0")])
    assert "repeating-linear-gradient" in html and "var(--pa-role-tint)" in html
    assert 'title="Sentence 1: Role, Directive, Output Formatting — set by rules"' in html


def test_highlight_keeps_white_space_and_unlabelled_sentences():
    prompt = "You are a bot.\n\n  Answer briefly.   "
    d = _dissection(prompt, [{Component.ROLE}, set()])
    html = highlight_html(d, dark=True)
    assert html.startswith('<div class="pa-doc pa-dark">')
    assert "".join(parse(html).text) == prompt
    assert 'class="pa-s pa-none"' in html
    assert "pa-multi" not in html


def test_sentence_title_and_legend():
    assert sentence_title(4, [Component.EXAMPLES], "") == "Sentence 5: Examples — set by unknown"
    legend = legend_html()
    for comp in COMPONENTS:
        assert f">{STYLES[comp].badge}</span>" in legend
        assert comp.value in legend
    assert "several labels" in legend and "no label" in legend
    assert len({s.badge for s in STYLES.values()}) == len({s.line for s in STYLES.values()}) == 5


def test_highlight_escapes_a_sentence_that_is_markup():
    d = Dissection("<i>", (Sentence(0, 3, "<i>"),), ("x",))
    assert "&lt;i&gt;" in highlight_html(d)


class _Stalling(Backend):
    """A backend slower than any time-out the sidebar allows (the real model's own app test sits above): the page
    must report the time-out and let the rules fill in, whatever the machine's speed."""

    def generate(self, requests):
        time.sleep(8)
        return [ChatResponse(text="<Directive></Directive>") for _ in requests]


register_provider("stalltest")(lambda spec: _Stalling(spec))


def test_llm_dissector_time_out_is_reported_and_rules_fill_in(app):
    prompt = "\n".join(f"Rule {i}: check that item {i} of the list is spelled correctly and mark it." for i in range(3))
    app.sidebar.selectbox(key="pa.setting.dissector").select("llm")
    app.run()
    app.sidebar.text_input(key="pa.setting.model").input("stalltest:x")
    app.sidebar.number_input(key="pa.setting.timeout").set_value(5)
    app.run()
    at = dissect(app, prompt, timeout=60)
    assert not at.exception
    shown = errors(at) + [w.value for w in at.warning]
    assert any("could not label" in m and "timed out" in m for m in shown), shown
    d = current(at)
    assert d.prompt == prompt and set(d.source_list) == {"llm→rules"}


# --------------------------------------------------------------------------------------------------------------------
# the real page in a browser
# --------------------------------------------------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path):
    with browser.streamlit_server({"PROMPTANATOMY_CACHE_DIR": str(tmp_path / "cache")}) as url:
        yield url


@pytest.mark.browser
def test_page_in_chromium_escapes_markup_and_styles_components(server):
    browser.require_browser()
    prompt = "<script>alert(1)</script><img src=x onerror=alert(2)>\n" + FIVE_PART_PROMPT
    dialogs: list[str] = []
    with browser.sync_playwright()() as p:
        chromium = p.chromium.launch(executable_path=str(browser.CHROMIUM), args=browser.ARGS)
        try:
            page = chromium.new_page(viewport={"width": 1400, "height": 1600})
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(server + "/dissect", wait_until="networkidle")
            page.wait_for_selector("textarea", timeout=30_000)
            browser.wait_idle(page, 30_000)
            # The app's sidebar is there (app.py ran, not the page alone): its dissector setting shows.
            assert page.locator("[data-testid=stSidebar]").get_by_text("Dissector", exact=True).count() == 1
            page.get_by_role("textbox", name="Prompt").fill(prompt)
            page.keyboard.press("Control+Enter")
            page.get_by_role("button", name="Dissect", exact=True).click()
            page.wait_for_selector(".pa-doc [data-i]", timeout=30_000)
            doc = page.locator(".pa-doc").first
            assert doc.locator("script, img").count() == 0
            assert doc.inner_text().count("<script>alert(1)</script>") == 1
            titles = doc.locator("[data-i]").evaluate_all("els => els.map(e => e.title)")
            assert titles and all(t.startswith("Sentence ") and "set by rules" in t for t in titles)
            styles = {slug: doc.locator(f".pa-bar.pa-{slug}").first.evaluate(
                "e => [getComputedStyle(e).borderBottomStyle, getComputedStyle(e).textDecorationStyle]")
                for slug in ("role", "directive", "additional-information", "output-formatting", "examples")}
            assert styles == {"role": ["solid", "solid"], "directive": ["dashed", "solid"],
                              "additional-information": ["dotted", "solid"],
                              "output-formatting": ["double", "solid"], "examples": ["none", "wavy"]}
            badge = doc.locator(".pa-badge.pa-role").first
            assert badge.inner_text() == "R"
            assert badge.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(0, 114, 178)"
        finally:
            chromium.close()
    assert dialogs == []
