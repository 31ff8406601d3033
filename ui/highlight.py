"""HTML for a dissected prompt: every sentence marked with its components. Pure functions, no Streamlit.

Each component is told apart three ways, so hue is never the only cue (colour-blind safety):
a colour from the Okabe–Ito palette, a short text badge (R, D, AI, OF, EX) and its own underline style
(solid, dashed, dotted, double, wavy). A sentence with several labels carries one badge and one stacked
underline bar per label, and a striped background mixing their tints. Colours, bar styles and tints live in
``assets/components.css`` (CSS classes ``pa-<slug>``); this module only names classes.

Everything taken from the prompt or the dissection is escaped with :func:`html.escape` (text and attributes).
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from promptanatomy_core.palette import BADGES
from promptanatomy_core.types import COMPONENTS, Component, Dissection


@dataclass(frozen=True)
class ComponentStyle:
    """How one component is drawn: CSS class suffix, text badge, and the name of its underline style."""

    component: Component
    slug: str
    badge: str
    line: str

    @property
    def css_class(self) -> str:
        return f"pa-{self.slug}"


_SLUGS_AND_LINES = {
    Component.ROLE: ("role", "solid"),
    Component.DIRECTIVE: ("directive", "dashed"),
    Component.ADDITIONAL_INFORMATION: ("additional-information", "dotted"),
    Component.OUTPUT_FORMATTING: ("output-formatting", "double"),
    Component.EXAMPLES: ("examples", "wavy"),
}
STYLES: dict[Component, ComponentStyle] = {
    c: ComponentStyle(c, slug, BADGES[c], line) for c, (slug, line) in _SLUGS_AND_LINES.items()}


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def badge_html(component: Component) -> str:
    """The small text badge of ``component`` (e.g. ``R`` for Role)."""
    st = STYLES[component]
    return (f'<span class="pa-badge {st.css_class}" title="{_attr(component.value)}">'
            f"{escape(st.badge)}</span>")


def sentence_title(index: int, labels: list[Component], source: str) -> str:
    """The hover text of sentence ``index`` (0-based): its labels and who set them."""
    names = ", ".join(c.value for c in labels) if labels else "no label"
    return f"Sentence {index + 1}: {names} — set by {source or 'unknown'}"


def _tint_style(labels: list[Component]) -> str:
    """Inline background for a sentence: its tint, or diagonal stripes of every label's tint."""
    if len(labels) < 2:
        return ""
    width = 7
    stops = ", ".join(f"var(--{STYLES[c].css_class}-tint) {i * width}px {(i + 1) * width}px"
                      for i, c in enumerate(labels))
    return f' style="background-image: repeating-linear-gradient(135deg, {stops})"'


def sentence_html(index: int | None, text: str, labels: list[Component], source: str = "",
                  title: str | None = None) -> str:
    """One sentence: badges, then the text wrapped in one underline bar per label (innermost bar nearest the text).

    ``title`` (the hover text) defaults to :func:`sentence_title`; ``index`` None leaves out ``data-i`` (legend).
    """
    classes = ["pa-s"] + [STYLES[c].css_class for c in labels]
    if not labels:
        classes.append("pa-none")
    elif len(labels) > 1:
        classes.append("pa-multi")
    tint = f" pa-tint-{STYLES[labels[0]].slug}" if len(labels) == 1 else ""
    inner = f'<span class="pa-text{tint}"{_tint_style(labels)}>{escape(text)}</span>'
    # Bars from the innermost outwards: the k-th wrapper sits k steps lower (CSS classes pa-d0 … pa-d4).
    for depth, comp in enumerate(reversed(labels)):
        inner = f'<span class="pa-bar {STYLES[comp].css_class} pa-d{min(depth, 4)}">{inner}</span>'
    badges = "".join(badge_html(c) for c in labels)
    badges_html = f'<span class="pa-badges" aria-hidden="true">{badges}</span>' if badges else ""
    if title is None:
        title = sentence_title(index or 0, labels, source)
    data_i = f' data-i="{index}"' if index is not None else ""
    data_labels = _attr(";".join(c.value for c in labels))
    return (f'<span class="{" ".join(classes)}"{data_i} data-labels="{data_labels}" title="{_attr(title)}">'
            f"{badges_html}{inner}</span>")


def highlight_html(dissection: Dissection, *, dark: bool = False) -> str:
    """The whole prompt as HTML, sentences highlighted, the white space between them kept (``pre-wrap``)."""
    prompt = dissection.prompt
    parts = [f'<div class="pa-doc{" pa-dark" if dark else ""}">']
    pos = 0
    order = sorted(range(len(dissection.sentences)), key=lambda i: dissection.sentences[i].start)
    sources = dissection.source_list
    for i in order:
        s = dissection.sentences[i]
        if s.start < pos:  # overlapping sentences: keep the text once
            continue
        parts.append(escape(prompt[pos:s.start]))
        labels = [c for c in COMPONENTS if c in s.labels]
        parts.append(sentence_html(i, s.text, labels, sources[i]))
        pos = s.end
    parts.append(escape(prompt[pos:]))
    parts.append("</div>")
    return "".join(parts)


def legend_html(*, dark: bool = False) -> str:
    """The key: badge, colour and underline style of each component, and how multi-label sentences look."""
    items = []
    for comp in COMPONENTS:
        st = STYLES[comp]
        sample = (f'<span class="pa-bar {st.css_class} pa-d0"><span class="pa-text pa-tint-{st.slug}">'
                  f"{escape(comp.value)}</span></span>")
        items.append(f'<span class="pa-legend-item" title="{_attr(f"{comp.value}: badge {st.badge}, {st.line} underline")}">'
                     f"{badge_html(comp)}{sample}</span>")
    items.append('<span class="pa-legend-item">' + sentence_html(
        None, "several labels", [Component.ROLE, Component.DIRECTIVE],
        title="A sentence with several labels: one badge and one bar each") + "</span>")
    items.append('<span class="pa-legend-item">'
                 + sentence_html(None, "no label", [], title="A sentence no dissector labelled") + "</span>")
    return f'<div class="pa-legend{" pa-dark" if dark else ""}">{"".join(items)}</div>'
