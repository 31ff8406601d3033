"""The offline rules dissector: behaviour on typical prompts, and accuracy floors on the gold sets."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pacp import DATASETS, gold
from promptanatomy_core.accuracy import evaluate, label_code, load_gold_jsonl
from promptanatomy_core.dissect.cues import (INPUT_LABEL, OUTPUT, cues_of, heading_component, heading_topic,
                                             is_imperative, opens_material, title_component)
from promptanatomy_core.dissect.patterns import alternatives, by_anchor, by_first_char, rearranged
from promptanatomy_core.dissect.material import material_lines, runs
from promptanatomy_core.text import PromptError
from promptanatomy_core.types import Component
from rule_codes import RULES, codes

BENCH_DATA = Path(__file__).resolve().parents[1] / "bench" / "data"


def test_a_system_prompt_with_sections() -> None:
    prompt = ("You are Max, a support assistant for Contoso.\n\n## Rules\n- Never share internal ticket ids.\n"
              "- Refunds over $50 need a human.\n\n## Output format\n- Answer in at most 80 words.\n- Use plain "
              "language.\n\nCustomer message: {message}")
    assert codes(prompt) == [
        ("You are Max, a support assistant for Contoso.", "R"),
        ("## Rules", "A"), ("- Never share internal ticket ids.", "A"), ("- Refunds over $50 need a human.", "A"),
        ("## Output format", "O"), ("- Answer in at most 80 words.", "O"), ("- Use plain language.", "O"),
        ("Customer message: {message}", "D")]


def test_few_shot_block_then_open_query() -> None:
    prompt = ("Classify the sentiment of the review.\nAnswer with one word only.\nHere are some examples:\n"
              "Review: Loved it. Sentiment: positive\nReview: Awful. Sentiment: negative\n"
              "Review: {review}\nSentiment:")
    got = dict(codes(prompt))
    assert got["Classify the sentiment of the review."] == "D"
    assert got["Answer with one word only."] == "O"
    assert got["Here are some examples:"] == got["Review: Loved it."] == got["Sentiment: negative"] == "E"
    assert got["Review: {review}"] == got["Sentiment:"] == "D"


def test_role_phrasings() -> None:
    for text in ("You are an expert tax accountant.", "As a senior editor, you care about clarity.",
                 "Act as a Linux terminal.", "Imagine you are a tour guide in Rome.",
                 "A seasoned developer like you knows the trade-offs."):
        assert RULES.dissect(text).sentences[0].labels == {Component.ROLE}, text
    for text in ("As the admissions assistant for Carrow University's office, answer students' questions.",
                 "As PeopleDesk, the HR assistant of Corvid, answer employees' questions about leave.",
                 "As a data analyst, summarise the table below."):  # persona + task
        assert RULES.dissect(text).sentences[0].labels == {Component.ROLE, Component.DIRECTIVE}, text
    assert Component.ROLE not in RULES.dissect("As Python lists are mutable, copy the list first.").sentences[0].labels
    got = dict(codes("Let's do a mock interview.\nPlease be the interviewer: a head of product who pushes back.\n"
                     "You play everyone else in the manor.\nPretend you're my grumpy grandad and tell me why I "
                     "shouldn't buy a new phone."))
    assert got["Please be the interviewer: a head of product who pushes back."] == "R"
    assert got["You play everyone else in the manor."] == "R"
    assert got["Pretend you're my grumpy grandad and tell me why I shouldn't buy a new phone."] == "DR"


def test_task_input_after_a_header_is_directive() -> None:
    prompt = "Summarise the article in three bullet points.\nArticle:\nThe council voted. Work starts in May."
    assert codes(prompt) == [("Summarise the article in three bullet points.", "DO"), ("Article:", "D"),
                             ("The council voted.", "D"), ("Work starts in May.", "D")]


def test_dataset_style_directive_paragraph() -> None:
    """A long line carrying the task input is the Directive block; its sentences keep their own labels too."""
    prompt = ("You are a response validator, tasked with checking answers.\nAs a consistency checker, you must ensure "
              "the answer matches. Check if the answer is correct. Output 'yes' if it does and 'no' otherwise. The "
              "goal is to check relevance. Now complete the question: Question: Is it?Answer: It is.\nHere are some "
              "examples: Input: Question: A? Answer: B. Output: yes.")
    assert [c for _, c in codes(prompt)] == ["R", "DR", "D", "DO", "AD", "D", "D", "E"]


def test_input_labels_in_brackets_headings_and_tags_and_reference_material() -> None:
    prompt = ("Answer the question from the documents.\n<documents>\n{docs}\n</documents>\n[Reference policy]\n"
              "{policy}\n### Question\n{question}\n<request>\n{request}\n</request>")
    got = dict(codes(prompt))
    # Material the model consults is background; the input it works on, with its label, is the task.
    assert got["<documents>"] == got["{docs}"] == got["[Reference policy]"] == got["{policy}"] == "A"
    assert got["### Question"] == got["{question}"] == got["<request>"] == got["{request}"] == "D"


def test_xml_sections_take_their_component_to_the_closing_tag() -> None:
    prompt = ("You are Kit, a coding assistant.\nEdit the current file as the user asks.\n<output_format>\n"
              "Reply with a unified diff.\n"
              "If the request is unclear, ask one question.\n</output_format>")
    got = dict(codes(prompt))
    assert got["<output_format>"] == got["</output_format>"] == got["Reply with a unified diff."] == "O"


def test_answer_form_cues() -> None:
    got = dict(codes("Classify the sentiment of each review as Positive, Negative or Mixed.\n"
                     "If you find nothing, reply \"NONE\" and nothing else.\nLength: 80 to 120 words.\n"
                     "Aim for a reading age of about 12.\nReview: {review}"))
    assert got["Classify the sentiment of each review as Positive, Negative or Mixed."] == "D"  # the classes: content
    assert got["If you find nothing, reply \"NONE\" and nothing else."] == "O"
    assert got["Length: 80 to 120 words."] == got["Aim for a reading age of about 12."] == "O"


def test_format_words_that_name_the_material_are_not_output_formatting() -> None:
    got = dict(codes("You are an analyst.\nWrite a SQL query that answers the question using the schema below.\n"
                     "Analyze the CSV below and identify three trends."))
    assert got["Write a SQL query that answers the question using the schema below."] == "D"
    assert got["Analyze the CSV below and identify three trends."] == "D"
    assert codes("Write a job description of about 300 words for a {job_title}.") == [
        ("Write a job description of about 300 words for a {job_title}.", "DO")]


def test_a_later_step_of_the_task_stays_directive() -> None:
    got = dict(codes("Review the clause below for risks.\nIdentify the risks and propose alternative wording.\n"
                     "Present your answer as a table with three columns.\nClause: {clause}"))
    assert got["Identify the risks and propose alternative wording."] == "D"
    assert got["Present your answer as a table with three columns."] == "O"


def test_persona_and_task_phrasings() -> None:
    got = dict(codes("As an HR data assistant, read the résumé below and list the employers.\n"
                     "You are Professor Quill, a patient Socratic tutor.\n"
                     "You help students with algebra homework.\nChat with the learner about everyday topics.\n"
                     "After eight questions, end the interview.\nRésumé: {resume}"))
    assert got["As an HR data assistant, read the résumé below and list the employers."] == "DR"
    assert got["You are Professor Quill, a patient Socratic tutor."] == "R"
    assert got["You help students with algebra homework."] == got["Chat with the learner about everyday topics."] \
        == got["After eight questions, end the interview."] == "D"


def test_a_line_of_form_rules_is_not_background() -> None:
    got = codes("Extract the positions from the résumé below.\nOutput a JSON array, most recent first. Write dates as "
                "YYYY-MM.\nRésumé: {resume}")
    assert got[1:3] == [("Output a JSON array, most recent first.", "O"), ("Write dates as YYYY-MM.", "O")]
    assert codes("Translate the notice into formal German.\nNotice: {notice}")[0] == (
        "Translate the notice into formal German.", "DO")


def test_a_line_ending_in_a_colon_gives_its_component_to_the_items_below() -> None:
    got = codes("Summarise the meeting transcript below.\nUse this structure:\n## Decisions\n## Action items\n"
                "Keep each bullet to one line.\nReturn one JSON object that matches this schema:\n```json\n"
                '{"owner": "string"}\n```\nHere is the attendance data:\nname,team,minutes\nAda,core,55\n'
                "You are given the following PostgreSQL schema:\n```sql\nCREATE TABLE t (id int);\n```")
    assert [c for _, c in got[1:4]] == ["O", "O", "O"]  # "Use this structure:" and its headings
    assert [c for t, c in got if t.startswith("```json")] == ["O"]
    assert [c for _, c in got[7:10]] == ["D", "D", "D"]  # the data introduced, and its rows: the task's input
    assert [c for t, c in got if t.startswith(("You are given", "```sql"))] == ["A", "A"]  # a schema to consult


def test_steps_data_after_a_blank_line_and_rules_inside_a_style_section() -> None:
    got = dict(codes("I need a short triage of the issues below.\nFor each new issue, follow these steps:\n"
                     "1. Decide whether it is a bug.\n2. If anything is missing, ask for it.\n\n## Style\n"
                     "Avoid jargon.\nNumber the findings 1 to 5.\nHere is the export:\n\nid,title,votes\n1,Crash,4"))
    assert got["I need a short triage of the issues below."] == got["For each new issue, follow these steps:"] == "D"
    assert got["1. Decide whether it is a bug."] == got["2. If anything is missing, ask for it."] == "D"
    assert got["Avoid jargon."] == got["Number the findings 1 to 5."] == "O"
    assert got["id,title,votes"] == got["1,Crash,4"] == "D"


@pytest.mark.parametrize("prompt, expected", [
    ("You are a sommelier; suggest a wine to pair with risotto.", ["DR"]),
    ("Act as an impartial grader and assess the answer below.\nAnswer: {answer}", ["DR", "D"]),
    ("Summarize this in one sentence: {text}", ["DO"]),
    ("You are Maren, a blacksmith.\nPlayer says: \"{player_line}\"", ["R", "D"]),
    ("I want you to act as a stylist.\nMy first request is \"I need an outfit for a wedding.\"", None),
])
def test_one_sentence_doing_two_jobs_and_input_slots(prompt: str, expected: list[str] | None) -> None:
    got = [c for _, c in codes(prompt)]
    assert got == expected if expected else got[-1] == "D"


def test_schema_fields_sections_and_sql_in_a_schema_section() -> None:
    got = dict(codes("Extract the fields below from the invoice and return them as JSON.\n- vendor_name (string)\n"
                     "- total_amount (number)\nUse exactly these sections:\n**Summary** (2-3 sentences)\n"
                     "**Action items** (a table)\n### Schema\nCREATE TABLE orders (id INT);\nStrings:\n"
                     "Insufficient funds.\n"))
    assert got["- vendor_name (string)"] == got["- total_amount (number)"] == "O"
    structure = ["Use exactly these sections:", "**Summary** (2-3 sentences)", "**Action items** (a table)"]
    assert [got[t] for t in structure] == ["O", "O", "O"]
    assert got["CREATE TABLE orders (id INT);"] == "A"
    assert got["Strings:"] == got["Insufficient funds."] == "D"


def test_statements_under_a_background_heading_and_style_cues() -> None:
    got = dict(codes("You are Skye, the assistant for Aurora Air.\n## What you know\n- Check-in opens 30 hours before "
                     "departure.\n- Name changes cost €45 per passenger.\n- Tell them the rebooking options.\n"
                     "### Available information\nYou can see the last 20 transactions.\n## How to answer\n"
                     "Never guess about visas.\nOur brand voice is playful.\nAvoid the words \"synergy\" and "
                     "\"leverage\"."
                     "\nUse British spelling."))
    assert got["- Check-in opens 30 hours before departure."] == got["- Name changes cost €45 per passenger."] == "A"
    assert got["- Tell them the rebooking options."] == "D"  # an instruction stays one
    assert got["### Available information"] == got["You can see the last 20 transactions."] == "A"
    assert got["## How to answer"] == "O"  # a section on the answer, as annotators label it (8 of 10 sets)
    assert got["Our brand voice is playful."] == got["Use British spelling."] == "O"
    assert got['Avoid the words "synergy" and "leverage".'] == "O"


def test_a_prompt_always_states_a_task() -> None:
    assert codes("Give me five name ideas for a bakery, as a comma-separated list.") == [
        ("Give me five name ideas for a bakery, as a comma-separated list.", "DO")]
    assert codes("Button labels must fit in 20 characters.")[0][1] == "O"
    got = dict(codes("# Role\nYou are CodeBuddy, a tutor for beginners.\n\n# Rules\n- Never give the full solution.\n"
                     "\n# Output\nReply in Markdown."))
    assert got["- Never give the full solution."] == "A" and got["# Output"] == "O"  # neither a rule nor a heading
    assert got["Reply in Markdown."] == "DO"  # is the task the prompt must state


def test_a_policy_list_at_the_end_is_background_not_the_input() -> None:
    got = dict(codes("Follow these steps:\n1. Check whether the item is eligible under the policy below.\n\n"
                     "Return policy:\n- Items can be returned within 30 days.\n- Never make exceptions.\n"
                     "Keep messages short and friendly."))
    assert got["Return policy:"] == got["- Items can be returned within 30 days."] == "A"
    assert got["Keep messages short and friendly."] == "O"


def test_a_quotation_continued_in_a_second_sentence_keeps_the_label() -> None:
    got = codes('Answer the question.\nEnd every answer with: "This is general information. Ask a doctor."\n'
                'Review: "Lovely staff. Not sure we\'ll be back."')
    assert [c for _, c in got] == ["D", "O", "O", "D", "D"]


def test_demonstrations_with_an_instruction_between_them_and_the_query() -> None:
    got = codes("Rewrite each system message so it sounds casual.\n\nFormal: Payment failed.\nCasual: Hmm, no luck.\n\n"
                "Formal: Session expired.\nCasual: We logged you out.\n\nKeep each rewrite under 80 characters.\n\n"
                "Formal: The file is too large.\nCasual:")
    assert [c for _, c in got] == ["DO", "E", "E", "E", "E", "O", "D", "D"]


def test_arrow_demonstrations_data_rows_criteria_and_chatty_requests() -> None:
    got = [c for _, c in codes("Classify each review.\n\nLove it! -> positive\nBroken. Uninstalling. -> negative\n"
                               "Fine -> mixed\n\n{review} ->")]
    assert got == ["D", "E", "E", "E", "E", "E", "E", "D"]
    got = dict(codes("Clean up this CSV export.\n\nname,email,phone,country\n maria ,M@x.com,+34 6,spain\n"
                     "Judge the rows on these criteria:\n1. Completeness: every field is filled.\n"
                     "ok so i need some help with my budget lol\nTu es l'assistant d'une PME."))
    assert got["name,email,phone,country"] == got["maria ,M@x.com,+34 6,spain"] == "D"
    assert got["Judge the rows on these criteria:"] == got["1. Completeness: every field is filled."] == "A"
    assert got["ok so i need some help with my budget lol"] == "D"
    assert got["Tu es l'assistant d'une PME."] == "R"


def test_markdown_input_labels_named_few_shot_keys_and_examples_of_past_work() -> None:
    got = [c for _, c in codes("Write alt text for the photo.\n\nCaption: Fire at a warehouse.\n"
                               "Alt text: Two firefighters.\n\nCaption: Coach celebrates.\nAlt text: A woman leaps.\n\n"
                               "Caption: {caption}\nPhotographer's notes: {notes}\nAlt text:")]
    assert got == ["D", "E", "E", "E", "E", "D", "D", "D"]
    got = dict(codes("Summarise the status report.\n### Input:\nStatus: amber.\n### Response:"))
    assert got["### Input:"] == got["Status: amber."] == got["### Response:"] == "D"
    got = dict(codes("Write three subject lines for the newsletter below.\nPast subject lines that did well:\n"
                     "- Your autumn reading, sorted\n\nNewsletter: {newsletter}"))
    assert got["Past subject lines that did well:"] == got["- Your autumn reading, sorted"] == "E"


def test_a_chatty_paragraph_is_not_one_directive_block() -> None:
    got = dict(codes("I'm preparing a talk for a library evening, and the topic is phone scams. Most of the "
                     "audience will be over 70. I'd like it to cover the three most common scam types. Keep the "
                     "language really plain."))
    assert got["Most of the audience will be over 70."] == "A"
    assert got["I'd like it to cover the three most common scam types."] == "D"
    assert got["Keep the language really plain."] == "O"


def test_demonstrations_under_other_keys_than_the_query() -> None:
    got = [c for _, c in codes("Write one quiz question for each fact.\n\nFact: The tower grows in summer.\n"
                               "Q: Which landmark grows?\nA: The tower\n\nFact: Honey keeps.\nQ: What food keeps?\n"
                               "A: Honey\n\nFacts:\n{facts}")]
    assert got == ["D", "E", "E", "E", "E", "E", "E", "D", "D"]


@pytest.mark.parametrize("sentence", [
    "Alt text must be one sentence of at most 125 characters.", "End each turn with \"What do you do?\"",
    "A table with Day, City and Food tip would be perfect.", "Give me just the pattern and one line of code.",
    "Reply as issue_type,urgency with no spaces.", "No tables, the widget does not render them.",
    "Our voice is down-to-earth, never corporate.", "If you are unsure, write [CHECK WITH WARD] instead."])
def test_form_phrasings(sentence: str) -> None:
    assert dict(codes("Describe the photo below.\n" + sentence + "\nPhoto: {photo}"))[sentence] == "O"


def test_a_length_inside_the_task_material_is_not_form() -> None:
    text = "A password is strong if it has at least 6 characters and at most 20 characters."
    assert dict(codes("Solve the problem.\nProblem: " + text))["Problem: " + text] == "D"


def test_labelled_material_blocks_are_the_tasks_input() -> None:
    got = dict(codes("Which answer is better?\n[User question]\nMy landlord keeps my deposit. Is that allowed?\n"
                     "<conversation>\nVisitor: Does Tandem do invoicing?\n</conversation>\nStudent working:\n"
                     "3x - 4 = 2x + 5\nbackup.sh:\n```bash\npg_dump db\n```\n<context>\nWe ship to the EU only.\n"
                     "</context>\nHelp-center excerpts:\n[1] Archived projects are read-only."))
    assert got["[User question]"] == got["My landlord keeps my deposit."] == got["Is that allowed?"] == "D"
    assert got["<conversation>"] == got["Visitor: Does Tandem do invoicing?"] == "D"
    assert got["Student working:"] == got["3x - 4 = 2x + 5"] == got["backup.sh:"] == "D"
    assert got["<context>"] == got["We ship to the EU only."] == "A"
    assert got["Help-center excerpts:"] == got["[1] Archived projects are read-only."] == "A"


def test_pasted_material_by_its_shape() -> None:
    got = dict(codes("Pull the fields out of the CV below and give them back as JSON:\n- full_name\n- email\n---\n"
                     "TOMASZ NOWAK\nLed the migration to Postgres.\nSkills: Go, Python\n---\n"
                     "Summarise the meeting.\n[00:00] Ana (PM): Let's start.\n[00:12] Raj (Eng): Sync is the blocker.\n"
                     "[00:35] Ana (PM): Then we push it.\nTranslate these strings:\n{\n\"cta\": \"Get started\",\n}"))
    assert got["Pull the fields out of the CV below and give them back as JSON:"] == "DO"
    assert got["- full_name"] == got["- email"] == "O"
    assert got["Led the migration to Postgres."] == got["Skills: Go, Python"] == got["---"] == "D"
    assert got["[00:00] Ana (PM): Let's start."] == got["[00:35] Ana (PM): Then we push it."] == "D"
    assert got['"cta": "Get started",'] == "D"


def test_logs_changelogs_quoted_values_and_bare_questions() -> None:
    got = dict(codes("what's going on here\n2025-04-02T03:14:07Z INFO api request 200\n"
                     "2025-04-02T03:14:09Z WARN db pool exhausted\nRelease notes:\n"
                     "- feat: dark mode for widgets (#1440)\n- chore: bump react-native to 0.74 (#1398)\n"
                     "Dictation: \"Forty-two-year-old male. No numbness.\""))
    assert got["2025-04-02T03:14:07Z INFO api request 200"] == got["2025-04-02T03:14:09Z WARN db pool exhausted"] == "D"
    assert got["- feat: dark mode for widgets (#1440)"] == got["- chore: bump react-native to 0.74 (#1398)"] == "D"
    assert got["Dictation: \"Forty-two-year-old male."] == got["No numbness.\""] == "D"
    assert codes("how long do i boil an egg for a jammy yolk") == [("how long do i boil an egg for a jammy yolk", "D")]


def test_table_demonstrations_and_an_answer_template() -> None:
    got = [c for _, c in codes("Triage each claim note into a queue.\n\n| Claim note | Queue |\n|---|---|\n"
                               "| Burst pipe, photos attached | FAST_TRACK |\n| Cracked wall | SPECIALIST |\n\n"
                               "Claim note: Storm blew tiles off.")]
    assert got == ["D", "E", "E", "E", "E", "D"]
    got = dict(codes("Fill in our CRM summary from the transcript below.\nFields:\nCompany:\nBudget:\n"
                     "Deal stage (one of: Discovery, Qualified):\nTranscript:\nRep: Thanks for your time."))
    assert got["Company:"] == got["Budget:"] == got["Deal stage (one of: Discovery, Qualified):"] == "O"
    assert got["Transcript:"] == got["Rep: Thanks for your time."] == "D"


def test_runs_of_consecutive_flags() -> None:
    assert list(runs([False, True, True, False, True])) == [[1, 2], [4]]
    assert list(runs([])) == [] and list(runs([True])) == [[0]]


def test_a_rule_between_horizontal_rules_is_not_material() -> None:
    got = dict(codes("You are a support bot.\n---\nNever promise refunds.\nAlways answer in English.\n---\n"
                     "Help the customer with their order."))
    assert got["Never promise refunds."] == "A" and got["Always answer in English."] == "O"


def test_casual_briefs_workflow_and_message_headings() -> None:
    got = dict(codes("hey! need 3 facebook ads for our spring sale\nvibe = warm, a little playful\n"
                     "Write in British English.\nfor each one give me a headline (max 40 characters)\n"))
    assert got["hey! need 3 facebook ads for our spring sale"] == "D"
    assert got["vibe = warm, a little playful"] == got["Write in British English."] == "O"
    assert got["for each one give me a headline (max 40 characters)"] == "O"
    got = dict(codes("You are a triage assistant.\n# Workflow\n1. Read the message.\nNotes:\n"
                     "- Money is stored in cents.\n# Member message\nI've had a sore throat for 4 days."))
    assert got["# Workflow"] == got["1. Read the message."] == "D"
    assert got["Notes:"] == got["- Money is stored in cents."] == "A"
    assert got["# Member message"] == got["I've had a sore throat for 4 days."] == "D"


def test_instruction_dataset_definitions_and_role_play_openers() -> None:
    got = dict(codes("Definition: In this task, you are given a sentence from a news article. Your job is to list "
                     "the people it names.\nNow complete the following example - Input: Ann met Bo. Output:"))
    assert got["Definition: In this task, you are given a sentence from a news article."] == "D"
    assert got["Now complete the following example - Input: Ann met Bo. Output:"] == "D"  # "Output:" is a slot
    assert dict(codes("In this task, you will be given a comment. Classify it as toxic or not."))[
        "In this task, you will be given a comment."] == "D"
    got = dict(codes("<role>You are a fact-checker.</role>\n<task>Check each claim in <claims> against the sources."
                     "</task>\n<claims>\n{claims}\n</claims>"))
    assert got["<task>Check each claim in <claims> against the sources.</task>"] == "D"  # read past its tag
    for text, code in (("Pretend you're my landlord.", "R"), ("Be my IELTS examiner.", "R"),
                       ("I want you to act as a sommelier.", "R"),
                       ("I want you to act as an etymologist and trace the origin of the word I give you.", "DR"),
                       ('My first word is "salary".', "D"), ("My first action: I open the door.", "D"),
                       ("Please act as an impartial judge and evaluate the response below.", "DR")):
        assert dict(codes("I want you to act as a guide. " + text))[text] == code, text


def test_multi_line_question_answer_demonstrations_before_an_open_chain_of_thought_query() -> None:
    prompt = ("Solve the word problem.\n\nQ: Mia has 3 boxes of 12 pencils. How many pencils does she have?\n"
              "A: 3 x 12 = 36 pencils.\n#### 36\n\nQ: Leo has 2 bags of 5 apples. How many apples?\nA: 2 x 5 = 10."
              "\n#### 10\n\nQ: A bus carries 45 students. How many buses do 312 students need?\n"
              "A: Let's think step by step.")
    got = dict(codes(prompt))
    assert got["Q: Mia has 3 boxes of 12 pencils."] == got["A: 2 x 5 = 10."] == got["#### 36"] == "E"
    assert got["Q: A bus carries 45 students."] == got["A: Let's think step by step."] == "D"


def test_inputs_named_by_the_task_above_the_slot_or_pointed_at() -> None:
    got = dict(codes("Premise: A man fixes a bike.\nHypothesis: A man repairs a bike.\n"
                     "Does the premise entail the hypothesis?"))
    assert got["Premise: A man fixes a bike."] == got["Hypothesis: A man repairs a bike."] == "D"
    got = dict(codes("Given a claim and evidence, decide whether the evidence supports the claim.\n"
                     "Evidence: Curie won two Nobel Prizes.\nClaim: Curie won a Nobel Prize in medicine.\nLabel:"))
    assert got["Evidence: Curie won two Nobel Prizes."] == "A"  # consulted, not worked on
    got = dict(codes("Rewrite the sentence so that a child can understand it.\nComplex: The council deferred the "
                     "schedule.\nSimple:"))
    assert got["Complex: The council deferred the schedule."] == "D"
    got = dict(codes("continue this story, same style:\n\nThe keeper had not spoken in eleven days. On the twelfth, "
                     "a boat appeared."))
    assert got["The keeper had not spoken in eleven days."] == got["On the twelfth, a boat appeared."] == "D"


def test_a_users_question_amid_their_background_stays_the_task() -> None:
    got = dict(codes("In Excel I have dates in one column and amounts in the next. How do I sum March only? "
                     "I'm on the German version."))
    assert got["How do I sum March only?"] == "D"
    assert got["In Excel I have dates in one column and amounts in the next."] == "A"


@pytest.mark.parametrize("sentence", ["Answer yes or no.", "Give only the number.", "Dont make it too long",
                                      "Give the rating on a scale from 1 to 5.", "Keep it in its original language.",
                                      "Write the names separated by commas.", "Use YYYY-MM for all dates.",
                                      "Be direct; I prefer blunt feedback.", "Go clause by clause.",
                                      "Mark the correct option with an asterisk.",
                                      "Do not write the whole conversation at once.",
                                      "Separate the haiku with a blank line and give them no titles.",
                                      "Use a table for the plan.", 'Sign it "Priya Nair".',
                                      "End on a line of dialogue.",
                                      "Give me a clear recommendation in the first sentence, then the reasons.",
                                      "Cite at most two passages per sentence.", "Keep it to a few friendly sentences.",
                                      "Give the policy id in brackets after the sentence.",
                                      "Write the date as YYYY-MM-DD.", "Be welcoming and clear.",
                                      "Speak in short, natural sentences.", "Sound like a real person from a bakery.",
                                      "Put your response in <response></response> tags.", "Only return the SQL.",
                                      "Keep the same language as the draft."])
def test_more_form_phrasings(sentence: str) -> None:
    assert dict(codes("Summarise the text. " + sentence))[sentence] == "O"


def test_prohibitions_on_content_are_background_on_form_are_formatting() -> None:
    got = dict(codes("Parse the resume below into YAML. Do not add skills that the resume doesn't mention. "
                     "Do not add explanations."))
    assert got["Do not add skills that the resume doesn't mention."] == "A"
    assert got["Do not add explanations."] == "O"


def test_consulted_material_in_placeholders_and_history() -> None:
    got = dict(codes("Use the following pieces of context to answer the question at the end.\n{context}\n"
                     "Chat History:\n{chat_history}\nQuestion: {question}\nHelpful Answer:"))
    assert got["{context}"] == got["Chat History:"] == got["{chat_history}"] == "A"
    assert got["Question: {question}"] == got["Helpful Answer:"] == "D"
    got = dict(codes("Answer the following questions as best you can. You have access to the following tools:\n\n"
                     "{tools}\n\nQuestion: {input}"))
    assert got["You have access to the following tools:"] == got["{tools}"] == "A"
    assert got["Question: {input}"] == "D"
    got = dict(codes("You can call these tools:\n- `get_policy(company_id)`: returns the travel policy as JSON.\n"
                     "search_flights(origin, date): returns flights as a list\nTraveller: {input}"))
    assert got["- `get_policy(company_id)`: returns the travel policy as JSON."] == "A"
    assert got["search_flights(origin, date): returns flights as a list"] == "A"


def test_chat_requests_and_the_material_they_point_at() -> None:
    got = dict(codes("getting this when i run npm install, what does it mean and how do i fix it\n"
                     "npm ERR! code ERESOLVE\nERESOLVE unable to resolve dependency tree"))
    assert set(got.values()) == {"D"}
    got = dict(codes("I sell handmade mugs on Etsy.\nWrite a product description for this one, around 100 words:\n"
                     "- 350 ml\n- speckled oat glaze"))
    assert got["Write a product description for this one, around 100 words:"] == "DO"
    assert got["- 350 ml"] == got["- speckled oat glaze"] == "D"
    for text, code in (("I need the top 5 countries by revenue in 2023.", "D"), ("Need gift ideas for my dad.", "D"),
                       ("Let's do a role-play.", "D"),
                       ("I forgot her birthday. Help me write a text to apologize.", "D"),
                       ("Can you write a short, friendly reply in German?", "DO"),
                       ("Generate a one-sentence description of the hotel.", "DO"),
                       ("explain how vaccines work like i'm five", "DO"),
                       ("Explain what this regex matches, piece by piece.", "DO"),
                       ("Write this week's newsletter from the items below, in about 250 words.", "DO"),
                       ("can u write me a toast? funny, around 2 minutes when spoken", "DO"),
                       ("Just tell me what's wrong with my code.", "D"),
                       ("You are an email assistant. When the user gives you a rough draft, rewrite it to be clear.",
                        "D")):
        assert codes(text)[-1][1] == code, text


def test_numbered_steps_rules_of_a_world_and_a_json_schema_sketch() -> None:
    got = dict(codes("Decide whether the argument below is valid.\nStep 1: Restate each premise.\n"
                     "Step 2: Identify the conclusion.\nArgument: All cats are mammals."))
    assert got["Step 1: Restate each premise."] == got["Step 2: Identify the conclusion."] == "D"
    got = dict(codes("Run a text adventure for me.\nHere are the rules of the world:\n- Fresh water is the currency.\n"
                     "- Magic does not exist."))
    assert got["Here are the rules of the world:"] == got["- Fresh water is the currency."] == "A"
    got = dict(codes('Extract the invoice fields.\n<schema>\n{\n"invoice_number": string,\n"total": number,\n'
                     '"due_date": "YYYY-MM-DD" | null\n}\n</schema>\n<invoice>\nInvoice 12, total 40 EUR\n</invoice>'))
    assert {got[k] for k in ("<schema>", "{", '"invoice_number": string,', '"total": number,', "}")} == {"O"}
    assert got["Invoice 12, total 40 EUR"] == "D"


@pytest.mark.parametrize("prompt, expected", [
    ("Tu es l'assistant d'une PME. Rédige un compte rendu des notes ci-dessous. Utilise le vouvoiement et un ton "
     "neutre.", ["R", "D", "O"]),
    ("Du bist Lena, die Kundenberaterin der Stadtwerke. Du beantwortest Fragen zu Stromtarifen. Antworte immer auf "
     "Deutsch und in höchstens vier Sätzen.", ["R", "D", "O"]),
    ("Eres Sofía, la asistente de Banco Aurora. Tu objetivo es resolver dudas sobre cuentas. Responde en párrafos "
     "cortos, con un máximo de 120 palabras.", ["R", "D", "O"]),
    ("Schreibe für das folgende Produkt einen Produkttext mit etwa 80 Wörtern.", ["DO"]),
    ("Necesito una versión sin gluten de la receta. Solo la receta, sin comentarios.", ["D", "O"]),
    ("Scrivi una breve email al mio capo. Rispondi solo in italiano.", ["D", "O"]),
    ("Erkläre mir in einfachen Worten, wie die Pendlerpauschale funktioniert.", ["DO"]),
    ("Eres un chef profesional. Dame una receta vegana. Incluye una lista de compras.", ["R", "D", "D"]),
    ("Du bist Texterin für einen Onlineshop. Sprich die Kundschaft mit „du“ an.", ["R", "O"]),
    ("Schreibe einen Produkttext.\nProduktdaten:\nName: Bienenwachstücher\nHerkunft: Freiburg", ["D", "D", "D", "D"]),
    ("Traduce este mensaje al inglés.\nMensaje: «Hola chicas!!\nEl jueves viene el fontanero.\nUn saludo, Paco»",
     ["D", "D", "D", "D"]),
    ("Hier ist ein Ticket:\n\n„Seit dem Update kann ich keine Anhänge öffnen. Ich brauche das dringend!“\n\n"
     "Schreib mir eine kurze Anleitung.", ["D", "D", "D", "D"]),
    ("Je bent een behulpzame assistent van de gemeente.\nVat de tekst hieronder samen in drie zinnen.\n"
     "Gebruik eenvoudige taal.\nTekst:\nDe gemeente sluit de brug op maandag.", ["R", "DO", "O", "D", "D"]),
    ("Herschrijf de brief hieronder.\nBrief:\nGeachte heer/mevrouw,\nWij verdagen de beslissing.\nHoogachtend,",
     ["D", "D", "D", "D", "D"]),
    ("Du bist „Wattson“, der digitale Assistent der Stadtwerke.\nKundennummer: {kundennummer}\nTarif: {tarif}\n"
     "Nachricht: {nachricht}", ["R", "A", "A", "D"]),
    ("Eres redactor/a de anuncios para una agencia de Valencia.\nTono: cercano pero profesional.", ["R", "O"]),
    ("Corrige les fautes de ce texte.\nTon : chaleureux, tutoiement.\nTermine par un mot d'encouragement.",
     ["D", "O", "O"]),
    ("Beantworte die Frage anhand der Auszüge.\nNenne keine Preise, die nicht in den Auszügen stehen.", ["D", "A"]),
    ("Schrijf een antwoord aan de inwoner.\nSluit af met de vraag of je nog ergens mee kunt helpen.", ["D", "O"]),
    ("Tu es Léa, coach du sommeil.\n\nDéroulement d'une séance :\n1. Demande comment se sont passées les nuits.\n"
     "2. Propose au maximum deux changements.", ["R", "D", "D", "D"]),
    ("Rédige un courrier au médecin traitant.\n"
     "Commence par « Cher confrère, » et termine par une formule de politesse.", ["D", "O"]),
    ("Escribe un cuento sobre un pulpo.\nUsa frases cortas y algo de repetición, como en los cuentos tradicionales.\n"
     "Ponle un título al principio.", ["D", "O", "O"]),
    ("Extrais la date et le montant de la facture.\nSi une information est absente, mets la valeur null.", ["D", "O"]),
    ("Escribe la consulta SQL de las ventas por mes.\nDame solo la consulta, sin explicación.", ["D", "O"]),
    ("Organizza un viaggio di tre giorni a Napoli.\nRispondi in modo schematico, senza troppe chiacchiere.",
     ["D", "O"]),
    ("Schreib ein Bewerbungsschreiben für die Stelle.\nDer Brief soll höflich und förmlich sein.", ["D", "O"]),
    ("Schreib eine E-Mail an die Hausverwaltung wegen der Heizung.\nBitte formell, aber nicht zu lang.", ["D", "O"]),
    ("Resuma as decisões desta ata de reunião.\nSe não houver prazos, escreva \"Sem prazos identificados\".",
     ["D", "O"]),
    ("Réponds à l'avis de la cliente.\nRemercie la cliente et propose-lui une chambre côté jardin.", ["D", "D"]),
    ("Sei un barista di Roma.\nInizia tu salutando lo studente e chiedendo cosa vuole ordinare.", ["R", "D"]),
    ("Você é o assistente virtual do Banco Horizonte.\nResponda a dúvidas de clientes sobre o Pix.", ["R", "D"]),
    ("Tu es assistant(e) comptable dans une PME de transport.\nRédige une relance polie.", ["R", "D"]),
    ("Redacta el acta de la reunión.\nUsa un formato de acta formal, con las tareas en una tabla.", ["D", "O"]),
    ("Schrijf een advies over de drie offertes.\nHoud het zakelijk en gebruik \"u\".", ["D", "O"]),
])
def test_cues_in_french_german_spanish_italian_and_dutch(prompt: str, expected: list[str]) -> None:
    assert [code for _, code in codes(prompt)] == expected


def test_a_quotation_over_several_lines_and_a_heading_naming_the_material() -> None:
    got = dict(codes('Explain this clause to me in plain English.\n"12.1 Neither party limits its liability.\n'
                     '12.2 The Supplier\'s total liability shall not exceed the fees."'))
    assert got['"12.1 Neither party limits its liability.'] == "D"
    assert got["12.2 The Supplier's total liability shall not exceed the fees.\""] == "D"
    got = dict(codes("Decide whether the listing breaks a rule.\n## Listing to review\n{listing}"))
    assert got["## Listing to review"] == "D"


def test_demands_on_content_a_users_why_question_and_slots_about_the_setting() -> None:
    got = dict(codes("Write a win-back email. The email should tell them about our two changes. Each ad needs to "
                     "mention the code. The email should be under 150 words."))
    assert got["The email should tell them about our two changes."] == got["Each ad needs to mention the code."] == "D"
    assert got["The email should be under 150 words."] == "O"
    assert dict(codes("Here is my crontab. Why does this cron job fail when I run it by hand?"))[
        "Why does this cron job fail when I run it by hand?"] == "D"
    got = dict(codes("You are the billing assistant.\nPlan: {plan_name}\nNext invoice: {next_invoice}\n"
                     "User: {question}"))
    assert got["Plan: {plan_name}"] == got["Next invoice: {next_invoice}"] == "A"
    assert got["User: {question}"] == "D"


def test_a_problem_statement_a_job_description_persona_and_labelled_details() -> None:
    got = dict(codes("A train leaves Bristol at 14:10. A second train leaves at 14:40. At what time does the second "
                     "catch up? Think step by step."))
    assert got["A train leaves Bristol at 14:10."] == got["A second train leaves at 14:40."] == "D"
    got = dict(codes("My dad was just diagnosed with diabetes. Could you put together a meal plan for him?"))
    assert got["My dad was just diagnosed with diabetes."] == "A"  # the user's own background
    assert codes("You write alt text for a museum's online collection. Describe the photo in one sentence.")[0][1] \
        == "R"
    got = dict(codes("Write a product description for our shop.\nProduct details:\n- Name: Fjell 30 backpack\n"
                     "- Volume: 30 litres\nAround 80 words, upbeat.\nInclude one comparison to daily life."))
    assert got["Product details:"] == got["- Name: Fjell 30 backpack"] == got["- Volume: 30 litres"] == "D"
    assert got["Include one comparison to daily life."] == "D"  # a demand on the content
    assert codes("Write a palindrome checker in Python. Include unit tests using pytest.")[1][1] == "D"
    assert codes("Review the diff. The team follows PEP 8 and requires type hints.")[1][1] == "A"  # a fact
    got = dict(codes("Reply publicly to the review below.\nReview: \"Lovely spot.\"\nWe have since replaced the "
                     "carpets.\nKeep it under 100 words."))
    assert got["Reply publicly to the review below."] == "D" and got["We have since replaced the carpets."] == "A"


def test_pipe_demonstrations_and_a_sample_given_as_a_guide() -> None:
    got = dict(codes("Label the banking message with its intent.\ni can't find my card | card_lost\n"
                     "how much is left in my account | balance\nsomeone took money i never spent | dispute\n"
                     "{message} |"))
    assert got["i can't find my card | card_lost"] == got["someone took money i never spent | dispute"] == "E"
    assert got["{message} |"] == "D"
    got = dict(codes("Write a tweet about our new opening hours.\nHere's a tweet we liked, as a guide to our voice:\n"
                     '"Sourdough is back on Saturdays. Get here early."\nDon\'t reuse any of its phrases.'))
    assert got["Here's a tweet we liked, as a guide to our voice:"] == got['"Sourdough is back on Saturdays.'] == "E"
    assert got["Don't reuse any of its phrases."] == "A"


def test_context_records_and_rules_a_system_prompt_consults() -> None:
    got = dict(codes("You are the billing assistant for Dashly. Answer the customer's billing questions.\n\n"
                     "Account summary for this workspace:\n{account_summary}\n\nFollow these rules:\n"
                     "1. Only admins can change billing.\n2. Do not discuss Enterprise pricing.\n\n# Order record\n"
                     "{order_json}\n\nCustomer: {message}"))
    assert {got[k] for k in ("Account summary for this workspace:", "{account_summary}", "Follow these rules:",
                             "1. Only admins can change billing.", "# Order record", "{order_json}")} == {"A"}
    assert got["Customer: {message}"] == "D"
    assert dict(codes("Quiz me on Spanish verbs.\nLet's start: ask me about my weekend."))[
        "Let's start: ask me about my weekend."] == "D"


def test_scope_and_voice_sections_and_conventions_for_missing_values() -> None:
    got = dict(codes("You are the assistant for Harbour Bank.\n\n## What you can help with\n- Activating a new card\n"
                     "- Explaining fees\n\n## Voice\nWarm and a little playful.\nShort sentences.\n\n"
                     "If the diff looks good, return an empty array.\n"
                     "If the decision is approve, category must be null."))
    assert got["## What you can help with"] == got["- Activating a new card"] == got["- Explaining fees"] == "D"
    assert got["## Voice"] == got["Warm and a little playful."] == got["Short sentences."] == "O"
    assert got["If the diff looks good, return an empty array."] == "O"
    assert got["If the decision is approve, category must be null."] == "O"
    got = dict(codes("Write the newsletter.\n\n## Things we don't do\n- Mention competitors.\n- Use the word "
                     "\"artisanal\".\n\n## Tasks\n- Use the items below."))
    assert got["- Mention competitors."] == got['- Use the word "artisanal".'] == "A"
    assert got["- Use the items below."] == "D"


def test_json_tool_specs_worked_solutions_and_a_sample_the_user_wrote() -> None:
    got = dict(codes('Help the user plan a trip.\nTools:\n```json\n[{"name": "search_flights", "description": "Search '
                     'flights.", "parameters": {"origin": "IATA code"}}]\n```\nUser: {input}'))
    assert got['```json\n[{"name": "search_flights", "description": "Search flights.", "parameters": {"origin": '
               '"IATA code"}}]\n```'] == "A"
    got = dict(codes("Write a description for this mug: speckled glaze, 350 ml.\n"
                     "Here's one I wrote for another mug that I liked:\n\"Meet Juniper, a chunky mug.\""))
    assert got["Here's one I wrote for another mug that I liked:"] == got['"Meet Juniper, a chunky mug."'] == "E"


def test_an_example_announced_at_the_end_of_a_paragraph() -> None:
    got = dict(codes("Write a haiku about autumn leaves. Here is an example of the style I like:\n"
                     "An old silent pond\nA frog jumps into the pond"))
    assert got["Here is an example of the style I like:"] == got["An old silent pond"] == \
        got["A frog jumps into the pond"] == "E"
    got = dict(codes("Write three limericks about working from home.\nHere's the kind of thing I like:\n"
                     "There once was a chap on a call\nWhose cat walked across his screen wall"))
    assert got["Here's the kind of thing I like:"] == got["Whose cat walked across his screen wall"] == "E"
    got = dict(codes("Write 6 interview questions.\nHere's one I already have, so you can match the style:\n"
                     "Question: Tell me about a time you gave difficult feedback.\nA strong answer names the outcome.\n"
                     "Don't ask about family plans, age or health."))
    assert got["Here's one I already have, so you can match the style:"] == "E"
    assert got["Question: Tell me about a time you gave difficult feedback."] == "E"


def test_the_users_own_material_after_the_request_and_a_system_label() -> None:
    got = dict(codes("Please proofread my email and fix any grammar mistakes. Don't change the meaning.\n\n"
                     "Hi Tom, I wanted to follow up on our meeting.\nBest, Anna"))
    assert got["Hi Tom, I wanted to follow up on our meeting."] == got["Best, Anna"] == "D"
    got = dict(codes("Critique my essay on remote work.\nMy audience is CTOs at startups."))
    assert got["My audience is CTOs at startups."] == "A"  # a fact with a cue of its own, not the material
    assert codes("SYSTEM: You are a strict JSON API.\nUSER: {review}")[0][1] == "R"
    assert codes("Act as a Linux terminal. I will type commands and you will reply with what the terminal should "
                 "show.")[1][1] == "D"  # "reply with what …" is the task, not a form


def test_labelled_context_task_and_constraints_paragraphs() -> None:
    got = dict(codes("Context: Our company sells solar panels in Texas. We offer free installation.\n\n"
                     "Task: Write three Facebook ad headlines for homeowners.\n\n"
                     "Constraints: Each headline must be under 40 characters. Don't mention competitors."))
    assert got["Context: Our company sells solar panels in Texas."] == got["We offer free installation."] == "A"
    assert got["Task: Write three Facebook ad headlines for homeowners."] == "D"
    assert got["Constraints: Each headline must be under 40 characters."] == "O"
    assert codes("Role: You are a nutritionist.\nTask: Create a meal plan.")[0][1] == "R"
    got = dict(codes('Convert the following JSON to YAML:\n\n{"name": "Ana", "age": 30}'))
    assert got['{"name": "Ana", "age": 30}'] == "D"  # the material, not the answer's form


def test_rules_after_a_persona_unfenced_code_and_items_the_task_points_at() -> None:
    got = dict(codes("You are a helpful, respectful and honest assistant. Always answer as helpfully as possible. "
                     "If you don't know the answer, please don't share false information."))
    assert got["You are a helpful, respectful and honest assistant."] == "R"
    assert got["Always answer as helpfully as possible."] == "A"  # a rule, not part of the persona
    assert got["If you don't know the answer, please don't share false information."] == "A"
    got = dict(codes("Fix the bug in this code:\n\ndef average(nums):\n    return sum(nums) / len(nums) + 1"))
    assert got["def average(nums):"] == got["return sum(nums) / len(nums) + 1"] == "D"
    got = dict(codes('Given the following product reviews, categorize each one as "praise" or "complaint".\n\n'
                     '1. "Arrived quickly, works great!"\n2. "Broke after two days."\n\n'
                     'Output format: one line per review.'))
    assert got['1. "Arrived quickly, works great!"'] == got['2. "Broke after two days."'] == "D"


def test_facts_beside_a_persona_and_a_task_that_survives_a_quotation() -> None:
    assert codes("You are a helpful assistant that answers questions about our return policy. Returns are accepted "
                 "within 30 days.") == [
        ("You are a helpful assistant that answers questions about our return policy.", "R"),
        ("Returns are accepted within 30 days.", "A")]  # a fact, not the persona's trait
    assert codes("You are Rhea, a ship's engineer. You believe every engine can be saved.")[1][1] == "R"
    # the only imperative sits inside the quoted sign-off: the task is still stated, by the other instruction
    got = dict(codes('You are a health information assistant.\nAnswer questions about medications.\n'
                     'End every answer with: "This is general information. Please talk to a doctor."'))
    assert "D" in got["Answer questions about medications."]
    assert got["Please talk to a doctor.\""] == "O"


def test_a_record_a_support_bot_consults_is_no_instruction() -> None:
    got = dict(codes("You are a support agent for ShopFast.\n\nReturn policy: items can be returned within 30 days "
                     "if unused.\n\nCustomer: {message}"))
    assert got["Return policy: items can be returned within 30 days if unused."] == "A"  # "Return" is no verb here
    assert got["Customer: {message}"] == "D"


def test_task_scoping_thanks_tldr_and_an_instruction_that_names_a_schema() -> None:
    got = dict(codes("Review the diff below.\nFocus on correctness and accessibility.\nMake sure the empty-string case "
                     "is covered.\nThank the author for the refactor.\n```diff\n- a\n+ b\n```"))
    assert got["Focus on correctness and accessibility."] == got["Make sure the empty-string case is covered."] == \
        got["Thank the author for the refactor."] == "D"
    assert codes("Solve the puzzle. Make sure your approach is efficient.")[1][1] == "A"  # on the answer's quality
    assert codes("TL;DR this Slack thread for me in under 50 words:\n{thread}") == [
        ("TL;DR this Slack thread for me in under 50 words:", "DO"), ("{thread}", "D")]
    got = dict(codes('Extract the action items.\nReturn JSON that follows this schema:\n{"task": "string"}\n'
                     "Let's go through it carefully: list the candidates first.\nNotes: {notes}"))
    assert got["Return JSON that follows this schema:"] == "O"
    assert got["Let's go through it carefully: list the candidates first."] == "D"
    assert got["Notes: {notes}"] == "D"


def test_a_persona_described_in_the_third_person_and_slots_of_a_consulted_section() -> None:
    got = dict(codes("You are Brannoc Hale, the innkeeper of the Drowned Lantern.\nBrannoc is gruff and secretly kind."
                     "\nHe served twenty years as a ship's cook.\n\n## World facts\n- Saltmere is ruled by a council."))
    assert got["Brannoc is gruff and secretly kind."] == got["He served twenty years as a ship's cook."] == "R"
    assert got["- Saltmere is ruled by a council."] == "A"
    got = dict(codes("You are Mira, the assistant of Meridian Bank.\nAnswer the customer's latest message.\n\n"
                     "## Account summary\nCustomer: {first_name}\nAccounts: {accounts}\n\n## Customer message\n"
                     "{message}"))
    assert got["Customer: {first_name}"] == got["Accounts: {accounts}"] == "A"  # consulted, not the input
    assert got["{message}"] == "D"


def test_labels_inside_an_example_and_labels_of_the_material() -> None:
    got = dict(codes('Summarise the reviews into pros and cons.\n\nExample\nReviews:\n- "Keeps coffee hot."\n'
                     "Summary:\nPros\n- Keeps drinks hot\n\nNow summarise these reviews:\n{reviews}"))
    assert {got[k] for k in ("Reviews:", '- "Keeps coffee hot."', "Summary:", "Pros", "- Keeps drinks hot")} == {"E"}
    assert got["{reviews}"] == "D"
    got = dict(codes("Triage the bug report below.\nBug report:\nTitle: Reset email never arrives\n\n"
                     "Write a product description.\nSpec sheet:\nName: Ridgeline Wind Shell\nWeight: 142 g"))
    assert got["Bug report:"] == got["Spec sheet:"] == got["Name: Ridgeline Wind Shell"] == "D"
    got = dict(codes("## Rolle\nDu bist Lina, die Assistentin der Stadtwerke.\n## Aufgabe\nBeantworte Fragen zu "
                     "Stromtarifen.\n## Beispiele\nFrage: Wann kommt die Rechnung?"))
    assert (got["## Rolle"], got["## Aufgabe"], got["## Beispiele"]) == ("R", "D", "E")
    assert got["Beantworte Fragen zu Stromtarifen."] == "D"


def test_form_phrasings_a_short_story_and_the_input_heading_after_examples() -> None:
    got = dict(codes("Write a short story of about 800 words for a literary magazine.\nWrite the dialogue in quotation "
                     "marks and actions in italics.\nPut all the answers at the end under \"Answer key\".\n"
                     "Use euros throughout.\nUse the prospect's first name in the greeting."))
    assert got["Write a short story of about 800 words for a literary magazine."] == "DO"
    assert {got[k] for k in ("Write the dialogue in quotation marks and actions in italics.", "Use euros throughout.",
                             "Put all the answers at the end under \"Answer key\".",
                             "Use the prospect's first name in the greeting.")} == {"O"}
    assert codes("Label the sentiment of each review as positive or negative.")[0][1] == "D"
    got = dict(codes("Route the ticket to a queue.\n## Examples\nTicket: \"Is it in stock?\"\nQueue: SALES\n"
                     "Ticket: \"It broke.\"\nQueue: WARRANTY\n## Ticket\nTicket: \"{ticket}\"\nQueue:"))
    assert got["Queue: SALES"] == "E" and got["## Ticket"] == got["Queue:"] == "D"
    got = dict(codes("Grade the student's answer.\nOfficial solution: {solution}\nStudent answer: {answer}"))
    assert got["Official solution: {solution}"] == "A" and got["Student answer: {answer}"] == "D"


def test_a_task_heading_neither_states_the_task_nor_turns_its_rules_into_it() -> None:
    got = dict(codes("### Instruction:\nClassify the intent of the message into one of: billing, other.\n\n"
                     "### Input:\n{message}\n\n### Response:"))
    assert got["Classify the intent of the message into one of: billing, other."] == "D"  # its classes: content
    got = dict(codes("<instructions>\nAnswer the user's question using only the documents.\nIf the documents don't "
                     "contain the answer, say so.\n</instructions>\n<question>\n{question}\n</question>"))
    assert got["Answer the user's question using only the documents."] == "D"
    assert got["If the documents don't contain the answer, say so."] == "A"
    got = dict(codes("You are a Socratic tutor.\nNever give the answer directly.\nInstead, guide the student with one "
                     "question at a time."))
    assert got["Instead, guide the student with one question at a time."] == "D"


def test_chat_template_tokens_and_a_persona_field() -> None:
    assert codes("<|im_start|>system\nYou are a translation engine.\nTranslate the user's text into German."
                 "<|im_end|>\n<|im_start|>user\n{text}<|im_end|>\n<|im_start|>assistant") == [
        ("<|im_start|>system", "R"), ("You are a translation engine.", "R"),
        ("Translate the user's text into German.<|im_end|>", "D"), ("<|im_start|>user", "D"),
        ("{text}<|im_end|>", "D"), ("<|im_start|>assistant", "D")]
    got = dict(codes("[INST] <<SYS>>\nYou are a helpful assistant.\n<</SYS>>\n\nWrite a haiku about rain. [/INST]"))
    assert got["[INST] <<SYS>>"] == got["<</SYS>>"] == "R"  # the markers belong to the turn they open or close
    got = dict(codes("Role: Senior UX researcher\nTask: Turn the interview notes below into 5 key insights.\n"
                     "Notes:\n{notes}"))
    assert got["Role: Senior UX researcher"] == "R" and got["{notes}"] == "D"
    assert codes('You are "ResumeRocket", a career coach GPT that helps job seekers.')[0][1] == "R"  # a quoted name
    got = dict(codes("Here's my code:\n\n```js\nconst t = items.reduce((s, i) => s + i.price);\n```\n\n"
                     'Why does this return "[object Object]10" instead of a number?'))
    assert got['Why does this return "[object Object]10" instead of a number?'] == "D"  # no answer format
    got = dict(codes("Translate the text below into French.\n\n---\nHi Marie! Thanks for the dinner last night. "
                     "See you on Saturday?\n---"))
    assert {got[k] for k in ("---", "Hi Marie!", "Thanks for the dinner last night.", "See you on Saturday?")} == {"D"}


def test_chat_requests_with_quoted_emails_bare_questions_and_background_first() -> None:
    got = dict(codes("Help me reply to this email from a client:\n> Hi Sam,\n> We reviewed the mockups.\n"
                     "> Thanks,\n> Priya\nFriendly, professional, not too long."))
    assert {got[k] for k in ("Help me reply to this email from a client:", "> Hi Sam,", "> We reviewed the mockups.",
                             "> Priya")} == {"D"}
    assert "D" in codes("why am i getting this error\n```\nKeyError: 'x'\n```")[0][1]
    assert "D" in codes("me and 3 friends rented a cabin, help me figure out who owes who")[0][1]
    assert codes("Actúa como un reclutador de una empresa tecnológica.\nHazme una simulación de entrevista.") == [
        ("Actúa como un reclutador de una empresa tecnológica.", "R"), ("Hazme una simulación de entrevista.", "D")]


def test_few_shot_tables_worked_answers_and_samples_announced_in_other_words() -> None:
    got = dict(codes("Extract the companies from the sentence.\n| Sentence | Output |\n|---|---|\n"
                     "| Siemens opened a plant. | Siemens |\n| Nokia and Samsung stalled. | Nokia; Samsung |\n"
                     "| The weather was nice. | none |\nSentence: Spotify and Toyota announced a campaign."))
    assert got["| Sentence | Output |"] == got["| The weather was nice."] == "E"  # a cell holds a sentence
    assert got["Sentence: Spotify and Toyota announced a campaign."] == "D"
    got = dict(codes("Solve the word problem.\nProblem: A shop sells pens at 3 for $2.\nReasoning: 12 pens cost $8.\n"
                     "Answer: $8\nProblem: Sam reads 15 pages a day.\nReasoning: 210 / 15 = 14.\nAnswer: 14 days\n"
                     "Problem: {problem}"))
    assert got["Reasoning: 210 / 15 = 14."] == got["Answer: 14 days"] == "E"  # the last demonstration's end
    assert got["Problem: {problem}"] == "D"
    for intro in ("Here are two replies in our voice:", "here's how i've been labelling them:"):
        assert "E" in dict(codes(intro + "\n\"Great!\" = positive\n\"Awful.\" = negative"))[intro], intro


def test_fields_of_a_record_above_the_input_are_the_setting_unless_they_are_part_of_it() -> None:
    got = dict(codes("You are PeopleDesk, the HR assistant of Corvid.\nAnswer the employee's question.\n\n"
                     "Country: {country}\nStart date: {start_date}\n\nQuestion: {question}"))
    assert got["Country: {country}"] == got["Start date: {start_date}"] == "A"  # facts about the setting
    assert got["Question: {question}"] == "D"
    got = dict(codes("You are Lucía, a Spanish tutor.\nTalk with the learner about today's topic.\n\n"
                     "Lesson topic: {topic}\nNative language: {native}\n\nLearner: {message}"))
    assert got["Lesson topic: {topic}"] == got["Native language: {native}"] == "A"  # the prompt ends on the input
    assert got["Learner: {message}"] == "D"
    got = dict(codes("Write a reply to the review below.\n\nReviewer: {reviewer}\nRating: {stars}/5\n"
                     "Review: {review}"))
    assert got["Reviewer: {reviewer}"] == got["Rating: {stars}/5"] == got["Review: {review}"] == "D"  # one record
    got = dict(codes("You are a browser agent.\n\nTask: {task}\n\nCurrent URL: {url}\n\nElements:\n{elements}"))
    assert got["Task: {task}"] == "D"  # the task's own slot is no fact about the setting
    got = dict(codes("Tag the customer comment with its topics.\n<comment>{comment}</comment>"))
    assert got["<comment>{comment}</comment>"] == "D"  # read as "Comment: {comment}"
    got = dict(codes("You are an expert copy editor. I'll give you a paragraph and you'll fix its grammar.\n\n"
                     "Given the following SQL schema:\nCREATE TABLE users (id INT, name TEXT);"))
    assert got["I'll give you a paragraph and you'll fix its grammar."] == "D"
    assert got["Given the following SQL schema:"] == "A"  # consulted, as "You are given the following schema:"
    got = dict(codes("I'm going to give you a document. Then I'm going to ask you a question about it.\n{{DOCUMENT}}"))
    assert got["I'm going to give you a document."] == got["Then I'm going to ask you a question about it."] == "D"


def test_function_specs_in_a_json_array_fields_to_extract_and_regulatory_sections() -> None:
    got = dict(codes('You help customers with card disputes.\nAvailable functions:\n[\n{"name": "freeze_card", '
                     '"description": "Block a card", "parameters": {"card_id": "string"}}\n]\n\nCustomer: {message}'))
    assert {got[k] for k in ("Available functions:", "[", "]")} == {"A"}
    got = dict(codes("Extract the referral details from the letter.\n\nFields to extract:\n- Patient name.\n"
                     "- Allergies.\n\n# Regulatory requirements\nAtlas Wealth is regulated by the FCA.\n\n"
                     "Letter: {letter}"))
    assert got["Fields to extract:"] == got["- Allergies."] == "D"
    assert got["# Regulatory requirements"] == got["Atlas Wealth is regulated by the FCA."] == "A"


def test_persona_traits_on_their_own_lines_and_sections_on_how_to_speak() -> None:
    got = dict(codes("You are Ivy, the in-car voice assistant.\nYou sound relaxed and confident, like a good "
                     "co-driver.\nYou cannot change the route while the car is moving.\n\nHow to speak:\n"
                     "- Don't read out lists longer than three items.\n\n## Final summary\nList what you changed."))
    assert got["You sound relaxed and confident, like a good co-driver."] == "R"
    assert got["You cannot change the route while the car is moving."] == "A"  # a limit, not a trait
    assert got["How to speak:"] == got["- Don't read out lists longer than three items."] == got["## Final summary"] \
        == "O"
    got = dict(codes("You help customers with card disputes.\n\n**Procedure**\n1. Call list_transactions and identify "
                     "the transaction.\n\nAccount data:\n{account_lookup}\n\nAsk no more than two questions per "
                     "message.\nUse at most one emoji per message.\n\nCustomer: {message}"))
    assert got["**Procedure**"] == got["1. Call list_transactions and identify the transaction."] == "D"
    assert got["Account data:"] == got["{account_lookup}"] == "A"
    assert got["Ask no more than two questions per message."] == got["Use at most one emoji per message."] == "O"


def test_material_pasted_between_the_request_and_what_follows() -> None:
    got = dict(codes("I'm a history student and this is the intro to my essay. Can you give me feedback?\n\n"
                     "The war was caused by many things. Some blame the alliances.\n\nPlease don't rewrite it."))
    assert got["The war was caused by many things."] == got["Some blame the alliances."] == "D"
    assert got["Please don't rewrite it."] == "A"
    got = dict(codes("docker compose up keeps failing with this:\n\nError response from daemon: port is already "
                     "allocated\n\nI'm on Ubuntu 22.04. What's the fix?"))
    assert got["docker compose up keeps failing with this:"] == "D"
    assert got["Error response from daemon: port is already allocated"] == "D"
    assert got["I'm on Ubuntu 22.04."] == "A"  # the user's own background, not the material
    got = dict(codes("Write a launch email for our product.\n\nAbout me: Dana, co-founder of Shiftwise.\n\n"
                     "Keep it short."))
    assert got["About me: Dana, co-founder of Shiftwise."] == "A"
    got = dict(codes('Answer the question from the document.\nIf the document does not say, simply write: '
                     '"Insufficient information."\nPresent your findings in a concise report with headers for each '
                     'section.'))
    assert got['If the document does not say, simply write: "Insufficient information."'] == "O"  # a fixed reply
    assert got["Present your findings in a concise report with headers for each section."] == "O"
    assert [c for _, c in codes("This is awesome! // Negative\nThis is bad! // Positive\nWow that movie was rad! // "
                                "Positive\nWhat a horrible show! //")] == ["E"] * 6 + ["D", "D"]
    got = dict(codes("Write a product description for the following item:\nName: Trailblazer Boots\n"
                     "Features: waterproof\nTone: adventurous but practical\nLength: 100-150 words"))
    assert got["Name: Trailblazer Boots"] == got["Features: waterproof"] == "D"
    assert got["Tone: adventurous but practical"] == got["Length: 100-150 words"] == "O"  # fields on the form
    got = dict(codes("You are the support assistant of Lumen.\nCreate a ticket and tell the customer a specialist will "
                     "follow up when:\n- the customer asks for a refund;\n- the customer mentions a legal complaint."))
    assert got["- the customer asks for a refund;"] == got["- the customer mentions a legal complaint."] == "A"


def test_a_task_in_a_chat_message_or_a_request_without_a_verb() -> None:
    [(_, got)] = codes("quick one: how do I find all .log files bigger than 100MB and delete them? ubuntu 22.04")
    assert "D" in got
    got = dict(codes('5 LinkedIn post hooks for our webinar "Zero-downtime upgrades", max 15 words each.\n'
                     "Audience: platform engineers."))
    assert "D" in got['5 LinkedIn post hooks for our webinar "Zero-downtime upgrades", max 15 words each.']
    assert got["Audience: platform engineers."] == "A"


def test_every_sentence_gets_a_label_and_text_is_untouched() -> None:
    prompt = "Hmm.\n\n???\nok then\n```\ncode\n```"
    d = RULES.dissect(prompt)
    assert all(s.labels for s in d.sentences)
    assert all(prompt[s.start:s.end] == s.text for s in d.sentences)
    assert set(d.sources) == {"rules"}


def test_bad_prompts_raise_prompt_error() -> None:
    for bad in ("", "   ", "a\x00b", "x" * 200_000):
        with pytest.raises(PromptError):
            RULES.dissect(bad)


def test_evaluate_counts_by_hand() -> None:
    g = gold("Leetcode")[:2]
    acc = evaluate(RULES, g)
    assert acc.prompts == 2 and acc.sentences == sum(len(x.sentences) for x in g)
    assert acc.prompt_level == acc.prompts_correct / 2


def test_bare_titles_a_consulted_slots_label_and_a_chat_question_without_its_mark() -> None:
    got = dict(codes("You are the Curator of an escape room.\n\nThe room\n- The door has a lock.\n\nYour job\n"
                     "Describe what the players see.\n\nProcedure\n1. Check the clue.\n\nStyle\n- Keep it short."))
    assert got["Your job"] == got["Procedure"] == got["1. Check the clue."] == "D"  # titles that name their section
    assert got["Style"] == got["- Keep it short."] == "O"
    assert got["The room"] == got["- The door has a lock."] == "A"
    got = dict(codes("Answer the question from the articles below.\n\nArticles:\n{retrieved_articles}\n\n"
                     "Chat so far:\n{chat_history}\n\nQuestion: {question}"))
    assert got["Articles:"] == got["{retrieved_articles}"] == "A"  # labels what the model consults
    assert got["Chat so far:"] == got["{chat_history}"] == got["Question: {question}"] == "D"
    got = dict(codes("You are Pip, the shop assistant.\nCatalogue:\n{{catalogue}}\nCustomer: {{user_message}}"))
    assert got["Catalogue:"] == got["{{catalogue}}"] == "A"  # the shop's catalogue is consulted
    got = dict(codes('is this sms spam or not\nhere\'s how i label them:\n"win a prize" = spam\n'
                     '"see you at 5" = not spam\n"pay at hmrc-refund.co" = ?'))
    assert got["is this sms spam or not"] == "D"  # the user's question, typed without its mark


def test_first_creation_request_items_it_lists_and_passages_under_a_context_label() -> None:
    got = dict(codes('We sell handmade mugs on Etsy. Write descriptions for the three mugs listed below, each 50-70 '
                     'words. Mention that they are dishwasher-safe. Avoid the word "perfect".\n1. Moss, green glaze\n'
                     '2. Tide, blue glaze\n3. Ember, rust glaze'))
    assert got["Write descriptions for the three mugs listed below, each 50-70 words."] == "DO"  # the task first
    assert got["1. Moss, green glaze"] == got["3. Ember, rust glaze"] == "D"  # the items it points at
    got = dict(codes("I'm not a lawyer. Below is the liability clause we were sent. What does it mean for us?\n"
                     '"12.1 Neither party is liable for more than the fees paid.'
                     '\n12.2 Provider is not liable for lost data."'))
    assert got['"12.1 Neither party is liable for more than the fees paid.'] == "D"  # pointed at mid-paragraph
    got = dict(codes("Answer using only the context.\nContext:\n[1] Staff may carry over 5 days.\n"
                     "[2] Carried-over days expire in March.\nQuestion: {question}"))
    assert got["Context:"] == got["[1] Staff may carry over 5 days."] == "A"  # passages consulted
    assert got["Question: {question}"] == "D"
    got = dict(codes("You are an operations agent for a Shopify store. You have these tools:\n"
                     "- get_order(order_id): returns the order"))
    assert got["You are an operations agent for a Shopify store."] == "R"
    assert got["You have these tools:"] == "A"  # opens the list of tools, no persona trait
    got = dict(codes("## Role\nA symptom-checker assistant for CareLine, a telehealth service.\n## What to do\n"
                     "Ask the user about their main symptom."))
    assert got["A symptom-checker assistant for CareLine, a telehealth service."] == "R"  # under the Role heading


def test_task_stated_of_the_assistant_a_grader_at_work_goals_and_chat_requests() -> None:
    got = dict(codes("The assistant should answer employee questions about leave using the handbook.\n"
                     "The assistant should never comment on another employee's pay."))
    assert got["The assistant should answer employee questions about leave using the handbook."] == "D"
    assert got["The assistant should never comment on another employee's pay."] == "A"
    got = dict(codes("You are grading chatbot replies for a quality audit.\nRead the reply, then score it from 1 to 5 "
                     "on each criterion:\n- Accuracy: is it correct?\n- Empathy: does it acknowledge the customer?"))
    assert got["You are grading chatbot replies for a quality audit."] == "D"  # the task, not a persona
    assert got["- Accuracy: is it correct?"] == got["- Empathy: does it acknowledge the customer?"] == "A"
    got = dict(codes("Goal: qualify inbound leads and book demos.\nYou'll be chatting with visitors."))
    assert got["Goal: qualify inbound leads and book demos."] == "D"
    got = dict(codes("hey can u help me write a bday msg for my sis\nshes turning 30 lol\nmake it funny but not mean"))
    assert got["hey can u help me write a bday msg for my sis"] == "D"
    assert got["make it funny but not mean"] == "O"  # the tone asked for
    text = "hi!! can you give me feedback on my history essay before i submit it on friday"
    assert codes(text) == [(text, "D")]  # however many "!"
    text = "my grandma turns 90 on saturday, can u write a short poem i can read at the party"
    assert codes(text) == [(text, "D")]  # the request typed on after the situation


def test_persona_in_the_third_person_instructions_under_the_form_heading_and_a_context_section() -> None:
    got = dict(codes("This is the system prompt for Nova, the in-app support assistant for Brightwave.\n"
                     "Nova is friendly and patient.\nHelp customers with questions about their plan.\n"
                     "End every reply by asking whether there's anything else."))
    assert got["This is the system prompt for Nova, the in-app support assistant for Brightwave."] == "R"
    assert got["Nova is friendly and patient."] == "R"  # the named persona described
    assert got["End every reply by asking whether there's anything else."] == "O"
    got = dict(codes("Meet Nova, the support assistant of Brightwave.\nPython is a programming language."))
    assert got["Meet Nova, the support assistant of Brightwave."] == "R"
    assert got["Python is a programming language."] != "R"
    got = dict(codes("You are Quill, a coding assistant.\n\n# Context\nOpen file: {path}\nSelected code:\n{selection}\n"
                     "\n# Output\nShow edits as unified diffs.\n1. Answer the question."))
    assert got["Selected code:"] == got["{selection}"] == "A"  # in the consulted section
    assert got["Show edits as unified diffs."] == "O"  # an instruction under the form's heading


def test_a_diff_pasted_without_a_fence_and_inline_code_pointed_at() -> None:
    got = dict(codes("Write a commit message for this diff.\nConventional Commits style.\n\n"
                     "diff --git a/src/session.ts b/src/session.ts\n@@ -41,7 +41,9 @@ export function refresh(t) {\n"
                     "-  if (Date.now() > t.expiresAt) {\n+  const skewMs = 30_000;\n- Keep the subject short."))
    assert got["diff --git a/src/session.ts b/src/session.ts"] == got["+  const skewMs = 30_000;"] == "D"
    assert got["- Keep the subject short."] == "O"  # a bullet of prose ends the diff
    got = dict(codes("what does this regex do, step by step? `^(?=.*\\d).{8,}$`"))
    assert got["`^(?=.*\\d).{8,}$`"] == "D"


def test_rules_phrased_as_instructions_use_only_judge_treat_prefer_verify_before() -> None:
    got = dict(codes("Compare the two replies and say which is better.\n- Use only the documents above.\n"
                     "- Judge the replies as written; do not reward length.\n- Treat sarcasm as negative.\n"
                     "- Prefer the most recent source.\n- Verify the booking with get_booking before discussing it.\n"
                     "- Before transferring, tell the member the wait time.\n"
                     "Before deciding, reason through each criterion."))
    for rule in ("- Use only the documents above.", "- Judge the replies as written; do not reward length.",
                 "- Treat sarcasm as negative.", "- Prefer the most recent source.",
                 "- Verify the booking with get_booking before discussing it.",
                 "- Before transferring, tell the member the wait time."):
        assert got[rule] == "A", rule
    assert got["Before deciding, reason through each criterion."] == "D"  # a reasoning step
    got = dict(codes("Use only the documents below to answer the question.\nJudge whether the claim is supported."))
    assert got["Use only the documents below to answer the question."] == "D"
    assert got["Judge whether the claim is supported."] == "D"


def test_specifications_of_each_item_and_lists_of_what_to_collect() -> None:
    got = dict(codes("Write a 5-question quiz on the passage below.\nEach question needs four options.\n"
                     "Each question should test a different idea.\n{passage}"))
    assert got["Each question needs four options."] == got["Each question should test a different idea."] == "D"
    got = dict(codes("Help tenants report repairs.\n\nDetails to collect:\n- What the problem is.\n"
                     "- Access arrangements and any pets.\n\nNever promise a date."))
    assert got["Details to collect:"] == got["- What the problem is."] == got["- Access arrangements and any pets."] \
        == "D"
    assert got["Never promise a date."] == "A"


def test_form_of_the_reasoning_before_the_answer_the_language_written_in_and_how_things_are_named() -> None:
    got = dict(codes("Solve the word problem below.\nReason briefly, then state the answer after \"####\".\n"
                     "Write in plain English.\nRefer to amounts by their currency symbol, like \"£3\".\n"
                     "Address the learner directly.\n{problem}"))
    assert got['Reason briefly, then state the answer after "####".'] == "O"  # the working, then the answer line
    assert got["Write in plain English."] == got['Refer to amounts by their currency symbol, like "£3".'] == "O"
    assert got["Address the learner directly."] == "O"
    got = dict(codes("You are Ollie, a reading buddy. Talk with the child about the book.\n\nHow Ollie talks:\n"
                     "- Ask only one question at a time."))
    assert got["How Ollie talks:"] == got["- Ask only one question at a time."] == "O"  # the persona's way of talking
    got = dict(codes("write a poem for my coworker's retirement card\n4 lines max, rhyming.\nshort answer pls"))
    assert got["4 lines max, rhyming."] == got["short answer pls"] == "O"  # verbless form requests in a chat
    got = dict(codes("Please proofread my cover letter below. Keep my voice. Don't make it longer.\n\n"
                     "Dear Hiring Manager,\nI am applying for the analyst role.\nKind regards,\nPriya Shah"))
    assert got["Don't make it longer."] == "O"
    assert got["Dear Hiring Manager,"] == got["Kind regards,"] == got["Priya Shah"] == "D"  # the letter to proofread
    got = dict(codes("Write the hero copy for our invoicing app.\nAvoid exclamation marks.\nDon't include any code.\n"
                     "Don't add facts that aren't in the brief."))
    assert got["Avoid exclamation marks."] == got["Don't include any code."] == "O"  # the answer's form
    assert got["Don't add facts that aren't in the brief."] == "A"  # a rule on the content
    got = dict(codes("How many teaspoons are in 250 ml?\nJust the number."))
    assert got["Just the number."] == "O"
    got = dict(codes("Consolidate the themes below.\nPut at most 12 rows in the table.\n{themes}"))
    assert got["Put at most 12 rows in the table."] == "O"
    got = dict(codes("I'm getting a KeyError in this function and I don't get why.\nI'm on Python 3.12.\n"
                     "I want know if the dict is the problem."))
    assert got["I'm getting a KeyError in this function and I don't get why."] == "D"  # the user's problem
    assert got["I want know if the dict is the problem."] == "D"
    assert got["I'm on Python 3.12."] == "A"
    got = dict(codes("Q: A shop sells pencils in packs of 12 for $3. How many dollars do 60 pencils cost?\n"
                     "A: Let's think step by step."))
    assert got["A: Let's think step by step."] == "D"  # the reasoning trigger that opens the answer
    got = dict(codes("Answer the customer's question from the FAQ.\nReply in {{ customer.language }}."))
    assert got["Reply in {{ customer.language }}."] == "O"
    got = dict(codes("You are a geographer. Answer the question with one word.\nQuestion: {question}\n"
                     "Reply in lower case."))
    assert got["Answer the question with one word."] == "DO"  # the task, with its form
    assert got["Reply in lower case."] == "O"


def test_tools_listed_below_a_consulted_heading_and_a_structure_given_as_a_field() -> None:
    got = dict(codes("You are TripWeaver, a travel assistant.\n\nYou have access to the following tools:\n\n"
                     "search_flights: search flights, input is a JSON object with origin and date\n"
                     "book: books an option returned by a search\n\nUse the following format:\n\n"
                     "Question: the request\nThought: what to do next\n\nBegin!\n\nQuestion: {input}"))
    assert got["search_flights: search flights, input is a JSON object with origin and date"] == "A"
    assert got["book: books an option returned by a search"] == "A"  # a tool consulted, not an instruction
    assert got["Begin!"] == got["Question: {input}"] == "D"
    got = dict(codes("Write lyrics for a folk song about going home.\nStructure: verse, chorus, verse, chorus.\n"
                     "Use the standard structure: title, verses, chorus.\nRubric:\nStructure: 4 = clear, 1 = muddled"))
    assert got["Structure: verse, chorus, verse, chorus."] == "O"
    assert got["Use the standard structure: title, verses, chorus."] == "O"
    assert got["Structure: 4 = clear, 1 = muddled"] != "O"  # a rubric's criterion, not the answer's structure


def test_criteria_in_other_languages_are_consulted() -> None:
    got = dict(codes("Evalúa la respuesta del agente según los criterios siguientes.\nCriterios:\n"
                     "- Empatía (0-2): reconoce la situación del cliente.\n"
                     "- Claridad (0-2): se entiende a la primera.\n\n"
                     "Mensaje del cliente: {mensaje}\nRespuesta del agente: {respuesta}"))
    assert got["Criterios:"] == got["- Empatía (0-2): reconoce la situación del cliente."] == "A"
    assert got["Respuesta del agente: {respuesta}"] == "D"


def test_dimensions_to_rate_a_form_section_and_a_label_set_above_the_demonstrations() -> None:
    got = dict(codes("Rate the comment below on each of these dimensions, from 0 (absent) to 3 (severe):\n"
                     "- insult: demeaning language aimed at a person\n- threat: wishes of physical harm\n"
                     "Comment: {comment}"))
    assert got["- insult: demeaning language aimed at a person"] == got["- threat: wishes of physical harm"] == "A"
    got = dict(codes("Write a short story.\nForm:\n- Exactly 300 words.\n- The last sentence must echo the first."))
    assert got["Form:"] == got["- The last sentence must echo the first."] == "O"
    got = dict(codes("Classify each ticket into exactly one intent.\nIntents: billing_dispute, bug_report, other.\n"
                     "Ticket: \"I was charged twice.\"\nIntent: billing_dispute\nTicket: \"It crashes.\"\n"
                     "Intent: bug_report\nTicket: \"{ticket}\"\nIntent:"))
    assert got["Intents: billing_dispute, bug_report, other."] == "A"  # the labels consulted, not material
    assert got["Intent: billing_dispute"] == "E" and got['Ticket: "{ticket}"'] == "D"


def test_a_letter_pasted_between_the_request_and_what_follows() -> None:
    got = dict(codes("Can you rewrite this so it doesn't sound furious?\n\nHi Mark,\nThis is the third late delivery.\n"
                     "We planned our sprint around your API.\nI need a revised timeline by Friday.\nElena\n\n"
                     "Keep the part about the timeline.\nSame length or shorter."))
    for line in ("Hi Mark,", "This is the third late delivery.", "We planned our sprint around your API.", "Elena"):
        assert got[line] == "D", line  # the email to rewrite, from its greeting to the name under it
    assert got["Same length or shorter."] == "O"
    got = dict(codes("Hi team,\nWe ship on Friday.\nWrite the release note for the change log."))
    assert got["We ship on Friday."] == "A"  # a greeting without a sign-off opens no letter


def test_a_creation_request_that_introduces_its_examples_is_the_task() -> None:
    got = dict(codes("Write a haiku about {topic} in the style of these:\nmorning standup call /\n"
                     "everyone on mute but me /\ntalking to the void\nLowercase, no title."))
    assert got["Write a haiku about {topic} in the style of these:"] == "D"
    assert got["morning standup call /"] == got["talking to the void"] == "E"
    assert [c for t, c in codes("Here are some examples:\nInput: 2+2\nOutput: 4")][0] == "E"


def test_fields_of_a_standards_section_tags_read_from_and_the_task_as_what_the_model_does_with_its_input() -> None:
    got = dict(codes("<instructions>\nReview the NDA in <contract> tags and flag any clause that deviates from the "
                     "terms in <standards>.\n</instructions>\n<standards>\n- Term: 2 years maximum\n"
                     "- Governing law: Delaware\n</standards>\n<contract>\n{{CONTRACT}}\n</contract>\n"
                     "Put your findings in <findings> tags."))
    assert got["Review the NDA in <contract> tags and flag any clause that deviates from the terms in <standards>."] \
        == "D"  # the tags it reads from are no form
    assert got["- Term: 2 years maximum"] == got["- Governing law: Delaware"] == "A"  # fields of the standards
    assert got["{{CONTRACT}}"] == "D" and got["Put your findings in <findings> tags."] == "O"
    got = dict(codes("You are an expert at extracting key takeaways from talks. You take a transcript and output the "
                     "most important ideas."))
    assert "D" in got["You take a transcript and output the most important ideas."]
    for text in ("You parse CVs for a recruitment platform.", "You resolve the GitHub issue given below."):
        assert codes(text) == [(text, "D")], text  # the task, said of the model in the present tense


def test_a_tone_section_holds_its_lines_and_material_announced_with_a_colon_closes_the_prompt() -> None:
    got = dict(codes("You are Ava, the booking assistant of Harbor Dental.\nHelp patients book appointments.\n\n"
                     "## Tone\nWarm, brief, no jargon. Use the patient's first name.\n\n## Clinic facts\n"
                     "- Open Mon-Fri 8:00-18:00.\n\nPatient: {message}"))
    assert got["Warm, brief, no jargon."] == got["Use the patient's first name."] == "O"  # under the tone heading
    assert got["- Open Mon-Fri 8:00-18:00."] == "A"
    got = dict(codes("Translate into Spanish, keep the HTML tags as they are:\n<p>Welcome back, <b>{name}</b>!</p>\n"
                     "<p>Your order has shipped.</p>"))
    assert got["<p>Welcome back, <b>{name}</b>!</p>"] == got["<p>Your order has shipped.</p>"] == "D"


def test_material_after_a_rewrite_asked_for_by_its_effect_or_pointed_at_in_another_language() -> None:
    got = dict(codes("make this sound less like chatgpt wrote it, keep it about the same length:\n\n"
                     "Thrilled to announce my new chapter! Grateful for every lesson."))
    assert got["make this sound less like chatgpt wrote it, keep it about the same length:"] == "DO"
    assert got["Thrilled to announce my new chapter!"] == got["Grateful for every lesson."] == "D"
    got = dict(codes("Riassumi questo articolo in 3 punti elenco:\nIl Comune ha annunciato la ZTL nel fine settimana. "
                     "La misura durerà fino a settembre."))
    assert got["La misura durerà fino a settembre."] == "D"  # the article "questo articolo" points at


def test_an_answer_template_of_fields_described_in_angle_brackets() -> None:
    got = dict(codes("Triage the intake message.\n\nReturn:\nlevel: <EMERGENCY|URGENT|ROUTINE>\n"
                     "staff_note: <one line for the clinician>\npatient_message: <two sentences at most>\n\n"
                     "Intake message: {message}"))
    assert got["Return:"] == got["level: <EMERGENCY|URGENT|ROUTINE>"] == "O"
    assert got["patient_message: <two sentences at most>"] == "O"
    assert got["Intake message: {message}"] == "D"
    got = dict(codes("Read the job posting and fill in the schema.\nField notes:\n- remote: treat \"hybrid\" as "
                     "\"partial\".\n- seniority: \"unknown\" unless the posting states it.\nPosting:\n{posting}"))
    assert got["Field notes:"] == got['- remote: treat "hybrid" as "partial".'] == "O"  # notes on the answer's fields
    assert got["{posting}"] == "D"
    got = dict(codes("Extract the invoice fields from the document text below.\n{format_instructions}\n"
                     "Document:\n{document_text}"))
    assert got["{format_instructions}"] == "O"  # the slot the application fills with the answer's form
    assert got["{document_text}"] == "D"


def test_a_question_run_together_with_the_users_situation_is_task_and_background() -> None:
    for text in ("how do i undo my last commit but keep the changes? already pushed it to my own branch",
                 "can someone explain why 0.999... equals 1? my teacher said it does but it makes no sense to me"):
        assert codes(text) == [(text, "AD")], text
    assert codes("Why does this query return duplicates? Show the fixed query.") != \
        [("Why does this query return duplicates? Show the fixed query.", "AD")]  # two sentences, no background



def test_quoted_words_given_as_instances_are_not_answer_options() -> None:
    for text in ("- No superlatives we can't prove, such as \"best\" or \"lightest ever\".",
                 'Titles such as "Dr." or "President" are not part of the PER span.'):
        assert codes(f"You are a careful copy and data editor.\n{text}")[1] == (text, "A"), text
    assert codes("Classify the comment as \"toxic\" or \"non-toxic\".") == \
        [('Classify the comment as "toxic" or "non-toxic".', "DO")]  # the answer's options
    text = 'Use gender-neutral language and avoid phrases such as "rockstar" or "ninja".'
    assert dict(codes("Write a job ad for a backend engineer.\n" + text))[text] == "O"  # word choice is form


def test_new_content_asked_for_to_close_the_answer_is_task_and_form() -> None:
    got = dict(codes("Review the contract below and list the risky clauses in a table.\n"
                     "After the table, add a two-sentence summary of the overall risk.\n"
                     "Finish with one recommendation for the client.\nEnd with a line that says DONE."))
    assert got["After the table, add a two-sentence summary of the overall risk."] == "DO"
    assert got["Finish with one recommendation for the client."] == "DO"
    assert got["End with a line that says DONE."] == "O"  # a closing line, no new content
    got = dict(codes("Explain the customer's bill.\nFinish with two practical tips to lower next month's bill.\n"
                     "After the table, add a 2–3 sentence summary of the decisions."))
    assert got["Finish with two practical tips to lower next month's bill."] == "DO"
    assert got["After the table, add a 2–3 sentence summary of the decisions."] == "DO"
    got = dict(codes("Investigate the alert with the tools.\nFinish with an incident note in this structure:\n"
                     "Status: mitigated | escalated\nNext steps: what a human should look at"))
    assert got["Finish with an incident note in this structure:"] == "DO"
    assert got["Status: mitigated | escalated"] == got["Next steps: what a human should look at"] == "O"


def test_blocks_under_a_bare_label_the_task_names_are_its_input() -> None:
    got = dict(codes("Read the claimant's statement and the adjuster's notes and list any indicators.\n\n"
                     "Claimant statement:\n\"I came back on Sunday and the back door was open.\"\n\n"
                     "Adjuster notes:\nPolicy incepted 5 weeks before loss.\n\n"
                     "Give your answer as a numbered list."))
    assert got["Claimant statement:"] == got["Adjuster notes:"] == "D"
    assert got['"I came back on Sunday and the back door was open."'] == "D"
    assert got["Policy incepted 5 weeks before loss."] == "D"
    got = dict(codes("Redact all personal data from the call transcript.\n\nTRANSCRIPT\nCaller: Hi, this is Dan."))
    assert got["TRANSCRIPT"] == "D"
    got = dict(codes("Mark the essay below against the rubric.\n\nRubric:\n- Argument: a clear position.\n\n"
                     "Essay:\n{essay}"))
    assert got["Rubric:"] == got["- Argument: a clear position."] == "A"  # consulted, though the task names it
    got = dict(codes("Write a cold email to the prospect below.\n\nProspect:\nName: Tomás Ferreira"))
    assert got["Prospect:"] == "A"  # the addressee, not material to work on


def test_fields_under_the_details_below_are_the_input() -> None:
    got = dict(codes("Using the details below, write a listing for our website.\nProperty type: terraced house\n"
                     "Price: £245,000\n\nOpen with one line that would work as a headline."))
    assert got["Property type: terraced house"] == got["Price: £245,000"] == "D"


def test_input_between_tags_and_pasted_sessions_plans_rows_and_php() -> None:
    got = dict(codes("Write unit tests for the Go function in <code>.\n<code>\npackage slug\n\n"
                     "import (\n\"strings\"\n)\n\n// Make turns a title into a URL slug.\n"
                     "func Make(title string) string {\n}\n</code>\nReturn a single file."))
    assert {got[k] for k in ("<code>", '"strings"', "// Make turns a title into a URL slug.", "</code>")} == {"D"}
    assert got["Return a single file."] == "O"
    got = dict(codes("You are Penny, the returns assistant for Shopwise.\n<customer>\nName: {customer_name}\n"
                     "Order history:\n{order_history}\n</customer>\nHelp the customer return items."))
    assert got["Name: {customer_name}"] == got["{order_history}"] == "A"  # a person's record, consulted
    got = dict(codes("Summarise what we decided.\n[Mon 19:02] Ali: wales or the lakes\n[Mon 19:05] Beth: wales\n"
                     "[Tue 08:14] Ali: ok wales then\n\nPrepare a digest.\n14:3  Q. When did you learn of it?\n"
                     "14:5  A. Early March.\n14:9  Q. And the decision?"))
    assert got["[Mon 19:05] Beth: wales"] == got["14:5  A. Early March."] == "D"
    got = dict(codes("why does the pod crash?\n$ kubectl get pods -n prod\napi-7d9f8   0/1   CrashLoopBackOff   51m\n"
                     "$ kubectl logs api-7d9f8\nError: cannot load ld-linux.so"))
    assert got["$ kubectl get pods -n prod"] == got["api-7d9f8   0/1   CrashLoopBackOff   51m"] == "D"
    got = dict(codes("Tell me why this query is slow.\nLimit  (cost=41.10..41.23 rows=50 width=16)\n"
                     "->  Seq Scan on events  (cost=0.00..40.00 rows=28 width=8)\nExecution Time: 48.3 ms\n\n"
                     "Review the alert.\n02/05 cash deposit £950 (branch)\n03/05 cash deposit £980 (ATM)"))
    assert got["->  Seq Scan on events  (cost=0.00..40.00 rows=28 width=8)"] == "D"
    assert got["02/05 cash deposit £950 (branch)"] == got["03/05 cash deposit £980 (ATM)"] == "D"
    got = dict(codes("As an application security specialist, audit the PHP snippet below.\n<?php\n"
                     "$sql = \"SELECT name FROM users WHERE id = \" . $id;\n$result = mysqli_query($conn, $sql);\n?>\n"
                     "Name the CWE for each problem."))
    assert got["As an application security specialist, audit the PHP snippet below."] == "DR"
    assert got["$result = mysqli_query($conn, $sql);"] == "D"


def test_more_task_verbs_apologise_say_backfill_add() -> None:
    got = dict(codes("Draft a reply to the review below.\nApologise for the wait, and thank them for the kind words.\n"
                     "Say whether we should ship the new button, and mention any caveats.\n"
                     "For each question, add what a strong answer would include."))
    assert got["Apologise for the wait, and thank them for the kind words."] == "D"
    assert got["Say whether we should ship the new button, and mention any caveats."] == "D"
    assert got["For each question, add what a strong answer would include."] == "D"


def test_what_the_artefact_must_do_or_hold_is_the_task() -> None:
    got = dict(codes("Write lyrics for an indie-folk song about the harbour.\n"
                     "The chorus should come back to the image of the ferry lights on the water.\n"
                     "The questions should range from easy to hard.\nThe song should be under three minutes.\n"
                     "The customer must confirm the order first."))
    assert got["The chorus should come back to the image of the ferry lights on the water."] == "D"
    assert got["The questions should range from easy to hard."] == "D"
    assert got["The song should be under three minutes."] != "D"  # its form
    assert got["The customer must confirm the order first."] != "D"  # a rule about a person


def test_a_dspy_prompt_format_section_demonstrations_and_query() -> None:
    prompt = ("Answer grade-school math word problems.\n\n---\n\nFollow the following format.\n\n"
              "Question: ${question}\nAnswer: a number with no units\n\n---\n\n"
              "Question: A baker sells all but 23 of 168 rolls. How many does she sell?\nAnswer: 145\n\n---\n\n"
              "Question: {question}\nAnswer:")
    got = codes(prompt)
    assert [c for t, c in got if t == "---"] == ["O", "O", "O"]
    got = dict(got)
    assert got["Question: ${question}"] == got["Answer: a number with no units"] == "O"
    assert got["Answer: 145"] == got["How many does she sell?"] == "E"
    assert got["Question: {question}"] == "D"
    got = dict(codes("Answer questions with short factoid answers.\n\n---\n\nFollow the following format.\n\n"
                     "Context: may contain relevant facts\n\nQuestion: ${question}\n\nAnswer: often 1 to 5 words\n\n"
                     "Context:\n[1] «Lake Baikal is the deepest lake.»\n\nQuestion: Which lake is the deepest?"))
    assert got["Context: may contain relevant facts"] == got["Question: ${question}"] == "O"
    assert got["Question: Which lake is the deepest?"] == "D"


def test_a_guidance_template_of_generated_fields_is_the_answers_form() -> None:
    got = dict(codes("Create a shopkeeper for the quest.\n{\n\"name\": \"{{gen 'name' stop='\"'}}\",\n"
                     "\"age\": {{gen 'age' pattern='[0-9]+'}}\n}"))
    assert got["{"] == got["\"age\": {{gen 'age' pattern='[0-9]+'}}"] == got["}"] == "O"


def test_the_users_background_after_their_pasted_data_is_not_data() -> None:
    got = dict(codes("Some of my results are flagged. Can you explain what these mean?\n\nTest | Result | Range\n"
                     "Ferritin | 9 ug/L | 15-150\nTSH | 2.1 mU/L | 0.3-4.2\n\n"
                     "I'm 34, female, and I've been feeling really tired for months.\nI know you're not my doctor."))
    assert got["Ferritin | 9 ug/L | 15-150"] == "D"
    assert got["I'm 34, female, and I've been feeling really tired for months."] == "A"
    assert got["I know you're not my doctor."] == "A"


def test_chat_form_requests_a_checklist_a_step_by_step_answer_grouping() -> None:
    got = dict(codes("Someone drove into the back of me this morning. What should I do next?\nGive me a checklist.\n"
                     "Please give me a simple step-by-step answer, not an essay."))
    assert got["Give me a checklist."] == got["Please give me a simple step-by-step answer, not an essay."] == "O"
    got = dict(codes("can you turn this into a shopping list for me\n500g chicken thighs, 1 onion\n"
                     "group it by where stuff is in the shop pls"))
    assert got["group it by where stuff is in the shop pls"] == "O"


def test_a_greeting_that_opens_the_request_belongs_to_it() -> None:
    for greeting in ("Hi!", "Bonjour !", "Quick question."):
        got = codes(greeting + "\nI'm going to Lisbon in May. Can you plan four days for me?")
        assert got[0] == (greeting, "D"), got
    assert codes("Hello,\nYou are the helpdesk assistant for floor 2.")[0][1] != "D"  # no request to belong to


def test_what_the_user_wants_of_the_artefact_is_the_task() -> None:
    got = dict(codes("Help me write an email to my landlord about the boiler.\nIt broke again on Sunday.\n"
                     "I want it fixed by Monday at the latest and I want it in writing this time.\n"
                     "The main ideas I want covered: the dates, the cost, the deadline."))
    assert got["I want it fixed by Monday at the latest and I want it in writing this time."] == "D"
    assert got["The main ideas I want covered: the dates, the cost, the deadline."] == "D"
    assert got["It broke again on Sunday."] == "A"
    got = dict(codes("Write a bedtime story about an otter.\n"
                     "She's nervous about kindergarten, so I'd love the otter to have a first day somewhere new."))
    assert got["She's nervous about kindergarten, so I'd love the otter to have a first day somewhere new."] == "D"


def test_tone_and_length_said_in_passing_are_the_form() -> None:
    got = dict(codes("Write a wedding toast for my sister Amy.\nFunny but with a heartfelt bit at the end.\n"
                     "Be honest but not preachy.\nIt should sound like me: casual, no fancy words.\n"
                     "I don't want the usual \"I'm thrilled to announce\" opener."))
    for text in ("Funny but with a heartfelt bit at the end.", "Be honest but not preachy.",
                 "It should sound like me: casual, no fancy words.",
                 "I don't want the usual \"I'm thrilled to announce\" opener."):
        assert got[text] == "O", text


def test_the_form_pattern_searched_over_lower_cased_text_keeps_case_where_it_matters() -> None:
    assert not re.search(r"(?<!\\)(?<!\(\?)[A-Z]", OUTPUT.pattern)  # an upper-case letter could never match
    assert OUTPUT.search("Give each date as YYYY-MM-DD.") and OUTPUT.search("RESPOND WITH JSON ONLY.")
    assert not OUTPUT.search("Meet me at the yy mm dd cafe.")  # the date format only in capitals


def test_more_ways_of_asking_for_a_form() -> None:
    for text in ("Use elegant, formal British English suitable for a fine-dining menu.", "Friendly, not over the top.",
                 "Speak in an over-the-top theatrical way, with lots of dramatic pauses.", "Keep the rows in the "
                 "original order.", "Use big, plain words and no abbreviations.", "Tick-box list please.",
                 "Use sections What, Why, How to test.", "Just the questions, numbered, no intro."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text
    text = "Check that the numbers appear in the first string in the same order."
    assert Component.OUTPUT_FORMATTING not in cues_of(text)  # an order the task checks, not the answer's


def test_lengths_layouts_tones_and_sign_offs_asked_for_in_other_words() -> None:
    for text in ("Aim for 8–10 cards.", "Keep it to the 3 or 4 moments that mattered most.", "One fact per card.",
                 "It should take about three minutes to say out loud.", "Group entries under Added, Changed, Fixed.",
                 "Group updates by person, then list blockers separately at the end.", "Sign as \"Privacy Team\".",
                 "Firma come Giulia Romano.", "Lay it out day by day, with a morning and evening for each.",
                 "Use Mexican Spanish rather than Spain Spanish.", "Keep the SRT numbering and timecodes as they are.",
                 "Be kind but honest, she's nervous.", "Don't lecture.", "Usa un linguaggio semplice.",
                 "Bitte antworte kurz, ohne Juristendeutsch.", "Code only, with brief comments.", "Une page maximum.",
                 "Separate multiple themes with a semicolon.", "No more than 15 cards."):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text
    for text in ("GROUP BY month", "Code only what is stated, not what might be implied.",
                 "Translate the strings from English into Brazilian Portuguese.", "Be honest but kind."):
        assert Component.OUTPUT_FORMATTING not in cues_of(text), text


def test_casual_and_german_asks_for_a_form() -> None:
    for text in ("step by step pls", "table please", "show the math briefly", "formula only + 1 line on how to use it",
                 "Just the LookML, I know where it goes.", "Bitte als Liste mit Uhrzeiten.",
                 "Bitte Schritt für Schritt erklären.", "Show the steps, then a before/after table."):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text
    text = "Gehe dabei Schritt für Schritt vor und stelle zuerst die Gleichgewichtsbedingungen auf."
    assert Component.OUTPUT_FORMATTING not in cues_of(text)  # the method, not the answer's form


def test_forms_asked_for_tersely_and_in_german_or_spanish() -> None:
    for text in ("Ton: freundlich, aber nicht übertrieben locker.", "8 slides max.", "Friendly, no exclamation marks.",
                 "short and to the point", "make it a table with date / what happened / evidence",
                 "Antworte bitte kurz und in einfachem Deutsch.", "Ponlo en una lista con casillas.",
                 "Que suene profesional pero cercano."):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text
    assert Component.OUTPUT_FORMATTING not in cues_of("My plan pays 80% with a $1,500 annual maximum and a deductible.")
    got = dict(codes("Write my best man speech.\nStuff about him:\n- works as a paramedic\n- met his wife at a pub quiz"
                     "\n\nHere are two paragraphs from past posts so you get my voice:\n"
                     "\"Lettuce needs consistency.\""))
    assert got["Stuff about him:"] == got["- works as a paramedic"] == "D"
    assert got["\"Lettuce needs consistency.\""] == "E"


def test_attached_material_and_what_someone_wrote_are_introduced() -> None:
    for text in ("Attached are results from our churn survey (n=312).", "Reviewer 2 wrote:"):
        assert opens_material(text), text
    assert not opens_material("**Gavin_R** wrote:")  # a post's header inside a pasted thread


def test_what_the_assistant_cannot_do_is_a_limit_of_the_setting() -> None:
    for text in ("You cannot reverse a transaction or issue a new card; a human agent does that.",
                 "You can't see their fridge."):
        assert cues_of(text) == {Component.ADDITIONAL_INFORMATION}, text


def test_the_models_job_stated_is_the_task_whatever_else_it_mentions() -> None:
    for text in ("Your job is to sub-edit the reporter's copy that follows, applying the Gazette's house style.",
                 "**Your job:** moderate a game of Werewolf for a group chat of friends."):
        assert cues_of(text) == {Component.DIRECTIVE}, text


def test_a_title_naming_the_assistants_system_prompt_is_its_persona() -> None:
    got = dict(codes("# StatDesk – system prompt\nYou are StatDesk, the assistant of the statistics unit.\n"
                     "Answer questions about study design."))
    assert got["# StatDesk – system prompt"] == "R", got


def test_a_heading_over_what_the_assistant_does_not_do_names_its_limits() -> None:
    assert heading_topic("## What you don't do") == Component.ADDITIONAL_INFORMATION
    assert heading_topic("## What you do") == Component.DIRECTIVE


def test_task_and_style_headings_in_other_languages_and_behaviour_shown_by_example() -> None:
    for heading in ("# Tareas", "## Ce que tu dois faire", "## Aufgaben"):
        assert heading_topic(heading) == Component.DIRECTIVE, heading
    assert heading_topic("## Antwortstil") == Component.OUTPUT_FORMATTING
    assert Component.OUTPUT_FORMATTING in cues_of("Duze die Kundschaft, so wie es auf unserer Website üblich ist.")
    got = dict(codes("Write a Python function that converts column names to snake_case.\nIt should behave like this:\n"
                     "'First Name' -> 'first_name'\n'customerID' -> 'customer_id'"))
    assert got["'First Name' -> 'first_name'"] == got["'customerID' -> 'customer_id'"] == "E"


def test_alternatives_gathered_under_their_anchor_match_the_same() -> None:
    assert alternatives(r"a|(b|c)|[|]|\||d") == ["a", "(b|c)", "[|]", r"\|", "d"]
    assert by_anchor(r"^a|\bb|c|\bd|^(e|f)") == r"^(?:a|(e|f))|\b(?:b|d)|c"
    pattern = r"^\W*keep it short\b|\bin (?:bold|italics)\b|(?:^|\W)json\b|\bno emojis?\b"
    for text in ("Keep it short.", "Put names in bold.", "Return JSON.", "No emojis please.", "Write a poem."):
        assert bool(re.search(pattern, text.lower())) == bool(re.search(by_anchor(pattern), text.lower())), text


def test_alternatives_after_a_non_word_character_drop_the_boundary_it_implies() -> None:
    pattern = r"(?:^|\W)(?:\bjson\b|^\W*reply in\b|\b\"quoted|\b(?:one|two) words?\b|\b(?:a )?table\b|output\b)"
    assert by_anchor(pattern) == r"^(?:\W*reply in\b)|(?:^|\W)(?:json\b|\b\"quoted|(?:one|two) words?\b|" \
                                 r"\b(?:a )?table\b|output\b)"  # "\b" kept where what follows may not be a letter
    texts = ("Return JSON.", "Reply in French.", "Okay, reply in French.", 'Say "quoted', 'Say:"quoted',
             "In two words.", "A table.", "Put it in a table.", "Notable tables.", "Make it output-only.", "Xjson")
    for text in texts:
        assert bool(re.search(pattern, text.lower())) == bool(re.search(by_anchor(pattern), text.lower())), text
    sentences = [s.text.lower() for name in ("custom", "valley", "inlet", "sedge")
                 for _, g in load_gold_jsonl(BENCH_DATA / f"{name}_prompts.jsonl") for s in g.sentences]
    plain = re.compile(OUTPUT.pattern)  # the form cues as written, without the rearrangement
    assert [bool(plain.search(t)) for t in sentences] == [bool(OUTPUT.search(t)) for t in sentences]
    assert sum(bool(OUTPUT.search(t)) for t in sentences) > 250


def test_alternatives_gathered_by_first_letter_match_the_same() -> None:
    assert by_first_char(r"abc|(?:ax|by)\s+z|\d+ words|a?q|(c)d|(?:x|\w)y") == \
        r"a(?:bc|x\s+z)|b(?:y\s+z)|\d+ words|a?q|(c)d|(?:x|\w)y"  # captures, optional letters and classes stay
    pattern = r"\b(?:reply|answer|respond)\s+(?:only\s+)?with\b|(?:^|\W)(?:(?:one|two)\s+words?\b|output\b)|^\W*be\b"
    assert re.compile(rearranged(pattern))  # still a valid expression
    texts = ("Reply with JSON.", "Answer only with yes.", "In two words.", "Be brief.", "Output it.", "Respondwith",
             "No output.", "twowords", "Write a poem.", "someone words")
    for text in texts:
        assert bool(re.search(pattern, text.lower())) == bool(re.search(rearranged(pattern), text.lower())), text


def test_the_arrival_of_the_input_below_is_part_of_the_task() -> None:
    got = dict(codes("A resident has sent the message below through the council's form.\n"
                     "Route it to the right department.\n\nMessage:\n{message}"))
    assert got["A resident has sent the message below through the council's form."] == "D"
    text = "As the FP&A lead, write a memo to the CFO proposing that we move £180k into paid search."
    assert codes(text) == [(text, "DR")]  # a persona with "&" in its name
    for text in ("As a UX researcher, group these interview snippets into three or four themes.",
                 "As a senior editor, please tighten this paragraph."):  # any verb in the imperative after it
        assert codes(text) == [(text, "DR")], text
    text = "As a start, consider the provided Python code, which contains some errors."
    assert "R" not in codes(text)[0][1]  # no persona


def test_numbered_quotations_below_are_pasted_below_are_the_input() -> None:
    got = dict(codes("Below are notes from 3 exit interviews.\n[1] \"The rota is published late.\"\n"
                     "[2] \"I was offered more elsewhere.\"\n[3] \"Short staffing, again.\"\n"
                     "Identify the main reasons people left."))
    assert got['[1] "The rota is published late."'] == got['[3] "Short staffing, again."'] == "D"


def test_guidance_role_blocks_take_the_label_of_what_they_hold() -> None:
    got = dict(codes("{{#system~}}\nYou are a game designer who writes characters for a fantasy RPG.\n{{~/system}}\n"
                     "{{#user~}}\nCreate a shopkeeper for the town of {{town}}.\n{{~/user}}\n"
                     "{{#assistant~}}\n{\n\"name\": \"{{gen 'name'}}\"\n}\n{{~/assistant}}"))
    assert got["{{#system~}}"] == got["{{~/system}}"] == "R"
    assert got["{{#user~}}"] == "D"
    assert got["{{#assistant~}}"] == got["{{~/assistant}}"] == "O"
    got = dict(codes("<system>\nYou extract underwriting data from broker emails.\n</system>\n"
                     "Return the fields as JSON.\n<email>\n{email}\n</email>"))
    assert got["<system>"] == got["</system>"] == got["You extract underwriting data from broker emails."] == "D"


def test_content_asked_for_with_its_form_and_a_spoken_length() -> None:
    got = dict(codes("My dad turns 70 next month.\nGive me 8 ideas with a one-line reason for each.\n"
                     "Just give me the list, no explanation."))
    assert got["Give me 8 ideas with a one-line reason for each."] == "DO"
    assert got["Just give me the list, no explanation."] == "O"
    for text in ("Write a 45-second intro for episode 12 of my podcast.", "Write the scene, about 3 pages."):
        assert codes(text) == [(text, "DO")], text
    assert codes("Plan a 60-minute workshop on giving feedback.")[0][1] == "D"  # how long the workshop lasts


def test_what_to_leave_out_or_untouched_is_a_rule_what_to_leave_empty_is_form() -> None:
    got = dict(codes("Write the minutes of the meeting transcript below.\nLeave out the small talk at the start.\n"
                     "Leave the original file untouched.\nLeave a field empty rather than guessing it."))
    assert got["Leave out the small talk at the start."] == got["Leave the original file untouched."] == "A"
    assert got["Leave a field empty rather than guessing it."] == "O"


def test_the_form_of_what_is_judged_is_a_rule_not_the_answers_form() -> None:
    for text in ("Style, length and politeness do not affect the score.",
                 "Ignore pure formatting issues; the CI already runs black and ruff.",
                 "- Do not comment on formatting; black handles that."):
        got = dict(codes("Review the pull request for bugs.\n" + text + "\nList each bug with its line."))
        assert got[text] == "A", text


def test_a_pasted_ingredient_list_and_more_code_lines_are_material() -> None:
    got = dict(codes("This pancake recipe serves 4. Can you scale the quantities for 10 people?\n"
                     "- 2 cups flour\n- 1.5 cups milk\n- 3 eggs\n- a pinch of salt\nMetric units please."))
    assert got["- 2 cups flour"] == got["- 3 eggs"] == got["- a pinch of salt"] == "D"
    got = dict(codes("Translate these iOS strings into German.\n\"onboarding.cta\" = \"Get started\";\n"
                     "\"paywall.trial\" = \"Try Pro free for %d days\";\nKeep the keys unchanged."))
    assert got['"onboarding.cta" = "Get started";'] == got['"paywall.trial" = "Try Pro free for %d days";'] == "D"


def test_items_pointed_at_mid_paragraph_code_lines_and_a_label_closing_the_request() -> None:
    got = dict(codes("Format these references in APA 7th edition. Where the DOI is missing, leave it out.\n\n"
                     "- smith j 2019 deep learning for crop yield prediction\n- world health organization 2022"))
    assert got["- smith j 2019 deep learning for crop yield prediction"] == "D"
    got = dict(codes("how do i make the x axis labels not overlap in my bar chart?\n\nfig, ax = plt.subplots()\n"
                     "ax.bar(df['country'], df['gdp_growth'])\nplt.show()"))
    assert got["fig, ax = plt.subplots()"] == got["plt.show()"] == "D"
    got = dict(codes("here are my notes from the standup, can you turn them into a short update?\nnotes:\n"
                     "- launch pushed to oct 14\n- maria owns the pricing page"))
    assert got["notes:"] == got["- launch pushed to oct 14"] == "D"
    got = dict(codes("Turn my notes from the supervisor meeting into a follow-up email. Notes:\n"
                     "- chapter 2 ok, but shorten the review\n- next meeting in 3 weeks\nMy name is Lena."))
    assert got["Notes:"] == got["- chapter 2 ok, but shorten the review"] == got["- next meeting in 3 weeks"] == "D"
    assert got["My name is Lena."] == "A"  # the list is over


def test_the_people_a_persona_serves_are_background_in_its_paragraph() -> None:
    got = dict(codes("You are Skye, the rebooking assistant for Northwind Air. "
                     "Passengers reach you after their flight has been cancelled.\nOffer them the next three flights."))
    assert got["Passengers reach you after their flight has been cancelled."] == "A"


def test_a_heading_that_names_no_component_takes_its_sections() -> None:
    got = dict(codes("Review the pull request below.\n\n# Pull request\nTitle: Add retry to the uploader\n"
                     "Diff:\n{diff}"))
    assert got["# Pull request"] == "D"
    got = dict(codes("You are a support agent for Acme.\n\n## Tools\n- search_docs(query): search the help centre\n"
                     "- open_ticket(summary): open a ticket\n\n## Task\nAnswer the customer's question."))
    assert got["## Tools"] == "A"


def test_a_bare_label_over_the_tasks_input_is_part_of_it() -> None:
    got = dict(codes("Triage the email the employee reported as phishing.\n\nFrom: IT Helpdesk <it@oakr1dge.com>\n"
                     "Subject: URGENT: Mailbox deactivation\nBody:\nDear Staff Member,\n"
                     "Verify your credentials within 24 hours.\nIT Helpdesk"))
    assert got["Body:"] == "D"
    got = dict(codes("Grade the essay below.\n\nMarking guidance:\n- Argument: a clear position.\n\nEssay:\n{essay}"))
    assert got["Marking guidance:"] == "A"  # consulted


def test_the_record_of_the_person_an_assistant_serves_is_background() -> None:
    got = dict(codes("You are Penny, the rewards helper for FreshCart.\nMember: {member_name}\n"
                     "Points balance: {points_balance}\nHelp members redeem rewards and find offers."))
    assert got["Member: {member_name}"] == got["Points balance: {points_balance}"] == "A"
    got = dict(codes("Write a product description for our shop.\nProduct name: {product_name}\nPrice: {price}"))
    assert got["Product name: {product_name}"] == got["Price: {price}"] == "D"  # the material written from
    got = dict(codes("You help customers track parcels.\nTracking number: {tracking_number}\n"
                     "Customer message: {message}"))
    assert got["Tracking number: {tracking_number}"] == "A" and got["Customer message: {message}"] == "D"


def test_more_chat_requests_of_content_and_form() -> None:
    got = dict(codes("The bank charged me a fee for a transfer that failed. Write a complaint for me.\n"
                     "I want the 45 EUR back.\nDont make it aggressive, just clear and firm."))
    assert got["I want the 45 EUR back."] == "D"
    assert got["Dont make it aggressive, just clear and firm."] == "O"
    got = dict(codes("Turn my notes into flashcards.\nMake around 10 cards.\nPlease make a checklist I can print."))
    assert got["Make around 10 cards."] == got["Please make a checklist I can print."] == "O"


def test_fields_whose_key_holds_a_comma_are_items_of_the_block_announced() -> None:
    got = dict(codes("Help me write the response to reviewers. Here are the comments and what we changed:\n\n"
                     "Reviewer 2, Comment 1: The sample size seems small.\nOur change: we added a power analysis."))
    assert got["Reviewer 2, Comment 1: The sample size seems small."] == got["Our change: we added a power analysis."] \
        == "D"


def test_a_pasted_block_of_several_lines_between_the_request_and_what_follows() -> None:
    got = dict(codes("Please convert these references into APA 7th edition. Keep the original order.\n\n"
                     "smith j, lee k. 2021. Peer tutoring and math anxiety\nVygotsky, Lev (1978) Mind in Society.\n\n"
                     "Output just the corrected list."))
    assert got["Vygotsky, Lev (1978) Mind in Society."] == "D"
    got = dict(codes("Answer the following questions as best you can. You have access to the following tools:\n\n"
                     "calculator: evaluates an arithmetic expression\nunit_convert: converts between units\n\n"
                     "Use the following format:\nQuestion: the input question"))
    assert got["calculator: evaluates an arithmetic expression"] == "A"  # consulted


def test_a_stamped_chat_log_typed_in_lower_case_and_an_example_announced_as_heres_an_example() -> None:
    got = dict(codes("Pull the action items out of this Slack thread.\n[10:05] marco: I'll join. also the form\n"
                     "[10:06] dana: marco can you send that today\n[10:06] marco: sure\nList them as bullets."))
    assert got["[10:06] dana: marco can you send that today"] == got["[10:06] marco: sure"] == "D"
    got = dict(codes("Write three search-ad headlines for our desk lamp.\nHere's an example for a different product:\n"
                     "Product: standing desk\nHeadline 1: Stand Up to Back Pain\n\nProduct: {product}"))
    assert got["Here's an example for a different product:"] == got["Headline 1: Stand Up to Back Pain"] == "E"


def test_a_schema_sketch_with_lists_of_a_type_and_choices_is_the_answers_form() -> None:
    got = dict(codes("Turn the status notes into JSON.\nSchema:\n{\n\"project\": string,\n"
                     "\"rag_status\": \"green\" | \"amber\" | \"red\",\n\"blockers\": [string]\n}\nNotes:\n{notes}"))
    assert got["{"] == got['"rag_status": "green" | "amber" | "red",'] == got['"blockers": [string]'] == "O"


def test_going_through_each_item_and_what_to_do_for_each_are_the_task() -> None:
    got = dict(codes("I drafted a questionnaire.\nPlease go through each item and flag leading wording.\n"
                     "For each flagged item suggest a revised version.\n1. My instructors are approachable."))
    assert got["Please go through each item and flag leading wording."] == "D"
    assert got["For each flagged item suggest a revised version."] == "D"


def test_sources_the_task_works_through_one_by_one_are_its_input() -> None:
    got = dict(codes("Write an annotation for each of the sources below.\n\nSources:\n- Haidt, Jonathan.\n"
                     "The Anxious Generation.\n- A 2023 UNESCO report on technology in education."))
    assert got["Sources:"] == got["The Anxious Generation."] == got["- Haidt, Jonathan."] == "D"
    # sources the answer is drawn from are consulted
    got = dict(codes("Cite each of the sources below where you use it.\n\nSources:\n- The 2023 UNESCO report.\n\n"
                     "Question: {question}"))
    assert got["Sources:"] == got["- The 2023 UNESCO report."] == "A"


def test_entries_named_by_a_word_and_a_number_or_letter_are_the_items_compared() -> None:
    got = dict(codes("which one is the best deal for 40 laptops?\n"
                     "Quote A - Dellcom: £842/unit, 3yr onsite warranty\nQuote B - TechSource: £799/unit, 1yr warranty"
                     "\nInterviewer 1 (SQL): Strong.\nInterviewer 2 (case): Lean hire."))
    entries = ("Quote A - Dellcom: £842/unit, 3yr onsite warranty", "Quote B - TechSource: £799/unit, 1yr warranty",
               "Interviewer 1 (SQL): Strong.", "Interviewer 2 (case): Lean hire.")
    assert {got[t] for t in entries} == {"D"}
    # the levels of a scale are consulted
    got = dict(codes("Grade the essay.\nLevel 4 (16-20 marks): sustained analysis.\nLevel 3 (11-15 marks): clear."))
    assert got["Level 4 (16-20 marks): sustained analysis."] == "A"


def test_the_givens_of_an_exercise_and_its_lettered_parts_are_the_task() -> None:
    got = dict(codes("A series RLC circuit has R = 50 Ω, L = 120 mH and C = 22 µF.\nFind:\n"
                     "(a) the inductive reactance,\n(b) the rms current.\n"
                     "Present each part with the formula first."))
    assert {got["A series RLC circuit has R = 50 Ω, L = 120 mH and C = 22 µF."], got["(a) the inductive reactance,"],
            got["(b) the rms current."]} == {"D"}
    got = dict(codes("In triangle ABC, AB = 13, BC = 14 and CA = 15.\nFind the length HM."))
    assert got["In triangle ABC, AB = 13, BC = 14 and CA = 15."] == "D"
    # a fact of the setting before an instruction is not an exercise's given
    got = dict(codes("You help travellers.\nBudget is mid-range, roughly ¥25,000 a night for hotels.\n"
                     "Suggest three hotels in Kyoto."))
    assert got["Budget is mid-range, roughly ¥25,000 a night for hotels."] == "A"


def test_rows_pasted_without_a_tables_outer_bars_and_a_block_below_a_blank_line_are_material() -> None:
    got = dict(codes("We trained a small model.\nHere's the log:\nepoch | train_loss | val_acc\n1 | 1.62 | 0.41\n"
                     "5 | 0.88 | 0.67\nWhat is happening after epoch 5?"))
    assert got["epoch | train_loss | val_acc"] == got["5 | 0.88 | 0.67"] == "D"
    got = dict(codes("Estimate the period.\nt\tmag\n0.112\t12.41\n0.356\t12.40"))
    assert got["0.112\t12.41"] == "D"
    got = dict(codes("should i be worried?\nTSH | 2.1 mIU/L | | 0.4-4.0\nVitamin D | 18 ng/mL | L | 30-100\n"
                     "Glucose | 94 mg/dL | | 70-99"))
    assert got["TSH | 2.1 mIU/L | | 0.4-4.0"] == got["Vitamin D | 18 ng/mL | L | 30-100"] == "D"  # empty cells
    got = dict(codes("Turn my notes below into a numbered protocol.\n\nnotes from today (western blot):\n"
                     "- lysed in RIPA, 30 min on ice\n- BCA, loaded 30ug/lane"))
    assert got["notes from today (western blot):"] == got["- BCA, loaded 30ug/lane"] == "D"
    got = dict(codes("Transcript of our meeting:\n\n[00:02] Lena: OK so grids first.\n[00:15] Tom: Thick ice.\n"
                     "[00:31] Lena: Fine.\n\nFrom this transcript, extract every decision."))
    assert got["[00:15] Tom: Thick ice."] == got["Transcript of our meeting:"] == "D"


def test_chinese_and_japanese_persona_request_rule_form_and_example() -> None:
    got = dict(codes("あなたは高校物理の先生です。\n次の問題を解いてください。\nブランド名や型番は変更しないでください。\n"
                     "回答は敬語で、300文字以内にまとめてください。\n"
                     "你是一名用户研究分析师，负责为产品团队整理用户反馈。\n请用中文回答，使用编号列表。\n例：\n入力：くつした"))
    assert got == {"あなたは高校物理の先生です。": "R", "次の問題を解いてください。": "D",
                   "ブランド名や型番は変更しないでください。": "A", "回答は敬語で、300文字以内にまとめてください。": "O",
                   "你是一名用户研究分析师，负责为产品团队整理用户反馈。": "R", "请用中文回答，使用编号列表。": "O",
                   "例：": "E", "入力：くつした": "E"}
    # an English sentence quoting Japanese keeps the English cues
    assert codes("Translate the strings.\nUse polite です/ます style for full sentences.")[1] == (
        "Use polite です/ます style for full sentences.", "O")


def test_a_few_shot_block_with_keys_typed_in_lower_case() -> None:
    got = codes("Label the message with one intent: card_lost, balance_inquiry.\n\nmessage: someone stole my visa\n"
                "intent: card_lost\nmessage: how much is in savings\nintent: balance_inquiry\n\n"
                "message: {message}\nintent:")
    assert [c for _, c in got] == ["D", "E", "E", "E", "E", "D", "D"]


def test_a_possessive_input_label_internal_notes_and_a_consulted_faq() -> None:
    got = dict(codes("You are drafting a reply for the Highways team.\n\nResident's complaint:\n"
                     "\"I reported a pothole on 3 February.\nIt is still there.\"\n\nCase notes (internal):\n"
                     "- Repair now scheduled for 16 April.\n\nWrite a reply that gives the new repair date."))
    assert got["Resident's complaint:"] == got["It is still there.\""] == "D"
    assert got["Case notes (internal):"] == got["- Repair now scheduled for 16 April."] == "A"
    got = dict(codes("You are the help assistant for the Arts Fund.\nAnswer only from the knowledge base below.\n\n"
                     "Knowledge base:\nQ: Who can apply?\nA: Charities.\nQ: When is the deadline?\nA: 28 February.\n"
                     "Q: Can individuals apply?\nA: No.\nKeep each answer short.\nApplicant's question: {question}"))
    assert {got[t] for t in ("Q: Who can apply?", "A: Charities.", "A: No.")} == {"A"}
    assert got["Applicant's question: {question}"] == "D"


def test_lettered_answer_options_go_with_their_question() -> None:
    got = dict(codes("Question: A ball is thrown from a 20 m cliff at 15 m/s. How far from the base does it land?\n"
                     "(A) 15 m\n(B) 30 m\nThink step by step."))
    assert got["(A) 15 m"] == got["(B) 30 m"] == "D"
    got = codes("The following are multiple choice questions (with answers) about anatomy.\n\n"
                "Which nerve innervates the diaphragm?\nA. Vagus nerve\nB. Phrenic nerve\nAnswer: B\n\n"
                "Which nerve does the foramen ovale transmit?\nA. Mandibular nerve\nB. Optic nerve\nAnswer: A\n\n"
                "{question}\nA. {choice_a}\nB. {choice_b}\nAnswer:")
    assert [c for _, c in got] == ["D"] + ["E"] * 8 + ["D"] * 4


def test_test_cases_the_code_must_pass_are_examples() -> None:
    got = dict(codes("Write a function merge_intervals(intervals).\nIt must pass these tests:\n"
                     "```python\nassert merge_intervals([]) == []\nassert merge_intervals([(1, 3)]) == [(1, 3)]\n```"))
    assert got["```python\nassert merge_intervals([]) == []\nassert merge_intervals([(1, 3)]) == [(1, 3)]\n```"] == "E"
    got = dict(codes("Why does this test fail?\n```python\nassert merge_intervals([]) == []\n```"))
    assert got["```python\nassert merge_intervals([]) == []\n```"] == "D"


def test_a_request_that_also_sets_the_register_is_task_and_form() -> None:
    for text in ("Rewrite this Slack message so it sounds more diplomatic.",
                 "Can you make this email sound more professional?",
                 "explain how vaccines train the immune system like im 10 years old",
                 "Can you explain in plain words what this query returns?",
                 "Convert casual sentences into formal business English."):
        assert codes(text) == [(text, "DO")], text


def test_a_paragraph_pasted_in_quotation_marks_on_one_line_is_material() -> None:
    got = dict(codes("My landlord says he'll deduct £450 from my deposit.\nThis is the relevant bit of my lease:\n\n"
                     "\"4.7 The Tenant shall return the Property in the same condition. "
                     "The Tenant shall clean it.\"\n\n"
                     "I lived there 3 years.\nIs he allowed to do this?"))
    assert got["\"4.7 The Tenant shall return the Property in the same condition."] == "D"
    assert got["The Tenant shall clean it.\""] == got["This is the relevant bit of my lease:"] == "D"
    assert got["I lived there 3 years."] == "A"


def test_a_fenced_block_a_user_pastes_under_background_words_is_material() -> None:
    block = "```\ntar (child): backups/site.tar.gz: Cannot open: No such file or directory\n```"
    got = dict(codes("This backup script works by hand but fails from cron.\nbackup.log says:\n" + block +
                     "\nWhat is wrong?"))
    assert got[block] == "D"
    schema = "```sql\nCREATE TABLE orders (id INT, total INT);\n```"
    got = dict(codes("Write a query for the total per day.\nSchema:\n" + schema))
    assert got[schema] == "A"


def test_the_block_right_above_a_task_that_points_back_at_it_is_its_input() -> None:
    got = dict(codes("Notes from today's ops sync (messy, sorry):\n\n- Dana back from holiday\n"
                     "- Luis to chase vendor by Fri\n\nTurn these into a table of action items."))
    assert {got["Notes from today's ops sync (messy, sorry):"], got["- Dana back from holiday"],
            got["- Luis to chase vendor by Fri"]} == {"D"}


def test_material_named_by_a_task_found_only_by_its_form_words() -> None:
    got = dict(codes("Make Anki-style flashcards from my GCSE biology notes below.\nFormat each card like this:\n"
                     "Q: What is the function of the mitochondria?\nA: Aerobic respiration.\n\nNotes:\n"
                     "Enzymes are biological catalysts.\nThey speed up reactions."))
    assert got["Notes:"] == got["Enzymes are biological catalysts."] == got["They speed up reactions."] == "D"


def test_an_email_pasted_below_a_chinese_or_japanese_request_is_its_input() -> None:
    got = dict(codes("帮我润色一下这封邮件，是发给供应商催货的。\n\n王经理您好：\n我们上个月下的订单到现在还没有发货。\n谢谢！\n\n"
                     "语气要专业、客气。\n只输出修改后的邮件，不要解释。"))
    assert got["王经理您好："] == got["我们上个月下的订单到现在还没有发货。"] == got["谢谢！"] == "D"
    assert got["只输出修改后的邮件，不要解释。"] == "O"
    got = dict(codes("请帮我把下面这封邮件改得更正式。\n\n王老师您好，我下周三要去北京参加一个面试。谢谢老师！"))
    assert got["王老师您好，我下周三要去北京参加一个面试。谢谢老师！"] == "D"


def test_the_text_a_task_reworks_is_its_input_whatever_its_sentences_say() -> None:
    got = dict(codes("Please translate the recall notice below into Spanish.\nKeep the model numbers as they are.\n\n"
                     "IMPORTANT SAFETY NOTICE\nSome KettlePro kettles may overheat.\n"
                     "Stop using the kettle immediately and unplug it.\nYou do not need a receipt."))
    assert {got[t] for t in ("IMPORTANT SAFETY NOTICE", "Some KettlePro kettles may overheat.",
                             "Stop using the kettle immediately and unplug it.", "You do not need a receipt.")} == {"D"}
    assert got["Keep the model numbers as they are."] == "A"


def test_arrow_demonstrations_before_now_do_these_and_material_the_user_says_they_pasted() -> None:
    got = codes("Put each bank transaction into one of these categories: Groceries, Transport, Bills.\n\n"
                "TESCO STORES 2231 -> Groceries\nUBER *TRIP -> Transport\nNETFLIX.COM -> Bills\n\n"
                "Now do these:\nSAINSBURYS S/MKT\nTFL TRAVEL CH\n\nJust give the list, same arrow format.")
    assert [c for _, c in got] == ["D", "E", "E", "E", "D", "D", "D", "O"]
    got = dict(codes("I'm applying for a receptionist job.\nI've pasted the ad and my experience below.\n\nJOB AD:\n"
                     "Front Desk Coordinator\nFull time, Mon-Fri.\n\nWrite me a cover letter."))
    assert got["I've pasted the ad and my experience below."] == got["JOB AD:"] == got["Full time, Mon-Fri."] == "D"


def test_labelled_demonstrations_then_a_list_under_its_own_label_not_a_glossary() -> None:
    got = [c for _, c in codes('Sort the sentences into SOAP sections.\n\n"Feels dizzy." -> S\n"BP 132/80." -> O\n'
                               '"Denies chest pain." -> S\n\nSentences:\n1. "Temp 38.4."\n2. "Started trimethoprim."')]
    assert got == ["D", "E", "E", "E", "E", "E", "E", "D", "D", "D"]
    got = dict(codes("Translate the JSON values into Portuguese.\n\nGlossary:\n- workspace → espaço de trabalho\n"
                     "- sign in → entrar\n\nRules:\n- Keep the keys."))
    assert got["- sign in → entrar"] != "E"


def test_a_compound_adjective_in_style_names_no_form() -> None:
    got = dict(codes("Add a Google-style docstring and type hints to this function.\n"
                     "Always end prompts with --ar 16:9 --style raw.\nKeep the style light."))
    assert got["Add a Google-style docstring and type hints to this function."] == "D"
    assert got["Always end prompts with --ar 16:9 --style raw."] == got["Keep the style light."] == "O"


def test_a_block_named_by_what_the_task_queries_is_consulted() -> None:
    got = dict(codes("You are ClaimLens, a BI assistant. You have worked alongside claims handlers for years.\n\n"
                     "Your job is to answer questions by querying the claims data mart.\n\nTools available to you:\n"
                     "- run_sql(query): runs a read-only query.\n\nTables in the mart:\n- claims(claim_id, status)\n"
                     "- reserves(claim_id, reserve_gbp)\n\nRules:\n- Never show claimant details.\n\n"
                     "User question: {question}"))
    assert got["Tables in the mart:"] == got["- claims(claim_id, status)"] == "A"


def test_a_query_to_convert_to_standard_sql_is_the_input() -> None:
    got = codes("Convert this SQL Server query to BigQuery Standard SQL:\n\nSELECT TOP 10 c.CustomerName,\n"
                "  ISNULL(SUM(o.Total), 0) AS Lifetime\nFROM dbo.Customers c\nGROUP BY c.CustomerName\n\n"
                "Add a comment above each line you changed.")
    assert [c for _, c in got[1:5]] == ["D"] * 4


def test_a_live_chat_ending_on_an_open_assistant_turn_is_the_input_not_demonstrations() -> None:
    got = codes("System: You are the intake assistant for a telehealth service. Ask one question at a time.\n"
                "User: hi my ear has been hurting 3 days\nAssistant: Sorry to hear that. How old are you?\n"
                "User: me, 34\nAssistant: Thanks. How bad is the pain?\nUser: like a 6\nAssistant:")
    assert got[0][1] == "R"
    assert [c for _, c in got[2:]] == ["D"] * 8
    demos = codes("Reply like a pirate.\nUser: What's the weather?\nAssistant: Arr, grey skies!\n"
                  "User: A book?\nAssistant: Treasure Island, matey!\nUser: {message}\nAssistant:")
    assert [c for _, c in demos[1:5]] == ["E"] * 4


def test_a_json_schema_with_a_nested_list_is_form_to_its_last_brace() -> None:
    got = codes('Produce one JSON object that conforms to this schema:\n\n{\n  "table": "string",\n  "columns": [\n'
                '    {"name": "string", "pii": "boolean"}\n  ],\n  "refresh": "string, e.g. \'daily\'"\n}\n\n'
                'DDL:\nCREATE TABLE t (id INT);')
    assert [c for _, c in got[1:8]] == ["O"] * 7
    got = codes('Extract the measurements as JSON.\nSchema:\n{\n"measurements": [\n'
                '{"quantity": string, "value": number}\n]\n}\nNotebook entry:\nRoom temp 21.5 C.')
    assert [c for _, c in got[2:7]] == ["O"] * 5


def test_records_the_task_checks_by_are_consulted_even_when_they_read_like_a_log() -> None:
    got = dict(codes('Fact-check the viral post below using only the fact-check records provided.\n\n'
                     'Post:\n"The council will add chemicals to the water."\n\nFact-check records:\n'
                     '[FC-2291] 12 May: Council voted to END fluoride.\n[FC-2292] 14 May: Water remains safe.\n'
                     '[FC-1985] 3 Jan: Unrelated claim, rated FALSE.\n\nLabel each claim TRUE or FALSE.'))
    assert got["Fact-check records:"] == got["[FC-2292] 14 May: Water remains safe."] == "A"
    got = dict(codes("I have a call with Jonah tomorrow. Using the email history and his bio below, write me a "
                     "briefing.\n\nBio:\nJonah leads procurement at Vantor.\n\nEmail history:\n[12 Aug] Jonah: Saw "
                     "your demo. We're reviewing tools.\n[14 Aug] Me: Thanks Jonah! What are the pain points?\n"
                     "[20 Aug] Jonah: Manual rescheduling. Budget is tight.\n\nKeep it under 300 words."))
    assert got["Email history:"] == got["[14 Aug] Me: Thanks Jonah!"] == "D"


def test_a_transcript_under_a_label_without_a_colon_is_no_few_shot_block() -> None:
    got = codes("Below is a transcript of the coach's press conference.\nPull out the two best quotes.\n\nTRANSCRIPT\n"
                "Reporter: How was it?\nCoach: Poor first half.\nReporter: Injuries?\nCoach: Tom has a knock.\n\n"
                "Format each item as:\nQuote: \"...\"\nCaption: ...")
    assert [c for _, c in got[3:7]] == ["D"] * 4


def test_the_block_under_a_line_that_says_it_was_pasted_below_is_the_input() -> None:
    got = dict(codes("I'm underwriting a property risk and I've pasted the surveyor's report below. Pull out the five "
                     "most significant risk features.\n\nSURVEY REPORT – UNIT 4, GREENFIELD ESTATE\nOccupation: food "
                     "processing, 38 staff.\nHeating: gas-fired warm air blowers.\nFire protection: no sprinklers."
                     "\n\nKeep it brief."))
    assert got["SURVEY REPORT – UNIT 4, GREENFIELD ESTATE"] == got["Heating: gas-fired warm air blowers."] == "D"


def test_numbered_entries_under_a_task_pointing_at_each_of_them_below_are_the_input() -> None:
    got = dict(codes("I just moved to Hamburg and half my inbox is in German. For each email below, give me a "
                     "two-line English summary and tell me if I need to do anything.\n\n1) Von: Jana - Betreff: "
                     "Frühstück\nHallo zusammen, am Freitag gibt es Frühstück. Bitte tragt euch ein.\n\n2) Von: "
                     "IT-Service - Betreff: Passwort\nIhr Passwort läuft in 5 Tagen ab.\n\n3) Von: Markus - Betreff: "
                     "Frage\nHi, kannst du mir das Angebot schicken? Danke!"))
    assert got["1) Von: Jana - Betreff: Frühstück"] == got["Ihr Passwort läuft in 5 Tagen ab."] == "D"
    assert got["Danke!"] == "D"


def test_a_json_schema_on_one_line_is_form_and_a_function_spec_on_one_line_is_not() -> None:
    got = dict(codes('Parse the check-in below into JSON.\n\nSchema:\n{"athlete_id": string, "sleep_hours": number, '
                     '"notes": string}\n\nCheck-in:\nSlept 5 hours.'))
    assert got["Schema:"] == got['{"athlete_id": string, "sleep_hours": number, "notes": string}'] == "O"
    spec = '{"name": "search_hotels", "description": "Find hotels", "parameters": {"city": "string", "n": "int"}}'
    got = dict(codes(f"You can call these tools:\n{spec}\nUser: {{question}}"))
    assert got[spec] == "A"


def test_a_heading_saying_what_the_artefact_must_contain_opens_its_specification() -> None:
    got = dict(codes("## Purpose\nProduce a liability assessment for the file.\n\n## What the assessment must contain\n"
                     "1. A short summary of the allegation.\n2. Key dates.\n\n## Format\nUse short paragraphs."))
    assert got["## What the assessment must contain"] == got["2. Key dates."] == "D"


def test_quoted_turns_after_a_blank_line_stay_in_the_examples_section() -> None:
    got = codes('## Tone\nBe warm and direct.\n\n## Examples of the tone we want\n\nBroker: "Any chance you can look '
                'at the renewal today?"\nReply: "Hi Sam, yes, by close of play."\n\nBroker: "Can you confirm cover?"\n'
                'Reply: "Hi Lisa, happy to."\n\n## Broker email\n{email_body}')
    assert [c for _, c in got[3:7]] == ["E"] * 4


def test_past_work_the_model_wrote_itself_is_the_examples() -> None:
    got = dict(codes('You are the voice of Dunmore Rovers on match day.\nHere are two previews you wrote earlier this '
                     'season:\nPreview 1: "Saturday, 3pm, the mud bath awaits. Up the Rovers!"\nPreview 2: "Midweek '
                     'under the lights. Up the Rovers!"\nNow write the preview for this weekend.\nFixture: Rovers v '
                     'Kilbride, Sunday 2pm.'))
    assert got["Here are two previews you wrote earlier this season:"] == "E"
    assert got['Preview 1: "Saturday, 3pm, the mud bath awaits.'] == "E"


def test_template_sections_described_in_parentheses_are_all_form() -> None:
    got = codes("## Template\nUse exactly these sections, in this order:\n### Summary\n(3-4 sentences)\n### Impact\n"
                "### Timeline\n(table: Time UTC | Event)\n### Root cause\n\n## Input\n{incident_notes}")
    assert [c for _, c in got[:8]] == ["O"] * 8


def test_rows_aligned_in_columns_with_spaces_are_pasted_data() -> None:
    got = codes("Audit these firewall rules and flag any that are overly permissive.\n\nOur standard: no \"any\" "
                "source on inbound rules.\n\nID  Src         Dst         Service   Action\n"
                "12  any         10.1.5.20   HTTPS     accept\n17  any         10.1.0.1    SSH       accept\n"
                "31  10.0.0.0/8  any         any       accept\n\nReturn a Markdown table.")
    assert [c for _, c in got[2:6]] == ["D"] * 4


def test_a_policy_a_text_is_made_from_is_its_input() -> None:
    got = dict(codes("Create a set of frequently asked questions for the travel insurance page of our website, "
                     "based on the policy summary below.\n\nPolicy summary:\n- Medical expenses up to £10 million\n"
                     "- Cancellation cover up to £5,000 per person\n\nWrite 8 to 10 questions."))
    assert got["Policy summary:"] == got["- Medical expenses up to £10 million"] == "D"
    got = dict(codes("Write a reader FAQ about the new voter ID law, based only on the bill summary below.\n"
                     "Our audience includes many older voters.\n\nBill summary (Senate Bill 214, as signed):\n"
                     "Student IDs from public universities are accepted if they show a photo.\n"
                     "Mail-in voters must include the last four digits of their Social Security number."))
    assert got["Bill summary (Senate Bill 214, as signed):"] == \
        got["Student IDs from public universities are accepted if they show a photo."] == "D"


def test_quoted_captions_under_a_sentence_asking_to_match_their_voice_are_the_examples() -> None:
    got = dict(codes('Write three Instagram captions for our beginners class. Match the voice of our previous captions:'
                     '\n\n"Fridays are for pads and bad puns. #IronFist"\n"No experience? No problem. #IronFist"\n\n'
                     'Each caption should be under 40 words.'))
    assert got['"Fridays are for pads and bad puns.'] == got['No problem.'] == "E"
    assert got["Each caption should be under 40 words."] == "O"


def test_notes_named_first_in_a_request_to_write_from_them_are_the_input_under_a_persona() -> None:
    notes = ["- Affected: OrbitOS 7.2.0 to 7.2.4 on the OR-5000 and OR-7000 routers",
             "- Bug: the web UI does not validate the session cookie on /api/backup",
             "- Fixed in 7.2.5, released today", "- Workaround: disable the management UI (`no ip http server`)",
             "- CVE-2025-31877 reserved, CVSS 8.1", "- Reported by Kim Lindqvist of NordSec; she wants to be credited"]
    got = dict(codes("You are a technical writer in the product security team at Orbital Networks.\nUsing the "
                     "engineering notes below, write a public security advisory for customers.\n\nEngineering notes:\n"
                     + "\n".join(notes) + "\n\nDo not mention the internal ticket number.\nUse the standard advisory "
                     "structure: Summary, Impact, Solution."))
    assert [got[t] for t in ["Engineering notes:", *notes]] == ["D"] * 7
    assert got["Do not mention the internal ticket number."] == "A"


def test_a_rule_that_closes_a_prompt_after_its_data_is_no_more_of_the_data() -> None:
    got = dict(codes("Using the notes below, write a short advisory.\n\nNotes:\n- Affected: 7.2.0 to 7.2.4\n"
                     "- Fixed in 7.2.5\n\nDo not mention the internal ticket number."))
    assert got["- Fixed in 7.2.5"] == "D"
    assert got["Do not mention the internal ticket number."] == "A"


def test_act_as_a_persona_described_between_commas_and_do_a_task() -> None:
    persona_and_task = "I want you to act as Jeeves, an impeccably polite English butler, and read me my agenda."
    got = dict(codes(persona_and_task + "\nKeep it to one paragraph."))
    assert got[persona_and_task] == "DR"


def test_here_it_is_introduces_the_material_the_task_named() -> None:
    got = dict(codes("Read me my agenda for the day, in character as a butler. Here it is:\n08:00 gym\n"
                     "09:30 call with the accountant\n15:00 dentist\nKeep it to one paragraph."))
    assert got["Here it is:"] == got["09:30 call with the accountant"] == "D"


def test_an_invoice_under_a_request_is_its_input() -> None:
    got = dict(codes("Work out how much we should pay on this pet insurance claim.\nVet invoice (Riverside Vets):\n"
                     "Consultation £65.00\nX-ray (2 views) £240.00\nSedation £95.00\n\nShow your working."))
    assert got["Vet invoice (Riverside Vets):"] == got["X-ray (2 views) £240.00"] == "D"


def test_a_block_the_answer_may_only_draw_on_is_consulted() -> None:
    profile = ["- SOC 2 Type II report available under NDA.", "- Data encrypted at rest with AES-256.",
               "- Production hosted in AWS eu-west-1; no data leaves the EU.", "- SSO via SAML 2.0 and SCIM.",
               "- Annual third-party penetration test.", "- RTO 4 hours, RPO 1 hour."]
    got = dict(codes("You are helping the security team answer customer security questionnaires.\nAnswer the question "
                     "using only the facts in our security profile. If the profile doesn't cover it, answer \"Not "
                     "covered\".\n\nSecurity profile:\n" + "\n".join(profile) + "\n\nQuestion: {question}\n\n"
                     "Answer in one to three sentences."))
    assert [got[t] for t in ["Security profile:", *profile]] == ["A"] * 7


def test_an_email_thread_and_a_delimited_article_to_rework_are_material() -> None:
    got = dict(codes("Summarize the following email thread for my manager.\n\nFrom: Dana\nSubject: Laptops\n\n"
                     "Dell came back with a revised quote. Can we go ahead?\n\nFrom: Omar\nSubject: Re: Laptops\n\n"
                     "Push back once more.\n\nKeep it to five sentences."))
    assert {got[t] for t in ("From: Omar", "Dell came back with a revised quote.", "Push back once more.")} == {"D"}
    assert got["Keep it to five sentences."] == "O"
    got = dict(codes("What did we decide in this thread? I keep getting lost.\n\nFrom: Olu\nTo: Events team\n"
                     "Subject: Venue\n\nTwo options: the Granary or Hollow Farm. Thoughts?\n\nFrom: Chloe\n"
                     "Hollow Farm is too small. I'd go Granary.\n\nFrom: Raj\nBudget is capped at £6,000.\n\n"
                     "From: Olu\nThey'll do £5,950. Chloe, can you send them the deposit form?\n\nFrom: Chloe\nDone."))
    assert {got[t] for t in ("From: Chloe", "I'd go Granary.", "From: Raj", "Budget is capped at £6,000.")} == {"D"}
    got = dict(codes("Rewrite the help-center article below for a non-technical customer.\n---\n"
                     "To enable the relay, navigate to Admin > Integrations.\nPopulate host and port.\n---\n"
                     "Use numbered steps."))
    assert got["Populate host and port."] == got["To enable the relay, navigate to Admin > Integrations."] == "D"
    assert got["Use numbered steps."] == "O"


def test_a_block_of_data_a_request_gives_under_a_bare_label_is_its_input() -> None:
    got = dict(codes("I'm trying to decide whether to buy a car.\nSome numbers:\nInsurance quote: $110/month.\n"
                     "I drive maybe 400 miles a month.\nWork out what the car would cost me per month."))
    assert got["Some numbers:"] == got["Insurance quote: $110/month."] == got["I drive maybe 400 miles a month."] == "D"
    got = dict(codes("Which of these two credit cards would earn me more rewards in a year?\nShow the math.\n"
                     "My typical monthly spending:\nGroceries $650\nDining $300\nCard terms:\n"
                     "Card A: 3% groceries, $95 annual fee\nCard B: 2% on everything, no annual fee"))
    assert got["My typical monthly spending:"] == got["Groceries $650"] == got["Dining $300"] == "D"
    got = dict(codes("help me write a complaint to the telecoms ombudsman. ive been going back and forth for 2 months\n"
                     "what happened:\n- 2 April: internet stopped working\n- 28 April: fixed\n"
                     "i want a refund for the days without service."))
    assert got["what happened:"] == got["- 2 April: internet stopped working"] == got["- 28 April: fixed"] == "D"
    # the facts a persona's system prompt gives are consulted
    got = dict(codes("You are Max, the assistant of a bike shop.\nShop details:\n- Open 9-5 on weekdays.\n"
                     "- Repairs take two days.\nAnswer the customer politely."))
    assert got["Shop details:"] == got["- Repairs take two days."] == "A"
    notes = ["- they run 40 trucks, planning to double by 2026", "- wants a pilot with 2 depots"]
    got = dict(codes("Draft a follow-up email to Dana after yesterday's demo.\nMy notes from the call:\n" +
                     "\n".join(notes) + "\nTimeline (UTC):\n08:41 deploy starts\n08:47 error rate rises"))
    assert [got[n] for n in ["My notes from the call:", *notes, "Timeline (UTC):", "08:41 deploy starts"]] == ["D"] * 5
    got = dict(codes("Draft a memo to the Board recommending that we refinance.\nFacts to use:\n"
                     "- Current loan: €60m at Euribor + 3.25%\n- Annual interest saving is about €510k"))
    assert got["Facts to use:"] == got["- Annual interest saving is about €510k"] == "D"  # "facts", not "use"
    got = dict(codes("Can you help with our wedding seating plan?\nGuest list:\nUni friends (8): Priya, Joe, Lena\n"
                     "Work friends (6): Aisha, Greg, Rosa"))
    assert got["Guest list:"] == got["Work friends (6): Aisha, Greg, Rosa"] == "D"
    got = dict(codes("Task: classify each tweet into one of the stance labels below.\nLabels:\nPRO: supports vaccines\n"
                     "ANTI: opposes vaccines\nNotes:\n- Sarcasm counts as the stance it implies.\n"
                     "- A retweet takes the stance of the original.\nOutput a JSON list.\nTweets:\n{tweets}"))
    assert got["Notes:"] == got["- Sarcasm counts as the stance it implies."] == "A"  # on the task, nobody's notes


def test_a_situation_typed_on_into_a_question_without_its_mark_is_background_and_task() -> None:
    got = dict(codes("my sourdough keeps coming out dense.\n\nstarter doubles in like 8 hours. what am i doing wrong"))
    assert got["starter doubles in like 8 hours. what am i doing wrong"] == "AD"


def test_a_heading_in_the_plural_is_not_a_section_on_the_answers_form() -> None:
    got = dict(codes("# Answers\n1. fewer meetings on tuesdays\n2. Clearer promotion criteria.\n\n# Format\n"
                     "Markdown list, largest theme first."))
    assert got["# Answers"] != "O" and got["2. Clearer promotion criteria."] != "O"
    assert got["# Format"] == "O"


def test_a_field_whose_key_is_a_verb_is_no_imperative() -> None:
    got = dict(codes("You are the support assistant for Telco.\n\n# Customer context\nPlan: {plan_name}\n"
                     "Name: {first_name} {last_name}\n\nPlan a fix with the customer."))
    assert got["Plan: {plan_name}"] == got["Name: {first_name} {last_name}"] == "A"
    assert got["Plan a fix with the customer."] == "D"


def test_a_verb_that_is_no_noun_opens_an_instruction_whatever_its_object() -> None:
    for text in ("Praise effort, not talent.", "Mention percentages, not just absolute numbers.",
                 "Simplify sentence structure and add sentence starters.", "Acknowledge Mrs Hale's concern."):
        assert cues_of(text) == {Component.DIRECTIVE}, text
    assert is_imperative("Praise effort, not talent.") and not is_imperative("Critique sessions run on Fridays.")


def test_swedish_polish_indonesian_turkish_and_russian_task_persona_and_form() -> None:
    cases = {"Sammanfatta rapporten nedan för kommunens invånare.": "D", "Przetłumacz moje CV na angielski.": "D",
             "Tolong bikinin jadwal belajar mingguan yang realistis ya.": "D", "Bu metni özetle.": "D",
             "Напиши короткое письмо клиенту.": "D", "Du är en hjälpsam assistent för kundtjänst.": "R",
             "Jesteś doświadczonym doradcą finansowym.": "R", "Ты — опытный редактор.": "R",
             "Pakai bahasa Indonesia yang santai aja.": "O"}
    for text, code in cases.items():
        assert label_code(cues_of(text)) == code, text
    # English words that look like theirs do not switch languages
    assert label_code(cues_of("Answer: Chmp1 regulates signalling through its role in MVB formation.")) != "O"


def test_precision_units_register_and_plain_words_are_the_answers_form() -> None:
    for text in ("Report the answer to four significant figures.", "Put your final answer within \\boxed{}.",
                 "Use SI units throughout.", "Use dots as decimal separators.", 'Use formal "usted" throughout.',
                 "Use really simple words, she's 84."):
        assert label_code(cues_of(text)) == "O", text
    assert label_code(cues_of("Amounts may use a comma as the decimal separator.")) != "O"  # a fact of the input
    assert label_code(cues_of("Answer entailment, contradiction or neutral.")) == "O"


def test_a_title_naming_the_assistant_and_portuguese_personas_are_the_role() -> None:
    got = dict(codes("# Nurse Line Assistant — Halden Health\n\nYou do not diagnose conditions.\n"
                     "You help callers decide where to get care."))
    assert got["# Nurse Line Assistant — Halden Health"] == "R"
    assert got["You do not diagnose conditions."] == "A"  # the title opens no section of persona
    for text in ("Você é a Bia, assistente virtual do Banco Aurora.", "Você é redator do site da Prefeitura."):
        assert label_code(cues_of(text)) == "R", text


def test_csv_rows_under_a_file_name_and_material_introduced_mid_sentence() -> None:
    got = dict(codes("Reconcile the bank statement against the ledger export below.\nbank_statement.csv\n"
                     "date,description,amount\n2024-03-01,STRIPE PAYOUT,1840.50\n2024-03-04,AWS EMEA,-312.19\n"
                     "Present the result as a markdown table."))
    assert got["bank_statement.csv"] == got["date,description,amount"] == got["2024-03-04,AWS EMEA,-312.19"] == "D"
    got = dict(codes("our checkout pods keep restarting, here's what i see:\n$ kubectl get pods\n"
                     "checkout-7d9f8c6b5-2xkqp   0/1   CrashLoopBackOff\nWhat's going on?"))
    assert got["our checkout pods keep restarting, here's what i see:"] == "D"


def test_a_pasted_record_with_figures_in_a_request_is_its_input() -> None:
    got = dict(codes("my mortgage payment is going up and the letter says escrow shortage. what does that mean?\n"
                     "This is from the letter:\nCounty property tax: $5,842.00\nHomeowners insurance: $2,390.00\n"
                     "Total: $8,232.00"))
    assert {got[t] for t in ("This is from the letter:", "County property tax: $5,842.00", "Total: $8,232.00")} == {"D"}
    # definitions without figures, and a product's information the answer is drawn from, are consulted
    got = dict(codes("Product information:\nName: Aeris 2\nCoverage: rooms up to 45 m²\nNoise: 22 dB on sleep mode\n"
                     "Power: 4 W (sleep) to 38 W (max)\nCustomer question: \"will this help?\"\n"
                     "Answer the customer's question using only the product information above."))
    assert got["Noise: 22 dB on sleep mode"] == "A"


def test_what_a_document_says_introduces_the_material() -> None:
    for text in ("The form asks:", "Nella bolletta c'è scritto:", "The school psychologist's summary says:"):
        assert label_code(cues_of(text)) == "D", text
    assert label_code(cues_of("The policy says:")) == "A"  # what is consulted


def test_a_line_in_capitals_heads_a_pasted_document_in_a_request() -> None:
    got = dict(codes("I got this letter and I dont understand if I have to pay.\n\nPENALTY CHARGE NOTICE\n"
                     "Vehicle registration: LK19 XRT\nThe penalty charge is £70.\n\nDo I have to pay it?"))
    assert got["PENALTY CHARGE NOTICE"] == got["The penalty charge is £70."] == "D"
    # category definitions in capitals are consulted
    got = dict(codes("Classify the ticket.\n- BILLING: charges, invoices, refunds\n- OTHER: anything else\n"
                     "Ticket: {ticket}"))
    assert got["- BILLING: charges, invoices, refunds"] == "A"


def test_material_introduced_or_reworked_in_other_languages() -> None:
    got = dict(codes("Oi, pode revisar o resumo do meu TCC?\nSegue o texto:\nEste trabalho analisa o home office.\n"
                     "Foram aplicados questionários a 84 colaboradores."))
    assert got["Segue o texto:"] == got["Foram aplicados questionários a 84 colaboradores."] == "D"
    got = dict(codes("Sammanfatta rapporten nedan för kommunens invånare.\n\nRapport: Kollektivtrafiken 2024\n"
                     "Antalet resor med buss ökade med 8 procent.\nKommunen planerar fler bussfiler."))
    assert got["Kommunen planerar fler bussfiler."] == "D"


def test_more_form_instructions_of_the_answer() -> None:
    got = dict(codes("Compute Cohen's kappa from the counts below.\n"
                     "Show the calculation step by step and then give the final kappa rounded to two decimals.\n"
                     "Use double quotes around any field that contains a comma.\nLimit it to 8 questions.\n"
                     "Lead with the answer, then add at most three notes.\nKeep the original order."))
    for text in ("Show the calculation step by step and then give the final kappa rounded to two decimals.",
                 "Use double quotes around any field that contains a comma.", "Limit it to 8 questions.",
                 "Lead with the answer, then add at most three notes.", "Keep the original order."):
        assert got[text] == "O", text
    text = "You have helped hundreds of engineers move to Germany, and you know German bureaucracy well."
    assert codes(text) == [(text, "R")]

def test_a_one_word_why_after_pasted_material_is_the_users_question() -> None:
    got = codes("backup.log says:\n```\nerror: permission denied\n```\nWhy?")
    assert got[-1] == ("Why?", "D")
    assert dict(codes("You are a physics tutor. Why do stars twinkle at night? Because air bends their light."))[
        "Why do stars twinkle at night?"] == "D"


def test_a_request_for_a_number_of_new_ones_or_for_names_is_the_task() -> None:
    got = dict(codes("Here are three knock-knock jokes we love.\nI need 5 new ones, all food-themed."))
    assert got["I need 5 new ones, all food-themed."] == "D"
    got = dict(codes("Our bakery opens in May.\nWe need slogans for a flyer."))
    assert got["We need slogans for a flyer."] == "D"


def test_examples_introduced_to_show_the_idea_end_at_a_prohibition_after_a_blank_line() -> None:
    got = codes("Write five two-sentence horror stories.\n\nHere are two I wrote, so you get the idea:\n"
                "1. I heard my mom calling me.\n2. I live alone.\n\nNo gore, please; I want creepy, not gross.")
    assert [c for _, c in got][1:] == ["E", "E", "E", "A"]
    got = codes("We need slogans for a gym flyer.\nHere are a few we already like, to show the vibe:\n"
                "- \"Grey hair, quick hands.\"\n\nHere's the kind of entry I mean:\n| d12 | Item |")
    assert [c for _, c in got][1:] == ["E", "E", "E", "E"]


def test_two_column_and_semicolon_csv_rows_a_request_pastes_are_its_input() -> None:
    rows = ["date,signups", "2025-05-01,412", "2025-05-02,398", "2025-05-03,221"]
    got = dict(codes("daily signups for the last days, pasted from our metrics db:\n\n" + "\n".join(rows) +
                     "\n\nwhich days look like real anomalies?"))
    assert [got[r] for r in rows] == ["D"] * 4
    rows = ["kunden_id;name;plz;umsatz", "1001;Müller GmbH;80331;12.450,00", "1002;  Schmidt & Söhne ;1067;"]
    got = dict(codes("Bereinige die folgende CSV-Datei aus unserem CRM-Export:\n\n" + "\n".join(rows) +
                     "\n\nEntferne doppelte Zeilen."))
    assert [got[r] for r in rows] == ["D"] * 3
    rubric = [f"{k}: 4 = clear; 3 = mostly clear, one slip; 2 = unclear" for k in ("Argument", "Language", "Form")]
    assert material_lines(rubric, [True] * 3) == set()  # a rubric's prose with semicolons is no pasted row


def test_a_task_to_reply_to_what_follows_is_no_heading_of_the_answers_form() -> None:
    tweet = '"my records arrive WARPED, cancelling"'
    got = dict(codes(f"You run our support account.\nReply to this tweet:\n\n{tweet}\n\nUnder 280 characters.\n"
                     "Use this format:\nThought: …"))
    assert got["Reply to this tweet:"] == got[tweet] == "D"
    assert got["Use this format:"] == got["Thought: …"] == "O"


def test_a_draft_answer_under_its_label_is_the_material_checked() -> None:
    got = dict(codes("Check the draft reply below against our policy.\n\nPolicy:\n- Refunds go to the original card."
                     "\n\nDraft reply:\nHi Marco, so sorry about the mix-up!\nI have refunded you by bank transfer.\n"
                     "Cheers, Lena\n\nList every problem as a bullet."))
    assert got["Draft reply:"] == got["I have refunded you by bank transfer."] == got["Cheers, Lena"] == "D"


def test_a_form_with_new_content_in_a_second_clause_is_task_and_form() -> None:
    got = dict(codes("I want to build a bench and need a cut list.\nBench should be 150cm long.\n"
                     "Give me the cut list as a table and tell me how many boards to buy.\nKeep it short."))
    assert got["Give me the cut list as a table and tell me how many boards to buy."] == "DO"
    assert got["Keep it short."] == "O"


def test_the_profile_of_the_person_served_is_background() -> None:
    got = dict(codes("You are Stride, a friendly running coach.\nHelp the user plan their week.\n\nUser profile:\n"
                     "goal_race: {goal_race}\ninjuries: {injury_notes}"))
    assert got["User profile:"] == got["goal_race: {goal_race}"] == got["injuries: {injury_notes}"] == "A"
    got = dict(codes("Here's the function attached to the user profile: `getVisiblePackages`. Why is it slow?"))
    assert "A" not in got["Here's the function attached to the user profile: `getVisiblePackages`."]


def test_demonstrations_under_more_keys_than_the_query_below_a_keyed_instruction() -> None:
    demos = ["Recipe: Scrambled eggs", "Difficulty: Easy", "Recipe: Croissants", "Difficulty: Hard"]
    got = dict(codes("Rate how hard each recipe is.\nOutput one word: Easy, Medium or Hard.\n\n" + "\n\n".join(
        "\n".join(demos[i:i + 2]) for i in (0, 2)) + "\n\nRecipe: {recipe_name}"))
    assert [got[d] for d in demos] == ["E"] * 4
    assert got["Recipe: {recipe_name}"] == "D" and got["Output one word: Easy, Medium or Hard."] == "O"


def test_announced_notes_listed_under_labels_of_their_own_are_the_input() -> None:
    block = ["Went well:", "- pairing on the billing bug", "- new PR template helps", "Didn't go well:",
             "- too many meetings", "- staging down for 2 days"]
    got = dict(codes("These are the sticky notes from our sprint retro.\nGroup them into themes.\n" + "\n".join(block) +
                     "\nMarkdown, with a heading per theme."))
    assert [got[b] for b in block] == ["D"] * 6
    assert got["These are the sticky notes from our sprint retro."] == "D"


def test_the_candidates_a_judge_compares_are_material_not_the_answers_form() -> None:
    got = dict(codes("Decide which reply is better for the customer.\n[CUSTOMER]\nis my parcel gone??\n[REPLY A]\nHi!\n"
                     "It was sent back to us.\n[REPLY B]\nWe apologise for any inconvenience caused.\n"
                     "Answer with \"A\" or \"B\"."))
    assert got["[REPLY A]"] == got["It was sent back to us."] == "D"
    assert got["We apologise for any inconvenience caused."] == "D"
    assert INPUT_LABEL.match("Response 2:") and not INPUT_LABEL.match("Reply:")


def test_a_question_after_the_users_situation_and_a_pasted_dockerfile() -> None:
    docker = ["FROM python:3.12", "WORKDIR /app", "RUN pip install -r requirements.txt", 'CMD ["gunicorn", "app.wsgi"]']
    got = dict(codes("our image is 1.9GB and deploys take forever, how do i get this Dockerfile smaller?\n" +
                     "\n".join(docker) + "\nwe need libpq at runtime for psycopg"))
    assert got["our image is 1.9GB and deploys take forever, how do i get this Dockerfile smaller?"] == "D"
    assert [got[d] for d in docker] == ["D"] * 4 and got["we need libpq at runtime for psycopg"] == "A"


def test_a_git_log_and_a_task_after_the_users_situation_in_one_sentence() -> None:
    log = ["a91f2c3 feat(cli): add --dry-run flag", "77be410 fix: handle empty config file", "e4410bf docs: fix typo"]
    got = dict(codes("turn this git log into a changelog entry\n" + "\n".join(log) + "\ngroup under Added / Fixed"))
    assert [got[c] for c in log] == ["D"] * 3
    got = dict(codes("squashing these before merge, write one commit msg that covers all of them\n- wip\n- lint"))
    assert got["squashing these before merge, write one commit msg that covers all of them"] == "D"
    text = "If the fix does not work within two attempts, create a ticket with the right category."
    assert dict(codes("You are the IT helpdesk bot.\n" + text))[text] == "A"  # a condition, not the request
    assert Component.OUTPUT_FORMATTING not in cues_of("the profile output below shows where the time goes")


def test_the_text_to_rework_is_the_paragraph_after_the_task_when_notes_close_the_prompt() -> None:
    letter = ["To whoever is in charge at Northway Water,", "This is the FOURTH time I am writing.",
              "You have charged me for a meter that is NOT MY PROPERTY.", "Sort it out or I am going to the ombudsman."]
    got = dict(codes("rewrite this so its polite but firm\n\n" + letter[0] + "\n" + " ".join(letter[1:]) +
                     "\nLaura Brennan (account 40018826)\n\ni do want to go to the "
                     "ombudsman if they dont fix it\nkeep the facts\ndont make it longer than mine"))
    assert [got[m] for m in letter] == ["D"] * 4
    got = dict(codes("Rewrite this passage in plain language.\n\n## Rules\n- Do not add new advice.\n"
                     "- Keep doses exact.\n- Put anything urgent first.\n\nPassage: {passage}"))
    assert got["## Rules"] == got["- Do not add new advice."] == "A"  # a section of the prompt, not the text


def test_a_markdown_heading_worded_as_the_task_opens_a_task_section() -> None:
    got = dict(codes("## Setting\nSellers contact support through this chat.\n\n## Help the seller with\n"
                     "- listing problems\n- payouts\n\n# Escalate to a human when:\n"
                     "- the question involves harassment"))
    assert got["## Help the seller with"] == got["- listing problems"] == got["- payouts"] == "D"
    assert got["- the question involves harassment"] == "A"


def test_figures_a_user_has_got_and_a_package_managers_errors_are_material() -> None:
    rows = ["rent received: £10,200", "letting agent fees: £1,224", "mortgage interest: £4,100"]
    got = dict(codes("hi, doing my self assessment for the first time\n"
                     "I rent out my old flat, here's what I've got:\n" + "\n".join(rows) +
                     "\nwhich of these can I deduct?"))
    assert [got[r] for r in rows] == ["D"] * 3
    log = ["npm ERR! code ERESOLVE", "npm ERR! Found: react@18.2.0", "npm ERR! peer react@17 from dnd@13.1.1"]
    assert material_lines(["why does this fail?", *log], [True, False, False, False]) == {1, 2, 3}


def test_a_rubric_table_and_guidelines_a_task_checks_against_are_consulted() -> None:
    rows = ["| Criterion | 4 - Exceeds | 1 - Beginning |", "|---|---|---|", "| Claim | Precise claim | No claim |"]
    got = dict(codes("Give feedback on my student's essay using the rubric below.\nRUBRIC (10th grade essay)\n" +
                     "\n".join(rows) + "\nESSAY:\nPhones should be banned."))
    assert [got[r] for r in rows] == ["A"] * 3 and got["Phones should be banned."] == "D"
    got = dict(codes("Review the item below for flaws.\nCheck it against these item-writing guidelines:\n"
                     "1. The stem poses a complete question.\n2. Exactly one option is correct.\n"
                     "Item:\nWhich is renewable?"))
    assert got["1. The stem poses a complete question."] == got["2. Exactly one option is correct."] == "A"


def test_a_statements_lines_aligned_by_spaces_are_rows_not_instructions() -> None:
    rows = ["Net sales                             $ 284,113", "Gross profit                             92,473",
            "Research and development                 (9,877)", "Net income                            $  14,049"]
    assert material_lines(rows, [False, False, True, False]) == {0, 1, 2, 3}
    got = dict(codes("Convert the income statement below into JSON.\nOutput the JSON only.\n\n" + "\n".join(rows)))
    assert [got[r] for r in rows] == ["D"] * 4


def test_csv_rows_whose_quoted_cells_hold_commas_are_rows() -> None:
    rows = ["rating,date,text", '2,2024-05-03,"late, and nobody told me"', '5,2024-05-03,"great quality, fast!!"',
            '1,2024-05-05,"refund STILL not processed"']
    assert material_lines(rows, [False] * 4) == {0, 1, 2, 3}
    got = dict(codes("Pull out the top complaint themes.\nIgnore reviews about price.\n" + "\n".join(rows)))
    assert [got[r] for r in rows] == ["D"] * 4


def test_the_list_after_a_sentence_announcing_the_answers_or_reviews_given_is_the_input() -> None:
    items = ["1. exports to excel break the formatting every time", "2. Dashboards take forever to load",
             "3. I can never find the report I built last month"]
    got = dict(codes("Below are 3 open-ended answers to our survey. Group them into themes.\n\n" + "\n".join(items) +
                     "\n\nPresent the themes as a numbered list."))
    assert [got[i] for i in items] == ["D"] * 3
    reviews = ['1. "Great cushioning but they squeak."', '2. "Best arch support for the price."']
    got = dict(codes("Below are 2 customer reviews of our insole. Count the complaints.\nReviews:\n" +
                     "\n".join(reviews)))
    assert [got[r] for r in ["Reviews:", *reviews]] == ["D"] * 3
    answers = ["- the mobile app logs me out constantly", "- Export to Excel pls", "- Would love dark mode"]
    got = dict(codes("You are a UX researcher.\nBelow are open-text answers from our NPS survey.\n"
                     "Cluster them into themes.\n\nresponses:\n" + "\n".join(answers)))
    assert [got[a] for a in ["responses:", *answers]] == ["D"] * 4  # given to work through, persona or not
    comments = ['1. "Fewer meetings on Mondays."', '2. "Clearer career paths."', '3. "Better chairs."']
    got = dict(codes("These are the free-text answers from our engagement survey.\n" + "\n".join(comments) +
                     "\nGroup the comments into themes."))
    assert [got[c] for c in comments] == ["D"] * 3
    notes = ["- party arrived in Greywater, town half-flooded", "- met Sister Ilse at the drowned chapel"]
    got = dict(codes("i DM a weekly D&D game.\nCan you write a recap from my notes from last week?\n"
                     "Make it sound like an old fantasy narrator.\n" + "\n".join(notes)))
    assert [got[n] for n in notes] == ["D"] * 2  # the task names what it works from, and the list follows
    criteria = ["1. Correctness: claims must be accurate.", "2. Concision: shorter is better."]
    got = dict(codes("You are an impartial judge.\nCompare the two responses below and decide which is better.\n"
                     "Judge on these criteria:\n" + "\n".join(criteria) + "\n[Response A]\n{a}\n[Response B]\n{b}"))
    assert [got[c] for c in criteria] == ["A"] * 2  # what the list under the task is named for: consulted
    rules = ["- Never promise refunds.", "- Escalate legal threats."]
    got = dict(codes("You are a support agent.\nHere are the rules you follow:\n" + "\n".join(rules)))
    assert [got[r] for r in rules] == ["A"] * 2


def test_questions_and_product_features_a_request_gives_under_their_label_are_its_input() -> None:
    qs = ["- does it work with alexa??", "- can i use it without wifi", "- what's the warranty"]
    prompt = ("Below are 3 questions customers sent to our support inbox about the lamp.\n"
              "Write an FAQ answering them.\nQuestions:\n" + "\n".join(qs))
    got = dict(codes(prompt))
    assert [got[t] for t in [prompt.splitlines()[0], "Questions:", *qs]] == ["D"] * 5
    feats = ["Mitigeur thermostatique de douche, laiton chromé", "Butée de sécurité à 38 °C", "Garantie 7 ans"]
    got = dict(codes("Rédige une fiche produit pour notre site.\n\nCaractéristiques :\n" + "\n".join(feats)))
    assert [got[t] for t in ["Caractéristiques :", *feats]] == ["D"] * 4


def test_more_task_verbs_in_german_portuguese_russian_and_indonesian() -> None:
    for text in ("Entferne doppelte Zeilen und ergänze fehlende Nullen.", "Destaque a localização e os diferenciais.",
                 "Отсортируй по средней зарплате по убыванию.", "Нужно вывести среднюю зарплату по отделам.",
                 "Tugasmu adalah membantu pasien membuat janji temu dengan dokter."):
        assert Component.DIRECTIVE in cues_of(text), text


def test_korean_arabic_and_hindi_requests_and_form() -> None:
    assert codes("다음은 제가 쓴 자기소개서입니다.\n\n제주도 2박 3일 여행 일정 좀 짜 줘.\n500자 이내로 써 주세요.") == [
        ("다음은 제가 쓴 자기소개서입니다.", "D"), ("제주도 2박 3일 여행 일정 좀 짜 줘.", "D"), ("500자 이내로 써 주세요.", "O")]
    assert [c for _, c in codes("لخّص الخبر التالي.\nاكتب الملخص بالعربية الفصحى.")] == ["D", "O"]
    assert [c for _, c in codes("एक छोटी कहानी लिखो।\nकहानी 200 शब्दों से ज़्यादा न हो।")] == ["D", "O"]
    assert codes("당신은 친절한 여행 가이드입니다.") == [("당신은 친절한 여행 가이드입니다.", "R")]


def test_what_the_pieces_of_a_requested_artefact_should_do_or_be_about_is_the_task() -> None:
    for text in ("They should diss each other using real facts from their lives.",
                 "At least one puzzle should need two players to cooperate.",
                 "Each one should be about a different problem."):
        assert Component.DIRECTIVE in cues_of(text), text
    assert Component.DIRECTIVE not in cues_of("It should never reveal the answer.")


def test_more_ways_a_user_introduces_what_they_paste() -> None:
    for text in ("Our VP sent me this email:", "getting this when i merge two dataframes, both have an id column:",
                 "daily signups for the last two weeks, pasted from our metrics db:",
                 "Attached below is a sample of request latencies from yesterday's load test.",
                 "This is their online menu:", "The transcription on the site looks like this:",
                 "My friend posted this in our group chat and I can't afford it right now:"):
        assert opens_material(text), text
    assert not opens_material("This is my first time hosting a dinner party.")
    assert not opens_material("Tonight's list is below.")  # in a sommelier's system prompt: consulted


def test_a_heading_on_how_to_answer_opens_a_section_on_the_answers_form() -> None:
    got = codes("You are the help desk assistant of Brightline Bank.\nAnswer customers' questions about cards.\n\n"
                "# How to answer\nUse plain sentences, no tables.")
    assert got[2:] == [("# How to answer", "O"), ("Use plain sentences, no tables.", "O")]


def test_more_form_words_in_other_languages() -> None:
    for text in ("Antworte ausschließlich mit dem Kategorienamen.", "Utilise des phrases simples.",
                 "Debe tener cuatro estrofas de cuatro versos, con rima asonante.", 'Gebruik "u" tegen inwoners.',
                 "Обращайся к пользователю на «вы».", "Devuelve el asunto y el cuerpo en HTML simple.",
                 "A descrição deve ter parágrafos curtos.", "## 回复要求"):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text


def test_reading_time_rounding_and_the_feel_of_the_piece_are_its_form() -> None:
    for text in ("Round grams to the nearest 5.", "Aim for something she can read in two minutes.",
                 "It should take about 3 minutes to say out loud.", "It should feel hopeful, not mopey."):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text
    assert Component.OUTPUT_FORMATTING not in cues_of("A brief is read in about five minutes, so density matters.")


def test_i_would_like_contracted_is_a_request() -> None:
    text = "I'd like a villanelle about my grandmother's kitchen, which was sold last spring."
    assert Component.DIRECTIVE in cues_of(text)


def test_a_character_or_identity_label_is_the_role_and_does_not_recurse_forever() -> None:
    assert codes("Character: Marta, a tavern keeper.\nIdentity: a helpful bot.") == [
        ("Character: Marta, a tavern keeper.", "R"), ("Identity: a helpful bot.", "R")]
    assert codes("Role: Senior UX researcher\nTask: summarise the interview notes.")[0] == (
        "Role: Senior UX researcher", "R")


def test_an_unfenced_snippet_is_read_with_its_indentation() -> None:
    code = ["def total(items):", "result = 0", "for item in items:", "result = item.price", "return result"]
    got = codes("My function returns the wrong total and I cannot see why:\ndef total(items):\n    result = 0\n"
                "    for item in items:\n        result = item.price\n    return result\nWhat is wrong?")
    assert dict(got)["What is wrong?"] == "D" and [dict(got)[c] for c in code] == ["D"] * 5


def test_config_code_and_logs_a_user_pastes_without_a_fence_are_the_tasks_input() -> None:
    yaml = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", "name: checkout", "spec:", "replicas: 1"]
    got = dict(codes("Please review this Kubernetes Deployment before I apply it.\n\napiVersion: apps/v1\n"
                     "kind: Deployment\nmetadata:\n  name: checkout\nspec:\n  replicas: 1\n\n"
                     "The service handles about 300 requests per second at peak.\n"
                     "Point out anything that would cause trouble."))
    assert [got[t] for t in yaml] == ["D"] * 6
    assert got["The service handles about 300 requests per second at peak."] == "A"
    log = ["api-1  | Error: connect ECONNREFUSED 127.0.0.1:5432", "api-1  |     at TCPConnectWrapper.afterConnect",
           "api-1 exited with code 1"]
    got = dict(codes("docker compose up fails for the api service, db starts fine. log:\n" + "\n".join(log) +
                     "\nwhat am I missing?"))
    assert [got[t] for t in log] == ["D"] * 3
    schema = ["CREATE TABLE orders (id BIGINT PRIMARY KEY, total_cents INT);", "CREATE TABLE refunds (order_id BIGINT);",
              "CREATE TABLE customers (id BIGINT, country TEXT);"]
    got = dict(codes("Write a SQL query for the question below.\nSchema:\n" + "\n".join(schema) +
                     "\nQuestion: {question}"))
    assert [got[t] for t in schema] == ["A"] * 3  # a schema is consulted


def test_a_pasted_crash_and_its_code_are_the_input_but_the_users_own_lines_around_them_are_not() -> None:
    got = dict(codes("app crashes on launch on iOS 17 only, works on 16.\n\nFatal error: Unexpectedly found nil\n"
                     "at ProfileViewController.swift line 23\n\n    override func viewDidLoad() {\n"
                     "        super.viewDidLoad()\n    }\n\nany ideas?"))
    for line in ("Fatal error: Unexpectedly found nil", "at ProfileViewController.swift line 23",
                 "override func viewDidLoad() {", "super.viewDidLoad()", "}"):
        assert got[line] == "D", line
    got = dict(codes("Review this week's meal plan for my dad.\nHe's 67 and takes metformin.\n"
                     "| Day | Breakfast |\n|-----|-----------|\n| Mon | Cornflakes |\nI can put about $500 toward it.\n"
                     "What should he change first?"))
    assert got["He's 67 and takes metformin."] == got["I can put about $500 toward it."] == "A"


def test_a_draft_or_an_introduction_a_request_gives_under_its_label_is_the_input() -> None:
    draft = ["In this study we found that mice lacking Trpv4 showed reduced anxiety.",
             "This is consistent with previous work."]
    got = dict(codes("Critique the discussion section of my paper.\nMy draft:\n" + "\n".join(draft)))
    assert [got[t] for t in ["My draft:", *draft]] == ["D"] * 3


def test_a_template_label_opens_the_answers_form() -> None:
    got = codes("Write a postmortem for the outage described below.\nTemplate:\n## Summary\n## Impact\n## Root cause")
    assert [c for _, c in got][1:] == ["O"] * 4


def test_a_pasted_letter_may_greet_with_a_title() -> None:
    got = dict(codes("Can you make this email to my supervisor sound more professional?\n\nHi Prof. Alvarez,\n"
                     "I can't make Thursday because of the training.\nThanks,\nPriya\n\nKeep it short."))
    assert [got[t] for t in ("Hi Prof. Alvarez,", "I can't make Thursday because of the training.", "Thanks,",
                             "Priya")] == ["D"] * 4


def test_a_heading_on_what_to_look_for_opens_the_task() -> None:
    got = codes("You review pull requests for a payments team.\n\n# What to look for\n"
                "1. Correctness bugs, including off-by-one errors.\n2. Missing or weakened tests.")
    assert [c for _, c in got][1:] == ["D"] * 3


def test_pasted_code_reads_calls_and_block_ends() -> None:
    code = ["defmodule RateLimiter do", "use GenServer", "def init(limit) do", "{:ok, limit}", "end", "end"]
    got = codes("Why does this GenServer never reset its counts?\n\n" + "\n".join(code))
    assert [c for _, c in got] == ["D"] * 7


def test_use_keep_and_avoid_in_other_languages_are_no_task_verbs() -> None:
    for text in ("Vermeide Fragen, die nur mit Ja oder Nein beantwortet werden können.",
                 "Conserve les noms propres tels quels.", "Gebruik alleen de informatie uit de kennisbank hieronder."):
        assert Component.DIRECTIVE not in cues_of(text), text  # rules, as "Avoid …" and "Keep …" are in English
    assert Component.DIRECTIVE not in cues_of("Structure-le en trois parties : contexte, points clés, étapes.")


def test_more_task_verbs_and_wishes_in_other_languages() -> None:
    for text in ("Settle an argument for us.", "J'aimerais un menu complet (entrée, plat, dessert).",
                 "Ich möchte eine Frist von 3 Tagen setzen.", "Me gustaría un plan de ahorro para el verano.",
                 "Réécris les lignes suivantes de mon CV.", "Suggeriscimi anche dove dormire, niente di troppo caro.",
                 "Al final añade la lista de la compra agrupada por sección.", "Alla fine, riscrivi la ricetta.",
                 "Per ogni vino indica un abbinamento con un piatto tipico.", "Für jeden Punkt schreibe einen Satz.",
                 "Lee la reseña y clasifica cada aspecto mencionado.", "Setze eine neue Zahlungsfrist von 10 Tagen.",
                 "Entschuldige dich für die Verzögerung.", "Cria três legendas para o Instagram do meu salão.",
                 "Zorg dat er ook vragen voor de kinderen zijn.", "Mets en évidence la durée du contrat."):
        assert Component.DIRECTIVE in cues_of(text), text


def test_i_need_or_want_a_number_or_plural_things_for_a_purpose_is_a_request() -> None:
    for text in ("I want 3–4 activities that don't need much setup plus a simple schedule.",
                 "I need swaps for gym exercises I can do at home with a pair of dumbbells."):
        assert Component.DIRECTIVE in cues_of(text), text
    for text in ("I'm applying for the job below and need a cover letter.",  # after what the user says of themselves
                 "I'm the best man at my brother Dev's wedding next month and I need a toast."):
        assert cues_of(text) == {Component.DIRECTIVE}, text
    assert cues_of("All API calls use the base URL https://api.example/v3 and need a Bearer token.") != \
        {Component.DIRECTIVE}  # no one asks


def test_a_persona_whose_name_starts_like_an_excluded_word_or_after_a_lead_in_is_the_role() -> None:
    for text in ("You are the text-message assistant for Valley Electric Cooperative.",
                 "You are a copy-editor at Harrowgate University Press.", "You are PawPantry's checkout recommender.",
                 "From now on you're Captain Saltbeard, a grumpy old pirate who secretly loves poetry.",
                 "For the next few messages you are Baron Von Crumb, a pompous villain.",
                 "Du bist wissenschaftliche Hilfskraft am Lehrstuhl für Bildungsforschung.",
                 "Tu es assistant·e du service client d'une mutuelle santé."):
        assert cues_of(text) == {Component.ROLE}, text
    assert Component.ROLE not in cues_of("You are a list of rules.")


def test_a_persona_named_with_a_nickname_or_several_capitalised_words_is_the_role() -> None:
    for text in ('You are Captain Marisol "Saltjaw" Reyes, the weathered captain of the brigantine.',
                 "Tu es Monsieur Fromage, un vieux fromager lyonnais passionné et un peu bougon."):
        assert cues_of(text) == {Component.ROLE}, text
    assert Component.ROLE not in cues_of("Tu es ausus in circo Flaminio, productus cum tuo illo pare.")


def test_an_error_pasted_first_opens_the_paste() -> None:
    trace = ["panic: assignment to entry in nil map", "goroutine 23 [running]:",
             "main.worker(0xc00012a000, 0xc000102060)", "/home/dev/agg/main.go:44 +0xd1"]
    got = dict(codes("\n".join(trace) + "\n\nwhy does this happen? the map is created in NewAggregator."))
    assert [got[t] for t in trace] == ["D"] * 4


def test_a_frame_that_reads_as_a_form_inside_a_pasted_trace_is_part_of_the_paste() -> None:
    trace = ["panic: assignment to entry in nil map", "goroutine 23 [running]:", "main.(*Aggregator).",
             "Add(0xc00012a000, {0xc000016120, 0x7}, 0x3)", "\t/home/dev/agg/aggregator.go:27 +0x8c",
             "main.worker(0xc00012a000, 0xc000102060)", "\t/home/dev/agg/main.go:44 +0xd1"]
    got = dict(codes("\n".join(trace) + "\n\nI thought the zero value of a map was usable? what am I missing here"))
    assert [got[t.strip()] for t in trace] == ["D"] * len(trace)
    assert got["I thought the zero value of a map was usable? what am I missing here"] == "D"
    schema = ["{", '"supplier_name": string,', '"net_total": number', "}"]
    got = dict(codes("Extract the invoice's fields.\nSchema:\n" + "\n".join(schema)))
    assert [got[t] for t in schema] == ["O"] * len(schema)  # a form stays the form


def test_few_shot_pairs_keyed_in_chinese_japanese_or_vietnamese_are_the_examples() -> None:
    got = dict(codes("请将新闻标题分类为以下类别之一：财经、体育、科技。只输出类别名称。\n标题：央行宣布下调存款准备金率\n"
                     "类别：财经\n标题：国足客场两球不敌日本队\n类别：体育\n标题：{标题}\n类别："))
    assert [got[t] for t in ("标题：央行宣布下调存款准备金率", "类别：财经", "标题：国足客场两球不敌日本队", "类别：体育",
                             "标题：{标题}")] == ["E", "E", "E", "E", "D"]
    assert got["请将新闻标题分类为以下类别之一：财经、体育、科技。只输出类别名称。"] == "DO"  # two sentences, two jobs
    got = dict(codes("レビュー文からキーワードを3つ抽出してください。\n例1\nレビュー：軽くて持ち運びやすい。\n"
                     "キーワード：軽い\n例2\nレビュー：音質はいい。\nキーワード：音質\n"
                     "では、次のレビューからキーワードを抽出してください。\nレビュー：{レビュー}\nキーワード："))
    assert [got[t] for t in ("例1", "レビュー：軽くて持ち運びやすい。", "キーワード：軽い", "例2")] == ["E"] * 4
    got = dict(codes("Phân loại cảm xúc của đánh giá.\nĐánh giá: Phở ngon.\nCảm xúc: tích cực\n"
                     "Đánh giá: Chờ 40 phút.\nCảm xúc: tiêu cực\nĐánh giá: {danh_gia}\nCảm xúc:"))
    assert [got[t] for t in ("Đánh giá: Phở ngon.", "Cảm xúc: tích cực", "Đánh giá: {danh_gia}")] == ["E", "E", "D"]


def test_a_japanese_persona_described_in_a_second_sentence_stays_the_role() -> None:
    got = dict(codes("あなたは日本の商社で20年働いている秘書です。ビジネス敬語に精通しています。\n取引先へのメールを作成してください。"))
    assert got["あなたは日本の商社で20年働いている秘書です。ビジネス敬語に精通しています。"] == "R"


def test_section_headings_in_more_languages_name_their_component() -> None:
    got = dict(codes("## Chi sei\nSei Beatrice, la guida virtuale del museo.\n## Cosa fai\nRispondi alle domande dei "
                     "visitatori.\n## Come rispondi\nUsa un italiano semplice e caloroso."))
    assert [got[t] for t in ("## Chi sei", "## Cosa fai", "## Come rispondi", "Usa un italiano semplice e caloroso.")] \
        == ["R", "D", "O", "O"]
    got = dict(codes("### Rola\nJesteś asystentem sklepu ModaPL.\n### Zadanie\nPomagasz klientom w zwrotach.\n"
                     "### Styl odpowiedzi\nPisz uprzejmie."))
    polish = ("### Zadanie", "Pomagasz klientom w zwrotach.", "### Styl odpowiedzi", "Pisz uprzejmie.")
    assert [got[t] for t in polish] == ["D", "D", "O", "O"]
    got = dict(codes("# 角色\n你是橙意家居的在线客服。\n# 任务\n回答顾客关于商品和物流的问题。"))
    assert [got["# 任务"], got["回答顾客关于商品和物流的问题。"]] == ["D", "D"]
    assert dict(codes("You are Chotu, a support bot. Help customers with late orders.\n\n"
                      "## How you talk\nKeep replies short."))["## How you talk"] == "O"


def test_a_condition_in_another_language_makes_its_instruction_a_rule() -> None:
    for condition in ("Wenn ein Kunde einen Zählerstand mitteilen möchte, frage nach der Zählernummer.",
                      "Si les extraits ne permettent pas de répondre, dis-le clairement.",
                      "如果顾客询问商品尺寸，请直接给出长宽高。"):
        got = dict(codes("# Aufgabe\nBeantworte Fragen von Kunden.\n" + condition))
        assert got[condition] == "A", condition


#: Task statements and form words in more languages (read by test_a_sentence_is_read_by_its_own_wording).
_TASK_AND_FORM_IN_MORE_LANGUAGES = [
    ("Tu trabajo es ayudar a las personas a cocinar.", "D"),
    ("Твоя задача — отвечать на вопросы учеников.", "D"),
    ("Görevin, müşterilere tur paketleri hakkında bilgi vermek.", "D"),
    ("Nhiệm vụ của bạn là giải thích cách tính thuế.", "D"),
    ("Você classifica mensagens de clientes em uma das intenções abaixo.", "D"),
    ("مهمتك هي مساعدة العملاء.", "D"),
    ("Hebe hervor, für wen das Produkt geeignet ist.", "D"),
    ("Отвечай на русском языке.", "O"),
    ("Объяснение — не длиннее 150 слов.", "O"),
    ("Примеры кода оформляй в блоках.", "O"),
    ("Özet en fazla iki cümle olsun ve resmi bir haber dili kullan.", "O"),
    ("Cevaplarını kısa tut ve müşteriye \"siz\" diye hitap et.", "O"),
    ("Podaj wyłącznie tłumaczenie.", "O"),
    ("Odpowiedzi nie powinny przekraczać 5 zdań.", "O"),
    ("Schreibe in der Du-Form und in einem lockeren, aber nicht albernen Ton.", "O"),
    ("Le registre doit rester formel, comme dans une correspondance commerciale.", "O"),
    ("Por un bug en el registro hay emails duplicados.", "-"),  # a log, not the register
    ("Nilaiku paling lemah di matematika dan bahasa Inggris.", "-"),  # a school subject, not the reply's language
]


def test_material_under_a_label_in_turkish_russian_or_arabic_is_the_input() -> None:
    got = dict(codes("Aşağıdaki haberi özetle.\nHaber:\nBelediye yeni bir deniz otobüsü hattı açıyor.\n"
                     "Bilet ücreti aynı olacak.\nÖzet en fazla iki cümle olsun."))
    assert [got[t] for t in ("Haber:", "Belediye yeni bir deniz otobüsü hattı açıyor.", "Bilet ücreti aynı olacak.")] \
        == ["D"] * 3
    got = dict(codes('Извлеки из текста резюме следующие поля и верни их в формате JSON:\n- "фио" — полное имя;\n'
                     '- "город" — город проживания.\nРезюме:\nПетрова Анна Сергеевна, Казань.'))
    assert [got[t] for t in ('- "фио" — полное имя;', "Резюме:", "Петрова Анна Сергеевна, Казань.")] == ["O", "D", "D"]


def test_material_under_a_named_label_with_an_id_and_a_source_is_the_input() -> None:
    prompt = ("Pick the two letters that should run on Saturday.\n"
              "Letter A – Brian Coles, Stroud:\n"
              "The Palace closed because nobody went. I'm sorry, but that's the truth.\n"
              "Letter B – Cllr Ann Tilley, Nailsworth:\nWe shouldn't give up on the building before we've even asked.\n"
              "Pitch:\nHi team, I'm a Ljubljana-based writer.\n2,000 words, available for June.")
    material = ["Letter A – Brian Coles, Stroud:", "The Palace closed because nobody went.",
                "I'm sorry, but that's the truth.", "We shouldn't give up on the building before we've even asked.",
                "Hi team, I'm a Ljubljana-based writer.", "2,000 words, available for June."]
    got = dict(codes(prompt))
    assert [got[t] for t in material] == ["D"] * len(material)
    assert INPUT_LABEL.match("Letter A – Brian Coles, Stroud:") and INPUT_LABEL.match("Letter 2:")
    assert not any(INPUT_LABEL.match(t) for t in ("Tables:", "Claims:", "Source excerpts:"))  # no plural read as an id


def test_a_glossary_above_the_text_to_translate_is_consulted_not_translated() -> None:
    got = dict(codes("Translate the subtitles below into Spanish.\nGlossary (always use these renderings):\n"
                     "- kelp forest → bosque de kelp\n- sea otter → nutria marina\n1\n00:00:01,200 --> 00:00:03,900\n"
                     "Every morning the tide pulls back\n2\n00:00:04,100 --> 00:00:06,800\nand the otters wake."))
    assert [got[t] for t in ("Glossary (always use these renderings):", "- kelp forest → bosque de kelp",
                             "- sea otter → nutria marina")] == ["A"] * 3
    assert [got[t] for t in ("Every morning the tide pulls back", "and the otters wake.")] == ["D"] * 2


def test_a_pasted_table_with_columns_aligned_by_spaces_is_the_input() -> None:
    rows = ["north  central  south", "smoker       34      51      22", "nonsmoker   166     149     178"]
    got = dict(codes("quick q - i have this 2x3 table of smoking status by region\n" + "\n".join(rows) +
                     "\n\njust give me the test stat and p"))
    assert [got[t] for t in rows] == ["D"] * len(rows)
    rows = ["age10            0.1820     0.0510   3.569 0.000358 ***", "los_days         0.0630     0.0190   3.316"]
    got = dict(codes("Can you interpret this logistic regression output?\n" + "\n".join(rows * 2)))
    assert [got[t] for t in rows] == ["D"] * len(rows)


def test_a_bracketed_heading_in_capitals_that_names_a_section_opens_it() -> None:
    prompt = ("[CHARACTER]\nYou are Brannoc, a one-eyed dwarven blacksmith.\n[SCENE]\n"
              "The player has just walked into your forge.\n[VOICE]\nSpeak in short, gruff lines.\n"
              "Put any physical action in asterisks.\n[INPUT]\n{player_message}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("[CHARACTER]", "[VOICE]", "Put any physical action in asterisks.")] == ["R", "O", "O"]
    assert [got["[INPUT]"], got["{player_message}"]] == ["D", "D"]
    got = dict(codes("Which response is better?\n[Response A]\nUse reversed(x).\n[Response B]\nUse x[::-1]."))
    assert [got["[Response A]"], got["Use reversed(x)."]] == ["D", "D"]  # a label of the material judged


def test_how_to_play_opens_the_task_and_a_theme_or_premise_is_what_to_write_about() -> None:
    got = dict(codes("You are Brannoc, a dwarven blacksmith.\n\n# How to play\nRespond to the player as Brannoc.\n"
                     "The player's first line will follow."))
    assert [got["# How to play"], got["The player's first line will follow."]] == ["D", "D"]
    got = dict(codes("Write an acrostic poem where the first letters spell out AUTUMN.\n"
                     "Theme: the last day at a summer job."))
    assert got["Theme: the last day at a summer job."] == "D"
    got = dict(codes("Write flavour text for the cards listed below.\nHere are two finished cards for the tone:\n"
                     "Card: Smoke Bellows — \"Calm bees are productive bees.\"\n"
                     "Cards needing flavour text:\n- Hive Tax"))
    assert got["Here are two finished cards for the tone:"] == "E"
    assert [got["Cards needing flavour text:"], got["- Hive Tax"]] == ["D", "D"]  # the examples end there


def test_a_user_pasting_a_text_in_spanish_or_italian_introduces_it() -> None:
    for intro in ("Te copio el texto:", "Ti incollo le prime voci qui sotto.", "Je te colle le message :"):
        assert label_code(cues_of(intro)) == "D", intro


def test_sentences_describing_the_persona_in_other_languages_are_the_role() -> None:
    for persona, trait in (("Eres Doña Lupita, cocinera de Oaxaca.", "Hablas con cariño y con expresiones de Oaxaca."),
                           ("Ты — преподаватель Python.", "У тебя десять лет опыта преподавания."),
                           ("Tu es Camille, fromagère à Lyon.", "Tu connais plus de 400 fromages.")):
        got = dict(codes(persona + " " + trait + "\nRéponds aux questions des clients."))
        assert got[trait] == "R", trait
    got = dict(codes("Sei Giulia, l'assistente di Marco. Hai accesso alla sua casella tramite gli strumenti.\n"
                     "Rispondi alle email."))
    assert got["Hai accesso alla sua casella tramite gli strumenti."] == "A"  # what it may do, not who it is


#: New content placed after the answer's main part is task and form; the ids it cites stay form.
_CONTENT_AFTER_THE_MAIN_PART = [
    ("After the code, explain your changes in a short bulleted list.", "DO"),
    ("Below the table, list any pitches you could not place, with the reason in one line each.", "DO"),
    ("After the lyrics, add two or three sentences explaining the choices you made.", "DO"),
    ("After the answer, list the passage IDs you relied on in square brackets.", "O"),  # citations: form
    ("After each sentence that relies on a document, add its id in brackets.", "O"),
]


#: A condition whose outcome is only an output convention is the form; other conditions are rules.
_CONDITIONAL_CONVENTIONS = [
    ("If the amount is not stated, set estimated_amount to null.", "O"),
    ("If the answer makes no claims at all, return {\"claims\": [], \"faithfulness\": null}.", "O"),
    ("If a value isn't reported, write NR.", "O"),
    ("If no candidate matches, mark the reference as \"unverified\" rather than guessing.", "O"),
    ("If the customer is angry, apologise and offer a callback.", "A"),  # what to do in that case: a rule
    ("If the message is ambiguous about the day, use the clarify action instead of guessing.", "A"),
]


#: A prohibition is a rule unless what it forbids is a matter of form.
_PROHIBITIONS = [
    ("Don't explain the mystery yet.", "A"),
    ("Do not change the author's style or word choice unless it is incorrect.", "A"),
    ("Never guess about pay, visas or contract terms; these always go to the People team.", "A"),
    ("Do not wrap the JSON in Markdown and do not add any commentary.", "O"),
    ("Never use emojis or more than one exclamation mark.", "O"),
    ("Don't start your answer with \"Great question\" or similar.", "O"),
]
#: A duty of the game is the task, not a rule of keeping; "Finish with …" says how the answer ends, as "End with …".
_DUTIES_AND_ENDINGS = [
    ("Keep a running score and announce it after every question.", "D"),
    ("Finish with the line: \"This is general information, not legal advice.\"", "O"),
]


def test_keeping_track_of_the_game_is_a_duty_under_its_heading() -> None:
    got = dict(codes("You are the Keeper, narrator of a horror game.\n## Running the game\n"
                     "- Keep track of the time of day, because the tide matters.\n- Never push the player to a clue."))
    assert got["- Keep track of the time of day, because the tide matters."] == "D"
    assert got["- Never push the player to a clue."] == "A"


def test_what_the_persona_is_not_is_a_rule_not_the_persona() -> None:
    got = dict(codes("You are the intake assistant for a telehealth clinic. "
                     "You are not a doctor and you never diagnose.\n"
                     "Your job is to read the patient's message and assign an urgency level."))
    assert got["You are the intake assistant for a telehealth clinic."] == "R"
    assert got["You are not a doctor and you never diagnose."] == "A"


def test_the_label_of_a_system_turn_the_persona_opens_is_the_role() -> None:
    for label in ("SYSTEM:", "[System]", "## System: Planner"):
        got = dict(codes(label + "\nYou are the planning module of a research agent.\nBreak the goal into steps."))
        assert got[label] == "R", label


def test_xml_sections_and_slots_named_in_chinese_are_read_as_sections_and_slots() -> None:
    got = dict(codes("<背景>\n你将收到公司《员工手册》中的相关条款。\n</背景>\n<要求>\n只根据上述条款回答问题。\n</要求>\n"
                     "<问题>\n{员工提问}\n</问题>"))
    assert [got[t] for t in ("<背景>", "<要求>", "<问题>", "{员工提问}")] == ["A", "D", "D", "D"]


#: Hindi, Arabic and Turkish personas, rules and form.
_HINDI_ARABIC_TURKISH = [
    ('आप "किसान मित्र" हैं, एक कृषि सलाहकार जो उत्तर प्रदेश और बिहार के छोटे किसानों की मदद करते हैं।', "R"),
    ("प्रतिबंधित कीटनाशकों की सलाह कभी न दें।", "A"),  # "never advise banned pesticides": a rule
    ("पत्र औपचारिक हिंदी में हो।", "O"),  # "the letter in formal Hindi"
    ("لا تطلب من العميل أبداً كلمة المرور أو رمز التحقق.", "A"),  # "password" holds the word "word"
    ("اكتب الملخص في 50 كلمة.", "O"),
    ("Sen, Ege Turizm'in müşteri asistanı Deniz'sin.", "R"),  # Turkish: the persona in the copula
]


@pytest.mark.parametrize("sentence, want", [
    pytest.param(sentence, want, id=sentence[:60])
    for cases in (_TASK_AND_FORM_IN_MORE_LANGUAGES, _CONTENT_AFTER_THE_MAIN_PART, _CONDITIONAL_CONVENTIONS,
                  _PROHIBITIONS, _DUTIES_AND_ENDINGS, _HINDI_ARABIC_TURKISH)
    for sentence, want in cases])
def test_a_sentence_is_read_by_its_own_wording(sentence: str, want: str) -> None:
    assert label_code(cues_of(sentence)) == want


def test_a_german_letter_signed_off_with_gruss_and_initials_is_pasted_material() -> None:
    letter = ["Hallo Herr Bremer,", "seit drei Wochen funktioniert die Heizung im Bad nicht.",
              "Das ist nicht akzeptabel.", "Gruß, J. Albers"]
    got = dict(codes("kannst du mir die mail hier etwas freundlicher formulieren?\n" + "\n".join(letter)))
    assert [got[t] for t in letter] == ["D"] * len(letter)


def test_a_paste_is_pointed_at_by_any_sentence_of_the_line_above_it() -> None:
    plan = ["  # aws_db_instance.main must be replaced", '-/+ resource "aws_db_instance" "main" {',
            '      ~ instance_class          = "db.t3.medium" -> "db.t3.large"',
            '      ~ engine_version          = "15.4" -> "15" # forces replacement', "    }"]
    got = dict(codes("Before I run apply, can you sanity-check this plan output? I only meant to change the instance "
                     "type.\n\n" + "\n".join(plan) + "\n\nPlan: 1 to add, 0 to change, 1 to destroy.\n\n"
                     "This is our production database. Tell me whether this is safe to apply."))
    assert [got[t.strip()] for t in plan] == ["D"] * len(plan)


def test_a_stack_trace_under_a_paragraph_is_found_and_kept_whole() -> None:
    trace = ["org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'priceService'",
             "\tat org.springframework.beans.factory.support.ConstructorResolver.instantiate(ConstructorResolver.java:318)",
             "\tat com.acme.pricing.PriceService.init(PriceService.java:22)"]
    got = codes("The app fails on startup with the trace below. It worked last week.\n\n" + "\n".join(trace) +
                "\n\nWhy is the repository null?")
    assert got[2:5] == [(line.strip(), "D") for line in trace]  # one sentence a line: no cut at ".B" or ".C"


def test_a_block_the_task_names_as_what_it_works_on_is_the_input_even_under_a_persona() -> None:
    notes = ["## Notes (pasted from the kickoff, messy)", "- techs lose signal in basements, app just spins",
             "- photos captured offline must sync later"]
    got = dict(codes("You are a senior product manager.\nTurn the meeting notes below into a first-draft PRD.\n"
                     + "\n".join(notes) + "\n\n## Format\nUse Markdown with H2 headings."))
    assert [got[t] for t in notes] == ["D"] * len(notes)
    assert [got["## Format"], got["Use Markdown with H2 headings."]] == ["O", "O"]  # the block ends at a heading
    summary = ["Encounter summary:", "58-year-old woman seen for a follow-up of type 2 diabetes.",
               "HbA1c 8.1%, up from 7.2%."]
    got = dict(codes("You are a certified medical coder.\nAssign ICD-10-CM codes to the encounter summary below.\n" +
                     "\n".join(summary) + "\nList each code with its description."))
    assert [got[t] for t in summary] == ["D"] * 3  # the label right under a task pointing below, whatever its noun
    got = dict(codes("Grade the essay below.\n\nMarking guidance:\n- Argument: a clear position.\n\nEssay:\n{essay}"))
    assert got["Marking guidance:"] == "A"  # the task names its material elsewhere ("Essay:")


def test_the_examples_a_task_asks_to_imitate_under_their_label_are_examples() -> None:
    captions = ['1. "Monday called. We answered with a double shot."', '2. "Rain outside, bloom in the cup."']
    got = dict(codes("Write an Instagram caption for the post described below, in the style of our previous captions.\n"
                     "Previous captions:\n" + "\n".join(captions) + "\nPost: photo of the new Kenya AA bag.\n"
                     "Caption:"))
    assert [got[t] for t in ["Previous captions:", '1. "Monday called.', '2. "Rain outside, bloom in the cup."']] == \
        ["E"] * 3
    assert got["Post: photo of the new Kenya AA bag."] == "D"


def test_the_turns_of_a_transcript_under_its_label_are_no_demonstrations() -> None:
    turns = ["REP: Thanks for making time, Dana.", "DANA: It did.", "REP: Great.", "DANA: Legal wants our DPA added."]
    got = dict(codes("From the call transcript, fill in the CRM update below.\nTranscript:\n" + "\n".join(turns) +
                     "\n\nCRM update:\nDeal stage:\nBudget:\nRisks:"))
    assert [got[t] for t in turns] == ["D"] * 4
    assert got["From the call transcript, fill in the CRM update below."] == "D"


def test_a_pasted_chat_export_and_a_bare_commit_log_are_the_input() -> None:
    chat = ["[Léa, 10:02] on part sur un mode invité pour le checkout ?",
            "[Hugo, 10:05] ok mais il faut garder l'email", "[Léa, 10:06] oui, email obligatoire, le reste facultatif"]
    got = dict(codes("Voici un fil Slack entre l'équipe design et l'équipe mobile.\n"
                     "Rédige une spécification fonctionnelle courte pour le mode invité.\n" + "\n".join(chat)))
    assert [got[t] for t in chat] == ["D"] * len(chat)
    log = ["feat(invoices): recurring invoice templates (#812)", "fix(sync): bank feed no longer duplicates (#799)",
           "chore(deps): bump react-native to 0.74"]
    got = dict(codes("You write release notes for Lumen.\n<changelog>\n" + "\n".join(log) + "\n</changelog>\n"
                     "Write the release notes for version 4.2 from the changelog."))
    assert [got[t] for t in log] == ["D"] * len(log)


def test_a_user_pastes_under_a_persona_they_give_the_model() -> None:
    sql = ["SELECT c.id, count(o.id)", "FROM customers c", "LEFT JOIN orders o ON o.customer_id = c.id",
           "GROUP BY c.id;"]
    got = dict(codes("You're a PostgreSQL performance specialist.\nThis query takes ~9 seconds on production and I need"
                     " it under 200ms:\n" + "\n".join(sql) + "\nWhat index would help?"))
    assert [got[t] for t in sql] == ["D"] * 4


def test_examples_introduced_as_ones_the_user_likes_or_as_the_style_they_are_after() -> None:
    got = codes("I need 20 fortunes for homemade fortune cookies.\nHere are a few I like:\n"
                '- "You will find happiness in an unexpected sandwich."\n- "A thrilling time is in your future."')
    assert [c for _, c in got][1:] == ["E", "E", "E"]
    got = codes("Write six clues for a treasure hunt in our flat.\nHere's the style I'm after:\n"
                '"I hum and I spin, I tumble your socks!"\n(washing machine)')
    assert [c for _, c in got][1:] == ["E", "E", "E"]


def test_a_block_between_named_delimiters_is_pasted_material_even_with_dialogue() -> None:
    body = ["Luna set the kettle on the little stove.", '"Do you think the Wrackspurts like chamomile?" she asked.',
            "Neville shrugged.", "Then the door creaked open."]
    got = dict(codes("Below is my draft of chapter 3. Please tighten the prose.\n\n--- DRAFT ---\n" + "\n".join(body) +
                     "\n--- END DRAFT ---\n\nSend back the revised chapter only."))
    assert [got[t] for t in ["--- DRAFT ---", *body, "--- END DRAFT ---"]] == ["D"] * 6


def test_the_task_stated_as_what_you_will_be_doing_or_in_dutch_as_what_you_help_with() -> None:
    for text in ("You'll be cleaning the raw export of our engagement survey.",
                 "Je helpt inwoners met vragen over afval en parkeervergunningen."):
        assert Component.DIRECTIVE in cues_of(text), text


def test_what_the_artefact_should_do_announced_above_a_list_is_the_task() -> None:
    got = codes("Write a Python script that runs a two-way ANOVA on my lab data.\nThere are 8 plants per group.\n"
                "The script should:\n1. Load the CSV with pandas.\n2. Run Tukey HSD post-hoc tests on fertilizer.")
    assert [c for _, c in got][2:] == ["D", "D", "D"]


def test_a_pasted_reference_list_is_the_input() -> None:
    refs = ["Hattie, J., & Timperley, H. (2007). The power of feedback.", "Dweck, C. S. (2006). Mindset."]
    got = codes("Please convert these references into BibTeX.\n\n" + "\n".join(refs))
    assert all(c == "D" for _, c in got)


def test_entries_numbered_twice_like_reviewer_comments_are_the_items_worked_through() -> None:
    items = ['Reviewer 1, comment 1: "The sample is drawn from a single university."',
             'Reviewer 1, comment 2: "Please report effect sizes alongside p-values."']
    got = dict(codes("We got a major revision and I need to draft the response letter.\n" + "\n".join(items) +
                     "\nPlease write a polite, point-by-point response."))
    assert [got[t] for t in items] == ["D", "D"]


def test_polish_and_vietnamese_cues_and_a_purpose_clause_before_the_task_verb() -> None:
    assert cues_of("Podziel tekst na krótkie akapity i dodaj tytuł.") == {Component.DIRECTIVE,
                                                                          Component.OUTPUT_FORMATTING}
    for text in ("Viết giúp mình một email xin nghỉ phép.", "Untuk membuat janji, tanyakan nama lengkap.",
                 "Pour chaque partie, propose deux arguments."):
        assert Component.DIRECTIVE in cues_of(text), text
    assert cues_of("Email cần lịch sự, ngắn gọn, có tiêu đề rõ ràng.") == {Component.OUTPUT_FORMATTING}


def test_a_russian_table_is_form_only_when_the_answer_is_asked_as_one() -> None:
    assert Component.OUTPUT_FORMATTING not in cues_of("Есть две таблицы:")
    assert Component.OUTPUT_FORMATTING in cues_of("Выведи результат в виде таблицы.")
    assert Component.DIRECTIVE in cues_of("Aggiungi la lista della spesa divisa per reparto.")


def test_a_task_label_with_a_colon_and_portuguese_requests_state_the_task() -> None:
    for text in ("Ta mission : aider les clients qui déposent une réclamation.", "Peça sempre fotografias dos danos.",
                 "Ajude o cliente a participar um sinistro (danos por água, incêndio ou roubo)."):
        assert Component.DIRECTIVE in cues_of(text), text


def test_italian_without_accents_is_still_read_as_italian() -> None:
    assert Component.DIRECTIVE in cues_of("Rispondi alle richieste di rimborso e indennizzo per ritardi.")


def test_style_issues_a_review_looks_for_are_not_the_answers_form() -> None:
    got = codes("You are a senior Python reviewer.\nReview the function below for bugs and style issues.\n"
                "```python\ndef avg(xs):\n    return sum(xs)/len(xs)\n```\nList each issue as a bullet.")
    assert got[1] == ("Review the function below for bugs and style issues.", "D")


def test_what_the_assistant_may_answer_is_a_rule_not_the_form() -> None:
    for text in ("- Only answer questions about Acme products.", "Only answer from the policy extracts."):
        assert cues_of(text) == {Component.ADDITIONAL_INFORMATION}, text
    assert Component.OUTPUT_FORMATTING in cues_of("Only reply with the query result as a table.")


def test_answering_the_users_questions_is_the_task_also_in_other_languages() -> None:
    got = dict(codes("Tu es un assistant juridique pour une agence immobilière à Lyon.\n"
                     "Réponds aux questions des locataires sur leur bail en termes simples.\n"
                     "Réponds en français, en trois phrases au maximum."))
    assert got["Réponds aux questions des locataires sur leur bail en termes simples."] == "DO"
    assert got["Réponds en français, en trois phrases au maximum."] == "O"


def test_a_markdown_title_right_under_an_input_label_belongs_to_the_pasted_document() -> None:
    got = codes("This help article is out of date. Update it using the change log.\n\nArticle:\n"
                "# How do I return an item?\nYou have 14 days from delivery to start a return.\n"
                "1. Go to **Orders** and choose the item.")
    assert [c for _, c in got[2:]] == ["D", "D", "D", "D"], got

def test_the_classes_a_task_sorts_into_are_its_content_not_the_form() -> None:
    for text in ("Classify each log line into one of: CRITICAL, ERROR, WARNING, NOISE.",
                 "Label each SMS as SPAM or HAM."):
        assert cues_of(text) == {Component.DIRECTIVE}, text
    assert Component.OUTPUT_FORMATTING in cues_of("Classify the comment as SPAM or OK and reply with the label only.")

def test_a_vba_macro_and_env_files_pasted_without_a_fence_are_the_input() -> None:
    got = codes("j'ai une macro VBA trop lente, vous pouvez l'optimiser ?\nSub Nettoyer()\nDim i As Long\n"
                "For i = 2 To 100\n    i = i - 1\nNext i\nEnd Sub\n\nCompare these two files.\nstaging.env\n"
                "MAIL_HOST=smtp.mailgun.org\nMAIL_PORT=587\nprod.env\nMAIL_PORT=465")
    assert all(c == "D" for _, c in got[1:]), got

def test_demonstrations_told_apart_by_a_label_they_repeat_are_examples() -> None:
    got = codes("Write a commit message for the diff at the bottom, in the style of these examples.\n\n"
                "Diff:\n-    timeout = 10\n+    timeout = int(os.environ['T'])\nMessage: fix(http): make timeout "
                "configurable\n\nDiff:\n+## Local setup\nMessage: docs(readme): add local setup\n\n"
                "Diff to describe:\n{diff}\nMessage:")
    assert [c for _, c in got[1:8]] == ["E"] * 7, got
    assert [c for _, c in got[8:]] == ["D", "D", "D"], got
    slots = codes("Compare the abstracts.\nAbstract 1:\n{a1}\nAbstract 2:\n{a2}\nAbstract 3:\n{a3}")
    assert "E" not in {c for _, c in slots}, slots


def test_a_letter_to_whoever_is_in_charge_signed_with_an_account_number_is_the_input() -> None:
    got = codes("rewrite this so its polite but firm, im too angry to do it myself lol\n\n"
                "To whoever is in charge at Northway Water,\nThis is the FOURTH time I am writing about the same "
                "thing. I moved out in 2022!!! Sort it out or I am going to the ombudsman and the newspaper.\n"
                "Laura Brennan (account 40018826)\n\ni do actually want to go to the ombudsman\n"
                "keep the facts and the account number\ndont make it longer than mine")
    assert [c for _, c in got[1:6]] == ["D"] * 5, got


def test_what_the_model_will_be_given_is_the_setting_unless_it_points_with_a_colon() -> None:
    assert cues_of("You will be shown a customer message and a reply written by a support agent.") == \
        {Component.ADDITIONAL_INFORMATION}
    assert cues_of("You will be given the ticket:") == {Component.DIRECTIVE}
    assert cues_of("You are given a question and an answer.") == {Component.DIRECTIVE}  # the datasets' task


def test_returning_the_whole_or_edited_material_only_is_the_form() -> None:
    got = {text: cues_of(text) for text in ("Return the whole module.", "Return the adapted article only.",
                                            "Return the same table with a third column, \"new message\".",
                                            "Return the top 10 countries by paid revenue in 2024, highest first.")}
    assert list(got.values()) == [{Component.OUTPUT_FORMATTING}] * 3 + [{Component.DIRECTIVE}], got


def test_a_label_over_what_the_user_said_they_would_paste_is_the_input() -> None:
    got = dict(codes("I'll paste a worksheet used in Year 7 science.\nAdapt it for students at an early stage of "
                     "English.\nWorksheet:\nStates of Matter\n1. Describe the particles in a solid.\n"
                     "2. When a puddle disappears on a sunny day, what process has taken place?"))
    assert got["Worksheet:"] == got["States of Matter"] == "D", got


def test_where_a_part_of_the_answer_goes_is_its_form() -> None:
    assert cues_of("Put the answer key at the end, not after each question.") == {Component.OUTPUT_FORMATTING}
    assert cues_of("Put them in order of importance.") == {Component.OUTPUT_FORMATTING}
    assert cues_of("Put each spending line into one of these categories: Housing, Transport.") == \
        {Component.DIRECTIVE}


def test_a_compilers_message_pasted_alone_is_the_input() -> None:
    got = dict(codes("why does rust reject this\n\nI am on rust 1.78 and the borrow checker keeps complaining.\n\n"
                     "clippy also says\n\nwarning: this `if` has identical blocks\n\nAnswer briefly."))
    assert got["warning: this `if` has identical blocks"] == "D", got


def test_a_question_typed_whats_without_an_apostrophe_is_the_request() -> None:
    got = dict(codes("whats 350F in celsius, my oven is in C"))
    assert got == {"whats 350F in celsius, my oven is in C": "D"}, got
    assert dict(codes("whats on my calendar tomorrow")) == {"whats on my calendar tomorrow": "D"}


def test_a_details_label_over_the_slots_a_text_is_written_from_is_the_input() -> None:
    got = dict(codes("Write the text message we send when our fraud system blocks a card payment.\nDetails:\n"
                     "Merchant: {merchant}\nAmount: {amount}\nTime: {timestamp}"))
    assert got["Details:"] == got["Merchant: {merchant}"] == "D", got


def test_new_content_that_closes_the_answer_is_task_and_form_a_closing_line_only_form() -> None:
    both = {Component.DIRECTIVE, Component.OUTPUT_FORMATTING}
    assert cues_of("End with a short P.S. about the AE role so people can forward it.") == both
    assert cues_of("End with a one-line teaser for next week.") == both
    assert cues_of("Finish with a single number on its own line, rounded to the nearest thousand.") == \
        {Component.OUTPUT_FORMATTING}


def test_closing_content_in_other_languages_is_task_and_form() -> None:
    both = {Component.DIRECTIVE, Component.OUTPUT_FORMATTING}
    for text in ("Termine par une petite morale en une phrase.", "Schließe mit einer kurzen Übungsaufgabe ab.",
                 "Al final, dame una puntuación del 1 al 10 y tres consejos concretos."):
        assert cues_of(text) == both, text
    assert cues_of("Termine par la signature « Service comptabilité ».") == {Component.OUTPUT_FORMATTING}


def test_anonymise_is_a_task_verb() -> None:
    assert cues_of("Anonymise the peer feedback below before it goes to the employee.") == {Component.DIRECTIVE}


def test_titles_without_a_colon_over_lists_the_task_names_below_are_its_input() -> None:
    got = dict(codes("You're the chief of staff at a logistics startup.\nDraft the May update from the numbers "
                     "and notes below.\nNumbers\n- MRR: $412k (April: $388k)\n- Burn: $1.1M/month\n"
                     "Notes from Ava (CEO)\n- Signed Kinetic Foods, 3-year deal\nKeep it under 350 words."))
    assert [got[t] for t in ("Numbers", "- Burn: $1.1M/month", "Notes from Ava (CEO)")] == ["D", "D", "D"], got


def test_config_lines_decorators_and_a_delimited_block_pointed_at_are_the_input() -> None:
    got = dict(codes("Our nightly Spark job dies with executor OOMs.\nCurrent settings:\nspark.executor.memory=24g\n"
                     "spark.executor.cores=5\n\nSuggest config changes."))
    assert got["spark.executor.cores=5"] == got["Current settings:"] == "D", got
    got = dict(codes("Turn this wiki runbook into a checklist for the pager app.\n---\n1. Check the pods.\n"
                     "If fewer than 3 are Ready, go to step 4.\n2. Page the API team.\n---\nMax 8 lines."))
    assert got["If fewer than 3 are Ready, go to step 4."] == got["---"] == "D", got


def test_keeping_the_answer_to_a_counted_size_is_its_form() -> None:
    for text in ("Keep it factual and under a page.", "Keep each list to three items max.",
                 "160 characters max total including that."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text
    assert cues_of("Keep every item's core facts.") == {Component.ADDITIONAL_INFORMATION}


def test_for_context_after_a_pasted_block_is_the_user_speaking_again() -> None:
    got = dict(codes("Can you help me rephrase this feedback before I send it to a vendor's account team?\n"
                     "I want it to stay honest but not burn the relationship.\n\n\"Your onboarding was a mess. "
                     "Nobody read the requirements doc we sent. Frankly we're considering other options.\"\n\n"
                     "For context, we do still want to renew if they fix the import issue."))
    assert got["For context, we do still want to renew if they fix the import issue."] == "A", got
    assert got["Nobody read the requirements doc we sent."] == "D", got


def test_adding_something_to_the_answer_or_the_material_is_part_of_the_task() -> None:
    for text in ("Add docstrings to every public function in this module.", "Add a short section just for the cat.",
                 "Add a log-rank test and print its p-value."):
        assert cues_of(text) == {Component.DIRECTIVE}, text


def test_an_email_pasted_after_here_in_german_is_the_input_from_its_greeting_to_the_signature() -> None:
    got = dict(codes("Kannst du mir helfen, auf diese Kundenmail zu antworten?\nHier die Mail:\nGuten Tag,\n"
                     "ich habe am 3. Mai bestellt und die Ware kam erst gestern.\nMit freundlichen Grüßen\n"
                     "Petra Vogel\n\nBitte in der Sie-Form."))
    assert got["Hier die Mail:"] == got["Guten Tag,"] == got["Petra Vogel"] == "D", got


def test_a_prohibition_among_the_listed_demands_is_a_rule() -> None:
    got = dict(codes("Write an Amazon listing for the product below.\nRequirements:\n- Title: max 200 characters\n"
                     "- Do not mention competitors by name\n- Include 3 search terms\nProduct: {product}"))
    assert got["- Do not mention competitors by name"] == "A", got
    assert got["- Include 3 search terms"] == "D", got


def test_plain_data_lines_under_here_is_are_the_material_until_the_user_speaks_again() -> None:
    got = dict(codes("Is this granola actually healthy or is it just marketing?\nHere's the label:\n"
                     "Serving size 2/3 cup (55g)\nCalories 260\nProtein 6g\nI'm trying to lose weight."))
    assert got["Serving size 2/3 cup (55g)"] == got["Protein 6g"] == "D", got
    assert got["I'm trying to lose weight."] == "A", got


def test_a_file_name_with_a_note_labels_the_pasted_file() -> None:
    got = dict(codes("you're a devops guy who knows nginx inside out.\nGetting random 502s from nginx.\n"
                     "nginx.conf (relevant part):\n```nginx\nupstream app {\n    keepalive 32;\n}\n```\n"
                     "What should I change?"))
    assert got["nginx.conf (relevant part):"] == got["```nginx\nupstream app {\n    keepalive 32;\n}\n```"] == "D", got


def test_a_line_announcing_the_conditions_of_an_action_is_a_rule_with_its_cases() -> None:
    got = dict(codes("Decide whether the joke below is suitable for a kids' app.\nReject a joke if it:\n"
                     "- mentions violence\n- needs adult knowledge\nJoke: {joke}"))
    assert got["Reject a joke if it:"] == got["- needs adult knowledge"] == "A", got
    for text in ("Escalate to a human agent when:", "Escalate if ANY of these is true:"):
        assert cues_of(text) == {Component.ADDITIONAL_INFORMATION}, text


def test_what_the_model_is_given_and_where_it_comes_from_is_the_setting() -> None:
    assert cues_of("You are given a new GitHub issue from the `fastcsv` repository.") == \
        {Component.ADDITIONAL_INFORMATION}
    for text in ("You are given a question and an answer.", "You are given the following ticket:",
                 "You are given a password and you need to generate the number of steps required to make it strong."):
        assert cues_of(text) == {Component.DIRECTIVE}, text


def test_labelled_pairs_above_an_instruction_and_the_plural_input_label_are_demonstrations() -> None:
    got = dict(codes("Classify each log line by what an on-call engineer should do about it.\n"
                     "Line: ERROR payment provider timeout\nLabel: PAGE\nLine: WARN index refresh took 4.2s\n"
                     "Label: TICKET\nLine: INFO token refreshed\nLabel: IGNORE\n"
                     "Answer with the label only, one per line.\nLines:\n{log_lines}"))
    assert got["Line: ERROR payment provider timeout"] == got["Label: IGNORE"] == "E", got
    assert got["Lines:"] == got["{log_lines}"] == "D", got


def test_needing_a_named_thing_is_the_request() -> None:
    for text in ("I need the summary blurb and tags for the posting page.", "I need microcopy for three empty states.",
                 "I need: start date, notice period and payment terms."):
        assert cues_of(text) == {Component.DIRECTIVE}, text


def test_a_template_of_labels_behind_emoji_codes_is_the_answers_form() -> None:
    got = dict(codes("Summarize this call for the #deal-desk Slack channel.\nUse this template exactly, emojis included:\n"
                     ":office: *Account:*\n:bust_in_silhouette: *Who was on:*\n:warning: *Risks:*\n"
                     "Each field max 2 lines.\nCall summary:\n{summary}"))
    assert got[":office: *Account:*"] == got[":warning: *Risks:*"] == "O", got


def test_headings_and_described_parts_under_use_this_structure_are_the_answers_form() -> None:
    got = dict(codes("Write a PR description.\nUse this structure:\n## Summary\n<2-3 sentences>\n## Changes\n"
                     "<bullets>\n## Testing\n<how>\n\nDiff:\n{diff}"))
    assert got["## Changes"] == got["<bullets>"] == got["## Testing"] == "O", got
    assert cues_of("Use our template:") == {Component.OUTPUT_FORMATTING}


def test_a_json_schema_under_a_line_that_points_at_it_stays_the_answers_form() -> None:
    got = dict(codes("Extract the fields from the trial report.\nFill this schema exactly:\n{\n"
                     "\"first_author\": string,\n\"year\": integer\n}\nReport:\n{report_text}"))
    assert got["\"first_author\": string,"] == got["{"] == "O", got


def test_a_field_named_after_a_member_is_not_the_members_turn() -> None:
    got = dict(codes("Write this month's member newsletter for {gym_name}.\nMonth: {month}\nNew classes: {new_classes}\n"
                     "Member spotlight: {spotlight_name} – {spotlight_story}\nOpen with a one-line hello."))
    assert got["Month: {month}"] == got["New classes: {new_classes}"] == "D", got



def test_a_pasted_shell_script_is_the_input_of_the_check_asked_for() -> None:
    got = dict(codes("can someone sanity check my deploy script before i run it on prod lol\n#!/bin/bash\ncd /opt/app\n"
                     "git pull\nrm -rf node_modules\nnpm install\npm2 restart all\nits an ubuntu box"))
    assert got["cd /opt/app"] == got["git pull"] == got["rm -rf node_modules"] == got["npm install"] == "D", got


def test_a_log_pointed_at_above_the_users_question_is_the_input() -> None:
    got = dict(codes("dbt run failed last night, log below\nwhats wrong and how do i fix it\n"
                     "12:01:44  Completed with 1 error and 0 warnings:\n12:01:44    column \"tier\" does not exist\n"
                     "12:01:44  compiled Code at target/run/models/orders.sql\nwe renamed it on friday"))
    log = [t for t in got if t.startswith("12:01:44")]
    assert [got[t] for t in log] == ["D", "D", "D"], got


def test_a_text_thread_between_me_and_him_is_the_pasted_input() -> None:
    got = dict(codes("we had this argument over text and i cant tell who's being unreasonable\n"
                     "me: can you do the dishes tonight\nhim: i cooked every night\nme: thats not the same\n"
                     "him: whatever\ntell me what each of us could have said better"))
    assert [got[t] for t in got if t.startswith(("me:", "him:"))] == ["D"] * 4, got


def test_the_second_of_two_pasted_extracts_is_input_like_the_first() -> None:
    got = dict(codes("Reconcile these two extracts and list every order where the amounts disagree.\nShopify export:\n"
                     "order,total,status\n#1001,59.00,paid\n#1002,120.50,refunded\nWarehouse (dw.orders):\n"
                     "order_id,amount,status\n1001,59.00,paid\n1002,120.50,paid\nOutput a table."))
    assert got["order_id,amount,status"] == got["1001,59.00,paid"] == got["1002,120.50,paid"] == "D", got


def test_a_databases_schema_is_no_answer_schema() -> None:
    got = dict(codes("We're migrating from the legacy MySQL table below to a new Postgres schema.\n"
                     "Produce a source-to-target mapping.\nReturn JSON matching this schema:"))
    assert got["We're migrating from the legacy MySQL table below to a new Postgres schema."] == "A", got
    assert got["Return JSON matching this schema:"] == "O", got


def test_a_question_run_on_with_the_users_words_after_it_asks_the_task() -> None:
    got = codes("which of these two dog foods is better for my old collie? she's a bit overweight and has a sensitive "
                "tummy\nFOOD A - Senior Lite\nKcal per 100g: 330\nFOOD B - Grain Free Salmon\nKcal per 100g: 385\n"
                "compare them in a small table then tell me which one")
    assert "D" in got[0][1], got


def test_the_details_under_entries_compared_are_part_of_them() -> None:
    got = dict(codes("Which of these two dog foods is better for my old collie?\nFOOD A - Senior Lite\n"
                     "Protein 22%, Fat 9%\nKcal per 100g: 330\nFOOD B - Grain Free Salmon\nProtein 28%, Fat 15%\n"
                     "Kcal per 100g: 385\ncompare them in a small table"))
    assert [got[t] for t in ("Protein 22%, Fat 9%", "Kcal per 100g: 330", "Protein 28%, Fat 15%")] == ["D"] * 3, got
    consulted = dict(codes("Answer the customer's roaming question.\n### Context\nZone 1 (EU, UK): plan allowance.\n"
                           "Calls are free.\nZone 2 (USA, Canada): Travel Pass £6 per day.\nPasses are charged daily.\n"
                           "### Input\n{question}"))
    assert consulted["Passes are charged daily."] == "A", consulted


def test_a_tools_output_pasted_under_its_name_is_the_input() -> None:
    got = codes("This query takes 9 seconds and I need it under 200 ms.\nSELECT c.id FROM customers c\nLIMIT 50;\n"
                "EXPLAIN ANALYZE output:\nLimit  (cost=812340.11..812340.23 rows=50) (actual time=9012.551 loops=1)\n"
                "->  Sort  (actual time=9012.549..9012.553 rows=50 loops=1)\nSuggest index changes.")
    assert [code for _, code in got[3:6]] == ["D", "D", "D"], got
    assert dict(codes("Summarise the ticket.\nExpected output:\nA one-line summary."))["Expected output:"] == "O"


def test_a_pasted_json_file_with_filled_nested_objects_is_no_schema() -> None:
    got = codes("I maintain a CLI called tidyjson.\nWrite the Installation section.\nHere's the package.json:\n{\n"
                "\"name\": \"tidyjson\",\n\"bin\": { \"tidyjson\": \"./bin/tidyjson.js\" },\n"
                "\"engines\": { \"node\": \">=18\" }\n}\nCover npm global install.")
    assert [code for _, code in got[3:8]] == ["D"] * 5, got


def test_an_assignment_in_pasted_code_is_no_scale_the_model_consults() -> None:
    got = codes("Can you explain what this module does?\ndefmodule RateLimiter do\nuse GenServer\n"
                "def handle_call({:allow, key}, _from, state) do\nn = Map.get(state.counts, key, 0)\n"
                "{:reply, true, state}\nend\nend\nAlso tell me if there's a bottleneck here.")
    assert [code for _, code in got[1:8]] == ["D"] * 7, got


def test_a_terraform_error_framed_in_box_drawing_is_the_input() -> None:
    got = codes("terraform plan fails with:\n\n│ Error: Invalid for_each argument\n│\n│   on main.tf line 38:\n"
                "│   38:   for_each = toset(var.names)\n│\n"
                "│ The \"for_each\" set includes values derived from resource attributes that cannot be determined "
                "until apply.\n\nrelevant bit:\n\nresource \"aws_acm\" \"this\" {\n  domain_name = var.domain\n}\n\n"
                "I know -target would work but this runs in CI.\nHow do people usually write this?")
    assert [code for _, code in got[:3]] == ["D"] * 3, got


def test_introducing_my_own_draft_about_a_topic_introduces_the_input() -> None:
    assert cues_of("Here's my draft op-ed about the council's plan to close two libraries.") == {Component.DIRECTIVE}
    assert cues_of("Here is some background about the company:") == {Component.ADDITIONAL_INFORMATION}


def test_a_numbered_list_in_an_examples_reply_stays_in_the_example() -> None:
    got = codes("You are Fern, a houseplant expert.\nExamples:\nSubscriber: my calathea leaves are crispy\n"
                "Fern: Crispy edges usually mean the air is too dry.\n1. Switch to filtered or rain water.\n"
                "2. Group it with other plants for humidity.\n3. Trim the crispy bits with clean scissors.\n"
                "Subscriber: {subscriber_message}\nFern:")
    assert [code for _, code in got[4:7]] == ["E"] * 3, got


@pytest.mark.parametrize("text", ["Considera anche il tempo per arrivare in aeroporto e i bagagli.",
                                  "Bedenk drie korte koppen voor dit bericht.",
                                  "Inventa 4 brincadeiras com tema de piratas."])
def test_more_task_verbs_in_the_imperative_in_other_languages(text: str) -> None:
    assert Component.DIRECTIVE in cues_of(text)


@pytest.mark.parametrize("text", ["Die Mail soll ihr für die Zeit danken und nach dem Einverständnis fragen.",
                                  "La fiaba deve avere una morale sull'umiltà.",
                                  "Le courrier doit reprendre le motif de consultation et la conclusion.",
                                  "El correo debe mencionar el reembolso."])
def test_what_the_artefact_must_do_in_other_languages_is_the_task(text: str) -> None:
    assert cues_of(text) == {Component.DIRECTIVE}


def test_the_length_an_artefact_must_have_in_another_language_stays_form() -> None:
    assert cues_of("O texto deve ter no máximo 100 palavras.") == {Component.OUTPUT_FORMATTING}


def test_what_the_piece_should_do_is_the_task() -> None:
    assert cues_of("It should make the audience almost sympathise with her.") == {Component.DIRECTIVE}
    assert cues_of("It should be 200-250 words, written in the third person.") == {Component.OUTPUT_FORMATTING}


def test_what_each_part_of_the_piece_needs_is_the_task() -> None:
    assert cues_of("Each region needs a name, a climate, one dominant culture and a key resource.") == \
        {Component.DIRECTIVE}
    assert cues_of("Each email needs a subject line under 6 words and a body under 90 words.") == \
        {Component.OUTPUT_FORMATTING}


@pytest.mark.parametrize("text", ["rhyming, 4 or 5 short verses, nothing too long",
                                  "Rhyming is fine but doesn't have to.", "nothing too cheesy pls, and it should rhyme",
                                  "Some rhymes are good, but slant rhymes are fine."])
def test_rhyming_asked_of_the_answer_is_its_form(text: str) -> None:
    assert Component.OUTPUT_FORMATTING in cues_of(text)


@pytest.mark.parametrize("text", ["At the end, give me one small exercise to check I understood.",
                                  "Every fifth message, give me a quick recap of the words I keep getting wrong."])
def test_an_instruction_after_when_it_applies_is_still_an_instruction(text: str) -> None:
    assert is_imperative(text)


def test_whom_the_model_is_assisting_is_the_setting() -> None:
    got = codes("You are assisting the audit team on the FY2024 audit of Marlow Foods Ltd.\n"
                "Review the journal entries below and flag unusual ones.")
    assert [code for _, code in got] == ["A", "D"], got


def test_scaling_a_recipe_is_the_task_and_a_rating_scale_is_form() -> None:
    assert cues_of("Scale this recipe from 4 servings to 10 and convert everything to metric.") == {Component.DIRECTIVE}
    assert Component.OUTPUT_FORMATTING in cues_of("Rate the answer on a scale from 1 to 5.")
    assert dict(codes("Rate the answer.\n\n# Scale\n5 = excellent; 1 = poor"))["# Scale"] != "D"


def test_where_a_story_opens_is_its_content_and_how_an_answer_opens_is_form() -> None:
    assert cues_of("Begin the game with the player waking up in a cryo pod.") == {Component.DIRECTIVE}
    assert cues_of("Start with Ada arriving at the Blue Heron at midnight.") == {Component.DIRECTIVE}
    assert cues_of("Start with a one-line verdict: APPROVE or REJECT.") == {Component.OUTPUT_FORMATTING}


def test_names_a_translation_keeps_in_english_are_a_rule() -> None:
    assert cues_of("Keep product and vendor names (Navan, FlowDesk) in English.") == {Component.ADDITIONAL_INFORMATION}
    assert Component.OUTPUT_FORMATTING in cues_of("Keep the job title in English in brackets after the Arabic.")


@pytest.mark.parametrize("text", ["what does this formula do", "regex to pull the 5 digit zip out of an address column",
                                  "regex for uk postcodes pls, needs to work in javascript",
                                  "am i double booked tomorrow", "lost my bank card at the station what do i do rn",
                                  "which train do i need to be in leeds by noon",
                                  "I need packed-lunch ideas for my son for a whole week.",
                                  "We really need name suggestions for the new cafe.",
                                  "I weighed the parcels below and need the total shipping cost."])
def test_a_bare_request_for_a_pattern_or_a_bare_question_is_the_task(text: str) -> None:
    assert Component.DIRECTIVE in cues_of(text)


def test_a_plural_label_above_the_items_to_work_on_is_the_input() -> None:
    got = codes("Sort each message into every bucket that fits. Buckets: billing, shipping, praise.\nA message that "
                "only thanks us gets praise alone.\nReturn a JSON array of objects.\n\nMessages:\n"
                '[{"id": 7, "text": "Charged twice. Please fix it."},\n {"id": 8, "text": "Parcel never came"}]')
    assert [c for _, c in got[4:]] == ["D", "D", "D", "D"], got


def test_a_paragraph_a_bare_this_points_at_is_the_input() -> None:
    got = codes("can u fill this in for my mileage claim pls\n\nTaxi Receipt\nCity Cabs Ltd\nFriday, 8 March 2024\n"
                "Fare £18.40\nPaid by card\n\nkeep it to one line per item")
    assert [c for _, c in got[1:6]] == ["D"] * 5, got


@pytest.mark.parametrize("label", ["Shift log:", "Slack thread:", "Interview transcript:", "Build logs:"])
def test_a_log_transcript_or_thread_named_by_any_word_is_an_input_label(label: str) -> None:
    assert INPUT_LABEL.match(label)


def test_a_function_spec_spread_over_several_lines_is_consulted() -> None:
    got = codes('Call the function below to book a table for the guest.\n{\n  "name": "book_table",\n'
                '  "description": "Books a table at the restaurant.",\n  "parameters": {\n    "type": "object",\n'
                '    "properties": {\n      "guests": {"type": "integer"},\n      "time": {"type": "string"}\n    }\n'
                '  }\n}\nGuest message: {message}')
    assert [c for _, c in got[1:7]] == ["A"] * 6, got


def test_bare_yaml_keys_under_a_form_announcement_are_the_form() -> None:
    got = codes("Work out the dosage for the animal described.\nReply in YAML only, using this structure:\nanswer:\n"
                "  dose_mg: <number>\n  schedule:\n    times_per_day: <number>\nnotes: <one sentence>\n"
                "Animal: {animal}")
    assert [c for _, c in got[1:7]] == ["O"] * 6, got


def test_the_turns_before_the_last_reply_of_a_chat_are_its_history() -> None:
    chat = ("User: my bike chain keeps slipping on the big cog\nAssistant: Sorry to hear that. Is the chain new?\n"
            "User: its about 2 years old, never replaced\nAssistant: Then it may be worn. Do you have a chain "
            "checker?\nUser: no, what else can i do")
    assert [c for _, c in codes(chat)] == ["A", "A", "A", "A", "A", "A", "D"]
    asked = codes(chat + "\n\nContinue the conversation as the assistant in two sentences.")
    assert {c for _, c in asked[:7]} == {"D"}, asked


@pytest.mark.parametrize("text", ["Give the answer as a fraction.", "Give your answer as a whole number.",
                                  "Report the final answer to three significant figures.",
                                  "Show the conversion factor you used for each.",
                                  "also show how the units cancel so i can check it"])
def test_giving_the_answer_as_or_in_something_is_its_form(text: str) -> None:
    assert cues_of(text) == {Component.OUTPUT_FORMATTING}


def test_a_members_record_under_a_persona_is_consulted() -> None:
    got = codes("# Persona\nYou are Tilly, the helper for Loop Gym.\n# Purpose\nHandle requests to freeze or cancel a "
                "membership.\n# Member record\nName: {first_name}\nPlan: {plan} ({price}/month)\n"
                "Freezes used: {freezes} of 2")
    assert [c for _, c in got[4:]] == ["A", "A", "A", "A"], got


@pytest.mark.parametrize("text", ["You've coached beginners through their first 5K and club runners chasing PBs.",
                                  "You have graded thousands of first-year problem sets, and you are strict but fair."])
def test_what_the_persona_has_done_many_times_is_its_experience(text: str) -> None:
    assert Component.ROLE in cues_of(text)


def test_a_tool_named_in_backticks_with_what_it_does_is_consulted() -> None:
    assert cues_of("- `bash`: run a command; output is truncated at 10,000 characters.") == \
        {Component.ADDITIONAL_INFORMATION}


def test_a_step_label_before_an_em_dash_leaves_the_order_after_it() -> None:
    assert cues_of("Step 1 — Read the email and its attachments.") == {Component.DIRECTIVE}


@pytest.mark.parametrize("text", ["Wyodrębnij z tekstu wszystkie osoby, miejsca i organizacje.",
                                  "Classificeer de klantbeoordeling als POSITIEF, NEGATIEF of NEUTRAAL."])
def test_more_task_verbs_of_other_languages(text: str) -> None:
    assert cues_of(text) == {Component.DIRECTIVE}


@pytest.mark.parametrize("text", ["Maksymalnie 3-4 zdania, pierwsza osoba.", "Niente elenchi puntati né simboli.",
                                  "solo lo importante, en lista",
                                  "Le compte rendu doit tenir en une dizaine de lignes maximum."])
def test_more_words_of_other_languages_for_the_answers_form(text: str) -> None:
    assert cues_of(text) == {Component.OUTPUT_FORMATTING}


def test_a_markdown_heading_naming_a_reference_is_consulted_not_an_order() -> None:
    assert heading_component("## Reference (oral, per dose)") is Component.ADDITIONAL_INFORMATION


@pytest.mark.parametrize("label, component", [("参考示例：", Component.EXAMPLES), ("出力形式：", Component.OUTPUT_FORMATTING),
                                              ("예시:", Component.EXAMPLES), ("王经理您好：", None)])
def test_a_label_in_chinese_japanese_or_korean_opens_the_section_it_names(label: str,
                                                                         component: Component | None) -> None:
    assert heading_component(label) is component


@pytest.mark.parametrize("label", ["商品描述：", "お客様のメッセージ:", "文字起こし：", "고객 메시지:"])
def test_a_label_in_chinese_japanese_or_korean_names_the_input(label: str) -> None:
    assert INPUT_LABEL.match(label)


def test_bracketed_headings_in_a_script_without_capitals_open_sections() -> None:
    got = codes("당신은 북카페 \"책방\"의 예약 도우미입니다.\n[규칙]\n- 예약 전에 인원과 시간을 다시 확인하세요.\n"
                "- 카드 정보를 묻지 마세요.\n[말투]\n- 두세 문장 이내로 짧게 답하세요.")
    assert [c for _, c in got[1:]] == ["A", "A", "A", "O", "O"], got


def test_the_text_a_task_reworks_may_be_named_as_the_users_own() -> None:
    got = codes("Please polish my essay so it reads more smoothly for the scholarship panel.\n\n"
                "Growing up on a farm taught me patience. Every spring we waited for rain.\n"
                "Some years it never came, and we learned to plan for that.\n\nKeep it under 300 words.")
    assert [c for _, c in got] == ["D", "D", "D", "D", "O"]


def test_the_last_paragraph_a_bare_this_points_at_is_the_input() -> None:
    got = codes("Can you turn this into a proper referral letter? I'm the practice nurse.\n\n"
                "68F, type 2 diabetes for 12 years. HbA1c 71 last month, up from 58. Impression: poor control. "
                "Plan: refer to the diabetes clinic.")
    assert [c for _, c in got[2:]] == ["D"] * 4, got


def test_numbered_posts_a_task_asks_to_imitate_are_the_examples() -> None:
    got = codes("Write an Instagram post for our new oat latte, in the same voice as our previous coffee posts.\n"
                "Previous post 1:\nMeet the flat white that thinks it's a dessert. Caramel, sea salt, zero regrets.\n"
                "Previous post 2:\nCold brew season is open. Twelve hours steeped, two seconds gone.\n\n"
                "New drink: oat latte with maple, on sale from Monday.")
    assert [c for _, c in got[1:7]] == ["E"] * 6, got


def test_a_table_row_the_splitter_cut_inside_a_cell_stays_a_row_of_the_input() -> None:
    got = codes("Check these expense claims for anything outside policy.\n| Claim | Amount | Note |\n|---|---|---|\n"
                "| C-1 | £40 | Team lunch. Receipt attached. |\n| C-2 | £310 | Hotel, two nights |")
    assert {c for _, c in got[1:]} == {"D"}, got


def test_a_sentence_introducing_the_pasted_input_belongs_to_it() -> None:
    got = codes("I'm a category buyer for a restaurant chain. Our produce supplier just sent this:\n\n---\n"
                "Subject: Price adjustment from 1 December\n\nDear partner,\nWe will apply a 7.5% increase.\n"
                "Kind regards,\nFresh Fields\n---\n\nDraft a reply pushing back on the timing.")
    assert got[1][1] == "D", got
    kept = codes("You are a support bot.\nOur plans are listed here:\nBasic: $5\nPro: $10\nAnswer the question.")
    assert kept[1][1] == "A", kept


@pytest.mark.parametrize("text", ["just give me the steps, short pls", "Just send the fixed code.",
                                  "Just give the region and the number."])
def test_just_give_me_asks_for_a_bare_answer(text: str) -> None:
    assert cues_of(text) == {Component.OUTPUT_FORMATTING}


@pytest.mark.parametrize("text", ["Generate dad jokes about gardening in the same style as the examples.",
                                  "Write pandas code that cleans the CSV below and saves the result as clean.csv.",
                                  "Rewrite these resume bullets to be more results-focused:"])
def test_the_examples_style_and_a_file_name_say_nothing_of_the_answers_form(text: str) -> None:
    assert cues_of(text) == {Component.DIRECTIVE}


def test_a_personas_experience_and_temper_describe_it() -> None:
    got = codes("You are a senior application security engineer embedded in a developer chat tool.\n"
                "You have ten years of experience with OWASP Top 10 issues.\nYou're endlessly patient with beginners.\n"
                "Review the code the user pastes.")
    assert [code for _, code in got] == ["R", "R", "R", "D"], got


@pytest.mark.parametrize("title", ["# TripMate: trip-planning assistant for Skyline Travel customers",
                                   "# Assistant: MedExpress Pharmacy customer support"])
def test_a_title_naming_the_assistant_is_the_role(title: str) -> None:
    got = codes(title + "\nYou are TripMate, the in-app travel assistant.\n## Your job\nHelp customers plan trips.")
    assert got[0][1] == "R", got


def test_a_contrast_shown_twice_is_a_demonstration() -> None:
    got = codes("Reply to the customer's complaint about their smart meter.\n\n"
                "Bad: \"Your concerns have been escalated.\"\nGood: \"I've booked an engineer to take a look.\"\n\n"
                "Bad: \"Estimated billing is permitted.\"\nGood: \"We'll correct the bills with your real usage.\"\n\n"
                "Engineer visits can be booked from 3 working days ahead.\nComplaint: {complaint}")
    assert [code for _, code in got[1:5]] == ["E"] * 4, got
    assert got[5][1] == "A", got


def test_strings_a_pattern_should_and_should_not_match_are_examples() -> None:
    got = dict(codes("I need a regular expression that matches simple chemical formulas.\nShould match:\nH2O\nC6H12O6\n"
                     "Should not match:\nh2o\nNaCL\nGive the pattern and explain it."))
    assert [got[t] for t in ("Should match:", "H2O", "C6H12O6", "Should not match:", "h2o", "NaCL")] == ["E"] * 6, got


def test_a_paste_that_opens_on_a_failure_needs_no_pointer() -> None:
    got = codes("rust borrow checker is yelling at me again lol\n\nerror[E0502]: cannot borrow `self.items`\n"
                "  --> src/inventory.rs:31:13\n   |\n29 |         for item in self.items.iter() {\n"
                "31 |                 self.items.remove(0);\n\nwhats the idiomatic way to drop them")
    assert [code for _, code in got[1:6]] == ["D"] * 5, got


def test_the_fields_an_extraction_fills_are_its_form() -> None:
    assert cues_of("Fields: insurer, quote reference, vehicle, annual premium, cover level.") == \
        {Component.OUTPUT_FORMATTING}


def test_a_task_ending_on_a_preposition_is_no_heading() -> None:
    got = codes("## Scope\nHelp customers with:\n- ordering repeat prescriptions,\n- tracking deliveries.\n\n"
                "## Clinical boundaries\n- You do not give dosing advice.")
    assert [code for _, code in got[1:4]] == ["D", "D", "D"], got


def test_what_a_quizs_wrong_options_must_be_is_the_task() -> None:
    assert cues_of("Distractors should be plausible misconceptions, not jokes.") == {Component.DIRECTIVE}


def test_needing_the_material_at_a_new_size_asks_the_task() -> None:
    assert Component.DIRECTIVE in cues_of("This query takes 9 seconds on production and I need it under 200 ms.")


def test_for_each_item_above_its_steps_is_the_task() -> None:
    assert cues_of("For each mention:") == {Component.DIRECTIVE}


def test_do_a_and_put_together_ask_the_task() -> None:
    assert cues_of("Do a Pareto analysis and tell me which two causes to attack first.") == {Component.DIRECTIVE}
    assert cues_of("Put together a 30-day onboarding plan for her.") == {Component.DIRECTIVE}
    assert Component.DIRECTIVE not in cues_of("Do not round the totals.")


def test_using_only_the_material_below_is_a_rule() -> None:
    assert cues_of("Use only the help-centre articles below.") == {Component.ADDITIONAL_INFORMATION}
    assert cues_of("Use the documentation chunks below as your only source of truth.") == \
        {Component.ADDITIONAL_INFORMATION}
    assert cues_of("Use the policy excerpts below to answer the customer's question.") == {Component.DIRECTIVE}
    assert Component.ADDITIONAL_INFORMATION not in cues_of("Use the template below.")


def test_a_copy_editor_is_a_persona() -> None:
    assert cues_of("You are a copy editor who knows the house style guide inside out.") == {Component.ROLE}
    assert Component.ROLE not in cues_of("You are a copy of the original bot.")


def test_the_email_a_reply_answers_is_its_input() -> None:
    got = dict(codes("Write a reply to the resident email below.\nGuidelines:\n"
                     "- Do not promise a specific repair date.\n- Keep it under 150 words.\n\n"
                     "Resident email (request #PW-48812):\nSubject: Pothole on Dresden Dr\n"
                     "I reported the pothole two weeks ago and nothing has happened.\n"
                     "I want to know when this will be fixed.\nKaren M."))
    assert got["Resident email (request #PW-48812):"] == got["Subject: Pothole on Dresden Dr"] == "D"
    assert got["I reported the pothole two weeks ago and nothing has happened."] == "D"


def test_material_said_to_be_below_is_pointed_at() -> None:
    assert cues_of("Our welding inspection SOP is below.") == {Component.DIRECTIVE}
    assert cues_of("The invoices are listed below, one per line.") == {Component.DIRECTIVE}
    assert Component.DIRECTIVE not in cues_of("The latest patch notes are below; trust them over what you remember.")


def test_the_bill_the_user_speaks_of_pasted_at_the_end_is_the_input() -> None:
    got = codes("Got this bill after my dog's overnight stay and I don't understand half of it.\n"
                "Can you go through each line and say what it probably was for?\n"
                "Then tell me if anything looks unusual.\n\nINVOICE #88214 – Harbourside Veterinary Centre\n"
                "Consultation – emergency out-of-hours ........\n£185.00\nSedation ........\n£65.00")
    assert [code for _, code in got[3:]] == ["D"] * 5, got


def test_labelled_pairs_before_a_request_for_one_more_are_demonstrations() -> None:
    got = codes("Write in-flight announcements in a warm, slightly playful tone.\n\n"
                "Here are two announcements from our cabin crew handbook:\n\n"
                "Situation: Seatbelt sign on for turbulence\nAnnouncement: Hi everyone, please buckle up.\n"
                "We'll be back with coffee soon.\n\nSituation: Arrival in Tromsø\nAnnouncement: Welcome to Tromsø.\n"
                "Mind your hat on the stairs.\n\nNow write one for this situation: {situation}")
    assert [code for _, code in got[2:8]] == ["E"] * 6, got
    assert got[-1] == ("Now write one for this situation: {situation}", "D")


def test_a_quoted_review_after_its_star_rating_is_material() -> None:
    review = '★☆☆☆☆ "Technician turned up 3 hours late and left cable clips all over my floor. Avoid."'
    assert material_lines(["Respond publicly to this Google review.", review], [True, False]) == {1}
    assert material_lines(["Respond publicly to this Google review.", '★★☆☆☆ "Late again,', 'no call."'],
                          [True, False, False]) == {1, 2}


def test_facts_in_a_system_prompt_that_describes_its_assistant_are_consulted() -> None:
    got = dict(codes("This assistant answers support questions from users of the Vireo crypto wallet app.\n"
                     "Facts about Vireo:\n- Vireo is self-custodial: users hold their own keys.\n"
                     "- Supported networks: Bitcoin, Ethereum, Polygon, Solana.\nGuidelines:\n"
                     "- Do not speculate on coin prices.\nAnswer in the same language the user writes in.\n"
                     "User question: {question}"))
    assert got["Facts about Vireo:"] == got["- Vireo is self-custodial: users hold their own keys."] == "A"
    assert got["This assistant answers support questions from users of the Vireo crypto wallet app."] == "D"


def test_a_table_in_a_prompt_for_an_assistant_serving_members_is_consulted() -> None:
    got = codes("You help members of the Aurora Miles programme understand their tier status.\n"
                "Tier thresholds (tier points earned in a calendar year):\n| Tier | Tier points |\n|---|---|\n"
                "| Silver | 300 |\n| Gold | 700 |\nMember's message: {message}\n"
                "Work out how many more points the member needs for the next tier.")
    assert [code for _, code in got[1:6]] == ["A"] * 5, got


def test_an_example_announced_at_the_end_of_a_paragraph_opens_the_example() -> None:
    got = codes("We send every new resident a welcome email on move-in day. Here's one we liked from last year:\n"
                "Subject: Welcome home to The Linden, Sam!\nHi Sam,\nWe're so glad you're here.\n"
                "See you around the building!\n\nWrite a new one in the same voice for {resident_name}.")
    assert [code for _, code in got[1:6]] == ["E"] * 5, got


def test_a_typed_yaml_schema_under_its_label_is_the_answers_shape() -> None:
    got = codes("Convert the user's plain-English alert requests into YAML rules for our budgeting app.\nSchema:\n"
                "rules:\n- name: string\ntrigger: one of [balance_below, transaction_above]\n"
                "account: string or \"any\"\nthreshold: number\nOutput only the YAML.\nUser request: {request}")
    assert [code for _, code in got[1:7]] == ["O"] * 6, got


def test_the_tables_a_query_is_written_against_are_consulted() -> None:
    got = codes("Given the following GTFS tables, write a PostgreSQL query that answers the question.\n"
                "stops(stop_id, stop_name, stop_lat, stop_lon)\nroutes(route_id, route_short_name, route_type)\n"
                "Question: Which 10 stops are served by the most distinct routes?\nOnly output the SQL.")
    assert [code for _, code in got[:4]] == ["D", "A", "A", "D"], got
    got = codes("Given this SQLite schema, write a SQL query that answers the question.\n"
                "CREATE TABLE accounts (\n  id INTEGER PRIMARY KEY,\n  name TEXT\n);\nQuestion: How many accounts?")
    assert [code for _, code in got[1:5]] == ["A"] * 4, got


def test_the_categories_a_task_sorts_into_are_consulted() -> None:
    got = codes("Classify each customer message into one of these categories:\n"
                "- OUTAGE: the customer reports a total loss of service\n- BILLING: charges, payments, credits\n"
                "Answer with the category name only.\nMessage: \"{customer_message}\"\nCategory:")
    assert [code for _, code in got[:4]] == ["D", "A", "A", "O"], got


def test_a_heading_over_the_required_sections_is_the_form() -> None:
    assert heading_component("## Required sections") == Component.OUTPUT_FORMATTING
    got = codes("Write a postmortem from the incident notes the user pastes.\n\n## Required sections\n"
                "1. Summary (2-3 sentences)\n2. Impact (customers affected, duration)\n3. Root cause")
    assert [code for _, code in got[1:]] == ["O"] * 4, got


def test_date_conventions_allowed_values_and_required_keys_are_the_form() -> None:
    for text in ("Use ISO dates.", 'severity must be one of "minor", "major", "critical".',
                 'Each object needs the keys "date", "train_number" and "coach_seat".'):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text


def test_the_answers_shape_shown_below_is_the_form() -> None:
    for text in ("Use this schema:", "Below is the output format you must follow for every record you generate.",
                 "Use 24-hour times.", "Fill this schema exactly:", "Use this shape:"):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text


def test_how_numbers_and_steps_are_written_is_the_form() -> None:
    for text in ("Give percentages rounded to whole numbers.", "Number every step and put warnings in capitals.",
                 "Start numbering at LBL-PM-001."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text


def test_a_heading_over_the_fields_is_the_form() -> None:
    assert heading_component("# Fields") == heading_component("Fields:") == Component.OUTPUT_FORMATTING
    got = dict(codes("# Task\nAbstract the key terms of the lease excerpt below into a table.\n\n# Fields\n"
                     "Use these fields, in this order:\n- Landlord\n- Tenant\n\n# Lease excerpt\n1.1 Parties."))
    assert got["# Fields"] == got["Use these fields, in this order:"] == got["- Landlord"] == "O"


def test_notes_a_text_is_written_using_are_its_input_a_policy_is_not() -> None:
    got = dict(codes("Write a fact-check article of about 600 words on the claim below, using the research notes our "
                     "checker compiled.\nClaim: property taxes have gone up 60 percent in ten years.\n"
                     "Research notes:\n- The median bill was $2,840 in 2014 and $3,910 in 2024.\n"
                     "- The tax rate fell from $14.20 to $12.85.\nExplain the difference in plain terms."))
    assert got["Research notes:"] == got["- The tax rate fell from $14.20 to $12.85."] == "D"
    got = dict(codes("Write a reply to the customer using the refund policy below.\n\nRefund policy:\n"
                     "- Refunds within 30 days.\n\nCustomer message: {message}"))
    assert got["Refund policy:"] == got["- Refunds within 30 days."] == "A"


def test_a_text_asked_for_at_a_length_is_task_and_form() -> None:
    for text in ("Write a one-page work instruction for using a torque wrench.",
                 "Write a 150-word game recap for the website from the box score below."):
        assert cues_of(text) == {Component.DIRECTIVE, Component.OUTPUT_FORMATTING}, text


def test_a_question_opening_on_when_asks_the_task() -> None:
    assert cues_of("When is my trash pickup during Thanksgiving week?") == {Component.DIRECTIVE}
    assert cues_of("When the user asks about refunds, point them to the policy.") == {Component.ADDITIONAL_INFORMATION}


def test_a_question_typed_without_its_mark_after_a_comma_is_the_task() -> None:
    text = "got a jury summons for next month but i have a surgery scheduled that week, how do i postpone it"
    assert cues_of(text) == {Component.DIRECTIVE}


def test_a_paragraph_of_prose_under_here_it_is_is_the_input_whatever_it_says() -> None:
    speech = ("Good evening everyone. When Daniel first told me about Megan, he said she really got him. "
              "Within four minutes we were both in the lake. A swan took an interest. "
              "So please raise your glasses, to Daniel and Megan.")
    prompt = f"can you tighten up my best man speech? its too long\n\nhere it is:\n\n{speech}"
    got = codes(prompt)
    assert [c for _, c in got[2:]] == ["D"] * 5, got
    # a short note after the intro is no pasted paragraph
    assert codes("here it is:\n\nI am vegetarian. I live in Leeds.")[1:] == [("I am vegetarian.", "A"),
                                                                             ("I live in Leeds.", "A")]


def test_delimiters_that_title_three_blocks_of_one_kind_hold_the_input() -> None:
    proposals = "".join(f"--- Proposal {n}: {name} ---\nCapacity {cap}.\nVenue fee ${fee}.\n"
                        for n, name, cap, fee in ((1, "The Foundry", 250, "6,500"), (2, "Aurora Rooftop", 220, "7,100"),
                                                  (3, "Larimer Hall", 300, "5,900")))
    prompt = ("We're choosing a venue for our holiday party. I've pasted the three proposals we received. "
              "Compare them on total cost and capacity.\n\n" + proposals + "\nPresent the comparison as a table.")
    got = codes(prompt)
    assert [c for _, c in got[3:-1]] == ["D"] * 9, got
    assert got[-1][1] == "O"



def test_a_json_structure_the_answer_goes_into_is_its_form() -> None:
    for text in ("From the grant report below, pull out the headline figures into this JSON structure:",
                 "Return the figures in this JSON template:"):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text
    assert Component.OUTPUT_FORMATTING not in cues_of("Fix the syntax errors in this JSON.")


def test_numbered_entries_the_task_answers_only_by_are_consulted() -> None:
    extracts = ("[Extract 1 — Volunteer Expenses Policy, section 3.1]\nCar mileage is reimbursed at 45p per mile.\n"
                "[Extract 2 — Volunteer Expenses Policy, section 3.4]\nClaims must be submitted within 3 months.\n")
    prompt = ("Answer the volunteer's question using only the policy extracts below.\n\n" + extracts +
              "\nVolunteer's question: Can I claim my parking from January now?")
    got = codes(prompt)
    assert [c for _, c in got[1:5]] == ["A"] * 4, got
    compared = codes("Compare the quotes below and pick the cheapest.\n\nQuote 1 - Acme, £400\nQuote 2 - Bolt, £380")
    assert [c for _, c in compared[1:]] == ["D", "D"], compared


def test_a_field_the_task_names_with_its_owner_is_the_input() -> None:
    prompt = ("Assign a condition grade to the vehicle using the auction's grading scale and the inspector's notes.\n"
              "Grading scale:\n5.0 - Like new\n4.0 - Minor cosmetic wear\n\n"
              "Inspector notes: 2020 Nissan Rogue SV, 67k.\nThree door dings on driver side.\nTires 5/32.\n\n"
              "Give the grade on the first line.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Inspector notes: 2020 Nissan Rogue SV, 67k.", "Three door dings on driver side.",
                             "Tires 5/32.")] == ["D", "D", "D"], got
    assert got["5.0 - Like new"] == "A"


def test_base_them_on_these_notes_points_at_the_input() -> None:
    prompt = ("Write five FAQ entries for our collision center's website.\n"
              "Base them on these notes from our front desk:\n"
              "- average repair takes 5 to 10 business days\n- we do free estimates, walk in or by appointment\n"
              "Don't mention insurance companies by name.")
    assert [c for _, c in codes(prompt)[1:4]] == ["D", "D", "D"]
    assert cues_of("Base your answers on mainstream clinical guidance.") != {Component.DIRECTIVE}


def test_a_register_and_an_answer_put_on_its_first_line_are_form() -> None:
    for text in ("Use a formal, respectful register (usted).", "Give the grade on the first line."):
        assert Component.OUTPUT_FORMATTING in cues_of(text), text
    assert Component.OUTPUT_FORMATTING not in cues_of("A second train leaves on the same line at 14:40.")


def test_how_the_answer_shows_its_parts_and_what_it_opens_with_are_form() -> None:
    for text in ("Show the groups as headed lists.", "Open with the single most striking number."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text
    assert Component.OUTPUT_FORMATTING not in cues_of("Open the file and read the first line.")


def test_a_form_demand_that_also_asks_to_tell_or_explain_keeps_the_task() -> None:
    prompt = ("A guest wrote to us in Spanish asking to cancel. Write the reply.\n"
              "Reply to them in Spanish, confirming the cancellation, and tell them the deposit will be refunded.\n"
              "Answer WARRANTY or CUSTOMER PAY, then explain in plain language what the customer owes.")
    assert [c for _, c in codes(prompt)[2:]] == ["DO", "DO"]


def test_labelled_pairs_below_a_task_that_points_at_them_as_examples_are_demonstrations() -> None:
    prompt = ("We name every new shade in our knitwear range.\n"
              "Suggest names for the new shades listed at the end, following the style of these examples.\n"
              "\nShade: dusty pale pink\nName: Rosehip Dust\n\nShade: deep bottle green\nName: Forest Floor\n\n"
              "Names are two words and evoke the British coast.\n\nNew shades:\n- rusty orange-brown\n- inky navy")
    got = codes(prompt)
    assert [c for _, c in got[2:6]] == ["E"] * 4, got
    assert [c for _, c in got[-2:]] == ["D", "D"], got


def test_a_heading_that_opens_on_reference_names_what_is_consulted_whatever_its_topic() -> None:
    for text in ("# Reference: release requirements", "## Reference: CQC key questions"):
        assert heading_component(text) == Component.ADDITIONAL_INFORMATION, text
    assert heading_component("## Requirements") == Component.DIRECTIVE


def test_a_long_act_as_persona_joined_by_and_to_an_editing_task_is_role_and_task() -> None:
    text = ("Act as a musical director who has run live shows for touring pop acts for twenty years, and tighten up "
            "this setlist for a 50-minute festival slot.")
    assert cues_of(text) == {Component.ROLE, Component.DIRECTIVE}
    assert cues_of("Act as a pirate who has sailed the seven seas for decades, and never break character.") == \
        {Component.ROLE}


def test_do_the_following_over_its_steps_asks_the_task() -> None:
    prompt = ("Help me work through today's clearing calls.\nFor each applicant I paste in, do the following:\n"
              "1. Check whether their grades meet the entry requirement.\n"
              "2. Check whether the course still has places.")
    assert [c for _, c in codes(prompt)] == ["D"] * 4


def test_fields_typed_in_lower_case_with_figures_are_a_pasted_record() -> None:
    prompt = ("can you sanity check our tour budget before we commit? 5 shows, we're driving ourselves\n\n"
              "fuel: 1100 miles at roughly 35mpg\nvan hire: £95/day for 6 days\nhotels: 4 nights, 2 rooms\n"
              "food: £15 per person per day\n\nI reckon we roughly break even but I'm not sure. show the working")
    got = dict(codes(prompt))
    assert [got[t] for t in ("fuel: 1100 miles at roughly 35mpg", "van hire: £95/day for 6 days",
                             "hotels: 4 nights, 2 rooms", "food: £15 per person per day")] == ["D"] * 4, got


def test_the_codes_a_task_assigns_are_consulted() -> None:
    prompt = ("I'm coding open-ended survey responses for our checkout redesign study.\n"
              "Assign each response one of these codes:\n\nPRICE - mentions cost, fees or value for money\n"
              "TRUST - mentions security or payment safety\n\nNow code these:\n1. \"love the new colours\"")
    got = dict(codes(prompt))
    assert [got[t] for t in ("PRICE - mentions cost, fees or value for money",
                             "TRUST - mentions security or payment safety")] == ["A", "A"], got


def test_a_text_asked_for_in_a_register_is_task_and_form() -> None:
    for text in ("Please write a polite, point-by-point response that thanks each reviewer.",
                 "Draft a firm letter to the bakery asking them to stop using our mark."):
        assert cues_of(text) == {Component.DIRECTIVE, Component.OUTPUT_FORMATTING}, text
    assert cues_of("Write a letter to the bakery asking them to stop.") == {Component.DIRECTIVE}


def test_getting_round_to_something_is_not_rounding() -> None:
    assert cues_of("I only got round to trying them on now because I was away.") == set()
    assert cues_of("Round to two decimal places.") == {Component.OUTPUT_FORMATTING}


def test_a_heading_naming_what_the_task_checks_holds_its_input() -> None:
    prompt = ("You will check entries from a ship's record book against the rules below and list any entry that is "
              "incomplete.\n\n## Rules (reference)\n- Every operation must record the date and the volume.\n"
              "- Entries must be signed by the officer in charge.\n\n## Entries to check\n"
              "| # | Date | Operation | Volume m3 | Signed |\n| 1 | 03/05 | Uptake | 4,200 | C/O |\n"
              "| 2 | 14/05 | Discharge | 2,100 | |")
    got = dict(codes(prompt))
    assert [got[t] for t in ("## Entries to check", "| 1 | 03/05 | Uptake | 4,200 | C/O |",
                             "| 2 | 14/05 | Discharge | 2,100 | |")] == ["D"] * 3, got
    assert heading_component("CONSORT items to check:") != Component.DIRECTIVE


def test_material_handed_over_beside_the_task_is_its_input() -> None:
    prompt = ("Here's this week's stock count from the surgeries. Turn it into a CSV reorder list for anything below "
              "its minimum level. Order enough to bring each item back up to twice its minimum.\n\n"
              "Nitrile gloves M (HS-44021): 6 boxes, min 10\nCotton rolls (HS-10233): 4 bags, min 3\n"
              "Saliva ejectors (KM-5512): 1 bag, min 4\n\nOnly output the CSV, with a header row.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Nitrile gloves M (HS-44021): 6 boxes, min 10", "Cotton rolls (HS-10233): 4 bags, min 3",
                             "Saliva ejectors (KM-5512): 1 bag, min 4")] == ["D"] * 3, got


def test_entries_the_task_uses_only_are_consulted_whatever_their_label() -> None:
    prompt = ("Answer the shipper's question using only the policy extracts below. Quote the clause number for every "
              "point you make.\n\n[Extract 1 – Institute Cargo Clauses (A) 1/1/09, Clause 1]\nThis insurance covers "
              "all risks of loss of or damage to the subject-matter insured.\n\n[Extract 2 – Clause 4.3]\nIn no case "
              "shall this insurance cover loss caused by insufficiency of packing.\n\nShipper's question: Our "
              "machinery arrived with the crate broken. Are we covered?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("[Extract 2 – Clause 4.3]", "In no case shall this insurance cover loss caused by "
                             "insufficiency of packing.")] == ["A", "A"], got
    assert got["Are we covered?"] == "D", got


def test_a_thing_asked_for_by_name_and_please_is_the_task() -> None:
    for text in ("quick voyage estimate please.", "Sprint 42 summary for stakeholders, please.",
                 "Six-word stories, please."):
        assert cues_of(text) == {Component.DIRECTIVE}, text
    assert Component.DIRECTIVE not in cues_of("No hashtags please.")


def test_a_label_named_by_an_abbreviation_is_not_read_as_a_foreign_preposition() -> None:
    prompt = ("Compare the agent's proforma disbursement account with the final DA and flag every item that went up by "
              "more than 10% or appears only in the final.\n\nProforma DA (USD):\nPort dues 18,400\nPilotage 6,250\n"
              "Total 24,650\n\nFinal DA (USD):\nPort dues 18,400\nPilotage 6,250\nMooring boat 1,150\nTotal 25,800\n\n"
              "Tug use depends on the canal authority's orders on the day.\n\nFor each flagged item give the "
              "difference in USD.")
    got = [c for _, c in codes(prompt)]
    assert got[:10] == ["D"] * 10, got


def test_keeping_the_letter_formal_and_to_one_side_is_form() -> None:
    for text in ("Keep the letter formal and no longer than one side of A4.", "Keep the email warm."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text


def test_the_details_under_entries_named_like_a_verb_are_input_too() -> None:
    prompt = ("We need to replace the bucket on our excavator and have two quotes. Which is better value?\n\n"
              "Quote 1 - Hardline Buckets Pty Ltd\nHeavy-duty rock bucket, 6.7 m3, Hardox 450 wear package.\n"
              "Price: $148,500 ex GST.\nLead time: 10 weeks.\n\nQuote 2 - Quarrytec\n"
              "Severe-duty rock bucket, 6.5 m3, Hardox 500 wear package.\nPrice: $162,900 ex GST.\n"
              "Lead time: 6 weeks.\n\nLay out the comparison as a table first, then give a recommendation.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Heavy-duty rock bucket, 6.7 m3, Hardox 450 wear package.", "Price: $148,500 ex GST.",
                             "Price: $162,900 ex GST.", "Lead time: 6 weeks.")] == ["D"] * 4, got


def test_tidy_up_asks_the_task() -> None:
    assert cues_of("Please tidy up my observing notes from Saturday into a proper log.") == {Component.DIRECTIVE}


def test_notes_a_task_tidies_up_are_its_input() -> None:
    prompt = ("Please tidy up my observing notes from Saturday into a proper log.\n\n"
              "sat 8th mar, garden, seeing ok-ish 3/5, transparency good\n"
              "m42 - lovely, trapezium 4 stars, E star maybe??\n"
              "m1 crab - faint smudge, needed averted vision\nm44 beehive w/ 32mm, filled the field\n\n"
              "Make it a Markdown table with columns Object, Common name, Eyepiece, Notes.")
    assert [c for _, c in codes(prompt)][:5] == ["D"] * 5, codes(prompt)


def test_three_replies_headed_by_from_alone_make_a_thread() -> None:
    prompt = ("Below is the email thread about who's doing what for the dinner. Pull out a clear list of who has "
              "volunteered for which job.\n\nFrom: Ruth\nI can do soup as usual.\n\nFrom: Avi\nPut me and Noa down "
              "for set-up. We can be there from 4.\n\nFrom: Miriam\nI'll bring dessert.\n\n"
              "Use a two-column table, Job | Volunteer(s).")
    got = dict(codes(prompt))
    assert [got[t] for t in ("From: Avi", "Put me and Noa down for set-up.", "We can be there from 4.",
                             "From: Miriam", "I'll bring dessert.")] == ["D"] * 5, got


def test_heading_somewhere_is_no_heading_of_the_answer() -> None:
    assert Component.OUTPUT_FORMATTING not in cues_of(
        "Perhaps it is staying in your seat after the final hymn instead of heading straight for the kitchen.")
    assert cues_of("Use a short heading for each part.") == {Component.OUTPUT_FORMATTING}


def test_a_label_named_with_its_abbreviation_in_the_task_holds_its_input() -> None:
    prompt = ("You are a conjunction assessment analyst at a satellite operations centre.\n"
              "I will paste a conjunction data message (CDM) summary below. Assess whether a manoeuvre should be "
              "considered.\n\nOur operator policy: we plan a manoeuvre when the probability of collision exceeds "
              "1e-4.\n\nCDM summary:\nPrimary: ORBIS-3 (NORAD 58211)\nSecondary: FENGYUN 1C DEB (NORAD 31402)\n"
              "Miss distance: 612 m\n\nOutput the report as YAML.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("CDM summary:", "Primary: ORBIS-3 (NORAD 58211)",
                             "Miss distance: 612 m")] == ["D"] * 3, got


def test_a_ruled_title_naming_what_the_task_uses_only_is_consulted() -> None:
    prompt = ("Answer the supervisor's question using only the blasting procedure extract below.\n"
              "If the extract does not cover the question, say that it doesn't.\n\n"
              "--- Extract: Bellmore Quarry Blasting Procedure BP-07, rev 4 ---\n"
              "5.1 The shotfirer shall confirm the exclusion zone is clear before firing.\n"
              "5.2 The minimum exclusion zone is 300 m for personnel.\n--- End of extract ---\n\n"
              "Question: One of the holes didn't go off, how long do we have to wait before going back in?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("5.1 The shotfirer shall confirm the exclusion zone is clear before firing.",
                             "5.2 The minimum exclusion zone is 300 m for personnel.")] == ["A", "A"], got


def test_a_label_that_says_to_consult_its_block_is_consulted() -> None:
    prompt = ("You are a friendly sales advisor for StarPath Optics, an online telescope shop.\n"
              "Help the customer below choose a telescope from our current range.\n\n"
              "Current range (consult this, do not invent other models):\n- StarPath Mini 70 — 70 mm refractor, $129.\n"
              "- StarPath Dob 8 — 203 mm Dobsonian, $449.\n\nCustomer message:\n\"Hi! I can spend about $300 max.\"")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Current range (consult this, do not invent other models):",
                             "- StarPath Mini 70 — 70 mm refractor, $129.")] == ["A", "A"], got


def test_a_dashed_title_naming_what_the_task_reviews_holds_its_input() -> None:
    prompt = ("As an experienced hydrogeologist, review the pit dewatering plan below and identify the three biggest "
              "risks.\n\nDewatering plan - Stage 3 pushback, Tarrawong Pit\n- Current pit floor: 210 mRL.\n"
              "- Sump pumps in pit: 2 x 200 kW, one on standby.\n\nFor each risk, give one mitigation.\n\n"
              "Review the handoff notes below as in a design critique.\n\nHandoff notes — Subscription pause\n"
              "- Entry point: \"Pause subscription\" link on the Billing page.\n- Analytics events: not specified.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Dewatering plan - Stage 3 pushback, Tarrawong Pit", "- Current pit floor: 210 mRL.",
                             "- Sump pumps in pit: 2 x 200 kW, one on standby.",
                             "Handoff notes — Subscription pause")] == ["D"] * 4, got


def test_a_persona_whose_clause_holds_a_version_number_still_opens_the_task() -> None:
    prompt = ("As an experienced genealogist who knows the GEDCOM 5.5.1 standard well, check this export from my "
              "family tree program for data problems before I upload it.\n\n0 @I14@ INDI\n1 SEX M\n\n"
              "List each problem on its own line.")
    assert dict(codes(prompt))["As an experienced genealogist who knows the GEDCOM 5.5.1 standard well, check this "
                               "export from my family tree program for data problems before I upload it."] == "DR"


def test_the_record_a_task_transcribes_is_its_input() -> None:
    prompt = ("Please transcribe this 1881 census entry exactly as written, keeping the original spelling.\n\n"
              "Schedule 142, 14 Mill Lane, Hebden\nMary Ann do, Wife, Mar, 44, —, Yorks Wadsworth\n"
              "Hannah Greenwood, Mother in law, Wid, 71, Annuitant, Yorks Wadsworth\n\n"
              "Put it into a table with the columns Name, Relation, Condition, Age, Occupation, Birthplace.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Mary Ann do, Wife, Mar, 44, —, Yorks Wadsworth",
                             "Hannah Greenwood, Mother in law, Wid, 71, Annuitant, Yorks Wadsworth")] == ["D", "D"], got


def test_a_prompt_that_speaks_of_itself_pastes_no_prompt() -> None:
    prompt = ("## Purpose\nThis prompt drives the dispatch release checker used by the OCC before each flight is "
              "released.\n\n## Reference\n- Alternate minimums: 600 ft ceiling and 2 SM visibility.\n\n"
              "## Output\nReturn one line per check in the form `CHECK n: PASS` or `CHECK n: FAIL - <reason>`.\n"
              "Do not comment on anything outside the four checks.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("- Alternate minimums: 600 ft ceiling and 2 SM visibility.", "## Output",
                             "Do not comment on anything outside the four checks.")] == ["A", "O", "O"], got
    got = dict(codes("the tone bit of our support bot config reads super robotic, can you loosen it up?\n\n"
                     "tone:\n  register: formal\n  greeting: \"Greetings. How may I assist you today?\""))
    assert got["register: formal"] == "D", got


def test_a_text_to_translate_keeps_a_line_that_reads_as_a_demand() -> None:
    prompt = ("Please translate the text below into Arabic for a leaflet we're sending to households.\n"
              "Use formal Modern Standard Arabic rather than any dialect.\n\n"
              "Your new bins\nBlue bin: paper, card, tins, cans and plastic bottles. Please rinse them first.\n"
              "Grey bin: everything that can't be recycled.\nYour bins are collected on Wednesdays. "
              "Put them out by 7am.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Your new bins", "Please rinse them first.", "Grey bin: everything that can't be "
                             "recycled.", "Put them out by 7am.")] == ["D"] * 4, got


def test_a_report_to_summarise_keeps_its_background_section() -> None:
    prompt = ("Write an executive summary of the cabinet report below for the council's website.\n\n"
              "REPORT TO CABINET: Proposed move to three-weekly residual waste collections\n"
              "1. Purpose. To seek approval to collect residual waste every three weeks instead of every two.\n"
              "2. Background. The borough's recycling rate has been flat at 38% for four years.\n"
              "3. Proposal. Residual waste collected three-weekly; recycling unchanged.\n\n"
              "Keep it to about 150 words.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("2. Background.", "The borough's recycling rate has been flat at 38% for four years.",
                             "Residual waste collected three-weekly; recycling unchanged.")] == ["D"] * 3, got


def test_a_prompt_with_no_task_found_takes_its_first_sentence_as_the_task() -> None:
    got = dict(codes("poem about my grandad's allotment, he passed last spring. not too sad, more about the runner "
                     "beans and him swearing at the slugs. free verse is fine"))
    assert list(got.values()) == ["D"], got  # one sentence: the splitter keeps ". not" together
    got = dict(codes("Short rhyming verse for a retirement card for our office manager Brenda, 30 years at the "
                     "company, loves gardening and is famous for her flapjacks."))
    assert list(got.values()) == ["D"], got


def test_a_request_to_check_named_material_takes_it_as_input_but_a_persona_consults_it() -> None:
    prompt = ("## Task\nCheck the crew roster below against the flight time rules and list every duty that "
              "breaks a rule.\n\n## Rules (company scheme, summary)\n1. Maximum duty is 13 hours.\n\n"
              "## Roster\n| Crew | Date | Duty start | Duty end |\n|---|---|---|---|\n"
              "| Ruiz | 4 May | 06:10 | 19:40 |\n\nAnswer as a table.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("## Roster", "| Ruiz | 4 May | 06:10 | 19:40 |")] == ["D", "D"], got
    got = dict(codes("## Who you are\nYou are Libby, the library's chat assistant.\n\n## What you do\n"
                     "For every request, follow these steps:\n1. Work out what the user needs.\n"
                     "2. Check the library facts below.\n\n## Library facts\n"
                     "- Standard loan: 28 days, renewable twice.\n- Late fee: €0.50 per day per item.\n\n"
                     "## Rules\nNever share another user's loans."))
    assert got["- Standard loan: 28 days, renewable twice."] == "A", got


def test_a_build_log_with_paths_and_configure_checks_is_pasted_material() -> None:
    prompt = ("bundle install fails on my new M3 mac:\n\nInstalling pg 1.5.6 with native extensions\n"
              "Gem::Ext::BuildError: ERROR: Failed to build gem native extension.\n\n"
              "/Users/lena/.rubies/ruby-3.3.0/bin/ruby extconf.rb\nchecking for pg_config... no\n"
              "checking for libpq per pkg-config... no\nchecking for libpq-fe.h... no\n*** extconf.rb failed ***\n\n"
              "I don't want a full Postgres server on this machine. What's the cleanest fix?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("/Users/lena/.rubies/ruby-3.3.0/bin/ruby extconf.rb", "checking for pg_config... no",
                             "checking for libpq-fe.h... no")] == ["D"] * 3, got


def test_a_quoted_placeholder_for_missing_values_is_an_output_convention() -> None:
    prompt = ("Pull the order number, the item and the refund asked for out of the customer email below.\n"
              'Use "n/a" where the email gives no order number.\nUse “unknown” for the item if it is unclear.\n\n'
              "Email:\nHi, the kettle I got last week leaks, I'd like my money back. Thanks, Joe")
    got = dict(codes(prompt))
    assert [got[t] for t in ('Use "n/a" where the email gives no order number.',
                             "Use “unknown” for the item if it is unclear.")] == ["O", "O"], got


def test_price_opens_a_task_after_a_persona() -> None:
    prompt = ("As a quantity surveyor for a small builder, price the list of jobs below and flag anything vague.\n\n"
              "Jobs:\n1. Replace the back door and frame.\n2. Re-point the garden wall, 12 m.\n\n"
              "Show the prices as a table.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("As a quantity surveyor for a small builder, price the list of jobs below and flag "
                             "anything vague.", "1. Replace the back door and frame.")] == ["DR", "D"], got


def test_use_exactly_this_structure_announces_the_answers_form() -> None:
    prompt = ("Turn the site notes below into a job record.\nUse exactly this structure:\n"
              "Job: <one line>\nParts: <comma-separated>\n\nNotes: swapped the pump, fitted a new seal, all dry.")
    got = dict(codes(prompt))
    assert got["Use exactly this structure:"] == "O", got
    got = dict(codes("Summarise the complaint below for the duty manager.\nReturn strictly the following template:\n"
                     "ISSUE: <text>\nACTION: <text>\n\nComplaint: the lift has been broken for a week."))
    assert got["Return strictly the following template:"] == "O", got


def test_short_lines_under_a_layout_line_are_the_layout() -> None:
    prompt = ("Write five quiz questions on fire extinguisher types for new warehouse staff.\n\n"
              "Format each question like this:\n\nQ1. Question text\na) option\nb) option\nc) option\n"
              "Answer: letter and a one-line reason\n\nMake every wrong option a mistake people really make.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Q1.", "Question text", "a) option", "c) option")] == ["O"] * 4, got
    got = dict(codes("Categorise each transaction as Food, Travel or Other.\nExamples:\nTESCO 2291 -> Food\n"
                     "TFL TRAVEL -> Travel\nNow do these, one per line in the same format:\nSAINSBURYS CAMDEN\n"
                     "UBER TRIP\nNANDOS ISLINGTON"))
    assert got["UBER TRIP"] == "D", got


def test_checking_the_users_own_material_before_a_deadline_is_the_task_not_a_rule() -> None:
    prompt = ("Check the menu text below for spelling mistakes before we send it to the printer on Friday.\n\n"
              "Starters\nSoup of the day, crusty bred\nGarlic mushrooms on toast\n\nList each mistake with its fix.")
    got = dict(codes(prompt))
    assert got["Check the menu text below for spelling mistakes before we send it to the printer on Friday."] == "D", \
        got
    got = dict(codes("Find out why the nightly load failed from the log below and suggest a fix.\n"
                     "Check the row samples before blaming the upstream source.\n\n"
                     "Log:\nERROR 12:01 load failed: 3 rows rejected"))
    assert got["Check the row samples before blaming the upstream source."] == "A", got  # a rule of the work


def test_the_keys_a_task_asks_for_are_the_answers_form() -> None:
    prompt = ('Pull the order details out of the email and return a JSON object with these keys:\n'
              '- "name" (string)\n- "size" (one of "S", "M", "L")\n- "quantity" (integer)\n\n'
              "Email:\nHi, two mediums please, thanks, Ann")
    got = dict(codes(prompt))
    assert [got[t] for t in ('- "name" (string)', '- "quantity" (integer)')] == ["O", "O"], got


def test_keep_it_short_at_the_end_of_a_casual_request_sets_the_form_too() -> None:
    prompt = "write a text to the allotment group saying the gate code changes to 4471 on monday, keep it friendly"
    assert list(dict(codes(prompt)).values()) == ["DO"]
    prompt = "can u draft a reply to this complaint about the late van. keep it short and polite"
    assert list(dict(codes(prompt)).values()) == ["DO"]


def test_a_paragraph_defining_the_categories_a_task_names_is_consulted() -> None:
    prompt = ("Classify each support email into one of these categories: OUTAGE, BILLING, HOWTO.\n\n"
              "OUTAGE means the service is down for them. BILLING means a charge or an invoice. HOWTO means a "
              "question about using a feature.\n\nReply with the category only.\n\nEmail: {email}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("OUTAGE means the service is down for them.", "BILLING means a charge or an invoice.")] \
        == ["A", "A"], got


def test_a_further_piece_of_writing_after_the_task_is_content_as_well_as_form() -> None:
    prompt = ("Go through the week's customer reviews below.\nDo the following:\n1. Count the reviews by star rating.\n"
              "2. Quote the two most useful complaints.\n"
              "3. Write a two-paragraph summary I can paste into the team chat.\n\nReviews:\n{reviews}")
    got = dict(codes(prompt))
    assert got["3. Write a two-paragraph summary I can paste into the team chat."] == "DO", got
    got = dict(codes("Review the tenancy notice below for errors.\nList every error as a bullet.\n"
                     "Draft a three-line email to the tenant explaining the corrected dates.\n\nNotice:\n{notice}"))
    assert got["Draft a three-line email to the tenant explaining the corrected dates."] == "DO", got


def test_a_title_naming_the_assistant_by_its_job_is_role() -> None:
    prompt = ("# Minutes Writer — Parish Council\n\nYou turn the clerk's rough notes into formal minutes.\n"
              "Use the council's usual headings.")
    assert dict(codes(prompt))["# Minutes Writer — Parish Council"] == "R"
    prompt = "# Callout Dispatcher\n\nRead each message from a member of the public and decide who to send."
    assert dict(codes(prompt))["# Callout Dispatcher"] == "R"


def test_bracketed_turn_markers_read_like_their_labels() -> None:
    prompt = ("[system] You are a patient swimming coach for adult beginners.\n"
              "[user] i can do a width but run out of breath after 10 m\n"
              "[user] also i only get 30 min in the pool twice a week\n"
              "Now write a 4-week plan as a table.")
    got = dict(codes(prompt))
    assert got["[system] You are a patient swimming coach for adult beginners."] == "R", got
    assert got["[user] also i only get 30 min in the pool twice a week"] == "D", got


def test_only_counting_records_by_a_value_is_part_of_the_task() -> None:
    prompt = ("Write a SQL query for the total hours each instructor taught in May.\n"
              "Only count lessons with status 'completed'.\nOnly include instructors you are sure still work here.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Only count lessons with status 'completed'.",
                             "Only include instructors you are sure still work here.")] == ["D", "A"], got


def test_a_paragraph_that_says_below_are_the_records_hands_over_the_block_after_it() -> None:
    prompt = ("I look after 9 company cars and keep missing the insurance renewals.\n"
              "Below are the regs and renewal dates.\nMake me a list of which cars renew in each month.\n"
              "Today is 1 April 2025.\n\nAB12 CDE 14/05/2025\nFG34 HIJ 02/06/2025\nKL56 MNO 30/06/2025\n\n"
              "Group them by month.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("AB12 CDE 14/05/2025", "KL56 MNO 30/06/2025")] == ["D", "D"], got


def test_a_house_convention_stated_as_a_fact_under_a_style_heading_is_background() -> None:
    prompt = ("You sub-edit stories for the Harlow Gazette.\n\n# House style\n"
              "- We do not use courtesy titles except in obituaries.\n- Keep headlines under 10 words.\n\n"
              "Story: {story}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("- We do not use courtesy titles except in obituaries.",
                             "- Keep headlines under 10 words.")] == ["A", "O"], got


def test_a_label_over_what_the_codes_mean_is_consulted() -> None:
    prompt = ("Write an inspection note for each fault below and give each a priority code (P1, P2 or P3).\n"
              "Code meanings:\nP1 – Unsafe, fix today.\nP2 – Fix within a week.\nP3 – Fix at the next visit.\n\n"
              "Faults:\n1. Handrail loose on the top landing.\n2. Fire door does not close fully.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Code meanings:", "P1 – Unsafe, fix today.")] == ["A", "A"], got


def test_a_label_naming_what_the_task_goes_through_item_by_item_is_the_input() -> None:
    prompt = ("Rate the difficulty of each puzzle in our new room from 1 to 5.\nPuzzles:\n"
              "A. A four-letter word lock hidden in painting titles.\nB. A 40-piece jigsaw of a map.\n"
              "Return a JSON array, one object per puzzle.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Puzzles:", "B. A 40-piece jigsaw of a map.")] == ["D", "D"], got
    criteria = ("Assess the essay against each rubric criterion.\nRubric criteria:\n- Clear thesis\n- Evidence\n"
                "Essay:\n{essay}")
    assert dict(codes(criteria))["- Clear thesis"] == "A"


def test_the_fields_under_a_request_to_write_something_are_its_input() -> None:
    prompt = ("Write a job posting for a seasonal range attendant at {range_name}.\nPay: {hourly_rate} per hour\n"
              "Hours: {hours_per_week} per week\nDuties: picking the range, filling ball dispensers\n"
              "Don't use the words \"rockstar\" or \"ninja\".")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Pay: {hourly_rate} per hour", "Hours: {hours_per_week} per week")] == ["D", "D"], got
    fact = ("Write three captions announcing our new decaf.\nKey facts: Swiss Water Process, $16.50 per bag.\n"
            "Our audience is 25-40-year-olds who love coffee.")
    assert dict(codes(fact))["Key facts: Swiss Water Process, $16.50 per bag."] == "A"


def test_a_trainees_answer_under_its_label_is_the_input_not_the_answers_form() -> None:
    prompt = ("Score the trainee's written answer using the rubric.\nRubric:\n- Safety: names one contraindication.\n"
              "Trainee answer:\n\"Sit with legs straight out.\nFold forward from the hips.\"\n"
              "Give the score with a one-line justification.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Trainee answer:", "Fold forward from the hips.\"")] == ["D", "D"], got


def test_using_a_table_to_answer_consults_it_using_a_table_to_show_is_form() -> None:
    got = dict(codes("Use this conversion table to answer the member's question.\nV0 = 4\nV1 = 5\n\n"
                     "Question: I climb 6B+, which circuit should I try?"))
    assert got["Use this conversion table to answer the member's question."] == "D", got
    assert dict(codes("Compare the three tariffs.\nUse a table to show the yearly cost of each."))[
        "Use a table to show the yearly cost of each."] == "O"


def test_a_form_then_new_content_added_after_it_is_form_and_task() -> None:
    got = dict(codes("Compare the two venue quotes below.\n"
                     "Present it as a table, then add a short paragraph I can use in the printed programme.\n"
                     "Put the comparison in a table first, then give your recommendation in one short paragraph."))
    assert [got[t] for t in ("Present it as a table, then add a short paragraph I can use in the printed programme.",
                             "Put the comparison in a table first, then give your recommendation in one short "
                             "paragraph.")] == ["DO", "O"], got


def test_a_table_handed_over_for_reference_is_consulted() -> None:
    prompt = ("A customer with a 13.5 kWh battery wants to know which tariff would suit them best.\n\n"
              "Here are the tariffs we usually talk people through (for reference only):\n\n"
              "Tariff | Import | Export\nStandard variable | 24.5p/kWh | n/a\nFlux-style | 17p-38p | 7p-29p\n\n"
              "Explain which tariff makes most sense for this household.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Tariff | Import | Export", "Flux-style | 17p-38p | 7p-29p")] == ["A", "A"], got


def test_the_block_under_a_label_right_below_the_first_request_to_write_is_its_input() -> None:
    prompt = ("Write the June newsletter for Stillpoint Yoga.\n\nEvents this month:\n"
              "- Summer solstice sun salutations, Friday 21 June.\n- Studio closed Monday 17 June.\n\n"
              "Keep it under 350 words.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Events this month:", "- Studio closed Monday 17 June.")] == ["D", "D"], got
    facts = ("Draft a press release announcing our first factory in Porto.\nKey facts:\n- 120 new jobs\n"
             "- Investment: €18 million\nAround 400 words.")
    assert dict(codes(facts))["- 120 new jobs"] == "A"


def test_here_is_the_style_we_use_opens_examples() -> None:
    prompt = ("Write three Instagram captions for photos of dogs after a groom.\nHere's the style we use:\n"
              "\"Fresh, fluffy and fabulous. Bonnie the bichon had her summer cut today.\n#FurryGodmother\"\n"
              "Keep each under 200 characters and include the hashtag.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Here's the style we use:", "#FurryGodmother\"")] == ["E", "E"], got


def test_what_a_recommendation_picks_from_is_consulted_the_choices_of_a_question_are_not() -> None:
    prompt = ("Our watch strap range:\n- Leather (calf): 18, 20, 22 mm, £35\n- Rubber (FKM): 20, 22 mm, £55\n"
              "- NATO (nylon): 18, 20, 22 mm, £15\nA customer says: \"I've got a dive watch with 20mm lugs.\"\n"
              "Recommend up to two straps from the range and say why in a sentence each.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Our watch strap range:", "- Rubber (FKM): 20, 22 mm, £55")] == ["A", "A"], got
    question = ("Pick the most sensible answer to the question from the choices given.\n"
                "Question: Where would you keep a spare key?\nChoices:\nA. under a flower pot\nB. at the post office\n"
                "Reply with the letter only.")
    assert dict(codes(question))["B. at the post office"] == "D"


def test_past_replies_given_so_you_can_copy_my_style_are_examples_through_their_review_labels() -> None:
    prompt = ("I want you to act as the owner of Bluebell Wood Glamping replying to guest reviews.\n"
              "Below are two of my past replies so you can copy my style.\n\n"
              "Review (5 stars): \"Magical stay in the treehouse!\"\n"
              "Reply: Thank you so much, Priya! Come back soon.\n\n"
              "Review (2 stars): \"The hot tub was lukewarm.\"\nReply: Thanks, Mark, and sorry about the hot tub.\n\n"
              "Now reply to this review:\nReview (3 stars): \"The track down to the site is really rough.\"")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Below are two of my past replies so you can copy my style.",
                             "Review (2 stars): \"The hot tub was lukewarm.\"",
                             "Review (3 stars): \"The track down to the site is really rough.\"")] == \
        ["E", "E", "D"], got


def test_a_yaml_template_of_described_fields_is_form_with_the_keys_they_nest_under() -> None:
    prompt = ("Generate the end-of-season shutdown checklist for one glamping unit, as YAML in the format below.\n\n"
              "unit: <unit name>\ntype: <bell tent | pod | yurt>\ntasks:\n  - area: <area>\n    task: <what to do>\n"
              "    done: false\n\nInclude at least 15 tasks.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("unit: <unit name>", "tasks:", "task: <what to do>")] == ["O", "O", "O"], got


def test_records_inside_a_tag_the_task_consults_stay_background() -> None:
    prompt = ("Answer the guest's question using only the extracts from the campsite handbook below.\n<handbook>\n"
              "Arrivals: Pitches are available from 1pm.\nFires: Firewood can be bought for £7 a bag.\n"
              "Water: Drinking water taps are by the barn and at the top of Field 2.\n</handbook>\n"
              "Guest question: can we have a campfire at our pitch?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Arrivals: Pitches are available from 1pm.",
                             "Fires: Firewood can be bought for £7 a bag.")] == ["A", "A"], got


def test_fields_whose_keys_carry_a_note_in_brackets_are_a_pasted_record() -> None:
    prompt = ("We're replanting a 2 ha block and I'd like your read on this soil report.\n\n"
              "SOIL ANALYSIS – Block 4\nOrganic matter: 2.1%\nPhosphorus (P): 18 mg/kg\nPotassium (K): 95 mg/kg\n"
              "Magnesium (Mg): 60 mg/kg\n\nWhat would you correct before planting?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Phosphorus (P): 18 mg/kg", "Magnesium (Mg): 60 mg/kg")] == ["D", "D"], got


def test_an_inputs_key_of_a_configured_prompt_holds_the_tasks_input() -> None:
    prompt = ("task: write the weekly rehearsal reminder for the choir WhatsApp group\ninputs:\n"
              "  rehearsal_date: \"Tuesday 4 March\"\n  venue: \"Eastfield Methodist Hall\"\nconstraints:\n"
              "  - don't mention subs or money\noutput:\n  length: \"max 80 words\"")
    got = dict(codes(prompt))
    assert [got[t] for t in ("inputs:", "rehearsal_date: \"Tuesday 4 March\"")] == ["D", "D"], got


def test_fields_under_a_request_to_write_may_follow_a_blank_line() -> None:
    prompt = ("Write the SMS reminder we send the day before a bay booking.\n\n"
              "Slots available: {first_name}, {bay_number}, {date}, {start_time}\n\nGive me two versions.")
    got = dict(codes(prompt))
    assert got["Slots available: {first_name}, {bay_number}, {date}, {start_time}"] == "D", got


def test_a_list_right_under_a_task_pointing_at_this_sequence_is_its_input() -> None:
    prompt = ("As a prenatal yoga specialist, review this sequence a newer teacher wrote and flag anything unsafe.\n\n"
              "1. Seated breath awareness, 3 min\n2. Cat-cow, 8 rounds\n3. Full wheel, 3 x 5 breaths\n\n"
              "Present it as a numbered list.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("1. Seated breath awareness, 3 min", "3. Full wheel, 3 x 5 breaths")] == ["D", "D"], got


def test_when_someone_sends_you_the_input_the_sentence_states_the_task() -> None:
    prompt = ("You are an estimating assistant for a carpentry subcontractor.\n"
              "When a site manager sends you a house type schedule, work through it like this:\n"
              "1. List every room and the second fix items in it.\n2. Count the doors per plot.")
    got = dict(codes(prompt))
    assert got["When a site manager sends you a house type schedule, work through it like this:"] == "D", got
    assert got["2. Count the doors per plot."] == "D", got


def test_go_through_them_states_the_task() -> None:
    prompt = ("Below are this week's pool water test readings from our dosing log.\n"
              "Go through them and list every reading that is outside the acceptable range.")
    assert dict(codes(prompt))["Go through them and list every reading that is outside the acceptable range."] == "D"


def test_typed_yaml_fields_after_a_task_naming_them_on_its_line_are_the_answers_shape() -> None:
    prompt = ("Generate a job advert for the jobs board API. The API expects YAML with these fields:\n\n"
              "title: string, max 70 characters\nlocation: string\npay: string\nrequirements: list of strings\n"
              "how_to_apply: string\n\nJob details:\nCompany: Cityline Taxis, Stoke-on-Trent")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Generate a job advert for the jobs board API.", "location: string",
                             "requirements: list of strings")] == ["D", "O", "O"], got


def test_replies_we_have_been_happy_with_open_examples() -> None:
    prompt = ("Write a public reply to the review at the end.\nKeep replies to 2-4 sentences.\n"
              "Here are two replies we've been happy with:\n"
              "Review (5 stars, from Rachel): \"Our son loves it.\"\nReply: Thank you so much, Rachel!\n"
              "Review (2 stars, from Mark): \"Parking is impossible.\"\nReply: Thanks for your feedback, Mark.\n\n"
              "Review ({stars} stars, from {reviewer_name}): \"{review_text}\"\nReply:")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Here are two replies we've been happy with:", "Reply: Thank you so much, Rachel!",
                             'Review ({stars} stars, from {reviewer_name}): "{review_text}"')] == ["E", "E", "D"], got


def test_articles_the_task_answers_from_only_are_consulted_not_its_input() -> None:
    prompt = ("Answer the customer's question using only the bakery's help articles below.\n"
              "If the articles don't cover it, say you don't know.\n\n[Article 1: Storing our bread]\n"
              "Our sourdough keeps best in a paper bag for up to 3 days.\nDo not refrigerate it.\n"
              "[Article 2: Vegan range]\nOur vegan range is marked with a green leaf.\n"
              "[Article 3: Click and collect]\nOrders placed before 2 pm can be collected the next day.\n\n"
              "Customer question: can I put your sourdough in the fridge?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("[Article 1: Storing our bread]", "Do not refrigerate it.",
                             "Orders placed before 2 pm can be collected the next day.",
                             "Customer question: can I put your sourdough in the fridge?")] == ["A", "A", "A", "D"], got


def test_a_block_the_task_makes_something_from_is_its_input_even_under_a_consulted_word() -> None:
    prompt = ("Create an index for the hearing bundle from the document list below.\n"
              "Present it as a table with columns Tab, Document, Date, Pages.\n\nDocuments:\n"
              "Claim form, 03/02/2024, 6 pages\nDefence, 02/03/2024, 11 pages\nReply to defence, 20/03/2024, 4 pages")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Documents:", "Defence, 02/03/2024, 11 pages")] == ["D", "D"], got
    kept = codes("Draft answers to the questions below using only her positions from the policy notes.\n\n"
                 "Policy notes:\n- Supports the 2030 fleet target.\n- Opposes the gravel mine.\n\n"
                 "Questions:\n1. Where do you stand on the gravel mine?")
    assert dict(kept)["- Opposes the gravel mine."] == "A", kept


def test_the_figures_under_a_task_pointing_at_this_invoice_are_its_input() -> None:
    prompt = ("Pull the line items out of this supplier invoice and give them to me as CSV with the header: "
              "product,qty,unit,unit_price,line_total\n\nINVOICE #44817 - Tamworth Wholesale Meats Ltd\n"
              "Deliver to: Greaves Family Butchers, Ashby\nDate: 14/03/2024\n\n"
              "2 x Beef forequarter (approx 48kg each) @ £5.85/kg = 96.4kg = £563.94\n"
              "1 x Box pork bellies, 6 pcs, 31.2kg @ £4.20/kg = £131.04\n"
              "3 x Lamb carcass, 19.8kg avg, 59.4kg @ £8.10/kg = £481.14\n"
              "10 x Natural hog casings, 1 hank @ £14.50 = £145.00\nSubtotal: £1,321.12\nVAT: zero rated\n"
              "Total: £1,321.12\n\nUse kg as the unit for anything sold by weight and \"each\" for everything else.\n"
              "Don't include the subtotal or total rows.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("INVOICE #44817 - Tamworth Wholesale Meats Ltd", "Date: 14/03/2024",
                             "3 x Lamb carcass, 19.8kg avg, 59.4kg @ £8.10/kg = £481.14")] == ["D", "D", "D"], got
    assert got["Don't include the subtotal or total rows."] != "D", got


def test_pairs_below_a_task_pointing_at_these_examples_end_before_the_unanswered_query() -> None:
    prompt = ("Turn my rough job notes into invoice line items, the way I've done in these examples.\n\n"
              "Notes: front bedroom walls n ceiling 2 coats, fill cracks\nLine items:\n"
              "- Front bedroom: fill and make good cracks\n- Front bedroom: apply two coats of emulsion\n\n"
              "Notes: hall woodwork gloss, spindles x 24\nLine items:\n- Hall: apply undercoat and gloss\n"
              "- Staircase: prepare and paint 24 spindles\n\nNow do this one:\n"
              "Notes: kitchen strip old paper, line, 2 coats matt")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Notes: front bedroom walls n ceiling 2 coats, fill cracks", "Line items:",
                             "- Staircase: prepare and paint 24 spindles",
                             "Notes: kitchen strip old paper, line, 2 coats matt")] == ["E", "E", "E", "D"], got


def test_labelled_lines_each_answered_by_one_line_above_now_tag_these_are_examples() -> None:
    prompt = ("Tag the sentiment of each Google review as positive, negative or mixed.\n"
              "Answer with a JSON object per review, one per line, like the examples.\n\n"
              "Review: Best smoked haddock in Yorkshire.\n{\"sentiment\": \"positive\"}\n\n"
              "Review: Lovely fish but the queue is ridiculous.\n{\"sentiment\": \"mixed\"}\n\n"
              "Now tag these:\nReview: Prices have gone up a lot this year.\nReview: Shop smelled off on Tuesday.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Review: Best smoked haddock in Yorkshire.", '{"sentiment": "mixed"}',
                             "Review: Shop smelled off on Tuesday.")] == ["E", "E", "D"], got


def test_questions_as_a_heading_list_what_the_task_answers() -> None:
    prompt = ("I'm thinking of starting a mobile valeting business.\nCan you help me work out if it's viable?\n\n"
              "What I know so far:\n- Van: about £14,000\n- Fuel, roughly £60 a week\n\nQuestions:\n"
              "1. How many jobs a week would I need to cover costs?\n2. What costs have I forgotten?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Questions:", "2. What costs have I forgotten?")] == ["D", "D"], got


def test_guidance_extracts_the_task_answers_from_are_consulted() -> None:
    prompt = ("Using the guidance extracts below, tell me whether we're allowed to record audio in our cabs.\n\n"
              "[1] ICO guidance, Video surveillance: \"Audio recording is particularly intrusive.\"\n"
              "[2] Department for Transport standards, para 4.5: \"Audio recording should only be activated by a panic "
              "button.\"\n[3] Council licensing policy, section 12: \"Any CCTV system must be an approved system.\"\n\n"
              "Cite the extract numbers in square brackets after each point.")
    got = codes(prompt)
    assert [code for text, code in got if text.startswith("[")] == ["A", "A", "A"], got


def test_extracts_named_three_words_on_that_the_task_uses_only_are_consulted() -> None:
    prompt = ("Answer the decorator's question using only the product data sheet extracts below.\n"
              "If the answer isn't in the extracts, say \"Not covered by the data sheet.\"\n\n"
              "[Extract 1 - Application]\nApply at temperatures between 5°C and 30°C.\n"
              "Surfaces must be clean and dry.\n[Extract 2 - Drying and recoating]\n"
              "Touch dry in 1 hour at 20°C. Recoat after 4 hours.\n[Extract 3 - Coverage]\n"
              "Up to 10 m² per litre on smooth surfaces.\n\n"
              "Question: I'm doing a pebbledashed gable end, about 45 m². How much paint do I need?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("[Extract 2 - Drying and recoating]", "Touch dry in 1 hour at 20°C. Recoat after 4 hours.",
                             "Up to 10 m² per litre on smooth surfaces.")] == ["A", "A", "A"], got


def test_rows_headed_by_what_the_task_picks_from_are_not_pasted_material() -> None:
    prompt = ("You are PawPantry's checkout recommender.\nCatalogue of add-ons (id | name | price | suits):\n"
              "A1 | Dental chews 10-pack | €6.99 | dogs\nA2 | Salmon treats | €4.49 | cats\n"
              "A3 | Slow feeder bowl | €12.90 | dogs\n\nCart: {cart_items}\nPet type: {pet_type}\n\n"
              "Recommend one add-on from the catalogue that suits the pet.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("A2 | Salmon treats | €4.49 | cats", "Cart: {cart_items}")] == ["A", "D"], got


def test_subheadings_are_the_answers_form_as_headings_are() -> None:
    prompt = ("Write a blog post giving new drivers your top tips for staying safe on night shifts.\n"
              "Length 500-700 words.\nUse short subheadings.")
    assert dict(codes(prompt))["Use short subheadings."] == "O"


def test_a_heading_naming_what_to_extract_states_the_task() -> None:
    prompt = ("## Purpose\nTurn each site diary entry into a structured record.\n## What to extract\n"
              "1. Plot numbers worked on and the stage of each.\n2. Hours worked by each named carpenter.\n"
              "## Output\nReturn a single JSON object.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("## What to extract", "2. Hours worked by each named carpenter.")] == ["D", "D"], got


def test_sums_of_money_are_not_the_givens_of_an_exercise() -> None:
    prompt = ("## Other information\nThe largest single customer accounts for 31% of revenue.\n"
              "The directors offer a legal charge over the freehold site (valued at £4.5m in 2024).\n"
              "## What to write\nWrite the credit memo.\nCalculate pro-forma leverage after the new loan.")
    got = dict(codes(prompt))
    assert got["The largest single customer accounts for 31% of revenue."] == "A", got

def test_headings_naming_topics_to_cover_or_what_to_help_with_state_the_task() -> None:
    prompt = ("You are the onboarding assistant for a letting agency.\n## Topics to cover, in this order\n"
              "1. Landlord details: full name, correspondence address, phone, email\n"
              "2. Property details: address, type, bedrooms, furnishing\n\n## What to help with\n"
              "- Reading the job ticket and the approved proof\n- Fixing common print problems: pinholes, ghosting")
    got = dict(codes(prompt))
    assert [got[t] for t in ("## Topics to cover, in this order", "2. Property details: address, type, bedrooms, "
                             "furnishing", "## What to help with")] == ["D", "D", "D"], got

def test_a_field_whose_key_opens_with_a_verb_is_no_instruction() -> None:
    prompt = ("A parent has filled in our medication consent form.\n"
              "Staff may only give medicine once the form is complete.\nChild: Oscar Bennett\n"
              "Medicine: Amoxicillin 250mg/5ml\nDose: 5ml\nStart date: 10/02\nFinish date: 17/02\n"
              "Last dose at home: 7.45am\nIs anything missing before we can give it?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Start date: 10/02", "Finish date: 17/02", "Last dose at home: 7.45am")] == \
        ["D", "D", "D"], got

def test_a_label_naming_its_block_by_an_identifier_is_read_by_the_noun_before_it() -> None:
    prompt = ("You are the bookkeeper for a small sign shop.\n"
              "Compare our purchase order with the supplier's invoice and list every line that doesn't match.\n"
              "Purchase order PO-2291 (Grimco):\n| Item | Qty | Unit price |\n| Application tape 54in | 1 | $89.00 |\n"
              "Invoice INV-88410:\n| Item | Qty | Unit price |\n| Application tape 54in | 2 | $89.00 |\n"
              "For each mismatch, give the item and the dollar difference.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Purchase order PO-2291 (Grimco):", "Invoice INV-88410:",
                             "| Application tape 54in | 2 | $89.00 |")] == ["D", "D", "D"], got

def test_a_task_heading_naming_what_the_task_checks_against_is_consulted() -> None:
    prompt = ("You are a prepress technician at a commercial offset print shop.\n"
              "Review the artwork file details below against our press requirements and list every problem.\n"
              "\nPress requirements:\n- Bleed: 3 mm on all sides\n- Fonts: embedded or outlined\n\n"
              "Job: {job_name}\nProduct: {product}\nTrim size: {trim_size}\nFile report:\n{preflight_report}\n\n"
              "For each problem, give the page number and what is wrong.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Press requirements:", "- Bleed: 3 mm on all sides", "Job: {job_name}")] == \
        ["A", "A", "D"], got

def test_no_text_around_the_answers_data_sets_the_form_however_it_is_spelled() -> None:
    prompt = ("Parse the childminder's message into the YAML structure below.\n"
              "```yaml\ndate: YYYY-MM-DD\nchildren:\n  - name: string\n```\n"
              "Don't add any text before or after the YAML.\nNo commentary outside the JSON, please.\n\n"
              "Message:\nAlfie in at 8, had porridge.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Don't add any text before or after the YAML.",
                             "No commentary outside the JSON, please.")] == ["O", "O"], got

def test_a_title_over_fields_below_a_task_naming_it_is_the_input() -> None:
    prompt = ("You are a health and safety adviser for a mid-sized electrical contractor.\n\n"
              "Review the near-miss report below. Identify the root cause and recommend up to three actions.\n\n"
              "NEAR-MISS REPORT NM-0417\nDate: 3 September\nSite: Unit 7, Ashgrove Trading Estate\n"
              "Reported by: Connor Beale, apprentice\n\nDescription: The supervisor had isolated the board.\n\n"
              "Write it as a short memo to the operations director.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("NEAR-MISS REPORT NM-0417", "Date: 3 September",
                             "Reported by: Connor Beale, apprentice")] == ["D", "D", "D"], got

def test_rows_of_short_cells_apart_by_comma_and_space_are_pasted_data() -> None:
    prompt = ("Here's the freezer temperature log from our ice cream display cabinet for the last week.\n"
              "Readings should be between -18°C and -14°C for display.\n\nMon 3 Jun, 09:00, -16, KT\n"
              "Mon 3 Jun, 17:00, -15, KT\nTue 4 Jun, 09:00, -16, AB\nTue 4 Jun, 17:00, -11, AB\n\n"
              "Find every reading that's out of range and any missing initials.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Mon 3 Jun, 09:00, -16, KT", "Tue 4 Jun, 17:00, -11, AB",
                             "Readings should be between -18°C and -14°C for display.")] == ["D", "D", "A"], got

def test_a_list_right_under_rewrite_them_is_what_the_task_rewrites() -> None:
    prompt = ("Our quote terms and conditions are written like a legal document.\n"
              "Rewrite them in plain English so a homeowner can understand them.\n"
              "1. Quotations are valid for 30 days from the date of issue.\n"
              "2. Making good of plaster is excluded unless expressly stated.\n"
              "Keep the numbering the same.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("1. Quotations are valid for 30 days from the date of issue.",
                             "2. Making good of plaster is excluded unless expressly stated.")] == ["D", "D"], got

def test_a_labelled_table_right_under_the_fields_a_letter_is_written_from_is_input_too() -> None:
    prompt = ("Draft a letter before action to a residential tenant for rent arrears.\n\n"
              "Landlord: Mr Harjit Gill\nTenant: Ms Kerry Doyle\nProperty: 12A Station Parade, Wolverhampton\n\n"
              "Schedule of arrears:\n| Due date | Amount due | Amount paid |\n| 01/02/2025 | £725.00 | £400.00 |\n"
              "| 01/03/2025 | £725.00 | £0.00 |\n\nUse a firm but non-aggressive tone.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Schedule of arrears:", "| 01/03/2025 | £725.00 | £0.00 |")] == ["D", "D"], got

def test_a_table_titled_by_what_the_task_uses_only_is_consulted() -> None:
    prompt = ("You are the ordering assistant for Golden Wok, a Chinese takeaway in Leeds.\n"
              "Answer the customer's question using only the allergen table below.\n"
              "Never tell a customer that a dish is safe for a severe allergy.\n\nALLERGEN TABLE\n"
              "| Dish | Contains |\n| --- | --- |\n| Salt and pepper chicken | gluten, celery |\n"
              "| Egg fried rice | egg, soya |\n\nCustomer: {message}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("| Dish | Contains |", "| Egg fried rice | egg, soya |")] == ["A", "A"], got

def test_a_json_object_of_empty_fields_to_fill_in_is_the_answers_shape() -> None:
    prompt = ("Read the end-of-day handover note from the baby room and fill in the JSON below for the parent app.\n"
              "{\n\"child\": \"\",\n\"bottles\": [{\"time\": \"\", \"ml\": 0}],\n\"solids\": \"\",\n"
              "\"mood\": \"\"\n}\nHandover note:\nEsme - bottles 9.10 (180ml) and 1.30 (150ml).")
    got = dict(codes(prompt))
    assert [got[t] for t in ('"child": "",', '"mood": ""', "Esme - bottles 9.10 (180ml) and 1.30 (150ml).")] == \
        ["O", "O", "D"], got

def test_a_field_left_as_an_ellipsis_is_a_slot_of_the_answers_form() -> None:
    prompt = ("Collect the patient's symptoms, one question at a time.\n## Hand-off note\n"
              "When you're done, write a note for the clinician in this format:\nREASON: ...\nONSET/COURSE: ...\n"
              "MEDS: ...\nALLERGIES: ...")
    got = dict(codes(prompt))
    assert [got[t] for t in ("ONSET/COURSE: ...", "MEDS: ...", "ALLERGIES: ...")] == ["O", "O", "O"], got

def test_a_role_play_persona_named_in_play_the_part_of_is_described_after() -> None:
    prompt = ("We're training new front-desk staff at our MOT centre.\n"
              "Play the part of Dennis, a retired man whose 2006 Volvo V70 has just failed its MOT.\n"
              "Dennis is upset because he has had the car since new.\n"
              "Don't give me feedback until I type \"END ROLEPLAY\".")
    got = dict(codes(prompt))
    assert got["Dennis is upset because he has had the car since new."] == "R", got
    prompt = ("Pretend you're my landlord, Gary.\n"
              "He's in his 60s and always pleads poverty when anything costs money.\n"
              "I want to practise asking him to replace the broken extractor fan.")
    got = dict(codes(prompt))
    assert got["He's in his 60s and always pleads poverty when anything costs money."] == "R", got

def test_a_reference_label_heads_what_is_consulted_however_long_its_note() -> None:
    prompt = ("Tell me for each room whether we're in ratio.\n\n"
              "Reference (EYFS statutory framework, ratios for group settings):\n"
              "- Under 2s: 1 adult to 3 children.\n- Aged 2: 1 adult to 5 children.\n\n"
              "Reference:\n- Aged 3 and over: 1 adult to 8 children.\n\nRooms:\n| Room | Children | Staff |\n"
              "| Babies | 10 | 3 |")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Reference (EYFS statutory framework, ratios for group settings):",
                             "- Aged 2: 1 adult to 5 children.", "Reference:")] == ["A", "A", "A"], got

def test_use_only_may_name_the_material_five_words_long() -> None:
    prompt = ("Use only the ratio rules in the reference below.\n"
              "Tell me for each room whether we're in ratio.\n\nReference:\n- Under 2s: 1 adult to 3 children.")
    assert dict(codes(prompt))["Use only the ratio rules in the reference below."] == "A"

def test_a_label_named_by_the_task_three_words_in_is_its_input() -> None:
    prompt = ("Read the new patient form text below and fill in this JSON schema:\n"
              "{\n\"full_name\": string,\n\"smoker\": boolean\n}\n"
              "If the form is ambiguous, pick the most likely value.\n\n"
              "Form text:\nName: Aisha Rahman\nDo you smoke?\nOccasionally at weekends")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Form text:", "Name: Aisha Rahman", "Do you smoke?")] == ["D", "D", "D"], got
    prompt = ("Calculate Q2 commission for each rep using the plan below.\n\n"
              "COMMISSION PLAN (FY24)\n- Base rate: 8% of closed-won new ARR\n\n"
              "Reps:\n| Rep | Closed-won |\n| Ana | 120000 |")
    assert dict(codes(prompt))["COMMISSION PLAN (FY24)"] == "A"

def test_an_input_heading_over_a_slot_closes_the_consulted_section_above() -> None:
    prompt = ("# Task\nGenerate the workout based on their profile and recent sessions.\n\n"
              "# Member profile\nName: {name}\nGoal: {goal}\n\n# Recent sessions\n{recent_sessions}\n\n"
              "# Rules\n- Never program Olympic lifts.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Name: {name}", "# Recent sessions", "{recent_sessions}")] == ["A", "D", "D"], got

def test_an_faq_is_consulted_and_its_questions_with_it() -> None:
    prompt = ("<instructions>\nAnswer the customer's question using only the FAQ below.\n</instructions>\n"
              "<faq>\nQ: How long does a boiler service take?\nA: Usually 45 minutes to an hour.\n</faq>\n"
              "<question>\n{customer_question}\n</question>")
    got = dict(codes(prompt))
    assert [got[t] for t in ("<faq>", "Q: How long does a boiler service take?",
                             "A: Usually 45 minutes to an hour.", "{customer_question}")] == ["A", "A", "A", "D"], got
    prompt = ("Here are the FAQs from our wedding photography website.\nQ: Do you travel?\n"
              "A: Yes, anywhere in the UK.\n\n"
              "Now answer this couple's message using only the information above: \"Would you come to Aberdeen?\"")
    assert dict(codes(prompt))["Here are the FAQs from our wedding photography website."] == "A"

def test_fields_under_a_consulted_heading_are_consulted() -> None:
    prompt = ("## Task\nYou review comments posted on a gardening forum and decide whether each can be published.\n"
              "## Policy\nALLOW: gardening talk, disagreements, mild frustration.\n"
              "REVIEW: medical or legal claims, selling or trading plants.\n"
              "REMOVE: slurs, threats, personal attacks, spam links.\n"
              "## Output\nAnswer with one word.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("REVIEW: medical or legal claims, selling or trading plants.",
                             "REMOVE: slurs, threats, personal attacks, spam links.")] == ["A", "A"], got

def test_a_price_list_a_quote_is_built_with_is_consulted_in_a_tag_of_any_spelling() -> None:
    prompt = ("<instructions>\nBuild a quote for the client using the price list.\n"
              "Itemise every line and show the total including VAT at 20%.\n</instructions>\n"
              "<price_list>\nHalf-day event coverage (4 hours): £650\nFull-day event coverage (8 hours): £1,150\n"
              "Additional hour: £140\n</price_list>\n"
              "<client_request>\nWe need someone for our charity gala on 22 November, roughly 6pm to 11pm.\n"
              "</client_request>")
    got = dict(codes(prompt))
    assert [got[t] for t in ("<price_list>", "Additional hour: £140", "</price_list>")] == ["A", "A", "A"], got

def test_my_list_names_the_rows_that_close_the_prompt() -> None:
    prompt = ("Can u turn my kit list into a table for my insurance renewal?? Columns: item, year, value.\n\n"
              "Sony A7 IV x2 bought 2022, about £2,400 each\nGodox AD200 Pro, 2021, £330\nDJI RS3 gimbal, 2022, £450")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Godox AD200 Pro, 2021, £330", "DJI RS3 gimbal, 2022, £450")] == ["D", "D"], got

def test_the_tools_a_sentence_announces_are_consulted_whatever_form_it_sets() -> None:
    prompt = ("You are ToothLine, the out-of-hours dental triage assistant.\n## Tools\n"
              "You can use these tools by replying with a JSON object {\"tool\": \"<name>\", \"args\": {}}:\n"
              "- get_slots(service, date): returns free appointment times\n"
              "- send_sms(phone, text): sends a text message to the patient\n## Triage rules\n"
              "- Urgent: severe pain not controlled by painkillers.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("- get_slots(service, date): returns free appointment times",
                             "- send_sms(phone, text): sends a text message to the patient")] == ["A", "A"], got

def test_a_task_led_by_what_it_works_from_is_task_and_form() -> None:
    prompt = ("From the grant report below, pull out the headline figures into this JSON structure:\n{\n"
              "\"organisation\": \"\",\n\"grant_amount_gbp\": 0\n}\nNumbers only, no units or commas.\n\nReport:\n"
              "Brightside Carers' Network received £18,500 from the Halden Foundation.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("From the grant report below, pull out the headline figures into this JSON structure:",
                             "{", "}")] == ["DO", "O", "O"], got

def test_the_closing_brace_of_a_json_schema_above_the_input_is_form() -> None:
    prompt = ("You are the donation-sorting assistant for Second Chance.\n\n"
              "Classify each donated item described by the driver into one category.\n\n"
              "Items with broken legs are \"recycle\".\n\nRespond with a JSON object following this schema:\n{\n"
              "  \"category\": \"upholstered | case | other\",\n  \"decision\": \"sell | recycle\",\n"
              "  \"note\": \"string, at most 15 words\"\n}\n\nDriver's description: {description}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("{", "}", "Driver's description: {description}")] == ["O", "O", "D"], got

def test_the_lines_after_a_task_reworking_our_own_text_are_its_input() -> None:
    prompt = ("Translate our price list into Spanish for the new sign. "
              "Keep the prices and layout exactly as they are.\n\n"
              "Service wash (up to 6kg) – £9.50\nWash only – £4.80\nIroning, per shirt – £1.80")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Service wash (up to 6kg) – £9.50", "Ironing, per shirt – £1.80")] == ["D", "D"], got

def test_the_list_under_a_label_below_the_first_request_ends_where_its_bullets_do() -> None:
    prompt = ("You are an HR copywriter who specialises in trade businesses.\n"
              "Write a job advert for a trainee pest control technician at Ridgeway Pest Services.\nDetails:\n"
              "- Salary £24,000 rising to £28,000\n- Company van and fuel card\n"
              "Keep it under 300 words, with a short intro paragraph.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Details:", "- Company van and fuel card",
                             "Keep it under 300 words, with a short intro paragraph.")] == ["D", "D", "O"], got

def test_entries_keyed_by_codes_are_definitions_not_a_pasted_record() -> None:
    prompt = ("Sort each warranty claim we receive into one of these types and return JSON.\n\nTypes:\n"
              "- PRODUCT_FAULT: the lock, cylinder or part failed in normal use within 12 months.\n"
              "- FITTING_FAULT: the problem comes from how it was installed (misaligned keep).\n"
              "- NOT_COVERED: outside 12 months, or a product we didn't supply.\n\n"
              "Return {\"type\": \"<TYPE>\"} and nothing else.\n\nClaim: {claim_text}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Types:", "- NOT_COVERED: outside 12 months, or a product we didn't supply.")] \
        == ["A", "A"], got

def test_short_demands_on_the_register_and_counts_are_form() -> None:
    for text in ("keep it simple pls", "Keep it informal, using \"tú\".", "Max 1 SMS.",
                 "Keep it conversational, like you're talking in the van.", "No more than 5 hashtags per post."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text

def test_phrasing_full_sentences_and_no_quotes_are_form() -> None:
    for text in ("Phrase each question the way a nervous first-time visitor might ask it.",
                 "No quotes, no trailing period.",
                 "Keep it skimmable, we'll print it as a one-page prep sheet.",
                 "Use full sentences, not note form, and keep it to about one side of A4."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text

def test_q_and_a_pairs_under_an_faq_title_are_consulted_not_demonstrations() -> None:
    prompt = ("Answer the patient's question using only the FAQ below. If the answer isn't in the FAQ, reply "
              "\"I'm not sure, please call reception\" and nothing else.\n\nFAQ\nQ: How much is an NHS check-up?\n"
              "A: A check-up costs £26.80 in England.\nQ: What does Band 2 cover?\nA: Fillings and extractions.\n\n"
              "Question: {question}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("FAQ", "Q: How much is an NHS check-up?", "A: Fillings and extractions.",
                             "Question: {question}")] == ["A", "A", "A", "D"], got
    assert title_component("FAQ") == Component.ADDITIONAL_INFORMATION

def test_a_heading_over_what_the_assistant_can_rely_on_is_consulted() -> None:
    assert heading_component("## Procedures you can rely on") == Component.ADDITIONAL_INFORMATION
    assert heading_component("## Procedures") == Component.DIRECTIVE

def test_a_consulted_block_below_the_line_that_hands_it_over_stays_consulted() -> None:
    prompt = ("You are a compliance reviewer who checks marketing copy against the UK Green Claims Code.\n"
              "Below are the facts we can evidence about our dry cleaner's and a draft web banner.\n"
              "Point out any claim in the banner that goes beyond the evidence and suggest a safer wording "
              "for each.\n\n"
              "Evidence:\n- We switched from perc to a hydrocarbon solvent in 2022.\n"
              "- 80% of our hangers are returned and reused.\n\n"
              "Banner:\n\"Pittman's is London's greenest dry cleaner!\"")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Evidence:", "- 80% of our hangers are returned and reused.", "Banner:")] \
        == ["A", "A", "D"], got

def test_a_bare_input_label_after_a_blank_line_ends_the_examples() -> None:
    prompt = ("Convert each sighting report from our website form into a CSV row with the columns date, postcode, "
              "animal.\n\nExample input:\nSubmitted 02/06/2025 | Postcode: SN2 1AB | Seen: A rat\nExample output:\n"
              "02/06/2025,SN2 1AB,rat\n\nReports:\nSubmitted 03/06/2025 | Postcode: SN5 7DF | Seen: Squirrels\n"
              "Submitted 04/06/2025 | Postcode: SN3 2JJ | Seen: Mouse droppings")
    got = dict(codes(prompt))
    assert [got[t] for t in ("02/06/2025,SN2 1AB,rat", "Reports:",
                             "Submitted 04/06/2025 | Postcode: SN3 2JJ | Seen: Mouse droppings")] \
        == ["E", "D", "D"], got

def test_any_bare_label_after_a_blank_line_ends_the_examples() -> None:
    prompt = ("Write a cryptic crossword clue for each word, in the format of the example.\n\nExample:\n"
              "LANTERN — Portable light with a handle (7)\n\nWords:\nGALAXY\nPRETZEL\n\n"
              "Give each clue in the same format as the examples, including the letter count.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("LANTERN — Portable light with a handle (7)", "Words:", "PRETZEL")] == ["E", "D", "D"], got

def test_you_play_a_named_character_is_the_persona_and_its_traits_follow() -> None:
    prompt = ("Let's role-play a sales call so I can practise.\n"
              "You play Henrik, the owner of a busy café who is unhappy with his current roaster.\n"
              "Henrik is polite but sceptical and hates long pitches.\nI'll start.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("You play Henrik, the owner of a busy café who is unhappy with his current roaster.",
                             "Henrik is polite but sceptical and hates long pitches.")] == ["R", "R"], got

def test_forms_of_address_header_rows_and_separators_are_form() -> None:
    for text in ("Use the informal \"ty\" form, as on the other signs.", "Use the informal du form.",
                 "Use the formal form of address (Sie / vous).", "Put one product per row and include a header row.",
                 "Use a dot as the decimal separator and no currency symbols."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text
    assert Component.OUTPUT_FORMATTING not in cues_of("The file has a header row like this:")

def test_how_the_answer_is_laid_out_or_sounds_is_form() -> None:
    for text in ("Make it sound like a person wrote it, not a brand.",
                 "Write it as three short sections: What happened, What we said, Next step.",
                 "Structure it as: what happened, why the bank's response is wrong, what I want.",
                 "Write each item as one friendly sentence starting with a verb."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text
    assert Component.OUTPUT_FORMATTING in cues_of("Recommend at most two dramas per reply.")

def test_now_do_these_with_the_form_is_the_query_and_points_at_the_lines_after_it() -> None:
    prompt = ("Decide whether each line is billable.\nExamples:\nReset password -> covered\n"
              "Set up laptops -> billable\nNow do these, answering in CSV with the columns line,decision:\n"
              "Replaced failed PSU\nInstalled NAS")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Now do these, answering in CSV with the columns line,decision:", "Replaced failed PSU",
                             "Installed NAS")] == ["DO", "D", "D"], got

def test_put_this_into_a_table_is_the_task_and_its_form_and_points_at_the_lines_below() -> None:
    prompt = ("Put this into a markdown table with columns Device, User, Year.\nSort by year, oldest first.\n"
              "reception pc - dell optiplex - 2018\nDr Evans laptop, Latitude 5420, 2022")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Put this into a markdown table with columns Device, User, Year.",
                             "reception pc - dell optiplex - 2018", "Dr Evans laptop, Latitude 5420, 2022")] == \
        ["DO", "D", "D"], got
    assert cues_of("Put the answer in a code block.") == {Component.OUTPUT_FORMATTING}

def test_lines_closing_a_prompt_whose_task_takes_each_item_are_its_input() -> None:
    prompt = ("Grade the cosmetic condition of each device from the technician's intake notes.\n"
              "Output one line per device in the form <asset tag>: <grade>.\n"
              "AT-1043: lid has two small scratches, keyboard fine\nAT-1044: corner of the base dented, hinge loose")
    got = dict(codes(prompt))
    assert [got[t] for t in ("AT-1043: lid has two small scratches, keyboard fine",
                             "AT-1044: corner of the base dented, hinge loose")] == ["D", "D"], got

def test_lines_the_user_says_they_paste_or_calls_these_lines_are_the_input() -> None:
    prompt = ("Hello, my kiln stopped in the night.\n"
              "I paste the log from the controller, please tell me what is wrong.\n"
              "22:10 START program 3\n02:52 ERR-1 temp rise too slow")
    got = dict(codes(prompt))
    assert [got[t] for t in ("22:10 START program 3", "02:52 ERR-1 temp rise too slow")] == ["D", "D"], got
    prompt = ("Some of these stock lines are duplicates with different spellings.\n"
              "Merge them and give me the cleaned list as CSV (sku,description,qty).\n"
              "SKU1042, Plastimo Offshore compass, 3\nSKU1043, Plastimo offshore compass , 2")
    got = dict(codes(prompt))
    assert [got[t] for t in ("SKU1042, Plastimo Offshore compass, 3", "SKU1043, Plastimo offshore compass , 2")] == \
        ["D", "D"], got
    assert cues_of("I paste the log from the controller, please tell me what is wrong.") == {Component.DIRECTIVE}

def test_an_email_address_slot_is_no_slot_for_what_the_served_person_writes() -> None:
    prompt = ("You are the membership assistant for {gym_name}.\nMember: {member_name}\n"
              "Renewal date: {renewal_date}\nHelp the member with questions about their membership.\n"
              "You cannot cancel memberships; direct cancellation requests to {manager_email}.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Member: {member_name}", "Renewal date: {renewal_date}")] == ["A", "A"], got

def test_a_heading_saying_what_the_piece_must_include_opens_demands_on_the_content() -> None:
    for text in ("## Must include", "## Things it must cover", "Points to cover:", "## It should mention",
                 "## What it must cover"):
        assert heading_component(text) == Component.DIRECTIVE, text
    prompt = ("Make a dojo etiquette poster for beginners.\n## Must include\n- Bow when entering the dojo\n"
              "- No shoes on the mat\n## Format\nUse a title in capitals, then one bullet per rule.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("## Must include", "- Bow when entering the dojo", "- No shoes on the mat")] == \
        ["D", "D", "D"], got

def test_her_email_is_the_label_of_the_input() -> None:
    assert INPUT_LABEL.match("Her email:") and INPUT_LABEL.match("His message:")
    prompt = ("Can you write a reply to this customer for me?\nShe wants to know why the quote is so high.\n"
              "Keep it polite, no more than 150 words.\nHer email:\nHi, I got your quote of £270.\nCan you explain?")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Her email:", "Hi, I got your quote of £270.", "Can you explain?")] == ["D", "D", "D"], got

def test_a_prompt_opening_on_the_log_it_hands_over_points_at_the_lines_after_it() -> None:
    prompt = ("fuel dock log from saturday, can you tell me total litres of diesel and petrol\n\n"
              "09:10 diesel 85L\n09:40 petrol 22L\n10:05 diesel 140L")
    got = dict(codes(prompt))
    assert [got[t] for t in ("09:10 diesel 85L", "09:40 petrol 22L", "10:05 diesel 140L")] == ["D", "D", "D"], got

def test_a_sentence_of_the_text_to_translate_that_reads_as_task_and_rule_stays_in_the_text() -> None:
    prompt = ("Translate the following into formal German for our website.\n\n"
              "Winter storage ashore includes lift-out, pressure wash and relaunch in spring. "
              "Masts can be stored in our heated rigging shed for an extra charge. "
              "Book before 30 September to get the early-bird rate.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Masts can be stored in our heated rigging shed for an extra charge.",
                             "Book before 30 September to get the early-bird rate.")] == ["D", "D"], got

def test_these_are_the_counts_points_at_the_lines_that_close_the_prompt() -> None:
    prompt = ("These are hourly entry counts from the camera at the main entrance on Tuesday.\n"
              "Find any hours that look wrong and say what might have caused it.\n06:00 12\n07:00 88\n09:00 0")
    got = dict(codes(prompt))
    assert [got[t] for t in ("06:00 12", "07:00 88", "09:00 0")] == ["D", "D", "D"], got

def test_what_an_assistant_helps_people_with_is_a_topic_not_the_input() -> None:
    prompt = ("You are Tunde, customer service assistant for GadgetCare, a phone repair shop.\n"
              "Help customers who message the shop with repair prices and bookings.\n"
              "Prices (naira, parts and labour):\niPhone 11 screen: 85,000\niPhone 12 screen: 120,000\n"
              "Do not negotiate prices in chat.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Prices (naira, parts and labour):", "iPhone 11 screen: 85,000",
                             "Do not negotiate prices in chat.")] == ["A", "A", "A"], got

def test_arrow_demonstrations_followed_by_an_input_under_their_key_are_examples() -> None:
    prompt = ("Classify each soft play review as POSITIVE, NEGATIVE or MIXED.\n"
              "Review: The ball pit was spotless. -> POSITIVE\nReview: Cafe was overpriced. -> NEGATIVE\n"
              "Review: We waited 40 minutes.\nAnswer with the label only.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Review: The ball pit was spotless.", "-> POSITIVE", "-> NEGATIVE",
                             "Review: We waited 40 minutes.")] == ["E", "E", "E", "D"], got

def test_header_rows_verse_counts_registers_and_field_values_are_form() -> None:
    for text in ("Four verses, rhyming.", "Not too formal pls", "No header row needed.",
                 "Aim for about two minutes of speaking.", "Must be short, maximum 6 points.",
                 "Put everything in one file.", "\"paid\" must be true or false.",
                 "appeal_grounds should be a short phrase, not the whole paragraph.",
                 "If someone hasn't said something, put a dash."):
        assert cues_of(text) == {Component.OUTPUT_FORMATTING}, text

def test_below_in_dutch_french_and_german_points_at_the_text_to_rework() -> None:
    prompt = ("Vertaal de onderstaande ondertitels naar het Nederlands.\nHoud elke regel kort.\n\n"
              "1\nRight, into the pan goes 200 grams of butter.\n2\nDon't be shy with it.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Right, into the pan goes 200 grams of butter.", "Don't be shy with it.")] == \
        ["D", "D"], got

def test_raising_an_exception_in_a_code_task_is_part_of_the_task() -> None:
    prompt = ("Write a Python function quote_cake(tiers, servings, decoration) that returns the price in pounds.\n"
              "Raise a ValueError for any other decoration value.\nRaise ValueError for an unknown firing_type.\n"
              "Raise concerns with the head chef first.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Raise a ValueError for any other decoration value.",
                             "Raise ValueError for an unknown firing_type.")] == ["D", "D"], got
    assert not is_imperative("Raise concerns with the head chef first.")


def test_a_query_under_a_new_key_does_not_take_the_demonstrations_above_it() -> None:
    prompt = ("Answer job seekers' questions about how our job board works.\nExample:\n"
              "Q: Do I need an account to apply?\nA: You can browse without one, but you need an account to apply.\n"
              "Q: How do I delete my CV?\nA: Go to Settings > Privacy and press Delete CV.\nNow answer: {question}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Q: How do I delete my CV?", "A: Go to Settings > Privacy and press Delete CV.",
                             "Now answer: {question}")] == ["E", "E", "D"], got


def test_imperative_demonstrations_with_arrows_stay_examples() -> None:
    prompt = ("Sort each wedding to-do item into one category.\nCategories:\nVENDOR - booking a supplier\n"
              "ADMIN - legal, payments\nExamples:\nBook the ceilidh band -> VENDOR\n"
              "Give notice of marriage at the register office -> ADMIN\nItem: {todo_item}\n"
              "Answer with the category name only.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Book the ceilidh band -> VENDOR",
                             "Give notice of marriage at the register office -> ADMIN", "Item: {todo_item}")] == \
        ["E", "E", "D"], got


def test_a_markdown_heading_as_high_as_the_sections_ends_the_lines_a_colon_announced() -> None:
    prompt = ("# Role\nYou are an analyst for a bakery chain.\n"
              "# Data\nWeekly sales by shop (units sold, last 4 weeks):\nRipon: 2100, 1950, 1800, 1720\n"
              "Wetherby: 3000, 3100, 2400, 2300\n# Notes\nRipon had roadworks outside the shop from week 2.\n"
              "# Task\nIdentify which shops are declining and give the most likely reason for each, using the notes.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Ripon: 2100, 1950, 1800, 1720", "# Notes",
                             "Ripon had roadworks outside the shop from week 2.")] == ["D", "A", "A"], got


def test_a_range_in_a_sentence_is_no_numbered_entry() -> None:
    prompt = ("The reception team will paste in a booking.\n"
              "Pitches 1-20 are hardstanding with hookup and take units up to 8m.\n"
              "Pitches 21-40 are grass, no hookup, tents and small campervans only.\n"
              "Booking: {booking_details}\nSuggest the best pitch number.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Pitches 1-20 are hardstanding with hookup and take units up to 8m.",
                             "Pitches 21-40 are grass, no hookup, tents and small campervans only.")] == ["A", "A"], got


def test_a_label_over_closing_data_the_task_says_it_works_by_is_consulted() -> None:
    prompt = ("Answer the customer's question using only the fabric notes below.\nFabric notes:\n"
              "Linen Loom (Natural): 100% linen, dry clean only.\nVelvet Harbour (Teal): cotton velvet, heavy.\n"
              "Question: {customer_question}")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Fabric notes:", "Linen Loom (Natural): 100% linen, dry clean only.",
                             "Question: {customer_question}")] == ["A", "A", "D"], got


def test_what_to_say_when_the_list_falls_short_is_a_rule_and_the_list_is_consulted() -> None:
    assert cues_of("If the notes don't cover it, say you'll check with the workroom.") == \
        {Component.ADDITIONAL_INFORMATION}
    prompt = ("Help staff answer customer questions about wedding flower availability.\n"
              "Use only the stock list below; do not guess at prices.\nStock list (updated weekly):\n"
              "- White O'Hara roses: 400 stems, £2.10 each\n- Sweet peas: unavailable until May\n"
              "If an item isn't on the list, say you'll check with the buyer.\n"
              "Answer in plain sentences, no bullet points.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Stock list (updated weekly):", "- White O'Hara roses: 400 stems, £2.10 each",
                             "If an item isn't on the list, say you'll check with the buyer.")] == ["A", "A", "A"], got
    prompt = ("Write a reference letter for Daniel, who is applying for a warehouse manager job.\nFacts to use:\n"
              "- Worked for us from May 2019 to August 2024\n- Cut pick errors from 1.4% to 0.6% on his shift\n"
              "One page, formal letter format.\nDon't exaggerate; only use the facts listed.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Facts to use:", "- Worked for us from May 2019 to August 2024")] == ["D", "D"], got


def test_a_pupils_fields_in_an_app_assistants_prompt_are_the_setting() -> None:
    prompt = ("You're DriveBuddy, a friendly assistant inside the Ace Driving School app.\nPupil: {pupil_name}\n"
              "Next lesson: {next_lesson}\nHelp the pupil with questions about their bookings and their learning.\n"
              "Reply in plain text, max 80 words.")
    got = dict(codes(prompt))
    assert [got[t] for t in ("Pupil: {pupil_name}", "Next lesson: {next_lesson}")] == ["A", "A"], got
    prompt = ("You're Ana, a friendly assistant for our bakery.\nCustomer: {customer_name}\nComplaint: {complaint}\n"
              "Write a reply to the complaint.")
    assert dict(codes(prompt))["Complaint: {complaint}"] == "D"


# Floors measured when the rules were last tuned (bench/dissect_accuracy.py prints the current figures); a drop
# below them is a regression. PubMedQA and CodeGeneration gold labels disagree with themselves on identical
# sentences (see the README's accuracy section), which caps any dissector there.
FLOORS = {"PubMedQA": (0.55, 0.95), "EMEA": (0.99, 0.99), "Leetcode": (0.99, 0.99), "CodeGeneration": (0.15, 0.78)}


@pytest.mark.parametrize("name", DATASETS)
def test_accuracy_floor_on_pacp(name: str) -> None:
    acc = evaluate(RULES, gold(name))
    prompt_floor, sentence_floor = FLOORS[name]
    assert acc.prompt_level >= prompt_floor and acc.sentence_level >= sentence_floor, (
        acc.prompt_level, acc.sentence_level, acc.confusions.most_common(5))


#: Sentence-level floors on the hand-labelled sets, a point or two under the figures in the README's accuracy table.
GOLD_FLOORS = {"custom": 0.93, "holdout": 0.94, "blind": 0.93, "fresh": 0.92, "extra": 0.91, "more": 0.89,
               "instruct": 0.86, "library": 0.88, "everyday": 0.89, "systems": 0.90, "unseen": 0.86, "sealed": 0.86,
               "vault": 0.90, "studio": 0.95, "chats": 0.87, "agents": 0.92, "crypt": 0.92, "bunker": 0.87,
               "harbor": 0.87, "atlas": 0.88, "meadow": 0.84, "quarry": 0.84, "cellar": 0.84, "attic": 0.87,
               "orchard": 0.91, "delta": 0.88, "glade": 0.83, "willow": 0.85, "spruce": 0.85, "cavern": 0.83,
               "burrow": 0.85, "thicket": 0.87, "reed": 0.81, "fern": 0.87, "grotto": 0.83, "hollow": 0.87,
               "tarn": 0.83, "brook": 0.82, "heath": 0.85, "marsh": 0.87, "moor": 0.85, "dune": 0.88, "bog": 0.88,
               "cove": 0.85, "mesa": 0.85, "prairie": 0.85, "ridge": 0.89, "glen": 0.83, "quay": 0.82, "lagoon": 0.85,
               "fjord": 0.89, "heron": 0.83, "pike": 0.87, "wren": 0.84, "sound": 0.83, "cliff": 0.86, "estuary": 0.86,
               "atoll": 0.88, "geyser": 0.77, "ravine": 0.88, "steppe": 0.82, "oasis": 0.85, "basin": 0.80,
               "lake": 0.72, "gorge": 0.81, "knoll": 0.85, "shoal": 0.72, "tundra": 0.83, "canyon": 0.72,
               "summit": 0.83, "crater": 0.82, "isle": 0.85, "marina": 0.87, "glacier": 0.84, "fen": 0.82,
               "spring": 0.84, "cape": 0.82, "inlet": 0.84, "creek": 0.78, "valley": 0.88, "bay": 0.80, "tor": 0.75,
               "brae": 0.83, "bluff": 0.78, "strait": 0.84, "plateau": 0.85, "shore": 0.89, "pond": 0.84,
               "ledge": 0.85, "dell": 0.82, "mire": 0.78, "spit": 0.87, "wadi": 0.83, "gully": 0.86, "butte": 0.79,
               "drumlin": 0.79, "marl": 0.84, "sedge": 0.75, "scree": 0.86, "esker": 0.88, "cirque": 0.83,
               "talus": 0.87, "col": 0.87, "loch": 0.88, "fell": 0.88, "mull": 0.86, "ness": 0.86, "rill": 0.83,
               "holm": 0.81, "carr": 0.80, "sill": 0.90, "karst": 0.84, "moraine": 0.83, "bayou": 0.86, "kame": 0.86,
               "scar": 0.82, "gill": 0.83, "beck": 0.76, "wold": 0.85, "skerry": 0.82, "fjell": 0.80, "kettle": 0.83,
               "combe": 0.78, "arete": 0.77, "tombolo": 0.83, "bight": 0.86, "corrie": 0.80, "firth": 0.84,
               "kyle": 0.85, "voe": 0.84, "lough": 0.87, "holt": 0.88, "shaw": 0.80, "carse": 0.85, "haugh": 0.85,
               "kloof": 0.86, "vlei": 0.77, "rincon": 0.84, "bourn": 0.76, "gulch": 0.79, "playa": 0.81, "swale": 0.81,
               "pingo": 0.80, "polje": 0.77, "tepui": 0.79, "sabkha": 0.78, "swash": 0.76, "bolson": 0.84,
               "cuesta": 0.86, "hogback": 0.77, "lunette": 0.73, "ria": 0.87, "cay": 0.83, "coulee": 0.86,
               "arroyo": 0.80, "yardang": 0.81, "nunatak": 0.85, "barchan": 0.83, "doline": 0.81, "machair": 0.78,
               "kopje": 0.78, "sandur": 0.81, "tafoni": 0.85, "serac": 0.88, "loess": 0.78, "maar": 0.81,
               "horst": 0.82, "caldera": 0.88, "cenote": 0.79, "oxbow": 0.89, "graben": 0.75, "tuya": 0.76,
               "erg": 0.82, "bajada": 0.73, "inselberg": 0.83, "kipuka": 0.81, "hoodoo": 0.81, "lahar": 0.87,
               "moulin": 0.83, "fumarole": 0.75, "sastrugi": 0.73, "pediment": 0.85, "ventifact": 0.72, "mogote": 0.84,
               "polder": 0.87, "sinter": 0.77, "zeugen": 0.83, "guyot": 0.77, "inlier": 0.79, "lapies": 0.77,
               "cwm": 0.81, "bornhardt": 0.82, "kluft": 0.76, "ait": 0.79, "swallet": 0.83, "strath": 0.83,
               "gilgai": 0.74, "outlier": 0.79, "rand": 0.85, "nubbin": 0.73, "karren": 0.80, "ponor": 0.80,
               "palsa": 0.73, "hamada": 0.73, "uvala": 0.87, "scarp": 0.72, "thufur": 0.78, "hum": 0.84, "reg": 0.83,
               "serir": 0.85, "tinaja": 0.85, "aven": 0.77, "gour": 0.82, "vrulja": 0.81, "kavir": 0.85,
               "couloir": 0.84, "drift": 0.84, "flysch": 0.86, "ghyll": 0.86, "kuppe": 0.82, "lido": 0.78,
               "motu": 0.77, "nullah": 0.79, "berm": 0.86, "levee": 0.85, "hummock": 0.88, "spur": 0.81, "alas": 0.83,
               "klint": 0.81, "dambo": 0.83, "jokul": 0.77, "yazoo": 0.82, "gnamma": 0.88, "riegel": 0.88,
               "cuvette": 0.83, "blowhole": 0.83, "crevasse": 0.86, "skarn": 0.86, "cuspate": 0.83, "flatiron": 0.77,
               "hardpan": 0.82, "jheel": 0.81, "lynchet": 0.83, "nivation": 0.81, "rogen": 0.81, "solum": 0.85,
               "tjaele": 0.77, "felsenmeer": 0.86, "dreikanter": 0.86, "bergschrund": 0.82, "monadnock": 0.79,
               "zibar": 0.80, "draa": 0.83, "seif": 0.83, "chott": 0.81, "grike": 0.78, "roddon": 0.86,
               "sandspit": 0.82, "knickpoint": 0.80, "gibber": 0.83, "pediplain": 0.84, "fulgurite": 0.81,
               "thermokarst": 0.79, "malpais": 0.87, "coquina": 0.74, "regolith": 0.89, "tufa": 0.84, "firn": 0.85,
               "paternoster": 0.85, "duricrust": 0.79, "grus": 0.82, "saprolite": 0.80, "lapilli": 0.82,
               "scoria": 0.81, "talik": 0.78, "zastruga": 0.84, "gravelbar": 0.84, "boulder": 0.82, "pothole": 0.75,
               "kettlehole": 0.87, "tafone": 0.85, "clint": 0.74, "hardground": 0.78, "sinkhole": 0.81, "dolina": 0.83,
               "badland": 0.83, "clitter": 0.81, "blockfield": 0.85, "flyggberg": 0.86, "rockglacier": 0.82,
               "fjard": 0.86, "gendarme": 0.79, "blowout": 0.84, "spillway": 0.78, "washout": 0.86, "lagg": 0.83,
               "tessera": 0.85, "stack": 0.81, "pillar": 0.82, "natch": 0.79, "knob": 0.83, "terrace": 0.77,
               "shingle": 0.81, "coombe": 0.83, "dingle": 0.84, "corry": 0.83, "scaur": 0.80, "howe": 0.88,
               "rigg": 0.81, "sike": 0.82, "slack": 0.83, "dene": 0.89, "clough": 0.84, "nab": 0.83, "bield": 0.82,
               "stob": 0.80, "hause": 0.84, "moss": 0.82, "rake": 0.79, "keld": 0.77, "wyke": 0.82, "thwaite": 0.81,
               "mere": 0.76, "raise": 0.85, "garth": 0.83, "ings": 0.78, "hope": 0.83, "intake": 0.85, "gutter": 0.83,
               "slade": 0.81, "hagg": 0.79, "knott": 0.80, "crag": 0.83, "dale": 0.88, "brow": 0.83, "yett": 0.83,
               "heugh": 0.83, "hirst": 0.85, "snab": 0.82, "wath": 0.87, "laithe": 0.79, "croft": 0.82, "holme": 0.87,
               "loaning": 0.83, "fold": 0.83, "hurst": 0.88, "scout": 0.88, "nook": 0.86, "dub": 0.84, "force": 0.83,
               "haw": 0.84, "ridding": 0.91, "shiel": 0.87, "toft": 0.81, "lund": 0.87, "wong": 0.87, "booth": 0.84,
               "gait": 0.86, "lonnin": 0.81, "clive": 0.82, "rean": 0.85, "sough": 0.87, "gowk": 0.86, "linn": 0.80,
               "stell": 0.78, "heaf": 0.82, "sheuch": 0.82, "yeld": 0.82, "scaw": 0.84, "mow": 0.79, "tenter": 0.85,
               "cleugh": 0.81, "thorpe": 0.83, "wick": 0.88, "leat": 0.82, "brig": 0.84, "lum": 0.83, "wham": 0.84,
               "skell": 0.83, "stanner": 0.81, "outgang": 0.81, "ling": 0.82, "sett": 0.83, "hemmel": 0.86,
               "shippon": 0.87, "byre": 0.80, "stackyard": 0.82, "fother": 0.87, "helm": 0.81, "clag": 0.85,
               "thack": 0.78}


@pytest.mark.parametrize("name", GOLD_FLOORS)
def test_accuracy_floor_on_hand_labelled_prompts(name: str) -> None:
    acc = evaluate(RULES, [g for _, g in load_gold_jsonl(BENCH_DATA / f"{name}_prompts.jsonl")])
    assert acc.sentence_level >= GOLD_FLOORS[name], (acc.sentence_level, acc.confusions.most_common(5))
