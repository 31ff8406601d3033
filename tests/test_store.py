"""The SQLite run store: round trip, list/rename/delete, exports, no key ever in the database's bytes, execution
leases (held, stale, of a dead process) and the migration of a version 1 store."""
from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from promptanatomy_core.models.base import ChatResponse, TokenProb
from promptanatomy_core.models.keys import remember
from promptanatomy_core.lease import Heartbeat, pid_alive
from promptanatomy_core.store import (SCHEMA_VERSION, STORE_ENV, RunBusyError, RunStore, StoreError, default_path,
                                      safe_spec)

FAKE_KEY = "sk-proj-FAKEKEYfortestsonly0123456789abcdef"


def _fill(store: RunStore, name: str = "first", spec: dict | None = None) -> int:
    run = store.create_run(name, spec or {"models": ["local"], "n": 2})
    store.save_dissection(run, "i0", 0, "You are a doctor. Answer yes or no.", "yes",
                          {"sentences": [{"start": 0, "end": 17, "labels": ["Role"]}]})
    store.save_variants(run, [
        {"variant_id": "i0|clean", "instance_id": "i0", "position": 0, "component": "clean", "strategy": "clean",
         "seed": None, "text": "You are a doctor. Answer yes or no.", "is_clean": True},
        {"variant_id": "i0|Role|SCI|0", "instance_id": "i0", "position": 1, "component": "Role", "strategy": "SCI",
         "seed": 0, "text": "You a@re a doctor. Answer yes or no.", "edits": [[5, 5, "@"]], "ppl": 12.5,
         "ppl_ratio": 1.5, "kept": True},
    ])
    store.save_skipped(run, [("i0", "Examples", "SCI", "not present: no Examples")])
    ids = store.ensure_requests(run, [
        {"key": "k-clean", "variant_id": "i0|clean", "model": "local", "messages_hash": "h0",
         "params": {"temperature": 0, "max_tokens": 4}, "position": 0},
        {"key": "k-sci", "variant_id": "i0|Role|SCI|0", "model": "local", "messages_hash": "h1",
         "params": {"temperature": 0, "max_tokens": 4}, "position": 1},
    ])
    store.save_response(ids["k-clean"], ChatResponse(text="Yes.", tokens=(TokenProb("Yes", 0.9),), input_tokens=10,
                                                     output_tokens=2, latency=0.5))
    store.save_judgment(ids["k-clean"], True, 1.0, "contains 'yes'", "contains")
    store.save_error(run, ids["k-sci"], "HTTP 500: boom")
    return run


def test_round_trip(tmp_path):
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as store:
        run = _fill(store)
        assert store.schema_version == SCHEMA_VERSION
        assert store.answered(run) == {"k-clean"}
        # ensure_requests is idempotent: the same keys keep their ids
        again = store.ensure_requests(run, [{"key": "k-sci", "variant_id": "i0|Role|SCI|0", "model": "local",
                                             "messages_hash": "h1", "params": {}, "position": 1}])
        assert len(again) == 2
    with RunStore(path) as store:  # reopened from disk
        info = store.get_run(run)
        assert (info.name, info.status, info.requests, info.responses, info.errors) == ("first", "planned", 2, 1, 1)
        assert info.spec == {"models": ["local"], "n": 2}
        rows = store.variant_results(run)
        assert [r["variant_id"] for r in rows] == ["i0|clean", "i0|Role|SCI|0"]
        assert rows[0]["response"] == "Yes." and rows[0]["correct"] is True and rows[0]["error"] is None
        assert rows[1]["answered"] is False and rows[1]["error"] == "HTTP 500: boom" and rows[1]["kept"] is True
        assert store.variants(run)[1]["edits"] == [[5, 5, "@"]]
        assert store.skipped(run)[0]["reason"].startswith("not present")
        assert store.unjudged(run) == []
        (answer,) = store.answers(run)
        assert (answer["request_key"], answer["text"], answer["tokens"], answer["judged"]) == \
            ("k-clean", "Yes.", [["Yes", 0.9]], True)
        assert answer["expected"] == "yes" and answer["is_clean"] is True
        store.set_status(run, "done")
        assert store.get_run(run).status == "done"
        with pytest.raises(StoreError):
            store.set_status(run, "finished")


