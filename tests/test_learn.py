"""The course, run (issue 37): a lesson's exercises in order, its slips and stars, the progress in
the history, and `learn --text` / `--progress` / `--reset` through pipes.

Lesson 1's answers are written here by hand (they are the rules of the game: X to move with two
in a row wins, the empty board is a draw, a win on ply 1 scores 9, a loss on the reply -8, O
must block at C1), not asked of the engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tictactoe_tui.history.lessons import (
    LessonProgress,
    keep_progress,
    lesson_progress,
    reset_progress,
)
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.course import load_course
from tictactoe_tui.play.course_run import (
    LessonRun,
    course_list,
    next_lesson,
    question_lines,
    stars_for,
)

RIGHT = ["win", "draw", "9", "-8", "C1", "a"]
"""Lesson 1's answers, in order."""
WRONG = ["loss", "loss", "8", "8", "A3", "b"]
"""A wrong answer to each of lesson 1's exercises."""


def lesson_one() -> LessonRun:
    lesson = load_course().lessons[0]
    assert lesson.key == "value" and len(lesson.exercises) == len(RIGHT)
    return LessonRun(lesson)


def test_right_answers_in_order_earn_three_stars() -> None:
    run = lesson_one()
    for answer in RIGHT:
        judgement = run.answer(answer)
        assert judgement.right and judgement.line.startswith("Right"), (answer, judgement)
    assert run.done and run.stars == 3
    assert run.result_line() == "Lesson done: ★★★, 3 of 3 stars (no mistake, no hint)."
    assert run.progress() == LessonProgress("value", 3, True, 6, 0, 0)


def test_each_wrong_answer_is_named_asked_again_and_costs() -> None:
    run = lesson_one()
    for wrong, right in zip(WRONG, RIGHT, strict=True):
        before = run.index
        judgement = run.answer(wrong)
        assert judgement.judged and not judgement.right
        assert judgement.line.startswith("Not quite"), judgement.line
        assert run.index == before  # the same exercise again
        assert run.answer(right).right
    assert run.done and run.mistakes == 6 and run.stars == 1
    assert run.result_line() == "Lesson done: ★☆☆, 1 of 3 stars (6 mistakes, no hint)."


def test_the_wrong_answers_say_why() -> None:
    run = lesson_one()
    assert run.answer("loss").line == "Not quite: X does not lose with best play here."
    run.answer("win")
    run.answer("draw")
    assert run.answer("8").line == "Not quite: 8 is a win at the wrong distance."
    assert run.answer("-9").line == "Not quite: -9 would be a loss, and it is not."


def test_an_answer_in_the_wrong_form_costs_nothing() -> None:
    run = lesson_one()
    judgement = run.answer("perhaps")
    assert not judgement.judged and judgement.line == (
        "Answer with win, draw or loss, for the side to move."
    )
    assert run.mistakes == 0 and run.index == 0


def test_a_hint_costs_once_per_exercise_and_showing_the_answer_is_a_mistake() -> None:
    run = lesson_one()
    assert run.hint().startswith("Hint: Look for a line")
    run.hint()
    assert run.hints == 1
    assert run.answer("win").right
    assert run.reveal() == "The answer: draw."
    assert run.index == 2 and run.mistakes == 1
    for answer in RIGHT[2:]:
        run.answer(answer)
    assert run.stars == 1


@pytest.mark.parametrize(
    ("mistakes", "hints", "stars"), [(0, 0, 3), (1, 0, 2), (0, 1, 2), (1, 1, 1), (5, 3, 1)]
)
def test_stars_drop_with_each_slip_down_to_one(mistakes: int, hints: int, stars: int) -> None:
    assert stars_for(mistakes, hints) == stars


def test_a_half_done_lesson_resumes_where_it_was_left() -> None:
    lesson = load_course().lessons[0]
    run = LessonRun.resume(lesson, LessonProgress("value", 0, False, 2, 1, 0))
    assert run.index == 2 and run.mistakes == 1 and run.position_words == "Exercise 3 of 6"
    done = LessonRun.resume(lesson, LessonProgress("value", 3, True, 6, 0, 0))
    assert done.index == 0  # a finished lesson starts again from its beginning


def test_a_question_says_its_board_and_how_to_answer() -> None:
    exercise = load_course().lessons[0].exercises[0]
    lines = question_lines(exercise)
    assert lines[0] == exercise.prompt
    assert lines[1:5] == ["   A B C", "1  X X .", "2  O O .", "3  . . ."]
    assert lines[-1] == "Answer with win, draw or loss, for the side to move."


