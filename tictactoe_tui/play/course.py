"""The course (`tictactoe-tui learn`): its lessons read from data, each exercise with its judge.

A lesson is one TOML file in `tictactoe_tui/lessons/` (see docs/learn.md for the format): a
title, a screen of text, an optional board, named numbers, and three to six exercises. Files
are read with `tomllib` through `importlib.resources`, in the order of their names
(`01_value.toml`, `02_minimax.toml`, …); the name without its number is the lesson's key in
the history.

No number in a lesson's text is written by hand: the text says `{minimax_nodes_empty}` and the
lesson's `[numbers]` table says what the engine computes for it (`Quantity`), once, when the
text is first shown. Every exercise's answer is computed the same way (`expected`), never
written in the file, except a `choice`'s right option, which a test checks against the engine.

Exercise kinds, each with a pure judge (`judge` returns a `Judgement`):

- `value`: the result (win, draw or loss for the side to move) or the depth-aware score of a
  position, proven by `analyse_position`;
- `move`: find the move: any move the engine proves as good as the best counts;
- `number`: a count the engine computes (a `Quantity`: positions a lab search visits, its
  cut-offs, the first-move cut-off rate, the reachable positions, …);
- `drill`: alpha-beta by hand on a drill tree cut from the position (`engine.lab.drill_tree`):
  the root's value, one node's value, or the leaves visited (in the tree's order or the best);
- `heuristic`: H1 or H2 of a position for a player, by hand;
- `choice`: one of a few options, the right one fixed in the file;
- `code`: a path to the learner's file, graded by `grade`'s rules: it must keep the contract and
  win more games than it loses against h1.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from tictactoe_tui.engine.evaluation.heuristics import h1, h2
from tictactoe_tui.engine.lab.drill_tree import (
    DrillShape,
    DrillTree,
    LeafValues,
    MoveOrder,
    cut_tree,
)
from tictactoe_tui.engine.lab.grade import every_position, grade
from tictactoe_tui.engine.lab.hand_search import best_order, solve
from tictactoe_tui.engine.lab.trace import trace_search
from tictactoe_tui.engine.players.guest import check_guest_path
from tictactoe_tui.engine.rules.board import Board, IllegalMove, Mark, cell_notation, parse_cell
from tictactoe_tui.engine.search.api import analyse_position
from tictactoe_tui.engine.search.types import MoveScore
from tictactoe_tui.text.drill import labels
from tictactoe_tui.text.scores import score_meaning

__all__ = [
    "KINDS",
    "Course",
    "Exercise",
    "Judgement",
    "Lesson",
    "Quantity",
    "answer_format",
    "drill_lines",
    "expected",
    "judge",
    "load_course",
]

KINDS = ("value", "move", "number", "drill", "heuristic", "choice", "code")
"""The exercise kinds a lesson may use."""

QUANTITIES = ("positions", "cutoffs", "first_cut_percent", "reachable", "score", "h1", "h2")
"""What a `Quantity` may count or compute."""

CODE_GAMES = 5
"""Games with each colour against each opponent when a learner's file is graded in the course."""

_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


class LessonError(ValueError):
    """A lesson file that cannot be used, with the file and the reason."""


@dataclass(frozen=True)
class Quantity:
    """A number the engine computes for a lesson: what, by which algorithm, from which position."""

    of: str
    position: str = "........."
    k: int | None = None
    algorithm: str = "minimax"
    depth: int | None = None
    player: str = "X"

    def board(self) -> Board:
        """The position the quantity is computed on."""
        return Board.from_string(self.position, k=self.k)

    def value(self) -> int:
        """The number (computed once per process)."""
        return _quantity_value(self)


@cache
def _quantity_value(q: Quantity) -> int:
    board = q.board()
    if q.of in ("positions", "cutoffs", "first_cut_percent"):
        result = trace_search(board, q.algorithm, depth=q.depth)
        if q.of == "positions":
            return result.positions
        if q.of == "cutoffs":
            return result.cutoffs
        share = result.first_cut_share
        return round(100 * share) if share is not None else 0
    if q.of == "reachable":
        return len(every_position(board.size, board.k))
    if q.of == "score":
        return _proven_best(board).score
    mark = Mark(q.player)
    return h1(board, mark) if q.of == "h1" else h2(board, mark)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson, as the file gives it."""

    kind: str
    prompt: str
    hint: str = ""
    position: str | None = None
    k: int | None = None
    ask: str = ""
    """value: "result" or "score"; drill: "root", a node's label ("B2"), "leaves" or
    "best_leaves"."""
    quantity: Quantity | None = None
    options: tuple[str, ...] = ()
    right: int = 0
    """choice: the index of the right option."""
    player: str = "X"
    heuristic: str = "h1"
    drill: DrillShape = field(default_factory=DrillShape)
    explain: str = ""
    """Said after a right answer (optional)."""

    def board(self) -> Board | None:
        """The exercise's position, if it has one."""
        return None if self.position is None else Board.from_string(self.position, k=self.k)

    def tree(self) -> DrillTree:
        """A drill exercise's tree."""
        board = self.board()
        assert board is not None
        return _tree(board, self.drill)


