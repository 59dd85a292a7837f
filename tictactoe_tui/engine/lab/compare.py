"""The lab's comparison: every lab algorithm on one position, each judged against minimax.

`tictactoe-tui compare` and the compare screen both come here. The quick searches (the three
alpha-betas and the two heuristics) run first; plain minimax runs last, under a time budget: its
tree is sized first (counted when small, estimated otherwise), and a run whose speed shows it
would not finish within the budget stops early and says how big the tree is, how long it would
take, and the deepest depth-limited minimax that fits instead.

Minimax is full width on every board, the reference; on boards bigger than 6×6 the other
searches keep to the cells near the stones (`trace.NEAR_STONES`) and each result says how many
root moves that left out, so a disagreement there may be the rule's doing. Each alpha-beta's
result also says how well its moves were ordered: the share of its cut-offs made by the first
move tried (`TraceResult.first_cut_share`, 100% when the ordering is ideal).

The search's story, depth by depth: `score_by_depth` runs a lab algorithm to 1, 2, … plies up to
the depth a comparison gives it and keeps one `IterationInfo` per depth (the move, the score and
what it is), as iterative deepening would find them; the compare screen charts the best score by
depth. A search stopped before it finished still says what it knows: `best_so_far` is the best
root move it finished, a lower bound on the position's value.

A learner's evaluation joins them when asked (`run_yours`, `compare(..., eval_file=...)`): the
H1 search's alpha-beta, to the same depth, with the learner's `evaluate(board, player)` at the
cut-off instead of H1, named "yours: FILE". The file runs as guest code, in a process of its own
(`players.guest`): every position the search can reach at its cut-off is asked for in one call
before it starts, and whatever goes wrong in the file is a `GuestFault`.

A result *agrees* with minimax when its move is one minimax scores best and its value is
minimax's value. Only like can be compared with like: a full minimax judges every result (a
heuristic's value is an estimate, so it agrees only by chance, and its move may still be best);
a depth-limited minimax judges only the searches made to the same depth with the same heuristic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tictactoe_tui.engine.lab.trace import (
    HEURISTIC_DEPTH,
    LAB_ALGORITHMS,
    METHODS,
    YOURS,
    TraceResult,
    TreeSize,
    trace_search,
    tree_size,
)
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GuestCode, GuestFault
from tictactoe_tui.engine.players.guest_search import GuestEvaluator
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search.types import (
    Band,
    IterationInfo,
    Kind,
    MoveScore,
    Progress,
    ProgressCallback,
    band_of,
    rank_key,
)

__all__ = [
    "BIG_POSITION_DEPTH",
    "FULL_SEARCH_MAX_EMPTY",
    "LAB_TIME_LIMIT",
    "NO_VERDICT",
    "SUGGESTED_SLACK",
    "Comparison",
    "GameCost",
    "MinimaxRun",
    "Verdict",
    "YoursFailed",
    "best_so_far",
    "compare",
    "default_depth",
    "game_costs",
    "run_lab_search",
    "run_minimax",
    "run_yours",
    "score_by_depth",
    "search_depth",
    "size_tree",
    "try_yours",
    "verdict",
]

StopCheck = Callable[[], bool]

LAB_TIME_LIMIT = 30.0
"""Seconds each lab search may take unless told otherwise (minimax is the one that needs it)."""

FULL_SEARCH_MAX_EMPTY = 10
"""Positions with at most this many empty cells are searched to the end by default."""

BIG_POSITION_DEPTH = 3
"""Plies searched by default on positions with more empty cells (H1 scores the cut-off)."""

SUGGESTED_SLACK = 4.0
"""A depth suggested to fit the budget (half of it at the measured speed) runs with this many
times the budget: the speed measured on a busy machine varies, and a suggestion that then
proves "too big" again would be no answer."""

PROJECTION_AFTER = 0.25
"""Seconds minimax runs before its speed is trusted to say whether it will fit the budget."""


def default_depth(board: Board) -> int | None:
    """The depth the lab searches `board` to: None (the end) unless it has many empty cells."""
    empties = board.size * board.size - board.move_count
    return None if empties <= FULL_SEARCH_MAX_EMPTY else BIG_POSITION_DEPTH


def search_depth(algorithm: str, depth: int | None, heuristic_depth: int) -> int | None:
    """The depth `algorithm` runs to in a comparison made to `depth`."""
    if METHODS[algorithm].default_depth is not None:
        return heuristic_depth if depth is None else min(depth, heuristic_depth)
    return depth


def run_lab_search(
    board: Board,
    algorithm: str,
    depth: int | None = None,
    heuristic_depth: int = HEURISTIC_DEPTH,
    time_limit: float | None = LAB_TIME_LIMIT,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> TraceResult:
    """One quick lab search as a comparison makes it (a module-level function for workers)."""
    return trace_search(
        board,
        algorithm,
        search_depth(algorithm, depth, heuristic_depth),
        time_limit,
        should_stop,
        on_progress,
    )


def run_yours(
    board: Board,
    path: str | Path,
    call_time: float = DEFAULT_TIME,
    depth: int | None = None,
    heuristic_depth: int = HEURISTIC_DEPTH,
    time_limit: float | None = LAB_TIME_LIMIT,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> TraceResult:
    """The H1 search with the learner's `evaluate` (the file at `path`, `call_time` seconds a
    position) at the cut-off, as a comparison makes it; labelled "yours: FILE". GuestFault when
    the file fails; its process has ended either way. A module-level function for workers."""
    code = GuestCode(path, call_time)
    try:
        if not code.provides().evaluate:
            raise GuestFault(
                f"{code.path.name} defines no evaluate(board, player) to compare", kind="missing"
            )
        plies = search_depth(YOURS, depth, heuristic_depth)
        evaluator = GuestEvaluator(code, should_stop)
        evaluator.prefetch(board, plies)
        result = trace_search(
            board, YOURS, plies, time_limit, should_stop, on_progress, leaf_value=evaluator
        )
    finally:
        code.close()
    return replace(result, label=code.name)


@dataclass(frozen=True)
class YoursFailed:
    """The learner's row could not be made: its file failed, as `reason` says in one line."""

    reason: str
    kind: str
    """The fault's kind (`GuestFault.kind`): "exception", "timeout", "printed", …"""


