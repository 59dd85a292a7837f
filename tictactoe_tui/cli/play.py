"""The play command (`tictactoe-tui [game flags]`): the game flags read, the full-screen app
made from what they say (`app_from_args`).

The flags are the command line's (`cli.flags`); the app only takes their values: the settings,
whether to start in the game, the history and the position to analyse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tictactoe_tui.cli.flags import data_dir_flag, parse_args, position_flag
from tictactoe_tui.play.settings import GameSettings, settings_from_values
from tictactoe_tui.ui.app import TicTacToeApp, open_history


def app_from_args(argv: Sequence[str] | None = None) -> TicTacToeApp:
    """The app the command-line flags ask for (exits with status 2 on a bad value).

    Without a game flag the Settings screen opens with the last settings used (a --theme
    flag still sets the theme, --eval the learner's evaluation shown); with one, the flags
    alone decide.
    """
    settings, any_game_flag = parse_args(argv)
    position = position_flag(argv)
    store = open_history(data_dir_flag(argv))
    last = None if any_game_flag else settings_from_values(store.last_settings() or {})
    if last is not None:
        themed = settings.theme != GameSettings().theme
        theme = settings.theme if themed else last.theme
        settings = replace(last, theme=theme, eval_file=settings.eval_file)
    return TicTacToeApp(settings, start_in_game=any_game_flag, store=store, position=position)


# The stable entry point `TicTacToeApp.from_args(argv)` is this function (see `ui.app`).
TicTacToeApp.from_args = app_from_args
