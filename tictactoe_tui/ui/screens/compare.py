"""The compare screen: every lab algorithm on the game's position, side by side, with charts.

The game screen pushes it with its position and the positions where the computer moved (key
`a`). The searches run in the app's worker process (a pure-Python search in a thread would
hold the GIL and slow every key), one after the other: the three alpha-betas and the two
heuristic searches (each row of the table fills as its result arrives), the same searches again
to 1, 2, … plies for the chart of the best score by depth, the cost of each earlier computer
move for the chart over the game, the size of minimax's tree, then plain minimax with a progress
bar. Cancelling, rerunning or leaving cancels the run, so no late answer arrives.

Every number says what it is: a value with its meaning ("0 draw", "+1 estimate"), a bound as a
bound ("≥ −3 so far", fainter), the depth searched, the share of cut-offs the first move tried
made (how good the move ordering is), and how many root moves each search looked at: minimax is
full width, the others keep to the cells near the stones on big boards, and a note says so.

Minimax runs under `LAB_TIME_LIMIT`. When its speed shows the tree will not fit, it stops and
the screen says how big the tree is and how long it would take, what the root moves it finished
prove, and offers minimax to the deepest depth that fits (`d`) or the full tree anyway (`f`,
cancellable with `c`). Once minimax has a value, the last column says whether each algorithm's
move and value agree with it.

The rules (the jobs and their order, every cell, minimax's state and what it offers, the charts'
series) are `play.compare.CompareController`'s: the screen runs the jobs it asks for, hands
every answer and key back, carries out the effects it returns and draws what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal, assert_never

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, ProgressBar, Static
from textual_plotext import PlotextPlot

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import Game, Progress
from tictactoe_tui.engine.lab.compare import LAB_TIME_LIMIT
from tictactoe_tui.play.compare import (
    HEADERS,
    RIGHT,
    Cell,
    CompareController,
    CompareEffect,
    Draw,
    MinimaxState,
    Part,
    RunSteps,
    StopRun,
    game_history,
)
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.charts import Colours, label_colours
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.screens.compare_charts import draw_bars, draw_depths, draw_game
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed

NEEDED_TERMINAL = (96, 24)
"""The smallest (width, height) that shows the whole table and the charts at once."""
COMPACT_TERMINAL = (80, 24)
"""The smallest (width, height) the screen works in: the compact layout, the table (scrolled
sideways with the arrows when it is wider) or the charts, `i` switching between them."""

MINIMAX_BUTTONS = {
    "minimax-cancel": "cancel",
    "minimax-depth": "minimax_depth",
    "minimax-full": "minimax_full",
    "minimax-rerun": "rerun",
}
"""Minimax's buttons, and the key (action) each stands for."""


def _text(cell: Cell, column: str) -> Text:
    """One cell, styled: numbers aligned right, bounds and stops fainter."""
    if cell.tail:
        return Text.assemble(cell.text, (cell.tail, "dim"))
    if cell.faint:
        return Text(cell.text, style="dim", justify="right" if column in RIGHT else None)
    return Text(cell.text, justify="right" if column in RIGHT else "left")


