"""Any game step by step: earlier positions of the live game, a paused computers' game
analysed, and every game of the match runner in the review."""

from __future__ import annotations

from textual.widgets import Static

from tests.app.conftest import SIZE, game_app, settle, text
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.ui.screens.analysis import AnalysisScreen
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.review import ReviewScreen
from tictactoe_tui.ui.widgets import Board, EvalPanel


async def test_stepping_back_through_a_live_game_and_returning_to_it() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5", "1", "9")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        board = game.query_one("#board", Board)
        await pilot.press("comma")
        await settle(pilot)
        assert board.marks == Position.from_string("O../.X./...").marks()
        assert board.last_move == 0
        status = text(game.query_one("#status", Static))
        assert "Looking back at move 2 of 3" in status
        assert game.query_one(EvalPanel).text.startswith("After move 2: X to move, best ")
        await pilot.press("e")  # the shown position, analysed
        await settle(pilot)
        assert isinstance(app.screen, AnalysisScreen)
        assert app.screen.position_text == "O../.X./..."
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game and game.controller.viewing == 2
        await pilot.press("3")  # a move: back to the game, played
        await settle(pilot)
        assert game.controller.viewing is None and game.game.moves == (4, 0, 8, 2)
        assert board.marks == Position.from_string("O.O/.X./..X").marks()


async def test_stepping_past_the_last_move_returns_to_the_game() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("comma", "full_stop")
        await settle(pilot)
        assert game.controller.viewing is None
        assert "Back to the game." in text(game.query_one("#status", Static))


async def test_a_paused_computers_game_shows_the_position_analysed_and_h_works() -> None:
    app = game_app(mode="computer-vs-computer", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        game = app.screen
        assert isinstance(game, GameScreen)
        while len(game.game.moves) < 2:
            await pilot.pause(0.1)
        await pilot.press("space")
        await settle(pilot)
        to_move = game.game.board.to_move
        assert game.query_one(EvalPanel).text.startswith(f"Hint for {to_move}: ")
        await pilot.press("h")
        await settle(pilot)
        assert game.query_one(EvalPanel).text.startswith(f"Hint for {to_move}: ")
        moves = game.game.moves
        await pilot.pause(1.0)
        assert game.game.moves == moves  # still paused


async def test_every_game_of_the_match_runner_opens_in_the_review() -> None:
    async with game_app(seed=2).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        await pilot.press("g")
        assert "No games yet" in text(pilot.app.screen.query_one("#match-status", Static))
        await pilot.press("r")
        await settle(pilot)
        match = pilot.app.screen
        result = match.result  # type: ignore[attr-defined]
        await pilot.press("g")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == "MatchGamesScreen"
        await pilot.press("down", "enter")
        await settle(pilot)
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen)
        assert review.game.cells == result.outcomes[1].moves
        assert review.review.positions[-1] == result.outcomes[1].final
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert pilot.app.screen is match
