"""The search API: alpha-beta (with its solver), and the per-move analysis the panel shows.

Scores are on the public scale of `types`. The inner loops live in `kernel`, `pvs` and `solver`
and work on raw bitboard ints; this module turns a `Board` into those ints, drives the searches
(iterative deepening, exact solving under a clock) and packages results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

from tictactoe_tui.engine import kernel as fs
from tictactoe_tui.engine.board import Board
from tictactoe_tui.engine.evaluate import h1, h2
from tictactoe_tui.engine.kernel import Evaluator, Stopped, Tracker
from tictactoe_tui.engine.minimax import analyse_minimax
from tictactoe_tui.engine.pvs import (
    MATE,
    MATE_BAND,
    ROOT_VCT_NODES_PER_SECOND,
    Iteration,
    RootMove,
    Searcher,
    is_mate,
)
from tictactoe_tui.engine.solver import (
    SOLVE_MAX_EMPTY,
    Bounds,
    RootSolver,
    Solver,
    full_bounds,
    solvable,
    solver_share,
)
from tictactoe_tui.engine.types import (
    Analysis,
    MoveScore,
    Progress,
    ProgressCallback,
    SearchResult,
    StopCheck,
    over_result,
    ranked,
    win_score,
)

__all__ = [
    "ALGORITHMS",
    "DEFAULT_TIME_LIMIT",
    "SearchMemory",
    "alphabeta",
    "analyse",
    "analyse_position",
]

ALGORITHMS = ("minimax", "alphabeta", "h1", "h2")
"""The names `analyse` accepts."""

DEFAULT_TIME_LIMIT = 1.0
"""Seconds alpha-beta allows itself when given neither a depth nor a time limit on a board too
big to solve (more than `FULL_SOLVE_MAX_EMPTY` empty cells): it must never hang the caller."""

FULL_SOLVE_MAX_EMPTY = SOLVE_MAX_EMPTY
"""Positions with at most this many empty cells are solved to the end when no limit is given."""


def _first_guess(board: Board, sh: fs.Shape) -> int:
    """Some legal move to return when a search is cancelled before finishing any depth."""
    empty = sh.full & ~(board.x_bits | board.o_bits)
    return next(cell for cell in sh.order if empty >> cell & 1)


def _limits(board: Board, depth: int | None, time_limit: float | None) -> float | None:
    """The time limit to use: the default one on boards too big to solve without limits."""
    empties = board.size * board.size - board.move_count
    if depth is None and time_limit is None and empties > FULL_SOLVE_MAX_EMPTY:
        return DEFAULT_TIME_LIMIT
    return time_limit


def alphabeta(board: Board, depth: int | None = None, evaluate: Evaluator | None = None,
              time_limit: float | None = None,
              should_stop: StopCheck | None = None,
              on_progress: ProgressCallback | None = None,
              memory: SearchMemory | None = None) -> SearchResult:
    """Alpha-beta with move ordering, a transposition table, threat search and iterative deepening.

    With neither `depth` nor `time_limit` the position is solved to the end (on boards with more
    than `FULL_SOLVE_MAX_EMPTY` empty cells a `DEFAULT_TIME_LIMIT` applies instead). Otherwise
    iterative deepening (principal variation search, see `pvs`) runs until `depth` or the time
    limit, and the result is the best move of the deepest completed iteration. Each call starts
    with empty tables unless a `memory` from earlier searches of the same game is given.
    `on_progress` hears how far the search got at each completed depth and every 100 ms.
    """
    start = time.perf_counter()
    if board.is_over:
        return over_result(board, start)
    time_limit = _limits(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = Tracker(poller, start, on_progress)
    # Built on first use: its symmetry tables cost a fraction of a second on a big board.
    bounds = full_bounds(sh)
    exact = cache(lambda: RootSolver(board, Solver(sh, poller), _bounds_listener(tracker),
                                     bounds))

    def result(score: int, move: int, done: int, complete: bool, pv: tuple[int, ...],
               cancelled: bool = False) -> SearchResult:
        if not complete and bounds.lo >= 1 and bounds.move >= 0:
            # The solver proved a win before the clock ran out, without its distance yet: play
            # the winning move; its score is the proven bound, an estimate of the distance.
            score, move, pv = bounds.lo, bounds.move, exact().walk_pv(bounds.move, 1)
        return SearchResult(move=move, score=score, nodes=poller.nodes,
                            elapsed=time.perf_counter() - start, depth=done, pv=pv,
                            complete=complete, cancelled=cancelled)

    def solved() -> SearchResult:
        score, move = exact().solve()
        pv = exact().walk_pv(move, exact().empties)
        tracker.reached(exact().empties, move, score, pv, True)
        return result(score, move, exact().empties, True, pv)

    if depth is None and (time_limit is None or solvable(board)):
        # Small boards are solved first, with the same table and cuts as without a clock; the
        # depth-limited search only gets the time the solver leaves, to find a move.
        if time_limit is not None:
            poller.deadline = start + solver_share(board) * time_limit
        try:
            return solved()
        except Stopped:
            if poller.cancelled or time_limit is None:
                return result(0, _first_guess(board, sh), 0, False, (), cancelled=True)
        poller.deadline, poller.timed_out = None, False
    deepening = _Deepening(board, depth, time_limit, evaluate, poller, tracker, start, memory)
    try:
        deepening.run()
        if deepening.needs_solve:
            return solved()
    except Stopped:
        pass
    last = deepening.last
    if last is None:
        return result(0, _first_guess(board, sh), 0, False, (), cancelled=True)
    best = deepening.move_score(last.moves[0], last.depth)
    return result(best.score, best.move, last.depth, last.complete, best.pv,
                  cancelled=poller.cancelled)


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
        if kept is None or (kept.shape.size, kept.shape.k) != (board.size, board.k):
            kept = Searcher(board.size, board.k)
            self._searcher = kept
        return kept


THREAT_SHARE = 0.25
"""At most this share of a time limit goes to the threat searches before the first iteration."""


class _Deepening:
    """Iterative deepening of one position; keeps the last completed iteration as MoveScores."""

    def __init__(self, board: Board, depth: int | None, time_limit: float | None,
                 evaluate: Evaluator | None, poller: fs.Poller, tracker: Tracker,
                 start: float, memory: SearchMemory | None) -> None:
        self.board = board
        self.poller = poller
        self.tracker = tracker
        self.time_limit = time_limit
        self.start = start
        self.searcher = (memory.searcher(board) if memory is not None and evaluate is None
                         else Searcher(board.size, board.k, evaluate))
        self.empties = board.size * board.size - board.move_count
        self.max_depth = self.empties if depth is None else min(depth, self.empties)
        self.last: Iteration | None = None
        self.needs_solve = False

    def run(self) -> None:
        """Deepen until the depth, the deadline or a proof; `Stopped` may end it early."""
        poller = self.poller
        deadline = None if self.time_limit is None else self.start + self.time_limit
        threat_deadline = (None if self.time_limit is None
                           else self.start + THREAT_SHARE * self.time_limit)
        # Beyond a couple of seconds a longer VCT rarely pays: the deepening gets the time.
        vct_nodes = int(ROOT_VCT_NODES_PER_SECOND * min(self.time_limit or 1.0, 2.0))
        # The last ply of a small board is left to the exact solver, which also proves draws.
        deepest = self.max_depth if self.max_depth < self.empties else self.empties - 1
        for iteration in self.searcher.deepen(self.board, poller, max(deepest, 1), vct_nodes,
                                              threat_deadline):
            self.last = iteration
            if self.tracker.wanted:
                best = self.move_score(iteration.moves[0], iteration.depth)
                self.tracker.reached(iteration.depth, best.move, best.score, best.pv,
                                     iteration.complete)
            # Depth 1 always completes so there is a move to return; later ones race the clock.
            poller.deadline = deadline
        last = self.last
        self.needs_solve = (last is not None and not last.complete
                            and self.max_depth >= self.empties)

    def move_score(self, root: RootMove, depth: int) -> MoveScore:
        """A root move as a public score with its expected line."""
        plies = MATE - abs(root.value) if is_mate(root.value) else depth
        line = root.line or self.searcher.line_after(root.move, max(plies, 1))
        return MoveScore(root.move, public_score(root.value, self.board, depth),
                         max(root.nodes, 0), root.proven, line)

    def scores(self) -> list[MoveScore]:
        """The last completed iteration's moves as public scores, best first."""
        if self.last is None:
            return []
        return [self.move_score(root, self.last.depth) for root in self.last.moves]


