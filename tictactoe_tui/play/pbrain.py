"""Our engine as a Gomocup brain: the "pbrain" protocol as a pure state machine.

A tournament manager (Piskvork, Gomocup's managers, gomoku GUIs) talks to a brain in plain
lines on stdin/stdout. `PbrainSession.handle` takes one line the manager sent and returns what
to do: lines to print, a position to think about (`Think`), or the end (`Quit`). It never reads,
prints, waits or searches itself, so every command is tested line by line in milliseconds; the
command `tictactoe-tui pbrain` (`cli.pbrain`) does the reading, the printing and the searching.

The protocol (https://plastovicka.github.io/protocl2en.htm): coordinates are `x,y` counted from
0, x the column. `START N` / `RECTSTART W,H` open an N×N board; `BEGIN` asks for the first move;
`TURN x,y` gives the opponent's move and asks for ours; `BOARD` … `x,y,f` … `DONE` gives a whole
position (f = 1 our stone, 2 the opponent's) and asks for a move; `TAKEBACK x,y` removes a stone;
`INFO key value` sets the clock and the rules; `ABOUT` names the brain; `END` ends it.

The engine plays freestyle gomoku: five or more in a row wins (its k = 5 rule counts any line
of five cells, so an overline of six contains a five and wins). Rule bits it cannot honour
(exactly five, continuous game, renju, caro) are refused with `ERROR`, never played wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass

from tictactoe_tui.engine import Board, Mark, Progress, SearchResult
from tictactoe_tui.engine.rules.board import MAX_SIZE, geometry
from tictactoe_tui.engine.search.types import describe_score

K = 5
"""Gomoku: five in a row (or more) wins."""

MIN_BRAIN_SIZE = K
"""The smallest board a five fits on."""

ABOUT = (
    'name="tictactoe-tui", version="{version}", author="the tictactoe-tui authors", country="n/a"'
)
"""The `ABOUT` answer; `{version}` is the package's version."""

DEFAULT_TURN_MS = 5000
"""The time per move when the manager sends no `INFO timeout_turn` (milliseconds)."""

FAST_TURN_MS = 100
"""`INFO timeout_turn 0` asks for moves as fast as possible: this much thinking (milliseconds)."""

MOVES_TO_PLAN = 25
"""With a match clock, each move may spend `time_left / MOVES_TO_PLAN`: a game lasts longer than
that, but a share that shrinks with the time left never runs the clock out."""

SOFT_SHARE = 0.55
"""The engine's own time limit is this share of a move's time (its iterative deepening stops
starting new depths early, and a finished depth can overrun it)."""

HARD_SHARE = 0.8
"""The search is stopped at this share of a move's time, however far it got."""

OVERHEAD = 0.06
"""Seconds kept back from every move for the process around the search: reading the command,
building the position, printing the answer, and a loaded machine's scheduling."""

MIN_THINK = 0.005
"""Seconds: the least a search is given (it still returns a move, from one ply at worst)."""

UNSUPPORTED_RULES = {1: "exactly five in a row", 2: "continuous game", 4: "renju", 8: "caro"}
"""The Gomocup `rule` bits this brain refuses: it plays freestyle (rule 0) only."""

FREESTYLE_ONLY = "this brain plays freestyle gomoku only (INFO rule 0: five or more in a row wins)"
"""The reason every refused rule gives."""


@dataclass(frozen=True)
class Think:
    """Search `board` for our move: give the engine `time_limit` seconds and stop it, whatever it
    found, at `deadline` seconds after the command arrived; then call `PbrainSession.played`."""

    board: Board
    time_limit: float
    deadline: float


@dataclass(frozen=True)
class Quit:
    """End the brain with this exit status."""

    status: int = 0


Effect = str | Think | Quit
"""What `PbrainSession.handle` asks for: a line to print, a search, or the end."""


