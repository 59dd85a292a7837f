"""A learner's evaluation beside H1 and H2, move by move: what `analyse --eval FILE` shows.

For every legal move of a position, the value of the board after it, seen from the player who
made it (the mover), by H1, by H2 and by the learner's `evaluate(board, player)`: the one-ply
look the heuristic players (and the heuristic lab) rank moves by. The learner's values come from
its file run as guest code (`players.guest`), all of them in one call; whatever goes wrong in
the file is a `GuestFault`, and its process has ended either way.

`record_yours` is the tree view's search with the learner's evaluation: the H1 search (the lab's
`h1` method) with the file's `evaluate` at the cut-off, recorded step by step, labelled "yours:
FILE"; every position the search can reach at its cut-off is asked for in one call before it
starts (`GuestEvaluator.prefetch`), and a fault comes back as `YoursFailed`, in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from tictactoe_tui.engine.evaluation.heuristics import h1, h2
from tictactoe_tui.engine.lab.compare import YoursFailed
from tictactoe_tui.engine.lab.trace import (
    EVENT_CAP,
    HEURISTIC_DEPTH,
    YOURS,
    TraceRecorder,
    TraceResult,
    trace_search,
)
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GuestCode, GuestFault
from tictactoe_tui.engine.players.guest_search import GuestEvaluator
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search.types import ProgressCallback

__all__ = ["MoveValues", "OnePly", "one_ply_values", "record_yours", "try_one_ply"]


@dataclass(frozen=True)
class MoveValues:
    """One move's one-ply values, for the mover: the board after the move by each evaluation."""

    move: int
    h1: int
    h2: int
    yours: float


@dataclass(frozen=True)
class OnePly:
    """Every legal move's values (in cell order), and the learner's evaluation's name."""

    name: str
    """ "yours: FILE", as the screens name it."""
    path: Path
    moves: tuple[MoveValues, ...]

    def of(self, move: int) -> MoveValues:
        """The values of `move` (KeyError if it is not a legal move of the position)."""
        for values in self.moves:
            if values.move == move:
                return values
        raise KeyError(move)


def one_ply_values(
    board: Board,
    path: str | Path,
    call_time: float = DEFAULT_TIME,
    should_stop: Callable[[], bool] | None = None,
) -> OnePly:
    """H1, H2 and the file at `path`'s `evaluate` on the board after each legal move of
    `board`, for its side to move (`call_time` seconds a position; GuestFault when it fails,
    also on a finished board, which has no move: the file is loaded and checked all the same;
    `should_stop` ends the wait: PlayerStopped)."""
    code = GuestCode(path, call_time)
    mover = board.to_move
    moves = board.legal_moves()
    try:
        values = code.evaluate_many([(board.play(move), mover) for move in moves], should_stop)
    finally:
        code.close()
    rows = tuple(
        MoveValues(move, h1(board.play(move), mover), h2(board.play(move), mover), value)
        for move, value in zip(moves, values, strict=True)
    )
    return OnePly(code.name, code.path, rows)


def record_yours(
    board: Board,
    path: str | Path,
    depth: int | None = None,
    time_limit: float | None = None,
    cap: int = EVENT_CAP,
    call_time: float = DEFAULT_TIME,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> tuple[TraceResult, TraceRecorder] | YoursFailed:
    """The H1 search from `board` to `depth` plies (None: `HEURISTIC_DEPTH`) with the file at
    `path`'s `evaluate` at the cut-off, recorded (`cap` events), labelled "yours: FILE"; or,
    when the file fails, why in one line. Its process has ended either way. A module-level
    function for workers, as `trace.record_search` is."""
    plies = HEURISTIC_DEPTH if depth is None else depth
    try:
        code = GuestCode(path, call_time)
    except ValueError as error:  # the file went, or serve does not offer it
        return YoursFailed(str(error), "missing")
    recorder = TraceRecorder(cap)
    try:
        if not code.provides().evaluate:
            raise GuestFault(
                f"{code.path.name} defines no evaluate(board, player) for the search",
                kind="missing",
            )
        evaluator = GuestEvaluator(code, should_stop)
        evaluator.prefetch(board, plies)
        result = trace_search(
            board, YOURS, plies, time_limit, should_stop, on_progress, recorder, evaluator
        )
    except GuestFault as fault:
        return YoursFailed(fault.reason, fault.kind)
    finally:
        code.close()
    return replace(result, label=code.name), recorder


def try_one_ply(
    board: Board,
    path: str | Path,
    call_time: float = DEFAULT_TIME,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> OnePly | YoursFailed:
    """`one_ply_values`, its fault returned rather than raised (a job: the heuristic lab's
    and the panel's other numbers go on when the learner's file fails). The file is read
    afresh each call."""
    try:
        return one_ply_values(board, path, call_time, should_stop)
    except ValueError as error:  # the file went, or serve does not offer it
        return YoursFailed(str(error), "missing")
    except GuestFault as fault:
        return YoursFailed(fault.reason, fault.kind)
