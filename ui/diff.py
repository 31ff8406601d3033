"""HTML for a perturbed prompt as an inline diff against the clean one. Pure functions, no Streamlit.

A variant's :attr:`~promptanatomy_core.types.Variant.edits` are exact (offsets into the clean prompt and the text put
there), so the diff is built from them, not guessed: deleted text is struck through (``<del class="pa-del">``),
inserted text highlighted (``<ins class="pa-ins">``), a replacement shows both, the deletion first. Only when a
variant carries no edits, or its edits do not rebuild its text, does a word-level :mod:`difflib` diff stand in.

Deletion and insertion differ by more than colour (colour-blind safety): a deletion is struck through and a dashed box
outlines it; an insertion is underlined and bold. Long unchanged stretches can be shortened to their ends around the
edits (``context``), with a marker saying how many characters were left out.

Everything taken from the prompt, the variant or its note is escaped with :func:`html.escape`.
"""
from __future__ import annotations

import difflib
import re
from html import escape
from typing import Iterable, Sequence

from promptanatomy_core.types import Edit, Variant

SAME, DELETE, INSERT = "same", "del", "ins"
#: One segment of a diff: (SAME | DELETE | INSERT, text).
Segment = tuple[str, str]

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)

#: The diff's styles: translucent tints (text keeps the theme's colour) and a non-colour cue for each kind.
CSS = """
.pa-diff { white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.7; font-size: 0.95rem;
  padding: 0.5rem 0.8rem; border: 1px solid rgba(128,128,128,0.35); border-radius: 0.5rem;
  max-height: 24rem; overflow-y: auto; }
.pa-diff del.pa-del { text-decoration: line-through; text-decoration-thickness: 2px;
  text-decoration-color: #D55E00; background: rgba(213,94,0,0.16); outline: 1px dashed rgba(213,94,0,0.7);
  outline-offset: -1px; border-radius: 0.15rem; color: inherit; }
.pa-diff ins.pa-ins { text-decoration: underline; text-decoration-thickness: 2px; text-decoration-color: #007A5A;
  text-underline-offset: 3px; background: rgba(0,158,115,0.22); font-weight: 650; border-radius: 0.15rem;
  color: inherit; }
.pa-diff.pa-dark del.pa-del { text-decoration-color: #F07F3C; background: rgba(213,94,0,0.30);
  outline-color: rgba(240,127,60,0.8); }
.pa-diff.pa-dark ins.pa-ins { text-decoration-color: #2BC79B; background: rgba(0,158,115,0.34); }
.pa-diff .pa-skip { color: rgba(128,128,128,0.95); font-style: italic; font-size: 0.85em; }
.pa-variant { margin: 0 0 0.2rem 0; }
.pa-variant .pa-diff { border: none; background: rgba(128,128,128,0.07); }
.pa-vhead { display: flex; flex-wrap: wrap; gap: 0.35rem 0.9rem; align-items: baseline; margin-bottom: 0.3rem;
  font-size: 0.9rem; }
.pa-flag { font-weight: 700; padding: 0.05rem 0.45rem; border-radius: 0.6rem; font-size: 0.8rem;
  border: 1px solid currentColor; }
.pa-flag.pa-kept { color: #007A5A; background: rgba(0,158,115,0.12); }
.pa-flag.pa-dropped { color: rgba(128,128,128,1); }
.pa-flag.pa-unscored { color: rgba(128,128,128,1); border-style: dashed; }
.pa-dark .pa-flag.pa-kept { color: #2BC79B; }
.pa-variant.pa-is-dropped .pa-diff { opacity: 0.72; }
.pa-vnote { font-size: 0.85rem; color: rgba(128,128,128,1); margin-bottom: 0.3rem; }
.pa-legend-diff { font-size: 0.9rem; }
"""


