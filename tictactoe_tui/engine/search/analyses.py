"""The per-algorithm analyses behind `api.analyse_position`: alpha-beta (the exact solver and the
iterative deepening together, `analyse_alphabeta`) and the one-ply heuristics
(`analyse_heuristic`); minimax's is `minimax.analyse_minimax`."""

from __future__ import annotations

import time

from tictactoe_tui.engine.evaluation.heuristics import h1, h2
from tictactoe_tui.engine.proofs.solver import RootSolver, Solver, solvable, solver_seconds
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.claims import capped_estimate
from tictactoe_tui.engine.search.deepening import Deepening, SearchMemory, time_limit_for
from tictactoe_tui.engine.search.kernel import Stopped, Tracker
from tictactoe_tui.engine.search.solver_scores import (
    bounds_listener,
    in_solver_order,
    proven_score,
    ranked_by_search,
    solver_score,
)
from tictactoe_tui.engine.search.types import (
    Algorithm,
    Analysis,
    Band,
    IterationInfo,
    Kind,
    MoveScore,
    ProgressCallback,
    Rule,
    Source,
    StopCheck,
    band_of,
    proven_best,
    rank_key,
    ranked,
    win_score,
)


def analyse_heuristic(board: Board, algorithm: Algorithm, start: float) -> Analysis:
    """Every legal move of `board` scored by the heuristic `algorithm` (h1 or h2) of the board
    after it, from the mover's side; a move that wins or fills the board by its rule."""
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
            value = capped_estimate(heuristic(after, mover), big)
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


def analyse_alphabeta(
    board: Board,
    depth: int | None,
    time_limit: float | None,
    should_stop: StopCheck | None,
    start: float,
    on_progress: ProgressCallback | None,
    memory: SearchMemory | None,
) -> Analysis:
    """Every legal move of `board` scored by alpha-beta (see `api.analyse_position`): small
    boards solved first, the depth-limited search for what the solver leaves."""
    time_limit = time_limit_for(board, depth, time_limit)
    sh = fs.shape(board.size, board.k)
    poller = fs.Poller(should_stop, None, sh.poll_mask)
    tracker = Tracker(poller, start, on_progress)
    run = _AlphaBetaAnalysis(board, sh, time_limit, poller, tracker, start)
    solver_ran = depth is None and (time_limit is None or solvable(board))
    if solver_ran:
        solved = run.solve_first()
        if solved is not None:
            return solved
    return run.deepen(depth, memory, solver_ran)


