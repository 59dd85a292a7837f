"""Every way out of the app keeps the game in progress: Ctrl+Q, Ctrl+C and the palette's Quit ask
first in the middle of a game, as q does, and a crash still keeps the game (signals:
test_signals)."""

from __future__ import annotations

import pytest

from tests.app.conftest import SIZE, game_app, run_command, settle, status
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.ui.app import TicTacToeApp


def kept_outcomes() -> list[str]:
    """The outcomes of the games in the history, newest first."""
    return [game.outcome for game in HistoryStore.open().games()]


async def test_ctrl_q_asks_in_the_middle_of_a_game_then_keeps_it() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert "Quit in the middle of the game?" in status(pilot)
        assert app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0
    assert kept_outcomes() == ["abandoned"]


async def test_ctrl_c_asks_as_q_does_in_the_middle_of_a_game_then_quits() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert "Quit in the middle of the game? q again or y quits" in status(pilot)
        assert "ctrl+q" not in " ".join(str(n.message) for n in app._notifications).lower()
        assert app.is_running
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0
    assert kept_outcomes() == ["abandoned"]


async def test_ctrl_c_then_y_quits_and_ctrl_c_then_another_key_goes_on() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "ctrl+c", "1")
        await pilot.pause()
        assert "Quit in the middle" not in status(pilot)
        assert app.is_running
        await pilot.press("ctrl+c", "y")
        await pilot.pause()
        assert not app.is_running
    assert kept_outcomes() == ["abandoned"]


async def test_ctrl_c_quits_at_once_from_settings_and_before_the_first_move() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
    settings_first = TicTacToeApp()
    async with settings_first.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not settings_first.is_running


async def test_the_palettes_quit_asks_too_and_another_key_goes_on() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await run_command(pilot, "quit")
        assert "Quit in the middle of the game?" in status(pilot)
        await pilot.press("1")  # any other key: the game goes on
        await pilot.pause()
        assert "Quit in the middle" not in status(pilot)
        assert app.is_running
    assert kept_outcomes() == ["abandoned"]  # closing the test app is a way out too


async def test_a_crash_in_the_middle_of_a_game_keeps_the_game() -> None:
    app = game_app(mode="human-vs-human")

    def broken() -> None:
        raise RuntimeError("a bug we did not foresee")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("5")
            await settle(pilot)
            app.screen.action_toggle_panel = broken  # type: ignore[method-assign]
            await pilot.press("i")
            await pilot.pause()
    assert kept_outcomes() == ["abandoned"]


async def test_q_on_a_finished_game_quits_at_once_and_keeps_it_once() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        for key in "14253":  # X: 1 2 3, the top row
            await pilot.press(key)
        await settle(pilot)
        await pilot.press("escape")  # close the results to look at the board
        await pilot.press("q")
        await pilot.pause()
    assert kept_outcomes() == ["X"]
