"""Material the task works on, found after the line-by-line pass by how a prompt presents it: entries named by a
word and a number ("Quote A - …"), a question's lettered options, test cases the code must pass, a fenced block a
user pastes, the block a task points back at, the text a task reworks, a pasted email thread, a block of data under
a bare label, the list a sentence announces ("Below are 12 answers …"), a record with figures, code, config or a log
pasted without a fence, a document headed in capitals. Each pass relabels what the first pass left as background (or,
for demonstrations, as the task)."""
from __future__ import annotations

import functools
import re

from ..types import Component
from . import languages
from .cues import (CONDITIONS_BELOW, DESCRIBES_ASSISTANT, INPUT_LABEL, MY_MATERIAL, OPENING_TAG, PLACEHOLDER, REFERENCE,
                   A, D, E, O, R, heading_topic, key_value)
from .material import DELIMITER, OPENING_QUOTE, runs
from .reading import POINTER, Sent, bare_label, head_noun, names_consulted, paragraph_end, table_row, works_by


#: An entry named by a word and its number or letter: "Quote A - Dellcom: £842/unit", "Offerte 2 – Glans …",
#: "Interviewer 1 (SQL exercise): Strong.", "Takt 45–52: …" (group 1: the word); not a range in a sentence ("Pitches
#: 1-20 are hardstanding …").
_ENTRY = re.compile(r"^\W{0,3}([^\W\d_]+) (?:#?\d{1,2}(?:[-–]\d{1,3}(?=\s*:)|(?![-–]\d))|[A-H])"
                    r"(?:,\s*[^\W\d_]+ \d{1,2})?(?:\s*[-–—:(]|\s*$)")
#: The words that name the levels of a scale, the steps of a method or the parts of an answer rather than the items
#: the task compares or works through.
_SCALE_ENTRY = re.compile(r"example|sample|demo|step|stage|phase|level|band|criterion|rule|tier|grade|score|point|"
                          r"line|headline|description|part|section|round|day|week|turn|priority|tool|category|class|"
                          r"type|rank|task|paso|étape|schritt|passo|stap|niveau|nivel|stufe|ejemplo|exemple|beispiel|"
                          r"esempio|exemplo|voorbeeld", re.I)


def label_enumerated_entries(lines: list[list[Sent]], labels: dict[int, set[Component]],
                             blank_before: dict[int, bool]) -> None:
    """Entries named by one word and their numbers or letters ("Quote A - …", "Quote B - …") are the items the task
    compares or works through, unless the word names a scale's levels, a method's steps or an answer's parts."""
    entries: dict[str, list[int]] = {}
    for li, line in enumerate(lines):
        entry = _ENTRY.match(line[0].text)
        if entry and not _SCALE_ENTRY.match(entry.group(1)):
            entries.setdefault(entry.group(1).lower(), []).append(li)
    persona = bool(entries) and _has_persona(lines, labels)  # entries relabel no Role: read once
    for word, found in entries.items():  # "Quote 1 - Hardline Buckets" may be D already, read as the verb "quote"
        if len(found) > 1 and all(labels[m.index] in ({A}, {O}, {D}) for li in found for m in lines[li]) and \
                not _named_as_consulted(word, lines[:found[0]]):  # "… using only the policy extracts below"
            labels.update((m.index, {D}) for li in found for m in lines[li])
            if persona or any(REFERENCE.search(m.text) and (m.text.lstrip().startswith("#") or
                                                            m.text.rstrip().endswith(":"))
                              for line in lines[:found[0]] for m in line):
                continue  # entries the model consults ("### Context" over "Zone 1 (EU, UK): …")
            for li in found:  # and the lines of details under each ("Protein 22%, Fat 9%", "Kcal per 100g: 330")
                for detail in lines[li + 1:]:
                    if blank_before[detail[0].index] or any(labels[m.index] != {A} or m.cues for m in detail) or \
                            _FIRST_PERSON.match(detail[0].text.lstrip()):
                        break
                    labels.update((m.index, {D}) for m in detail)


#: An answer option of a multiple-choice question: "(A) 15 m", "B. Phrenic nerve", "c) 42".
_OPTION = re.compile(r"^\s*\(?([A-Ea-e])[.)]\s+\S")
#: The answer a demonstration gives under its options: "Answer: B", "Answer: (C)".
_GIVEN_ANSWER = re.compile(r"^\s*(?:the\s+)?(?:correct\s+)?answer(?:\s+is)?\s*[:.]?\s*\(?[A-E]\)?\W*$", re.I)


def label_answer_options(lines: list[list[Sent]], labels: dict[int, set[Component]],
                          blank_before: dict[int, bool]) -> None:
    """The options lettered from A under a question ("(A) 15 m", "(B) 20 m") belong with the question: the task's
    input under the task, a demonstration in an example."""
    options = [bool(len(line) == 1 and _OPTION.match(line[0].text)) for line in lines]
    for run in runs(options):
        letters = [_OPTION.match(lines[li][0].text)[1].upper() for li in run]
        above = labels[lines[run[0] - 1][-1].index] if run[0] else set()
        after = lines[run[-1] + 1] if run[-1] + 1 < len(lines) else None
        if after is not None and labels[after[0].index] == {E} and _GIVEN_ANSWER.match(after[0].text):
            above = {E}  # "Answer: B" under the options: the question and its options are a demonstration
            for li in range(run[0] - 1, -1, -1):
                if labels[lines[li][0].index] == {E}:
                    break
                labels.update((m.index, {E}) for m in lines[li])
                if blank_before[lines[li][0].index]:
                    break
        if len(run) >= 2 and letters == [chr(ord("A") + i) for i in range(len(run))] and above in ({D}, {E}) and \
                all(labels[lines[li][0].index] in ({A}, above) for li in run):
            labels.update((lines[li][0].index, set(above)) for li in run)


#: A line of a test case: "assert f([]) == []", "assert_eq!(f(&[1.0]), …);", "expect(f(2)).toBe(4);",
#: "test('…', () => {".
_TEST_LINE = re.compile(r"^\s*(?:assert\w*!?[\s(]|self\.assert\w*\(|expect\(|(?:test|it)\(['\"`]|\}\);?\s*$)")
#: A label over test cases: "Tests:", "Test cases:".
_TESTS_LABEL = re.compile(r"^\W*(?:unit\s+)?tests?(?:\s+cases?)?\s*:\s*$", re.I)


