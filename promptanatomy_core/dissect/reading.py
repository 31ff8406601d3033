"""How the rules read a prompt's sentences and the labels over its blocks: a sentence with its cues and where it
stands, whether a line only names the block below it ("Claimant statement:", "notes:"), the noun it names the block
by, and whether that noun is something the task consults rather than works on."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..types import Component
from .cues import REFERENCE, TABLE_ROW


@dataclass
class Sent:
    """A sentence as the rules read it: its place, its cues and what its line makes of it."""

    index: int
    text: str
    start: int
    end: int
    cues: set[Component]
    weak_role: bool
    input_label: bool
    reference: bool = False  # material the model consults ("<documents>", "Context: {context}"): background
    final: bool = False  # the prompt's last sentence (often the open slot the answer continues: "SELECT", "A:")


#: A line that is only a label: "Company:", "Deal stage (one of: Discovery, Qualified):", ":office: *Account:*".
LABEL_ONLY = re.compile(r"^\s*[-*]?\s*(?:(?::[a-z_+-]+:|[^\w\s*_:#>])\s*(?P<wrap>[*_]{1,2})?)?[A-Z][^:(\n]{0,60}"
                        r"(?:\([^)\n]*\))?\s*:(?(wrap)\s*[*_]{1,2})\s*$")
#: Words that point the task at material: "the data below", "this email", "here are my notes".
POINTER = re.compile(r"\b(?:below|following|this|these|here(?:'s| is| are))\b", re.I)
#: What a task consults rather than works on, however it names it: "against the rubric", "the intents below".
CONSULTED_NOUN = re.compile(r"rubric|criteria|criterion|guidelines?|rules?|intents?|categor(?:y|ies)|labels?|codes|"
                            r"codebook|playbook|functions?|tools?|conventions?|polic(?:y|ies)|standards?(?!\s+sql)|"
                            r"taxonomy|glossary|schema|definitions?|information|info|handlers?|agents?|destinations?|"
                            r"queues?|teams?|departments?|meanings?|legend|"  # "Code meanings:" above what C1, C2 mean
                            r"guidance|extracts",  # "Using the guidance extracts below, tell me whether …"
                            re.I)  # not the "Standard SQL" a query is converted to


#: A task saying what it works by: "… using only the policy extracts below", "Check the claim against the rules",
#: "Recommend up to two straps from the range" (not "… from the choices given", the options of a question), the noun
#: up to three words on ("… the product data sheet extracts below"), never "the input" the data come in
#: (group 1 or 2: "only", where it says it works by nothing else; group 3: the noun).
_WORKS_BY = re.compile(r"\b(?:(?:using|use) (only)|(only) (?:using|use)|against|according to|"
                       r"(?:pick|choose|select|recommend|suggest)\b[^.;:]{0,50}?\bfrom"
                       r"(?!\s+\w+\s+(?:[\w-]+\s+)?(?:choices|options|answers|alternatives)\b))\s+"
                       r"(?:the|these|this|our)\s+(?:[\w'’-]+\s+){0,3}?(?!inputs?\b)([\w-]+?)s?"
                       r"(?=\s+(?:below|above|given|provided|listed|here|to|for|and|when|that|which)\b|"
                       r"\s*[,.;:)]|\s*$)", re.I)


def works_by(texts: Iterable[str], only: bool = False) -> set[str]:
    """The nouns, lower-cased, with and without a plural "s", that sentences name what the task works by with
    ("… using only the policy extracts below": extract, extracts); with ``only``, just where it says it uses nothing
    else."""
    nouns = {m[3].lower() for text in texts for m in _WORKS_BY.finditer(text) if not only or m[1] or m[2]}
    return nouns | {noun + "s" for noun in nouns}


def names_consulted(text: str) -> bool:
    """Whether a label or heading names what the task consults ("Reference policy:", "## Tools", "Rubric:")."""
    short = len(text.split()) <= 6  # "Status codes:", not a task that assigns them ("Assign ICD-10 codes to …")
    return bool(REFERENCE.search(text)) or any(short or m[0].lower() != "codes" for m in CONSULTED_NOUN.finditer(text))


def bare_label(text: str) -> bool:
    """A line that only names the block below it: "Claimant statement:", "TRANSCRIPT", "notes:"."""
    return bool(LABEL_ONLY.match(text) or re.fullmatch(r"\s*(?-i:[A-Z]{3,}(?: [A-Z]{3,})?)\s*", text) or
                re.fullmatch(r"\s*[a-z][a-z ]{0,25}(?:\([^)\n]{0,60}\)\s*)?:\s*", text))  # lower case: "notes (x):"


def head_noun(label: str) -> str:
    """The noun a label names its block by: "Claimant statement (signed):" -> "statement", "Notes from X" -> "notes",
    "Facts to use:" -> "facts"."""
    cased = re.sub(r"\([^)]*\)|[^\w\s-]", " ", label).split()
    while len(cased) > 1 and re.search(r"\d", cased[-1]):
        cased.pop()  # an identifier or a date names which one: "Purchase order PO-2291" -> "order"
    words = [word.lower() for word in cased]
    shouted = label.isupper()  # "NOTES FROM THE CALL"; in "Final DA (USD):" the "DA" is a name, no "da" of Portuguese
    for i, word in enumerate(words):
        if i and (shouted or not cased[i].isupper()) and word in (
                "from", "of", "for", "by", "on", "about", "to", "de", "du", "des", "von", "del", "di", "do", "da",
                "dos", "das", "della", "van"):
            return words[i - 1]
    return words[-1] if words else "\0"


def table_row(line: list[Sent]) -> bool:
    """Whether a line is a markdown table row, read whole: the splitter may cut it at ". " inside a cell."""
    return bool(TABLE_ROW.match(" ".join(m.text for m in line)))


def paragraph_end(lines: list[list[Sent]], blank_before: dict[int, bool], first: int) -> int:
    """The line after the paragraph that line ``first`` opens: the next line with a blank line above it, or the end."""
    end = first + 1
    while end < len(lines) and not blank_before[lines[end][0].index]:
        end += 1
    return end
