"""The Perturb page, driven through Streamlit's AppTest (the real app, the real strategies; the tests marked slow score
with the real embedded model), and the engine call behind it."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from promptanatomy_core.dissect.base import get_dissector
from promptanatomy_core.perturb import PerturbError
from promptanatomy_core.types import Component, Dissection, Sentence
from ui import engine
from ui.state import dissection_key

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")
PAGE = "app_pages/perturb.py"

PROMPT = """You are an experienced medical translator who works for a hospital.
Translate the patient leaflet below from English into Spanish, keeping every dose and unit exactly as written.
The leaflet is written for readers in Mexico and uses the formal "usted".
Output only the translation as plain text, keeping the original line breaks.

Text: Do not drive after taking this medicine."""
SMALL_GRID = [("Role", "SCI"), ("Role", "WOD"), ("Directive", "SCI"), ("Directive", "WOD")]


def rules(prompt: str) -> Dissection:
    import promptanatomy_core.dissect  # noqa: F401  (registers the dissectors)

    return get_dissector("rules").dissect(prompt)


def cell(component: str, strategy: str) -> str:
    return f"perturb.cell.{component}.{strategy}"


def page(dissection: Dissection | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(PAGE)
    if dissection is not None:
        at.session_state["pa.dissection"] = dissection
        at.session_state["pa.dissection_base"] = dissection
        at.session_state["pa.prompt"] = dissection.prompt
        at.session_state["pa.dissector_used"] = "rules"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def choose(at: AppTest, cells=SMALL_GRID, n: int = 2, seed: int = 1, filter: str = "off") -> AppTest:
    for c, s in cells:
        at.checkbox(key=cell(c, s)).check()
    at.number_input(key="perturb.n").set_value(n)
    at.number_input(key="perturb.seed").set_value(seed)
    at.radio(key="perturb.filter").set_value(filter)
    return at


def generate(at: AppTest, timeout: float = 60) -> AppTest:
    at.button(key="perturb.generate").click()
    at.run(timeout=timeout)
    assert not at.exception, [e.value for e in at.exception]
    return at


def cards(at: AppTest) -> list[str]:
    return [h.value for h in at.html if 'class="pa-variant' in h.value]


def summary(at: AppTest):
    assert len(at.dataframe) == 1
    return at.dataframe[0].value.set_index(["Component", "Strategy"])


def stored(at: AppTest):
    return at.session_state["pa.variants"]


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path, request):
    if "slow" not in request.keywords:  # the slow tests use the converted embedded model in the usual cache
        monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def dissection() -> Dissection:
    d = rules(PROMPT)
    assert {Component.ROLE, Component.DIRECTIVE} <= set(d.components())
    return d


# ----------------------------------------------------------------------------------------------------------- fast

def test_without_a_dissection_the_page_says_to_dissect_first():
    at = page()
    assert any("Dissect a prompt first" in i.value for i in at.info)
    assert not at.error and not at.checkbox
    assert at.title[0].value == "Perturb a prompt"


def test_small_grid_without_scoring(dissection):
    at = choose(page(dissection))
    assert at.toggle(key="perturb.offline_ser").value is True  # the default
    generate(at)
    assert not at.error and not at.warning
    table = summary(at)
    assert list(table.index) == SMALL_GRID
    assert (table["Variants"] == 2).all() and (table["Status"] == "made").all()
    assert table["Kept"].isna().all()  # the filter was off
    result = stored(at).result
    assert len(result.variants) == 8 and not result.scored
    assert stored(at).dissection_key == dissection_key(dissection)
    assert [(v.component, v.strategy, v.seed) for v in result.variants] == [
        (c, s, seed) for c, s in SMALL_GRID for seed in (1, 2)]
    assert all(v.kept is None and v.ppl_ratio is None for v in result.variants)
    shown = cards(at)
    assert len(shown) == 8
    assert all("not scored" in h for h in shown)
    assert all('<ins class="pa-ins"' in h for h in shown if "× SCI" in h)
    assert all('<del class="pa-del"' in h for h in shown if "× WOD" in h)
    assert [b.label for b in at.get("download_button")] == ["Download the variants (JSON)"]
    # the cell picker narrows what is shown
    at.selectbox(key="perturb.view_cell").set_value("Directive × WOD").run()
    assert len(cards(at)) == 2 and all("Directive × WOD" in h for h in cards(at))


def test_same_seed_same_variants_other_seed_other_variants(dissection):
    at = generate(choose(page(dissection), seed=7))
    first = [v.text for v in stored(at).variants]
    generate(at)
    assert [v.text for v in stored(at).variants] == first
    at.number_input(key="perturb.seed").set_value(8)
    generate(at)
    assert [v.text for v in stored(at).variants] != first


def test_a_changed_dissection_marks_the_variants_stale(dissection):
    at = generate(choose(page(dissection)))
    assert not any("Stale" in w.value for w in at.warning)
    edited = dissection.relabel(0, {Component.DIRECTIVE})  # a hand edit: same prompt, other labels
    at.session_state["pa.dissection"] = edited
    at.run()
    assert any("Stale" in w.value for w in at.warning)
    assert cards(at)  # still shown, marked
    # a new generation is fresh again
    at.checkbox(key=cell("Directive", "SCI")).check()
    generate(at)
    assert not any("Stale" in w.value for w in at.warning)
    assert stored(at).dissection_key == dissection_key(edited)


def test_a_script_in_the_prompt_is_shown_as_text():
    prompt = ("You are a <b>helpful</b> assistant.\nSummarise the text <script>alert(1)</script> in one sentence, "
              "then stop.")
    at = generate(choose(page(rules(prompt)), cells=[("Directive", "SCI"), ("Directive", "WOD")]))
    at.toggle(key="perturb.full").set_value(True).run()  # the whole prompt in each diff
    shown = cards(at)
    assert len(shown) == 4
    for h in shown:
        assert "<script" not in h.lower() and "<b>helpful" not in h
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in h or "&lt;script&gt;" in h and "&lt;/script&gt;" in h
        assert "&lt;b&gt;helpful&lt;/b&gt;" in h
    assert all("<script" not in h.value.lower() for h in at.html if "<style>" not in h.value)


def test_a_component_too_short_is_skipped_with_the_reason():
    prompt = "Translator. Translate the text below into French, keeping the tone."
    d = Dissection(prompt, (Sentence(0, 11, "Translator.", frozenset({Component.ROLE})),
                            Sentence(12, len(prompt), prompt[12:], frozenset({Component.DIRECTIVE}))))
    at = generate(choose(page(d), cells=[("Role", "WOD"), ("Role", "SCI"), ("Directive", "WOD")]))
    table = summary(at)
    assert table.loc[("Role", "WOD"), "Status"] == "skipped: too short"
    assert "too short to perturb with WOD" in table.loc[("Role", "WOD"), "Why"]
    assert table.loc[("Role", "WOD"), "Variants"] == 0
    assert table.loc[("Role", "SCI"), "Status"] == "made" and table.loc[("Directive", "WOD"), "Status"] == "made"
    assert stored(at).result.skipped[0][:2] == ("Role", "WOD")
    assert at.metric[3].value == "1"  # cells skipped


def test_absent_components_are_marked_and_cannot_be_picked():
    prompt = "Translator. Translate the text below into French, keeping the tone."
    at = page(rules(prompt))
    present = {c.value for c in rules(prompt).components()}
    absent = [c for c in ("Examples", "Output Formatting") if c not in present]
    assert absent
    for c in absent:
        assert at.checkbox(key=cell(c, "SCI")).disabled
    assert not at.checkbox(key=cell("CRT", "SCI")).disabled
    assert any("not present" in m.value for m in at.markdown)


def test_nothing_chosen_is_a_warning_not_an_error(dissection):
    at = generate(page(dissection))
    assert any("Nothing to generate" in w.value for w in at.warning)
    assert "pa.variants" not in at.session_state


def test_missing_wordnet_is_an_error_naming_the_fix_and_keeps_the_choices(dissection, monkeypatch):
    from promptanatomy_core.perturb import syr

    def missing():
        raise RuntimeError("WordNet data not found (looked for corpora/wordnet in: /nowhere). To fix: run "
                           "`python -m promptanatomy_core.resources`.")

    monkeypatch.setattr(syr, "_wordnet", missing)
    at = generate(choose(page(dissection), cells=[("Role", "SYR")]))
    assert any("WordNet data not found" in e.value and "promptanatomy_core.resources" in e.value for e in at.error)
    assert at.checkbox(key=cell("Role", "SYR")).value is True
    assert at.number_input(key="perturb.n").value == 2
    assert "pa.variants" not in at.session_state


def test_a_failing_paraphrase_model_is_a_warning_and_the_fallback_is_labelled(dissection, monkeypatch):
    from promptanatomy_core.models.base import BackendError
    from promptanatomy_core.perturb.ser import SentenceRewriting

    def broken(self):
        raise BackendError("the paraphrase model could not load: no such file")

    monkeypatch.setattr(SentenceRewriting, "get_backend", broken)
    at = choose(page(dissection), cells=[("Directive", "SER")], n=1)
    at.toggle(key="perturb.offline_ser").set_value(False)
    generate(at)
    assert any("offline WordNet rewrite instead of a model paraphrase" in w.value and "could not load" in w.value
               for w in at.warning), [w.value for w in at.warning]
    (v,) = stored(at).variants
    assert "offline WordNet rewrite (paraphrase model local failed" in v.note
    assert "could not load" in cards(at)[0]


def test_a_scoring_failure_keeps_the_variants_unscored(dissection, monkeypatch):
    from promptanatomy_core.scoring import PerplexityError

    class Broken:
        def score_variants(self, clean, texts, progress=None):
            raise PerplexityError("model folder /missing has no config.json")

    monkeypatch.setattr(engine, "get_scorer", lambda model=engine.PPL_MODEL: Broken())
    at = generate(choose(page(dissection), filter="top"))
    assert any("Perplexity could not be computed" in w.value and "config.json" in w.value for w in at.warning)
    assert len(stored(at).variants) == 8 and not stored(at).result.scored
    assert len(cards(at)) == 8


def test_choices_survive_a_visit_to_another_page(dissection):
    at = choose(page(dissection), cells=[("Role", "SCI")], n=3, seed=5)
    at.run()
    at.switch_page("app_pages/dissect.py").run()
    assert at.title[0].value == "Dissect a prompt"
    at.switch_page(PAGE).run()
    assert at.checkbox(key=cell("Role", "SCI")).value is True
    assert at.checkbox(key=cell("Role", "WOD")).value is False
    assert at.number_input(key="perturb.n").value == 3 and at.number_input(key="perturb.seed").value == 5
    assert at.radio(key="perturb.filter").value == "off"


def test_pages_of_variants(dissection):
    at = generate(choose(page(dissection), cells=[("Directive", "SCI"), ("Directive", "WOD")], n=12))
    assert len(stored(at).variants) == 24
    assert len(cards(at)) == 10
    at.number_input(key="perturb.page").set_value(3).run()
    assert len(cards(at)) == 4


def test_engine_rejects_bad_settings_before_any_work(dissection):
    with pytest.raises(PerturbError, match=r"ratio must be a number in \(0, 1\]"):
        engine.generate_variants(dissection, engine.PerturbSettings(cells=(("Role", "SCI"),), ratio=1.5, score=False))
    with pytest.raises(PerturbError, match="unknown component"):
        engine.generate_variants(dissection, engine.PerturbSettings(cells=(("Rol", "SCI"),), score=False))
    with pytest.raises(PerturbError, match="unknown strategy"):
        engine.generate_variants(dissection, engine.PerturbSettings(cells=(("Role", "XYZ"),), score=False))


def test_engine_whole_prompt_baselines_and_control(dissection):
    steps = []
    result = engine.generate_variants(dissection, engine.PerturbSettings(
        cells=(("whole prompt", "MTTM-Char"), ("CRT", "WOD")), n=2, score=False),
        progress=lambda text, fraction: steps.append((text, fraction)))
    assert [(v.component, v.strategy) for v in result.variants] == [("whole prompt", "MTTM-Char")] * 2 + [
        ("CRT", "WOD")] * 2
    assert result.prompt == dissection.prompt and not result.skipped
    assert steps[0][1] == 0 and steps[-1][1] == 1.0


# ----------------------------------------------------------------------------------------------------------- slow

@pytest.mark.slow
@pytest.mark.timeout(600)
def test_generate_and_filter_with_the_embedded_model(dissection):
    at = choose(page(dissection), n=2, filter="top")
    assert at.slider(key="perturb.share").value == 20
    generate(at, timeout=400)
    assert not at.error and not at.warning, [w.value for w in at.warning]
    result = stored(at).result
    assert result.scored and result.clean_ppl > 1
    table = summary(at)
    assert (table["Kept"] == 1).all()  # ceil(20% of 2) = 1 per cell
    assert (table["Mean PPL ratio"] > 0).all()
    for c, s in SMALL_GRID:
        vs = [v for v in result.variants if (v.component, v.strategy) == (c, s)]
        best = max(vs, key=lambda v: v.ppl_ratio)
        assert best.kept and sum(v.kept for v in vs) == 1
    shown = cards(at)
    assert sum("✓ kept" in h for h in shown) == 4 and sum("✗ dropped" in h for h in shown) == 4
    assert all("PPL ratio" in h for h in shown)
    at.radio(key="perturb.show").set_value("Kept").run()
    assert len(cards(at)) == 4 and all("✓ kept" in h for h in cards(at))
    at.radio(key="perturb.show").set_value("All")
    at.toggle(key="perturb.sort").set_value(True).run()
    top = max(result.variants, key=lambda v: v.ppl_ratio)
    assert f"PPL ratio <b>{top.ppl_ratio:.3f}</b>" in cards(at)[0]
    # the same seed again gives the same variants, scores and flags
    generate(at, timeout=400)
    again = stored(at).result
    assert [(v.text, v.ppl_ratio, v.kept) for v in again.variants] == [
        (v.text, v.ppl_ratio, v.kept) for v in result.variants]
