"""The worker process's side: the loop that runs the jobs a `Thinker` sends (see `client`).

The worker imports only what its jobs need (the engine), never Textual.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

WORKER_NICENESS = 10
"""How much lower than the app's the worker's scheduling priority is (`os.nice`)."""


class Throttle:
    """Lets a report through at most every `interval` seconds (the first one at once)."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.last = -interval

    def due(self) -> bool:
        """True when a report may go now (and the interval starts again)."""
        now = time.perf_counter()
        if now - self.last < self.interval:
            return False
        self.last = now
        return True


def serve_jobs(conn: Connection, stop: Any) -> None:
    """The worker's main loop: run each job sent over `conn` until an empty message or EOF.

    It first says `("ready", 0, None)`. A job is `(id, progress_interval, pickle of (fn,
    args))`; answers are `("progress", id, report)`, `("done", id, result)` or `("error", id,
    one line)`. The job stops when the shared
    `stop` holds its id, or when the app is gone (its parent process changed).
    """
    _quiet_worker()
    parent = os.getppid()
    conn.send(("ready", 0, None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(message, tuple):
            return
        job_id, interval, payload = message
        throttle = Throttle(interval)

        def should_stop(job_id: int = job_id) -> bool:
            return stop.value >= job_id or os.getppid() != parent

        def on_progress(report: Any, job_id: int = job_id, throttle: Throttle = throttle) -> None:
            if throttle.due():
                conn.send(("progress", job_id, report))

        try:
            fn, args = pickle.loads(payload)
            result = fn(*args, should_stop=should_stop, on_progress=on_progress)
            answer: tuple[str, int, Any] = ("done", job_id, result)
            conn.send(answer)
        except (EOFError, OSError, BrokenPipeError):
            return
        except Exception as error:  # one line back to the app, never a traceback on its screen
            try:
                conn.send(("error", job_id, f"{type(error).__name__}: {error}"))
            except (EOFError, OSError):
                return
        if os.getppid() != parent:
            return


def _quiet_worker() -> None:
    """Keep the worker off the app's terminal and out of the UI's way, and let the app alone
    decide about Ctrl+C."""
    # A lower priority: when the cores are busy, a key the UI must answer goes before another
    # few thousand positions (a search's budget is wall-clock time: it just searches less deep).
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (lives as long as the worker)
