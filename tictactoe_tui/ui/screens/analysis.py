"""The Analysis screen: set up any position, explore variations, and see each position analysed.

The rules live in `play.analysis.AnalysisController`: the screen hands it every event (a cell
chosen, a key, a pasted string, a search's answer) and carries out the effects it returns, then
redraws the board, the variation list and the status from its queries — the Game screen's
shape. Every position shown is analysed in the app's worker through one Textual worker group
(starting the next analysis, or leaving the screen, cancels the one before); the search shows
live in the panel with its best line on the board, and its answer stays on the position's node.

Opened with `e` from the Game screen (the position on the board; the game waits untouched
underneath), the review (the position shown) and Settings (an empty board of the chosen size
and k), and by `tictactoe-tui --position STRING`; a study kept in the history reopens here
from the Studies screen. `k` keeps the study (its root and every variation) in the history, and
again saves it in place. Escape goes back (while setting up: cancels the set-up). The lab's keys
(a, t, w, d) open on the position shown. The keys, and those that set up, paste, copy or open
the lab, are `ui.screens.analysis_keys`' (the screen's base); keeping the study in the history
is `play.study_keeping`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from textual import events, on, work
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Input, Static

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.study import MoveTree
from tictactoe_tui.play.analysis import (
    AnalysisController,
    AnalysisEffect,
    Copy,
    Phase,
    Resized,
)
from tictactoe_tui.play.controller import (
    BoardView,
    ClearPanel,
    Say,
    Search,
    ShowReport,
    ShowThinking,
    StopSearch,
)
from tictactoe_tui.play.leaving import Leave
from tictactoe_tui.play.study_keeping import StudyKeeping
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.keys import key_for
from tictactoe_tui.ui.screens.analysis_keys import AnalysisKeys
from tictactoe_tui.ui.widgets import Board, PositionView
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.ui.widgets.variation_list import Entry, VariationList
from tictactoe_tui.worker.client import JobFailed

STATUS_HEIGHT = 3
"""The status's lines: where, the position, a notice (a long notice, such as a refusal, takes a
line or two more from the move list)."""
PANEL_MIN_WIDTH = 46
MIN_WIDTH = 60
LIST_MIN_HEIGHT = 4
FOOTER_HEIGHT = 1
PASTE_PLACEHOLDER = "a board like X../.O./... · Enter pastes · esc closes"
"""The paste box's words: whole in the narrowest screen (`MIN_WIDTH` less the box's frame)."""
COMPACT_STATUS_HEIGHT = 3
"""The compact status: where the study is and the notice (wrapped at 40 columns)."""
VERDICT_HEIGHT = 1
COMPACT_MIN_WIDTH = 40
"""The compact layout's narrowest terminal: its verdict line and the footer need the room."""
COMPACT_LIST_WIDTH = 15
"""Columns of the variation list beside the board in the compact layout ("12. O A15" and its
frame)."""


def needed_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal the screen shows a size×size board in."""
    board_width, board_height = board_size_on_screen(size)
    return (
        max(MIN_WIDTH, board_width + PANEL_MIN_WIDTH),
        STATUS_HEIGHT + board_height + LIST_MIN_HEIGHT + FOOTER_HEIGHT,
    )


def compact_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal the screen shows a size×size board in: the compact
    layout (the status, the board in one-line cells with the variation list beside it, a
    one-line verdict, the keys; the panel one key away, shown instead of the board)."""
    board_width, board_height = board_size_on_screen(size, compact=True)
    return (
        max(COMPACT_MIN_WIDTH, board_width + COMPACT_LIST_WIDTH),
        COMPACT_STATUS_HEIGHT + board_height + VERDICT_HEIGHT + FOOTER_HEIGHT,
    )


