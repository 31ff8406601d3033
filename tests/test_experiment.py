"""The experiment: plan sizes, the dry-run estimate, resuming after a cancel, errors left out of n, results that add
up. The fast tests use a scripted backend under a test provider; the slow test beside them runs the embedded model
end to end over PubMedQA-PA instances (with the real perplexity scorer)."""
from __future__ import annotations

import math
import threading

import pytest

from promptanatomy_core.experiment import (CLEAN, ExperimentSpec, Instance, estimate, execute, load_plan, plan,
                                           result_records, results, resume)
from promptanatomy_core.models.base import ChatResponse, register_provider
from promptanatomy_core.models.runner import Runner
from promptanatomy_core.store import RunStore
from scripted import ScriptedBackend, prompt_hash

TAGGED = ("<Role>You are a careful medical researcher.</Role>\n"
          "<Directive>Read the abstract and answer the question with yes, no or maybe.</Directive>\n"
          "<Additional Information>Abstract: {topic} was studied in {n} patients over two years.</Additional "
          "Information>\n<Output Formatting>Answer with one word.</Output Formatting>")


class Scripted(ScriptedBackend):
    """Scripted answers ("yes" or "no" from a hash of the prompt); model ``flaky`` fails on every third prompt (by
    hash). Checked against the real embedded model in the slow test below."""

    sent: list[str] = []

    def record(self, text: str) -> str:
        return f"{self.spec.model}:{text}"

    def answer(self, text: str) -> ChatResponse:
        if self.spec.model == "flaky" and prompt_hash(text) % 3 == 0:
            return ChatResponse(error="HTTP 500: scripted failure")
        yes = prompt_hash(text) % 2 == 0 or "careful medical" in text
        return ChatResponse(text="Yes." if yes else "No.", input_tokens=20, output_tokens=2)


register_provider("scripted")(lambda spec: Scripted(spec))


class LengthScorer:
    """Perplexity stand-in: the text's length (the real scorer runs in the slow test)."""

    def score_variants(self, clean, variants, progress=None):
        return float(len(clean)), [float(len(v)) for v in variants]


def _spec(**kw):
    base = dict(instances=(Instance("a", tagged=TAGGED.format(topic="Aspirin", n=120), expected="yes"),
                           Instance("b", tagged=TAGGED.format(topic="Statin use", n=80), expected="no")),
                models=("scripted:good",), components=("Role", "Directive", "Examples", "CRT"),
                strategies=("SCI", "WOD"), n=2, keep_top=0.5, max_tokens=4, criterion="contains")
    base.update(kw)
    return ExperimentSpec(**base)


def _runner(batch_size=2):
    from promptanatomy_core.models.base import get_backend

    return lambda model: Runner(get_backend(model), cache=False, batch_size=batch_size)


def test_plan_sizes_and_estimate():
    p = plan(_spec(models=("scripted:good", "scripted:flaky")), scorer=LengthScorer())
    sizes = p.sizes()
    # Examples is absent: 3 present components × 2 strategies × n=2 = 12 variants per instance, + 1 clean prompt
    assert sizes["instances"] == 2 and sizes["clean"] == 2 and sizes["variants"] == 24
    assert {(i, c, s) for i, c, s, _ in p.skipped} == {(i, "Examples", s) for i in "ab" for s in ("SCI", "WOD")}
    assert sizes["requests"] == 2 * 26 and len({r.key for r in p.requests}) == 52
    # keep_top=0.5 of n=2: one kept per cell; send_dropped (default) sends both
    kept = [v for v in p.variants if not v.is_clean and v.variant.kept]
    assert len(kept) == 12
    assert plan(_spec(send_dropped=False), scorer=LengthScorer()).sizes()["requests"] == 2 * (1 + 6)
    # the plan is deterministic: the same spec gives the same keys
    assert [r.key for r in plan(_spec(), scorer=LengthScorer()).requests] == \
        [r.key for r in p.requests if r.model == "scripted:good"]
    est = estimate(p)
    unique = len({(r.model, r.request) for r in p.requests})  # identical prompts (e.g. two seeds deleting the same
    assert est.total["requests"] == 52 and est.total["to_send"] == unique <= 52  # word) are sent once
    assert est.total["dollars"] is None and not any(e.priced for e in est.models)  # no price: unknown, never 0
    assert sum(e.output_tokens_max for e in est.models) == unique * 4


