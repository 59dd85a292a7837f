"""The alpha-beta drill's rules, without Textual: a learner runs the search by hand, node by node.

`DrillExercise` holds one drill tree and what the learner has written on it: a value for each
inner node the search visits, a mark on each node it never visits (a mark covers the node's
whole subtree), and, if they like, the window (α, β) a node is entered with. `check()` judges
every node against the search's own answer (`hand_search.solve` under the convention in force)
and says, for each wrong one, why, in a sentence built from the search's step:

- a node the search visits is right when it is not marked, its value (inner nodes) is the one
  it returns, and its window, where the learner wrote one, is the one it is entered with;
- a node the search skips (a child of a visited node, after a cut) is right when it is marked
  (itself or through a marked ancestor) and carries no value;
- nodes deeper inside a skipped subtree are judged only when the learner gave them a value.

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
from tictactoe_tui.text.drill import (
    labels,
    missed_prune_words,
    pruned_wrongly_words,
    value_words,
    window_words,
)

__all__ = ["DrillExercise", "DrillVerdict", "NodeEntry", "NodeVerdict", "ReorderExercise"]


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


@dataclass(frozen=True)
class NodeVerdict:
    """The verdict on one node: right, or wrong and why."""

    node: int
    right: bool
    words: str = ""
    """Why it is wrong (empty when right)."""


@dataclass(frozen=True)
class DrillVerdict:
    """The verdict on a whole drill, node by node."""

    nodes: dict[int, NodeVerdict]
    """Every node judged, by id, in the tree's order."""

    @property
    def wrong(self) -> list[NodeVerdict]:
        """The nodes judged wrong, in the tree's order."""
        return [verdict for verdict in self.nodes.values() if not verdict.right]

    @property
    def right_count(self) -> int:
        """How many judged nodes are right."""
        return sum(verdict.right for verdict in self.nodes.values())

    @property
    def all_right(self) -> bool:
        """Whether every judged node is right."""
        return not self.wrong


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
        self._marked: set[int] = set()

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
        """Judge every node the rules above judge; keep and return the verdict."""
        verdicts: dict[int, NodeVerdict] = {}
        self._marked = self._marked_subtrees()
        for node in self.tree.root.walk():
            words = self._judge(node)
            if words is not None:
                verdicts[node.id] = NodeVerdict(node.id, not words, words)
        self.verdict = DrillVerdict(verdicts)
        return self.verdict

    def _marked_subtrees(self) -> set[int]:
        """Every node the tree shows as never visited (see `shown_pruned`), in one pass."""
        shown: set[int] = set()
        for node in self.tree.root.walk():  # parents come before their children
            parent = self.parents.get(node.id)
            if self.entry(node.id).pruned or (parent is not None and parent in shown):
                shown.add(node.id)
        return shown

    def _judge(self, node: DrillNode) -> str | None:
        """Why `node` is wrong, "" if right, None if it is not judged."""
        answer = self._answer
        entry = self.entry(node.id)
        if answer.was_visited(node.id):
            return self._judge_visited(node, entry)
        parent = self.parents.get(node.id)
        skipped = node.id in answer.pruned_by
        if not skipped and entry.value is None:
            return None  # deep inside a skipped subtree: nothing to say
        assert parent is not None
        top = node.id if skipped else self._skipped_ancestor(node.id)
        cut_at = self.nodes[answer.pruned_by[top]]
        if skipped and node.id not in self._marked:
            return missed_prune_words(node, cut_at, answer, self.names, entry.value is not None)
        if entry.value is not None:
            return missed_prune_words(node, cut_at, answer, self.names, typed=True)
        return ""

    def _skipped_ancestor(self, node: int) -> int:
        current = node
        while current not in self._answer.pruned_by:
            current = self.parents[current]
        return current

    def _judge_visited(self, node: DrillNode, entry: NodeEntry) -> str:
        answer = self._answer
        name = self.names[node.id]
        if node.id in self._marked:
            return pruned_wrongly_words(node, answer, self.convention, self.names)
        if not node.is_leaf:
            if entry.value is None:
                return f"{name} is visited: write the value it returns."
            if entry.value != answer.returns[node.id]:
                return value_words(node, answer, self.names, entry.value)
        alpha, beta = answer.windows[node.id]
        if (entry.alpha is not None and entry.alpha != alpha) or (
            entry.beta is not None and entry.beta != beta
        ):
            return window_words(node, answer, self.names, (entry.alpha, entry.beta))
        return ""


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
