"""The Analysis screen's keys: which there are and when each shows (set-up or exploring), and
those that change the position or hand it on: setting a position up by hand, pasting and copying
its string, and the lab's screens on the position shown (a, t, w, D, d).

`AnalysisKeys` is the screen's base: `ui.screens.analysis.AnalysisScreen` adds the layout, the
controller's effects, the drawing, the moves through the study and keeping it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import Mark
from tictactoe_tui.play.analysis import AnalysisController, AnalysisEffect, Phase
from tictactoe_tui.play.controller import Say
from tictactoe_tui.ui.messages import OpenDrill
from tictactoe_tui.ui.widgets import PositionView

EXPLORING_KEYS = frozenset({"back", "forward_or_empty", "variation", "promote", "delete"})
"""The footer's keys that step through the study: hidden while a position is set up."""


class AnalysisKeys(Screen[None]):
    """The analysis board's bindings, and the actions of its set-up, paste, copy and lab keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
        # Each set-up key (`set_up_…`) comes before the key's other binding, so that while
        # setting up the footer shows it; the exploring keys, which do nothing then, are hidden
        # (`check_action` decides).
        Binding("comma", "back", "Back", key_display=","),
        Binding("full_stop", "set_up_put('')", "Empty", key_display="."),
        Binding("full_stop", "forward_or_empty", "Forward", key_display="."),
        Binding("shift+left", "back", "Back", show=False),
        Binding("shift+right", "forward_or_empty", "Forward", show=False),
        Binding("home", "to_root", "Root", show=False),
        Binding("end", "to_end", "End of line", show=False),
        Binding(
            "left_square_bracket",
            "variation(-1)",
            "Previous variation",
            key_display="[",
            show=False,
        ),
        Binding("right_square_bracket", "variation(1)", "Variation", key_display="]"),
        Binding("plus", "promote", "Promote", key_display="+"),
        # Not in the footer: at 100 columns it cut the last keys in pieces (the help lists it).
        Binding("delete,backspace", "delete", "Delete", key_display="del", show=False),
        Binding("x", "set_up_put('X')", "X"),
        Binding("o", "set_up_put('O')", "O"),
        Binding("m", "set_up_side", "Side"),
        Binding("n", "set_up_clear", "Clear"),
        Binding("s", "set_up_done", "Done"),
        Binding("s", "setup", "Set up"),
        Binding("x", "put('X')", "X", show=False),
        Binding("o", "put('O')", "O", show=False),
        Binding("m", "switch_side", "Side to move", show=False),
        Binding("n", "clear", "Clear", show=False),
        # Not in the footer (no room at 100 columns): the status line names them.
        Binding("v", "paste", "Paste", show=False),
        Binding("c", "copy", "Copy", show=False),
        Binding("k", "keep", "Keep", show=False),
        Binding("h", "hint", "Hint", show=False),
        Binding("i", "toggle_panel", "Panel", show=False),
        Binding("p", "toggle_lines", "Line", show=False),
        Binding("a", "compare", "Compare", show=False),
        Binding("t", "search_tree", "Search tree", show=False),
        Binding("w", "heuristics", "Heuristic lab", show=False),
        Binding("d", "pairing", "Why a draw", show=False),
        Binding("D", "drill", "Alpha-beta drill", show=False),
        Binding("escape", "set_up_cancel", "Cancel"),
        Binding("escape", "leave", "Back"),
    ]

    controller: AnalysisController
    """The board's rules (`AnalysisScreen` makes it)."""
    eval_file: str
    """The learner's evaluation the compare screen and the heuristic lab show ("": none)."""

    @property
    def position(self) -> Position:
        """The position on the board (the engine's `Board`)."""
        return self.controller.position

    @property
    def position_text(self) -> str:
        """The position on the board as `analyse` and `--position` read it."""
        return self.controller.position_text

    @property
    def thinking(self) -> bool:
        """Whether the position shown is being analysed now."""
        return self.controller.thinking is not None

    @property
    def view(self) -> PositionView:
        """The board, the variation list and the panel."""
        return self.query_one("#analysis-view", PositionView)

    def _run(self, effects: Sequence[AnalysisEffect]) -> None:
        """Do what the controller asks, then redraw (`AnalysisScreen._run`)."""
        raise NotImplementedError

    def action_leave(self) -> None:
        """Escape: close the paste box, cancel a set-up, or go back (`AnalysisScreen`)."""
        raise NotImplementedError

    # -- when each key shows --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Letters typed in the paste box stay there (escape closes it); the set-up keys are
        there while setting up, the exploring keys of the footer the rest of the time."""
        if self.has_class("-pasting"):
            return action == "leave"
        setting_up = self.controller.phase is Phase.SETUP
        if action.startswith("set_up_"):
            return setting_up
        if action in EXPLORING_KEYS:
            return not setting_up
        return True

    def action_set_up_put(self, mark: str) -> None:
        """x / o / . while setting up (the footer's keys)."""
        self.action_put(mark)

    def action_set_up_side(self) -> None:
        """m while setting up: the other side to move."""
        self.action_switch_side()

    def action_set_up_clear(self) -> None:
        """n while setting up: an empty board."""
        self.action_clear()

    def action_set_up_done(self) -> None:
        """s again: the position set up is the one studied."""
        self.action_setup()

    def action_set_up_cancel(self) -> None:
        """Escape while setting up: back to the position as it was."""
        self.action_leave()

    # -- setting a position up, pasting and copying it -------------------------------------------

    def action_setup(self) -> None:
        """Set up a position by hand from the one shown; again: done."""
        self._run(self.controller.start_setup())

    def action_put(self, mark: str) -> None:
        """x / o / . while setting up: that mark (or nothing) on the cursor's cell."""
        self._run(self.controller.put(self.view.board.cursor, Mark(mark) if mark else None))

    def action_switch_side(self) -> None:
        """The other side to move (set-up)."""
        self._run(self.controller.switch_side())

    def action_clear(self) -> None:
        """An empty board (set-up)."""
        self._run(self.controller.clear())

    def action_paste(self) -> None:
        """Open the paste box (a terminal's paste, ctrl+v or shift+insert, types into it)."""
        self.add_class("-pasting")
        box = self.query_one("#paste", Input)
        box.value = ""
        box.focus()

    @on(Input.Submitted, "#paste")
    def on_paste_submitted(self, event: Input.Submitted) -> None:
        """Enter in the paste box: take the position, or say why not (the box stays open)."""
        effects = self.controller.paste(event.value)
        if not any(isinstance(e, Say) and e.text.startswith("Not pasted") for e in effects):
            self._close_paste()
        self._run(effects)

    def _close_paste(self) -> None:
        self.remove_class("-pasting")
        self.view.board.focus()

    def action_copy(self) -> None:
        """The position's string to the clipboard (and on screen)."""
        self._run(self.controller.copy())

    # -- the lab, on the position shown ---------------------------------------------------------

    def _lab(self, screen: Screen[Any]) -> None:
        self._run(self.controller.leave())
        self.app.push_screen(screen)

    def action_compare(self) -> None:
        """Every search algorithm on the position shown."""
        from tictactoe_tui.ui.screens.compare import CompareScreen

        self._lab(CompareScreen(self.position, eval_file=self.eval_file or None))

    def action_search_tree(self) -> None:
        """The alpha-beta search from the position shown, as a tree."""
        from tictactoe_tui.ui.screens.tree import TreeScreen

        self._lab(TreeScreen(self.position, eval_file=self.eval_file or None))

    def action_heuristics(self) -> None:
        """How H1 and H2 rank the position's moves."""
        from tictactoe_tui.ui.screens.heuristics import HeuristicScreen

        limit = self.controller.time_limit if self.position.size > 3 else None
        self._lab(HeuristicScreen(self.position, limit, eval_file=self.eval_file or None))

    def action_drill(self) -> None:
        """The alpha-beta drill on a tree cut from the position shown (the app opens it)."""
        self._run(self.controller.leave())
        self.post_message(OpenDrill(self.position))

    def action_pairing(self) -> None:
        """Why the position is a draw, when a pairing strategy proves it."""
        from tictactoe_tui.ui.screens.pairing import PairingScreen

        self._lab(PairingScreen(self.position))
