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

Given the learner's evaluation file (`DrillStart.eval_file`), the drill's trees have its leaves
(`LeafValues.YOURS`, named "yours: FILE"): the screen cuts them with `cut_tree` off its event
loop (the file runs in a process of its own) from what `leaves_cut` and `next_cut` say, and
hands the tree to `show_tree`, or the file's fault, in one line, to `leaves_failed`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

from tictactoe_tui.engine.lab.drill_tree import (
    DrillShape,
    DrillTree,
    LeafValues,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import (
    INFINITY,
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
from tictactoe_tui.engine.players.guest import GuestFault, check_guest_path, guest_name
from tictactoe_tui.engine.rules.board import Board, cell_notation
from tictactoe_tui.history.drills import DrillAttempt
from tictactoe_tui.text.drill import (
    bound_words,
    convention_summary,
    labels,
    missed_prune_words,
    pruned_wrongly_words,
    value_words,
    window_words,
)

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


@dataclass(frozen=True)
class OutlineRow:
    """One node of the outline, as the screen lists it."""

    node: int
    text: str
    """The whole line: the check's mark, the indent, label, move, MAX/MIN or the leaf's value,
    what the learner wrote."""
    wrong: bool = False
    """The last check judged it wrong (the text says so too, with ✗)."""
    skipped: bool = False
    """Shown as never visited: marked pruned (values), or skipped by the order (reorder)."""


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
        return [self._row(node, depth) for node, depth in self.shown_order()]

    def _head(self, node: DrillNode) -> str:
        tree = self.tree
        name = self.drill.names[node.id]
        if node.move is None:
            head = f"{name}  {tree.root_mark} to move"
        else:
            mover = tree.boards[self.drill.parents[node.id]].to_move
            head = f"{name}  {mover} plays {cell_notation(node.move, tree.position.size)}"
        if node.is_leaf:
            return f"{head} · leaf {node.value}"
        return f"{head} · {'MAX' if node.is_max else 'MIN'}"

    def _row(self, node: DrillNode, depth: int) -> OutlineRow:
        head = "  " * depth + self._head(node)
        if self.reorder is not None:
            skipped = not self.reorder.answer.was_visited(node.id)
            return OutlineRow(
                node.id, "  " + head + ("  · skipped" if skipped else ""), skipped=skipped
            )
        drill = self.drill
        entry = drill.entry(node.id)
        notes = []
        if entry.value is not None:
            notes.append(f"= {entry.value}")
        if entry.alpha is not None or entry.beta is not None:
            alpha = "?" if entry.alpha is None else bound_words(entry.alpha)
            beta = "?" if entry.beta is None else bound_words(entry.beta)
            notes.append(f"α {alpha} β {beta}")
        shown_pruned = drill.shown_pruned(node.id)
        if entry.pruned:
            notes.append("✂ pruned")
        elif shown_pruned:
            notes.append("(under ✂)")
        mark = "  "
        wrong = False
        verdict = drill.verdict
        if verdict is not None and node.id in verdict.nodes:
            wrong = not verdict.nodes[node.id].right
            mark = "✗ " if wrong else "✓ "
        text = mark + head + ("   " + "  ".join(notes) if notes else "")
        if wrong:
            text += "  ← not quite"
        return OutlineRow(node.id, text, wrong=wrong, skipped=shown_pruned)

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
        board, shape, convention = self.tree.position, self.tree.shape, self.convention
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
                "seed": self.seed,
            },
        )

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
        tree = self.tree
        board, shape = tree.position, tree.shape
        exercise = "reorder for the most pruning" if self.reorder else "fill in the tree"
        return (
            f"Alpha-beta drill: {exercise} · {board.size}×{board.size}, {board.k} in a row · "
            f"{tree.root_mark} to move is MAX · depth {shape.depth}, width {shape.width} · "
            f"{shape.order} order, {shape.leaves_name} leaves · a win on ply d: {tree.win} - d"
        )

    def convention_words(self) -> str:
        """The convention in force, in one line, with the keys that switch it."""
        return f"Convention: {convention_summary(self.convention)}; k and f switch it."

    def _leaf_how(self, node: DrillNode) -> str:
        """How a leaf got its value: the game's end (a win on ply d is worth W - d) or the
        leaf values' kind, from MAX's side."""
        tree = self.tree
        kind = tree.leaf_kinds[node.id]
        board = tree.boards[node.id]
        if kind == "draw":
            return "the game is drawn here"
        if kind in ("win", "loss"):
            ply = board.move_count - tree.position.move_count
            return f"{board.winner} wins here, on ply {ply}: {tree.win} - {ply}"
        if kind == "exact":
            return f"the position's exact value, for {tree.root_mark}"
        if kind == str(LeafValues.YOURS):
            return f"{tree.shape.leaves_name}: its evaluate() of the position for {tree.root_mark}"
        return f"{kind.upper()} of the position, for {tree.root_mark}"

    def node_words(self) -> str:
        """The selected node: what it stands for and what is written on it."""
        drill = self.drill
        node = drill.nodes[self.selected]
        lines = [self._head(node).replace("  ", ": ", 1)]
        if self.reorder is None:
            entry = drill.entry(node.id)
            if node.is_leaf:
                lines.append(f"A leaf: its value, {node.value}, is given ({self._leaf_how(node)}).")
            else:
                lines.append(
                    "You wrote: " + ("nothing yet" if entry.value is None else f"= {entry.value}")
                )
            if entry.alpha is not None or entry.beta is not None:
                alpha = "?" if entry.alpha is None else bound_words(entry.alpha)
                beta = "?" if entry.beta is None else bound_words(entry.beta)
                lines.append(f"Window at entry: α {alpha}, β {beta}")
            if drill.shown_pruned(node.id):
                lines.append("Marked never visited.")
            verdict = drill.verdict
            if verdict is not None and node.id in verdict.nodes:
                judged = verdict.nodes[node.id]
                lines.append("✓ right" if judged.right else f"✗ {judged.words}")
        return "\n".join(lines)

    def typing_words(self) -> str:
        """The typing line: what is being typed, for what."""
        if self.reorder is not None:
            return "Reordering: shift+↑/↓ or [ / ] move the selected child."
        name = self.drill.names[self.selected]
        return f"{name}, {TARGET_WORDS[self.target]}: {self.typing or '…'}  (Enter sets it)"

    def board_view(self) -> tuple[list[str], list[int], int | None]:
        """The selected node's position: its marks, the moves from the root, the last move."""
        path: list[int] = []
        current: int | None = self.selected
        while current is not None:
            move = self.drill.nodes[current].move
            if move is not None:
                path.append(move)
            current = self.drill.parents.get(current)
        path.reverse()
        board = self.tree.boards.get(self.selected, self.tree.position)
        return list(board.marks()), path, path[-1] if path else None
