"""A lab search's recording for the tree explorer: its nodes and its steps (`TraceRecorder`).

The searcher tells the recorder each step (enter a node, evaluate a leaf, raise alpha, cut,
return); the recorder keeps them as `TraceEvent`s and the positions as `TraceNode`s, up to a
cap, and crosses from the worker process as plain tuples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tictactoe_tui.engine.rules.board import Board

EVENT_CAP = 200_000
"""Events a `TraceRecorder` keeps by default; the search goes on past it, unrecorded."""

LEFT_OUT = "left out"
"""`TraceNode.leaf` of the node that stands for the moves a node did not search."""


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
