"""The cards screen, driven as a learner would: opened with `c` from a review and from the
puzzles, a card answered right (a digit), one wrong (a click), one with the arrows and Enter,
then nothing due, and what the history keeps."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from tests.app.conftest import SIZE, settle, text
from tests.app.test_history_app import review_of
from tests.app.test_puzzle_screen import open_puzzles
from tests.test_review import played_game
from tictactoe_tui.history.cards import all_cards
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.cards import CardsScreen
from tictactoe_tui.ui.screens.review import ReviewScreen
from tictactoe_tui.ui.widgets import Board


def shown(pilot: Pilot[None], part: str) -> str:
    """The words of `#cards-status` or `#cards-words`, on one line."""
    return " ".join(text(pilot.app.screen.query_one(part, Static)).split())


async def open_cards(pilot: Pilot[None]) -> CardsScreen:
    await pilot.press("c")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CardsScreen)
    return screen


async def test_a_reviews_mistakes_come_back_as_cards_right_wrong_then_nothing_due() -> None:
    # X B2, O B1??, X A1, O C1?!, X B3? (C3 won at once), O C3: between two people.
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await review_of(pilot)
        screen = await open_cards(pilot)
        status = shown(pilot, "#cards-status")
        assert "Find a better move than B1 (marked ??): O to move." in status
        # The question is asked before any answer is shown: nothing ticked, no verdict.
        board = screen.query_one("#cards-board", Board)
        assert board.marks == ("", "", "", "", "X", "", "", "", "")
        assert shown(pilot, "#cards-words") == ""
        await pilot.press("1")  # A1: a corner keeps the draw
        await settle(pilot)
        assert shown(pilot, "#cards-words") == (
            "Right: A1 draws, as do C1, A3 and C3. It comes back in 1 day."
        )
        await pilot.press("n")
        await settle(pilot)
        assert "Find a better move than C1 (marked ?!): O to move." in shown(pilot, "#cards-status")
        board = screen.query_one("#cards-board", Board)
        assert await pilot.click("#cards-board", offset=board.cell_offset(3))  # A2
        await settle(pilot)
        assert shown(pilot, "#cards-words").startswith(
            "Not quite: A2 loses in 2 (score -8); C3 loses in 4. It comes back in 1 day."
        )
        await pilot.press("enter")
        await settle(pilot)
        assert "Find a better move than B3 (marked ?): X to move." in shown(pilot, "#cards-status")
        # B2 is taken: the cursor starts on the cell the mistake was played on, B3.
        assert screen.query_one("#cards-board", Board).cursor == 7
        await pilot.press("right", "enter")  # C3
        await settle(pilot)
        assert shown(pilot, "#cards-words").startswith("Right: C3 is the only move that wins")
        await pilot.press("n")
        await settle(pilot)
        status = shown(pilot, "#cards-status")
        assert "Nothing is due now. The next card is due in 1 day" in status
        assert "2 of 3 right" in shown(pilot, "#cards-standing")
        kept = all_cards(app.store)
        assert [(c.step, c.right, c.missed) for c in kept] == [(1, 1, 0), (1, 0, 1), (1, 1, 0)]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ReviewScreen)


async def test_the_puzzles_open_the_cards_and_say_when_there_are_none() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_puzzles(pilot)
        await open_cards(pilot)
        assert "No cards yet" in shown(pilot, "#cards-status")
        await pilot.press("1", "n")  # no card: nothing to answer, nothing to go on to
        await pilot.press("c")  # no second cards screen
        await settle(pilot)
        assert len([s for s in pilot.app.screen_stack if isinstance(s, CardsScreen)]) == 1
        await pilot.press("escape")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == "PuzzleScreen"


async def test_a_terminal_too_small_for_the_board_asks_for_room_and_takes_no_answer() -> None:
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await review_of(pilot)
        screen = await open_cards(pilot)
        await pilot.resize_terminal(40, 15)
        await settle(pilot)
        notice = text(screen.query_one("#cards-too-small", Static))
        assert "Enlarge the terminal: a 3×3 card needs at least" in notice
        await pilot.press("1")
        await settle(pilot)
        assert screen.session.answer is None
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert screen.session.answer is not None and screen.session.answer.right
