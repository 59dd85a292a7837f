"""The Game screen tells the app about every game: `GameEnded` with a filled `PlayedGame`."""

from __future__ import annotations

from textual.message import Message

from tests.app.conftest import SIZE, game, game_app, marks, press_settled, scores, settle
from tictactoe_tui.engine import Mark
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.ui.messages import GameEnded
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import Scoreboard


class Heard:
    """A message hook that keeps the `GameEnded` messages the app receives."""

    def __init__(self) -> None:
        self.games: list[PlayedGame] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, GameEnded):
            self.games.append(message.game)


async def test_a_finished_game_is_posted_move_by_move_with_what_each_move_cost() -> None:
    heard = Heard()
    app = game_app(opponent="alphabeta", seed=4, difficulty=100)
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("c")  # random from O's next move
        while not isinstance(app.screen, ResultsScreen):
            await pilot.press(str(marks(pilot).index("") + 1))
            await settle(pilot)
        played = game(pilot).game
    assert len(heard.games) == 1
    record = heard.games[0]
    assert (record.mode, record.x, record.o) == ("human-vs-computer", "human", "alphabeta")
    assert (record.size, record.k, record.first, record.difficulty) == (3, 3, Mark.X, 100)
    assert record.started <= record.ended
    assert record.cells == played.moves
    result = played.result
    assert result is not None
    assert record.outcome == ("draw" if result.winner is None else str(result.winner))
    for index, move in enumerate(record.moves):
        assert move.mark is (Mark.X if index % 2 == 0 else Mark.O)
        if move.mark is Mark.X:
            assert not move.by_computer
            assert move.seconds is move.positions is move.clever is None
        else:
            assert move.by_computer and move.seconds is not None and move.seconds >= 0
            # The first reply was clever; after `c`, random (advised by alpha-beta: positions).
            assert move.clever is (index == 1)
            assert move.positions is not None and move.positions > 0
    assert record.switched_to_random == (2,) and record.switched_to_clever == ()
    assert record.settings["opponent"] == "alphabeta" and record.settings["seed"] == 4


async def test_a_new_game_or_quitting_mid_game_posts_it_as_abandoned() -> None:
    heard = Heard()
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        await pilot.press("n")  # nothing played: nothing posted
        await pilot.press("5", "1", "n")
        await pilot.press("9", "q", "y")
        await pilot.pause()
    assert [(g.outcome, g.cells) for g in heard.games] == [
        ("abandoned", (4, 0)),
        ("abandoned", (8,)),
    ]
    assert all(g.x == g.o == "human" for g in heard.games)


async def test_a_game_reopened_by_undo_is_posted_again_when_it_ends() -> None:
    heard = Heard()
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        await pilot.press("1", "4", "2", "5", "3")  # X wins
        await pilot.pause()
        await pilot.press("escape", "u")  # look, then take C1 back
        await pilot.press("7", "3")  # X A3, O C1
        await pilot.press("q", "y")
        await pilot.pause()
    first, second = heard.games
    assert first.outcome == "X" and second.outcome == "abandoned"
    assert first.started == second.started, "the same game, told again"
    assert second.cells == (0, 3, 1, 4, 6, 2)


async def test_a_loss_undone_and_played_on_to_a_draw_is_one_game_in_both_scores() -> None:
    app = game_app(opponent="alphabeta", seed=1, difficulty=100)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "2", "7", "4")  # B1, A3, A2: O takes column C
        assert isinstance(app.screen, ResultsScreen)
        await press_settled(pilot, "escape", "u")  # take back A2 and O's C2
        assert app.store.count() == 0, "the reopened game left the history"
        shown = scores(game(pilot).query_one("#scoreboard", Scoreboard))
        assert shown["session"] == shown["all time"] == {"You": 0, "Computer": 0, "Draws": 0}
        await press_settled(pilot, "6", "1", "8")  # C2, A1, B3: a draw
        assert isinstance(app.screen, ResultsScreen)
        await press_settled(pilot, "escape")
        shown = scores(game(pilot).query_one("#scoreboard", Scoreboard))
        [kept] = app.store.games()
        assert kept.outcome == "draw" and kept.moves == 9
    assert shown["session"] == shown["all time"] == {"You": 0, "Computer": 0, "Draws": 1}
