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

from benchmarks.legacy_engine import _fastsearch as fs
from benchmarks.legacy_engine._fastsearch import Evaluator, Stopped
from tictactoe_tui.engine.board import Board
from tictactoe_tui.engine.evaluate import h1, h2

__all__ = [
    "ALGORITHMS",
    "DEFAULT_TIME_LIMIT",
    "Analysis",
    "Evaluator",
    "MoveScore",
    "Progress",
    "ProgressCallback",
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

FULL_SOLVE_MAX_EMPTY = 25
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


def _new_thr(sh: fs.Shape, me: int, opp: int, cell: int) -> int:
    """The winning cells `me` gains by playing `cell`."""
    mine = me | 1 << cell
    need = sh.k - 1
    found = 0
    for line in sh.cell_lines[cell]:
        if not opp & line and (mine & line).bit_count() == need:
            found |= line & ~mine
    return found


class _Root:
    """One position to search, with its threats precomputed."""

    def __init__(self, board: Board, engine: fs.AlphaBeta) -> None:
        self.board = board
        self.engine = engine
        self.sh = engine.sh
        self.me, self.opp = _mover_bits(board)
        self.empty = self.sh.full & ~(self.me | self.opp)
        self.empties = self.empty.bit_count()
        self.my_thr = fs.threats(self.sh, self.me, self.opp) & self.empty
        self.opp_thr = fs.threats(self.sh, self.opp, self.me) & self.empty
        self.value = fs.h1_bits(self.sh, self.me, self.opp)
        near = 0
        for cell in fs.iter_cells(self.me | self.opp):
            near |= self.sh.near[cell]
        self.near = near

    # -- full solve ---------------------------------------------------------------------------

    def solve_child(self, cell: int, alpha: int, beta: int) -> int:
        """Exact-search value of `cell` for the mover, fail-soft within (alpha, beta)."""
        if self.my_thr >> cell & 1:
            return win_score(self.board) - 1
        bit = 1 << cell
        # At the root the mover may hold winning cells it does not play (analyse scores every
        # move): they stay threats after this move.
        mine = (_new_thr(self.sh, self.me, self.opp, cell) | self.my_thr) & ~bit
        return -self.engine.solve(self.opp, self.me | bit, self.opp_thr & ~bit, mine, 1,
                                  -beta, -alpha)

    def exact_child(self, cell: int) -> int:
        """The exact value of `cell`: null windows decide win/draw/loss, then the distance."""
        big = win_score(self.board)
        if self.solve_child(cell, 0, 1) >= 1:
            return self.solve_child(cell, 0, big)
        if self.solve_child(cell, -1, 0) >= 0:
            return 0
        return self.solve_child(cell, -big, 0)

    def solve_moves(self) -> list[int]:
        """The moves worth a full search at the root: a forced block, else every empty cell."""
        thr = self.opp_thr
        if thr and not thr & (thr - 1) and not self.my_thr:
            return [thr.bit_length() - 1]
        return self.engine.ordered(self.me, self.opp, self.empty, -1)

    def solve_pass(self, moves: list[int], alpha: int, beta: int) -> tuple[int, int]:
        """Fail-soft alpha-beta over the root moves: (value, best move)."""
        best, best_move = -win_score(self.board) - 1, moves[0]
        for cell in moves:
            score = self.solve_child(cell, alpha, beta)
            if score > best:
                best, best_move = score, cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best, best_move

    def solve(self) -> tuple[int, int]:
        """The exact value of the position and a best move."""
        big = win_score(self.board)
        if self.my_thr:
            return big - 1, self.my_thr.bit_length() - 1
        self.engine.begin_solve()
        moves = self.solve_moves()
        # Null windows first: most positions are draws, and proving "no win" with the window
        # (0, 1) lets every node stop at the first refutation, whatever the win distance.
        score, move = self.solve_pass(moves, 0, 1)
        if score >= 1:
            return self.solve_pass(moves, 0, big)
        score, move = self.solve_pass(moves, -1, 0)
        if score >= 0:
            return 0, move
        return self.solve_pass(moves, -big, 0)

    # -- depth-limited search ----------------------------------------------------------------

    def scored_root(self, first: int) -> list[tuple[int, int, int]]:
        """Root moves with their H1 change and new threats, `first` then the best change first."""
        engine = self.engine
        thr = self.opp_thr
        forced = thr and not thr & (thr - 1)
        candidates = thr if forced else engine.candidates(self.empty, self.near)
        scored = engine.scored_moves(self.me, self.opp, candidates)
        scored.sort(key=lambda item: (item[2] == first, item[0], -item[2]), reverse=True)
        return scored

    def search_child(self, item: tuple[int, int, int], depth: int, alpha: int, beta: int) -> int:
        """Depth-limited value of one root move for the mover (`depth` counts the move)."""
        delta, new_thr, cell = item
        if self.my_thr >> cell & 1:
            return win_score(self.board) - 1
        bit = 1 << cell
        mine = (new_thr | self.my_thr) & ~(self.me | self.opp | bit)
        return -self.engine.search(self.opp, self.me | bit, self.opp_thr & ~bit,
                                   mine, -(self.value + delta),
                                   self.near | self.sh.near[cell], 1, depth - 1, -beta, -alpha)

    def search(self, depth: int, first: int) -> tuple[int, int]:
        """Full-window depth-limited search: (value, best move)."""
        big = win_score(self.board)
        if self.my_thr:
            return big - 1, self.my_thr.bit_length() - 1
        self.engine.begin_iteration(depth)
        alpha, beta = -big - 1, big + 1
        scored = self.scored_root(first)
        best, best_move = alpha, scored[0][2]
        for item in scored:
            score = self.search_child(item, depth, alpha, beta)
            if score > best:
                best, best_move = score, item[2]
                alpha = max(alpha, score)
        return best, best_move

    def is_mate(self, score: int, depth: int) -> bool:
        """True if `score` is a win or loss proven within `depth` plies."""
        return abs(score) >= win_score(self.board) - depth


def _first_guess(board: Board, engine: fs.AlphaBeta) -> int:
    """Some legal move to return when a search is cancelled before finishing any depth."""
    empty = engine.sh.full & ~(board.x_bits | board.o_bits)
    return next(cell for cell in engine.sh.order if empty >> cell & 1)


# -- public searches ----------------------------------------------------------------------------


def minimax(board: Board, depth: int | None = None, evaluate: Evaluator | None = None,
            should_stop: StopCheck | None = None,
            on_progress: ProgressCallback | None = None) -> SearchResult:
    """Plain, unpruned minimax (negamax form): visits and counts every node of the tree.

    With `depth`, positions `depth` plies deep are scored by `evaluate` (H1 by default) seen from
    the side to move there, clamped inside the win/loss bands.
    """
    start = time.perf_counter()
    if board.is_over:
        return _over_result(board, start)
    search, limit, empties = _plain_minimax(board, depth, evaluate, should_stop)
    poller = search.poller
    tracker = _Tracker(poller, start, on_progress)
    me, opp = _mover_bits(board)
    try:
        score = search.value(me, opp, 0)
    except Stopped:
        return SearchResult(move=board.legal_moves()[0], score=0, nodes=poller.nodes,
                            elapsed=time.perf_counter() - start, depth=0, pv=(),
                            complete=False, cancelled=True)
    pv = search.pv[0]
    # A win or loss found within the depth is the game's value: the losing side had no move
    # that survived past the cut-off, or it would have chosen it.
    proven = limit is None or abs(score) >= win_score(board) - limit
    tracker.reached(empties if limit is None else limit, pv[0], score, pv, proven)
    return SearchResult(move=pv[0], score=score, nodes=poller.nodes,
                        elapsed=time.perf_counter() - start,
                        depth=empties if limit is None else limit, pv=pv, complete=proven)


def _limits(board: Board, depth: int | None, time_limit: float | None) -> float | None:
    """The time limit to use: the default one on boards too big to solve without limits."""
    empties = board.size * board.size - board.move_count
    if depth is None and time_limit is None and empties > FULL_SOLVE_MAX_EMPTY:
        return DEFAULT_TIME_LIMIT
    return time_limit


def alphabeta(board: Board, depth: int | None = None, evaluate: Evaluator | None = None,
              time_limit: float | None = None,
              should_stop: StopCheck | None = None,
              on_progress: ProgressCallback | None = None) -> SearchResult:
    """Alpha-beta with move ordering, a transposition table, symmetry and threat detection.

    With neither `depth` nor `time_limit` the position is solved to the end (on boards with more
    than `FULL_SOLVE_MAX_EMPTY` empty cells a `DEFAULT_TIME_LIMIT` applies instead). Otherwise
    iterative deepening runs until `depth` or the time limit, and the result is the best move of
    the deepest completed iteration. Each call starts with an empty transposition table.
    `on_progress` hears how far the search got at each completed depth and every 100 ms.
    """
    start = time.perf_counter()
    if board.is_over:
        return _over_result(board, start)
    time_limit = _limits(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = _Tracker(poller, start, on_progress)
    engine = fs.AlphaBeta(sh, poller, evaluate, board.to_move)
    root = _Root(board, engine)

    def reached(score: int, move: int, done: int, complete: bool) -> None:
        if tracker.wanted:
            tracker.reached(done, move, score,
                            engine.walk_pv(root.me, root.opp, move, max(done, 1)), complete)

    def result(score: int, move: int, done: int, complete: bool,
               cancelled: bool = False) -> SearchResult:
        return SearchResult(move=move, score=score, nodes=poller.nodes,
                            elapsed=time.perf_counter() - start, depth=done,
                            pv=engine.walk_pv(root.me, root.opp, move, max(done, 1)),
                            complete=complete, cancelled=cancelled)

    if depth is None and time_limit is None:
        try:
            score, move = root.solve()
        except Stopped:
            return result(0, _first_guess(board, engine), 0, False, cancelled=True)
        reached(score, move, root.empties, True)
        return result(score, move, root.empties, True)

    deadline = None if time_limit is None else start + time_limit
    last: tuple[int, int, int, bool] | None = None
    max_depth = root.empties if depth is None else min(depth, root.empties)
    try:
        for plies in range(1, max_depth + 1):
            if plies >= root.empties:
                score, move = root.solve()
                last = (score, move, root.empties, True)
                reached(*last)
                break
            score, move = root.search(plies, -1 if last is None else last[1])
            last = (score, move, plies, root.is_mate(score, plies))
            reached(*last)
            # Depth 1 always completes so there is a move to return; later ones race the clock.
            poller.deadline = deadline
            if last[3]:
                break
    except Stopped:
        if last is None:
            return result(0, _first_guess(board, engine), 0, False, cancelled=True)
        return result(*last, cancelled=poller.cancelled)
    assert last is not None
    return result(*last)


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
                     on_progress: ProgressCallback | None = None) -> Analysis:
    """Score every legal move with `algorithm` (one of `ALGORITHMS`), with totals.

    Full searches give each move its exact value (not a bound). "h1"/"h2" give the heuristic of
    the board after each move, from the mover's side (a move that wins at once scores W - 1).
    When cancelled, the moves scored so far are returned with `cancelled=True`. Each score
    carries its expected line (`MoveScore.pv`); `on_progress` hears how the search goes.
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
        return _analyse_minimax(board, depth, should_stop, start, on_progress)
    return _analyse_alphabeta(board, depth, time_limit, should_stop, start, on_progress)


def _ranked(scores: list[MoveScore]) -> tuple[MoveScore, ...]:
    return tuple(sorted(scores, key=lambda m: (-m.score, m.move)))


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
                     start: float, on_progress: ProgressCallback | None) -> Analysis:
    search, limit, empties = _plain_minimax(board, depth, None, should_stop)
    sh, poller = search.sh, search.poller
    tracker = _Tracker(poller, start, on_progress)
    me, opp = _mover_bits(board)
    big = win_score(board)
    scores: list[MoveScore] = []
    cancelled = False
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
            cancelled = True
            break
        exact = limit is None or abs(score) >= big - limit
        scores.append(MoveScore(move, score, poller.nodes - before, exact, line))
        if score > max((s.score for s in scores[:-1]), default=-big - 1):
            tracker.best_so_far(move, score, line)
    if not cancelled and scores:
        best = _ranked(scores)[0]
        tracker.reached(empties if limit is None else limit, best.move, best.score, best.pv,
                        limit is None)
    return Analysis("minimax", _ranked(scores), poller.nodes, time.perf_counter() - start,
                    empties if limit is None else limit, limit is None and not cancelled,
                    cancelled)


def _analyse_alphabeta(board: Board, depth: int | None, time_limit: float | None,
                       should_stop: StopCheck | None, start: float,
                       on_progress: ProgressCallback | None) -> Analysis:
    time_limit = _limits(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = _Tracker(poller, start, on_progress)
    engine = fs.AlphaBeta(sh, poller, None, board.to_move)
    root = _Root(board, engine)
    moves = board.legal_moves()
    big = win_score(board)

    def solve_all() -> list[MoveScore]:
        engine.begin_solve()
        out = []
        for move in moves:
            before = poller.nodes
            score = root.exact_child(move)
            line = engine.walk_pv(root.me, root.opp, move, root.empties)
            out.append(MoveScore(move, score, poller.nodes - before, True, line))
        return out

    def search_all(plies: int) -> list[MoveScore]:
        engine.begin_iteration(plies)
        out = []
        for item in engine.scored_moves(root.me, root.opp, root.empty):
            before = poller.nodes
            score = root.search_child(item, plies, -big - 1, big + 1)
            line = engine.walk_pv(root.me, root.opp, item[2], plies)
            out.append(MoveScore(item[2], score, poller.nodes - before,
                                 root.is_mate(score, plies), line))
        return out

    def finish(scores: list[MoveScore], done: int, complete: bool, cancelled: bool) -> Analysis:
        if scores and not cancelled:
            best = _ranked(scores)[0]
            tracker.reached(done, best.move, best.score, best.pv, complete)
        return Analysis("alphabeta", _ranked(scores), poller.nodes,
                        time.perf_counter() - start, done, complete, cancelled)

    if depth is None and time_limit is None:
        try:
            return finish(solve_all(), root.empties, True, False)
        except Stopped:
            return finish([], 0, False, True)
    deadline = None if time_limit is None else start + time_limit
    last: tuple[list[MoveScore], int, bool] | None = None
    max_depth = root.empties if depth is None else min(depth, root.empties)
    try:
        for plies in range(1, max_depth + 1):
            if plies >= root.empties:
                last = (solve_all(), root.empties, True)
                break
            scored = search_all(plies)
            last = (scored, plies, all(m.exact for m in scored))
            best = _ranked(scored)[0]
            tracker.reached(plies, best.move, best.score, best.pv, last[2])
            poller.deadline = deadline
            if last[2]:
                break
    except Stopped:
        if last is None:
            return finish([], 0, False, True)
        return finish(last[0], last[1], last[2], poller.cancelled)
    assert last is not None
    return finish(*last, cancelled=False)
