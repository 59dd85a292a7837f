"""The process a learner's Python file runs in (`-m tictactoe_tui.engine.players.guest_host`).

The learner's code is guest code: it never runs in the app's process or the search worker's.
This host loads the file under a memory cap, then answers the parent (`guest.GuestCode`) over
its own copies of stdin and stdout, one JSON object a line:

    host -> parent   {"ready": {"evaluate": bool, "choose": bool, "random": bool}}
    parent -> host   {"call": "evaluate", "items": [[position, k, to_move, player], ...]}
                     {"call": "choose", "items": [[position, k, to_move], ...]}
    host -> parent   {"results": [...]}   (what the learner's function returned, as JSON can say
                                           it: a number, a string, or {"type": name, "repr": …})
                     {"fault": {"kind", "message", "traceback", "item"}}

Each call of the learner's function has `time` seconds (a timer interrupts it with
`GuestTimeout`, which `except Exception` does not catch; the parent also kills a host that
outlives its clock). The learner's stdin reads nothing, and what it prints goes to a file this
host checks after every call: printing is a fault (a program whose moves are read from its
output must not print), reported with the first line printed. A fault ends the host's work: it
reports once and exits. The traceback kept is the learner's own: frames of this file are left
out, so it starts at their file and line.
"""

from __future__ import annotations

import io
import json
import math
import os
import resource
import runpy
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, TextIO

from tictactoe_tui.engine.rules.board import Board, Mark

MEMORY_EXIT = 3
"""The host's exit status when even reporting a memory fault failed."""


class GuestTimeout(BaseException):
    """The learner's call ran past its time (a BaseException: `except Exception` lets it by)."""


class _Fault(Exception):
    """A fault to report to the parent."""

    def __init__(self, kind: str, message: str, trace: str = "", item: int | None = None):
        super().__init__(message)
        self.report = {"kind": kind, "message": message, "traceback": trace, "item": item}


def _learner_trace(error: BaseException, path: Path) -> str:
    """The traceback from the learner's first frame on (this host's frames left out)."""
    tb: TracebackType | None = error.__traceback__
    while tb is not None and Path(tb.tb_frame.f_code.co_filename).resolve() != path:
        tb = tb.tb_next
    if tb is None:
        return "".join(traceback.format_exception_only(type(error), error))
    return "".join(traceback.format_exception(type(error), error, tb))


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise GuestTimeout


class _Output:
    """Where the learner's printing goes: a file, checked after each call."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 - open for the host's life
        os.dup2(self.file.fileno(), 1)
        sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), line_buffering=True)

    def printed(self) -> str | None:
        """The first line printed since the start, if anything was."""
        sys.stdout.flush()
        if os.fstat(1).st_size == 0:
            return None
        self.file.seek(0)
        first = self.file.read(200).decode("utf-8", "replace").splitlines()
        return first[0] if first else "(a blank line)"


def _jsonable(value: Any) -> Any:
    """What the learner returned, as JSON can carry it (the parent judges it)."""
    if isinstance(value, bool) or value is None:
        return {"type": type(value).__name__, "repr": repr(value)}
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"type": "float", "repr": repr(value)}
    if isinstance(value, str):
        return value[:100]
    return {"type": type(value).__name__, "repr": repr(value)[:100]}


class Host:
    """The learner's functions, called one item at a time under the clock."""

    def __init__(self, path: Path, seconds: float, output: _Output) -> None:
        self.path = path
        self.seconds = seconds
        self.output = output
        self.functions: dict[str, Callable[..., Any]] = {}
        self.random = False

    def load(self) -> dict[str, bool]:
        """Run the learner's file; what it defines."""
        try:
            namespace = self._timed(lambda: runpy.run_path(str(self.path), run_name="learner"))
        except GuestTimeout:
            raise _Fault("timeout", f"loading the file took more than {self.seconds:g} s") from None
        except MemoryError:
            raise _Fault("memory", "loading the file used more memory than it may") from None
        except BaseException as error:
            raise _Fault(
                "import",
                f"the file does not load: {_one_line(error)}",
                _learner_trace(error, self.path),
            ) from None
        self._check_printed(None)
        for name in ("evaluate", "choose"):
            if callable(namespace.get(name)):
                self.functions[name] = namespace[name]
        if not self.functions:
            raise _Fault(
                "import", "the file defines neither evaluate(board, player) nor choose(board)"
            )
        self.random = namespace.get("RANDOM") is True
        return {
            "evaluate": "evaluate" in self.functions,
            "choose": "choose" in self.functions,
            "random": self.random,
        }

    def _timed(self, call: Callable[[], Any]) -> Any:
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            return call()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def _check_printed(self, item: int | None) -> None:
        printed = self.output.printed()
        if printed is not None:
            raise _Fault("printed", f"it printed to stdout: {printed!r}", item=item)

    def call(self, name: str, items: list[list[Any]]) -> list[Any]:
        """The learner's `name` on every item, in order."""
        function = self.functions.get(name)
        if function is None:
            raise _Fault("missing", f"the file defines no {name}()")
        results = []
        for index, item in enumerate(items):
            board = Board.from_string(item[0], k=item[1], to_move=item[2])
            arguments: tuple[Any, ...] = (board,) if name == "choose" else (board, Mark(item[3]))
            try:
                value = self._timed(partial(function, *arguments))
            except GuestTimeout:
                raise _Fault(
                    "timeout", f"{name}() took more than {self.seconds:g} s", item=index
                ) from None
            except MemoryError:
                raise _Fault(
                    "memory", f"{name}() used more memory than it may", item=index
                ) from None
            except BaseException as error:
                raise _Fault(
                    "exception",
                    f"{name}() raised {_one_line(error)}",
                    _learner_trace(error, self.path),
                    index,
                ) from None
            self._check_printed(index)
            results.append(_jsonable(value))
        return results


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _serve(host: Host, proto_in: TextIO, proto_out: TextIO) -> None:
    def send(message: dict[str, Any]) -> None:
        proto_out.write(json.dumps(message) + "\n")
        proto_out.flush()

    try:
        send({"ready": host.load()})
        for line in proto_in:
            request = json.loads(line)
            send({"results": host.call(request["call"], request["items"])})
    except _Fault as fault:
        send({"fault": fault.report})


def main(argv: list[str]) -> int:
    """Load the learner's file and answer the parent until it closes our stdin."""
    path = Path(argv[0]).resolve()
    seconds = float(argv[1])
    memory = int(argv[2])
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the learner's code
    output = _Output()
    signal.signal(signal.SIGALRM, _on_alarm)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sys.path.insert(0, str(path.parent))
    try:
        _serve(Host(path, seconds, output), proto_in, proto_out)
    except MemoryError:
        return MEMORY_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
