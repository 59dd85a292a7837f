"""An outside engine as a player: a Gomocup "pbrain" program, driven over its stdin and stdout.

`OutsidePlayer(path)` answers the same call as our players, `choose(board, limits)`. The brain
is started on its first move (from `path`, without a shell, in its own folder, in a session of
its own so a Ctrl+C in the terminal reaches only us) and told the game: `START size`, then
`INFO timeout_turn` (the limits' time, in ms), `INFO timeout_match 0` (no match clock),
`INFO max_memory` (`MAX_MEMORY`), `INFO rule 0` (freestyle: five or more in a row wins),
`INFO game_type 1`, then `ABOUT`: the player's `name` is the one the brain gives (`name="…"`),
else its file name (a brain that answers `UNKNOWN`, `ERROR` or nothing within
`ABOUT_SECONDS` is not at fault for it). Each move is asked
with `BEGIN` (empty board), `TURN x,y` (the board is the one it left plus the opponent's
reply) or `BOARD` … `DONE` (anything else: an undo, a new position); x is the column, from 0.
Nothing is sent to a brain until `SETTLE` seconds after its move line: some brains, Rapfi among
them, are still leaving their search when they print the move and drop (the first word of) a
command that arrives then; Gomocup's manager is never that fast. A loaded machine can stretch
that moment: a brain that answers a `TURN x,y` with an `ERROR` about `x,y` alone lost the word
`TURN`, and is sent the same `TURN` once more.

While it thinks, every `MESSAGE` line it prints goes to the limits' `on_progress` as an
`EngineReport` (its own words, unparsed: engines word them differently), and `DEBUG`, `OK` and
lines that mean nothing are kept in its log with the last lines of its stderr.

Anything wrong is an `EngineFault` with one sentence (the caller ends the game: the engine
loses): no answer within its time plus a grace (it is killed), an exit or a crash, `ERROR`
(but for that one lost word), a move off the board or on a taken cell, a move line that is not
`x,y`. A stop request
(`should_stop`) ends the process at once; the next move starts a fresh one from `BOARD`.
`close()` ends it (`END`, then a kill if it lingers); so does the end of the Python process.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import re
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tictactoe_tui.engine.players.computer import Decision
from tictactoe_tui.engine.players.foreign import PlayerFault, PlayerStopped
from tictactoe_tui.engine.players.offered import check_offered
from tictactoe_tui.engine.players.pipes import end_process, exit_words, follow
from tictactoe_tui.engine.rules.board import Board, cell_notation
from tictactoe_tui.engine.search.limits import NO_LIMITS, Limits
from tictactoe_tui.engine.search.types import Progress

__all__ = [
    "DEFAULT_TIME",
    "ENGINE",
    "EngineFault",
    "EngineReport",
    "EngineStopped",
    "OutsidePlayer",
    "check_engine_path",
    "check_engine_shape",
    "engine_key",
    "grace",
]

ENGINE = "engine"
"""The player's name in a spec (`engine:path=PATH`) and its `Decision.algorithm`."""

DEFAULT_TIME = 1.0
"""Seconds per move when the spec gives none (the Gomocup protocol needs a `timeout_turn`)."""

START_SECONDS = 10.0
"""Seconds a brain may take to answer `START` (it may load tables or networks)."""

FIRST_MOVE_SECONDS = 5.0
"""Extra seconds for a brain's first move after `START`: many allocate their tables then
(measured: Rapfi's first move overran 0.25 s + 1 s on a loaded machine, none after)."""

MAX_MEMORY = 80 * 1024 * 1024
"""Bytes a brain is told it may use (`INFO max_memory`): room for a hash table. 0 ("no limit")
made Rapfi allocate a 350 MB table on its first move."""

ABOUT_SECONDS = 2.0
"""Seconds a brain may take to answer `ABOUT` before it is known by its file name instead."""

NAME_LENGTH = 40
"""The longest name taken from a brain's `ABOUT` (the rest is cut)."""

END_SECONDS = 1.0
"""Seconds a brain may take to exit after `END` before it is killed."""

