"""Instrumented searches for the learning lab: the engine's values, with every step counted.

The engine's own `alphabeta` mixes every trick it knows (ordering, a table, symmetry, threats,
draw proofs), so its node count says little about any one idea. The lab runs the classic
algorithms one idea at a time instead, all through one negamax searcher with switches:

    minimax            every node of the tree, no pruning
    alphabeta-plain    alpha-beta, moves tried in board order (A1, B1, C1, A2, ...)
    alphabeta-ordered  alpha-beta, winning moves, then blocks, then the moves H1 likes best first
    alphabeta-tt       the same, plus a transposition table (bounds) keyed up to symmetry
    h1 / h2            alpha-beta with move ordering to a fixed depth, H1 / H2 at the cut-off
    yours              the same with a learner's evaluation at the cut-off (`leaf_value`: the
                       caller brings it; `lab.compare.run_yours` brings the learner's file's)

Each search returns its move, its value (the same number the engine gives: seen from the side to
move, a win on ply d is W - d), the positions it visited (the root counted, and a move that wins
at once counted as a position, exactly as `minimax.minimax` counts), its cut-offs, its table hits,
its time and whether its value is proven. Every search takes `should_stop` and `on_progress`
like the engine's, and with a `TraceRecorder` it also records each step (enter a node, evaluate a
leaf, raise alpha, cut, return) for the tree explorer, up to a cap.

Minimax is the reference: it is full width on every board (every empty cell at every node). On
boards bigger than 6×6 the alpha-betas and the heuristic searches consider only the empty cells
next to a mark (`NEAR_STONES`, as the engine's search orders its moves), and say so: the result
counts the root moves they searched and left out (`TraceResult.root_moves`, `legal_moves`), and a
recording gives every node that left moves out ONE extra child standing for them (`TraceNode.
left_out`, `rule`), so the tree shows what was never looked at and why.

Why move ordering matters shows in the cut-offs: an alpha-beta node that cuts off does so with
the first move it tries when the ordering is ideal. Each result counts those
(`first_move_cutoffs`, `TraceResult.first_cut_share`), and a recording marks, at every node that
cut off, the child that caused it and how many moves were tried before it (`TraceNode.cut_by`,
`cut_index`).

This module runs a search and packages its result (`trace_search`, `TraceResult`); its parts:
`methods` the algorithms' switches, `searcher` the negamax searcher, `recording` the recording
of its steps, `tree_count` the size of minimax's tree. Their public names are importable here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tictactoe_tui.engine.lab.methods import (
    HEURISTIC_DEPTH,
    LAB_ALGORITHMS,
    METHODS,
    NEAR_STONES,
    YOURS,
    LeafValue,
    Method,
)
from tictactoe_tui.engine.lab.recording import (
    EVENT_CAP,
    LEFT_OUT,
    EventKind,
    Outcome,
    TraceEvent,
    TraceNode,
    TraceRecorder,
    node_board,
)
from tictactoe_tui.engine.lab.searcher import LabSearcher, h2_bits
from tictactoe_tui.engine.lab.tree_count import TreeSize, tree_size
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import Stopped
from tictactoe_tui.engine.search.types import (
    Band,
    Kind,
    MoveScore,
    Progress,
    ProgressCallback,
    band_of,
    win_score,
)

__all__ = [
    "EVENT_CAP",
    "HEURISTIC_DEPTH",
    "LAB_ALGORITHMS",
    "LEFT_OUT",
    "METHODS",
    "NEAR_STONES",
    "YOURS",
    "EventKind",
    "LeafValue",
    "Method",
    "Outcome",
    "TraceEvent",
    "TraceNode",
    "TraceRecorder",
    "TraceResult",
    "TreeSize",
    "h2_bits",
    "lab_move_order",
    "node_board",
    "record_search",
    "trace_search",
    "tree_size",
]

StopCheck = Callable[[], bool]


@dataclass(frozen=True)
class TraceResult:
    """What one lab search found and what it cost."""

    algorithm: str
    move: int | None
    """The move chosen; None when the game is over or the search stopped before any move."""
    value: int
    """The position's value from the side to move (meaningless when `finished` is False)."""
    positions: int
    """Positions visited, the root included."""
    cutoffs: int
    """Nodes where a move reached beta and the remaining moves were pruned."""
    table_hits: int
    """Nodes answered by the transposition table without a search."""
    seconds: float
    depth: int | None
    """Plies searched; None when searched to the end of the game."""
    complete: bool
    """True when `value` is the game's value: a full search, or a win or loss found in depth."""
    finished: bool = True
    """False when the search was stopped (cancelled or out of time) before it ended."""
    stopped: str | None = None
    """Why it stopped: "cancelled" or "time limit"; None when it finished."""
    move_values: dict[int, int] = field(default_factory=dict)
    """Minimax only: every legal move's value (exact, to the same depth), for agreement checks."""
    pruned: int = 0
    """Moves skipped by cut-offs (each a whole subtree never visited)."""
    first_move_cutoffs: int = 0
    """Cut-offs made by the first move a node tried (with ideal ordering, every one)."""
    rule: str = ""
    """The rule that left legal moves out of the search (`NEAR_STONES`), or empty when it
    searched every legal move at every node (minimax always does)."""
    root_moves: int = 0
    """The moves the search considered at the root (all the legal ones unless `rule` says)."""
    legal_moves: int = 0
    """The legal moves at the root."""
    root_moves_done: int = 0
    """The root moves searched to the end before it finished or stopped: where it stopped."""
    root_scores: tuple[MoveScore, ...] = ()
    """The root moves searched, in the order tried, each with what its value is (see
    `LabSearcher.root_scores`): minimax knows every move's value, alpha-beta the best move's and
    upper bounds for the others."""
    label: str = ""
    """The search's name where its algorithm's would not say enough: the learner's evaluation
    names itself ("yours: my_eval.py"); empty for the lab's own algorithms."""

    @property
    def kind(self) -> Kind:
        """What `value` is: exact when `complete`, else an estimate."""
        return Kind.EXACT if self.complete else Kind.ESTIMATE

    @property
    def first_cut_share(self) -> float | None:
        """The share of the cut-offs made by the first move tried (1.0 is ideal ordering);
        None without cut-offs."""
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else None