def test_progress_keeps_the_best_stars_and_resets(data_dir: Path) -> None:
    store = HistoryStore.open(data_dir)
    try:
        keep_progress(store, LessonProgress("value", 3, True, 6, 0, 0))
        keep_progress(store, LessonProgress("value", 1, True, 6, 4, 0))
        assert lesson_progress(store)["value"].stars == 3
        keep_progress(store, LessonProgress("minimax", 0, False, 2, 0, 1))
        rows = course_list(load_course(), lesson_progress(store))
        assert [(r.stars, r.state) for r in rows[:2]] == [(3, "done"), (0, "started")]
        coming = next_lesson(rows)
        assert coming is not None and coming.lesson.key == "minimax"
        assert reset_progress(store)
        assert lesson_progress(store) == {}
    finally:
        store.close()


def learn(*args: str, stdin: str = "", data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "learn", *args, "--data-dir", str(data_dir)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_whole_lesson_through_a_pipe_earns_its_stars(tmp_path: Path) -> None:
    out = learn("--text", "--lesson", "1", stdin="\n".join(RIGHT) + "\n", data_dir=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("The course: ") and "Lesson 1 of " in lines[2]
    verdicts = [line for line in lines if line.startswith(("Right", "Not quite"))]
    assert len(verdicts) == 6 and all(v.startswith("Right") for v in verdicts)
    assert "Lesson done: ★★★, 3 of 3 stars (no mistake, no hint)." in lines
    assert lines[-1] == "End of input. Your progress is kept."
    progress = json.loads(learn("--progress", "--json", data_dir=tmp_path).stdout)
    first = progress["lessons"][0]
    assert first["title"] == "The game and its value" and first["stars"] == 3 and first["done"]
    assert progress["next"] == progress["lessons"][1]["key"]


def test_wrong_answers_through_a_pipe_are_named_and_cost_stars(tmp_path: Path) -> None:
    typed = [line for pair in zip(WRONG, RIGHT, strict=True) for line in pair]
    out = learn("--text", "--lesson", "value", stdin="\n".join(typed) + "\n", data_dir=tmp_path)
    lines = out.stdout.splitlines()
    assert sum(line.startswith("Not quite") for line in lines) == 6
    assert "Lesson done: ★☆☆, 1 of 3 stars (6 mistakes, no hint)." in lines


@pytest.mark.slow
def test_a_lesson_left_half_done_resumes_in_the_next_run(tmp_path: Path) -> None:
    learn("--text", stdin="win\ndraw\n", data_dir=tmp_path)
    again = learn("--text", stdin="", data_dir=tmp_path).stdout.splitlines()
    assert "You left this lesson after 2 exercises: it goes on from there." in again
    assert "Exercise 3 of 6." in again
    listed = learn("--progress", data_dir=tmp_path).stdout.splitlines()
    assert "started: 2 of 6 exercises done" in listed[0]


@pytest.mark.slow
def test_next_goes_on_to_the_next_lesson_and_quit_ends(tmp_path: Path) -> None:
    out = learn("--text", stdin="\n".join([*RIGHT, "next", "quit"]) + "\n", data_dir=tmp_path)
    lines = out.stdout.splitlines()
    assert any(line.startswith("Lesson 2 of ") for line in lines)
    assert lines[-1] == "Goodbye. Your progress is kept."


@pytest.mark.slow
def test_reset_asks_first_and_forgets_only_when_told(tmp_path: Path) -> None:
    learn("--text", "--lesson", "1", stdin="\n".join(RIGHT) + "\n", data_dir=tmp_path)
    kept = learn("--reset", stdin="no\n", data_dir=tmp_path)
    assert kept.stdout.splitlines()[-1] == "Nothing was forgotten."
    assert json.loads(learn("--progress", "--json", data_dir=tmp_path).stdout)["lessons"][0]["done"]
    gone = learn("--reset", "--yes", data_dir=tmp_path)
    assert gone.stdout == "Every lesson's progress is forgotten.\n"
    assert not json.loads(learn("--progress", "--json", data_dir=tmp_path).stdout)["lessons"][0][
        "done"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lesson", "99"], "tictactoe-tui learn: --lesson '99' is not a lesson: 1 value, "),
        (["--json"], "tictactoe-tui learn: --json goes with --progress"),
        (["--yes"], "tictactoe-tui learn: --yes goes with --reset"),
    ],
)
def test_a_bad_flag_is_one_line_and_status_2(args: list[str], message: str, tmp_path: Path) -> None:
    out = learn(*args, data_dir=tmp_path)
    assert out.returncode == 2 and out.stderr.startswith(message)
    assert out.stderr.count("\n") == 1
