"""The Match screen: N games between two computer settings, run off the UI thread, with charts.

Flow: the form (one column per player: algorithm, depth, seconds per move, difficulty; one for the
match: board, k, games, seed) is read into two `PlayerSpec`s when Run is pressed (`r`); a bad
combination is named under the form and nothing starts. The match then plays in the app's
worker process (`worker.jobs.play_match`, so the UI never waits on the search's GIL); its
reports come back a few times a second, each with every game finished so far. The table, the
progress bar and the charts are redrawn from those games, so they fill in while the match runs.
Cancel (`c`) stops the job at once and keeps the games reported so far; so does leaving the
screen. `g` lists the games played so far; Enter opens one in the review. The numbers are the
engine's `PlayerStats`: the screen computes nothing.

The rules (what the form describes, the match running, the words, the table's rows and the
charts' bars) are `play.match.MatchController`'s: the screen reads the form and the keys, hands
them over, carries out the effects it returns and draws what it says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, assert_never

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Header, Label, ProgressBar, Select, Static
from textual_plotext import PlotextPlot

from tictactoe_tui.engine import OPPONENTS
from tictactoe_tui.engine.players.match import MatchResult
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_SIZE
from tictactoe_tui.play.lab_effects import RunJob, StopJob
from tictactoe_tui.play.match import (
    DEPTHS,
    DIFFICULTIES,
    GAME_COUNTS,
    SEEDS,
    SIDES,
    TIMES,
    Close,
    DrawProgress,
    DrawResults,
    DrawRunning,
    DrawStatus,
    MatchController,
    MatchEffect,
    MatchForm,
    OpenGames,
    PlayerBars,
    SideForm,
    first_form,
    uses,
)
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.report import ALGORITHM_NAMES
from tictactoe_tui.ui.charts import label_colours
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.screens.settings import DEFAULT_K, fit_k_options, k_choice, k_options
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed
from tictactoe_tui.worker.jobs import MatchProgress

NEEDED_TERMINAL = (90, 24)
"""The smallest (width, height) that shows the form's three columns, the table and the charts
with room to spare."""
COMPACT_TERMINAL = (80, 24)
"""The smallest (width, height) the runner works in: the compact layout, the two players side
by side and the match's choices in one row under them (every choice's words whole)."""

DEFAULT = DEFAULT_K
"""The Select value for "the engine's default" (full depth, 1 s per move, k for the size)."""

PART_COLOURS = {"wins": "green", "draws": "yellow", "losses": "red"}
"""The colours of the stacked bars' parts (the chart's legend names them)."""

TABLE_COLUMNS = (
    "",
    "player",
    "wins",
    "draws",
    "losses",
    "points",
    "as X W/D/L",
    "as O W/D/L",
    "ms/move",
    "positions/move",
)
"""The result table's columns."""


def _options(
    values: tuple[object, ...], default_label: str, show: Callable[[object], str] = str
) -> list[tuple[str, object]]:
    """Select options for `values`, None shown as `default_label`."""
    return [(default_label if v is None else show(v), DEFAULT if v is None else v) for v in values]


def _row(label: str, widget: Widget) -> Horizontal:
    """One labelled control of the form."""
    return Horizontal(Label(label, classes="match-label"), widget, classes="match-row")


def _select(options: Sequence[tuple[str, object]], value: object, select_id: str) -> Select[object]:
    """One compact drop-down of the form."""
    return Select(options, value=value, allow_blank=False, compact=True, id=select_id)


