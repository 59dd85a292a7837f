"""Iterative deepening of one position for the API (`Deepening`): the time a search gets, the
tables one game's searches share (`SearchMemory`), and each completed depth's root moves as
public scores."""

from __future__ import annotations

import time

from tictactoe_tui.engine.proofs.solver import SOLVE_MAX_EMPTY
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.claims import root_claim
from tictactoe_tui.engine.search.kernel import Evaluator, Tracker
from tictactoe_tui.engine.search.limits import DEFAULT_TIME_LIMIT
from tictactoe_tui.engine.search.pvs import (
    MATE,
    ROOT_VCT_NODES_PER_SECOND,
    Iteration,
    RootMove,
    Searcher,
    is_mate,
)
from tictactoe_tui.engine.search.types import (
    THREAT_RULES,
    MoveScore,
    Source,
    equally_good,
    rank_key,
)

FULL_SOLVE_MAX_EMPTY = SOLVE_MAX_EMPTY
"""Positions with at most this many empty cells are solved to the end when no limit is given."""


def time_limit_for(board: Board, depth: int | None, time_limit: float | None) -> float | None:
    """The time limit to use: the default one on boards too big to solve without limits."""
    empties = board.size * board.size - board.move_count
    if depth is None and time_limit is None and empties > FULL_SOLVE_MAX_EMPTY:
        return DEFAULT_TIME_LIMIT
    return time_limit


class SearchMemory:
    """Tables the searches of one game share: give the same memory for every move of a game.

    The transposition table, the killer and history tables and the threat-search table are kept
    from one search to the next, so each move starts from what the last ones learnt. Only the
    depth-limited search uses it (exact solving starts afresh); one memory serves any board
    shape, keeping the tables of the last one.
    """

    def __init__(self) -> None:
        """No tables yet: the first search builds them."""
        self._searcher: Searcher | None = None

    def __getstate__(self) -> dict[str, None]:
        """Tables stay in the process that built them: a copy sent elsewhere starts empty (a
        player pickled to a worker process would otherwise carry megabytes with every move)."""
        return {"_searcher": None}

    def __setstate__(self, state: dict[str, None]) -> None:
        """An empty memory (see `__getstate__`)."""
        self._searcher = None

    def searcher(self, board: Board) -> Searcher:
        """The searcher for `board`'s shape, kept if the shape is the one searched last."""
        kept = self._searcher
        if kept is None or (kept.tree.shape.size, kept.tree.shape.k) != (board.size, board.k):
            kept = Searcher(board.size, board.k)
            self._searcher = kept
        return kept


THREAT_SHARE = 0.25
"""At most this share of a time limit goes to the threat searches before the first iteration."""


class Deepening:
    """Iterative deepening of one position; keeps the last completed iteration as MoveScores."""

    def __init__(
        self,
        board: Board,
        depth: int | None,
        time_limit: float | None,
        evaluate: Evaluator | None,
        poller: fs.Poller,
        tracker: Tracker,
        start: float,
        memory: SearchMemory | None,
    ) -> None:
        self.board = board
        self.poller = poller
        self.tracker = tracker
        self.time_limit = time_limit
        self.start = start
        self.searcher = (
            memory.searcher(board)
            if memory is not None and evaluate is None
            else Searcher(board.size, board.k, evaluate)
        )
        self.empties = board.size * board.size - board.move_count
        self.max_depth = self.empties if depth is None else min(depth, self.empties)
        self.last: Iteration | None = None
        self.needs_solve = False

    def run(self) -> None:
        """Deepen until the depth, the deadline or a proof; `Stopped` may end it early."""
        poller = self.poller
        deadline = None if self.time_limit is None else self.start + self.time_limit
        # After the exact solver's share the deepening has only the rest of the clock: its
        # threat searches get their share of that rest, not a deadline the solver has passed.
        now = time.perf_counter()
        left = None if deadline is None else max(deadline - now, 0.0)
        threat_deadline = None if left is None else now + THREAT_SHARE * left
        # Beyond a couple of seconds a longer VCT rarely pays: the deepening gets the time.
        vct_nodes = int(ROOT_VCT_NODES_PER_SECOND * min(1.0 if left is None else left, 2.0))
        # The last ply of a small board is left to the exact solver, which also proves draws.
        deepest = self.max_depth if self.max_depth < self.empties else self.empties - 1
        for iteration in self.searcher.deepen(
            self.board, poller, max(deepest, 1), vct_nodes, threat_deadline, deadline
        ):
            self.last = iteration
            best = self.move_score(self.best(iteration), iteration.depth)
            self.tracker.reached(
                iteration.depth,
                best.move,
                best.score,
                best.pv,
                iteration.complete,
                best.kind,
                best.band,
                best.source,
            )
            # Depth 1 always completes so there is a move to return; later ones race the clock.
            poller.deadline = deadline
        last = self.last
        self.needs_solve = last is not None and not last.complete and self.max_depth >= self.empties

    def best(self, iteration: Iteration) -> RootMove:
        """The iteration's best move as the public ranking sees it (`rank_key`; among equals,
        the search's order). Only moves with the first one's value can differ: the search
        ranks proofs and values alike, and among equal values a proven exact one comes first."""
        top = iteration.moves[0]
        level = [
            root for root in iteration.moves if (root.value, root.proven) == (top.value, top.proven)
        ]
        if len(level) == 1:
            return top
        claims = [self.move_score(root, iteration.depth, False) for root in level]
        best = max(range(len(claims)), key=lambda index: rank_key(claims[index]))
        return level[best]

    def move_score(self, root: RootMove, depth: int, with_line: bool = True) -> MoveScore:
        """A root move as a public score with its expected line (see `root_claim`)."""
        plies = MATE - abs(root.value) if is_mate(root.value) else depth
        line = root.line or (
            self.searcher.line_after(root.move, max(plies, 1)) if with_line else (root.move,)
        )
        kind, band, score = root_claim(root, self.board)
        source = (
            Source.THREATS
            if root.rule in THREAT_RULES
            else Source.RULE
            if root.rule
            else Source.TABLE
            if root.from_table
            else Source.SEARCH
        )
        return MoveScore(
            root.move,
            score,
            max(root.nodes, 0),
            None,
            line,
            kind,
            root.depth,
            source,
            band,
            root.rule,
        )

    def scores(self) -> list[MoveScore]:
        """The last completed iteration's moves as public scores, in the search's order."""
        if self.last is None:
            return []
        return [self.move_score(root, self.last.depth) for root in self.last.moves]

    def ties(self, order: tuple[MoveScore, ...]) -> tuple[int, ...]:
        """The moves as good as the first of `order` (ranked public scores): the same exact
        value, or the same estimate and the same gain in H1 (an estimate's clamped number can
        hide a difference, so a player picks among moves that do as much)."""
        if not order or self.last is None:
            return ()
        prior = {root.move: root.prior for root in self.last.moves}
        top = order[0]
        return (
            top.move,
            *(
                m.move
                for m in order[1:]
                if equally_good(m, top) and (m.exact or prior[m.move] == prior[top.move])
            ),
        )
