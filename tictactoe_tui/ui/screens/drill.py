"""The alpha-beta drill: run the search by hand on a small tree cut from a real position.

The screen lists the tree as an indented outline (`DrillOutline`), one node a line, the position
of the node selected drawn beside it when there is room. The learner selects a node (the arrows
or a click), types the value the search returns there (digits and `-`, then Enter), marks the
nodes the search never visits (`x`), may write the window a node is entered with (`a` or `b`,
then a number, `i` for ∞), and checks (`c`): every node judged gets ✓ or ✗ on its line, and the
verdict area says, for each wrong one, why, in the search's own words. `n` cuts a fresh tree,
`r` switches to the second exercise (reorder the children with shift+↑/↓ or `[`/`]` so the
search visits as few leaves as it can, the count shown live against the best order), `k` and
`f` switch the cut rule and the return rule, and the convention in force is always stated.
Each check is kept in the history (`history.drills`), and the screen shows the drills solved
and the streak.

The rules are `play.drill.DrillController`'s: the screen hands it every key and draws what it
says. Opened with the learner's evaluation file (`DrillStart.eval_file`), its trees' leaves are
the file's values ("yours: FILE"): the file runs in a process of its own, waited for in a thread
so the screen keeps answering, and a file that fails is one line in the verdict area.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.worker import get_current_worker

from tictactoe_tui.engine.lab.drill_tree import DrillShape, DrillTree, cut_tree
from tictactoe_tui.engine.players.foreign import PlayerStopped
from tictactoe_tui.engine.players.guest import GuestFault
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.history.drills import DrillScore, drill_score, keep_attempt
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.drill import DrillController, DrillStart
from tictactoe_tui.ui.widgets.drill_tree import DrillOutline
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.mini_board import MiniBoard

BOARD_ROOM = 90
"""The narrowest terminal that shows the selected node's board beside the outline (narrower,
the typing line goes under the outline)."""

TALL_ROOM = 30
"""The shortest terminal whose verdict area may take 9 lines (shorter, it takes 4, so the
outline keeps room for the tree)."""


_FILL_IN_ACTIONS = frozenset({"type", "backspace", "enter", "prune", "begin"})
"""The actions of the fill-in exercise (hidden, and off, while reordering)."""


class DrillScreen(Screen[None]):
    """One drill tree to fill in (or reorder), checked node by node."""

    DEFAULT_CSS = """
    DrillScreen { layout: vertical; }
    DrillScreen #drill-head { height: auto; background: $boost; padding: 0 1; }
    DrillScreen #drill-title { width: 1fr; height: auto; }
    DrillScreen #drill-score { width: auto; text-style: bold; margin-left: 2; }
    DrillScreen #drill-convention { height: auto; padding: 0 1; }
    DrillScreen #drill-main { height: 1fr; }
    DrillScreen #drill-side { width: 38; height: 1fr; padding: 0 1; }
    DrillScreen.-narrow #drill-side { display: none; }
    DrillScreen #drill-node { height: auto; margin-top: 1; }
    DrillScreen #drill-typing { height: auto; margin-top: 1; background: $boost; padding: 0 1; }
    DrillScreen #drill-prompt { height: auto; display: none; background: $boost; padding: 0 1; }
    DrillScreen.-narrow #drill-prompt { display: block; }
    DrillScreen #drill-verdict-box { height: auto; max-height: 9; padding: 0 1; }
    DrillScreen.-short #drill-verdict-box { max-height: 4; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Back"),
        Binding("up", "step(-1)", "Select", key_display="↑↓"),
        Binding("down", "step(1)", "Select", show=False),
        Binding("0", "type('0')", "Type", key_display="0-9"),
        *(Binding(str(d), f"type('{d}')", show=False) for d in range(1, 10)),
        Binding("minus", "type('-')", show=False),
        Binding("i", "type('∞')", show=False),
        Binding("backspace", "backspace", show=False),
        Binding("enter", "enter", "Set", key_display="⏎"),
        Binding("x", "prune", "Prune"),
        Binding("a", "begin('alpha')", "α"),
        Binding("b", "begin('beta')", "β"),
        Binding("c", "check", "Check"),
        Binding("n", "new", "New"),
        Binding("r", "reorder", "Reorder"),
        Binding("shift+up", "move(-1)", "Move", key_display="⇧↑↓"),
        Binding("shift+down", "move(1)", show=False),
        Binding("left_square_bracket", "move(-1)", show=False),
        Binding("right_square_bracket", "move(1)", show=False),
        Binding("k", "switch_cut", "Cut"),
        Binding("f", "switch_returns", "Returns"),
    ]

    def __init__(self, start: DrillStart, store: HistoryStore | None = None) -> None:
        """A drill on `start`'s tree; each check is kept in `store` (None: kept nowhere, the
        score counted for this visit only)."""
        super().__init__()
        self.controller = DrillController(start)
        """The drill's rules and state."""
        self.store = store
        """The history the checks are kept in."""
        self.score: DrillScore = drill_score(store) if store is not None else DrillScore()
        """Drills solved and the streak."""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The title, the convention and the score, the outline beside the board, the verdict."""
        with Horizontal(id="drill-head"):
            yield Static("", id="drill-title", markup=False)
            yield Static("", id="drill-score", markup=False)
        yield Static("", id="drill-convention", markup=False)
        with Horizontal(id="drill-main"):
            yield DrillOutline(id="drill-outline")
            with Vertical(id="drill-side"):
                yield MiniBoard(id="drill-board")
                yield Static("", id="drill-node", markup=False)
                yield Static("", id="drill-typing", markup=False)
        # The typing line when the side panel has no room (the same words).
        yield Static("", id="drill-prompt", markup=False)
        with VerticalScroll(id="drill-verdict-box", can_focus=False):
            yield Static("", id="drill-verdict", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Draw the tree, with the outline focused."""
        self.query_one(DrillOutline).focus()
        self.on_resize()
        self.redraw()
        again = self.controller.leaves_cut()
        if again is not None:
            self._cut(*again, f"Leaves valued by {again[1].leaves_name}.")

    def on_resize(self, event: events.Resize | None = None) -> None:
        """The board beside the outline only when there is room for both; a shorter verdict
        area on a short terminal."""
        self.set_class(self.app.size.width < BOARD_ROOM, "-narrow")
        self.set_class(self.app.size.height < TALL_ROOM, "-short")

    # -- drawing --------------------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw everything from the controller."""
        controller = self.controller
        self.query_one("#drill-title", Static).update(controller.title_words())
        self.query_one("#drill-convention", Static).update(controller.convention_words())
        self.query_one("#drill-score", Static).update(self.score.words())
        lines = [
            (str(row.node), row.text, "bold" if row.wrong else "dim" if row.skipped else "")
            for row in controller.rows()
        ]
        self.query_one(DrillOutline).show(lines, str(controller.selected))
        marks, path, last = controller.board_view()
        self.query_one(MiniBoard).show(marks, path, last)
        self.query_one("#drill-node", Static).update(controller.node_words())
        typing = controller.typing_words()
        self.query_one("#drill-typing", Static).update(typing)
        self.query_one("#drill-prompt", Static).update(typing)
        self.query_one("#drill-verdict", Static).update("\n".join(controller.verdict_lines()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows the keys of the exercise on: typing and marks while filling in
        the tree, moving children while reordering."""
        reordering = self.controller.reorder is not None
        if action in _FILL_IN_ACTIONS:
            return not reordering
        if action == "move":
            return reordering
        return True

    # -- keys -----------------------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#drill-outline")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The outline's cursor (the arrows, a click) selects a node."""
        if self._sync():
            self.redraw()

    def _sync(self) -> bool:
        """Select the node the outline's cursor is on (keys may come before the cursor's
        message does); whether that changed the selection."""
        shown = self.query_one(DrillOutline).selected
        if shown is None or int(shown) == self.controller.selected:
            return False
        self.controller.select(int(shown))
        return True

    def _run(self, change: Callable[[], object]) -> None:
        """Do one key's change on the node the cursor is on, then redraw."""
        self._sync()
        change()
        self.redraw()

    def action_enter(self) -> None:
        """Write the number typed on the node selected."""
        self._run(self.controller.enter)

    def action_step(self, delta: int) -> None:
        """Select the node above or below (when the outline does not have the focus)."""
        self._run(lambda: self.controller.step_selection(delta))

    def action_type(self, character: str) -> None:
        """A digit, a minus or ∞ typed."""
        self._run(lambda: self.controller.type_key(character))

    def action_backspace(self) -> None:
        """Rub out the last character typed."""
        self._run(self.controller.backspace)

    def action_begin(self, target: str) -> None:
        """Type α or β at entry for the node selected."""
        self._run(lambda: self.controller.begin(target))

    def action_prune(self) -> None:
        """Mark the node selected as never visited, or take the mark off."""
        self._run(self.controller.toggle_pruned)

    def action_check(self) -> None:
        """Judge every node (or the order), and keep the attempt."""
        self._run(self._check)

    def _check(self) -> None:
        attempt = self.controller.check()
        if attempt is None:
            return
        store = self.store
        if store is not None and store.writable:
            keep_attempt(store, attempt)
            self.score = drill_score(store)
        else:
            self.score = self.score.after(attempt.solved)

    def action_new(self) -> None:
        """A fresh tree (cut off the event loop when the learner's file values its leaves)."""
        if self.controller.guest_leaves:
            self._cut(*self.controller.next_cut(), "A fresh tree.")
            return
        self._run(self.controller.new_tree)

    @work(thread=True, exclusive=True, group="drill-leaves", exit_on_error=False)
    def _cut(self, position: Board, shape: DrillShape, message: str) -> None:
        """Cut the tree with the learner's leaves in a thread (its file runs in a process of
        its own), then show it, or the file's fault in one line."""
        worker = get_current_worker()
        try:
            tree = cut_tree(position, shape, lambda: worker.is_cancelled)
        except PlayerStopped:
            return
        except (GuestFault, ValueError) as fault:
            reason = fault.reason if isinstance(fault, GuestFault) else str(fault)
            self.app.call_from_thread(self._cut_failed, reason)
            return
        self.app.call_from_thread(self._cut_done, tree, message)

    def _cut_done(self, tree: DrillTree, message: str) -> None:
        if self.is_attached:
            self.controller.show_tree(tree, message)
            self.redraw()

    def _cut_failed(self, reason: str) -> None:
        if self.is_attached:
            self.controller.leaves_failed(reason)
            self.redraw()

    def action_reorder(self) -> None:
        """Switch between filling in the tree and reordering its children."""
        self._run(self.controller.toggle_reorder)
        self.refresh_bindings()

    def action_move(self, delta: int) -> None:
        """Move the child selected up or down among its siblings (the reorder exercise)."""
        self._run(lambda: self.controller.move_selected(delta))

    def action_switch_cut(self) -> None:
        """Cut at α ≥ β, or only at α > β."""
        self._run(self.controller.switch_cut)

    def action_switch_returns(self) -> None:
        """Fail-soft, or fail-hard."""
        self._run(self.controller.switch_returns)

    def action_leave(self) -> None:
        """Escape: drop the number being typed, or (nothing typed) leave the drill."""
        if self.controller.cancel_typing():
            self.redraw()
            return
        self.dismiss()
