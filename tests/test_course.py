"""The course's lessons (issue 37, first part): every lesson loads, every number its text states
is the engine's, and every exercise's right answer is judged right (and a wrong number not).

Slow tier: loading the course computes each number with the engine (seconds per lesson)."""

from __future__ import annotations

import pytest

from tictactoe_tui.play.course import check_lesson, expected, judge, load_course

pytestmark = pytest.mark.slow


def test_every_exercise_can_be_answered_and_its_answer_is_right() -> None:
    course = load_course()
    numbers = [lesson.number for lesson in course.lessons]
    assert numbers == sorted(numbers) and len(numbers) >= 2
    for lesson in course.lessons:
        check_lesson(lesson)
        for exercise in lesson.exercises:
            if exercise.kind == "code":
                continue  # graded by matches against h1
            verdict = judge(exercise, expected(exercise))
            assert verdict.judged and verdict.right, (lesson.key, exercise)
            assert verdict.line.startswith("Right"), (lesson.key, exercise)
            if exercise.kind == "number":
                wrong = judge(exercise, str(int(expected(exercise).replace(",", "")) + 1))
                assert wrong.judged and not wrong.right and wrong.line.startswith("Not quite")


def test_the_minimax_lesson_states_seed_001s_count_from_the_empty_board() -> None:
    """Seed 001's runtime analysis: full minimax from the empty 3×3 board visits 549,946
    positions; the lesson's text fills the number in from the engine."""
    assert "549,946" in load_course().lessons[1].text()