@cache
def _tree(board: Board, shape: DrillShape) -> DrillTree:
    return cut_tree(board, shape)


@dataclass(frozen=True)
class Lesson:
    """One lesson: its key, title, text (with placeholders), board, numbers and exercises."""

    key: str
    number: int
    title: str
    raw_text: str
    exercises: tuple[Exercise, ...]
    numbers: Mapping[str, Quantity] = field(default_factory=dict)
    board_position: str | None = None
    k: int | None = None
    summary: str = ""

    @property
    def size(self) -> int:
        """The largest board the lesson shows (3 for a 3×3 lesson)."""
        boards = [e.board() for e in self.exercises] + [self.board()]
        return max((b.size for b in boards if b is not None), default=3)

    def board(self) -> Board | None:
        """The board shown with the text, if any."""
        if self.board_position is None:
            return None
        return Board.from_string(self.board_position, k=self.k)

    def text(self) -> str:
        """The lesson's text with every number filled in by the engine."""
        return _PLACEHOLDER.sub(lambda m: f"{self.numbers[m.group(1)].value():,}", self.raw_text)

    def paragraphs(self) -> list[str]:
        """The text as paragraphs (blank lines apart), each on one line."""
        return [" ".join(part.split()) for part in self.text().split("\n\n") if part.strip()]


@dataclass(frozen=True)
class Course:
    """Every lesson, in order."""

    lessons: tuple[Lesson, ...]

    def by_key(self, key: str) -> Lesson | None:
        """The lesson with this key, if any."""
        return next((lesson for lesson in self.lessons if lesson.key == key), None)


# -- reading ------------------------------------------------------------------------------------


def _quantity(data: Any, where: str) -> Quantity:
    if not isinstance(data, dict):
        raise LessonError(f'{where}: a number must be a table such as {{ of = "positions" }}')
    unknown = set(data) - {"of", "position", "k", "algorithm", "depth", "player"}
    if unknown:
        raise LessonError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    q = Quantity(**data)
    if q.of not in QUANTITIES:
        raise LessonError(f"{where}: 'of' must be one of {', '.join(QUANTITIES)}, not {q.of!r}")
    return q


def _exercise(data: Any, where: str) -> Exercise:
    if not isinstance(data, dict):
        raise LessonError(f"{where}: an exercise must be a table")
    data = dict(data)
    kind = data.get("kind")
    if kind not in KINDS:
        raise LessonError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    if "prompt" not in data:
        raise LessonError(f"{where}: an exercise needs a 'prompt'")
    if "quantity" in data:
        data["quantity"] = _quantity(data["quantity"], f"{where} quantity")
    if "options" in data:
        data["options"] = tuple(data["options"])
    if "drill" in data:
        shape = dict(data["drill"])
        data["drill"] = DrillShape(
            depth=shape.get("depth", 2),
            width=shape.get("width", 2),
            order=MoveOrder(shape.get("order", "engine")),
            leaves=LeafValues(shape.get("leaves", "h1")),
        )
    try:
        return Exercise(**data)
    except TypeError as error:
        raise LessonError(f"{where}: {error}") from None


def read_lesson(name: str, text: str) -> Lesson:
    """A lesson from its file name ("01_value.toml") and its TOML text."""
    stem = name.removesuffix(".toml")
    number_text, _, key = stem.partition("_")
    if not number_text.isdigit() or not key:
        raise LessonError(f"{name}: a lesson file is named NN_key.toml")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{name}: {error}") from None
    numbers = {
        label: _quantity(spec, f"{name} numbers.{label}")
        for label, spec in data.get("numbers", {}).items()
    }
    exercises = tuple(
        _exercise(spec, f"{name} exercise {index}")
        for index, spec in enumerate(data.get("exercise", []), start=1)
    )
    for field_name in ("title", "text"):
        if field_name not in data:
            raise LessonError(f"{name}: a lesson needs a '{field_name}'")
    missing = [m for m in _PLACEHOLDER.findall(data["text"]) if m not in numbers]
    if missing:
        raise LessonError(f"{name}: the text names {', '.join(missing)}, missing from [numbers]")
    return Lesson(
        key=key,
        number=int(number_text),
        title=data["title"],
        raw_text=data["text"],
        exercises=exercises,
        numbers=numbers,
        board_position=data.get("board"),
        k=data.get("k"),
        summary=data.get("summary", ""),
    )


