"""`tictactoe-tui learn`: the course, from the game's value to threat search (issue 37).

    tictactoe-tui learn                      the course in the app: the lessons, their stars
    tictactoe-tui learn --text [--lesson N]  the course as plain lines, on stdin and stdout
    tictactoe-tui learn --progress [--json]  each lesson's stars, whether done, what is next
    tictactoe-tui learn --reset [--yes]      forget the stars (asks first, unless --yes)

The text mode runs the same lessons as the app's screen: the lesson's text, its board as the
text mode draws it, then each exercise as a question with its answer format said; each answer
is judged in one line starting "Right" or "Not quite" (`play.course` judges, from the engine's
proofs), a wrong one asks again. `hint` and `answer` help (each costs a star), `list` shows the
lessons, `quit` ends. After the stars of a lesson, `next` goes on to the next lesson. A lesson
left half done resumes where it was left. The end of the input (or Ctrl+C) ends cleanly, the
progress kept. Engine-only: never imports Textual, except to open the app.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

from tictactoe_tui.cli.text_mode import PROMPT, typed_lines
from tictactoe_tui.history.lessons import (
    LessonProgress,
    keep_progress,
    lesson_progress,
    reset_progress,
)
from tictactoe_tui.history.locations import data_dir_argument
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.play.course import Course, Lesson, LessonError, load_course
from tictactoe_tui.play.course_run import (
    LessonRun,
    ListedLesson,
    course_list,
    lesson_after,
    next_lesson,
    question_lines,
    star_text,
)
from tictactoe_tui.text.plain import board_lines

PROG = "tictactoe-tui learn"

INTERRUPTED = 130
"""The exit status after Ctrl+C."""

WORDS: tuple[tuple[str, str, str], ...] = (
    ("hint", "", "a hint for this exercise (it costs a star, once per exercise)"),
    ("answer", "", "show the answer and go on (it counts as a mistake)"),
    ("again", "", "the lesson's text and this exercise again"),
    ("list", "", "the lessons with their stars"),
    ("next", "", "after a lesson: begin the next one"),
    ("help", "?", "this list"),
    ("quit", "q", "end (your progress is kept)"),
)
"""The words the text course understands besides answers: (word, short form, meaning). No
letter a to h is short for a word: those answer a choice."""

COMMANDS = {alias: word for word, short, _ in WORDS for alias in (word, short) if alias}


def build_parser() -> OneLineParser:
    """The learn command's flags."""
    parser = OneLineParser(
        prog=PROG,
        description="The course: lessons from minimax to threat search, each a screen of text "
        "and a few exercises, every answer checked against the engine's proofs.",
        epilog="Example: tictactoe-tui learn --text --lesson 3",
    )
    parser.add_argument("--text", action="store_true", help="the course as plain lines")
    parser.add_argument(
        "--lesson",
        metavar="N",
        help="begin at this lesson (its number or its key, such as 3 or alphabeta; "
        "default: the first not done)",
    )
    parser.add_argument(
        "--progress", action="store_true", help="print each lesson's stars and what is next"
    )
    parser.add_argument("--json", action="store_true", help="with --progress: as JSON")
    parser.add_argument("--reset", action="store_true", help="forget every lesson's stars")
    parser.add_argument("--yes", action="store_true", help="with --reset: without asking")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        type=data_dir_argument,
        help="where the history is kept (default: $TICTACTOE_TUI_DATA_DIR, "
        "else the user data directory)",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the course, print the progress, or reset it."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    if args.json and not args.progress:
        parser.error("--json goes with --progress")
    if args.yes and not args.reset:
        parser.error("--yes goes with --reset")
    try:
        course = load_course()
    except LessonError as error:
        print(f"{PROG}: a lesson cannot be read: {error}", file=sys.stderr)
        return 1
    first: Lesson | None = None
    if args.lesson is not None:
        first = find_lesson(course, args.lesson)
        if first is None:
            keys = ", ".join(f"{lesson.number} {lesson.key}" for lesson in course.lessons)
            parser.error(f"--lesson {args.lesson!r} is not a lesson: {keys}")
    store = HistoryStore.open(args.data_dir)
    try:
        if store.notice:
            print(f"{PROG}: {store.notice}", file=sys.stderr)
        if args.reset:
            return _reset(store, args.yes)
        if args.progress:
            return _progress(course, store, args.json)
        if not args.text:
            return _app(store, first)
        return TextCourse(course, store, sys.stdout).run(typed_lines(sys.stdin, PROMPT), first)
    finally:
        store.close()


def find_lesson(course: Course, name: str) -> Lesson | None:
    """The lesson `name` names: its number ("3", "03") or its key ("alphabeta")."""
    wanted = name.strip().lower()
    for lesson in course.lessons:
        if wanted == lesson.key or (wanted.isdigit() and int(wanted) == lesson.number):
            return lesson
    return None


def progress_lines(rows: list[ListedLesson]) -> list[str]:
    """The list of lessons: number, title, stars (drawn and in words), state; then the next."""
    width = max(len(row.lesson.title) for row in rows)
    lines = []
    for row in rows:
        lesson = row.lesson
        lines.append(
            f"{lesson.number:>2}. {lesson.title:<{width}}  {star_text(row.stars)}  "
            f"{row.state_words}"
        )
    coming = next_lesson(rows)
    if coming is None:
        lines.append("Every lesson is done.")
    else:
        lines.append(f"Next: lesson {coming.lesson.number}, {coming.lesson.title}.")
    return lines


