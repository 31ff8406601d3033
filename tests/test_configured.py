"""Prompts written as configuration (YAML, JSON, TOML): each key's block takes the component its key names."""
from __future__ import annotations

import pytest

from promptanatomy_core.dissect.configured import key_component
from promptanatomy_core.types import Component
from rule_codes import codes


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


def test_a_key_that_holds_the_whole_configuration_names_no_component_for_it() -> None:
    prompt = ("moderation_task:\n  description: Classify the user comment by the hate speech policy.\n  policy:\n"
              "    - Slurs count as hate speech even as a joke.\n  input:\n    comment: \"{comment}\"\n  output:\n"
              "    format: single JSON object\n    fields:\n      label: one of [hate, not_hate]")
    assert [c for _, c in codes(prompt)] == ["D", "D", "A", "A", "D", "D", "O", "O", "O", "O"]


def test_the_instructions_block_keeps_a_rule_in_its_own_words() -> None:
    prompt = ("task: summary\ninstructions: |\n  Summarise the call notes below.\n  Ignore small talk.\n"
              "  Dates must be ISO 8601 (YYYY-MM-DD).\nnotes: |\n  Dana: Let's move the launch.\n  Raj: Fine by me.")
    assert codes(prompt)[2:5] == [("Summarise the call notes below.", "D"), ("Ignore small talk.", "A"),
                                  ("Dates must be ISO 8601 (YYYY-MM-DD).", "O")]
    assert {c for _, c in codes(prompt)[5:]} == {"D"}


def test_prose_with_a_key_value_line_is_not_read_as_configuration() -> None:
    prompt = "You are a travel agent.\nPlan a three-day trip to Porto.\nbudget: 600 euros\nList the days as bullets."
    assert codes(prompt)[0] == ("You are a travel agent.", "R")


def test_a_prompt_pasted_to_be_reworked_is_the_tasks_input() -> None:
    prompt = ("can you tighten our support bot's system prompt? it rambles and the model ignores half of it\n\n"
              "You are Milo, the helpdesk assistant for Arden Bank.\n## Rules\n- Never share account balances.\n"
              "## Style\nKeep answers short and friendly.")
    assert [c for _, c in codes(prompt)[1:]] == ["D"] * 5


def test_only_the_delimited_prompt_is_the_input() -> None:
    prompt = ("Review the system prompt below for rules that contradict each other.\n\n---\nYou are Kit, a travel "
              "assistant.\nAlways answer in French.\nReply in the customer's language.\n---\n\n"
              "List each contradiction on its own line.")
    result = codes(prompt)
    assert [c for _, c in result[1:6]] == ["D"] * 5
    assert result[-1] == ("List each contradiction on its own line.", "O")


@pytest.mark.parametrize("prompt", [
    "Triage the IT ticket at the end of this prompt for the service desk.\n\n# Rules\n- Be brief.\n- Never guess.\n"
    "\nTicket: {ticket}",
    "Compare the two versions of our OpenAPI spec and list every breaking change.\n\nA change is breaking if it "
    "removes an endpoint or renames a field.\nNew optional fields are not breaking.\n\nOld: {old}\nNew: {new}"])
def test_a_prompt_that_speaks_of_itself_or_of_an_api_spec_keeps_its_rules(prompt: str) -> None:
    assert "A" in {c for _, c in codes(prompt)}
