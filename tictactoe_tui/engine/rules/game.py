"""A game in progress: the moves played, undo/redo, the result, and a readable text record.

The record format (what `Game.to_record` writes and `Game.from_record` reads)::

    tictactoe 3x3 k=3 first=X
    moves: 5 1 9 3

The first line gives the board size, k (marks in a row to win) and who moved first. The second
lists the cells played, in order, numbered 1-based in reading order (1 = top left, size*size =
bottom right), the same numbers as the 1-9 keys on 3x3. A game with no moves has an empty
`moves:` line. Blank lines and lines starting with `#` are ignored; the redo stack is not saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tictactoe_tui.engine.rules.board import Board, IllegalMove, Mark, cell_notation, geometry

_HEADER = re.compile(
    r"tictactoe\s+(\d+)\s*x\s*(\d+)\s+k\s*=\s*(\d+)\s+first\s*=\s*([XO])", re.IGNORECASE
)
_MOVES = re.compile(r"moves\s*:(.*)", re.IGNORECASE)


@dataclass(frozen=True)
class GameResult:
    """How a finished game ended: the winner (None for a draw) and the cells of the winning line."""

    winner: Mark | None
    line: tuple[int, ...]
    """The winning line's cells in order along the line; empty for a draw or a forfeit."""
    forfeit: str = ""
    """When the loser lost by a fault rather than on the board (an outside engine that failed:
    see `Game.forfeit`), why, in one sentence; else empty."""

    @property
    def is_draw(self) -> bool:
        """True when the board filled up without a winner."""
        return self.winner is None


class Game:
    """A game from its first move: the current board, the moves so far, undo and redo."""

    def __init__(self, size: int = 3, k: int | None = None, first: Mark = Mark.X) -> None:
        """A new game on an empty size x size board; k defaults to min(size, 5); `first` starts."""
        start = Board.empty(size, k, first)
        self.size = size
        self.k = start.k
        self.first = first
        # Every board from the start to now, so undo is a pop rather than a replay.
        self._boards: list[Board] = [start]
        self._moves: list[int] = []
        self._redo: list[int] = []
        self._forfeit: tuple[Mark, str] | None = None

    @property
    def board(self) -> Board:
        """The current board."""
        return self._boards[-1]

    @property
    def moves(self) -> tuple[int, ...]:
        """The cells played so far (0-based, row-major), in order."""
        return tuple(self._moves)

    @property
    def can_undo(self) -> bool:
        """True when at least one move has been played."""
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        """True when moves taken back by undo can be replayed."""
        return bool(self._redo)

    @property
    def is_over(self) -> bool:
        """True when someone has won, the board is full, or a player forfeited."""
        return self.board.is_over or self._forfeit is not None

    @property
    def result(self) -> GameResult | None:
        """The result once the game is over, else None."""
        board = self.board
        if self._forfeit is not None:
            loser, reason = self._forfeit
            return GameResult(loser.opponent, (), reason)
        if not board.is_over:
            return None
        return GameResult(board.winner, board.winning_line)

    def forfeit(self, loser: Mark, reason: str) -> None:
        """End the game now: `loser` loses by a fault (`reason`, one sentence), not on the
        board. Undo takes the forfeit back with the moves; IllegalMove if the game is over."""
        if self.is_over:
            raise IllegalMove("the game is over already")
        self._forfeit = (loser, reason)

    def play(self, move: int) -> Board:
        """Play `move` for the side to move and return the new board.

        Raises IllegalMove (and changes nothing) if the move is not legal. A new move abandons
        whatever undo had taken back, so the redo stack is cleared.
        """
        if self._forfeit is not None:
            raise IllegalMove("the game is over: a player forfeited")
        board = self.board.play(move)
        self._boards.append(board)
        self._moves.append(move)
        self._redo.clear()
        return board

    def undo(self) -> int:
        """Take back the last move and return it; IllegalMove if no move has been played."""
        if not self._moves:
            raise IllegalMove("nothing to undo: no move has been played")
        self._forfeit = None
        self._boards.pop()
        move = self._moves.pop()
        self._redo.append(move)
        return move

    def redo(self) -> int:
        """Replay the last move undo took back and return it; IllegalMove if there is none."""
        if not self._redo:
            raise IllegalMove("nothing to redo")
        move = self._redo.pop()
        self._boards.append(self.board.play(move))
        self._moves.append(move)
        return move

    def to_record(self) -> str:
        """The game as text in the format of this module's docstring; `from_record` reads it."""
        header = f"tictactoe {self.size}x{self.size} k={self.k} first={self.first.value}"
        moves = " ".join(str(m + 1) for m in self._moves)
        return f"{header}\nmoves: {moves}".rstrip() + "\n"

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Rebuild a game from `to_record`'s text.

        Raises ValueError for text that is not a record (naming what is wrong) and IllegalMove
        (a ValueError too) for a move the rules do not allow, saying which move it was.
        """
        lines = [ln.strip() for ln in text.splitlines()]
        lines = [ln for ln in lines if ln and not ln.startswith("#")]
        if not lines:
            raise ValueError(
                "empty game record: expected a line like "
                "'tictactoe 3x3 k=3 first=X' and a 'moves:' line"
            )
        header = _HEADER.fullmatch(lines[0])
        if header is None:
            raise ValueError(
                f"bad game record header {lines[0]!r}: expected something like "
                "'tictactoe 3x3 k=3 first=X'"
            )
        rows, cols, k, first = header.groups()
        if rows != cols:
            raise ValueError(f"the board must be square, not {rows}x{cols}")
        size = int(rows)
        geometry(size, int(k))  # validates size and k with the board's own message
        if len(lines) > 2:
            raise ValueError(f"unexpected line in game record: {lines[2]!r}")
        tokens: list[str] = []
        if len(lines) == 2:
            found = _MOVES.fullmatch(lines[1])
            if found is None:
                raise ValueError(
                    f"bad moves line {lines[1]!r}: expected 'moves: 5 1 9 ...' "
                    "(cells numbered from 1)"
                )
            tokens = found.group(1).split()
        game = cls(size, int(k), Mark(first.upper()))
        cells = size * size
        for number, token in enumerate(tokens, start=1):
            if not token.isdigit():
                raise ValueError(
                    f"move {number} of the record is {token!r}, not a cell number (1 to {cells})"
                )
            cell = int(token) - 1
            if not 0 <= cell < cells:
                raise IllegalMove(
                    f"move {number} of the record is cell {token}, off the board: "
                    f"cells are numbered 1 to {cells} on a {size}x{size} board"
                )
            try:
                game.play(cell)
            except IllegalMove as err:
                # The record's number once, then the name every message uses: "move 2 of
                # the record (5, that is B2) is illegal: B2 is already taken by X".
                raise IllegalMove(
                    f"move {number} of the record ({token}, that is "
                    f"{cell_notation(cell, size)}) is illegal: {err}"
                ) from err
        return game

    def __repr__(self) -> str:
        return f"Game.from_record({self.to_record()!r})"
