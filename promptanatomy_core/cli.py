"""The command line: ``promptanatomy <command> …`` (also ``python -m promptanatomy_core …``).

Each command is one ``_add_<name>`` function that declares its arguments and one ``_cmd_<name>(args) -> int`` that
does the work through the engine; :data:`COMMANDS` lists them, so a new command is two functions and one entry.

Errors never print a traceback (unless ``--debug``): one line ``promptanatomy: error: …`` on stderr, and exit status
2 for usage and input errors, 1 for model and runtime errors, 130 when interrupted.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

from .text import MAX_PROMPT_CHARS, PromptError, validate_prompt

PROG = "promptanatomy"

EXIT_OK = 0
EXIT_RUNTIME = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

_MAX_MESSAGE = 1000

#: The providers a SPEC may name (models/base.py); one whose backend this build lacks is a runtime error, not usage.
SPEC_PROVIDERS = ("local", "openai", "anthropic")


class CLIError(Exception):
    """An error to report as one line; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


class UsageError(CLIError):
    """Bad command-line arguments (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of printing usage and exiting, so errors stay on one line."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ----------------------------------------------------------------------------------------------------------- input

def read_input(path: str | None) -> bytes | str:
    """The raw input of FILE, or of stdin for ``None``/``-``; at most a little more than the size limit is read."""
    limit = MAX_PROMPT_CHARS * 4 + 1  # UTF-8 needs at most 4 bytes a character
    if path is None or path == "-":
        stream = sys.stdin
        if stream is None:
            raise UsageError("no input: give a FILE or pipe the prompt on stdin")
        try:
            if path is None and stream.isatty():
                raise UsageError("no input: give a FILE, or pipe the prompt on stdin ('-' reads a terminal)")
        except (AttributeError, ValueError):
            pass
        buffer = getattr(stream, "buffer", None)
        try:
            data = buffer.read(limit) if buffer is not None else stream.read(limit)
        except UnicodeDecodeError as exc:
            raise CLIError(f"stdin is not UTF-8 text (undecodable byte at offset {exc.start})") from None
        except OSError as exc:
            raise CLIError(f"cannot read stdin: {exc.strerror or exc}") from None
        where = "stdin"
    else:
        p = Path(path)
        try:
            if p.is_dir():
                raise CLIError(f"{path!r} is a directory, not a file")
            with open(p, "rb") as fh:
                data = fh.read(limit)
        except FileNotFoundError:
            raise CLIError(f"cannot read {path!r}: no such file") from None
        except PermissionError:
            raise CLIError(f"cannot read {path!r}: permission denied") from None
        except IsADirectoryError:
            raise CLIError(f"{path!r} is a directory, not a file") from None
        except OSError as exc:
            raise CLIError(f"cannot read {path!r}: {exc.strerror or exc}") from None
        where = repr(path)
    if len(data) >= limit:
        raise CLIError(f"{where} holds more than {limit - 1:,} bytes; the limit is {MAX_PROMPT_CHARS:,} characters")
    return data


def read_prompt(path: str | None) -> str:
    """The prompt in FILE or stdin, validated: UTF-8 text, not empty, not binary, within the size limit."""
    data = read_input(path)
    if isinstance(data, (bytes, bytearray)) and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a UTF-8 byte-order mark is not part of the prompt
    elif isinstance(data, str) and data.startswith("\ufeff"):
        data = data[1:]
    where = "stdin" if path in (None, "-") else repr(path)
    try:
        return validate_prompt(data)
    except PromptError as exc:
        raise CLIError(f"{where}: {exc}") from None


# ---------------------------------------------------------------------------------------------------------- output

def write_out(text: str) -> None:
    """Write ``text`` and a newline to stdout, as UTF-8 even where the terminal's encoding cannot hold it."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            raise
        sys.stdout.flush()
        buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


# --------------------------------------------------------------------------------------------------------- dissect

def _add_dissect(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "dissect",
        help="label each sentence of a prompt with its components",
        description="Split a prompt into sentences and label each with its components (Role, Directive, "
                    "Additional Information, Output Formatting, Examples). Offsets index into the prompt as read "
                    "(for --input-format tagged: into the untagged prompt rebuilt from the tags).",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="the prompt (UTF-8 text); '-' or none reads stdin")
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