class _AlphaBetaAnalysis:
    """One alpha-beta analysis: the exact solver (built on first use), the deepening, and the
    `Analysis` they give together."""

    def __init__(
        self,
        board: Board,
        sh: fs.Shape,
        time_limit: float | None,
        poller: fs.Poller,
        tracker: Tracker,
        start: float,
    ) -> None:
        """The analysis of `board` within `time_limit`, under `poller`, heard by `tracker`,
        started at `start`."""
        self.board = board
        self.sh = sh
        self.time_limit = time_limit
        self.poller = poller
        self.tracker = tracker
        self.start = start
        self.moves = board.legal_moves()
        self._exact: RootSolver | None = None

    def exact(self) -> RootSolver:
        """The exact solver of the root."""
        # Built on first use: its tables cost time on a big board the solver never sees.
        if self._exact is None:
            self._exact = RootSolver(
                self.board, Solver(self.sh, self.poller), bounds_listener(self.tracker)
            )
        return self._exact

    def solved(self) -> list[MoveScore]:
        """The root moves the solver has settled so far, exactly."""
        if self._exact is None:
            return []
        exact = self._exact
        return [solver_score(exact, move) for move in self.moves if exact.moves[move].exact]

    def solve_all(self) -> list[MoveScore]:
        """Solve the root, then every other move (`Stopped` when the clock or the caller stops
        it first)."""
        # The position's value and best move first, as `alphabeta` finds them (the player needs
        # no more): the story's verdict. Then the exact value of every other move for the
        # panel; a root proven no win for the mover leaves it the whole clock, since every
        # estimate a deeper search could add would give way to the solver's "at most" anyway.
        root = self.exact()
        value, move = root.solve()
        if not self.tracker.decided:
            source = Source.RULE if root.my_thr >> move & 1 else Source.SEARCH
            self.tracker.prove(
                root.empties,
                move,
                value,
                root.walk_pv(move, root.empties),
                Kind.EXACT,
                band_of(value),
                source,
            )
        if value <= 0 and self.time_limit is not None:
            self.poller.deadline = self.start + self.time_limit
        root.settle()
        return self.solved()

    def solve_first(self) -> Analysis | None:
        """The analysis the solver gives within its share of the clock, or None when its proofs
        do not say which move to play and the depth-limited search is to rank the moves."""
        # As in `alphabeta`: small boards are solved first, the depth-limited search gets the
        # rest of the time and gives estimates for the moves the solver did not settle.
        poller = self.poller
        if self.time_limit is not None:
            poller.deadline = self.start + solver_seconds(self.board, self.time_limit)
        try:
            return self.finish(ranked(self.solve_all()), self.exact().empties, False)
        except Stopped:
            if poller.cancelled or self.time_limit is None:
                return self.finish(ranked(self.solved()), 0, True)
            if self.tracker.decided:
                proofs = [proven_score(self.exact(), move) for move in self.moves]
                if all(proofs):
                    # The root is proven and the clock ran out while the solver settled the
                    # other moves: each has what the solver proved of it (exact, or "at most").
                    order = in_solver_order([proof for proof in proofs if proof], self.exact())
                    return self.finish(order, self.exact().empties, False)
            # Otherwise the proofs do not say which move to play (every move "at most a draw",
            # say): the depth-limited search gets the rest of the clock to rank them.
        poller.deadline, poller.timed_out = None, False
        return None

    def deepen(self, depth: int | None, memory: SearchMemory | None, solver_ran: bool) -> Analysis:
        """The analysis of the depth-limited search, corrected by the solver's proofs if it ran."""
        poller = self.poller
        tracker = self.tracker
        deepening = Deepening(
            self.board, depth, self.time_limit, None, poller, tracker, self.start, memory
        )
        try:
            deepening.run()
            if deepening.needs_solve:
                return self.finish(ranked(self.solve_all()), self.exact().empties, False)
        except Stopped:
            pass
        last = deepening.last
        if last is None:
            return self.finish(ranked(self.solved()), 0, True)
        if solver_ran:
            # The solver's proofs correct the estimates (`ranked_by_search`). A root the solver
            # proved keeps its depth: the deepening only valued the other moves.
            done = self.exact().empties if tracker.decided else last.depth
            order = ranked_by_search(deepening.scores(), self.exact())
            return self.finish(order, done, poller.cancelled)
        # The search's own order among equals: the move that gains most first.
        order = tuple(sorted(deepening.scores(), key=rank_key, reverse=True))
        return self.finish(order, last.depth, poller.cancelled, deepening.ties(order))

    def finish(
        self, order: tuple[MoveScore, ...], done: int, cancelled: bool, ties: tuple[int, ...] = ()
    ) -> Analysis:
        """The analysis of the moves `order` after `done` plies."""
        # Moves a cancelled solve never reached could be better, unless the best one wins.
        moves = self.moves
        complete = proven_best(order) and (len(order) == len(moves) or order[0].outcome is Band.WIN)
        if order and not cancelled:
            # The story ends on the answer the caller gets.
            best = order[0]
            self.tracker.close(
                done, best.move, best.score, best.pv, complete, best.kind, best.band, best.source
            )
        return Analysis(
            Algorithm.ALPHABETA,
            order,
            self.poller.nodes,
            time.perf_counter() - self.start,
            done,
            complete,
            cancelled,
            ties,
            tuple(self.tracker.iterations),
        )
