"""How far can any dissector go on the PACP datasets' gold labels? Three measurements per dataset.

1. Sentence oracle: label every sentence with the label set its exact text carries most often in the dataset
   (in-sample, so an upper bound for anything that reads a sentence alone).
2. Context memory, cross-validated: learn from half of the records the label set of every repeated (template)
   sentence given its two neighbours on each side (backing off to one, then none), label the other half with it,
   and let the rules label what the memory has never seen; then swap the halves. This is what a learner that
   memorises the datasets' own templates could reach on held-out records.
3. The label sets of the sentences that occur in one record only (the record's own data: its question, its code
   problem), where no memory helps.

    python bench/dataset_ceiling.py [--seed 0]
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict

from promptanatomy_core.accuracy import dissect_like, label_code
from promptanatomy_core.datasets import find_pacp, load_pacp
from promptanatomy_core.dissect import get_dissector
from promptanatomy_core.types import Dissection

Key = tuple[str | None, ...]
#: Context widths tried, widest first.
WIDTHS = (2, 1, 0)


def _codes(d: Dissection) -> list[str]:
    return [label_code(s.labels) for s in d.sentences]


def _key(texts: list[str], i: int, width: int, repeated: set[str]) -> Key:
    """The sentence and its neighbours within ``width``; text seen in one record only becomes '*'."""
    return tuple((texts[j] if texts[j] in repeated else "*") if 0 <= j < len(texts) else None
                 for j in range(i - width, i + width + 1))


def sentence_oracle(golds: list[Dissection]) -> float:
    """Prompt-level accuracy of the most common label set of each exact sentence (in-sample)."""
    codes = [_codes(g) for g in golds]
    table: dict[str, Counter] = defaultdict(Counter)
    for g, gold in zip(golds, codes):
        for s, code in zip(g.sentences, gold):
            table[s.text][code] += 1
    return sum(all(table[s.text].most_common(1)[0][0] == c for s, c in zip(g.sentences, gold))
               for g, gold in zip(golds, codes)) / len(golds)


def _memory(train: list[Dissection]) -> tuple[set[str], dict[int, dict[Key, Counter]]]:
    counts = Counter(s.text for g in train for s in g.sentences)
    repeated = {t for t, n in counts.items() if n > 1}
    tables: dict[int, dict[Key, Counter]] = {w: defaultdict(Counter) for w in WIDTHS}
    for g in train:
        texts = [s.text for s in g.sentences]
        for i, code in enumerate(_codes(g)):
            if texts[i] in repeated:
                for w in WIDTHS:
                    tables[w][_key(texts, i, w, repeated)][code] += 1
    return repeated, tables


def _recall(texts: list[str], i: int, repeated: set[str], tables: dict[int, dict[Key, Counter]]) -> str | None:
    for w in WIDTHS:
        hit = tables[w].get(_key(texts, i, w, repeated))
        if hit:
            return hit.most_common(1)[0][0]
    return None


def context_memory_cv(golds: list[Dissection], rules: list[list[str]], seed: int) -> dict[str, float]:
    """Two-fold cross-validated template memory, the rules filling in; rules alone on the same records."""
    order = list(range(len(golds)))
    random.Random(seed).shuffle(order)
    halves = (order[0::2], order[1::2])
    covered = right = total = hybrid_ok = rules_ok = 0
    for train, test in (halves, halves[::-1]):
        repeated, tables = _memory([golds[i] for i in train])
        for r in test:
            gold, texts = _codes(golds[r]), [s.text for s in golds[r].sentences]
            ok = True
            for i, code in enumerate(gold):
                recalled = _recall(texts, i, repeated, tables)
                covered += recalled is not None
                right += recalled == code
                ok &= (recalled or rules[r][i]) == code
            total += len(gold)
            hybrid_ok += ok
            rules_ok += rules[r] == gold
    return {"rules": rules_ok / len(golds), "hybrid": hybrid_ok / len(golds),
            "coverage": covered / total, "memory_accuracy": right / max(covered, 1)}


def singleton_labels(golds: list[Dissection], top: int = 5) -> str:
    """The most common label sets of sentences that occur in one record only."""
    counts = Counter(s.text for g in golds for s in g.sentences)
    codes = Counter(c for g in golds for s, c in zip(g.sentences, _codes(g)) if counts[s.text] == 1)
    n = sum(codes.values())
    return ", ".join(f"{c} {k / n:.0%}" for c, k in codes.most_common(top))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0, help="seed of the two-fold split")
    args = ap.parse_args(argv)
    paths = find_pacp()
    if not paths:
        print("no datasets found (set PROMPTANATOMY_DATA_DIR)", file=sys.stderr)
        return 2
    dissector = get_dissector("rules")
    print(f"{'dataset':20s} {'oracle':>7s} {'rules':>7s} {'memory+rules':>13s} {'coverage':>9s} {'mem acc':>8s}"
          "   label sets of one-record sentences")
    for name, path in paths.items():
        golds = [r.gold() for r in load_pacp(path)]
        rules = [_codes(dissect_like(dissector, g)) for g in golds]
        cv = context_memory_cv(golds, rules, args.seed)
        print(f"{name:20s} {sentence_oracle(golds):7.1%} {cv['rules']:7.1%} {cv['hybrid']:13.1%} "
              f"{cv['coverage']:9.1%} {cv['memory_accuracy']:8.1%}   {singleton_labels(golds)}")
    print("label codes: R Role, D Directive, A Additional Information, O Output Formatting, E Examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