def _check_dissector_args(name: str, model: str | None) -> None:
    """Reject an unknown dissector name or a malformed SPEC before any input is read or model loaded."""
    from . import dissect as dissect_pkg  # importing the package registers the built-in dissectors
    from .dissect.base import available

    del dissect_pkg
    names = available()
    if name not in names:
        raise UsageError(f"unknown dissector {name!r}; choose one of: {', '.join(names) or '(none registered)'}")
    if model is not None:
        if name != "llm":
            raise UsageError(f"--model applies to --dissector llm, not {name!r}")
        from .models import base as models_base

        try:
            spec = models_base.parse_spec(model)
        except ValueError as exc:
            raise UsageError(f"bad --model SPEC: {exc}") from None
        known = set(SPEC_PROVIDERS) | set(getattr(models_base, "_PROVIDERS", {}))
        if spec.provider not in known:
            raise UsageError(f"bad --model SPEC {model!r}: unknown provider {spec.provider!r}; "
                             f"use one of: {', '.join(sorted(known))}")


def _build_dissector(name: str, model: str | None):
    """The dissector ``name`` from the registry, with ``model`` as its ``model=`` option when given."""
    from .dissect.base import get_dissector

    options: dict[str, object] = {} if model is None else {"model": model}
    try:
        return get_dissector(name, **options)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"cannot build dissector {name!r}: {exc}") from None


def _cmd_dissect(args: argparse.Namespace) -> int:
    from .tagged import parse_tagged, render_tagged

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
        _check_dissector_args(name, args.model)
        prompt = read_prompt(args.file)  # read first: a bad input fails fast, before any model loads
        dissector = _build_dissector(name, args.model)
        try:
            dissection = dissector.dissect(prompt)
        except PromptError as exc:
            raise CLIError(str(exc)) from None
    if args.output_format == "json":
        write_out(json.dumps(dissection.to_json(dissector=name), ensure_ascii=False, indent=2))
    else:
        write_out(render_tagged(dissection))
    return EXIT_OK


# --------------------------------------------------------------------------------------------------------- perturb

def _add_perturb(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "perturb",
        help="perturb one component of a prompt (ComPerturb) and print the variants",
        description="Perturb one component of a prompt with one strategy and print a JSON list of variants "
                    '{"strategy", "component", "seed", "text", "ppl", "ppl_ratio", "kept", "note", "edits"}. '
                    "text is the prompt exactly as a model receives it: no component tags, only the target's spans "
                    "changed. Unless --no-score, every variant's perplexity under a local model is computed and the "
                    "filter keeps the top --keep-top share by PPL(variant) / PPL(clean).",
    )
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the prompt: XML-tagged (<Role>…</Role>; detected by its component tags) or plain text, "
                        "dissected with --dissector; '-' or none reads stdin")
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
    from .perturb import PerturbError, get_strategy, strategy_class
    from .perturb.base import resolve_target

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
            from .models import base as models_base

            try:
                spec = models_base.parse_spec(args.paraphrase_model)
            except ValueError as exc:
                raise UsageError(f"bad --paraphrase-model SPEC: {exc}") from None
            if spec.provider not in SPEC_PROVIDERS:
                raise UsageError(f"bad --paraphrase-model SPEC {args.paraphrase_model!r}: unknown provider "
                                 f"{spec.provider!r}; use one of: {', '.join(SPEC_PROVIDERS)}")
        options.update(backend=args.paraphrase_model, offline=args.offline)
    elif args.offline or args.paraphrase_model != "local":
        raise UsageError("--offline/--paraphrase-model apply to --strategy SER only")
    if isinstance(args.n, int) and not 1 <= args.n <= 1000:
        raise UsageError(f"-n must be from 1 to 1000, not {args.n}")
    keep = str(args.keep_top).strip().lower()
    if keep == "none":
        keep_top = None
    else:
        try:
            keep_top = float(keep)
        except ValueError:
            raise UsageError(f"--keep-top must be a share in (0, 1] or none, not {args.keep_top!r}") from None
        if not 0 < keep_top <= 1:
            raise UsageError(f"--keep-top must be a share in (0, 1] or none, not {args.keep_top!r}")
    if not args.no_score:
        from .scoring.perplexity import PerplexityError, parse_model

        try:
            parse_model(args.ppl_model)
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
    from .datasets import _COMPONENT_TAG
    from .tagged import parse_tagged

    name = dissector or "rules"
    _check_dissector_args(name, None)
    prompt = read_prompt(path)
    if _COMPONENT_TAG.search(prompt):
        if dissector is not None:
            raise UsageError("--dissector has no effect on XML-tagged input (the tags are the labels)")
        try:
            return parse_tagged(prompt, source="gold")
        except PromptError as exc:
            raise CLIError(f"bad tagged input: {exc}") from None
    try:
        return _build_dissector(name, None).dissect(prompt)
    except PromptError as exc:
        raise CLIError(str(exc)) from None


