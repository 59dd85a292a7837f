"""The Textual app: which screen shows when, the app-wide keys, the theme and the session score."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import threading
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

EXIT_SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")
"""Signals that end the app the normal way (terminal restored, every screen unmounted, any search
stopped), rather than killing it with the terminal still in full-screen mode. In a terminal
Ctrl+C is a key, not SIGINT; SIGINT comes from `kill -INT`, or from Ctrl+C pressed where
`tictactoe-tui serve` runs, which reaches the apps it started for the browser tabs too."""

EXIT_GRACE = 5.0
"""Seconds the normal exit may take after such a signal before the process ends regardless."""


def state_dir() -> Path:
    """The app's state directory: under $XDG_STATE_HOME, else ~/.local/state, else a temp dir.

    A relative XDG_STATE_HOME is ignored, as the XDG spec says; without a home directory (HOME
    unset and no passwd entry, where `Path.home()` raises) a private folder in the system's
    temporary directory stands in, so the crash handler itself can never fail here.
    """
    xdg = os.environ.get("XDG_STATE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "tictactoe-tui"
    try:
        home = Path.home()
    except RuntimeError:
        home = None
    if home is not None and home.is_absolute():
        return home / ".local" / "state" / "tictactoe-tui"
    return Path(tempfile.gettempdir()) / f"tictactoe-tui-{os.getuid()}"


def crash_log_path() -> Path:
    """Where an unexpected error's details go: the user's state directory, not the screen."""
    return state_dir() / "crash.log"


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
        self._exit_on_signals()
        if self.start_in_game:
            self.push_screen(GameScreen(self.settings))
        else:
            self.push_screen(SettingsScreen(self.settings), self._settings_chosen)

    def _exit_on_signals(self) -> None:
        """Let SIGTERM, SIGHUP and SIGINT close the app as `q` does, with status 128 + the signal.

        Python's default for them ends the process on the spot, leaving the terminal on the
        alternate screen with mouse reporting on and the cursor hidden. Closing the normal way
        restores the terminal and unmounts every screen, which stops any search in progress.
        Under a test runner (headless) the runner's own signals are left alone.
        """
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for name in EXIT_SIGNALS:
            number = getattr(signal, name, None)
            if number is None:      # SIGHUP does not exist on Windows
                continue
            try:
                loop.add_signal_handler(number, self._exit_on_signal, number)
            except (NotImplementedError, RuntimeError, ValueError):
                return              # no signal handling in this loop or thread: keep the default

    def _exit_on_signal(self, number: int) -> None:
        """Close the app after signal `number`, within `EXIT_GRACE` seconds whatever happens."""
        status = 128 + number
        self.exit(return_code=status)
        # When the terminal itself has gone (a closed tmux pane, a dropped ssh link), Textual's
        # output thread dies on the first write that fails and the exit then waits for it
        # forever. Screens unmount (searches stop) before that wait, so ending the process
        # after a grace period loses nothing; the worker processes notice their parent is gone.
        watchdog = threading.Timer(EXIT_GRACE, os._exit, (status,))
        watchdog.daemon = True
        watchdog.start()

    def _settings_chosen(self, settings: GameSettings | None) -> None:
        """The Settings screen closed: start its game, or (escape) go back to the one showing."""
        if settings is not None:
            self.start_game(settings)

    def start_game(self, settings: GameSettings) -> None:
        """Start a fresh game with `settings`, replacing whatever screens are showing."""
        self.settings = settings
        self.theme = settings.theme
        # Drop every screen above Textual's own blank one (an old game, its results) so games
        # never pile up; that screen cannot be popped, and the new game goes on top of it.
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(GameScreen(settings))

    def open_settings(self) -> None:
        """Show Settings prefilled with the current settings; escape comes back here."""
        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings, can_cancel=True),
                             self._settings_chosen)

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
