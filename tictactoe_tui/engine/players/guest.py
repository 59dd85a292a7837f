"""A learner's own Python, run as guest code: its evaluation or its player, in a process of its own.

A learner writes one file defining `evaluate(board, player)` (a number: the position's worth for
`player`) and/or `choose(board)` (a move: a cell index or a name such as "B2"); `RANDOM = True` in
the file says its choices may differ from call to call. `GuestCode(path)` runs that file in a
process of its own (`guest_host`), never in the app's or the search worker's: each call has a
clock (`time`, 1 s by default), the process a memory cap (`MEMORY`), and a file that raises,
hangs, allocates without end, prints to stdout, returns something that is not a number (or not a
move), or does not load at all raises `GuestFault` with one sentence and the learner's own
traceback (their file and line). After a fault the process is gone; the next call starts a fresh
one, reading the file again (as `reload()` does on purpose, so the edit–try loop is short).

The parent judges what comes back: an evaluation must be a finite number (not a bool), a move
a cell of the board that is empty. Many positions go in one call (`evaluate_many`), so grading
every 3×3 position costs a handful of round trips, not thousands.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tictactoe_tui
from tictactoe_tui.engine.players.foreign import PlayerFault, PlayerStopped
from tictactoe_tui.engine.players.offered import check_offered
from tictactoe_tui.engine.players.pipes import end_process, exit_words, follow
from tictactoe_tui.engine.rules.board import Board, IllegalMove, Mark, cell_notation, parse_cell

__all__ = [
    "DEFAULT_TIME",
    "GUEST",
    "MEMORY",
    "GuestCode",
    "GuestFault",
    "Provides",
    "check_guest_path",
    "guest_name",
]

GUEST = "python"
"""The player's name in a spec (`python:path=FILE`)."""

DEFAULT_TIME = 1.0
"""Seconds each call of the learner's function may take."""

MEMORY = 512 * 1024 * 1024
"""Bytes of address space the learner's process may use (a Python process needs about 20 MB)."""

START_SECONDS = 10.0
"""Seconds the host may take to start Python and load the engine, before the file's own clock."""

GRACE = 1.0
"""Seconds past the calls' clocks the parent waits before it kills a host that did not answer
(the host's own timer interrupts the learner first; this is for code that swallows it)."""

POLL_SECONDS = 0.05
"""How often a wait looks at the stop check."""

STDERR_LINES = 20
"""Lines of the host's stderr kept for a fault's message."""


class GuestFault(PlayerFault):
    """The learner's code failed: `reason` in one sentence, `trace` the learner's traceback
    (also the fault's `log`, line by line, as an outside engine's stderr is)."""

    def __init__(
        self, reason: str, trace: str = "", kind: str = "fault", item: int | None = None
    ) -> None:
        """Record what went wrong, the learner's traceback (if any), its kind and the item."""
        super().__init__(reason, tuple(trace.splitlines()))
        self.trace = trace
        self.item = item
        """Which of the call's positions it failed on (None: unknown, the process went)."""
        self.kind = kind
        """"import", "exception", "timeout", "memory", "printed", "type", "move", "missing" or
        "crash"."""


@dataclass(frozen=True)
class Provides:
    """What a learner's file defines."""

    evaluate: bool
    choose: bool
    random: bool
    """Whether it says (`RANDOM = True`) that its choices may differ from call to call."""


def check_guest_path(text: str) -> Path:
    """The learner's file named by `text`; ValueError saying why it cannot be used."""
    if not text:
        raise ValueError("a learner's file needs a path: python:path=FILE.py")
    check_offered("python", text)  # served to browsers: only what the server named
    path = Path(text).expanduser()
    if not path.is_file():
        raise ValueError(f"no Python file at {text}: the file does not exist")
    if path.suffix != ".py":
        raise ValueError(f"{text} is not a Python file (its name must end in .py)")
    return path.resolve()


def guest_name(path: str | Path) -> str:
    """How screens name a learner's file beside H1 and H2: "yours: my_eval.py"."""
    return f"yours: {Path(path).name}"


_LIVE: weakref.WeakValueDictionary[int, GuestCode] = weakref.WeakValueDictionary()
"""Every learner's file of this process that may have a running process, by its key."""
_KEYS = iter(range(1, 1 << 62))


def _live_guest(key: int) -> GuestCode:
    """The running guest `key` names (how a guest "copied" for a thread finds itself)."""
    guest = _LIVE.get(key)
    if guest is None:
        raise RuntimeError("a learner's file runs only in the process that started it")
    return guest


@atexit.register
def _end_every_guest() -> None:
    """No learner's process outlives the program that started it."""
    for guest in list(_LIVE.values()):
        guest.close()


def _package_root() -> str:
    """The folder holding the tictactoe_tui package (the host imports it from there)."""
    return str(Path(tictactoe_tui.__file__).resolve().parent.parent)


