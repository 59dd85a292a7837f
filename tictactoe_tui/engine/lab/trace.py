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
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from math import comb
from typing import Any

from tictactoe_tui.engine.proofs.symmetry import ShapeKeys
from tictactoe_tui.engine.rules.board import Board, Mark
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import Stopped, completes_line, h1_bits, heuristic_cap
from tictactoe_tui.engine.search.types import (
    Band,
    Kind,
    MoveScore,
    Progress,
    ProgressCallback,
    Rule,
    Source,
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

LeafValue = Callable[[Board, Mark], int]
"""An evaluation brought by the caller: a position's worth for the player given (its side to
move at the cut-off), as `h1(board, player)` is."""

LAB_ALGORITHMS = ("minimax", "alphabeta-plain", "alphabeta-ordered", "alphabeta-tt", "h1", "h2")
"""The lab's algorithms, in the order the compare table lists them."""

YOURS = "yours"
"""The lab's H1 search with the caller's evaluation at the cut-off (a learner's `evaluate`):
not one of `LAB_ALGORITHMS`, it runs only when asked for, with its `leaf_value`."""

HEURISTIC_DEPTH = 2
"""Plies the h1 and h2 searches look ahead unless told otherwise: the move and the reply."""

EVENT_CAP = 200_000
"""Events a `TraceRecorder` keeps by default; the search goes on past it, unrecorded."""

NEAR_STONES = "near stones only"
"""The rule by which the alpha-betas leave moves out on boards bigger than 6×6: only the empty
cells next to a mark are searched (the centre when there is no mark)."""

LEFT_OUT = "left out"
"""`TraceNode.leaf` of the node that stands for the moves a node did not search."""


@dataclass(frozen=True)
class Method:
    """Which of the classic ideas a lab search uses."""

    name: str
    prune: bool
    """Alpha-beta pruning (False: plain minimax, every node)."""
    order: bool
    """Try winning moves, then blocks, then the moves H1 likes best, first."""
    table: bool
    """A transposition table of values and bounds, keyed up to the board's symmetries."""
    heuristic: str = "h1"
    """What scores a position at the depth cut-off: "h1", "h2" or `YOURS` (the caller's)."""
    default_depth: int | None = None
    """Plies searched when the caller gives no depth; None means to the end of the game."""


METHODS: dict[str, Method] = {
    "minimax": Method("minimax", prune=False, order=False, table=False),
    "alphabeta-plain": Method("alphabeta-plain", prune=True, order=False, table=False),
    "alphabeta-ordered": Method("alphabeta-ordered", prune=True, order=True, table=False),
    "alphabeta-tt": Method("alphabeta-tt", prune=True, order=True, table=True),
    "h1": Method(
        "h1", prune=True, order=True, table=False, heuristic="h1", default_depth=HEURISTIC_DEPTH
    ),
    "h2": Method(
        "h2", prune=True, order=True, table=False, heuristic="h2", default_depth=HEURISTIC_DEPTH
    ),
    YOURS: Method(
        YOURS, prune=True, order=True, table=False, heuristic=YOURS, default_depth=HEURISTIC_DEPTH
    ),
}
"""Each lab algorithm by name."""


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
    `_Searcher.root_scores`): minimax knows every move's value, alpha-beta the best move's and
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


@dataclass(frozen=True)
class TreeSize:
    """How many positions plain minimax visits from a position (the root counted)."""

    positions: int
    exact: bool
    """True when counted; False when estimated by random probes (Knuth's estimator)."""


class Outcome(StrEnum):
    """How a move ended against the window it was searched with (seen by the player making it)."""

    EXACT = "exact"
    """Strictly inside the window: the value is exact."""
    CUTOFF = "cutoff"
    """At or above beta: good enough to cut the moves after it (the value is a lower bound)."""
    FAIL_LOW = "fail-low"
    """At or below alpha: no better than a move found before (the value is an upper bound)."""


