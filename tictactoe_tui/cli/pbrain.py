"""`tictactoe-tui pbrain` (and the script `pbrain-tictactoe-tui`): our engine as a Gomocup brain.

The protocol's rules live in `play.pbrain.PbrainSession`; this module only moves lines: a
thread reads stdin into an `Inbox`, stamping each line with the moment it arrived, and the main
thread hands the lines to the session, prints its answers and runs the searches it asks for,
with the engine's own time limit and a hard stop. The reader keeps reading while the engine
thinks, so an `END` that arrives then stops the search at once (the brain exits without a
move). Commands a manager sends ahead are answered in order first: a search stops only when
`END` is the next command waiting.

The first move's clock starts when the process did, not when its command was read: a manager
(the Gomocup judge) starts timing as soon as it has sent the command, while Python may still
be starting, so the brain counts its own start-up against that move.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TextIO

from tictactoe_tui import __version__
from tictactoe_tui.engine import Progress, alphabeta
from tictactoe_tui.engine.search.api import SearchMemory
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.play.pbrain import PbrainSession, Quit, Think, search_message

Arrival = tuple[str, float] | None
"""A line from the manager and when it arrived (time.monotonic()), or None at end of input."""


def build_parser() -> OneLineParser:
    """The command's flags: none but --help (the manager speaks on stdin)."""
    return OneLineParser(
        prog="tictactoe-tui pbrain",
        description="Speak the Gomocup (Piskvork) brain protocol on stdin/stdout, so a "
        "tournament manager can play our engine: freestyle gomoku, five or more in "
        "a row, boards 5×5 to 20×20. The script pbrain-tictactoe-tui does the same.",
        epilog="Commands: START, RECTSTART (square only), RESTART, BEGIN, TURN, BOARD … DONE, "
        "TAKEBACK, INFO, ABOUT, END. Coordinates are x,y from 0, x the column.",
    )


def main(argv: Sequence[str]) -> int:
    """Run the brain until `END` or the end of input; the exit status (0)."""
    build_parser().parse_args(list(argv))
    return serve(sys.stdin, sys.stdout)


def console() -> None:
    """The `pbrain-tictactoe-tui` script: managers start brains by this name."""
    from tictactoe_tui.cli.main import main as dispatch

    sys.exit(dispatch(["pbrain", *sys.argv[1:]]))


class Inbox:
    """The manager's lines, in order, each with when it arrived; None marks the end of input."""

    def __init__(self) -> None:
        """Nothing has arrived yet."""
        self._lines: deque[Arrival] = deque()
        self._ready = threading.Condition()

    def put(self, arrival: Arrival) -> None:
        """One more line (or the end of input)."""
        with self._ready:
            self._lines.append(arrival)
            self._ready.notify()

    def get(self) -> Arrival:
        """The oldest line, waiting for one."""
        with self._ready:
            while not self._lines:
                self._ready.wait()
            return self._lines.popleft()

    def ending(self) -> bool:
        """Whether the next line waiting is `END` (or the input has ended)."""
        with self._ready:
            if not self._lines:
                return False
            first = self._lines[0]
            return first is None or PbrainSession.interrupts(first[0])


def serve(stdin: TextIO, stdout: TextIO) -> int:
    """Answer the manager's lines from `stdin` on `stdout` until `END` or end of input."""
    inbox = Inbox()
    threading.Thread(target=_read, args=(stdin, inbox), daemon=True).start()
    session = PbrainSession(__version__)
    memory = SearchMemory()
    born = time.monotonic() - process_age()
    first = True

    def say(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    while True:
        arrival = inbox.get()
        if arrival is None:
            return 0
        line, arrived = arrival
        try:
            effects = session.handle(line)
        except Exception as error:  # a brain answers ERROR and carries on
            say(f"ERROR internal error on {line.strip()!r}: {error}")
            continue
        for effect in effects:
            if isinstance(effect, Quit):
                return effect.status
            if isinstance(effect, Think):
                clock_from = min(arrived, born) if first else arrived
                first = False
                for text in _think(session, effect, clock_from, inbox, memory, say):
                    say(text)
            else:
                say(effect)


def _think(
    session: PbrainSession,
    think: Think,
    arrived: float,
    inbox: Inbox,
    memory: SearchMemory,
    say: Callable[[str], None],
) -> list[str]:
    """Search for our move under the session's clock; the lines that answer the request (none
    when `END` came meanwhile: the brain is about to exit)."""
    stop_at = arrived + think.deadline
    start = time.monotonic()
    time_limit = max(0.001, think.time_limit - (start - arrived))
    shown = 0
    said = ""

    def stop() -> bool:
        return time.monotonic() >= stop_at or inbox.ending()

    def progress(report: Progress) -> None:
        nonlocal shown, said
        if report.depth > shown and report.best_move is not None:
            shown = report.depth
            said = search_message(report, think.board)
            say(said)

    try:
        result = alphabeta(
            think.board,
            time_limit=time_limit,
            should_stop=stop,
            on_progress=progress,
            memory=memory,
        )
    except Exception as error:  # a brain answers ERROR and carries on
        session.thinking = None
        return [f"ERROR internal error while thinking: {error}"]
    if inbox.ending():
        session.thinking = None
        return []
    # The summary repeats the last report when the search ended with it: say it once.
    return [line for line in session.played(result) if line != said]


def process_age() -> float:
    """Seconds since this process started (from Linux's /proc), or 0 where that cannot be read
    (the clock then starts when the module was loaded, a little later)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            # Field 22, the start time in clock ticks after boot; fields counted after the
            # command name's closing parenthesis (the name may hold spaces) start at field 3.
            started = int(stat.read().rpartition(")")[2].split()[19])
        with open("/proc/uptime", encoding="ascii") as uptime:
            now = float(uptime.read().split()[0])
        return max(0.0, now - started / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def _read(stdin: TextIO, inbox: Inbox) -> None:
    """Put every line of `stdin` in the inbox with its arrival time, then None."""
    for line in stdin:
        inbox.put((line, time.monotonic()))
    inbox.put(None)
