"""The offline default dissector: each sentence's cues (:mod:`.cues`) read in the context of the lines, headings and
blocks around it.

* a heading ("## Output format", "Rules:", "<output_format>", "# Tools") gives its component to the lines below it;
  a line ending in ":" ("Use this structure:", "Follow these steps:") gives its component to the items under it;
* a block of examples ("Here are some examples:", "Example 1: …", repeated ``Key: value`` or ``text -> label``
  demonstrations before an open final query) stays Examples to its end; the open query is the task's input;
* the input the task works on, with its label ("Article:", "[Question]", "### Input:", "<request>", "Here is the
  data:", pasted rows) is Directive; material the model consults ("<documents>", "Reference policy:", "You are given
  the following schema:") is Additional Information;
* a long line that carries the task input (the way the PACP datasets write a prompt, one paragraph per component)
  is the Directive block: its sentences are Directive on top of what their own words say; a long background line
  likewise adds Additional Information to its sentences;
* a sentence without a cue continues the input, example or quotation it follows on the same line, else it is
  background; a prompt always states a task;
* a prompt in a chat template is read through its special tokens ("<|im_start|>user" reads as "User:");
* after the line-by-line pass, :mod:`.pasted` finds the material the task works on by how the prompt presents it
  (lettered options, an email thread, the text a task reworks, a block of data under a bare label, …).
"""
from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections import Counter
from dataclasses import replace

from ..types import Component, Dissection, Sentence
from . import languages
from .base import Dissector, register
from .cues import (AND_TELLS, ASSISTANT_TITLE, CLOSING_CONTENT, CLOSING_TAG, CONDITIONS_BELOW, D, DATA_ROW, DIRECTIVE,
                   E, FILE_LABEL, FOR_CONTEXT, FORM_SLOT, HEADING, INFO, INPUT_LABEL, MY_MATERIAL, NAMED_PERSONA, O,
                   OPEN_SLOT, OPENING_TAG, PLACEHOLDER, PROHIBITION, QUESTION, REFERENCE, REQUEST, ROLE_WEAK, TABLE_ROW,
                   TASK_IN_LINE, A, R, cues_of, heading_component, heading_topic, is_imperative, key_value,
                   opens_material, title_component, without_chat_markers)
from .configured import label_configured_prompt
from .demonstrations import contrast_demos, repeated_label_demos
from .guides import label_consulted_guides
from .material import OPENING_QUOTE, json_schema_lines, material_lines, runs
from .pasted import (label_announced_items, label_answer_options, label_consulted_tables, label_data_blocks,
                     label_document_headings, label_email_bodies, label_enumerated_entries, label_fenced_material,
                     label_material_above, label_material_the_task_names, label_pasted_code, label_pasted_records,
                     label_numbered_entries_below, label_prompt_to_rework, label_query_schemas, label_record_pointed_at,
                     label_said_pasted_below, label_style_examples, label_test_cases, label_text_to_rework)
from .reading import (CONSULTED_NOUN, LABEL_ONLY, POINTER, Sent, bare_label, head_noun, names_consulted,
                      paragraph_end, table_row, works_by)


#: A demonstration "text -> label" or "text | label" (group 1 or 2: the label's first character, empty when open).
_ARROW = re.compile(r"(?:^|\s)(?:->|→|=>|//)\s*(\S?)|^(?!\s*\|)[^|\n]*\S\s+\|(?:\s+(\S)|\s*$)")


_ARROW_PAIR = re.compile(r"\s(?:->|→|=>)\s*\S")  # "Book the ceilidh band -> VENDOR": a demonstration, not a task


def _repeated_labels(arrows: list[re.Match[str] | None]) -> bool:
    """Whether the "text -> label" lines just above hold one-word labels, some given twice ("-> S" … "-> S"): the
    demonstrations of a classification, not a glossary ("workspace → espaço de trabalho")."""
    labels = [m.string[m.end(1) - 1:].strip(" .\"'") for m in reversed(arrows) if m and (m.group(1) or m.group(2))]
    labels = labels[:next((i for i, m in enumerate(reversed(arrows)) if m is None), len(arrows))]
    return all(re.fullmatch(r"\w+", label) for label in labels) and len(set(labels)) < len(labels)


def _arrow_lines(lines: list[list[Sent]]) -> tuple[set[int], set[int]]:
    """(demonstration lines, query lines) of an arrow few-shot block: "text -> label" lines before a final open
    "{input} ->"."""
    arrows = [_ARROW.search(line[-1].text) for line in lines]
    labelled = [m is not None and bool(m.group(1) or m.group(2)) for m in arrows]
    last = len(lines) - 1
    if last < 2 or arrows[last] is None or labelled[last]:
        # "text -> label" lines, then "Now do these:" (or "Sentences:" with no label below) above the inputs
        turn = next((li for li in range(2, len(lines)) if labelled[li - 1] and labelled[li - 2] and (
            re.match(r"^\W*now\b", lines[li][0].text, re.I) or len(lines[li]) == 1 and
            bool(LABEL_ONLY.match(lines[li][0].text)) and not any(labelled[li:]) and _repeated_labels(arrows[:li]) or
            arrows[li] is None and not any(labelled[li:]) and _same_key(lines[li], lines[li - 1]) and
            not any(_same_key(line, lines[li]) for line in lines[li + 1:]))),
            None)  # or the input under the same key as the demonstrations' ("Review: …" after "Review: … -> POSITIVE")
        if turn is None:
            return set(), set()
        return set(next(run for run in runs(labelled[:turn]) if run[-1] == turn - 1)), {turn}
    demos = {i for i in range(last) if labelled[i]}
    return (demos, {last}) if len(demos) >= 2 else (set(), set())


def _same_key(line: list[Sent], other: list[Sent]) -> bool:
    """Whether two lines open with the same key: "Review: …" and "Review: … -> POSITIVE"."""
    a, b = key_value(line[0].text), key_value(other[0].text)
    return a is not None and b is not None and a[0].lower() == b[0].lower()


def _table_lines(lines: list[list[Sent]]) -> tuple[set[int], set[int]]:
    """(demonstration lines, query lines) of a markdown table of demonstrations whose first column names the final
    query's key ("| Claim note | Queue |" rows, then "Claim note: …")."""
    last = key_value(lines[-1][0].text) if lines else None
    texts = [" ".join(m.text for m in line) for line in lines]  # a cell may hold several sentences
    rows = [li for li, text in enumerate(texts) if TABLE_ROW.match(text)]
    if last is None or len(rows) < 3:
        return set(), set()
    header = [c.strip().lower() for c in texts[rows[0]].strip().strip("|").split("|")]
    if header[0] != last[0] or len(header) < 2:
        return set(), set()
    return set(rows), {len(lines) - 1}


#: A field of the answer described in angle brackets: "level: <EMERGENCY|URGENT|ROUTINE>", "TR: <score> — <why>".
_DESCRIBED_FIELD = re.compile(r"^\s*[-*]?\s*[\w ]{1,30}:\s*<[^<>\n]+>(?:\s*\W{0,3}\s*<[^<>\n]+>)*\s*$")


def _consulted_intro(intro: Sent) -> bool:
    """Whether a line hands over material to consult: "Here are the tariffs we usually talk people through (prices
    as of this month, for reference only):"."""
    return intro.text.rstrip().endswith(":") and intro.cues == {A} and opens_material(intro.text)


#: A key on its own, over the fields nested under it: "tasks:" above "- area: <area>".
_KEY_ONLY = re.compile(r"^\s*[-*]?\s*[\w-]{1,30}:\s*$")


def _template_lines(lines: list[list[Sent]], blank_before: dict[int, bool]) -> set[int]:
    """An answer template: three or more lines in a row that are only a label ("Company:", "Budget:", "Deal stage
    (one of: …):") or a field described in angle brackets ("level: <URGENT|ROUTINE>"), or such fields with the keys
    they nest under ("tasks:" above "- area: <area>"): what the answer fills in; and
    the headings and described parts right under "Use this structure:" ("## Summary", "<2-3 sentences>")."""
    def shaped(shape: re.Pattern[str]) -> list[bool]:
        return [len(line) == 1 and bool(shape.match(line[0].text)) and not line[0].input_label for line in lines]

    labels, described = shaped(LABEL_ONLY), shaped(_DESCRIBED_FIELD)
    either = [label or field or key for label, field, key in zip(labels, described, shaped(_KEY_ONLY))]
    out: set[int] = set()
    for bare in (labels, described, either):
        # a run that ends the prompt is the open slots the answer continues, not a template
        for run in runs(bare):
            if len(run) >= 3 and run[-1] < len(lines) - 1 and \
                    (bare is not either or sum(described[li] for li in run) >= 3):
                out.update(run)
                if bare is described and run[0] and labels[run[0] - 1]:
                    out.add(run[0] - 1)  # "Return:" above the fields
    for li, line in enumerate(lines[:-1]):
        if line[-1].cues == {O} and line[-1].text.rstrip().endswith(":") and _TEMPLATE_WORD.search(line[-1].text) \
                and not re.match(r"^\W*now\b", line[-1].text, re.I):  # "Now do these … in the same format:": input
            end = li + 1  # the parts are read only under such a line ("## Changes", an input label elsewhere, too)
            while end < len(lines) and _template_part(lines[end]) and \
                    (end == li + 1 or not blank_before[lines[end][0].index]):
                end += 1
            out.update(range(li + 1, end) if end - li > 2 else ())
    return out


def _entry_noun(label: str) -> str:
    """The noun an entry's label opens with, lower-cased: "[Article 1: Storing our bread]" -> "article"."""
    found = re.match(r"\W*([^\W\d_]+)", label)
    return found[1].lower() if found else ""


def _template_part(line: list[Sent]) -> bool:
    """A part of a layout shown under "Use this structure:": a heading or a described part ("<2-3 sentences>"), or a
    short line that asks nothing ("Q1. Question text", "a) option", "name: string")."""
    return len(line) == 1 and bool(_TEMPLATE_PART.match(line[0].text)) or \
        not any(m.cues for m in line) and sum(len(m.text) for m in line) <= 60


#: A word naming the answer's layout: "Use this structure:", "Use our template:".
_TEMPLATE_WORD = re.compile(r"\b(?:structure|template|layout|outline|sections|headings|format)\b", re.I)
#: A part of a layout given as a template: a heading, or a description in angle brackets or parentheses.
_TEMPLATE_PART = re.compile(r"^\s*(?:#{1,6}\s+\S.*|<[^<>\n]{1,160}>|\([^()\n]{1,160}\)|\*\*[^*\n]{1,60}\*\*:?)\s*$")


#: The start of an answer left for the model to continue: "A: Let's think step by step."
_OPEN_ANSWER = re.compile(r"^\W*let'?s (?:think|work|solve|reason)\b[^.]{0,40}\.?\s*$|^\W*(?:\.{3}|…|_+|\?)\s*$", re.I)


#: The speaker of a chat turn: "User", "Customer", "Patient".
_CHAT_SPEAKER = re.compile(r"user|human|customer|patient|client|caller|guest|visitor|student", re.I)


