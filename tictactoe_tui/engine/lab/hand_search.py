"""Alpha-beta as a learner runs it by hand: a small MAX/MIN tree, four conventions, the answer.

The drill hands a learner a small game tree (MAX at the root, MIN below it, and so on, every
leaf valued from the root player's side) and asks for what alpha-beta does on it: the value
each node it visits returns, the window (α, β) each node is entered with, and which nodes it
never visits. Textbooks disagree on two details, and each changes the answers:

- **when to cut**: at α ≥ β (`Cut.AT_EQUAL`, what our search does) or only at α > β
  (`Cut.PAST_EQUAL`): with the second, a child whose value equals β is not enough to stop;
- **what a node returns**: its best child's value (`Returns.FAIL_SOFT`, what our search does),
  or that value held inside the window it was entered with (`Returns.FAIL_HARD`: a MAX node
  that cuts returns β, one whose children all fail low returns α). Leaves return their value
  under both.

`solve` runs the search over a tree in a given order of children and records every step a
sentence can be built from (each node's window, its children's values as they came back, the
child that made a cut and the children the cut skipped). `best_order` finds an order of every
node's children that makes alpha-beta visit as few leaves as possible (the minimal tree), by
trying every order of each node's children against every window it can be entered with, and
counting leaves as `solve` does.

The module knows nothing of boards: `DrillNode.move` is the cell a node's move plays, for the
words only. Values are plain integers strictly between -INFINITY and INFINITY.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import permutations

__all__ = [
    "INFINITY",
    "BestOrder",
    "Convention",
    "Cut",
    "CutStep",
    "DrillAnswer",
    "DrillNode",
    "Returns",
    "best_order",
    "minimax_value",
    "solve",
]

INFINITY = 1000
"""The window's open ends, written as numbers (every value in a drill lies strictly inside)."""


class Cut(StrEnum):
    """When a node stops looking at its children."""

    AT_EQUAL = "at-equal"
    """Cut as soon as α ≥ β (our search's rule)."""
    PAST_EQUAL = "past-equal"
    """Cut only once α > β: a value equal to the other side's bound is not yet enough."""


class Returns(StrEnum):
    """What a node hands back to its parent."""

    FAIL_SOFT = "fail-soft"
    """Its best child's value, even outside its window (our search's rule)."""
    FAIL_HARD = "fail-hard"
    """Its best child's value held inside the window it was entered with (α ≤ value ≤ β)."""


@dataclass(frozen=True)
class Convention:
    """One of the four ways to run alpha-beta by hand."""

    cut: Cut = Cut.AT_EQUAL
    returns: Returns = Returns.FAIL_SOFT

    def cuts(self, alpha: int, beta: int) -> bool:
        """Whether a node whose window has narrowed to (alpha, beta) stops here."""
        return alpha >= beta if self.cut is Cut.AT_EQUAL else alpha > beta

    def returned(self, best: int, alpha: int, beta: int) -> int:
        """What a node whose best child is worth `best` returns, entered with (alpha, beta)."""
        if self.returns is Returns.FAIL_SOFT:
            return best
        return max(alpha, min(beta, best))


OUR_SEARCH = Convention()
"""The convention the engine's own search follows: cut at α ≥ β, fail-soft."""


@dataclass(frozen=True)
class DrillNode:
    """A node of a drill tree: a leaf with its value, or an inner node with its children."""

    id: int
    """Its number: the root is 0, the others numbered in the order the tree lists them."""
    move: int | None
    """The cell the move leading here plays (None at the root)."""
    is_max: bool
    """Whether the root's player is to move here (MAX), rather than the opponent (MIN)."""
    children: tuple[DrillNode, ...] = ()
    value: int | None = None
    """A leaf's value from the root player's side; None for an inner node."""

    @property
    def is_leaf(self) -> bool:
        """Whether this node has no children (its value is given)."""
        return not self.children

    def walk(self) -> Iterator[DrillNode]:
        """This node and every node below it, parents before children, in the tree's order."""
        yield self
        for child in self.children:
            yield from child.walk()