SETTLE = 0.01
"""Seconds between reading a brain's move and sending it anything more (only the rest of them
is waited: none when our side thought longer). Rapfi prints its move before it leaves its
search, and a command that comes in between loses its first word (`TURN 7,5` read as `7,5`,
an ERROR); 5 ms was enough in a measurement of 800 turns."""

POLL_SECONDS = 0.05
"""How often a wait for the brain looks at the stop check and the clock."""

HEARTBEAT = 0.2
"""Seconds between two reports while a brain thinks in silence (the watcher's clock moves)."""

LOG_LINES = 40
"""Lines of stderr (and of ignored output) kept to show when something goes wrong."""

GOMOCUP_K = 5
"""The protocol plays five in a row (freestyle: five or more wins)."""

_MOVE = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")
_ABOUT_NAME = re.compile(r'(?:^|[\s,])name\s*=\s*"([^"]*)"', re.IGNORECASE)
_MOVE_LIKE = re.compile(r"\s*[+-]?\d+\s*,.*|[\s\d,.+-]+")


def grace(seconds: float) -> float:
    """The time past its budget an engine may take before it loses on time: a second, or half
    its budget when that is more (a loaded machine delays everyone)."""
    return max(1.0, seconds / 2)


class EngineFault(PlayerFault):
    """An outside engine failed or broke the rules: it loses the game. `reason` says how in one
    sentence ("timed out (no move within 1 s + 1 s grace)", …); `log` holds the last lines of
    its stderr and of its ignored output."""


@dataclass(frozen=True)
class EngineReport(Progress):
    """What an outside engine said while it thinks: its `MESSAGE` lines so far, in its words.

    The fields inherited from `Progress` hold only the clock (`elapsed`): an engine's words
    are not parsed into depths or scores, so nothing here claims a number it did not give.
    """

    said: tuple[str, ...] = ()
    """Its `MESSAGE` lines for this move, oldest first."""
    engine: str = ""
    """Its name (the `ABOUT` name, else the program's file name)."""


def engine_key(name: str) -> str:
    """How the history names an outside engine called `name` (its `ABOUT` name, else its file
    name), so each engine has its own all-time score: "engine:Rapfi"."""
    return f"{ENGINE}:{name}"


def about_name(line: str) -> str:
    """The name in a brain's answer to `ABOUT` (`name="Rapfi", version="…"`), printable and
    at most `NAME_LENGTH` characters; "" when it gives none."""
    found = _ABOUT_NAME.search(line)
    if found is None:
        return ""
    name = "".join(c for c in found.group(1) if c.isprintable()).strip()
    return name[:NAME_LENGTH].strip()


def check_engine_path(text: str) -> Path:
    """The program `text` names, resolved; ValueError with one sentence when it cannot run."""
    if not text.strip():
        raise ValueError("an outside engine needs a path: engine:path=/path/to/pbrain")
    check_offered("engine", text)  # served to browsers: only what the server named
    path = Path(text).expanduser()
    if not path.exists():
        raise ValueError(f"no outside engine at {text}: the file does not exist")
    if not path.is_file():
        raise ValueError(f"the outside engine {text} is not a file")
    if not os.access(path, os.X_OK):
        raise ValueError(f"the outside engine {text} is not executable (chmod +x it)")
    return path.resolve()


def check_engine_shape(size: int, k: int) -> None:
    """ValueError unless an outside engine can play this board: five in a row, 5×5 or more."""
    if k != GOMOCUP_K:
        raise ValueError(
            f"an outside engine plays five in a row (Gomocup), not {k} in a row: use --k 5"
        )
    if size < GOMOCUP_K:
        raise ValueError(f"an outside engine needs a board of at least 5×5, not {size}×{size}")


_LIVE: weakref.WeakValueDictionary[int, OutsidePlayer] = weakref.WeakValueDictionary()
"""Every outside player of this process that may have a running engine, by its key."""
_KEYS = iter(range(1, 1 << 62))


def _live_player(key: int) -> OutsidePlayer:
    """The running player `key` names (how a player "copied" for a thread finds itself)."""
    player = _LIVE.get(key)
    if player is None:
        raise RuntimeError("an outside engine plays only in the process that started it")
    return player