def label_test_cases(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A fenced block of test cases the code must pass ("It should pass:" or "Tests:" above "assert merge([]) == []")
    demonstrates what the code must do, input and expected output, as a coding task's examples do; so does its
    "Tests:" label. Tests pasted to be debugged are not announced so and stay the task's input."""
    for li, line in enumerate(lines):
        code = line[0].text
        if len(line) > 1 or not li or not code.lstrip().startswith("```") or \
                not re.search(r"\b(?:pass|tests?)\b[^:]*:\s*$", lines[li - 1][-1].text, re.I):
            continue
        body = [t for t in code.splitlines()[1:] if t.strip() and not t.lstrip().startswith("```")]
        if body and sum(bool(_TEST_LINE.match(t)) for t in body) * 5 >= len(body) * 3:
            labels[line[0].index] = {E}
            if len(lines[li - 1]) == 1 and _TESTS_LABEL.match(lines[li - 1][0].text):
                labels[lines[li - 1][0].index] = {E}


#: What a fenced block is consulted for: a table's columns, a function's spec.
_FENCED_REFERENCE = re.compile(r"\bCREATE\s+TABLE\b|\"(?:name|parameters)\"\s*:|^\s*\w+\(\w+ \w+,", re.I | re.M)


def label_fenced_material(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A fenced block a user's request leaves as background under words that do not name what is consulted
    ("Getting this error and I can't see why:", "backup.log says:" above the code or the log) is pasted material the
    task works on; in a system prompt it may be what the assistant consults ("The app sends this JSON …")."""
    if any(R in labels[m.index] for line in lines for m in line):
        return
    for li, line in enumerate(lines):
        block = line[0]
        if len(line) == 1 and block.text.lstrip().startswith("```") and labels[block.index] == {A} and \
                not block.reference and not _FENCED_REFERENCE.search(block.text) and \
                not (li and names_consulted(lines[li - 1][-1].text)):
            labels[block.index] = {D}


#: A task pointing back at what stands right above it: "Turn these into a table …", "Can you summarise this?".
_POINTS_BACK = re.compile(r"^\W*(?:please\s+|(?:can|could) you\s+)?[a-z]+\s+(?:these|this|them|it|all that|the above)\b"
                          r"(?!\s+(?:way|time|week|month|year|one)\b)", re.I)


def label_material_above(lines: list[list[Sent]], labels: dict[int, set[Component]],
                          blank_before: dict[int, bool]) -> None:
    """The block right above a task that points back at it ("Notes from today's sync:" and its items above "Turn
    these into a table of action items") is the task's input, when it is all background without cues."""
    def plain(line: list[Sent]) -> bool:
        return all(labels[m.index] == {A} and not (m.cues - {A, D}) for m in line)

    for li, line in enumerate(lines):
        first = line[0]
        if not li or D not in labels[first.index] or not _POINTS_BACK.match(first.text):
            continue
        start = li - 1  # the paragraph right above, across at most one blank line; a walk stops at its first
        while start > 0 and plain(lines[start]) and not blank_before[lines[start][0].index]:  # line of another kind
            start -= 1
        if not plain(lines[start]) or start and not blank_before[lines[start][0].index]:
            continue
        if start and len(lines[start - 1]) == 1 and bare_label(lines[start - 1][0].text) and \
                plain(lines[start - 1]):
            start -= 1  # with the label above it: "Notes from today's sync:", a blank line, the notes
        if li - start > 1 or len(lines[start]) > 1:
            labels.update((m.index, {D}) for above in lines[start:li] for m in above)


#: A task that reworks a text it points at: "Please translate the recall notice below", "Proofread this".
_REWORK = re.compile(r"\b(?:translate|proofread|rewrite|rephrase|summari[sz]e|summary of|shorten|simplify|edit|correct|"
                     r"polish|tidy|clean up|tighten|locali[sz]e|adapt|reword|transcribe|tradui[st]|traduisez|"
                     r"traduc[ei]|traduzca|traduza|traduci|übersetze|vertaal|przetłumacz|översätt|oversett|terjemahkan|"
                     r"переведи|corrige[sz]?|corrija|correggi|korrigiere|popraw|résume[sz]?|resume|resuma|riassumi|"
                     r"reformule[sz]?|reescribe|reescreva|riscrivi|herschrijf|przeredaguj|sammanfatta|kürze)\b", re.I)


def label_text_to_rework(lines: list[list[Sent]], labels: dict[int, set[Component]],
                          blank_before: dict[int, bool]) -> None:
    """The text a task reworks and points at ("Please translate the recall notice below …", "Rewrite the article
    below …") is that text, whatever its sentences say ("Stop using the kettle immediately."): a block between
    delimiter lines ("---") after the task, or else the last paragraph, set off by a blank line, three quarters of whose
    sentences no cue pulled away ("Put them out by 7am." may read as a demand); not slots or consulted material."""
    asking = next((li for li, line in enumerate(lines) for m in line
                   if D in labels[m.index] and _REWORK.search(m.text) and
                   (POINTER.search(m.text) or languages.POINTER.search(m.text) or MY_MATERIAL.search(m.text))), None)
    if asking is None:
        return
    marks = [li for li in range(asking + 1, len(lines)) if len(lines[li]) == 1 and DELIMITER.match(lines[li][0].text)]
    if len(marks) >= 2:
        spans = [range(marks[0], marks[1] + 1)]
    else:  # the paragraphs after the task, set off by blank lines, the last first
        starts = [li for li in range(asking + 1, len(lines)) if blank_before[lines[li][0].index]]
        spans = [range(start, end) for start, end in reversed(list(zip(starts, starts[1:] + [len(lines)])))]
    for span in spans:
        block = [m for li in span for m in lines[li]]
        if _BLOCK_LABEL.match(block[0].text) and names_consulted(block[0].text) or \
                re.match(r"\s*#{1,6}\s", block[0].text):
            continue  # a section of the prompt ("# Tools", "## Rules"), not the text
        plain = [labels[m.index] in ({A}, {D}, {A, D}) for m in block]  # a line of the text may read as a demand
        if len(block) >= 3 and 4 * sum(plain) >= 3 * len(block) and plain[0] and \
                not REFERENCE.search(block[0].text) and \
                all(labels[m.index] <= {A, D, O} and not m.reference and not PLACEHOLDER.search(m.text) for m in block):
            labels.update((m.index, {D}) for m in block)
            return


#: A prompt a prompt engineer pastes to have reworked: "our system prompt", "this spec", "the agent config below".
_PROMPT_NOUN = re.compile(r"\b(?:(this|these|our|my)|the)\s+(?:[\w'’-]+\s+){0,3}?(?:system\s+prompts?|prompts?|specs?|"
                          r"config(?:uration)?s?|yaml|toml)\b(?(1)|(?=\s+(?:below|here)\b))", re.I)
#: What shows that a spec or config is a model's prompt: "so the bot stops …", "a model follows", "add a rule".
_ABOUT_A_MODEL = re.compile(r"\b(?:(?:chat)?bots?|assistants?|agents?|models?|llms?|gpt|claude|persona|rules?|"
                            r"(?:system\s+)?prompts?)\b", re.I)


def _pastes_prompt(text: str) -> bool:
    """Whether a sentence speaks of a model's prompt, spec or config that the user pastes ("our support bot config"),
    not of the prompt it stands in ("the issue given at the end of this prompt") or an API's spec."""
    found = _PROMPT_NOUN.search(text)
    if not found or not any(hit.end() != found.end() for hit in _ABOUT_A_MODEL.finditer(text)) or \
            re.search(r"\b(?:user|customer)", found[0], re.I):  # "this prompt" alone is no model's
        return False  # "the user's prompt below" is what a judge is shown
    return found[0].lower() != "this prompt" or not re.search(r"\b(?:of|in|into|within|through)\s+$",
                                                              text[:found.start()], re.I)


def label_prompt_to_rework(lines: list[list[Sent]], labels: dict[int, set[Component]],
                           blank_before: dict[int, bool]) -> None:
    """A prompt, spec or config pasted below a request about it ("can you cut our system prompt to 300 tokens?",
    "Review the agent config below") is the task's input, whatever its own lines say ("You are Pebble …", "## Rules",
    "tone: formal"): every line after the request's paragraph, or the block between delimiters there."""
    end = next((li for li in range(1, len(lines)) if blank_before[lines[li][0].index]), None)
    if end is None or not any(labels[m.index] - {A, R} and _pastes_prompt(m.text)
                              for line in lines[:end] for m in line):
        return
    block = range(end, len(lines))
    if lines[end][0].text.startswith("```"):
        block = range(end, next((li + 1 for li in range(end, len(lines)) if lines[li][-1].text.endswith("```")),
                                len(lines)))
    elif DELIMITER.match(lines[end][0].text):
        block = range(end, next((li + 1 for li in range(end + 1, len(lines))
                                 if lines[li][0].text.strip() == lines[end][0].text.strip()), len(lines)))
    if len(block) >= 2:
        labels.update((m.index, {D}) for li in block for m in lines[li])


#: The header of a pasted email: "From: Dana Whitfield" above "To: …", "Subject: …", "Date: …".
_EMAIL_HEADER = re.compile(r"^\s*(?:from|to|cc|subject|date|sent)\s*:\s*\S", re.I)


def label_email_bodies(lines: list[list[Sent]], labels: dict[int, set[Component]],
                        blank_before: dict[int, bool]) -> None:
    """A pasted email's header ("From: …" with "Subject: …" under it) and the paragraph of its body below are
    material, as a thread of such emails is, whatever the bodies say ("Push back once more."); once a thread has
    begun, a reply headed by "From: …" alone is part of it, and three or more such replies make a thread alone."""
    senders = [bool(re.match(r"^\s*from\s*:\s*\S", line[0].text, re.I)) for line in lines]
    li = 0
    thread = sum(senders) >= 3
    while li < len(lines):
        sender = senders[li]
        if not (sender and (thread or li + 1 < len(lines) and _EMAIL_HEADER.match(lines[li + 1][0].text) and
                            not blank_before[lines[li + 1][0].index])) or PLACEHOLDER.search(lines[li][0].text):
            li += 1
            continue
        thread = True
        end = li + 1
        while end < len(lines) and _EMAIL_HEADER.match(lines[end][0].text) and not blank_before[lines[end][0].index]:
            end += 1  # the header's lines
        if end < len(lines):
            end = paragraph_end(lines, blank_before, end)  # the body: the paragraph under the header
        block = [m for line in lines[li:end] for m in line]
        if all(labels[m.index] in ({A}, {D}) for m in block):
            labels.update((m.index, {D}) for m in block)
        li = end


def _has_persona(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> bool:
    """Whether a sentence is the persona alone ("You are a careers coach.") or describes the assistant ("This
    assistant answers support questions …"): a system prompt, not a user's request with a persona for the task ("As
    the FP&A lead, write a memo …")."""
    return any(labels[m.index] == {R} or DESCRIBES_ASSISTANT.match(m.text) for line in lines for m in line)


#: The head noun of a label over data a request gives to work with: "Details:", "Some numbers:", "Supporting points:".
_DATA_HEAD = re.compile(r"details|numbers|figures|points|data|stats|statistics|results|comments|feedback|responses|"
                        r"facts|timeline|updates|highlights|observations|findings|list|stuff|"
                        r"answers|quotes|offers|options|experience|reviews|verbatims|complaints|tickets|messages|"
                        r"e?mails|posts|tweets|headlines|entries|submissions|replies|questions|specs|specifications|"
                        r"features|caractéristiques|características|caratteristiche|merkmale|notulen|drafts?|abstract|essay|"
                        r"chapter|introduction|inleiding|einleitung|introducción|lines|invoice|receipt|bill|quote|"
                        r"estimate|spending|expenses|income|costs|transactions|charges|debts|payments|happened|"
                        r"informa(?:ções|tions?|ción|zioni)|comentários|comentarios|commentaires|angaben|gegevens|"
                        r"dados|datos|données|dati", re.I)


def _names_data(label: str) -> bool:
    """Whether a label names data a request gives to work with: "Details:", "Timeline (UTC):", and notes that are
    someone's or from something ("My notes from the call:", "Notes de consultation :"), not "Notes:" on a template."""
    head = head_noun(label)
    return bool(_DATA_HEAD.fullmatch(head) or head == "notes" and _WHOSE_NOTES.search(label))


#: Notes that are someone's or from an event: "My notes from the call", "QA notes from today's run".
_WHOSE_NOTES = re.compile(r"\b(?:my|our|from|de|van|von|di|do|da)\b", re.I)


def label_data_blocks(lines: list[list[Sent]], labels: dict[int, set[Component]],
                       blank_before: dict[int, bool]) -> None:
    """In a request (no persona of its own), a block under a bare label that names data ("Details:", "Some numbers:",
    "Comentários:") is the material the task works on, when it is all background without cues of its own."""
    if _has_persona(lines, labels):
        return
    worked_by = functools.cache(lambda: works_by(m.text for line in lines for m in line))  # read once, when needed
    li = 0
    while li < len(lines):
        label = lines[li][-1]  # alone on its line or closing a paragraph ("We're deciding whether to buy. Details:")
        li += 1
        if not bare_label(label.text) or labels[label.index] != {A} or label.reference or \
                names_consulted(label.text) or not _names_data(label.text) or \
                head_noun(label.text).lower() not in ("facts", "fact") and head_noun(label.text).lower() in worked_by():
            continue  # "Stock list:" under "Use only the stock list below" is consulted; "Facts to use:" under
            # "Write a reference letter …" is what the letter is written from, even where "only use the facts" follows
        end = li  # the block: the background lines below, up to a blank line or the task
        while end < len(lines) and not (blank_before[lines[end][0].index] and end > li) and \
                _background(lines[end], labels):
            end += 1
        block = [m for line in lines[li:end] for m in line]
        if block and all(not (m.cues - {A}) and not PLACEHOLDER.search(m.text)
                         for m in block):  # slots filled from a record: consulted
            labels.update((m.index, {D}) for m in [label, *block])
            li = end


#: A sentence announcing the items a request gives to work through: "Below are 12 open-ended answers to …",
#: "Here are my raw notes from last night:", "These are the free-text answers to …" (group 1: the words that may
#: name them).
_ANNOUNCES_ITEMS = re.compile(r"^\W*(?:below|here|these)\s+(?:are|is)\s+((?:\S+\s+){0,5}\S+)", re.I)
#: A list item: "1. exports to excel break …", "- party reached Greywater", a quoted line.
_ITEM = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•]|[\"“])\s*\S")


def _names_items(text: str) -> bool:
    """Whether a task names the items it works from: "Can you write a recap from my notes?", "Cluster the
    responses …"."""
    return any(_DATA_HEAD.fullmatch(word) or word.lower() == "notes"
               for found in _ACTS_ON.finditer(text) for word in found["words"].split())


def label_announced_items(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """The list right after a sentence that announces the items given ("Below are 12 open-ended answers to …",
    "Can you write a recap from my notes?", then perhaps more of the task, then the list) is what the task works
    through, however its items read, persona or not; not a list under a label naming criteria or a rubric."""
    for li, line in enumerate(lines):
        announcing = [m for m in line if (a := _ANNOUNCES_ITEMS.match(m.text)) and
                      any(_DATA_HEAD.fullmatch(w) or w.lower() == "notes" for w in re.findall(r"[^\W\d_]+", a[1]))]
        named = any(D in labels[m.index] and _names_items(m.text) for m in line)  # "… from my notes"
        if not announcing and not named:
            continue
        start = li + 1
        while start < min(li + 4, len(lines)) and not _ITEM.match(lines[start][0].text) and \
                all(labels[m.index] & {D, O} for m in lines[start]):
            start += 1  # the task between the announcement and the list
        if start < len(lines) and names_consulted(lines[start][0].text):
            continue  # "Judge on these criteria:", "Rubric (each criterion scored 1–4):" above the list
        labelled = start < len(lines) and len(lines[start]) == 1 and bare_label(lines[start][0].text)
        if labelled and not announcing:
            continue  # the task named its material: a list under a label of its own ("Marking guidance:") is other
        end = start + labelled
        while end < len(lines) and (_ITEM.match(lines[end][0].text) or labelled and len(lines[end]) == 1 and
                                    bare_label(lines[end][0].text) and end + 1 < len(lines) and
                                    _ITEM.match(lines[end + 1][0].text)):
            end += 1  # the items, under labels of their own too ("Went well:", "Didn't go well:")
        items = [m for item in lines[start:end] for m in item]  # with the label over them ("Questions:")
        if end - start >= 2 and all(labels[m.index] <= {A, O, D} for m in items) and \
                (2 * sum(labels[m.index] == {A} for m in items) >= len(items) or
                 all(labels[m.index] == {D} for m in items)):  # read as input already, under "Questions:"
            labels.update((m.index, {D}) for m in items + [m for m in announcing if labels[m.index] == {A}])


#: A shell command line: a shebang, or a command with the arguments it takes ("cd /opt/app", "git pull",
#: "rm -rf node_modules", "pm2 restart all").
_SHELL = (r"^\s*(?:\$\s+)?(?-i:#!/|cd\s+[~./\w-]*/|git\s+(?:pull|push|clone|checkout|commit|merge|rebase|fetch|status|"
          r"log|diff|reset|add|stash|switch)\b|rm\s+-\w|npm\s+(?:install|run|ci|start|test|i)\b|pm2\s+\w|"
          r"pip3?\s+install\b|sudo\s+\w|docker(?:-compose)?\s+(?:run|build|compose|ps|exec|pull|push|logs|up)\b|"
          r"kubectl\s+\w|python3?\s+(?:-m\s|\S+\.py)|node\s+\S+\.js|yarn\s+\w|curl\s+-|wget\s+http|"
          r"chmod\s+\S|mkdir\s+\S|source\s+\S|export\s+[A-Z_]+=)")
#: A line that reads as code, config or a log rather than prose: code punctuation, an indented line, a bare key
#: ("services:") or a key with a one-word value ("image: postgres:16").
_CODE_LIKE = re.compile(r"[{}\[\]<>|│@\\]|\$[A-Za-z_{(]|[;,(]\s*$|[=!<>:]=|=>|<-|->|::|\s=\s|^\s{2,}(?![-*•] )\S|"
                        r"^\s*-?\s*[\w.-]+:(?:\s+\S+)?\s*$|^\s*(?-i:SELECT|FROM|WHERE|AND|OR|ORDER BY|GROUP BY|"
                        r"HAVING|LIMIT|(?:LEFT |INNER )?JOIN|UNION|WITH|INSERT|UPDATE|DELETE)\b|"
                        r"^\s*(?:[\w.]*(?:Error|Exception)\b|(?:fatal |uncaught )?(?:error|panic)\b|warning\b)[^:]{0,40}:|"
                        r"^\s*at\s+[\w.$<>]+|\w\.\w{1,5}:\d+\b|"  # an error's first line, a stack frame, file:line
                        r"\w\([^()]*\)\s*[{:;]?\s*$|\sdo\s*$|^\s*(?:end|else|fi|done|next \w+|end (?:sub|if|function))\s*$|"
                        r"^\s*(?-i:Sub|Dim|Function|Private Sub|Public Sub) \w|"  # a call, a block's end, VBA
                        r"\S {2,}\S+ {2,}\S|"  # a table's columns aligned by spaces, or a row label and figures
                        r"^\s*\S+(?:\s+[-+<]?\d[\d.,e-]*\**){2,}\s*$|"
                        r"^\s*\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d\b|"  # a log line's time
                        r"(?:^|\s)[~.]{0,2}/[\w.-]+/[\w.-]+/[\w./-]+|\.\.\.\s*(?:no|yes|ok|done|found|not found)\s*$|"
                        + _SHELL, re.I)  # a path, a build step's check ("checking for pg_config... no")
#: A user speaking of their own material: "Our Android build broke …", "I need it under 200ms:".
_FIRST_PERSON = re.compile(r"\b(?:i|my|our|we|me)\b|\bi'(?:m|ve)\b", re.I)
#: The words of a failure's first line: "panic: …", "NullReferenceException: …", "fatal: [web-02]: FAILED!".
_FAILURE = re.compile(r"error|exception|panic|fatal|traceback|failed|failure", re.I)
#: What marks a block as consulted rather than pasted to work on: a table's or a function's spec, an XML section's
#: tag, a scale's levels ("4 = Exceeds the standard").
_CONSULTED_BLOCK = re.compile(_FENCED_REFERENCE.pattern + r"|^\s*</?[\w-]+>\s*$|"
                              r"^\s*\S{1,4}\s*=\s+[A-Za-z][a-z]*(?:\s|,|$)|"
                              r"\b\d\s*=\s*[A-Za-z]+(?: [a-z]+){0,3},|"
                              r"^\W*\w+\((?:\w+,\s*){2,}\w+\)\s*$", re.I | re.M)  # …, a table: "orders(id, …)"
#: The words of a user pointing at what they paste: "log:", "this query", "the plan output".
_PASTE_POINTER = re.compile(r":\s*$|\b(?:this|these|below|following|here)\b|\b(?:log|error|code|query|output|trace|"
                            r"manifest|plan|config|snippet|macro|function|script|schema|file)s?\b|"
                            r"\b(?:crash|fail|throw|segfault|hang|exception|warning|traceback)\w*", re.I)


#: Four words in a row: prose, not a line of code or a log.
_FOUR_WORDS = re.compile(r"\b[^\W\d_]+(?:\s+[^\W\d_]+){3}\b")


def _may_be_pasted(line: list[Sent], labels: dict[int, set[Component]], code_like: bool,
                   amid_background: bool = False) -> bool:
    """Whether a line may belong to a paste: left as background, or code an earlier pass read as the task, or as the
    form when it stands alone between background lines ("Add(0xc00012a000, {0xc000016120, 0x7}, 0x3)" in a stack
    trace); no slot."""
    return all(not PLACEHOLDER.search(m.text) and (labels[m.index] == {A} or labels[m.index] == {D} and code_like or
                                                   labels[m.index] == {O} and code_like and amid_background and
                                                   not _FOUR_WORDS.search(m.text)) for m in line)


def _background(line: list[Sent], labels: dict[int, set[Component]]) -> bool:
    """Whether every sentence of a line is left as background."""
    return all(labels[m.index] == {A} for m in line)


def label_pasted_code(lines: list[list[Sent]], labels: dict[int, set[Component]], raw: list[str],
                      blank_before: dict[int, bool]) -> None:
    """In a request, a run of at least three lines left as background that mostly read as code, config or a log
    (``raw``: each line as typed, indentation included), under a line that points at it ("docker compose up fails …
    log:", "Please review this Kubernetes Deployment …") or opening the prompt with a failure ("panic: …"), is what
    the user pasted for the task to work on; under a persona, only when the user speaks of it as theirs ("This query
    … and I need it under 200ms:"). Schemas, function specs, XML sections and scales stay consulted."""
    persona = _has_persona(lines, labels)
    code = [bool(_CODE_LIKE.search(t)) for t in raw]
    li = 0
    while li < len(lines):
        if not li and not (code[0] and _FAILURE.search(raw[0])):
            li = 1
            continue
        end = li
        while end < len(lines) and _may_be_pasted(lines[end], labels, code[end], end > li and end + 1 < len(lines) and
                                                  _background(lines[end - 1], labels) and
                                                  _background(lines[end + 1], labels)) and \
                not (end > li and blank_before[lines[end][0].index] and not code[end] and not bare_label(raw[end])):
            end += 1  # a paragraph of prose ends the run
        first, last = li, end
        while last > first and not code[last - 1]:
            last -= 1  # a remark typed after the paste ("The app … was redeployed at 03:13.") is the user's own
        while first < last and not code[first] and not bare_label(raw[first]):
            first += 1  # and so is what they say before it ("He's 67, has type 2 diabetes …")
        run = range(first, last)
        if len(run) >= 3 and 2 * sum(code[j] for j in run) >= len(run) and \
                (not li or code[first] and _FAILURE.match(raw[first].lstrip()) or  # a failure opens the run
                 any(_PASTE_POINTER.search(p) and not names_consulted(p) and not works_by([p]) and
                     (not persona or _FIRST_PERSON.search(p))  # a sentence of the line above the run or
                     for p in {m.text for m in lines[li - 1] + lines[first - 1] +
                               _asked_over(lines, li, labels)})) and \
                not any(_CONSULTED_BLOCK.search(raw[j]) for j in run) and \
                not _consulted_by_task(raw[first] if bare_label(raw[first]) else raw[first - 1], lines):
            labels.update((m.index, {D}) for j in run for m in lines[j])
            intro = lines[first - 1][-1] if first else None
            if intro is not None and labels[intro.index] == {A} and intro.text.rstrip().endswith(":"):
                labels[intro.index] = {D}
        li = max(end, li + 1)  # the line that ended the run may open the next one


_FIELD = re.compile(r"^\s*[\w-]+:\s+\S")


def _consulted_by_task(label: str, lines: list[list[Sent]]) -> bool:
    """Whether the task says it works by what a label names ("Fact-check the post using only the fact-check records"
    above "Fact-check records:"), not what it works from ("Using the email history below, write a briefing")."""
    return bare_label(label) and _named_as_consulted(head_noun(label), lines)


def _named_as_consulted(noun: str, lines: list[list[Sent]]) -> bool:
    """Whether a sentence says the task works by what ``noun`` names ("… using only the policy extracts below")."""
    return noun.lower() in works_by(m.text for line in lines for m in line)  # the sentence may be left as background


def _consulted_tag(text: str, lines: list[list[Sent]], labels: dict[int, set[Component]]) -> bool:
    """Whether ``text`` opens a tag the task says it consults ("<handbook>" under "Answer … using only the extracts
    from the campsite handbook below")."""
    tag = OPENING_TAG.match(text)
    named = re.compile(r"\b" + re.escape(tag[1]) + r"s?\b", re.I) if tag else None
    return named is not None and any(D in labels[m.index] and _CONSULTS_BELOW.search(m.text) and named.search(m.text)
                                     for line in lines for m in line)


def _asked_over(lines: list[list[Sent]], li: int, labels: dict[int, set[Component]]) -> list[Sent]:
    """The line above the user's question that stands right above a paste ("dbt run failed last night, log below" +
    "whats wrong and how do i fix it" + the log): it may be the one that points at it."""
    return lines[li - 2] if li >= 2 and all(D in labels[m.index] and not _FIELD.match(m.text) for m in lines[li - 1]) \
        else []  # not a field of a config ('purpose: "Guide new customers …"')


#: A field typed in lower case in a chat message: "van hire: £95/day for 6 days".
_CHAT_FIELD = re.compile(r"^\s*[a-z][\w '’/-]{0,30}?\s*:\s+(\S+\s+\S.*)$")


#: A key that is a code, not a field's name: "- PRODUCT_FAULT: …", "`NOT_COVERED`: …".
_CODE_KEY = re.compile(r"^[\s\-*•]*`?[A-Z][A-Z0-9]*_[A-Z0-9_]+`?\s*:")


def label_pasted_records(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """In a request without a persona of its own, a run of at least three "key: value" lines with figures left as
    background ("Previous balance: $1,284.33", "Colesterol total: 238 mg/dL") is a pasted record the task works on,
    with the line that introduces it ("This is from my annual pension statement:")."""
    if _has_persona(lines, labels):
        return
    values = [(key_value(line[0].text) or ("", ""))[1] or (m[1] if (m := _CHAT_FIELD.match(line[0].text)) else "")
              for line in lines]
    fields = [bool(value) and all(labels[m.index] == {A} and not (m.cues - {A}) for m in line) and
              not PLACEHOLDER.search(line[0].text) for line, value in zip(lines, values)]
    for run in runs(fields):
        above = run[0] - 1
        figures = sum(bool(re.search(r"\d", values[li])) for li in run)
        codes = sum(bool(_CODE_KEY.match(lines[li][0].text)) for li in run)
        if len(run) < 3 or figures * 2 < len(run) or codes * 2 > len(run) or \
                any(names_consulted(lines[li][-1].text.replace("_", " "))  # "<price_list>"
                    for li in range(max(above - 2, 0), above + 1)) or \
                above >= 0 and (_consulted_by_task(lines[above][-1].text, lines) or
                                 _consulted_tag(lines[above][-1].text, lines, labels)):
            continue  # a record has figures ("$1,284.33", "238 mg/dL"), definitions have none; "Product information:"
        if above >= 0 and lines[above][-1].text.rstrip().endswith(":") and labels[lines[above][-1].index] == {A}:
            run = [above, *run]
        labels.update((m.index, {D}) for li in run for m in lines[li])


#: A line in capitals that heads a pasted document: "PENALTY CHARGE NOTICE", "IMPRESSION:", "EXPLANATION OF
#: BENEFITS - THIS IS NOT A BILL".
_CAPITALS = re.compile(r"^[^\w\n]*[A-Z][A-Z0-9 ,'&/-]{2,}[A-Z]\s*[:.!]?\s*$")


def label_document_headings(lines: list[list[Sent]], labels: dict[int, set[Component]],
                            blank_before: dict[int, bool]) -> None:
    """In a request without a persona of its own, a line in capitals that names no section of a prompt ("IMPRESSION:",
    "PENALTY CHARGE NOTICE") heads a pasted document: it and the lines under it, up to a blank line or the task,
    are the material the task works on."""
    if _has_persona(lines, labels):
        return
    for li, line in enumerate(lines):
        head = line[0]
        if len(line) > 1 or not _CAPITALS.match(head.text) or labels[head.index] not in ({A}, {O}) or \
                heading_topic(head.text) or names_consulted(head.text):
            continue
        end = li + 1
        while end < len(lines) and not blank_before[lines[end][0].index] and \
                all(labels[m.index] in ({A}, {D}) for m in lines[end]):
            end += 1
        if end > li + 1:
            labels.update((m.index, {D}) for block in lines[li:end] for m in block)


#: A label line over a block: "Tickets:", "## Notes (pasted from the kickoff, messy)", "<changelog>".
_BLOCK_LABEL = re.compile(r"^\s*(?:#{1,6}\s+(?P<heading>[^\n]{1,60})|<(?P<tag>[^\W\d][\w\- ]{0,40})>|"
                          r"(?P<label>[^\W\d][^:\n]{0,60}):)\s*$")
#: A title line naming a block by what it is and then which one: "Handoff notes — Subscription pause feature".
_DASHED_TITLE = re.compile(r"^\s*(?P<title>[^\W\d][^:\n—–-]{0,40}?)\s+[—–-]\s+[^\n:]{1,60}$")
#: A task acting on material it names (group "words", the noun among them): "Turn the meeting notes below into …",
#: "Write the release notes … from the changelog", "Te paso 8 tickets …"; not one consulting it ("Answer only from
#: the articles below").
_ACTS_ON = re.compile(r"\b(?:(?:turn|summari[sz]e|rewrite|review|cluster|group|analy[sz]e|translate|edit|proofread|"
                      r"classify|fix|clean|convert|tag|score|grade|triage|sort|go through|audit|compare)\s+(?:all\s+)?"
                      r"(?:the|these|this|my|our|each of the)|"
                      r"(?:write|draft|build|create|make|generate|produce|prepare|compile)\b.{0,80}?\bfrom\s+"
                      r"(?:the|these|this|my|our)|"
                      r"(?:here (?:are|is)|below (?:are|is)|te paso|voici|hier sind|ecco|i(?:'ve| have) pasted)"
                      r"(?:\s+[\w-]+)?)\s+(?P<words>(?:[\w-]+\s+){0,2}[\w-]+)", re.I)

#: The same where the task does not say it uses only what it names ("Draft answers … using only her positions from
#: the policy notes" consults them): what it names is acted on even when its label names what is usually consulted.
_ACTS_ON_FREELY = re.compile(r"^(?!.*\bonly\b).*?" + _ACTS_ON.pattern, re.I)

#: A request to check material it names: "Check the EAN-13 barcodes below …" (a persona's "Check the library facts
#: below" consults them).
_CHECKS = re.compile(r"\bcheck\s+(?:all\s+)?(?:the|these|this|my|our)\s+(?P<words>(?:[\w-]+\s+){0,2}[\w-]+)", re.I)


#: Labels of what a task consults, in the words names_consulted does not know: "Band descriptors:", "Severity
#: levels:", "About Quillstack:", "Auszüge:", "Intenções:".
_CONSULTED_LABEL = re.compile(r"\b(?:descriptors?|levels?|constraints?|types?|details|about|excerpts?|auszüge|"
                              r"extraits|extractos|trechos|intenç(?:ão|ões)|intenciones|intentions)\b", re.I)
#: A task consulting what follows it: "Use the help-center articles below", "Answer from the excerpts below".
_CONSULTS_BELOW = re.compile(r"\b(?:use|using|based on|according to|consult|refer to|from|with|against|given)\b",
                             re.I)
#: A task pointing at what follows it: "… the encounter summary below", "hieronder", "folgende Notizen".
_POINTS_BELOW = re.compile(r"\b(?:below|hieronder|onderstaande?|unten|folgende[nrs]?|ci-dessous|abajo|qui sotto|"
                           r"abaixo)\b", re.I)


#: A task that makes something out of named material: "Create a set of FAQs … based on the policy summary below"
#: (group "words": the words that may name it).
_BASED_ON = r"\bbased (?:only |solely |entirely )?on\b"  # "based only on the bill summary below"
_MADE_FROM = re.compile(r"^(?=.*" + _BASED_ON + r").*?\b(?:write|draft|build|create|make|generate|produce|prepare|"
                        r"compile)\b.{0,120}?" + _BASED_ON + r"\s+"
                        r"(?:the|these|this|my|our)\s+(?P<words>(?:[\w-]+\s+){0,2}[\w-]+)", re.I)


#: The same, material named first: "Using the engineering notes below, write a public security advisory".
_USING_TO_MAKE = re.compile(r"\busing\s+(?:the|these|this|my|our)\s+(?P<words>(?:[\w-]+\s+){0,2}?[\w-]+)"
                            r"(?:\s+(?:below|above))?\s*,\s*(?:please\s+)?(?:write|draft|build|create|make|generate|"
                            r"produce|prepare|compile)\b", re.I)


#: The same, the material named after the task: "Write a fact-check article … using the research notes our checker
#: compiled" (what is only consulted, "using the policy below", is left out where it is used).
_MADE_USING = re.compile(r"^\W*(?:please\s+)?(?:write|draft|build|create|make|generate|produce|prepare|compile|compose)"
                         r"\b.{0,120}?\busing\s+(?:the|these|this|my|our)\s+(?P<words>(?:[\w-]+\s+){0,2}[\w-]+)",
                         re.I)


#: A task going through material item by item: "Rate the difficulty of each puzzle …" names "Puzzles:" below it;
#: "For each criterion …", "Assess the lead against each element" go through what is consulted.
_EACH_ITEM = re.compile(r"(?<!\bfor )(?<!\bagainst )(?<!\bto )\b(?:each|every)\s+(?P<words>(?:[\w-]+\s+)?[\w-]+)",
                        re.I)


def _singular(word: str) -> str:
    """A noun without its plural ending, for comparing "tickets" with "Ticket:"."""
    word = word.lower()
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _named_in_tasks(pattern: re.Pattern[str], lines: list[list[Sent]], labels: dict[int, set[Component]],
                    unconsulted: bool = False) -> set[str]:
    """The words (singular) that ``pattern``'s group "words" finds in the task's sentences: what the task names; with
    ``unconsulted``, not what names consulted material, in a word or in all of them ("using the price list")."""
    return {_singular(word) for line in lines for m in line if D in labels[m.index]
            for found in pattern.finditer(m.text) if not (unconsulted and names_consulted(found["words"]))
            for word in found["words"].split() if not (unconsulted and names_consulted(word))}


def label_material_the_task_names(lines: list[list[Sent]], labels: dict[int, set[Component]],
                                  blank_before: dict[int, bool]) -> None:
    """A block under a label that names what the task points at ("Turn the meeting notes below into a PRD" above
    "## Notes (pasted from the kickoff, messy)", "Write the release notes from the changelog" with "<changelog>",
    "Te paso 8 tickets …" above "Tickets:") is the task's input, persona or not: the task itself says so; so is the
    block under the label right below a task that points below it ("Assign ICD-10-CM codes to the encounter summary
    below." above "Encounter summary:") when the task names no label of its own. Labels of what is consulted
    ("Glossary:", "<policy>", "Severity levels:") are left as they are."""
    made_from = _named_in_tasks(_MADE_FROM, lines, labels) | _named_in_tasks(_USING_TO_MAKE, lines, labels) | \
        _named_in_tasks(_MADE_USING, lines, labels, unconsulted=True)
    freely = _named_in_tasks(_ACTS_ON_FREELY, lines, labels)
    acted = _named_in_tasks(_ACTS_ON, lines, labels) | made_from | _named_in_tasks(_EACH_ITEM, lines, labels) | \
        (set() if _has_persona(lines, labels) else _named_in_tasks(_CHECKS, lines, labels))
    blocks = []  # (line, its label's parts by group name, the label's name, its head noun)
    for li, line in enumerate(lines):
        found = _BLOCK_LABEL.match(line[0].text) or _DASHED_TITLE.match(line[0].text) if len(line) == 1 else None
        if found:
            parts = found.groupdict()  # the two patterns name different groups
            name = parts.get("title") or parts.get("heading") or parts.get("tag") or parts.get("label")
            blocks.append((li, parts, name, _singular(head_noun(name.replace("_", " ")))))
    named = {noun for *_, noun in blocks if len(noun) >= 4 and noun in acted}  # "Essay:" for "Grade the essay …"
    for li, parts, name, noun in blocks:
        if labels[lines[li][0].index] != {A} or names_consulted(name) and noun not in made_from | freely or \
                heading_topic(lines[li][0].text) or \
                CONDITIONS_BELOW.search(lines[li][0].text):
            continue  # "Reject a joke if it:" is a rule, not the joke
        pointed = not named and li and not parts.get("heading") and not _CONSULTED_LABEL.search(name) and any(
            D in labels[m.index] and _POINTS_BELOW.search(m.text) and not _CONSULTS_BELOW.search(m.text) and
            not names_consulted(m.text) for m in lines[li - 1])
        if not pointed and noun not in named:
            continue  # named by the task, or right under a task pointing below ("… the encounter summary below")
        end = li + 1
        while end < len(lines) and _background(lines[end], labels) and \
                not (blank_before[lines[end][0].index] and not parts.get("tag")) and \
                not _BLOCK_LABEL.match(lines[end][0].text):
            end += 1
        if parts.get("tag") and end < len(lines) and lines[end][0].text.strip() == f"</{parts['tag']}>":
            end += 1
        if parts.get("title") and end == li + 1 < len(lines) and not blank_before[lines[end][0].index] and \
                all(labels[m.index] == {D} for m in lines[end]):
            end += 1  # the title of a block already read as the input
        if end > li + 1:
            labels.update((m.index, {D}) for block in lines[li:end] for m in block)


#: A task asking for the style of examples it names: "… in the style of our previous captions", "… like the
#: examples below" (group "words": the words that may name them).
_IN_THE_STYLE_OF = re.compile(r"\b(?:in the (?:same )?(?:style|voice|tone|format|shape) (?:of|as)|like|matching|"
                              r"match (?:the )?(?:style|voice|tone) of)\s+"
                              r"(?:the|our|these|those|my)\s+(?P<words>(?:[^\W\d]+\s+){0,2}[^\W\d]+)", re.I)


def label_style_examples(lines: list[list[Sent]], labels: dict[int, set[Component]],
                         blank_before: dict[int, bool]) -> None:
    """The block under a label that names the examples a task asks to imitate ("Write a caption … in the style of our
    previous captions." above "Previous captions:") is the Examples, up to a blank line or the task's input."""
    nouns = _named_in_tasks(_IN_THE_STYLE_OF, lines, labels)
    if not nouns:
        return
    for li, line in enumerate(lines):
        label = line[0]
        if len(line) > 1 or not bare_label(label.text) or labels[label.index] == {E} or \
                _singular(head_noun(re.sub(r"\s*#?\d+\s*:\s*$", ":", label.text))) not in nouns | {"example"}:
            continue
        end = li + 1
        while end < len(lines) and not blank_before[lines[end][0].index] and \
                not INPUT_LABEL.match(lines[end][0].text) and not bare_label(lines[end][0].text):
            end += 1
        if end > li + 1:
            labels.update((m.index, {E}) for block in lines[li:end] for m in block)
    for li, line in enumerate(lines[:-1]):  # "Match the voice of our previous captions:" over the quoted captions
        said = line[-1]
        if not said.text.rstrip().endswith(":") or not _IN_THE_STYLE_OF.search(said.text):
            continue
        end = li + 1  # the block right below it, across a blank line, up to the next one
        while end < len(lines) and (end == li + 1 or not blank_before[lines[end][0].index]) and \
                (end > li + 1 or re.match(r"\s*(?:" + OPENING_QUOTE + r"|[-*•]\s)", lines[end][0].text)):
            end += 1
        labels.update((m.index, {E}) for block in lines[li + 1:end] for m in block)


#: A system prompt addressing the assistant by the people it serves: "You help members of the Aurora Miles …".
_YOU_SERVE = re.compile(r"^\W*you\s+(?:help|assist|support|serve)\s+(?:our\s+|the\s+)?(?:members|customers|users|"
                        r"clients|students|patients|employees|staff|agents|tenants|residents|travell?ers|passengers)\b",
                        re.I)


def label_consulted_tables(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """A markdown table right under a title naming what the task consults ("RUBRIC (10th grade essay)", "Price
    list"), or under any label in a prompt for an assistant that serves people ("You help members of …" above "Tier
    thresholds:"), is consulted too, however its rows read."""
    system = any(_YOU_SERVE.match(m.text) for line in lines for m in line)
    for li in range(1, len(lines)):
        title = lines[li - 1]
        if not table_row(lines[li]) or table_row(title) or len(title) > 1 or \
                labels[title[0].index] != {A} or len(title[0].text.split()) > 10 or \
                not (names_consulted(title[0].text) or system and bare_label(title[0].text)):
            continue
        end = li
        while end < len(lines) and table_row(lines[end]):
            end += 1
        labels.update((m.index, {A}) for line in lines[li:end] for m in line)


#: A task that writes a query: "write a PostgreSQL query that answers the question", "Generate the SQL for …".
_WRITES_QUERY = re.compile(r"\b(?:write|generate|return|produce|give me|create)\b[^.]{0,60}\b(?:sql|query|queries)\b",
                           re.I)
#: A table's definition: "CREATE TABLE accounts (id INTEGER …", "stops(stop_id, stop_name, stop_lat, stop_lon)".
_TABLE_DEFINITION = re.compile(r"^\s*(?:CREATE\s+(?:TABLE|VIEW)\b|"
                               r"[a-z_][\w.]*\s*\((?:\s*[a-z_]\w*(?:\s+[A-Za-z]+)?\s*,){2,})", re.I)


def label_query_schemas(lines: list[list[Sent]], labels: dict[int, set[Component]]) -> None:
    """The tables a text-to-SQL task queries are consulted, however the task introduces them ("Given the following
    GTFS tables, write a PostgreSQL query …" above "stops(stop_id, stop_name, …)"): each definition, to its ");"."""
    if not any(D in labels[m.index] and _WRITES_QUERY.search(m.text) for line in lines for m in line):
        return
    li = 0
    while li < len(lines):
        if _TABLE_DEFINITION.match(lines[li][0].text):
            end = li  # a CREATE TABLE over several lines runs to the line that closes it
            created = lines[li][0].text.lstrip().upper().startswith("CREATE")
            while created and end + 1 < len(lines) and not lines[end][-1].text.rstrip().endswith((");", ")")) and \
                    end - li < 40:
                end += 1
            labels.update((m.index, {A}) for line in lines[li:end + 1] for m in line)
            li = end
        li += 1


#: A user saying they pasted something below: "I've pasted the surveyor's report below", "we copied the logs below".
_PASTED_BELOW = re.compile(r"\b(?:i|we)(?:'ve|’ve| have)?\s+(?:pasted|copied|included|put|attached)\s+(?:in\s+)?"
                           r"(?:the|my|our|his|her|their|a|an|some)?\s*(?:[\w'’-]+\s+){0,3}?(?:below|underneath)\b|"
                           r"\b(?:pasted|copied)\s+(?:in\s+)?(?:below|underneath)\b", re.I)  # "… the log, pasted below"
#: A paragraph saying what follows it: "Below are the regs and MOT expiry dates.", on any of its lines.
_BELOW_ARE = re.compile(r"^\W*(?:below|underneath)\s+(?:are|is)\s+(?:the|my|our|all)\b", re.I)


#: A statement that hands something over: "Here's this week's stock count from the surgeries." (not "Here are our
#: policies.", what the task consults).
_HERE_IS = re.compile(r"^\W*here(?:'s|’s| is| are)\s+(?!(?:some |a bit of |a little )?(?:context|background)\b)"
                      r"[^:]*[.!]?\s*$", re.I)


def _hands_over(line: list[Sent], labels: dict[int, set[Component]]) -> bool:
    """Whether a line hands something over and asks the task of it in another sentence."""
    return any(_HERE_IS.match(m.text) and not names_consulted(m.text) and
               any(D in labels[o.index] for o in line if o is not m) for m in line)


def label_said_pasted_below(lines: list[list[Sent]], labels: dict[int, set[Component]],
                            blank_before: dict[int, bool]) -> None:
    """The block right under a line in which the user says they pasted something below ("I've pasted the surveyor's
    report below.") or hands it over beside the task ("Here's this week's stock count. Turn it into a CSV …"), up to
    the next blank line, is what they pasted: the task's input, title and fields included, when all of it is left as
    background."""
    top = 0  # where the paragraph of the line at hand starts
    for li in range(len(lines) - 1):
        if blank_before[lines[li][0].index]:
            top = li
        if not blank_before[lines[li + 1][0].index] or not any(_PASTED_BELOW.search(m.text) for m in lines[li]) and \
                not _hands_over(lines[li], labels) and \
                not any(_BELOW_ARE.match(m.text) for line in lines[top:li + 1] for m in line):
            continue
        end = paragraph_end(lines, blank_before, li + 1)
        block = [m for line in lines[li + 1:end] for m in line]
        if len(block) >= 2 and all(labels[m.index] == {A} and m.cues <= {A} for m in block) and \
                not (bare_label(block[0].text) and names_consulted(block[0].text)):  # "Evidence:" to check against
            labels.update((m.index, {D}) for m in block)


#: A task pointing at numbered items below it: "For each email below, give me …" (group 1: the items' noun).
_EACH_BELOW = re.compile(r"\b(?:each|every|all)\s+(?:of\s+(?:the|these|my|our)\s+)?(?:[\w-]+\s+){0,2}?(\w+?)s?\s+"
                         r"(?:below|underneath)\b", re.I)
#: A numbered entry's first line: "1) Von: Jana Krüger - Betreff: …", "2. From: IT Service".
_NUMBERED = re.compile(r"^\s*\d{1,2}[.)]\s+\S")


def label_numbered_entries_below(lines: list[list[Sent]], labels: dict[int, set[Component]],
                                 blank_before: dict[int, bool]) -> None:
    """The numbered entries, each a paragraph, under a task that points at each of them below ("For each email
    below, give me a summary" over "1) Von: …" and its body) are the task's input."""
    for li, line in enumerate(lines):
        pointed = next((p for m in line if D in labels[m.index] for p in [_EACH_BELOW.search(m.text)] if p), None)
        if pointed is None or names_consulted(pointed[1]):
            continue
        lj = li + 1
        while lj < len(lines) and _NUMBERED.match(lines[lj][0].text):
            end = paragraph_end(lines, blank_before, lj)
            entry = [m for entry_line in lines[lj:end] for m in entry_line]
            if not all(labels[m.index] <= {A, D} and m.cues <= {A, D} for m in entry):
                break
            labels.update((m.index, {D}) for m in entry)
            lj = end


#: A task pointing at a record of figures it pastes: "Pull the line items out of this supplier invoice …".
_THIS_RECORD = re.compile(r"\bthis\s+(?:[\w'’-]+\s+){0,2}?(?:invoice|receipt|statement|bill|quote|quotation|"
                          r"delivery note|timesheet|payslip|spreadsheet|price list)\b", re.I)


def label_record_pointed_at(lines: list[list[Sent]], labels: dict[int, set[Component]],
                            blank_before: dict[int, bool]) -> None:
    """The paragraphs of figures right under a task that points at "this invoice" (its title, "Date: 14/03/2024",
    "2 x Beef forequarter … = £563.94") are the record it works on, up to the first paragraph of prose ("Use kg as
    the unit …")."""
    for li, line in enumerate(lines[:-1]):
        task = line[-1]
        if D not in labels[task.index] or not _THIS_RECORD.search(task.text) or works_by([task.text]) or \
                key_value(task.text):
            continue  # not a field of a record ("Fees charged this statement: …")
        start = li + 1
        while start < len(lines):
            end = paragraph_end(lines, blank_before, start)
            block = lines[start:end]
            figures = [_figure_line(ln[0].text) for ln in block]
            if 2 * sum(figures) < len(block) or not all(
                    labels[m.index] <= {A, D} and (figure or not m.cues) for ln, figure in zip(block, figures)
                    for m in ln):
                break
            labels.update((m.index, {D}) for ln in block for m in ln)
            start = end


def _figure_line(text: str) -> bool:
    """A line of a record: a short field ("Date: 14/03/2024") or figures not ending a sentence ("Subtotal 180.00"),
    not prose ("I'm on Excel 365 so dynamic arrays are fine.", "Each item should have: sku, qty, …")."""
    field = key_value(text)
    return bool(field and len(field[0].split()) <= 3 or re.search(r"\d", text) and not re.search(r"[.?!]\s*$", text))
