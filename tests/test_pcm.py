"""PCM parts on tiny prompts, by hand; the real WordNet-gloss reference and the real MiniLM embedder."""
from __future__ import annotations

import math

import pytest

from promptanatomy_core.metrics.pcm import (PCM, IdfReference, MiniLMEmbedder, cosine_distance, estimate_task,
                                            lexical_complexity, mean_pairwise_cosine_distance, pcm,
                                            semantic_complexity, sentence_depth, structural_complexity,
                                            syntactic_complexity, wordnet_reference, words)
from promptanatomy_core.tagged import parse_tagged

# a 4-document reference corpus: df(the)=4, df(cat)=2, df(dog)=1, df(zebra)=0
REF = IdfReference.from_documents(["the cat", "the cat sat", "the dog", "the end"], name="tiny")


def idf(df, n=4):
    return math.log((1 + n) / (1 + df)) + 1


def fake_embed(texts):
    """Fixed vectors by first word (the real embedder is tested below)."""
    table = {"alpha": [1.0, 0.0], "beta": [0.0, 1.0], "gamma": [1.0, 1.0]}
    return [table[t.split()[0].lower().strip(".")] for t in texts]


def test_words():
    assert words("Don't sort 3 items, Bob!") == ["don't", "sort", "items", "bob"]


def test_idf_by_hand():
    assert REF.n_docs == 4 and REF.idf("the") == pytest.approx(idf(4))
    assert REF.idf("cats") == pytest.approx(idf(2))  # plural tried without its "s"
    assert REF.idf("zebra") == pytest.approx(idf(0))
    # "The cat, the zebra." → the, cat, the, zebra
    assert lexical_complexity("The cat, the zebra.", REF) == pytest.approx((2 * idf(4) + idf(2) + idf(0)) / 4)
    assert lexical_complexity("123 !!", REF) == 0.0


def test_wordnet_gloss_reference():
    ref = wordnet_reference()
    assert ref.n_docs == 117659 and ref.name == "WordNet 3.0 glosses"
    assert ref.idf("the") < ref.idf("enzyme") < ref.idf("qwertyzzz") == pytest.approx(math.log(117660) + 1)


def test_sentence_depth_by_hand():
    assert sentence_depth("Sort the list.") == 1
    assert sentence_depth("Sort the list that I give you.") == 2
    assert sentence_depth("Sort the list (which I give you) now.") == 3
    # the comma closes the first clause before the second opens: depth 2, not 3
    assert sentence_depth("If it rains, we stay because it is cold.") == 2
    assert sentence_depth("Say \"yes (if sure\" and stop.") == 4  # quote, bracket, clause
    # the closing quote pops the bracket opened inside it, so the later bracket is back at depth 1
    assert sentence_depth("Say \"(yes\" and (stop).") == 3
    assert sentence_depth("Say \"yes\" and (stop).") == 2
    assert syntactic_complexity(["Sort the list.", "Sort the list that I give you."]) == 1.5
    assert syntactic_complexity([]) == 0.0


def test_cosine_and_semantic_by_hand():
    assert cosine_distance([1, 0], [0, 1]) == pytest.approx(1.0)
    assert cosine_distance([1, 0], [1, 1]) == pytest.approx(1 - 1 / math.sqrt(2))
    assert cosine_distance([0, 0], [1, 1]) == 1.0
    # alpha/beta 1, alpha/gamma 1 - 1/√2, beta/gamma 1 - 1/√2
    expected = (1 + 2 * (1 - 1 / math.sqrt(2))) / 3
    assert mean_pairwise_cosine_distance([[1, 0], [0, 1], [1, 1]]) == pytest.approx(expected)
    assert semantic_complexity(["Alpha one.", "Beta two.", "Gamma three."], fake_embed) == pytest.approx(expected)
    assert semantic_complexity(["Alpha only."], fake_embed) == 0.0


def test_structural_by_hand():
    assert structural_complexity(2, 4) == pytest.approx(2 * math.log(3))
    assert structural_complexity(1, 1) == pytest.approx(math.log(2))
    assert structural_complexity(0, 5) == 0.0


def test_task_estimate():
    assert estimate_task("Answer with yes or no.") == 1
    assert estimate_task("Extract the dates.") == 2
    assert estimate_task("Translate this to French.") == 3
    assert estimate_task("Write a Python function that sorts a list.") == 4
    assert estimate_task("Design a system step by step.") == 5
    assert estimate_task("Hello there.") == 3


def test_pcm_on_a_tagged_prompt_by_hand():
    d = parse_tagged("<Role>Alpha you are.</Role> <Directive>Beta the cat. Gamma the dog.</Directive>")
    assert len(d.sentences) == 3 and len(d.components()) == 2
    weights = {"lexical": 0.5, "syntactic": 2.0, "semantic": 1.0, "structural": 1.0, "task": 0.0}
    got = pcm(d, task=2, weights=weights, embed=fake_embed, reference=REF)
    assert isinstance(got, PCM) and not got.task_estimated and got.reference == "tiny"
    toks = ["alpha", "you", "are", "beta", "the", "cat", "gamma", "the", "dog"]
    lexical = sum(REF.idf(t) for t in toks) / len(toks)
    semantic = (1 + 2 * (1 - 1 / math.sqrt(2))) / 3
    structural = 2 * math.log(3 / 2 + 1)
    assert got.parts() == pytest.approx({"lexical": lexical, "syntactic": 1.0, "semantic": semantic,
                                         "structural": structural, "task": 2.0})
    assert got.total == pytest.approx(0.5 * lexical + 2.0 + semantic + structural + 0.0)
    assert got.to_json()["weights"] == weights


def test_pcm_checks_its_arguments():
    with pytest.raises(ValueError, match="unknown PCM part"):
        pcm("Sort the list.", weights={"nope": 1}, embed=fake_embed, reference=REF)
    with pytest.raises(ValueError, match="task must be 1-5"):
        pcm("Sort the list.", task=7, embed=fake_embed, reference=REF)


def test_pcm_on_plain_text_with_the_real_parts():
    """The defaults: rule-based dissection, WordNet glosses, all-MiniLM-L6-v2."""
    prompt = ("You are a careful medical assistant. Read the abstract and decide whether the study supports the "
              "claim. Answer with yes or no.")
    got = pcm(prompt)
    assert got.sentences == 3 and got.components >= 2 and got.task_estimated and got.task == 1.0
    assert got.lexical > 1.5 and got.lexical < 12.7 and 0 < got.semantic < 1.5 and got.syntactic >= 1
    assert got.total == pytest.approx(sum(got.parts().values()))


def test_minilm_embedder_is_the_real_model():
    vecs = MiniLMEmbedder()(["The cat sat on the mat.", "A feline rested on the rug.", "Stock prices fell."])
    assert len(vecs) == 3 and len(vecs[0]) == 384
    assert math.sqrt(sum(x * x for x in vecs[0])) == pytest.approx(1.0, abs=1e-5)
    # paraphrases are closer than unrelated sentences
    assert cosine_distance(vecs[0], vecs[1]) < cosine_distance(vecs[0], vecs[2])
