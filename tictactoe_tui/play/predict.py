"""Predict, then see (issue 35): the pure controller of the learner's predictions.

Before the computer moves, the learner answers what the search will say: *which move* the
computer will play and *what the position is worth* for it (win, draw or loss; with the
exact depth-aware score too, "win in 5" or "+5", where the engine proves it). Every rule
lives here; the text mode and the Game screen only ask and show.

Which answers count is decided by the engine's proofs alone, never by its estimates
(`questions_for`, from an `Analysis` of every legal move):

- The move question is asked when the best move's score is exact and every other move is
  proven either equal to it (the same exact score) or worse (a lower exact score, or a proven
  bound below it). Right is *any* move of the equal set: the set the panel calls equally good.
  A move whose value is only estimated or bounded at or above the best keeps the question
  back, and `Questions.move_reason` says why.
- The value question is asked when the position's outcome is proven (`proven_best`): a win,
  a draw or a loss for the computer, the side to move.
- The score question rides on the value answer ("win in 5", "+5") and is judged only when the
  move question could be asked: then the best score is the position's exact value.

On 3×3 every position is solved in milliseconds, so every question is asked; on big boards a
question waits for its proof. The judgement is one line in the panel's words: "Right: B2 is
the only move that keeps the draw." / "Not quite: A2 loses in 6 (score -4); B2 draws."
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tictactoe_tui.engine import Analysis, Board, MoveScore, analyse_position, describe_score
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search.types import (
    Band,
    Kind,
    plies_of,
    proven_best,
    value_key,
    win_score,
)
from tictactoe_tui.history.predictions import Prediction, Tally
from tictactoe_tui.text.review import outlook_words
from tictactoe_tui.text.scores import marked_score

MOVE_PROMPT = "Predict the computer's move (a cell, or skip):"
"""The move question, as the text mode asks it."""
VALUE_PROMPT = "Predict the value for the computer (win, draw, loss or skip):"
"""The value question, as the text mode asks it."""

SKIP_WORDS = frozenset({"skip", "s", "-", "pass"})
"""Answers that skip a question."""
OUTCOME_WORDS = {
    "win": Band.WIN,
    "w": Band.WIN,
    "wins": Band.WIN,
    "draw": Band.DRAW,
    "d": Band.DRAW,
    "draws": Band.DRAW,
    "loss": Band.LOSS,
    "l": Band.LOSS,
    "lose": Band.LOSS,
    "loses": Band.LOSS,
}
"""The words a value answer may start with, and the outcome each names."""
OUTCOME_NAMES = {Band.WIN: "win", Band.DRAW: "draw", Band.LOSS: "loss"}
"""How an outcome is named in an answer and a verdict."""


class AnswerError(ValueError):
    """An answer that is no answer: its message is the one line telling what to type."""


@dataclass(frozen=True)
class Questions:
    """What is asked about one position, and what counts as right."""

    position: Board
    scores: tuple[MoveScore, ...]
    """The analysis of every legal move, best first."""
    best: tuple[int, ...]
    """The moves proven equally best (empty when the move question is not asked)."""
    outcome: Band | None
    """The position's proven outcome for the side to move (None: the value is not asked)."""
    value: int | None
    """The position's exact depth-aware score (None: the score is not judged)."""
    move_reason: str = ""
    """Why the move question is not asked ("" when it is)."""
    value_reason: str = ""
    """Why the value question is not asked ("" when it is)."""

    @property
    def asks_move(self) -> bool:
        """True when the move question is asked."""
        return bool(self.best)

    @property
    def asks_value(self) -> bool:
        """True when the value question is asked."""
        return self.outcome is not None

    @property
    def asks_anything(self) -> bool:
        """True when at least one question is asked."""
        return self.asks_move or self.asks_value

    @property
    def reasons(self) -> list[str]:
        """The reasons for the questions not asked, one line each."""
        return [reason for reason in (self.move_reason, self.value_reason) if reason]

    def score_of(self, move: int) -> MoveScore | None:
        """The analysis' score of `move` (None for a move it does not hold)."""
        return next((s for s in self.scores if s.move == move), None)


