"""The course in the app (`tictactoe-tui learn`, or `L` from Settings and the game).

`CourseScreen` lists the lessons with their stars (drawn, and in words beside them), the next one
marked; Enter opens one. `LessonScreen` shows a lesson's text and board, then its exercises one
at a time in the same words as `learn --text` (`play.course_run.question_lines`), with a box for
the answer: Enter judges it ("Right…" / "Not quite…", `play.course.judge`), and the words `hint`
and `answer` (or the buttons) help, each at the cost of a star. A half-done lesson resumes where
it was left; the stars are kept in the history as each answer is given (`history.lessons`).

The rules are `play.course_run.LessonRun`'s; these screens only show and read.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Header, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from tictactoe_tui.history.lessons import keep_progress, lesson_progress, reset_progress
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.course import Course, Judgement, Lesson
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
from tictactoe_tui.ui.widgets.footer import Footer

HELP_WORDS = ("hint", "answer")
"""Words the answer box takes as asking for help rather than as an answer."""


def lesson_row(row: ListedLesson, coming: bool) -> str:
    """One line of the list: "3. Alpha-beta  ★★☆  done, 2 of 3 stars  ← next"."""
    lesson = row.lesson
    mark = "  ← next" if coming else ""
    return f"{lesson.number}. {lesson.title}  {star_text(row.stars)}  {row.state_words}{mark}"


class CourseScreen(Screen[None]):
    """The lessons, their stars, and which is next."""

    DEFAULT_CSS = """
    CourseScreen #course-intro { padding: 0 1; height: auto; }
    CourseScreen #lessons { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("r", "reset", "Reset stars"),
    ]

    def __init__(self, store: HistoryStore, course: Course, open_key: str = "") -> None:
        super().__init__()
        self.store = store
        self.course = course
        self.open_key = open_key
        """A lesson to open straight away (`learn --lesson`), or ""."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="course-intro", markup=False)
        yield OptionList(id="lessons")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_list()
        if self.open_key:
            lesson = next((x for x in self.course.lessons if x.key == self.open_key), None)
            if lesson is not None:
                self.open_lesson(lesson)

    def on_screen_resume(self) -> None:
        """Back from a lesson: its stars show."""
        self.refresh_list()

    def refresh_list(self) -> None:
        """The lessons with their progress, the next one highlighted."""
        rows = course_list(self.course, lesson_progress(self.store))
        coming = next_lesson(rows)
        done = sum(row.done for row in rows)
        stars = sum(row.stars for row in rows)
        self.query_one("#course-intro", Static).update(
            f"The course: {len(rows)} lessons, {done} done, {stars} of {3 * len(rows)} stars. "
            "Enter opens a lesson; a mistake or a hint costs a star."
        )
        listed = self.query_one("#lessons", OptionList)
        listed.clear_options()
        listed.add_options(
            Option(lesson_row(row, row is coming), id=row.lesson.key) for row in rows
        )
        index = rows.index(coming) if coming is not None else 0
        listed.highlighted = index
        listed.focus()

    @on(OptionList.OptionSelected, "#lessons")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        lesson = next(x for x in self.course.lessons if x.key == event.option.id)
        self.open_lesson(lesson)

    def open_lesson(self, lesson: Lesson) -> None:
        """Open `lesson`, resumed where it was left."""
        kept = lesson_progress(self.store).get(lesson.key)
        self.app.push_screen(LessonScreen(self.store, self.course, LessonRun.resume(lesson, kept)))

    def action_back(self) -> None:
        """Leave the course."""
        self.dismiss()

    def action_reset(self) -> None:
        """Forget every lesson's stars, once confirmed."""

        def confirmed(yes: bool | None) -> None:
            if yes:
                if reset_progress(self.store):
                    self.notify(
                        "The progress made in this browser tab is forgotten (the rest was "
                        "made before it, and is kept)."
                        if self.store.only_own
                        else "Every lesson's progress is forgotten."
                    )
                else:
                    self.notify("The history cannot be written: nothing was forgotten.")
                self.refresh_list()

        self.app.push_screen(ResetDialog(), confirmed)


