"""Execution leases: at most one execution of a run at a time, across threads, processes and hosts.

A lease is a row of the run store's ``leases`` table (:meth:`.store.RunStore.acquire_lease`): the owner's token, its
pid and host, and a heartbeat (UNIX time) that a :class:`Heartbeat` thread renews while the execution lasts. A lease
whose heartbeat is older than the time-out, or whose pid on this host no longer exists, is stale: its execution
crashed or was killed, and the next execution takes the run over.
"""
from __future__ import annotations

import os
import socket
import threading
from dataclasses import dataclass
from typing import Callable

#: Seconds without a heartbeat after which a lease is stale.
LEASE_TIMEOUT = 60.0
#: Heartbeats per time-out (a lease survives a few missed ones).
BEATS_PER_TIMEOUT = 6
#: This machine's name, as leases record it.
HOST = socket.gethostname()


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (always True on Windows, where only the heartbeat tells)."""
    if os.name == "nt" or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


@dataclass(frozen=True)
class Lease:
    """Who executes run ``run_id``: the ``owner`` token, ``pid`` on ``host``, last ``heartbeat`` (UNIX time)."""

    run_id: int
    owner: str
    pid: int
    host: str
    heartbeat: float

    def is_live(self, now: float, timeout: float = LEASE_TIMEOUT) -> bool:
        """Not stale: a recent heartbeat and, on this host, a process that still exists."""
        return now - self.heartbeat <= timeout and (self.host != HOST or pid_alive(self.pid))

    def busy_message(self, now: float) -> str:
        """What a second execution is told."""
        if self.host != HOST:
            who = f"another process (pid {self.pid} on {self.host}"
        elif self.pid != os.getpid():
            who = f"another process (pid {self.pid}"
        else:
            who = f"another execution in this process (pid {self.pid}"
        return (f"run #{self.run_id} is already being executed by {who}, last active "
                f"{max(now - self.heartbeat, 0):.0f} s ago); wait for it to finish or stop it first")


class Heartbeat:
    """Keeps the lease of ``owner`` (its token) alive: calls ``renew(owner)`` every ``interval`` seconds in a daemon
    thread until :meth:`stop`. ``lost`` is set once ``renew`` returns False (another execution took the lease over)
    and the beating stops."""

    def __init__(self, owner: str, renew: Callable[[str], bool], interval: float) -> None:
        self.owner = owner
        self._renew = renew
        self._interval = interval
        self._stop = threading.Event()
        self.lost = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="run-lease-heartbeat", daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                renewed = self._renew(self.owner)
            except Exception:  # noqa: BLE001 - a busy or briefly unreadable store: beat again next time
                continue
            if not renewed:
                self.lost.set()
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