@dataclass(frozen=True)
class ValueAnswer:
    """A parsed answer to the value question."""

    outcome: Band
    score: int | None = None
    """The exact score the learner gave as well ("win in 5" or "+5"), if any."""


@dataclass(frozen=True)
class Judgement:
    """The verdict on one answer: the line shown, and what is kept."""

    line: str
    """One sentence starting "Right" or "Not quite"."""
    kept: tuple[Prediction, ...]
    """The answers to keep in the history (the value answer may carry a score answer)."""

    @property
    def right(self) -> bool:
        """True when every question the answer covered was answered right."""
        return all(prediction.right for prediction in self.kept)


def _standing(move: MoveScore, top: MoveScore) -> str:
    """How `move` stands against the exact best `top`: "equal", "worse" or "unknown"."""
    if move.exact:
        if move.score == top.score:
            return "equal"
        if value_key(move.score, move.band) < value_key(top.score, top.band):
            return "worse"
    if (
        move.proven
        and move.kind is Kind.AT_MOST
        and value_key(move.score, move.band) < value_key(top.score, top.band)
    ):
        return "worse"
    return "unknown"


def analysis_to_judge(board: Board, analysis: Analysis | None) -> Analysis | None:
    """What the questions about `board` are judged by, given the computer's own `analysis` of
    it (None: its move came with none, as a random move or an outside engine's).

    On 3×3 every position is solved in milliseconds: when the computer's analysis is not
    exact throughout (a heuristic's, say), a full alpha-beta analysis is made here, so the
    learner is asked whatever the opponent. On bigger boards the computer's own analysis is
    what there is, and `questions_for` asks only what it proves.
    """
    if analysis is not None and analysis.scores and all(s.exact for s in analysis.scores):
        return analysis
    if board.size == 3 and not board.is_over:
        return analyse_position(board)
    return analysis


def no_analysis(board: Board) -> Questions:
    """No questions: the computer's move came with no analysis to judge by."""
    why = "the computer's move came with no analysis to judge it by"
    return Questions(
        board, (), (), None, None, f"No move question: {why}.", f"No value question: {why}."
    )


def questions_for(board: Board, analysis: Analysis) -> Questions:
    """Which questions to ask about `board` (the computer to move) from `analysis` of it,
    and which answers count (see the module's docstring)."""
    scores = tuple(analysis.scores)
    legal = set(board.legal_moves())
    whole = bool(scores) and not analysis.cancelled and {s.move for s in scores} == legal
    if not whole:
        why = "the search did not score every move"
        return Questions(
            board, scores, (), None, None, f"No move question: {why}.", f"No value question: {why}."
        )
    top = scores[0]
    size = board.size
    best: tuple[int, ...] = ()
    move_reason = ""
    if not top.exact:
        move_reason = (
            f"No move question: {cell_notation(top.move, size)}, ranked first, "
            f"{outlook_words(top, board)}, not a proven value."
        )
    else:
        standings = {s.move: _standing(s, top) for s in scores}
        open_moves = [move for move, standing in standings.items() if standing == "unknown"]
        if open_moves:
            first = next(s for s in scores if s.move == open_moves[0])
            move_reason = (
                f"No move question: {cell_notation(first.move, size)} "
                f"{outlook_words(first, board)}, so the search has not proven it worse "
                f"than {cell_notation(top.move, size)} or as good."
            )
        else:
            best = tuple(
                sorted(move for move, standing in standings.items() if standing == "equal")
            )
    outcome = top.outcome if proven_best(scores) else None
    value_reason = (
        ""
        if outcome is not None
        else f"No value question: the search has not proven what the position is worth "
        f"({cell_notation(top.move, size)}, ranked first, {outlook_words(top, board)})."
    )
    value = top.score if best else None
    return Questions(board, scores, best, outcome, value, move_reason, value_reason)


# -- the answers ------------------------------------------------------------------------------