def lab_move_order(board: Board, ordered: bool = True) -> list[int]:
    """The moves a lab alpha-beta tries first from `board`, in the order it tries them.

    `ordered`: the ordered searches' order (winning moves, then blocks, then the moves H1 likes
    best); else board order (A1, B1, C1, A2, ...). On boards bigger than 6×6 only the cells
    `NEAR_STONES` are listed, as every lab alpha-beta searches.
    """
    method = METHODS["alphabeta-ordered" if ordered else "alphabeta-plain"]
    sh = fs.shape(board.size, board.k)
    search = LabSearcher(board, method, None, fs.Poller(None, None, sh.poll_mask), None)
    return search.moves(board.bits(board.to_move), board.bits(board.to_move.opponent), -1)


def trace_search(
    board: Board,
    algorithm: str,
    depth: int | None = None,
    time_limit: float | None = None,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
    recorder: TraceRecorder | None = None,
    leaf_value: LeafValue | None = None,
) -> TraceResult:
    """Run the lab's `algorithm` (one of `LAB_ALGORITHMS`, or `YOURS` with its `leaf_value`)
    from `board`, counting as it goes.

    `depth` limits the search (the method's cut-off heuristic scores the positions it reaches;
    h1 and h2 default to `HEURISTIC_DEPTH`, the others to the end of the game). The search stops
    when `should_stop()` says so or after `time_limit` seconds; the result then says it did not
    finish. `on_progress` hears from it every 100 ms; `recorder` (if given) keeps its steps.
    """
    method, depth = _method_and_depth(algorithm, depth)
    start = time.perf_counter()
    if board.is_over:
        value = -win_score(board) if board.winner is not None else 0
        return TraceResult(algorithm, None, value, 1, 0, 0, time.perf_counter() - start, None, True)
    sh = fs.shape(board.size, board.k)
    deadline = None if time_limit is None else start + time_limit
    poller = fs.Poller(should_stop, deadline, sh.poll_mask)
    search = LabSearcher(board, method, depth, poller, recorder, leaf_value)
    if on_progress is not None:
        poller.reporter = _reporter(search, start, on_progress)
    me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
    value, stopped = _run(search, me, opp)
    finished = stopped is None
    proven = finished and _proven(search, value)
    move = search.best_move
    if on_progress is not None and finished and move is not None:
        on_progress(_last_progress(search, start, move, value, proven))
    legal = (sh.full & ~(me | opp)).bit_count()
    considered = search.allowed(me, opp).bit_count()
    return TraceResult(
        algorithm,
        move,
        value,
        poller.nodes,
        search.cutoffs,
        search.hits,
        time.perf_counter() - start,
        search.limit,
        proven,
        finished,
        stopped,
        search.root_values,
        search.pruned,
        search.first_cutoffs,
        NEAR_STONES if considered < legal else "",
        considered,
        legal,
        search.root_done,
        search.root_scores(),
    )