def test_resume_after_cancel_sends_only_the_rest(tmp_path):
    Scripted.sent.clear()
    p = plan(_spec(), scorer=LengthScorer())
    total = len(p.requests)
    cancel = threading.Event()
    seen = []

    def progress(ev):
        if ev.stage == "request":
            seen.append(ev)
            if len(seen) == 3:
                cancel.set()

    with RunStore(tmp_path / "runs.sqlite") as store:
        first = execute(p, store, runner=_runner(), progress=progress, cancel=cancel, name="resumable")
        assert first.status == "interrupted" and store.get_run(first.run_id).status == "interrupted"
        done_first = first.answered
        assert 3 <= done_first < total and len(Scripted.sent) <= done_first  # the batch in flight ends
        answered = store.answered(first.run_id)
        assert len(answered) == done_first
        missing = [r for r in p.requests if r.key not in answered]
        Scripted.sent.clear()
        second = resume(store, first.run_id, runner=_runner())
        assert second.status == "done" and second.already == done_first
        assert second.answered == total - done_first == len(missing)  # only what was missing
        assert sorted(Scripted.sent) == sorted({"good:" + r.request.messages[-1].content for r in missing})
        assert len(store.answered(first.run_id)) == total
        assert store.unjudged(first.run_id) == []
        # a third run sends nothing
        Scripted.sent.clear()
        third = execute(load_plan(store, first.run_id), store, run_id=first.run_id, runner=_runner())
        assert third.sent == 0 and Scripted.sent == []
        frame = results(first.run_id, store)
        cells = frame[frame.component != CLEAN]
        assert set(cells.ppl_filter) == {"all", "top50%"}
        all_rows = cells[cells.ppl_filter == "all"]
        assert all_rows.n.sum() == 24 and cells[cells.ppl_filter == "top50%"].n.sum() == 12
        assert frame[frame.component == CLEAN].n.sum() == 2
        for _, row in frame.iterrows():
            assert row.asr == pytest.approx(row.successes / row.n)
            assert row.asr_low <= row.asr <= row.asr_high
        info = store.get_run(first.run_id)
        assert info.requests == info.responses == total and info.errors == 0


def test_provider_errors_are_never_attack_successes(tmp_path):
    spec = _spec(models=("scripted:flaky",), keep_top=None)
    p = plan(spec)
    with RunStore(tmp_path / "e.sqlite") as store:
        run = execute(p, store, runner=_runner(batch_size=8))
        assert run.errors > 0 and run.answered + run.errors == len(p.requests) == 26
        frame = results(run.run_id, store)
        assert frame.errors.sum() == run.errors
        assert (frame.n + frame.errors + frame.unjudged + frame.not_run).sum() == len(p.requests)
        recs = [r for r in result_records(run.run_id, store) if r["error"]]
        assert recs and all(r["correct"] is None for r in recs)
        # ASR counts only judged answers
        for _, row in frame[frame.n > 0].iterrows():
            assert row.asr == pytest.approx(row.successes / row.n)
        # a rerun tries the failed requests again (they fail again: the error history grows)
        again = resume(store, run.run_id, runner=_runner(batch_size=8))
        assert again.sent == run.errors and len(store.errors(run.run_id)) == 2 * run.errors
        skip = resume(store, run.run_id, runner=_runner(batch_size=8), retry_errors=False)
        assert skip.sent == 0


