"""Whole games on the Game screen: by digits, by arrows and Enter, by mouse, between two people,
between two computers, and the Results dialog that ends each of them."""

from __future__ import annotations

import html
import re

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.app.conftest import (
    SIZE,
    board,
    click_cell,
    game,
    game_app,
    marks,
    press_settled,
    scores,
    settle,
    status,
    text,
)
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import Board, EvalPanel, Scoreboard


async def play_to_the_end(pilot: Pilot[None], place) -> None:  # type: ignore[no-untyped-def]
    """Let `place(cell)` play the first empty cell each turn until the Results dialog shows."""
    for _ in range(9):
        await settle(pilot)
        if isinstance(pilot.app.screen, ResultsScreen):
            return
        await place(marks(pilot).index(""))
    await settle(pilot)


async def test_a_whole_game_by_digits_ends_in_the_results_dialog() -> None:
    app = game_app(opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        assert marks(pilot)[4] == "X"
        assert marks(pilot).count("O") == 1
        assert "Your turn (X)" in status(pilot)
        assert "Computer (O) played" in status(pilot)

        async def by_digit(cell: int) -> None:
            await pilot.press(str(cell + 1))

        await play_to_the_end(pilot, by_digit)
        dialog = pilot.app.screen
        assert isinstance(dialog, ResultsScreen)
        # Alpha-beta never loses on 3×3.
        assert text(dialog.query_one("#results-headline", Static)) in ("Draw", "Computer wins")


async def test_a_whole_game_by_arrows_and_enter() -> None:
    app = game_app(opponent="random", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        board = game(pilot).query_one(Board)
        assert board.has_focus
        assert board.cursor == 4

        async def by_arrows(cell: int) -> None:
            row, col = divmod(cell, 3)
            here_row, here_col = divmod(board.cursor, 3)
            keys = (
                ["up"] * (here_row - row)
                + ["down"] * (row - here_row)
                + ["left"] * (here_col - col)
                + ["right"] * (col - here_col)
            )
            await pilot.press(*keys)
            assert board.cursor == cell
            assert board.cell_highlights(cell) >= {"cursor"}
            await pilot.press("enter")

        await play_to_the_end(pilot, by_arrows)
        assert isinstance(pilot.app.screen, ResultsScreen)
        played = [m for m in marks(pilot) if m]
        assert played.count("X") - played.count("O") in (0, 1)
        assert len(game(pilot).game.moves) == len(played) >= 5


async def test_the_cursor_is_drawn_on_its_cell_and_moves_without_a_trace() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        grid = board(pilot)

        def background(cell: int) -> object:
            return grid.get_style_at(*grid.cell_offset(cell)).bgcolor

        assert background(4) != background(3) == background(5)
        await pilot.press("right")
        await pilot.pause()
        assert grid.cursor == 5
        assert background(5) != background(4) == background(3)


async def test_the_cell_under_the_mouse_is_lit_until_the_mouse_leaves() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        grid = board(pilot)
        plain = grid.get_style_at(*grid.cell_offset(2)).bgcolor
        await pilot.hover(grid, offset=grid.cell_offset(0))
        assert grid.cell_highlights(0) == {"hover"}
        assert grid.get_style_at(*grid.cell_offset(0)).bgcolor != plain
        await pilot.hover(grid, offset=grid.cell_offset(2))
        assert grid.cell_highlights(0) == frozenset()
        assert grid.cell_highlights(2) == {"hover"}
        await pilot.hover("#status")
        assert not any("hover" in grid.cell_highlights(cell) for cell in range(9))
        assert grid.get_style_at(*grid.cell_offset(0)).bgcolor == plain


async def test_a_click_on_a_label_or_between_cells_places_nothing() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        grid = board(pilot)
        x, y = grid.cell_offset(0)
        for offset in ((2, y), (x, 1), (x + 4, y), (x, y + 2)):  # "1", "A", the gaps right, under
            assert await pilot.click(grid, offset=offset)
        await pilot.pause()
        assert marks(pilot) == [""] * 9
        assert await click_cell(pilot, 8)
        await pilot.pause()
        assert marks(pilot)[8] == "X"
        assert grid.cursor == 8


async def test_a_whole_game_by_mouse() -> None:
    app = game_app(opponent="h1", seed=2)
    async with app.run_test(size=SIZE) as pilot:

        async def by_click(cell: int) -> None:
            assert await click_cell(pilot, cell)

        await play_to_the_end(pilot, by_click)
        assert isinstance(pilot.app.screen, ResultsScreen)
        assert marks(pilot)[0] == "X"
        # Every move is in the move list, numbered, with its mark and cell name.
        moves = text(game(pilot).query_one("#move-list-body", Static))
        assert "1. X A1" in moves
        assert moves.count(". X ") + moves.count(". O ") == len(game(pilot).game.moves)


async def test_two_people_play_and_the_scoreboard_counts_x_and_o() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        assert "X to move" in status(pilot)
        await pilot.press("1", "4", "2", "5")
        assert "X to move" in status(pilot)
        await pilot.press("3")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ResultsScreen)
        assert text(dialog.query_one("#results-headline", Static)) == "X wins"
        assert "A1 to C1" in text(dialog.query_one("#results-detail", Static))
        # The winning line is lit on the board under the dialog, and only that line.
        lit = [cell for cell in range(9) if "win" in board(pilot).cell_highlights(cell)]
        assert lit == [0, 1, 2]
        assert board(pilot).winning_line == (0, 1, 2)
        dialog_scores = scores(dialog.query_one("#results-scoreboard", Scoreboard))
        assert dialog_scores["session"] == {"X": 1, "O": 0, "Draws": 0}

        await pilot.press("r")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)
        assert marks(pilot) == [""] * 9
        assert not any("win" in board(pilot).cell_highlights(cell) for cell in range(9))
        assert scores(game(pilot).query_one("#scoreboard", Scoreboard))["session"] == {
            "X": 1,
            "O": 0,
            "Draws": 0,
        }

        await pilot.press("1", "4", "2", "5", "9", "6")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ResultsScreen)
        assert text(dialog.query_one("#results-headline", Static)) == "O wins"
        await pilot.press("enter")
        await pilot.pause()
        assert scores(game(pilot).query_one("#scoreboard", Scoreboard))["session"] == {
            "X": 1,
            "O": 1,
            "Draws": 0,
        }


