"""A style or voice guide that the task holds material up against ("Score how well the draft matches the voice
guide", "Review the copy against the voice principles below") is consulted: its lines are background, not the form
of the answer, however much they speak of tone and style."""
from __future__ import annotations

import re

from ..types import Component
from .cues import CLOSING_TAG, OPENING_TAG, A, D
from .reading import Sent, bare_label

#: What a guide is called: "Voice guide", "## Northbeam voice principles", "Tone guidelines:", "<voice_guide>".
_GUIDE = re.compile(r"(?:style|voice|tone|brand)[ _]?(?:guide(?:lines)?|principles|rules|sheet)|\bguidelines\b|"
                    r"\bstylebook\b", re.I)
#: A task that measures material against a guide: "against the tone guidelines", "follows the voice guide".
_HELD_AGAINST = re.compile(r"\b(?:against|follows?|match(?:es)?|breaks?|violates?|consult|deviations? from|"
                           r"violations? of|using)\s+(?:the|our|this|these|its|their)\s+(?:[\w'’-]+\s+){0,3}?"
                           r"(?:guide(?:lines)?|principles|(?:style|stylebook) (?:rules|entries)|stylebook)\b", re.I)
#: An item of a list: "- Confident, not cocky", "2. No spam."
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s")


def _title(sent: Sent) -> bool:
    """Whether a line only titles the block below it: a label, a Markdown heading, capitals or an opening tag."""
    text = sent.text.strip()
    return bare_label(text) or text.startswith("#") or bool(OPENING_TAG.match(text)) or \
        (text.isupper() and len(text.split()) <= 4)


def _block_end(lines: list[list[Sent]], li: int, blank_before: dict[int, bool]) -> int:
    """The line after the guide titled at line ``li``: its closing tag's, the next heading, or the next blank line or
    end of its list."""
    title = lines[li][0].text.strip()
    listed = li + 1 < len(lines) and bool(_LIST_ITEM.match(lines[li + 1][0].text))
    for end in range(li + 1, len(lines)):
        text = lines[end][0].text
        if OPENING_TAG.match(title):
            if CLOSING_TAG.match(text):
                return end + 1  # the closing tag is the guide's
        elif text.lstrip().startswith("#") if title.startswith("#") else \
                blank_before[lines[end][0].index] or listed and not _LIST_ITEM.match(text):
            return end
    return len(lines)


def label_consulted_guides(lines: list[list[Sent]], labels: dict[int, set[Component]],
                           blank_before: dict[int, bool]) -> None:
    """The lines of a guide that the task holds material up against are background."""
    if not any(D in labels[m.index] and _HELD_AGAINST.search(m.text) for line in lines for m in line):
        return
    for li, line in enumerate(lines):
        if len(line) == 1 and _title(line[0]) and _GUIDE.search(line[0].text):
            first = li + (D in labels[line[0].index])  # "Check it against these guidelines:" is the task's
            labels.update((m.index, {A}) for guide in lines[first:_block_end(lines, li, blank_before)] for m in guide)
