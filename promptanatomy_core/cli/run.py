"""``promptanatomy run``: a perturbation experiment over a dataset or one prompt, kept in the run store, with its
results, tables and report written into --out."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import (EXIT_OK, EXIT_RUNTIME, PROG, CLIError, UsageError, known_providers, load_prices, parse_keep_top,
                     parse_model, read_prompt, response_cache, say, write_out)

#: The files ``run`` writes into --out.
RUN_FILES = ("results.csv", "table2.csv", "table2.md", "table1.csv", "table1.md", "report.html")


def add_run(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from ..experiment import DEFAULT_COMPONENTS
    from ..perturb import COMPERTURB
    from ..scoring.criteria import criterion_names

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
    p.add_argument("--inputs", metavar="TABLE",
                   help="with --prompt: the prompt is a template with {name} placeholders, perturbed once and filled "
                        "with every row of TABLE (.csv/.tsv/.jsonl/.json: columns are placeholder values), one "
                        "instance per row")
    p.add_argument("--expected-column", default=None, metavar="NAME",
                   help="with --inputs: the column of expected answers (default expected, when present)")
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
    from ..dataset_input import Columns, DatasetInputError, read_instances
    from ..experiment import DEFAULT_COMPONENTS, ExperimentError, ExperimentSpec, Instance
    from ..perturb import BASELINES, COMPERTURB
    from ..scoring.criteria import get_criterion

    if (args.dataset is None) == (args.prompt is None):
        raise UsageError("give --dataset FILE or --prompt FILE (one of them)")
    if not args.models:
        raise UsageError("--models SPEC... is required")
    known = known_providers()
    for spec in args.models:
        if parse_model(spec, "--models", providers=None).provider not in known:
            raise UsageError(f"bad --models SPEC {spec!r}: unknown provider; use one of: {', '.join(sorted(known))}")
    keep_top = parse_keep_top(args.keep_top)
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
    if args.inputs is None and args.expected_column is not None:
        raise UsageError("--expected-column applies to --inputs")
    if args.inputs is not None:
        if args.prompt is None:
            raise UsageError("--inputs applies to --prompt TEMPLATE_FILE (a template with {name} placeholders)")
        if args.expected is not None:
            raise UsageError("--expected applies to a single prompt; with --inputs the answers come from "
                             "--expected-column")
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
        from ..datasets import _COMPONENT_TAG

        text = read_prompt(args.prompt)
        tagged = bool(_COMPONENT_TAG.search(text))
        instances = (Instance("prompt", prompt="" if tagged else text, tagged=text if tagged else "",
                              expected=args.expected),)
    options = dict(models=tuple(args.models), components=tuple(args.components), strategies=tuple(args.strategies),
                   baselines=baselines, n=args.n, ratio=args.ratio, seed=args.seed, keep_top=keep_top,
                   system_mode=args.system_mode, temperature=args.temperature, max_tokens=args.max_tokens,
                   criterion=args.criterion, criterion_params=params, dissector=args.dissector, name=args.name)
    if args.inputs is not None:
        try:
            rows = _read_rows(args.inputs, args.limit)
        except DatasetInputError as exc:
            raise CLIError(str(exc)) from None
    try:
        if args.inputs is not None:
            return ExperimentSpec.from_template(text, rows, args.expected_column or "expected", tagged=tagged,
                                                **options)
        return ExperimentSpec(instances=instances, **options)
    except (ExperimentError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def _read_rows(path: str, limit: int | None) -> list[dict]:
    """The rows of a --inputs table (with dataset_input's readers): one dict of column values a row."""
    from .. import dataset_input as di

    path = Path(path)
    fmt, text = di.detect_format(path), di._text(path)
    if fmt == "json":
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as exc:
            raise di.DatasetInputError(f"{path} line {exc.lineno}: not valid JSON ({exc.msg})") from None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise di.DatasetInputError(f"{path}: expected a JSON list of objects (one row of inputs each)")
    elif fmt == "jsonl":
        rows = [item for _, item in di._jsonl_rows(path, text)]
    else:
        rows = [item for _, item, _ in di._csv_rows(path, text, "\t" if fmt == "tsv" else ",")]
    if not rows:
        raise di.DatasetInputError(f"{path}: holds no rows of inputs")
    return rows[:limit]


def _stored_form(spec: dict) -> dict:
    """A spec's JSON as the store gives it back (scrubbed, JSON round-tripped), without its name."""
    from ..store import scrub

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


def _say_estimate(est) -> None:
    for e in est.models:
        money = "dollars unknown (no price)" if e.dollars is None else f"at most ${e.dollars:.4f}"
        say(f"estimate {e.model}: {e.requests} requests, {e.to_send} to send, {e.cache_hits} cache hits, "
             f"{e.input_tokens} input tokens, at most {e.output_tokens_max} output tokens, {money}")
    t = est.total
    money = "unknown" if t["dollars"] is None else f"at most ${t['dollars']:.4f}"
    say(f"estimate total: {t['requests']} requests, {t['to_send']} to send, {t['cache_hits']} cache hits, "
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

    def plan_update(self, stage: str, done: int, total: int) -> None:
        """:func:`plan`'s progress: the instances perturbed (not each instance's perplexity batches)."""
        if stage != "score":
            self.update(stage, done, total)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()
        self.bars.clear()


def write_run_outputs(run_id: int, store, out: Path) -> list[str]:
    """:data:`RUN_FILES` of run ``run_id`` into ``out``: results.csv, table2.csv/.md, table1.csv/.md and the
    self-contained report.html; returns their names."""
    from ..experiment import results
    from ..tables import table1, table2, to_markdown, wide_columns

    out.mkdir(parents=True, exist_ok=True)
    frame = results(run_id, store)
    frame.to_csv(out / "results.csv", index=False)
    t2 = wide_columns(table2(frame))
    t2.to_csv(out / "table2.csv", index=False)
    (out / "table2.md").write_text(to_markdown(t2), encoding="utf-8")
    t1 = table1(frame)
    t1.to_csv(out / "table1.csv", index=False)
    (out / "table1.md").write_text(to_markdown(t1), encoding="utf-8")
    from ..report import write_html

    write_html(run_id, store, out / "report.html")
    return list(RUN_FILES)


def cmd_run(args: argparse.Namespace) -> int:
    from ..experiment import ExperimentError, estimate, execute, load_plan, plan
    from ..store import RunBusyError, RunStore, StoreError

    if not args.out:
        raise UsageError("--out DIR is required")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out!r} is a file, not a folder")
    prices = load_prices(args.prices)
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
            say(f"carrying on run {run_id} (status {store.get_run(run_id).status})")
        else:
            from ..perturb import PerturbError

            try:
                p = plan(spec, progress=bars.plan_update)
            except (ExperimentError, PerturbError) as exc:
                raise CLIError(str(exc)) from None
            bars.close()
        with response_cache(args.no_cache) as cache:
            _say_estimate(estimate(p, cache=cache, prices=prices, store=store, run_id=run_id))

        def runner(model: str):
            from ..models.base import get_backend
            from ..models.runner import Runner

            return Runner(get_backend(model), cache=False if args.no_cache else None, prices=prices)

        try:
            result = execute(p, store, run_id=run_id, name=args.name or None, runner=runner,
                             progress=lambda ev: bars.update(ev.stage, ev.done, ev.total))
        except KeyboardInterrupt:
            bars.close()
            stored = store.list_runs()[0].id if run_id is None else run_id
            say(f"run {stored} interrupted; run the same command again (or --resume {stored}) to carry on")
            raise
        except ExperimentError as exc:
            raise UsageError(str(exc)) from None
        except RunBusyError as exc:  # the app or another command is executing this run
            raise CLIError(str(exc), EXIT_RUNTIME) from None
        bars.close()
        say(f"run {result.run_id}: {result.status}; {result.answered} answered now, {result.already} before, "
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