def test_differs_from_clean_needs_no_expected_answer(tmp_path):
    spec = ExperimentSpec.from_prompt(TAGGED.format(topic="Aspirin", n=120), tagged=True, models=("scripted:good",),
                                      components=("Directive", "CRT"), strategies=("SCI", "WOD"), n=3,
                                      keep_top=None, criterion="differs")
    p = plan(spec)
    with RunStore(tmp_path / "d.sqlite") as store:
        run = execute(p, store, runner=_runner(batch_size=8))
        frame = results(run.run_id, store)
        clean_row = frame[frame.component == CLEAN].iloc[0]
        assert (clean_row.n, clean_row.successes) == (1, 0)  # the clean answer is the reference
        recs = [r for r in result_records(run.run_id, store) if r["component"] != CLEAN]
        assert all(r["clean_correct"] is True for r in recs)
        for _, row in frame[frame.component != CLEAN].iterrows():  # the flip rate equals the ASR here
            assert row.flip_rate == pytest.approx(row.asr) and row.n == 3


def test_judging_during_the_run_waits_for_the_clean_answer(tmp_path):
    """A display judges a run in progress (``wait_for_clean``): with the clean prompt sent last, nothing is judged
    before its answer lands, and the final judgments are those of a run judged only at its end."""
    import dataclasses

    from promptanatomy_core.experiment import judge_run

    spec = ExperimentSpec.from_prompt(TAGGED.format(topic="Aspirin", n=120), tagged=True, models=("scripted:good",),
                                      components=("Directive", "CRT"), strategies=("SCI", "WOD"), n=3,
                                      keep_top=None, criterion="differs")
    p = plan(spec)
    late_clean = dataclasses.replace(p, requests=list(reversed(p.requests)))
    assert late_clean.requests[-1].variant_id.endswith("|clean")
    with RunStore(tmp_path / "w.sqlite") as store:
        judged_before_clean, run_ids = [], set()

        def progress(ev):
            if ev.stage == "request":
                run_ids.add(ev.run_id)
                count = judge_run(store, ev.run_id, spec, wait_for_clean=True)
                if ev.done < ev.total:
                    judged_before_clean.append(count)

        run = execute(late_clean, store, runner=_runner(batch_size=1), progress=progress)
        assert run_ids == {run.run_id}
        assert judged_before_clean and set(judged_before_clean) == {0}
        assert store.unjudged(run.run_id) == []
        live = results(run.run_id, store)
        reference = execute(p, store, runner=_runner(batch_size=1))
        at_end = results(reference.run_id, store)
    cols = ["component", "perturbation", "n", "successes", "unjudged"]
    assert live[cols].equals(at_end[cols]) and (live.unjudged == 0).all()


def test_one_runner_serves_only_its_model(tmp_path):
    from promptanatomy_core.experiment import ExperimentError
    from promptanatomy_core.models.base import get_backend

    p = plan(_spec(models=("scripted:good", "scripted:flaky"), keep_top=None))
    with RunStore(tmp_path / "r.sqlite") as store, pytest.raises(ExperimentError, match="not scripted:flaky"):
        execute(p, store, runner=Runner(get_backend("scripted:good"), cache=False))


def test_spec_round_trips_and_rejects_bad_input():
    spec = _spec(criterion_params={"threshold": 1})
    assert ExperimentSpec.from_json(spec.to_json()) == spec
    with pytest.raises(ValueError):
        _spec(models=())
    with pytest.raises(ValueError):
        _spec(keep_top=2)
    with pytest.raises(ValueError):
        Instance("x", prompt="a", tagged="<Role>b</Role>")
    one = ExperimentSpec.from_prompt("You are a judge. Say yes or no.", expected="yes", models=("scripted:good",),
                                     components=("Role",), strategies=("SCI",), keep_top=None)
    assert plan(one).sizes()["clean"] == 1


TEMPLATE = ("You are a careful medical researcher. Answer the question with yes, no or maybe.\n"
            "Question: {question}\nAnswer with one word, like {{yes}}.")
ROWS = [{"question": "Does aspirin help?", "expected": "yes", "source": "unused"},
        {"question": "Do statins cure colds?", "expected": "no"},
        {"question": "Is coffee safe?", "expected": ""}]


