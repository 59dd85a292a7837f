"""The tree explorer: the alpha-beta search from a position, as a tree you can walk and replay.

The game screen pushes it with its current position (key `t`). The app's worker process runs
the lab's instrumented search with a recording (`engine.trace.record_search`); a newer request
(another algorithm, another depth) cancels the running one, so only the recording asked for last
is ever shown. The screen then shows the recording as a Textual `Tree`, filled lazily: a
node's children are added when it is first expanded. Each line is a move with its value, the α/β
window it was tried with and how it ended (a value that is only a bound prints as one, "≥ +5",
"≤ −2"); the move that made a cut-off is marked "✂ cut (1st tried)", and the skipped moves
follow it, greyed. On big boards the search tries only the cells next to a mark: each node that
left moves out gets one more line standing for them, with the rule that left them out.

Step mode replays the recording event by event. The tree then shows the search as it stood at
that event: nodes not yet entered are absent, values not yet returned are "…". Stepping forward
adds to the tree in place; stepping back or jumping rebuilds it along the current node's path.
Highlighting any line draws its position on the small board beside the tree.

Prediction mode (`p`) asks before the replay: the tree shows the root moves without values,
`m`, Enter or a click marks those the learner thinks alpha-beta will cut off or fail low on, a
box takes the guess of the positions visited, and `s` (or Enter in the box) judges it, keeps it
in the history and starts the replay; each root move's line then says right or wrong.

The rules (what is searched, which lines there are and how each reads, what a step shows) are
`play.tree.TreeController`'s: the screen hands it every key and every answer, carries out the
effects it returns, and draws what its queries say.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, assert_never

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Static, Tree
from textual.widgets.tree import TreeNode

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.lab.trace import EVENT_CAP
from tictactoe_tui.history.predictions import keep_prediction
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.play.tree import (
    Advance,
    DrawPredict,
    DrawStep,
    DrawTitle,
    KeepPredictions,
    Line,
    Lit,
    Look,
    Rebuild,
    Relabel,
    Searching,
    StepChange,
    TreeController,
    TreeEffect,
)
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.messages import OpenDrill
from tictactoe_tui.ui.widgets.mini_board import MiniBoard
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed

NEEDED_TERMINAL = (80, 24)
"""The smallest (width, height) that shows the tree beside the board and the step panel."""

LOOKS = {
    Look.PLAIN: "",
    Look.CUTOFF: "bold",
    Look.FAIL_LOW: "dim",
    Look.PENDING: "italic",
    Look.PRUNED: "dim italic",
    Look.LEFT_OUT: "dim italic",
}
"""How each kind of line is drawn."""

LIT_STYLES = {Lit.MOVE: "reverse", Lit.PRUNED: "reverse dim", Lit.LEFT_OUT: "dim reverse"}
"""How the small board lights each kind of cell."""


class TreeScreen(Screen[None]):
    """The alpha-beta search from one position as a tree, with a step-by-step replay."""

    DEFAULT_CSS = """
    TreeScreen { layout: vertical; }
    TreeScreen #tree-body { height: 1fr; }
    TreeScreen.-too-small #tree-body { display: none; }
    TreeScreen #tree-title { height: auto; padding: 0 1; background: $boost; }
    TreeScreen #tree-main { height: 1fr; }
    TreeScreen #search-tree { width: 1fr; height: 1fr; border: round $primary 50%; }
    TreeScreen #search-tree:focus { border: round $primary; }
    TreeScreen #tree-side { width: 46; height: 1fr; padding: 0 1; }
    TreeScreen #node-info { height: auto; min-height: 4; margin-top: 1; }
    TreeScreen #step-info {
        height: auto; min-height: 4; margin-top: 1; color: $text; background: $boost;
        padding: 0 1;
    }
    TreeScreen .tree-buttons { height: auto; margin-top: 1; }
    TreeScreen .tree-buttons Button { margin-right: 1; min-width: 0; width: auto; }
    TreeScreen #predict-guess { display: none; margin-top: 1; }
    TreeScreen.-predicting #predict-guess { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("s", "toggle_steps", "Step mode"),
        Binding("n", "step(1)", "Next"),
        Binding("b", "step(-1)", "Back a step"),
        Binding("e", "step_end", "End"),
        Binding("o", "cycle_algorithm", "Algorithm"),
        Binding("plus", "depth(1)", "Depth +", key_display="+"),
        Binding("minus", "depth(-1)", "Depth −", key_display="-"),
        Binding("D", "drill", "Drill"),
        Binding("p", "predict", "Predict"),
        Binding("m", "mark", "Mark", show=False),
    ]

    def __init__(
        self,
        position: Position,
        depth: int | None = None,
        event_cap: int = EVENT_CAP,
        eval_file: str | Path | None = None,
    ) -> None:
        """Explore the search from `position` to `depth` plies, recording `event_cap` events;
        with the learner's `eval_file`, `o` also offers "yours: FILE" (see `TreeController`)."""
        super().__init__()
        self.controller = TreeController(position, depth, event_cap, eval_file=eval_file)
        """The explorer's rules and state: the recording, the algorithm, the event shown."""
        self._lines: dict[int, TreeNode[Line]] = {}
        self._filled: set[int] = set()

    @property
    def position(self) -> Position:
        """The root of the search."""
        return self.controller.position

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The title, the tree on the left, the board and the step panel on the right."""
        with Vertical(id="tree-body"):
            yield Static("", id="tree-title", markup=False)
            with Horizontal(id="tree-main"):
                tree: Tree[Line] = Tree("Searching…", id="search-tree")
                tree.guide_depth = 2
                tree.auto_expand = True
                yield tree
                # Scrolls when the board, the words and the buttons are taller than the
                # screen (big boards), so every button can still be reached with the mouse.
                with VerticalScroll(id="tree-side", can_focus=False):
                    yield MiniBoard(id="tree-board")
                    yield Static("", id="node-info", markup=False)
                    yield Static("", id="step-info", markup=False)
                    yield Input(
                        placeholder="positions it will visit, then Enter",
                        id="predict-guess",
                        compact=True,
                    )
                    with Horizontal(classes="tree-buttons"):
                        yield Button("Step mode", id="step-mode", compact=True)
                        yield Button("◀ Back", id="step-back", compact=True)
                        yield Button("Next ▶", id="step-next", compact=True)
                        yield Button("End ▶▶", id="step-end", compact=True)
                    with Horizontal(classes="tree-buttons"):
                        yield Button("Algorithm", id="cycle-algorithm", compact=True)
                        yield Button("Depth −", id="depth-down", compact=True)
                        yield Button("Depth +", id="depth-up", compact=True)
                        yield Button("Close", id="close", compact=True)
                    with Horizontal(classes="tree-buttons"):
                        yield Button("Predict", id="predict", compact=True)
        yield TooSmall(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        """Show the root position and start the search."""
        self.query_one(MiniBoard).show(self.position.marks())
        self.query_one("#search-tree", Tree).focus()
        self.on_resize()
        self._apply(self.controller.start())

    def on_resize(self, event: events.Resize | None = None) -> None:
        """Swap the screen for an "enlarge the terminal" notice when it does not fit."""
        self.query_one(TooSmall).fit(NEEDED_TERMINAL, "the search tree")

    @property
    def busy(self) -> bool:
        """True while the recording is awaited (the tests and the screenshot script wait)."""
        return self.controller.busy

    # -- carrying out the controller's effects --------------------------------------------------

    def _apply(self, effects: Sequence[TreeEffect]) -> None:
        """Do what the controller asks, in order."""
        for effect in effects:
            match effect:
                case Searching():
                    self._clear()
                case Rebuild():
                    self._rebuild()
                case Advance(change):
                    self._advance(change)
                case DrawTitle():
                    self.query_one("#tree-title", Static).update(self.controller.title())
                case DrawStep():
                    self._draw_step()
                case RunJob():
                    self._record(effect)
                case Notify(text, seconds):
                    self.notify(text, timeout=seconds)
                case Relabel(lines):
                    self._relabel(lines)
                case DrawPredict():
                    self._draw_predict()
                case KeepPredictions(kept):
                    store = getattr(self.app, "store", None)
                    if store is not None:
                        for prediction in kept:
                            keep_prediction(store, prediction)
                case _:
                    assert_never(effect)

    @work(exclusive=True, group="search", exit_on_error=False)
    async def _record(self, job: RunJob) -> None:
        """Record the search in the worker, then show it (or say what went wrong)."""
        try:
            answer = await app_thinker(self).run(job.job, *job.args)
        except JobFailed as error:
            self._apply(self.controller.search_failed(str(error)))
            return
        self._apply(self.controller.answered(answer))

    # -- the tree -------------------------------------------------------------------------------

    def _label(self, line: Line) -> Text:
        """The styled text of one line."""
        label = self.controller.label(line)
        return Text(label.text, style=LOOKS[label.look])

    def _clear(self) -> None:
        """An empty tree, its root saying why."""
        tree = self.query_one("#search-tree", Tree)
        tree.clear()
        tree.root.set_label(self.controller.root_label)
        self._lines, self._filled = {}, set()

    def _rebuild(self) -> None:
        """Rebuild the tree from the root, expanded along the path to the node shown."""
        tree = self.query_one("#search-tree", Tree)
        tree.clear()
        self._lines, self._filled = {}, set()
        if not self.controller.has_nodes:
            return
        tree.root.set_label(self._label(Line(0)))
        tree.root.data = Line(0)
        self._lines[0] = tree.root
        self._fill(0)
        tree.root.expand()
        shown = self.controller.cursor_node()
        if shown is not None:
            tree.move_cursor(self._reveal(shown))

    def _fill(self, index: int) -> None:
        """Add the lines under a node's (see `TreeController.lines_under`), once."""
        if index in self._filled:
            return
        self._filled.add(index)
        parent = self._lines[index]
        for line in self.controller.lines_under(index):
            if line.pruned is None:
                self._add_node_line(parent, line.node)
            else:
                parent.add_leaf(self._label(line), data=line, before=self._stand_in_line(index))

    def _stand_in_line(self, index: int) -> TreeNode[Line] | None:
        """The line standing for the moves node `index` left out, if it is shown."""
        stand_in = self.controller.stand_in(index)
        return None if stand_in is None else self._lines.get(stand_in)

    def _add_node_line(self, parent: TreeNode[Line], index: int) -> TreeNode[Line]:
        """A recorded node's line, added to its parent's (before the stand-in line, which stays
        last while step mode adds the moves tried one by one)."""
        line = Line(index)
        added = parent.add(
            self._label(line),
            data=line,
            before=self._stand_in_line(self.controller.node(index).parent),
            allow_expand=self.controller.can_expand(index),
        )
        self._lines[index] = added
        return added

    def _add_pruned(self, parent: TreeNode[Line], index: int) -> None:
        """The moves node `index` pruned at its cut-off, greyed, before its stand-in line."""
        before = self._stand_in_line(index)
        for move in self.controller.node(index).pruned:
            line = Line(index, move)
            parent.add_leaf(self._label(line), data=line, before=before)

    def _reveal(self, index: int) -> TreeNode[Line]:
        """The tree line of a recorded node, adding and expanding its ancestors as needed."""
        if index in self._lines:
            return self._lines[index]
        parent_index = self.controller.node(index).parent
        parent = self._reveal(parent_index)
        self._fill(parent_index)
        parent.expand()
        return self._lines[index]

    def _advance(self, change: StepChange) -> None:
        """Show one more event in place."""
        if change.entered is not None:
            parent, node = change.entered
            if parent in self._filled:
                self._add_node_line(self._lines[parent], node)
        elif change.cut is not None and change.cut in self._filled:
            self._add_pruned(self._lines[change.cut], change.cut)
        for index in change.relabel:
            holder = self._lines.get(index)
            if holder is not None:
                holder.set_label(self._label(Line(index)))
                holder.allow_expand = self.controller.can_expand(index)
        self.query_one("#search-tree", Tree).move_cursor(self._reveal(change.cursor))

    @on(Tree.NodeExpanded, "#search-tree")
    def on_expanded(self, event: Tree.NodeExpanded[Line]) -> None:
        """Fill a node's children the first time it opens."""
        line = event.node.data
        if line is not None and line.pruned is None:
            self._fill(line.node)

    @on(Tree.NodeHighlighted, "#search-tree")
    def on_highlighted(self, event: Tree.NodeHighlighted[Line]) -> None:
        """Show the highlighted line's position beside the tree."""
        if event.node.data is not None:
            self._show_line(event.node.data)

    def _show_line(self, line: Line) -> None:
        """Draw the position of `line` and say what it is."""
        view = self.controller.line_view(line)
        if view is None:
            return
        self.query_one(MiniBoard).show(view.marks, view.path, view.lit, LIT_STYLES[view.lit_kind])
        self.query_one("#node-info", Static).update(view.words)

    def _relabel(self, lines: tuple[Line, ...]) -> None:
        """Redraw some lines in place, and the small board if one of them is highlighted."""
        tree = self.query_one("#search-tree", Tree)
        # Marks are put on while the tree holds only the root's lines: a short walk.
        holders = [tree.root, *tree.root.children]
        for holder in holders:
            if holder.data in lines:
                holder.set_label(self._label(holder.data))
        cursor = tree.cursor_node
        if cursor is not None and cursor.data in lines:
            self._show_line(cursor.data)

    def _draw_predict(self) -> None:
        """Show the guess box while a prediction is made (empty at the start), hide it after."""
        asking = self.controller.asking is not None
        self.set_class(asking, "-predicting")
        box = self.query_one("#predict-guess", Input)
        tree = self.query_one("#search-tree", Tree)
        if self.controller.asking is not None and not self.controller.asking.guess_text:
            # A new prediction: an empty box, and the tree to mark the moves on.
            box.value = ""
            tree.focus()
        if not asking and box.has_focus:
            tree.focus()

    def _draw_step(self) -> None:
        """The step panel, and the line it is about on the small board."""
        self.query_one("#step-info", Static).update(self.controller.step_words())
        line = self.controller.shown_line()
        if line is not None:
            self._show_line(line)

    # -- keys and buttons -----------------------------------------------------------------------

    def action_toggle_steps(self) -> None:
        """Start the replay at the first event, or leave it to see the whole search."""
        self._apply(self.controller.toggle_steps())

    def action_step(self, delta: int) -> None:
        """Replay one event forward or back (starting the replay if needed)."""
        self._apply(self.controller.step_by(delta))

    def action_step_end(self) -> None:
        """Leave the replay and show the finished search."""
        self._apply(self.controller.step_end())

    def action_cycle_algorithm(self) -> None:
        """Show the next alpha-beta variant (board order, ordered, with the table)."""
        self._apply(self.controller.cycle_algorithm())

    def action_depth(self, delta: int) -> None:
        """Search one ply deeper or shallower (to the end is the deepest on small positions)."""
        self._apply(self.controller.change_depth(delta))

    def action_predict(self) -> None:
        """Predict the search before its replay, or leave prediction mode."""
        self._apply(self.controller.toggle_predict())

    def action_mark(self) -> None:
        """Mark the highlighted root move as cut off or failing low, or take the mark off."""
        cursor = self.query_one("#search-tree", Tree).cursor_node
        self._apply(self.controller.toggle_mark(None if cursor is None else cursor.data))

    @on(Tree.NodeSelected, "#search-tree")
    def on_selected(self, event: Tree.NodeSelected[Line]) -> None:
        """While a prediction is made, Enter or a click on a root move marks it."""
        line = event.node.data
        asking = self.controller.asking is not None
        if asking and line is not None and self.controller.root_move_of(line) is not None:
            self._apply(self.controller.toggle_mark(line))

    @on(Input.Changed, "#predict-guess")
    def on_guess(self, event: Input.Changed) -> None:
        """The guess of the positions visited, as typed."""
        self._apply(self.controller.set_guess(event.value))

    @on(Input.Submitted, "#predict-guess")
    def on_guess_submitted(self, event: Input.Submitted) -> None:
        """Enter in the box: judge the prediction and start the replay."""
        self._apply(self.controller.commit())

    def action_drill(self) -> None:
        """Run alpha-beta by hand on a small tree cut from this position (the app opens it)."""
        self.post_message(OpenDrill(self.position))

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss()

    @on(Button.Pressed)
    def on_button(self, event: Button.Pressed) -> None:
        """Every button does what its key does."""
        actions = {
            "step-mode": self.action_toggle_steps,
            "step-back": lambda: self.action_step(-1),
            "step-next": lambda: self.action_step(1),
            "step-end": self.action_step_end,
            "cycle-algorithm": self.action_cycle_algorithm,
            "depth-down": lambda: self.action_depth(-1),
            "depth-up": lambda: self.action_depth(1),
            "predict": self.action_predict,
            "close": self.action_close,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
