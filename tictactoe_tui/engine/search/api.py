"""The search API: the public entry points of the searches, alpha-beta (with its solver) and the
per-move analysis the panel shows.

Scores are on the public scale of `types`. The inner loops live in `kernel`, `pvs` and `solver`
and work on raw bitboard ints; this module turns a `Board` into those ints, drives the searches
(iterative deepening, exact solving under a clock) and packages results. Their parts have rooms
of their own: `deepening` (iterative deepening of one position, the tables of one game),
`analyses` (each algorithm's analysis), `solver_scores` (the exact solver's proofs as scores)
and `claims` (what a root move's value says).
"""

from __future__ import annotations

import time

from tictactoe_tui.engine.proofs.solver import (
    RootSolver,
    Solver,
    full_bounds,
    solvable,
    solver_seconds,
)
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.analyses import analyse_alphabeta, analyse_heuristic
from tictactoe_tui.engine.search.claims import root_claim
from tictactoe_tui.engine.search.deepening import FULL_SOLVE_MAX_EMPTY as FULL_SOLVE_MAX_EMPTY
from tictactoe_tui.engine.search.deepening import Deepening, SearchMemory, time_limit_for
from tictactoe_tui.engine.search.kernel import Evaluator, Stopped, Tracker
from tictactoe_tui.engine.search.limits import DEFAULT_TIME_LIMIT
from tictactoe_tui.engine.search.minimax import analyse_minimax
from tictactoe_tui.engine.search.pvs import EXACT, MATE, RootMove, Searcher, is_mate
from tictactoe_tui.engine.search.solver_scores import bounds_listener
from tictactoe_tui.engine.search.types import (
    Algorithm,
    Analysis,
    Band,
    Kind,
    MoveScore,
    Progress,
    ProgressCallback,
    SearchResult,
    Source,
    StopCheck,
    over_result,
)

__all__ = [
    "ALGORITHMS",
    "DEFAULT_TIME_LIMIT",
    "SearchMemory",
    "alphabeta",
    "analyse",
    "analyse_position",
    "search_move",
]

ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm.MINIMAX,
    Algorithm.ALPHABETA,
    Algorithm.H1,
    Algorithm.H2,
)
"""The names `analyse` accepts."""


def _first_guess(board: Board, sh: fs.Shape) -> int:
    """Some legal move to return when a search is cancelled before finishing any depth."""
    empty = sh.full & ~(board.x_bits | board.o_bits)
    return next(cell for cell in sh.order if empty >> cell & 1)


