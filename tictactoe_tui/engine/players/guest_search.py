"""Our search with a learner's evaluation at the cut-off: `alphabeta:eval=FILE`, `minimax:eval=…`.

The search runs here, in the caller's process; the learner's `evaluate(board, player)` runs in
its own (`guest.GuestCode`). A search asks for one leaf at a time, and a round trip per leaf
would make a depth-2 search thousands of them, so `GuestEvaluator` asks first, in one
`evaluate_many` call, for every position the search can reach at its cut-off (every position
within `depth` plies of the root, while they number at most `PREFETCH_POSITIONS`), and answers
the search from that table. A position the search reaches past them (alpha-beta follows forced
lines beyond its depth; a time-limited search deepens on) costs one round trip, and is kept.

The search works in whole numbers, so the learner's value is rounded to the nearest one (and
the search keeps it inside the win/loss bands, as it does H1's). Whatever goes wrong in the
learner's code is a `GuestFault`: it propagates out of the search, and the game is a forfeit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from tictactoe_tui.engine.players.computer import Decision
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GuestCode, GuestFault
from tictactoe_tui.engine.rules.board import Board, Mark, cell_notation
from tictactoe_tui.engine.search.limits import NO_LIMITS, Limits
from tictactoe_tui.engine.search.types import Algorithm, describe_score

__all__ = ["PREFETCH_POSITIONS", "GuestEvaluator", "GuestSearchPlayer"]

PREFETCH_POSITIONS = 20_000
"""At most this many positions are asked for before a search (one call, one round trip)."""


class GuestEvaluator:
    """The learner's `evaluate` as the search's evaluator: a table filled in batches."""

    def __init__(self, code: GuestCode, should_stop: Callable[[], bool] | None = None) -> None:
        """Ask `code` for values; `should_stop` ends a call that waits (PlayerStopped)."""
        self.code = code
        self.should_stop = should_stop
        self.values: dict[tuple[Board, Mark], int] = {}
        self.calls = 0
        """Round trips made so far (one per batch or per position the batches missed)."""

    def prefetch(self, board: Board, depth: int | None) -> None:
        """Ask in one call for every position within `depth` plies of `board` (None: as deep
        as `PREFETCH_POSITIONS` allows), each seen from its side to move."""
        wanted: list[tuple[Board, Mark]] = []
        layer = [board]
        seen = {board}
        plies = 0
        while layer and (depth is None or plies < depth):
            following: list[Board] = []
            for position in layer:
                for move in position.legal_moves():
                    child = position.play(move)
                    if child in seen:
                        continue
                    seen.add(child)
                    following.append(child)
            live = [c for c in following if not c.is_over and (c, c.to_move) not in self.values]
            if len(wanted) + len(live) > PREFETCH_POSITIONS:
                break
            wanted.extend((c, c.to_move) for c in live)
            layer = following
            plies += 1
        self._ask(wanted)

    def _ask(self, items: list[tuple[Board, Mark]]) -> None:
        if not items:
            return
        self.calls += 1
        values = self.code.evaluate_many(items, self.should_stop)
        for item, value in zip(items, values, strict=True):
            self.values[item] = round(value)

    def __call__(self, board: Board, player: Mark) -> int:
        """The learner's value of `board` for `player`, rounded (asked now if not yet known)."""
        key = (board, player)
        if key not in self.values:
            self._ask([key])
        return self.values[key]


class GuestSearchPlayer:
    """Alpha-beta or minimax with the learner's `evaluate` at the cut-off (see the module)."""

    def __init__(
        self,
        path: str | Path,
        rng: random.Random,
        algorithm: str = Algorithm.ALPHABETA,
        depth: int | None = None,
        time_limit: float | None = None,
        call_time: float = DEFAULT_TIME,
    ) -> None:
        """Search `depth` plies (alpha-beta: or for `time_limit` seconds on big boards) with the
        file at `path`'s evaluation, each of its calls allowed `call_time` seconds a position."""
        if algorithm not in (Algorithm.ALPHABETA, Algorithm.MINIMAX):
            raise ValueError(
                f"only alphabeta and minimax search with your evaluation, not {algorithm}"
            )
        self.code = GuestCode(path, call_time)
        self.rng = rng
        self.algorithm = Algorithm(algorithm)
        self.depth = depth
        self.time_limit = time_limit
        label = "alpha-beta" if self.algorithm == Algorithm.ALPHABETA else "minimax"
        self.label = f"{label} with {self.code.name}"
        self.name = f"Clever ({self.label})"

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The search's best move, its leaves valued by the learner's `evaluate` (GuestFault
        when that code fails: it loses the game)."""
        if not self.code.provides().evaluate:
            raise GuestFault(
                f"{self.code.path.name} defines no evaluate(board, player) for the search",
                kind="missing",
            )
        depth = limits.depth if limits.depth is not None else self.depth
        evaluator = GuestEvaluator(self.code, limits.stopped)
        evaluator.prefetch(board, depth)
        should_stop, on_progress = limits.search_hooks()
        from tictactoe_tui.engine.search.api import alphabeta
        from tictactoe_tui.engine.search.minimax import minimax

        if self.algorithm == Algorithm.ALPHABETA:
            time_limit = limits.time if limits.time is not None else self.time_limit
            result = alphabeta(
                board,
                depth=depth,
                evaluate=evaluator,
                time_limit=time_limit if board.size > 3 else None,
                should_stop=should_stop,
                on_progress=on_progress,
            )
        else:
            result = minimax(
                board,
                depth=depth,
                evaluate=evaluator,
                should_stop=should_stop,
                on_progress=on_progress,
            )
        # A search stopped before its first move still plays: the first legal cell.
        move = result.move if result.move is not None else board.legal_moves()[0]
        words = describe_score(result.score, board, kind=result.kind, band=result.band)
        reason = f"{self.label}: {cell_notation(move, board.size)}, {words}"
        return Decision(
            move=move,
            clever=True,
            algorithm=self.algorithm,
            analysis=None,
            terms=None,
            reason=reason,
        )

    def close(self) -> None:
        """End the learner's process."""
        self.code.close()