def _run(search: LabSearcher, me: int, opp: int) -> tuple[int, str | None]:
    """Search the root (me, opp): its value and why it stopped ("cancelled", "time limit"),
    None when it finished; a stopped search's value is its best root move's so far."""
    big = search.full_window
    try:
        return search.value(me, opp, 0, -big, big, None), None
    except Stopped:
        return search.best_score, "cancelled" if search.poller.cancelled else "time limit"


def _proven(search: LabSearcher, value: int) -> bool:
    """Whether a finished search's `value` is the game's: no move left out, and searched to the
    end or a win or loss found within its depth; or a win at once."""
    limit = search.limit
    return (
        not search.left_out_any and (limit is None or abs(value) >= search.win - limit)
    ) or value == search.win - 1


def _method_and_depth(algorithm: str, depth: int | None) -> tuple[Method, int | None]:
    """The method `algorithm` names and the depth it searches to (its default when `depth` is
    None); ValueError for an unknown algorithm or a depth below 1."""
    method = METHODS.get(algorithm)
    if method is None:
        raise ValueError(f"unknown algorithm {algorithm!r}: use one of {', '.join(LAB_ALGORITHMS)}")
    if depth is None:
        depth = method.default_depth
    if depth is not None and depth < 1:
        raise ValueError(f"the depth must be at least 1 ply, not {depth}")
    return method, depth


def _reporter(
    search: LabSearcher, start: float, on_progress: ProgressCallback
) -> Callable[[], None]:
    """What the poller calls every 100 ms: `on_progress` hears the best root move so far."""
    poller = search.poller
    return lambda: on_progress(
        Progress(
            0,
            poller.nodes,
            time.perf_counter() - start,
            search.best_move,
            search.best_score,
            () if search.best_move is None else (search.best_move,),
        )
    )


def _last_progress(
    search: LabSearcher, start: float, move: int, value: int, proven: bool
) -> Progress:
    """The progress report of a search that finished with `move` worth `value`."""
    return Progress(
        search.limit or 0,
        search.poller.nodes,
        time.perf_counter() - start,
        move,
        value,
        (move,),
        proven,
        Kind.EXACT if proven else Kind.ESTIMATE,
        band_of(value) if proven else Band.HEURISTIC,
    )


def record_search(
    board: Board,
    algorithm: str,
    depth: int | None = None,
    time_limit: float | None = None,
    cap: int = EVENT_CAP,
    should_stop: StopCheck | None = None,
    on_progress: ProgressCallback | None = None,
) -> tuple[TraceResult, TraceRecorder]:
    """`trace_search` with a fresh recording of its steps (a module-level function for workers)."""
    recorder = TraceRecorder(cap)
    result = trace_search(board, algorithm, depth, time_limit, should_stop, on_progress, recorder)
    return result, recorder
