"""The tree explorer's layout: which lines the tree shows at the event shown, how each reads, and
what the small board beside it shows; where the replay stands (`TreeLines`, read-only over the
controller's state, `TreeShown`)."""

from __future__ import annotations

from typing import Protocol

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import (
    LEFT_OUT,
    EventKind,
    Outcome,
    TraceNode,
    TraceRecorder,
    node_board,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.tree_effects import Line, LineLabel, LineView, Lit, Look, StepChange
from tictactoe_tui.play.tree_predict import TreePrediction, TreeVerdict
from tictactoe_tui.text.lab import (
    mover_at,
    node_label,
    node_words,
    pruned_label,
    pruned_words,
)

__all__ = ["TreeLines", "TreeShown"]


class TreeShown(Protocol):
    """What the layout reads of the explorer's state (the `TreeController`'s attributes)."""

    @property
    def position(self) -> Board:
        """The root of the search."""

    @property
    def recorder(self) -> TraceRecorder | None:
        """The recording, once it arrives."""

    @property
    def step(self) -> int | None:
        """In step mode, the index of the event shown; None shows the finished search."""

    @property
    def asking(self) -> TreePrediction | None:
        """The prediction being made, if one is."""

    @property
    def verdict(self) -> TreeVerdict | None:
        """The last prediction judged, if any."""

    @property
    def heuristic(self) -> str:
        """What scores a leaf at the depth cut-off, as the lines name it."""


class TreeLines:
    """The lines of the tree and the small board, for the state `shown` is in at each call."""

    def __init__(self, shown: TreeShown) -> None:
        self.shown = shown

    def node(self, index: int) -> TraceNode:
        """A recorded node."""
        assert self.shown.recorder is not None
        return self.shown.recorder.nodes[index]

    @property
    def has_nodes(self) -> bool:
        """Whether there is a recording with a root to show."""
        return self.shown.recorder is not None and bool(self.shown.recorder.nodes)

    def visible(self, node: TraceNode) -> bool:
        """Whether a recorded node has been entered by the event shown."""
        return self.shown.step is None or node.entered <= self.shown.step

    def _cut_shown(self, node: TraceNode) -> bool:
        return bool(node.pruned) and (
            self.shown.step is None or 0 <= node.cut_at <= self.shown.step
        )

    def can_expand(self, index: int) -> bool:
        """Whether a node's line has anything under it now."""
        if self.shown.asking is not None:
            return index == 0
        node = self.node(index)
        return any(self.visible(self.node(c)) for c in node.children) or self._cut_shown(node)

    def lines_under(self, index: int) -> list[Line]:
        """The lines under a node's, in order: the moves searched (entered by now), the moves
        its cut-off pruned, then the line standing for the moves it left out. While a
        prediction is made only the root's lines are there, in the order they were tried."""
        node = self.node(index)
        if self.shown.asking is not None:
            if index != 0:
                return []
            return [Line(child) for child in node.children] + [
                Line(0, move) for move in node.pruned
            ]
        searched = [c for c in node.children if self.node(c).leaf != LEFT_OUT]
        lines = [Line(child) for child in searched if self.visible(self.node(child))]
        if self._cut_shown(node):
            lines += [Line(index, move) for move in node.pruned]
        lines += [
            Line(child)
            for child in node.children
            if child not in searched and self.visible(self.node(child))
        ]
        return lines

    def stand_in(self, index: int) -> int | None:
        """The node standing for the moves node `index` left out, if it has one."""
        for child in self.node(index).children:
            if self.node(child).leaf == LEFT_OUT:
                return child
        return None

    def label(self, line: Line) -> LineLabel:
        """How one line reads."""
        assert self.shown.recorder is not None
        if self.shown.asking is not None:
            return self._asking_label(line)
        label = self._search_label(line)
        move = self.root_move_of(line)
        if self.shown.verdict is None or move is None or not self.fate_shown(move):
            return label
        # The verdict leads the line, so a narrow tree still shows it.
        return LineLabel(f"{self.shown.verdict.of(move).tag} · {label.text}", label.look)

    def _asking_label(self, line: Line) -> LineLabel:
        """A line while a prediction is made: the move and the learner's mark, no value."""
        asking = self.shown.asking
        assert asking is not None
        node = self.node(line.node)
        move = self.root_move_of(line)
        if move is None:
            if node.leaf == LEFT_OUT:
                return LineLabel(node_label(node, self.shown.position), Look.LEFT_OUT)
            moves = len(asking.facts.moves)
            return LineLabel(
                f"{self.shown.position.to_move} to move: predict the {moves} root moves below",
                Look.PLAIN,
            )
        mark = "   ◆ marked: cut off or fails low" if move in asking.marked else ""
        mover = mover_at(self.shown.position, 1)
        return LineLabel(
            f"{cell_notation(move, self.shown.position.size)} {mover}{mark}", Look.PLAIN
        )

    def _search_label(self, line: Line) -> LineLabel:
        """A line of the search as recorded (at the event shown)."""
        assert self.shown.recorder is not None
        node = self.shown.recorder.nodes[line.node]
        if line.pruned is not None:
            return LineLabel(pruned_label(node, line.pruned, self.shown.position), Look.PRUNED)
        if node.leaf == LEFT_OUT:
            return LineLabel(node_label(node, self.shown.position), Look.LEFT_OUT)
        text = node_label(
            node,
            self.shown.position,
            self.shown.heuristic,
            self.shown.step,
            self.shown.recorder.nodes,
        )
        done = node.returned >= 0 and (self.shown.step is None or node.returned <= self.shown.step)
        if not done:
            return LineLabel(text, Look.PENDING)
        if node.move is None:
            return LineLabel(text, Look.PLAIN)
        looks = {Outcome.CUTOFF: Look.CUTOFF, Outcome.FAIL_LOW: Look.FAIL_LOW}
        return LineLabel(text, looks.get(node.outcome or Outcome.EXACT, Look.PLAIN))

    def path(self, index: int) -> tuple[int, ...]:
        """The moves from the root to a node."""
        path = []
        node = self.node(index)
        while node.move is not None:
            path.append(node.move)
            node = self.node(node.parent)
        return tuple(path[::-1])

    def line_view(self, line: Line) -> LineView | None:
        """The position of `line` on the small board and what it is (None: nothing recorded)."""
        if self.shown.recorder is None or not self.shown.recorder.nodes:
            return None
        nodes = self.shown.recorder.nodes
        node = nodes[line.node]
        if node.leaf == LEFT_OUT:
            # The moves left out, lit on the position where they were left out.
            board = node_board(self.shown.position, nodes, node.parent)
            words = node_words(node, self.shown.position)
            return LineView(
                board.marks(), self.path(node.parent), node.left_out, Lit.LEFT_OUT, words
            )
        marks = node_board(self.shown.position, nodes, line.node).marks()
        path = self.path(line.node)
        move = self.root_move_of(line)
        if self.shown.asking is not None:
            return self._asking_view(line, marks, path, move)
        if line.pruned is not None:
            words = pruned_words(node, line.pruned, self.shown.position)
            view = LineView(marks, path, line.pruned, Lit.PRUNED, words)
        else:
            words = node_words(
                node, self.shown.position, self.shown.heuristic, self.shown.step, nodes
            )
            view = LineView(marks, path, node.move, Lit.MOVE, words)
        if self.shown.verdict is None or move is None or not self.fate_shown(move):
            return view
        return LineView(
            view.marks,
            view.path,
            view.lit,
            view.lit_kind,
            f"{view.words}\n{self.shown.verdict.of(move).sentence}",
        )

    def _asking_view(
        self, line: Line, marks: tuple[str, ...], path: tuple[int, ...], move: int | None
    ) -> LineView:
        """The small board while a prediction is made: the move's position, no value."""
        asking = self.shown.asking
        assert asking is not None
        if move is None:
            return LineView(
                marks,
                path,
                None,
                Lit.MOVE,
                f"The position searched: {self.shown.position.to_move} "
                "to move. Its value and the moves' values are hidden until the replay.",
            )
        if line.pruned is not None:
            marks = self.shown.position.play(move).marks()
            path = (move,)
        cell = cell_notation(move, self.shown.position.size)
        said = "marked" if move in asking.marked else "not marked"
        words = (
            f"{mover_at(self.shown.position, 1)} {cell}, ply 1: {said} as cut off or failing low. "
            "Its value is hidden until the replay."
        )
        return LineView(marks, path, move, Lit.MOVE, words)

    def root_move_of(self, line: Line) -> int | None:
        """The root move a line stands for (None: the line is not a root move)."""
        if self.shown.recorder is None:
            return None
        if line.pruned is not None:
            return line.pruned if line.node == 0 else None
        node = self.node(line.node)
        if node.parent != 0 or node.leaf == LEFT_OUT:
            return None
        return node.move

    def fate_shown(self, move: int) -> bool:
        """Whether the replay has reached the end of a root move (always, outside the replay)."""
        if self.shown.step is None:
            return True
        assert self.shown.verdict is not None
        fate = self.shown.verdict.facts.fate(move)
        if fate.node is None:
            return 0 <= self.node(0).cut_at <= self.shown.step
        returned = self.node(fate.node).returned
        return 0 <= returned <= self.shown.step

    def replay_done(self) -> bool:
        """Outside the replay, or at its last event."""
        if self.shown.step is None:
            return True
        return (
            self.shown.recorder is not None
            and self.shown.step >= len(self.shown.recorder.events) - 1
        )

    def step_change(self) -> StepChange:
        """What the event shown adds to the tree, compared with the one before it."""
        assert self.shown.recorder is not None and self.shown.step is not None
        event = self.shown.recorder.events[self.shown.step]
        node = self.node(event.node)
        entered = (node.parent, event.node) if event.kind is EventKind.ENTER else None
        cut = event.node if event.kind is EventKind.CUT else None
        # A cut marks the move that made it (✂), whose line was drawn when it returned.
        marked = (node.cut_by,) if event.kind is EventKind.CUT else ()
        return StepChange(entered, cut, (event.node, node.parent, *marked), event.node)

    def cursor_node(self) -> int | None:
        """The node of the event shown (None outside step mode)."""
        if self.shown.recorder is None or self.shown.step is None:
            return None
        return self.shown.recorder.events[self.shown.step].node

    def shown_line(self) -> Line | None:
        """The line the step panel is about: the root, or the node of the event shown."""
        if self.shown.recorder is None:
            return None
        node = self.cursor_node()
        return Line(0) if node is None else Line(node)
