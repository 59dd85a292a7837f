"""The Textual app: which screen shows when, the app-wide keys, the theme, the session score and
the history (every game the Game screen reports with `GameEnded` is saved to the `HistoryStore`)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import asdict, replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tictactoe_tui.messages import GameEnded
from tictactoe_tui.record import PlayedGame
from tictactoe_tui.screens.game import GameScreen
from tictactoe_tui.screens.help import HelpScreen
from tictactoe_tui.screens.history import HistoryScreen
from tictactoe_tui.screens.review import ReviewScreen
from tictactoe_tui.screens.settings import SettingsScreen
from tictactoe_tui.session import SessionScore
from tictactoe_tui.settings import GameSettings, data_dir_flag, parse_args, settings_from_values
from tictactoe_tui.store import HistoryStore
from tictactoe_tui.thinking import Thinker


def crash_log_path() -> Path:
    """Where an unexpected error's details go: the user's state directory, not the screen."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "tictactoe-tui" / "crash.log"


class TicTacToeApp(App[None]):
    """Tic-tac-toe in the terminal: Settings, then the Game (with its Results), and Help."""

    # Absolute, because Textual resolves a relative CSS_PATH beside the module of the class
    # that is run: a subclass elsewhere (the snapshot tests' app) would look in the wrong place.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "tictactoe-tui"
    SUB_TITLE = "watch the computer think"

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority, so "?" opens help even while a text box has the focus (none takes a "?").
        Binding("question_mark", "help", "Help", key_display="?", priority=True),
        Binding("y", "history", "History"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, settings: GameSettings | None = None, start_in_game: bool = False,
                 store: HistoryStore | None = None) -> None:
        """Set up the app; it opens on the Game screen if `start_in_game`, else on Settings.

        Without `settings` it starts from the last settings the history remembers. `store` is
        the history (default: the one in `data_dir()`).
        """
        super().__init__()
        self.store = store if store is not None else HistoryStore.open()
        """The history: every game is saved there."""
        if settings is None:
            settings = settings_from_values(self.store.last_settings() or {}) or GameSettings()
        self.settings: GameSettings = settings
        """The settings of the current (or next) game."""
        self.start_in_game = start_in_game
        """Whether the first screen is the Game screen rather than Settings."""
        self.session = SessionScore()
        """The score over every game played since the app started."""
        self.thinker = Thinker()
        """The worker process the games' searches run in (started when first needed)."""
        self.last_game: tuple[PlayedGame, int | None] | None = None
        """The last game reported, with its id in the history (None if it was not saved)."""
        self.theme = self.settings.theme

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen anywhere (the palette too), so the next game keeps it."""
        self.settings = replace(self.settings, theme=theme)

    @classmethod
    def from_args(cls, argv: Sequence[str] | None = None) -> TicTacToeApp:
        """Build the app from command-line flags (exits with status 2 on a bad value).

        Without a game flag the Settings screen opens with the last settings used (a --theme
        flag still sets the theme); with one, the flags alone decide.
        """
        settings, any_game_flag = parse_args(argv)
        store = HistoryStore.open(data_dir_flag(argv))
        last = settings_from_values(store.last_settings() or {})
        if not any_game_flag and last is not None:
            themed = settings.theme != GameSettings().theme
            settings = replace(last, theme=settings.theme) if themed else last
        return cls(settings, start_in_game=any_game_flag, store=store)

    def on_mount(self) -> None:
        """Show the first screen: the Game straight away when flags chose one, else Settings."""
        if self.start_in_game:
            self.store.remember_settings(asdict(self.settings))
        self.push_screen(GameScreen(self.settings) if self.start_in_game
                         else SettingsScreen(self.settings))
        if self.store.notice:
            self.notify(self.store.notice, severity="warning", timeout=10)

    def start_game(self, settings: GameSettings, moves: Sequence[int] = ()) -> None:
        """Start a fresh game with `settings` (from the position `moves` lead to), replacing
        whatever screens are showing; a game left unfinished is kept as abandoned."""
        self.settings = settings
        self.theme = settings.theme
        self.store.remember_settings(asdict(settings))
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.abandon()
        # Drop everything above the first screen (an old game, its results, settings) so games
        # never pile up, then let the new game take its place. Textual's own blank screen stays
        # at the bottom: it is the one screen that cannot be switched away.
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(GameScreen(settings, moves=moves))

    def on_unmount(self) -> None:
        """Close the history (games another copy kept it from saving wait beside it), and end
        the search's worker process."""
        self.store.close()
        self.thinker.close()

    def on_game_ended(self, message: GameEnded) -> None:
        """Save a finished or abandoned game; say so in one line if the history cannot."""
        before = self.store.notice
        game_id = self.store.save(message.game)
        self.last_game = (message.game, game_id)
        if self.store.notice and self.store.notice != before:
            self.notify(self.store.notice, severity="warning", timeout=10)

    def all_time(self, settings: GameSettings) -> tuple[tuple[str, int], ...]:
        """The all-time score of games like the one `settings` make (opponent, difficulty,
        board), as (label, count) pairs."""
        x = o = "human"
        if settings.mode == "computer-vs-computer":
            x = o = settings.opponent
        elif settings.mode == "human-vs-computer":
            x, o = (("human", settings.opponent) if settings.human_mark.value == "X"
                    else (settings.opponent, "human"))
        difficulty = settings.difficulty if settings.mode != "human-vs-human" else 100
        line = self.store.score_for(settings.mode, x, o, difficulty, settings.size,
                                    settings.win_length)
        return line.tally()

    def open_history(self) -> None:
        """Show the history (once: asking again while it shows does nothing)."""
        if not isinstance(self.screen, HistoryScreen | ReviewScreen):
            self.push_screen(HistoryScreen(self.store))

    def review_last_game(self) -> None:
        """Review the game that just ended."""
        if self.last_game is not None:
            game, game_id = self.last_game
            self.push_screen(ReviewScreen(game, self.store, game_id))

    def action_history(self) -> None:
        """Open the history."""
        self.open_history()

    def open_settings(self) -> None:
        """Show Settings prefilled with the current settings; escape comes back here."""
        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings, can_cancel=True))

    def open_match(self) -> None:
        """Show the match runner, its form prefilled from the current settings."""
        # Imported here: the charting library loads only when someone asks for a match.
        from tictactoe_tui.screens.match import MatchScreen

        if not isinstance(self.screen, MatchScreen):
            self.push_screen(MatchScreen(self.settings))

    def open_help(self) -> None:
        """Show the help screen (once: asking again while it shows does nothing)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide "? Help" while the help shows, and "y History" while the history does."""
        if action == "help":
            return not isinstance(self.screen, HelpScreen)
        if action == "history":
            return not isinstance(self.screen, HistoryScreen | ReviewScreen)
        return True

    def action_help(self) -> None:
        """Open the help screen."""
        self.open_help()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette's commands: Textual's own, plus settings and help."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("Settings", "Choose the mode, opponent, board and theme",
                            self.open_settings)
        yield SystemCommand("Help", "Rules, keys and how the computer thinks", self.open_help)
        yield SystemCommand("Match runner", "N games between two computer settings",
                            self.open_match)
        if isinstance(screen, GameScreen):
            yield SystemCommand("Compare the algorithms", "Learning lab: every search on this "
                                "position, side by side (key a)", screen.action_compare)
            yield SystemCommand("Search tree", "Learning lab: the alpha-beta search from this "
                                "position as a tree, step by step (key t)",
                                screen.action_search_tree)
            yield SystemCommand("Heuristic lab", "How H1 and H2 rank this position's moves",
                                screen.action_heuristics)
        yield SystemCommand("History", "Every game played, and a review of each",
                            self.open_history)

    def _fatal_error(self) -> None:
        """An unexpected error: log its traceback to a file and close with one plain line.

        Textual's default prints a full traceback over the terminal; a player should never see
        one. Every expected problem (a taken cell, a bad setting) is answered on screen long
        before this; this is the last line of defence.
        """
        details = traceback.format_exc()
        path = crash_log_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as log:
                log.write(f"--- {datetime.now().isoformat(timespec='seconds')}\n{details}\n")
            where = f"the details are in {path}"
        except OSError:
            where = "the details could not be saved"
        self.bell()
        self.panic(f"tictactoe-tui stopped after an unexpected error ({where}). Sorry!")
