"""The Help screen opens with "?" from anywhere and closes with escape or q."""

from __future__ import annotations

from textual.widgets import Input, Static

from tests.app.conftest import SIZE
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.help import HELP_MARKDOWN, HelpScreen
from tictactoe_tui.ui.screens.settings import SettingsScreen


async def test_question_mark_opens_help_and_escape_closes_it() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_q_closes_help_instead_of_quitting() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.open_help()
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.is_running


async def test_help_opens_even_from_a_text_box() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#seed", Input).focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one("#seed", Input).value == ""


async def test_asking_for_help_twice_opens_it_once() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.open_help()
        app.open_help()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_help_closes_with_the_mouse_through_the_footer() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.open_help()
        await pilot.pause()
        assert await pilot.click("FooterKey")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_help_explains_the_rules_keys_and_algorithms() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.open_help()
        await pilot.pause()
        assert app.screen.query_one("#help-text", Static).content.markup == HELP_MARKDOWN
    for topic in (
        "How to play",
        "Keys",
        "Minimax",
        "Alpha-beta",
        "3·X2 + X1 − (3·O2 + O1)",
        "Open(computer) − Open(player)",
        "10 − d",
        "d/100",
    ):
        assert topic in HELP_MARKDOWN
