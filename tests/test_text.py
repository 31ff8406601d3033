"""The sentence splitter and prompt validation."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptanatomy_core.text import MAX_PROMPT_CHARS, PromptError, split_sentences, validate_prompt


def texts(prompt: str) -> list[str]:
    return [s.text for s in split_sentences(prompt)]


def test_basic_boundaries_and_offsets() -> None:
    prompt = "You are a bot. Do X! Is it done? Yes.\nNext line"
    sents = split_sentences(prompt)
    assert [s.text for s in sents] == ["You are a bot.", "Do X!", "Is it done?", "Yes.", "Next line"]
    for s in sents:
        assert prompt[s.start:s.end] == s.text


@pytest.mark.parametrize("sentence", [
    "Use e.g. a list, i.e. an array, as Dr. Smith said.",
    "The value 3.5 is larger than 2.25 by far.",
    "See https://example.com/docs/v1.2/index.html for the spec.",
    "Update murano/tests/unit/test_version.py and setup.cfg now.",
    "Call `obj.method()` then `x.y.z` before anything.",
    "Mail me at jane.doe@example.org today.",
    "Positive Example 1 - Input: password = a Output: 5.",
    "The U.S. Army uses it.",
])
def test_never_splits_inside_protected_text(sentence: str) -> None:
    assert texts(sentence) == [sentence]


def test_fenced_code_block_is_one_piece() -> None:
    prompt = "Fix this:\n```python\nx = 1. Y = 2\n\nprint(x)\n```\nThanks."
    assert texts(prompt) == ["Fix this:", "```python\nx = 1. Y = 2\n\nprint(x)\n```", "Thanks."]


def test_examples_stay_intact_and_split_from_each_other() -> None:
    prompt = ("Here are some examples: Positive Example 1 - Input: password = a Output: 5.Positive Example 2 - "
              "Input: password = aA1 Output: 3.")
    assert texts(prompt) == ["Here are some examples: Positive Example 1 - Input: password = a Output: 5.",
                             "Positive Example 2 - Input: password = aA1 Output: 3."]


def test_numbered_lists_keep_their_numbers() -> None:
    assert texts("Steps:\n1. Read the ticket.\n2. Reply. Then close it.") == [
        "Steps:", "1. Read the ticket.", "2. Reply.", "Then close it."]


def test_dataset_style_joins_split_at_capitalised_words() -> None:
    assert texts("formation in CRS.The association is clear.Output: yes") == [
        "formation in CRS.", "The association is clear.", "Output: yes"]


def test_code_member_names_are_not_sentence_ends() -> None:
    sql = ("SELECT TOP 10 c.CustomerName,\n  ISNULL(SUM(o.Total), 0) AS Lifetime\nFROM dbo.Customers c\n"
           "LEFT JOIN dbo.Orders o ON o.CustomerID = c.CustomerID\ndf = pd.DataFrame(data)")
    assert texts(sql) == [line.strip() for line in sql.split("\n")]
    assert texts("On the go.Then we left.") == ["On the go.", "Then we left."]
    trace = "java.lang.NullPointerException: null\n    at com.acme.billing.InvoiceService.total(InvoiceService.java:42)"
    assert texts(trace) == [line.strip() for line in trace.split("\n")]
    assert texts("<class 'pandas.core.frame.DataFrame'>") == ["<class 'pandas.core.frame.DataFrame'>"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab .?!\n`:/3eE-_\"'() \t{}#")) | st.characters(), max_size=300))
def test_offsets_and_exact_cover(prompt: str) -> None:
    """Every sentence is prompt[start:end]; together they cover every non-space character exactly once."""
    sents = split_sentences(prompt)
    covered = [0] * len(prompt)
    last_end = 0
    for s in sents:
        assert prompt[s.start:s.end] == s.text
        assert s.text == s.text.strip() and s.text
        assert s.start >= last_end
        last_end = s.end
        for i in range(s.start, s.end):
            covered[i] += 1
    for i, ch in enumerate(prompt):
        assert covered[i] == (0 if ch.isspace() and covered[i] == 0 else 1)
        if not ch.isspace():
            assert covered[i] == 1


@pytest.mark.parametrize("bad, message", [
    ("", "empty"),
    ("   \n\t ", "empty"),
    ("x" * (MAX_PROMPT_CHARS + 1), "limit"),
    ("abc\x00def", "binary"),
    (b"\xff\xfe\x00bad", "not UTF-8"),
    (42, "must be text"),
])
def test_validate_prompt_rejects_bad_input(bad: object, message: str) -> None:
    with pytest.raises(PromptError, match=message):
        validate_prompt(bad)


def test_validate_prompt_accepts_bytes_and_tabs() -> None:
    assert validate_prompt("a\tb\r\nc".encode()) == "a\tb\r\nc"
