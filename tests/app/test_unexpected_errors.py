"""An unexpected error closes the app with one plain line; its traceback goes to a log file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.conftest import SIZE, game_app, settle
from tictactoe_tui.app import crash_log_path


async def test_an_unexpected_error_is_logged_and_the_player_sees_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    app = game_app(opponent="random", seed=1)

    def broken() -> None:
        raise RuntimeError("a bug we did not foresee")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.screen.action_toggle_panel = broken  # type: ignore[method-assign]
            await pilot.press("e")
            await pilot.pause()
    log = crash_log_path()
    assert log.parent.parent == tmp_path
    assert "RuntimeError: a bug we did not foresee" in log.read_text()
    # What the terminal shows once the app has closed (the console wraps long lines).
    message = capsys.readouterr().err.replace("\n", "")
    assert "unexpected error" in message and str(log) in message
    assert "Traceback" not in message