@cache
def load_course() -> Course:
    """The course shipped in `tictactoe_tui/lessons`, in the order of the files' names."""
    folder = resources.files("tictactoe_tui.lessons")
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".toml")),
        key=lambda entry: entry.name,
    )
    return Course(tuple(read_lesson(entry.name, entry.read_text("utf-8")) for entry in files))


# -- answers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """The verdict on one answer: a line starting "Right" or "Not quite" when it was judged;
    `judged` False for an answer in the wrong form (it costs nothing)."""

    right: bool
    line: str
    judged: bool = True


def _proven_best(board: Board) -> MoveScore:
    analysis = analyse_position(board)
    best = analysis.scores[0]
    if best.kind != "exact":
        raise LessonError(f"the engine cannot prove the value of {board}")
    return best


@cache
def _scores(board: Board) -> dict[int, MoveScore]:
    return {s.move: s for s in analyse_position(board).scores}


def _result_word(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def _drill_node(exercise: Exercise) -> int:
    tree = exercise.tree()
    names = labels(tree.root)
    wanted = exercise.ask.upper() or "A"
    if wanted == "ROOT":
        wanted = "A"
    for ident, name in names.items():
        if name == wanted:
            return ident
    raise LessonError(f"the drill tree has no node {exercise.ask!r}")


def expected(exercise: Exercise) -> str:
    """The right answer, as the learner would type it (for a move: the best moves, joined by
    " or "; for code: what the file must do)."""
    board = exercise.board()
    kind = exercise.kind
    if kind == "value":
        assert board is not None
        best = _proven_best(board)
        return _result_word(best.score) if exercise.ask == "result" else str(best.score)
    if kind == "move":
        assert board is not None
        best = _proven_best(board)
        moves = [
            m for m, s in _scores(board).items() if s.kind == "exact" and s.score == best.score
        ]
        return " or ".join(cell_notation(m, board.size) for m in sorted(moves))
    if kind == "number":
        assert exercise.quantity is not None
        return f"{exercise.quantity.value():,}"
    if kind == "drill":
        tree = exercise.tree()
        if exercise.ask == "best_leaves":
            return str(best_order(tree.root).leaves_visited)
        answer = solve(tree.root)
        if exercise.ask == "leaves":
            return str(answer.leaves_visited)
        node = _drill_node(exercise)
        if not answer.was_visited(node):
            raise LessonError(f"alpha-beta never visits {exercise.ask} in this tree")
        return str(answer.returns[node])
    if kind == "heuristic":
        assert board is not None
        mark = Mark(exercise.player)
        return str(h1(board, mark) if exercise.heuristic == "h1" else h2(board, mark))
    if kind == "choice":
        return "abcdefgh"[exercise.right]
    return "a file that keeps grade's contract and beats h1"


def answer_format(exercise: Exercise) -> str:
    """How to answer, said with the question."""
    kind = exercise.kind
    if kind == "value":
        if exercise.ask == "result":
            return "win, draw or loss, for the side to move"
        return "a whole number: the depth-aware score for the side to move"
    if kind == "move":
        return "a cell such as B2"
    if kind == "choice":
        letters = "abcdefgh"[: len(exercise.options)]
        return f"a letter: {', '.join(letters[:-1])} or {letters[-1]}"
    if kind == "code":
        return "the path of your Python file"
    return "a whole number"


def _whole_number(text: str) -> int | None:
    cleaned = text.strip().replace(",", "").replace("_", "").replace(" ", "")
    cleaned = cleaned.replace("\N{MINUS SIGN}", "-")
    try:
        return int(cleaned)
    except ValueError:
        return None


def _form(exercise: Exercise) -> Judgement:
    return Judgement(False, f"Answer with {answer_format(exercise)}.", judged=False)


def judge(exercise: Exercise, answer: str) -> Judgement:
    """Judge one answer to `exercise`; the line names a wrong answer and says why."""
    text = answer.strip()
    handler = _JUDGES[exercise.kind]
    return handler(exercise, text)


def _judge_value(exercise: Exercise, text: str) -> Judgement:
    board = exercise.board()
    assert board is not None
    best = _proven_best(board)
    mover = board.to_move
    if exercise.ask == "result":
        words = {"w": "win", "win": "win", "d": "draw", "draw": "draw", "l": "loss", "loss": "loss"}
        said = words.get(text.lower())
        if said is None:
            return _form(exercise)
        right = _result_word(best.score)
        if said == right:
            return Judgement(True, f"Right: with best play it is a {right} for {mover}.")
        return Judgement(False, f"Not quite: {mover} does not {_verb(said)} with best play here.")
    number = _whole_number(text)
    if number is None:
        return _form(exercise)
    if number == best.score:
        return Judgement(True, f"Right: {best.score} ({score_meaning(best, board)}).")
    if _result_word(number) != _result_word(best.score):
        why = f"{number} would be a {_result_word(number)}, and it is not"
    else:
        why = f"{number} is a {_result_word(number)} at the wrong distance"
    return Judgement(False, f"Not quite: {why}.")


def _verb(result: str) -> str:
    return {"win": "win", "draw": "draw", "loss": "lose"}[result]


def _judge_move(exercise: Exercise, text: str) -> Judgement:
    board = exercise.board()
    assert board is not None
    try:
        cell = parse_cell(text, board.size)
    except IllegalMove:
        return _form(exercise)
    name = cell_notation(cell, board.size)
    if cell not in board.legal_moves():
        return Judgement(False, f"Answer with an empty cell: {name} is taken.", judged=False)
    best = _proven_best(board)
    scored = _scores(board)[cell]
    if scored.kind == "exact" and scored.score == best.score:
        return Judgement(True, f"Right: {name} ({score_meaning(scored, board)}).")
    return Judgement(
        False,
        f"Not quite: {name} is {score_meaning(scored, board)}; "
        f"the best move is {score_meaning(best, board)}.",
    )


def _judge_numberlike(exercise: Exercise, text: str) -> Judgement:
    number = _whole_number(text)
    if number is None:
        return _form(exercise)
    right = _whole_number(expected(exercise))
    assert right is not None
    if number == right:
        return Judgement(True, f"Right: {right:,}.")
    side = "too high" if number > right else "too low"
    return Judgement(False, f"Not quite: {number:,} is {side}.")


def _judge_choice(exercise: Exercise, text: str) -> Judgement:
    letters = "abcdefgh"[: len(exercise.options)]
    said = text.lower().rstrip(").")
    if len(said) != 1 or said not in letters:
        return _form(exercise)
    index = letters.index(said)
    if index == exercise.right:
        return Judgement(True, f"Right: {exercise.options[index]}")
    return Judgement(False, f'Not quite: not "{exercise.options[index]}".')


def _judge_code(exercise: Exercise, text: str) -> Judgement:
    path = Path(text).expanduser()
    try:
        check_guest_path(str(path))
    except ValueError as error:
        return Judgement(False, f"Not quite: {error}.", judged=False)
    report = grade(path, size=3, games=CODE_GAMES)
    failed = next((c for c in report.checks if not c.passed), None)
    if failed is not None:
        return Judgement(
            False, f"Not quite: {path.name} fails the check {failed.name!r}: {failed.detail}."
        )
    against = [m for m in report.matches if m.against == "h1"]
    wins = sum(m.wins for m in against)
    draws = sum(m.draws for m in against)
    losses = sum(m.losses for m in against)
    tally = f"{wins} won, {draws} drawn, {losses} lost against h1"
    if wins > losses:
        return Judgement(True, f"Right: {tally}; your evaluation beats h1.")
    return Judgement(False, f"Not quite: {tally}; to beat h1, win more games than you lose.")


_JUDGES: dict[str, Callable[[Exercise, str], Judgement]] = {
    "value": _judge_value,
    "move": _judge_move,
    "number": _judge_numberlike,
    "drill": _judge_numberlike,
    "heuristic": _judge_numberlike,
    "choice": _judge_choice,
    "code": _judge_code,
}


# -- showing ------------------------------------------------------------------------------------


def drill_lines(tree: DrillTree) -> list[str]:
    """A drill tree as an indented list, one node a line, labelled as the drill labels them."""
    names = labels(tree.root)
    size = tree.position.size
    lines: list[str] = []

    def walk(node: Any, parent_board: Board | None, depth: int) -> None:
        name = names[node.id]
        if node.move is None:
            head = f"{name}  the position, {tree.root_mark} to move, MAX"
        else:
            assert parent_board is not None
            head = f"{name}  {parent_board.to_move} plays {cell_notation(node.move, size)}"
            head += (
                f", leaf worth {node.value}"
                if node.is_leaf
                else (", MAX" if node.is_max else ", MIN")
            )
        lines.append("  " * depth + head)
        for child in node.children:
            walk(child, tree.boards[node.id], depth + 1)

    walk(tree.root, None, 0)
    return lines


def check_lesson(lesson: Lesson) -> None:
    """Raise LessonError unless every number of the text and every exercise can be computed
    (each exercise's right answer is then judged right: see the tests)."""
    lesson.text()
    if not 3 <= len(lesson.exercises) <= 6:
        raise LessonError(f"{lesson.key}: a lesson has 3 to 6 exercises")
    for exercise in lesson.exercises:
        if exercise.kind == "choice" and not 0 <= exercise.right < len(exercise.options):
            raise LessonError(f"{lesson.key}: a choice's 'right' must name one of its options")
        if exercise.kind in ("value", "move", "heuristic", "drill") and exercise.board() is None:
            raise LessonError(f"{lesson.key}: a {exercise.kind} exercise needs a position")
        expected(exercise)
