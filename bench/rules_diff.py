"""What a change to a dissector does, sentence by sentence, on every gold set: snapshots and their differences.

    python bench/rules_diff.py snap before.json --root /tmp/old-checkout   # that checkout's promptanatomy_core
    python bench/rules_diff.py snap after.json --set brig=/tmp/newsets/brig/brig_prompts.jsonl:dev
    python bench/rules_diff.py compare before.json after.json [--show]
    python bench/rules_diff.py errors after.json [--pair D A] [-n 20]

A snapshot holds, per set, every sentence's gold and predicted label codes. The sets marked "never looked at" in
bench/dissect_accuracy.py (and ``:sealed`` sets given with ``--set``) are sealed: their snapshots keep no text, so no
command can print a sealed sentence; only counts come out of them.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = ("dev", "sealed", "pacp")


def gold_sets(extra: list[str]) -> dict[str, tuple[str, Path]]:
    """Set name -> (kind, path) for the registered gold sets, the PACP datasets and ``NAME=PATH:KIND`` extras."""
    spec = importlib.util.spec_from_file_location("dissect_accuracy", HERE / "dissect_accuracy.py")
    registry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(registry)
    from promptanatomy_core.datasets import find_pacp
    sets = {name: ("pacp", path) for name, path in find_pacp().items()}
    for label, path in registry.GOLD_SETS.items():
        sets[path.name.removesuffix("_prompts.jsonl")] = ("sealed" if "never looked at" in label else "dev", path)
    for item in extra:
        name, _, rest = item.partition("=")
        path, _, kind = rest.rpartition(":")
        if not name or kind not in ("dev", "sealed") or not path:
            raise SystemExit(f"--set {item!r}: expected NAME=PATH:dev or NAME=PATH:sealed")
        sets[name] = (kind, Path(path))
    return sets


def _snap_one(job: tuple[str, str, str]) -> tuple[str, dict]:
    from promptanatomy_core.accuracy import dissect_like, label_code, load_gold_jsonl
    from promptanatomy_core.datasets import load_pacp
    from promptanatomy_core.dissect import get_dissector
    name, kind, path = job
    golds = ([(r.index, r.gold()) for r in load_pacp(path)] if kind == "pacp" else load_gold_jsonl(path))
    rules = get_dissector("rules")
    records = []
    for rid, gold in golds:
        pred = dissect_like(rules, gold)
        rows = [[label_code(g.labels), label_code(p.labels)] + ([] if kind == "sealed" else [g.text])
                for g, p in zip(gold.sentences, pred.sentences)]
        records.append([str(rid), rows])
    return name, {"kind": kind, "records": records}


def snap(out: Path, extra: list[str], workers: int) -> None:
    jobs = sorted((name, kind, str(path)) for name, (kind, path) in gold_sets(extra).items())
    with Pool(workers) as pool:
        result = dict(pool.imap_unordered(_snap_one, jobs))
    out.write_text(json.dumps(dict(sorted(result.items())), ensure_ascii=False), encoding="utf-8")
    sentences = sum(len(rows) for s in result.values() for _, rows in s["records"])
    print(f"{len(result)} sets, {sentences} sentences -> {out}")


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _right(rows: list) -> list[bool]:
    return [row[0] == row[1] for row in rows]


def compare(a: Path, b: Path, show: bool) -> None:
    """Per set and per kind: sentences gained (+) and lost (-), and prompts; ``show`` prints the development ones."""
    before, after = _load(a), _load(b)
    totals = {k: Counter() for k in KINDS}
    for name in sorted(set(before) & set(after)):
        kind = after[name]["kind"]
        gained = lost = pgained = plost = 0
        for (rid, old), (_, new) in zip(before[name]["records"], after[name]["records"]):
            was, now = _right(old), _right(new)
            gained += sum(n and not w for w, n in zip(was, now))
            lost += sum(w and not n for w, n in zip(was, now))
            pgained += all(now) and not all(was)
            plost += all(was) and not all(now)
            if show and kind == "dev" and was != now:
                for (gold, p_old, text), (_, p_new, _) in zip(old, new):
                    if p_old != p_new:
                        mark = "+" if p_new == gold else "-" if p_old == gold else "~"
                        print(f"  {mark} {name}/{rid}: gold {gold} {p_old}->{p_new}  {text[:110]!r}")
        totals[kind].update(gained=gained, lost=lost, pgained=pgained, plost=plost)
        if gained or lost:
            print(f"{name:14s} {kind:6s} +{gained} -{lost}   prompts +{pgained} -{plost}")
    for kind, t in totals.items():
        print(f"TOTAL {kind:6s} +{t['gained']} -{t['lost']}   prompts +{t['pgained']} -{t['plost']}")
    for name in sorted(set(after) - set(before)):
        print(f"{name}: only in {b}")


def errors(path: Path, pair: tuple[str, str] | None, limit: int, only: list[str]) -> None:
    """The commonest confusions on the development sets; with ``pair``, its sentences."""
    counts: Counter = Counter()
    for name, s in _load(path).items():
        if s["kind"] != "dev" or (only and name not in only):
            continue
        for rid, rows in s["records"]:
            for gold, pred, text in rows:
                if gold == pred:
                    continue
                counts[(gold, pred)] += 1
                if pair == (gold, pred) and limit > 0:
                    limit -= 1
                    print(f"  {name}/{rid}: {text[:140]!r}")
    if pair is None:
        for (gold, pred), n in counts.most_common(limit):
            print(f"gold {gold:4s} predicted {pred:4s} x{n}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_snap = sub.add_parser("snap", help="label every gold set with `rules` and save the codes")
    p_snap.add_argument("out", type=Path)
    p_snap.add_argument("--root", type=Path, help="a checkout whose promptanatomy_core to measure")
    p_snap.add_argument("--set", action="append", default=[], metavar="NAME=PATH:KIND")
    p_snap.add_argument("--workers", type=int, default=2)
    p_cmp = sub.add_parser("compare", help="sentences and prompts gained and lost from A to B")
    p_cmp.add_argument("a", type=Path)
    p_cmp.add_argument("b", type=Path)
    p_cmp.add_argument("--show", action="store_true", help="print the development sentences that changed")
    p_err = sub.add_parser("errors", help="the commonest confusions on the development sets")
    p_err.add_argument("snapshot", type=Path)
    p_err.add_argument("--pair", nargs=2, metavar=("GOLD", "PRED"))
    p_err.add_argument("--only", action="append", default=[], metavar="SET")
    p_err.add_argument("-n", type=int, default=20)
    args = parser.parse_args(argv)
    if args.command == "snap":
        if args.root:
            sys.path.insert(0, str(args.root.resolve()))
        snap(args.out, args.set, args.workers)
    elif args.command == "compare":
        compare(args.a, args.b, args.show)
    else:
        errors(args.snapshot, tuple(args.pair) if args.pair else None, args.n, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
