"""The course's lessons (issue 37): every lesson loads, every number its text states is the
engine's, every exercise's right answer is judged right and a wrong one "Not quite".

Slow tier: loading the course computes each number with the engine (seconds per lesson), and the
code exercise grades a file by matches against h1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tictactoe_tui.engine.rules.board import cell_notation, parse_cell
from tictactoe_tui.play.course import (
    Exercise,
    Lesson,
    check_lesson,
    expected,
    judge,
    load_course,
)
from tictactoe_tui.play.course_run import LessonRun

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my_eval.py"
"""The evaluation the course's code exercise points the learner to."""


def _right_answers(exercise: Exercise) -> list[str]:
    """Every answer `expected` names (a move exercise names its best moves, joined by " or ")."""
    answer = expected(exercise)
    return answer.split(" or ") if exercise.kind == "move" else [answer]


def _wrong_answer(exercise: Exercise) -> str | None:
    """An answer in the right form that is not right, or None when every answer is right."""
    right = expected(exercise)
    kind = exercise.kind
    if kind in ("number", "drill", "heuristic") or (kind == "value" and exercise.ask != "result"):
        return str(int(right.replace(",", "")) + 1)
    if kind == "value":
        return next(word for word in ("win", "draw", "loss") if word != right)
    if kind == "choice":
        return next(letter for letter in "abcdefgh" if letter != right)
    if kind == "move":
        board = exercise.board()
        assert board is not None
        best = {parse_cell(name, board.size) for name in right.split(" or ")}
        others = [m for m in board.legal_moves() if m not in best]
        return cell_notation(others[0], board.size) if others else None
    raise AssertionError(f"no wrong answer for a {kind} exercise")


def _judge_lesson(lesson: Lesson) -> None:
    check_lesson(lesson)
    assert "{" not in lesson.text(), lesson.key
    for exercise in lesson.exercises:
        assert exercise.hint, (lesson.key, exercise.prompt)
        if exercise.kind == "code":
            continue  # graded by matches against h1: see the tests below
        for answer in _right_answers(exercise):
            verdict = judge(exercise, answer)
            assert verdict.judged and verdict.right, (lesson.key, exercise, answer)
            assert verdict.line.startswith("Right"), (lesson.key, exercise, answer)
        wrong = _wrong_answer(exercise)
        if wrong is not None:
            verdict = judge(exercise, wrong)
            assert verdict.judged and not verdict.right, (lesson.key, exercise, wrong)
            assert verdict.line.startswith("Not quite"), (lesson.key, exercise, wrong)


def test_the_course_has_its_nine_lessons_in_order() -> None:
    course = load_course()
    numbers = [lesson.number for lesson in course.lessons]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 9
    keys = [lesson.key for lesson in course.lessons]
    assert keys[:9] == [
        "value",
        "minimax",
        "alphabeta",
        "move_order",
        "memory",
        "heuristics",
        "cutoff",
        "your_eval",
        "threats",
    ]
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("index", range(9))
def test_every_exercise_can_be_answered_and_its_answer_is_right(index: int) -> None:
    """Each lesson in turn: its numbers compute, each right answer is judged right and a wrong
    one "Not quite"."""
    _judge_lesson(load_course().lessons[index])


@pytest.mark.parametrize("index", range(9))
def test_a_lesson_answered_right_earns_three_stars_and_one_slip_each_costs(index: int) -> None:
    """The whole lesson through its run: right answers in order give three stars; one wrong
    answer before each right one is named each time, and the stars drop to one."""
    lesson = load_course().lessons[index]
    answers = [str(EXAMPLE) if e.kind == "code" else _right_answers(e)[0] for e in lesson.exercises]
    perfect = LessonRun(lesson)
    for answer in answers:
        assert perfect.answer(answer).right, (lesson.key, answer)
    assert perfect.done and perfect.stars == 3
    slipping = LessonRun(lesson)
    wrongs = 0
    for exercise, answer in zip(lesson.exercises, answers, strict=True):
        wrong = None if exercise.kind == "code" else _wrong_answer(exercise)
        if wrong is not None:
            verdict = slipping.answer(wrong)
            assert verdict.line.startswith("Not quite"), (lesson.key, wrong)
            wrongs += 1
        assert slipping.answer(answer).right
    assert slipping.mistakes == wrongs and slipping.stars == (
        3 if not wrongs else max(1, 3 - wrongs)
    )


def test_every_lesson_past_the_ninth_can_be_answered_too() -> None:
    for lesson in load_course().lessons[9:]:
        _judge_lesson(lesson)


def test_the_minimax_lesson_states_seed_001s_count_from_the_empty_board() -> None:
    """Seed 001's runtime analysis: full minimax from the empty 3×3 board visits 549,946
    positions; the lesson's text fills the number in from the engine."""
    assert "549,946" in load_course().lessons[1].text()


def test_the_search_lessons_state_the_engines_counts() -> None:
    course = load_course()
    alphabeta = course.by_key("alphabeta")
    memory = course.by_key("memory")
    assert alphabeta is not None and memory is not None
    assert "20,866" in alphabeta.text() and "549,946" in alphabeta.text()
    assert "5,478" in memory.text() and "549,946" in memory.text()
    kinds = {e.kind for lesson in course.lessons for e in lesson.exercises}
    assert kinds == {"value", "move", "number", "drill", "heuristic", "choice", "code"}
    drills = [e for lesson in course.lessons for e in lesson.exercises if e.kind == "drill"]
    assert {"root", "leaves", "best_leaves"} <= {e.ask for e in drills}


def _code_exercise() -> Exercise:
    lesson = load_course().by_key("your_eval")
    assert lesson is not None
    codes = [e for e in lesson.exercises if e.kind == "code"]
    assert len(codes) == 1 and lesson.exercises[-1] is codes[0]
    return codes[0]


def test_the_example_evaluation_passes_the_code_exercise() -> None:
    verdict = judge(_code_exercise(), str(EXAMPLE))
    assert verdict.judged and verdict.right, verdict.line
    assert verdict.line.startswith("Right")


def test_a_file_that_loses_to_h1_does_not(tmp_path: Path) -> None:
    losing = tmp_path / "first_cell.py"
    losing.write_text("def choose(board):\n    return board.legal_moves()[0]\n")
    verdict = judge(_code_exercise(), str(losing))
    assert verdict.judged and not verdict.right
    assert verdict.line.startswith("Not quite")


LEARN = [sys.executable, "-m", "tictactoe_tui", "learn"]


@pytest.mark.parametrize("index", range(9))
def test_every_lesson_through_a_pipe_earns_three_stars(index: int, tmp_path: Path) -> None:
    """`learn --text --lesson N` with the right answers typed: each judged Right, three stars."""
    lesson = load_course().lessons[index]
    answers = [str(EXAMPLE) if e.kind == "code" else _right_answers(e)[0] for e in lesson.exercises]
    out = subprocess.run(
        [*LEARN, "--text", "--lesson", lesson.key, "--data-dir", str(tmp_path)],
        input="\n".join(answers) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    verdicts = [line for line in lines if line.startswith(("Right", "Not quite"))]
    assert len(verdicts) == len(answers) and all(v.startswith("Right") for v in verdicts)
    assert "Lesson done: ★★★, 3 of 3 stars (no mistake, no hint)." in lines
