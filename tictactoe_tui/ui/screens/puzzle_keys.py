"""The Puzzle screen's keys: which there are and when each shows, the player's move (a click, the
arrows and Enter, or a digit on 3×3), the hint, the retry and the cards.

`PuzzleKeys` is the screen's base: `ui.screens.puzzle.PuzzleScreen` adds the layout, choosing
a puzzle, the engine's answer and the line played out, the jobs and the drawing.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tictactoe_tui.engine.puzzles.proven import Puzzle
from tictactoe_tui.play.puzzle_try import PuzzlePhase, PuzzleTry
from tictactoe_tui.ui.messages import OpenCards
from tictactoe_tui.ui.widgets import Board


class PuzzleKeys(Screen[None]):
    """The puzzle screen's bindings, the try's state it reads, and the keys of a try."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "Hint"),
        Binding("r", "retry", "Retry"),
        Binding("n", "next_puzzle", "Next"),
        Binding("d", "daily", "Of the day"),
        Binding("b", "next_board", "Board"),
        Binding("g", "from_games", "Your games"),
        Binding("c", "cards", "Cards", show=False),
        Binding("escape", "back", "Back"),
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
    ]

    attempt: PuzzleTry
    """The puzzle shown and the try at it: its phase, hints, the moves shown."""

    @property
    def board(self) -> Board:
        """The puzzle's board widget."""
        return self.query_one("#puzzle-board", Board)

    @property
    def puzzle(self) -> Puzzle | None:
        """The puzzle shown."""
        return self.attempt.puzzle

    @property
    def phase(self) -> PuzzlePhase:
        """Where the try is: idle, solving, checking, playing, done."""
        return self.attempt.phase

    @property
    def played(self) -> list[int]:
        """The moves shown on the board since the puzzle's position."""
        return self.attempt.played

    def _try(self, cell: int) -> None:
        """The player's move on `cell`: to the engine, if a move is wanted now
        (`PuzzleScreen._try`)."""
        raise NotImplementedError

    def _restart(self) -> None:
        """The puzzle from its start, a new try (`PuzzleScreen._restart`)."""
        raise NotImplementedError

    def _refresh(self) -> None:
        """Draw the status, the words and the board again (`PuzzleScreen._refresh`)."""
        raise NotImplementedError

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the hint while a move is wanted, and retry once a puzzle is shown."""
        if action == "hint":
            return self.attempt.can_hint
        if action == "retry":
            return self.attempt.can_retry
        return True

    @on(Board.CellChosen, "#puzzle-board")
    def on_cell_chosen(self, event: Board.CellChosen) -> None:
        """A cell picked: send the move to the engine, if a move is wanted now."""
        event.stop()
        self._try(event.cell)

    def action_place_digit(self, digit: int) -> None:
        """Digits 1–9 play on 3×3 (1 is top-left, row by row), as in the game."""
        puzzle = self.puzzle
        if puzzle is None:
            return
        if puzzle.size != 3:
            self.notify("Digits play on 3×3 only: use the arrows and Enter, or click.", timeout=3)
            return
        self.board.cursor = digit - 1
        self._try(digit - 1)

    def action_hint(self) -> None:
        """One more hint: the area, then the threat, then the move."""
        if self.attempt.hint():
            self._refresh()

    def action_retry(self) -> None:
        """The same puzzle from its start (a retry is not rated)."""
        if self.puzzle is not None:
            self._restart()

    def action_cards(self) -> None:
        """Open the "find a better move" cards: your own mistakes, back when due."""
        self.post_message(OpenCards())
