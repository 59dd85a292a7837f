"""A learner's evaluation beside H1 and H2, move by move: what `analyse --eval FILE` shows.

For every legal move of a position, the value of the board after it, seen from the player who
made it (the mover), by H1, by H2 and by the learner's `evaluate(board, player)`: the one-ply
look the heuristic players (and the heuristic lab) rank moves by. The learner's values come from
its file run as guest code (`players.guest`), all of them in one call; whatever goes wrong in
the file is a `GuestFault`, and its process has ended either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tictactoe_tui.engine.evaluation.heuristics import h1, h2
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GuestCode
from tictactoe_tui.engine.rules.board import Board

__all__ = ["MoveValues", "OnePly", "one_ply_values"]


@dataclass(frozen=True)
class MoveValues:
    """One move's one-ply values, for the mover: the board after the move by each evaluation."""

    move: int
    h1: int
    h2: int
    yours: float


@dataclass(frozen=True)
class OnePly:
    """Every legal move's values (in cell order), and the learner's evaluation's name."""

    name: str
    """ "yours: FILE", as the screens name it."""
    path: Path
    moves: tuple[MoveValues, ...]

    def of(self, move: int) -> MoveValues:
        """The values of `move` (KeyError if it is not a legal move of the position)."""
        for values in self.moves:
            if values.move == move:
                return values
        raise KeyError(move)


def one_ply_values(board: Board, path: str | Path, call_time: float = DEFAULT_TIME) -> OnePly:
    """H1, H2 and the file at `path`'s `evaluate` on the board after each legal move of
    `board`, for its side to move (`call_time` seconds a position; GuestFault when it fails,
    also on a finished board, which has no move: the file is loaded and checked all the same)."""
    code = GuestCode(path, call_time)
    mover = board.to_move
    moves = board.legal_moves()
    try:
        values = code.evaluate_many([(board.play(move), mover) for move in moves])
    finally:
        code.close()
    rows = tuple(
        MoveValues(move, h1(board.play(move), mover), h2(board.play(move), mover), value)
        for move, value in zip(moves, values, strict=True)
    )
    return OnePly(code.name, code.path, rows)
