"""A style or voice guide that the task holds material up against is background; one the answer follows is form."""
from __future__ import annotations

from rule_codes import codes


def test_a_voice_guide_the_draft_is_scored_against_is_consulted() -> None:
    got = dict(codes("Score how well the draft below matches the voice guide on a 1-10 scale.\n\nVoice guide:\n"
                     "- Confident, not cocky\n- Sentences under 25 words\n\nDraft:\nCustomers love our dashboard!!!"))
    assert got["Voice guide:"] == got["- Confident, not cocky"] == got["- Sentences under 25 words"] == "A"
    assert got["Customers love our dashboard!!!"] == "D"


def test_a_guide_in_tags_or_under_a_heading_ends_with_its_block() -> None:
    got = codes("<voice_guide>\n- We're calm, never hyped.\nPlain words.\n</voice_guide>\n\n<draft>\nUPGRADE NOW!!!\n"
                "</draft>\n\nRewrite the draft so it follows the voice guide.\nReturn only the rewritten copy.")
    assert [c for _, c in got[:4]] == ["A"] * 4
    assert got[-1] == ("Return only the rewritten copy.", "O")
    got = dict(codes("## Your job\nReview the copy against the Northbeam voice principles below.\n\n"
                     "## Northbeam voice principles\n1. Clear over clever: no puns.\n2. Use contractions and \"you\".\n"
                     "\n## Output format\nReturn JSON."))
    assert got["1. Clear over clever: no puns."] == got["2. Use contractions and \"you\"."] == "A"
    assert got["Return JSON."] == "O"


def test_the_title_that_is_the_task_and_a_guide_the_answer_follows_keep_their_labels() -> None:
    got = dict(codes("Review the item below.\nCheck it against these item-writing guidelines:\n1. One correct option.\n"
                     "2. No clues in the stem.\nFor each guideline, write PASS or FAIL.\n\nItem:\nWhich is renewable?"))
    assert "D" in got["Check it against these item-writing guidelines:"]
    assert got["1. One correct option."] == "A"
    got = dict(codes("Write a job advert from the notes below.\n\nHouse style:\n- Use \"you\" for the candidate.\n"
                     "- Bullet points, no more than 6 per section.\n\nNotes:\n{notes}"))
    assert got["- Bullet points, no more than 6 per section."] == "O"


def test_stylebook_entries_the_answers_draw_on_are_consulted() -> None:
    got = dict(codes("You are StyleBot, the Slack helper of the copy desk.\n"
                     "Answer style questions from reporters using the stylebook entries below.\n"
                     "Reply in one or two sentences.\n\nStylebook entries:\n- health care: two words in all uses.\n"
                     "- OK: not \"okay\"."))
    assert got["Stylebook entries:"] == got["- health care: two words in all uses."] == "A"
    assert got["- OK: not \"okay\"."] == "A"
    assert got["Reply in one or two sentences."] == "O"