Order = Mapping[int, Sequence[int]]
"""For some inner nodes (by id), the ids of their children in the order to search them."""


@dataclass(frozen=True)
class CutStep:
    """A node that stopped early: the child that made it stop and the children it skipped."""

    by: int
    """The child whose value narrowed the window shut."""
    alpha: int
    beta: int
    """The window at the moment of the cut (α ≥ β, or α > β under `Cut.PAST_EQUAL`)."""
    skipped: tuple[int, ...]
    """The children never searched, in search order."""


@dataclass(frozen=True)
class DrillAnswer:
    """What alpha-beta does on a drill tree: every number a learner is asked for."""

    root_value: int
    best_child: int | None
    """The root's child whose value the root returns (the first to reach it), None for a leaf."""
    visited: tuple[int, ...]
    """The nodes the search enters, in the order it enters them."""
    returns: dict[int, int]
    """Each visited node's returned value."""
    windows: dict[int, tuple[int, int]]
    """Each visited node's (α, β) when the search enters it."""
    seen: dict[int, tuple[int, ...]]
    """Each visited inner node's children that the search looked at, in search order."""
    cuts: dict[int, CutStep]
    """The visited inner nodes that cut off, with how."""
    pruned_by: dict[int, int]
    """Each node never visited whose parent was visited: the parent that skipped it."""
    leaves_visited: int

    def was_visited(self, node: int) -> bool:
        """Whether the search entered `node`."""
        return node in self.returns


@dataclass
class _Run:
    """The record `solve` fills in as it goes."""

    convention: Convention
    order: Order
    visited: list[int] = field(default_factory=list)
    returns: dict[int, int] = field(default_factory=dict)
    windows: dict[int, tuple[int, int]] = field(default_factory=dict)
    seen: dict[int, tuple[int, ...]] = field(default_factory=dict)
    cuts: dict[int, CutStep] = field(default_factory=dict)
    pruned_by: dict[int, int] = field(default_factory=dict)
    leaves: int = 0

    def children(self, node: DrillNode) -> list[DrillNode]:
        """`node`'s children in the order this run searches them."""
        wanted = self.order.get(node.id)
        if wanted is None:
            return list(node.children)
        by_id = {child.id: child for child in node.children}
        if sorted(wanted) != sorted(by_id):
            raise ValueError(f"the order given for node {node.id} is not of its children")
        return [by_id[child] for child in wanted]

    def search(self, node: DrillNode, alpha: int, beta: int) -> int:
        """Alpha-beta from `node` entered with (alpha, beta): the value it returns."""
        self.visited.append(node.id)
        self.windows[node.id] = (alpha, beta)
        if node.is_leaf:
            assert node.value is not None
            self.leaves += 1
            self.returns[node.id] = node.value
            return node.value
        convention = self.convention
        entry = (alpha, beta)
        best = -INFINITY - 1 if node.is_max else INFINITY + 1
        ordered = self.children(node)
        seen: list[int] = []
        for index, child in enumerate(ordered):
            value = self.search(child, alpha, beta)
            seen.append(child.id)
            if node.is_max:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if convention.cuts(alpha, beta):
                skipped = tuple(later.id for later in ordered[index + 1 :])
                if skipped:
                    self.cuts[node.id] = CutStep(child.id, alpha, beta, skipped)
                    for later in skipped:
                        self.pruned_by[later] = node.id
                break
        self.seen[node.id] = tuple(seen)
        returned = convention.returned(best, *entry)
        self.returns[node.id] = returned
        return returned


def solve(
    root: DrillNode, convention: Convention = OUR_SEARCH, order: Order | None = None
) -> DrillAnswer:
    """Run alpha-beta over the tree from the full window, children in `order` (else the tree's)."""
    run = _Run(convention, order or {})
    value = run.search(root, -INFINITY, INFINITY)
    best_child = None
    if not root.is_leaf:
        best_child = next(child for child in run.seen[root.id] if run.returns[child] == value)
    return DrillAnswer(
        root_value=value,
        best_child=best_child,
        visited=tuple(run.visited),
        returns=run.returns,
        windows=run.windows,
        seen=run.seen,
        cuts=run.cuts,
        pruned_by=run.pruned_by,
        leaves_visited=run.leaves,
    )


