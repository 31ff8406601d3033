"""ComPerturb strategies: each strategy's contract, the control group, the registry, errors, seeds and the grid."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptanatomy_core.perturb import (BASELINES, COMPERTURB, DEFAULT_RATIO, REFERENCE_RATIO, ComponentNotPresent,
                                        GridResult, NothingToPerturb, PerturbError, apply_edits,
                                        available_strategies, get_strategy, perturb, perturb_grid)
from promptanatomy_core.perturb.base import tidy_edits
from promptanatomy_core.perturb.control import component_budgets
from promptanatomy_core.perturb.sci import SPECIAL_CHARACTERS
from promptanatomy_core.perturb.syr import ed_form, guess_pos, ing_form, match_case, plural, synonyms
from promptanatomy_core.perturb.words import STOP_WORDS, protected_spans, words
from promptanatomy_core.tagged import parse_tagged
from promptanatomy_core.types import CONTROL, WHOLE_PROMPT, Component, Edit

TAGGED = (
    "<Role>You are a senior sentiment classification agent working for a large online bookshop.</Role>\n"
    "<Directive>Read the customer review below and decide whether the reviewer liked the book. "
    "Review: {input}</Directive>\n"
    "<Additional Information>Reviews often mention the delivery, the price and the printing quality; "
    "only the opinion about the book itself counts. See https://example.com/guide.html for details.</Additional "
    "Information>\n"
    "<Output Formatting>Answer with exactly one word, `positive` or `negative`, in lower case.</Output Formatting>"
)
D = parse_tagged(TAGGED)
ROLE, DIRECTIVE, INFO, FORMAT = (Component.ROLE, Component.DIRECTIVE, Component.ADDITIONAL_INFORMATION,
                                 Component.OUTPUT_FORMATTING)
OFFLINE = {"offline": True}


def params(name: str) -> dict:
    return OFFLINE if name == "SER" else {}


def outside(d, comp, text):
    """The variant's text with the target spans cut out, compared as the pieces between them."""
    spans = d.spans(comp)
    cuts = [0] + [x for s in spans for x in s] + [len(d.prompt)]
    pieces = [d.prompt[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)]
    pattern = "(.*?)".join(re.escape(p) for p in pieces)
    return re.fullmatch(pattern, text, re.S) is not None


# ------------------------------------------------------------------------------------------------- registry, errors

def test_registry_lists_comperturb_first_then_baselines():
    names = available_strategies()
    assert names[:5] == ["SCI", "SYR", "WOD", "SER", "COD"] == list(COMPERTURB)
    assert set(BASELINES) == {"PromptRobust-DeepWordBug", "PromptRobust-TextBugger", "PromptRobust-TextFooler",
                              "MTTM-Char", "MTTM-Word", "MTTM-Sentence"}
    assert get_strategy("sci").name == "SCI"  # case-insensitive
    assert (DEFAULT_RATIO, REFERENCE_RATIO) == (0.1, 0.2)


def test_unknown_strategy_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown strategy 'XYZ'; choose one of: SCI, SYR, WOD, SER, COD"):
        perturb(D, "XYZ", ROLE)
    with pytest.raises(ValueError, match="control group, not a strategy"):
        get_strategy("CRT")


@pytest.mark.parametrize("ratio", [0, -0.1, 1.01, 2, float("nan"), "0.1", True])
def test_ratio_outside_0_1_is_rejected(ratio):
    with pytest.raises(ValueError, match=r"ratio must be a number in \(0, 1\]"):
        perturb(D, "SCI", ROLE, ratio=ratio)


def test_ratio_one_and_reference_ratio_work():
    assert perturb(D, "WOD", DIRECTIVE, ratio=1.0)[0].text
    assert len(perturb(D, "SCI", DIRECTIVE, ratio=0.2)[0].edits) > len(perturb(D, "SCI", DIRECTIVE, ratio=0.1)[0].edits)


def test_bad_parameters_name_the_problem():
    with pytest.raises(ValueError, match="takes no parameter 'colour'"):
        perturb(D, "SCI", ROLE, colour="red")
    with pytest.raises(ValueError, match="unknown component 'Persona'"):
        perturb(D, "SCI", "Persona")
    with pytest.raises(ValueError, match="n .* must be an integer"):
        perturb(D, "SCI", ROLE, n=0)
    with pytest.raises(ValueError, match="needs a component"):
        perturb(D, "SCI")


def test_component_not_present_is_a_dedicated_value_error():
    with pytest.raises(ComponentNotPresent) as info:
        perturb(D, "SCI", Component.EXAMPLES)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "'Examples' is not present" in message and "Role, Directive" in message


