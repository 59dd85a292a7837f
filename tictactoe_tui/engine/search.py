"""Game-tree search: plain minimax, alpha-beta, and the per-move analysis the panel shows.

Scores are seen from the side to move. A win on ply d (ply 1 = the move itself) scores `W - d`,
a loss on ply d scores `-(W - d)`, a draw 0, where `W = win_score(board)` (10 on 3x3,
`size*size + 1` in general). At a depth cut-off the heuristic (H1 from the side to move unless an
evaluator is given) is clamped strictly inside the win/loss bands, so a heuristic value can never
outrank a win found within the search depth.

The inner loops live in `_fastsearch` and work on raw bitboard ints; this module turns a `Board`
into those ints, drives the searches (iterative deepening, exact windows) and packages results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from tictactoe_tui.engine import _fastsearch as fs
from tictactoe_tui.engine._fastsearch import Evaluator, Stopped
from tictactoe_tui.engine.board import Board
from tictactoe_tui.engine.evaluate import h1, h2
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

__all__ = [
    "ALGORITHMS",
    "DEFAULT_TIME_LIMIT",
    "Analysis",
    "Evaluator",
    "MoveScore",
    "Progress",
    "ProgressCallback",
    "SearchMemory",
    "SearchResult",
    "alphabeta",
    "analyse",
    "analyse_position",
    "describe_score",
    "minimax",
    "win_score",
]

ALGORITHMS = ("minimax", "alphabeta", "h1", "h2")
"""The names `analyse` accepts."""

DEFAULT_TIME_LIMIT = 1.0
"""Seconds alpha-beta allows itself when given neither a depth nor a time limit on a board too
big to solve (more than `FULL_SOLVE_MAX_EMPTY` empty cells): it must never hang the caller."""

FULL_SOLVE_MAX_EMPTY = SOLVE_MAX_EMPTY
"""Positions with at most this many empty cells are solved to the end when no limit is given."""

StopCheck = Callable[[], bool]


@dataclass(frozen=True)
class MoveScore:
    """The score of one legal move, from the point of view of the player making it."""

    move: int
    score: int
    nodes: int
    """Positions searched to score this move."""
    exact: bool
    """True when `score` is the game's true value after this move (not a heuristic or bound)."""
    pv: tuple[int, ...] = ()
    """The line the search expects after this move: `move` first, then the best replies."""


@dataclass(frozen=True)
class Progress:
    """A report from a running search: how far it got and what it thinks so far."""

    depth: int
    """Plies of the deepest completed iteration (0 before the first one completes)."""
    nodes: int
    """Positions searched so far."""
    elapsed: float
    """Seconds since the search started."""
    best_move: int | None
    """The best move found so far; None before any move was scored."""
    best_score: int
    """The score of `best_move`, from the side to move (0 while there is none)."""
    pv: tuple[int, ...]
    """The expected line after `best_move`, `best_move` first (empty while there is none)."""
    complete: bool = False
    """True when `best_score` is proven: the position is solved."""


ProgressCallback = Callable[[Progress], None]
"""Called with a `Progress` at least every 100 ms while a search runs and at each completed
depth; it runs on the searching thread, so it must be quick."""


