"""A learner's file as a player: its `choose(board)`, or, with only `evaluate`, the clever rule.

`LearnerPlayer(path)` plays the moves of the learner's `choose(board)`. A file that defines only
`evaluate(board, player)` plays as the heuristic players do (seed 004's clever computer): win at
once if it can, else block the opponent's immediate win, else the move whose resulting board its
`evaluate` scores best from its own side, ties broken by the rng. The file runs as guest code
(`guest.GuestCode`): whatever goes wrong in it is a `GuestFault`, and the caller ends the game
as a forfeit with the fault's sentence, as for an outside engine.
"""

from __future__ import annotations

import random
from pathlib import Path

from tictactoe_tui.engine.evaluation.heuristics import heuristic_pick
from tictactoe_tui.engine.players.computer import Decision
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GUEST, GuestCode, GuestFault
from tictactoe_tui.engine.rules.board import Board, cell_notation
from tictactoe_tui.engine.search.limits import NO_LIMITS, Limits

__all__ = ["LearnerPlayer"]


class LearnerPlayer:
    """A learner's Python file playing (see the module docstring); `close()` ends its process."""

    def __init__(
        self, path: str | Path, rng: random.Random, time_limit: float | None = None
    ) -> None:
        """Play with the file at `path` (checked now: ValueError), `time_limit` seconds a call."""
        self.code = GuestCode(path, time_limit if time_limit is not None else DEFAULT_TIME)
        self.rng = rng
        self.name = self.code.name

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The learner's move (GuestFault when its code fails: it loses the game)."""
        provides = self.code.provides()
        if provides.choose:
            move = self.code.choose(board, limits.stopped)
            reason = f"{self.name}: choose() played {cell_notation(move, board.size)}"
        elif provides.evaluate:
            move, reason = self._by_evaluation(board, limits)
        else:  # the host refuses such a file, so this cannot happen
            raise GuestFault(f"{self.code.path.name} defines neither evaluate nor choose")
        return Decision(
            move=move, clever=True, algorithm=GUEST, analysis=None, terms=None, reason=reason
        )

    def _by_evaluation(self, board: Board, limits: Limits) -> tuple[int, str]:
        me = board.to_move
        moves = board.legal_moves()
        values = self.code.evaluate_many([(board.play(m), me) for m in moves], limits.stopped)
        by_move = dict(zip(moves, values, strict=True))
        pick = heuristic_pick(board, by_move.__getitem__)
        move = self.rng.choice(pick.moves)
        if pick.rule == "win":
            return move, f"{self.name}: wins at once"
        if pick.rule == "block":
            return move, f"{self.name}: blocks {me.opponent} at {cell_notation(move, board.size)}"
        return move, f"{self.name}: best evaluate() value {by_move[move]:g}"

    def close(self) -> None:
        """End the learner's process."""
        self.code.close()