def minimax_value(node: DrillNode) -> int:
    """The node's value with nothing pruned (what every convention's root returns)."""
    if node.is_leaf:
        assert node.value is not None
        return node.value
    values = [minimax_value(child) for child in node.children]
    return max(values) if node.is_max else min(values)


@dataclass(frozen=True)
class BestOrder:
    """An order of children that makes alpha-beta visit the fewest leaves possible."""

    leaves_visited: int
    children: dict[int, tuple[int, ...]]
    """Every inner node's children in that order (the tree's own order where it does not matter)."""


_Plan = tuple[tuple[int, tuple[int, ...]], ...]
"""The orders chosen inside a subtree: (node id, its children's ids in order) pairs."""

_Outcomes = dict[int, tuple[int, _Plan]]
"""For each value a subtree can return: the fewest leaves it costs and the plan that does it."""


class _Planner:
    """Every order of every node's children, tried against every window, with shared work."""

    def __init__(self, convention: Convention) -> None:
        self.convention = convention
        self.memo: dict[tuple[int, int, int], _Outcomes] = {}

    def outcomes(self, node: DrillNode, alpha: int, beta: int) -> _Outcomes:
        """What `node` entered with (alpha, beta) can return, each at its fewest leaves."""
        key = (node.id, alpha, beta)
        found = self.memo.get(key)
        if found is None:
            found = self._outcomes(node, alpha, beta)
            self.memo[key] = found
        return found

    def _outcomes(self, node: DrillNode, alpha: int, beta: int) -> _Outcomes:
        if node.is_leaf:
            assert node.value is not None
            return {node.value: (1, ())}
        result: _Outcomes = {}
        for ordered in permutations(node.children):
            plan_here = ((node.id, tuple(child.id for child in ordered)),)
            for best, (cost, plan) in self._fold(node.is_max, ordered, alpha, beta).items():
                value = self.convention.returned(best, alpha, beta)
                if value not in result or cost < result[value][0]:
                    result[value] = (cost, plan_here + plan)
        return result

    def _fold(
        self, is_max: bool, ordered: Sequence[DrillNode], alpha: int, beta: int
    ) -> dict[int, tuple[int, _Plan]]:
        """The node's best value after searching `ordered` in turn: each reachable one, cheapest.

        A state is the best value so far (the window follows from it); a state whose window
        has shut is finished and takes no more children.
        """
        start = -INFINITY - 1 if is_max else INFINITY + 1
        live: dict[int, tuple[int, _Plan]] = {start: (0, ())}
        done: dict[int, tuple[int, _Plan]] = {}
        for child in ordered:
            grown: dict[int, tuple[int, _Plan]] = {}
            for best, (cost, plan) in live.items():
                low = max(alpha, best) if is_max else alpha
                high = beta if is_max else min(beta, best)
                for value, (child_cost, child_plan) in self.outcomes(child, low, high).items():
                    new_best = max(best, value) if is_max else min(best, value)
                    low_after = max(low, value) if is_max else low
                    high_after = high if is_max else min(high, value)
                    target = done if self.convention.cuts(low_after, high_after) else grown
                    total = cost + child_cost
                    if new_best not in target or total < target[new_best][0]:
                        target[new_best] = (total, plan + child_plan)
            live = grown
        for best, entry in live.items():
            if best not in done or entry[0] < done[best][0]:
                done[best] = entry
        return done


def best_order(root: DrillNode, convention: Convention = OUR_SEARCH) -> BestOrder:
    """An order of children under which alpha-beta visits the fewest leaves, and that count."""
    outcomes = _Planner(convention).outcomes(root, -INFINITY, INFINITY)
    cost, plan = min(outcomes.values(), key=lambda entry: entry[0])
    chosen = dict(plan)
    children = {
        node.id: chosen.get(node.id, tuple(child.id for child in node.children))
        for node in root.walk()
        if not node.is_leaf
    }
    return BestOrder(cost, children)
