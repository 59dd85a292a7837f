"""The Textual app: which screen shows when, the app-wide keys, the theme, the session score and
the history (every game the Game screen reports with `GameEnded` is saved to the `HistoryStore`)."""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.console import RenderableType
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.filter import LineFilter, Monochrome, NoColor
from textual.screen import Screen
from textual.timer import Timer

from tictactoe_tui.engine import Mark
from tictactoe_tui.engine.players.offered import Offered, served
from tictactoe_tui.history.locations import served_data_dir
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.session import SessionScore, all_time
from tictactoe_tui.play.settings import GameSettings, settings_from_values
from tictactoe_tui.ui.app_signals import EXIT_GRACE, EXIT_SIGNALS, exit_on_signals
from tictactoe_tui.ui.crash import crash_log_path, log_crash, state_dir
from tictactoe_tui.ui.messages import (
    Analyse,
    GameEnded,
    GameReopened,
    Navigate,
    OpenCards,
    OpenDrill,
    PlayFrom,
)
from tictactoe_tui.ui.palette import app_commands
from tictactoe_tui.ui.routes import ScreenRoutes
from tictactoe_tui.ui.themes import OWN_THEMES, with_known_theme

if TYPE_CHECKING:
    # Screens load when first shown, the worker's client when first asked for (see `thinker`):
    # the first paint waits only for the first screen's code.
    from tictactoe_tui.engine import Board
    from tictactoe_tui.history.record import PlayedGame
    from tictactoe_tui.history.study import MoveTree
    from tictactoe_tui.play.drill import DrillStart
    from tictactoe_tui.worker.client import Thinker

__all__ = [
    "EXIT_GRACE",
    "EXIT_SIGNALS",
    "HISTORY_RETRY_SECONDS",
    "NO_COLOUR",
    "SOON_NEEDED",
    "TicTacToeApp",
    "crash_log_path",
    "open_history",
    "state_dir",
]

SOON_NEEDED = (
    "tictactoe_tui.ui.screens.help",
    "tictactoe_tui.ui.screens.game",
    "tictactoe_tui.ui.screens.settings",
)
"""Modules imported in the background once the first screen shows."""

NO_COLOUR = NoColor()
"""The filter that takes every colour out of what is drawn (NO_COLOR)."""

HISTORY_RETRY_SECONDS = 3.0
"""How often the app tries again to save games a locked history kept beside it."""


def open_history(directory: str | None) -> HistoryStore:
    """The app's history: in `directory` (--data-dir, else `data_dir()`). Served to browsers,
    the served one (`served_data_dir`), which keeps only its own: what a browser did not make
    it neither deletes nor rewrites (`HistoryStore.only_own`)."""
    if served() is None:
        return HistoryStore.open(directory)
    return HistoryStore.open(served_data_dir(directory), only_own=True)


class AppFromArgs(Protocol):
    """Makes the app the command-line flags ask for (exits with status 2 on a bad value)."""

    def __call__(self, argv: Sequence[str] | None = None) -> TicTacToeApp: ...


