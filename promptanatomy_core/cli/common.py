"""What every command shares: errors and exit codes, the parser class, reading the input, writing the output, and
the option helpers several commands use (model SPECs, request settings, prices, the perplexity filter's share)."""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Iterable, Iterator

from ..text import MAX_PROMPT_CHARS, PromptError, validate_prompt

PROG = "promptanatomy"

EXIT_OK = 0
EXIT_RUNTIME = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

#: The providers a SPEC may name (models/base.py); one whose backend this build lacks is a runtime error, not usage.
SPEC_PROVIDERS = ("local", "openai", "anthropic")


class CLIError(Exception):
    """An error to report as one line; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


class UsageError(CLIError):
    """Bad command-line arguments (exit status 2)."""


class Parser(argparse.ArgumentParser):
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



def say(text: str) -> None:
    """Write ``promptanatomy: text`` on stderr (a note or an error; never fails)."""
    try:
        sys.stderr.write(f"{PROG}: {text}\n")
        sys.stderr.flush()
    except Exception:  # pragma: no cover - stderr gone
        pass


# --------------------------------------------------------------------------------------------------------- options

def known_providers() -> set[str]:
    """The providers a SPEC may name, with any a plugin registered (models/base.py's ``_PROVIDERS``)."""
    from ..models import base as models_base

    return set(SPEC_PROVIDERS) | set(getattr(models_base, "_PROVIDERS", {}))


def parse_model(spec: str, option: str = "--model", providers: Iterable[str] | None = SPEC_PROVIDERS):
    """The parsed model ``spec`` given to ``option``; UsageError if it is malformed or, unless ``providers`` is
    ``None``, names a provider not among ``providers``."""
    from ..models import base as models_base

    try:
        parsed = models_base.parse_spec(spec)
    except ValueError as exc:
        raise UsageError(f"bad {option} SPEC: {exc}") from None
    if providers is not None and parsed.provider not in providers:
        raise UsageError(f"bad {option} SPEC {spec!r}: unknown provider {parsed.provider!r}; "
                         f"use one of: {', '.join(providers)}")
    return parsed


def parse_keep_top(value: str) -> float | None:
    """The perplexity filter's share from --keep-top: a number in (0, 1], or ``None`` for none."""
    keep = str(value).strip().lower()
    if keep == "none":
        return None
    try:
        keep_top = float(keep)
    except ValueError:
        raise UsageError(f"--keep-top must be a share in (0, 1] or none, not {value!r}") from None
    if not 0 < keep_top <= 1:
        raise UsageError(f"--keep-top must be a share in (0, 1] or none, not {value!r}")
    return keep_top


PROMPT_FILE_HELP = "the prompt (UTF-8 text); '-' or none reads stdin"


def add_command(sub: argparse._SubParsersAction, name: str, help: str, description: str,
                file_help: str = PROMPT_FILE_HELP) -> argparse.ArgumentParser:
    """A subcommand that reads FILE (or stdin): its parser, with the FILE argument added."""
    p = sub.add_parser(name, help=help, description=description)
    p.add_argument("file", nargs="?", metavar="FILE", help=file_help)
    return p


def add_model_settings(p: argparse.ArgumentParser) -> None:
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


def check_settings(args: argparse.Namespace) -> None:
    if args.temperature < 0 or args.temperature != args.temperature:
        raise UsageError(f"--temperature must be 0 or more, not {args.temperature}")
    if args.max_tokens < 1:
        raise UsageError(f"--max-tokens must be at least 1, not {args.max_tokens}")
    if args.top_p is not None and not 0 < args.top_p <= 1:
        raise UsageError(f"--top-p must be in (0, 1], not {args.top_p}")


def load_prices(path: str | None):
    """The price table, with the overrides in the JSON or TOML file ``path``; UsageError if it cannot be read."""
    from ..models.pricing import load_prices

    try:
        return load_prices(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


@contextlib.contextmanager
def response_cache(no_cache: bool) -> Iterator[object]:
    """The response cache, closed afterwards; ``None`` with --no-cache."""
    cache = None
    if not no_cache:
        from ..models.cache import ResponseCache

        cache = ResponseCache()
    try:
        yield cache
    finally:
        if cache is not None:
            cache.close()