def _few_shot_lines(lines: list[list[Sent]], blank_before: dict[int, bool]) -> tuple[set[int], set[int]]:
    """(demonstration lines, query lines): ``Key: value`` pairs before a final open query with the same keys; the
    query's lines are contiguous (a blank line ends it)."""
    keyed = [(i, key_value(line[0].text) or _lower_key(line[0].text)) for i, line in enumerate(lines)]
    demos: set[int] = set()
    first_seen: dict[str, int] = {}  # each key's first line
    for i, kv in keyed:
        if kv is not None:
            first_seen.setdefault(kv[0], i)

    above: list[bool] = []  # above[j]: the nearest keyed line above line j is a complete demonstration
    last = False
    for _, kv in keyed:
        above.append(last)
        last = bool(kv[1]) if kv is not None else last

    for end in range(len(keyed) - 1, -1, -1):
        i, kv = keyed[end]
        if kv is None or kv[1] and not PLACEHOLDER.search(kv[1]) and not _OPEN_ANSWER.match(kv[1]):
            continue
        query_keys = {kv[0]}
        later = _keys_after(kv[0], [k[0] for _, k in keyed[:end] if k is not None])
        start = end
        new_key = first_seen[kv[0]] == end and bool(kv[1])  # "Now answer: {question}" under "Q: …" / "A: …"
        # pairs: the query's fields are not the demonstrations' repeated
        while start > 0 and not blank_before[lines[start][0].index] and keyed[start - 1][1] is not None and \
                keyed[start - 1][1][0] not in query_keys | later and \
                not (new_key and first_seen[keyed[start - 1][1][0]] < start - 1):
            start -= 1
            query_keys.add(keyed[start][1][0])
        j = start - 1
        while j >= 0 and (keyed[j][1] is None and above[j] or keyed[j][1] is not None and
                          keyed[j][1][0] in query_keys and keyed[j][1][1]):
            if keyed[j][1] is not None:  # an instruction between the demonstrations and the query is skipped
                demos.add(keyed[j][0])
            j -= 1
        if len(demos) < 2:  # demonstrations under other keys ("Fact: / Q: / A:" pairs before "Facts: {facts}"), not
            # the turns of a transcript under its label ("Transcript:", then "REP: …", "DANA: …")
            top = start - 1
            while top >= 0 and keyed[top][1] is None and above[top]:
                top -= 1  # "Answer with the label only." between "Line: …"/"Label: …" pairs and "Lines:"
            block = list(itertools.takewhile(lambda b: keyed[b][1] is not None and bool(keyed[b][1][1]),
                                             range(top, -1, -1)))
            if top < start - 1 and not any(keyed[b][1][0].lower() == kv[0].lower().rstrip("s") for b in block):
                block = []
            counts = Counter(keyed[b][1][0] for b in block)
            while block and counts[keyed[block[-1]][1][0]] == 1:  # "Output one word: Easy, Medium or Hard." above
                counts[keyed[block.pop()][1][0]] -= 1
            counts = +counts
            label = lines[block[-1] - 1][-1].text.rstrip() if block and block[-1] > 0 else ""
            transcript = bool(INPUT_LABEL.match(label if label.endswith(":") else label + ":"))  # "TRANSCRIPT" too
            consulted = bool(REFERENCE.search(label))  # "FAQ" above "Q: …" / "A: …" pairs: looked up, not shown
            demos = set(block) if len(block) >= 4 and min(counts.values()) >= 2 and not transcript and \
                not consulted else demos
        if len(demos) >= 2 and not _live_chat(lines, keyed, start, end):
            return demos, set(range(start, end + 1))
        break
    return set(), set()


def _live_chat(lines: list[list[Sent]], keyed: list[tuple[int, tuple[str, str] | None]], start: int, end: int) -> bool:
    """Whether an open "Assistant:" closes one conversation whose last user turn is typed out ("User: me, 34"), not
    a slot ("User: {message}"): the turns above are the chat so far, not demonstrations."""
    turn = keyed[start][1]
    return end == len(lines) - 1 and not keyed[end][1][1] and turn is not None and bool(turn[1]) and \
        not PLACEHOLDER.search(turn[1]) and bool(_CHAT_SPEAKER.fullmatch(turn[0])) and start < end


def _lower_key(text: str) -> tuple[str, str] | None:
    """A one-word key typed in lower case, as few-shot blocks often are ("message: …", "intent: card_lost"), or in a
    script without capitals ("标题：…", "리뷰: …")."""
    m = re.match(r"^\s*([a-z][a-z_]{1,20}|[\u0600-\u06ff\u0900-\u097f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]"
                 r"[^\s:：]{0,10})\s*[:：]\s*(.*)$", text)
    return (m.group(1), m.group(2).strip()) if m else None


def _keys_after(key: str, keys: list[str]) -> set[str]:
    """The keys that follow ``key`` within a demonstration (``keys`` up to the first repeat): "reasoning" and
    "answer" after "problem" in "Problem / Reasoning / Answer" demonstrations. They end a demonstration; they cannot
    open the query that ends with ``key``."""
    cycle: list[str] = []
    for k in keys:
        if k in cycle:
            break
        cycle.append(k)
    return set(cycle[cycle.index(key) + 1:]) if key in cycle else set()


#: A tag named for a person, whose block may hold their record rather than what they wrote ("<customer>" + "Name: …").
_PERSON_TAG = re.compile(r"customer|user|client|member|patient|student|candidate|employee|human|account|profile",
                         re.I)


