"""The drill's grading: each node the learner filled in, judged against the search's own answer.

`grade` judges every node of a `DrillExercise` against `hand_search.solve` under the convention
in force, and says, for each wrong one, why, in a sentence built from the search's step:

- a node the search visits is right when it is not marked, its value (inner nodes) is the one
  it returns, and its window, where the learner wrote one, is the one it is entered with;
- a node the search skips (a child of a visited node, after a cut) is right when it is marked
  (itself or through a marked ancestor) and carries no value;
- nodes deeper inside a skipped subtree are judged only when the learner gave them a value.

`drill_attempt` is what the history keeps of one check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tictactoe_tui.engine.lab.drill_tree import DrillTree
from tictactoe_tui.engine.lab.hand_search import Convention, DrillNode
from tictactoe_tui.history.drills import DrillAttempt
from tictactoe_tui.text.drill import (
    missed_prune_words,
    pruned_wrongly_words,
    value_words,
    window_words,
)

if TYPE_CHECKING:
    from tictactoe_tui.play.drill_exercise import DrillExercise, NodeEntry

__all__ = ["DrillVerdict", "NodeVerdict", "drill_attempt", "grade"]


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


def grade(drill: DrillExercise) -> DrillVerdict:
    """Judge every node of `drill` the rules above judge, in the tree's order."""
    return _Grader(drill).verdict()


class _Grader:
    """One check of one exercise: the nodes shown as never visited, then each node judged."""

    def __init__(self, drill: DrillExercise) -> None:
        self.drill = drill
        self._answer = drill.answer
        self._marked = self._marked_subtrees()

    def verdict(self) -> DrillVerdict:
        verdicts: dict[int, NodeVerdict] = {}
        for node in self.drill.tree.root.walk():
            words = self._judge(node)
            if words is not None:
                verdicts[node.id] = NodeVerdict(node.id, not words, words)
        return DrillVerdict(verdicts)

    def _marked_subtrees(self) -> set[int]:
        """Every node the tree shows as never visited (see `shown_pruned`), in one pass."""
        shown: set[int] = set()
        for node in self.drill.tree.root.walk():  # parents come before their children
            parent = self.drill.parents.get(node.id)
            if self.drill.entry(node.id).pruned or (parent is not None and parent in shown):
                shown.add(node.id)
        return shown

    def _judge(self, node: DrillNode) -> str | None:
        """Why `node` is wrong, "" if right, None if it is not judged."""
        answer = self._answer
        entry = self.drill.entry(node.id)
        if answer.was_visited(node.id):
            return self._judge_visited(node, entry)
        parent = self.drill.parents.get(node.id)
        skipped = node.id in answer.pruned_by
        if not skipped and entry.value is None:
            return None  # deep inside a skipped subtree: nothing to say
        assert parent is not None
        top = node.id if skipped else self._skipped_ancestor(node.id)
        cut_at = self.drill.nodes[answer.pruned_by[top]]
        if skipped and node.id not in self._marked:
            return missed_prune_words(
                node, cut_at, answer, self.drill.names, entry.value is not None
            )
        if entry.value is not None:
            return missed_prune_words(node, cut_at, answer, self.drill.names, typed=True)
        return ""

    def _skipped_ancestor(self, node: int) -> int:
        current = node
        while current not in self._answer.pruned_by:
            current = self.drill.parents[current]
        return current

    def _judge_visited(self, node: DrillNode, entry: NodeEntry) -> str:
        answer = self._answer
        name = self.drill.names[node.id]
        if node.id in self._marked:
            return pruned_wrongly_words(node, answer, self.drill.convention, self.drill.names)
        if not node.is_leaf:
            if entry.value is None:
                return f"{name} is visited: write the value it returns."
            if entry.value != answer.returns[node.id]:
                return value_words(node, answer, self.drill.names, entry.value)
        alpha, beta = answer.windows[node.id]
        if (entry.alpha is not None and entry.alpha != alpha) or (
            entry.beta is not None and entry.beta != beta
        ):
            return window_words(node, answer, self.drill.names, (entry.alpha, entry.beta))
        return ""


def drill_attempt(
    tree: DrillTree,
    convention: Convention,
    seed: int | None,
    exercise: str,
    outcome: tuple[int, int, bool],
) -> DrillAttempt:
    """What the history keeps of one check of `exercise` ("values" or "reorder") on `tree`:
    `outcome` is the check's (nodes, right, solved)."""
    nodes, right, solved = outcome
    board, shape = tree.position, tree.shape
    return DrillAttempt(
        exercise,
        board.size,
        board.k,
        str(board),
        shape.depth,
        shape.width,
        nodes,
        right,
        solved,
        {
            "order": str(shape.order),
            "leaves": str(shape.leaves),
            "cut": str(convention.cut),
            "returns": str(convention.returns),
            "seed": seed,
        },
    )
