"""The command line: ``promptanatomy <command> …`` (also ``python -m promptanatomy_core …``).

Each command is one ``add_<name>`` function that declares its arguments and one ``cmd_<name>(args) -> int`` that
does the work through the engine, in the module of its family (:mod:`.dissect`, :mod:`.perturb`, :mod:`.ppl`,
:mod:`.ask`, :mod:`.cache`, :mod:`.run`; what they share is in :mod:`.common`); :data:`COMMANDS` lists them, so a new
command is two functions and one entry.

Errors never print a traceback (unless ``--debug``): one line ``promptanatomy: error: …`` on stderr, and exit status
2 for usage and input errors, 1 for model and runtime errors, 130 when interrupted.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

from ..text import PromptError
from .ask import add_ask, add_estimate, cmd_ask, cmd_estimate
from .cache import add_cache, cmd_cache
from .common import EXIT_INTERRUPTED, EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, PROG, CLIError, Parser, say
from .dissect import add_dissect, cmd_dissect
from .perturb import add_perturb, cmd_perturb
from .ppl import add_ppl, cmd_ppl
from .run import add_run, cmd_run

__all__ = ["COMMANDS", "build_parser", "main"]

_MAX_MESSAGE = 1000

# -------------------------------------------------------------------------------------------------------- commands

#: name -> (add the subparser, run the command). A new command slots in here.
COMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction], argparse.ArgumentParser],
                          Callable[[argparse.Namespace], int]]] = {
    "dissect": (add_dissect, cmd_dissect),
    "perturb": (add_perturb, cmd_perturb),
    "ppl": (add_ppl, cmd_ppl),
    "ask": (add_ask, cmd_ask),
    "cache": (add_cache, cmd_cache),
    "estimate": (add_estimate, cmd_estimate),
    "run": (add_run, cmd_run),
}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="PromptAnatomy Studio: dissect prompts into components, perturb them, measure model sensitivity.",
        epilog="Exit status: 0 ok, 1 model or runtime error, 2 usage or input error, 130 interrupted.",
    )
    parser.add_argument("--debug", action="store_true", default=False,
                        help="show the full traceback of an error instead of one line")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
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
    say(f"error: {_one_line(message)}")


def _exit_code(exc: BaseException) -> tuple[int, str]:
    """The exit status and message for an exception that escaped a command."""
    from ..models.base import BackendError

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