class ResetDialog(ModalScreen[bool]):
    """ "Forget the stars of every lesson?" with Yes and No."""

    DEFAULT_CSS = """
    ResetDialog { align: center middle; }
    ResetDialog > VerticalScroll {
        width: 60; max-width: 100%; height: auto; border: thick $warning; padding: 1 2;
        background: $surface;
    }
    ResetDialog Horizontal { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "no", "No"),
        Binding("y", "yes", "Yes"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("Forget the stars and progress of every lesson? (y / n)")
            with Horizontal():
                yield Button("Yes, forget", id="yes", variant="warning")
                yield Button("No", id="no", variant="primary")

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        """Forget."""
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        """Keep."""
        self.dismiss(False)


class LessonScreen(Screen[None]):
    """One lesson: its text, then its exercises in order, each answer judged."""

    DEFAULT_CSS = """
    LessonScreen #lesson-body { height: 1fr; padding: 0 1; }
    LessonScreen .lesson-text { margin: 0 0 1 0; }
    LessonScreen #exercise { margin: 1 0 0 0; }
    LessonScreen #verdict { height: auto; padding: 0 1; background: $boost; }
    LessonScreen #answer-row { height: auto; }
    LessonScreen #answer { width: 1fr; }
    LessonScreen #answer-row Button { min-width: 8; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Lessons"),
        Binding("ctrl+n", "next_lesson", "Next lesson", show=False),
    ]

    def __init__(self, store: HistoryStore, course: Course, run: LessonRun) -> None:
        super().__init__()
        self.store = store
        self.course = course
        self.run = run

    def compose(self) -> ComposeResult:
        lesson = self.run.lesson
        yield Header()
        with VerticalScroll(id="lesson-body"):
            yield Static(
                f"Lesson {lesson.number} of {len(self.course.lessons)}: {lesson.title}",
                id="lesson-title",
                markup=False,
            )
            for paragraph in lesson.paragraphs():
                yield Static(paragraph, classes="lesson-text", markup=False)
            board = lesson.board()
            if board is not None:
                yield Static("\n".join(board_lines(board)), id="lesson-board", markup=False)
            yield Static("", id="exercise", markup=False)
        yield Static("", id="verdict", markup=False)
        with Horizontal(id="answer-row"):
            yield Input(placeholder="your answer, then Enter (or: hint, answer)", id="answer")
            yield Button("Hint", id="hint")
            yield Button("Answer", id="reveal")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.run.lesson.title
        said = [self.run.resumed_words()] if self.run.index else []
        self._show_exercise(said, scroll=False)
        box = self.query_one("#answer", Input)
        # A steady cursor: the box is where the eye rests, and a blink would read as a change.
        box.cursor_blink = False
        box.focus()

    def _show_exercise(self, said: list[str], scroll: bool = True) -> None:
        """The exercise asked now (or the stars at the end), with what was just said; the
        text scrolls to it after an answer (on opening, the lesson is read from its top)."""
        run = self.run
        exercise = run.current
        box = self.query_one("#exercise", Static)
        if exercise is None:
            box.update("")
            rows = course_list(self.course, lesson_progress(self.store))
            coming = lesson_after(rows, run.lesson)
            after = (
                f"Next: lesson {coming.lesson.number}, {coming.lesson.title} (ctrl+n), or "
                "Escape for the list."
                if coming is not None
                else "Every lesson is done: Escape shows your stars."
            )
            self._say([*said, run.result_line(), after])
            self.query_one("#answer-row").display = False
            return
        box.update("\n".join([f"{run.position_words}.", *question_lines(exercise)]))
        self._say(said)
        if scroll:
            self.query_one("#lesson-body", VerticalScroll).scroll_end(animate=False)

    def _say(self, lines: list[str]) -> None:
        verdict = self.query_one("#verdict", Static)
        verdict.update("\n".join(lines))
        verdict.display = bool(lines)

    @on(Input.Submitted, "#answer")
    def _answered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        box = self.query_one("#answer", Input)
        if not text:
            return
        if text.lower() == "hint":
            self._hint()
        elif text.lower() == "answer":
            self._reveal()
        else:
            box.value = ""
            exercise = self.run.current
            if exercise is not None and exercise.kind == "code":
                # Grading plays games against h1 (seconds): off the screen's own thread.
                box.disabled = True
                self._say(["Grading your file: it plays h1 as X and as O…"])
                self.run_worker(lambda: self.run.answer(text), thread=True, group="grade")
                return
            self._judged(self.run.answer(text))
            return
        box.value = ""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The graded file's verdict."""
        if event.worker.group != "grade" or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            return
        box = self.query_one("#answer", Input)
        box.disabled = False
        box.focus()
        if event.state is WorkerState.SUCCESS and isinstance(event.worker.result, Judgement):
            self._judged(event.worker.result)
        else:
            self._say([f"Not quite: the file could not be graded ({event.worker.error})."])

    def _judged(self, judgement: Judgement) -> None:
        """Show a verdict; a right answer moves on to the next exercise."""
        self._keep()
        if judgement.judged and judgement.right:
            shown = self.run.lesson.exercises[self.run.index - 1].explain
            self._show_exercise([judgement.line, *([shown] if shown else [])])
        else:
            self._say([judgement.line])

    @on(Button.Pressed, "#hint")
    def _hint(self) -> None:
        self._say([self.run.hint()])
        self._keep()
        self.query_one("#answer", Input).focus()

    @on(Button.Pressed, "#reveal")
    def _reveal(self) -> None:
        line = self.run.reveal()
        self._keep()
        self._show_exercise([line])
        self.query_one("#answer", Input).focus()

    def _keep(self) -> None:
        run = self.run
        if run.index or run.mistakes or run.hints:
            keep_progress(self.store, run.progress())

    def action_back(self) -> None:
        """Back to the list (the progress is kept)."""
        self.dismiss()

    def action_next_lesson(self) -> None:
        """After the stars: the next lesson."""
        if not self.run.done:
            return
        rows = course_list(self.course, lesson_progress(self.store))
        coming = lesson_after(rows, self.run.lesson)
        if coming is None:
            return
        kept = lesson_progress(self.store).get(coming.lesson.key)
        self.app.switch_screen(
            LessonScreen(self.store, self.course, LessonRun.resume(coming.lesson, kept))
        )