def test_component_too_short():
    d = parse_tagged("<Role>Expert.</Role>\n<Directive>Summarise the text below in two sentences.</Directive>")
    with pytest.raises(NothingToPerturb, match="too short to perturb with WOD.*at least two words"):
        perturb(d, "WOD", ROLE)
    with pytest.raises(NothingToPerturb, match="too short to perturb with SER"):
        perturb(d, "SER", ROLE, offline=True)
    assert perturb(d, "SCI", ROLE)[0].text.count("Expert") == 0  # one word still takes a character


def test_missing_wordnet_names_the_fix(monkeypatch):
    import promptanatomy_core.resources as resources
    from promptanatomy_core.perturb import syr

    monkeypatch.setattr(syr, "_WN", None)
    monkeypatch.setattr(resources, "find_wordnet", lambda: None)
    with pytest.raises(RuntimeError, match="WordNet data not found.*python -m promptanatomy_core.resources"):
        perturb(D, "SYR", ROLE)


# --------------------------------------------------------------------------------------------------------- strategies

def test_sci_inserts_special_characters_inside_words():
    d = parse_tagged("<Role>You are a sentiment classification agent.</Role>")
    v = perturb(d, "SCI", ROLE, ratio=0.5, seed=3)[0]
    assert len(v.edits) == 3  # round(0.5 × 6 words)
    for e in v.edits:
        assert e.start == e.end and e.replacement in SPECIAL_CHARACTERS
        assert d.prompt[e.start - 1].isalpha() and d.prompt[e.start].isalpha()  # inside a word, never at its edge
    assert re.sub(r"[#$%&@!]", "", v.text) == d.prompt


