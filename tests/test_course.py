"""The course's lessons (issue 37, first part): every lesson loads, every number its text states
is the engine's, and every exercise's right answer is judged right (and a wrong number not)."""

from __future__ import annotations

import pytest

from tictactoe_tui.play.course import check_lesson, expected, judge, load_course

COURSE = load_course()


def test_the_lessons_come_in_the_course_order() -> None:
    titles = [lesson.number for lesson in COURSE.lessons]
    assert titles == sorted(titles) and len(titles) >= 2


@pytest.mark.slow  # each number is computed by the engine: seconds per lesson
@pytest.mark.parametrize("lesson", COURSE.lessons, ids=lambda lesson: lesson.key)
def test_every_exercise_can_be_answered_and_its_answer_is_right(lesson: object) -> None:
    check_lesson(lesson)  # type: ignore[arg-type]
    for exercise in lesson.exercises:  # type: ignore[attr-defined]
        if exercise.kind == "code":
            continue  # graded by matches: the slow tier's business
        verdict = judge(exercise, expected(exercise))
        assert verdict.judged and verdict.right and verdict.line.startswith("Right"), exercise
        if exercise.kind == "number":
            wrong = judge(exercise, str(int(expected(exercise).replace(",", "")) + 1))
            assert wrong.judged and not wrong.right and wrong.line.startswith("Not quite")


@pytest.mark.slow
def test_the_minimax_lesson_states_seed_001s_count_from_the_empty_board() -> None:
    """Seed 001's runtime analysis: full minimax from the empty 3×3 board visits 549,946
    positions; the lesson's text fills the number in from the engine."""
    minimax = COURSE.lessons[1]
    assert "549,946" in minimax.text()
