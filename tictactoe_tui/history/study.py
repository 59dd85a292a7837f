"""A study: a root position and the moves explored from it, as a tree of variations.

Every node holds its position; a node's children are the moves tried from it, the first child
being the main continuation and the others its variations (a chess GUI's variation tree, as En
Croissant's `treeReducer` and the lichess analysis board keep one). Each edit — add a move,
promote a variation, delete one — keeps the tree well formed: a child's position is its
parent's with the child's move played, and no two children of a node play the same move.

The set-up rules (which hand-made positions a game can reach) are the engine's
(`engine/rules/setup.py`), one rule for every command and screen.

A study lives in the history, below the game being played: the history keeps studies (`record`
writes and reads their text) and the analysis board (`play/analysis.py`) edits them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count

from tictactoe_tui.engine import Analysis, Board, Mark


@dataclass(eq=False)
class Node:
    """One position of a study: the move that led to it (None at the root) and what followed."""

    position: Board
    """The position after `move`."""
    move: int | None = None
    """The cell played to reach this node from its parent; None for the root."""
    parent: Node | None = field(default=None, repr=False)
    """The node this one was played from; None for the root."""
    children: list[Node] = field(default_factory=list, repr=False)
    """The moves tried from here: the main continuation first, then the variations."""
    ident: int = 0
    """A number unique in its tree, so a screen can name a node (a click on the move list)."""
    analysis: Analysis | None = field(default=None, repr=False)
    """The analysis of `position` once one arrived (kept, so coming back shows it at once)."""

    @property
    def ply(self) -> int:
        """How many moves from the root to here."""
        node, plies = self, 0
        while node.parent is not None:
            node, plies = node.parent, plies + 1
        return plies

    def line(self) -> list[Node]:
        """The nodes from the root's first move to this one, in order (empty at the root)."""
        nodes: list[Node] = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def child(self, move: int) -> Node | None:
        """The child that plays `move`, if it was tried."""
        return next((child for child in self.children if child.move == move), None)

    @property
    def mover(self) -> Mark:
        """Who played `move` (at the root: who moved last, the opponent of the side to move)."""
        return self.position.to_move.opponent

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, main continuations first."""
        yield self
        for child in self.children:
            yield from child.walk()


class MoveTree:
    """The tree of a study: a root position and every move explored from it."""

    def __init__(self, root: Board) -> None:
        """A tree with only its root."""
        self._ids = count(1)
        self.root = Node(root)
        """The starting position."""

    def add(self, node: Node, move: int) -> tuple[Node, bool]:
        """Play `move` from `node`: the child that plays it, and whether it is new.

        A move tried before is not added twice: its node is returned. A new move from a node
        that already has a continuation becomes a variation (the last child).
        Raises IllegalMove, and changes nothing, when the rules refuse the move.
        """
        found = node.child(move)
        if found is not None:
            return found, False
        child = Node(node.position.play(move), move, node, ident=next(self._ids))
        node.children.append(child)
        return child, True

    def promote(self, node: Node) -> Node | None:
        """Make the variation `node` is in the main continuation at its branch point.

        The branch point is the nearest node on the way to the root that is not its parent's
        first child; that node moves to the front of its siblings and is returned. None (and
        nothing changes) when `node` is on the main line already.
        """
        branch = _branch(node)
        if branch is None or branch.parent is None:
            return None
        siblings = branch.parent.children
        siblings.remove(branch)
        siblings.insert(0, branch)
        return branch

    def delete(self, node: Node) -> Node:
        """Delete `node` and every move after it; returns its parent (the root stays)."""
        parent = node.parent
        if parent is None:
            raise ValueError("the root of a study cannot be deleted")
        parent.children.remove(node)
        return parent

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first, main continuations first."""
        return self.root.walk()

    def find(self, ident: int) -> Node | None:
        """The node with this number, if it is still in the tree."""
        return next((node for node in self.nodes() if node.ident == ident), None)

    def __len__(self) -> int:
        """How many moves the tree holds (its nodes other than the root)."""
        return sum(1 for _ in self.nodes()) - 1


def _branch(node: Node) -> Node | None:
    """The nearest node from `node` up to the root that is a variation (not a first child)."""
    current: Node | None = node
    while current is not None and current.parent is not None:
        if current.parent.children[0] is not current:
            return current
        current = current.parent
    return None


def variation_at(node: Node) -> Node | None:
    """The nearest node from `node` towards the root that has siblings (where a variation
    branches), or None when there is no branch on the way."""
    current: Node | None = node
    while current is not None and current.parent is not None:
        if len(current.parent.children) > 1:
            return current
        current = current.parent
    return None


def main_line(node: Node) -> list[Node]:
    """The nodes after `node` following first children to the end of the line."""
    nodes = []
    while node.children:
        node = node.children[0]
        nodes.append(node)
    return nodes


# -- a position's first mover and its cells ---------------------------------------------------


def first_mover(board: Board) -> Mark:
    """Who moved first in a game reaching `board`: the side to move when the counts are equal
    (before a line ends the game), else the side with more marks."""
    xs, os_ = board.x_bits.bit_count(), board.o_bits.bit_count()
    if xs != os_:
        return Mark.X if xs > os_ else Mark.O
    return board.winner if board.winner is not None else board.to_move


def marks_text(board: Board) -> str:
    """A board's cells as one string of 'X', 'O' and '.', row-major (no '/')."""
    return "".join(board.rows())
