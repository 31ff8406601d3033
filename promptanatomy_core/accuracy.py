"""Dissection accuracy against gold labels: sentence-level and the paper's prompt-level accuracy."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .dissect.base import Dissector
from .jsonlines import json_lines
from .tagged import parse_tagged
from .types import COMPONENTS, Dissection

_SHORT = {c: s for c, s in zip(COMPONENTS, ("R", "D", "A", "O", "E"))}


def label_code(labels: Iterable) -> str:
    """A compact, sorted code for a label set, e.g. ``"DO"`` for Directive + Output Formatting."""
    return "".join(sorted(_SHORT[c] for c in labels)) or "-"


@dataclass
class Accuracy:
    """Counts for one dissector on one set of gold dissections."""

    prompts: int = 0
    prompts_correct: int = 0
    sentences: int = 0
    sentences_correct: int = 0
    confusions: Counter = field(default_factory=Counter)  # (gold code, predicted code) -> count

    @property
    def prompt_level(self) -> float:
        return self.prompts_correct / self.prompts if self.prompts else 0.0

    @property
    def sentence_level(self) -> float:
        return self.sentences_correct / self.sentences if self.sentences else 0.0


def dissect_like(dissector: Dissector, gold: Dissection) -> Dissection:
    """Dissect the gold prompt over the gold sentence split, so that sentences line up one to one."""
    return dissector.dissect(gold.prompt, [s.with_labels(()) for s in gold.sentences])


def evaluate(dissector: Dissector, gold: Iterable[Dissection]) -> Accuracy:
    """Dissect each gold prompt over the gold sentence split and compare label sets exactly."""
    acc = Accuracy()
    for g in gold:
        pred = dissect_like(dissector, g)
        right = 0
        for gs, ps in zip(g.sentences, pred.sentences):
            if gs.labels == ps.labels:
                right += 1
            else:
                acc.confusions[(label_code(gs.labels), label_code(ps.labels))] += 1
        acc.prompts += 1
        acc.sentences += len(g.sentences)
        acc.sentences_correct += right
        acc.prompts_correct += right == len(g.sentences)
    return acc


def load_gold_jsonl(path: str | Path) -> list[tuple[str, Dissection]]:
    """Read a gold set stored as JSON lines ``{"id", "domain", "tagged"}`` into (id, gold dissection) pairs."""
    out = []
    for n, rec in json_lines(Path(path).read_text(encoding="utf-8"), str(path), ValueError):
        try:
            out.append((rec["id"], parse_tagged(rec["tagged"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path} line {n}: not a gold record ({exc})") from None
    return out
