"""Perplexity speed: the project's scorer against a naive loop, on variants of PACP prompts.

For one PubMedQA-PA prompt and one CodeGeneration-PA prompt (gold dissections), N variants (default 200) spread over
the five components and the strategies are scored twice with the embedded model:

* naive: one unbatched forward pass per text with ``labels=input_ids`` and ``exp(loss)``, as the paper's reference
  code does (the clean prompt and every variant, duplicates included; the same BOS policy as the scorer so that the
  numbers are comparable);
* project: ``PerplexityScorer.score_variants(clean, variants)`` (batched, length-sorted, identical texts once, the
  prefix shared with the clean prompt computed once), caching off.

Printed per prompt and in all: both times, the speed-up, tokens/s (all tokens of all texts / time), the largest
relative difference of the perplexities, and the prefix-reuse ceiling: all tokens / tokens that must still be computed
once the prefixes shared with the clean prompt are reused (and the same with identical texts counted once). On CPU
the goal is at least 90% of the ceiling with differences under 1e-4 (fp32); on CUDA the script runs in bf16 and the
goal is a speed-up of at least 20x. Nothing is asserted: the script prints and exits 0.

The variants come from ``promptanatomy_core.perturb`` (SER with its offline WordNet rewrite: generating paraphrases is
not what is measured here); a strategy that cannot run here (e.g. SYR without WordNet data) is filled with simple
in-span edits made here (character insertion, word deletion, component deletion), and the output says so.

Both loops run with the same number of torch CPU threads (``--threads``; by default the local backend's policy,
decided once at the start). Times are wall-clock; the process's CPU time is printed beside them, since on a shared
machine other processes slow the wall clock of one loop more than the other's.

:func:`benchmark` is the comparison itself, for a scorer already set up (``bench/gpu_check.py`` runs it on CUDA).

    python bench/perplexity_speed.py [--n 200] [--repeat R] [--threads T] [--device auto] [--dtype float32|bfloat16]
                                     [--batch-size B] [--max-tokens-per-batch N] [--datasets A,B]
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from promptanatomy_core.datasets import find_pacp, load_pacp  # noqa: E402
from promptanatomy_core.models.local import THREADS_ENV, cpu_threads  # noqa: E402
from promptanatomy_core.scoring.perplexity import PerplexityScorer, _common_prefix  # noqa: E402
from promptanatomy_core.types import COMPONENTS, Component, Dissection  # noqa: E402

DATASETS = ("PubMedQA-PA", "CodeGeneration-PA")
STRATEGIES = ("SCI", "SYR", "WOD", "SER", "COD")
SPECIAL = "#$%&@!"


# ------------------------------------------------------------------------------------------------------ variants

def _local_edit(prompt: str, span: tuple[int, int], strategy: str, rng: random.Random) -> str:
    """A simple in-span edit (the fallback when the perturb package is not there)."""
    start, end = span
    inner = prompt[start:end]
    if strategy == "COD":
        return prompt[:start] + prompt[end:]
    words = [(i, i + len(w)) for i, w in _words(inner)]
    k = max(1, round(0.1 * len(words)))
    chosen = sorted(rng.sample(range(len(words)), min(k, len(words))))
    out, last = [], 0
    for j in chosen:
        a, b = words[j]
        if strategy == "WOD":
            out.append(inner[last:a])
            last = b
        else:  # character insertion inside the word
            cut = a + rng.randint(1, max(1, b - a - 1)) if b - a > 1 else b
            out.append(inner[last:cut] + rng.choice(SPECIAL))
            last = cut
    out.append(inner[last:])
    return prompt[:start] + "".join(out) + prompt[end:]


def _words(text: str):
    i = 0
    for w in text.split(" "):
        if w:
            yield i, w
        i += len(w) + 1


def make_variants(dissection: Dissection, n: int, seed: int = 0) -> tuple[list[tuple[str, str, str]], str]:
    """About ``n`` variants ``(component, strategy, text)`` spread over the components and strategies, and where
    they came from."""
    present = [c for c in COMPONENTS if dissection.spans(c)]
    try:
        from promptanatomy_core import perturb as perturb_pkg

        run = getattr(perturb_pkg, "perturb")
    except (ImportError, AttributeError):
        run = None
    cells = [(c, s) for c in present for s in STRATEGIES]
    per_cell = [n // len(cells) + (1 if i < n % len(cells) else 0) for i in range(len(cells))]
    variants: list[tuple[str, str, str]] = []
    source = "promptanatomy_core.perturb" if run is not None else "bench-local in-span edits (no perturb package)"
    failures: dict[str, str] = {}
    for (component, strategy), k in zip(cells, per_cell):
        texts: list[str] = []
        if run is not None and k:
            try:
                params = {"offline": True} if strategy == "SER" else {}  # no paraphrase generation in a speed test
                made = run(dissection, strategy, component, ratio=0.1, seed=seed, n=k, **params)
                texts = [v.text for v in made if getattr(v, "text", "")]
            except Exception as exc:  # noqa: BLE001 - a strategy that cannot run here (e.g. SER without a model)
                failures[strategy] = f"{type(exc).__name__}: {exc}"[:120]
        if len(texts) < k:  # fill up with local edits (SER has no local stand-in: character insertion instead)
            rng = random.Random(f"{seed}:{component.value}:{strategy}")
            local = strategy if strategy in {"SCI", "WOD", "COD"} else "SCI"
            for span in _cycle(dissection.spans(component), k - len(texts)):
                texts.append(_local_edit(dissection.prompt, span, local, rng))
        variants.extend((component.value, strategy, t) for t in texts[:k])
    if failures:
        source += "; filled locally for " + ", ".join(f"{s} ({m})" for s, m in sorted(failures.items()))
    return variants, source


def _cycle(items, k):
    return [items[i % len(items)] for i in range(k)]


def pick_record(name: str):
    """The first record of the dataset whose gold dissection has all five components."""
    records = load_pacp(find_pacp()[name])
    for rec in records:
        g = rec.gold()
        if all(g.spans(c) for c in Component):
            return rec, g
    rec = records[0]
    return rec, rec.gold()


# ------------------------------------------------------------------------------------------------------- scoring

def naive_scores(scorer: PerplexityScorer, texts: list[str]) -> list[float]:
    """One unbatched forward pass per text, loss = mean NLL over the shifted labels (the reference code's way)."""
    import torch

    from promptanatomy_core.models.local import _threads as cpu_thread_scope

    loaded = scorer.load()
    out = []
    with cpu_thread_scope(loaded), torch.inference_mode():  # the scorer's CPU thread policy, so only the method differs
        for text in texts:
            ids = torch.tensor([scorer.encode([text])[0]], device=loaded.device)
            loss = loaded.model(input_ids=ids, labels=ids).loss
            out.append(math.exp(float(loss)))
    return out


def ceilings(scorer: PerplexityScorer, clean: str, texts: list[str]) -> tuple[int, int, int]:
    """(all tokens of clean + texts, tokens left once shared prefixes are reused, the same with duplicates once)."""
    clean_ids = scorer.encode([clean])[0]
    ids = scorer.encode(texts)
    total = len(clean_ids) + sum(len(x) for x in ids)

    def own(seq):
        q = _common_prefix(seq, clean_ids) - 1
        return len(seq) - max(q, 0)

    needed = len(clean_ids) + sum(own(x) for x in ids)
    seen = {tuple(clean_ids)}
    distinct = len(clean_ids)
    for seq in ids:
        if tuple(seq) not in seen:
            seen.add(tuple(seq))
            distinct += own(seq)
    return total, needed, distinct


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200, help="variants per prompt (default 200)")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--dtype", default=None, help="default: bf16 on a GPU, fp32 on CPU")
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--max-tokens-per-batch", type=int, default=None)
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds per prompt, alternating which loop runs first; the fastest of each is reported "
                             "(for a shared machine, where the load changes while a loop runs)")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch CPU threads for both loops (default: the local backend's policy, decided once at "
                             "the start: one on a busy machine, else torch's default)")
    args = parser.parse_args(argv)
    import torch

    # one thread count for the whole run, so that both loops run alike (the policy would otherwise decide per call)
    threads = args.threads or cpu_threads(torch.get_num_threads())
    os.environ[THREADS_ENV] = str(threads)

    scorer = PerplexityScorer(device=args.device, dtype=args.dtype, batch_size=args.batch_size,
                              max_tokens_per_batch=args.max_tokens_per_batch, cache=False)
    started = time.perf_counter()
    loaded = scorer.load()
    print(f"model {scorer.model_path} on {loaded.device} ({str(loaded.dtype).replace('torch.', '')}), "
          f"loaded in {time.perf_counter() - started:.1f} s; batch rows/tokens {scorer._limits()[:2]}")
    totals = benchmark(scorer, args.datasets.split(","), args.n, args.repeat, threads)
    ratio = totals["ratio"]
    if scorer.on_gpu:
        print(f"  goal on GPU: speed-up >= 20x: {'met' if ratio >= 20 else 'NOT met'} ({ratio:.1f}x)")
    else:
        ceiling = totals["tokens"] / totals["needed"]
        cpu_ratio = totals["naive_cpu"] / totals["ours_cpu"]
        print(f"  goal on CPU: >= 90% of the prefix-reuse ceiling ({0.9 * ceiling:.2f}x) and differences < 1e-4: "
              f"wall clock {'met' if ratio >= 0.9 * ceiling else 'NOT met'} ({ratio:.2f}x), "
              f"CPU time {'met' if cpu_ratio >= 0.9 * ceiling else 'NOT met'} ({cpu_ratio:.2f}x), "
              f"differences {'met' if totals['diff'] < 1e-4 else 'NOT met'} ({totals['diff']:.1e})")
    return 0


