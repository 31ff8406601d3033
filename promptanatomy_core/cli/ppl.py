"""``promptanatomy ppl``: the perplexity of JSON-lines texts under a local language model."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..jsonlines import json_lines
from .common import EXIT_OK, CLIError, UsageError, add_command, parse_model, write_out

_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean",
               type(None): "null"}


def add_ppl(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = add_command(
        sub, "ppl",
        help="perplexity of texts under a local language model",
        description='Read JSON lines {"text": ...} and print each line\'s object with "ppl" added: the perplexity '
                    "of its text under a local causal language model (every token scored after one BOS token; "
                    "texts longer than the context use a sliding window). Blank lines are skipped.",
        file_help="JSON lines (UTF-8); '-' or none reads stdin",
    )
    p.add_argument("--model", default="local", metavar="SPEC",
                   help="local (the default: PROMPTANATOMY_MODEL, else the embedded SmolLM2) or "
                        "local:<hf id or path>")
    return p


def _read_ppl_lines(path: str | None) -> list[dict]:
    """The objects of a JSON-lines input, each with a non-empty string ``text``; CLIError naming the first bad line."""
    where = "stdin" if path in (None, "-") else repr(path)
    try:
        if path not in (None, "-"):
            data: bytes | str = Path(path).read_bytes()
        elif sys.stdin is None or (path is None and sys.stdin.isatty()):
            raise UsageError("no input: give a FILE, or pipe JSON lines on stdin ('-' reads a terminal)")
        else:
            buffer = getattr(sys.stdin, "buffer", None)
            data = buffer.read() if buffer is not None else sys.stdin.read()
    except OSError as exc:
        raise CLIError(f"cannot read {where}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    except UnicodeDecodeError as exc:
        raise CLIError(f"{where} is not UTF-8 text (undecodable byte at offset {exc.start})") from None
    items: list[dict] = []
    for number, item in json_lines(text, where, CLIError):
        problem = None
        if not isinstance(item, dict):
            problem = f'expected a JSON object with a "text" string, found a JSON {_JSON_TYPES.get(type(item))}'
        elif "text" not in item:
            problem = 'the object has no "text" field'
        elif not isinstance(item["text"], str):
            problem = f'"text" is a JSON {_JSON_TYPES.get(type(item["text"]))}, not a string'
        elif not item["text"]:
            problem = '"text" is empty; perplexity needs at least one token'
        if problem:
            raise CLIError(f"{where} line {number}: {problem}")
        items.append(item)
    if not items:
        raise CLIError(f'{where} holds no JSON lines; give one object {{"text": ...}} a line')
    return items


def cmd_ppl(args: argparse.Namespace) -> int:
    import math

    spec = parse_model(args.model, providers=None)
    if spec.provider != "local":
        raise UsageError(f"ppl needs a local model (its token probabilities), not {args.model!r}; "
                         f"use local or local:<hf id or path>")
    items = _read_ppl_lines(args.file)  # read first: a bad input fails fast, before the model loads
    from ..scoring.perplexity import PerplexityError, PerplexityScorer

    try:
        scores = PerplexityScorer(model=spec.model or None).score([item["text"] for item in items])
    except PerplexityError as exc:
        raise CLIError(str(exc)) from None
    write_out("\n".join(json.dumps({**item, "ppl": ppl if math.isfinite(ppl) else None}, ensure_ascii=False)
                        for item, ppl in zip(items, scores)))
    return EXIT_OK

