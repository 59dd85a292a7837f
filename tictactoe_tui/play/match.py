"""The rules of the match runner (key `m`), without Textual: what the form may ask for, the match
it describes, the match being played, and what the table and the charts show of it.

The Match screen reads its form into a `MatchForm` (plain values: a control the chosen algorithm
does not use reads None) and hands it, every key and every report of the worker to a
`MatchController`; it carries out the effects that come back (play the match, stop it, redraw
the status, the buttons, the progress or the results, list the games, go back) and draws the
table from `table_rows` and the charts from `mark_bars`, `time_bars` and `positions_bars`.

The match plays in the worker (`worker.jobs.play_match`); each report carries every game
finished so far, so the results fill in while it runs. Cancel keeps the games reported so far.
The numbers are the engine's `PlayerStats`: nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from tictactoe_tui.engine import Algorithm
from tictactoe_tui.engine.players.match import (
    GameOutcome,
    MatchResult,
    PlayerSpec,
    PlayerStats,
    match_shape,
)
from tictactoe_tui.play.lab_effects import RunJob, StopJob
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.worker.jobs import MatchProgress, play_match

SIDES = ("x", "o")
"""The match's two players, as the engine and the command line name them."""

DEPTHS: tuple[int | None, ...] = (None, 1, 2, 3, 4, 5, 6, 8, 10)
"""The depths the form offers (None: full, or automatic)."""
TIMES: tuple[float | None, ...] = (None, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
"""The seconds per move the form offers (None: the engine's default, 1 s)."""
DIFFICULTIES = (100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 1)
"""The difficulties the form offers."""
GAME_COUNTS = (2, 4, 6, 10, 20, 40, 100)
"""The numbers of games the form offers."""
SEEDS = tuple(range(21))
"""The seeds the form offers."""
FIRST_GAMES = 10
"""The number of games the form starts with."""

RESULT_PARTS = ("wins", "draws", "losses")
"""The stacked bars' parts, bottom up (the chart's legend names them)."""

HEADROOM = 1.5
"""The value axis runs this far past the tallest bar, so its label and the legend fit above."""

BAR_HEADROOM = 1.25
"""The value axis of the per-player bars runs this far past the tallest one."""


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


@dataclass(frozen=True)
class Uses:
    """Which of a player's controls its algorithm uses (the others are greyed out)."""

    depth: bool
    time: bool
    difficulty: bool


def uses(algorithm: str) -> Uses:
    """The controls `algorithm` uses: a depth for the searches, seconds for alpha-beta, a
    difficulty for every clever player (random has none)."""
    return Uses(
        depth=algorithm in (Algorithm.MINIMAX, Algorithm.ALPHABETA),
        time=algorithm == Algorithm.ALPHABETA,
        difficulty=algorithm != "random",
    )


@dataclass(frozen=True)
class SideForm:
    """One player's column of the form: None where a control reads "default" or is unused."""

    algorithm: str
    depth: int | None = None
    seconds: float | None = None
    difficulty: int | None = None

    def spec(self) -> PlayerSpec:
        """The player this column describes (ValueError names what does not fit)."""
        difficulty = self.difficulty if self.difficulty is not None else 100
        return PlayerSpec(self.algorithm, self.depth, self.seconds, difficulty)


@dataclass(frozen=True)
class MatchForm:
    """The whole form: two players and the match around them (k None: the size's default)."""

    x: SideForm
    o: SideForm
    size: int
    k: int | None
    games: int
    seed: int


def first_form(settings: GameSettings) -> MatchForm:
    """The form as it opens: the game's computer as x (with its difficulty), random as o, the
    game's board and seed (a seed the form does not offer reads 0)."""
    difficulty = settings.difficulty if settings.difficulty in DIFFICULTIES else 100
    seed = settings.seed if settings.seed is not None and settings.seed in SEEDS else 0
    return MatchForm(
        SideForm(settings.opponent, difficulty=difficulty),
        SideForm("random", difficulty=100),
        settings.size,
        settings.k,
        FIRST_GAMES,
        seed,
    )


@dataclass(frozen=True)
class MatchRequest:
    """What the form asks for: two players and the match around them."""

    x: PlayerSpec
    o: PlayerSpec
    games: int
    size: int
    k: int | None
    seed: int


def read_form(form: MatchForm) -> MatchRequest:
    """The match the form describes; ValueError with a message for the status line."""
    specs = {}
    for side, column in (("x", form.x), ("o", form.o)):
        try:
            specs[side] = column.spec()
        except ValueError as error:
            raise ValueError(f"player {side}: {error}") from None
    match_shape(form.games, form.size, form.k)
    return MatchRequest(specs["x"], specs["o"], form.games, form.size, form.k, form.seed)


@dataclass(frozen=True)
class DrawStatus:
    """Redraw the status line (`MatchController.status`, an error when `status_is_error`)."""


@dataclass(frozen=True)
class DrawRunning:
    """A match started or ended: Run, Cancel and the form follow `MatchController.running`."""


@dataclass(frozen=True)
class DrawProgress:
    """Redraw the progress bar (`progress_total`, `len(outcomes)`), shown once a match ran."""


@dataclass(frozen=True)
class DrawResults:
    """Redraw the table and the charts."""


@dataclass(frozen=True)
class OpenGames:
    """List the match's games so far, each one to review."""

    result: MatchResult


@dataclass(frozen=True)
class Close:
    """Go back to the screen before."""


MatchEffect = (
    RunJob | StopJob | DrawStatus | DrawRunning | DrawProgress | DrawResults | OpenGames | Close
)
"""Anything the match controller asks of its screen."""


@dataclass(frozen=True)
class BarNote:
    """A number written on a chart: `text` centred at (`x`, `y`)."""

    text: str
    x: int
    y: float


@dataclass(frozen=True)
class MarkBars:
    """The chart of wins, draws and losses by mark: a stacked bar per player and mark."""

    labels: tuple[str, ...]
    parts: tuple[tuple[str, tuple[int, ...]], ...]
    """Each part's name and its count in each bar, bottom up (`RESULT_PARTS`)."""
    ticks: tuple[int, ...]
    top: float
    notes: tuple[BarNote, ...]
    """Each bar's counts above it, as the table's "as X W/D/L" writes them."""


@dataclass(frozen=True)
class PlayerBars:
    """A bar per player with its value written above it."""

    labels: tuple[str, ...]
    values: tuple[float, ...]
    top: float
    notes: tuple[BarNote, ...]


class MatchController:
    """The match running or last run, the games it finished, and what the screen says."""

    def __init__(self, settings: GameSettings | None = None) -> None:
        """Prefill the form from the game's settings (the x player is the game's computer)."""
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
        self.status = "Choose two players and press Run (r)."
        """The status line."""
        self.status_is_error = False
        """Whether the status line names a problem."""

    @property
    def progress_total(self) -> int:
        """The games the match runs (0 before any match)."""
        return self.request.games if self.request is not None else 0

    def _say(self, text: str, error: bool = False) -> MatchEffect:
        self.status, self.status_is_error = text, error
        return DrawStatus()

    # -- running ----------------------------------------------------------------------------------

    def run(self, form: MatchForm) -> list[MatchEffect]:
        """Start the match the form describes (a running one is replaced)."""
        try:
            request = read_form(form)
        except ValueError as error:
            return [self._say(str(error), error=True)]
        self.request, self.outcomes, self.result = request, [], None
        self.running = True
        args = (request.x, request.o, request.games, request.size, request.k, request.seed)
        return [
            DrawRunning(),
            DrawProgress(),
            self._say(f"Playing {request.games} games: {request.x} (x) vs {request.o} (o)…"),
            DrawResults(),
            RunJob(play_match, args),
        ]

    def progressed(self, progress: MatchProgress) -> list[MatchEffect]:
        """A report: count the finished games, and say which move of which game is on."""
        request = self.request
        if request is None:
            return []
        effects: list[MatchEffect] = []
        if len(progress.outcomes) != len(self.outcomes):
            self.outcomes = list(progress.outcomes)
            effects += [DrawProgress(), DrawResults()]
        if progress.game < request.games:
            effects.append(
                self._say(f"Game {progress.game + 1} of {request.games}: move {progress.moves}…")
            )
        return effects

    def finished(self, result: MatchResult) -> list[MatchEffect]:
        """A finished (or cancelled) match's result."""
        self.result = result
        self.running = False
        self.outcomes = list(result.outcomes)
        words = (
            f"Cancelled after {result.games} of {result.requested} games."
            if result.cancelled
            else self.summary(result)
        )
        return [DrawRunning(), DrawProgress(), self._say(words), DrawResults()]

    def failed(self, message: str) -> list[MatchEffect]:
        """A player raised: say so and let the user carry on."""
        self.running = False
        return [DrawRunning(), self._say(f"The match failed: {message}", error=True)]

    def cancel(self) -> list[MatchEffect]:
        """Stop the running match now; the games finished so far stay."""
        if not self.running or self.request is None:
            return []
        return [StopJob(), *self.finished(replace(self.current(), cancelled=True))]

    def back(self) -> list[MatchEffect]:
        """Cancel a running match, or go back to the screen before."""
        if self.running:
            return self.cancel()
        return [Close()]

    def games(self) -> list[MatchEffect]:
        """The match's games so far, each one to review."""
        if self.request is None or not self.outcomes:
            return [self._say("No games yet: run a match (r), then g lists its games.")]
        return [OpenGames(self.current())]

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

    # -- the words, the table and the charts ------------------------------------------------------

    @staticmethod
    def summary(result: MatchResult) -> str:
        """A finished match in one sentence: the wins, the draws, who leads."""
        x, o = result.x_stats.overall, result.o_stats.overall
        if x.points == o.points:
            lead = "level"
        else:
            leader = "x" if x.points > o.points else "o"
            lead = f"{leader} leads with {max(x.points, o.points):g} of {result.games} points"
        return (
            f"Done: {result.games} games, x won {x.wins}, o won {o.wins}, "
            f"{result.draws} drawn ({lead})."
        )

    def _shown(self) -> MatchResult | None:
        return self.current() if self.request is not None else None

    def _stats(self) -> dict[str, PlayerStats]:
        result = self._shown()
        return {} if result is None else {"x": result.x_stats, "o": result.o_stats}

    def table_rows(self) -> list[tuple[str | int, ...]]:
        """A row per player: its side, name, wins, draws, losses, points, by mark, per move
        (the counts as numbers, the rest as words)."""
        result = self._shown()
        if result is None:
            return []
        rows: list[tuple[str | int, ...]] = []
        for side, name, stats in (("x", result.x, result.x_stats), ("o", result.o, result.o_stats)):
            overall = stats.overall
            rows.append(
                (
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
                )
            )
        return rows

    def mark_bars(self) -> MarkBars | None:
        """Wins, draws and losses of each player as X and as O (None before any game)."""
        stats = self._stats()
        records = [
            s for side in SIDES if side in stats for s in (stats[side].as_x, stats[side].as_o)
        ]
        if not records:
            return None
        parts = (
            ("wins", tuple(r.wins for r in records)),
            ("draws", tuple(r.draws for r in records)),
            ("losses", tuple(r.losses for r in records)),
        )
        most = max(max(r.games for r in records), 1)
        step = max(1, -(-most // 5))
        top = most * HEADROOM + 1
        notes = tuple(
            BarNote(str(record), number, record.games + top / 20)
            for number, record in enumerate(records, start=1)
        )
        return MarkBars(
            ("x X", "x O", "o X", "o O"), parts, tuple(range(0, most + 1, step)), top, notes
        )

    def time_bars(self) -> PlayerBars | None:
        """Each player's milliseconds per move (None before any match)."""
        stats = self._stats()
        return _player_bars([per_move_ms(stats[s]) for s in SIDES if s in stats], ms_words)

    def positions_bars(self) -> PlayerBars | None:
        """Each player's positions searched per move (None before any match)."""
        stats = self._stats()
        values = [stats[s].mean_positions for s in SIDES if s in stats]
        return _player_bars(values, positions_words)


def _player_bars(values: list[float], words: Callable[[float], str]) -> PlayerBars | None:
    """One bar per player, each with its value written above it."""
    if not values:
        return None
    top = max(max(values), 1e-9) * BAR_HEADROOM
    notes = tuple(
        BarNote(words(value), number, value + top / 20)
        for number, value in enumerate(values, start=1)
    )
    return PlayerBars(SIDES, tuple(values), top, notes)
