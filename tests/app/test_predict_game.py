"""Predict mode on the Game screen (issue 35): the computer's move waits for the learner's
answers, each judged in the bar under the board; the search stays hidden meanwhile.

The answers come from the brute force in `tests.test_predict` (not the engine's search)."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.app.conftest import (
    SIZE,
    click_cell,
    game,
    game_app,
    marks,
    panel,
    settle,
    status,
    text,
)
from tests.test_predict import brute_force
from tictactoe_tui.history.predictions import predictions
from tictactoe_tui.ui.screens.game import HIDDEN_SEARCH, PREDICTING_TURN
from tictactoe_tui.ui.screens.results import ResultsScreen

VALUES = brute_force(3, 3)


def bar(pilot: Pilot[None]) -> str:
    return text(game(pilot).query_one("#predict", Static))


def best(pilot: Pilot[None]) -> tuple[list[int], int]:
    """The brute force's best moves and value for the side to move on the game's board."""
    values = VALUES(game(pilot).game.board)  # type: ignore[operator]
    top = max(values.values())
    return [m for m, v in values.items() if v == top], top


async def answer_value(pilot: Pilot[None], words: str) -> None:
    box = game(pilot).query_one("#predict-value", Input)
    assert box.has_focus
    await pilot.press(*words, "enter")
    await settle(pilot)


async def test_the_computer_move_waits_for_both_answers_and_each_is_judged() -> None:
    app = game_app(opponent="alphabeta", seed=2, predict=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await settle(pilot)
        # The computer has chosen, but its move and its search are hidden.
        assert marks(pilot).count("O") == 0
        assert PREDICTING_TURN in status(pilot)
        assert "Predict the computer's move" in bar(pilot)
        assert panel(pilot) == HIDDEN_SEARCH
        await pilot.press("5")  # B2: the only move that keeps the draw
        await settle(pilot)
        assert "Right: B2 is the only move that keeps the draw." in bar(pilot)
        assert marks(pilot).count("O") == 0  # the value question first
        await answer_value(pilot, "draw")
        assert marks(pilot)[4] == "O"
        shown = bar(pilot)
        assert "Right: the position is a draw for O (score 0)." in shown
        assert "Predictions: 2 of 2 right in this game" in shown
        kept = predictions(app.store)
        assert [(p.question, p.right, p.source) for p in kept] == [
            ("move", True, "game"),
            ("value", True, "game"),
        ]


async def test_a_wrong_click_and_a_wrong_value_are_named_with_the_right_answer() -> None:
    app = game_app(opponent="alphabeta", seed=2, predict=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await settle(pilot)
        assert await click_cell(pilot, 8)  # C3: loses
        await settle(pilot)
        assert "Not quite: C3 loses in 6 (score -4); B2 draws." in bar(pilot)
        await answer_value(pilot, "win")
        assert "Not quite: the position is a draw for O (score 0), not a win." in bar(pilot)
        assert marks(pilot)[4] == "O"


async def test_escape_skips_a_question_and_no_answer_asks_again() -> None:
    app = game_app(opponent="alphabeta", seed=2, predict=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("1")  # A1 is taken: the question stays open
        await settle(pilot)
        assert "A1 is taken: predict an empty cell, or skip." in bar(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await answer_value(pilot, "maybe")
        assert bar(pilot).startswith("Answer win, draw or loss")
        await pilot.press("escape")
        await settle(pilot)
        assert marks(pilot).count("O") == 1
        assert bar(pilot).startswith("Skipped.")
        assert predictions(app.store) == []


async def test_a_whole_game_answered_right_is_right_every_time() -> None:
    app = game_app(opponent="alphabeta", seed=5, predict=True)
    async with app.run_test(size=SIZE) as pilot:
        verdicts: list[str] = []
        for _ in range(5):
            await settle(pilot)
            if isinstance(pilot.app.screen, ResultsScreen):
                break
            moves, _ = best(pilot)
            await pilot.press(str(moves[0] + 1))  # our move: one of the brute force's best
            await settle(pilot)
            if game(pilot).round is None:
                break  # the game ended on our move
            moves, value = best(pilot)
            await pilot.press(str(moves[-1] + 1))
            await settle(pilot)
            words = (
                "draw" if value == 0 else f"{'win' if value > 0 else 'loss'} in {10 - abs(value)}"
            )
            await answer_value(pilot, words)
            verdicts += [
                line for line in bar(pilot).splitlines() if line.startswith(("Right", "Not"))
            ]
        assert len(verdicts) == 8 and all(v.startswith("Right") for v in verdicts), verdicts


async def test_f_turns_predict_mode_off_and_on_mid_game() -> None:
    app = game_app(opponent="alphabeta", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        await pilot.press("1")
        await settle(pilot)
        assert game(pilot).round is not None and marks(pilot).count("O") == 0
        await pilot.press("f")  # off: the open questions are skipped, the move is played
        await settle(pilot)
        assert game(pilot).round is None and marks(pilot).count("O") == 1
        free = marks(pilot).index("")
        await pilot.press(str(free + 1))
        await settle(pilot)
        assert marks(pilot).count("O") == 2


async def test_undo_while_asked_drops_the_questions() -> None:
    app = game_app(opponent="alphabeta", seed=2, predict=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await settle(pilot)
        assert game(pilot).round is not None
        await pilot.press("u")
        await settle(pilot)
        assert game(pilot).round is None and marks(pilot) == [""] * 9
        assert not game(pilot).has_class("-predicting")