def test_template_is_perturbed_once_and_filled_per_row(tmp_path):
    spec = ExperimentSpec.from_template(TEMPLATE, ROWS, models=("scripted:good",),
                                        components=("Role", "Directive", "CRT"), strategies=("SCI", "WOD"), n=2,
                                        keep_top=None)
    assert [i.id for i in spec.instances] == ["row1", "row2", "row3"]
    assert [i.expected for i in spec.instances] == ["yes", "no", None]
    assert spec.rows == ({"question": "Does aspirin help?"}, {"question": "Do statins cure colds?"},
                         {"question": "Is coffee safe?"})  # unused columns are dropped
    assert ExperimentSpec.from_json(spec.to_json()) == spec
    p = plan(spec)
    by_cell: dict[tuple, dict[str, str]] = {}
    for pv in p.variants:
        v = pv.variant
        by_cell.setdefault((v.component, v.strategy, v.seed), {})[pv.instance_id] = v.text
    assert by_cell and all(sorted(rows) == ["row1", "row2", "row3"] for rows in by_cell.values())
    clean = by_cell[(CLEAN, CLEAN, 0)]
    for k, row in enumerate(ROWS, 1):
        assert clean[f"row{k}"] == TEMPLATE.replace("{question}", row["question"]).replace("{{yes}}", "{yes}")
        assert p.dissections[f"row{k}"].prompt == clean[f"row{k}"]
    for cell, texts in by_cell.items():
        # one variant of the template, filled with each row: the placeholder was never perturbed
        for k, row in enumerate(ROWS, 1):
            text = texts[f"row{k}"]
            assert f"Question: {row['question']}" in text and "{question}" not in text and "{yes}" in text
            template_text = text.replace(row["question"], "{question}")
            assert template_text == texts["row1"].replace(ROWS[0]["question"], "{question}")
    variant = next(pv.variant for pv in p.variants if pv.instance_id == "row2" and pv.variant.edits)
    for e in variant.edits:  # edit offsets point into the filled text
        assert variant.text[e.start:e.start + len(e.replacement)] == e.replacement
    assert p.sizes()["clean"] == 3 and p.sizes()["variants"] == 3 * 3 * 2 * 2
    assert [r.key for r in plan(spec).requests] == [r.key for r in p.requests]  # deterministic: resumable
    with RunStore(tmp_path / "t.sqlite") as store:
        run = execute(p, store, runner=_runner(batch_size=8))
        assert run.status == "done" and run.answered == len(p.requests)
        frame = results(run.run_id, store)
        cells = frame[frame.component != CLEAN]
        assert (cells.instances == 3).all()
        # row3 has no expected answer, so "contains" cannot judge it: 2 rows × n=2 judged per cell, PSS over 2 rows
        assert (cells.n == 4).all() and (cells.unjudged == 2).all() and (cells.pss_instances == 2).all()
        assert resume(store, run.run_id, runner=_runner()).sent == 0


def test_template_errors():
    with pytest.raises(ValueError, match=r"row 2: no value for the placeholder \{question\}"):
        ExperimentSpec.from_template(TEMPLATE, [ROWS[0], {"expected": "no"}], models=("scripted:good",))
    with pytest.raises(ValueError, match="no {placeholder}"):
        ExperimentSpec.from_template("Say {{yes}} or no.", ROWS, models=("scripted:good",))
    with pytest.raises(ValueError, match="placeholders must be names"):
        ExperimentSpec.from_template("Answer {0}.", ROWS, models=("scripted:good",))
    tagged = ExperimentSpec.from_template("<Role>You are a judge.</Role>\n<Directive>Answer {question}</Directive>",
                                          ROWS[:1], models=("scripted:good",), keep_top=None,
                                          components=("Directive",), strategies=("SCI",))
    assert tagged.instances[0].tagged.endswith("Answer Does aspirin help?</Directive>")
    assert plan(tagged).dissections["row1"].prompt == "You are a judge.\nAnswer Does aspirin help?"


# -------------------------------------------------------------------------------------------- the real model

