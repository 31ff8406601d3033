"""Demonstrations told apart by a label they repeat: "Log excerpt 1:", "Log excerpt 2:" … above "Log excerpt to
categorise:" and its slot, or "Diff:" … "Message: fix(http): …" pairs above "Diff to describe:" + "{diff}" +
"Message:". The values run over several lines, so the one-line ``Key: value`` reading of few-shot blocks misses them."""
from __future__ import annotations

import re
from collections import defaultdict

from .cues import PLACEHOLDER
from .reading import Sent

#: A label that opens a line: its name, without a number or what the query does with it, and its value.
_LABEL = re.compile(r"^\s*(?:#{1,6}\s*|\*\*)?([A-Za-z][A-Za-z '-]{0,30}?)(?:\s+#?\d{1,2})?(?:\s+to\s+[a-z]+)?"
                    r"\s*(?:\([^)]{0,40}\))?\s*(?:\*\*)?:\s*(.*)$")

#: The steps of a ReAct loop, whose repeated labels describe the answer's format.
_REACT = {"thought", "observation", "action input"}

#: A line that turns from the demonstrations to the query: "Now do the same for:", "Your turn:".
_TURN_TO_QUERY = re.compile(r"^\W*(?:now|your turn|here is|here's)\b", re.I)


def repeated_label_demos(lines: list[list[Sent]], blank_before: dict[int, bool]) -> tuple[set[int], set[int]]:
    """(demonstration lines, query lines): the lines from a label's first use up to its last, when it is used at
    least three times and its last use opens the open query (a slot below it or an empty label closing the
    prompt)."""
    labelled = {li: m for li, line in enumerate(lines) for m in [_LABEL.match(line[0].text)] if m}
    key_of = {li: m[1].strip().lower() for li, m in labelled.items() if len(lines[li]) == 1}  # alone on its line
    found: dict[str, list[int]] = defaultdict(list)  # a label's name: the lines that use it alone
    opening: dict[str, list[int]] = defaultdict(list)  # a label's name: the lines it opens, one sentence or more
    for li, m in labelled.items():
        opening[m[1].strip().lower()].append(li)
        if li in key_of:
            found[key_of[li]].append(li)
    if found.keys() & _REACT:
        return set(), set()
    for uses in found.values():
        if len(uses) < 3:
            continue
        last = uses[-1]
        end = last + 1
        while end < len(lines) and not blank_before[lines[end][0].index] and end - last <= 3:
            end += 1
        query = range(last, end)
        if any(li in key_of and labelled[li][2].strip() and len(found[key_of[li]]) >= 3 for li in query[1:]):
            continue  # "Q: Can individuals apply?" + "A: No.": the last use is answered, no open query
        closing = labelled.get(len(lines) - 1) if end == len(lines) else None  # "Message:" ends the prompt
        open_query = any(PLACEHOLDER.search(m.text) for li in query for m in lines[li]) or bool(closing and
                                                                                              not closing[2])
        gaps = [b - a for a, b in zip(uses, uses[1:])]
        inside = [li for li in range(uses[0], last) if li not in uses]
        said = sum(any(m.cues for m in lines[li]) for li in inside)  # instructions among them: a format, not demos
        slots = any(PLACEHOLDER.search(m.text) for li in range(uses[0], last) for m in lines[li])
        if open_query and min(gaps) >= 2 and said * 4 <= len(inside) and not slots:
            # "Now do the same for:" between the demonstrations and the query
            return set(range(uses[0], _before_turn(lines, last, uses[-2] + 1))), set(query)
    demos, queries = _asked_for_one_more(lines, found)
    if not demos:
        demos = _pointed_at(lines, opening)
    return (demos, queries) if demos else _answered_then_asked(lines, opening)


#: The query asked as one more of what the demonstrations show: "Now write one for this situation: {situation}".
_ONE_MORE = re.compile(r"^\W*(?:now|next),?\s+(?:write|do|create|generate|make|draft|give|produce)\s+"
                       r"(?:one|another|the same|a new one)\b", re.I)


def _asked_for_one_more(lines: list[list[Sent]], found: dict[str, list[int]]) -> tuple[set[int], set[int]]:
    """(demonstration lines, query lines) when labelled pairs used twice or more ("Situation:" / "Announcement:") are
    followed by a request for one more that names the label ("Now write one for this situation: {situation}")."""
    for key, uses in found.items():
        if len(uses) < 2:
            continue
        for li in range(uses[-1] + 1, min(uses[-1] + 8, len(lines))):
            text = " ".join(m.text for m in lines[li])
            if _ONE_MORE.match(text) and re.search(r"\b" + re.escape(key) + r"\b", text, re.I):
                return set(range(uses[0], li)), {li}
    return set(), set()


