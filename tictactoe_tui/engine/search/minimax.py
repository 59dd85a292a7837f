"""Plain, unpruned minimax: the reference search that visits and counts every position.

The inner loop is `kernel.Minimax` on raw bitboard ints; this module drives it one root move at a
time (so a stopped search keeps the moves it scored) and packages the results. It is full width
on every board (every empty cell at every node), so its values are the reference the lab judges
the other searches by; on a big board only a depth and its time limit keep it finite, and a
search the clock stops says how many root moves it scored (`Analysis.scores`).

Its scores say what they are: a full search gives exact values; a depth-limited one gives exact
wins and losses (full width finds the fastest win within the depth and the longest loss) and
estimates otherwise, each searched `depth - 1` plies below the move.
"""

from __future__ import annotations

import time

from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import Evaluator, Stopped, Tracker
from tictactoe_tui.engine.search.types import (
    Algorithm,
    Analysis,
    MoveScore,
    ProgressCallback,
    Rule,
    SearchResult,
    Source,
    StopCheck,
    over_result,
    proven_best,
    ranked,
    win_score,
)


def _plain_minimax(
    board: Board, depth: int | None, evaluate: Evaluator | None, should_stop: StopCheck | None
) -> tuple[fs.Minimax, int | None, int]:
    """An unpruned searcher for `board`, its depth limit (None: to the end) and the empty cells.

    The limit is dropped when the game cannot last that long, so such a search counts as full.
    """
    sh = fs.shape(board.size, board.k)
    empties = sh.cells - board.move_count
    limit = depth if depth is not None and depth < empties else None
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    return fs.Minimax(sh, poller, limit, evaluate, board.to_move), limit, empties


def _mover_bits(board: Board) -> tuple[int, int]:
    return board.bits(board.to_move), board.bits(board.to_move.opponent)


def minimax(
    board: Board,
    depth: int | None = None,
    evaluate: Evaluator | None = None,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """Plain, unpruned minimax (negamax form): visits and counts every node of the tree.

    With `depth`, positions `depth` plies deep are scored by `evaluate` (H1 by default) seen from
    the side to move there, clamped inside the win/loss bands. `nodes` counts the root and every
    position below it (549,946 from the empty 3x3 board). With `time_limit` (seconds) the search
    stops when the time runs out: the result is then the best of the root moves searched in full
    so far, with `complete=False` (`trace.tree_size` tells how big the whole tree is).
    """
    start = time.perf_counter()
    if board.is_over:
        return over_result(board, start)
    run = _MinimaxRoots(board, depth, evaluate, should_stop, time_limit, start, on_progress)
    run.search()
    if not run.scores:
        return SearchResult(
            move=board.legal_moves()[0],
            score=0,
            nodes=run.poller.nodes,
            elapsed=time.perf_counter() - start,
            depth=0,
            pv=(),
            complete=False,
            cancelled=run.poller.cancelled,
        )
    order = ranked(run.scores)
    best = order[0]
    # A win or loss found within the depth is the game's value: the losing side had no move
    # that survived past the cut-off, or it would have chosen it.
    proven = run.finished and proven_best(order)
    return SearchResult(
        move=best.move,
        score=best.score,
        nodes=run.poller.nodes,
        elapsed=time.perf_counter() - start,
        depth=run.depth,
        pv=best.pv,
        complete=proven,
        cancelled=run.poller.cancelled,
        kind=best.kind,
        band=best.band,
        iterations=tuple(run.tracker.iterations),
    )


class _MinimaxRoots:
    """Unpruned minimax one root move at a time, so a stopped search keeps the moves it scored."""

    def __init__(
        self,
        board: Board,
        depth: int | None,
        evaluate: Evaluator | None,
        should_stop: StopCheck | None,
        time_limit: float | None,
        start: float,
        on_progress: ProgressCallback | None,
    ) -> None:
        self.board = board
        self.engine, self.limit, self.empties = _plain_minimax(board, depth, evaluate, should_stop)
        self.poller = self.engine.poller
        if time_limit is not None:
            self.poller.deadline = start + time_limit
        self.tracker = Tracker(self.poller, start, on_progress)
        self.depth = self.empties if self.limit is None else self.limit
        self.scores: list[MoveScore] = []
        self.finished = False

    def search(self) -> None:
        """Score every root move; the root itself counts as one node."""
        board, search, poller = self.board, self.engine, self.poller
        sh = search.sh
        me, opp = _mover_bits(board)
        big = win_score(board)
        poller.nodes += 1
        best = -big - 1
        below = self.depth - 1
        for move in board.legal_moves():
            before = poller.nodes
            bit = 1 << move
            try:
                if fs.completes_line(sh, me | bit, move):
                    poller.nodes += 1
                    scored = MoveScore(
                        move,
                        big - 1,
                        poller.nodes - before,
                        True,
                        (move,),
                        source=Source.RULE,
                        rule=Rule.WINS_AT_ONCE,
                    )
                else:
                    score = -search.value(opp, me | bit, 1)
                    exact = self.limit is None or abs(score) >= big - self.limit
                    scored = MoveScore(
                        move,
                        score,
                        poller.nodes - before,
                        exact,
                        (move, *search.pv[1]),
                        depth=below,
                    )
            except Stopped:
                return
            self.scores.append(scored)
            if scored.score > best:
                best = scored.score
                self.tracker.best_so_far(move, scored.score, scored.pv, scored.kind, scored.band)
        self.finished = True
        order = ranked(self.scores)
        top = order[0]
        self.tracker.reached(
            self.depth,
            top.move,
            top.score,
            top.pv,
            proven_best(order),
            top.kind,
            top.band,
            top.source,
        )


def analyse_minimax(
    board: Board,
    depth: int | None,
    should_stop: StopCheck | None,
    start: float,
    on_progress: ProgressCallback | None,
    time_limit: float | None,
) -> Analysis:
    """Every legal move's minimax value (see `minimax`), best first, with the search's totals."""
    run = _MinimaxRoots(board, depth, None, should_stop, time_limit, start, on_progress)
    run.search()
    order = ranked(run.scores)
    return Analysis(
        Algorithm.MINIMAX,
        order,
        run.poller.nodes,
        time.perf_counter() - start,
        run.depth,
        run.finished and proven_best(order),
        run.poller.cancelled,
        iterations=tuple(run.tracker.iterations),
    )
