"""The search API: alpha-beta (with its solver), and the per-move analysis the panel shows.

Scores are on the public scale of `types`. The inner loops live in `kernel`, `pvs` and `solver`
and work on raw bitboard ints; this module turns a `Board` into those ints, drives the searches
(iterative deepening, exact solving under a clock) and packages results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache

from tictactoe_tui.engine.evaluation.heuristics import h1, h2
from tictactoe_tui.engine.proofs.solver import (
    SOLVE_MAX_EMPTY,
    Bounds,
    RootSolver,
    Solver,
    full_bounds,
    solvable,
    solver_seconds,
)
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import Evaluator, Stopped, Tracker
from tictactoe_tui.engine.search.limits import DEFAULT_TIME_LIMIT
from tictactoe_tui.engine.search.minimax import analyse_minimax
from tictactoe_tui.engine.search.pvs import (
    EXACT,
    LOWER,
    MATE,
    MATE_BAND,
    ROOT_VCT_NODES_PER_SECOND,
    UPPER,
    Iteration,
    RootMove,
    Searcher,
    is_mate,
)
from tictactoe_tui.engine.search.types import (
    GAME_RULES,
    THREAT_RULES,
    Algorithm,
    Analysis,
    Band,
    IterationInfo,
    Kind,
    MoveScore,
    Progress,
    ProgressCallback,
    Rule,
    SearchResult,
    Source,
    StopCheck,
    band_of,
    equally_good,
    over_result,
    proven_best,
    rank_key,
    ranked,
    value_key,
    win_score,
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
    time_limit = _limits(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = Tracker(poller, start, on_progress)
    # Built on first use: its symmetry tables cost a fraction of a second on a big board.
    bounds = full_bounds(sh)
    exact = cache(lambda: RootSolver(board, Solver(sh, poller), _bounds_listener(tracker), bounds))

    def result(
        best: MoveScore | None, done: int, complete: bool, cancelled: bool = False
    ) -> SearchResult:
        if best is None:
            best = MoveScore(_first_guess(board, sh), 0, 0, False)
        if not complete and bounds.lo >= 1 and bounds.move >= 0:
            # The solver proved a win before the clock ran out, without its distance yet: play
            # the winning move; its score is the proven bound on the distance.
            move = bounds.move
            best = MoveScore(
                move,
                bounds.lo,
                0,
                False,
                exact().walk_pv(move, 1),
                Kind.AT_LEAST,
                exact().empties - 1,
                band=Band.WIN,
            )
            complete = True
        if not cancelled:
            tracker.close(
                done, best.move, best.score, best.pv, complete, best.kind, best.band, best.source
            )
        return SearchResult(
            move=best.move,
            score=best.score,
            nodes=poller.nodes,
            elapsed=time.perf_counter() - start,
            depth=done,
            pv=best.pv,
            complete=complete,
            cancelled=cancelled,
            kind=best.kind,
            band=best.band,
            iterations=tuple(tracker.iterations),
        )

    def solved() -> SearchResult:
        score, move = exact().solve()
        pv = exact().walk_pv(move, exact().empties)
        best = MoveScore(move, score, 0, True, pv)
        tracker.reached(exact().empties, move, score, pv, True, Kind.EXACT, best.band)
        return result(best, exact().empties, True)

    if depth is None and (time_limit is None or solvable(board)):
        # Small boards are solved first, with the same table and cuts as without a clock; the
        # depth-limited search only gets the time the solver leaves, to find a move.
        if time_limit is not None:
            poller.deadline = start + solver_seconds(board, time_limit)
        try:
            return solved()
        except Stopped:
            if poller.cancelled or time_limit is None:
                return result(None, 0, False, cancelled=True)
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
        return result(None, 0, False, cancelled=True)
    best = deepening.move_score(deepening.best(last), last.depth)
    return result(best, last.depth, last.complete, cancelled=poller.cancelled)


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


class _Deepening:
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


def public_score(value: int, board: Board) -> int:
    """A `pvs` score on the public scale: a win on ply d is W - d; a heuristic value kept within
    W - 2 either way (below a win in one's score).

    The heuristic's range does not shrink as the search deepens: a won position the search
    cannot prove (its nodes report the heuristic's extreme, `pvs.HEURISTIC_MAX`) reads the same
    number at every depth, rather than one squeezed towards 0 by each deeper iteration. The
    band (`MoveScore.band`), not the number, ranks a heuristic below every proven win.
    """
    big = win_score(board)
    if value >= MATE_BAND:
        return big - (MATE - value)
    if value <= -MATE_BAND:
        return -(big - (MATE + value))
    cap = big - 2
    return max(-cap, min(cap, value))


def root_claim(root: RootMove, board: Board) -> tuple[Kind, Band, int]:
    """What a root move's value says, as (kind, band, public score).

    A win or loss the search proves holds against every legal reply but its distance is only a
    bound ("at_least" a win in d, "at_most" a loss in d: a faster one may exist), unless a rule
    gave it or no faster result is possible (`_distance_is_exact`). A heuristic value is an
    estimate when the move was searched with a window that held it, else the bound its
    window gave. A win's or loss's score that is itself only a bound of the search (a move that
    failed low against a proven win) is not a proof: "at_most" a win in d means the search
    found no faster win.
    """
    value = root.value
    score = public_score(value, board)
    if value >= MATE_BAND:
        if root.bound == UPPER:
            return Kind.AT_MOST, Band.WIN, score
        plies = MATE - value
        exact = root.rule in GAME_RULES or _distance_is_exact(board, root.move, plies)
        return (Kind.EXACT if exact else Kind.AT_LEAST), Band.WIN, score
    if value <= -MATE_BAND:
        if root.bound == LOWER:
            return Kind.AT_LEAST, Band.LOSS, score
        plies = MATE + value
        exact = root.rule in GAME_RULES or _distance_is_exact(board, root.move, plies)
        return (Kind.EXACT if exact else Kind.AT_MOST), Band.LOSS, score
    kind = (
        Kind.ESTIMATE
        if root.bound == EXACT
        else Kind.AT_LEAST
        if root.bound == LOWER
        else Kind.AT_MOST
    )
    return kind, Band.HEURISTIC, score


def _distance_is_exact(board: Board, move: int, plies: int) -> bool:
    """Whether a win (odd `plies`) or loss (even) of `move` proven within `plies` plies cannot
    come sooner, by the rules alone: wins land on odd plies and losses on even ones, a win in 3
    needs two winning cells after the move, a loss in 4 needs a reply that makes two."""
    if plies in (1, 2, 3):
        # The quickest win a move that does not complete a line can have is on ply 3, the
        # quickest loss on ply 2 (a proven win in 1 completes a line).
        return True
    if plies > 6:
        return False
    sh = fs.shape(board.size, board.k)
    me = board.bits(board.to_move) | 1 << move
    opp = board.bits(board.to_move.opponent)
    empty = sh.full & ~(me | opp)
    theirs = fs.threats(sh, opp, me) & empty
    if plies == 5:
        mine = fs.threats(sh, me, opp) & empty
        return not (mine & (mine - 1) and not theirs)
    if theirs:
        return False
    return plies == 4 or not _loses_in_4(sh, me, opp, empty)


def _loses_in_4(sh: fs.Shape, me: int, opp: int, empty: int) -> bool:
    """Whether the opponent (to move, with no winning cell) wins on its second move whatever
    `me` does: a cell that gives it two winning cells while `me` keeps none of its own."""
    mine = fs.threats(sh, me, opp) & empty
    if mine & (mine - 1):
        return False
    need = sh.k - 2
    made: dict[int, int] = {}
    for line in sh.lines:
        if me & line or (opp & line).bit_count() != need:
            continue
        free = line & empty
        low = free & -free
        made[low] = made.get(low, 0) | free ^ low
        made[free ^ low] = made.get(free ^ low, 0) | low
    return any(wins & (wins - 1) and not mine & ~bit for bit, wins in made.items())


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
        analysis = _analyse_heuristic(board, chosen, start)
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
    return _analyse_alphabeta(board, depth, time_limit, should_stop, start, on_progress, memory)


def _analyse_heuristic(board: Board, algorithm: Algorithm, start: float) -> Analysis:
    heuristic = h1 if algorithm == Algorithm.H1 else h2
    big = win_score(board)
    mover = board.to_move
    scores = []
    for move in board.legal_moves():
        after = board.play(move)
        if after.winner is not None:
            scores.append(
                MoveScore(
                    move, big - 1, 1, True, (move,), source=Source.RULE, rule=Rule.WINS_AT_ONCE
                )
            )
        elif after.is_full:
            scores.append(
                MoveScore(move, 0, 1, True, (move,), source=Source.RULE, rule=Rule.FILLS_THE_BOARD)
            )
        else:
            # Kept below an immediate win so that a win always ranks first.
            value = max(-(big - 2), min(big - 2, heuristic(after, mover)))
            scores.append(MoveScore(move, value, 1, False, (move,)))
    order = ranked(scores)
    elapsed = time.perf_counter() - start
    best = order[0]
    row = IterationInfo(
        1,
        best.move,
        best.score,
        best.kind,
        best.band,
        len(scores),
        elapsed,
        best.pv,
        best.source,
        proven_best(order),
    )
    return Analysis(
        algorithm, order, len(scores), elapsed, 1, proven_best(order), False, iterations=(row,)
    )


def _bounds_listener(tracker: Tracker) -> Callable[[Bounds], None]:
    """Tell the tracker the best move a solve has proven so far, for the progress reports."""

    def heard(bounds: Bounds) -> None:
        if bounds.move >= 0:
            band = band_of(bounds.lo)
            tracker.best_so_far(
                bounds.move,
                bounds.lo,
                (bounds.move,),
                Kind.EXACT if bounds.exact else Kind.AT_LEAST,
                band,
            )

    return heard


def solver_score(exact: RootSolver, move: int) -> MoveScore:
    """The exact value of a root move the solver settled, with where it came from: its own
    search, its mirror twin's (0 positions of its own), or a win at once."""
    value = exact.moves[move].lo
    twin = exact.twin[move]
    pv = exact.walk_pv(move, exact.empties)
    if twin != move:
        return MoveScore(
            move, value, 0, True, pv, depth=exact.empties - 1, source=Source.SYMMETRY, twin=twin
        )
    if exact.my_thr >> move & 1:
        return MoveScore(
            move, value, exact.spent[move], True, pv, source=Source.RULE, rule=Rule.WINS_AT_ONCE
        )
    return MoveScore(move, value, exact.spent[move], True, pv, depth=exact.empties - 1)


def _proof(exact: RootSolver, move: int, lo: int, hi: int, nodes: int) -> MoveScore | None:
    """What `lo <= value <= hi` proves about the root move `move` as a score: its exact value,
    a win ("at least"), a loss, "not a win" ("at most" a draw) or "not a loss"; None when the
    bounds say none of these (the move may still win and may still lose)."""
    twin = exact.twin[move]
    source = Source.SYMMETRY if twin != move else Source.SEARCH

    def proof(score: int, kind: Kind, band: Band) -> MoveScore:
        return MoveScore(
            move,
            score,
            nodes,
            None,
            exact.walk_pv(move, exact.empties),
            kind,
            exact.empties - 1,
            source,
            band,
            twin=twin if twin != move else None,
        )

    if lo == hi:
        return proof(lo, Kind.EXACT, band_of(lo))
    if lo >= 1:
        return proof(lo, Kind.AT_LEAST, Band.WIN)
    if hi <= -1:
        return proof(hi, Kind.AT_MOST, Band.LOSS)
    if hi == 0:
        return proof(0, Kind.AT_MOST, Band.DRAW)
    if lo == 0:
        return proof(0, Kind.AT_LEAST, Band.DRAW)
    return None


def _proven(exact: RootSolver, move: int) -> MoveScore | None:
    """The root move's score from the solver's proofs alone (see `_proof`), None when they
    prove neither a win, a loss, a draw nor a bound on the outcome."""
    bounds = exact.moves[move]
    if bounds.exact:
        return solver_score(exact, move)
    return _proof(exact, move, bounds.lo, bounds.hi, exact.spent[move])


def _with_bounds(estimate: MoveScore, exact: RootSolver) -> MoveScore:
    """A depth-limited score of a move, corrected by what the solver proved about it.

    The solver's bounds and the estimate's own proof (a proven win or loss) are both facts
    about the game: together they may settle the value exactly, or prove a win, a loss, "not a
    win" (at most a draw) or "not a loss" (at least a draw). A proof of "not a win" replaces any
    estimate (a heuristic +20 or -3 for a move proven not to win becomes "at most a draw": the
    estimate's number would claim what the game's value is not known to be, and a proven draw
    must rank above every such move). "Not a loss" replaces an estimate below 0. Otherwise the
    estimate stays, with the solver's work counted.
    """
    move = estimate.move
    bounds = exact.moves[move]
    nodes = estimate.nodes + exact.spent[move]
    if bounds.exact:
        settled = solver_score(exact, move)
        return replace(settled, nodes=settled.nodes + estimate.nodes)
    if estimate.exact:
        return replace(estimate, nodes=nodes)
    lo, hi = bounds.lo, bounds.hi
    if estimate.proven and estimate.kind is Kind.AT_LEAST:
        lo = max(lo, estimate.score)
    elif estimate.proven and estimate.kind is Kind.AT_MOST:
        hi = min(hi, estimate.score)
    if hi > 0 and lo == 0 and value_key(estimate.score, estimate.band) >= (1, 0):
        # Proven no loss, and the estimate hopes for more: it says more than the bound.
        return replace(estimate, nodes=nodes)
    proven = _proof(exact, move, lo, hi, nodes)
    if proven is None:
        return replace(estimate, nodes=nodes)
    if estimate.proven and (estimate.score, estimate.kind) == (proven.score, proven.kind):
        return replace(estimate, nodes=nodes)
    return proven


def _proof_rank(proof: MoveScore, estimate: MoveScore) -> tuple[int, tuple[int, int], int]:
    """Where a move ranks once the solver's proofs have corrected its depth-limited `estimate`
    into `proof` (`_with_bounds`): by `rank_key`, except that a proof that the move cannot win
    ("at most a draw") standing in for a heuristic number ranks at the lower of 0 and that
    number. The bound says only that the move does not win, which every move may share where
    a draw is the best there is; the estimate still says how the move compares with the
    others, and it never ranks the move above what the proof allows."""
    group, value, known = rank_key(proof)
    if (proof.kind, proof.band, estimate.band) == ("at_most", "draw", "heuristic"):
        value = value_key(min(0, estimate.score), Band.HEURISTIC)
    return group, value, known


def _ranked_by_search(estimates: list[MoveScore], exact: RootSolver) -> tuple[MoveScore, ...]:
    """The depth-limited search's scores corrected by the solver's proofs, best first (see
    `_proof_rank`); among moves ranked equal, in the order the search ranks them, as in a
    position the solver never saw (a bound every move shares says nothing about which move to
    play, and the order of the cells says less)."""
    searched = sorted(estimates, key=rank_key, reverse=True)
    pairs = [(_with_bounds(estimate, exact), estimate) for estimate in searched]
    pairs.sort(key=lambda pair: _proof_rank(*pair), reverse=True)
    return tuple(proof for proof, _ in pairs)


def _in_solver_order(proofs: list[MoveScore], exact: RootSolver) -> tuple[MoveScore, ...]:
    """The solver's proofs best first by `rank_key`; among equals, in the solver's own move
    order (the moves it judged most promising first) rather than by cell."""
    cells = exact.solver.ordered(exact.me, exact.opp, exact.empty)
    place = {cell: index for index, cell in enumerate(cells)}
    by_promise = sorted(proofs, key=lambda proof: place[proof.move])
    return tuple(sorted(by_promise, key=rank_key, reverse=True))


def _analyse_alphabeta(
    board: Board,
    depth: int | None,
    time_limit: float | None,
    should_stop: StopCheck | None,
    start: float,
    on_progress: ProgressCallback | None,
    memory: SearchMemory | None,
) -> Analysis:
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
        return [solver_score(exact(), move) for move in moves if exact().moves[move].exact]

    def solve_all() -> list[MoveScore]:
        # The position's value and best move first, as `alphabeta` finds them (the player needs
        # no more): the story's verdict. Then the exact value of every other move for the
        # panel; a root proven no win for the mover leaves it the whole clock, since every
        # estimate a deeper search could add would give way to the solver's "at most" anyway.
        root = exact()
        value, move = root.solve()
        if not tracker.decided:
            source = Source.RULE if root.my_thr >> move & 1 else Source.SEARCH
            tracker.prove(
                root.empties,
                move,
                value,
                root.walk_pv(move, root.empties),
                Kind.EXACT,
                band_of(value),
                source,
            )
        if value <= 0 and time_limit is not None:
            poller.deadline = start + time_limit
        root.settle()
        return solved()

    def finish(
        order: tuple[MoveScore, ...], done: int, cancelled: bool, ties: tuple[int, ...] = ()
    ) -> Analysis:
        # Moves a cancelled solve never reached could be better, unless the best one wins.
        complete = proven_best(order) and (len(order) == len(moves) or order[0].outcome is Band.WIN)
        if order and not cancelled:
            # The story ends on the answer the caller gets.
            best = order[0]
            tracker.close(
                done, best.move, best.score, best.pv, complete, best.kind, best.band, best.source
            )
        return Analysis(
            Algorithm.ALPHABETA,
            order,
            poller.nodes,
            time.perf_counter() - start,
            done,
            complete,
            cancelled,
            ties,
            tuple(tracker.iterations),
        )

    if depth is None and (time_limit is None or solvable(board)):
        # As in `alphabeta`: small boards are solved first, the depth-limited search gets the
        # rest of the time and gives estimates for the moves the solver did not settle.
        solver_ran = True
        if time_limit is not None:
            poller.deadline = start + solver_seconds(board, time_limit)
        try:
            return finish(ranked(solve_all()), exact().empties, False)
        except Stopped:
            if poller.cancelled or time_limit is None:
                return finish(ranked(solved()), 0, True)
            if tracker.decided:
                proofs = [_proven(exact(), move) for move in moves]
                if all(proofs):
                    # The root is proven and the clock ran out while the solver settled the
                    # other moves: each has what the solver proved of it (exact, or "at most").
                    order = _in_solver_order([proof for proof in proofs if proof], exact())
                    return finish(order, exact().empties, False)
            # Otherwise the proofs do not say which move to play (every move "at most a draw",
            # say): the depth-limited search gets the rest of the clock to rank them.
        poller.deadline, poller.timed_out = None, False
    deepening = _Deepening(board, depth, time_limit, None, poller, tracker, start, memory)
    try:
        deepening.run()
        if deepening.needs_solve:
            return finish(ranked(solve_all()), exact().empties, False)
    except Stopped:
        pass
    last = deepening.last
    if last is None:
        return finish(ranked(solved()), 0, True)
    if solver_ran:
        # The solver's proofs correct the estimates (`_ranked_by_search`). A root the solver
        # proved keeps its depth: the deepening only valued the other moves.
        done = exact().empties if tracker.decided else last.depth
        return finish(_ranked_by_search(deepening.scores(), exact()), done, poller.cancelled)
    # The search's own order among equals: the move that gains most first.
    order = tuple(sorted(deepening.scores(), key=rank_key, reverse=True))
    return finish(order, last.depth, poller.cancelled, deepening.ties(order))