def _cmd_perturb(args: argparse.Namespace) -> int:
    from .perturb import PerturbError

    strategy, target, keep_top = _perturb_options(args)
    dissection = _read_dissection(args.file, args.dissector)
    try:
        variants = [strategy.perturb(dissection, target, args.seed + i) for i in range(args.n)]
    except PerturbError as exc:
        raise CLIError(str(exc)) from None
    if not args.no_score:
        from .scoring.filter import score_and_filter
        from .scoring.perplexity import PerplexityError, PerplexityScorer

        try:
            _, variants = score_and_filter(dissection.prompt, variants, PerplexityScorer(model=args.ppl_model),
                                           keep_top=keep_top)
        except PerplexityError as exc:
            raise CLIError(str(exc), EXIT_RUNTIME) from None
    write_out(json.dumps([v.to_json() for v in variants], ensure_ascii=False, indent=2))
    return EXIT_OK


# ------------------------------------------------------------------------------------------------------------- ppl

_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean",
               type(None): "null"}


def _add_ppl(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "ppl",
        help="perplexity of texts under a local language model",
        description='Read JSON lines {"text": ...} and print each line\'s object with "ppl" added: the perplexity '
                    "of its text under a local causal language model (every token scored after one BOS token; "
                    "texts longer than the context use a sliding window). Blank lines are skipped.",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="JSON lines (UTF-8); '-' or none reads stdin")
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
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CLIError(f"{where} line {number}: not valid JSON ({exc.msg} at column {exc.colno})") from None
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


def _cmd_ppl(args: argparse.Namespace) -> int:
    import math

    from .models import base as models_base

    try:
        spec = models_base.parse_spec(args.model)
    except ValueError as exc:
        raise UsageError(f"bad --model SPEC: {exc}") from None
    if spec.provider != "local":
        raise UsageError(f"ppl needs a local model (its token probabilities), not {args.model!r}; "
                         f"use local or local:<hf id or path>")
    items = _read_ppl_lines(args.file)  # read first: a bad input fails fast, before the model loads
    from .scoring.perplexity import PerplexityError, PerplexityScorer

    try:
        scores = PerplexityScorer(model=spec.model or None).score([item["text"] for item in items])
    except PerplexityError as exc:
        raise CLIError(str(exc)) from None
    write_out("\n".join(json.dumps({**item, "ppl": ppl if math.isfinite(ppl) else None}, ensure_ascii=False)
                        for item, ppl in zip(items, scores)))
    return EXIT_OK


# ----------------------------------------------------------------------------------------- ask, cache, estimate

