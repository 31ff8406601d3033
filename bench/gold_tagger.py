"""Turn an annotator's drafts into a gold set in the datasets' XML-tagged format, and check it on the way.

A draft is one JSON object a line: ``{"id", "domain", "prompt", "labels": ["R", "D", "A+O", ...]}``, one code per
sentence of the prompt as ``promptanatomy_core.text.split_sentences`` splits it (R Role, D Directive, A Additional
Information, O Output Formatting, E Examples; ``+`` joins the codes of a sentence with two jobs). The tagger prints
each sentence beside its code so that the annotator can see the split, every error with the record it is in, and the
totals a brief asks about; it writes the gold set only when no record has an error.

    python bench/gold_tagger.py drafts.jsonl out_prompts.jsonl
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from promptanatomy_core.accuracy import label_code
from promptanatomy_core.jsonlines import json_lines
from promptanatomy_core.tagged import TagError, parse_tagged
from promptanatomy_core.text import split_sentences
from promptanatomy_core.types import COMPONENTS, Component

CODES: dict[str, Component] = {label_code({c}): c for c in COMPONENTS}  # the letters the accuracy report uses


class DraftError(ValueError):
    """A draft that cannot become a gold record; the message says why."""


def parse_code(code: str) -> frozenset[Component]:
    """The label set of one code ("D", "A+O"); raises :class:`DraftError` on anything else."""
    parts = [p.strip().upper() for p in code.split("+")]
    if not all(p in CODES for p in parts) or len(set(parts)) != len(parts):
        raise DraftError(f"bad code {code!r} (use R, D, A, O, E, joined with + for two jobs)")
    return frozenset(CODES[p] for p in parts)


def tag(prompt: str, codes: list[str]) -> str:
    """The XML-tagged text of ``prompt`` with one label code per sentence, checked by parsing it back.

    Consecutive sentences with the same labels share one block; a block with two labels is written inside both tags.
    """
    prompt = prompt.strip()
    sentences = split_sentences(prompt)
    if len(codes) != len(sentences):
        raise DraftError(f"{len(codes)} codes for {len(sentences)} sentences")
    labels = [parse_code(c) for c in codes]
    blocks: list[tuple[int, int, frozenset[Component]]] = []  # (first sentence, last sentence, labels)
    for i, lab in enumerate(labels):
        if blocks and blocks[-1][2] == lab:
            blocks[-1] = (blocks[-1][0], i, lab)
        else:
            blocks.append((i, i, lab))
    parts = []
    prev_end = 0
    for first, last, lab in blocks:
        text = prompt[sentences[first].start:sentences[last].end]
        parts.append(prompt[prev_end:sentences[first].start] if parts else "")
        parts.extend(f"<{c.value}>{text}</{c.value}>" for c in COMPONENTS if c in lab)
        prev_end = sentences[last].end
    tagged = "".join(parts)
    try:
        back = parse_tagged(tagged)
    except TagError as exc:  # a sentence holding text that reads as a component tag
        raise DraftError(f"the tagged text does not parse back ({exc})") from None
    if [s.text for s in back.sentences] != [s.text for s in sentences] or [s.labels for s in back.sentences] != labels:
        raise DraftError("the tagged text parses back to other sentences or labels (a sentence repeated verbatim?)")
    return tagged


@dataclass
class Totals:
    """What a brief asks the annotator to check: how many records, sentences and two-label sentences."""

    records: int = 0
    sentences: int = 0
    two_labels: int = 0
    without_role: int = 0
    labels: Counter = field(default_factory=Counter)

    def add(self, codes: list[str]) -> None:
        self.records += 1
        self.sentences += len(codes)
        sets = [parse_code(c) for c in codes]
        self.two_labels += sum(len(s) > 1 for s in sets)
        self.without_role += not any(Component.ROLE in s for s in sets)
        self.labels.update(c.value for s in sets for c in s)

    def __str__(self) -> str:
        counts = ", ".join(f"{c.value} {self.labels[c.value]}" for c in COMPONENTS)
        return (f"TOTALS: {self.records} records, {self.sentences} sentences, {self.two_labels} with two labels, "
                f"{self.without_role} prompts without Role; labels: {counts}")


def _record(draft: object) -> tuple[str, str, str, list[str]]:
    if not isinstance(draft, dict):
        raise DraftError("not a JSON object")
    missing = [k for k in ("id", "domain", "prompt", "labels") if k not in draft]
    if missing:
        raise DraftError(f"missing {', '.join(missing)}")
    if not isinstance(draft["labels"], list) or not all(isinstance(c, str) for c in draft["labels"]):
        raise DraftError("labels must be a list of codes")
    return str(draft["id"]), str(draft["domain"]), str(draft["prompt"]), draft["labels"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("drafts", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    records, errors, seen, totals = [], 0, set(), Totals()
    for number, draft in json_lines(args.drafts.read_text(encoding="utf-8"), str(args.drafts), DraftError):
        try:
            rid, domain, prompt, codes = _record(draft)
            if rid in seen:
                raise DraftError(f"duplicate id {rid!r}")
            seen.add(rid)
            print(f"== {rid}")
            for s, code in zip(split_sentences(prompt.strip()), codes + ["?"] * len(prompt)):
                print(f"  {code:<4} {s.text!r}")
            records.append({"id": rid, "domain": domain, "tagged": tag(prompt, codes)})
            totals.add(codes)
        except DraftError as exc:
            errors += 1
            print(f"ERROR line {number}: {exc}")
    print(totals)
    if errors:
        print(f"{errors} record(s) with errors; nothing written")
        return 1
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    print(f"wrote {len(records)} records to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
