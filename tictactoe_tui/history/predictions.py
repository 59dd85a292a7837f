"""The learner's predictions in the history: each question asked, the answer, the verdict.

Every answer to a prediction (predict mode, issue 35) is one row of `predictions` (schema 6):
the position, which question (`move`, `value` or `score`; the tree view's `cutoffs` and
`visits`), the answer and the answer expected, right or not, and the seconds the learner took.
A skipped question keeps nothing. The score per kind of question and the streak (answers right
in a row, over every kind) are read back from the rows (`tally_of`), so nothing else needs
keeping.

No Textual here. A history that is off or read-only keeps nothing (the tally reads as empty).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from tictactoe_tui.history.rows import write_rows
from tictactoe_tui.history.store import HistoryStore

QUESTIONS = ("move", "value", "score", "cutoffs", "visits")
"""The kinds of question, in the order they are asked: which move the computer plays, what the
position is worth for it (win, draw or loss), and its exact depth-aware score; then the tree
view's (`play.tree_predict`): which root moves the search cuts off or fails low on, and how
many positions it visits."""

QUESTION_WORDS = {
    "move": "the move",
    "value": "the value",
    "score": "the exact score",
    "cutoffs": "the search's cut-offs",
    "visits": "the positions visited",
}
"""How a tally names each kind."""


@dataclass(frozen=True)
class Prediction:
    """One answered question."""

    size: int
    k: int
    position: str
    """The position the question was asked about (`str(Board)`), the computer to move."""
    question: str
    """One of `QUESTIONS`."""
    answer: str
    """What the learner answered: a cell's name, "win"/"draw"/"loss", a score "+5"."""
    expected: str
    """What counted as right: the accepted cells ("A1 C3"), the value, the score."""
    right: bool
    seconds: float = 0.0
    """How long the learner took to answer."""
    source: str = "game"
    """Where it was asked: "game" (the app), "text" (the text mode) or "tree" (the tree view)."""


@dataclass(frozen=True)
class KindScore:
    """Right answers out of those given, for one kind of question."""

    right: int = 0
    asked: int = 0

    def words(self) -> str:
        """ "3 of 4 right"."""
        return f"{self.right} of {self.asked} right"


@dataclass(frozen=True)
class Tally:
    """Score per kind of question, and the streak of right answers."""

    kinds: dict[str, KindScore] = field(default_factory=lambda: {q: KindScore() for q in QUESTIONS})
    streak: int = 0
    """Answers right in a row, up to now (a wrong answer ends it; a skip is no answer)."""
    best_streak: int = 0

    def after(self, question: str, right: bool) -> Tally:
        """The tally with one more answer to `question`."""
        was = self.kinds[question]
        kinds = dict(self.kinds)
        kinds[question] = KindScore(was.right + int(right), was.asked + 1)
        streak = self.streak + 1 if right else 0
        return replace(self, kinds=kinds, streak=streak, best_streak=max(self.best_streak, streak))

    @property
    def right(self) -> int:
        """Right answers over every kind."""
        return sum(score.right for score in self.kinds.values())

    @property
    def asked(self) -> int:
        """Answers given over every kind."""
        return sum(score.asked for score in self.kinds.values())

    def lines(self) -> list[str]:
        """One line per kind answered at least once, then the streak: "the move: 3 of 4
        right", "streak 2 (best 5)"."""
        lines = [
            f"{QUESTION_WORDS[question]}: {score.words()}"
            for question, score in self.kinds.items()
            if score.asked
        ]
        return [*lines, f"streak {self.streak} (best {self.best_streak})"]

    def as_json(self) -> dict[str, object]:
        """The tally as `history --predictions --json` gives it."""
        return {
            "questions": {
                question: {"right": score.right, "asked": score.asked}
                for question, score in self.kinds.items()
            },
            "right": self.right,
            "asked": self.asked,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


def tally_of(predictions: Iterable[Prediction]) -> Tally:
    """The tally of `predictions`, oldest first."""
    tally = Tally()
    for prediction in predictions:
        tally = tally.after(prediction.question, prediction.right)
    return tally


def keep_prediction(
    store: HistoryStore,
    prediction: Prediction,
    when: datetime | None = None,
    game_id: int | None = None,
) -> None:
    """Keep one answer; nothing when the history cannot write (a failed write loses only it)."""
    stamp = (when or datetime.now()).isoformat(timespec="seconds")
    row = (
        stamp,
        prediction.source,
        prediction.size,
        prediction.k,
        prediction.position,
        prediction.question,
        prediction.answer,
        prediction.expected,
        int(prediction.right),
        prediction.seconds,
        game_id,
        json.dumps({}),
    )
    write_rows(
        store,
        "INSERT INTO predictions (asked, source, size, k, position, question, answer, "
        "expected, right, seconds, game_id, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [row],
    )


def predictions(store: HistoryStore) -> list[Prediction]:
    """Every answer kept, oldest first (none when the history cannot be read)."""
    rows = store.database.rows(
        "SELECT size, k, position, question, answer, expected, right, seconds, source "
        "FROM predictions ORDER BY id"
    )
    return [
        Prediction(
            size, k, position, question, answer, expected, bool(right), float(seconds), source
        )
        for size, k, position, question, answer, expected, right, seconds, source in rows
        if question in QUESTIONS
    ]
