"""ComPerturb on every record of the four -PA datasets: each present component × each strategy (seeded) changes only
that component's spans; the text outside them, placeholders and code stay byte-identical.

SER runs with its offline WordNet fallback here (a model on 4,000 prompts would take hours); tests/test_perturb_ser.py
covers the model path. The control group and the baselines run on every 20th record.
"""
from __future__ import annotations

import time

import pytest

from promptanatomy_core.perturb import (BASELINES, COMPERTURB, ComponentNotPresent, NothingToPerturb, apply_edits,
                                        get_strategy)
from promptanatomy_core.perturb.words import protected_spans
from promptanatomy_core.types import COMPONENTS, CONTROL, Dissection, Variant

from pacp import DATASETS, gold


@pytest.fixture(scope="module")
def strategies():
    built = {name: get_strategy(name, **({"offline": True} if name == "SER" else {})) for name in COMPERTURB}
    built.update({name: get_strategy(name) for name in BASELINES})
    return built


def same_outside(prompt: str, spans: list[tuple[int, int]], text: str) -> bool:
    """True if ``text`` equals ``prompt`` outside ``spans``: the same head and tail, and every stretch between two
    spans found in order (whatever the spans became)."""
    cuts = [0] + [x for span in spans for x in span] + [len(prompt)]
    outside = [prompt[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)]
    head, tail = outside[0], outside[-1]
    if not text.startswith(head) or not text.endswith(tail) or len(text) < len(head) + len(tail):
        return False
    pos, end = len(head), len(text) - len(tail)
    for piece in outside[1:-1]:
        found = text.find(piece, pos, end)
        if found < 0:
            return False
        pos = found + len(piece)
    return True


def check_variant(d: Dissection, v: Variant, spans: list[tuple[int, int]], protected_kept: bool) -> None:
    prompt = d.prompt
    assert v.text == apply_edits(prompt, v.edits)
    assert v.text != prompt or not v.edits
    for e in v.edits:
        assert any(a <= e.start and e.end <= b for a, b in spans), (e, spans)
    assert same_outside(prompt, spans, v.text), "text outside the target spans changed"
    if protected_kept:
        for a, b in protected_spans(prompt):
            assert not any(e.start < b and e.end > a for e in v.edits if e.end > e.start), "protected text edited"
            assert not any(a < e.start < b for e in v.edits), "insertion inside protected text"
            shift = sum(len(e.replacement) - (e.end - e.start) for e in v.edits if e.end <= a)
            assert v.text[a + shift:b + shift] == prompt[a:b], "protected text moved or changed"


@pytest.mark.parametrize("dataset", DATASETS)
def test_every_record_component_and_strategy(dataset, strategies):
    started = time.monotonic()
    made = skipped = 0
    for i, d in enumerate(gold(dataset)):
        present = d.components()
        for comp in COMPONENTS:
            spans = d.spans(comp)
            for name in COMPERTURB:
                strategy = strategies[name]
                if comp not in present:
                    with pytest.raises(ComponentNotPresent):
                        strategy.perturb(d, comp, seed=i)
                    continue
                try:
                    v = strategy.perturb(d, comp, seed=i)
                except NothingToPerturb:
                    skipped += 1
                    continue
                made += 1
                assert v.component == comp.value and v.strategy == name and v.seed == i
                check_variant(d, v, spans, protected_kept=name != "COD")
                if name == "COD":
                    assert all(d.prompt[a:b] not in v.text or d.prompt.count(d.prompt[a:b]) > 1 for a, b in spans
                               if len(d.prompt[a:b]) > 40)
        if i % 20 == 0:
            whole = [(0, len(d.prompt))]
            for name in COMPERTURB:
                v = strategies[name].perturb(d, CONTROL, seed=i)
                assert v.component == CONTROL
                check_variant(d, v, whole, protected_kept=name != "COD")
            for name in BASELINES:
                v = strategies[name].perturb(d, seed=i)
                check_variant(d, v, whole, protected_kept=True)
    assert made > 3000
    assert skipped < made * 0.02
    print(f"{dataset}: {made} variants, {skipped} too short, {time.monotonic() - started:.1f} s")