class CompareScreen(Screen[None]):
    """Minimax, three alpha-betas and two heuristic searches on one position, with charts."""

    DEFAULT_CSS = """
    CompareScreen { layout: vertical; }
    CompareScreen #compare-body { height: 1fr; }
    CompareScreen.-too-small #compare-body { display: none; }
    CompareScreen #compare-title { height: auto; padding: 0 1; background: $boost; }
    CompareScreen #compare-table { height: auto; max-height: 10; }
    CompareScreen #compare-notes { height: auto; padding: 0 1; color: $text-muted; }
    CompareScreen #minimax-row { height: auto; padding: 0 1; }
    CompareScreen #minimax-status { height: auto; }
    CompareScreen #minimax-controls { height: 1; }
    CompareScreen #minimax-progress { width: 1fr; height: 1; }
    CompareScreen #minimax-controls Button { margin-left: 1; min-width: 0; width: auto; }
    CompareScreen #compare-charts { height: 1fr; min-height: 10; }
    CompareScreen PlotextPlot { width: 1fr; height: 1fr; }
    CompareScreen.-compact.-charts-pane #compare-title,
    CompareScreen.-compact.-charts-pane #compare-table,
    CompareScreen.-compact.-charts-pane #compare-notes,
    CompareScreen.-compact.-charts-pane #minimax-row,
    CompareScreen.-compact.-table-pane #compare-charts { display: none; }
    /* Narrower than the table: its scroll bar shows there is more (the arrows scroll). */
    CompareScreen.-compact #compare-table { max-height: 11; overflow-x: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        # The compact layout's panes: the footer names the one `i` shows.
        Binding("i", "show_pane(True)", "Charts"),
        Binding("i", "show_pane(False)", "Table"),
        Binding("c", "cancel", "Cancel minimax"),
        Binding("d", "minimax_depth", "Minimax to a depth"),
        Binding("f", "minimax_full", "Full tree anyway"),
        Binding("r", "rerun", "Run again"),
    ]

    def __init__(
        self,
        position: Position,
        history: Sequence[tuple[int, Position]] = (),
        time_limit: float = LAB_TIME_LIMIT,
        depth: int | Literal["default"] | None = "default",
        eval_file: str | None = None,
    ) -> None:
        """Compare on `position`, charting `history` (see `CompareController`); `eval_file`
        adds the learner's row, "yours: FILE" (r runs it again, reading the file afresh)."""
        super().__init__()
        self.controller = CompareController(
            position, history, time_limit, depth, eval_file=eval_file or None
        )
        """The comparison's rules and state: the results, minimax's run, the cells."""

    @classmethod
    def for_game(cls, game: Game, settings: GameSettings) -> CompareScreen:
        """The screen for a game's current position, charting the computer's moves so far
        (`play.compare.game_history`), with the learner's row when `settings` name a file."""
        return cls(game.board, game_history(game, settings), eval_file=settings.eval_file)

    @property
    def position(self) -> Position:
        """The position compared."""
        return self.controller.position

    @property
    def minimax_state(self) -> MinimaxState:
        """Where minimax is."""
        return self.controller.minimax_state

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Title, the table and its notes, minimax's status line, three charts side by side."""
        with Vertical(id="compare-body"):
            yield Static("", id="compare-title", markup=False)
            yield DataTable(
                id="compare-table", cursor_type="row", zebra_stripes=True, header_height=2
            )
            yield Static("", id="compare-notes", markup=False)
            with Vertical(id="minimax-row"):
                yield Static("", id="minimax-status", markup=False)
                with Horizontal(id="minimax-controls"):
                    yield ProgressBar(id="minimax-progress", show_eta=False)
                    yield Button("Cancel", id="minimax-cancel", compact=True)
                    yield Button("To a depth", id="minimax-depth", compact=True)
                    yield Button("Full tree", id="minimax-full", compact=True)
                    yield Button("Run again", id="minimax-rerun", compact=True)
                    yield Button("Back", id="close", compact=True)
            with Horizontal(id="compare-charts"):
                yield PlotextPlot(id="compare-chart")
                yield PlotextPlot(id="depth-chart")
                yield PlotextPlot(id="game-chart")
        yield TooSmall(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        """Lay out the table and start the searches."""
        self._show_table()
        self.query_one("#compare-title", Static).update(self.controller.title())
        self._draw(Part.NOTES)
        self.query_one("#compare-table", DataTable).focus()
        self.add_class("-table-pane")
        self.on_resize()
        self._apply(self.controller.start())

    def on_resize(self, event: events.Resize | None = None) -> None:
        """The full layout when the terminal has room for it, else the compact one (the table
        or the charts, `i` switching), else an "enlarge the terminal" notice."""
        small = self.query_one(TooSmall).fit(COMPACT_TERMINAL, "the comparison")
        have = self.app.size
        compact = not small and (
            have.width < NEEDED_TERMINAL[0] or have.height < NEEDED_TERMINAL[1]
        )
        if compact != self.has_class("-compact"):
            self.set_class(compact, "-compact")
            if not compact:
                self._show_pane(charts=False)
            self.refresh_bindings()

    @property
    def charts_shown(self) -> bool:
        """Whether the compact layout shows the charts (instead of the table)."""
        return self.has_class("-charts-pane")

    def action_show_pane(self, charts: bool) -> None:
        """`i` in the compact layout: the charts instead of the table, or the table again."""
        self._show_pane(charts=charts)

    def _show_pane(self, *, charts: bool) -> None:
        self.set_class(charts, "-charts-pane")
        self.set_class(not charts, "-table-pane")
        if not charts:
            self.query_one("#compare-table", DataTable).focus()
        self.refresh_bindings()

    # -- carrying out the controller's effects --------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while answers are awaited (the tests and the screenshot script wait on it)."""
        return any(
            worker.node is self and worker.group == "lab" and worker.is_running
            for worker in self.workers
        )

    def _apply(self, effects: Sequence[CompareEffect]) -> None:
        """Do what the controller asks, in order."""
        for effect in effects:
            match effect:
                case RunSteps():
                    self._run_lab(effect)
                case StopRun():
                    self.workers.cancel_group(self, "lab")
                case Draw(part):
                    self._draw(part)
                case _:
                    assert_never(effect)

    @work(exclusive=True, group="lab", exit_on_error=False)
    async def _run_lab(self, run: RunSteps) -> None:
        """Run the lab's jobs in the worker, one at a time, showing each answer as it comes. A
        newer run (or leaving the screen) cancels it."""
        thinker = app_thinker(self)
        for step in run.steps:
            progress = self._minimax_progress if step.reports else None
            try:
                answer = await thinker.run(step.job, *step.args, on_progress=progress)
            except JobFailed as error:
                self._apply(self.controller.step_failed(str(error)))
                return
            self._apply(self.controller.answered(step, answer))

    def _minimax_progress(self, progress: Progress) -> None:
        self._apply(self.controller.progress(progress))

    # -- drawing --------------------------------------------------------------------------------

    def _draw(self, part: Part) -> None:
        """Draw one part of the screen again, from the controller."""
        controller = self.controller
        match part:
            case Part.TABLE:
                self._show_table()
            case Part.NOTES:
                self.query_one("#compare-notes", Static).update(controller.notes())
            case Part.MINIMAX:
                self.query_one("#minimax-status", Static).update(controller.minimax_words())
                self._refresh_buttons()
            case Part.PROGRESS:
                self.query_one("#minimax-progress", ProgressBar).update(
                    total=controller.bar_total, progress=controller.bar_done
                )
            case Part.BARS:
                draw_bars(
                    self.query_one("#compare-chart", PlotextPlot),
                    controller.bars(),
                    self._colours(),
                )
            case Part.DEPTHS:
                draw_depths(
                    self.query_one("#depth-chart", PlotextPlot),
                    controller.depths(),
                    self._colours(),
                )
            case Part.GAME:
                draw_game(
                    self.query_one("#game-chart", PlotextPlot), controller.game(), self._colours()
                )
            case _:
                assert_never(part)

    def _show_table(self) -> None:
        """Draw the table from the cells, every column as wide as its widest cell.

        The widths are set here rather than left to the DataTable: in Textual 8.2.8 it widens a
        column for an updated cell only when it next goes idle, and a row drawn in between stays
        in its render cache at the old width until the next update (Textual issue #3533), so a
        picture could show "reference" cut to "refere". A table built with its final widths has
        nothing to catch up on.
        """
        controller = self.controller
        table = self.query_one("#compare-table", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        columns = controller.columns()
        for column in columns:
            header = HEADERS.get(column, column)
            texts = [controller.cell(name, column).plain for name in controller.names]
            width = max(cell_len(line) for text in (header, *texts) for line in text.split("\n"))
            table.add_column(
                Text(header, justify="right" if column in RIGHT else "left"),
                key=column,
                width=width,
            )
        for name in controller.names:
            table.add_row(
                *(_text(controller.cell(name, column), column) for column in columns), key=name
            )
        table.move_cursor(row=row, animate=False)

    def _refresh_buttons(self) -> None:
        """Show only the buttons that do something now."""
        for button, action in MINIMAX_BUTTONS.items():
            self.query_one(f"#{button}", Button).display = self.controller.offers(action)
        self.query_one("#minimax-progress", ProgressBar).display = self.controller.progress_shown
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer in the footer only the minimax keys that do something now, and `i` in the
        compact layout, named after the pane it shows."""
        if action == "show_pane":
            return self.has_class("-compact") and parameters[0] != self.charts_shown
        return self.controller.offers(action)

    def _colours(self) -> Colours:
        return label_colours(self.app.theme_variables)

    # -- keys and buttons -----------------------------------------------------------------------

    def action_close(self) -> None:
        """Back to the game (whatever runs is stopped when the screen goes)."""
        self.dismiss()

    def action_cancel(self) -> None:
        """Stop minimax; the others' rows stay."""
        self._apply(self.controller.cancel())

    def action_minimax_depth(self) -> None:
        """Run minimax to the deepest depth that fits the budget."""
        self._apply(self.controller.minimax_to_depth())

    def action_minimax_full(self) -> None:
        """Run the full tree whatever its size (c cancels)."""
        self._apply(self.controller.minimax_full())

    def action_rerun(self) -> None:
        """Run everything again."""
        self._apply(self.controller.rerun())

    @on(Button.Pressed)
    def on_button(self, event: Button.Pressed) -> None:
        """Every button does what its key does."""
        actions = {
            "minimax-cancel": self.action_cancel,
            "minimax-depth": self.action_minimax_depth,
            "minimax-full": self.action_minimax_full,
            "minimax-rerun": self.action_rerun,
            "close": self.action_close,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
