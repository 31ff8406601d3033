"""Rules dissector speed on a 2,000-word prompt built from PACP records (the goal: under 20 ms), and on prompts at the
size limit (100,000 characters of short lines, bullets or few-shot pairs: the shapes whose cost once grew with the
square of the line count).

Prints the median of repeated runs beside the time of the sentence splitter alone, measured in the same run.
"""
from __future__ import annotations

import statistics
import time

from promptanatomy_core.datasets import find_pacp, load_pacp
from promptanatomy_core.dissect import get_dissector
from promptanatomy_core.text import MAX_PROMPT_CHARS, split_sentences


#: Prompts at the size limit, one per shape.
LARGE = {"short lines": "Some line of text without cues here\n", "bullets": "- item one is here\n",
         "few-shot pairs": "Input: a\nOutput: b\n",
         "tasks over labelled blocks": "Summarise the reports below.\nNotes:\nsome text here\n"}


def _median_ms(fn, repeats: int = 30) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    prompts = [r.prompt for path in find_pacp().values() for r in load_pacp(path)[:10]]
    words = "\n".join(prompts).split(" ")
    prompt = " ".join(words[:2000])
    rules = get_dissector("rules")
    split_ms = _median_ms(lambda: split_sentences(prompt))
    rules_ms = _median_ms(lambda: rules.dissect(prompt))
    print(f"prompt: {len(prompt.split())} words, {len(split_sentences(prompt))} sentences")
    print(f"split only: {split_ms:.2f} ms   rules dissector: {rules_ms:.2f} ms   ratio {rules_ms / split_ms:.1f}x   "
          f"goal < 20 ms: {'met' if rules_ms < 20 else 'NOT met'}")
    for shape, unit in LARGE.items():
        big = (unit * (MAX_PROMPT_CHARS // len(unit)))[: MAX_PROMPT_CHARS - 1]
        split_ms = _median_ms(lambda: split_sentences(big), repeats=3)
        rules_ms = _median_ms(lambda: rules.dissect(big), repeats=3)
        print(f"{MAX_PROMPT_CHARS:,} characters of {shape}: split {split_ms:.0f} ms, rules {rules_ms:.0f} ms, "
              f"ratio {rules_ms / split_ms:.1f}x")


if __name__ == "__main__":
    main()