class PbrainSession:
    """The brain's side of one connection to a manager: the board, the clock and the rules.

    Feed it every line the manager sends (`handle`); when it answers `Think`, search and hand
    the result to `played`, which records our move and gives the lines to print.
    """

    def __init__(self, version: str = "") -> None:
        """No board until `START`; the default clock until `INFO` says otherwise."""
        self.version = version
        self.size = 0
        """The board's side, 0 before `START`."""
        self.ours: list[int] = []
        """Our stones, as engine cells (row-major), in the order they came."""
        self.theirs: list[int] = []
        """The opponent's stones."""
        self.info: dict[str, str] = {}
        """Every `INFO` value the manager sent, by key (the known ones are also read below)."""
        self.timeout_turn_ms = DEFAULT_TURN_MS
        self.timeout_match_ms: int | None = None
        """The match clock; 0 means none (then `time_left` means nothing), None not sent."""
        self.time_left_ms: int | None = None
        self.rule = 0
        self._board_lines: list[str] | None = None
        """While a `BOARD` block is being read: its lines so far."""
        self.thinking: Board | None = None
        """The position a `Think` was asked for, until `played` answers it."""

    # -- the manager's lines --------------------------------------------------------------------

    def handle(self, line: str) -> list[Effect]:
        """What to do about one line from the manager."""
        text = line.strip()
        if self._board_lines is not None:
            if text.upper() == "DONE":
                lines, self._board_lines = self._board_lines, None
                return self._board_done(lines)
            self._board_lines.append(text)
            return []
        if not text:
            return []
        word, _, rest = text.partition(" ")
        word, rest = word.upper(), rest.strip()
        handler = _COMMANDS.get(word)
        if handler is None:
            return [f"UNKNOWN command {word!s}: this brain knows {', '.join(_COMMANDS)}"]
        return handler(self, rest)

    @staticmethod
    def interrupts(line: str) -> bool:
        """Whether `line`, arriving during a search, ends the brain at once (`END`)."""
        return line.strip().upper() == "END"

    def _start(self, rest: str) -> list[Effect]:
        """`START N`: a new empty N×N board."""
        try:
            size = int(rest)
        except ValueError:
            return [f"ERROR START needs the board size, a whole number: not {rest!r}"]
        return self._open(size, size)

    def _rectstart(self, rest: str) -> list[Effect]:
        """`RECTSTART W,H`: only square boards."""
        parts = rest.split(",")
        try:
            width, height = (int(part) for part in parts)
        except ValueError:
            return [f"ERROR RECTSTART needs width,height, two whole numbers: not {rest!r}"]
        return self._open(width, height)

    def _open(self, width: int, height: int) -> list[Effect]:
        """A new empty board, or `ERROR` for one the engine cannot play."""
        if width != height:
            return [f"ERROR only square boards: {width}×{height} is not square"]
        if not MIN_BRAIN_SIZE <= width <= MAX_SIZE:
            return [
                f"ERROR unsupported size {width}: this brain plays boards "
                f"{MIN_BRAIN_SIZE}×{MIN_BRAIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}"
            ]
        self.size = width
        self.ours, self.theirs = [], []
        return ["OK"]

    def _restart(self, rest: str) -> list[Effect]:
        """`RESTART`: the same board, emptied."""
        if not self.size:
            return ["ERROR no board yet: send START first"]
        self.ours, self.theirs = [], []
        return ["OK"]

    def _begin(self, rest: str) -> list[Effect]:
        """`BEGIN`: we move first."""
        return self._move_request()

    def _turn(self, rest: str) -> list[Effect]:
        """`TURN x,y`: the opponent's move, then ours."""
        if not self.size:
            return ["ERROR no board yet: send START first"]
        cell, problem = self._cell(rest, "TURN")
        if problem:
            return [f"ERROR {problem}"]
        self.theirs.append(cell)
        return self._move_request()

    def _board(self, rest: str) -> list[Effect]:
        """`BOARD`: the lines up to `DONE` are the whole position."""
        self._board_lines = []
        return []

    def _board_done(self, lines: list[str]) -> list[Effect]:
        """The `BOARD` block read: take it as the position (or refuse it whole), then move."""
        if not self.size:
            return ["ERROR no board yet: send START first"]
        ours: list[int] = []
        theirs: list[int] = []
        for text in lines:
            if not text:
                continue
            where, _, field = text.rpartition(",")
            if where.count(",") != 1 or field.strip() not in ("1", "2", "3"):
                return [
                    f"ERROR {text!r}: a BOARD line is x,y,f with f 1 (mine), 2 (the "
                    "opponent's) or 3 (the BOARD is ignored)"
                ]
            cell, problem = self._cell(where, "BOARD", must_be_empty=False)
            if problem:
                return [f"ERROR {problem} (the BOARD is ignored)"]
            if cell in ours or cell in theirs:
                return [f"ERROR {where} is given twice (the BOARD is ignored)"]
            if field.strip() == "3":
                return [
                    f"ERROR {text}: continuous-game stones (field 3) are not supported, "
                    f"{FREESTYLE_ONLY} (the BOARD is ignored)"
                ]
            (ours if field.strip() == "1" else theirs).append(cell)
        self.ours, self.theirs = ours, theirs
        return self._move_request()

    def _takeback(self, rest: str) -> list[Effect]:
        """`TAKEBACK x,y`: remove that stone, whoever played it."""
        if not self.size:
            return ["ERROR no board yet: send START first"]
        cell, problem = self._cell(rest, "TAKEBACK", must_be_empty=False)
        if problem:
            return [f"ERROR {problem}"]
        for stones in (self.ours, self.theirs):
            if cell in stones:
                stones.remove(cell)
                return ["OK"]
        return [f"ERROR TAKEBACK {rest}: there is no stone there"]

    def _info(self, rest: str) -> list[Effect]:
        """`INFO key value`: the clock, the rules, and keys that change nothing here."""
        key, _, value = rest.partition(" ")
        key, value = key.lower(), value.strip()
        if not key or not value:
            return [f"ERROR INFO needs a key and a value: not {rest!r}"]
        if key in ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule"):
            try:
                number = int(value)
            except ValueError:
                return [f"ERROR INFO {key} needs a whole number: not {value!r}"]
            if number < 0 and key != "time_left":  # a judge's time_left runs below 0
                return [f"ERROR INFO {key} cannot be negative: {number}"]
            if key == "timeout_turn":
                self.timeout_turn_ms = number
            elif key == "timeout_match":
                self.timeout_match_ms = number
            elif key == "time_left":
                self.time_left_ms = max(number, 0)
            elif key == "rule":
                self.rule = number
                refused = self._refused_rule()
                if refused:
                    return [f"ERROR {refused}"]
        self.info[key] = value
        # max_memory, game_type, evaluate (the mouse cursor) and folder are kept in `info`
        # only: the engine's tables stay far below Gomocup's memory limits, and it writes no
        # files. Unknown keys are ignored, as the protocol asks.
        return []

    def _about(self, rest: str) -> list[Effect]:
        """`ABOUT`: who we are."""
        return [ABOUT.format(version=self.version)]

    def _end(self, rest: str) -> list[Effect]:
        """`END`: exit at once."""
        return [Quit(0)]

    # -- moves ---------------------------------------------------------------------------------

    def _refused_rule(self) -> str:
        """Why the current `rule` cannot be played, or "" for freestyle."""
        names = [name for bit, name in UNSUPPORTED_RULES.items() if self.rule & bit]
        if self.rule & ~sum(UNSUPPORTED_RULES):
            names.append(f"unknown rule bits {self.rule & ~sum(UNSUPPORTED_RULES)}")
        if not names:
            return ""
        return f"rule {self.rule} ({', '.join(names)}) is not supported: {FREESTYLE_ONLY}"

    def _move_request(self) -> list[Effect]:
        """Our move is wanted: a `Think`, or `ERROR` when none can honestly be played."""
        if not self.size:
            return ["ERROR no board yet: send START first"]
        refused = self._refused_rule()
        if refused:
            return [f"ERROR {refused}"]
        board = self.position()
        if board.winner is not None:
            side = "I have" if board.winner is board.to_move else "the opponent has"
            return [f"ERROR the game is over: {side} five in a row"]
        if not board.legal_moves():
            return ["ERROR the board is full"]
        time_limit, deadline = self.budget()
        self.thinking = board
        return [Think(board, time_limit, deadline)]

    def position(self) -> Board:
        """The engine's board: our stones and the opponent's, us to move.

        We are O when the opponent has more stones (they started), else X; a manager's BOARD
        may hold any counts (an opening), and the engine needs no more than which stones are
        whose and who moves.
        """
        us = Mark.O if len(self.theirs) > len(self.ours) else Mark.X
        mine = sum(1 << cell for cell in self.ours)
        other = sum(1 << cell for cell in self.theirs)
        x, o = (mine, other) if us is Mark.X else (other, mine)
        return Board(geometry(self.size, K), x, o, us)

    def budget(self) -> tuple[float, float]:
        """(the engine's time limit, the hard stop), in seconds from the command's arrival.

        A move may take `timeout_turn` (0 means as fast as possible), and no more than its share
        of `time_left` when the manager sends it, unless `timeout_match` is 0 (no match clock:
        the Gomocup judge then sends a meaningless time_left). The engine aims at `SOFT_SHARE`
        of that and is stopped at `HARD_SHARE`, both less `OVERHEAD` for the process around it.
        """
        turn_ms = self.timeout_turn_ms if self.timeout_turn_ms > 0 else FAST_TURN_MS
        if self.time_left_ms is not None and self.timeout_match_ms != 0:
            turn_ms = min(turn_ms, self.time_left_ms // MOVES_TO_PLAN)
        seconds = turn_ms / 1000
        hard = max(MIN_THINK, seconds * HARD_SHARE - OVERHEAD)
        soft = min(hard, max(MIN_THINK, seconds * SOFT_SHARE - OVERHEAD))
        return soft, hard

    def played(self, result: SearchResult) -> list[str]:
        """The search asked for by the last `Think` is done: record our move, and say what we
        found (one `MESSAGE`) and where we play (`x,y`)."""
        board = self.thinking
        if board is None or result.move is None:
            raise ValueError("played() answers a Think: no search was asked for")
        self.thinking = None
        self.ours.append(result.move)
        return [search_message(result, board), self.coordinates(result.move)]

    # -- coordinates -----------------------------------------------------------------------------

    def coordinates(self, cell: int) -> str:
        """An engine cell as the protocol writes it: `x,y`, x the column."""
        row, col = divmod(cell, self.size)
        return f"{col},{row}"

    def _cell(self, text: str, command: str, must_be_empty: bool = True) -> tuple[int, str]:
        """The engine cell of `x,y`, or (-1, why it is not one)."""
        parts = text.split(",")
        try:
            x, y = (int(part) for part in parts)
        except ValueError:
            return -1, f"{command} needs x,y (two whole numbers): not {text!r}"
        if not (0 <= x < self.size and 0 <= y < self.size):
            return -1, (
                f"{command} {x},{y} is off the {self.size}×{self.size} board "
                f"(x and y count from 0 to {self.size - 1})"
            )
        cell = y * self.size + x
        if must_be_empty and (cell in self.ours or cell in self.theirs):
            return -1, f"{command} {x},{y}: that cell is taken"
        return cell, ""


_COMMANDS = {
    "START": PbrainSession._start,
    "RECTSTART": PbrainSession._rectstart,
    "RESTART": PbrainSession._restart,
    "BEGIN": PbrainSession._begin,
    "TURN": PbrainSession._turn,
    "BOARD": PbrainSession._board,
    "TAKEBACK": PbrainSession._takeback,
    "INFO": PbrainSession._info,
    "ABOUT": PbrainSession._about,
    "END": PbrainSession._end,
}
"""Every command the brain knows, by its (upper-case) word."""


def line_text(board: Board, line: tuple[int, ...]) -> str:
    """An expected line as protocol coordinates: "7,7 8,8 6,6"."""
    size = board.size
    return " ".join(f"{cell % size},{cell // size}" for cell in line)


def search_message(result: SearchResult | Progress, board: Board) -> str:
    """The `MESSAGE` line for a search, finished (a `SearchResult`) or still running (a
    `Progress`): its depth, its value and what kind of value that is, the expected line."""
    if isinstance(result, Progress):
        score, pv = result.best_score, result.pv
    else:
        score, pv = result.score, result.pv
    value = describe_score(score, board, kind=result.kind, band=result.band)
    seconds = result.elapsed
    return (
        f"MESSAGE depth {result.depth}: {value}, {_KIND_WORDS[result.kind]}; "
        f"{result.nodes:,} positions in {seconds:.2f} s; line {line_text(board, pv) or '-'}"
    )


_KIND_WORDS = {
    "exact": "exact",
    "estimate": "estimate",
    "at_most": "upper bound",
    "at_least": "lower bound",
}
"""What each `MoveScore.kind` is called in a `MESSAGE`."""
