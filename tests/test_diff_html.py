"""The inline diff builder behind the Perturb page (ui/diff.py): pure functions, no Streamlit."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from promptanatomy_core.perturb import perturb
from promptanatomy_core.perturb.base import apply_edits
from promptanatomy_core.types import Component, Dissection, Edit, Sentence, Variant
from ui.diff import (DELETE, INSERT, SAME, diff_html, legend_html, rebuild, segments_from_edits,
                     segments_from_texts, variant_card_html, variant_diff_html, variant_segments)

CLEAN = "You are a careful translator. Translate the text into French."


class _Diff(HTMLParser):
    """Reads a diff back: the clean text (all but <ins>), the variant's text (all but <del>), the tags and the
    elision markers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.old: list[str] = []
        self.new: list[str] = []
        self.tags: list[str] = []
        self.kinds: list[tuple[str, str]] = []
        self.skips: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        cls = dict(attrs).get("class") or ""
        self._stack.append("skip" if "pa-skip" in cls else tag)

    def handle_endtag(self, tag):
        self._stack.pop()

    def handle_data(self, data):
        if "skip" in self._stack:
            self.skips.append(data)
            return
        kind = "ins" if "ins" in self._stack else "del" if "del" in self._stack else "same"
        self.kinds.append((kind, data))
        if kind != "ins":
            self.old.append(data)
        if kind != "del":
            self.new.append(data)


def read(html: str) -> _Diff:
    p = _Diff()
    p.feed(html)
    p.close()
    return p


def variant(clean: str, edits: list[Edit], **kw) -> Variant:
    return Variant("SCI", "Role", 0, apply_edits(clean, sorted(edits, key=lambda e: e.start)), tuple(edits), **kw)


def test_insert_delete_replace_render_as_ins_del():
    i = CLEAN.index("careful")
    segs = segments_from_edits(CLEAN, [Edit(i + 3, i + 3, "#")])
    assert segs == [(SAME, CLEAN[:i + 3]), (INSERT, "#"), (SAME, CLEAN[i + 3:])]
    html = diff_html(segs)
    assert '<ins class="pa-ins" title="inserted">#</ins>' in html and "<del" not in html

    segs = segments_from_edits(CLEAN, [Edit(i, i + len("careful "), "")])
    assert (DELETE, "careful ") in segs and all(k != INSERT for k, _ in segs)
    assert '<del class="pa-del" title="deleted">careful </del>' in diff_html(segs)

    j = CLEAN.index("French")
    segs = segments_from_edits(CLEAN, [Edit(j, j + 6, "Spanish")])
    assert segs[1:3] == [(DELETE, "French"), (INSERT, "Spanish")]  # the deletion first, then the insertion
    html = diff_html(segs)
    assert html.index("<del") < html.index("<ins")
    d = read(html)
    assert "".join(d.old) == CLEAN and "".join(d.new) == CLEAN.replace("French", "Spanish")


def test_multiple_edits_in_any_order_and_at_the_edges():
    edits = [Edit(len(CLEAN), len(CLEAN), " Now!"), Edit(0, 3, "Thou"), Edit(8, 8, "@"), Edit(9, 10, "")]
    v = variant(CLEAN, edits)
    segs, exact = variant_segments(CLEAN, v)
    assert exact
    assert segs[0] == (DELETE, "You") and segs[1] == (INSERT, "Thou")
    assert segs[-1] == (INSERT, " Now!")
    assert rebuild(segs) == (CLEAN, v.text)
    d = read(variant_diff_html(CLEAN, v))
    assert "".join(d.old) == CLEAN and "".join(d.new) == v.text
    assert [k for k, _ in d.kinds].count("ins") == 3 and [k for k, _ in d.kinds].count("del") == 2


def test_whole_prompt_deleted_and_empty_edits_list():
    v = variant(CLEAN, [Edit(0, len(CLEAN), "")])
    assert v.text == ""
    segs, exact = variant_segments(CLEAN, v)
    assert exact and segs == [(DELETE, CLEAN)]
    # a no-op edit is unchanged text
    assert segments_from_edits(CLEAN, [Edit(0, 3, "You")]) == [(SAME, CLEAN)]
    assert segments_from_edits(CLEAN, []) == [(SAME, CLEAN)]
    assert "<ins" not in diff_html([(SAME, CLEAN)]) and "<del" not in diff_html([(SAME, CLEAN)])


def test_everything_is_escaped():
    clean = 'Say <b>hi</b> & "bye". <script>alert(1)</script> done.'
    i = clean.index("<script>")
    edits = [Edit(i, i, "<img src=x onerror=alert(2)>"), Edit(clean.index("&"), clean.index("&") + 1, "</div>")]
    v = variant(clean, edits, note="<i>note</i> & more")
    html = variant_card_html(clean, v)
    assert "<script" not in html.lower() and "<img" not in html and "<b>hi" not in html and "<i>note" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html and "&lt;i&gt;note&lt;/i&gt; &amp; more" in html
    d = read(variant_diff_html(clean, v))
    assert "".join(d.old) == clean and "".join(d.new) == v.text
    assert set(read(html).tags) <= {"div", "span", "b", "ins", "del"}
    # the fallback escapes too
    assert "&lt;script&gt;" in diff_html(segments_from_texts(clean, "<script>x</script>"))


