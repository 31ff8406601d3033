"""The run store: every experiment run in one SQLite database, so it can be listed, reopened, resumed and exported.

Where: ``path=`` if given, else ``$PROMPTANATOMY_STORE``, else ``settings.cache_dir()/runs.sqlite``. The database runs
in WAL mode (readers do not block the writer; a crash loses at most the write in progress) and one connection is
shared, under a lock, by the threads of one process (the runner may land results in a worker thread).

Tables (``schema_version`` holds :data:`SCHEMA_VERSION`):

- ``runs``: id, name, created, updated, spec (JSON), status (``planned`` | ``running`` | ``interrupted`` | ``done``).
  A run read back says ``running`` exactly while an execution holds its lease, and ``interrupted`` when it was left
  ``running`` by an execution that is gone.
- ``leases``: at most one per run, held by the execution of that run (:mod:`.lease`): owner token, pid, host,
  heartbeat. :meth:`RunStore.acquire_lease` refuses a second execution with :class:`RunBusyError`.
- ``dissections``: one per instance of a run: its prompt, expected answer and dissection (JSON).
- ``variants``: the clean prompt and every variant of each instance: component, strategy, seed, text, edits (JSON),
  note, ppl, ppl_ratio, kept. ``skipped``: the cells that could not be filled, with the reason.
- ``requests``: one per (variant, model): a deterministic ``key`` (unique in its run; what resuming matches on), the
  model SPEC (never a key), the hash of the messages sent, the request parameters (JSON).
- ``responses``: one per request that was answered: text, tokens with probabilities (JSON), input/output tokens,
  latency, cached, finish_reason, attempts. A failed request has no response row; its failure goes to ``errors``.
- ``judgments``: one per response: correct (1/0/NULL), score, reason, criterion.
- ``errors``: every failure (request or judgment) with its message; kept as history when a rerun succeeds.

No API key ever reaches the database: every string written goes through :func:`models.keys.redact` (the keys this
process resolved and anything shaped like a key), and mapping entries named like a secret (``api_key``, ``password``,
``authorization``, …) are dropped from stored JSON. Model SPECs are written without user-info in their base_url.
"""
from __future__ import annotations

import csv
import json
import os
import re
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

from .lease import BEATS_PER_TIMEOUT, HOST, LEASE_TIMEOUT, Heartbeat, Lease

#: Environment variable naming the run store's database file.
STORE_ENV = "PROMPTANATOMY_STORE"
#: The database file's name under ``settings.cache_dir()``.
FILENAME = "runs.sqlite"
#: Bump when the schema changes; an older database is migrated on open, a newer one refused. 2: ``leases``.
SCHEMA_VERSION = 2
#: Run statuses.
STATUSES = ("planned", "running", "interrupted", "done")

