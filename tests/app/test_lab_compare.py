"""The compare screen (key `a`) on screen: every number it draws is the lab engine's and the
controller's, and every control works from the keyboard alone and from the mouse alone. The rules
themselves are tested without a terminal in `tests/test_compare_controller.py`."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Static
from textual_plotext import PlotextPlot

from tests.app.conftest import (
    SIZE,
    click_cell,
    click_command,
    game,
    game_app,
    press_settled,
    settle,
    text,
)
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import verdict
from tictactoe_tui.engine.lab.trace import LAB_ALGORITHMS, trace_search, tree_size
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.compare import game_history
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.compare import CompareScreen
from tictactoe_tui.ui.screens.game import GameScreen


def compare_screen(pilot: Pilot[None]) -> CompareScreen:
    screen = pilot.app.screen
    assert isinstance(screen, CompareScreen)
    return screen


def row(screen: CompareScreen, algorithm: str) -> dict[str, str]:
    """A table row as the player reads it, by column."""
    table = screen.query_one("#compare-table", DataTable)
    return {
        str(column.key.value): str(table.get_cell(algorithm, column.key))
        for column in table.ordered_columns
    }


async def open_with_keys(pilot: Pilot[None], *keys: str) -> CompareScreen:
    """Play `keys` on the game screen, then press `a` and wait for every search."""
    await press_settled(pilot, *keys, "a")
    return compare_screen(pilot)


def agreement(name: str, board: Board) -> str:
    """The agreement column's words for `name` on `board`, from the engine's own verdict."""
    if name == "minimax":
        return "reference"
    judged = verdict(trace_search(board, name), trace_search(board, "minimax"))
    if judged.agrees:
        return "yes"
    return "move only" if judged.move else "value only" if judged.value else "no"


def assert_rows_match_the_engine(screen: CompareScreen, board: Board) -> None:
    """Every row's move, positions, cut-offs, table hits and agreement are the lab engine's."""
    for name in LAB_ALGORITHMS:
        expected = trace_search(board, name)
        assert expected.move is not None
        cells = row(screen, name)
        assert cells["move"] == cell_notation(expected.move, board.size), name
        assert [cells["positions"], cells["cut-offs"], cells["table hits"]] == [
            f"{expected.positions:,}",
            f"{expected.cutoffs:,}",
            f"{expected.table_hits:,}",
        ], name
        assert cells["agrees"] == agreement(name, board), name


def drawn(screen: CompareScreen, chart: str) -> str:
    """What a chart shows, as plain text."""
    plot = screen.query_one(chart, PlotextPlot)
    return "\n".join(strip.text for strip in plot.render_lines(Region(0, 0, *plot.size)))


async def test_a_from_the_game_draws_every_row_and_chart_as_the_controller_says() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_with_keys(pilot, "5")
        board = game(pilot).game.board
        controller = screen.controller
        assert screen.position == board
        assert controller.history == game_history(game(pilot).game, game(pilot).settings)
        assert screen.minimax_state == "done"
        assert_rows_match_the_engine(screen, board)
        table = screen.query_one("#compare-table", DataTable)
        assert [str(c.key.value) for c in table.ordered_columns] == controller.columns()
        for name in LAB_ALGORITHMS:
            assert row(screen, name) == {
                column: controller.cell(name, column).plain for column in controller.columns()
            }
        # On 3×3 no moves are left out: the column is not shown.
        assert "moves" not in controller.columns()
        title = text(screen.query_one("#compare-title", Static))
        assert title == controller.title() and f"X to move on {board}" in title
        status = text(screen.query_one("#minimax-status", Static))
        assert status == controller.minimax_words()
        assert status.startswith("Minimax searched the whole tree, full width: ")
        assert text(screen.query_one("#compare-notes", Static)) == controller.notes()
        # Only the buttons that do something: none, minimax is done.
        for button in ("#minimax-cancel", "#minimax-depth", "#minimax-full", "#minimax-rerun"):
            assert not screen.query_one(button, Button).display
        depths, bars = controller.depths(), controller.bars()
        assert depths is not None and bars is not None
        chart = drawn(screen, "#depth-chart")
        assert "Best score by depth" in chart and "depth (plies)" in chart
        for note in depths.notes:
            assert note.text in chart
        counts = drawn(screen, "#compare-chart")
        for name in LAB_ALGORITHMS:
            assert f"{controller.results[name].positions:,}" in counts
        for chart_id in ("#compare-chart", "#game-chart"):
            assert screen.query_one(chart_id, PlotextPlot).region.height >= 10


@pytest.mark.parametrize(
    "board",
    [
        Board.from_string("X.../.O../..../...."),  # the notation, a depth
        Board.empty(15, 5).play(112).play(113).play(97).play(128),  # a move number
    ],
)
async def test_the_title_is_shown_whole_at_100_columns(board: Board) -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(CompareScreen(board, time_limit=0.2, depth=3))
        await pilot.pause()
        title = compare_screen(pilot).query_one("#compare-title", Static)
        shown = " ".join(title.render_line(y).text for y in range(title.size.height))
        assert len(text(title)) > SIZE[0] - 2  # too long for one line
        assert shown.split() == text(title).split(), "the title is cut"
        await pilot.press("escape")


@pytest.mark.slow
async def test_cancel_then_run_again_with_the_keyboard() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(CompareScreen(Board.empty(3, 3)))
        screen = compare_screen(pilot)
        for _ in range(400):
            await pilot.pause(0.01)
            if screen.minimax_state == "running":
                break
        assert screen.minimax_state == "running"
        await pilot.press("c")
        await settle(pilot)
        assert screen.minimax_state == "cancelled"
        assert row(screen, "minimax")["value"] == "cancelled"
        assert "r runs it again" in text(screen.query_one("#minimax-status", Static))
        # The other rows keep their numbers; the agreement column has nothing to judge by.
        table = trace_search(Board.empty(3, 3), "alphabeta-tt")
        assert row(screen, "alphabeta-tt")["positions"] == f"{table.positions:,}"
        assert row(screen, "alphabeta-tt")["agrees"] == "—"
        await pilot.press("r")
        await settle(pilot)
        assert screen.minimax_state == "done"
        assert row(screen, "minimax")["positions"] == "549,946"
        assert row(screen, "alphabeta-tt")["agrees"] == "yes"


@pytest.mark.slow
async def test_a_tree_too_big_for_the_budget_is_sized_and_a_depth_that_fits_is_offered() -> None:
    board = Board.from_string("XO../.XO./..../....", k=4)  # 12 empty cells: a huge tree
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        # To the end, not to the default depth of a position with this many empty cells.
        await app.push_screen(CompareScreen(board, time_limit=0.5, depth=None))
        await settle(pilot)
        screen = compare_screen(pilot)
        assert screen.minimax_state == "too big"
        status = text(screen.query_one("#minimax-status", Static))
        full = tree_size(board)
        assert full.positions > 10**8
        assert f"The full tree has {full.positions:,} positions" in status
        assert "more than the 0.5 s budget" in status
        run = screen.controller.minimax
        assert run is not None and run.suggested_depth is not None
        assert f"d: minimax to depth {run.suggested_depth}" in status
        assert screen.query_one("#minimax-depth", Button).display
        await pilot.press("d")
        await settle(pilot)
        assert screen.minimax_state == "done"
        depth = run.suggested_depth
        assert row(screen, "minimax")["depth"] == str(depth)
        assert row(screen, "minimax")["positions"] == (
            f"{trace_search(board, 'minimax', depth).positions:,}"
        )


@pytest.mark.slow
async def test_the_mouse_alone_opens_the_compare_screen_and_goes_back() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 4)
        await settle(pilot)
        await click_command(pilot, "Compare")
        screen = compare_screen(pilot)
        assert_rows_match_the_engine(screen, game(pilot).game.board)
        assert await pilot.click("#close")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_bigger_terminal_shows_everything_and_escape_goes_back() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_with_keys(pilot, "5")
        for widget in ("#compare-table", "#compare-chart", "#game-chart", "#minimax-status"):
            region = screen.query_one(widget).region
            assert region.width > 0 and region.height > 0
            assert region.right <= 140 and region.bottom <= 45
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_small_terminal_asks_to_be_enlarged_and_the_screen_comes_back() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await app.push_screen(CompareScreen(Board.from_string("X../.O./...")))
        await settle(pilot)
        notice = compare_screen(pilot).query_one("#too-small", Static)
        assert notice.display and "Enlarge the terminal" in text(notice)
        assert "needs at least 80×24" in text(notice), "the compact layout's minimum"
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not notice.display
        assert compare_screen(pilot).query_one("#compare-table").region.width > 0


async def test_a_row_drawn_before_the_table_measures_it_is_not_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The flaky snapshot's cause: a frame drawn between minimax's answer and the table's next
    idle kept "reference" cut to the column's old width (Textual issue #3533)."""
    show = CompareScreen._show_table

    def and_draw_at_once(screen: CompareScreen) -> None:
        show(screen)
        screen.app.export_screenshot()  # a frame, before the table has gone idle

    monkeypatch.setattr(CompareScreen, "_show_table", and_draw_at_once)
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(CompareScreen(Board.from_string("X../.O./...")))
        await settle(pilot)
        table = compare_screen(pilot).query_one("#compare-table", DataTable)
        lines = [table.render_line(y).text for y in range(table.size.height)]
        minimax = next(line for line in lines if line.lstrip().startswith("minimax"))
        assert minimax.rstrip().endswith("reference"), minimax


MIDDLE_GAME = Board.from_string(
    "........../........../........../....O...../....XX..../....O...../........../"
    "........../........../..........",
    k=5,
)
"""A 10×10 position where every search but minimax keeps to the cells next to a mark."""


async def test_a_big_board_draws_the_moves_column_and_the_whole_table_fits() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(CompareScreen(MIDDLE_GAME, depth=2))
        await settle(pilot)
        screen = compare_screen(pilot)
        controller = screen.controller
        assert screen.minimax_state == "done"
        # Each search's root moves, left out by the big-board rule: the column is shown.
        assert "moves" in controller.columns()
        for name in LAB_ALGORITHMS:
            assert row(screen, name) == {
                column: controller.cell(name, column).plain for column in controller.columns()
            }
        assert row(screen, "minimax")["moves"] == "all 96"
        assert text(screen.query_one("#compare-notes", Static)) == controller.notes()
        # The whole table fits the 100 columns: no column is cut.
        table = screen.query_one("#compare-table", DataTable)
        assert table.virtual_size.width <= table.size.width