def test_word_diff_fallback_when_edits_are_missing_or_wrong():
    text = CLEAN.replace("careful", "very careful").replace("French", "German")
    v = Variant("SER", "Directive", 0, text)  # no edits (e.g. a variant read from JSON without them)
    segs, exact = variant_segments(CLEAN, v)
    assert not exact
    assert rebuild(segs) == (CLEAN, text)
    assert (DELETE, "French") in segs and (INSERT, "German") in segs and (INSERT, " very") in segs
    # edits that do not rebuild the text, or overlap, or leave the prompt: the word diff stands in
    wrong = Variant("SCI", "Role", 0, text, (Edit(0, 3, "Thou"),))
    assert variant_segments(CLEAN, wrong) == (segs, False)
    with pytest.raises(ValueError, match="overlap"):
        segments_from_edits(CLEAN, [Edit(0, 5, ""), Edit(3, 6, "")])
    with pytest.raises(ValueError, match="outside"):
        segments_from_edits(CLEAN, [Edit(0, len(CLEAN) + 1, "")])
    assert variant_segments(CLEAN, Variant("SCI", "Role", 0, CLEAN, (Edit(0, 99, ""),)))[1] is False
    assert "(word diff)" in variant_card_html(CLEAN, v)


def test_context_folds_long_unchanged_text_at_word_boundaries():
    clean = " ".join(f"word{i}" for i in range(400))
    i = clean.index("word200")
    v = variant(clean, [Edit(i, i, "#")])
    full = read(variant_diff_html(clean, v))
    assert not full.skips and "".join(full.old) == clean
    short = read(variant_diff_html(clean, v, context=50))
    assert len(short.skips) == 2 and all("unchanged characters" in s for s in short.skips)
    shown = "".join(t for _, t in short.kinds)
    assert "#" in shown and len(shown) < 150
    # the cuts fall on spaces: every shown piece of unchanged text is made of whole words
    same = [t for k, t in short.kinds if k == "same"]
    assert same[0].startswith(" ") and same[-1].endswith(" ")
    assert clean[i - 60:i].split()[-1] in same[0] and clean[i:i + 60].split()[0] in same[-1]
    # the folded counts add up to the clean prompt's length
    counts = [int(s.split()[1].replace(",", "")) for s in short.skips]
    assert sum(counts) + sum(len(t) for k, t in short.kinds if k != "ins") == len(clean)
    # a short prompt is never folded; nor is one without changes
    assert not read(variant_diff_html(CLEAN, variant(CLEAN, [Edit(0, 0, "!")]), context=50)).skips
    assert not read(diff_html([(SAME, clean)], context=10)).skips


def test_card_header_flags_and_facts():
    base = variant(CLEAN, [Edit(3, 3, "%")])
    kept = variant_card_html(CLEAN, Variant(**{**base.__dict__, "ppl": 30.5, "ppl_ratio": 1.234, "kept": True}))
    assert "✓ kept" in kept and "PPL ratio <b>1.234</b>" in kept and "PPL 30.50" in kept and "pa-is-kept" in kept
    dropped = variant_card_html(CLEAN, Variant(**{**base.__dict__, "ppl": 20.0, "ppl_ratio": 0.9, "kept": False}))
    assert "✗ dropped" in dropped and "pa-is-dropped" in dropped
    unscored = variant_card_html(CLEAN, base)
    assert "not scored" in unscored and "PPL ratio" not in unscored
    assert "Role × SCI" in unscored and "seed 0" in unscored and "1 change<" in unscored
    assert "pa-dark" in variant_card_html(CLEAN, base, dark=True) and "pa-dark" not in unscored
    assert "deleted" in legend_html() and "inserted" in legend_html()


@pytest.mark.parametrize("strategy", ["SCI", "SYR", "WOD", "SER", "COD"])
def test_real_variants_diff_exactly(strategy):
    prompt = ("You are a careful medical translator. Translate the leaflet below into Spanish, keeping every "
              "dose exact.\nReply with the translation only.")
    cut1, cut2 = prompt.index(" Translate"), prompt.index("\nReply")
    d = Dissection(prompt, (Sentence(0, cut1, prompt[:cut1], frozenset({Component.ROLE})),
                            Sentence(cut1 + 1, cut2, prompt[cut1 + 1:cut2], frozenset({Component.DIRECTIVE})),
                            Sentence(cut2 + 1, len(prompt), prompt[cut2 + 1:],
                                     frozenset({Component.OUTPUT_FORMATTING}))))
    params = {"offline": True} if strategy == "SER" else {}
    for v in perturb(d, strategy, "Directive", ratio=0.2, seed=3, n=3, **params):
        segs, exact = variant_segments(prompt, v)
        assert exact and rebuild(segs) == (prompt, v.text)
        r = read(variant_diff_html(prompt, v))
        assert "".join(r.old) == prompt and "".join(r.new) == v.text
