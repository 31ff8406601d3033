"""Write the brief for an independent annotator of a new gold set: the definitions and conventions of LABELLING.md
(without its credits and its figures) and the task, in a folder the annotator works in and sees nothing else of.

    python bench/gold_brief.py NAME PREFIX "theme of the prompts" /tmp/newsets
    # then give a helper: "Read /tmp/newsets/NAME/PROMPT.txt and do exactly what it says."

The annotator writes ``drafts.jsonl`` there and runs bench/gold_tagger.py on it, which writes ``NAME_prompts.jsonl``.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LABELLING = HERE / "data" / "LABELLING.md"
REPO = HERE.parent

TASK = """\
You are an independent annotator writing a new hand-labelled gold set of prompts for a prompt-dissection tool.
Read {labelling} first: it defines the five components and the conventions for the hard cases. Look at no other file.

Write 60 prompts that people really send to LLMs (system prompts, one-off requests, templates with {{slots}},
few-shot blocks, prompts with pasted material), about: {theme}. Vary them: who writes them, length (one line to
twenty lines), tone (terse, chatty, with typos), layout (plain prose, bullet lists, headings, labelled fields, pasted
records, examples), and which components they hold. At least 30 prompts have no Role; at least 15 sentences in all
have two labels (only where a sentence really does two jobs).

Label every sentence by its meaning in its context. Sentences are what the tagger's splitter makes of the prompt (it
prints them), not what you meant them to be: a newline ends a sentence, and so do ".", "?" and "!" before a capital
letter or digit (not before a lower-case word: "ok. thanks" stays one sentence; "Mk.Ia" splits); a line of a list is a
sentence. The same sentence text cannot appear twice in one prompt with different labels (the tagged format keeps one
copy). Give one code a sentence: R Role, D Directive, A Additional Information, O Output Formatting, E Examples;
"D+O" for a sentence with two jobs.

Append the drafts to {folder}/drafts.jsonl, one JSON object a line:
{{"id": "{prefix}-short-slug", "domain": "who writes it and what for", "prompt": "...", "labels": ["R", "D", "D+O"]}}
Ids start with "{prefix}-" and are unique. After each batch, run (from {repo}):
    .venv/bin/python bench/gold_tagger.py {folder}/drafts.jsonl {folder}/{name}_prompts.jsonl
It prints each sentence beside its code: fix every ERROR (usually a code count that does not match the sentences) and
every label that looks wrong next to its sentence. Finish when it writes 60 records with no error, and reply with its
TOTALS line.
"""


def labelling_excerpt(text: str) -> str:
    """The definitions and conventions of LABELLING.md, without the credits and the agreement figure."""
    head, _, rest = text.partition("Who labelled what:")
    split = rest[rest.index("Where the independent annotators split"):]
    head = re.sub(r"\s*\(what two independent annotators agreed[^)]*\)", "", head)
    return head.rstrip() + "\n\n" + split.strip() + "\n"


def write_brief(name: str, prefix: str, theme: str, root: Path) -> Path:
    """Write ``root/name/LABELLING.md`` and ``root/name/PROMPT.txt``; return the latter."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    labelling = folder / "LABELLING.md"
    labelling.write_text(labelling_excerpt(LABELLING.read_text(encoding="utf-8")), encoding="utf-8")
    brief = folder / "PROMPT.txt"
    brief.write_text(TASK.format(labelling=labelling, theme=theme, folder=folder, prefix=prefix, name=name,
                                 repo=REPO), encoding="utf-8")
    return brief


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("prefix")
    parser.add_argument("theme")
    parser.add_argument("root", type=Path)
    args = parser.parse_args(argv)
    if (HERE / "data" / f"{args.name}_prompts.jsonl").exists():
        parser.error(f"a gold set named {args.name!r} exists already")
    if any(f'"id": "{args.prefix}-' in p.read_text(encoding="utf-8") for p in (HERE / "data").glob("*_prompts.jsonl")):
        parser.error(f"ids starting {args.prefix}- exist already")
    print(write_brief(args.name, args.prefix, args.theme, args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
