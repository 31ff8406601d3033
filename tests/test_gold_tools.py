"""The annotation kit and the rules-diff tool in bench/: drafts become the same gold sets the annotators meant, briefs
carry the conventions but not the figures, and sealed sets' sentences never reach a snapshot."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_scripts import BENCH, load
from promptanatomy_core.accuracy import label_code, load_gold_jsonl
from promptanatomy_core.tagged import parse_tagged


@pytest.fixture(scope="module")
def tagger():
    return load("gold_tagger")


@pytest.fixture(scope="module")
def brief():
    return load("gold_brief")


@pytest.fixture(scope="module")
def diff():
    return load("rules_diff")


def _codes(gold) -> list[str]:
    return ["+".join(label_code(s.labels)) for s in gold.sentences]


@pytest.mark.parametrize("name", ["custom", "fresh", "systems", "agents", "clive", "sheuch"])
def test_tagger_rebuilds_existing_gold_sets(tagger, name):
    for rid, gold in load_gold_jsonl(BENCH / "data" / f"{name}_prompts.jsonl"):
        back = parse_tagged(tagger.tag(gold.prompt, _codes(gold)))
        assert (back.prompt, back.sentences) == (gold.prompt, gold.sentences), rid


def test_tagger_writes_two_label_sentences_inside_both_tags(tagger):
    tagged = tagger.tag("You are a chef. Summarise this in two lines. Keep it warm.", ["R", "D+O", "O"])
    assert tagged == ("<Role>You are a chef.</Role> <Directive>Summarise this in two lines.</Directive>"
                      "<Output Formatting>Summarise this in two lines.</Output Formatting> "
                      "<Output Formatting>Keep it warm.</Output Formatting>")


@pytest.mark.parametrize("codes, message", [(["D"], "1 codes for 2 sentences"), (["D", "X"], "bad code 'X'"),
                                             (["D", "O+O"], r"bad code 'O\+O'")])
def test_tagger_rejects_wrong_codes(tagger, codes, message):
    with pytest.raises(tagger.DraftError, match=message):
        tagger.tag("Do it. Be brief.", codes)


def test_tagger_main_writes_only_when_every_record_is_right(tagger, tmp_path, capsys):
    good = {"id": "T-1", "domain": "d", "prompt": "Do it.\nBe brief.", "labels": ["D", "O"]}
    drafts, out = tmp_path / "drafts.jsonl", tmp_path / "t_prompts.jsonl"
    drafts.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    assert tagger.main([str(drafts), str(out)]) == 1
    assert "duplicate id 'T-1'" in capsys.readouterr().out and not out.exists()
    drafts.write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert tagger.main([str(drafts), str(out)]) == 0
    printed = capsys.readouterr().out
    assert "TOTALS: 1 records, 2 sentences, 0 with two labels, 1 prompts without Role" in printed
    [(rid, gold)] = load_gold_jsonl(out)
    assert rid == "T-1" and _codes(gold) == ["D", "O"]


def test_brief_keeps_the_conventions_and_drops_the_credits(brief, tmp_path):
    folder = brief.write_brief("probe", "PRB", "bakeries", tmp_path).parent
    labelling = (folder / "LABELLING.md").read_text(encoding="utf-8")
    assert "Conventions for the hard cases" in labelling and "Where the independent annotators split" in labelling
    assert "Who labelled what" not in labelling and "annotators agreed" not in labelling and "`leat`" not in labelling
    task = (folder / "PROMPT.txt").read_text(encoding="utf-8")
    assert "about: bakeries" in task and '"PRB-' in task and "probe_prompts.jsonl" in task


def test_brief_refuses_a_name_or_prefix_in_use(brief, tmp_path):
    with pytest.raises(SystemExit):
        brief.main(["clive", "NEW", "theme", str(tmp_path)])
    with pytest.raises(SystemExit):
        brief.main(["neverused", "CLV", "theme", str(tmp_path)])
    assert not any(tmp_path.iterdir())


def test_snapshot_of_a_sealed_set_keeps_no_text(diff, tmp_path):
    path = tmp_path / "s_prompts.jsonl"
    path.write_text(json.dumps({"id": "S-1", "domain": "d", "tagged": "<Directive>Do it.</Directive>"}) + "\n")
    _, dev = diff._snap_one(("s", "dev", str(path)))
    _, sealed = diff._snap_one(("s", "sealed", str(path)))
    assert dev["records"] == [["S-1", [["D", "D", "Do it."]]]]
    assert sealed["records"] == [["S-1", [["D", "D"]]]]


def test_compare_counts_and_shows_only_development_changes(diff, tmp_path, capsys):
    def snapshot(dev_pred: str, sealed_pred: str) -> Path:
        data = {"a": {"kind": "dev", "records": [["A-1", [["D", dev_pred, "Do it."], ["O", "O", "Be brief."]]]]},
                "b": {"kind": "sealed", "records": [["B-1", [["A", sealed_pred]]]]}}
        path = tmp_path / f"{dev_pred}{sealed_pred}.json"
        path.write_text(json.dumps(data))
        return path

    diff.compare(snapshot("A", "A"), snapshot("D", "D"), show=True)
    out = capsys.readouterr().out
    assert "+ a/A-1: gold D A->D  'Do it.'" in out
    assert "TOTAL dev    +1 -0   prompts +1 -0" in out and "TOTAL sealed +0 -1   prompts +0 -1" in out
    assert "B-1" not in out


def test_extra_sets_need_a_kind(diff):
    with pytest.raises(SystemExit, match="NAME=PATH:dev"):
        diff.gold_sets(["new=/tmp/new_prompts.jsonl"])