def alphabeta(
    board: Board,
    depth: int | None = None,
    evaluate: Evaluator | None = None,
    time_limit: float | None = None,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
    memory: SearchMemory | None = None,
) -> SearchResult:
    """Alpha-beta with move ordering, a transposition table, threat search and iterative deepening.

    With neither `depth` nor `time_limit` the position is solved to the end (on boards with more
    than `FULL_SOLVE_MAX_EMPTY` empty cells a `DEFAULT_TIME_LIMIT` applies instead). Otherwise
    iterative deepening (principal variation search, see `pvs`) runs until `depth` or the time
    limit, and the result is the best move of the deepest completed iteration. Each call starts
    with empty tables unless a `memory` from earlier searches of the same game is given.
    `on_progress` hears how far the search got at each completed depth and every 100 ms; the
    result's `iterations` keep one row per completed depth.

    The result's `kind` says what its score is: a proven win whose distance is only bounded
    (a threat search's line may be longer than the shortest win) is "at_least", and such a
    result is `complete` (the move is proven best) though its score is not exact.
    """
    start = time.perf_counter()
    if board.is_over:
        return over_result(board, start)
    time_limit = time_limit_for(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    answer = _Answer(board, sh, poller, Tracker(poller, start, on_progress), start)
    if depth is None and (time_limit is None or solvable(board)):
        # Small boards are solved first, with the same table and cuts as without a clock; the
        # depth-limited search only gets the time the solver leaves, to find a move.
        if time_limit is not None:
            poller.deadline = start + solver_seconds(board, time_limit)
        try:
            return answer.solved()
        except Stopped:
            if poller.cancelled or time_limit is None:
                return answer.result(None, 0, False, cancelled=True)
        poller.deadline, poller.timed_out = None, False
    deepening = Deepening(board, depth, time_limit, evaluate, poller, answer.tracker, start, memory)
    try:
        deepening.run()
        if deepening.needs_solve:
            return answer.solved()
    except Stopped:
        pass
    last = deepening.last
    if last is None:
        return answer.result(None, 0, False, cancelled=True)
    best = deepening.move_score(deepening.best(last), last.depth)
    return answer.result(best, last.depth, last.complete, cancelled=poller.cancelled)


class _Answer:
    """What one `alphabeta` call answers: the exact solver's (built on first use) or the
    deepening's best move, as the `SearchResult` the caller gets and the story's last row."""

    def __init__(
        self, board: Board, sh: fs.Shape, poller: fs.Poller, tracker: Tracker, start: float
    ) -> None:
        """The answer for `board` searched under `poller` from `start`, heard by `tracker`."""
        self.board = board
        self.sh = sh
        self.poller = poller
        self.tracker = tracker
        self.start = start
        self.bounds = full_bounds(sh)
        self._exact: RootSolver | None = None

    def exact(self) -> RootSolver:
        """The exact solver of the root. Built on first use: its symmetry tables cost a fraction
        of a second on a big board."""
        if self._exact is None:
            solver = Solver(self.sh, self.poller)
            listener = bounds_listener(self.tracker)
            self._exact = RootSolver(self.board, solver, listener, self.bounds)
        return self._exact

    def solved(self) -> SearchResult:
        """Solve the root to the end (`Stopped` when the clock or the caller stops it first)."""
        exact = self.exact()
        score, move = exact.solve()
        pv = exact.walk_pv(move, exact.empties)
        best = MoveScore(move, score, 0, True, pv)
        self.tracker.reached(exact.empties, move, score, pv, True, Kind.EXACT, best.band)
        return self.result(best, exact.empties, True)

    def result(
        self, best: MoveScore | None, done: int, complete: bool, cancelled: bool = False
    ) -> SearchResult:
        """The result with `best` (some legal move when None) after `done` plies."""
        bounds = self.bounds
        if best is None:
            best = MoveScore(_first_guess(self.board, self.sh), 0, 0, False)
        if not complete and bounds.lo >= 1 and bounds.move >= 0:
            # The solver proved a win before the clock ran out, without its distance yet: play
            # the winning move; its score is the proven bound on the distance.
            exact = self.exact()
            pv = exact.walk_pv(bounds.move, 1)
            empties = exact.empties - 1
            best = MoveScore(
                bounds.move, bounds.lo, 0, False, pv, Kind.AT_LEAST, empties, band=Band.WIN
            )
            complete = True
        if not cancelled:
            self.tracker.close(
                done, best.move, best.score, best.pv, complete, best.kind, best.band, best.source
            )
        return SearchResult(
            move=best.move,
            score=best.score,
            nodes=self.poller.nodes,
            elapsed=time.perf_counter() - self.start,
            depth=done,
            pv=best.pv,
            complete=complete,
            cancelled=cancelled,
            kind=best.kind,
            band=best.band,
            iterations=tuple(self.tracker.iterations),
        )


def search_move(
    board: Board,
    move: int,
    depth: int,
    should_stop: StopCheck | None = None,
    *,
    root_depth: int | None = None,
) -> MoveScore:
    """`move` searched alone by the depth-limited search, `depth` plies below it (the move's
    `MoveScore.depth`), with a full window, fresh tables and no reductions (every move searched
    to the full depth): the estimate behind a bound.

    An analysis gives most moves only the bound that showed they are no better than the best
    (kind "at_most"); this gives the number itself, as a full search of that move alone at the
    same depth finds it (kind "estimate", or a win or loss, which is a proof). It is searched
    as an iteration to `root_depth` plies searches its moves (by default `depth + 1`; pass the
    analysis's depth to compare with its numbers): that sets how far forced lines may run past
    the depth.
    """
    if board.is_over or move not in board.legal_moves():
        raise ValueError(f"{move} is not a legal move of {str(board)!r}")
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    searcher = Searcher(board.size, board.k)
    value = searcher.search_move(board, move, depth, poller, root_depth)
    root = RootMove(move, 0, value, EXACT, poller.nodes, depth=depth)
    kind, band, score = root_claim(root, board)
    line = searcher.line_after(move, max(MATE - abs(value) if is_mate(value) else depth + 1, 1))
    return MoveScore(move, score, poller.nodes, None, line, kind, depth, Source.SEARCH, band)


# -- analysis -----------------------------------------------------------------------------------


def analyse(
    board: Board,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    time_limit: float | None = None,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> list[MoveScore]:
    """One score per legal move for the player to move, best first (ties by cell)."""
    return list(
        analyse_position(board, algorithm, depth, time_limit, should_stop, on_progress).scores
    )


def analyse_position(
    board: Board,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    time_limit: float | None = None,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
    memory: SearchMemory | None = None,
) -> Analysis:
    """Score every legal move with `algorithm` (one of `ALGORITHMS`), with totals.

    Every score says what it is (`MoveScore.kind`, `band`, `depth`, `source`): full searches
    give each move its exact value. "h1"/"h2" give the heuristic of the board after each move,
    from the mover's side (a move that wins at once scores W - 1, exactly). When cancelled, the
    moves scored so far are returned with `cancelled=True`. Each score carries its expected
    line (`MoveScore.pv`); `on_progress` hears how the search goes, and `Analysis.iterations`
    keeps one row per completed depth.

    A depth-limited alpha-beta analysis costs about what finding the best move costs: the best
    move gets an estimate at the search's depth, every other move the bound that showed it is
    not better (principal variation search: "at_most"), a move far from every stone a one-ply
    look unless it looked promising (`depth` 0). Proven wins and losses rank above and below
    every estimate; their distances are bounds ("at_least" / "at_most") unless a rule, the
    exact solver or the impossibility of a faster result makes them exact.
    `memory` (alpha-beta only) keeps the search's tables between the moves of one game.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}: use one of {', '.join(ALGORITHMS)}")
    chosen = Algorithm(algorithm)
    start = time.perf_counter()
    if board.is_over:
        return Analysis(chosen, (), 0, 0.0, 0, True, False)
    if chosen in (Algorithm.H1, Algorithm.H2):
        analysis = analyse_heuristic(board, chosen, start)
        if on_progress is not None and analysis.scores:
            best = analysis.scores[0]
            on_progress(
                Progress(
                    1,
                    analysis.nodes,
                    analysis.elapsed,
                    best.move,
                    best.score,
                    best.pv,
                    analysis.complete,
                    best.kind,
                    best.band,
                    analysis.iterations,
                )
            )
        return analysis
    if algorithm == Algorithm.MINIMAX:
        return analyse_minimax(board, depth, should_stop, start, on_progress, time_limit)
    return analyse_alphabeta(board, depth, time_limit, should_stop, start, on_progress, memory)