@register("rules")
class RulesDissector(Dissector):
    """Cue- and context-aware rules; no model, no network."""

    def _label(self, prompt: str, sentences: tuple[Sentence, ...]) -> Dissection:
        read = tuple(replace(s, text=without_chat_markers(s.text)) for s in sentences)
        lines = _lines(prompt, read)
        blank_before = {line[0].index: i > 0 and prompt.count("\n", lines[i - 1][-1].end, line[0].start) > 1
                        for i, line in enumerate(lines)}
        raw = [prompt[prompt.rfind("\n", 0, line[0].start) + 1:line[-1].end] for line in lines]
        material = material_lines(raw, [sum(bool(m.cues) for m in line) * 2 > len(line) for line in lines])
        schema = json_schema_lines([line[0].text for line in lines], [line[-1].text for line in lines])
        demos, queries = _arrow_lines(lines)
        if not demos:
            demos, queries = _table_lines(lines)
        if not demos:
            demos, queries = _few_shot_lines(lines, blank_before)
        if not demos:
            demos, queries = repeated_label_demos(lines, blank_before)
        contrast = set() if demos else contrast_demos(lines, blank_before)
        demos = demos or contrast
        # a run of "Key: …" lines read as a transcript that holds the demonstrations is the few-shot block, and rows
        # handed over to consult, or headed by what the task says it works by ("--- PRODUCT SHEET: … ---" under
        # "… using only the product sheet below"), are background: neither is material
        worked_by = functools.cache(lambda: works_by(m.text for line in lines for m in line))  # read when needed:
        # what a block's label, header or heading may name
        material -= {i for run in runs([i in material for i in range(len(lines))])
                     if demos & set(run) or run[0] and _consulted_intro(lines[run[0] - 1][-1]) or
                     not worked_by().isdisjoint(word.lower()
                                                for word in re.findall(r"[^\W\d_]+", lines[run[0]][0].text))
                     for i in run}
        template = _template_lines(lines, blank_before)
        data_after = _only_data_after(lines)
        closing_lines: dict[str, list[int]] = {}  # tag name: the lines that are its closing tag, in order
        for li, line in enumerate(lines):
            if len(line) == 1 and CLOSING_TAG.match(line[0].text):
                closing_lines.setdefault(line[0].text.strip()[2:-1], []).append(li)
        labels: dict[int, set[Component]] = {}
        section: Component | None = None
        section_is_markdown = False
        section_level = 8  # _heading_level of the markdown heading that opened the section (8: none)
        consulted = False  # the section holds material the model consults ("## Account summary")
        prohibitions = False  # the section lists what not to do ("## Things we don't do"): its imperatives are rules
        mode: Component | None = None  # E inside an example block, D inside a task-input block
        carry: set[Component] | None = None  # what a line ending in ":" announces for the items below it
        carried_headings = False
        pasted_below = False
        bare_label = False
        enclosing: str | None = None  # the tag around the task's input ("<code>" … "</code>"): all of it is input
        stated, checked = False, 0
        headings: set[int] = set()  # a heading ("### Instruction:") announces the task, it does not state it
        announcer = -1  # the sentence that announced the block: a blank line may follow it, not the block's items
        listed = False  # in the block of entries a consulted heading announced across a blank line
        for li, line in enumerate(lines):
            first = line[0]
            if enclosing is not None:
                labels.update((m.index, {D}) for m in line)
                if len(line) == 1 and CLOSING_TAG.match(first.text) and first.text.strip()[2:-1] == enclosing:
                    enclosing, mode = None, None
                continue
            if carry is not None and mode is not E and li not in demos and li not in queries and li not in schema and \
                    not (carry == {A} and li in material and not consulted) and \
                    (_block_item(first.text) or
                     pasted_below and li not in material and (_plain_data(line) or _prose(line))) and \
                    not (blank_before[first.index] and first.index - 1 != announcer) and \
                    not (PLACEHOLDER.fullmatch(first.text.strip()) or INPUT_LABEL.match(first.text) and
                         PLACEHOLDER.search(first.text)) and \
                    _heading_level(first.text) < section_level:  # not the input ("{thread}", "Question:
                # {question}"), nor "# Notes" after the lines under "# Data", which opens a section of its own
                # a field on the answer's form among the input's fields ("Tone: adventurous", "Length: 100 words")
                labels.update((m.index, {O} if carry == {D} and m.cues == {O} and key_value(m.text) else
                               {A} if carry == {D} and m.cues == {A} and PROHIBITION.match(m.text) else
                               set(carry)) for m in line)  # a prohibition among the demands is a rule
                carried_headings = carried_headings or first.text.lstrip().startswith("#")
                continue
            if carried_headings:  # headings listed as a structure: the section they would have opened is over
                section, carried_headings = None, False
            carry = None
            if blank_before[first.index]:
                mode = None if mode is D else mode
                section = None if section is not None and not first.text.lstrip().startswith("#") and \
                    not section_is_markdown else section
                # the block right below "You have access to the following tools:" and a blank line
                listed = consulted and first.index - 1 == announcer
            if consulted and section is A and first.input_label and not _ASKED.match(first.text) and \
                    (PLACEHOLDER.search(first.text) or first.text.rstrip().endswith(":") or
                     key_value(first.text) and not _CHAT_TURN.match(first.text)):
                first.reference = True  # "Customer: {first_name}", "Selected code:" under "## Account summary"
            if (listed or consulted and section is A) and _NAMED_ENTRY.match(first.text):
                first.reference = True  # "search_flights: search flights, input is …" under the tools consulted
            if all(m.reference for m in line) and li not in demos and mode is not E:
                labels.update((m.index, {A}) for m in line)
                continue
            if li in template:
                labels.update((m.index, {O}) for m in line)
                if first.text.rstrip().endswith(":"):  # "Answer in this format:" above its fields: all of them form
                    carry, announcer = {O}, first.index
                continue
            heading = heading_component(first.text) if len(line) == 1 and not first.input_label and li not in queries \
                else None
            if heading is None and len(line) == 1 and (li == 0 or blank_before[first.index]) and li + 1 < len(lines) \
                    and not blank_before[lines[li + 1][0].index] and mode is not E and li not in demos:
                heading = title_component(first.text)  # "Your job" on a line of its own above its section
            if heading is A and not first.text.lstrip().startswith("#") and not REFERENCE.search(first.text) and \
                    data_after[li] and head_noun(first.text) not in worked_by():
                heading, first.input_label = None, True  # "Job posting:" before the data at the end: task input,
                # unless the task says it works by them ("… using only the fabric notes below")
            if heading is None and len(line) == 1 and li + 1 < len(lines) and table_row(lines[li + 1]) and \
                    (LABEL_ONLY.match(first.text) or _TITLE_OVER_LIST.fullmatch(first.text)) and \
                    head_noun(first.text) in worked_by():
                heading = A  # "ALLERGEN TABLE" above the rows "… using only the allergen table below" consults
            if heading is D and head_noun(first.text) in worked_by():
                heading = A  # "Press requirements:" under "Review the artwork against our press requirements"
            if heading is not None and li + 1 in schema:
                heading = O  # "<schema>" above the JSON the answer must fill in
            if heading is A and mode is E and not first.text.lstrip().startswith(("#", "<", "**")):
                heading = None  # "Reviews:" inside an example: a label of the demonstration, not a new section
            if heading is not None and mode is D and bare_label and not blank_before[first.index] and \
                    lines[li - 1][-1].input_label and first.text.lstrip().startswith("#"):
                heading = None  # "Article:" right above "# How do I return an item?": the pasted document's title
            if heading is R and ASSISTANT_TITLE.match(first.text.lstrip()) and not _PERSONA_WORDS.search(first.text):
                labels[first.index] = {R}  # the prompt's title names the assistant: it opens no section of persona
                headings.add(first.index)
                continue
            if heading is not None:
                section, mode = heading, (E if heading is E else None)
                section_is_markdown = first.text.lstrip().startswith(("#", "**"))
                section_level = _heading_level(first.text) or 8
                consulted = heading is A and bool(REFERENCE.search(first.text))
                prohibitions = bool(_PROHIBITIONS.search(first.text))
                labels[first.index] = {heading}
                headings.add(first.index)
                carry = {heading} if heading in (D, O) and first.text.rstrip().endswith(":") else None
                announcer = first.index
                continue
            if li in queries:
                mode = D
            elif li in demos or (E in first.cues and R not in first.cues):
                mode = E
            elif mode is E and (li - 1 in contrast or self._ends_examples(first, line, li, lines, blank_before)):
                mode = None  # the line after a contrast shown ("Bad: …", "Good: …") is past the demonstrations
            if mode is E:
                for m in line:  # "Write a haiku about {topic} in the style of these:" is the task the examples follow
                    labels[m.index] = {D} if m is line[-1] and _CREATE.match(m.text) and \
                        m.text.rstrip().endswith(":") and li not in demos else {E}
                continue
            if li in schema:
                labels.update((m.index, {O}) for m in line)
                continue
            if li in material and li not in queries and not (consulted and section is A):
                labels.update((m.index, {D}) for m in line)  # unless it is consulted ("Knowledge base:" above Q/A)
                continue
            if first.input_label and section is A and _LIST_ITEM_OR_QUOTE.match(first.text) and \
                    not PLACEHOLDER.search(first.text) and (key_value(first.text) or ("", ""))[1]:
                first.input_label = False  # "- Term: 2 years maximum" under "<standards>": a field of the setting
            if first.input_label and _entry_noun(first.text) in worked_by():
                first.input_label = False  # "[Article 1: Storing our bread]" under "… using only the articles below"
            if first.input_label and not first.text.startswith("```"):
                mode = D
                if first.text.lstrip().startswith("#") and li + 1 < len(lines) and \
                        not key_value(lines[li + 1][0].text) and lines[li + 1][0].text.rstrip()[-1:] not in ".!?":
                    section, consulted = None, False  # "# Recent sessions" over "{recent_sessions}" closes the
                    # "# Member profile" above; fields or prose under it may still be what is consulted
                opening = OPENING_TAG.match(first.text) if len(line) == 1 else None
                closes = closing_lines.get(opening.group(1), []) if opening else []
                nearest = bisect.bisect_right(closes, li)
                if opening and not _PERSON_TAG.search(opening.group(1)) and nearest < len(closes) and \
                        closes[nearest] < li + 200:  # its closing tag follows within 200 lines
                    labels[first.index], enclosing = {D}, opening.group(1)
                    continue
                bare_label = len(line) == 1 and _input_label_line(first.text) or first.text.rstrip().endswith(":")
            elif mode is D and (first.cues - ({D, A} if bare_label else {D})) and not PLACEHOLDER.search(first.text):
                mode = None  # the material under a bare label ("[User question]") may read like background
            while checked < first.index:  # whether a task was stated before this line (one pass over the prompt)
                stated = stated or D in labels.get(checked, ()) and checked not in headings
                checked += 1
            self._label_line(line, section, mode, labels, stated, prohibitions)
            carry, announcer = _announced(line[-1], labels), line[-1].index
            pasted_below = carry == {D} and opens_material(line[-1].text) and \
                not re.search(r"\b(?:key|legend)\b", line[-1].text, re.I)  # "Here's the label:" above its lines
            if labels[line[-1].index] == {E} and line[-1].text.rstrip().endswith(":"):
                mode = E  # "… Here is an example of the style I like:" at the end of a paragraph
        _task_in_its_first_form(lines, labels)
        _label_trailing_data(lines, labels)
        _label_named_inputs(lines, labels, blank_before)
        _label_problem_statement(lines, labels)
        _continue_quotations(lines, labels)
        _describe_persona(lines, labels)
        if _ensure_task(lines, labels):  # the task it found may point at material or name it
            _label_trailing_data(lines, labels)
            _label_named_inputs(lines, labels, blank_before)
        _label_pointed_items(lines, labels, blank_before)
        label_enumerated_entries(lines, labels, blank_before)
        label_answer_options(lines, labels, blank_before)
        label_test_cases(lines, labels)
        label_fenced_material(lines, labels)
        label_material_above(lines, labels, blank_before)
        label_text_to_rework(lines, labels, blank_before)
        label_email_bodies(lines, labels, blank_before)
        label_data_blocks(lines, labels, blank_before)
        label_announced_items(lines, labels)
        label_pasted_records(lines, labels)
        label_pasted_code(lines, labels, raw, blank_before)
        label_material_the_task_names(lines, labels, blank_before)
        _label_fields_written_from(lines, labels, blank_before)
        label_document_headings(lines, labels, blank_before)
        label_style_examples(lines, labels, blank_before)
        label_consulted_tables(lines, labels)
        label_consulted_guides(lines, labels, blank_before)
        _label_run_on_messages(lines, labels)
        _label_opening_greeting(lines, labels)
        _label_chat_history(lines, labels, blank_before)
        _label_pasted_paragraph(lines, labels, blank_before)
        label_said_pasted_below(lines, labels, blank_before)
        label_numbered_entries_below(lines, labels, blank_before)
        label_record_pointed_at(lines, labels, blank_before)
        label_query_schemas(lines, labels)
        _label_markers(lines, labels, sentences)
        _label_dspy_sections(lines, labels)
        _label_untitled_headings(lines, labels)
        _label_material_labels(lines, labels)
        _label_asides(lines, labels)
        label_configured_prompt(lines, labels, raw)
        label_prompt_to_rework(lines, labels, blank_before)
        return Dissection.from_labels(prompt, sentences, labels, self.name)

    @staticmethod
    def _ends_examples(first: Sent, line: list[Sent], li: int, lines: list[list[Sent]],
                       blank_before: dict[int, bool]) -> bool:
        """Whether ``line`` leaves an example block: a new instruction, the open query, or a new section."""
        number, above = _NUMBERED.match(first.text), _NUMBERED.match(lines[li - 1][0].text) if li else None
        if number and above and int(number[1]) == int(above[1]) + 1 and not blank_before[first.index]:
            return False  # "2. Group it with other plants …" under "1. Switch to filtered water.": the same answer
        next_is_slot = li + 1 < len(lines) and PLACEHOLDER.fullmatch(lines[li + 1][0].text.strip("\"'“” "))
        if PLACEHOLDER.search(first.text) or (first.input_label and (li == len(lines) - 1 or next_is_slot or
                                                                     first.text.lstrip().startswith("#"))):
            return True  # the open query, its slot, or a markdown heading over the input ("## Ticket")
        if blank_before[first.index] and len(line) == 1 and first.text.rstrip().endswith(":") and \
                (first.input_label or bare_label(first.text) and not first.cues):
            return True  # "Reports:" after the examples, a blank line between: the input's label
        if re.match(r"^\W*now\b", first.text, re.I) or \
                (is_imperative(first.text) and key_value(first.text) is None and not first.input_label and
                 not _ARROW_PAIR.search(first.text)) \
                or _ITEMS_TO_DO.match(first.text):
            return True
        quoted = re.match(r"^[^:\n]{1,30}:\s*[\"“]", first.text)  # 'Broker: "Any chance …"': a line of an example
        return blank_before[first.index] and not quoted and \
            bool(first.cues - {E} or re.match(r"^\W*no\s+[a-z]", first.text, re.I))

    @staticmethod
    def _label_line(line: list[Sent], section: Component | None, mode: Component | None,
                    labels: dict[int, set[Component]], task_stated: bool, prohibitions: bool) -> None:
        row = len(line) > 1 and table_row(line)  # a row the splitter cut at ". " inside a cell
        own = [{D} if row else set(m.cues) or ({D} if DATA_ROW.match(m.text) else set()) for m in line]
        if section is A:  # a statement under a background heading ("Name changes cost €45") is no instruction
            for o, m in zip(own, line):
                foreign_task = languages.TASK_FIRST.match(m.text) and not languages.NEGATION.search(m.text)
                if D in o and (prohibitions or not is_imperative(m.text) and not foreign_task) \
                        and not m.input_label and not m.final:
                    o.discard(D)
        for o, m in zip(own, line):
            if m.input_label and not (section is not None and m.text.startswith("```")):
                key = key_value(m.text)
                form = cues_of(key[0]) & {O} if key and key[1] and " " in key[0] and is_imperative(key[0]) else set()
                o.clear()
                o.update({D} | form)
        block = D if mode is D and not any(o & {R, E, O} for o in own) else _line_component(line, own, section)
        if block is None and task_stated:
            own = [_later_instruction(o, m) for o, m in zip(own, line)]
        previous: set[Component] = set()
        after_input = False
        for o, m in zip(own, line):
            if after_input and not o & {R, E, O}:
                o = {D}  # the rest of the task's input
            after_input = after_input or m.input_label
            if m.weak_role and not o:
                o = {R} if block is R else {A}
            if block is A and D in o and (QUESTION.search(m.text) or opens_material(m.text) or is_imperative(m.text)):
                got = o  # the user's own question or pointer amid the background they give
            elif block is R and section is not R and not o and not CLOSING_TAG.match(m.text) and \
                    (not _SECOND_PERSON.search(m.text) or _USERS_SUBJECT.match(m.text)):
                got = {A}  # a fact in the persona's paragraph ("Returns are accepted within 30 days.") is background
            elif block is D and section is D and o == {A}:
                got = {A}  # a rule or condition under the task's heading ("If the documents don't say, say so.")
            elif block is None and section is O and o <= {D} and not m.input_label and not QUESTION.search(m.text) and \
                    not re.match(r"\s*\d+[.)]\s", m.text) and not opens_material(m.text):
                got = {O}  # an instruction under the form's heading ("## Output" + "Show edits as unified diffs.")
            elif section is O and _HOUSE_CONVENTION.match(m.text):
                got = {A}  # "- We do not use courtesy titles except in obituaries." under "# House style": a fact
            elif o == {E} and m is line[-1] and m.text.rstrip().endswith(":"):
                got = {E}  # "… on move-in day. Here's one we liked from last year:" opens the example below
            elif block is not None:
                got = {D} if block is D and mode is D else \
                    {block} | (o - {A} if block is O and section is O else o)  # the input is data; a style rule is form
            elif mode is D and not (o - {D}):
                got = {D}
            elif not o and E in previous:
                got = {E}
            else:
                got = o or {A}
            labels[m.index] = got
            previous = got


#: A convention the user's house keeps, stated as a fact: "We use …", "We never use …", "We do not use …".
_HOUSE_CONVENTION = re.compile(r"^\W*we\s+(?:never\s+|do not\s+|don't\s+)?use\b", re.I)
#: A numbered item: "2. Check the roots …".
_NUMBERED = re.compile(r"^\s*(\d{1,2})[.)]\s")
#: The people the persona serves, as the subject: "Passengers reach you after …", "Callers are often driving …".
_USERS_SUBJECT = re.compile(r"^\W*(?:the\s+|our\s+|most\s+)?(?:users?|customers?|clients?|patients?|students?|"
                            r"passengers?|callers?|guests?|members?|employees?|engineers?|developers?|residents?|"
                            r"visitors?|travell?ers?|parents?|learners?|shoppers?|buyers?|tenants?|people)\b", re.I)
