"""The Heuristic lab: how H1 and H2 rank every move of the current position, line by line.

Flow: the screen gets the game's position and the alpha-beta time budget. On mount it asks the
engine for H1's and H2's terms after every legal move (`candidate_terms`) and sends alpha-beta on
the position to the app's worker (the worker process on boards above 3×3, where it searches for
its whole budget; a thread on 3×3, where it takes milliseconds); leaving the screen stops it. The
table ranks the moves by H1 under the weights shown on the left; editing a weight (type it, or the
− / + buttons) re-ranks at once, because the terms are kept and only re-weighted. Selecting a move
(the table's cursor, a click on the board, or the board's cursor and Enter) lists every line of the
board after that move with its share of H1 and H2 (`explain_lines`). The picks line says which move
each heuristic player would choose (`heuristic_pick`: win, block, best score) and whether alpha-
beta agrees, once its analysis is in.

Alpha-beta's column says what each number is, as the game's panel does (`text.lab.
alphabeta_cell`: "~41 estimate, depth 8", "≤ -38 loss in ≤ 12, depth 6", "-40 loss in 10"). When
the game hands over its panel's analysis of this very position, the lab shows that one (the
same numbers as the panel and the board); otherwise it runs the panel's search itself and says
so, since a search of its own may reach another depth.

With `eval_file` (the app's `--eval FILE`) a column "yours: FILE" gives the learner's
`evaluate` after every move, beside H1 and H2; `r` reads the file again.

The rules (the ranking under the weights, the move explained, the picks, every row and sentence)
are `play.heuristics.HeuristicController`'s: the screen reads the keys, the boxes and the
clicks, hands them over, carries out the effects it returns and draws what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, assert_never

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Static

from tictactoe_tui.engine import Analysis
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.lab.yours import try_one_ply
from tictactoe_tui.play.heuristics import (
    DrawAll,
    DrawPicks,
    DrawProblem,
    HeuristicController,
    HeuristicEffect,
    ReadYours,
    ShowSelected,
)
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.messages import OpenDrill
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed

TABLES_WIDTH = 50
"""Columns the picks, the ranking and the lines need beside the board."""
TABLES_HEIGHT = 22
"""Rows the picks, the ranking and the lines need, at the least."""


def needed_terminal(size: int, k: int) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows the board, the weights and the tables
    side by side (the full layout)."""
    board_width, board_height = board_size_on_screen(size)
    # The board with the weights under it on the left, the tables at least TABLES_WIDTH wide.
    return board_width + 2 + TABLES_WIDTH, max(board_height + k + 4, TABLES_HEIGHT) + 2


