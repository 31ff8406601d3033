"""The local model's speeds fitted to the run store's answers (promptanatomy_core.speed): known speeds recovered from
answers timed as the runner times a batch, the one-factor fallback when the batches cannot split reading from
writing, and None (the defaults) with too few, cached-only or remote answers."""
from __future__ import annotations

import pytest

from promptanatomy_core import speed
from promptanatomy_core.models.runner import Runner
from promptanatomy_core.store import RunStore
from stored_runs import timed_batches
from test_runner import Batch, req

IN_S, OUT_S = 250.0, 12.0
#: Batches of different make-up (long prompts with short answers, short prompts with long answers, a partial batch),
#: each with answers of different lengths sharing the batch's latency.
VARIED = [[(300, 64), (340, 10), (320, 40), (310, 64)],
          [(80, 64), (90, 64), (85, 50)],
          [(600, 5), (650, 8)],
          [(200, 30), (210, 20), (190, 64), (205, 1), (199, 64)]]


@pytest.fixture()
def store(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as s:
        yield s


def test_recovers_known_speeds_from_batches_sharing_their_latency(store):
    timed_batches(store, VARIED, IN_S, OUT_S)
    s = speed.local_speeds(store)
    assert s is not None and s.fit == "two speeds" and s.measured
    assert s.in_tokens_s == pytest.approx(IN_S, rel=1e-6) and s.out_tokens_s == pytest.approx(OUT_S, rel=1e-6)
    assert (s.responses, s.batches) == (14, 4)
    assert s.seconds(330, 64) == pytest.approx(330 / IN_S + 64 / OUT_S)


def test_a_fit_per_answer_would_be_wrong_the_batches_are_what_counts(store):
    """One batch's answers share one latency whatever their length: grouped back into the batch they fit exactly."""
    timed_batches(store, VARIED, IN_S, OUT_S)
    rows = store.sent_timings(provider="local")
    assert len({r["latency"] for r in rows}) == len(VARIED)
    sums = speed.batch_sums(rows)
    assert sorted(round(t, 9) for _, _, t in sums) == sorted(
        round(sum(i for i, _ in b) / IN_S + sum(o for _, o in b) / OUT_S, 9) for b in VARIED)


def test_alike_batches_scale_the_defaults_by_one_factor(store):
    """Every batch with the same make-up: how the time splits between reading and writing is not in the data, so
    the defaults keep their ratio, scaled to match what the batches took."""
    timed_batches(store, [[(330, 64)] * 4, [(165, 32)] * 4, [(660, 128)] * 2], IN_S, OUT_S)
    s = speed.local_speeds(store)
    assert s is not None and s.fit == "scaled" and s.batches == 3
    assert s.in_tokens_s / s.out_tokens_s == pytest.approx(speed.DEFAULT_IN_TOKENS_S / speed.DEFAULT_OUT_TOKENS_S)
    assert s.seconds(330, 64) == pytest.approx(330 / IN_S + 64 / OUT_S)


def test_too_few_cached_only_or_remote_answers_give_none(store):
    assert speed.local_speeds(store) is None  # an empty store
    timed_batches(store, [[(300, 64)] * 4, [(100, 20)] * 3], IN_S, OUT_S)  # 7 answers
    assert speed.local_speeds(store) is None
    assert speed.local_speeds(store, min_responses=7) is not None
    timed_batches(store, VARIED, IN_S, OUT_S, cached=True)  # cache hits took no model time
    timed_batches(store, VARIED, IN_S, OUT_S, model="openai:gpt-4o-mini")
    timed_batches(store, VARIED, IN_S, OUT_S, model="localhost:model")  # not a local SPEC
    assert speed.local_speeds(store) is None
    assert speed.local_speeds(store, "openai:gpt-4o-mini") is None


def test_each_local_spec_and_only_the_newest_answers(store):
    timed_batches(store, VARIED, 2 * IN_S, 2 * OUT_S)  # older answers of the same model
    timed_batches(store, VARIED, IN_S, OUT_S)
    timed_batches(store, VARIED, IN_S / 10, OUT_S / 10, model="local:Qwen/Qwen2.5-1.5B")
    s = speed.local_speeds(store, "local", recent=sum(map(len, VARIED)))
    assert s.out_tokens_s == pytest.approx(OUT_S, rel=1e-6)
    qwen = speed.local_speeds(store, "local:Qwen/Qwen2.5-1.5B")
    assert qwen.in_tokens_s == pytest.approx(IN_S / 10, rel=1e-6)
    assert qwen.out_tokens_s == pytest.approx(OUT_S / 10, rel=1e-6)


def test_speeds_are_clamped_to_sane_ranges(store):
    timed_batches(store, VARIED, 1e9, 1e9)
    s = speed.local_speeds(store)
    assert (s.in_tokens_s, s.out_tokens_s) == (speed.IN_RANGE[1], speed.OUT_RANGE[1])


def test_the_runner_gives_a_batch_one_latency_as_the_fit_assumes():
    """The contract the grouping rests on (models/runner.py ``_run_batches``): every answer of one batch of a batch
    backend records the same latency, the batch's wall time divided by its size."""
    backend = Batch()
    result = Runner(backend, cache=False, batch_size=4).run([req(f"p{i}") for i in range(6)])
    first, second = result.responses[:4], result.responses[4:]
    assert backend.batches == [4, 2]
    assert len({r.latency for r in first}) == 1 and len({r.latency for r in second}) == 1
    assert all(r.latency > 0 and not r.cached for r in result.responses)


def test_noisy_near_alike_batches_do_not_give_wild_speeds():
    """Nearly proportional sums with a few percent of timing noise: a two-speed fit would split the time at random
    (even a negative speed), so the one-factor fit is kept and predicts batches like these to within the noise."""
    noise = (1.04, 0.96, 1.03, 0.98, 1.01)
    sums = [(i, o, (i / IN_S + o / OUT_S) * f)
            for (i, o), f in zip([(1320, 256), (1300, 250), (1340, 256), (990, 190), (1310, 252)], noise)]
    s = speed.fit_speeds(sums, 19)
    assert s is not None and s.fit == "scaled"
    assert s.seconds(330, 64) == pytest.approx(330 / IN_S + 64 / OUT_S, rel=0.05)
    assert speed.fit_speeds([(100, 10, 0.0)], 8) is None  # nothing took any time: nothing to fit