class AnalysisScreen(AnalysisKeys):
    """A study: a position set up by hand or taken from a game, and the moves tried from it."""

    DEFAULT_CSS = """
    AnalysisScreen { layout: vertical; }
    AnalysisScreen #analysis-status {
        height: auto; min-height: 3; max-height: 5; padding: 0 1; background: $boost;
    }
    AnalysisScreen #analysis-view #move-list { display: none; }
    AnalysisScreen #paste { display: none; }
    AnalysisScreen.-pasting #paste { display: block; }
    AnalysisScreen.-setup #analysis-status { background: $warning 20%; }
    AnalysisScreen.-too-small #analysis-view, AnalysisScreen.-too-small #analysis-status,
    AnalysisScreen.-too-small #analysis-verdict {
        display: none;
    }
    AnalysisScreen #analysis-verdict {
        display: none; height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis;
    }
    AnalysisScreen.-compact #analysis-verdict { display: block; }
    AnalysisScreen.-compact.-pasting #analysis-verdict { display: none; }
    AnalysisScreen.-compact #paste { border: none; height: 1; padding: 0 1; }
    /* The compact status keeps its three lines (the board's room): a longer notice is also
       said whole in a toast. */
    AnalysisScreen.-compact #analysis-status { height: 3; min-height: 3; max-height: 3; }
    AnalysisScreen.-compact #analysis-view > #position-left { layout: horizontal; width: 1fr; }
    AnalysisScreen.-compact #variation-list { width: 1fr; height: 100%; padding: 0; }
    """

    def __init__(
        self,
        position: Position | MoveTree,
        *,
        time_limit: float | None = 1.0,
        depth: int | None = None,
        store: HistoryStore | None = None,
        study_id: int | None = None,
        eval_file: str = "",
    ) -> None:
        """A study of `position` (or a whole study, reopened as study `study_id` of the
        history); each position shown is analysed by alpha-beta within `time_limit` seconds on
        boards over 3×3 (and `depth` plies when given). `store` keeps the study (`k`).
        `eval_file` (the app's `--eval FILE`) goes on to the compare screen and the lab."""
        super().__init__()
        self.eval_file = eval_file
        """The learner's evaluation the compare screen and the heuristic lab show ("": none)."""
        self.controller = AnalysisController(position, time_limit=time_limit, depth=depth)
        """The board's rules: this screen shows what it says and does what it asks."""
        self.store = store
        """The history the study is kept in (None: it cannot be kept)."""
        self.keeping = StudyKeeping(store, self.controller.tree, study_id)
        """The study in the history: its id once kept, the question before unkept moves go."""
        self._drawn: BoardView | None = None

    @property
    def study_id(self) -> int | None:
        """The study's id in the history once kept (saving again replaces it)."""
        return self.keeping.study_id

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The status, the view (board and variations | panel), the paste box, the footer."""
        yield Static("", id="analysis-status", markup=False)
        yield PositionView(
            self.position.size,
            id="analysis-view",
            board_id="analysis-board",
            under_board=VariationList(),
            under_board_in_compact=True,
        )
        yield Input(placeholder=PASTE_PLACEHOLDER, id="paste")
        yield Static("", id="analysis-verdict", markup=False)
        yield TooSmall(id="analysis-too-small")
        yield Footer()

    def on_mount(self) -> None:
        """Draw the position and start its analysis."""
        self._prepare_board()
        self._fit_terminal()
        self._run(self.controller.resume())

    def _prepare_board(self) -> None:
        board = self.view.board
        size = self.position.size
        board.cursor = (size // 2) * (size + 1)
        board.focus()
        self._drawn = None

    def on_resize(self, event: events.Resize) -> None:
        """Swap the board for an "enlarge the terminal" message when it no longer fits."""
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        """The full layout when the terminal has room for it, else the compact one, else the
        "enlarge the terminal" notice (the smallest terminal is the compact layout's)."""
        size = self.position.size
        view = self.view
        small = self.query_one(TooSmall).fit(
            compact_terminal(size),
            f"a {size}×{size} board",
            "escape goes back.",
            refocus=view.board,
        )
        have = self.app.size
        full_width, full_height = needed_terminal(size)
        compact = not small and (have.width < full_width or have.height < full_height)
        # The view's own flag, not only the class: a board of another size is a new view.
        if compact != self.has_class("-compact") or compact != view.compact:
            self.set_class(compact, "-compact")
            view.set_compact(compact)
            # The list's narrow frame beside the board has room for one word.
            self.query_one(VariationList).border_title = (
                "Moves" if compact else "Moves and variations"
            )
            self._redraw_status()

    def on_screen_resume(self) -> None:
        """Back from a lab screen or help: the analysis carries on."""
        self.view.board.focus()
        self._run(self.controller.resume())

    def on_unmount(self) -> None:
        """Leaving stops the analysis."""
        self.workers.cancel_group(self, "analysis")

    # -- carrying out the controller's effects --------------------------------------------------

    def _run(self, effects: Sequence[AnalysisEffect]) -> None:
        """Do what the controller asks, in order, then redraw."""
        for index, effect in enumerate(effects):
            match effect:
                case Say():
                    self.notify(effect.text, timeout=4)
                case Search():
                    self._analyse(effect)
                case StopSearch():
                    self.workers.cancel_group(self, "analysis")
                case ShowReport():
                    self.view.show_report(effect.report)
                    self.view.panel.select_chosen()  # the best move's line, drawn on the board
                case ClearPanel():
                    self.view.clear_panel(*(() if effect.text is None else (effect.text,)))
                case ShowThinking():
                    self.view.show_thinking(effect.report, effect.line, effect.mover)
                case Copy():
                    # Where the terminal allows (OSC 52); the text is also said on screen.
                    self.app.copy_to_clipboard(effect.text)
                case Resized():
                    # The rest waits for the new board.
                    self.call_later(self._rebuild, effects[index + 1 :])
                    return
                case _:
                    assert_never(effect)
        self._redraw()

    async def _rebuild(self, rest: Sequence[AnalysisEffect]) -> None:
        """A position of another size: a new board (and view) for it, then the rest of the
        effects."""
        await self.recompose()
        self._prepare_board()
        self._fit_terminal()
        self._run(rest)

    @work(exclusive=True, group="analysis", exit_on_error=False)
    async def _analyse(self, search: Search) -> None:
        """Analyse the position shown in the worker; a newer one (or leaving) cancels it."""
        try:
            result = await app_thinker(self).run(
                search.job, *search.args, on_progress=self._progress, in_process=search.in_process
            )
        except JobFailed as error:
            self._run(self.controller.search_failed(str(error)))
            return
        self._run(self.controller.search_done(result))

    def _progress(self, progress: Any) -> None:
        for effect in self.controller.progress(progress):
            if isinstance(effect, ShowThinking):
                self.view.show_thinking(effect.report, effect.line, effect.mover)
        self._redraw_verdict()

    # -- drawing --------------------------------------------------------------------------------

    def _redraw(self) -> None:
        controller = self.controller
        if self.has_class("-setup") != (controller.phase is Phase.SETUP):
            self.refresh_bindings()  # the footer's keys: set-up or exploring
        self.set_class(controller.phase is Phase.SETUP, "-setup")
        view = controller.board_view()
        if view != self._drawn:
            self._drawn = view
            self.view.show_position(
                view.marks, last=view.last, winning=view.winning, labels=view.labels
            )
        overlay = controller.score_overlay()
        self.view.show_scores(overlay.scores, overlay.caption, overlay.key, overlay.best)
        current = controller.node.ident if controller.node.parent is not None else None
        self.query_one(VariationList).show(
            [Entry(t.text, t.node, t.depth) for t in controller.move_tokens()], current
        )
        self._redraw_status()

    def _redraw_status(self) -> None:
        """The status; in the compact layout without the position's string (c copies it and
        shows it), and the verdict line."""
        controller = self.controller
        where, text = controller.status_lines()
        where = self.keeping.where(controller.tree, where)
        notice = (controller.notice, "$text-warning")
        status = (
            Content.assemble((where, "bold"), "\n", notice)
            if self.has_class("-compact")
            else Content.assemble((where, "bold"), "\n", text, "\n", notice)
        )
        self.query_one("#analysis-status", Static).update(status)
        self._redraw_verdict()

    def _redraw_verdict(self) -> None:
        """The compact layout's verdict line: the key that shows the panel (or the board), and
        the panel in one line."""
        if not self.has_class("-compact"):
            return
        verdict = self.view.verdict_line(key_for(self, "toggle_panel", "i"))
        shown = self.query_one("#analysis-verdict", Static)
        if shown.visual != verdict:
            shown.update(verdict)

    # -- the board and the keys -----------------------------------------------------------------

    @on(Board.CellChosen, "#analysis-board")
    def on_cell_chosen(self, message: Board.CellChosen) -> None:
        """A click or Enter on a cell: play it (set-up: cycle its mark)."""
        self._run(self.controller.play(message.cell))

    @on(VariationList.Picked)
    def on_variation_picked(self, message: VariationList.Picked) -> None:
        """A click on a move of the list: show its position."""
        self._run(self.controller.goto(message.node))

    def action_place_digit(self, digit: int) -> None:
        """Digits 1–9 play on 3×3: 1 is top-left, row by row."""
        if self.position.size != 3:
            self._run(
                self.controller.say("Digits play on 3×3 only: use the arrows and Enter, or click.")
            )
            return
        self.view.board.cursor = digit - 1
        self._run(self.controller.play(digit - 1))

    def action_back(self) -> None:
        """One move back."""
        self._run(self.controller.back())

    def action_forward_or_empty(self) -> None:
        """`.`: one move forward; while setting up, empty the cursor's cell."""
        if self.controller.phase is Phase.SETUP:
            self.action_put("")
        else:
            self._run(self.controller.forward())

    def action_to_root(self) -> None:
        """Back to the root position."""
        self._run(self.controller.to_root())

    def action_to_end(self) -> None:
        """To the end of the line."""
        self._run(self.controller.to_end())

    def action_variation(self, step: int) -> None:
        """The next or previous variation."""
        self._run(self.controller.variation(step))

    def action_promote(self) -> None:
        """Make the variation shown the main line."""
        self._run(self.controller.promote())

    def action_delete(self) -> None:
        """Delete the move shown and what follows (set-up: empty the cursor's cell)."""
        if self.controller.phase is Phase.SETUP:
            self.action_put("")
        else:
            self._run(self.controller.delete())

    def action_keep(self) -> None:
        """Keep the study (its root and every variation) in the history; again: replace it."""
        self._run(self.controller.say(self.keeping.keep(self.controller.tree)))

    def action_hint(self) -> None:
        """Say the best move of the position shown."""
        self._run(self.controller.hint())

    def action_toggle_panel(self) -> None:
        """Show or hide the evaluation panel (in the compact layout: show it instead of the
        board and the variations, or those again)."""
        view = self.view
        view.toggle_panel()
        if view.query_one("#position-left").display and not self.has_class("-too-small"):
            view.board.focus()
        self._redraw_verdict()

    def action_toggle_lines(self) -> None:
        """Show or hide the expected line on the board."""
        shown = self.view.toggle_lines()
        self.notify("Expected line shown." if shown else "Expected line hidden.", timeout=3)

    def action_leave(self) -> None:
        """Escape: close the paste box, cancel a set-up, or go back."""
        if self.has_class("-pasting"):
            self._close_paste()
        elif self.controller.phase is Phase.SETUP:
            self._run(self.controller.cancel_setup())
        elif self.may_leave(Leave.BACK):
            self.dismiss()

    def may_leave(self, way: Leave) -> bool:
        """Whether Escape (`Leave.BACK`) or q (`Leave.QUIT`) may leave the board now; when the
        study has moves that were never kept, the board asks first and says how to keep them."""
        question = self.keeping.leave_question(self.controller.tree, way)
        if question is None:
            return True
        self._run(self.controller.say(question))
        return False