class _Tracker:
    """What a search knows so far, reported through `on_progress` (if any)."""

    def __init__(self, poller: fs.Poller, start: float,
                 on_progress: ProgressCallback | None) -> None:
        self.poller = poller
        self.start = start
        self.on_progress = on_progress
        self.depth = 0
        self.move: int | None = None
        self.score = 0
        self.pv: tuple[int, ...] = ()
        self.complete = False
        if on_progress is not None:
            poller.reporter = self.report

    @property
    def wanted(self) -> bool:
        """True when someone listens: only then is it worth building lines for reports."""
        return self.on_progress is not None

    def best_so_far(self, move: int, score: int, pv: tuple[int, ...]) -> None:
        """Remember the best move of an unfinished depth; the next periodic report shows it."""
        self.move, self.score, self.pv = move, score, pv

    def reached(self, depth: int, move: int, score: int, pv: tuple[int, ...],
                complete: bool) -> None:
        """A depth is complete: remember its best move and report at once."""
        self.depth, self.complete = depth, complete
        self.best_so_far(move, score, pv)
        self.report()

    def report(self) -> None:
        """Tell the listener where the search stands."""
        if self.on_progress is not None:
            self.on_progress(Progress(self.depth, self.poller.nodes,
                                      time.perf_counter() - self.start, self.move, self.score,
                                      self.pv, self.complete))


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search from a position."""

    move: int | None
    """The best move found; None only when the game is already over."""
    score: int
    nodes: int
    elapsed: float
    """Seconds spent."""
    depth: int
    """Plies searched (of the deepest completed iteration); the empty cells when solved."""
    pv: tuple[int, ...]
    """The principal variation: `move` and the best replies the search knows."""
    complete: bool
    """True when the position was solved: `score` is exact."""
    cancelled: bool = False
    """True when `should_stop()` interrupted the search (the result is the last complete one)."""


@dataclass(frozen=True)
class Analysis:
    """Scores of every legal move of a position, best first, with totals."""

    algorithm: str
    scores: tuple[MoveScore, ...]
    nodes: int
    elapsed: float
    depth: int
    complete: bool
    cancelled: bool
    best_moves: tuple[int, ...] = ()
    """The moves ranked best and equally good (a player picks one of them). Left empty by the
    caller, it is every move sharing the first score and its exactness; a depth-limited search
    gives its own ties, since heuristic values are clamped into the bands and can look equal."""

    def __post_init__(self) -> None:
        if self.scores and not self.best_moves:
            top = self.scores[0]
            tied = tuple(m.move for m in self.scores
                         if (m.score, m.exact) == (top.score, top.exact))
            object.__setattr__(self, "best_moves", tied)


def win_score(board: Board) -> int:
    """W: a win on ply d scores W - d. 10 on 3x3, size*size + 1 in general."""
    return board.size * board.size + 1


def describe_score(score: int, board: Board, exact: bool | None = None) -> str:
    """Words for a score from the side to move: 'win in 3', 'draw', 'loss in 4', '+12 (heuristic)'.

    `exact` says whether the score is a game value; when it is not given, a score is read as a win
    or loss if its distance fits the empty cells and the turn order (wins land on odd plies,
    losses on even ones), as a draw if it is 0, and as a heuristic otherwise.
    """
    big = win_score(board)
    empties = board.size * board.size - board.move_count
    plies = big - abs(score)
    if exact is not False and score and 1 <= plies <= empties + 1:
        if score > 0 and plies % 2 == 1:
            return f"win in {plies}"
        if score < 0 and plies % 2 == 0:
            return f"loss in {plies}"
    if exact is not False and score == 0:
        return "draw"
    return f"{score:+d} (heuristic)"


# -- helpers ------------------------------------------------------------------------------------


def _plain_minimax(board: Board, depth: int | None, evaluate: Evaluator | None,
                   should_stop: StopCheck | None) -> tuple[fs.Minimax, int | None, int]:
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


def _over_score(board: Board) -> int:
    """A finished game seen from the side that would move: it lost on ply 0, or drew."""
    return -win_score(board) if board.winner is not None else 0


def _over_result(board: Board, start: float) -> SearchResult:
    return SearchResult(move=None, score=_over_score(board), nodes=1,
                        elapsed=time.perf_counter() - start, depth=0, pv=(), complete=True)


def _first_guess(board: Board, sh: fs.Shape) -> int:
    """Some legal move to return when a search is cancelled before finishing any depth."""
    empty = sh.full & ~(board.x_bits | board.o_bits)
    return next(cell for cell in sh.order if empty >> cell & 1)


# -- public searches ----------------------------------------------------------------------------


def minimax(board: Board, depth: int | None = None, evaluate: Evaluator | None = None,
            should_stop: StopCheck | None = None,
            on_progress: ProgressCallback | None = None,
            time_limit: float | None = None) -> SearchResult:
    """Plain, unpruned minimax (negamax form): visits and counts every node of the tree.

    With `depth`, positions `depth` plies deep are scored by `evaluate` (H1 by default) seen from
    the side to move there, clamped inside the win/loss bands. `nodes` counts the root and every
    position below it (549,946 from the empty 3x3 board). With `time_limit` (seconds) the search
    stops when the time runs out: the result is then the best of the root moves searched in full
    so far, with `complete=False` (`trace.tree_size` tells how big the whole tree is).
    """
    start = time.perf_counter()
    if board.is_over:
        return _over_result(board, start)
    run = _MinimaxRoots(board, depth, evaluate, should_stop, time_limit, start, on_progress)
    run.search()
    if not run.scores:
        return SearchResult(move=board.legal_moves()[0], score=0, nodes=run.poller.nodes,
                            elapsed=time.perf_counter() - start, depth=0, pv=(),
                            complete=False, cancelled=run.poller.cancelled)
    best = _ranked(run.scores)[0]
    # A win or loss found within the depth is the game's value: the losing side had no move
    # that survived past the cut-off, or it would have chosen it.
    proven = run.finished and (run.limit is None or best.exact)
    return SearchResult(move=best.move, score=best.score, nodes=run.poller.nodes,
                        elapsed=time.perf_counter() - start, depth=run.depth, pv=best.pv,
                        complete=proven, cancelled=run.poller.cancelled)


class _MinimaxRoots:
    """Unpruned minimax one root move at a time, so a stopped search keeps the moves it scored."""

    def __init__(self, board: Board, depth: int | None, evaluate: Evaluator | None,
                 should_stop: StopCheck | None, time_limit: float | None, start: float,
                 on_progress: ProgressCallback | None) -> None:
        self.board = board
        self.engine, self.limit, self.empties = _plain_minimax(board, depth, evaluate,
                                                               should_stop)
        self.poller = self.engine.poller
        if time_limit is not None:
            self.poller.deadline = start + time_limit
        self.tracker = _Tracker(self.poller, start, on_progress)
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
        for move in board.legal_moves():
            before = poller.nodes
            bit = 1 << move
            try:
                if fs.completes_line(sh, me | bit, move):
                    poller.nodes += 1
                    score = big - 1
                    line: tuple[int, ...] = (move,)
                else:
                    score = -search.value(opp, me | bit, 1)
                    line = (move, *search.pv[1])
            except Stopped:
                return
            exact = self.limit is None or abs(score) >= big - self.limit
            self.scores.append(MoveScore(move, score, poller.nodes - before, exact, line))
            if score > best:
                best = score
                self.tracker.best_so_far(move, score, line)
        self.finished = True
        top = _ranked(self.scores)[0]
        self.tracker.reached(self.depth, top.move, top.score, top.pv,
                             self.limit is None or top.exact)


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
        return _over_result(board, start)
    time_limit = _limits(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = _Tracker(poller, start, on_progress)
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
                 evaluate: Evaluator | None, poller: fs.Poller, tracker: _Tracker,
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
        return _analyse_minimax(board, depth, should_stop, start, on_progress, time_limit)
    return _analyse_alphabeta(board, depth, time_limit, should_stop, start, on_progress, memory)


def _ranked(scores: list[MoveScore]) -> tuple[MoveScore, ...]:
    """Best first: proven wins, then estimates and draws, then proven losses; ties by cell.

    Within each group the score decides. A proven win outranks every estimate even when a
    clamped heuristic value is numerically higher than a long win's score.
    """
    def group(m: MoveScore) -> int:
        return 2 if m.exact and m.score > 0 else 0 if m.exact and m.score < 0 else 1
    return tuple(sorted(scores, key=lambda m: (-group(m), -m.score, m.move)))


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
    return Analysis(algorithm, _ranked(scores), len(scores), time.perf_counter() - start, 1,
                    False, False)


def _analyse_minimax(board: Board, depth: int | None, should_stop: StopCheck | None,
                     start: float, on_progress: ProgressCallback | None,
                     time_limit: float | None) -> Analysis:
    run = _MinimaxRoots(board, depth, None, should_stop, time_limit, start, on_progress)
    run.search()
    return Analysis("minimax", _ranked(run.scores), run.poller.nodes,
                    time.perf_counter() - start, run.depth,
                    run.limit is None and run.finished, run.poller.cancelled)


def _bounds_listener(tracker: _Tracker) -> Callable[[Bounds], None]:
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
    tracker = _Tracker(poller, start, on_progress)
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
        ranked = _ranked(scores)
        if ranked and not cancelled:
            best = ranked[0]
            tracker.reached(done, best.move, best.score, best.pv, complete)
        return Analysis("alphabeta", ranked, poller.nodes, time.perf_counter() - start, done,
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
        return Analysis("alphabeta", _ranked(scores), poller.nodes, time.perf_counter() - start,
                        last.depth, last.complete or all(m.exact for m in scores),
                        poller.cancelled)
    # The search's own order: a proven win ranks above any estimate whatever the numbers.
    top = last.moves[0]
    tied = tuple(root.move for root in last.moves
                 if (root.value, root.proven, root.prior) == (top.value, top.proven, top.prior))
    return Analysis("alphabeta", tuple(deepening.scores()), poller.nodes,
                    time.perf_counter() - start, last.depth, last.complete, poller.cancelled,
                    tied)