def benchmark(scorer: PerplexityScorer, datasets=DATASETS, n: int = 200, repeat: int = 1,
              threads: int | None = None) -> dict:
    """The comparison itself (see the module doc) with a loaded ``scorer`` (caching off): prints the figures per
    prompt and in all, and returns the totals: wall and CPU seconds of both loops (``naive``, ``ours``,
    ``naive_cpu``, ``ours_cpu``), token counts (``tokens``, ``needed``, ``distinct``), the largest relative
    difference (``diff``) and the wall-clock speed-up (``ratio``). ``threads``: only printed (CPU)."""
    loaded = scorer.load()
    naive_scores(scorer, ["warm up the kernels."])
    scorer.score(["warm up the kernels, batched."])
    gpu = scorer.on_gpu
    sync = _synchronizer(loaded.device)

    totals = {"naive": 0.0, "ours": 0.0, "naive_cpu": 0.0, "ours_cpu": 0.0, "tokens": 0, "needed": 0,
              "distinct": 0, "diff": 0.0}
    for name in datasets:
        rec, gold = pick_record(name)
        variants, source = make_variants(gold, n)
        clean = gold.prompt
        texts = [t for _, _, t in variants]
        total, needed, distinct = ceilings(scorer, clean, texts)
        load = "" if gpu else f"; {threads or '?'} CPU thread(s), load average {os.getloadavg()[0]:.1f} at the start"
        runs: dict[str, list] = {"naive": [], "ours": []}
        before = dict(scorer.stats)
        for round_ in range(repeat):  # rounds alternate the order (naive first, then ours first, …)
            order = ("naive", "ours") if round_ % 2 == 0 else ("ours", "naive")
            for side in order:
                fn = (lambda: naive_scores(scorer, [clean] + texts)) if side == "naive" else \
                    (lambda: scorer.score_variants(clean, texts))
                runs[side].append(_timed(sync, fn))
        naive, t_naive, c_naive = min(runs["naive"], key=lambda r: r[1])
        (clean_ppl, ours), t_ours, c_ours = min(runs["ours"], key=lambda r: r[1])
        fed = (scorer.stats["tokens"] - before["tokens"]) // repeat
        padded = (scorer.stats["padded_tokens"] - before["padded_tokens"]) // repeat
        diff = max(abs(a - b) / b for a, b in zip([clean_ppl] + ours, naive))
        cells = sorted({(c, s) for c, s, _ in variants})
        print(f"\n{name} record {rec.index}: {len(texts)} variants in {len(cells)} cells "
              f"({len(set(texts))} distinct), from {source}{load}")
        print(f"  tokens: {total} in all (clean {len(scorer.encode([clean])[0])}); to compute with prefix reuse "
              f"{needed}, and with identical texts once {distinct}; the scorer fed {fed} ({padded} with padding)")
        _report(t_naive, t_ours, c_naive, c_ours, total, needed, distinct, diff)
        for key, value in (("naive", t_naive), ("ours", t_ours), ("naive_cpu", c_naive), ("ours_cpu", c_ours),
                           ("tokens", total), ("needed", needed), ("distinct", distinct)):
            totals[key] += value
        totals["diff"] = max(totals["diff"], diff)
    print("\nall prompts:")
    _report(totals["naive"], totals["ours"], totals["naive_cpu"], totals["ours_cpu"], int(totals["tokens"]),
            int(totals["needed"]), int(totals["distinct"]), totals["diff"])
    totals["ratio"] = totals["naive"] / totals["ours"] if totals["ours"] else math.inf
    return totals