def _progress(course: Course, store: HistoryStore, as_json: bool) -> int:
    rows = course_list(course, lesson_progress(store))
    if as_json:
        coming = next_lesson(rows)
        print(
            json.dumps(
                {
                    "lessons": [row.as_json() for row in rows],
                    "next": None if coming is None else coming.lesson.key,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print("\n".join(progress_lines(rows)))
    return 0


def _reset(store: HistoryStore, yes: bool) -> int:
    if not yes:
        print("Forget the stars and progress of every lesson? Type yes to confirm:", flush=True)
        answer = sys.stdin.readline().strip().lower()
        if answer not in ("yes", "y"):
            print("Nothing was forgotten.")
            return 0
    if not reset_progress(store):
        print(f"{PROG}: the history cannot be written: nothing was forgotten", file=sys.stderr)
        return 1
    print("Every lesson's progress is forgotten.")
    return 0


def _app(store: HistoryStore, first: Lesson | None) -> int:
    """The course in the app (its lesson list, or `first` straight away)."""
    from tictactoe_tui.ui.app import TicTacToeApp

    app = TicTacToeApp(store=store, course=first.key if first is not None else "")
    app.run()
    return app.return_code or 0


class TextCourse:
    """The course as plain lines: one lesson after another, from `lines`, told on `out`."""

    def __init__(self, course: Course, store: HistoryStore, out: TextIO) -> None:
        self.course = course
        self.store = store
        self.out = out
        self.run_now: LessonRun | None = None

    def run(self, lines: Iterator[str], first: Lesson | None = None) -> int:
        """Teach from `first` (default: the next lesson) until quit or the input ends."""
        try:
            return self._run(lines, first)
        except KeyboardInterrupt:
            self._say("Interrupted. Your progress is kept.")
            return INTERRUPTED
        finally:
            self._keep()

    def _run(self, lines: Iterator[str], first: Lesson | None) -> int:
        kept = lesson_progress(self.store)
        rows = course_list(self.course, kept)
        done = sum(row.done for row in rows)
        self._say(f"The course: {len(rows)} lessons, {done} done. Type help for the words I know.")
        lesson = first
        if lesson is None:
            coming = next_lesson(rows)
            lesson = coming.lesson if coming is not None else self.course.lessons[0]
        self._begin(LessonRun.resume(lesson, kept.get(lesson.key)))
        for raw in lines:
            text = raw.strip()
            if not text:
                continue
            word = COMMANDS.get(text.lower())
            if word == "quit":
                self._say("Goodbye. Your progress is kept.")
                return 0
            if not self._handle(word, text):
                continue
        self._say("End of input. Your progress is kept.")
        return 0

    def _begin(self, run: LessonRun) -> None:
        """Show a lesson's text and board, then its first exercise (or the one resumed)."""
        self.run_now = run
        lesson = run.lesson
        total = len(self.course.lessons)
        self._say("", f"Lesson {lesson.number} of {total}: {lesson.title}.")
        self._say(*self._text_lines(lesson))
        if run.index:
            self._say(run.resumed_words())
        self._ask()

    def _text_lines(self, lesson: Lesson) -> list[str]:
        lines = [*lesson.paragraphs()]
        board = lesson.board()
        if board is not None:
            lines += ["The board:", *board_lines(board)]
        return lines

    def _ask(self) -> None:
        run = self.run_now
        assert run is not None
        exercise = run.current
        if exercise is None:
            return
        self._say("", f"{run.position_words}.", *question_lines(exercise))

    def _handle(self, word: str | None, text: str) -> bool:
        """One line; False when it changed nothing."""
        run = self.run_now
        assert run is not None
        if word == "help":
            self._say(*(f"{w}{f' (or {s})' if s else ''}: {meaning}." for w, s, meaning in WORDS))
            self._say("Anything else is your answer to the exercise.")
            return False
        if word == "list":
            self._say(*progress_lines(course_list(self.course, self._kept_now())))
            return False
        if word == "next":
            return self._next()
        if run.done:
            self._say("The lesson is done: type next for the next lesson, or quit.")
            return False
        if word == "again":
            self._say(*self._text_lines(run.lesson))
            self._ask()
            return False
        if word == "hint":
            self._say(run.hint())
            self._keep()
            return True
        if word == "answer":
            self._say(run.reveal())
        else:
            judgement = run.answer(text)
            self._say(judgement.line)
            if not judgement.judged or not judgement.right:
                self._keep()
                return True
            shown = run.lesson.exercises[run.index - 1].explain
            if shown:
                self._say(shown)
        self._keep()
        if run.done:
            self._finish()
        else:
            self._ask()
        return True

    def _finish(self) -> None:
        run = self.run_now
        assert run is not None
        self._say("", run.result_line())
        rows = course_list(self.course, self._kept_now())
        coming = lesson_after(rows, run.lesson)
        if coming is None:
            self._say("Every lesson is done. Well played: list shows your stars.")
        else:
            self._say(
                f"Next: lesson {coming.lesson.number}, {coming.lesson.title}. "
                "Type next to begin it, or quit."
            )

    def _next(self) -> bool:
        run = self.run_now
        assert run is not None
        if not run.done:
            self._say(
                "Finish this lesson first (answer or skip it with answer), or quit: "
                "--lesson N begins another."
            )
            return False
        rows = course_list(self.course, self._kept_now())
        coming = lesson_after(rows, run.lesson)
        if coming is None:
            self._say("Every lesson is done: list shows your stars.")
            return False
        kept = self._kept_now().get(coming.lesson.key)
        self._begin(LessonRun.resume(coming.lesson, kept))
        return True

    def _kept_now(self) -> dict[str, LessonProgress]:
        return lesson_progress(self.store)

    def _keep(self) -> None:
        run = self.run_now
        if run is not None and (run.index or run.mistakes or run.hints):
            keep_progress(self.store, run.progress())

    def _say(self, *lines: str) -> None:
        """Whole lines at once, straight away."""
        self.out.write("".join(f"{line}\n" for line in lines))
        self.out.flush()
