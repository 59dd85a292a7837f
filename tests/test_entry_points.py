"""The stable entry points whatever moves (DESIGN.md): `from tictactoe_tui.app import
TicTacToeApp` and `TicTacToeApp.from_args(argv)`, the app the command-line flags ask for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tictactoe_tui.app import TicTacToeApp
from tictactoe_tui.cli.play import app_from_args
from tictactoe_tui.ui.app import TicTacToeApp as UiApp


def test_the_face_is_the_ui_app_and_from_args_is_the_command_lines() -> None:
    assert TicTacToeApp is UiApp
    assert TicTacToeApp.from_args is app_from_args


def test_from_args_makes_the_app_the_flags_ask_for(tmp_path: Path) -> None:
    argv = ["--size", "5", "--k", "4", "--opponent", "random", "--data-dir", str(tmp_path)]
    app = TicTacToeApp.from_args(argv)
    assert isinstance(app, TicTacToeApp)
    assert (app.settings.size, app.settings.k, app.settings.opponent) == (5, 4, "random")
    assert app.start_in_game  # a game flag starts the game at once


def test_from_args_without_a_game_flag_opens_settings(tmp_path: Path) -> None:
    app = TicTacToeApp.from_args(["--data-dir", str(tmp_path)])
    assert not app.start_in_game


def test_a_bad_flag_is_status_2_and_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        TicTacToeApp.from_args(["--size", "2", "--data-dir", str(tmp_path)])
    assert stopped.value.code == 2
    assert "size" in capsys.readouterr().err
