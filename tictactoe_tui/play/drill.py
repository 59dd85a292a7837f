"""The alpha-beta drill's rules, without Textual: a learner runs the search by hand, node by node.

`DrillController` is the drill screen's facade (and the text mode's): the node selected, the
number being typed, which exercise is on, the fresh trees, and what to say. The exercises and
what the learner wrote are `drill_exercise`'s, the check's rules `drill_grading`'s, the outline's
words `drill_outline`'s; their names are importable from here too.

Given the learner's evaluation file (`DrillStart.eval_file`), the drill's trees have its leaves
(`LeafValues.YOURS`, named "yours: FILE"): the screen cuts them with `cut_tree` off its event
loop (the file runs in a process of its own) from what `leaves_cut` and `next_cut` say, and
hands the tree to `show_tree`, or the file's fault, in one line, to `leaves_failed`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path

from tictactoe_tui.engine.lab.drill_tree import (
    DrillShape,
    DrillTree,
    LeafValues,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import INFINITY, OUR_SEARCH, Convention, DrillNode
from tictactoe_tui.engine.players.guest import GuestFault, check_guest_path, guest_name
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.history.drills import DrillAttempt
from tictactoe_tui.play.drill_exercise import DrillExercise, NodeEntry, ReorderExercise
from tictactoe_tui.play.drill_grading import DrillVerdict, NodeVerdict, drill_attempt
from tictactoe_tui.play.drill_outline import (
    OutlineRow,
    board_view,
    node_words,
    outline_row,
    title_words,
)
from tictactoe_tui.text.drill import bound_words, convention_summary

__all__ = [
    "DrillController",
    "DrillExercise",
    "DrillStart",
    "DrillVerdict",
    "NodeEntry",
    "NodeVerdict",
    "OutlineRow",
    "ReorderExercise",
    "drill_start",
]


TYPING_TARGETS = ("value", "alpha", "beta")
"""What the number being typed is for: the value a node returns, or its α or β at entry."""

TARGET_WORDS = {"value": "the value", "alpha": "α", "beta": "β"}
"""How the typing line names each target."""

FRESH_TREE_TRIES = 20
"""How many random positions `new_tree` draws, at most, for a tree unlike the one shown."""


@dataclass(frozen=True)
class DrillStart:
    """What a drill screen opens on: a tree, the convention in force, and the seed it came from
    (None when the tree was cut from a given position; the fresh trees are then drawn at random)."""

    tree: DrillTree
    convention: Convention = OUR_SEARCH
    seed: int | None = None
    eval_file: Path | None = None
    """The learner's evaluation file (checked through serve's gate): the drill's leaves are its
    `evaluate`'s values ("yours: FILE"); a tree given with other leaves is cut again with them
    when the screen opens."""


def _bound_text(text: str) -> int | None:
    """A typed number ("3", "-12", "∞", "-∞"), or None when it is not one."""
    if text in ("∞", "+∞"):
        return INFINITY
    if text == "-∞":
        return -INFINITY
    try:
        return int(text)
    except ValueError:
        return None


def drill_start(
    position: Board,
    shape: DrillShape | None = None,
    convention: Convention = OUR_SEARCH,
    seed: int | None = None,
    eval_file: str | Path | None = None,
) -> DrillStart:
    """A drill on the tree of `shape` (default: depth 3, width 3, the engine's order, H1
    leaves) cut from `position`; ValueError, saying why, when it cannot be cut (the game is
    over there) or when `eval_file` cannot be used (no such file, or not offered by serve).

    With `eval_file` the tree is cut here with `shape`'s own leaves (at once, no learner's code
    run) and the screen cuts it again with the file's (`DrillController.leaves_cut`)."""
    path = None if eval_file is None else check_guest_path(str(eval_file))
    tree = cut_tree(position, shape or DrillShape())
    return DrillStart(tree, convention, seed, path)