@pytest.mark.slow
@pytest.mark.timeout(900)
def test_embedded_model_end_to_end_over_pubmedqa(tmp_path):
    from promptanatomy_core.datasets import load_pacp
    from promptanatomy_core.metrics import wilson_interval
    from tests.pacp import _path

    records = load_pacp(_path("PubMedQA"))[:3]
    spec = ExperimentSpec(instances=tuple(Instance.from_record(r) for r in records), models=("local",),
                          components=("Directive", "CRT"), strategies=("SCI", "WOD"), n=2, keep_top=0.5,
                          max_tokens=4, criterion="contains", name="pubmedqa e2e")
    p = plan(spec)  # the real perplexity scorer (embedded model)
    assert all(v.variant.ppl_ratio is not None for v in p.variants if not v.is_clean)
    with RunStore(tmp_path / "runs.sqlite") as store:
        run = execute(p, store, runner=lambda m: Runner(__import__("promptanatomy_core.models", fromlist=["x"])
                                                         .get_backend(m), cache=False))
        assert run.status == "done" and run.errors == 0 and run.answered == len(p.requests)
        rows = store.variant_results(run.run_id)
        assert len(rows) == len(p.requests) and all(r["answered"] for r in rows)
        frame = results(run.run_id, store)
        # recompute every cell's ASR from the stored judgments
        import sqlite3

        con = sqlite3.connect(str(store.path))
        keep = spec.keep_top
        for _, cell in frame.iterrows():
            sql = ("SELECT j.correct FROM requests q JOIN variants v ON v.run_id=q.run_id AND "
                   "v.variant_id=q.variant_id JOIN judgments j ON j.request_id=q.id WHERE q.run_id=? AND q.model=? "
                   "AND v.component=? AND v.strategy=?")
            args = [run.run_id, cell.model, cell.component, cell.perturbation]
            if cell.ppl_filter != "all":
                sql += " AND v.kept=1"
            verdicts = [c for (c,) in con.execute(sql, args) if c is not None]
            k = sum(1 for c in verdicts if c == 0)
            assert (cell.n, cell.successes) == (len(verdicts), k)
            assert cell.asr == pytest.approx(k / len(verdicts))
            assert (cell.asr_low, cell.asr_high) == pytest.approx(wilson_interval(k, len(verdicts)))
        # and every cell's PSS from the stored judgments: per instance, the cell's prompts plus the clean prompt
        clean_y = {(m, i): c for m, i, c in con.execute(
            "SELECT q.model, v.instance_id, j.correct FROM requests q JOIN variants v ON v.run_id=q.run_id AND "
            "v.variant_id=q.variant_id JOIN judgments j ON j.request_id=q.id WHERE q.run_id=? AND v.is_clean=1",
            (run.run_id,))}
        for _, cell in frame[frame.component != CLEAN].iterrows():
            sql = ("SELECT v.instance_id, j.correct FROM requests q JOIN variants v ON v.run_id=q.run_id AND "
                   "v.variant_id=q.variant_id JOIN judgments j ON j.request_id=q.id WHERE q.run_id=? AND q.model=? "
                   "AND v.component=? AND v.strategy=?" + (" AND v.kept=1" if cell.ppl_filter != "all" else ""))
            ys: dict[str, list[float]] = {}
            for iid, c in con.execute(sql, [run.run_id, cell.model, cell.component, cell.perturbation]):
                ys.setdefault(iid, []).append(float(c))
            per = []
            for iid, values in ys.items():
                values = values + [float(clean_y[(cell.model, iid)])]
                pairs = [abs(a - b) for k, a in enumerate(values) for b in values[k + 1:]]
                per.append(sum(pairs) / len(pairs))
            assert cell.pss == pytest.approx(sum(per) / len(per))
        con.close()
        assert frame.confidence.notna().all()  # the local backend returns token probabilities
        cells = frame[frame.component != CLEAN]
        present = {(r["instance_id"], r["component"], r["strategy"]) for r in rows if not r["is_clean"]}
        assert cells[cells.ppl_filter == "all"].n.sum() == len(rows) - 3 == 2 * len(present)
        assert cells[cells.ppl_filter == f"top{keep * 100:g}%"].n.sum() == len(present)
        assert frame[frame.component == CLEAN].n.sum() == 3
        assert not math.isnan(cells.pss.iloc[0])
