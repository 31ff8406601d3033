"""``promptanatomy ask`` (send one prompt to a model, print its answer) and ``promptanatomy estimate`` (the same as a
dry run: requests, tokens, dollars and cache hits, nothing sent)."""
from __future__ import annotations

import argparse
import json

from .common import (EXIT_OK, EXIT_RUNTIME, CLIError, UsageError, add_command, add_model_settings, check_settings,
                     load_prices, parse_model, read_prompt, response_cache, say, write_out)


def _make_request(prompt: str, args: argparse.Namespace, sample_index: int = 0):
    from ..models.prompting import make_request

    return make_request(prompt, args.system_mode, temperature=args.temperature, max_tokens=args.max_tokens,
                        top_p=args.top_p, seed=args.seed, stop=tuple(args.stop or ()), sample_index=sample_index)


def add_ask(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = add_command(
        sub, "ask",
        help="send one prompt to a model and print its answer",
        description="Send a prompt to one model and print the answer on stdout; tokens and cost go to stderr. "
                    "Answers are cached (see 'promptanatomy cache'); errors are retried with backoff.",
    )
    p.add_argument("--model", default="local", metavar="SPEC",
                   help="local (default), local:<hf id or path>, openai:<model>[@<base_url>], anthropic:<model>")
    add_model_settings(p)
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS", help="time-out of one attempt (60)")
    p.add_argument("--attempts", type=int, default=10, metavar="N",
                   help="attempts at most, retries included (10; waits back off and honour Retry-After)")
    return p


def cmd_ask(args: argparse.Namespace) -> int:
    from ..models.base import get_backend
    from ..models.runner import RetryPolicy, Runner

    spec = parse_model(args.model)
    check_settings(args)
    if args.attempts < 1:
        raise UsageError(f"--attempts must be at least 1, not {args.attempts}")
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be more than 0, not {args.timeout}")
    prices = load_prices(args.prices)
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
    say(f"{spec}: {response.input_tokens} input + {response.output_tokens} output tokens, {money}{note}")
    return EXIT_OK


def add_estimate(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = add_command(
        sub, "estimate",
        help="dry run: requests, tokens, dollars and cache hits of sending a prompt to models",
        description="Count, without sending anything, what asking each model would take: requests, cache hits, "
                    "input tokens (counted), output tokens (at most --max-tokens each) and dollars (an upper bound), "
                    "as JSON. No API key is needed.",
    )
    p.add_argument("--model", action="append", required=True, metavar="SPEC",
                   help="a model SPEC (repeat for several)")
    add_model_settings(p)
    p.add_argument("--samples", type=int, default=1, metavar="N",
                   help="samples per prompt (with --temperature > 0 each is its own request; default 1)")
    p.add_argument("--expected-output-tokens", type=int, default=None, metavar="N",
                   help="also give the dollars if each answer is about N tokens long")
    return p


def cmd_estimate(args: argparse.Namespace) -> int:
    from ..models.pricing import estimate, total

    specs = [parse_model(m) for m in args.model]
    check_settings(args)
    if args.samples < 1:
        raise UsageError(f"--samples must be at least 1, not {args.samples}")
    prices = load_prices(args.prices)
    prompt = read_prompt(args.file)
    requests = [_make_request(prompt, args, i) for i in range(args.samples)]
    with response_cache(args.no_cache) as cache:
        estimates = [estimate(requests, spec, cache=cache, prices=prices,
                              expected_output_tokens=args.expected_output_tokens) for spec in specs]
    write_out(json.dumps({"models": [e.to_json() for e in estimates], "total": total(estimates)}, indent=2))
    return EXIT_OK
