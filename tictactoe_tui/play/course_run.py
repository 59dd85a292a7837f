"""One lesson of the course, run: the exercises in order, the slips, the stars (issue 37).

The rules, without Textual, shared by `learn --text` and the app's lesson screen:

- The exercises are done in order; a right answer moves on, a wrong one is named (the judge's
  "Not quite" line) and the same exercise is asked again. An answer in the wrong form ("Answer
  with a whole number.") costs nothing.
- A hint costs once per exercise, however often it is read; every wrong answer costs. Showing
  the answer (`reveal`) counts as a mistake and moves on.
- Stars, when the lesson is done: three with no slip (mistake or hint), two with one, one with
  more. A finished lesson always has at least one star.
- A lesson left half done resumes at the exercise reached (`LessonRun.resume`), with the slips
  it had.

`course_list` says, for the list of lessons, each one's stars and whether it is done, and which
lesson comes next (the first not done).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tictactoe_tui.history.lessons import LessonProgress
from tictactoe_tui.play.course import (
    Course,
    Exercise,
    Judgement,
    Lesson,
    answer_format,
    drill_lines,
    expected,
    judge,
)
from tictactoe_tui.text.plain import board_lines

MAX_STARS = 3
"""Stars for a lesson done without a slip."""


def stars_for(mistakes: int, hints: int) -> int:
    """Stars for a finished lesson with these slips: 3 with none, 2 with one, else 1."""
    return max(1, MAX_STARS - mistakes - hints)


def star_text(stars: int) -> str:
    """ "★★☆": stars earned, then the stars still to earn (for the eye; words go beside)."""
    return "★" * stars + "☆" * (MAX_STARS - stars)


def star_words(stars: int) -> str:
    """ "2 of 3 stars" (what a screen reader says)."""
    return f"{stars} of {MAX_STARS} star{'' if MAX_STARS == 1 else 's'}"


def slip_words(mistakes: int, hints: int) -> str:
    """ "1 mistake, no hint"."""
    wrong = "no mistake" if not mistakes else f"{mistakes} mistake{'s' * (mistakes != 1)}"
    asked = "no hint" if not hints else f"{hints} hint{'s' * (hints != 1)}"
    return f"{wrong}, {asked}"


@dataclass
class LessonRun:
    """The state of one lesson being done."""

    lesson: Lesson
    index: int = 0
    """The exercise asked now (len(exercises) once the lesson is done)."""
    mistakes: int = 0
    hints: int = 0
    _hinted: set[int] = field(default_factory=set)

    @classmethod
    def resume(cls, lesson: Lesson, kept: LessonProgress | None) -> LessonRun:
        """The lesson from where `kept` left it (from the start when it was done or never
        begun)."""
        if kept is None or kept.done or not 0 < kept.reached < len(lesson.exercises):
            return cls(lesson)
        return cls(lesson, kept.reached, kept.mistakes, kept.hints)

    @property
    def current(self) -> Exercise | None:
        """The exercise to answer now (None when the lesson is done)."""
        exercises = self.lesson.exercises
        return exercises[self.index] if self.index < len(exercises) else None

    @property
    def done(self) -> bool:
        """True once every exercise is answered."""
        return self.current is None

    @property
    def stars(self) -> int:
        """The stars earned (0 until the lesson is done)."""
        return stars_for(self.mistakes, self.hints) if self.done else 0

    @property
    def position_words(self) -> str:
        """ "Exercise 2 of 5"."""
        total = len(self.lesson.exercises)
        return f"Exercise {min(self.index + 1, total)} of {total}"

    def resumed_words(self) -> str:
        """ "You left this lesson after 2 exercises: it goes on from there." """
        done = self.index
        return (
            f"You left this lesson after {done} exercise{'s' * (done != 1)}: it goes on from there."
        )

    def answer(self, text: str) -> Judgement:
        """Judge `text` as the answer to the current exercise; a right one moves on."""
        exercise = self.current
        if exercise is None:
            return Judgement(False, "The lesson is done.", judged=False)
        judgement = judge(exercise, text)
        if judgement.judged:
            if judgement.right:
                self.index += 1
            else:
                self.mistakes += 1
        return judgement

    def hint(self) -> str:
        """The current exercise's hint (it costs a star once per exercise)."""
        exercise = self.current
        if exercise is None:
            return "The lesson is done: no hint needed."
        if self.index not in self._hinted:
            self._hinted.add(self.index)
            self.hints += 1
        return f"Hint: {exercise.hint}" if exercise.hint else "No hint for this one."

    def reveal(self) -> str:
        """Show the current exercise's answer and move on (it counts as a mistake)."""
        exercise = self.current
        if exercise is None:
            return "The lesson is done."
        self.mistakes += 1
        self.index += 1
        return f"The answer: {expected(exercise)}."

    def progress(self) -> LessonProgress:
        """What the history keeps of this run."""
        return LessonProgress(
            self.lesson.key, self.stars, self.done, self.index, self.mistakes, self.hints
        )

    def result_line(self) -> str:
        """The end of the lesson: "Lesson done: ★★☆, 2 of 3 stars (1 mistake, no hint)."."""
        stars = self.stars
        return (
            f"Lesson done: {star_text(stars)}, {star_words(stars)} "
            f"({slip_words(self.mistakes, self.hints)})."
        )


