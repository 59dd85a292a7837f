"""The drill's two exercises on one tree, and what the learner has written on them.

`DrillExercise` holds one drill tree and what the learner has written on it: a value for each
inner node the search visits, a mark on each node it never visits (a mark covers the node's
whole subtree), and, if they like, the window (α, β) a node is entered with. `check()` judges
every node against the search's own answer (`hand_search.solve` under the convention in force;
the rules are `drill_grading`'s).

Switching the convention (`switch_cut`, `switch_returns`) keeps the learner's entries and judges
them against the other convention's answer. `ReorderExercise` is the second exercise on the same
tree: move children up and down so that the search visits as few leaves as it can, scored
against the best order there is (`hand_search.best_order`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tictactoe_tui.engine.lab.drill_tree import DrillTree
from tictactoe_tui.engine.lab.hand_search import (
    OUR_SEARCH,
    BestOrder,
    Convention,
    Cut,
    DrillAnswer,
    DrillNode,
    Returns,
    best_order,
    solve,
)
from tictactoe_tui.play.drill_grading import DrillVerdict, grade
from tictactoe_tui.text.drill import labels

__all__ = ["DrillExercise", "NodeEntry", "ReorderExercise"]


@dataclass
class NodeEntry:
    """What the learner has written on one node."""

    value: int | None = None
    pruned: bool = False
    alpha: int | None = None
    beta: int | None = None

    @property
    def empty(self) -> bool:
        """Whether nothing is written here."""
        return self == NodeEntry()


@dataclass
class DrillExercise:
    """One drill tree, the learner's entries on it, and the check."""

    tree: DrillTree
    convention: Convention = OUR_SEARCH
    entries: dict[int, NodeEntry] = field(default_factory=dict)
    verdict: DrillVerdict | None = None
    """The last check's verdict; cleared by any change."""

    def __post_init__(self) -> None:
        self.nodes: dict[int, DrillNode] = {node.id: node for node in self.tree.root.walk()}
        self.parents: dict[int, int] = {
            child.id: node.id for node in self.nodes.values() for child in node.children
        }
        self.names = labels(self.tree.root)
        self._answer = solve(self.tree.root, self.convention)

    @property
    def answer(self) -> DrillAnswer:
        """What alpha-beta does on this tree under the convention in force."""
        return self._answer

    def node_named(self, label: str) -> DrillNode | None:
        """The node with this label ("B2", any case), if there is one."""
        wanted = label.strip().upper()
        for ident, name in self.names.items():
            if name == wanted:
                return self.nodes[ident]
        return None

    def entry(self, node: int) -> NodeEntry:
        """What is written on `node` (an empty entry if nothing)."""
        return self.entries.get(node, NodeEntry())

    def _write(self, node: int, entry: NodeEntry) -> None:
        if entry.empty:
            self.entries.pop(node, None)
        else:
            self.entries[node] = entry
        self.verdict = None

    def set_value(self, node: int, value: int | None) -> str | None:
        """Write (or, with None, rub out) the value `node` returns; a reason if refused."""
        if self.nodes[node].is_leaf:
            return f"{self.names[node]} is a leaf: its value is given."
        self._write(node, replace(self.entry(node), value=value))
        return None

    def toggle_pruned(self, node: int) -> str | None:
        """Mark `node` as never visited, or take the mark off; a reason if refused."""
        if node == self.tree.root.id:
            return "The search always starts at the root."
        entry = self.entry(node)
        self._write(node, replace(entry, pruned=not entry.pruned))
        return None

    def set_window(self, node: int, alpha: int | None, beta: int | None) -> None:
        """Write the window the learner says `node` is entered with (None: not said)."""
        self._write(node, replace(self.entry(node), alpha=alpha, beta=beta))

    def reveal(self) -> None:
        """Write the search's own answer on the tree: every value and every mark."""
        answer = self._answer
        self.entries = {
            ident: NodeEntry(value=answer.returns[ident])
            for ident, node in self.nodes.items()
            if not node.is_leaf and answer.was_visited(ident)
        }
        for ident in answer.pruned_by:
            self.entries[ident] = NodeEntry(pruned=True)
        self.verdict = None

    def clear(self) -> None:
        """Rub out everything the learner wrote."""
        self.entries.clear()
        self.verdict = None

    def shown_pruned(self, node: int) -> bool:
        """Whether the tree shows `node` as never visited: it or an ancestor is marked."""
        current: int | None = node
        while current is not None:
            if self.entry(current).pruned:
                return True
            current = self.parents.get(current)
        return False

    def switch_cut(self) -> None:
        """Use the other cut rule (α ≥ β or α > β) from now on."""
        cut = Cut.PAST_EQUAL if self.convention.cut is Cut.AT_EQUAL else Cut.AT_EQUAL
        self._use(replace(self.convention, cut=cut))

    def switch_returns(self) -> None:
        """Use the other return rule (fail-soft or fail-hard) from now on."""
        returns = (
            Returns.FAIL_HARD if self.convention.returns is Returns.FAIL_SOFT else Returns.FAIL_SOFT
        )
        self._use(replace(self.convention, returns=returns))

    def _use(self, convention: Convention) -> None:
        self.convention = convention
        self._answer = solve(self.tree.root, convention)
        self.verdict = None

    def check(self) -> DrillVerdict:
        """Judge every node `drill_grading` judges; keep and return the verdict."""
        self.verdict = grade(self)
        return self.verdict


@dataclass
class ReorderExercise:
    """The same tree, children to reorder so that alpha-beta visits as few leaves as it can."""

    tree: DrillTree
    convention: Convention = OUR_SEARCH

    def __post_init__(self) -> None:
        self.order: dict[int, list[int]] = {
            node.id: [child.id for child in node.children]
            for node in self.tree.root.walk()
            if not node.is_leaf
        }
        self.parents: dict[int, int] = {
            child: node for node, children in self.order.items() for child in children
        }
        self.best: BestOrder = best_order(self.tree.root, self.convention)

    def move(self, child: int, delta: int) -> bool:
        """Move `child` `delta` places among its siblings (-1: up); False if it cannot go."""
        parent = self.parents.get(child)
        if parent is None:
            return False
        siblings = self.order[parent]
        index = siblings.index(child)
        target = index + delta
        if not 0 <= target < len(siblings):
            return False
        siblings[index], siblings[target] = siblings[target], siblings[index]
        return True

    @property
    def answer(self) -> DrillAnswer:
        """The search over the tree in the learner's current order."""
        return solve(self.tree.root, self.convention, self.order)

    @property
    def leaves_visited(self) -> int:
        """How many leaves the search visits in the learner's current order."""
        return self.answer.leaves_visited

    @property
    def solved(self) -> bool:
        """Whether the learner's order visits no more leaves than the best order."""
        return self.leaves_visited == self.best.leaves_visited

    def score_words(self) -> str:
        """The live score: "9 leaves visited; the best order visits 7"."""
        mine, best = self.leaves_visited, self.best.leaves_visited
        if mine == best:
            return f"{mine} leaves visited: as few as any order can."
        return f"{mine} leaves visited; the best order visits {best}."