def test_list_rename_delete_and_exports(tmp_path):
    with RunStore(tmp_path / "r.sqlite") as store:
        a = _fill(store, "a")
        b = _fill(store, "b")
        assert [r.id for r in store.list_runs()] == [b, a]
        store.rename_run(a, "before the edit")
        assert store.get_run(a).name == "before the edit"
        with pytest.raises(StoreError):
            store.rename_run(a, "  ")
        out = store.export_csv(b, tmp_path / "b.csv")
        with out.open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert len(rows) == 2 and rows[0]["response"] == "Yes."
        data = store.export_json(b, tmp_path / "b.json")
        assert json.loads((tmp_path / "b.json").read_text())["run"]["name"] == "b" == data["run"]["name"]
        store.delete_run(a)
        assert [r.id for r in store.list_runs()] == [b]
        with pytest.raises(StoreError):
            store.get_run(a)
        # everything of the deleted run went with it
        assert store._q("SELECT COUNT(*) AS n FROM requests WHERE run_id=?", (a,))[0]["n"] == 0
        assert store._q("SELECT COUNT(*) AS n FROM variants WHERE run_id=?", (a,))[0]["n"] == 0


def test_default_path_and_env(tmp_path, monkeypatch):
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "elsewhere.sqlite"))
    assert default_path() == tmp_path / "elsewhere.sqlite"
    monkeypatch.delenv(STORE_ENV)
    monkeypatch.setenv("PROMPTANATOMY_CACHE_DIR", str(tmp_path / "cache"))
    assert default_path() == tmp_path / "cache" / "runs.sqlite"
    with RunStore() as store:
        assert store.path == tmp_path / "cache" / "runs.sqlite"
    con = __import__("sqlite3").connect(str(tmp_path / "cache" / "runs.sqlite"))
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_keys_never_reach_the_database(tmp_path):
    remember(FAKE_KEY)
    path = tmp_path / "k.sqlite"
    store = RunStore(path)
    spec = {"models": [f"openai:gpt-4o@https://user:{FAKE_KEY}@example.org/v1?api_key={FAKE_KEY}"],
            "criterion_params": {"judge": "openai:gpt-4o", "api_key": FAKE_KEY, "note": f"key {FAKE_KEY}"}}
    run = store.create_run(f"run {FAKE_KEY}", spec)
    store.save_dissection(run, "i0", 0, "p", "e", {})
    store.save_variants(run, [{"variant_id": "v", "instance_id": "i0", "position": 0, "component": "clean",
                               "strategy": "clean", "text": "p", "is_clean": True}])
    ids = store.ensure_requests(run, [{"key": "k", "variant_id": "v", "model": spec["models"][0],
                                       "messages_hash": "h", "params": {"api_key": FAKE_KEY, "max_tokens": 4},
                                       "position": 0}])
    store.save_response(ids["k"], ChatResponse(text=f"the key is {FAKE_KEY}"))
    store.save_judgment(ids["k"], False, 0.0, f"echoed {FAKE_KEY}", "contains")
    store.save_error(run, ids["k"], f"401 Incorrect API key provided: {FAKE_KEY}")
    assert "example.org" in store.variant_results(run)[0]["model"]
    assert json.loads(store._q("SELECT params FROM requests")[0]["params"]) == {"max_tokens": 4}
    store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("k.sqlite"))
    assert FAKE_KEY.encode() not in raw
    assert b"FAKEKEY" not in raw
    # user-info in a URL is dropped even when it is not a known key
    with RunStore(path) as store:
        other = store.create_run("x", {"models": ["openai:m@http://alice:hunter2secret@host/v1"]})
        assert store.get_run(other).spec["models"] == ["openai:m@http://host/v1"]


def test_safe_spec():
    assert safe_spec("openai:m@http://u:p@host:8000/v1?k=1") == "openai:m@http://host:8000/v1"
    assert safe_spec("anthropic:claude-haiku-4-5") == "anthropic:claude-haiku-4-5"


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "n.sqlite"
    RunStore(path).close()
    con = sqlite3.connect(str(path))
    con.execute("UPDATE schema_version SET version=99")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer"):
        RunStore(path)