def _synchronizer(device: str):
    """Waits for queued GPU work (a no-op on CPU), so that timings cover the computation."""
    if device.startswith("cuda"):
        import torch

        return torch.cuda.synchronize
    return lambda: None


def _timed(sync, fn):
    """``fn()``'s result, wall seconds and this process's CPU seconds."""
    sync()
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    sync()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _report(t_naive: float, t_ours: float, c_naive: float, c_ours: float, total: int, needed: int, distinct: int,
            diff: float) -> None:
    ratio = t_naive / t_ours if t_ours else math.inf
    cpu_ratio = c_naive / c_ours if c_ours else math.inf
    ceiling, ceiling_distinct = total / needed, total / distinct
    print(f"  naive loop: {t_naive:8.2f} s  {total / t_naive:9.0f} tokens/s   (CPU time {c_naive:.2f} s)")
    print(f"  scorer:     {t_ours:8.2f} s  {total / t_ours:9.0f} tokens/s   (CPU time {c_ours:.2f} s)")
    print(f"  speed-up {ratio:.2f}x wall clock, {cpu_ratio:.2f}x CPU time")
    print(f"  ceiling (prefix reuse): {ceiling:.2f}x -> wall clock {100 * ratio / ceiling:.0f}% of it, CPU time "
          f"{100 * cpu_ratio / ceiling:.0f}%;  with identical texts once: {ceiling_distinct:.2f}x")
    print(f"  largest relative difference: {diff:.2e}")


if __name__ == "__main__":
    raise SystemExit(main())
