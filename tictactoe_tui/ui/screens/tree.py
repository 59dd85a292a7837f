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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Static, Tree
from textual.widgets.tree import TreeNode

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.lab.compare import default_depth
from tictactoe_tui.engine.lab.trace import (
    EVENT_CAP,
    LEFT_OUT,
    EventKind,
    Outcome,
    TraceNode,
    TraceRecorder,
    TraceResult,
    node_board,
    record_search,
)
from tictactoe_tui.text.lab import (
    ALGORITHM_TITLES,
    event_words,
    node_label,
    node_words,
    pruned_label,
    pruned_words,
    signed,
    value_words,
    window_words,
)
from tictactoe_tui.text.scores import first_cut_text, left_out_words
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.widgets.mini_board import MiniBoard
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed

NEEDED_TERMINAL = (80, 24)
"""The smallest (width, height) that shows the tree beside the board and the step panel."""

TREE_ALGORITHMS = ("alphabeta-ordered", "alphabeta-plain", "alphabeta-tt")
"""The searches the explorer can show, in the order `o` cycles through them."""

TREE_TIME_LIMIT = 10.0
"""Seconds a recorded search may take (the recording itself is capped in events)."""

MAX_DEPTH = 9
"""The deepest depth `+` offers on boards too big to search to the end."""

BIG_BOARD_TREE_DEPTH = 2
"""The depth the explorer starts with on positions the lab does not search to the end."""