def question_lines(exercise: Exercise) -> list[str]:
    """An exercise as plain lines: the question, what it is asked about (the board, the drill
    tree, the options), and how to answer."""
    lines = [exercise.prompt]
    board = exercise.board()
    if exercise.kind == "drill":
        tree = exercise.tree()
        lines += ["The tree (leaf values from the root player's side):", *drill_lines(tree)]
    elif board is not None:
        lines += board_lines(board)
    if exercise.kind == "choice":
        lines += [
            f"{letter}) {option}"
            for letter, option in zip("abcdefgh", exercise.options, strict=False)
        ]
    lines.append(f"Answer with {answer_format(exercise)}.")
    return lines


@dataclass(frozen=True)
class ListedLesson:
    """One row of the list of lessons."""

    lesson: Lesson
    stars: int
    done: bool
    reached: int
    """Exercises done in a lesson left half done (0 otherwise)."""

    @property
    def state_words(self) -> str:
        """ "done, 2 of 3 stars", "started: 2 of 6 exercises done" or "not begun"."""
        if self.done:
            return f"done, {star_words(self.stars)}"
        if self.reached:
            return f"started: {self.reached} of {len(self.lesson.exercises)} exercises done"
        return "not begun"

    @property
    def state(self) -> str:
        """ "done", "started" or "new"."""
        if self.done:
            return "done"
        return "started" if self.reached else "new"

    def as_json(self) -> dict[str, object]:
        """The row as `learn --progress --json` prints it."""
        lesson = self.lesson
        return {
            "number": lesson.number,
            "key": lesson.key,
            "title": lesson.title,
            "stars": self.stars,
            "done": self.done,
            "reached": self.reached,
            "exercises": len(lesson.exercises),
        }


def course_list(course: Course, kept: dict[str, LessonProgress]) -> list[ListedLesson]:
    """Every lesson with its progress, in order."""
    rows = []
    for lesson in course.lessons:
        progress = kept.get(lesson.key)
        if progress is None:
            rows.append(ListedLesson(lesson, 0, False, 0))
        else:
            reached = 0 if progress.done else progress.reached
            rows.append(ListedLesson(lesson, progress.stars, progress.done, reached))
    return rows


def next_lesson(rows: list[ListedLesson]) -> ListedLesson | None:
    """The lesson to do next: the first not done (None when every one is)."""
    return next((row for row in rows if not row.done), None)


def lesson_after(rows: list[ListedLesson], lesson: Lesson) -> ListedLesson | None:
    """The lesson to suggest once `lesson` is done: the first later one not done, else the
    first not done anywhere (None when every one is)."""
    later = (row for row in rows if row.lesson.number > lesson.number and not row.done)
    return next(later, None) or next_lesson(rows)
