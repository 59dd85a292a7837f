"""A child process the engine talks to over pipes (an outside engine, a learner's code).

Each child runs in a session of its own (so a Ctrl+C in the terminal reaches only us, and a kill
reaches every helper it started); its stdout lines go to a queue a reader thread fills (None at
the end), the last lines of its stderr to a bounded deque, and `end_process` kills the whole
session if the child lingers and reaps it, closing every pipe.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
from collections import deque


def follow(process: subprocess.Popen[str], lines: queue.Queue[str | None], log: deque[str]) -> None:
    """Start the threads that read `process`'s stdout into `lines` and its stderr into `log`."""
    threading.Thread(
        target=_read_lines, args=(process, lines), daemon=True, name=f"child-{process.pid}-out"
    ).start()
    threading.Thread(
        target=_read_stderr, args=(process, log), daemon=True, name=f"child-{process.pid}-err"
    ).start()


def exit_words(process: subprocess.Popen[str] | None, wait: float) -> str | None:
    """How `process` ended ("crashed (killed by SIGKILL)", "exited with status 3"), waiting up
    to `wait` seconds; None if it is still running."""
    code = None
    if process is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            code = process.wait(timeout=wait)
    if code is None:
        return None
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"crashed (killed by {signal.Signals(-code).name})"
        return f"crashed (killed by signal {-code})"
    return f"exited with status {code}"


def end_process(process: subprocess.Popen[str], wait: float) -> None:
    """Kill `process`'s whole session if it still runs, reap it, and close its pipes."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=wait)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()


def _read_lines(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """Hand every line of the child's stdout to `lines`; None when it closes."""
    stream = process.stdout
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                lines.put(line.rstrip("\r\n"))
    lines.put(None)


def _read_stderr(process: subprocess.Popen[str], log: deque[str]) -> None:
    """Keep the last lines of the child's stderr (it may say why it failed)."""
    stream = process.stderr
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                log.append(line.rstrip("\r\n"))
