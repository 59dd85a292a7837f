"""What the search knows of each root move, and an iteration's moves ranked (see `pvs`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from tictactoe_tui.engine.search.kernel import EXACT, LOWER, UPPER
from tictactoe_tui.engine.search.tree import MATE, MATE_BAND
from tictactoe_tui.engine.search.types import Rule

FIXED, MAIN, FAR = 0, 1, 2
"""Kinds of root move: valued by a rule or a threat search; searched to the full depth; far from
every stone (one ply first, the full depth only if that looks promising)."""


@dataclass
class RootMove:
    """What the search knows of one root move."""

    move: int
    kind: int
    value: int = -MATE - 1
    """Internal score from the root's side to move."""
    bound: int = UPPER
    """EXACT, LOWER (the move is at least this good) or UPPER (at most this good)."""
    nodes: int = 0
    """Positions searched for this move, over all iterations."""
    line: tuple[int, ...] = ()
    """A line a threat search proved for this move, else empty (the table has the line)."""
    prior: int = 0
    """What the move gains in H1: among equal values, the move that does most ranks first (in
    a lost position, the one that blocks most, which makes the opponent find the win)."""
    depth: int = 0
    """Plies searched below the move for its current value (0: a rule, a threat search or a
    one-ply look)."""
    rule: Rule | None = None
    """For a move a rule or a threat search valued: which one (`types.Rule`), else None."""
    from_table: bool = False
    """True when every search of the move so far was answered at once by the table (an entry
    left by an earlier, deeper search of the game)."""

    @property
    def proven(self) -> bool:
        """True when the value is a proven win or loss (a bound on its distance)."""
        if self.value >= MATE_BAND:
            return self.bound != UPPER
        if self.value <= -MATE_BAND:
            return self.bound != LOWER
        return False


@dataclass(frozen=True)
class Iteration:
    """A completed depth: every root move with its value, best first."""

    depth: int
    moves: tuple[RootMove, ...]
    complete: bool
    """True when the root's value is proven: a win found, or every move a proven loss."""


_BOUND_ORDER = {EXACT: 2, LOWER: 1, UPPER: 0}
"""Among equal values, a known one first, then a lower bound, then an upper bound."""


def rank(root: RootMove) -> tuple[int, int, int, int, int]:
    """Sort key, bigger is better: proven wins first and proven losses last whatever their
    bounds, then the value, how well it is known, the move's gain and the lower cell."""
    group = 1
    if root.proven:
        group = 2 if root.value > 0 else 0
    return group, root.value, _BOUND_ORDER[root.bound], root.prior, -root.move


def snapshot(depth: int, roots: list[RootMove]) -> Iteration:
    """A frozen copy of the root moves, best first, and whether the root is solved."""
    ranked = sorted((replace(root) for root in roots), key=rank, reverse=True)
    complete = bool(ranked) and (
        (ranked[0].proven and ranked[0].value > 0)
        or all(root.proven and root.value < 0 for root in ranked)
    )
    return Iteration(depth, tuple(ranked), complete)
