"""bench/dataset_ceiling.py: the sentence oracle and the cross-validated context memory on a dataset built so that
every figure is known in advance (a sentence whose label depends on its neighbour, and one that is plain noise)."""
from __future__ import annotations

import pytest

from bench_scripts import load
from promptanatomy_core.tagged import parse_tagged


@pytest.fixture(scope="module")
def ceiling():
    return load("dataset_ceiling")


# "Be brief." is form after "Do X." alone (A), a rule after a persona (B), and noise in C (same text as A, other label).
KIND_A = "<Directive>Do X.</Directive> <Output Formatting>Be brief.</Output Formatting>"
KIND_B = ("<Role>You are Y.</Role> <Directive>Do X.</Directive> "
          "<Additional Information>Be brief.</Additional Information>")
KIND_C = "<Directive>Do X.</Directive> <Directive>Be brief.</Directive>"
GOLDS = [parse_tagged(t) for t in [KIND_A] * 20 + [KIND_B] * 15 + [KIND_C] * 10]


def test_sentence_oracle_takes_each_sentence_s_most_common_labels(ceiling):
    # "Be brief." is O 20 times, A 15, D 10: only kind A comes out right
    assert ceiling.sentence_oracle(GOLDS) == pytest.approx(20 / 45)


def test_context_memory_learns_the_neighbour_but_not_the_noise(ceiling):
    all_directive = [["D"] * len(g.sentences) for g in GOLDS]
    cv = ceiling.context_memory_cv(GOLDS, all_directive, seed=0)
    assert cv["rules"] == pytest.approx(10 / 45)          # only kind C is all Directive
    assert cv["hybrid"] == pytest.approx(35 / 45)         # A and B told apart by context; C loses to A's majority
    assert cv["coverage"] == 1.0                          # every sentence is a repeated template sentence
    assert cv["memory_accuracy"] == pytest.approx(95 / 105)


def test_rules_fill_what_the_memory_never_saw(ceiling):
    golds = GOLDS + [parse_tagged(f"<Directive>Do X.</Directive> <Examples>Case {i}.</Examples>") for i in range(4)]
    rules = [["D"] * (len(g.sentences) - 1) + ["E"] if g.sentences[-1].text.startswith("Case") else ["D", "D"]
             for g in golds]
    cv = ceiling.context_memory_cv(golds, rules, seed=0)
    assert cv["coverage"] < 1.0
    assert cv["hybrid"] == pytest.approx(39 / 49)       # the four records with an unseen sentence come out right


def test_singleton_labels_counts_one_record_sentences_only(ceiling):
    golds = GOLDS[:2] + [parse_tagged("<Directive>Only here.</Directive>"),
                         parse_tagged("<Additional Information>Also only here.</Additional Information>"),
                         parse_tagged("<Directive>Once more.</Directive>")]
    assert ceiling.singleton_labels(golds) == "D 67%, A 33%"
