"""The Settings screen in narrow and tiny terminals: one column, a message, never a crash."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Select, Static

from tests.app.conftest import SIZE, text
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.settings import (
    MIN_HEIGHT,
    MIN_WIDTH,
    TWO_COLUMNS_WIDTH,
    SettingsScreen,
)

SWEEP = sorted(
    {(width, 24) for width in range(10, 51)}  # every narrow width, lists open
    | {(width, 24) for width in range(60, 121, 10)}
    | {(width, height) for width in (30, MIN_WIDTH, 45) for height in range(5, 14)}
)
"""Terminal sizes the sweep visits: every width where the lists' room runs out (the bug was at
20–29 columns), wider ones, and every height from 5 around the smallest the form takes."""


@pytest.mark.slow
async def test_every_list_opens_at_every_terminal_size_without_a_crash() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        for width, height in SWEEP:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            selects = list(app.screen.query(Select))
            assert len(selects) == 4
            for select in selects:  # as Enter on each would, all at once to save time
                select.expanded = True
            await pilot.pause()
            for select in selects:
                select.expanded = False
            assert app.is_running, f"the app stopped at {width}×{height}"
            assert isinstance(app.screen, SettingsScreen)


async def test_below_the_size_it_needs_settings_asks_for_a_bigger_terminal() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=(MIN_WIDTH - 1, MIN_HEIGHT)) as pilot:
        await pilot.pause()
        screen = app.screen
        message = screen.query_one("#settings-too-small", Static)
        assert message.display and not screen.query_one("#settings-form").display
        assert text(message).startswith(
            f"Enlarge the terminal: the Settings screen needs at least {MIN_WIDTH}×{MIN_HEIGHT} "
            f"characters, and this one is {MIN_WIDTH - 1}×{MIN_HEIGHT}."
        )
        assert "q quits" in text(message)
        # Nothing hidden takes a key: Enter must not start a game nobody can see being set up.
        assert app.focused is None
        await pilot.press("enter", "down", "space")
        await pilot.pause()
        assert app.screen is screen
        await pilot.resize_terminal(MIN_WIDTH, MIN_HEIGHT)
        await pilot.pause()
        assert not message.display and screen.query_one("#settings-form").display
        assert app.focused is screen.query_one("#start", Button), "the focus did not come back"
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"


async def test_too_small_for_reopened_settings_escape_still_goes_back_to_the_game() -> None:
    app = TicTacToeApp(GameSettings(seed=1), True)
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        game = app.screen
        app.open_settings()
        await pilot.pause()
        assert "escape goes back to the game" in text(
            app.screen.query_one("#settings-too-small", Static)
        )
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game


async def test_a_list_open_when_the_terminal_shrinks_is_closed_and_the_focus_returns() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        opponent = app.screen.query_one("#opponent", Select)
        opponent.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert opponent.expanded
        await pilot.resize_terminal(25, 24)
        await pilot.pause()
        assert not opponent.expanded
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert app.focused is opponent


@pytest.mark.parametrize(("width", "columns"), [(TWO_COLUMNS_WIDTH - 1, 1), (TWO_COLUMNS_WIDTH, 2)])
async def test_narrow_terminals_get_one_column_of_controls(width: int, columns: int) -> None:
    app = TicTacToeApp()
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        lefts = {column.region.x for column in app.screen.query(".settings-column")}
        assert len(lefts) == columns
        form = app.screen.query_one("#settings-form").region
        for control in app.screen.query("Select, Input, RadioSet"):
            right = control.region.right
            assert right <= form.right, f"#{control.id} sticks out of the form at {width} wide"