class TicTacToeApp(App[None]):
    """Tic-tac-toe in the terminal: Settings, then the Game (with its Results), and Help."""

    from_args: ClassVar[AppFromArgs]
    """`TicTacToeApp.from_args(argv)`, the stable entry point: the app the flags ask for. The
    flags are the command line's (`cli.play.app_from_args`) and `ui` may not import `cli`, so
    the package's face (`tictactoe_tui.app`) and the command line bind it when they load."""

    # Absolute, because Textual resolves a relative CSS_PATH beside the module of the class
    # that is run: a subclass elsewhere (the snapshot tests' app) would look in the wrong place.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "tictactoe-tui"
    SUB_TITLE = "watch the computer think"

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority, so "?" opens help even while a text box has the focus (none takes a "?").
        Binding("question_mark", "help", "Help", key_display="?", priority=True),
        Binding("y", "history", "History"),
        Binding("z", "puzzles", "Puzzles"),
        Binding("L", "learn", "Learn", key_display="L", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        settings: GameSettings | None = None,
        start_in_game: bool = False,
        store: HistoryStore | None = None,
        position: Board | None = None,
        course: str | None = None,
        drill: DrillStart | None = None,
    ) -> None:
        """Set up the app; it opens on the Game screen if `start_in_game`, else on Settings,
        with the analysis board over it on `position` when one is given, or the alpha-beta
        drill on `drill` (`tictactoe-tui drill`).

        Without `settings` it starts from the last settings the history remembers. `store` is
        the history (default: the one in `data_dir()`; served, `served_data_dir()`).
        """
        super().__init__()
        self.served: Offered | None = served()
        """Served to browsers (`serve`): what the server's command line offers; else None."""
        self.store = store if store is not None else open_history(None)
        """The history: every game is saved there."""
        if settings is None:
            settings = settings_from_values(self.store.last_settings() or {}) or GameSettings()
        self.settings: GameSettings = with_known_theme(settings)
        """The settings of the current (or next) game."""
        self.start_in_game = start_in_game
        """Whether the first screen is the Game screen rather than Settings."""
        self.start_position = position
        """The position the analysis board opens on at the start (`--position`), if any."""
        self.start_course = course
        """The course to open at the start (`learn`): "" for its list, or a lesson's key."""
        self.start_drill = drill
        """The drill the app opens on at the start (`tictactoe-tui drill`), if any."""
        self.session = SessionScore()
        """The score over every game played since the app started."""
        self._thinker: Thinker | None = None
        self.last_game: tuple[PlayedGame, int | None] | None = None
        """The last game reported, with its id in the history (None if it was not saved)."""
        self._history_retry: Timer | None = None
        self.routes = ScreenRoutes(self)
        """Which screen opens for each request."""
        for theme in OWN_THEMES:
            self.register_theme(theme)
        self.theme = self.settings.theme
        self.colourless = bool(os.environ.get("NO_COLOR"))
        """Whether the terminal gets no colour at all: NO_COLOR is set and not empty."""

    @property
    def thinker(self) -> Thinker:
        """The worker process the games' searches run in: made when first asked for (the
        Settings screen never does), started when first needed."""
        if self._thinker is None:
            from tictactoe_tui.worker.client import Thinker

            self._thinker = Thinker()
        return self._thinker

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, with NO_COLOR as no-color.org means it: no colour at all (not
        Textual's shades of grey, which are colours still), bold, dim, underline and reverse
        kept, and only when the variable is set and not empty."""
        filters = [f for f in super().get_line_filters() if not isinstance(f, Monochrome | NoColor)]
        return [*filters, NO_COLOUR] if self.colourless else filters

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen anywhere (the palette too), so the next game keeps it."""
        self.settings = replace(self.settings, theme=theme)

    def run(self, **options: Any) -> None:
        """Run the app (`options` as Textual's `App.run` takes them).

        In a terminal, what the imports made (Textual, the engine, the history: a few hundred
        thousand objects that live as long as the app) is frozen out of the garbage collector's
        way first. Building the first screen allocates enough to set off a full collection,
        which would walk all of them: tens of milliseconds of the first paint, a tenth of a
        second on a busy machine. Not headless (the snapshot tests), nor under `run_test`: there
        apps come and go in one process and would each leave their objects behind.
        """
        if not options.get("headless"):
            gc.freeze()
        return super().run(**options)

    def on_mount(self) -> None:
        """Show the first screen: the Game straight away when flags chose one, else Settings."""
        exit_on_signals(self)
        # Each screen's module is imported when the screen is first shown: the first paint
        # waits only for the first screen's code (help, history and the lab load later).
        if self.start_in_game:
            if self.start_position is None:
                # Written once the game shows: a database write does not hold up the first
                # paint. Flags given beside --position are for this visit to a position only:
                # they never become the next plain start's settings.
                self.call_after_refresh(self.store.remember_settings, asdict(self.settings))
            self.push_screen(self.routes.game_screen(self.settings))
        else:
            self.routes.first_settings()
        if self.start_position is not None:
            self.open_analysis(self.start_position)
        if self.start_course is not None:
            self.open_course(self.start_course)
        if self.start_drill is not None:
            self.open_drill(self.start_drill)
        if self.store.notice:
            self.notify(self.store.notice, severity="warning", timeout=10)
        self._retry_history_while_locked()
        self.call_after_refresh(self._load_soon)

    def _load_soon(self) -> None:
        """After the first paint, import in the background what a key may soon need, so the
        key does not wait for the import (help's Markdown alone takes a few hundred ms)."""

        def load() -> None:
            for module in SOON_NEEDED:
                import_module(module)

        threading.Thread(target=load, name="load-soon", daemon=True).start()

    def start_game(self, settings: GameSettings, moves: Sequence[int] = ()) -> None:
        """Start a fresh game with `settings` (from the position `moves` lead to), replacing
        whatever screens are showing; a game left unfinished is kept as abandoned."""
        self.routes.start_game(settings, moves)

    def keep_unfinished_games(self) -> None:
        """Save every game left unfinished on a Game screen as abandoned, now (not through a
        message: on the way out of the app there would be no one left to read it)."""
        from tictactoe_tui.ui.screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                game = screen.controller.abandon()
                if game is not None:
                    self._save(game)

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Close the app, every way it can close (q, Ctrl+Q, Ctrl+C, the palette, a signal): a
        game left unfinished is kept first."""
        self.keep_unfinished_games()
        super().exit(result, return_code, message)

    async def action_quit(self) -> None:
        """Ctrl+Q, Ctrl+C and the palette's Quit: in the middle of a game, ask as q does.

        A coroutine, as the `App.action_quit` it overrides is (Textual awaits either).
        """
        self._quit_or_ask()

    def action_help_quit(self) -> None:
        """Ctrl+C with no text selected quits as q does (Textual's own only says "press
        Ctrl+Q"); with a selection, the screen or a text box copies it and this never runs."""
        self._quit_or_ask()

    def _quit_or_ask(self) -> None:
        """Ask "quit this game?" on a Game screen (as q does), ask once on an analysis board
        whose study has unkept moves, else close the app."""
        from tictactoe_tui.play.leaving import Leave
        from tictactoe_tui.ui.screens.analysis import AnalysisScreen
        from tictactoe_tui.ui.screens.game import GameScreen

        # The palette runs its command while it still shows: look beneath it.
        shown = [s for s in self.screen_stack if not isinstance(s, CommandPalette)]
        if shown and isinstance(shown[-1], AnalysisScreen):
            if shown[-1].may_leave(Leave.QUIT):
                self.exit()
        elif shown and isinstance(shown[-1], GameScreen):
            shown[-1].action_quit_game()
        else:
            self.exit()

    def on_unmount(self) -> None:
        """Close the history (games another copy kept it from saving wait beside it), and end
        the search's worker process."""
        self.store.close()
        if self._thinker is not None:
            self._thinker.close()

    def on_game_ended(self, message: GameEnded) -> None:
        """Save a finished or abandoned game."""
        self._save(message.game)

    def on_game_reopened(self, message: GameReopened) -> None:
        """Forget a finished game that undo reopened: it is saved again when it ends."""
        before = self.store.notice
        self.store.forget(message.game)
        if self.last_game is not None and self.last_game[0] == message.game:
            self.last_game = None
        if self.store.notice and self.store.notice != before:
            self.notify(self.store.notice, severity="warning", timeout=10)

    def _save(self, game: PlayedGame) -> None:
        """Keep `game` in the history; say so in one line if the history cannot."""
        before = self.store.notice
        game_id = self.store.save(game)
        self.last_game = (game, game_id)
        if self.store.notice and self.store.notice != before:
            self.notify(self.store.notice, severity="warning", timeout=10)
        self._retry_history_while_locked()

    def _retry_history_while_locked(self) -> None:
        """While games wait for a locked history, try again every few seconds (each try is
        instant: it never waits for the lock), and say so when they are saved."""
        if self.store.waiting and self._history_retry is None:
            self._history_retry = self.set_interval(HISTORY_RETRY_SECONDS, self._retry_history)

    def _retry_history(self) -> None:
        saved = self.store.retry()
        if saved:
            games = "1 waiting game" if len(saved) == 1 else f"{len(saved)} waiting games"
            self.notify(f"The history is free again: {games} saved.", timeout=6)
        if not self.store.waiting and self._history_retry is not None:
            self._history_retry.stop()
            self._history_retry = None

    def on_navigate(self, message: Navigate) -> None:
        """A screen asks for another: the settings, the match runner, the last game's review."""
        if message.where == "settings":
            self.open_settings()
        elif message.where == "match":
            self.open_match()
        else:
            self.review_last_game()

    def on_analyse(self, message: Analyse) -> None:
        """A screen asks for the analysis board on a position: open it over that screen."""
        self.open_analysis(message.position, message.settings, message.study_id)

    def open_analysis(
        self,
        position: Board | MoveTree,
        settings: GameSettings | None = None,
        study_id: int | None = None,
    ) -> None:
        """Show the analysis board on `position` (or a study, `study_id` in the history),
        analysing with the time limit and depth of `settings` (default: the current ones);
        escape comes back to the screen underneath."""
        self.routes.analysis(position, settings, study_id)

    def on_open_drill(self, message: OpenDrill) -> None:
        """A screen asks for the alpha-beta drill on a position: open it over that screen."""
        self.routes.drill_on(message.position)

    def open_drill(self, start: DrillStart) -> None:
        """Show the alpha-beta drill on `start`'s tree; escape comes back to the screen
        underneath. Each check is kept in the history."""
        self.routes.drill(start)

    def on_open_cards(self, message: OpenCards) -> None:
        """A screen asks for the cards: open them over that screen."""
        self.open_cards()

    def open_cards(self) -> None:
        """Show the due "find a better move" cards (once: asking again while they show does
        nothing); escape comes back to the screen underneath. Each answer is kept."""
        self.routes.cards()

    def on_play_from(self, message: PlayFrom) -> None:
        """A screen (the review) asks for a game from a position: start it."""
        self.start_game(message.settings, message.moves)

    def all_time(
        self, settings: GameSettings, names: Mapping[Mark, str] | None = None
    ) -> tuple[tuple[str, int], ...]:
        """The all-time score of games like the one `settings` make (opponent, difficulty,
        board; `names`: sides named as the history names them), as (label, count) pairs."""
        return all_time(self.store, settings, names).tally()

    def open_history(self) -> None:
        """Show the history (once: asking again while it shows does nothing)."""
        self.routes.history()

    def review_last_game(self) -> None:
        """Review the game that just ended."""
        self.routes.review_last_game()

    def action_history(self) -> None:
        """Open the history."""
        self.open_history()

    def open_puzzles(self) -> None:
        """Show the puzzles, on the board of the current settings (once: asking again while
        they show does nothing)."""
        self.routes.puzzles()

    def open_course(self, lesson: str = "") -> None:
        """Show the course's lessons (once), with `lesson` (a key) open on top if given."""
        self.routes.course(lesson)

    def action_learn(self) -> None:
        """Open the course (key L, from the Settings and the Game screens)."""
        self.open_course()

    def action_puzzles(self) -> None:
        """Open the puzzles (key z, from the Settings and the Game screens)."""
        self.open_puzzles()

    def open_settings(self) -> None:
        """Show Settings prefilled with the current settings; escape comes back here."""
        self.routes.settings()

    def open_match(self) -> None:
        """Show the match runner, its form prefilled from the current settings."""
        self.routes.match()

    def open_help(self) -> None:
        """Show the help screen (once: asking again while it shows does nothing)."""
        self.routes.help()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide "? Help" while the help shows, and "y History" while the history does; "z
        Puzzles" belongs to the Settings and Game screens."""
        if action == "help":
            return not self._showing("HelpScreen")
        if action == "history":
            return not self._showing("HistoryScreen", "ReviewScreen", "StudiesScreen")
        if action == "puzzles":
            return self._showing("SettingsScreen", "GameScreen")
        return True

    def _showing(self, *names: str) -> bool:
        """Whether the screen on top is one of the named screens (by class name, so asking
        never loads a screen's module)."""
        return self.routes.showing(*names)

    def action_help(self) -> None:
        """Open the help screen."""
        self.open_help()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette's commands: Textual's own, plus settings and help."""
        yield from super().get_system_commands(screen)
        yield from app_commands(self, screen)

    def _fatal_error(self) -> None:
        """An unexpected error: log its traceback to a file and close with one plain line.

        Textual's default prints a full traceback over the terminal; a player should never see
        one. Every expected problem (a taken cell, a bad setting) is answered on screen long
        before this; this is the last line of defence.
        """
        details = traceback.format_exc()
        with contextlib.suppress(Exception):  # the game in progress is kept if it can be
            self.keep_unfinished_games()
        where = log_crash(details)
        self.bell()
        self.panic(f"tictactoe-tui stopped after an unexpected error ({where}). Sorry!")