@atexit.register
def _end_every_engine() -> None:
    """No engine outlives the program that started it."""
    for player in list(_LIVE.values()):
        player.close()


class OutsidePlayer:
    """A Gomocup brain as a player (see the module docstring); one per game, then `close()`.

    A copy (pickle) of it is the same player, not a second engine: the app runs a move in a
    thread that copies its arguments, and the process must stay one.
    """

    def __init__(self, path: str | Path, time_limit: float | None = None) -> None:
        """Play with the program at `path` (checked now: ValueError), `time_limit` seconds per
        move by default (`DEFAULT_TIME` when None)."""
        self.path = check_engine_path(str(path))
        self.limits = Limits(time=time_limit if time_limit is not None else DEFAULT_TIME)
        """The player's own limits; a call's limits refine them."""
        self.name = self.path.name
        """The program's file name, until it says its own in answer to `ABOUT`."""
        self._key = next(_KEYS)
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._log: deque[str] = deque(maxlen=LOG_LINES)
        self._size = 0
        self._timeout_ms = 0
        self._left: Board | None = None
        """The board as the engine last knew it (after its own move)."""
        self._moved: float | None = None
        """When its last move line was read (`time.monotonic()`), until the `SETTLE` wait."""
        _LIVE[self._key] = self

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Copies are the same player: see the class docstring."""
        return _live_player, (self._key,)

    @property
    def pid(self) -> int | None:
        """The running engine's process id (None before its first move and after `close`)."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    @property
    def log(self) -> tuple[str, ...]:
        """The last lines of its stderr and of what it printed that meant nothing."""
        return tuple(self._log)

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The engine's move on `board`; `EngineFault` when it fails (it loses).

        Time: the limits' (or the player's) seconds, sent as `timeout_turn`; past it plus
        `grace` (and `FIRST_MOVE_SECONDS` on the first move after `START`), the engine is
        killed and loses on time. Depth and positions cannot be said
        in the protocol. A stop request kills the engine and raises `EngineStopped`.
        """
        limits = limits.over(self.limits)
        seconds = limits.time if limits.time is not None else DEFAULT_TIME
        with self._lock:
            try:
                return self._choose(board, seconds, limits)
            except EngineStopped:
                self._end(kill=True)
                raise
            except EngineFault as fault:
                self._end(kill=True)
                raise EngineFault(fault.reason, self.log) from None

    def close(self) -> None:
        """End the engine (`END`, then a kill if it lingers); the player may start it again."""
        with self._lock:
            self._end(kill=False)

    # -- the conversation ---------------------------------------------------------------------

    def _choose(self, board: Board, seconds: float, limits: Limits) -> Decision:
        began = time.monotonic()
        extra = self._get_ready(board, seconds, limits)
        sent = self._send_position(board)
        resent = False
        said: list[str] = []
        deadline = time.monotonic() + seconds + grace(seconds) + extra

        def report() -> None:
            # Also while it is silent, so the clock a watcher shows keeps moving.
            if limits.on_progress is not None:
                limits.on_progress(
                    EngineReport(
                        0,
                        0,
                        time.monotonic() - began,
                        None,
                        0,
                        (),
                        said=tuple(said),
                        engine=self.name,
                    )
                )

        while True:
            line = self._next_line(
                deadline,
                limits,
                f"no move within {seconds:g} s + {grace(seconds) + extra:g} s grace",
                report,
            )
            word = line.split(maxsplit=1)[0].upper() if line.strip() else ""
            if word == "MESSAGE":
                said.append(line.strip()[len("MESSAGE") :].strip())
                report()
                continue
            if word == "ERROR":
                if resent or not _lost_first_word(sent, line):
                    raise EngineFault(f"{self.name} answered {line.strip()!r} instead of a move")
                # Still leaving its last search, it read our TURN's word and dropped it: the
                # position is unchanged, so the command goes again (once).
                resent = True
                self._log.append(f"(sent again after) {line.strip()}")
                self._send(sent)
                continue
            move = self._move_in(line)
            if move is not None:
                self._moved = time.monotonic()
                return self._decision(board, move[0], move[1], said)

    def _get_ready(self, board: Board, seconds: float, limits: Limits) -> float:
        """Start the engine if it is not running on this board's size and tell it the time per
        move if that changed: the extra seconds its first move may take (0 when it ran)."""
        timeout_ms = max(1, round(seconds * 1000))
        extra = 0.0
        if self._process is None or self._process.poll() is not None or self._size != board.size:
            self._start(board.size, limits)
            extra = FIRST_MOVE_SECONDS
        if timeout_ms != self._timeout_ms:
            self._send(f"INFO timeout_turn {timeout_ms}")
            self._timeout_ms = timeout_ms
        return extra

    def _move_in(self, line: str) -> tuple[int, int] | None:
        """The move (x, y) `line` answers, or None for a line to ignore (logged);
        EngineFault for a line that looks like a move and is not one."""
        move = _MOVE.fullmatch(line)
        if move is None:
            if line.strip() and _MOVE_LIKE.fullmatch(line):
                raise EngineFault(
                    f"{self.name} answered {line.strip()!r}, which is not a move (x,y)"
                )
            self._log.append(f"(ignored) {line.rstrip()}")
            return None
        return int(move.group(1)), int(move.group(2))

    def _decision(self, board: Board, x: int, y: int, said: list[str]) -> Decision:
        size = board.size
        if not (0 <= x < size and 0 <= y < size):
            raise EngineFault(f"{self.name} played {x},{y}, off the {size}×{size} board")
        cell = y * size + x
        if board[cell] is not None:
            raise EngineFault(
                f"{self.name} played {x},{y} ({cell_notation(cell, size)}), a "
                f"cell {board[cell]} already holds"
            )
        self._left = board.play(cell)
        reason = said[-1] if said else "its own move (it said nothing about it)"
        return Decision(
            move=cell,
            clever=True,
            algorithm=ENGINE,
            analysis=None,
            terms=None,
            reason=f"{self.name}: {reason}",
            said=tuple(said),
        )

    def _start(self, size: int, limits: Limits) -> None:
        self._end(kill=True)
        self._lines = queue.Queue()
        try:
            self._process = subprocess.Popen(
                [str(self.path)],
                cwd=self.path.parent,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                errors="replace",
                start_new_session=True,
            )
        except OSError as error:
            raise EngineFault(f"{self.name} could not be started: {error.strerror}") from None
        follow(self._process, self._lines, self._log)
        self._size = size
        self._left = None
        self._moved = None
        self._timeout_ms = 0
        self._send(f"START {size}")
        deadline = time.monotonic() + START_SECONDS
        while True:
            line = self._next_line(
                deadline, limits, f"no answer to START {size} within {START_SECONDS:g} s"
            )
            word = line.split(maxsplit=1)[0].upper() if line.strip() else ""
            if word == "OK":
                break
            if word == "ERROR":
                raise EngineFault(f"{self.name} cannot play a {size}×{size} board: {line.strip()}")
            if word != "MESSAGE":
                self._log.append(f"(ignored) {line.rstrip()}")
        for info in ("timeout_match 0", f"max_memory {MAX_MEMORY}", "game_type 1", "rule 0"):
            self._send(f"INFO {info}")
        self._send(f"INFO folder {self.path.parent}")
        self._ask_name(limits)

    def _ask_name(self, limits: Limits) -> None:
        """`ABOUT`: the brain's own name, if it gives one soon (else its file name stays)."""
        self._send("ABOUT")
        deadline = time.monotonic() + ABOUT_SECONDS
        while True:
            try:
                line = self._next_line(deadline, limits, "no answer to ABOUT")
            except EngineFault:
                return  # silent, or gone: the move that follows finds out which
            word = line.split(maxsplit=1)[0].upper() if line.strip() else ""
            if word in ("MESSAGE", "DEBUG", ""):
                continue
            name = about_name(line)
            if name:
                self.name = name
            elif word not in ("UNKNOWN", "ERROR"):
                self._log.append(f"(ABOUT) {line.rstrip()}")
            return

    def _send_position(self, board: Board) -> str:
        """Tell the brain the position and ask for its move; what was sent."""
        me = board.to_move
        left = self._left
        if board.move_count == 0:
            self._send("BEGIN")
            return "BEGIN"
        if (
            left is not None
            and board.bits(me) == left.bits(me)
            and left.bits(me.opponent) & ~board.bits(me.opponent) == 0
            and (board.bits(me.opponent) ^ left.bits(me.opponent)).bit_count() == 1
        ):
            cell = (board.bits(me.opponent) ^ left.bits(me.opponent)).bit_length() - 1
            turn = f"TURN {_xy(cell, board.size)}"
            self._send(turn)
            return turn
        # Stones alternate from the first mover's, so a brain that replays them in order
        # sees a plausible game (the protocol does not say in which order they come).
        first = (
            me if board.bits(me).bit_count() >= board.bits(me.opponent).bit_count() else me.opponent
        )
        second = first.opponent
        stones = {
            mark: [c for c in range(board.size**2) if board[c] is mark] for mark in (first, second)
        }
        lines = ["BOARD"]
        for pair in range(max(len(stones[first]), len(stones[second]))):
            for mark in (first, second):
                if pair < len(stones[mark]):
                    field = 1 if mark is me else 2
                    lines.append(f"{_xy(stones[mark][pair], board.size)},{field}")
        lines.append("DONE")
        text = "\n".join(lines)
        self._send(text)
        return text

    def _settle(self) -> None:
        """Wait out the rest of `SETTLE` after the brain's last move line, if any is left."""
        moved, self._moved = self._moved, None
        if moved is not None:
            left = moved + SETTLE - time.monotonic()
            if left > 0:
                time.sleep(left)

    def _send(self, text: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise EngineFault(f"{self.name} is not running")
        self._settle()
        try:
            process.stdin.write(text + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineFault(f"{self.name} {self._exit_words()}") from None

    def _next_line(
        self, deadline: float, limits: Limits, late: str, waiting: Callable[[], None] | None = None
    ) -> str:
        """The engine's next line; a fault when it ends or runs past `deadline`. `waiting` is
        called every `HEARTBEAT` seconds while no line comes."""
        heard = time.monotonic()
        while True:
            if limits.stopped():
                raise EngineStopped
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFault(f"{self.name} timed out: {late}")
            try:
                line = self._lines.get(timeout=min(POLL_SECONDS, left))
            except queue.Empty:
                if waiting is not None and time.monotonic() - heard >= HEARTBEAT:
                    heard = time.monotonic()
                    waiting()
                continue
            if line is None:
                raise EngineFault(f"{self.name} {self._exit_words()}")
            return line

    def _exit_words(self) -> str:
        words = exit_words(self._process, END_SECONDS)
        if words is None:
            return "stopped answering (its output closed)"
        return words if words.startswith("crashed") else f"{words} in the middle of the game"

    def _end(self, kill: bool) -> None:
        """End the process: `END` and a short wait first unless `kill`; always reaped."""
        process, self._process = self._process, None
        self._left = None
        if process is None:
            return
        if not kill and process.poll() is None and process.stdin is not None:
            self._settle()
            with contextlib.suppress(OSError, ValueError):
                process.stdin.write("END\n")
                process.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=END_SECONDS)
        end_process(process, END_SECONDS)


class EngineStopped(PlayerStopped):
    """The caller asked the engine to stop (`should_stop`): it was ended, and no move exists."""


def _lost_first_word(sent: str, error: str) -> bool:
    """Whether `error` is a brain's answer to the argument of the `TURN` we `sent` alone: the
    brain dropped the word `TURN` (Rapfi does when a command comes while it leaves its search;
    `SETTLE` makes that rare, and a loaded machine can still stretch the moment)."""
    word, _, argument = sent.partition(" ")
    return word == "TURN" and bool(argument) and error.strip().endswith(argument)


def _xy(cell: int, size: int) -> str:
    """A cell as the protocol writes it: `x,y`, x the column, from 0."""
    return f"{cell % size},{cell // size}"