class MatchScreen(Screen[None]):
    """Pit two computer settings against each other over N games and compare them."""

    DEFAULT_CSS = """
    MatchScreen #match-body { height: 1fr; }
    MatchScreen.-too-small #match-body { display: none; }
    MatchScreen #match-form { height: 6; }
    MatchScreen .match-column {
        width: 1fr;
        height: 6;
        border: round $primary 50%;
        border-title-color: $text-accent;
        padding: 0 1;
    }
    MatchScreen .match-row { height: 1; }
    MatchScreen .match-label { width: 12; color: $text-muted; }
    MatchScreen .match-row Select { width: 1fr; }
    MatchScreen #match-actions { height: 1; margin: 0 1; }
    MatchScreen #match-actions Button { margin-right: 1; }
    MatchScreen #match-progress { width: 1fr; margin-left: 1; }
    MatchScreen #match-status { height: 2; margin: 0 1; color: $text-muted; }
    MatchScreen #match-status.-error { color: $text-error; }
    MatchScreen #match-table { height: 4; margin: 0 1; }
    MatchScreen #match-charts { height: 1fr; }
    MatchScreen #match-charts PlotextPlot { width: 1fr; }
    /* Narrower: the two players side by side, the match's choices in one row under them. */
    MatchScreen.-compact #match-form { layout: grid; grid-size: 2; grid-rows: 6 2; height: 8; }
    MatchScreen.-compact #match-settings {
        column-span: 2; height: 2; layout: horizontal;
        border: none; border-top: round $primary 50%; padding: 0 1;
    }
    MatchScreen.-compact #match-settings .match-row { width: auto; margin-right: 3; }
    MatchScreen.-compact #match-settings .match-label { width: auto; margin-right: 1; }
    MatchScreen.-compact #match-size { width: 9; }
    MatchScreen.-compact #match-k { width: 15; }
    MatchScreen.-compact #match-games { width: 7; }
    MatchScreen.-compact #match-seed { width: 6; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "run", "Run"),
        Binding("c", "cancel", "Cancel"),
        Binding("g", "games", "Games"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, settings: GameSettings | None = None) -> None:
        """Prefill the form from the game's settings (the x player is the game's computer)."""
        super().__init__()
        self.controller = MatchController(settings)
        """The runner's rules and state: the match running or last run, its games, its words."""

    @property
    def result(self) -> MatchResult | None:
        """The engine's result once the match is over (None before)."""
        return self.controller.result

    @property
    def running(self) -> bool:
        """True while the worker plays."""
        return self.controller.running

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The form, Run / Cancel with the progress, then the table and the charts."""
        yield Header()
        yield TooSmall(id="too-small")
        with Vertical(id="match-body"):
            yield self._form(first_form(self.controller.settings))
            with Horizontal(id="match-actions"):
                yield Button("Run", variant="primary", compact=True, id="match-run")
                yield Button(
                    "Cancel", variant="error", compact=True, id="match-cancel", disabled=True
                )
                progress = ProgressBar(total=None, show_eta=False, id="match-progress")
                progress.visible = False  # until Run: nothing is in progress, nor "--%"
                yield progress
            yield Static(self.controller.status, id="match-status", markup=False)
            yield DataTable(id="match-table", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="match-charts"):
                yield PlotextPlot(id="match-chart")
                yield PlotextPlot(id="match-time-chart")
                yield PlotextPlot(id="match-positions-chart")
        yield Footer()

    def _form(self, form: MatchForm) -> Horizontal:
        """A column for each player and one for the match, prefilled with `form`."""
        match = Vertical(
            _row(
                "board",
                _select(
                    [(f"{n}×{n}", n) for n in range(MIN_SIZE, MAX_SIZE + 1)],
                    form.size,
                    "match-size",
                ),
            ),
            _row(
                "k in a row", _select(k_options(form.size), k_choice(form.size, form.k), "match-k")
            ),
            _row("games", _select([(str(n), n) for n in GAME_COUNTS], form.games, "match-games")),
            _row("seed", _select([(str(n), n) for n in SEEDS], form.seed, "match-seed")),
            classes="match-column",
            id="match-settings",
        )
        match.border_title = "match"
        return Horizontal(
            self._player_column("x", form.x),
            self._player_column("o", form.o),
            match,
            id="match-form",
        )

    @staticmethod
    def _player_column(side: str, column: SideForm) -> Vertical:
        """The controls of one player: algorithm, depth, seconds per move, difficulty."""
        algorithms = [(ALGORITHM_NAMES[name], name) for name in reversed(OPPONENTS)]
        depths = _options(DEPTHS, "full / auto", lambda d: f"{d} plies")
        times = _options(TIMES, "1 s (default)", lambda t: f"{t:g} s")
        difficulties: list[tuple[str, object]] = [(f"{d}%", d) for d in DIFFICULTIES]
        controls = Vertical(
            _row("algorithm", _select(algorithms, column.algorithm, f"{side}-algorithm")),
            _row("depth", _select(depths, DEFAULT, f"{side}-depth")),
            _row("s per move", _select(times, DEFAULT, f"{side}-time")),
            _row("difficulty", _select(difficulties, column.difficulty, f"{side}-difficulty")),
            classes="match-column",
            id=f"{side}-player",
        )
        controls.border_title = f"player {side} · X in {'odd' if side == 'x' else 'even'} games"
        return controls

    @property
    def busy(self) -> bool:
        """True while a match runs (the screenshot script and tests wait on it)."""
        return self.controller.running

    def on_mount(self) -> None:
        """Set up the table's columns and empty charts; grey out what an algorithm ignores."""
        self.query_one("#match-table", DataTable).add_columns(*TABLE_COLUMNS)
        for side in SIDES:
            self._fit_controls(side)
        self._redraw()
        self.query_one("#match-run", Button).focus()
        self.on_resize()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """The full layout when the terminal has room for it, else the compact one, else an
        "enlarge the terminal" notice."""
        small = self.query_one(TooSmall).fit(COMPACT_TERMINAL, "the match runner")
        have = self.app.size
        self.set_class(
            not small and (have.width < NEEDED_TERMINAL[0] or have.height < NEEDED_TERMINAL[1]),
            "-compact",
        )

    # -- the form -------------------------------------------------------------------------------

    @on(Select.Changed, "#x-algorithm")
    @on(Select.Changed, "#o-algorithm")
    def _algorithm_changed(self, event: Select.Changed) -> None:
        self._fit_controls((event.select.id or "x")[0])

    def _fit_controls(self, side: str) -> None:
        """Disable the controls the chosen algorithm does not use (random has no difficulty)."""
        algorithm = self.query_one(f"#{side}-algorithm", Select).value
        used = uses(str(algorithm))
        self.query_one(f"#{side}-depth", Select).disabled = not used.depth
        self.query_one(f"#{side}-time", Select).disabled = not used.time
        self.query_one(f"#{side}-difficulty", Select).disabled = not used.difficulty

    @on(Select.Changed, "#match-size")
    def _size_changed(self, event: Select.Changed) -> None:
        """Offer only the winning lengths that fit the new board size."""
        size = event.value
        assert isinstance(size, int)
        fit_k_options(self.query_one("#match-k", Select), size)

    def _value(self, select_id: str) -> object:
        select = self.query_one(f"#{select_id}", Select)
        return None if select.disabled or select.value == DEFAULT else select.value

    def _side(self, side: str) -> SideForm:
        """The values of the `side` column (None: the default, or a control not used)."""
        depth = self._value(f"{side}-depth")
        seconds = self._value(f"{side}-time")
        difficulty = self._value(f"{side}-difficulty")
        algorithm = self.query_one(f"#{side}-algorithm", Select).value
        assert isinstance(algorithm, str)
        return SideForm(
            algorithm,
            depth if isinstance(depth, int) else None,
            float(seconds) if isinstance(seconds, int | float) else None,
            difficulty if isinstance(difficulty, int) else None,
        )

    def read_form(self) -> MatchForm:
        """The form's values, as the controller reads them."""
        size, k = self._value("match-size"), self._value("match-k")
        games, seed = self._value("match-games"), self._value("match-seed")
        assert isinstance(size, int) and isinstance(games, int) and isinstance(seed, int)
        return MatchForm(
            self._side("x"), self._side("o"), size, k if isinstance(k, int) else None, games, seed
        )

    # -- keys and buttons -----------------------------------------------------------------------

    @on(Button.Pressed, "#match-run")
    def action_run(self) -> None:
        """Start the match the form describes (a running one is replaced)."""
        self._apply(self.controller.run(self.read_form()))

    def action_games(self) -> None:
        """The match's games so far, each one opened in the review with Enter."""
        self._apply(self.controller.games())

    @on(Button.Pressed, "#match-cancel")
    def action_cancel(self) -> None:
        """Stop the running match now; the games finished so far stay on the screen."""
        self._apply(self.controller.cancel())

    def action_back(self) -> None:
        """Cancel a running match, or go back to the previous screen."""
        self._apply(self.controller.back())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer Cancel only while a match runs."""
        if action == "cancel":
            return self.controller.running
        return True

    # -- carrying out the controller's effects --------------------------------------------------

    def _apply(self, effects: Sequence[MatchEffect]) -> None:
        """Do what the controller asks, in order."""
        for effect in effects:
            match effect:
                case RunJob():
                    self._play(effect)
                case StopJob():
                    self.workers.cancel_group(self, "match")
                case DrawStatus():
                    status = self.query_one("#match-status", Static)
                    status.update(self.controller.status)
                    status.set_class(self.controller.status_is_error, "-error")
                case DrawRunning():
                    self._draw_running()
                case DrawProgress():
                    progress = self.query_one("#match-progress", ProgressBar)
                    progress.update(
                        total=self.controller.progress_total,
                        progress=len(self.controller.outcomes),
                    )
                    progress.visible = True
                case DrawResults():
                    self._redraw()
                case OpenGames(result):
                    from tictactoe_tui.ui.screens.match_games import MatchGamesScreen

                    self.app.push_screen(MatchGamesScreen(result))
                case Close():
                    self.dismiss()
                case _:
                    assert_never(effect)

    @work(exclusive=True, group="match", exit_on_error=False)
    async def _play(self, job: RunJob) -> None:
        """Play the match in the worker process, showing each report as it comes; a newer
        match (or Cancel, or leaving) cancels it."""
        try:
            result = await app_thinker(self).run(job.job, *job.args, on_progress=self._progressed)
        except JobFailed as error:
            self._apply(self.controller.failed(str(error)))
            return
        self._apply(self.controller.finished(result))

    def _progressed(self, progress: MatchProgress) -> None:
        self._apply(self.controller.progressed(progress))

    def _draw_running(self) -> None:
        running = self.controller.running
        self.query_one("#match-run", Button).disabled = running
        self.query_one("#match-cancel", Button).disabled = not running
        # The form shows what is being played: it cannot change under a running match.
        self.query_one("#match-form").disabled = running
        self.refresh_bindings()
        if not running:
            self.query_one("#match-run", Button).focus()

    # -- drawing --------------------------------------------------------------------------------

    def _redraw(self) -> None:
        table = self.query_one("#match-table", DataTable)
        table.clear()
        for row in self.controller.table_rows():
            table.add_row(*row, key=str(row[0]))
        self._draw_marks()
        self._draw_bars("#match-time-chart", "ms per move", self.controller.time_bars())
        self._draw_bars(
            "#match-positions-chart", "positions per move", self.controller.positions_bars()
        )
        for plot in self.query(PlotextPlot):
            plot.refresh()

    def _draw_marks(self) -> None:
        """Wins, draws and losses by mark, stacked bottom up, each bar's counts above it."""
        chart = self.query_one("#match-chart", PlotextPlot).plt
        chart.clear_data()
        chart.clear_figure()
        chart.title("wins, draws, losses by mark")
        bars = self.controller.mark_bars()
        if bars is None:
            return
        # Stacked by hand as plotext's stacked_bar does: each part's bar reaches the sum of the
        # parts up to it, drawn from the top part down so that each covers the one above.
        sums = [0] * len(bars.labels)
        stacked = []
        for name, counts in bars.parts:
            sums = [total + count for total, count in zip(sums, counts, strict=True)]
            stacked.append((name, sums))
        for name, heights in reversed(stacked):
            chart.bar(list(bars.labels), heights, color=PART_COLOURS[name], label=name, width=0.5)
        chart.yticks(list(bars.ticks))
        chart.ylim(0, bars.top)
        ink, paper = label_colours(self.app.theme_variables)
        for note in bars.notes:
            chart.text(note.text, note.x, note.y, alignment="center", color=ink, background=paper)

    def _draw_bars(self, chart_id: str, title: str, bars: PlayerBars | None) -> None:
        """One bar per player, each with its value written above it."""
        chart = self.query_one(chart_id, PlotextPlot).plt
        chart.clear_data()
        chart.clear_figure()
        chart.title(title)
        if bars is None:
            return
        chart.bar(list(bars.labels), list(bars.values), color="cyan", width=0.4)
        chart.ylim(0, bars.top)
        ink, paper = label_colours(self.app.theme_variables)
        for note in bars.notes:
            chart.text(note.text, note.x, note.y, alignment="center", color=ink, background=paper)