def test_sci_spreads_edits_evenly():
    d = parse_tagged("<Directive>" + " ".join(["alpha", "beta", "gamma", "delta"] * 25) + ".</Directive>")
    for seed in range(5):
        v = perturb(d, "SCI", DIRECTIVE, ratio=0.1, seed=seed)[0]
        positions = [e.start for e in v.edits]
        assert len(positions) == 10
        strata = [p * 10 // len(d.prompt) for p in positions]  # one edit in each tenth of the text
        assert max(strata) - min(strata) >= 8 and len(set(strata)) >= 8


def test_wod_deletes_at_least_one_never_all():
    d = parse_tagged("<Role>Senior reviewer.</Role>\n<Directive>Summarise this.</Directive>")
    for seed in range(20):
        v = perturb(d, "WOD", ROLE, ratio=1.0, seed=seed)[0]
        kept = [w.text for w in words(v.text) if w.start < v.text.index("\n")]
        assert len(kept) == 1  # 2 words, ratio 1 → one deleted, never both
        v = perturb(d, "WOD", ROLE, ratio=0.01, seed=seed)[0]
        assert len(v.edits) == 1
    assert "  " not in perturb(D, "WOD", DIRECTIVE, ratio=0.3)[0].text  # no doubled spaces left


def test_wod_removes_one_neighbouring_space():
    d = parse_tagged("<Directive>Translate the text, please.</Directive>")
    texts = {perturb(d, "WOD", DIRECTIVE, ratio=0.2, seed=s)[0].text for s in range(30)}
    assert texts == {"the text, please.", "Translate text, please.", "Translate the, please.", "Translate the text,."}


def test_syr_replaces_content_words_with_synonyms():
    for seed in range(10):
        v = perturb(D, "SYR", DIRECTIVE, ratio=0.3, seed=seed)[0]
        assert v.edits
        for e in v.edits:
            old = D.prompt[e.start:e.end]
            assert old.lower() not in STOP_WORDS
            assert e.replacement.lower() != old.lower()  # never the same word
            assert e.replacement[:1].isupper() == old[:1].isupper()  # capitalisation kept
            assert re.fullmatch(r"[A-Za-z]+", e.replacement)  # punctuation stays outside the word


def test_syr_part_of_speech_and_inflection():
    assert guess_pos("answers", prev="the") == ("n", "answer")
    assert guess_pos("answer", prev="to")[0] == "v"
    assert guess_pos("quickly")[0] == "r"
    assert guess_pos("classify") == ("v", "classify")
    assert plural("query") == "queries" and plural("box") == "boxes" and plural("answer") == "answers"
    assert ing_form("make") == "making" and ing_form("stop") == "stopping" and ing_form("tie") == "tying"
    assert ed_form("classify") == "classified" and ed_form("use") == "used" and ed_form("stop") == "stopped"
    assert match_case("API", "key") == "KEY" and match_case("Translate", "render") == "Render"
    questions = synonyms("questions", "the")
    assert questions and all(q.endswith("s") for q in questions) and "questions" not in questions
    translated = synonyms("translated", "")
    assert translated and all(t.endswith("ed") for t in translated)
    assert synonyms("Translate", "", True) and all(t[0].isupper() for t in synonyms("Translate", "", True))
    assert synonyms("Python", "a") == ()  # a name inside a sentence is left alone
    assert synonyms("the") == () and synonyms("ran") == ()  # stop word; irregular inflection


def test_cod_removes_the_component_spans_only():
    v = perturb(D, "COD", INFO)[0]
    info_text = D.prompt[slice(*D.spans(INFO)[0])]
    assert info_text not in v.text
    assert v.text == D.prompt.replace(info_text, "")
    assert len(v.edits) == 1


def test_ser_offline_rewrites_one_sentence_and_says_so():
    v = perturb(D, "SER", INFO, seed=2, offline=True)[0]
    assert "offline WordNet rewrite" in v.note
    assert v.edits and v.text != D.prompt
    sentences = [s for s in D.sentences if Component.ADDITIONAL_INFORMATION in s.labels]
    touched = {i for i, s in enumerate(sentences) for e in v.edits if s.start <= e.start and e.end <= s.end}
    assert len(touched) == 1
    assert "https://example.com/guide.html" in v.text


@pytest.mark.parametrize("name", COMPERTURB)
@pytest.mark.parametrize("comp", [ROLE, DIRECTIVE, INFO, FORMAT])
def test_only_the_component_changes_and_protected_text_stays(name, comp):
    for seed in range(5):
        v = perturb(D, name, comp, seed=seed, ratio=0.5, **params(name))[0]
        assert v.text != D.prompt
        assert outside(D, comp, v.text)
        assert v.text == apply_edits(D.prompt, v.edits)
        if name != "COD":
            for token in ("{input}", "https://example.com/guide.html", "`positive`", "`negative`"):
                assert token in v.text


def test_placeholders_code_urls_and_code_like_tokens_are_protected():
    prompt = ("Use {input} and {{ name }} with ${x}; run `pip install x` or ```python\nprint(1)\n``` "
              "see http://a.example/b?c=d, np.array(x) and aA1 here")
    protected = [prompt[a:b] for a, b in protected_spans(prompt)]
    for piece in ("{input}", "{{ name }}", "${x}", "`pip install x`", "http://a.example/b?c=d", "np.array(x)",
                  "aA1"):
        assert any(piece in p for p in protected), piece
    assert "print" not in {w.text for w in words(prompt)} and "Use" in {w.text for w in words(prompt)}
    assert "(in" not in protected and "mice.Output:" not in protected_spans("of (in this) mice.Output: yes")


def test_tidy_edits_rejects_edits_outside_the_target_or_inside_protected_text():
    prompt = "Keep {input} here. Edit this."
    with pytest.raises(AssertionError, match="outside the target"):
        tidy_edits(prompt, [Edit(0, 4, "")], [(19, 29)])
    with pytest.raises(AssertionError, match="protected"):
        tidy_edits(prompt, [Edit(6, 6, "#")], [(0, 29)], protected_spans(prompt))


# ------------------------------------------------------------------------------------------------------- the control

def test_control_uses_the_mean_component_budget_anywhere():
    budgets = component_budgets(get_strategy("SCI", ratio=0.2), D)
    expected = max(1, int(sum(budgets.values()) / len(budgets) + 0.5))
    v = perturb(D, "SCI", CONTROL, ratio=0.2, seed=1)[0]
    assert v.component == CONTROL and len(v.edits) == expected
    assert "control:" in v.note and "mean component budget" in v.note
    # over many seeds the positions cover more than one component
    touched = set()
    for seed in range(30):
        for e in perturb(D, "SCI", CONTROL, ratio=0.2, seed=seed)[0].edits:
            touched |= {c for s in D.sentences if s.start <= e.start <= s.end for c in s.labels}
    assert len(touched) >= 3


def test_control_cod_deletes_a_contiguous_run_of_mean_component_length():
    def sentences(letters):
        return " ".join(f"Say {c}{c}." for c in letters)

    d = parse_tagged(f"<Role>{sentences('abcd')}</Role>\n<Directive>{sentences('ef')}</Directive>\n"
                     f"<Examples>{sentences('ghijkl')}</Examples>")
    # components have 4, 2 and 6 sentences: mean 4
    starts = set()
    for seed in range(10):
        v = perturb(d, "COD", CONTROL, seed=seed)[0]
        assert len(v.edits) == 1  # one contiguous run
        removed = d.prompt[v.edits[0].start:v.edits[0].end]
        assert len(re.findall(r"Say ([a-l])\1\.", removed)) == 4
        starts.add(removed[:7])
    assert len(starts) > 2


def test_control_wod_and_ser_keep_the_strategy():
    v = perturb(D, "WOD", CONTROL, seed=0)[0]
    assert all(e.replacement == "" for e in v.edits)
    v = perturb(D, "SER", CONTROL, seed=0, offline=True)[0]
    assert "offline WordNet rewrite" in v.note and "control:" in v.note


# --------------------------------------------------------------------------------------------------------- baselines

@pytest.mark.parametrize("name", BASELINES)
def test_baselines_perturb_the_whole_prompt_by_default(name):
    v = perturb(D, name, seed=4, ratio=0.3)[0]
    assert v.component == WHOLE_PROMPT and v.strategy == name and v.text != D.prompt
    for token in ("{input}", "https://example.com/guide.html", "`positive`"):
        assert token in v.text
    w = perturb(D, name, ROLE, seed=4)[0]  # or any component
    assert outside(D, ROLE, w.text)


def test_baseline_edits_look_like_their_source():
    d = parse_tagged("<Directive>Please classify every sentence of the following paragraph carefully.</Directive>")
    for seed in range(10):
        v = perturb(d, "PromptRobust-DeepWordBug", seed=seed, ratio=0.5)[0]
        for e in v.edits:
            old, new = d.prompt[e.start:e.end], e.replacement
            assert new != old and abs(len(new) - len(old)) <= 1
        v = perturb(d, "MTTM-Sentence", seed=seed)[0]
        assert len(v.edits) == 1 and v.edits[0].start == v.edits[0].end and v.text.startswith(d.prompt)


# ---------------------------------------------------------------------------------------------------------- seeding

@pytest.mark.parametrize("name", available_strategies())
def test_same_seed_same_variants(name):
    a = perturb(D, name, DIRECTIVE if name in COMPERTURB else None, seed=11, n=3, **params(name))
    b = perturb(D, name, DIRECTIVE if name in COMPERTURB else None, seed=11, n=3, **params(name))
    assert a == b
    assert [v.seed for v in a] == [11, 12, 13]
    assert perturb(D, name, DIRECTIVE if name in COMPERTURB else None, seed=12, **params(name))[0] == a[1]


@pytest.mark.parametrize("name", [n for n in available_strategies() if n != "COD"])
def test_different_seeds_give_different_variants(name):
    comp = INFO if name in COMPERTURB else None
    texts = {v.text for v in perturb(D, name, comp, seed=0, n=8, ratio=0.2, **params(name))}
    assert len(texts) >= 4


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2 ** 40), name=st.sampled_from(["SCI", "SYR", "WOD"]),
       comp=st.sampled_from([ROLE, DIRECTIVE, INFO, FORMAT, CONTROL]))
