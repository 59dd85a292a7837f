"""An unexpected error closes the app with one plain line and a non-zero status; its traceback
goes to a log file, wherever the environment lets one be written."""

from __future__ import annotations

import pwd
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.app.conftest import SIZE, game_app, settle
from tictactoe_tui import cli
from tictactoe_tui.cli import play
from tictactoe_tui.ui.app import TicTacToeApp, crash_log_path, state_dir


async def crash_a_game() -> None:
    """Play a game until a key runs into a bug: the app closes (Pilot re-raises the error)."""
    app = game_app(opponent="random", seed=1)

    def broken() -> None:
        raise RuntimeError("a bug we did not foresee")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.screen.action_toggle_panel = broken  # type: ignore[method-assign]
            await pilot.press("i")
            await pilot.pause()


async def test_an_unexpected_error_is_logged_and_the_player_sees_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    await crash_a_game()
    log = crash_log_path()
    assert log.parent.parent == tmp_path
    assert "RuntimeError: a bug we did not foresee" in log.read_text()
    # What the terminal shows once the app has closed (the console wraps long lines).
    message = capsys.readouterr().err.replace("\n", "")
    assert "unexpected error" in message and str(log) in message
    assert "Traceback" not in message


def _no_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME unset and no passwd entry for this user: `Path.home()` raises RuntimeError."""
    monkeypatch.delenv("HOME", raising=False)

    def no_entry(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    with pytest.raises(RuntimeError):
        Path.home()


async def test_without_a_home_directory_the_crash_log_goes_to_a_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_home(monkeypatch)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    await crash_a_game()
    log = crash_log_path()
    assert log.is_relative_to(tmp_path)
    assert "RuntimeError: a bug we did not foresee" in log.read_text()
    message = capsys.readouterr().err.replace("\n", "")
    assert str(log) in message and "Traceback" not in message


@pytest.mark.parametrize("xdg", ["relative/state", "state", "./state", ""])
def test_a_relative_xdg_state_home_is_ignored(
    xdg: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", xdg)
    monkeypatch.chdir(tmp_path)
    assert state_dir() == tmp_path / ".local" / "state" / "tictactoe-tui"


def test_an_absolute_xdg_state_home_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert crash_log_path() == tmp_path / "state" / "tictactoe-tui" / "crash.log"


def test_a_relative_xdg_state_home_without_a_home_falls_back_to_a_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_home(monkeypatch)
    monkeypatch.setenv("XDG_STATE_HOME", "relative")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert state_dir().parent == tmp_path
    assert state_dir().is_absolute()


def test_the_command_exits_non_zero_after_an_unexpected_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tictactoe-tui` as a script sees it: cli.main's status after the app crashed."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))

    class CrashingApp(TicTacToeApp):
        def on_mount(self) -> None:
            raise RuntimeError("a bug we did not foresee")

        def run(self, **kwargs: Any) -> None:  # no terminal under pytest: run headless
            super().run(headless=True, size=SIZE)

    monkeypatch.setattr(play, "app_from_args", lambda args: CrashingApp())
    assert cli.main(["--seed", "1"]) == 1
    assert "a bug we did not foresee" in crash_log_path().read_text()


def test_the_command_exits_0_after_a_normal_quit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))

    class QuittingApp(TicTacToeApp):
        def on_mount(self) -> None:
            super().on_mount()
            self.set_timer(0.2, self.exit)  # what q does, once Settings shows

        def run(self, **kwargs: Any) -> None:
            super().run(headless=True, size=SIZE)

    monkeypatch.setattr(play, "app_from_args", lambda args: QuittingApp())
    assert cli.main([]) == 0