class EventKind(StrEnum):
    """The steps of a search, as the tree explorer replays them."""

    ENTER = "enter"
    """A node is entered with a window."""
    LEAF = "leaf"
    """A node is scored without a search: a win, a draw, the heuristic, or the table."""
    RAISE = "raise"
    """The side to move at a node found a better move: its alpha rises."""
    CUT = "cut"
    """A move reached beta: the node's remaining moves are pruned."""
    RETURN = "return"
    """A node's value goes back to its parent."""


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One step of a recorded search.

    Numbers are seen by the player choosing: for ENTER, LEAF and RETURN the player who made the
    node's move (at the root: the side to move), for RAISE and CUT the side to move at the node.
    """

    kind: EventKind
    node: int
    """The id of the node (an index into `TraceRecorder.nodes`)."""
    alpha: int
    beta: int
    value: int | None
    """LEAF / RETURN: the move's value; RAISE: the new alpha; CUT: the value that reached beta."""
    positions: int
    """Positions visited so far."""
    pruned: int
    """Moves pruned so far."""


@dataclass(slots=True)
class TraceNode:
    """One position of a recorded search, labelled by the move that led to it.

    `alpha`, `beta` and `value` are seen by the player who made `move` (at the root, by the side
    to move): the window it searched this move with, and what the move turned out to be worth.
    """

    id: int
    parent: int
    """The parent's id; -1 for the root."""
    move: int | None
    """The move from the parent; None for the root."""
    ply: int
    alpha: int
    beta: int
    entered: int
    """Index of the ENTER event."""
    children: list[int] = field(default_factory=list)
    value: int | None = None
    leaf: str | None = None
    """How a leaf was scored: "win", "draw", "heuristic" or "table"; None for a searched node."""
    returned: int = -1
    """Index of the RETURN event; -1 while (or if never) recorded."""
    pruned: tuple[int, ...] = ()
    """The moves this node's side to move skipped after a cut-off."""
    cut_at: int = -1
    """Index of the CUT event; -1 if none."""
    cut_by: int = -1
    """The id of the child whose value caused the cut-off; -1 if none (or not recorded)."""
    cut_index: int = -1
    """How many moves this node tried before the one that cut off (0: the first one); -1 if
    none."""
    left_out: tuple[int, ...] = ()
    """For the node standing for moves a search did not try (`leaf == LEFT_OUT`, `move` None):
    those moves, left out of its parent's search by `rule`."""
    rule: str = ""
    """For such a node: the rule that left the moves out (`NEAR_STONES`)."""

    @property
    def outcome(self) -> Outcome | None:
        """How the move ended against its window; None before it returned (the root: exact)."""
        if self.value is None:
            return None
        if self.parent < 0 or self.alpha < self.value < self.beta:
            return Outcome.EXACT
        return Outcome.CUTOFF if self.value >= self.beta else Outcome.FAIL_LOW