#: The persona addressed: its traits are Role ("You believe every student can get there").
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)


#: The words of a heading on the persona itself ("## Role — support assistant"), which opens a section of persona.
_PERSONA_WORDS = re.compile(r"\b(?:role|persona|identity|who you are|character)\b", re.I)
#: An item of a block: a code fence, a heading, a bullet, a number or letter ("2.", "(b)"), a JSON object, a CSV row,
#: a "key: value" field, a quotation.
_ITEM = re.compile(r"^\s*(?:```|#{1,6}\s|\*\*|[-*•]\s|\d{1,2}[.)]\s|\(?[a-hA-H]\)\s|\(\d{1,2}\)\s|[{\[]|[}\]],?\s*$|"
                   r"[^\s,]+(?:,[^\s,]*){2,}$|\w[\w ,]{0,29}:\s|[a-z_]{1,30}:$|" + OPENING_QUOTE + ")")


#: A heading over things not to do: "## Things we don't do", "Never:", "<prohibited>".
_PROHIBITIONS = re.compile(r"\b(?:don'?t|do not|never|avoid|not allowed|prohibited|forbidden|off[- ]limits|must not)\b",
                           re.I)


def _block_item(text: str) -> bool:
    return bool(_ITEM.match(text))


def _plain_data(line: list[Sent]) -> bool:
    """A line of pasted data with no cue, no field and no user speaking ("Calories 260" under "Here's the label:")."""
    text = line[0].text
    return not any(m.cues or m.input_label for m in line) and not key_value(text) and \
        not text.rstrip().endswith((":", ".", "!", "?")) and not _ABOUT_ME.match(text)


def _prose(line: list[Sent]) -> bool:
    """A paragraph of three or more sentences that asks nothing (the speech under "here it is:")."""
    return len(line) >= 3 and not any(m.cues & {D, R, E} or m.input_label for m in line)


def _announced(sent: Sent, labels: dict[int, set[Component]]) -> set[Component] | None:
    """The component(s) a sentence ending in ":" gives the items below it ("Use this structure:", "Follow these
    steps:", "Here is the sales data:"); None for other sentences, headings and input labels."""
    if not sent.text.rstrip().endswith(":") or sent.input_label or heading_component(sent.text):
        return None
    if CONDITIONS_BELOW.search(sent.text):
        return {A}  # "Create a ticket … when:" above the conditions
    if re.search(r"\b(?:criteria|criterion|dimensions|rubric)\b[^.:]{0,60}:\s*$", sent.text, re.I) or \
            re.search(r"\b(?:against|per|according to) (?:these|the following|our|the)\s+(?:[\w-]+\s+){0,2}"
                      r"(?:guidelines|standards|principles|rules|checklist|policies)\b[^.:]{0,40}:\s*$",
                      sent.text, re.I):
        return {A}  # "… score the reply from 1 to 5 on each criterion:", "Check it against these guidelines:"
    if re.search(r"\b(?:one of|into|among)\s+(?:these|the following)\s+(?:[\w-]+\s+)?(?:categories|labels|classes|"
                 r"intents|buckets|tags|types)\s*:\s*$", sent.text, re.I):
        return {A}  # "Classify each customer message into one of these categories:" above the categories
    if re.search(r"\b(?:these|the following)\s+(?:[\w-]+\s+)?(?:tools|functions|actions|commands)\b.{0,80}:\s*$",
                 sent.text, re.I):
        return {A}  # "You can use these tools by replying with a JSON object …:" above the tools
    got = labels[sent.index]
    if got == {D, O}:  # "… and give it back as JSON:" above the fields: the items are the form;
        this = (re.search(r"\b(?:this|these)\b(?!\s+(?:json\s+|yaml\s+|xml\s+|csv\s+)?(?:structure|format|shape|"
                          r"layout|form|template|schema|order|keys|fields|columns|properties|attributes)\b)",
                          sent.text, re.I) or
                languages.POINTER.search(sent.text)) and \
            not re.search(r"following|folgende|suivant|siguiente|seguente|seguinte|volgende|следующ|następując|berikut",
                          sent.text, re.I)
        named = re.search(r"\bthe following\s+(?:\w+\s+){0,2}?(?:json|yaml|xml|csv|text|data|code|email|message|list|"
                          r"sentences?|paragraphs?|reviews?|records?|table|passage|article|document|snippet|function|"
                          r"query)\b", sent.text, re.I)
        return {D} if this or named else {O}  # "… for this one:", "Convert the following JSON to YAML:": material
    return got if len(got) == 1 and not got & {R, E} else None