_SECRET_NAME = re.compile(r"(?i)^(?:.*[_-])?(?:api[_-]?key|apikey|secret|password|passwd|authorization|auth[_-]?token"
                          r"|access[_-]?token|bearer)$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dissections (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    prompt TEXT NOT NULL,
    expected TEXT,
    dissection TEXT NOT NULL,
    PRIMARY KEY (run_id, instance_id)
);
CREATE TABLE IF NOT EXISTS variants (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    variant_id TEXT NOT NULL,
    instance_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    component TEXT NOT NULL,
    strategy TEXT NOT NULL,
    seed INTEGER,
    text TEXT NOT NULL,
    edits TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    ppl REAL,
    ppl_ratio REAL,
    kept INTEGER,
    is_clean INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, variant_id)
);
CREATE TABLE IF NOT EXISTS skipped (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    component TEXT NOT NULL,
    strategy TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (run_id, instance_id, component, strategy)
);
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    variant_id TEXT NOT NULL,
    model TEXT NOT NULL,
    messages_hash TEXT NOT NULL,
    params TEXT NOT NULL,
    position INTEGER NOT NULL,
    UNIQUE (run_id, key)
);
CREATE INDEX IF NOT EXISTS requests_variant ON requests(run_id, variant_id);
CREATE TABLE IF NOT EXISTS responses (
    request_id INTEGER PRIMARY KEY REFERENCES requests(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    tokens TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    latency REAL NOT NULL,
    cached INTEGER NOT NULL,
    finish_reason TEXT,
    attempts INTEGER NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS judgments (
    request_id INTEGER PRIMARY KEY REFERENCES requests(id) ON DELETE CASCADE,
    correct INTEGER,
    score REAL,
    reason TEXT NOT NULL,
    criterion TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS errors (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    request_id INTEGER REFERENCES requests(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    message TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS errors_run ON errors(run_id, request_id);
CREATE TABLE IF NOT EXISTS leases (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    heartbeat REAL NOT NULL
);
"""


class StoreError(RuntimeError):
    """The run store cannot do what was asked (unknown run, newer schema, unreadable file)."""


class RunBusyError(StoreError):
    """The run is being executed by another execution (its live lease says which); the message says what to do."""


def default_path() -> Path:
    """``$PROMPTANATOMY_STORE``, else ``cache_dir()/runs.sqlite``."""
    env = os.environ.get(STORE_ENV)
    if env:
        return Path(env).expanduser()
    from .settings import cache_dir

    return cache_dir() / FILENAME


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _redact(text: Any) -> str:
    from .models.keys import redact

    return redact(text)


_USERINFO = re.compile(r"(?i)\b(https?://)[^/@\s]+@")


def scrub(value: Any) -> Any:
    """``value`` made safe to store: secret-named mapping entries dropped, every string redacted (and user-info
    removed from URLs in it)."""
    if isinstance(value, str):
        return _redact(_USERINFO.sub(r"\1", value))
    if isinstance(value, Mapping):
        return {str(k): scrub(v) for k, v in value.items() if not _SECRET_NAME.match(str(k))}
    if isinstance(value, (list, tuple)):
        return [scrub(v) for v in value]
    return value


def safe_spec(spec: Any) -> str:
    """A model SPEC string without credentials: user-info and query strings are removed from its base_url."""
    text = str(spec)
    if "@" in text and "://" in text:
        head, _, url = text.partition("@")
        try:
            parts = urlsplit(url)
            netloc = parts.hostname or ""
            if parts.port:
                netloc += f":{parts.port}"
            url = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
        except ValueError:
            pass
        text = f"{head}@{url}"
    return _redact(text)


def _dumps(value: Any) -> str:
    return json.dumps(scrub(value), ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class RunInfo:
    """One stored run: id, name, times (UTC, ISO 8601), status (``running`` only while its lease is live), spec and
    counts."""

    id: int
    name: str
    created: str
    updated: str
    status: str
    spec: dict
    requests: int = 0
    responses: int = 0
    errors: int = 0

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "created": self.created, "updated": self.updated,
                "status": self.status, "spec": self.spec, "requests": self.requests, "responses": self.responses,
                "errors": self.errors}


#: The columns of :meth:`RunStore.variant_results` (and of the CSV and JSON exports), in order.
RESULT_COLUMNS = ("run_id", "model", "instance_id", "variant_id", "component", "strategy", "seed", "is_clean",
                  "ppl", "ppl_ratio", "kept", "request_key", "answered", "response", "input_tokens",
                  "output_tokens", "latency", "cached", "correct", "score", "reason", "criterion", "error",
                  "expected", "prompt")


#: The runs with their lease's columns (NULL where no execution holds one).
_RUNS = ("SELECT runs.*, leases.run_id, leases.owner, leases.pid, leases.host, leases.heartbeat FROM runs "
         "LEFT JOIN leases ON leases.run_id=runs.id")


class RunStore:
    """The SQLite run store; see the module doc. Use as a context manager or call :meth:`close`. ``clock``: UNIX
    time for the leases' heartbeats; ``lease_timeout``: seconds without a heartbeat after which a lease is stale."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], float] = time.time,
                 lease_timeout: float = LEASE_TIMEOUT) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        self.clock = clock
        self.lease_timeout = lease_timeout
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30.0)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the run store {self.path}: {exc}") from None
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()

    # -- plumbing ------------------------------------------------------------------------------------------------

    def _migrate(self) -> None:
        with self._db:
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT version FROM schema_version").fetchone()
            if row is None:
                self._db.execute("INSERT INTO schema_version(version) VALUES (?)", (SCHEMA_VERSION,))
            elif row["version"] > SCHEMA_VERSION:
                raise StoreError(f"the run store {self.path} has schema version {row['version']}, newer than this "
                                 f"build's {SCHEMA_VERSION}; upgrade PromptAnatomy Studio or use another store")
            elif row["version"] < SCHEMA_VERSION:  # every change so far adds tables, which _SCHEMA just created
                self._db.execute("UPDATE schema_version SET version=?", (SCHEMA_VERSION,))

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT version FROM schema_version").fetchone()["version"])

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _write(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        with self._lock, self._db:
            return self._db.execute(sql, args)

    def _write_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._lock, self._db:
            self._db.executemany(sql, list(rows))

    def close(self) -> None:
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
            self._db.close()

    def __enter__(self) -> "RunStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _touch(self, run_id: int) -> None:
        self._write("UPDATE runs SET updated=? WHERE id=?", (_now(), run_id))

    # -- runs ----------------------------------------------------------------------------------------------------

    def create_run(self, name: str, spec: Mapping[str, Any], status: str = "planned") -> int:
        """A new run; returns its id."""
        self._check_status(status)
        now = _now()
        cur = self._write("INSERT INTO runs(name, created, updated, spec, status) VALUES (?,?,?,?,?)",
                          (_redact(name) or "run", now, now, _dumps(spec), status))
        run_id = int(cur.lastrowid)
        if not name:
            self._write("UPDATE runs SET name=? WHERE id=?", (f"run {run_id}", run_id))
        return run_id

    def _info(self, row: sqlite3.Row) -> RunInfo:
        status = row["status"]
        if row["owner"] is not None and self._lease(row).is_live(self.clock(), self.lease_timeout):
            status = "running"
        elif status == "running":  # its execution is gone
            status = "interrupted"
        counts = self._q("SELECT (SELECT COUNT(*) FROM requests WHERE run_id=:r) AS req, "
                         "(SELECT COUNT(*) FROM responses JOIN requests ON requests.id=responses.request_id "
                         " WHERE run_id=:r) AS resp, "
                         "(SELECT COUNT(*) FROM errors WHERE run_id=:r) AS err", {"r": row["id"]})[0]
        return RunInfo(int(row["id"]), row["name"], row["created"], row["updated"], status,
                       json.loads(row["spec"]), int(counts["req"]), int(counts["resp"]), int(counts["err"]))

    def get_run(self, run_id: int) -> RunInfo:
        """The run ``run_id``; :class:`StoreError` if there is none."""
        rows = self._q(f"{_RUNS} WHERE runs.id=?", (int(run_id),))
        if not rows:
            raise StoreError(f"no run {run_id} in {self.path}")
        return self._info(rows[0])

    def list_runs(self) -> list[RunInfo]:
        """Every run, newest first."""
        return [self._info(r) for r in self._q(f"{_RUNS} ORDER BY runs.id DESC")]

    def rename_run(self, run_id: int, name: str) -> None:
        name = (name or "").strip()
        if not name:
            raise StoreError("a run's name cannot be empty")
        self.get_run(run_id)
        self._write("UPDATE runs SET name=?, updated=? WHERE id=?", (_redact(name), _now(), int(run_id)))

    def delete_run(self, run_id: int) -> None:
        """Remove the run and everything stored for it."""
        self.get_run(run_id)
        self._write("DELETE FROM runs WHERE id=?", (int(run_id),))

    @staticmethod
    def _check_status(status: str) -> None:
        if status not in STATUSES:
            raise StoreError(f"unknown run status {status!r}; one of {', '.join(STATUSES)}")

    def set_status(self, run_id: int, status: str, owner: str | None = None) -> None:
        """Store the run's status; with ``owner`` (a lease token) only while that lease is still held."""
        self._check_status(status)
        held = "" if owner is None else " AND EXISTS (SELECT 1 FROM leases WHERE run_id=:id AND owner=:owner)"
        self._write(f"UPDATE runs SET status=:status, updated=:now WHERE id=:id{held}",
                    {"status": status, "now": _now(), "id": int(run_id), "owner": owner})

    # -- leases --------------------------------------------------------------------------------------------------

    @staticmethod
    def _lease(row: sqlite3.Row) -> Lease:
        return Lease(int(row["run_id"]), row["owner"], int(row["pid"]), row["host"], float(row["heartbeat"]))

    def lease(self, run_id: int) -> Lease | None:
        """The run's lease, live or stale; None when no execution holds it."""
        rows = self._q("SELECT * FROM leases WHERE run_id=?", (int(run_id),))
        return self._lease(rows[0]) if rows else None

    def acquire_lease(self, run_id: int) -> str:
        """Take the run for one execution; returns the owner token that :meth:`renew_lease` and
        :meth:`release_lease` need. :class:`RunBusyError` while another execution holds a live lease; a stale one
        is taken over. One ``BEGIN IMMEDIATE`` transaction, so two stores on one file cannot both succeed."""
        self.get_run(run_id)
        token = uuid4().hex
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                now = self.clock()
                row = self._db.execute("SELECT * FROM leases WHERE run_id=?", (int(run_id),)).fetchone()
                held = None if row is None else self._lease(row)
                if held is not None and held.is_live(now, self.lease_timeout):
                    raise RunBusyError(held.busy_message(now))
                self._db.execute("INSERT OR REPLACE INTO leases VALUES (?,?,?,?,?)",
                                 (int(run_id), token, os.getpid(), HOST, now))
            except BaseException:
                self._db.rollback()
                raise
            self._db.commit()
        return token

    def renew_lease(self, run_id: int, owner: str) -> bool:
        """Move the heartbeat of ``owner``'s lease to now; False when it is no longer held (taken over)."""
        return self._write("UPDATE leases SET heartbeat=? WHERE run_id=? AND owner=?",
                           (self.clock(), int(run_id), owner)).rowcount == 1

    def release_lease(self, run_id: int, owner: str) -> None:
        """End ``owner``'s lease (nothing happens when it was taken over)."""
        self._write("DELETE FROM leases WHERE run_id=? AND owner=?", (int(run_id), owner))

    @contextmanager
    def holding(self, run_id: int) -> Iterator[Heartbeat]:
        """Hold the run's lease for one execution: acquired (or :class:`RunBusyError`), kept alive by a
        :class:`~.lease.Heartbeat` (its ``owner`` is the token), released on the way out, whatever happens."""
        owner = self.acquire_lease(run_id)
        beat = Heartbeat(owner, partial(self.renew_lease, run_id), self.lease_timeout / BEATS_PER_TIMEOUT)
        try:
            yield beat
        finally:
            beat.stop()
            self.release_lease(run_id, owner)

    # -- what was planned ----------------------------------------------------------------------------------------

    def save_dissection(self, run_id: int, instance_id: str, position: int, prompt: str, expected: str | None,
                        dissection: Mapping[str, Any]) -> None:
        self._write("INSERT OR REPLACE INTO dissections VALUES (?,?,?,?,?,?)",
                    (run_id, instance_id, position, _redact(prompt), None if expected is None else _redact(expected),
                     _dumps(dissection)))

    def dissections(self, run_id: int) -> list[dict]:
        return [{"instance_id": r["instance_id"], "prompt": r["prompt"], "expected": r["expected"],
                 "dissection": json.loads(r["dissection"])}
                for r in self._q("SELECT * FROM dissections WHERE run_id=? ORDER BY position", (run_id,))]

    def save_variants(self, run_id: int, rows: Iterable[Mapping[str, Any]]) -> None:
        """Insert variants (``variant_id``, ``instance_id``, ``position``, ``component``, ``strategy``, ``seed``,
        ``text``, ``edits``, ``note``, ``ppl``, ``ppl_ratio``, ``kept``, ``is_clean``); existing ones are kept."""
        self._write_many(
            "INSERT OR IGNORE INTO variants VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            ((run_id, r["variant_id"], r["instance_id"], r["position"], r["component"], r["strategy"], r.get("seed"),
              _redact(r["text"]), _dumps(r.get("edits") or []), _redact(r.get("note") or ""), r.get("ppl"),
              r.get("ppl_ratio"), None if r.get("kept") is None else int(bool(r["kept"])),
              int(bool(r.get("is_clean")))) for r in rows))

    def variants(self, run_id: int) -> list[dict]:
        out = []
        for r in self._q("SELECT * FROM variants WHERE run_id=? ORDER BY position", (run_id,)):
            d = dict(r)
            d["edits"] = json.loads(d["edits"])
            d["kept"] = None if d["kept"] is None else bool(d["kept"])
            d["is_clean"] = bool(d["is_clean"])
            out.append(d)
        return out

    def save_skipped(self, run_id: int, rows: Iterable[tuple[str, str, str, str]]) -> None:
        """``(instance_id, component, strategy, reason)`` for each cell that could not be filled."""
        self._write_many("INSERT OR REPLACE INTO skipped VALUES (?,?,?,?,?)",
                         ((run_id, i, c, s, _redact(reason)) for i, c, s, reason in rows))

    def skipped(self, run_id: int) -> list[dict]:
        return [dict(r) for r in self._q("SELECT instance_id, component, strategy, reason FROM skipped "
                                         "WHERE run_id=? ORDER BY instance_id, component, strategy", (run_id,))]

    def ensure_requests(self, run_id: int, rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
        """Insert the requests not yet stored (``key``, ``variant_id``, ``model``, ``messages_hash``, ``params``,
        ``position``); returns key → request id for every request of the run."""
        self._write_many(
            "INSERT OR IGNORE INTO requests(run_id, key, variant_id, model, messages_hash, params, position) "
            "VALUES (?,?,?,?,?,?,?)",
            ((run_id, r["key"], r["variant_id"], safe_spec(r["model"]), r["messages_hash"], _dumps(r["params"]),
              r["position"]) for r in rows))
        return {r["key"]: int(r["id"]) for r in self._q("SELECT id, key FROM requests WHERE run_id=?", (run_id,))}

    # -- what came back ------------------------------------------------------------------------------------------

    def answered(self, run_id: int) -> set[str]:
        """The keys of the run's requests that have a response."""
        return {r["key"] for r in self._q("SELECT key FROM requests JOIN responses ON responses.request_id=requests.id "
                                          "WHERE run_id=?", (run_id,))}

    def save_response(self, request_id: int, response: Any) -> None:
        """Store an answer (a ``ChatResponse`` without ``error``); a failed one goes to :meth:`save_error`."""
        if getattr(response, "error", None) is not None:
            raise StoreError("a failed request has no response; record it with save_error")
        tokens = [[t.token, t.prob] for t in getattr(response, "tokens", ()) or ()]
        self._write("INSERT OR REPLACE INTO responses VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (request_id, _redact(response.text), _dumps(tokens), int(response.input_tokens),
                     int(response.output_tokens), float(response.latency or 0.0), int(bool(response.cached)),
                     response.finish_reason, int(response.attempts), _now()))

    def save_error(self, run_id: int, request_id: int | None, message: str, stage: str = "request") -> None:
        self._write("INSERT INTO errors(run_id, request_id, stage, message, created) VALUES (?,?,?,?,?)",
                    (run_id, request_id, stage, _redact(message), _now()))

    def errors(self, run_id: int) -> list[dict]:
        return [dict(r) for r in self._q("SELECT id, request_id, stage, message, created FROM errors WHERE run_id=? "
                                         "ORDER BY id", (run_id,))]

    def save_judgment(self, request_id: int, correct: bool | None, score: float | None, reason: str,
                      criterion: str) -> None:
        self._write("INSERT OR REPLACE INTO judgments VALUES (?,?,?,?,?,?)",
                    (request_id, None if correct is None else int(bool(correct)), score, _redact(reason),
                     _redact(criterion), _now()))

    def unjudged(self, run_id: int) -> list[int]:
        """Ids of the run's answered requests that have no judgment yet."""
        return [int(r["id"]) for r in self._q(
            "SELECT requests.id FROM requests JOIN responses ON responses.request_id=requests.id "
            "LEFT JOIN judgments ON judgments.request_id=requests.id WHERE run_id=? AND judgments.request_id IS NULL "
            "ORDER BY requests.position", (run_id,))]

    # -- reading it back -----------------------------------------------------------------------------------------

    def answers(self, run_id: int) -> list[dict]:
        """Every answered request of the run, in plan order: ``request_id``, ``request_key``, ``model``,
        ``variant_id``, ``instance_id``, ``is_clean``, ``prompt`` (the variant's text), ``expected``, ``text``,
        ``tokens`` (``[token, prob]`` pairs), ``judged``."""
        rows = self._q(
            "SELECT q.id AS request_id, q.key AS request_key, q.model, v.variant_id, v.instance_id, v.is_clean, "
            " v.text AS prompt, d.expected, r.text, r.tokens, (j.request_id IS NOT NULL) AS judged "
            "FROM requests q JOIN variants v ON v.run_id=q.run_id AND v.variant_id=q.variant_id "
            "JOIN dissections d ON d.run_id=q.run_id AND d.instance_id=v.instance_id "
            "JOIN responses r ON r.request_id=q.id LEFT JOIN judgments j ON j.request_id=q.id "
            "WHERE q.run_id=? ORDER BY q.position", (run_id,))
        out = []
        for r in rows:
            d = dict(r)
            d["tokens"] = json.loads(d["tokens"])
            d["is_clean"] = bool(d["is_clean"])
            d["judged"] = bool(d["judged"])
            out.append(d)
        return out

    def variant_results(self, run_id: int) -> list[dict]:
        """One row per request of the run (variant × model), with its response, judgment and last error (if it
        has no response); columns :data:`RESULT_COLUMNS`."""
        self.get_run(run_id)
        rows = self._q(
            "SELECT q.run_id, q.model, v.instance_id, v.variant_id, v.component, v.strategy, v.seed, v.is_clean, "
            " v.ppl, v.ppl_ratio, v.kept, q.key AS request_key, (r.request_id IS NOT NULL) AS answered, "
            " r.text AS response, r.input_tokens, r.output_tokens, r.latency, r.cached, j.correct, j.score, j.reason, "
            " j.criterion, CASE WHEN r.request_id IS NULL THEN (SELECT message FROM errors e WHERE e.request_id=q.id "
            "   AND e.stage='request' ORDER BY e.id DESC LIMIT 1) END AS error, d.expected, v.text AS prompt "
            "FROM requests q JOIN variants v ON v.run_id=q.run_id AND v.variant_id=q.variant_id "
            "JOIN dissections d ON d.run_id=q.run_id AND d.instance_id=v.instance_id "
            "LEFT JOIN responses r ON r.request_id=q.id LEFT JOIN judgments j ON j.request_id=q.id "
            "WHERE q.run_id=? ORDER BY q.position", (run_id,))
        out = []
        for r in rows:
            d = {c: r[c] for c in RESULT_COLUMNS}
            for flag in ("is_clean", "answered", "cached"):
                d[flag] = None if d[flag] is None else bool(d[flag])
            for flag in ("kept", "correct"):
                d[flag] = None if d[flag] is None else bool(d[flag])
            out.append(d)
        return out

    def sent_timings(self, provider: str | None = None, model: str | None = None, limit: int = 256) -> list[dict]:
        """The newest ``limit`` answers that were sent (not from the response cache), of every run, newest first:
        ``run_id``, ``request_id``, ``model``, ``input_tokens``, ``output_tokens``, ``latency``. ``provider``: only
        models of that provider (SPEC ``provider`` or ``provider:…``); ``model``: only that SPEC."""
        where, args = "r.cached=0", []
        if model:
            where += " AND q.model=?"
            args.append(safe_spec(model))
        if provider:
            where += " AND (q.model=? OR substr(q.model, 1, ?)=?)"
            args += [provider, len(provider) + 1, f"{provider}:"]
        rows = self._q(
            "SELECT q.run_id, q.id AS request_id, q.model, r.input_tokens, r.output_tokens, r.latency "
            f"FROM responses r JOIN requests q ON q.id=r.request_id WHERE {where} "
            "ORDER BY r.created DESC, r.request_id DESC LIMIT ?", (*args, max(int(limit), 0)))
        return [dict(r) for r in rows]

    def export_csv(self, run_id: int, path: str | os.PathLike[str]) -> Path:
        """Write the per-variant results (:meth:`variant_results`) as CSV; returns the path."""
        path = Path(path)
        rows = self.variant_results(run_id)
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(RESULT_COLUMNS))
            writer.writeheader()
            writer.writerows(rows)
        return path

    def export_json(self, run_id: int, path: str | os.PathLike[str] | None = None) -> dict:
        """The run (spec, dissections, skipped cells, per-variant results, errors) as one JSON object, written to
        ``path`` if given."""
        info = self.get_run(run_id)
        data = {"schema_version": SCHEMA_VERSION, "run": info.to_json(), "dissections": self.dissections(run_id),
                "skipped": self.skipped(run_id), "results": self.variant_results(run_id),
                "errors": self.errors(run_id)}
        if path is not None:
            Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        return data