def public_score(value: int, board: Board, depth: int) -> int:
    """A `pvs` score on the public scale: a win on ply d is W - d; heuristics inside the bands."""
    big = win_score(board)
    if value >= MATE_BAND:
        return big - (MATE - value)
    if value <= -MATE_BAND:
        return -(big - (MATE + value))
    cap = max(big - depth - 2, 0)
    return max(-cap, min(cap, value))


# -- analysis -----------------------------------------------------------------------------------


def analyse(board: Board, algorithm: str = "alphabeta", depth: int | None = None,
            time_limit: float | None = None,
            should_stop: StopCheck | None = None,
            on_progress: ProgressCallback | None = None) -> list[MoveScore]:
    """One score per legal move for the player to move, best first (ties by cell)."""
    return list(analyse_position(board, algorithm, depth, time_limit, should_stop,
                                 on_progress).scores)


def analyse_position(board: Board, algorithm: str = "alphabeta", depth: int | None = None,
                     time_limit: float | None = None,
                     should_stop: StopCheck | None = None,
                     on_progress: ProgressCallback | None = None,
                     memory: SearchMemory | None = None) -> Analysis:
    """Score every legal move with `algorithm` (one of `ALGORITHMS`), with totals.

    Full searches give each move its exact value (not a bound). "h1"/"h2" give the heuristic of
    the board after each move, from the mover's side (a move that wins at once scores W - 1).
    When cancelled, the moves scored so far are returned with `cancelled=True`. Each score
    carries its expected line (`MoveScore.pv`); `on_progress` hears how the search goes.

    A depth-limited alpha-beta analysis costs about what finding the best move costs: the best
    move gets an exact (heuristic or proven) value, every other move the bound that showed it is
    not better (principal variation search), so an estimate's score is at most what the move is
    worth; proven wins and losses are marked `exact` and rank above and below every estimate.
    `memory` (alpha-beta only) keeps the search's tables between the moves of one game.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}: use one of {', '.join(ALGORITHMS)}")
    start = time.perf_counter()
    if board.is_over:
        return Analysis(algorithm, (), 0, 0.0, 0, True, False)
    if algorithm in ("h1", "h2"):
        analysis = _analyse_heuristic(board, algorithm, start)
        if on_progress is not None and analysis.scores:
            best = analysis.scores[0]
            on_progress(Progress(1, analysis.nodes, analysis.elapsed, best.move, best.score,
                                 best.pv, False))
        return analysis
    if algorithm == "minimax":
        return analyse_minimax(board, depth, should_stop, start, on_progress, time_limit)
    return _analyse_alphabeta(board, depth, time_limit, should_stop, start, on_progress, memory)


def _analyse_heuristic(board: Board, algorithm: str, start: float) -> Analysis:
    heuristic = h1 if algorithm == "h1" else h2
    big = win_score(board)
    mover = board.to_move
    scores = []
    for move in board.legal_moves():
        after = board.play(move)
        if after.winner is not None:
            scores.append(MoveScore(move, big - 1, 1, True, (move,)))
        elif after.is_full:
            scores.append(MoveScore(move, 0, 1, True, (move,)))
        else:
            # Kept below an immediate win so that a win always ranks first.
            value = max(-(big - 2), min(big - 2, heuristic(after, mover)))
            scores.append(MoveScore(move, value, 1, False, (move,)))
    return Analysis(algorithm, ranked(scores), len(scores), time.perf_counter() - start, 1,
                    False, False)


def _bounds_listener(tracker: Tracker) -> Callable[[Bounds], None]:
    """Tell the tracker the best move a solve has proven so far, for the progress reports."""

    def heard(bounds: Bounds) -> None:
        if bounds.move >= 0:
            tracker.best_so_far(bounds.move, bounds.lo, (bounds.move,))

    return heard


def _with_bounds(estimate: MoveScore, exact: RootSolver) -> MoveScore:
    """A depth-limited score of a move, corrected by what the solver proved about it.

    A settled move gets its exact value. A move proven to win (or lose) whose distance is not
    known yet scores the proven bound. A move proven not to win, but not yet to draw, scores at
    most -1 when another move is proven to draw at least, so that the proven draw ranks above
    it. All of these but the first stay estimates.
    """
    move = estimate.move
    bounds = exact.moves[move]
    nodes = estimate.nodes + exact.spent[move]
    if bounds.exact:
        return MoveScore(move, bounds.lo, nodes, True, exact.walk_pv(move, exact.empties))
    if estimate.exact:
        return MoveScore(move, estimate.score, nodes, True, estimate.pv)
    score = estimate.score
    if bounds.lo >= 1:
        score = bounds.lo
    elif bounds.hi < 0:
        score = bounds.hi
    elif bounds.hi == 0 and any(other.lo >= 0 for other in exact.moves.values()):
        score = min(score, -1)
    return MoveScore(move, score, nodes, False, estimate.pv)


def _analyse_alphabeta(board: Board, depth: int | None, time_limit: float | None,
                       should_stop: StopCheck | None, start: float,
                       on_progress: ProgressCallback | None,
                       memory: SearchMemory | None) -> Analysis:
    time_limit = _limits(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = Tracker(poller, start, on_progress)
    moves = board.legal_moves()
    made: list[RootSolver] = []
    solver_ran = False

    def exact() -> RootSolver:
        # Built on first use: its tables cost time on a big board the solver never sees.
        if not made:
            made.append(RootSolver(board, Solver(sh, poller), _bounds_listener(tracker)))
        return made[0]

    def solved() -> list[MoveScore]:
        if not made:
            return []
        return [MoveScore(move, exact().moves[move].lo, exact().spent[move], True,
                          exact().walk_pv(move, exact().empties))
                for move in moves if exact().moves[move].exact]

    def solve_all() -> list[MoveScore]:
        # The position's value and best move first, as `alphabeta` finds them (the player needs
        # no more), then the exact value of every other move for the panel.
        exact().solve()
        exact().settle()
        return solved()

    def finish(scores: list[MoveScore], done: int, complete: bool, cancelled: bool) -> Analysis:
        order = ranked(scores)
        if order and not cancelled:
            best = order[0]
            tracker.reached(done, best.move, best.score, best.pv, complete)
        return Analysis("alphabeta", order, poller.nodes, time.perf_counter() - start, done,
                        complete, cancelled)

    if depth is None and (time_limit is None or solvable(board)):
        # As in `alphabeta`: small boards are solved first, the depth-limited search gets the
        # rest of the time and gives estimates for the moves the solver did not settle.
        solver_ran = True
        if time_limit is not None:
            poller.deadline = start + solver_share(board) * time_limit
        try:
            return finish(solve_all(), exact().empties, True, False)
        except Stopped:
            if poller.cancelled or time_limit is None:
                return finish(solved(), 0, False, True)
        poller.deadline, poller.timed_out = None, False
    deepening = _Deepening(board, depth, time_limit, None, poller, tracker, start, memory)
    try:
        deepening.run()
        if deepening.needs_solve:
            return finish(solve_all(), exact().empties, True, False)
    except Stopped:
        pass
    last = deepening.last
    if last is None:
        return finish(solved(), 0, False, True)
    if solver_ran:
        # The solver's proofs correct the estimates; proofs and estimates rank by `_ranked`.
        scores = [_with_bounds(m, exact()) for m in deepening.scores()]
        return Analysis("alphabeta", ranked(scores), poller.nodes, time.perf_counter() - start,
                        last.depth, last.complete or all(m.exact for m in scores),
                        poller.cancelled)
    # The search's own order: a proven win ranks above any estimate whatever the numbers.
    top = last.moves[0]
    tied = tuple(root.move for root in last.moves
                 if (root.value, root.proven, root.prior) == (top.value, top.proven, top.prior))
    return Analysis("alphabeta", tuple(deepening.scores()), poller.nodes,
                    time.perf_counter() - start, last.depth, last.complete, poller.cancelled,
                    tied)
