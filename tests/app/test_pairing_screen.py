"""The pairing view (key `d`): the pairs lettered on the board, played against with the mouse and
the keys; no pairing explained; a line to a pairing stepped along; a way back."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from tests.app.conftest import (
    SIZE,
    click_cell,
    game,
    game_app,
    press_settled,
    run_command,
    settle,
    text,
)
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.proofs.pairing import find_pairing
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.pairing import PairingScreen
from tictactoe_tui.ui.widgets.pairing_board import PairingBoard


def pairing_screen(pilot: Pilot[None]) -> PairingScreen:
    screen = pilot.app.screen
    assert isinstance(screen, PairingScreen)
    return screen


def pairing_board(pilot: Pilot[None]) -> PairingBoard:
    return pilot.app.screen.query_one("#pairing-board", PairingBoard)


def words(pilot: Pilot[None]) -> str:
    """The status and the words beside the board, as the player reads them."""
    screen = pilot.app.screen
    return (
        text(screen.query_one("#pairing-status", Static))
        + "\n"
        + text(screen.query_one("#pairing-words", Static))
    )


def notices(pilot: Pilot[None]) -> list[str]:
    return [notification.message for notification in pilot.app._notifications]


async def test_d_on_a_5x5_game_letters_the_pairs_and_the_defender_answers_a_click() -> None:
    app = game_app(size=5, k=5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        pairing_screen(pilot)
        assert "X cannot win: O has a pairing. 12 pairs cover all 12 lines" in words(pilot)
        board = pairing_board(pilot)
        expected = find_pairing(Position.empty(5, 5))
        assert expected is not None
        # Every paired cell shows its letter, both cells of a pair the same one; A1 has none.
        shown = {cell: board.cell_text(cell) for cell in range(25)}
        assert shown[0] == ""
        for pair in expected.pairs:
            a, b = pair.cells
            assert shown[a] == shown[b] and len(shown[a]) == 1
        # Click a lettered cell: O takes the cell with the same letter at once.
        a, b = expected.pairs[2].cells
        letter = shown[a]
        assert await click_cell(pilot, a, "#pairing-board")
        await pilot.pause()
        assert board.marks[a] == "X" and board.marks[b] == "O"
        assert board.marks.count("X") == board.marks.count("O") == 1
        assert f"O takes the other {letter}" in words(pilot)
        # The taken cells keep their letter, in the corner.
        assert board.cell_text(a).split() == [letter, "X"]


async def test_an_occupied_cell_is_refused_in_one_line_and_nothing_changes() -> None:
    app = game_app(size=5, k=5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        board = pairing_board(pilot)
        # The cursor starts in the centre: Enter plays it.
        await pilot.press("enter")
        await pilot.pause()
        before = board.marks
        assert before[12] == "X"
        assert await click_cell(pilot, 12, "#pairing-board")
        await pilot.pause()
        assert board.marks == before
        assert "C3 is taken: pick an empty cell." in notices(pilot)


async def test_playing_to_the_end_ends_in_a_draw_and_r_plays_again() -> None:
    app = game_app(size=5, k=5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        screen = pairing_screen(pilot)
        board = pairing_board(pilot)
        # The attacker takes the first free cell each time, with the keys alone.
        while screen.phase == "playing":
            cell = board.marks.index("")
            screen.board.cursor = cell
            await pilot.press("space")
            await pilot.pause()
        # Reading order against this pairing fills the board without a line for anyone.
        assert screen.phase == "over" and "" not in board.marks
        assert "A draw: every line X could make holds an O." in words(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert "The game is over: r plays again from the start." in notices(pilot)
        await pilot.press("r")
        await pilot.pause()
        assert set(board.marks) == {""} and screen.phase == "playing"


async def test_3x3_has_no_pairing_and_says_why_and_that_search_proves_the_draw() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        said = words(pilot)
        assert "O has no pairing here." in said
        assert "8 pairs = 16 cells needed, 9 are free — counting rules a pairing out." in said
        assert "The draw here is proven by search, not by a pairing." in said
        # A digit is a move on 3×3, but there is nothing to play against yet.
        await pilot.press("5")
        await pilot.pause()
        assert set(pairing_board(pilot).marks) == {""}
        assert any(
            notice.startswith("There is no pairing here to play against")
            for notice in notices(pilot)
        )


async def test_l_steps_along_the_line_to_a_pairing_then_it_is_played_against() -> None:
    app = game_app(size=4, k=4, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        screen = pairing_screen(pilot)
        assert "After X A1, O D1, O has a pairing (7 pairs)" in words(pilot)
        # The line is numbered on the board.
        assert (
            pairing_board(pilot).cell_text(0).split()[-1] == "#1"
        )  # a step, never read as a score
        await pilot.press("l")
        await pilot.pause()
        assert pairing_board(pilot).marks[0] == "X" and screen.phase == "none"
        await pilot.press("l")
        await pilot.pause()
        assert screen.phase == "playing"
        assert "X cannot win: O has a pairing. 7 pairs cover" in words(pilot)
        assert pairing_board(pilot).marks[:4] == ("X", "", "", "O")


async def test_escape_goes_back_to_the_game() -> None:
    app = game_app(size=5, k=5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        pairing_screen(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, GameScreen)
        assert game(pilot).game.board.move_count == 0


async def test_the_command_palette_opens_it() -> None:
    app = game_app(size=5, k=5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await run_command(pilot, "Why a draw")
        pairing_screen(pilot)


async def test_the_board_has_the_keys_again_after_the_terminal_was_too_small() -> None:
    app = game_app(size=5, k=5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "d")
        await pilot.resize_terminal(20, 5)
        await pilot.pause()
        assert pairing_screen(pilot).has_class("-too-small")
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        board = pairing_board(pilot)
        assert board.has_focus, "hiding the board took its focus for good"
        # The cursor starts in the centre: Enter plays it, and O answers.
        await pilot.press("enter")
        await pilot.pause()
        assert board.marks[12] == "X" and board.marks.count("O") == 1