def compact_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal the lab works in: the compact layout, one pane at
    a time (the board, in one-line cells when it would be taller than the tables, with the
    weights under it, scrolled; or the picks and the tables), `i` switching between them."""
    board_width, board_height = board_size_on_screen(size, compact=compact_cells(size))
    return max(board_width + 2, TABLES_WIDTH), max(board_height, TABLES_HEIGHT) + 2


def compact_cells(size: int) -> bool:
    """Whether the compact layout draws the board in one-line cells: when its roomy cells
    would make it taller than the tables' pane (5×5); a smaller one keeps its corner digits
    and its caption whole."""
    return board_size_on_screen(size)[1] > TABLES_HEIGHT


class HeuristicScreen(Screen[None]):
    """Every move's H1 and H2, their terms line by line, editable H1 weights, and the picks."""

    DEFAULT_CSS = """
    HeuristicScreen #lab-main { height: 1fr; }
    HeuristicScreen.-too-small #lab-main { display: none; }
    HeuristicScreen #lab-left { height: 1fr; padding: 0 1; }
    HeuristicScreen #lab-right { width: 1fr; height: 1fr; padding-right: 1; }
    HeuristicScreen #lab-weights { height: auto; border: round $primary 50%; padding: 0 1; }
    HeuristicScreen .weight-row { height: 1; }
    HeuristicScreen .weight-row Label { width: 15; color: $text-muted; }
    HeuristicScreen .weight-row Input { width: 6; }
    HeuristicScreen .weight-row Button { min-width: 3; margin-left: 1; }
    HeuristicScreen #weights-reset { margin-top: 1; }
    HeuristicScreen #weights-error { color: $text-error; height: auto; }
    HeuristicScreen #lab-picks { height: auto; color: $text; margin-bottom: 1; }
    HeuristicScreen #heuristic-table { height: 1fr; }
    HeuristicScreen #lab-terms { height: auto; color: $text-muted; margin-top: 1; }
    HeuristicScreen #heuristic-lines { height: 1fr; }
    HeuristicScreen.-compact.-board-pane #lab-right,
    HeuristicScreen.-compact.-tables-pane #lab-left { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        # The compact layout's panes, the footer naming the one `i` shows. A priority key: the
        # weights' boxes take digits and "-" only, and `i` must switch from them too.
        Binding("i", "show_pane(True)", "Board", priority=True),
        Binding("i", "show_pane(False)", "Tables", priority=True),
        Binding("ctrl+r", "reset_weights", "Reset weights"),
        Binding("D", "drill", "Drill"),
        Binding("r", "reload_yours", "Read your file again"),
    ]

    def __init__(
        self,
        position: Position,
        time_limit: float | None = None,
        *,
        analysis: Analysis | None = None,
        depth: int | None = None,
        eval_file: str | Path | None = None,
    ) -> None:
        """Study `position` (see `HeuristicController`: `analysis` is the game panel's, if any;
        else the lab searches `time_limit` seconds to `depth` plies itself; `eval_file` adds
        the learner's column)."""
        super().__init__()
        self.controller = HeuristicController(
            position, time_limit, analysis=analysis, depth=depth, eval_file=eval_file
        )
        """The lab's rules and state: the weights, the ranking, the move explained."""

    @property
    def position(self) -> Position:
        """The position whose moves are ranked."""
        return self.controller.position

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The board and the weights on the left; the picks, the ranking and the lines."""
        yield Header()
        yield TooSmall(id="too-small")
        with Horizontal(id="lab-main"):
            left = VerticalScroll(id="lab-left", can_focus=False)
            # As wide as the board (plus the padding): the tables take the rest.
            left.styles.width = board_size_on_screen(self.position.size)[0] + 2
            with left:
                yield Board(self.position.size, id="heuristic-board")
                weights = Vertical(id="lab-weights")
                weights.border_title = "H1 weights"
                with weights:
                    for n in range(self.position.k - 1, 0, -1):
                        yield Horizontal(
                            Label(self.controller.weight_label(n)),
                            WeightBox(
                                str(self.controller.weights[n - 1]),
                                restrict=r"-?\d*",
                                compact=True,
                                id=f"weight-{n}",
                                classes="weight",
                            ),
                            _step_button("−", n, "down"),
                            _step_button("+", n, "up"),
                            classes="weight-row",
                        )
                    yield Static("", id="weights-error", markup=False)
                    yield Button("Reset to 3^(n−1)", compact=True, id="weights-reset")
            with Vertical(id="lab-right"):
                yield Static("", id="lab-picks", markup=False)
                yield DataTable(id="heuristic-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="lab-terms", markup=False)
                yield DataTable(id="heuristic-lines", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        """Fill the tables, and start alpha-beta for the comparison."""
        controller = self.controller
        self.sub_title = controller.sub_title
        table = self.query_one("#heuristic-table", DataTable)
        yours = (controller.yours_name,) if controller.yours_name else ()
        table.add_columns("rank", "cell", "H1", "H2", *yours, "alpha-beta", "picked by")
        lines = self.query_one("#heuristic-lines", DataTable)
        lines.add_columns("line", "marks", "counted as", "H1", "H2")
        board = self.query_one("#heuristic-board", Board)
        board.interactive = controller.ranking is not None
        if controller.selected is not None:
            board.cursor = controller.selected
        self.query_one("#weights-error", Static).display = False
        self._apply(controller.start())
        table.focus()
        self.add_class("-tables-pane")
        self.on_resize()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """The full layout when the terminal has room for it, else the compact one (the board
        and the weights, or the tables, `i` switching), else an "enlarge the terminal"
        notice."""
        size = self.position.size
        small = self.query_one(TooSmall).fit(compact_terminal(size), "the heuristic lab")
        have = self.app.size
        full_width, full_height = needed_terminal(size, self.position.k)
        compact = not small and (have.width < full_width or have.height < full_height)
        if compact != self.has_class("-compact"):
            self.set_class(compact, "-compact")
            # Alone, the board's pane takes the whole width; beside the tables, the board's.
            left = self.query_one("#lab-left")
            left.styles.width = "1fr" if compact else board_size_on_screen(size)[0] + 2
            self.query_one("#heuristic-board", Board).set_compact(compact and compact_cells(size))
            if not compact:
                self._show_pane(board=False)
            self.refresh_bindings()

    @property
    def board_shown(self) -> bool:
        """Whether the compact layout shows the board and the weights (not the tables)."""
        return self.has_class("-board-pane")

    def action_show_pane(self, board: bool) -> None:
        """`i` in the compact layout: the board and the weights instead of the tables, or the
        tables again."""
        self._show_pane(board=board)

    def _show_pane(self, *, board: bool) -> None:
        self.set_class(board, "-board-pane")
        self.set_class(not board, "-tables-pane")
        focus = "#heuristic-board" if board else "#heuristic-table"
        if self.has_class("-compact"):
            self.query_one(focus).focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`i` only in the compact layout, named after the pane it shows; `r` (read your file
        again) only with a file of yours (`--eval FILE`)."""
        if action == "show_pane":
            return self.has_class("-compact") and parameters[0] != self.board_shown
        if action == "reload_yours":
            return bool(self.controller.yours_name)
        return True

    @property
    def busy(self) -> bool:
        """True while alpha-beta's analysis is awaited (the screenshot script waits on it)."""
        return self.controller.busy

    # -- carrying out the controller's effects --------------------------------------------------

    def _apply(self, effects: Sequence[HeuristicEffect]) -> None:
        """Do what the controller asks, in order."""
        for effect in effects:
            match effect:
                case DrawAll():
                    self._fill_ranking()
                    self._draw_picks()
                    self._draw_detail()
                case DrawPicks():
                    self._draw_picks()
                case DrawProblem():
                    error = self.query_one("#weights-error", Static)
                    error.update(self.controller.problem)
                    error.display = bool(self.controller.problem)
                case ShowSelected(table, board):
                    self._show_selected(table, board)
                case RunJob():
                    self._analyse(effect)
                case Notify(text, seconds):
                    self.notify(text, timeout=seconds)
                case ReadYours():
                    self._read_yours(effect)
                case _:
                    assert_never(effect)

    @work(exclusive=True, group="alphabeta", exit_on_error=False)
    async def _analyse(self, job: RunJob) -> None:
        """Alpha-beta's score for every move, in the worker (in a thread on 3×3); leaving the
        screen cancels it."""
        try:
            analysis = await app_thinker(self).run(job.job, *job.args, in_process=job.in_process)
        except JobFailed as error:
            self._apply(self.controller.analysis_failed(str(error)))
            return
        self._apply(self.controller.analysed(analysis))

    @work(exclusive=True, group="yours", exit_on_error=False)
    async def _read_yours(self, job: ReadYours) -> None:
        """The learner's value of every move (its file in a process of its own: the app's
        thread only waits); leaving the screen, or r again, cancels it."""
        try:
            answer = await app_thinker(self).run(
                try_one_ply, job.board, job.path, job.call_time, in_process=True
            )
        except JobFailed as error:
            self._apply(self.controller.yours_job_failed(str(error)))
            return
        self._apply(self.controller.yours_read(answer))

    def action_reload_yours(self) -> None:
        """Read the learner's file again (the edit–try loop)."""
        self._apply(self.controller.reload_yours())

    def alphabeta_best(self) -> tuple[int, ...]:
        """Alpha-beta's best moves, empty until its analysis is in."""
        return self.controller.alphabeta_best()

    # -- the weights ----------------------------------------------------------------------------

    @on(Input.Changed, ".weight")
    def _weight_typed(self, event: Input.Changed) -> None:
        """Re-rank at once with the typed weights."""
        texts = [self.query_one(f"#weight-{n}", Input).value for n in range(1, self.position.k)]
        self._apply(self.controller.weights_typed(texts))

    @on(Button.Pressed, ".weight-step")
    def _step(self, event: Button.Pressed) -> None:
        """− / + move one weight by 1."""
        n = int(event.button.name or "1")
        box = self.query_one(f"#weight-{n}", Input)
        delta = 1 if event.button.has_class("-up") else -1
        box.value = self.controller.stepped(n, box.value, delta)

    @on(Button.Pressed, "#weights-reset")
    def action_reset_weights(self) -> None:
        """Back to H1's usual weights, 3^(n-1)."""
        for n, weight in enumerate(self.controller.usual_weights(), start=1):
            self.query_one(f"#weight-{n}", Input).value = str(weight)

    # -- choosing the move to explain -----------------------------------------------------------

    @on(DataTable.RowHighlighted, "#heuristic-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The table's cursor picks the move whose lines are listed."""
        self._apply(self.controller.highlight(int(event.row_key.value or 0)))

    @on(Board.CellChosen, "#heuristic-board")
    def _cell_chosen(self, event: Board.CellChosen) -> None:
        """A click (or Enter) on an empty cell explains that move."""
        self._apply(self.controller.choose_cell(event.cell))

    def action_drill(self) -> None:
        """Run alpha-beta by hand on a small tree cut from this position (the app opens it)."""
        self.post_message(OpenDrill(self.position))

    def action_back(self) -> None:
        """Back to the game."""
        self.dismiss()

    # -- drawing --------------------------------------------------------------------------------

    def _show_selected(self, table: bool, board: bool) -> None:
        """The move selected, on the other cursor, its lines listed and lit on the board."""
        move = self.controller.selected
        if move is not None and table:
            ranking = self.query_one("#heuristic-table", DataTable)
            ranking.move_cursor(row=ranking.get_row_index(str(move)))
        if move is not None and board:
            self.query_one("#heuristic-board", Board).cursor = move
        self._draw_detail()

    def _draw_picks(self) -> None:
        self.query_one("#lab-picks", Static).update(self.controller.picks_text())

    def _draw_detail(self) -> None:
        self._fill_lines()
        self._draw_board()

    def _fill_ranking(self) -> None:
        table = self.query_one("#heuristic-table", DataTable)
        table.clear()
        yours = bool(self.controller.yours_name)
        for row in self.controller.ranking_rows():
            table.add_row(
                row.rank,
                row.cell,
                row.h1,
                row.h2,
                *((row.yours,) if yours else ()),
                row.alphabeta,
                row.picked_by,
                key=str(row.move),
            )
        selected = self.controller.selected
        if self.controller.ranking is not None and selected is not None:
            table.move_cursor(row=table.get_row_index(str(selected)), animate=False)

    def _fill_lines(self) -> None:
        table = self.query_one("#heuristic-lines", DataTable)
        table.clear()
        for row in self.controller.line_rows():
            table.add_row(row.name, row.marks, row.counted, row.h1, row.h2)
        self.query_one("#lab-terms", Static).update(self.controller.terms_text())

    def _draw_board(self) -> None:
        board = self.query_one("#heuristic-board", Board)
        position = self.position
        board.border_subtitle = "H1 after each move"
        board.show(
            position.marks(),
            hints=self.controller.board_hints(),
            best=self.controller.selected,
            winning=position.winning_line,
        )


class WeightBox(Input):
    """A weight's box: it takes the characters a weight is written with, and lets every other
    key reach the screen's priority keys (`i` switches panes from a box too)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Only digits and the minus sign are this box's."""
        return character is not None and (character.isdigit() or character == "-")


def _step_button(label: str, n: int, direction: str) -> Button:
    """A − or + button for weight n: for the mouse (Tab skips it; typing is quicker)."""
    button = Button(
        label,
        name=str(n),
        compact=True,
        id=f"weight-{n}-{direction}",
        classes=f"weight-step -{direction}",
    )
    button.can_focus = False
    button.active_effect_duration = 0
    return button