class TraceRecorder:
    """Records a search's nodes and events for the tree explorer, up to `cap` events.

    Past the cap nothing more is kept, but the search goes on (its numbers stay right) and
    `total_events` keeps counting, so the explorer can say how much it does not show.
    """

    def __init__(self, cap: int = EVENT_CAP) -> None:
        """An empty recording that keeps at most `cap` events."""
        self.cap = cap
        self.nodes: list[TraceNode] = []
        self.events: list[TraceEvent] = []
        self.total_events = 0
        """Events the search produced, recorded or not."""
        self._stack: list[int] = []

    @property
    def truncated(self) -> bool:
        """True when the search produced more events than the cap."""
        return self.total_events > len(self.events)

    # A recording crosses from the worker process by pickle. Plain tuples pickle many times
    # faster than dataclasses (about 0.1 s against 1 s for 70,000 events), so that is the form
    # it travels in; the objects are rebuilt on arrival.

    def __getstate__(self) -> dict[str, object]:
        """The recording as plain tuples, for pickle."""
        return {
            "cap": self.cap,
            "total_events": self.total_events,
            "events": [
                (e.kind.value, e.node, e.alpha, e.beta, e.value, e.positions, e.pruned)
                for e in self.events
            ],
            "nodes": [
                (
                    n.id,
                    n.parent,
                    n.move,
                    n.ply,
                    n.alpha,
                    n.beta,
                    n.entered,
                    n.children,
                    n.value,
                    n.leaf,
                    n.returned,
                    n.pruned,
                    n.cut_at,
                    n.cut_by,
                    n.cut_index,
                    n.left_out,
                    n.rule,
                )
                for n in self.nodes
            ],
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild a recording from `__getstate__`'s tuples."""
        self.cap = state["cap"]
        self.total_events = state["total_events"]
        kinds = {kind.value: kind for kind in EventKind}
        self.events = [TraceEvent(kinds[kind], *rest) for kind, *rest in state["events"]]
        self.nodes = [TraceNode(*fields) for fields in state["nodes"]]
        self._stack = []

    def _add(
        self,
        kind: EventKind,
        node: int,
        alpha: int,
        beta: int,
        value: int | None,
        positions: int,
        pruned: int,
    ) -> int:
        """Record an event if there is room and its node was recorded; return its index or -1."""
        self.total_events += 1
        if node < 0 or len(self.events) >= self.cap:
            return -1
        self.events.append(TraceEvent(kind, node, alpha, beta, value, positions, pruned))
        return len(self.events) - 1

    def enter(
        self, move: int | None, ply: int, alpha: int, beta: int, positions: int, pruned: int
    ) -> None:
        """The search enters a node with the negamax window (alpha, beta) of its side to move."""
        parent = self._stack[-1] if self._stack else -1
        if ply:
            alpha, beta = -beta, -alpha
        self.total_events += 1
        if (ply and parent < 0) or len(self.events) >= self.cap:
            self._stack.append(-1)
            return
        node = TraceNode(len(self.nodes), parent, move, ply, alpha, beta, len(self.events))
        self.nodes.append(node)
        if parent >= 0:
            self.nodes[parent].children.append(node.id)
        self.events.append(
            TraceEvent(EventKind.ENTER, node.id, alpha, beta, None, positions, pruned)
        )
        self._stack.append(node.id)

    def leaf(self, value: int, how: str, positions: int, pruned: int) -> None:
        """The current node is scored without a search (`value` from its side to move)."""
        node = self._stack[-1]
        if node < 0:
            self.total_events += 1
            return
        item = self.nodes[node]
        if (
            self._add(
                EventKind.LEAF,
                node,
                item.alpha,
                item.beta,
                self._seen_by_mover(node, value),
                positions,
                pruned,
            )
            >= 0
        ):
            item.leaf = how

    def raise_alpha(self, alpha: int, beta: int, positions: int, pruned: int) -> None:
        """The side to move at the current node raised its alpha to `alpha`."""
        self._add(EventKind.RAISE, self._stack[-1], alpha, beta, alpha, positions, pruned)

    def cut(
        self,
        skipped: list[int],
        alpha: int,
        beta: int,
        positions: int,
        pruned: int,
        move: int = -1,
        tried: int = -1,
    ) -> None:
        """A move reached beta at the current node; `skipped` are the moves never tried.

        `move` is the move that reached beta and `tried` how many moves came before it.
        """
        node = self._stack[-1]
        index = self._add(EventKind.CUT, node, alpha, beta, alpha, positions, pruned)
        if index >= 0:
            item = self.nodes[node]
            item.pruned = tuple(skipped)
            item.cut_at = index
            item.cut_index = tried
            item.cut_by = next(
                (child for child in reversed(item.children) if self.nodes[child].move == move), -1
            )

    def left_out(self, moves: list[int], rule: str) -> None:
        """The current node's search leaves `moves` out by `rule`: one child stands for them.

        It has no event of its own (nothing was searched) and shows from its parent's entry on.
        """
        node = self._stack[-1]
        if node < 0 or not moves:
            return
        parent = self.nodes[node]
        # The window of the side choosing at the parent, as children's windows are seen.
        alpha, beta = (
            (parent.alpha, parent.beta) if not parent.ply else (-parent.beta, -parent.alpha)
        )
        stand_in = TraceNode(
            len(self.nodes),
            node,
            None,
            parent.ply + 1,
            alpha,
            beta,
            parent.entered,
            leaf=LEFT_OUT,
            left_out=tuple(moves),
            rule=rule,
        )
        self.nodes.append(stand_in)
        parent.children.append(stand_in.id)

    def leave(self, value: int, positions: int, pruned: int) -> None:
        """The current node returns `value` (from its side to move) to its parent."""
        node = self._stack.pop()
        if node < 0:
            self.total_events += 1
            return
        item = self.nodes[node]
        shown = self._seen_by_mover(node, value)
        index = self._add(EventKind.RETURN, node, item.alpha, item.beta, shown, positions, pruned)
        if index >= 0:
            item.value = shown
            item.returned = index

    def _seen_by_mover(self, node: int, value: int) -> int:
        """A node's negamax value as the player who moved into it sees it (the root: as is)."""
        return -value if self.nodes[node].ply else value


def node_board(root: Board, nodes: list[TraceNode], node: int) -> Board:
    """The position at `node` of a recording that started from `root`."""
    path: list[int] = []
    while node >= 0 and nodes[node].move is not None:
        move = nodes[node].move
        assert move is not None
        path.append(move)
        node = nodes[node].parent
    board = root
    for move in reversed(path):
        board = board.play(move)
    return board


def h2_bits(sh: fs.Shape, me: int, opp: int) -> int:
    """H2 seen from the owner of `me`, from the bitboards: Open(me) - Open(opp) (= `h2`)."""
    value = 0
    for line in sh.lines:
        if not opp & line:
            value += 1
        if not me & line:
            value -= 1
    return value


# -- the searcher ---------------------------------------------------------------------------------


class _Searcher:
    """Negamax with the switches of a `Method`, counting everything the lab shows."""

    def __init__(
        self,
        board: Board,
        method: Method,
        depth: int | None,
        poller: fs.Poller,
        recorder: TraceRecorder | None,
        leaf_value: LeafValue | None = None,
    ) -> None:
        sh = fs.shape(board.size, board.k)
        self.sh = sh
        self.method = method
        self.poller = poller
        self.recorder = recorder
        self.win = win_score(board)
        empties = sh.cells - board.move_count
        # A limit the game cannot reach is no limit: such a search is a full one.
        self.limit = depth if depth is not None and depth < empties else None
        self.cap = heuristic_cap(sh, self.limit)
        if method.heuristic == YOURS:
            if leaf_value is None:
                raise ValueError("the search with your evaluation needs the evaluation")
            self.evaluate = _bits_evaluation(board, leaf_value)
        else:
            self.evaluate = h1_bits if method.heuristic == "h1" else h2_bits
        self.table: dict[int, tuple[int, int, int]] | None = {} if method.table else None
        # The engine's solver knows the board's symmetries; the lab borrows its keys.
        self.keys = ShapeKeys(sh)
        self.full_window = self.win + 1
        self.cutoffs = 0
        self.first_cutoffs = 0
        self.hits = 0
        self.pruned = 0
        # Minimax is the reference: full width everywhere. The others keep to the cells near
        # the stones on big boards, as the engine's search orders its moves.
        self.narrow = method.prune and not sh.all_cells
        self.root_done = 0
        self.empties = empties
        self.root_log: list[tuple[int, int, int, str, int]] = []
        """Per root move searched: the move, its value, the root's alpha before it, how it was
        valued ("win" at once, "table", "search") and the positions it took."""
        self.left_out_any = False
        """True once some node left legal moves out (`NEAR_STONES`)."""
        self.root_values: dict[int, int] = {}
        self.best_move: int | None = None
        self.best_score = 0

    # -- moves --------------------------------------------------------------------------------

    def allowed(self, me: int, opp: int) -> int:
        """The empty cells the method searches here: all of them, or by `NEAR_STONES`."""
        sh = self.sh
        occupied = me | opp
        empty = sh.full & ~occupied
        if not self.narrow:
            return empty
        near = 0
        for cell in fs.iter_cells(occupied):
            near |= sh.near[cell]
        # As the engine does: the cells next to a mark, else the centre, else any cell.
        close = near & empty
        centre = 1 << sh.order[0]
        allowed = close if close else centre if empty & centre else empty
        if allowed != empty:
            self.left_out_any = True
        return allowed

    def root_scores(self) -> tuple[MoveScore, ...]:
        """The root moves searched, in the order tried, each with what its value is.

        Alpha-beta knows the exact value (or the estimate, at a depth cut-off) of a move
        searched with a window that held it, and only an upper bound for a move that failed low:
        it is no better than a move found before. A search that left moves out anywhere
        (`NEAR_STONES`) proves nothing beyond a win at once: its wins and losses may hide a
        faster win or a defence on a cell it never tried, so its numbers read as heuristics.
        """
        deep = self.empties if self.limit is None else self.limit
        scores = []
        for cell, score, alpha, how, spent in self.root_log:
            bound = self.method.prune and score <= alpha
            if how == "win":
                scores.append(
                    MoveScore(
                        cell,
                        score,
                        spent,
                        True,
                        (cell,),
                        source=Source.RULE,
                        rule=Rule.WINS_AT_ONCE,
                    )
                )
                continue
            game = not self.left_out_any and (
                self.limit is None or abs(score) >= self.win - self.limit
            )
            band = band_of(score) if game else Band.HEURISTIC
            kind = Kind.AT_MOST if bound else Kind.EXACT if game else Kind.ESTIMATE
            source = Source.TABLE if how == "table" else Source.SEARCH
            scores.append(
                MoveScore(
                    cell,
                    score,
                    spent,
                    None,
                    (cell,),
                    kind,
                    0 if how == "table" else deep - 1,
                    source,
                    band,
                )
            )
        return tuple(scores)

    def moves(self, me: int, opp: int, first: int) -> list[int]:
        """The moves to try here, in the method's order (`first`: the table's best move)."""
        sh = self.sh
        empty = self.allowed(me, opp)
        cells = fs.iter_cells(empty)
        if not self.method.order:
            return cells
        weights = sh.line_value
        keyed = []
        for rank, cell in enumerate(sh.order):
            if not empty >> cell & 1:
                continue
            bit = 1 << cell
            gain = 0
            for line in sh.cell_lines[cell]:
                theirs = opp & line
                mine = me & line
                if theirs and not mine:
                    gain += weights[theirs.bit_count()]
                elif not theirs:
                    count = mine.bit_count()
                    gain += weights[count + 1] - weights[count] if count else 1
            keyed.append(
                (
                    cell != first,
                    not completes_line(sh, me | bit, cell),
                    not completes_line(sh, opp | bit, cell),
                    -gain,
                    rank,
                    cell,
                )
            )
        keyed.sort()
        return [item[-1] for item in keyed]

    # -- the search ---------------------------------------------------------------------------

    def leaf(self, value: int, how: str) -> int:
        """Record a leaf (if recording) and return its value."""
        rec = self.recorder
        if rec is not None:
            rec.leaf(value, how, self.poller.nodes, self.pruned)
            rec.leave(value, self.poller.nodes, self.pruned)
        return value

    def value(self, me: int, opp: int, ply: int, alpha: int, beta: int, move: int | None) -> int:
        """The negamax value (fail-soft) from the side to move; `move` led here."""
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        rec = self.recorder
        if rec is not None:
            rec.enter(move, ply, alpha, beta, poller.nodes, self.pruned)
        sh = self.sh
        if not sh.full & ~(me | opp):
            return self.leaf(0, "draw")
        if self.limit is not None and ply >= self.limit:
            raw = self.evaluate(sh, me, opp)
            return self.leaf(max(-self.cap, min(self.cap, raw)), "heuristic")
        table = self.table
        first = -1
        key = sym = 0
        if table is not None:
            key, sym = self.keys.key(me, opp, sh.cells - (me | opp).bit_count())
            entry = table.get(key)
            if entry is not None:
                flag, stored, stored_move = entry
                # The ply is fixed by the marks on the board, so a stored value needs no shift.
                if (
                    flag == fs.EXACT
                    or (flag == fs.LOWER and stored >= beta)
                    or (flag == fs.UPPER and stored <= alpha)
                ):
                    self.hits += 1
                    return self.leaf(stored, "table")
                first = sh.sym_inverse[sym][stored_move]
        prune = self.method.prune
        window = self.full_window
        alpha0 = alpha
        best = -self.win - 1
        moves = self.moves(me, opp, first)
        best_move = moves[0]
        win_here = self.win - ply - 1
        for index, cell in enumerate(moves):
            bit = 1 << cell
            mine = me | bit
            before = (alpha, poller.nodes, self.hits)
            if completes_line(sh, mine, cell):
                # The winning child is a terminal node of the tree: count it like any other.
                poller.nodes += 1
                score = win_here
                if rec is not None:
                    if prune:
                        rec.enter(cell, ply + 1, -beta, -alpha, poller.nodes, self.pruned)
                    else:
                        rec.enter(cell, ply + 1, -window, window, poller.nodes, self.pruned)
                    self.leaf(-score, "win")
            elif prune:
                score = -self.value(opp, mine, ply + 1, -beta, -alpha, cell)
            else:
                # Minimax searches every child with the full window: nothing is ever cut.
                score = -self.value(opp, mine, ply + 1, -window, window, cell)
            if ply == 0:
                self.root_move(cell, score, *before)
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if rec is not None:
                        rec.raise_alpha(alpha, beta, poller.nodes, self.pruned)
                    if prune and alpha >= beta:
                        self.cutoffs += 1
                        if index == 0:
                            self.first_cutoffs += 1
                        skipped = moves[index + 1 :]
                        self.pruned += len(skipped)
                        if rec is not None:
                            rec.cut(skipped, alpha, beta, poller.nodes, self.pruned, cell, index)
                        break
        if table is not None:
            flag = fs.UPPER if best <= alpha0 else fs.LOWER if best >= beta else fs.EXACT
            table[key] = (flag, best, sh.sym_perms[sym][best_move])
        if rec is not None:
            if self.narrow:
                rec.left_out(
                    fs.iter_cells(sh.full & ~(me | opp) & ~self.allowed(me, opp)), NEAR_STONES
                )
            rec.leave(best, poller.nodes, self.pruned)
        return best

    def root_move(self, cell: int, score: int, alpha: int, nodes: int, hits: int) -> None:
        """A root move is done: remember its value and the best move so far.

        `alpha`, `nodes` and `hits` are the root's alpha, the positions and the table hits
        before the move was searched.
        """
        self.root_done += 1
        spent = self.poller.nodes - nodes
        how = (
            "table"
            if spent == 1 and self.hits > hits
            else "win"
            if spent == 1 and score == self.win - 1
            else "search"
        )
        self.root_log.append((cell, score, alpha, how, spent))
        if not self.method.prune:
            self.root_values[cell] = score
        if self.best_move is None or score > self.best_score:
            self.best_move, self.best_score = cell, score


def _bits_evaluation(root: Board, leaf_value: LeafValue) -> Callable[[fs.Shape, int, int], int]:
    """`leaf_value` as the searcher calls an evaluation: from the bitboards of the side to move
    (`me`) and of the other, below `root`; the board it is given is the engine's `Board`."""
    geo = root.geometry
    first = root.to_move
    base = root.move_count

    def evaluate(sh: fs.Shape, me: int, opp: int) -> int:
        # Who is to move follows from the plies played since the root.
        mover = first if ((me | opp).bit_count() - base) % 2 == 0 else first.opponent
        x, o = (me, opp) if mover is Mark.X else (opp, me)
        return leaf_value(Board(geo, x, o, mover), mover)

    return evaluate


def lab_move_order(board: Board, ordered: bool = True) -> list[int]:
    """The moves a lab alpha-beta tries first from `board`, in the order it tries them.

    `ordered`: the ordered searches' order (winning moves, then blocks, then the moves H1 likes
    best); else board order (A1, B1, C1, A2, ...). On boards bigger than 6×6 only the cells
    `NEAR_STONES` are listed, as every lab alpha-beta searches.
    """
    method = METHODS["alphabeta-ordered" if ordered else "alphabeta-plain"]
    sh = fs.shape(board.size, board.k)
    search = _Searcher(board, method, None, fs.Poller(None, None, sh.poll_mask), None)
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
    method = METHODS.get(algorithm)
    if method is None:
        raise ValueError(f"unknown algorithm {algorithm!r}: use one of {', '.join(LAB_ALGORITHMS)}")
    if depth is None:
        depth = method.default_depth
    if depth is not None and depth < 1:
        raise ValueError(f"the depth must be at least 1 ply, not {depth}")
    start = time.perf_counter()
    if board.is_over:
        value = -win_score(board) if board.winner is not None else 0
        return TraceResult(algorithm, None, value, 1, 0, 0, time.perf_counter() - start, None, True)
    sh = fs.shape(board.size, board.k)
    deadline = None if time_limit is None else start + time_limit
    poller = fs.Poller(should_stop, deadline, sh.poll_mask)
    search = _Searcher(board, method, depth, poller, recorder, leaf_value)
    if on_progress is not None:
        poller.reporter = lambda: on_progress(
            Progress(
                0,
                poller.nodes,
                time.perf_counter() - start,
                search.best_move,
                search.best_score,
                () if search.best_move is None else (search.best_move,),
            )
        )
    me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
    big = search.full_window
    try:
        value = search.value(me, opp, 0, -big, big, None)
        finished, stopped = True, None
    except Stopped:
        value = search.best_score
        finished, stopped = False, "cancelled" if poller.cancelled else "time limit"
    limit = search.limit
    proven = finished and (
        (not search.left_out_any and (limit is None or abs(value) >= search.win - limit))
        or value == search.win - 1
    )
    move = search.best_move
    if on_progress is not None and finished and move is not None:
        on_progress(
            Progress(
                limit or 0,
                poller.nodes,
                time.perf_counter() - start,
                move,
                value,
                (move,),
                proven,
                Kind.EXACT if proven else Kind.ESTIMATE,
                band_of(value) if proven else Band.HEURISTIC,
            )
        )
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
        limit,
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


# -- tree size ------------------------------------------------------------------------------------


def _distinct_bound(plies: int, empties: int) -> int:
    """At most how many distinct positions `plies` moves can make on `empties` empty cells."""
    total = 0
    for j in range(plies + 1):
        total += comb(empties, j) * comb(j, j // 2)
    return total


class _TooMany(Exception):
    """The exact count would need more distinct positions than allowed."""


def tree_size(
    board: Board,
    depth: int | None = None,
    max_distinct: int = 200_000,
    probes: int = 3_000,
    seed: int = 0,
    time_limit: float = 0.5,
) -> TreeSize:
    """The positions plain minimax visits from `board` (to `depth` plies; None: to the end).

    Counted exactly (each distinct position once, with its subtree's size remembered) when the
    tree has at most `max_distinct` distinct positions; else estimated with Knuth's random-probe
    estimator: along a random line, the product of the branching factors met so far estimates how
    many positions each level holds; the average over `probes` lines (fewer if `time_limit`
    seconds pass first, on big boards with long games) is unbiased.
    """
    if board.is_over:
        return TreeSize(1, True)
    sh = fs.shape(board.size, board.k)
    empties = sh.cells - board.move_count
    limit = depth if depth is not None and depth < empties else None
    counter = _Searcher(board, METHODS["minimax"], limit, fs.Poller(None, None, sh.poll_mask), None)
    me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
    memo: dict[tuple[int, int], int] = {}

    def count(me: int, opp: int, ply: int) -> int:
        known = memo.get((me, opp))
        if known is not None:
            return known
        if len(memo) >= max_distinct:
            raise _TooMany
        total = 1
        if sh.full & ~(me | opp) and (limit is None or ply < limit):
            for cell in counter.moves(me, opp, -1):
                mine = me | 1 << cell
                total += 1 if completes_line(sh, mine, cell) else count(opp, mine, ply + 1)
        memo[(me, opp)] = total
        return total

    if _distinct_bound(empties if limit is None else limit, empties) <= max_distinct:
        try:
            return TreeSize(count(me, opp, 0), True)
        except _TooMany:
            pass
    rng = random.Random(seed)
    grand = 0
    done = 0
    deadline = time.perf_counter() + time_limit
    while done < probes and (done < 10 or time.perf_counter() < deadline):
        done += 1
        a, b, ply, width, total = me, opp, 0, 1, 1
        while sh.full & ~(a | b) and (limit is None or ply < limit):
            moves = counter.moves(a, b, -1)
            width *= len(moves)
            total += width
            cell = rng.choice(moves)
            mine = a | 1 << cell
            if completes_line(sh, mine, cell):
                break
            a, b, ply = b, mine, ply + 1
        grand += total
    return TreeSize(round(grand / done), False)
