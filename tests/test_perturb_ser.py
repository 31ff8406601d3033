"""SER, sentence rewriting: the similarity check and fallback with a scripted backend (fast), and the real embedded
model (slow)."""
from __future__ import annotations

from typing import Sequence

import pytest

from promptanatomy_core.models.base import Backend, BackendError, ChatRequest, ChatResponse, ModelSpec
from promptanatomy_core.perturb import PerturbError, perturb
from promptanatomy_core.perturb.ser import SYSTEM, SentenceRewriting, clean_paraphrase, judge, similarity
from promptanatomy_core.tagged import parse_tagged
from promptanatomy_core.types import CONTROL, Component

TAGGED = ("<Role>You are a friendly support agent for a bicycle shop.</Role>\n"
          "<Directive>Answer the customer's question about opening hours. Question: {input}</Directive>")
D = parse_tagged(TAGGED)
ROLE_SENTENCE = "You are a friendly support agent for a bicycle shop."


class Scripted(Backend):
    """Answers every request with the next scripted reply (a string, or an Exception for an error response)."""

    def __init__(self, replies: Sequence[object], raise_on_call: Exception | None = None) -> None:
        super().__init__(ModelSpec("scripted", "test"))
        self.replies = list(replies)
        self.raise_on_call = raise_on_call
        self.requests: list[ChatRequest] = []

    def generate(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        if self.raise_on_call is not None:
            raise self.raise_on_call
        out = []
        for r in requests:
            self.requests.append(r)
            reply = self.replies.pop(0) if self.replies else ""
            out.append(ChatResponse(error=str(reply)) if isinstance(reply, Exception) else ChatResponse(text=reply))
        return out


def test_judge_rejects_echo_and_drift_and_accepts_a_paraphrase():
    original = ROLE_SENTENCE
    assert judge(original, original)[0] is False and "echo" in judge(original, original)[1]
    assert "echo" in judge(original, "You are a friendly support agent for a bicycle store.")[1]
    assert "drift" in judge(original, "The weather in Paris is sunny today and tomorrow.")[1]
    assert "drift" in judge(original, "Sure! Opening hours are 9 to 5.")[1]
    assert "drift" in judge(original, "Agent.")[1]  # too short
    ok, why = judge(original, "You work as a friendly helper at a bicycle shop, supporting its customers.")
    assert ok, why
    assert 0 < similarity(original, "You work as a friendly helper at a bicycle shop.") < 0.9


def test_clean_paraphrase_strips_preambles_quotes_and_restores_the_full_stop():
    assert clean_paraphrase('Paraphrase: "You help bicycle customers kindly"', ROLE_SENTENCE) == \
        "You help bicycle customers kindly."
    assert clean_paraphrase("Here is the rewritten sentence:\nYou assist shoppers.\nMore text", ROLE_SENTENCE) == \
        "You assist shoppers."


def test_the_model_sees_only_the_sentence_and_the_first_good_sample_wins():
    backend = Scripted([ROLE_SENTENCE,  # echo
                        "Opening hours are 9 to 5 every day of the week.",  # drift
                        "You work as a friendly helper at a bicycle shop, supporting its customers.",
                        "You are a kind support agent in a bike shop."])
    v = perturb(D, "SER", Component.ROLE, seed=1, backend=backend, attempts=4)[0]
    assert v.text.startswith("You work as a friendly helper at a bicycle shop, supporting its customers.\n")
    assert v.text.endswith(D.prompt[D.prompt.index("\n"):])
    assert v.note.startswith("paraphrase by scripted:test")
    assert len(backend.requests) == 4
    seeds = {r.seed for r in backend.requests}
    assert len(seeds) == 4  # each try samples with its own seed
    for r in backend.requests:
        assert [m.role for m in r.messages] == ["system", "user"]
        assert r.messages[0].content == SYSTEM and len(SYSTEM) < 120
        assert r.messages[1].content == ROLE_SENTENCE  # nothing of the rest of the prompt
        assert r.temperature > 0


def test_protected_text_must_survive_the_paraphrase():
    d = parse_tagged("<Directive>Please answer the customer's question below politely: {input}</Directive>")
    sentence = d.sentences[0].text
    lost = "Kindly reply to the customer's question politely."
    kept = "Kindly reply to the question from the customer below, politely: {input}"
    v = perturb(d, "SER", Component.DIRECTIVE, backend=Scripted([lost, kept]), attempts=2)[0]
    assert v.text == kept and "{input}" in v.text
    assert all(not (e.start < d.prompt.index("{input}") + 7 and e.end > d.prompt.index("{input}")) for e in v.edits)
    v = perturb(d, "SER", Component.DIRECTIVE, backend=Scripted([lost, lost]), attempts=2)[0]
    assert "offline WordNet rewrite" in v.note and "lost or moved protected text" in v.note
    assert v.text.endswith("{input}") and v.text != sentence


def test_no_good_sample_falls_back_to_wordnet_and_says_why():
    backend = Scripted([ROLE_SENTENCE] * 3)
    v = perturb(D, "SER", Component.ROLE, backend=backend, attempts=3)[0]
    assert "offline WordNet rewrite (no paraphrase passed the similarity check in 3 tries: echo" in v.note
    assert v.text != D.prompt
    with pytest.raises(PerturbError, match="no paraphrase"):
        perturb(D, "SER", Component.ROLE, backend=Scripted([ROLE_SENTENCE] * 3), attempts=3, fallback=False)


def test_a_failing_model_falls_back_with_its_error():
    v = perturb(D, "SER", Component.ROLE, backend=Scripted([], raise_on_call=BackendError("server down")))[0]
    assert "paraphrase model scripted:test failed: server down" in v.note
    v = perturb(D, "SER", Component.ROLE, backend=Scripted([RuntimeError("HTTP 500")] * 4))[0]
    assert "failed: HTTP 500" in v.note and "offline WordNet rewrite" in v.note
    v = perturb(D, "SER", Component.ROLE, backend="nosuchprovider:model")[0]
    assert "offline WordNet rewrite (paraphrase model nosuchprovider:model failed" in v.note


def test_offline_and_backend_none_use_the_fallback_only():
    for kwargs in ({"offline": True}, {"backend": None}):
        v = perturb(D, "SER", Component.ROLE, seed=3, **kwargs)[0]
        assert v.note == "offline WordNet rewrite (offline)"


def test_bad_parameters():
    with pytest.raises(ValueError, match="attempts"):
        SentenceRewriting(attempts=0)
    with pytest.raises(ValueError, match="min_similarity"):
        SentenceRewriting(min_similarity=0.95, max_similarity=0.9)


def test_seeded_and_control():
    replies = ["You work as a friendly helper at a bicycle shop, supporting its customers."] * 8
    a = perturb(D, "SER", Component.ROLE, seed=5, backend=Scripted(list(replies)))[0]
    b = perturb(D, "SER", Component.ROLE, seed=5, backend=Scripted(list(replies)))[0]
    assert a == b
    v = perturb(D, "SER", CONTROL, seed=0, offline=True)[0]
    assert v.component == CONTROL and "control: 1 sentence" in v.note


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_real_embedded_model_paraphrases():
    """The embedded SmolLM2-135M through LocalBackend: every variant is a passing paraphrase or a labelled fallback."""
    from promptanatomy_core.models.local import LocalBackend

    backend = LocalBackend("local")
    d = parse_tagged(
        "<Role>You are an experienced translator of Latin texts with a deep knowledge of Roman history.</Role>\n"
        "<Output Formatting>The translation should be written in clear and readable modern English.</Output "
        "Formatting>")
    strategy = SentenceRewriting(backend=backend, attempts=4)
    outcomes = []
    for comp in (Component.ROLE, Component.OUTPUT_FORMATTING):
        for seed in (0, 1):
            v = strategy.perturb(d, comp, seed)
            assert v.text != d.prompt
            spans = d.spans(comp)
            other = [s for s in d.sentences if comp not in s.labels][0].text
            assert other in v.text  # the other component is untouched
            if v.note.startswith("paraphrase by local"):
                new = v.edits[0].replacement
                original = d.prompt[slice(*spans[0])]
                assert judge(original, new)[0]
            else:
                assert v.note.startswith("offline WordNet rewrite (")
            outcomes.append(v.note)
            assert strategy.perturb(d, comp, seed) == v  # seeded sampling: the same variant again
    print(outcomes)
