"""The rules of one try at a puzzle, without Textual: its phases, the move, hints, the line.

The Puzzle screen chooses puzzles, runs the engine's jobs and keeps the player's rating; what a
key or a click may do during a try is decided here: a move is wanted (solving), the engine
judges it (checking), its line is played out one ply at a time (playing), the try is over
(done). The screen shows what `PuzzleTry` holds and says what its methods return.
"""

from __future__ import annotations

from enum import StrEnum

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.puzzles.proven import Puzzle
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.worker.jobs import PuzzleReply

MAX_HINTS = 3
"""Hints a try may take: the area, then the threat, then the move."""


class PuzzlePhase(StrEnum):
    """Where a try at a puzzle is."""

    IDLE = "idle"
    """No puzzle yet."""
    SOLVING = "solving"
    """The player's move is wanted."""
    CHECKING = "checking"
    """The engine judges the move."""
    PLAYING = "playing"
    """The line that follows is played out."""
    DONE = "done"
    """The try is over: again, or the next puzzle."""


class PuzzleTry:
    """The puzzle shown and the try at it."""

    def __init__(self) -> None:
        """No puzzle yet."""
        self.puzzle: Puzzle | None = None
        """The puzzle shown."""
        self.phase = PuzzlePhase.IDLE
        """Where the try is."""
        self.hints = 0
        """Hints taken on this try (0 to `MAX_HINTS`)."""
        self.played: list[int] = []
        """The moves shown on the board since the puzzle's position."""
        self.reply: PuzzleReply | None = None
        """The engine's verdict on the move, once it came."""

    @property
    def busy(self) -> bool:
        """Whether the engine judges the move or its line is being played out."""
        return self.phase in (PuzzlePhase.CHECKING, PuzzlePhase.PLAYING)

    @property
    def can_hint(self) -> bool:
        """Whether one more hint may be taken now."""
        return self.phase is PuzzlePhase.SOLVING and self.hints < MAX_HINTS

    @property
    def can_retry(self) -> bool:
        """Whether `r` may start the puzzle again (once a move was tried)."""
        return self.puzzle is not None and self.phase is not PuzzlePhase.SOLVING

    def clear(self) -> None:
        """No puzzle shown (while another board or new puzzles are on their way)."""
        self.puzzle = None
        self.phase = PuzzlePhase.IDLE

    def start(self, puzzle: Puzzle | None = None) -> None:
        """A new try at `puzzle` (default: the one shown), from its position."""
        if puzzle is not None:
            self.puzzle = puzzle
        if self.puzzle is None:
            return
        self.phase = PuzzlePhase.SOLVING
        self.hints = 0
        self.played = []
        self.reply = None

    def choose(self, cell: int) -> str:
        """The player's move: "" when it goes to the engine (checking), else why not (and
        nothing changes)."""
        puzzle = self.puzzle
        if puzzle is None:
            return "No puzzle yet."
        if self.phase is not PuzzlePhase.SOLVING:
            return "Press r to try this puzzle again, or n for the next one."
        if puzzle.board[cell] is not None:
            return f"{cell_notation(cell, puzzle.size)} is taken: pick an empty cell."
        self.phase = PuzzlePhase.CHECKING
        self.played = [cell]
        return ""

    def hint(self) -> bool:
        """One more hint; whether one was given."""
        if not self.can_hint:
            return False
        self.hints += 1
        return True

    def answered(self, reply: PuzzleReply) -> None:
        """The engine's verdict: its line is played out from here."""
        self.reply = reply
        self.phase = PuzzlePhase.PLAYING

    def step(self) -> int | None:
        """One more ply of the line: its index in the line, or None once the line is over
        (then the try is done)."""
        reply = self.reply
        if reply is None:
            return None
        index = len(self.played)
        if index < len(reply.line):
            self.played.append(reply.line[index])
            return index
        self.phase = PuzzlePhase.DONE
        return None

    def interrupt(self) -> None:
        """The engine's job or the playing-out was stopped: the try is over."""
        if self.busy:
            self.phase = PuzzlePhase.DONE

    def position(self) -> Board | None:
        """The board shown: the puzzle's position with the moves played since."""
        if self.puzzle is None:
            return None
        board = self.puzzle.board
        for move in self.played:
            if board.is_over or board[move] is not None:
                break
            board = board.play(move)
        return board
