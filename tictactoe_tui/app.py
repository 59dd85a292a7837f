"""The Textual app: which screen shows when, the app-wide keys, the theme and the session score."""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tictactoe_tui.screens.game import GameScreen
from tictactoe_tui.screens.help import HelpScreen
from tictactoe_tui.screens.settings import SettingsScreen
from tictactoe_tui.session import SessionScore
from tictactoe_tui.settings import GameSettings, parse_args
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
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, settings: GameSettings | None = None, start_in_game: bool = False) -> None:
        """Set up the app; it opens on the Game screen if `start_in_game`, else on Settings."""
        super().__init__()
        self.settings: GameSettings = settings if settings is not None else GameSettings()
        """The settings of the current (or next) game."""
        self.start_in_game = start_in_game
        """Whether the first screen is the Game screen rather than Settings."""
        self.session = SessionScore()
        """The score over every game played since the app started."""
        self.thinker = Thinker()
        """The worker process the games' searches run in (started when first needed)."""
        self.theme = self.settings.theme

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen anywhere (the palette too), so the next game keeps it."""
        self.settings = replace(self.settings, theme=theme)

    @classmethod
    def from_args(cls, argv: Sequence[str] | None = None) -> TicTacToeApp:
        """Build the app from command-line flags (exits with status 2 on a bad value)."""
        settings, any_game_flag = parse_args(argv)
        return cls(settings, start_in_game=any_game_flag)

    def on_mount(self) -> None:
        """Show the first screen: the Game straight away when flags chose one, else Settings."""
        self.push_screen(GameScreen(self.settings) if self.start_in_game
                         else SettingsScreen(self.settings))

    def on_unmount(self) -> None:
        """End the search's worker process with the app."""
        self.thinker.close()

    def start_game(self, settings: GameSettings) -> None:
        """Start a fresh game with `settings`, replacing whatever screens are showing."""
        self.settings = settings
        self.theme = settings.theme
        # Drop everything above the first screen (an old game, its results, settings) so games
        # never pile up, then let the new game take its place. Textual's own blank screen stays
        # at the bottom: it is the one screen that cannot be switched away.
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(GameScreen(settings))

    def open_settings(self) -> None:
        """Show Settings prefilled with the current settings; escape comes back here."""
        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings, can_cancel=True))

    def open_help(self) -> None:
        """Show the help screen (once: asking again while it shows does nothing)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide "? Help" from the footer while the help is what shows."""
        if action == "help":
            return not isinstance(self.screen, HelpScreen)
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