def _before_turn(lines: list[list[Sent]], stop: int, floor: int) -> int:
    """``stop`` moved up, no higher than ``floor``, past the lines just above it that turn to the query ("Now do the
    same for:") or say anything."""
    while stop > floor and any(m.cues or _TURN_TO_QUERY.match(m.text) for m in lines[stop - 1]):
        stop -= 1
    return stop


def _answered_then_asked(lines: list[list[Sent]], opening: dict[str, list[int]]) -> tuple[set[int], set[int]]:
    """(demonstration lines, query lines) when a label's uses are each answered by one unlabelled line ("Review: …"
    above '{"sentiment": "positive", …}') under a task that speaks of examples, up to a line that turns to the query
    ("Now tag these:") above more uses of the label, left unanswered."""
    for uses in opening.values():
        turn = next((li for li in range(uses[0] + 1, uses[-1]) if _TURN_TO_QUERY.match(lines[li][0].text)), None)
        if turn is None or not any(re.search(r"\bexamples?\b", m.text, re.I)
                                   for line in lines[max(uses[0] - 3, 0):uses[0]] for m in line):
            continue
        shown, asked = [li for li in uses if li < turn], [li for li in uses if li > turn]
        if len(shown) >= 2 and asked and asked[0] == turn + 1 and \
                all(b == a + 2 for a, b in zip(shown, [*shown[1:], turn])):
            return set(range(shown[0], turn)), set(range(turn + 1, asked[-1] + 1))
    return set(), set()


#: A task that points at the demonstrations right below it: "… following the style of these examples.", "Write five
#: more … in the same style as these, covering: …".
_POINTS_AT_EXAMPLES = re.compile(r"\b(?:these|the following) examples\b|\blike these\b|\b(?:style|format|tone|"
                                 r"voice|pattern) (?:of|as) (?:these|the following|the ones below)\b", re.I)


def _pointed_at(lines: list[list[Sent]], found: dict[str, list[int]]) -> set[int]:
    """The lines of two labels that take turns at least twice ("Shade: …", "Name: …", "Shade: …", "Name: …") right
    below a task that points at them as examples ("… following the style of these examples."), the first label's
    last use perhaps the query, left unanswered."""
    for key, uses in found.items():
        first = uses[0]
        if len(uses) < 2 or not first or not _POINTS_AT_EXAMPLES.search(lines[first - 1][-1].text):
            continue
        answers = next((other for other, turns in found.items() if other != key and
                        len(uses) - 1 <= len(turns) <= len(uses) and
                        all(a < t < b for a, t, b in zip(uses, turns, [*uses[1:], len(lines)]))), None)
        if answers is None:
            continue
        if len(found[answers]) == len(uses):
            return set(range(first, found[answers][-1] + 1))
        # the last use is the query ("Now do this one:" + "Notes: kitchen …"); the last answer runs up to it, its
        # list included
        return set(range(first, _before_turn(lines, uses[-1], found[answers][-1] + 1)))
    return set()


#: A label of one side of a contrast the prompt demonstrates: "Bad: …" / "Good: …", "Before:" / "After:".
_CONTRAST = re.compile(r"^\W*(before|after|bad|good|off-brand|on-brand|wrong|right|weak|strong)\s*\**:", re.I)
_SIDES = ({"before", "after"}, {"bad", "good"}, {"off-brand", "on-brand"}, {"wrong", "right"}, {"weak", "strong"})


def contrast_demos(lines: list[list[Sent]], blank_before: dict[int, bool]) -> set[int]:
    """The lines of a contrast shown twice or more ("Bad: …", "Good: …", "Bad: …", "Good: …", or "Before:" and
    "After:" over code), from its first label to the end of its last side: demonstrations of what to write."""
    found = [(li, m[1].lower()) for li, line in enumerate(lines) for m in [_CONTRAST.match(line[0].text)] if m]
    for sides in _SIDES:
        uses = [(li, key) for li, key in found if key in sides]
        keys = [key for _, key in uses]
        if len(uses) < 4 or any(a == b for a, b in zip(keys, keys[1:])):
            continue  # the two sides alternate, each shown at least twice
        end = uses[-1][0] + 1
        while end < len(lines) and not blank_before[lines[end][0].index] and not any(m.cues for m in lines[end]):
            end += 1  # the last side's lines, up to a blank line or an instruction
        return set(range(uses[0][0], end))
    return set()