class DrillController:
    """The drill screen's rules and state: the exercise, the node selected, the number being
    typed, the reorder exercise when it is on, and what to say.

    Every key the screen reads comes here; the screen draws `rows()`, `title_words()`,
    `convention_words()`, `node_words()`, `typing_words()` and `verdict_lines()`, and keeps in
    the history the attempt `check()` returns.
    """

    def __init__(self, start: DrillStart) -> None:
        """Open the drill on `start`'s tree."""
        self.seed = start.seed
        """The seed the fresh trees are drawn with (None: at random)."""
        self.rng = random.Random(start.seed)
        self.drill = DrillExercise(start.tree, start.convention)
        """The fill-in exercise: the learner's entries and the last verdict."""
        self.reorder: ReorderExercise | None = None
        """The reorder exercise, while it is on."""
        self.selected = start.tree.root.id
        """The node selected."""
        self.typing = ""
        """The number being typed ("" when none)."""
        self.target = "value"
        """What it is for: one of `TYPING_TARGETS`."""
        self.message = ""
        """The last thing to say about a key (a refusal, what was written)."""
        self._kept: set[str] = set()
        """The exercises already solved on this tree (a solved tree counts once)."""
        self.eval_file = start.eval_file
        """The learner's evaluation file the leaves are valued by (None: the tree's own)."""
        if self.eval_file is not None and self.tree.shape.leaves is not LeafValues.YOURS:
            self.message = f"Asking {guest_name(self.eval_file)} for the leaves' values…"

    @property
    def tree(self) -> DrillTree:
        """The tree shown."""
        return self.drill.tree

    @property
    def convention(self) -> Convention:
        """The convention in force."""
        return self.drill.convention

    # -- the outline ----------------------------------------------------------------------------

    def ordered_children(self, node: DrillNode) -> list[DrillNode]:
        """`node`'s children in the order the current exercise shows them."""
        if self.reorder is None or node.is_leaf:
            return list(node.children)
        by_id = {child.id: child for child in node.children}
        return [by_id[ident] for ident in self.reorder.order[node.id]]

    def shown_order(self) -> list[tuple[DrillNode, int]]:
        """Every node with its depth, top to bottom, as the outline lists them."""
        found: list[tuple[DrillNode, int]] = []

        def walk(node: DrillNode, depth: int) -> None:
            found.append((node, depth))
            for child in self.ordered_children(node):
                walk(child, depth + 1)

        walk(self.tree.root, 0)
        return found

    def rows(self) -> list[OutlineRow]:
        """The outline, one row per node, top to bottom."""
        return [outline_row(self.drill, self.reorder, node, d) for node, d in self.shown_order()]

    # -- selecting and typing -------------------------------------------------------------------

    def select(self, node: int) -> None:
        """Select `node` (a new node drops the number half typed)."""
        if node != self.selected:
            self.typing, self.target = "", "value"
        self.selected = node

    def step_selection(self, delta: int) -> None:
        """Select the node `delta` rows below (above, if negative) the selected one."""
        order = [node.id for node, _ in self.shown_order()]
        index = order.index(self.selected) + delta
        self.select(order[max(0, min(len(order) - 1, index))])

    def begin(self, target: str) -> None:
        """Start typing a number for `target` ("value", "alpha" or "beta") on the selected node."""
        if self._refuse_in_reorder():
            return
        self.target, self.typing = target, ""
        name = self.drill.names[self.selected]
        self.message = f"Type {TARGET_WORDS[target]} of {name}, then Enter."

    def type_key(self, character: str) -> None:
        """A digit, "-" (a minus, first only) or "∞" (an open end, for α and β) typed."""
        if self._refuse_in_reorder():
            return
        if character == "-" and self.typing:
            self.message = "A minus goes first."
            return
        if character == "∞" and (self.target == "value" or self.typing not in ("", "-")):
            self.message = "∞ is only for α and β, alone: ∞ or -∞."
            return
        if self.typing.endswith("∞") or len(self.typing) >= 6:
            return
        self.typing += character

    def backspace(self) -> None:
        """Rub out the last character typed."""
        self.typing = self.typing[:-1]

    def cancel_typing(self) -> bool:
        """Drop the number being typed; whether there was one (escape leaves when not)."""
        typing = bool(self.typing) or self.target != "value"
        self.typing, self.target = "", "value"
        if typing:
            self.message = "Typing cancelled."
        return typing

    def enter(self) -> None:
        """Write the number typed on the selected node (nothing typed: rub that entry out)."""
        if self._refuse_in_reorder():
            return
        drill, node = self.drill, self.selected
        name = drill.names[node]
        text, target = self.typing, self.target
        number = _bound_text(text) if text else None
        if text and number is None:
            self.message = f"{text!r} is not a number."
            return
        if target == "value":
            if number is not None and abs(number) >= INFINITY:
                self.message = "A value is a whole number."
                return
            had = drill.entry(node).value
            refused = drill.set_value(node, number)
            if refused is None and number is None:
                refused = (
                    f"Type a number for {name} first, then Enter."
                    if had is None
                    else f"{name}'s value ({had}) rubbed out."
                )
            self.message = refused or f"{name} = {number}."
        else:
            entry = drill.entry(node)
            alpha = number if target == "alpha" else entry.alpha
            beta = number if target == "beta" else entry.beta
            drill.set_window(node, alpha, beta)
            if number is None:
                self.message = f"{name}: {TARGET_WORDS[target]} at entry rubbed out."
            else:
                self.message = f"{name}: {TARGET_WORDS[target]} {bound_words(number)}."
        self.typing, self.target = "", "value"

    def toggle_pruned(self) -> None:
        """Mark the selected node as never visited, or take the mark off."""
        if self._refuse_in_reorder():
            return
        drill, node = self.drill, self.selected
        refused = drill.toggle_pruned(node)
        if refused:
            self.message = refused
        else:
            marked = drill.entry(node).pruned
            self.message = f"{drill.names[node]} {'pruned' if marked else 'no longer pruned'}."

    def _refuse_in_reorder(self) -> bool:
        if self.reorder is None:
            return False
        self.message = (
            "In the reorder exercise you move children: shift+↑/↓ or [ / ]; r goes back to "
            "filling in the tree."
        )
        return True

    # -- checking -------------------------------------------------------------------------------

    def check(self) -> DrillAttempt | None:
        """Judge the exercise on (the tree, or the order); the attempt to keep in the history,
        or None when there is nothing new to keep (nothing changed since the last check, or this
        tree was solved already)."""
        if self.reorder is not None:
            reorder = self.reorder
            opening = "Right" if reorder.solved else "Not quite"
            self.message = f"{opening}: {reorder.score_words()}"
            return self._attempt(
                "reorder", reorder.leaves_visited, reorder.best.leaves_visited, reorder.solved
            )
        unchanged = self.drill.verdict is not None
        verdict = self.drill.check()
        total = len(verdict.nodes)
        if verdict.all_right:
            self.message = f"Right: every node is right ({total} of {total})."
        else:
            self.message = f"Not quite: {verdict.right_count} of {total} nodes right."
        if unchanged:
            return None
        return self._attempt("values", total, verdict.right_count, verdict.all_right)

    def _attempt(self, exercise: str, nodes: int, right: int, solved: bool) -> DrillAttempt | None:
        key = f"{exercise}-solved"
        if key in self._kept:
            return None
        if solved:
            self._kept.add(key)
        outcome = (nodes, right, solved)
        return drill_attempt(self.tree, self.convention, self.seed, exercise, outcome)

    def verdict_lines(self) -> list[str]:
        """What the verdict area says: the last message, then (after a check of the tree) a
        sentence for each wrong node; in the reorder exercise, the live score."""
        lines = [self.message] if self.message else []
        if self.reorder is not None:
            score = self.reorder.score_words()
            if score not in lines:
                lines.append(score)
            return lines
        verdict = self.drill.verdict
        if verdict is not None:
            lines += [wrong.words for wrong in verdict.wrong]
        return lines

    # -- a fresh tree, the reorder exercise, the conventions ------------------------------------

    @property
    def shape(self) -> DrillShape:
        """The shape every tree of this drill is cut to: the tree's, with the learner's leaves
        when the drill was given an evaluation file."""
        shape = self.tree.shape
        if self.eval_file is None:
            return shape
        return replace(shape, leaves=LeafValues.YOURS, eval_file=self.eval_file)

    @property
    def guest_leaves(self) -> bool:
        """Whether cutting a tree runs the learner's file (the screen does it off its loop)."""
        return self.shape.leaves is LeafValues.YOURS

    def leaves_cut(self) -> tuple[Board, DrillShape] | None:
        """The tree shown cut again with the learner's leaves, when it has other leaves: its
        position and shape (None when there is nothing to cut again)."""
        if self.eval_file is None or self.tree.shape.leaves is LeafValues.YOURS:
            return None
        return self.tree.position, self.shape

    def next_cut(self) -> tuple[Board, DrillShape]:
        """A fresh tree's position (random, of the same board, unlike the one shown when the
        tries find one) and shape, for `cut_tree` (the screen's way when `guest_leaves`)."""
        board = self.tree.position
        position = board
        for _ in range(FRESH_TREE_TRIES):
            position = random_position(self.rng, board.size, board.k, self.shape.depth)
            if position != board:
                break
        return position, self.shape

    def new_tree(self) -> None:
        """A fresh tree of the same shape, from a new random position of the same board
        (one unlike the tree shown, when the tries find one). With the learner's leaves the
        file is read again; a fault is said in one line and the tree shown stays."""
        if self.guest_leaves:
            position, shape = self.next_cut()
            try:
                fresh = cut_tree(position, shape)
            except GuestFault as fault:
                self.leaves_failed(fault.reason)
                return
            self.show_tree(fresh)
            return
        tree = self.tree
        board = tree.position
        fresh = tree
        for _ in range(FRESH_TREE_TRIES):
            position = random_position(self.rng, board.size, board.k, tree.shape.depth)
            fresh = cut_tree(position, tree.shape)
            if fresh.root != tree.root or fresh.position != board:
                break
        self.show_tree(fresh)

    def show_tree(self, fresh: DrillTree, message: str = "A fresh tree.") -> None:
        """Drill on `fresh` from now on (nothing written on it yet)."""
        self.drill = DrillExercise(fresh, self.convention)
        self.reorder = None if self.reorder is None else ReorderExercise(fresh, self.convention)
        self.selected = fresh.root.id
        self.typing, self.target = "", "value"
        self._kept = set()
        self.message = message

    def leaves_failed(self, reason: str) -> None:
        """The learner's file could not value the leaves: say so in one line; the tree stays."""
        self.message = f"Your evaluation failed: {reason}"

    def toggle_reorder(self) -> None:
        """Switch between filling in the tree and reordering its children."""
        self.typing, self.target = "", "value"
        if self.reorder is None:
            self.reorder = ReorderExercise(self.tree, self.convention)
            self.message = (
                "Reorder the children (shift+↑/↓ or [ / ]) so the search visits as few leaves "
                "as it can; c checks."
            )
        else:
            self.reorder = None
            self.message = "Back to filling in the tree."

    def move_selected(self, delta: int) -> None:
        """In the reorder exercise, move the selected node `delta` places among its siblings."""
        if self.reorder is None:
            self.message = "r starts the reorder exercise: then shift+↑/↓ move a child."
            return
        name = self.drill.names[self.selected]
        if not self.reorder.move(self.selected, delta):
            where = "first" if delta < 0 else "last"
            self.message = f"{name} cannot move: it is the root or already {where}."
            return
        words = self.reorder.score_words()
        self.message = f"Right: {words}" if self.reorder.solved else words

    def switch_cut(self) -> None:
        """Use the other cut rule (α ≥ β or α > β)."""
        self.drill.switch_cut()
        self._convention_changed()

    def switch_returns(self) -> None:
        """Use the other return rule (fail-soft or fail-hard)."""
        self.drill.switch_returns()
        self._convention_changed()

    def _convention_changed(self) -> None:
        if self.reorder is not None:
            order = self.reorder.order
            self.reorder = ReorderExercise(self.tree, self.convention)
            self.reorder.order = order
        self._kept = set()
        self.message = "Now: " + convention_summary(self.convention) + "."

    # -- words ----------------------------------------------------------------------------------

    def title_words(self) -> str:
        """What the drill is: the board, MAX, the tree's shape, the worth of a win."""
        return title_words(self.tree, self.reorder is not None)

    def convention_words(self) -> str:
        """The convention in force, in one line, with the keys that switch it."""
        return f"Convention: {convention_summary(self.convention)}; k and f switch it."

    def node_words(self) -> str:
        """The selected node: what it stands for and what is written on it."""
        return node_words(self.drill, self.reorder, self.selected)

    def typing_words(self) -> str:
        """The typing line: what is being typed, for what."""
        if self.reorder is not None:
            return "Reordering: shift+↑/↓ or [ / ] move the selected child."
        name = self.drill.names[self.selected]
        return f"{name}, {TARGET_WORDS[self.target]}: {self.typing or '…'}  (Enter sets it)"

    def board_view(self) -> tuple[list[str], list[int], int | None]:
        """The selected node's position: its marks, the moves from the root, the last move."""
        return board_view(self.drill, self.selected)