def test_a_second_store_cannot_take_a_held_lease(tmp_path):
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as first, RunStore(path) as second:
        run = first.create_run("leased", {"models": ["local"]})
        owner = first.acquire_lease(run)
        first.set_status(run, "running", owner)
        with pytest.raises(RunBusyError, match=rf"run #{run} is already being executed by another execution in "
                                               rf"this process \(pid {os.getpid()}, last active \d+ s ago\); wait "
                                               rf"for it to finish or stop it first"):
            second.acquire_lease(run)
        assert issubclass(RunBusyError, StoreError)  # what the CLI and the pages catch
        assert second.get_run(run).status == "running" and second.lease(run).owner == owner
        first.release_lease(run, owner)
        assert second.lease(run) is None
        assert second.get_run(run).status == "interrupted"  # left "running" by an execution that is gone
        taken = second.acquire_lease(run)
        assert taken != owner and not first.renew_lease(run, owner) and second.renew_lease(run, taken)


def test_a_lease_without_heartbeat_is_taken_over(tmp_path):
    path = tmp_path / "runs.sqlite"
    now = [1_000_000.0]
    with RunStore(path, clock=lambda: now[0], lease_timeout=60) as first, \
            RunStore(path, clock=lambda: now[0], lease_timeout=60) as second:
        run = first.create_run("stuck", {"models": ["local"]})
        owner = first.acquire_lease(run)
        first.set_status(run, "running", owner)
        now[0] += 50
        with pytest.raises(RunBusyError, match="last active 50 s ago"):
            second.acquire_lease(run)
        assert first.renew_lease(run, owner)  # the heartbeat moves to now: 60 s more
        now[0] += 61
        assert second.get_run(run).status == "interrupted"
        taken = second.acquire_lease(run)
        assert second.lease(run).owner == taken
        assert not first.renew_lease(run, owner)  # the first execution learns it lost the run
        first.set_status(run, "done", owner)  # and its status writes no longer land
        first.release_lease(run, owner)
        assert second.lease(run).owner == taken and second.get_run(run).status == "running"


def test_the_lease_of_a_dead_process_is_taken_over(tmp_path):
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as store:
        run = store.create_run("crashed", {"models": ["local"]})
    crash = ("import os, sys\nfrom promptanatomy_core.store import RunStore\n"
             "s = RunStore(sys.argv[1]); s.set_status(int(sys.argv[2]), 'running', s.acquire_lease(int(sys.argv[2])))\n"
             "os._exit(0)  # no release: a crash")
    subprocess.run([sys.executable, "-c", crash, str(path), str(run)], check=True)
    with RunStore(path) as store:
        dead = store.lease(run)
        assert dead is not None and dead.pid != os.getpid() and not pid_alive(dead.pid)
        assert store.get_run(run).status == "interrupted"
        store.acquire_lease(run)
        assert store.lease(run).pid == os.getpid()


def test_heartbeat_renews_until_the_lease_is_lost():
    calls = []

    def renew(owner):
        calls.append(owner)
        return len(calls) < 3

    beat = Heartbeat("token", renew, 0.001)
    assert beat.lost.wait(30)
    beat.stop()
    assert calls == ["token"] * 3


def test_holding_releases_whatever_happens(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        run = store.create_run("held", {"models": ["local"]})
        with pytest.raises(KeyboardInterrupt):
            with store.holding(run) as beat:
                assert store.lease(run).owner == beat.owner and not beat.lost.is_set()
                raise KeyboardInterrupt
        assert store.lease(run) is None


def test_a_version_1_store_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite"
    with RunStore(path) as store:
        run = _fill(store, "from version 1")
    con = sqlite3.connect(str(path))  # the schema of version 1: no leases
    con.execute("DROP TABLE leases")
    con.execute("UPDATE schema_version SET version=1")
    con.commit()
    con.close()
    with RunStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 2
        info = store.get_run(run)
        assert (info.name, info.status, info.requests, info.responses) == ("from version 1", "planned", 2, 1)
        owner = store.acquire_lease(run)
        assert store.lease(run).owner == owner