def parse_move(text: str, board: Board) -> int | None:
    """The cell a move answer names (a cell's name, or a digit 1-9 on 3×3); None for skip.
    Raises `AnswerError` with one line for anything else."""
    words = text.strip().lower()
    if words in SKIP_WORDS:
        return None
    size = board.size
    if words.isdigit() and size == 3 and 1 <= int(words) <= 9:
        cell = int(words) - 1
    else:
        cell = _cell(words, size)
    if cell not in board.legal_moves():
        raise AnswerError(f"{cell_notation(cell, size)} is taken: predict an empty cell, or skip.")
    return cell


def _cell(words: str, size: int) -> int:
    """The cell named `words` ("b2"), or an `AnswerError`."""
    example = cell_notation(size // 2 * (size + 1), size)
    if len(words) >= 2 and words[0].isalpha() and words[1:].isdigit():
        col, row = ord(words[0]) - ord("a"), int(words[1:]) - 1
        if 0 <= col < size and 0 <= row < size:
            return row * size + col
    raise AnswerError(f"{words!r} is not a cell: predict a cell such as {example}, or skip.")


def parse_value(text: str, board: Board) -> ValueAnswer | None:
    """A value answer: "win", "draw", "loss" (or w/d/l), with an exact score if wished ("win
    in 5", "loss in 6", or the score itself, "+5", "-4", "0"); None for skip. Raises
    `AnswerError` with one line for anything else."""
    words = text.strip().lower().split()
    if not words or " ".join(words) in SKIP_WORDS:
        return None
    wrong = AnswerError(
        "Answer win, draw or loss (with the distance if you like: win in 5, or the score: "
        "+5), or skip."
    )
    big = win_score(board)
    if len(words) == 1 and words[0].lstrip("+-").isdigit():
        score = int(words[0])
        if abs(score) >= big or (score and abs(score) < big - (board.size**2 - board.move_count)):
            raise AnswerError(
                f"{score:+d} is no score of this position: a win on ply d scores {big} - d, "
                f"a loss -({big} - d), a draw 0."
            )
        outcome = Band.WIN if score > 0 else Band.LOSS if score < 0 else Band.DRAW
        return ValueAnswer(outcome, score)
    said = OUTCOME_WORDS.get(words[0])
    if said is None:
        raise wrong
    if len(words) == 1:
        return ValueAnswer(said)
    if said is Band.DRAW or len(words) != 3 or words[1] != "in" or not words[2].isdigit():
        raise wrong
    plies = int(words[2])
    if not 1 <= plies < big:
        raise wrong
    score = big - plies if said is Band.WIN else -(big - plies)
    return ValueAnswer(said, score)


# -- the verdicts, in the panel's words ---------------------------------------------------------


def _does(score: MoveScore, board: Board) -> str:
    """What one move does, third person: "draws", "wins in 3", "loses in 6", or the panel's
    words for a bound ("loses, in at most 9")."""
    if score.exact:
        words = describe_score(score.score, board, kind=Kind.EXACT)
        if words == "draw":
            return "draws"
        if words.startswith(("win in ", "loss in ")):
            result, plies = words.split(" in ")
            return f"{'wins' if result == 'win' else 'loses'} in {plies}"
    return outlook_words(score, board)


def _do(score: MoveScore, board: Board) -> str:
    """What several moves do, plural: "draw", "win in 3", "lose in 6"."""
    words = _does(score, board)
    for singular, plural in (("draws", "draw"), ("wins", "win"), ("loses", "lose")):
        if words.startswith(singular):
            return plural + words[len(singular) :]
    return words


def _names(cells: Sequence[int], size: int, joint: str) -> str:
    """ "B2", "A1 and C3", "A1, C1 and C3"."""
    names = [cell_notation(cell, size) for cell in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joint} {names[-1]}"


def _only_does(score: MoveScore, board: Board) -> str:
    """What the only best move does, after "the only move that": "keeps the draw", "wins in
    3", "holds out longest (it loses in 6)"."""
    if score.score == 0:
        return "keeps the draw"
    if score.score > 0:
        return _does(score, board)
    return f"holds out longest (it {_does(score, board)})"


def judge_move(questions: Questions, cell: int, seconds: float = 0.0) -> Judgement:
    """The verdict on predicting `cell` (a legal move) when the move question is asked."""
    board = questions.position
    size = board.size
    top = questions.scores[0]
    name = cell_notation(cell, size)
    best = questions.best
    right = cell in best
    if right and len(best) == 1:
        line = f"Right: {name} is the only move that {_only_does(top, board)}."
    elif right:
        others = [move for move in best if move != cell]
        line = f"Right: {name} {_does(top, board)}, as do {_names(others, size, 'and')}."
    else:
        mine = questions.score_of(cell)
        assert mine is not None  # every legal move is scored when the question is asked
        shown = marked_score(mine.score, mine.kind)
        they = _does(top, board) if len(best) == 1 else _do(top, board)
        line = (
            f"Not quite: {name} {_does(mine, board)} (score {shown}); "
            f"{_names(best, size, 'and')} {they}."
        )
    kept = Prediction(
        size,
        board.k,
        str(board),
        "move",
        name,
        " ".join(cell_notation(move, size) for move in best),
        right,
        seconds,
    )
    return Judgement(line, (kept,))


def _worth(outcome: Band, value: int | None, board: Board) -> str:
    """ "a draw for O", "a win for O, in 5 (score +5)", "a loss for O" (no exact score)."""
    mark = board.to_move
    words = f"a {OUTCOME_NAMES[outcome]} for {mark}"
    if value is None:
        return words
    if value == 0:
        return f"{words} (score 0)"
    return f"{words}, in {plies_of(value, board)} (score {value:+d})"


def judge_value(questions: Questions, answer: ValueAnswer, seconds: float = 0.0) -> Judgement:
    """The verdict on a value answer (and on its score, when given and judged)."""
    board = questions.position
    outcome = questions.outcome
    assert outcome is not None  # only asked when the outcome is proven
    value = questions.value
    worth = _worth(outcome, value, board)
    right = answer.outcome is outcome
    given = OUTCOME_NAMES[answer.outcome]
    kept = [
        Prediction(
            board.size,
            board.k,
            str(board),
            "value",
            given,
            OUTCOME_NAMES[outcome],
            right,
            seconds,
        )
    ]
    score_judged = answer.score is not None and value is not None and right and outcome != Band.DRAW
    if score_judged:
        assert answer.score is not None and value is not None
        kept.append(
            Prediction(
                board.size,
                board.k,
                str(board),
                "score",
                f"{answer.score:+d}",
                f"{value:+d}",
                answer.score == value,
                seconds,
            )
        )
    if not right:
        line = f"Not quite: the position is {worth}, not a {given}."
    elif score_judged and answer.score != value:
        assert answer.score is not None
        line = (
            f"Not quite: the position is {worth}; a {given}, yes, but not in "
            f"{plies_of(answer.score, board)} (score {answer.score:+d})."
        )
    else:
        line = f"Right: the position is {worth}."
    return Judgement(line, tuple(kept))


# -- one game's predictions ---------------------------------------------------------------------


@dataclass
class Predictor:
    """The predictions of a session: the questions open now, the tally of this game and of all
    time, the clock that times each answer (injected: tests never wait)."""

    tally: Tally = field(default_factory=Tally)
    """Every answer so far, the history's included."""
    clock: Callable[[], float] = time.monotonic
    game: Tally = field(default_factory=Tally)
    """This game's answers."""
    questions: Questions | None = None
    """The questions open now (None between them)."""
    _since: float = 0.0

    def ask(self, board: Board, analysis: Analysis | None) -> Questions:
        """Open the questions about `board` (the computer to move), judged by `analysis`
        (`analysis_to_judge` of the computer's own), timed from now."""
        judged_by = analysis_to_judge(board, analysis)
        self.questions = (
            no_analysis(board) if judged_by is None else questions_for(board, judged_by)
        )
        self._since = self.clock()
        return self.questions

    def _seconds(self) -> float:
        now = self.clock()
        taken, self._since = now - self._since, now
        return round(taken, 3)

    def answer_move(self, text: str) -> Judgement | None:
        """Judge a move answer (None for a skip); `AnswerError` for no answer."""
        questions = self.questions
        if questions is None or not questions.asks_move:
            return None
        cell = parse_move(text, questions.position)
        seconds = self._seconds()
        return None if cell is None else self._count(judge_move(questions, cell, seconds))

    def answer_value(self, text: str) -> Judgement | None:
        """Judge a value answer (None for a skip); `AnswerError` for no answer."""
        questions = self.questions
        if questions is None or not questions.asks_value:
            return None
        answer = parse_value(text, questions.position)
        seconds = self._seconds()
        return None if answer is None else self._count(judge_value(questions, answer, seconds))

    def done(self) -> None:
        """The questions are answered: the computer's move can be shown."""
        self.questions = None

    def new_game(self) -> None:
        """A new game: its tally starts again (the all-time one goes on)."""
        self.game = Tally()
        self.questions = None

    def _count(self, judgement: Judgement) -> Judgement:
        for kept in judgement.kept:
            self.tally = self.tally.after(kept.question, kept.right)
            self.game = self.game.after(kept.question, kept.right)
        return judgement

    def summary(self) -> str:
        """The game's score: "Predictions: 3 of 4 right"."""
        return f"Predictions: {self.game.right} of {self.game.asked} right"

    def side_lines(self) -> list[str]:
        """The side panel's lines: this game, each kind of all time, the streak."""
        return [self.summary(), *self.tally.lines()]


# -- one round of questions in the app ------------------------------------------------------------


@dataclass
class Round:
    """The questions about one computer move, in the app: the move is held back (`held`, the
    computer's search answer) until each question is answered or skipped, in order (the move,
    then the value). The screen asks `prompt` and hands each answer to `answer`."""

    predictor: Predictor
    held: object
    """What the computer's search answered, handed to the game once the round is over."""
    stage: str = "move"
    """The question open now: "move", "value", or "done"."""
    verdicts: list[Judgement] = field(default_factory=list)

    def __post_init__(self) -> None:
        questions = self.predictor.questions
        assert questions is not None, "ask() opens the questions first"
        self.stage = "move" if questions.asks_move else "value" if questions.asks_value else "done"

    @property
    def questions(self) -> Questions:
        """The questions of this round."""
        questions = self.predictor.questions
        assert questions is not None
        return questions

    @property
    def done(self) -> bool:
        """True once every question is answered or skipped."""
        return self.stage == "done"

    @property
    def prompt(self) -> str:
        """The question open now, with how to answer it (one line)."""
        if self.stage == "move":
            digits = ", a digit" if self.questions.position.size == 3 else ""
            return (
                f"Predict the computer's move: click a cell, or arrows and Enter{digits} "
                "(Escape skips)."
            )
        if self.stage == "value":
            score = (
                " (or win in 5, +5: the exact score)" if self.questions.value is not None else ""
            )
            return (
                f"Predict the value for the computer: win, draw or loss{score}, then Enter "
                "(Escape skips)."
            )
        return ""

    def answer(self, text: str) -> Judgement | None:
        """Judge `text` for the open question and move on; `AnswerError` (nothing changes)
        for no answer; None for a skip."""
        if self.stage == "move":
            judgement = self.predictor.answer_move(text)
        elif self.stage == "value":
            judgement = self.predictor.answer_value(text)
        else:
            return None
        if judgement is not None:
            self.verdicts.append(judgement)
        self._next()
        return judgement

    def skip(self) -> None:
        """Skip the open question."""
        self._next()

    def _next(self) -> None:
        if self.stage == "move" and self.questions.asks_value:
            self.stage = "value"
        else:
            self.stage = "done"
            self.predictor.done()

    def lines(self) -> list[str]:
        """What the round said: each verdict (or the reasons for the questions not asked)."""
        said = [judgement.line for judgement in self.verdicts]
        return said or ["Skipped."]
