"""XML-tagged text: parse, render, round-trip on all 4,000 PACP records, malformed input."""
from __future__ import annotations

import pytest

from pacp import DATASETS, records
from promptanatomy_core.tagged import TagError, parse_tagged, render_tagged
from promptanatomy_core.types import Component, Dissection, Sentence


def pairs(d: Dissection) -> list[tuple[str, frozenset]]:
    return [(s.text, s.labels) for s in d.sentences]


def test_multilabel_sentence_is_kept_once_with_both_labels() -> None:
    tagged = ("<Role>You are a judge.</Role>\n<Directive>You are a judge. Decide if it is true. Output 'yes' or 'no'."
              "</Directive>\n<Output Formatting>Output 'yes' or 'no'.</Output Formatting>")
    d = parse_tagged(tagged)
    assert d.prompt == "You are a judge. Decide if it is true. Output 'yes' or 'no'."
    assert pairs(d) == [("You are a judge.", {Component.ROLE, Component.DIRECTIVE}),
                        ("Decide if it is true.", {Component.DIRECTIVE}),
                        ("Output 'yes' or 'no'.", {Component.DIRECTIVE, Component.OUTPUT_FORMATTING})]
    assert render_tagged(d) == tagged


def test_code_and_html_inside_content_are_content() -> None:
    d = parse_tagged("<Directive>Fix `<div>` in <b>page.html</b> and #include <stdio.h> now.</Directive>")
    assert d.prompt == "Fix `<div>` in <b>page.html</b> and #include <stdio.h> now."


@pytest.mark.parametrize("bad, message", [
    ("<Role>unclosed", "never closed"),
    ("<Role>a</Directive>", "closes <Role>"),
    ("text</Role>", "no opening tag"),
    ("<Role>a <Directive>b</Directive></Role>", "cannot nest"),
    ("<Rol>You are a bot.</Rol>", "unknown tag <Rol>"),
    ("just text, no tags", "no component tags"),
    ("Error: Error code: 500 - {'error': 'out of memory'}", "no component tags"),
])
def test_malformed_tagged_text_gives_a_specific_error(bad: str, message: str) -> None:
    with pytest.raises(TagError, match=message):
        parse_tagged(bad)


def test_untagged_text_outside_tags_is_kept_unlabelled() -> None:
    d = parse_tagged("Preamble here.\n<Directive>Do it.</Directive>")
    assert pairs(d) == [("Preamble here.", frozenset()), ("Do it.", {Component.DIRECTIVE})]


def test_render_of_a_hand_built_dissection() -> None:
    prompt = "You are a bot.\nAnswer briefly. Use JSON."
    d = Dissection(prompt, (Sentence(0, 14, "You are a bot.", frozenset({Component.ROLE})),
                            Sentence(15, 30, "Answer briefly.", frozenset({Component.DIRECTIVE, Component.OUTPUT_FORMATTING})),
                            Sentence(31, 40, "Use JSON.", frozenset({Component.OUTPUT_FORMATTING}))))
    assert render_tagged(d) == ("<Role>You are a bot.</Role>\n<Directive>Answer briefly.</Directive>\n"
                                "<Output Formatting>Answer briefly. Use JSON.</Output Formatting>")
    assert pairs(parse_tagged(render_tagged(d))) == pairs(d)


@pytest.mark.parametrize("name", DATASETS)
def test_round_trip_on_every_record(name: str) -> None:
    """Every record parses (or is one of the error strings the dataset holds), renders and parses back the same."""
    failures, error_records, exact = [], 0, 0
    recs = records(name)
    assert len(recs) == 1000
    for i, rec in enumerate(recs):
        tagged = rec["context_output"]
        try:
            d = parse_tagged(tagged)
        except TagError as exc:
            assert tagged.startswith("Error:"), f"record {i}: {exc}"
            error_records += 1
            continue
        for s in d.sentences:
            assert d.prompt[s.start:s.end] == s.text and s.labels
        out = render_tagged(d)
        exact += out == tagged
        if pairs(parse_tagged(out)) != pairs(d):
            failures.append(i)
    assert failures == []
    assert error_records == (204 if name == "CodeGeneration" else 0)
    # Text-exact where each tag's sentences follow the prompt's order (EMEA and CodeGeneration often reorder).
    assert exact >= {"PubMedQA": 990, "EMEA": 500, "Leetcode": 1000, "CodeGeneration": 3}[name]
