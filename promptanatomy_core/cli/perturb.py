"""``promptanatomy perturb``: perturb one component of a prompt (ComPerturb) and print the variants."""
from __future__ import annotations

import argparse
import json

from ..text import PromptError
from .common import (EXIT_OK, EXIT_RUNTIME, CLIError, UsageError, add_command, parse_keep_top, parse_model, read_prompt,
                     write_out)
from .dissect import build_dissector, check_dissector_args


def add_perturb(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = add_command(
        sub, "perturb",
        help="perturb one component of a prompt (ComPerturb) and print the variants",
        description="Perturb one component of a prompt with one strategy and print a JSON list of variants "
                    '{"strategy", "component", "seed", "text", "ppl", "ppl_ratio", "kept", "note", "edits"}. '
                    "text is the prompt exactly as a model receives it: no component tags, only the target's spans "
                    "changed. Unless --no-score, every variant's perplexity under a local model is computed and the "
                    "filter keeps the top --keep-top share by PPL(variant) / PPL(clean).",
        file_help="the prompt: XML-tagged (<Role>…</Role>; detected by its component tags) or plain text, "
                  "dissected with --dissector; '-' or none reads stdin",
    )
    p.add_argument("--strategy", required=True, metavar="S",
                   help="SCI, SYR, WOD, SER, COD, or a whole-prompt baseline (PromptRobust-DeepWordBug, "
                        "PromptRobust-TextBugger, PromptRobust-TextFooler, MTTM-Char, MTTM-Word, MTTM-Sentence)")
    p.add_argument("--component", default=None, metavar="C",
                   help="Role, Directive, 'Additional Information', 'Output Formatting', Examples, CRT (the control "
                        "group) or 'whole prompt' (the baselines' default)")
    p.add_argument("--ratio", type=float, default=0.1, metavar="R",
                   help="share of the words (sentences) to perturb, in (0, 1]: 0.1 the paper's text (default), "
                        "0.2 its reference code")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the first variant (default 0)")
    p.add_argument("-n", type=int, default=1, dest="n", metavar="K",
                   help="variants to make (seeds N … N+K-1; default 1)")
    p.add_argument("--keep-top", default="0.2", metavar="SHARE",
                   help="share of the variants the perplexity filter keeps (default 0.2, the paper's), or none to "
                        "keep all")
    p.add_argument("--no-score", action="store_true",
                   help="skip perplexity (no model runs): ppl, ppl_ratio and kept stay null")
    p.add_argument("--ppl-model", default="local", metavar="SPEC",
                   help="the perplexity model: local (default) or local:<hf id or path>")
    p.add_argument("--dissector", default=None, metavar="NAME",
                   help="for plain-text input: rules (offline, the default) or llm")
    p.add_argument("--paraphrase-model", default="local", metavar="SPEC",
                   help="SER's paraphrase model (default local, the embedded model)")
    p.add_argument("--offline", action="store_true",
                   help="SER: use only the offline WordNet rewrite (no paraphrase model)")
    return p


def _perturb_options(args: argparse.Namespace):
    """Check the perturb arguments before any input is read: the strategy, its options, the target and keep-top."""
    from ..perturb import PerturbError, get_strategy, strategy_class
    from ..perturb.base import resolve_target

    try:
        cls = strategy_class(args.strategy)
        target = resolve_target(args.component) if args.component is not None else cls.default_target
    except PerturbError as exc:
        raise UsageError(str(exc)) from None
    if target is None:
        raise UsageError(f"--component is required for {cls.name}: Role, Directive, 'Additional Information', "
                         f"'Output Formatting', Examples or CRT")
    options: dict[str, object] = {"ratio": args.ratio}
    if cls.name == "SER":
        if not args.offline:
            parse_model(args.paraphrase_model, "--paraphrase-model")
        options.update(backend=args.paraphrase_model, offline=args.offline)
    elif args.offline or args.paraphrase_model != "local":
        raise UsageError("--offline/--paraphrase-model apply to --strategy SER only")
    if isinstance(args.n, int) and not 1 <= args.n <= 1000:
        raise UsageError(f"-n must be from 1 to 1000, not {args.n}")
    keep_top = parse_keep_top(args.keep_top)
    if not args.no_score:
        from ..scoring.perplexity import PerplexityError, parse_model as parse_ppl_model

        try:
            parse_ppl_model(args.ppl_model)
        except PerplexityError as exc:
            raise UsageError(f"bad --ppl-model: {exc}") from None
    try:
        strategy = get_strategy(cls.name, **options)
    except RuntimeError as exc:  # WordNet missing: the message names the fix
        raise CLIError(str(exc), EXIT_RUNTIME) from None
    except (PerturbError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    return strategy, target, keep_top


def _read_dissection(path: str | None, dissector: str | None):
    """The prompt in FILE as a dissection: parsed from its component tags when it has some, else dissected."""
    from ..datasets import _COMPONENT_TAG
    from ..tagged import parse_tagged

    name = dissector or "rules"
    check_dissector_args(name, None)
    prompt = read_prompt(path)
    if _COMPONENT_TAG.search(prompt):
        if dissector is not None:
            raise UsageError("--dissector has no effect on XML-tagged input (the tags are the labels)")
        try:
            return parse_tagged(prompt, source="gold")
        except PromptError as exc:
            raise CLIError(f"bad tagged input: {exc}") from None
    try:
        return build_dissector(name, None).dissect(prompt)
    except PromptError as exc:
        raise CLIError(str(exc)) from None


def cmd_perturb(args: argparse.Namespace) -> int:
    from ..perturb import PerturbError

    strategy, target, keep_top = _perturb_options(args)
    dissection = _read_dissection(args.file, args.dissector)
    try:
        variants = [strategy.perturb(dissection, target, args.seed + i) for i in range(args.n)]
    except PerturbError as exc:
        raise CLIError(str(exc)) from None
    if not args.no_score:
        from ..scoring.filter import score_and_filter
        from ..scoring.perplexity import PerplexityError, PerplexityScorer

        try:
            _, variants = score_and_filter(dissection.prompt, variants, PerplexityScorer(model=args.ppl_model),
                                           keep_top=keep_top)
        except PerplexityError as exc:
            raise CLIError(str(exc), EXIT_RUNTIME) from None
    write_out(json.dumps([v.to_json() for v in variants], ensure_ascii=False, indent=2))
    return EXIT_OK