class GuestCode:
    """A learner's file, run in its own process (see the module docstring).

    A copy (pickle) of it is the same guest, not a second process: the app runs a move in a
    thread that copies its arguments (a player holding this), and the process must stay one.
    """

    def __init__(self, path: str | Path, time_limit: float = DEFAULT_TIME, memory: int = MEMORY):
        """Run the file at `path` (checked now: ValueError), `time_limit` seconds a call."""
        self.path = check_guest_path(str(path))
        self.time_limit = time_limit
        self.memory = memory
        self.name = guest_name(self.path)
        """The name screens show beside H1 and H2."""
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._provides: Provides | None = None
        self._key = next(_KEYS)
        _LIVE[self._key] = self

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Copies are the same guest: see the class docstring."""
        return _live_guest, (self._key,)

    @property
    def pid(self) -> int | None:
        """The running host's process id (None when none runs)."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def provides(self) -> Provides:
        """What the file defines (loading it, if it is not running)."""
        with self._lock:
            return self._started(None)

    def reload(self) -> Provides:
        """Read the file again (a fresh process) and say what it defines."""
        with self._lock:
            self._end()
            return self._started(None)

    def close(self) -> None:
        """End the learner's process, if one runs."""
        with self._lock:
            self._end()

    def evaluate_many(
        self, items: Sequence[tuple[Board, Mark]], should_stop: Callable[[], bool] | None = None
    ) -> list[float]:
        """The learner's `evaluate(board, player)` of every item, in order."""
        raw = self._call(
            "evaluate", [[str(b), b.k, str(b.to_move), str(m)] for b, m in items], should_stop
        )
        return [self._number(value, items[index][0], index) for index, value in enumerate(raw)]

    def evaluate(self, board: Board, player: Mark) -> float:
        """The learner's `evaluate(board, player)`."""
        return self.evaluate_many([(board, player)])[0]

    def choose_many(
        self, boards: Sequence[Board], should_stop: Callable[[], bool] | None = None
    ) -> list[int]:
        """The learner's `choose(board)` on every board, each checked to be a legal move."""
        raw = self._call("choose", [[str(b), b.k, str(b.to_move)] for b in boards], should_stop)
        return [self._move(value, boards[index], index) for index, value in enumerate(raw)]

    def choose(self, board: Board, should_stop: Callable[[], bool] | None = None) -> int:
        """The learner's `choose(board)`, checked to be a legal move."""
        return self.choose_many([board], should_stop)[0]

    # -- what comes back ----------------------------------------------------------------------

    def _fault(
        self, reason: str, kind: str, trace: str = "", item: int | None = None
    ) -> GuestFault:
        self._end()
        return GuestFault(f"{self.path.name}: {reason}", trace, kind, item)

    def _number(self, value: Any, board: Board, item: int) -> float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
        said = value["repr"] if isinstance(value, dict) else repr(value)
        raise self._fault(f"evaluate() returned {said} on {board}, not a number", "type", item=item)

    def _move(self, value: Any, board: Board, item: int) -> int:
        size = board.size
        if isinstance(value, dict):
            raise self._fault(
                f"choose() returned {value['repr']} on {board}, not a move "
                "(a cell index or a name like B2)",
                "type",
                item=item,
            )
        if isinstance(value, str):
            try:
                cell = parse_cell(value, size)
            except IllegalMove as error:
                raise self._fault(
                    f"choose() returned {value!r} on {board}: {error}", "move", item=item
                ) from None
        else:
            cell = int(value)
            if not 0 <= cell < size * size:
                raise self._fault(
                    f"choose() returned {cell} on {board}, off the {size}×{size} board "
                    f"(cells 0 to {size * size - 1})",
                    "move",
                    item=item,
                )
        if board[cell] is not None:
            raise self._fault(
                f"choose() returned {cell_notation(cell, size)} on {board}, a cell "
                f"{board[cell]} already holds",
                "move",
                item=item,
            )
        return cell

    # -- the process --------------------------------------------------------------------------

    def _call(
        self, name: str, items: list[list[Any]], should_stop: Callable[[], bool] | None
    ) -> list[Any]:
        with self._lock:
            provides = self._started(should_stop)
            if not getattr(provides, name):
                raise GuestFault(f"{self.path.name} defines no {name}()", kind="missing")
            if not items:
                return []
            self._send({"call": name, "items": items})
            deadline = time.monotonic() + self.time_limit * len(items) + GRACE
            answer = self._answer(deadline, should_stop, f"{name}() did not answer in time")
            return list(answer["results"])

    def _started(self, should_stop: Callable[[], bool] | None) -> Provides:
        if self._process is not None and self._process.poll() is None and self._provides:
            return self._provides
        self._end()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_package_root(), env.get("PYTHONPATH")]))
        try:
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tictactoe_tui.engine.players.guest_host",
                    str(self.path),
                    repr(self.time_limit),
                    str(self.memory),
                ],
                cwd=self.path.parent,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                errors="replace",
                env=env,
                start_new_session=True,
            )
        except OSError as error:
            raise GuestFault(
                f"Python could not be started: {error.strerror}", kind="crash"
            ) from None
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=STDERR_LINES)
        follow(self._process, self._lines, self._stderr)
        deadline = time.monotonic() + START_SECONDS + self.time_limit
        ready = self._answer(deadline, should_stop, "the file did not load in time")
        self._provides = Provides(**ready["ready"])
        return self._provides

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._fault(self._exit_words(), "crash") from None

    def _answer(
        self, deadline: float, should_stop: Callable[[], bool] | None, late: str
    ) -> dict[str, Any]:
        while True:
            if should_stop is not None and should_stop():
                self._end()
                raise PlayerStopped
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fault(late, "timeout")
            try:
                line = self._lines.get(timeout=min(POLL_SECONDS, left))
            except queue.Empty:
                continue
            if line is None:
                raise self._fault(self._exit_words(), "crash")
            try:
                answer: dict[str, Any] = json.loads(line)
            except ValueError:
                continue  # not the host's: nothing the learner prints reaches this pipe
            fault = answer.get("fault")
            if fault is not None:
                raise self._fault(
                    fault["message"], fault["kind"], fault["traceback"], fault["item"]
                )
            return answer

    def _exit_words(self) -> str:
        words = exit_words(self._process, 1.0)
        detail = f" ({self._stderr[-1]})" if self._stderr else ""
        return f"its process {words or 'stopped answering'}{detail}"

    def _end(self) -> None:
        process, self._process = self._process, None
        self._provides = None
        if process is None:
            return
        if process.poll() is None and process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.2)
        end_process(process, 1.0)