def try_yours(
    board: Board,
    path: str | Path,
    call_time: float = DEFAULT_TIME,
    depth: int | None = None,
    heuristic_depth: int = HEURISTIC_DEPTH,
    time_limit: float | None = LAB_TIME_LIMIT,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> TraceResult | YoursFailed:
    """`run_yours`, its fault returned rather than raised (a worker job: the compare screen's
    other rows go on when the learner's file fails)."""
    try:
        return run_yours(
            board, path, call_time, depth, heuristic_depth, time_limit, should_stop, on_progress
        )
    except GuestFault as fault:
        return YoursFailed(fault.reason, fault.kind)


def score_by_depth(
    board: Board,
    algorithm: str,
    depth: int | None = None,
    heuristic_depth: int = HEURISTIC_DEPTH,
    time_limit: float | None = LAB_TIME_LIMIT,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> tuple[IterationInfo, ...]:
    """`algorithm` searched to 1, 2, … plies, up to the depth a comparison made to `depth` gives
    it: one `IterationInfo` per depth it finished (its move, score, kind and band; positions and
    seconds counted over every depth so far), as iterative deepening would find them.

    It stops after a proven value (a deeper search gives the same), when `time_limit` seconds
    have passed over all the depths, or when `should_stop()` says so; the rows so far are kept.
    A module-level function for workers (`on_progress` is unused).
    """
    target = search_depth(algorithm, depth, heuristic_depth)
    empties = board.size * board.size - board.move_count
    deepest = empties if target is None else min(target, empties)
    start = time.perf_counter()
    positions = 0
    rows: list[IterationInfo] = []
    for plies in range(1, deepest + 1):
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            break
        result = trace_search(board, algorithm, plies, left, should_stop)
        if not result.finished or result.move is None:
            break
        positions += result.positions
        band = band_of(result.value) if result.complete else Band.HEURISTIC
        rows.append(
            IterationInfo(
                plies,
                result.move,
                result.value,
                result.kind,
                band,
                positions,
                time.perf_counter() - start,
                (result.move,),
                complete=result.complete,
            )
        )
        if result.complete:
            break
    return tuple(rows)


def best_so_far(result: TraceResult) -> MoveScore | None:
    """What a search stopped before it finished knows of the position: the best of the root
    moves it finished, with its score as a lower bound (kind "at_least") on the position's value
    to the depth searched (the moves it never reached can only raise it); None when it finished
    (its value is known) or finished no root move.

    A lower bound on a win is a proven win ("wins, in at most N"); on a heuristic value it bounds
    the depth-limited search's value only.
    """
    if result.finished or not result.root_scores:
        return None
    best = max(result.root_scores, key=rank_key)
    return replace(best, kind=Kind.AT_LEAST)


@dataclass(frozen=True)
class MinimaxRun:
    """Plain minimax under a budget: what it found, or why it stopped and what would fit."""

    result: TraceResult
    tree: TreeSize
    """The size of the tree it was asked to search."""
    positions_per_second: float
    """Its measured speed."""
    too_big: bool = False
    """True when it stopped because the tree would not fit the time budget."""
    suggested_depth: int | None = None
    """When too big: the deepest depth-limited minimax estimated to fit the budget."""

    @property
    def estimated_seconds(self) -> float:
        """How long the whole tree would take at the measured speed."""
        return self.tree.positions / max(self.positions_per_second, 1.0)


def run_minimax(
    board: Board,
    depth: int | None = None,
    time_limit: float = LAB_TIME_LIMIT,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
    tree: TreeSize | None = None,
) -> MinimaxRun:
    """Plain minimax to `depth`, stopped early when its tree would take over `time_limit` s.

    `tree` is the tree's size if the caller already has it (to draw a progress bar).
    """
    if tree is None:
        tree = tree_size(board, depth)
    hopeless = False

    def watch(progress: Progress) -> None:
        nonlocal hopeless
        if progress.elapsed >= PROJECTION_AFTER and progress.nodes:
            projected = progress.elapsed * tree.positions / progress.nodes
            hopeless = projected > time_limit
        if on_progress is not None:
            on_progress(progress)

    def stop() -> bool:
        return hopeless or (should_stop is not None and should_stop())

    result = trace_search(board, "minimax", depth, time_limit, stop, watch)
    rate = result.positions / max(result.seconds, 1e-6)
    too_big = not result.finished and (hopeless or result.stopped == "time limit")
    if too_big:
        # The moves it scored before it stopped stay (`root_scores`, `root_moves_done`).
        result = replace(
            result,
            cutoffs=0,
            table_hits=0,
            complete=False,
            finished=False,
            stopped="too big",
            move_values={},
            pruned=0,
        )
        return MinimaxRun(
            result, tree, rate, True, _deepest_fitting(board, depth, rate, time_limit)
        )
    return MinimaxRun(result, tree, rate)


def _deepest_fitting(board: Board, depth: int | None, rate: float, time_limit: float) -> int | None:
    """The deepest depth (below `depth`) whose minimax tree fits `time_limit` at `rate`.

    Estimates and speeds vary, so "fits" means half the budget: the suggestion must finish.
    """
    empties = board.size * board.size - board.move_count
    ceiling = empties - 1 if depth is None else min(depth, empties) - 1
    best = None
    for plies in range(1, ceiling + 1):
        if tree_size(board, plies).positions > rate * time_limit / 2:
            break
        best = plies
    return best


@dataclass(frozen=True)
class Verdict:
    """Whether a result agrees with minimax; None where minimax gives nothing to compare with."""

    move: bool | None
    """Its move is one minimax scores best."""
    value: bool | None
    """Its value is minimax's value."""

    @property
    def agrees(self) -> bool | None:
        """Both agree (None when there is nothing to compare with)."""
        if self.move is None or self.value is None:
            return None
        return self.move and self.value


NO_VERDICT = Verdict(None, None)
"""Nothing to compare with."""


def verdict(result: TraceResult, reference: TraceResult | None) -> Verdict:
    """Judge `result` against the minimax run `reference` (see the module's docstring)."""
    if reference is None or not reference.finished or not reference.move_values:
        return NO_VERDICT
    if result.algorithm == "minimax":
        return NO_VERDICT  # the reference itself
    if reference.depth is not None and (
        result.depth != reference.depth or METHODS[result.algorithm].heuristic != "h1"
    ):
        return NO_VERDICT
    if not result.finished or result.move is None:
        return Verdict(False, False)
    best = max(reference.move_values.values())
    return Verdict(reference.move_values.get(result.move) == best, result.value == reference.value)


@dataclass(frozen=True)
class Comparison:
    """Every lab algorithm on one position, with minimax's run and each result's verdict."""

    board: Board
    results: tuple[TraceResult, ...]
    """One per algorithm, in `LAB_ALGORITHMS` order, then the learner's (`YOURS`) if asked."""
    minimax: MinimaxRun
    too_big_tree: TreeSize | None
    """When the tree asked for was too big and minimax ran to a depth instead: that tree."""
    time_limit: float
    """The budget each search had."""
    eval_file: Path | None = None
    """The learner's file, when its row (`YOURS`) is in `results`."""

    def verdict(self, result: TraceResult) -> Verdict:
        """How `result` compares with minimax's."""
        return verdict(result, self.minimax.result)


def compare(
    board: Board,
    depth: int | None = None,
    heuristic_depth: int = HEURISTIC_DEPTH,
    time_limit: float = LAB_TIME_LIMIT,
    minimax_depth: int | None = None,
    should_stop: StopCheck | None = None,
    eval_file: str | Path | None = None,
    eval_time: float = DEFAULT_TIME,
) -> Comparison:
    """Run every lab algorithm on `board` (which must not be finished).

    `depth` None means `default_depth(board)`. Minimax runs to `minimax_depth` if given, else to
    `depth`; when that tree is too big for `time_limit`, minimax runs again to the deepest depth
    that fits (if any) and `too_big_tree` says how big the tree it could not search is.
    With `eval_file`, the learner's row (`run_yours`, `eval_time` seconds a position) runs
    first, so a file that fails raises its `GuestFault` before the long searches start.
    """
    if depth is None:
        depth = default_depth(board)
    yours = (
        ()
        if eval_file is None
        else (
            run_yours(board, eval_file, eval_time, depth, heuristic_depth, time_limit, should_stop),
        )
    )
    results = {
        name: run_lab_search(board, name, depth, heuristic_depth, time_limit, should_stop)
        for name in LAB_ALGORITHMS
        if name != "minimax"
    }
    run = run_minimax(
        board, depth if minimax_depth is None else minimax_depth, time_limit, should_stop
    )
    too_big_tree = None
    if run.too_big and run.suggested_depth is not None:
        fallback = run_minimax(
            board, run.suggested_depth, time_limit * SUGGESTED_SLACK, should_stop
        )
        if fallback.result.finished:
            too_big_tree, run = run.tree, fallback
    results["minimax"] = run.result
    return Comparison(
        board,
        tuple(results[name] for name in LAB_ALGORITHMS) + yours,
        run,
        too_big_tree,
        time_limit,
        None if eval_file is None else Path(eval_file).resolve(),
    )


@dataclass(frozen=True)
class GameCost:
    """What one position of the game costs minimax and alpha-beta (for the chart over a game)."""

    minimax: TreeSize
    plain: int
    """Positions alpha-beta in board order visits."""
    table: int
    """Positions alpha-beta with ordering and the table visits."""


def game_costs(
    boards: Sequence[Board],
    depth: int | None = None,
    time_limit: float = LAB_TIME_LIMIT,
    should_stop: StopCheck | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[GameCost]:
    """The cost of each of `boards` (finished ones skipped), each searched to `depth`.

    When `should_stop()` says so, the costs of the positions done so far are returned.

    Minimax's count is its tree's size, counted or estimated (searching it would tell the same
    number: the lab's tests check that on every 3×3 position); the alpha-betas are run.
    """
    costs: list[GameCost] = []
    for board in boards:
        if should_stop is not None and should_stop():
            break
        if board.is_over:
            continue
        plies = default_depth(board) if depth is None else depth
        plain = trace_search(board, "alphabeta-plain", plies, time_limit, should_stop)
        table = trace_search(board, "alphabeta-tt", plies, time_limit, should_stop)
        costs.append(GameCost(tree_size(board, plies), plain.positions, table.positions))
        if on_progress is not None:
            on_progress(len(costs))
    return costs


def size_tree(
    board: Board,
    depth: int | None = None,
    *,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> TreeSize:
    """`tree_size` as a worker job (the keywords a `thinking.Thinker` job takes are unused)."""
    return tree_size(board, depth)