@dataclass(frozen=True)
class Line:
    """What one line of the tree stands for: a recorded node, or a move pruned at a node."""

    node: int
    pruned: int | None = None
    """The pruned move (the line is then a greyed "pruned" entry under `node`)."""


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
    ]

    def __init__(
        self, position: Position, depth: int | None = None, event_cap: int = EVENT_CAP
    ) -> None:
        """Explore the search from `position` to `depth` plies, recording `event_cap` events.

        Without a depth, positions with few empty cells are searched to the end and the others
        to `BIG_BOARD_TREE_DEPTH` plies.
        """
        super().__init__()
        self.event_cap = event_cap
        """The most events a recording keeps."""
        self.position = position
        """The root of the search."""
        self.algorithm = TREE_ALGORITHMS[0]
        """The lab algorithm shown (one of `TREE_ALGORITHMS`)."""
        if depth is None and default_depth(position) is not None:
            depth = BIG_BOARD_TREE_DEPTH
        self.depth = depth
        """Plies searched; None for to the end of the game."""
        self.result: TraceResult | None = None
        """The search's numbers once recorded."""
        self.recorder: TraceRecorder | None = None
        """The recording once it arrives."""
        self.step: int | None = None
        """In step mode, the index of the event shown; None shows the finished search."""
        self._lines: dict[int, TreeNode[Line]] = {}
        self._filled: set[int] = set()
        self._failed = False

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
                with Vertical(id="tree-side"):
                    yield MiniBoard(id="tree-board")
                    yield Static("", id="node-info", markup=False)
                    yield Static("", id="step-info", markup=False)
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
        yield TooSmall(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        """Show the root position and start the search."""
        self.query_one(MiniBoard).show(self.position.marks())
        self.query_one("#search-tree", Tree).focus()
        self.on_resize()
        if self.position.is_over:
            winner = self.position.winner
            ended = "a draw" if winner is None else f"{winner} won"
            self.query_one("#tree-title", Static).update(
                f"The game is over ({ended}): there is no search to show. Escape goes back."
            )
            self.query_one("#search-tree", Tree).root.set_label("no search")
            return
        self._search()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """Swap the screen for an "enlarge the terminal" notice when it does not fit."""
        self.query_one(TooSmall).fit(NEEDED_TERMINAL, "the search tree")

    # -- the search -----------------------------------------------------------------------------

    def _search(self) -> None:
        """(Re)run the search with the current algorithm and depth; a running one is dropped."""
        if self.position.is_over:
            return
        self.result = self.recorder = None
        self._failed = False
        self.step = None
        tree = self.query_one("#search-tree", Tree)
        tree.clear()
        tree.root.set_label("Searching…")
        self._lines, self._filled = {}, set()
        self._refresh_title()
        self.query_one("#step-info", Static).update("")
        self._record()

    @work(exclusive=True, group="search", exit_on_error=False)
    async def _record(self) -> None:
        """Record the search in the worker, then show it (or say what went wrong)."""
        try:
            self.result, self.recorder = await app_thinker(self).run(
                record_search,
                self.position,
                self.algorithm,
                self.depth,
                TREE_TIME_LIMIT,
                self.event_cap,
            )
        except JobFailed as error:
            self._failed = True
            self.query_one("#tree-title", Static).update(f"The search failed: {error}")
            return
        self._rebuild()
        self._refresh_title()
        self._refresh_step()

    @property
    def busy(self) -> bool:
        """True while the recording is awaited (the tests and the screenshot script wait)."""
        return not self.position.is_over and self.recorder is None and not self._failed

    # -- the tree -------------------------------------------------------------------------------

    @property
    def _heuristic(self) -> str:
        return "H1"

    def _visible(self, node: TraceNode) -> bool:
        """Whether a recorded node has been entered by the event shown."""
        return self.step is None or node.entered <= self.step

    def _label(self, line: Line) -> Text:
        """The styled text of one line."""
        assert self.recorder is not None
        node = self.recorder.nodes[line.node]
        if line.pruned is not None:
            return Text(pruned_label(node, line.pruned, self.position), style="dim italic")
        if node.leaf == LEFT_OUT:
            return Text(node_label(node, self.position), style="dim italic")
        text = node_label(node, self.position, self._heuristic, self.step, self.recorder.nodes)
        done = node.returned >= 0 and (self.step is None or node.returned <= self.step)
        style = ""
        if done and node.move is not None:
            style = {Outcome.CUTOFF: "bold", Outcome.FAIL_LOW: "dim"}.get(
                node.outcome or Outcome.EXACT, ""
            )
        if not done:
            style = "italic"
        return Text(text, style=style)

    def _can_expand(self, node: TraceNode) -> bool:
        visible = any(self._visible(self._node(c)) for c in node.children)
        cut = node.pruned and (self.step is None or 0 <= node.cut_at <= self.step)
        return visible or bool(cut)

    def _node(self, index: int) -> TraceNode:
        assert self.recorder is not None
        return self.recorder.nodes[index]

    def _rebuild(self) -> None:
        """Rebuild the tree from the root, expanded along the path to the node shown."""
        tree = self.query_one("#search-tree", Tree)
        tree.clear()
        self._lines, self._filled = {}, set()
        if self.recorder is None or not self.recorder.nodes:
            return
        tree.root.set_label(self._label(Line(0)))
        tree.root.data = Line(0)
        self._lines[0] = tree.root
        self._fill(0)
        tree.root.expand()
        if self.step is not None:
            target = self._reveal(self.recorder.events[self.step].node)
            tree.move_cursor(target)

    def _fill(self, index: int) -> None:
        """Add a node's children (those entered by now), its pruned moves, then the line
        standing for the moves it left out, once."""
        if index in self._filled:
            return
        self._filled.add(index)
        parent = self._lines[index]
        node = self._node(index)
        searched = [c for c in node.children if self._node(c).leaf != LEFT_OUT]
        for child in searched:
            if self._visible(self._node(child)):
                self._add_node_line(parent, child)
        if node.pruned and (self.step is None or 0 <= node.cut_at <= self.step):
            self._add_pruned(parent, index)
        for child in node.children:
            if child not in searched and self._visible(self._node(child)):
                self._add_node_line(parent, child)

    def _stand_in_line(self, index: int) -> TreeNode[Line] | None:
        """The line standing for the moves node `index` left out, if it is shown."""
        for child in self._node(index).children:
            if self._node(child).leaf == LEFT_OUT:
                return self._lines.get(child)
        return None

    def _add_node_line(self, parent: TreeNode[Line], index: int) -> TreeNode[Line]:
        """A recorded node's line, added to its parent's (before the stand-in line, which stays
        last while step mode adds the moves tried one by one)."""
        line = Line(index)
        added = parent.add(
            self._label(line),
            data=line,
            before=self._stand_in_line(self._node(index).parent),
            allow_expand=self._can_expand(self._node(index)),
        )
        self._lines[index] = added
        return added

    def _add_pruned(self, parent: TreeNode[Line], index: int) -> None:
        """The moves node `index` pruned at its cut-off, greyed, before its stand-in line."""
        before = self._stand_in_line(index)
        for move in self._node(index).pruned:
            line = Line(index, move)
            parent.add_leaf(self._label(line), data=line, before=before)

    def _reveal(self, index: int) -> TreeNode[Line]:
        """The tree line of a recorded node, adding and expanding its ancestors as needed."""
        if index in self._lines:
            return self._lines[index]
        parent_index = self._node(index).parent
        parent = self._reveal(parent_index)
        self._fill(parent_index)
        parent.expand()
        return self._lines[index]

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
        if self.recorder is None or not self.recorder.nodes:
            return
        nodes = self.recorder.nodes
        node = nodes[line.node]
        info = self.query_one("#node-info", Static)
        if node.leaf == LEFT_OUT:
            # The moves left out, lit on the position where they were left out.
            board = node_board(self.position, nodes, node.parent)
            self.query_one(MiniBoard).show(
                board.marks(), self._path(node.parent), node.left_out, "dim reverse"
            )
            info.update(node_words(node, self.position))
            return
        board = node_board(self.position, nodes, line.node)
        path = self._path(line.node)
        if line.pruned is not None:
            self.query_one(MiniBoard).show(board.marks(), path, line.pruned, "reverse dim")
            info.update(pruned_words(node, line.pruned, self.position))
            return
        self.query_one(MiniBoard).show(board.marks(), path, node.move)
        info.update(node_words(node, self.position, self._heuristic, self.step, nodes))

    def _path(self, index: int) -> list[int]:
        """The moves from the root to a node."""
        assert self.recorder is not None
        path = []
        node = self.recorder.nodes[index]
        while node.move is not None:
            path.append(node.move)
            node = self.recorder.nodes[node.parent]
        return path[::-1]

    # -- step mode ------------------------------------------------------------------------------

    def action_toggle_steps(self) -> None:
        """Start the replay at the first event, or leave it to see the whole search."""
        if self.recorder is None or not self.recorder.events:
            return
        self.step = 0 if self.step is None else None
        self._rebuild()
        self._refresh_step()

    def action_step(self, delta: int) -> None:
        """Replay one event forward or back (starting the replay if needed)."""
        if self.recorder is None or not self.recorder.events:
            return
        if self.step is None:
            self.step = 0
            self._rebuild()
        else:
            last = len(self.recorder.events) - 1
            target = max(0, min(last, self.step + delta))
            if target == self.step:
                self.notify(
                    "The first event." if delta < 0 else "The last recorded event.", timeout=2
                )
                return
            if delta == 1:
                self.step = target
                self._advance()
            else:
                self.step = target
                self._rebuild()
        self._refresh_step()

    def action_step_end(self) -> None:
        """Leave the replay and show the finished search."""
        if self.step is not None:
            self.step = None
            self._rebuild()
            self._refresh_step()

    def _advance(self) -> None:
        """Show the effect of event `self.step` in place."""
        assert self.recorder is not None and self.step is not None
        event = self.recorder.events[self.step]
        tree = self.query_one("#search-tree", Tree)
        node = self._node(event.node)
        if event.kind is EventKind.ENTER and node.parent in self._filled:
            self._add_node_line(self._lines[node.parent], event.node)
        elif event.kind is EventKind.CUT and event.node in self._filled:
            self._add_pruned(self._lines[event.node], event.node)
        # A cut marks the move that made it (✂), whose line was drawn when it returned.
        marked = (node.cut_by,) if event.kind is EventKind.CUT else ()
        for index in (event.node, node.parent, *marked):
            holder = self._lines.get(index)
            if holder is not None:
                holder.set_label(self._label(Line(index)))
                holder.allow_expand = self._can_expand(self._node(index))
        tree.move_cursor(self._reveal(event.node))

    def _refresh_step(self) -> None:
        """The step panel: the event in words, the window, the running counts."""
        panel = self.query_one("#step-info", Static)
        if self.recorder is None:
            panel.update("")
            return
        recorder = self.recorder
        if self.step is None:
            total = len(recorder.events)
            panel.update(
                f"Step mode (s, or n to step): replay the {total:,} recorded events "
                "one at a time: enter a node, score a leaf, raise α, cut, return."
            )
            self._show_line(Line(0))
            return
        event = recorder.events[self.step]
        words = event_words(
            recorder.events, self.step, recorder.nodes, self.position, self._heuristic
        )
        panel.update(
            f"Event {self.step + 1:,} of {len(recorder.events):,}: {event.kind.value}\n"
            f"{words}\n"
            f"Window {window_words(event.alpha, event.beta, self.position)} · "
            f"positions visited {event.positions:,} · moves pruned {event.pruned:,}"
        )
        self._show_line(Line(event.node))

    # -- the other keys -------------------------------------------------------------------------

    def action_cycle_algorithm(self) -> None:
        """Show the next alpha-beta variant (board order, ordered, with the table)."""
        index = TREE_ALGORITHMS.index(self.algorithm)
        self.algorithm = TREE_ALGORITHMS[(index + 1) % len(TREE_ALGORITHMS)]
        self._search()

    def action_depth(self, delta: int) -> None:
        """Search one ply deeper or shallower (to the end is the deepest on small positions)."""
        empties = self.position.size * self.position.size - self.position.move_count
        full_allowed = default_depth(self.position) is None
        deepest = min(MAX_DEPTH, empties)
        current = empties if self.depth is None else self.depth
        target = max(1, min(deepest, current + delta))
        if target >= empties and full_allowed:
            new: int | None = None
        else:
            new = min(target, empties - 1) if full_allowed else target
        if new == self.depth:
            self.notify(
                "That is as far as the explorer goes here."
                if delta > 0
                else "Depth 1 is the shallowest.",
                timeout=2,
            )
            return
        self.depth = new
        self._search()

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
            "close": self.action_close,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    def _refresh_title(self) -> None:
        """What is shown: the algorithm, the position, the depth and the search's counts."""
        size = self.position.size
        depth = "to the end of the game" if self.depth is None else f"to depth {self.depth}"
        head = (
            f"{ALGORITHM_TITLES[self.algorithm]} from {self.position.to_move} to move "
            f"({size}×{size}, {self.position.k} in a row), {depth}"
        )
        result, recorder = self.result, self.recorder
        if result is None or recorder is None:
            counts = "Searching…"
        else:
            value = (
                f"Value {signed(result.value)} ({value_words(result, self.position)})"
                if result.finished
                else f"Stopped: {result.stopped}"
            )
            first = f" ({first_cut_text(result)} by the 1st move tried)" if result.cutoffs else ""
            counts = (
                f"{value} · {result.positions:,} positions · {result.cutoffs:,} cut-offs"
                f"{first} · {result.pruned:,} moves pruned · "
                f"{result.table_hits:,} table hits"
            )
            left_out = left_out_words(result)
            if left_out:
                counts += f" · {left_out} at the root"
            if recorder.truncated:
                counts += (
                    f" · recording capped at {len(recorder.events):,} of "
                    f"{recorder.total_events:,} events"
                )
        self.query_one("#tree-title", Static).update(f"{head}\n{counts}")