def _add_model_settings(p: argparse.ArgumentParser) -> None:
    """The options that shape a request: how the prompt is sent and the sampling settings."""
    p.add_argument("--system-mode", choices=("user", "system", "split"), default="user",
                   help="send the prompt as the user message (default), as the system message, or split: Role "
                        "sentences as the system message, the rest as the user message")
    p.add_argument("--temperature", type=float, default=0.0, metavar="T", help="sampling temperature (default 0)")
    p.add_argument("--max-tokens", type=int, default=256, metavar="N", help="most tokens to generate (default 256)")
    p.add_argument("--top-p", type=float, default=None, metavar="P", help="nucleus sampling (default: the model's)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="sampling seed, where the model takes one")
    p.add_argument("--stop", action="append", default=None, metavar="TEXT", help="a stop sequence (repeatable)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the response cache")
    p.add_argument("--prices", default=None, metavar="FILE",
                   help="JSON or TOML file of prices overriding the built-in table ($ per million tokens)")


def _check_settings(args: argparse.Namespace) -> None:
    if args.temperature < 0 or args.temperature != args.temperature:
        raise UsageError(f"--temperature must be 0 or more, not {args.temperature}")
    if args.max_tokens < 1:
        raise UsageError(f"--max-tokens must be at least 1, not {args.max_tokens}")
    if args.top_p is not None and not 0 < args.top_p <= 1:
        raise UsageError(f"--top-p must be in (0, 1], not {args.top_p}")


def _parse_model(spec: str) -> object:
    from .models import base as models_base

    try:
        parsed = models_base.parse_spec(spec)
    except ValueError as exc:
        raise UsageError(f"bad --model SPEC: {exc}") from None
    if parsed.provider not in SPEC_PROVIDERS:
        raise UsageError(f"bad --model SPEC {spec!r}: unknown provider {parsed.provider!r}; "
                         f"use one of: {', '.join(SPEC_PROVIDERS)}")
    return parsed


def _load_prices(path: str | None):
    from .models.pricing import load_prices

    try:
        return load_prices(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _make_request(prompt: str, args: argparse.Namespace, sample_index: int = 0):
    from .models.prompting import make_request

    return make_request(prompt, args.system_mode, temperature=args.temperature, max_tokens=args.max_tokens,
                        top_p=args.top_p, seed=args.seed, stop=tuple(args.stop or ()), sample_index=sample_index)


def _add_ask(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "ask",
        help="send one prompt to a model and print its answer",
        description="Send a prompt to one model and print the answer on stdout; tokens and cost go to stderr. "
                    "Answers are cached (see 'promptanatomy cache'); errors are retried with backoff.",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="the prompt (UTF-8 text); '-' or none reads stdin")
    p.add_argument("--model", default="local", metavar="SPEC",
                   help="local (default), local:<hf id or path>, openai:<model>[@<base_url>], anthropic:<model>")
    _add_model_settings(p)
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS", help="time-out of one attempt (60)")
    p.add_argument("--attempts", type=int, default=10, metavar="N",
                   help="attempts at most, retries included (10; waits back off and honour Retry-After)")
    return p


def _cmd_ask(args: argparse.Namespace) -> int:
    from .models.base import get_backend
    from .models.runner import RetryPolicy, Runner

    spec = _parse_model(args.model)
    _check_settings(args)
    if args.attempts < 1:
        raise UsageError(f"--attempts must be at least 1, not {args.attempts}")
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be more than 0, not {args.timeout}")
    prices = _load_prices(args.prices)
    prompt = read_prompt(args.file)
    request = _make_request(prompt, args)
    backend = get_backend(spec)
    runner = Runner(backend, cache=False if args.no_cache else None, timeout=args.timeout, prices=prices,
                    retry=RetryPolicy(max_attempts=args.attempts))
    result = runner.run([request])
    response = result.responses[0]
    if response.error is not None:
        raise CLIError(f"{spec}: {response.error}", EXIT_RUNTIME)
    write_out(response.text)
    cost = prices.cost(runner.identity, response.input_tokens, response.output_tokens)
    money = "cost unknown (no price for this model)" if cost is None else f"${0.0 if response.cached else cost:.6f}"
    note = " (from cache, not charged)" if response.cached else ""
    try:
        sys.stderr.write(f"{PROG}: {spec}: {response.input_tokens} input + {response.output_tokens} output tokens, "
                         f"{money}{note}\n")
    except Exception:  # pragma: no cover - stderr gone
        pass
    return EXIT_OK


def _add_cache(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "cache",
        help="show or clear the response cache",
        description="info: print where the response cache is, its entries and bytes (JSON); clear: remove every "
                    "cached answer. The folder follows PROMPTANATOMY_CACHE_DIR.",
    )
    p.add_argument("action", choices=("info", "clear"), help="info or clear")
    return p


def _cmd_cache(args: argparse.Namespace) -> int:
    from .models.cache import ResponseCache

    with ResponseCache() as cache:
        if args.action == "info":
            write_out(json.dumps(cache.info(), indent=2))
        else:
            removed = cache.clear()
            write_out(json.dumps({"path": str(cache.path), "removed": removed}, indent=2))
    return EXIT_OK


def _add_estimate(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "estimate",
        help="dry run: requests, tokens, dollars and cache hits of sending a prompt to models",
        description="Count, without sending anything, what asking each model would take: requests, cache hits, "
                    "input tokens (counted), output tokens (at most --max-tokens each) and dollars (an upper bound), "
                    "as JSON. No API key is needed.",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="the prompt (UTF-8 text); '-' or none reads stdin")
    p.add_argument("--model", action="append", required=True, metavar="SPEC",
                   help="a model SPEC (repeat for several)")
    _add_model_settings(p)
    p.add_argument("--samples", type=int, default=1, metavar="N",
                   help="samples per prompt (with --temperature > 0 each is its own request; default 1)")
    p.add_argument("--expected-output-tokens", type=int, default=None, metavar="N",
                   help="also give the dollars if each answer is about N tokens long")
    return p


def _cmd_estimate(args: argparse.Namespace) -> int:
    from .models.pricing import estimate, total

    specs = [_parse_model(m) for m in args.model]
    _check_settings(args)
    if args.samples < 1:
        raise UsageError(f"--samples must be at least 1, not {args.samples}")
    prices = _load_prices(args.prices)
    prompt = read_prompt(args.file)
    requests = [_make_request(prompt, args, i) for i in range(args.samples)]
    cache = None
    if not args.no_cache:
        from .models.cache import ResponseCache

        cache = ResponseCache()
    try:
        estimates = [estimate(requests, spec, cache=cache, prices=prices,
                              expected_output_tokens=args.expected_output_tokens) for spec in specs]
    finally:
        if cache is not None:
            cache.close()
    write_out(json.dumps({"models": [e.to_json() for e in estimates], "total": total(estimates)}, indent=2))
    return EXIT_OK


# ------------------------------------------------------------------------------------------------------------- run

#: The files ``run`` writes into --out.
RUN_FILES = ("results.csv", "table2.csv", "table2.md", "table1.csv", "table1.md", "report.html")


def _add_run(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from .experiment import DEFAULT_COMPONENTS
    from .perturb import COMPERTURB
    from .scoring.criteria import criterion_names

    p = sub.add_parser(
        "run",
        help="run a perturbation experiment over a dataset or one prompt and write results and tables",
        description="Run components × strategies × -n variants (plus whole-prompt --baselines) of every instance "
                    "against each model, judge the answers with --criterion and write into --out: results.csv "
                    "(one row per model × component × perturbation × ppl_filter: n, successes, asr with its Wilson "
                    "95% interval, flip_rate, pss, …), table2.csv/.md (the paper's Table 2: model × component "
                    "rows, perturbation columns without and with the PPL filter), table1.csv/.md (the paper's "
                    "Table 1: best and mean ASR of the component-wise methods and the whole-prompt baselines per "
                    "model) and report.html. The dry-run estimate (requests, tokens, dollars, cache hits) goes to "
                    "stderr first, then a progress bar. Every run is kept in the run store; running the same "
                    "command again carries on the same run and sends only what is missing.",
    )
    p.add_argument("--dataset", metavar="FILE",
                   help="instances: a -PA JSON file (XML-tagged context_output + answer), or .csv/.tsv/.jsonl/.json "
                        "with the columns named by --prompt-column/--tagged-column/--answer-column")
    p.add_argument("--prompt", metavar="FILE",
                   help="one prompt instead of a dataset: plain text (dissected with --dissector) or XML-tagged")
    p.add_argument("--expected", metavar="TEXT", help="with --prompt: its expected answer")
    p.add_argument("--models", nargs="+", metavar="SPEC",
                   help="model SPECs: local, local:<hf id or path>, openai:<model>[@<base_url>], anthropic:<model>")
    p.add_argument("--out", metavar="DIR", help="the folder to write the results into (created if missing)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N instances")
    p.add_argument("--components", nargs="+", default=list(DEFAULT_COMPONENTS), metavar="C",
                   help="components to perturb (default: the five and CRT, the control group)")
    p.add_argument("--strategies", nargs="+", default=list(COMPERTURB), metavar="S",
                   help=f"ComPerturb strategies (default: {' '.join(COMPERTURB)})")
    p.add_argument("--baselines", nargs="*", default=[], metavar="B",
                   help="whole-prompt baselines for Table 1 (PromptRobust-…, MTTM-…; 'all' for every one; "
                        "default none)")
    p.add_argument("--keep-top", default="0.2", metavar="SHARE",
                   help="the perplexity filter's share (default 0.2, the paper's): results get rows with and "
                        "without it; none scores nothing")
    p.add_argument("--criterion", default="contains", choices=criterion_names(),
                   help="success criterion (default contains: the expected answer as whole words)")
    p.add_argument("--pattern", default=None, metavar="REGEX", help="--criterion regex: the pattern")
    p.add_argument("--threshold", type=float, default=None, metavar="X",
                   help="--criterion bleu (default 20) or differs (similarity, default 0.8): the threshold")
    p.add_argument("--judge-model", default=None, metavar="SPEC", help="--criterion judge: the judge's model SPEC")
    p.add_argument("-n", "--n", type=int, default=1, dest="n", metavar="K",
                   help="variants per cell (seeds S … S+K-1; default 1)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first variant (default 0)")
    p.add_argument("--ratio", type=float, default=0.1, metavar="R", help="share of words to perturb (default 0.1)")
    p.add_argument("--max-tokens", type=int, default=256, metavar="N", help="most tokens per answer (default 256)")
    p.add_argument("--temperature", type=float, default=0.0, metavar="T", help="sampling temperature (default 0)")
    p.add_argument("--system-mode", choices=("user", "system", "split"), default="user",
                   help="how the prompt is sent (default user; see 'promptanatomy ask --help')")
    p.add_argument("--dissector", default="rules", metavar="NAME", help="for plain prompts: rules (default) or llm")
    p.add_argument("--prompt-column", default=None, metavar="NAME", help="column of plain prompts (default prompt)")
    p.add_argument("--tagged-column", default=None, metavar="NAME", help="column of XML-tagged prompts")
    p.add_argument("--answer-column", default=None, metavar="NAME",
                   help="column of expected answers (default answer, when present)")
    p.add_argument("--id-column", default=None, metavar="NAME", help="column of instance ids (default: row number)")
    p.add_argument("--resume", type=int, default=None, metavar="RUN_ID",
                   help="carry on the stored run RUN_ID (alone, or with the command that made it)")
    p.add_argument("--store", default=None, metavar="PATH",
                   help="the run store's SQLite file (default $PROMPTANATOMY_STORE or the cache folder's)")
    p.add_argument("--name", default="", metavar="TEXT", help="a name for a new run")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the response cache")
    p.add_argument("--prices", default=None, metavar="FILE", help="prices overriding the built-in table")
    return p


def _run_spec(args: argparse.Namespace):
    """The experiment spec the arguments describe (input files read and checked)."""
    from .dataset_input import Columns, DatasetInputError, read_instances
    from .experiment import DEFAULT_COMPONENTS, ExperimentError, ExperimentSpec, Instance
    from .perturb import BASELINES, COMPERTURB
    from .scoring.criteria import get_criterion

    if (args.dataset is None) == (args.prompt is None):
        raise UsageError("give --dataset FILE or --prompt FILE (one of them)")
    if not args.models:
        raise UsageError("--models SPEC... is required")
    from .models import base as models_base

    known = set(SPEC_PROVIDERS) | set(getattr(models_base, "_PROVIDERS", {}))
    for spec in args.models:
        if _parse_model_any(spec).provider not in known:
            raise UsageError(f"bad --models SPEC {spec!r}: unknown provider; use one of: {', '.join(sorted(known))}")
    keep = str(args.keep_top).strip().lower()
    try:
        keep_top = None if keep == "none" else float(keep)
        if keep_top is not None and not 0 < keep_top <= 1:
            raise ValueError
    except ValueError:
        raise UsageError(f"--keep-top must be a share in (0, 1] or none, not {args.keep_top!r}") from None
    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, not {args.limit}")
    if args.n < 1:
        raise UsageError(f"-n must be at least 1, not {args.n}")
    if not 0 < args.ratio <= 1:
        raise UsageError(f"--ratio must be in (0, 1], not {args.ratio}")
    params: dict[str, object] = {}
    for option, key, names in (("pattern", "pattern", ("regex",)), ("threshold", "threshold", ("bleu", "differs")),
                               ("judge_model", "spec", ("judge",))):
        value = getattr(args, option)
        if value is not None:
            if args.criterion not in names:
                raise UsageError(f"--{option.replace('_', '-')} applies to --criterion {' or '.join(names)}")
            params[key] = value
    try:
        get_criterion(args.criterion, **params)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    unknown = [c for c in args.components if c not in DEFAULT_COMPONENTS]
    if unknown:
        raise UsageError(f"unknown component {unknown[0]!r}; use: {', '.join(repr(c) for c in DEFAULT_COMPONENTS)}")
    unknown = [s for s in args.strategies if s not in COMPERTURB]
    if unknown:
        raise UsageError(f"unknown strategy {unknown[0]!r}; use: {', '.join(COMPERTURB)} (whole-prompt ones go in "
                         f"--baselines)")
    baselines = tuple(BASELINES) if [b.lower() for b in args.baselines] == ["all"] else tuple(args.baselines)
    unknown = [b for b in baselines if b not in BASELINES]
    if unknown:
        raise UsageError(f"unknown baseline {unknown[0]!r}; one of: all, {', '.join(BASELINES)}")
    if args.dataset is not None:
        if args.expected is not None:
            raise UsageError("--expected applies to --prompt; a dataset's answers come from its answer column")
        columns = Columns(prompt=args.prompt_column, answer=args.answer_column, tagged=args.tagged_column,
                          id=args.id_column)
        try:
            instances = tuple(read_instances(args.dataset, columns, limit=args.limit))
        except DatasetInputError as exc:
            raise CLIError(str(exc)) from None
    else:
        if any(c is not None for c in (args.prompt_column, args.answer_column, args.tagged_column, args.id_column)):
            raise UsageError("the --*-column options apply to --dataset")
        from .datasets import _COMPONENT_TAG

        text = read_prompt(args.prompt)
        tagged = bool(_COMPONENT_TAG.search(text))
        instances = (Instance("prompt", prompt="" if tagged else text, tagged=text if tagged else "",
                              expected=args.expected),)
    try:
        return ExperimentSpec(instances=instances, models=tuple(args.models), components=tuple(args.components),
                              strategies=tuple(args.strategies), baselines=baselines, n=args.n, ratio=args.ratio,
                              seed=args.seed, keep_top=keep_top, system_mode=args.system_mode,
                              temperature=args.temperature, max_tokens=args.max_tokens, criterion=args.criterion,
                              criterion_params=params, dissector=args.dissector, name=args.name)
    except (ExperimentError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def _parse_model_any(spec: str):
    from .models import base as models_base

    try:
        return models_base.parse_spec(spec)
    except ValueError as exc:
        raise UsageError(f"bad --models SPEC: {exc}") from None


def _stored_form(spec: dict) -> dict:
    """A spec's JSON as the store gives it back (scrubbed, JSON round-tripped), without its name."""
    from .store import scrub

    data = json.loads(json.dumps(scrub(spec)))
    data.pop("name", None)
    return data


def find_run(store, spec) -> int | None:
    """The newest stored run made from the same ``spec`` (its name aside): what rerunning a command carries on."""
    wanted = _stored_form(spec.to_json())
    for info in store.list_runs():
        if _stored_form(info.spec) == wanted:
            return info.id
    return None


def _say(text: str) -> None:
    try:
        sys.stderr.write(f"{PROG}: {text}\n")
        sys.stderr.flush()
    except Exception:  # pragma: no cover - stderr gone
        pass


def _say_estimate(est) -> None:
    for e in est.models:
        money = "dollars unknown (no price)" if e.dollars is None else f"at most ${e.dollars:.4f}"
        _say(f"estimate {e.model}: {e.requests} requests, {e.to_send} to send, {e.cache_hits} cache hits, "
             f"{e.input_tokens} input tokens, at most {e.output_tokens_max} output tokens, {money}")
    t = est.total
    money = "unknown" if t["dollars"] is None else f"at most ${t['dollars']:.4f}"
    _say(f"estimate total: {t['requests']} requests, {t['to_send']} to send, {t['cache_hits']} cache hits, "
         f"dollars {money}")


class _Bars:
    """tqdm progress bars on stderr, one per stage (perturb, request, judge)."""

    def __init__(self) -> None:
        self.bars: dict[str, object] = {}

    def update(self, stage: str, done: int, total: int) -> None:
        from tqdm import tqdm

        bar = self.bars.get(stage)
        if bar is None:
            self.close()  # one stage at a time
            label = {"perturb": "perturbing", "request": "requests", "judge": "judging"}.get(stage, stage)
            bar = self.bars[stage] = tqdm(total=total, desc=f"{PROG}: {label}", file=sys.stderr)
        bar.total = total
        bar.update(done - bar.n)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()
        self.bars.clear()


def write_run_outputs(run_id: int, store, out: Path) -> list[str]:
    """:data:`RUN_FILES` of run ``run_id`` into ``out``: results.csv, table2.csv/.md, table1.csv/.md and the
    self-contained report.html; returns their names."""
    from .experiment import results
    from .tables import table1, table2, to_markdown, wide_columns

    out.mkdir(parents=True, exist_ok=True)
    frame = results(run_id, store)
    frame.to_csv(out / "results.csv", index=False)
    t2 = wide_columns(table2(frame))
    t2.to_csv(out / "table2.csv", index=False)
    (out / "table2.md").write_text(to_markdown(t2), encoding="utf-8")
    t1 = table1(frame)
    t1.to_csv(out / "table1.csv", index=False)
    (out / "table1.md").write_text(to_markdown(t1), encoding="utf-8")
    from .report import write_html

    write_html(run_id, store, out / "report.html")
    return list(RUN_FILES)


def _cmd_run(args: argparse.Namespace) -> int:
    from .experiment import ExperimentError, estimate, execute, load_plan, plan
    from .store import RunStore, StoreError

    if not args.out:
        raise UsageError("--out DIR is required")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out!r} is a file, not a folder")
    prices = _load_prices(args.prices)
    spec = _run_spec(args) if (args.resume is None or args.dataset or args.prompt) else None
    try:
        store = RunStore(args.store)
    except StoreError as exc:
        raise CLIError(str(exc)) from None
    bars = _Bars()
    try:
        run_id = args.resume
        if run_id is not None:
            try:
                stored = store.get_run(run_id)
            except StoreError as exc:
                raise UsageError(str(exc)) from None
            if spec is not None and _stored_form(stored.spec) != _stored_form(spec.to_json()):
                raise UsageError(f"run {run_id} was made from another spec; drop --resume to start a new run")
        elif spec is not None:
            run_id = find_run(store, spec)
        if run_id is not None:
            p = load_plan(store, run_id)
            _say(f"carrying on run {run_id} (status {store.get_run(run_id).status})")
        else:
            from .perturb import PerturbError

            try:
                p = plan(spec, progress=lambda stage, done, total: bars.update(stage, done, total))
            except (ExperimentError, PerturbError) as exc:
                raise CLIError(str(exc)) from None
            bars.close()
        cache = None
        if not args.no_cache:
            from .models.cache import ResponseCache

            cache = ResponseCache()
        try:
            _say_estimate(estimate(p, cache=cache, prices=prices, store=store, run_id=run_id))
        finally:
            if cache is not None:
                cache.close()

        def runner(model: str):
            from .models.base import get_backend
            from .models.runner import Runner

            return Runner(get_backend(model), cache=False if args.no_cache else None, prices=prices)

        try:
            result = execute(p, store, run_id=run_id, name=args.name or None, runner=runner,
                             progress=lambda ev: bars.update(ev.stage, ev.done, ev.total))
        except KeyboardInterrupt:
            bars.close()
            stored = store.list_runs()[0].id if run_id is None else run_id
            _say(f"run {stored} interrupted; run the same command again (or --resume {stored}) to carry on")
            raise
        except ExperimentError as exc:
            raise UsageError(str(exc)) from None
        bars.close()
        _say(f"run {result.run_id}: {result.status}; {result.answered} answered now, {result.already} before, "
             f"{result.errors} failed, {result.judged} judged")
        written = write_run_outputs(result.run_id, store, out)
        write_out(json.dumps({"run_id": result.run_id, "status": result.status, "store": str(store.path),
                              "out": str(out), "files": written, **{k: v for k, v in result.to_json().items()
                                                                     if k not in ("run_id", "status")}}, indent=2))
        if result.errors:
            last = store.errors(result.run_id)[-1]["message"]
            raise CLIError(f"{result.errors} of {result.sent} requests failed (last: {last}); run the same command "
                           f"again to retry them", EXIT_RUNTIME)
        return EXIT_OK
    finally:
        bars.close()
        store.close()


# -------------------------------------------------------------------------------------------------------- commands

#: name -> (add the subparser, run the command). Later commands (perturb, ask, run, cache, estimate) slot in here.
COMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction], argparse.ArgumentParser],
                          Callable[[argparse.Namespace], int]]] = {
    "dissect": (_add_dissect, _cmd_dissect),
    "perturb": (_add_perturb, _cmd_perturb),
    "ppl": (_add_ppl, _cmd_ppl),
    "ask": (_add_ask, _cmd_ask),
    "cache": (_add_cache, _cmd_cache),
    "estimate": (_add_estimate, _cmd_estimate),
    "run": (_add_run, _cmd_run),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="PromptAnatomy Studio: dissect prompts into components, perturb them, measure model sensitivity.",
        epilog="Exit status: 0 ok, 1 model or runtime error, 2 usage or input error, 130 interrupted.",
    )
    parser.add_argument("--debug", action="store_true", default=False,
                        help="show the full traceback of an error instead of one line")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, (add, run) in COMMANDS.items():
        p = add(sub)
        # --debug is also accepted after the command; SUPPRESS keeps the subparser from resetting a global --debug
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        p.set_defaults(_run=run)
    return parser


