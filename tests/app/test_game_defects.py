"""The Game screen's defects found by a newcomer and a fault hunt, each pinned here by a
test that failed before its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

import tictactoe_tui.play.controller as game_module
from tests.app.conftest import (
    SIZE,
    Gate,
    game,
    game_app,
    marks,
    panel,
    settle,
    status,
    text,
    wait_until,
)
from tests.app.stand_ins import BrokenPlayer, DyingPlayer
from tictactoe_tui.engine import Player
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.footer import Footer


def footer_keys(pilot: Any) -> list[str]:
    """The keys the game screen's footer shows."""
    return [key.key for key in game(pilot).query("FooterKey")]


async def test_a_minimax_hint_on_4x4_arrives_within_the_time_budget() -> None:
    # Defect 6: the hint ran unbounded minimax on 4×4 and never arrived.
    app = game_app(opponent="minimax", size=4, time_limit=0.5, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert panel(pilot).startswith("Hint for X")
        assert "minimax:" in panel(pilot)


async def test_two_people_can_play_on_after_undoing_a_finished_game() -> None:
    # Defect 7: after the end, settings and back, undo: Enter placed no mark and the next
    # result was not counted.
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "4", "2", "5", "3")  # X wins on the top row
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert game(pilot) is app.screen
        assert app.session.x_wins == 1
        await pilot.press("u")  # takes back X's C1: play goes on
        assert app.session.x_wins == 0, "the reopened game no longer counts as won"
        board = game(pilot).query_one(Board)
        board.cursor = 6
        await pilot.press("enter")  # X at A3 this time
        assert marks(pilot)[6] == "X"
        while not isinstance(app.screen, ResultsScreen):
            await pilot.press(str(marks(pilot).index("") + 1))
            await pilot.pause()
        assert app.session.x_wins + app.session.o_wins + app.session.mark_draws == 1


async def test_a_failed_search_says_so_and_the_computer_still_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Defect 9: after a failed search the status said "Your turn (O)" with O the computer.
    monkeypatch.setattr(
        game_module,
        "make_player",
        lambda name, *args, **kwargs: (
            BrokenPlayer() if name != "random" else make_random(name, *args, **kwargs)
        ),
    )
    app = game_app(opponent="alphabeta", mark="O", first="computer", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = status(pilot)
        assert "The search failed (RuntimeError: the search went wrong)" in shown
        assert "played a random move instead" in shown
        assert marks(pilot).count("X") == 1, "the computer (X) moved anyway"
        assert "Your turn (O)" in shown


def make_random(name: str, *args: Any, **kwargs: Any) -> Player:
    """The real random player (the stand-ins break every other one)."""
    from tictactoe_tui.engine import make_player

    return make_player(name, *args, **kwargs)


async def test_a_worker_that_dies_mid_search_is_one_line_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def dying_once(name: str, *args: Any, **kwargs: Any) -> Player:
        return DyingPlayer(make_random(name, *args, **kwargs), tmp_path / "died")

    monkeypatch.setattr(game_module, "make_player", dying_once)
    app = game_app(opponent="alphabeta", size=4, time_limit=0.3, seed=1, first="computer")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "the search process stopped unexpectedly (exit status 9)" in status(pilot)
        assert sum(m != "" for m in marks(pilot)) == 1, "the computer moved anyway"
        # The next search runs in a fresh worker.
        await pilot.press("enter")
        await settle(pilot)
        assert sum(m != "" for m in marks(pilot)) == 3
        assert "Your turn" in status(pilot)
        assert app.thinker.restarts == 1


async def test_a_hidden_board_takes_no_moves() -> None:
    # Defect 10: at 20×5 ("Enlarge the terminal") digits still played moves.
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.pause()
        assert game(pilot).has_class("-too-small")
        await pilot.press("5", "enter", "space")
        assert game(pilot).game.moves == ()


async def test_the_board_has_the_keys_again_after_the_terminal_was_too_small() -> None:
    # Defect 11: after "terminal too small" and back, arrows and Enter did nothing.
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.resize_terminal(20, 5)
        await pilot.pause()
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert game(pilot).query_one(Board).has_focus
        await pilot.press("up", "enter")
        assert marks(pilot)[1] == "X"


async def test_c_against_the_random_opponent_switches_to_alpha_beta_and_back() -> None:
    # Defect 12: "now plays clever" was said, and the computer stayed random.
    app = game_app(opponent="random", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        header = status(pilot).splitlines()[0]
        assert "random; c: alpha-beta" in header
        await pilot.press("c")
        assert "alpha-beta for now" in status(pilot).splitlines()[0]
        assert "now plays alpha-beta" in status(pilot)
        await pilot.press("5")
        await settle(pilot)
        assert "A clever move: alpha-beta" in panel(pilot)
        await pilot.press("c")
        assert "random; c: alpha-beta" in status(pilot).splitlines()[0]
        await pilot.press(str(marks(pilot).index("") + 1))
        await settle(pilot)
        assert "at random" in panel(pilot)


async def test_two_people_hear_nothing_about_a_computer() -> None:
    # Defect 15: the panel talked about the computer's moves and the footer offered `c`.
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "computer" not in panel(pilot).lower()
        assert "c" not in footer_keys(pilot)
        assert "computer" not in status(pilot).lower()


async def test_escape_closes_the_results_to_look_at_the_final_position() -> None:
    # Defect 18: the results dialog could not be dismissed to look at the board and panel.
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        for key in ("1", "2", "4"):  # O wins on the diagonal at A3
            await pilot.press(key)
            await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game(pilot)
        assert "Game over: Computer wins — n: new game · s: settings" in status(pilot)
        assert "played A3" in panel(pilot)
        await pilot.press("5")
        assert "The game is over" in status(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert marks(pilot) == [""] * 9


async def test_space_pauses_two_computers_even_mid_search(gate: Gate) -> None:
    # Defect 20: space while a computer thought gave no acknowledgement.
    app = game_app(mode="computer-vs-computer", opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: game(pilot).thinking == "computer")
        await pilot.press("space")
        assert "Paused: space resumes" in status(pilot)
        assert game(pilot).thinking is None
        gate.set()
        await pilot.pause(1.0)
        assert marks(pilot) == [""] * 9, "the stopped search played nothing"


async def test_the_enlarge_message_promises_no_smaller_board_than_3x3() -> None:
    # The notice once said "s opens settings for a smaller board" on 3×3, which has none.
    app = game_app(size=3)
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        message = text(game(pilot).query_one("#too-small", Static))
        assert "Enlarge the terminal" in message
        assert "(s opens the settings; q quits.)" in message
        assert "smaller" not in message


async def test_q_in_the_middle_of_a_game_asks_once() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "q")
        assert app.is_running
        assert "q again or y quits" in status(pilot)
        await pilot.press("1")  # any other key goes on
        assert marks(pilot)[0] == "O"
        await pilot.press("q", "q")
        await pilot.pause()
        assert not app.is_running
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "q", "y")
        await pilot.pause()
        assert not app.is_running


async def test_y_opens_the_history_unless_a_quit_waits_for_it() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert type(app.screen).__name__ == "HistoryScreen"


async def test_dialogs_leave_no_dead_footer_keys_behind() -> None:
    # Defect 8: Textual 8.2.8's Footer kept every key widget of every dialog open/close.
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        footer = game(pilot).query_one(Footer)
        for _ in range(5):
            await pilot.press("question_mark")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        await pilot.pause(0.2)
        watched = [node for node, _ in getattr(footer, "__watchers", {}).get("compact", [])]
        alive = list(footer.query("FooterKey"))
        assert watched and all(node in alive for node in watched)
