"""Runner speed: 200 requests to a loopback OpenAI-compatible server that adds 200 ms of latency to each.

Three runs through the real openai backend (AsyncOpenAI over HTTP):
  1. sequential (concurrency 1, no cache),
  2. concurrency 16, writing a fresh cache,
  3. the same 200 again from that cache.
Goals: run 2 has at least 10x the throughput of run 1; run 3 is at least 50x faster than run 2.
Prints the times, the ratios and the peak number in flight (as the server counted it and as the runner did).

    python bench/runner_speed.py [--requests 200] [--latency 0.2] [--concurrency 16] [--json]

The sequential run takes about requests x latency (40 s with the defaults); ``--quick`` uses 50 requests.
Exit status 1 when a goal is missed.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fault_server import FaultServer  # noqa: E402

from promptanatomy_core.models.base import ChatRequest, Message  # noqa: E402
from promptanatomy_core.models.cache import ResponseCache  # noqa: E402
from promptanatomy_core.models.openai_backend import OpenAIBackend  # noqa: E402
from promptanatomy_core.models.runner import Runner  # noqa: E402

THROUGHPUT_GOAL = 10.0
CACHE_GOAL = 50.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the server adds to each request")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--quick", action="store_true", help="50 requests instead of 200")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    n = 50 if args.quick else args.requests
    requests = [ChatRequest((Message("user", f"Benchmark question number {i}: what is {i} + {i}?"),), max_tokens=16)
                for i in range(n)]
    results: dict[str, object] = {"requests": n, "latency_s": args.latency, "concurrency": args.concurrency}
    with FaultServer(latency=args.latency) as server, tempfile.TemporaryDirectory() as tmp:
        backend = OpenAIBackend(f"openai:bench-model@{server.base_url}")
        # warm up: import the SDK and open a client once, so run 1 is not charged for it
        Runner(backend, cache=False).run([ChatRequest((Message("user", "warm up"),), max_tokens=1)])

        server.reset_counts()
        t0 = time.perf_counter()
        seq = Runner(backend, cache=False, concurrency=1).run(requests)
        t_seq = time.perf_counter() - t0
        peak_seq = server.peak

        server.reset_counts()
        with ResponseCache(Path(tmp) / "cache") as cache:
            t0 = time.perf_counter()
            con = Runner(backend, cache=cache, concurrency=args.concurrency).run(requests)
            t_con = time.perf_counter() - t0
            peak_con = server.peak

            server.reset_counts()
            t0 = time.perf_counter()
            hit = Runner(backend, cache=cache, concurrency=args.concurrency).run(requests)
            t_hit = time.perf_counter() - t0
            sent_from_cache_run = server.requests

    for name, run in (("sequential", seq), ("concurrent", con), ("cached", hit)):
        bad = [r.error for r in run.responses if not r.ok]
        if bad:
            print(f"{name}: {len(bad)} errors, e.g. {bad[0]}", file=sys.stderr)
            return 1
    throughput_ratio = t_seq / t_con
    cache_ratio = t_con / t_hit
    results.update({
        "sequential_s": round(t_seq, 3), "concurrent_s": round(t_con, 3), "cached_s": round(t_hit, 4),
        "throughput_ratio": round(throughput_ratio, 1), "cache_speedup": round(cache_ratio, 1),
        "peak_in_flight_server": {"sequential": peak_seq, "concurrent": peak_con},
        "peak_in_flight_runner": con.stats.peak_in_flight,
        "cache_hits": hit.stats.cache_hits, "sent_by_cached_run": sent_from_cache_run,
        "goals": {"throughput_ratio >= 10": throughput_ratio >= THROUGHPUT_GOAL,
                  "cache_speedup >= 50": cache_ratio >= CACHE_GOAL},
    })
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"{n} requests, {args.latency * 1000:.0f} ms server latency each")
        print(f"  sequential            {t_seq:8.2f} s   {n / t_seq:8.1f} req/s   peak in flight {peak_seq}")
        print(f"  concurrency {args.concurrency:<3}       {t_con:8.2f} s   {n / t_con:8.1f} req/s   "
              f"peak in flight {peak_con} (runner: {con.stats.peak_in_flight})")
        print(f"  again, from the cache {t_hit:8.3f} s   {n / t_hit:8.1f} req/s   "
              f"{hit.stats.cache_hits} hits, {sent_from_cache_run} sent")
        print(f"  throughput ratio  {throughput_ratio:6.1f}x (goal >= {THROUGHPUT_GOAL:.0f}x)")
        print(f"  cache speed-up    {cache_ratio:6.1f}x (goal >= {CACHE_GOAL:.0f}x)")
    return 0 if all(results["goals"].values()) else 1  # type: ignore[union-attr]


if __name__ == "__main__":
    raise SystemExit(main())
