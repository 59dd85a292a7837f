"""`tictactoe-tui drill --text`: the alpha-beta drill as plain lines, for screen readers, scripts.

The tree is printed as an indented list, one node a line, labelled as on paper (`A`, `B1`, …,
see `text.drill`). The learner types one instruction a line:

    B2 = 3            the value B2 returns (`B2 =` rubs it out)
    prune C1          C1 is never visited (its whole subtree with it); `unprune C1`
    C1 window 3 inf   the window C1 is entered with (`-inf`/`inf` or `-∞`/`∞` for open ends)
    check             judge every node: one line starting "Right" or "Not quite", then a
                      sentence for each wrong node
    tree              the tree again, with what is written on it
    cut, returns      switch the cut rule (α ≥ β / α > β) or the return rule (soft / hard)
    answer            write the search's own answer on the tree, and show it
    reorder           the second exercise: `up C2`, `down C2` move a child among its
                      siblings; the leaves visited are told after each move; `check` judges
                      the order against the best one; `fill` goes back
    new               a fresh tree (from a new random position; with yours leaves the file is
                      read again, and a file that fails says so in one line, the tree kept)
    help, quit

The drill is `play.drill`'s; this module only reads lines and prints. The end of the input
ends the session, as `quit` does.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TextIO

from tictactoe_tui.engine.lab.drill_tree import DrillTree, cut_tree, random_position
from tictactoe_tui.engine.lab.hand_search import INFINITY, Convention, DrillNode
from tictactoe_tui.engine.players.guest import GuestFault
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.drill import DrillExercise, ReorderExercise
from tictactoe_tui.text.drill import bound_words, convention_lines

HELP = (
    "Type: B2 = 3 (the value B2 returns), prune C1 (never visited), unprune C1, "
    "C1 window 3 inf (its window at entry), check, tree, cut, returns, answer, reorder, new, "
    "help, quit."
)
REORDER_HELP = (
    "Reorder: up C2 or down C2 moves a child among its siblings; order shows the tree; "
    "check judges the order; fill goes back to filling in."
)
OPEN_ENDS = {"inf": INFINITY, "∞": INFINITY, "+inf": INFINITY, "-inf": -INFINITY, "-∞": -INFINITY}


def _number(text: str) -> int | None:
    """A typed value or bound: a whole number or an open end; None if it is neither."""
    if text.lower() in OPEN_ENDS:
        return OPEN_ENDS[text.lower()]
    try:
        return int(text)
    except ValueError:
        return None


class DrillSession:
    """One learner's session of drills in plain lines."""

    def __init__(self, tree: DrillTree, convention: Convention, seed: int | None, out: TextIO):
        self.out = out
        self.seed = seed
        self.rng = random.Random(seed)
        self.drill = DrillExercise(tree, convention)
        self.reorder: ReorderExercise | None = None
        self.running = True

    def say(self, *lines: str) -> None:
        """Print lines, flushed (a pipe reads them at once)."""
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def run(self, lines: Iterable[str]) -> int:
        """Introduce the drill, then follow the lines until `quit` or the end of the input."""
        self.introduce()
        for raw in lines:
            text = raw.strip()
            if text:
                self.handle(text)
            if not self.running:
                break
        return 0

    def introduce(self) -> None:
        """What the drill is, the convention, the tree, how to answer."""
        tree = self.drill.tree
        board = tree.position
        shape = tree.shape
        self.say(
            f"Alpha-beta drill on {board.size}×{board.size}, {board.k} in a row: "
            f"{board.to_move} to move is MAX. Depth {shape.depth}, up to {shape.width} moves "
            f"a node, {shape.order} order, leaves by {shape.leaves_name}; a win on ply d is worth "
            f"{tree.win} - d.",
            f"Position: {board}",
            *convention_lines(self.drill.convention),
        )
        self.show_tree()
        self.say(HELP)

    def node_line(self, node: DrillNode, depth: int) -> str:
        """One node of the tree as a line, with what is written on it."""
        drill = self.drill
        tree = drill.tree
        name = drill.names[node.id]
        if node.move is None:
            head = f"{name}  the position, {tree.root_mark} to move"
        else:
            mover = tree.boards[drill.parents[node.id]].to_move
            head = f"{name}  {mover} plays {cell_notation(node.move, tree.position.size)}"
        head += (
            f", leaf worth {node.value} ({tree.leaf_kinds[node.id]})"
            if node.is_leaf
            else (", MAX" if node.is_max else ", MIN")
        )
        entry = drill.entry(node.id)
        notes = []
        if entry.value is not None:
            notes.append(f"= {entry.value}")
        if entry.alpha is not None or entry.beta is not None:
            notes.append(
                "window "
                + " ".join("?" if v is None else bound_words(v) for v in (entry.alpha, entry.beta))
            )
        if drill.shown_pruned(node.id):
            notes.append("pruned")
        verdict = drill.verdict
        if verdict is not None and node.id in verdict.nodes and not verdict.nodes[node.id].right:
            notes.append("<- not quite")
        return "  " * depth + head + ("  " + "; ".join(notes) if notes else "")

    def show_tree(self) -> None:
        """The tree as an indented list."""
        lines: list[str] = []

        def walk(node: DrillNode, depth: int) -> None:
            lines.append(self.node_line(node, depth))
            for child in self.ordered_children(node):
                walk(child, depth + 1)

        walk(self.drill.tree.root, 0)
        self.say(*lines)

    def ordered_children(self, node: DrillNode) -> list[DrillNode]:
        """`node`'s children as the current exercise orders them."""
        if self.reorder is None or node.is_leaf:
            return list(node.children)
        by_id = {child.id: child for child in node.children}
        return [by_id[ident] for ident in self.reorder.order[node.id]]

    def handle(self, text: str) -> None:
        """Carry out one typed line."""
        words = text.split()
        command = words[0].lower()
        simple = {
            "check": self.check,
            "tree": self.show_tree,
            "order": self.show_tree,
            "cut": self.switch_cut,
            "returns": self.switch_returns,
            "answer": self.answer,
            "reorder": self.start_reorder,
            "fill": self.stop_reorder,
            "new": self.new,
            "help": lambda: self.say(REORDER_HELP if self.reorder else HELP),
            "quit": self.quit,
        }
        if len(words) == 1 and command in simple:
            simple[command]()
        elif command in ("prune", "unprune") and len(words) == 2:
            self.mark(words[1], command == "prune")
        elif command in ("up", "down") and len(words) == 2:
            self.move(words[1], -1 if command == "up" else 1)
        elif "=" in text:
            label, _, value = text.partition("=")
            self.write_value(label.strip(), value.strip())
        elif len(words) == 4 and words[1].lower() == "window":
            self.write_window(words[0], words[2], words[3])
        else:
            self.say(f"{text!r} is not an instruction I know. {HELP}")

    def labelled(self, label: str) -> DrillNode | None:
        node = self.drill.node_named(label)
        if node is None:
            self.say(f"There is no node {label!r} in this tree: the labels are A, B1, B2, ….")
        return node

    def write_value(self, label: str, text: str) -> None:
        node = self.labelled(label)
        if node is None:
            return
        value = _number(text) if text else None
        if text and (value is None or abs(value) >= INFINITY):
            self.say(f"{text!r} is not a value: type a whole number, as in {label} = 3.")
            return
        name = self.drill.names[node.id]
        had = self.drill.entry(node.id).value
        refused = self.drill.set_value(node.id, value)
        if refused is None and value is None:
            refused = (
                f"{name} has no value written."
                if had is None
                else f"{name} = ? ({had} rubbed out)."
            )
        self.say(refused or f"{name} = {value}.")

    def write_window(self, label: str, alpha_text: str, beta_text: str) -> None:
        node = self.labelled(label)
        if node is None:
            return
        alpha, beta = _number(alpha_text), _number(beta_text)
        if alpha is None or beta is None:
            self.say("A window is two numbers (or -inf and inf), as in C1 window 3 inf.")
            return
        self.drill.set_window(node.id, alpha, beta)
        self.say(f"{self.drill.names[node.id]} window {bound_words(alpha)} {bound_words(beta)}.")

    def mark(self, label: str, pruned: bool) -> None:
        node = self.labelled(label)
        if node is None:
            return
        name = self.drill.names[node.id]
        if self.drill.entry(node.id).pruned == pruned:
            self.say(f"{name} is {'already' if pruned else 'not'} marked pruned.")
            return
        refused = self.drill.toggle_pruned(node.id)
        self.say(refused or f"{name} {'pruned' if pruned else 'no longer pruned'}.")

    def check(self) -> None:
        if self.reorder is not None:
            # The reorder exercise is judged on its order, not on the values written.
            words = self.reorder.score_words()
            self.say(f"Right: {words}" if self.reorder.solved else f"Not quite: {words}")
            return
        verdict = self.drill.check()
        total = len(verdict.nodes)
        if verdict.all_right:
            self.say(f"Right: every node is right ({total} of {total}).")
            return
        self.say(f"Not quite: {verdict.right_count} of {total} nodes right.")
        self.say(*(f"  {wrong.words}" for wrong in verdict.wrong))

    def switch_cut(self) -> None:
        self.drill.switch_cut()
        self._convention_changed()

    def switch_returns(self) -> None:
        self.drill.switch_returns()
        self._convention_changed()

    def _convention_changed(self) -> None:
        if self.reorder is not None:
            self.reorder = ReorderExercise(self.drill.tree, self.drill.convention)
        self.say("Now:", *convention_lines(self.drill.convention))

    def answer(self) -> None:
        self.drill.reveal()
        answer = self.drill.answer
        self.say(
            f"The search's answer: the root returns {answer.root_value}, "
            f"{answer.leaves_visited} leaves visited."
        )
        self.show_tree()

    def start_reorder(self) -> None:
        self.reorder = ReorderExercise(self.drill.tree, self.drill.convention)
        self.say(REORDER_HELP, self.reorder.score_words())

    def stop_reorder(self) -> None:
        self.reorder = None
        self.say("Back to filling in the tree.")

    def move(self, label: str, delta: int) -> None:
        if self.reorder is None:
            self.say("Type reorder first: up and down move children in the reorder exercise.")
            return
        node = self.labelled(label)
        if node is None:
            return
        if not self.reorder.move(node.id, delta):
            where = "first" if delta < 0 else "last"
            self.say(f"{self.drill.names[node.id]} cannot move: it is the root or already {where}.")
            return
        words = self.reorder.score_words()
        self.say(f"Right: {words}" if self.reorder.solved else words)

    def new(self) -> None:
        tree = self.drill.tree
        board = tree.position
        position = random_position(self.rng, board.size, board.k, tree.shape.depth)
        try:
            fresh = cut_tree(position, tree.shape)
        except GuestFault as fault:
            # The tree on the table stays; the learner fixes the file and types new again.
            self.say(f"Your evaluation failed: {fault.reason}")
            return
        self.drill = DrillExercise(fresh, self.drill.convention)
        self.reorder = None
        self.introduce()

    def quit(self) -> None:
        self.running = False
