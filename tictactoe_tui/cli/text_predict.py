"""Predict mode in the text mode (`--text --predict`): the questions as plain lines.

After the learner's move the computer searches as ever, but its move is told only once the
learner has answered, one line each: "Predict the computer's move (a cell, or skip):" then
"Predict the value for the computer (win, draw, loss or skip):". Each answer is judged at once
in one line starting "Right" or "Not quite" (`play.predict` decides, from proven values only;
a question it cannot judge is not asked, and one line says why). An answer that is no answer
gets one line and the question again; the end of the input skips what is left. Every answer
is kept in the history, and the end of a game says "Predictions: R of N right".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from tictactoe_tui.engine import Analysis, Board
from tictactoe_tui.history.predictions import keep_prediction, predictions, tally_of
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.predict import (
    MOVE_PROMPT,
    VALUE_PROMPT,
    AnswerError,
    Judgement,
    Predictor,
)

SOURCE = "text"
"""Where the text mode's predictions are kept as asked."""


class TextPredictions:
    """The questions of one text-mode session: asked on `say`, answered from `lines`."""

    def __init__(self, store: HistoryStore, lines: Iterator[str], say: Callable[..., None]) -> None:
        self.store = store
        self.lines = lines
        self.say = say
        self.predictor = Predictor(tally=tally_of(predictions(store)))
        self.ended = False
        """True once the input ended inside a question."""

    def ask(self, board: Board, analysis: Analysis | None) -> None:
        """Ask what the computer will play on `board` and what it is worth, judge each answer."""
        questions = self.predictor.ask(board, analysis)
        self.say(*questions.reasons)
        if questions.asks_move:
            self._question(MOVE_PROMPT, self.predictor.answer_move)
        if questions.asks_value and not self.ended:
            self._question(VALUE_PROMPT, self.predictor.answer_value)
        self.predictor.done()

    def _question(self, prompt: str, answer: Callable[[str], Judgement | None]) -> None:
        """One question, asked until answered or skipped (or the input ends)."""
        while True:
            self.say(prompt)
            text = next(self.lines, None)
            if text is None:
                self.ended = True
                return
            try:
                judgement = answer(text.strip())
            except AnswerError as error:
                self.say(str(error))
                continue
            if judgement is None:
                self.say("Skipped.")
                return
            self.say(judgement.line)
            for kept in judgement.kept:
                keep_prediction(self.store, replace(kept, source=SOURCE))
            return

    def game_over(self) -> str:
        """The game's score, "Predictions: 3 of 4 right", and a fresh tally for the next."""
        line = self.predictor.summary()
        self.predictor.new_game()
        return line

    def new_game(self) -> None:
        """A new game: its score starts again."""
        self.predictor.new_game()
