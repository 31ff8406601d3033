"""Prompts written as configuration (YAML, JSON, TOML): each key's block takes the component its key names."""
from __future__ import annotations

import pytest

from promptanatomy_core.accuracy import label_code
from promptanatomy_core.dissect import get_dissector
from promptanatomy_core.dissect.configured import key_component
from promptanatomy_core.types import Component

RULES = get_dissector("rules")


def codes(prompt: str) -> list[tuple[str, str]]:
    return [(s.text, label_code(s.labels)) for s in RULES.dissect(prompt).sentences]


@pytest.mark.parametrize("key, component", [
    ("persona", Component.ROLE), ("task", Component.DIRECTIVE), ("job", Component.DIRECTIVE),
    ("rules", Component.ADDITIONAL_INFORMATION), ("context", Component.ADDITIONAL_INFORMATION),
    ("response_format", Component.OUTPUT_FORMATTING), ("speech", Component.OUTPUT_FORMATTING),
    ("examples", Component.EXAMPLES), ("transcript", Component.DIRECTIVE), ("user_message", Component.DIRECTIVE),
    ("voice_agent", None), ("name", None), ("model", None)])
def test_what_a_configuration_key_names(key: str, component: Component | None) -> None:
    assert key_component(key) is component


def test_a_yaml_assistant_takes_each_section_from_its_key() -> None:
    prompt = ("assistant:\n  name: Juniper\n  persona: >\n    You are Juniper, a patient gardening helper\n"
              "    who grew up on an allotment.\n  task: >\n    Answer questions about what to plant and when,\n"
              "    and explain why.\nrules:\n  - Assume the user gardens in the UK.\n  - Recommend peat-free compost.\n"
              "response_format:\n  - Start with a one-line answer.\n  - Then at most four bullet points.\n"
              "user_input: \"{question}\"")
    assert codes(prompt) == [
        ("assistant:", "R"), ("name: Juniper", "R"), ("persona: >", "R"),
        ("You are Juniper, a patient gardening helper", "R"), ("who grew up on an allotment.", "R"),
        ("task: >", "D"), ("Answer questions about what to plant and when,", "D"), ("and explain why.", "D"),
        ("rules:", "A"), ("- Assume the user gardens in the UK.", "A"), ("- Recommend peat-free compost.", "A"),
        ("response_format:", "O"), ("- Start with a one-line answer.", "O"),
        ("- Then at most four bullet points.", "O"),
        ('user_input: "{question}"', "D")]


def test_a_json_configuration_with_examples_and_the_input() -> None:
    prompt = ('{\n  "agent": "refund-classifier",\n  "instructions": "Decide whether the refund request below is '
              'eligible.",\n  "policy": {\n    "window": "30 days from delivery",\n    "excluded": "gift cards"\n'
              '  },\n  "examples": [\n    {"request": "Bought 10 days ago, it broke", "label": "eligible"},\n'
              '    {"request": "Gift card unused", "label": "not eligible"}\n  ],\n  "request": "{request_text}"\n}')
    assert [c for _, c in codes(prompt)][2:] == ["D", "A", "A", "A", "A", "E", "E", "E", "E", "D", "D"]


def test_a_toml_configuration_keeps_a_code_block_whole() -> None:
    prompt = ('[explainer]\ntask = "Explain what the function below does."\n\n[output]\nformat = "Three bullet '
              'points."\n\n[code]\nsnippet = \'\'\'\ndef total(xs):\n    return sum(xs)\n\'\'\'')
    result = codes(prompt)
    assert result[:4] == [("[explainer]", "D"), ('task = "Explain what the function below does."', "D"),
                          ("[output]", "O"), ('format = "Three bullet points."', "O")]
    assert {c for _, c in result[4:]} == {"D"}, result


def test_slot_fields_of_a_configured_task_are_its_input_but_an_assistants_are_settings() -> None:
    task = codes("task: Write a thank-you note to a customer.\ncustomer_name: {name}\nproduct: {product}\n"
                 "tone: warm, brief")
    assert task == [("task: Write a thank-you note to a customer.", "D"), ("customer_name: {name}", "D"),
                    ("product: {product}", "D"), ("tone: warm, brief", "O")]
    assistant = codes("persona: You are Fig, the booking assistant of a yoga studio.\ntimezone: {studio_timezone}\n"
                      "task: Book, move and cancel classes for members.\nformat: one short paragraph")
    assert assistant[1] == ("timezone: {studio_timezone}", "A")


def test_the_instructions_block_keeps_a_rule_in_its_own_words() -> None:
    prompt = ("task: summary\ninstructions: |\n  Summarise the call notes below.\n  Ignore small talk.\n"
              "  Dates must be ISO 8601 (YYYY-MM-DD).\nnotes: |\n  Dana: Let's move the launch.\n  Raj: Fine by me.")
    assert codes(prompt)[2:5] == [("Summarise the call notes below.", "D"), ("Ignore small talk.", "A"),
                                  ("Dates must be ISO 8601 (YYYY-MM-DD).", "O")]
    assert {c for _, c in codes(prompt)[5:]} == {"D"}


def test_prose_with_a_key_value_line_is_not_read_as_configuration() -> None:
    prompt = "You are a travel agent.\nPlan a three-day trip to Porto.\nbudget: 600 euros\nList the days as bullets."
    assert codes(prompt)[0] == ("You are a travel agent.", "R")