def _continue_quotations(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A sentence that continues a quotation opened by the sentence before it on the same line (a quoted review, a
    disclaimer to end with) shares that sentence's labels; inline code after a task that points at it is its input."""
    for line in lines:
        open_quote = False
        for prev, m in zip(line, line[1:]):
            open_quote ^= sum(prev.text.count(q) for q in '"“”«»„') % 2 == 1
            if open_quote:
                labels[m.index] = set(labels[prev.index])
            elif re.fullmatch(r"\s*`[^`]+`\s*", m.text) and D in labels[prev.index] and POINTER.search(prev.text):
                labels[m.index] = {D}  # "what does this regex do? `^(?=.*\d).{8,}$`": the code it points at


#: A finite verb: the sentence states something ("Button labels must fit in 20 characters") rather than asking.
_FINITE = re.compile(r"\b(?:is|are|was|were|be|must|should|shall|will|would|can|could|may|might|need|needs|has|have|"
                     r"had|does|do|did)\b", re.I)


_RULE_OPENING = re.compile(r"^[\W\d]*(?:always|never|don'?t|do not|avoid|if|when|unless|only|"
                           r"you(?: are|'re)? (?:not|never|cannot|can't|must not|do not|don't)|you aren't)\b", re.I)


#: Where a message typed in lower case runs two sentences together: "… equals 1? my teacher said it does".
_RUN_ON = re.compile(r"(?<=[a-z0-9)][.?!])\s+(?=[a-z])")
#: The user's own situation: "my teacher said …", "already pushed it …", "thats what i got", "rust newbie here".
_OWN_SITUATION = re.compile(r"^\W*(?:i|i'm|im|i've|ive|my|we|we're|our|already|thats|that's|it's|its|\w+ newbie)\b",
                            re.I)


def _label_run_on_messages(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A question typed in lower case and run together with the user's own situation ("how do i undo my last commit?
    already pushed it to my branch") is the task and its background at once."""
    for m in (m for line in lines for m in line):
        parts = _RUN_ON.split(m.text)
        if len(parts) < 2:
            continue
        asked = [bool(QUESTION.search(p) or _UNMARKED_QUESTION.match(p)) for p in parts]
        if labels[m.index] == {D} and any(asked) and \
                any(_OWN_SITUATION.match(p) and not q for p, q in zip(parts, asked)) or \
                labels[m.index] == {A} and not m.cues - {A} and any(asked[1:]) and not all(asked):
            labels[m.index] = {A, D}  # the situation first, the question typed on after it: "… what am i doing wrong"


#: A question typed without its mark: "what am i doing wrong", "how do i fix it".
_UNMARKED_QUESTION = re.compile(r"^\W*(?:what|how|why|which|should|can|could|is|are|do|does)\b[^.!]*$", re.I)
#: A greeting or opener on its own: "Hi!", "Bonjour !", "Hey there,", "Quick question."
_GREETING = re.compile(r"^\W*(?:hi|hello|hey|hiya|bonjour|salut|hola|ciao|hallo|hoi|olá|hej|good (?:morning|afternoon|"
                       r"evening))(?: there| all| everyone)?\s*[!,.]?\s*$|^\W*quick question\s*[.:!]?\s*$", re.I)


#: A turn of a chat between a user and the assistant: (group "user") "User: …", "Human: …"; "Assistant: …", "AI: …".
_CHAT_TURN = re.compile(r"^\W*(?:(?P<user>user|human|customer|me)|assistant|ai|bot|model)\s*:", re.I)


def _label_chat_history(lines: list[list[Sent]], labels: dict[int, set[Component]],
                        blank_before: dict[int, bool]) -> None:
    """A prompt that is a chat ending on the user's latest turn, with no task stated before or after it: the turns
    up to the assistant's last reply are the chat so far (background); what the user says after it is the task."""
    turns = [(li, bool(m["user"])) for li, line in enumerate(lines) if (m := _CHAT_TURN.match(line[0].text))]
    replies = [li for li, user in turns if not user]
    if not replies or not turns[-1][1] or not turns[0][1] or turns[0][0] > replies[0] or \
            any(blank_before[line[0].index] for line in lines[turns[-1][0] + 1:]) or \
            any(D in labels[m.index] for line in lines[:turns[0][0]] for m in line):
        return
    latest = next(li for li, user in turns if user and li > replies[-1])
    for line in lines[turns[0][0]:latest]:
        labels.update((m.index, {A}) for m in line if E not in labels[m.index])


def _label_opening_greeting(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A greeting that opens the user's message ("Hi!", "Quick question.") belongs to the request it opens."""
    first = lines[0][0] if lines else None
    if first is not None and _GREETING.match(first.text) and labels[first.index] == {A} and \
            any(D in labels[m.index] for line in lines for m in line):
        labels[first.index] = {D}


def _task_in_its_first_form(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """The first creation request, before any Directive, is the task even when it speaks of the answer's form
    ("Write product descriptions for the three mugs below, each 50-70 words"); later ones are form alone."""
    for m in (m for line in lines for m in line):
        if D in labels[m.index]:
            return
        if labels[m.index] == {O} and _CREATE.match(m.text):
            labels[m.index] = {D, O}
            return


#: A request to create the artefact: "Write …", "Please draft …".
_CREATE = re.compile(r"^\W*(?:please\s+)?(?:write|create|draft|generate|compose|produce)\s", re.I)


def _ensure_task(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> bool:
    """A prompt states a task: when no sentence came out Directive, the first whose own words give one (an
    imperative shaped like a format rule: "Give me five names, as a comma-separated list.") is the Directive too.
    Whether it labelled one."""
    sents = [m for line in lines for m in line]
    if any(D in labels[m.index] for m in sents):
        return False
    said = [m for m in sents if (DIRECTIVE.search(m.text[:400]) or is_imperative(m.text)) and
            not labels[m.index] & {E, R} and not HEADING.match(m.text)]
    # rather not a rule ("Never give the full solution") when another instruction is there
    m = next((m for m in said if not _RULE_OPENING.match(m.text)), said[0] if said else None)
    if m is not None:
        labels[m.index] = labels[m.index] | {D}
        return True
    for m in sents:  # a question without its mark: "how long do i boil an egg for a jammy yolk"
        if re.match(r"^\W*(?:how|what|why|where|when|which|who|can|could|should|is|are|do|does)\b", m.text, re.I):
            labels[m.index] = labels[m.index] | {D} if m.cues else {D}  # no cue: the background default was a guess
            return True
    # a question amid a chat message ("quick one: how do I …?"), else the first sentence that is no persona, example or
    # heading, unless a cue read it and it states something ("5 LinkedIn post hooks for our webinar, max 15 words
    # each", "poem about my grandad's allotment, he passed last spring."); one that no cue read is the task alone
    persona = any(R in labels[m.index] for m in sents)  # a persona may stand without a task
    m = next((m for m in sents if "?" in m.text and not labels[m.index] & {E, R}), None) or \
        next((m for m in sents if not persona and not labels[m.index] & {E, R} and not HEADING.match(m.text) and
              not _GREETING.match(m.text) and
              not (m.cues and _FINITE.search(m.text))), None)  # "Button labels must fit in 20 characters." states
    if m is not None:
        labels[m.index] = labels[m.index] | {D} if m.cues else {D}
    return m is not None


#: The same in Chinese and Japanese ("下面这封邮件", "以下のメール"), where words have no boundaries to match.
_CJK_POINTER = re.compile(r"下面|以下|如下|下記|次の|这封|這封|这段|這段|この")


def _label_trailing_data(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """Data lines that close the prompt after an instruction pointing at them ("… from the data below", "continue
    this story:"), or that stand just above the open slot the answer fills ("Complex: …" above "Simple:"), are the
    task's input."""
    slot = bool(lines) and len(lines[-1]) == 1 and bool(OPEN_SLOT.match(lines[-1][0].text))  # "Simple:", "TL;DR:"
    end = own = len(lines) - slot
    while own > 0 and all(labels[m.index] == {A} and _ABOUT_ME.match(m.text) for m in lines[own - 1]):
        own -= 1
    if any(A in m.cues for line in lines[own:end] for m in line):
        end = own  # "I'm vegetarian if that matters." after the results: the user's background, not their data
    start = end
    for li in range(end - 1, -1, -1):
        if opens_material(lines[li][-1].text):
            return  # introduced material ("You are given the schema:") keeps the label its introduction gave it
        if any(m.cues - {A} or labels[m.index] != {A} or A in m.cues and
               (PROHIBITION.match(m.text) or _IF_SAY.match(m.text)) for m in lines[li]):
            break  # an instruction, a rule among them ("Do not mention the ticket number.", "If an item isn't on
            # the list, say you'll check with the buyer.") too
        if lines[li][-1].text.rstrip().endswith(":") and (_GLOSSARY.search(lines[li][-1].text) or
                                                          CONDITIONS_BELOW.search(lines[li][-1].text)):
            start = _list_end(lines, li + 1, end)  # "Glossary (…):", "Reject a joke if it:" and its items
            break
        start = li
    trailing = [m for line in lines[start:end] for m in line]
    earlier = [m for line in lines[:start] for m in line]
    pointed = any(D in labels[m.index] and (POINTER.search(m.text) or _CJK_POINTER.search(m.text) or
                                            _REWORKS_OURS.match(m.text) or
                                            MY_MATERIAL.search(m.text) and not any(t.cues for t in trailing) or
                                            _EACH_ITEM.search(m.text) and end - start > 1) or
                  _THIS_DOCUMENT.search(m.text) for m in earlier) or \
        bool(earlier) and _announced(earlier[-1], labels) == {D}  # "Translate …, keep the tags as they are:"
    if trailing and (slot or pointed):
        for m in trailing:
            labels[m.index] = {D}


#: A rule for what to say when the material falls short: "If an item isn't on the list, say you'll check …".
_IF_SAY = re.compile(r"^\W*if\b[^,.]{3,80},\s*(?:say|tell (?:them|the \w+))\b", re.I)
#: A task taking items one by one: "Label each comment …", "Grade the condition of each device …".
_EACH_ITEM = re.compile(r"\beach\s+(?:[\w-]+\s+){0,2}?(?:comment|device|line|item|entry|row|record|message|review|"
                        r"booking|order|job|ticket|email|note|product|sku|event|reading|request)s?\b", re.I)
#: A task reworking the user's own text, named: "Translate our price list into Spanish", "Proofread my menu".
_REWORKS_OURS = re.compile(r"^\W*(?:please\s+)?(?:translate|proofread|rewrite|reword|reformat|tidy up|clean up|"
                           r"correct)\s+(?:our|my)\s", re.I)
#: The user's document named as the one at hand, whatever the sentence does: "Got this bill after my dog's stay",
#: "These are hourly entry counts …", "I paste the log from controller", "fuel dock log from saturday, can you …".
_THIS_DOCUMENT = re.compile(r"\b(?:this|these)\s+(?:(?:is|are)\s+)?(?:[\w-]+\s+){0,2}?(?:bills?|invoices?|"
                            r"statements?|receipts?|logs?|transcripts?|exports?|spreadsheets?|charges|transactions|"
                            r"(?:stock |order )?lines|entries|rows|records|counts|readings|jobs|bookings|replies)\b|"
                            r"\b(?:i(?:'m| am)? past(?:e|ing)|i(?:'ve| have) pasted)\b|"
                            r"^\W*(?:[\w'-]+\s+){0,3}?(?:logs?|lists?|exports?|bookings|readings|notes|entries)\s+"
                            r"(?:from|for|of)\b", re.I)  # "fuel dock log from saturday, can you tell me …"
#: What an assistant helps people with, a topic, not the input: "Help customers who message us with repair prices".
_HELP_WITH = r"\b(?:help|assist|support)\b[^.]{0,60}?\bwith\s+(?:[\w-]+\s+){0,2}?"
#: A label over the items the task is still to work on: "Cards needing flavour text:", "Products to describe:".
_ITEMS_TO_DO = re.compile(r"^\W*[\w' -]{1,40}?\b(?:needing|that (?:still )?need|still to|to (?:write|describe|"
                          r"translate|review|rewrite|summari[sz]e|classify|label|grade|score|fix|check|name|caption))\b"
                          r"[^:]{0,40}:\s*$", re.I)
#: A label over the renderings a translation must use: consulted, not translated.
_GLOSSARY = re.compile(r"\b(?:glossary|terminology|termbase|term list|glossaire|glosario|glossar|glossario)\b", re.I)
#: The user speaking about themselves: background, not pasted material ("I'm on Ubuntu 22.04 …").
_ABOUT_ME = re.compile(r"^\W*(?:i|i'm|i've|i'd|my|we|we're|our|me)\b", re.I)


def _label_pasted_paragraph(lines: list[list[Sent]], labels: dict[int, set[Component]],
                            blank_before: dict[int, bool]) -> None:
    """A paragraph without cues pasted between a request that points at it and what follows ("this is the intro to
    my essay. Can you give me feedback?" + the intro + "Please don't rewrite it", "Please convert these references
    …" + the references, one a line + "Output just the corrected list") is the task's input."""
    for li in range(1, len(lines)):
        first, before = lines[li][0], lines[li - 1]
        if not blank_before[first.index]:
            continue
        end = paragraph_end(lines, blank_before, li)  # the paragraph's lines, up to the next blank line
        bare = any(D in labels[m.index] and _BARE_THIS.search(m.text) for m in before)  # "make this into a SOAP note"
        if end == len(lines) and not bare or _ABOUT_ME.match(first.text) or HEADING.match(first.text) or \
                first.reference or key_value(first.text) or \
                re.match(r"\s*(?:[-*•]|\d+[.)])\s|\w[\w ]{0,20}\s=\s", first.text):
            continue  # a heading, a list, a field ("About me: …", "Audience = …") or a slot is no pasted paragraph
        points = any(POINTER.search(m.text) or MY_MATERIAL.search(m.text) or languages.POINTER.search(m.text) or
                     _CJK_POINTER.search(m.text) for m in before) and \
            not any(_INTO_CLASSES.search(m.text) for m in before)  # what "these categories" mean is consulted
        block = [m for line in lines[li:end] for m in line]
        if end > li + 1:  # several lines: only what the task points at by name ("these references", not "these tools")
            last = _POINTING.search(before[-1].text)  # the paragraph's last sentence decides, if it points
            if last:
                named = [last] if D in labels[before[-1].index] and last[1] else []
            else:
                named = [p for m in before if D in labels[m.index] for p in [_POINTING.search(m.text)] if p and p[1]]
            points = bool(named) and not any(CONSULTED_NOUN.fullmatch(p[1]) or REFERENCE.search(p[1]) for p in named) \
                or bare or any(D in labels[m.index] and _CJK_POINTER.search(m.text) for m in before)  # no name
        if points and any(D in labels[m.index] for m in before) and \
                all(labels[m.index] == {A} and not m.cues or bare and labels[m.index] <= {A, D} and m.cues <= {A, D}
                    for m in block):
            for m in block:
                labels[m.index] = {D}


#: The classes a task sorts into, named by a pointer: "… into one of these categories:", "Tag it with these labels".
_INTO_CLASSES = re.compile(r"\b(?:into|one of|among|with|from)\s+(?:these|the following)\s+(?:[\w-]+\s+)?(?:categories|"
                           r"labels|classes|intents|buckets|tags|types)\b", re.I)


def _label_named_inputs(lines: list[list[Sent]], labels: dict[int, set[Component]],
                        blank_before: dict[int, bool]) -> None:
    """A "Key: value" line left as background whose key the task names ("Premise: …" under "Does the premise entail
    the hypothesis?", "Idea: …" under "Turn the idea I give you into a prompt") is the task's input, with the lines
    that continue it; so is a block under a bare label the task names ("Adjuster notes:" under "Read the claimant's
    statement and the adjuster's notes and list …"), up to the next blank line or the end of its list."""
    task = " ".join(m.text for line in lines for m in line if D in labels[m.index] and key_value(m.text) is None)
    owned = re.sub(r"(?<=\w)['’]s\b", "", task)  # "the adjuster's notes" names "Adjuster notes:"
    below = bool(re.search(r"\b(?:below|following)\b", task, re.I))  # titles without a colon count only then
    consulted = works_by([task])  # "Recommend up to two straps from the range": the range is consulted
    named = block = False
    listed = False  # the block under a bare label is a list: a line that is no item ends it
    heads: dict[str, bool] = {}  # whether the task names a label's noun, a key, asked once each
    keys: dict[str, bool] = {}
    label_above = False  # the line above is a bare label: a blank line between it and its block does not end it
    for li, line in enumerate(lines):
        kv = key_value(line[0].text)
        item = bool(_LIST_ITEM_OR_QUOTE.match(line[0].text))
        if blank_before[line[0].index] and not label_above or block and listed and not item:
            named = block = False
        label_above = False
        listed = item
        label = line[-1]  # alone on its line, or closing the task's paragraph ("Turn my notes into … Notes:")
        titled = below and not block and len(line) == 1 and bool(_TITLE_OVER_LIST.fullmatch(label.text)) and \
            li + 1 < len(lines) and bool(_LIST_ITEM_OR_QUOTE.match(lines[li + 1][0].text) or
                                         key_value(lines[li + 1][0].text))  # "Notes from Ava (CEO)"
        if (bare_label(label.text) or titled) and labels[label.index] <= {A} and \
                (len(line) == 1 or D in labels[line[0].index]):
            head = head_noun(label.text)
            if head not in heads:  # not what the answer may only draw on ("only the facts in our security profile")
                heads[head] = bool(re.search(_ACTED_ON + re.escape(head) + r"s?\b", owned, re.I)) or \
                    not (label.reference or REFERENCE.search(label.text) or CONSULTED_NOUN.fullmatch(head) or
                         head.lower() in consulted) and \
                    bool(re.search(_NOT_CONSULTING + _NAMING + re.escape(head) + r"s?\b", owned, re.I)) and \
                    not re.search(r"\bonly\b[^.]{0,40}\b" + re.escape(head) + r"s?\b", owned, re.I) and \
                    not re.search(_HELP_WITH + re.escape(head) + r"s?\b", owned, re.I)
            named = block = label_above = heads[head]
            if named:
                labels[label.index] = {D}
            continue
        if kv is not None and not block:
            key = kv[0]
            if key not in keys:  # asked once per key: a few-shot block repeats its keys thousands of times
                keys[key] = len(key.split()) <= 2 and not REFERENCE.search(key) and bool(re.search(
                    r"\b(?:the|this|these|each|both|two|my)\s+(?:\w+\s+)?" + re.escape(key) + r"s?\b", owned, re.I))
            named = bool(kv[1]) and keys[key] and not line[0].reference \
                and not line[0].text.lstrip().startswith(("-", "*", "•"))
        if named:
            for m in line:
                if labels[m.index] == {A} and (block or not (m.cues - {A} if kv is not None else m.cues)):
                    labels[m.index] = {D}


#: A title over a list, without a colon: "Numbers", "Notes from Ava (CEO)".
_TITLE_OVER_LIST = re.compile(r"\s*[A-Z][\w'&/-]*(?: [\w'&/-]+){0,4}(?: \([^()\n]{1,30}\))?\s*")
#: Not the words of consulting ("against the rubric", "using the notes", "by querying the data mart") or of an
#: addressee ("to the prospect").
_NOT_CONSULTING = (r"(?<!against )(?<!using )(?<!use )(?<!per )(?<!of )"
                   r"(?<!(?<!reply )(?<!respond )(?<!responding )(?<!replying )to )"  # "reply to the email" acts on it
                   r"(?<!querying )(?<!query )(?<!searching )(?<!search )")
#: A task working through its material item by item, whatever it is called: "Write an annotation for each of the
#: sources below", "Convert these references to BibTeX".
_ACTED_ON = (r"\b(?:(?:each|every|all|both) of (?:the|these|those|my|our)|(?:convert|format|annotate|fix|correct|"
             r"proofread|translate|rewrite|clean up|reformat) (?:the|these|those|my|our|all the))"
             r"\s+(?:[\w-]+\s+){0,2}?")
#: How the task names its material: "the notes", "my biology notes", "the hiring manager's notes".
_NAMING = (r"\b(?:the|this|these|each|both|two|my|our|your|his|her|their|(?<=paste )an?|(?<=pasting )an?)\s+"
           r"(?:(?:[\w-]+\s+){0,2}?|(?:(?!(?:the|an?|this|these|my|our|your|their|each|using|use|against|per|of|"
           r"to|querying|query|searching|search)\s)[\w-]+\s+){3})"  # "the new patient form text", not "each rep using"
           r"(?:[\w-]+\s+\([\w -]{1,20}\)\s+)?")  # "… a conjunction data message (CDM) summary"


#: The user speaking of themselves (or greeting): their background, not a problem to solve.
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|my|me|we|our|us|hi|hello|hey|je|j'\w+|moi|mon|ma|mes|nous|notre|bonjour|salut|"
                           r"ich|mein|meine|wir|unser|hallo|yo|mi|mis|tengo|nosotros|nuestro|hola|eu|meu|minha|olá|"
                           r"io|mio|mia|ho|ciao)\b", re.I)


#: A bullet, a number or an opening quotation mark at the start of a line.
_LIST_ITEM_OR_QUOTE = re.compile(r"^\s*(?:[-*•]\s|\d{1,2}[.)]\s|\[\d{1,3}\]\s|" + OPENING_QUOTE + ")")


def _list_end(lines: list[list[Sent]], start: int, stop: int) -> int:
    """The line after the list items (bullets, numbers, quotations) that run from line ``start``, ``stop`` at most."""
    while start < stop and _LIST_ITEM_OR_QUOTE.match(lines[start][0].text):
        start += 1
    return start


#: "this" standing alone for what the user pastes next: "fill this in pls", "is this real?", "translate this for me".
_BARE_THIS = re.compile(r"\bthis\b(?=\s*(?:(?:in|into|to|as|out|up|for me|pls|please|real|legit|correct|right)\b|"
                        r"[?!,.]|$))", re.I)
#: A task pointing at the items after it: "these references", "the following reviews", "this sequence" (a noun for
#: a list: "this student" points elsewhere), "Below are …", "the details below" (group 1: the noun pointed at).
_POINTING = re.compile(r"\b(?:the following|these)\s+(?:[\w-]+\s+){0,2}?(\w+)|\b(?:the following|these)\b|"
                       r"\bthis\s+(?:[\w-]+\s+){0,2}?(?:list|sequence|menu|plan|schedule|itinerary|setlist|programme|"
                       r"program|line-?up|rota|timetable|agenda|playlist|inventory|checklist|batch|queue|log|"
                       r"shortlist)\b|"
                       r"^\W*below (?:is|are)\b|"  # "Below are anonymised notes from 6 exit interviews …"
                       r"^\W*(?:please\s+)?(?:rewrite|translate|summari[sz]e|proofread|check|fix|edit|simplify|shorten|"
                       r"reword|correct) (?:them|it)\b|"  # "Rewrite them in plain English …" above the clauses
                       r"\b(?:details|specs|specifications|particulars|facts|figures|items)\s+below\b",
                       re.I)  # "Using the details below, write …" above "Price: £245,000"


def _label_pointed_items(lines: list[list[Sent]], labels: dict[int, set[Component]],
                         blank_before: dict[int, bool]) -> None:
    """The list or quotations right after a task that points at them ("Given the following product reviews,
    categorise each one …" above '1. "Arrived quickly!"') are the task's input, wherever they stand in the prompt."""
    for li, line in enumerate(lines):
        # the paragraph's last task sentence that points ("Format these references in APA. Where the DOI is …")
        last, pointed = next(((m, p) for m in reversed(line) if D in labels[m.index]
                              for p in [_POINTING.search(m.text)] if p), (line[-1], None))
        if not pointed or CONSULTED_NOUN.fullmatch(pointed[1] or "") or \
                _announced(last, labels) == {A}:  # "… on each of these dimensions:" lists what is consulted
            continue
        for lj in range(li + 1, len(lines)):
            first = lines[lj][0]
            kv = key_value(first.text)
            if blank_before[first.index] and lj > li + 1 or \
                    not (_LIST_ITEM_OR_QUOTE.match(first.text) or kv and kv[1] and len(kv[0].split()) <= 3):
                break
            if any(m.cues - {D, A} for m in lines[lj]):
                break
            for m in lines[lj]:
                if labels[m.index] == {A}:
                    labels[m.index] = {D}


#: A label over what is consulted: "Marking guidance:", "Customer's mortgage details (from the account system):".
_CONSULTED_LABEL = re.compile(r"\b(?:guidance|prospect|how to)\b|(?:daten|datos|données|dati)\b|\(from\b", re.I)


def _label_material_labels(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A bare label left as background right above material taken as the task's input ("Body:" above a pasted
    email's text, "Customer redline:" above a delimited clause) labels that input; a persona's "Shop details:" stay
    consulted."""
    persona = any(R in found for found in labels.values())
    for line, below in zip(lines, lines[1:]):
        text = line[0].text
        if len(line) == 1 and LABEL_ONLY.match(text) and labels[line[0].index] == {A} and not line[0].reference \
                and labels[below[0].index] == {D} and not LABEL_ONLY.match(below[0].text) and \
                not (names_consulted(text) or _PERSON_TAG.search(text) or _CONSULTED_LABEL.search(text) or
                     persona and re.search(r"\bdetails\b", text, re.I)):
            labels[line[0].index] = {D}
        elif not persona and line[-1].text.rstrip().endswith(":") and labels[line[-1].index] == {A} and \
                not line[-1].reference and not line[-1].cues - {A} and not names_consulted(line[-1].text) and \
                all(labels[m.index] == {D} and not m.cues for m in below):  # "Our produce supplier just sent this:"
            labels[line[-1].index] = {D}


#: A field line: "Pay: {hourly_rate} per hour", "Brand/model: Ping G425".
_FIELD_LINE = re.compile(r"^\s*[-*•]?\s*[^\W\d_][\w /&'()-]{0,30}:\s+\S")


def _label_fields_written_from(lines: list[list[Sent]], labels: dict[int, set[Component]],
                               blank_before: dict[int, bool]) -> None:
    """The field lines right under a request to write something ("Write a job posting for …" above "Pay: {rate} per
    hour", "Hours: …"; a blank line may stand between) are what it is written from: the task's input, not
    background; one line alone is that only as a slot ("Party details: {child_name}'s party, {date}"), not as a fact
    ("Key facts: …", "Our policy: …"). So is the block under a label right below the prompt's first request ("Write a
    job advert …" above "Details:" and its list), unless the label names background or what is consulted ("Key
    facts:", "Account summary:"), and a labelled block right under several fields ("Schedule of arrears:" + rows)."""
    first_task = next((li for li, line in enumerate(lines) if any(D in labels[m.index] for m in line)), None)
    for li, line in enumerate(lines):
        if not any(D in labels[m.index] and _CREATE.match(m.text) for m in line):
            continue
        fields = list(itertools.takewhile(lambda field: len(field) == 1 and bool(_FIELD_LINE.match(field[0].text)) and
                                          (field is lines[li + 1] or not blank_before[field[0].index]), lines[li + 1:]))
        if len(fields) > 1 or fields and PLACEHOLDER.search(fields[0][0].text):  # not one line of background
            labels.update((field[0].index, {D}) for field in fields if labels[field[0].index] == {A})
            after = li + 1 + len(fields)  # a labelled block right under the fields ("Schedule of arrears:" + rows)
            if len(fields) > 1 and after + 1 < len(lines) and len(lines[after]) == 1 and \
                    bare_label(lines[after][0].text) and not names_consulted(lines[after][0].text):
                block = lines[after:paragraph_end(lines, blank_before, after)]
                if all(labels[m.index] == {A} and (item is block[0] or not m.cues - {A})
                       for item in block for m in item):  # the label may read as a verb: "Schedule of arrears:"
                    labels.update((m.index, {D}) for item in block for m in item)
        elif li == first_task and li + 2 < len(lines) and len(lines[li + 1]) == 1 and \
                _names_what_is_written_from(lines[li + 1][0].text):
            end = paragraph_end(lines, blank_before, li + 1)
            items = _list_end(lines, li + 2, end)
            block = lines[li + 1:items if items > li + 2 else end]  # a list ends where its bullets do
            if all(labels[m.index] == {A} for item in block for m in item):
                labels.update((m.index, {D}) for item in block for m in item)


#: Labels over what a text may draw on rather than be written from, in words REFERENCE does not know ("Key facts:",
#: "Notes:", "About the role:"), and labels that say something ("Each individual is a dict like:").
_BACKGROUND_LABEL = re.compile(r"\b(?:facts|notes|summary|info|information|about|is|are|like)\b", re.I)


def _names_what_is_written_from(text: str) -> bool:
    """Whether a bare label may name what a text is written from ("Details:", "Events this month:")."""
    return bare_label(text) and not names_consulted(text) and not REFERENCE.search(text) and \
        not _BACKGROUND_LABEL.search(text)


def _label_asides(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A line the user opens with "For context, …" or "fyi" right after a pasted block is the user speaking again,
    background, not more of the block."""
    for line in lines:
        if FOR_CONTEXT.match(line[0].text) and labels[line[0].index] == {D}:
            labels.update((m.index, {A}) for m in line if labels[m.index] == {D} and not m.cues - {A})


#: A markdown heading and its level (the number of "#").
_MD_HEADING = re.compile(r"^\s*(#{1,6})\s+\S")


def _heading_level(text: str) -> int:
    """7 minus the "#" count of a markdown heading ("# Data": 6, "### Notes": 4); 0 for any other line."""
    m = _MD_HEADING.match(text)
    return 7 - len(m.group(1)) if m else 0


def _label_untitled_headings(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A markdown heading whose words name no component ("### Locked accounts", "## Project") takes the component of
    the section it opens, when one label set holds most of its sentences."""
    sents = [m for line in lines for m in line]
    for i, m in enumerate(sents):
        level = _heading_level(m.text)
        if not level or labels[m.index] != {A} or heading_topic(m.text) or \
                names_consulted(m.text):  # "## Tools" over their JSON specs
            continue
        section = []
        for n in sents[i + 1:]:
            if _heading_level(n.text) >= level:  # a heading as high as this one ends its section
                break
            section.append(frozenset(labels[n.index]))
        top = Counter(section).most_common(1)
        if top and len(top[0][0]) == 1 and top[0][1] * 2 > len(section):
            labels[m.index] = set(top[0][0])


#: DSPy's announcement of the answer's fields, in the section after the instructions.
_DSPY_FORMAT = re.compile(r"^\s*Follow the following format\.?\s*$")


def _label_dspy_sections(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A DSPy prompt: sections between "---" lines. The one that says "Follow the following format." describes the
    answer's fields (Output Formatting, with the separators); those after it are demonstrations, except the last,
    the open query."""
    sections: list[list[list[Sent]]] = [[]]
    separators: list[Sent] = []
    for line in lines:
        if len(line) == 1 and re.fullmatch(r"\s*-{3,}\s*", line[0].text):
            separators.append(line[0])
            sections.append([])
        else:
            sections[-1].append(line)
    at = next((i for i, sec in enumerate(sections) if sec and _DSPY_FORMAT.match(sec[0][0].text)), None)
    if at is None:
        return
    if at == len(sections) - 1:  # no separator after the fields: they end where the first field's key comes again
        keys = [(key_value(line[0].text) or ("",))[0] for line in sections[at]]
        again = next((j for j in range(2, len(keys)) if keys[1] and keys[j] == keys[1]), None)
        if again is not None:
            for m in (m for line in sections[at][:again] for m in line):
                labels[m.index] = {O}
        return
    for m in separators:
        labels[m.index] = {O}
    for i in range(at, len(sections) - 1):
        for m in (m for line in sections[i] for m in line):
            labels[m.index] = {O} if i == at else {E}


#: Chat-template tokens that close a turn or a block.
_CLOSING_MARKERS = re.compile(r"(?:\s|<\|im_end\|>|<\|eot_id\|>|<\|end\|>|<end_of_turn>|</s>|\[/INST\]|<</SYS>>|"
                              r"\{\{~?/(?:system|user|assistant)~?\}\}|</(?:system|system_prompt)>)+")


def _label_markers(lines: list[list[Sent]], labels: dict[int, set[Component]],
                   sentences: tuple[Sentence, ...]) -> None:
    """A sentence made only of chat-template tokens belongs to the turn it opens ("<|im_start|>system", "[INST]
    <<SYS>>": the labels of the next sentence with words) or closes ("<</SYS>>", "[/INST]": of the one before)."""
    sents = [m for line in lines for m in line]
    for i, m in enumerate(sents):
        if not m.text.strip():
            after = (n for n in sents[i + 1:] if n.text.strip())
            before = (n for n in reversed(sents[:i]) if n.text.strip())
            closing = _CLOSING_MARKERS.fullmatch(sentences[m.index].text)
            source = next(before, None) or next(after, None) if closing else next(after, None) or next(before, None)
            if source is not None:
                labels[m.index] = set(labels[source.index])


#: The slot of what the model is asked: "Question: {question}", "User message: {message}".
_ASKED = re.compile(r"^\W*(?:the\s+)?(?:(?:user|customer|human|client)(?:'s)?\s+)?(?:question|query|message|request|"
                    r"input|prompt)\b", re.I)


#: The persona named: "You are Brannoc Hale, the one-eyed innkeeper …", "Play the part of Dennis, a retired man …",
#: "Pretend you're my landlord, Gary.", "… a buyer called Gary".
_PERSONA_NAME = re.compile(r"^\W*(?i:you are|you're|you play|you will play|play the (?:part|role) of|"
                           r"pretend (?:you're|you are|to be))\s+"
                           r"(?:(?i:a|an|my|the)\s+[^.;]{0,60}?(?:\b(?i:called|named)\s+|,\s+))?([A-Z][\w'-]+)")


def _persona_name(text: str) -> str | None:
    """The name a persona sentence gives: "You are Brannoc …", "Meet Nova, the …", "Nova is the … assistant"."""
    m = _PERSONA_NAME.match(text) or NAMED_PERSONA.match(text)
    return next((g for g in m.groups() if g), None) if m else None


#: A trait of the persona addressed: "You sound relaxed …", "You think like a lawyer …", "You lost your son …".
_PERSONA_TRAIT = re.compile(r"^\W*(?:you\s+(?:sound|think|speak|talk|write|know|have (?:the|a|an)\b|used to|lost|love|"
                            r"believe|care|tend|grew up|were|spent|come across|explain|enjoy|hate|"
                            r"have (?:\w+ )?(?:years?|decades?) of|have (?:sailed|worked|served|taught|lived|run)\b)|"
                            r"you(?:'re|\s+are)\s+(?:familiar|fluent|patient|endlessly|naturally|famously|fiercely)\b|"
                            # the same in other languages: "Hablas con cariño …", "У тебя десять лет опыта …"
                            r"(?:tú\s+)?(?:hablas|tienes|conoces|sabes|te encanta|explicas)|"
                            r"(?:tu|vous)\s+(?:as|avez|connais|connaissez|parles|parlez|adores|aimes|sais|expliques)|"
                            r"(?:du|sie)\s+(?:hast|haben|kennst|kennen|sprichst|sprechen|liebst|weißt|erklärst)|"
                            r"(?:conosci|parli|hai|ami|sai|adori)|você\s+(?:tem|conhece|fala|adora|sabe)|"
                            r"(?:je|jij|u)\s+(?:hebt|heeft|kent|spreekt|houdt)|у (?:тебя|вас)|"
                            r"ты (?:знаешь|любишь|говоришь|умеешь)|(?:masz|znasz|mówisz|lubisz))\b"
                            r"(?!\s+(?:accesso|acceso|accès|acesso|zugriff|toegang|dostęp|есть доступ|доступ))", re.I)


#: The label of a system turn on a line of its own: "SYSTEM:", "[System]", "## System: Planner", "SYSTEM PROMPT - …".
_SYSTEM_TURN = re.compile(r"^\W*(?:system(?: prompt)?(?:\s*[:\-–—]\s*[^.!?]{0,50})?|system\s*\]|"
                          r"#+\s*system\b[^.!?]{0,40})\s*:?\s*$", re.I)


def _describe_persona(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """Sentences right after the persona that describe it ("You sound relaxed and confident …", and for a named
    persona "Brannoc is gruff …", "He served twenty years as a ship's cook …") are Role; so is the label of the
    system turn the persona opens ("SYSTEM:" above "You are …")."""
    sents = [m for line in lines for m in line]
    for m, n in zip(sents, sents[1:]):
        if labels[n.index] == {R} and _SYSTEM_TURN.match(m.text) and labels[m.index] <= {A, D}:
            labels[m.index] = {R}
    for i, m in enumerate(sents):
        if R not in labels[m.index]:
            continue
        name = _persona_name(m.text)
        subject = re.compile(r"^\W*(?:" + re.escape(name) + r"\b|(?:he|she|his|her)(?:'s)?\s)", re.I) if name else None
        for n in sents[i + 1:]:
            if labels[n.index] != {A} or n.cues or not (_PERSONA_TRAIT.match(n.text) or
                                                         subject is not None and subject.match(n.text)):
                break
            labels[n.index] = {R}


def _label_problem_statement(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """Statements that open the prompt and lead straight to its question or pasted code ("A train leaves Bristol at
    14:10 … At what time does …?", "This query fails with … ```sql") are the problem the task works on, unless they
    are the user's own background ("I", "my", "we"); so are the givens of an exercise anywhere ("A series RLC circuit
    has R = 50 Ω …" above "Find:", "In triangle ABC, AB = 13 …" above "Find the length HM.")."""
    sents = [m for line in lines for m in line]
    lead = list(itertools.takewhile(lambda m: labels[m.index] == {A} and not m.cues, sents))
    if lead and len(lead) < len(sents) and not any(_FIRST_PERSON.search(m.text) for m in lead):
        nxt = sents[len(lead)]
        if D in labels[nxt.index] and (QUESTION.search(nxt.text) or nxt.text.startswith("```")):
            for m in lead:
                labels[m.index] = {D}
    for run in runs([labels[m.index] == {A} and not m.cues and not m.reference and not _FIRST_PERSON.search(m.text)
                     and _PROSE.match(m.text) is not None and key_value(m.text) is None for m in sents]):
        after = [sents[i] for i in range(run[-1] + 1, min(run[-1] + 4, len(sents)))]
        if any(_GIVEN.search(sents[i].text) for i in run) and after and D in labels[after[0].index] and \
                any(D in labels[m.index] and (_SOLVE.match(m.text) or QUESTION.search(m.text)) for m in after):
            for i in run:
                labels[sents[i].index] = {D}


#: The givens of an exercise: a quantity with its unit or symbol, an equation, a statement quoted as said.
_GIVEN = re.compile(r"\b[A-Za-z]{1,3}\s?=\s?-?\d|(?<![£$€\d.,])\d+(?:[.,]\d+)?\s?(?:mm|km|kg|mg|mL|ms|Hz|kHz|Ω|"
                    r"µF|mH|kW|kN|Pa|kPa|°C|℃|mol|m|g|L|s|V|A|W|N|K|M)\b|\bsays:")  # not a sum: "£4.5m"
#: A sentence of prose: not a label, a list item, a row, a tag or a numbered passage.
_PROSE = re.compile(r"^\s*[^\W\d_][^:|]*[^:|\s]\s*$|^\s*[^\W\d_].*\bsays:")
#: What an exercise asks: "Find:", "Calculate the molarity …", "Berechne …", "Détermine …".
_SOLVE = re.compile(r"^\W*(?:find|calculate|compute|determine|estimate|prove|show that|solve|derive|work out|"
                    r"how (?:many|much|long|far)|what is|berechne|bestimme|ermittle|calcule|détermine|calcula|"
                    r"determina|calcola|bereken)\b", re.I)


def _later_instruction(own: set[Component], sent: Sent) -> set[Component]:
    """An imperative after the task is stated that speaks of the answer's form is Output Formatting alone, one that
    opens like a constraint is Additional Information; any other stays a Directive (a further step of the task)."""
    if D not in own or R in own or sent.input_label or not is_imperative(sent.text):
        return own
    if re.search(r"\b(?:below|following|above|attached|these|this (?:text|code|data|article|email|message))\b",
                 sent.text, re.I) or re.match(r"^\W*now\b|" + CLOSING_CONTENT, sent.text, re.I) or \
            AND_TELLS.search(sent.text) or _WRITES_NEW.match(sent.text) or _NUMBERED.match(sent.text):
        return own  # "… as a table and tell me how many boards to buy", "Write a two-line summary …", a numbered step
    if INFO.match(sent.text):
        return {A}
    return own - {D} if O in own else own


#: A further piece of writing asked for: "5. Write a two-paragraph mood summary …", "Draft a short reply …".
_WRITES_NEW = re.compile(r"^\W*(?:\d{1,2}[.)]\s*)?(?:write|draft|create|compose|generate|produce)\s+(?:me\s+)?"
                         r"(?:an?|one|two|three|\d+)\b", re.I)
#: A statement of what the artefact should be: "It should include comments", "The script should follow PEP 8".
_ARTEFACT_SHOULD = re.compile(r"^\W*(?:it|the \w+|this \w+)\s+(?:should|must|will|needs? to)\b", re.I)


def _line_component(line: list[Sent], own: list[set[Component]], section: Component | None) -> Component | None:
    """The component a whole line (paragraph) belongs to, if it has one."""
    if section is not None and section is not E:
        if not any(o - {section, A} for o in own):
            return section
    if R in own[0] and all(not (o - {R, A}) and not _RULE_OPENING.match(m.text) and not m.text.rstrip().endswith(":")
                           or m.weak_role for o, m in zip(own[1:], line[1:])):  # "You have these tools:" opens a list
        return R if len(line) > 1 else None
    directives = sum(D in o for o in own)
    carries_input = any(m.input_label or TASK_IN_LINE.search(m.text) for m in line)
    if directives and len(line) >= 3 and carries_input:
        return D
    opens_as_background = not own[0] & {R, D, E, O} or (INFO.match(line[0].text) and not own[0] & {R, D, E})
    asks = any(re.search(REQUEST + r"|\bi (?:need|want)\b", m.text, re.I) for m in line)  # a user's own request
    # instructions, form ones included, unless a statement about the artefact ("It should include comments")
    said = sum(bool(o & {R, D, E}) or O in o and not _ARTEFACT_SHOULD.match(m.text) for o, m in zip(own, line))
    if len(line) >= 2 and opens_as_background and said <= (0 if asks else 1) and section in (None, A):
        return A
    return None


def _uncased(text: str) -> bool:
    """Letters and none of them lower case: "WORLD", "사용 가능한 도구" (a script without case)."""
    return any(c.isalpha() for c in text) and not any(c.islower() for c in text)


def _bracket_section(text: str) -> bool:
    """A section heading in square brackets: in capitals (or a script without them) and naming no input ("[WORLD]",
    "[VOICE]", "[규칙]"), or naming the persona or the demonstrations ("[Calibration example]"); "[Response A]" and
    "[INPUT]" label material."""
    bracket = re.match(r"^\s*\[([^\]]{1,40})\]\s*$", text)
    return bool(bracket) and (_uncased(bracket.group(1)) and not INPUT_LABEL.match(bracket.group(1) + ":") or
                              heading_topic(bracket.group(1)) in (R, E))


def _input_label_line(text: str) -> bool:
    """A line that only labels the material below it: "[User question]", "<conversation>", "backup.sh:"."""
    tag = OPENING_TAG.match(text)
    heading = re.match(r"^\s*#{1,6}\s+(.+)$", text)
    bracket = re.match(r"^\s*\[([^\]]{1,40})\]\s*$", text)  # "[User question]", not "[WORLD]" or "[Example]"
    return bool(bracket and not _bracket_section(text) or FILE_LABEL.match(text) or
                (heading and not re.search(r"[:(),]", heading.group(1).rstrip(": ")) and
                 not REFERENCE.search(heading.group(1)) and
                 INPUT_LABEL.match(heading.group(1).rstrip(": ") + ":")) or
                (tag and INPUT_LABEL.match(tag.group(1).replace("_", " ") + ":") and
                 not re.search(REFERENCE.pattern + r"|document", tag.group(1), re.I)))  # <document>: retrieved


def _only_data_after(lines: list[list[Sent]]) -> list[bool]:
    """For each line, whether every sentence after it is data (no cue of its own, or a placeholder; no heading) and
    there is at least one; computed from the end in one pass."""
    data_from = [True] * (len(lines) + 1)  # lines[i:] are all data
    for i in range(len(lines) - 1, -1, -1):
        data_from[i] = data_from[i + 1] and all((not m.cues or PLACEHOLDER.search(m.text)) and
                                                not HEADING.match(m.text) for m in lines[i])
    return [i + 1 < len(lines) and data_from[i + 1] for i in range(len(lines))]


#: The label of the user's turn or request: "User: {question}", "Customer message: {message}".
_USER_TURN = re.compile(r"^\W*(?:the\s+)?(?:user|customer|human|visitor|player|guest|caller|traveller|member|client|"
                        r"question|message|query|request|input|nachricht|frage|kunde|mensaje|pregunta|cliente|"
                        r"messaggio|domanda|mensagem|pergunta|vraag|bericht|klant)\b(?!\s+(?:spotlight|name|id|"
                        r"number|type|tier|status|level|segment|count|profile|details|info|history)\b)[\w' ]{0,20}:",
                        re.I)


#: An entry named by an identifier in a list of things consulted: "search_flights: …", "- get_order(id): …".
_NAMED_ENTRY = re.compile(r"^[\s\-*•]*`?[a-z]\w*(?:\([^()]*\))?`?\s*(?::|\s[-–—])\s")


#: The slot of the conversation the model takes part in: "{chat_history}", "{conversation_history}".
_CHAT_SLOT = re.compile(r"conversation|chat|dialog|transcript|messages", re.I)


def _consulted_slot(text: str) -> bool:
    """A bare slot named for what the model consults: "{retrieved_articles}", "{context}" (not "{chat_history}")."""
    return bool(PLACEHOLDER.fullmatch(text.strip()) and REFERENCE.search(text.replace("_", " ")) and
                not _CHAT_SLOT.search(text))


#: The slot of the task itself: "Task: {task}", "Problem the student is working on: {problem}".
_TASK_SLOT = re.compile(r"^\W*(?:the\s+)?(?:user'?s\s+)?(?:task|instructions?|goal|objective|problem|assignment)\b",
                        re.I)


def _key_slot(text: str) -> bool:
    """A field whose value is a slot: "Plan: {plan_name}", 'Player says: "{line}"'."""
    key = key_value(text)
    return bool(key and PLACEHOLDER.fullmatch(key[1].strip("\"'“”")))


#: What a slot holds when the model works on it: a message, a question, a text, code ("{question}", "{ticket}").
_MESSAGE_SLOT = re.compile(r"message|question|query|input|text|request|ticket|review|conversation|transcript|"
                           r"(?<![^\W_]_)(?<![^\W_]_e)e?mail(?![_ ]?address)|"  # not "{manager_email}", an address
                           r"comment|post|code|diff|document|essay|answer|response|reply|content|draft|article|"
                           r"description|problem|task|utterance|prompt|instruction|claim|passage|thread|notes|data|"
                           r"rows|table|csv|json|report|letter|story|sentence|topic|item|product|features|specs|body|"
                           r"title|issue|sms|complaint|situation|enquiry|inquiry",
                           re.I)
#: An assistant that serves people who write to it: "You help Contoso employees with …", "You are the concierge …".
_SERVES = re.compile(r"\byou\s+(?:help|assist|support|answer|serve|talk (?:to|with)|chat with)\b|\b(?:help|assist|"
                     r"support)\s+(?:our\s+|the\s+)?(?:customers?|users?|members?|patients?|employees?|guests?|"
                     r"passengers?|callers?|students?|residents?|clients?|travell?ers?|learners?|runners?|pupils?|"
                     r"tenants?|parents?|shoppers?|buyers?|drivers?)\b|"
                     r"\byou(?: are|'re|’re) (?:(?-i:[A-Z])\w+, )?(?:an?|the) [\w\s'-]{0,40}?"  # "You're Ana, a …"
                     r"(?:assistant|agent|bot|concierge|coach|tutor|helper)\b",
                     re.I)


#: A line that opens with a rule of dashes or equals signs: "--- Extract: Bellmore Quarry Blasting Procedure ---".
_RULED = re.compile(r"\s*(?:-{3,}|={3,})")


def _naming_words(label: str) -> set[str]:
    """The words a label may name its block by: its first word ("[Extract 2 – Clause 4.3]") and its head noun."""
    words = re.findall(r"[^\W\d_]+", label.lower())
    return {words[0], head_noun(label)} if words else set()


def _record_ids(prompt: str, sentences: tuple[Sentence, ...]) -> list[int]:
    """For each sentence, the id of the block of "Key: value" lines it belongs to (consecutive lines, no blank line
    between them); other sentences get an id of their own."""
    ids: list[int] = []
    for i, s in enumerate(sentences):
        joined = i > 0 and prompt.count("\n", sentences[i - 1].end, s.start) == 1 and \
            key_value(s.text) is not None and key_value(sentences[i - 1].text) is not None
        ids.append(ids[-1] if joined else i)
    return ids


def _lines(prompt: str, sentences: tuple[Sentence, ...]) -> list[list[Sent]]:
    """Sentences grouped by line, with their cue features."""
    lines: list[list[Sent]] = []
    reference_next = False
    # the last slot for the input ("User: {question}", "Text: {text}", "{conversation}"); the "Key: {slot}" fields
    # above it ("Plan: {plan_name}", "Country: {country}") hold facts about the setting
    slots = [i for i, s in enumerate(sentences) if PLACEHOLDER.search(s.text) and (
        _USER_TURN.match(s.text) or INPUT_LABEL.match(s.text.lstrip("- ")) or PLACEHOLDER.fullmatch(s.text.strip()) or
        (i == len(sentences) - 1 and _key_slot(s.text)))]  # the prompt ends on the input: "Learner: {message}"
    input_slot = max(slots, default=-1)
    # an assistant serving people, with no slot for what they write: its "Key: {slot}" fields are their record
    serving = not any(_MESSAGE_SLOT.search(m) for s in sentences for m in PLACEHOLDER.findall(s.text)) and \
        any(_SERVES.search(s.text) for s in sentences)
    record = _record_ids(prompt, sentences)  # fields in one block with the material's slot belong to the material
    material_records = {record[j] for j in slots if not _USER_TURN.match(sentences[j].text)}
    worked_by = works_by((s.text for s in sentences), only=True)  # "… using only the policy extracts below"
    for i, s in enumerate(sentences):
        last = i == len(sentences) - 1
        key = key_value(s.text)
        key_slot = _key_slot(s.text)
        # a quoted value under a plain label: 'Dictation: "Forty-two-year-old male …'
        quoted = bool(key and len(key[1]) > 20 and key[1][:1] in "\"“«„" and not cues_of(key[0]))
        bare = s.text.lstrip("# ")  # "### Input:" on its own line labels the input below it
        nxt = sentences[i + 1].text.strip("\"'“” ") if not last else ""
        is_input = bool(INPUT_LABEL.match(s.text) or (bare != s.text and bare.rstrip().endswith(":") and
                                                      INPUT_LABEL.match(bare)) or
                        PLACEHOLDER.fullmatch(s.text.strip()) and not FORM_SLOT.fullmatch(s.text.strip()) and
                        not (_bracket_section(s.text) and heading_topic(s.text) and nxt and
                             not PLACEHOLDER.search(nxt)) or
                        s.text.startswith("```") or (last and OPEN_SLOT.match(s.text)) or key_slot or quoted)
        label_above = bool(HEADING.match(s.text) and not CLOSING_TAG.match(s.text) and PLACEHOLDER.fullmatch(nxt)
                           and "\n" in prompt[s.end:sentences[i + 1].start]) or _input_label_line(s.text)
        # "Plan: {plan_name}" above "User: {q}" is a fact about the setting
        setting_field = key_slot and (i < input_slot and not INPUT_LABEL.match(s.text) and
                                      record[i] not in material_records or serving) and not _TASK_SLOT.match(s.text)
        reference = bool((label_above or key_slot) and REFERENCE.search(
            key[0] if key and key[1] else s.text)) or reference_next or \
            bool(key and REFERENCE.fullmatch(key[0]) and (key[1] or not last and INPUT_LABEL.match(s.text))) or \
            _consulted_slot(s.text) or setting_field or \
            label_above and _consulted_slot(nxt) or \
            (label_above or is_input and not (key and key[1] and not _RULED.match(s.text))) and \
            bool(_naming_words(s.text) & worked_by)
        # the last: "[Extract 2 – Clause 4.3]", "--- Extract: Procedure BP-07 ---" under "Answer … using only the
        # policy extracts below": consulted
        reference_next = label_above and reference
        is_input = (is_input or label_above) and not reference  # "[Question]" above "{question}": the input's label
        info = Sent(i, s.text, s.start, s.end, cues_of(s.text), bool(ROLE_WEAK.search(s.text[:200])), is_input,
                     reference, last)
        if i and "\n" not in prompt[sentences[i - 1].end:s.start]:
            lines[-1].append(info)
        else:
            lines.append([info])
    return lines
