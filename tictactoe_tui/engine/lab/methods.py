"""The lab's algorithms as switches: which of the classic ideas each search uses (`Method`).

Each lab algorithm is the one negamax searcher (`searcher.LabSearcher`) with some of pruning,
move ordering and a transposition table switched on, and a heuristic at its depth cut-off;
`METHODS` names them, `LAB_ALGORITHMS` lists them in the compare table's order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tictactoe_tui.engine.rules.board import Board, Mark

LeafValue = Callable[[Board, Mark], int]
"""An evaluation brought by the caller: a position's worth for the player given (its side to
move at the cut-off), as `h1(board, player)` is."""

LAB_ALGORITHMS = ("minimax", "alphabeta-plain", "alphabeta-ordered", "alphabeta-tt", "h1", "h2")
"""The lab's algorithms, in the order the compare table lists them."""

YOURS = "yours"
"""The lab's H1 search with the caller's evaluation at the cut-off (a learner's `evaluate`):
not one of `LAB_ALGORITHMS`, it runs only when asked for, with its `leaf_value`."""

HEURISTIC_DEPTH = 2
"""Plies the h1 and h2 searches look ahead unless told otherwise: the move and the reply."""

NEAR_STONES = "near stones only"
"""The rule by which the alpha-betas leave moves out on boards bigger than 6×6: only the empty
cells next to a mark are searched (the centre when there is no mark)."""


@dataclass(frozen=True)
class Method:
    """Which of the classic ideas a lab search uses."""

    name: str
    prune: bool
    """Alpha-beta pruning (False: plain minimax, every node)."""
    order: bool
    """Try winning moves, then blocks, then the moves H1 likes best, first."""
    table: bool
    """A transposition table of values and bounds, keyed up to the board's symmetries."""
    heuristic: str = "h1"
    """What scores a position at the depth cut-off: "h1", "h2" or `YOURS` (the caller's)."""
    default_depth: int | None = None
    """Plies searched when the caller gives no depth; None means to the end of the game."""


METHODS: dict[str, Method] = {
    "minimax": Method("minimax", prune=False, order=False, table=False),
    "alphabeta-plain": Method("alphabeta-plain", prune=True, order=False, table=False),
    "alphabeta-ordered": Method("alphabeta-ordered", prune=True, order=True, table=False),
    "alphabeta-tt": Method("alphabeta-tt", prune=True, order=True, table=True),
    "h1": Method(
        "h1", prune=True, order=True, table=False, heuristic="h1", default_depth=HEURISTIC_DEPTH
    ),
    "h2": Method(
        "h2", prune=True, order=True, table=False, heuristic="h2", default_depth=HEURISTIC_DEPTH
    ),
    YOURS: Method(
        YOURS, prune=True, order=True, table=False, heuristic=YOURS, default_depth=HEURISTIC_DEPTH
    ),
}
"""Each lab algorithm by name."""
