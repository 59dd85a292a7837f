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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Header, Label, ProgressBar, Select, Static
from textual_plotext import PlotextPlot

from tictactoe_tui.engine import OPPONENTS
from tictactoe_tui.engine.players.match import (
    GameOutcome,
    MatchResult,
    PlayerSpec,
    PlayerStats,
    match_shape,
)
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_SIZE
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.report import ALGORITHM_NAMES
from tictactoe_tui.ui.charts import label_colours
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.screens.settings import DEFAULT_K, fit_k_options, k_choice, k_options
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed
from tictactoe_tui.worker.jobs import MatchProgress, play_match

NEEDED_TERMINAL = (90, 24)
"""The smallest (width, height) that shows the form's three columns, the table and the charts."""

SIDES = ("x", "o")
"""The match's two players, as the engine and the command line name them."""

DEPTHS: tuple[int | None, ...] = (None, 1, 2, 3, 4, 5, 6, 8, 10)
TIMES: tuple[float | None, ...] = (None, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
DIFFICULTIES = (100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 1)
GAME_COUNTS = (2, 4, 6, 10, 20, 40, 100)
SEEDS = tuple(range(21))
DEFAULT = DEFAULT_K
"""The Select value for "the engine's default" (full depth, 1 s per move, k for the size)."""

RESULT_PARTS = (("wins", "green"), ("draws", "yellow"), ("losses", "red"))
"""The stacked bars' parts, bottom up, with their colours (the chart's legend names them)."""

HEADROOM = 1.5
"""The value axis runs this far past the tallest bar, so its label and the legend fit above."""


def per_move_ms(stats: PlayerStats) -> float:
    """A player's mean milliseconds per move: the one number that differs from run to run."""
    return stats.mean_seconds * 1000


def ms_words(ms: float) -> str:
    """Milliseconds as the table and the chart show them: two figures after the point below
    10 ms (a fast player's 0.04 ms is not 0.0), fewer above."""
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 100 else f"{ms:,.0f}"


def positions_words(positions: float) -> str:
    """A mean number of positions per move, to one decimal (it is a mean, not a count)."""
    return f"{positions:,.1f}"


def _options(
    values: tuple[object, ...], default_label: str, show: Callable[[object], str] = str
) -> list[tuple[str, object]]:
    """Select options for `values`, None shown as `default_label`."""
    return [(default_label if v is None else show(v), DEFAULT if v is None else v) for v in values]


def _row(label: str, widget: Widget) -> Horizontal:
    """One labelled control of the form."""
    return Horizontal(Label(label, classes="match-label"), widget, classes="match-row")


@dataclass(frozen=True)
class MatchRequest:
    """What the form asks for: two players and the match around them."""

    x: PlayerSpec
    o: PlayerSpec
    games: int
    size: int
    k: int | None
    seed: int


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
        self.settings = settings if settings is not None else GameSettings()
        """Where the form's first values come from."""
        self.request: MatchRequest | None = None
        """The match running or last run."""
        self.outcomes: list[GameOutcome] = []
        """The games of that match finished so far."""
        self.result: MatchResult | None = None
        """The engine's result once the match is over."""
        self.running = False
        """True while the worker plays."""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The form, Run / Cancel with the progress, then the table and the charts."""
        yield Header()
        yield TooSmall(id="too-small")
        with Vertical(id="match-body"):
            yield self._form()
            with Horizontal(id="match-actions"):
                yield Button("Run", variant="primary", compact=True, id="match-run")
                yield Button(
                    "Cancel", variant="error", compact=True, id="match-cancel", disabled=True
                )
                progress = ProgressBar(total=None, show_eta=False, id="match-progress")
                progress.visible = False  # until Run: nothing is in progress, nor "--%"
                yield progress
            yield Static("Choose two players and press Run (r).", id="match-status", markup=False)
            yield DataTable(id="match-table", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="match-charts"):
                yield PlotextPlot(id="match-chart")
                yield PlotextPlot(id="match-time-chart")
                yield PlotextPlot(id="match-positions-chart")
        yield Footer()

    def _form(self) -> Horizontal:
        """A column for each player and one for the match, prefilled from the settings."""
        s = self.settings
        seed = s.seed if s.seed in SEEDS else 0
        match = Vertical(
            _row(
                "board",
                Select(
                    [(f"{n}×{n}", n) for n in range(MIN_SIZE, MAX_SIZE + 1)],
                    value=s.size,
                    allow_blank=False,
                    compact=True,
                    id="match-size",
                ),
            ),
            _row(
                "k in a row",
                Select(
                    k_options(s.size),
                    value=k_choice(s.size, s.k),
                    allow_blank=False,
                    compact=True,
                    id="match-k",
                ),
            ),
            _row(
                "games",
                Select(
                    [(str(n), n) for n in GAME_COUNTS],
                    value=10,
                    allow_blank=False,
                    compact=True,
                    id="match-games",
                ),
            ),
            _row(
                "seed",
                Select(
                    [(str(n), n) for n in SEEDS],
                    value=seed,
                    allow_blank=False,
                    compact=True,
                    id="match-seed",
                ),
            ),
            classes="match-column",
            id="match-settings",
        )
        match.border_title = "match"
        return Horizontal(
            self._player_column("x", PlayerSpec(s.opponent, difficulty=s.difficulty)),
            self._player_column("o", PlayerSpec("random")),
            match,
            id="match-form",
        )

    @staticmethod
    def _player_column(side: str, spec: PlayerSpec) -> Vertical:
        """The controls of one player: algorithm, depth, seconds per move, difficulty."""
        column = Vertical(
            _row(
                "algorithm",
                Select(
                    [(ALGORITHM_NAMES[name], name) for name in reversed(OPPONENTS)],
                    value=spec.opponent,
                    allow_blank=False,
                    compact=True,
                    id=f"{side}-algorithm",
                ),
            ),
            _row(
                "depth",
                Select(
                    _options(DEPTHS, "full / auto", lambda d: f"{d} plies"),
                    value=DEFAULT,
                    allow_blank=False,
                    compact=True,
                    id=f"{side}-depth",
                ),
            ),
            _row(
                "s per move",
                Select(
                    _options(TIMES, "1 s (default)", lambda t: f"{t:g} s"),
                    value=DEFAULT,
                    allow_blank=False,
                    compact=True,
                    id=f"{side}-time",
                ),
            ),
            _row(
                "difficulty",
                Select(
                    [(f"{d}%", d) for d in DIFFICULTIES],
                    value=spec.difficulty if spec.difficulty in DIFFICULTIES else 100,
                    allow_blank=False,
                    compact=True,
                    id=f"{side}-difficulty",
                ),
            ),
            classes="match-column",
            id=f"{side}-player",
        )
        column.border_title = f"player {side} · X in {'odd' if side == 'x' else 'even'} games"
        return column

    @property
    def busy(self) -> bool:
        """True while a match runs (the screenshot script and tests wait on it)."""
        return self.running

    def on_mount(self) -> None:
        """Set up the table's columns and empty charts; grey out what an algorithm ignores."""
        table = self.query_one("#match-table", DataTable)
        table.add_columns(
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
        for side in SIDES:
            self._fit_controls(side)
        self._redraw()
        self.query_one("#match-run", Button).focus()
        self.on_resize()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """Swap the screen for an "enlarge the terminal" notice when it does not fit."""
        self.query_one(TooSmall).fit(NEEDED_TERMINAL, "the match runner")

    # -- the form -------------------------------------------------------------------------------

    @on(Select.Changed, "#x-algorithm")
    @on(Select.Changed, "#o-algorithm")
    def _algorithm_changed(self, event: Select.Changed) -> None:
        self._fit_controls((event.select.id or "x")[0])

    def _fit_controls(self, side: str) -> None:
        """Disable the controls the chosen algorithm does not use (random has no difficulty)."""
        algorithm = self.query_one(f"#{side}-algorithm", Select).value
        self.query_one(f"#{side}-depth", Select).disabled = algorithm not in (
            "minimax",
            "alphabeta",
        )
        self.query_one(f"#{side}-time", Select).disabled = algorithm != "alphabeta"
        self.query_one(f"#{side}-difficulty", Select).disabled = algorithm == "random"

    @on(Select.Changed, "#match-size")
    def _size_changed(self, event: Select.Changed) -> None:
        """Offer only the winning lengths that fit the new board size."""
        size = event.value
        assert isinstance(size, int)
        fit_k_options(self.query_one("#match-k", Select), size)

    def _value(self, select_id: str) -> object:
        select = self.query_one(f"#{select_id}", Select)
        return None if select.disabled or select.value == DEFAULT else select.value

    def _spec(self, side: str) -> PlayerSpec:
        """The player the `side` column describes (ValueError names what does not fit)."""
        depth = self._value(f"{side}-depth")
        seconds = self._value(f"{side}-time")
        difficulty = self._value(f"{side}-difficulty")
        algorithm = self.query_one(f"#{side}-algorithm", Select).value
        assert isinstance(algorithm, str)
        return PlayerSpec(
            algorithm,
            depth if isinstance(depth, int) else None,
            float(seconds) if isinstance(seconds, int | float) else None,
            difficulty if isinstance(difficulty, int) else 100,
        )

    def read_form(self) -> MatchRequest:
        """The match the form describes; ValueError with a message for the status line."""
        specs = {}
        for side in SIDES:
            try:
                specs[side] = self._spec(side)
            except ValueError as error:
                raise ValueError(f"player {side}: {error}") from None
        size, k = self._value("match-size"), self._value("match-k")
        games, seed = self._value("match-games"), self._value("match-seed")
        assert isinstance(size, int) and isinstance(games, int) and isinstance(seed, int)
        k = k if isinstance(k, int) else None
        match_shape(games, size, k)
        return MatchRequest(specs["x"], specs["o"], games, size, k, seed)

    # -- running --------------------------------------------------------------------------------

    @on(Button.Pressed, "#match-run")
    def action_run(self) -> None:
        """Start the match the form describes (a running one is replaced)."""
        try:
            request = self.read_form()
        except ValueError as error:
            self._say(str(error), error=True)
            return
        self.request, self.outcomes, self.result = request, [], None
        self.running = True
        self._set_running(True)
        progress = self.query_one("#match-progress", ProgressBar)
        progress.update(total=request.games, progress=0)
        progress.visible = True
        self._say(f"Playing {request.games} games: {request.x} (x) vs {request.o} (o)…")
        self._redraw()
        self._play(request)

    @on(Button.Pressed, "#match-cancel")
    def action_games(self) -> None:
        """The match's games so far, each one opened in the review with Enter."""
        from tictactoe_tui.ui.screens.match_games import MatchGamesScreen

        if self.request is None or not self.outcomes:
            self._say("No games yet: run a match (r), then g lists its games.")
            return
        self.app.push_screen(MatchGamesScreen(self.current()))

    def action_cancel(self) -> None:
        """Stop the running match now; the games finished so far stay on the screen."""
        if not self.running or self.request is None:
            return
        self.workers.cancel_group(self, "match")
        self.result = replace(self.current(), cancelled=True)
        self._finish(self.result)

    def action_back(self) -> None:
        """Cancel a running match, or go back to the previous screen."""
        if self.running:
            self.action_cancel()
            return
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer Cancel only while a match runs."""
        if action == "cancel":
            return self.running
        return True

    @work(exclusive=True, group="match", exit_on_error=False)
    async def _play(self, request: MatchRequest) -> None:
        """Play the match in the worker process, showing each report as it comes; a newer
        match (or Cancel, or leaving) cancels it."""
        try:
            result = await app_thinker(self).run(
                play_match,
                request.x,
                request.o,
                request.games,
                request.size,
                request.k,
                request.seed,
                on_progress=self._progressed,
            )
        except JobFailed as error:
            # A player raised: say so and let the user carry on.
            self.running = False
            self._set_running(False)
            self._say(f"The match failed: {error}", error=True)
            return
        self._finish(result)

    def _progressed(self, progress: MatchProgress) -> None:
        """Count the finished games, redraw, and say which move of which game is on."""
        if self.request is None:
            return
        if len(progress.outcomes) != len(self.outcomes):
            self.outcomes = list(progress.outcomes)
            self.query_one("#match-progress", ProgressBar).update(progress=len(self.outcomes))
            self._redraw()
        if progress.game < self.request.games:
            self._say(f"Game {progress.game + 1} of {self.request.games}: move {progress.moves}…")

    def _finish(self, result: MatchResult) -> None:
        """Show a finished (or cancelled) match's result."""
        self.result = result
        self.running = False
        self._set_running(False)
        self.outcomes = list(result.outcomes)
        self.query_one("#match-progress", ProgressBar).update(progress=len(self.outcomes))
        if result.cancelled:
            self._say(f"Cancelled after {result.games} of {result.requested} games.")
        else:
            self._say(self._summary(result))
        self._redraw()

    def _set_running(self, running: bool) -> None:
        self.query_one("#match-run", Button).disabled = running
        self.query_one("#match-cancel", Button).disabled = not running
        # The form shows what is being played: it cannot change under a running match.
        self.query_one("#match-form").disabled = running
        self.refresh_bindings()
        if not running:
            self.query_one("#match-run", Button).focus()

    # -- drawing --------------------------------------------------------------------------------

    def _summary(self, result: MatchResult) -> str:
        x, o = result.x_stats.overall, result.o_stats.overall
        if x.points == o.points:
            lead = "level"
        else:
            leader = "x" if x.points > o.points else "o"
            best = max(x.points, o.points)
            lead = f"{leader} leads with {best:g} of {result.games} points"
        return (
            f"Done: {result.games} games, x won {x.wins}, o won {o.wins}, "
            f"{result.draws} drawn ({lead})."
        )

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#match-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def current(self) -> MatchResult:
        """The engine's result for the games finished so far (ValueError before any match)."""
        if self.result is not None:
            return self.result
        request = self.request
        if request is None:
            raise ValueError("no match has been run")
        k, _ = match_shape(request.games, request.size, request.k)
        return MatchResult(
            str(request.x),
            str(request.o),
            request.size,
            k,
            request.seed,
            request.games,
            tuple(self.outcomes),
            cancelled=False,
        )

    def _redraw(self) -> None:
        result = self.current() if self.request is not None else None
        self._fill_table(result)
        self._draw_charts(result)

    def _fill_table(self, result: MatchResult | None) -> None:
        table = self.query_one("#match-table", DataTable)
        table.clear()
        if result is None:
            return
        for side, name, stats in (("x", result.x, result.x_stats), ("o", result.o, result.o_stats)):
            overall = stats.overall
            table.add_row(
                side,
                name,
                overall.wins,
                overall.draws,
                overall.losses,
                f"{overall.points:g}",
                str(stats.as_x),
                str(stats.as_o),
                ms_words(per_move_ms(stats)),
                positions_words(stats.mean_positions),
                key=side,
            )

    def _draw_charts(self, result: MatchResult | None) -> None:
        stats: dict[str, PlayerStats] = {}
        if result is not None:
            stats = {"x": result.x_stats, "o": result.o_stats}
        labels = ["x X", "x O", "o X", "o O"]
        records = [
            s for side in SIDES if side in stats for s in (stats[side].as_x, stats[side].as_o)
        ]
        chart = self.query_one("#match-chart", PlotextPlot).plt
        chart.clear_data()
        chart.clear_figure()
        chart.title("wins, draws, losses by mark")
        if records:
            chart.stacked_bar(
                labels,
                [
                    [r.wins for r in records],
                    [r.draws for r in records],
                    [r.losses for r in records],
                ],
                color=[colour for _, colour in RESULT_PARTS],
                labels=[part for part, _ in RESULT_PARTS],
                width=0.5,
            )
            most = max(max(r.games for r in records), 1)
            step = max(1, -(-most // 5))
            chart.yticks(list(range(0, most + 1, step)))
            top = most * HEADROOM + 1
            chart.ylim(0, top)
            # Each bar's exact counts above it, as the table's "as X W/D/L" writes them.
            ink, paper = label_colours(self.app.theme_variables)
            for number, record in enumerate(records, start=1):
                chart.text(
                    str(record),
                    number,
                    record.games + top / 20,
                    alignment="center",
                    color=ink,
                    background=paper,
                )
        self._bars(
            "#match-time-chart",
            "ms per move",
            [per_move_ms(stats[s]) for s in SIDES if s in stats],
            ms_words,
        )
        self._bars(
            "#match-positions-chart",
            "positions per move",
            [stats[s].mean_positions for s in SIDES if s in stats],
            positions_words,
        )
        for plot in self.query(PlotextPlot):
            plot.refresh()

    def _bars(
        self, chart_id: str, title: str, values: list[float], words: Callable[[float], str]
    ) -> None:
        """One bar per player, each with its value written above it."""
        chart = self.query_one(chart_id, PlotextPlot).plt
        chart.clear_data()
        chart.clear_figure()
        chart.title(title)
        if values:
            chart.bar(list(SIDES), values, color="cyan", width=0.4)
            top = max(max(values), 1e-9) * 1.25
            chart.ylim(0, top)
            ink, paper = label_colours(self.app.theme_variables)
            for number, value in enumerate(values, start=1):
                chart.text(
                    words(value),
                    number,
                    value + top / 20,
                    alignment="center",
                    color=ink,
                    background=paper,
                )
