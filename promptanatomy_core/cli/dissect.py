"""``promptanatomy dissect``: label each sentence of a prompt with its components; also how the other commands get a
dissector (:func:`check_dissector_args`, :func:`build_dissector`)."""
from __future__ import annotations

import argparse
import json

from ..text import PromptError
from .common import EXIT_OK, CLIError, UsageError, add_command, known_providers, parse_model, read_prompt, write_out


def add_dissect(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = add_command(
        sub, "dissect",
        help="label each sentence of a prompt with its components",
        description="Split a prompt into sentences and label each with its components (Role, Directive, "
                    "Additional Information, Output Formatting, Examples). Offsets index into the prompt as read "
                    "(for --input-format tagged: into the untagged prompt rebuilt from the tags).",
    )
    p.add_argument("--dissector", default=None, metavar="NAME",
                   help="rules (offline, the default) or llm (a model labels the sentences; see --model)")
    p.add_argument("--model", default=None, metavar="SPEC",
                   help="the model for --dissector llm: local, local:<hf id or path>, openai:<model>[@<base_url>], "
                        "anthropic:<model>")
    p.add_argument("--format", dest="output_format", choices=("json", "tagged"), default="json",
                   help="json: sentences with offsets, labels and source (default); tagged: XML component tags")
    p.add_argument("--input-format", choices=("plain", "tagged"), default="plain",
                   help="plain: a prompt to dissect (default); tagged: an XML-tagged (gold) prompt to re-emit, "
                        "e.g. to convert it to JSON")
    return p


def check_dissector_args(name: str, model: str | None) -> None:
    """Reject an unknown dissector name or a malformed SPEC before any input is read or model loaded."""
    from .. import dissect as dissect_pkg  # importing the package registers the built-in dissectors
    from ..dissect.base import available

    del dissect_pkg
    names = available()
    if name not in names:
        raise UsageError(f"unknown dissector {name!r}; choose one of: {', '.join(names) or '(none registered)'}")
    if model is not None:
        if name != "llm":
            raise UsageError(f"--model applies to --dissector llm, not {name!r}")
        parse_model(model, providers=sorted(known_providers()))


def build_dissector(name: str, model: str | None):
    """The dissector ``name`` from the registry, with ``model`` as its ``model=`` option when given."""
    from ..dissect.base import get_dissector

    options: dict[str, object] = {} if model is None else {"model": model}
    try:
        return get_dissector(name, **options)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"cannot build dissector {name!r}: {exc}") from None


def cmd_dissect(args: argparse.Namespace) -> int:
    from ..tagged import parse_tagged, render_tagged

    if args.input_format == "tagged":
        if args.dissector is not None or args.model is not None:
            raise UsageError("--dissector/--model have no effect with --input-format tagged (the tags are the labels)")
        prompt = read_prompt(args.file)
        try:
            dissection = parse_tagged(prompt, source="gold")
        except PromptError as exc:
            raise CLIError(f"bad tagged input: {exc}") from None
        name = "gold"
    else:
        name = args.dissector or "rules"
        check_dissector_args(name, args.model)
        prompt = read_prompt(args.file)  # read first: a bad input fails fast, before any model loads
        dissector = build_dissector(name, args.model)
        try:
            dissection = dissector.dissect(prompt)
        except PromptError as exc:
            raise CLIError(str(exc)) from None
    if args.output_format == "json":
        write_out(json.dumps(dissection.to_json(dissector=name), ensure_ascii=False, indent=2))
    else:
        write_out(render_tagged(dissection))
    return EXIT_OK

