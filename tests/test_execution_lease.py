"""One execution of a run at a time: two threads executing one run (one sends, the other is refused and sends
nothing), the lease released when an execution fails or stops, and an execution that lost its lease stopping without
overwriting the status. Over the scripted backend of test_experiment."""
from __future__ import annotations

import threading

import pytest

from promptanatomy_core.experiment import execute, plan, resume
from promptanatomy_core.store import RunBusyError, RunStore
from test_experiment import Scripted, _runner, _spec

#: Safety bound for waiting on the other thread; the tests rest on the outcomes, never on time.
WAIT_S = 60


def _texts(requests) -> list[str]:
    return sorted({"good:" + r.request.messages[-1].content for r in requests})


def test_two_executions_of_one_run_one_sends_the_other_is_refused(tmp_path):
    Scripted.sent.clear()
    p = plan(_spec(keep_top=None))
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as store:
        run_id = store.create_run("shared", p.spec.to_json())
    holding, refused = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def hold_until_refused(ev) -> None:  # the first answer lands: the other execution tries now
        holding.set()
        refused.wait(WAIT_S)

    def execute_in(name: str, progress) -> None:
        try:
            with RunStore(path) as store:  # each its own store on the file, as two sessions or processes
                outcome[name] = execute(p, store, run_id=run_id, runner=_runner(), progress=progress)
        except RunBusyError as exc:
            outcome[name] = exc

    first = threading.Thread(target=execute_in, args=("first", hold_until_refused))
    first.start()
    assert holding.wait(WAIT_S)
    second = threading.Thread(target=execute_in, args=("second", None))
    second.start()
    second.join()
    refused.set()
    first.join()
    assert isinstance(outcome["second"], RunBusyError)
    assert str(outcome["second"]).startswith(f"run #{run_id} is already being executed by another execution")
    assert outcome["first"].status == "done" and outcome["first"].answered == len(p.requests)
    assert sorted(Scripted.sent) == _texts(p.requests)  # every request once: none twice
    with RunStore(path) as store:
        assert store.get_run(run_id).status == "done" and store.lease(run_id) is None


def test_an_execution_that_fails_or_stops_releases_the_run(tmp_path):
    p = plan(_spec(keep_top=None))

    def broken(model: str):
        raise RuntimeError(f"no backend for {model}")

    with RunStore(tmp_path / "runs.sqlite") as store:
        with pytest.raises(RuntimeError, match="no backend"):
            execute(p, store, runner=broken)
        (info,) = store.list_runs()
        assert info.status == "interrupted" and store.lease(info.id) is None
        cancel = threading.Event()
        stopped = resume(store, info.id, runner=_runner(batch_size=1), progress=lambda ev: cancel.set(),
                         cancel=cancel)
        assert stopped.status == "interrupted" and store.lease(info.id) is None
        assert resume(store, info.id, runner=_runner()).status == "done"


def test_an_execution_that_lost_its_lease_stops_and_leaves_the_status_alone(tmp_path):
    """The first execution's heartbeat stopped long enough for another to take the run over (a suspended laptop):
    at its next answer it stops sending, and its status writes and release do not touch the new owner's run."""
    Scripted.sent.clear()
    p = plan(_spec(keep_top=None))
    path = tmp_path / "runs.sqlite"
    with RunStore(path, lease_timeout=0.06) as first, RunStore(path, clock=lambda: 1e12) as later:
        run_id = first.create_run("taken over", p.spec.to_json())
        lost = threading.Event()
        renew = first.renew_lease

        def observed_renew(run: int, owner: str) -> bool:
            kept = renew(run, owner)
            if not kept:
                lost.set()
            return kept

        first.renew_lease = observed_renew
        taken: list[str] = []

        def take_over(ev) -> None:
            if not taken:
                taken.append(later.acquire_lease(run_id))  # far in the future: the first lease is stale
                later.set_status(run_id, "done", taken[0])
                lost.wait(WAIT_S)  # the first execution's next heartbeat finds the lease gone

        out = execute(p, first, run_id=run_id, runner=_runner(batch_size=1), progress=take_over)
        assert lost.is_set() and out.status == "interrupted" and out.answered < len(p.requests)
        assert len(Scripted.sent) == out.answered
        assert later.lease(run_id).owner == taken[0]  # the first one's release left it alone
        later.release_lease(run_id, taken[0])
        assert later.get_run(run_id).status == "done"  # not the first one's "interrupted"
