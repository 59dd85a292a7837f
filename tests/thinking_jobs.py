"""Jobs for the Thinker tests: module-level, so the worker process can import them by name."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

Stop = Callable[[], bool]
Report = Callable[[Any], None]


def count_to(n: int, *, should_stop: Stop, on_progress: Report) -> tuple[int, int]:
    """Count to `n`, reporting each step, and return (n, the worker's pid)."""
    for i in range(1, n + 1):
        on_progress(i)
        time.sleep(0.03)
    return n, os.getpid()


def spin(*, should_stop: Stop, on_progress: Report) -> str:
    """Run until asked to stop, then say so."""
    while not should_stop():
        time.sleep(0.005)
    return "stopped"


def ignore_stop(seconds: float, *, should_stop: Stop, on_progress: Report) -> str:
    """Keep running for `seconds` whatever `should_stop` says (a search that never polls)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "finished anyway"


def fail(*, should_stop: Stop, on_progress: Report) -> None:
    """Raise, as a buggy search would."""
    raise ValueError("no such move")


def die(*, should_stop: Stop, on_progress: Report) -> None:
    """End the worker process abruptly, as a crash would."""
    os._exit(3)


def pid(*, should_stop: Stop, on_progress: Report) -> int:
    """The worker's process id."""
    return os.getpid()


def textual_loaded(*, should_stop: Stop, on_progress: Report) -> bool:
    """Whether Textual is imported in the worker."""
    import sys

    return "textual" in sys.modules


def exit_at_once(*args: Any) -> None:
    """A worker's main function that ends before it is ready (a worker that cannot start)."""
    os._exit(4)


def niceness(*, should_stop: Stop, on_progress: Report) -> int:
    """The worker's scheduling niceness."""
    return os.nice(0)