async def test_play_again_keeps_counting_games_against_the_computer() -> None:
    app = game_app(opponent="alphabeta", seed=5)
    async with app.run_test(size=SIZE) as pilot:

        async def by_digit(cell: int) -> None:
            await pilot.press(str(cell + 1))

        for played in (1, 2):
            await play_to_the_end(pilot, by_digit)
            dialog = pilot.app.screen
            assert isinstance(dialog, ResultsScreen)
            session = scores(dialog.query_one("#results-scoreboard", Scoreboard))["session"]
            assert session["You"] == 0
            assert session["Computer"] + session["Draws"] == played
            await pilot.press("r")
            await pilot.pause()
        assert marks(pilot) == [""] * 9
        assert "no moves yet" in text(game(pilot).query_one("#move-list-body", Static))
        assert isinstance(app.screen, GameScreen)
        assert app.session.computer + app.session.draws == 2


@pytest.mark.slow
async def test_results_q_quits_and_s_opens_settings() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "4", "2", "5", "3")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert type(app.screen).__name__ == "SettingsScreen"
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "4", "2", "5", "3")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.slow
async def test_two_computers_play_to_the_end_and_space_pauses() -> None:
    app = game_app(mode="computer-vs-computer", opponent="h2", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        assert "Paused" in status(pilot)
        paused_at = marks(pilot)
        await pilot.pause(1.0)
        assert marks(pilot) == paused_at, "no move is made while paused"
        await pilot.press("space")
        assert "Resumed" in status(pilot)
        await pilot.pause(1.5)
        assert marks(pilot).count("") < paused_at.count("")
        # A person's click is refused while the computers play (paused, so nothing else moves).
        await pilot.press("space")
        await settle(pilot)
        before = marks(pilot)
        assert await click_cell(pilot, before.index(""))
        assert "Two computers are playing" in status(pilot)
        assert marks(pilot) == before
        await pilot.press("space")
        for _ in range(30):
            if isinstance(pilot.app.screen, ResultsScreen):
                break
            await pilot.pause(0.3)
        await settle(pilot)  # the dialog is current a moment before its widgets are mounted
        dialog = pilot.app.screen
        assert isinstance(dialog, ResultsScreen)
        assert text(dialog.query_one("#results-headline", Static)) in ("X wins", "O wins", "Draw")
        panel = game(pilot).query_one(EvalPanel).text
        assert "played" in panel and "H2" in panel


async def test_the_all_time_label_is_read_apart_from_its_first_number() -> None:
    """Read as text (the README's SVG, piece by piece), "all time" once ran into its count."""
    app = game_app(seed=1)
    async with app.run_test(size=(100, 34)) as pilot:
        await press_settled(pilot, "5")
        pieces = [
            html.unescape(piece).replace("\xa0", " ")
            for piece in re.findall(r">([^<>]*)</text>", app.export_screenshot())
        ]
    labels = [piece for piece in pieces if piece.strip() in ("session", "all time")]
    assert labels == ["session  ", "all time "], labels