def test_seed_reproduces_and_module_random_is_untouched(seed, name, comp):
    state = random.getstate()
    a = perturb(D, name, comp, seed=seed)[0]
    assert random.getstate() == state  # strategies never draw from the module-global generator
    assert perturb(D, name, comp, seed=seed)[0] == a
    assert a.text == apply_edits(D.prompt, a.edits)


# -------------------------------------------------------------------------------------------------------------- grid

def test_grid_reports_absent_and_short_cells():
    d = parse_tagged("<Role>Expert.</Role>\n<Directive>Summarise the text below in two short sentences.</Directive>")
    result = perturb_grid(d, [ROLE, DIRECTIVE, Component.EXAMPLES, CONTROL], ["SCI", "WOD", "COD"], n=2, seed=5)
    assert isinstance(result, GridResult)
    assert result.skipped[("Examples", "SCI")].startswith("not present")
    assert result.skipped[("Role", "WOD")].startswith("too short")
    assert len(result.variants[("Directive", "SCI")]) == 2
    assert len(result.variants[("CRT", "COD")]) == 2
    assert len(result.all()) == 2 * len(result.variants)
    assert set(result.variants) | set(result.skipped) == {(c, s) for c in ("Role", "Directive", "Examples", "CRT")
                                                         for s in ("SCI", "WOD", "COD")}
    with pytest.raises(PerturbError, match="unknown strategy"):
        perturb_grid(d, [ROLE], ["SCI", "nope"])


def test_wordnet_lookups_are_safe_from_several_threads():
    """Streamlit runs sessions in threads of one process; NLTK's WordNet reader shares one file handle for its lemma
    counts, so unguarded lookups from two threads fail (AssertionError or TypeError inside nltk). Fresh lookups of
    the same words from four threads give what one thread gives."""
    import threading

    from promptanatomy_core.perturb import syr

    words = ("answer question explain describe summary patient doctor result method study effect report "
             "analysis review support customer order shipping return refund product quality service message "
             "reply letter request problem solution example format output input detail list table figure "
             "number value measure increase decrease improve reduce change keep follow write read speak").split()

    def fresh() -> dict[str, tuple[str, ...]]:
        return {w: synonyms(w) for w in words}

    for f in (syr._count, syr._bases, syr._lemmas, synonyms):
        f.cache_clear()
    expected = fresh()
    results, errors = [], []

    def worker() -> None:
        try:
            results.append(fresh())
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    for _ in range(3):
        for f in (syr._count, syr._bases, syr._lemmas, synonyms):
            f.cache_clear()
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == [] and len(results) == 12 and all(r == expected for r in results)