def _one_line(message: str) -> str:
    line = " ".join(str(message).split())
    return line if len(line) <= _MAX_MESSAGE else line[:_MAX_MESSAGE - 1] + "…"


def _report(message: str) -> None:
    try:
        sys.stderr.write(f"{PROG}: error: {_one_line(message)}\n")
        sys.stderr.flush()
    except Exception:  # pragma: no cover - stderr itself is gone
        pass


def _exit_code(exc: BaseException) -> tuple[int, str]:
    """The exit status and message for an exception that escaped a command."""
    from .models.base import BackendError

    if isinstance(exc, CLIError):
        return exc.code, str(exc)
    if isinstance(exc, PromptError):
        return EXIT_USAGE, str(exc)
    if isinstance(exc, BackendError):
        return EXIT_RUNTIME, str(exc)
    if isinstance(exc, TimeoutError):
        return EXIT_RUNTIME, f"timed out: {exc}" if str(exc) else "timed out"
    if isinstance(exc, MemoryError):
        return EXIT_RUNTIME, "out of memory"
    detail = str(exc)
    return EXIT_RUNTIME, f"{type(exc).__name__}{': ' + detail if detail else ''} (rerun with --debug for details)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help / --version
            return exc.code if isinstance(exc.code, int) else EXIT_OK
        debug = bool(getattr(args, "debug", False))
        return args._run(args)
    except KeyboardInterrupt:
        if debug:
            raise
        _report("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, without a second error when Python flushes stdout
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_RUNTIME
    except Exception as exc:  # noqa: BLE001 - the top level turns every error into one line
        if debug:
            raise
        code, message = _exit_code(exc)
        _report(message)
        return code
