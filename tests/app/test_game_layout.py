"""How the Game screen fits the terminal: 10×10 in 100×34, and a clear message when too small
(the compact layout of small terminals: test_compact_layout)."""

from __future__ import annotations

from textual.widgets import Static

from tests.app.conftest import SIZE, click_cell, game_app, settle
from tictactoe_tui.ui.screens.game import GameScreen, compact_terminal, needed_terminal
from tictactoe_tui.ui.widgets import Board, EvalPanel


async def test_a_10x10_game_fits_100x34_and_the_panel_lists_the_top_ten() -> None:
    app = game_app(opponent="alphabeta", size=10, time_limit=0.3, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert not screen.query_one("#too-small").display
        board = screen.query_one("#board", Board)
        visible = screen.region
        assert visible.contains_region(board.region)
        for cell in range(100):  # each cell's middle is on the screen, and is the board's
            x, y = board.region.offset + board.cell_offset(cell)
            assert visible.contains(x, y) and screen.get_widget_at(x, y)[0] is board, cell
        for wid in ("#status", "#scoreboard", "#eval-panel", "#move-list"):
            region = screen.query_one(wid).region
            assert region.area > 0 and visible.contains_region(region), wid
        assert await click_cell(pilot, 99)
        await settle(pilot)
        shown = screen.query_one(EvalPanel).text
        listed = [
            line
            for line in shown.splitlines()
            if line.startswith(("▶ ", "  ")) and line[2:3].isalpha() and line[3:4].isdigit()
        ]
        assert len(listed) == 10
        assert "more moves" in shown


async def test_a_terminal_too_small_for_the_board_says_so() -> None:
    width, height = compact_terminal(10)
    app = game_app(size=10)
    async with app.run_test(size=(70, height - 1)) as pilot:
        await pilot.pause()
        screen = app.screen
        message = screen.query_one("#too-small", Static)
        assert message.display
        assert f"needs at least {width}×{height}" in str(message.render())
        assert "Enlarge the terminal" in str(message.render())
        assert "s opens the settings, where a smaller board needs less room; q quits." in str(
            message.render()
        )
        assert not screen.query_one("#position").display


async def test_hiding_the_panel_hides_it_and_i_shows_it_again() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.screen.query_one(EvalPanel)
        assert panel.display
        await pilot.press("i")
        assert not panel.display
        await pilot.press("i")
        assert panel.display


def test_the_needed_terminal_grows_with_the_board() -> None:
    width, height = needed_terminal(3)
    assert width <= 80 and height <= 24, "3×3 fits the classic 80×24 terminal"
    width, height = needed_terminal(10)
    assert width <= SIZE[0] and height <= SIZE[1]
    assert needed_terminal(15)[0] > needed_terminal(10)[0]
    assert needed_terminal(10, panel=False)[0] < needed_terminal(10)[0]


def test_the_needed_terminal_for_the_biggest_boards() -> None:
    # One-line cells four columns wide, a 46-column panel: 16×16 needs 115×28, 20×20 131×32.
    assert [needed_terminal(n) for n in (16, 17, 18, 19, 20)] == [
        (115, 28),
        (119, 29),
        (123, 30),
        (127, 31),
        (131, 32),
    ]
    assert needed_terminal(20, panel=False) == (85, 32)


async def test_a_20x20_game_fits_its_terminals_and_says_so_one_column_short() -> None:
    width, height = needed_terminal(20)
    app = game_app(mode="human-vs-human", size=20)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query_one("#too-small").display and not screen.has_class("-compact")
        board = screen.query_one("#board", Board)
        assert screen.region.contains_region(board.region)
        for cell in (0, 19, 380, 399):  # the corners are on the screen and are the board's
            x, y = board.region.offset + board.cell_offset(cell)
            assert screen.get_widget_at(x, y)[0] is board, cell
        assert await click_cell(pilot, 399)
        await pilot.pause()
        assert screen.controller.game.board[399] is not None
        smallest = compact_terminal(20)
        assert smallest == (85, 27)
        await pilot.resize_terminal(*smallest)
        await pilot.pause()
        assert screen.has_class("-compact") and not screen.query_one("#too-small").display
        assert screen.region.contains_region(board.region)
        await pilot.resize_terminal(smallest[0] - 1, smallest[1])
        await pilot.pause()
        message = screen.query_one("#too-small", Static)
        assert message.display
        assert "a 20×20 board needs at least 85×27" in str(message.render())