def _check(clean: str, edits: Sequence[Edit]) -> list[Edit]:
    """``edits`` sorted; ValueError when one lies outside ``clean`` or two overlap."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    pos = 0
    for e in ordered:
        if not 0 <= e.start <= e.end <= len(clean):
            raise ValueError(f"edit {e.start}:{e.end} lies outside the prompt (length {len(clean)})")
        if e.start < pos:
            raise ValueError(f"edits overlap at {e.start}")
        pos = e.end
    return ordered


def segments_from_edits(clean: str, edits: Iterable[Edit]) -> list[Segment]:
    """The diff of ``clean`` with ``edits`` applied: unchanged, deleted and inserted runs in text order.

    A replacement gives its deletion, then its insertion; an edit that puts back the same text is unchanged text.
    ValueError for edits outside ``clean`` or overlapping."""
    out: list[Segment] = []
    pos = 0
    for e in _check(clean, list(edits)):
        out.append((SAME, clean[pos:e.start]))
        old = clean[e.start:e.end]
        if old == e.replacement:
            out.append((SAME, old))
        else:
            out.append((DELETE, old))
            out.append((INSERT, e.replacement))
        pos = e.end
    out.append((SAME, clean[pos:]))
    return _merge(out)


def segments_from_texts(clean: str, text: str) -> list[Segment]:
    """A word-level diff of ``clean`` and ``text`` (difflib over words, spaces and punctuation marks)."""
    a, b = _TOKEN.findall(clean), _TOKEN.findall(text)
    out: list[Segment] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append((SAME, "".join(a[i1:i2])))
        else:
            out.append((DELETE, "".join(a[i1:i2])))
            out.append((INSERT, "".join(b[j1:j2])))
    return _merge(out)


def _merge(parts: Iterable[Segment]) -> list[Segment]:
    """Drop empty runs and join neighbours of the same kind."""
    out: list[Segment] = []
    for kind, text in parts:
        if not text:
            continue
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + text)
        else:
            out.append((kind, text))
    return out


def rebuild(segments: Iterable[Segment]) -> tuple[str, str]:
    """``(clean, variant)`` text read back from ``segments``."""
    old, new = [], []
    for kind, text in segments:
        if kind != INSERT:
            old.append(text)
        if kind != DELETE:
            new.append(text)
    return "".join(old), "".join(new)


def variant_segments(clean: str, variant: Variant) -> tuple[list[Segment], bool]:
    """The diff of ``variant`` against ``clean`` and whether it is exact (built from the variant's edits) rather than
    the word-level fallback (no edits, or edits that do not rebuild ``variant.text`` from ``clean``)."""
    if variant.edits:
        try:
            segs = segments_from_edits(clean, variant.edits)
        except ValueError:
            pass
        else:
            if rebuild(segs) == (clean, variant.text):
                return segs, True
    return segments_from_texts(clean, variant.text), False


def _elide(text: str, context: int, head: bool, tail: bool) -> str:
    """Escaped ``text`` with its middle (or its start when ``head`` is False, its end when ``tail`` is False)
    replaced by a marker when it is longer than the ``context`` characters kept on each side that needs them.
    Cuts fall on white space when there is some in the last (first) half of the kept part, so words stay whole."""
    a = context if head else 0
    b = len(text) - context if tail else len(text)
    if b - a <= max(40, context // 2):
        return escape(text)
    if head:
        space = max(text.rfind(" ", 0, a), text.rfind("\n", 0, a))
        a = space + 1 if space >= context // 2 else a
    if tail:
        found = [i for i in (text.find(" ", b), text.find("\n", b)) if i >= 0]
        b = min(found) if found and min(found) <= len(text) - context // 2 else b
    marker = f'<span class="pa-skip">[… {b - a:,} unchanged characters …]</span>'
    return escape(text[:a]) + marker + escape(text[b:])


def diff_html(segments: Sequence[Segment], context: int | None = None, dark: bool = False) -> str:
    """The diff as one ``<div class="pa-diff">``. ``context``: None shows all unchanged text; a number keeps that many
    characters of unchanged text next to each edit and replaces the rest by a marker."""
    parts = []
    changed = any(kind != SAME for kind, _ in segments)
    for i, (kind, text) in enumerate(segments):
        if kind == DELETE:
            parts.append(f'<del class="pa-del" title="deleted">{escape(text)}</del>')
        elif kind == INSERT:
            parts.append(f'<ins class="pa-ins" title="inserted">{escape(text)}</ins>')
        elif context is None or not changed:
            parts.append(escape(text))
        else:
            parts.append(_elide(text, context, head=i > 0, tail=i < len(segments) - 1))
    classes = "pa-diff pa-dark" if dark else "pa-diff"
    return f'<div class="{classes}">{"".join(parts)}</div>'


def variant_diff_html(clean: str, variant: Variant, context: int | None = None, dark: bool = False) -> str:
    """``variant`` as an inline diff against the clean prompt ``clean`` (see :func:`diff_html`)."""
    segments, _ = variant_segments(clean, variant)
    return diff_html(segments, context, dark)


def _flag(variant: Variant) -> str:
    if variant.kept is True:
        return '<span class="pa-flag pa-kept" title="kept by the perplexity filter">✓ kept</span>'
    if variant.kept is False:
        why = ("no perplexity (empty text)" if variant.ppl is None
               else "dropped by the perplexity filter (a lower PPL ratio than the kept ones)")
        return f'<span class="pa-flag pa-dropped" title="{escape(why, quote=True)}">✗ dropped</span>'
    return '<span class="pa-flag pa-unscored" title="no perplexity computed">not scored</span>'


def variant_card_html(clean: str, variant: Variant, context: int | None = None, dark: bool = False) -> str:
    """One variant: a header line (kept/dropped, seed, PPL ratio and PPL, edits, the component and strategy), its
    note, then its diff against ``clean``."""
    segments, exact = variant_segments(clean, variant)
    edits = sum(kind == DELETE or (kind == INSERT and (j == 0 or segments[j - 1][0] != DELETE))
                for j, (kind, _) in enumerate(segments))
    facts = [f"<b>{escape(variant.component)} × {escape(variant.strategy)}</b>", f"seed {variant.seed}"]
    if variant.ppl_ratio is not None:
        facts.append(f'<span title="PPL(variant) / PPL(clean)">PPL ratio <b>{variant.ppl_ratio:.3f}</b></span>')
    if variant.ppl is not None:
        facts.append(f"PPL {variant.ppl:.2f}")
    facts.append(f"{edits} change{'' if edits == 1 else 's'}" + ("" if exact else " (word diff)"))
    if variant.text == clean:
        facts.append("identical to the clean prompt")
    head = "".join(f"<span>{f}</span>" for f in facts)
    note = f'<div class="pa-vnote">{escape(variant.note)}</div>' if variant.note else ""
    state = {True: "pa-is-kept", False: "pa-is-dropped"}.get(variant.kept, "pa-is-unscored")
    dark_class = " pa-dark" if dark else ""
    return (f'<div class="pa-variant {state}{dark_class}"><div class="pa-vhead">{_flag(variant)}{head}</div>'
            f"{note}{diff_html(segments, context, dark)}</div>")


def legend_html(dark: bool = False) -> str:
    """How to read the diffs."""
    dark_class = " pa-dark" if dark else ""
    return (f'<div class="pa-legend-diff pa-diff{dark_class}" style="border:none;padding:0;max-height:none">'
            'Diff against the clean prompt: <del class="pa-del">deleted text</del> · '
            '<ins class="pa-ins">inserted text</ins> · a replacement shows both.</div>')
