"""The course in the app: the list with its stars, a lesson from its text to its stars, and a
lesson left half done resumed (issue 37). Lesson 1's answers are the rules of the game."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from tests.app.conftest import SIZE, text
from tictactoe_tui.history.lessons import lesson_progress
from tictactoe_tui.play.course import Judgement
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.learn import CourseScreen, LessonScreen

RIGHT = ["win", "draw", "9", "-8", "C1", "a"]


async def answer(pilot: Pilot[None], words: str) -> str:
    await pilot.press(*words, "enter")
    await pilot.pause()
    return text(pilot.app.screen.query_one("#verdict", Static))


async def test_a_lesson_from_its_text_to_its_stars() -> None:
    app = TicTacToeApp(course="")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CourseScreen)
        first = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert first.startswith("1. The game and its value  ☆☆☆  not begun  ← next")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)
        assert app.screen.query_one("#answer", Input).has_focus
        assert (await answer(pilot, "loss")).startswith("Not quite")
        for words in RIGHT:
            said = await answer(pilot, words)
            assert said.startswith("Right"), said
        assert "Lesson done: ★★☆, 2 of 3 stars (1 mistake, no hint)." in said
        assert lesson_progress(app.store)["value"].stars == 2
        await pilot.press("escape")
        await pilot.pause()
        listed = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert "★★☆  done, 2 of 3 stars" in listed


async def test_a_half_done_lesson_resumes_and_a_hint_costs() -> None:
    app = TicTacToeApp(course="value")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)
        assert (await answer(pilot, "hint")).startswith("Hint: ")
        await answer(pilot, "win")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        said = text(app.screen.query_one("#verdict", Static))
        assert said == "You left this lesson after 1 exercise: it goes on from there."
        assert "Exercise 2 of 6." in text(app.screen.query_one("#exercise", Static))


@pytest.mark.parametrize("size", [(80, 24), (40, 15)])
async def test_a_3x3_lesson_fits_small_terminals(size: tuple[int, int]) -> None:
    app = TicTacToeApp(course="value")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        box = screen.query_one("#answer", Input)
        # The answer box is on the screen and takes answers; the exercise scrolls into sight.
        assert box.region.bottom <= size[1] and box.region.width >= 10
        for words in RIGHT[:2]:
            assert (await answer(pilot, words)).startswith("Right")
        exercise = screen.query_one("#exercise", Static)
        assert "Exercise 3 of 6." in text(exercise)
        assert exercise.region.height > 0  # in sight


async def test_a_code_answer_is_graded_without_freezing_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    losing = tmp_path / "first.py"
    losing.write_text("def choose(board):\n    return sorted(board.legal_moves())[0]\n")
    app = TicTacToeApp(course="your_eval")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        while screen.run.current is not None and screen.run.current.kind != "code":
            screen.query_one("#reveal").press()
            await pilot.pause()
        # The grading waits on a gate, so the screen is seen while it grades (not raced).
        gate = threading.Event()
        grade = screen.run.answer

        def gated(answer_text: str) -> Judgement:
            gate.wait(60)
            return grade(answer_text)

        monkeypatch.setattr(screen.run, "answer", gated)
        box = screen.query_one("#answer", Input)
        box.value = str(losing)
        await pilot.press("enter")
        assert text(screen.query_one("#verdict", Static)).startswith("Grading your file")
        assert box.disabled
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert text(screen.query_one("#verdict", Static)).startswith("Not quite")
        assert not box.disabled
