"""The Game screen's predict mode: the questions about the computer's move, held back until
the learner has said which move it will play and what the position is worth for it.

`PredictQuestions` keeps the round open now (`play.predict.Round`), shows the predict bar (the
question, with an answer box for the value), judges each answer and keeps it in the history,
then hands the held move back to the screen to play. Predict mode's code (and the history's
predictions) load when the mode is first used: the first paint needs neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets import Input, Static

from tictactoe_tui.play.settings import Mode

if TYPE_CHECKING:
    from tictactoe_tui.play.predict import Predictor, Round
    from tictactoe_tui.ui.screens.game import GameScreen

HIDDEN_SEARCH = (
    "Predict mode: the computer's search is hidden until you have said which move it will "
    "play and what the position is worth for it (f turns predict mode off)."
)
"""The panel while the computer thinks in predict mode."""


class PredictQuestions:
    """Predict mode on one Game screen: whether it is on, the questions open, the answers."""

    def __init__(self, screen: GameScreen, on: bool) -> None:
        """Ask on `screen`'s predict bar; predict mode starts `on` or off."""
        self.screen = screen
        self.on = on
        """Predict mode: the computer's move waits for the learner's answers (`f` switches)."""
        self._predictor: Predictor | None = None
        self.round: Round | None = None
        """The questions open now about the computer's move held back, if any."""

    @property
    def predictor(self) -> Predictor:
        """The learner's predictions: this session's, with the history's tally."""
        if self._predictor is None:
            from tictactoe_tui.history.predictions import predictions, tally_of
            from tictactoe_tui.play.predict import Predictor

            store = getattr(self.screen.app, "store", None)
            tally = tally_of(predictions(store)) if store is not None else None
            self._predictor = Predictor() if tally is None else Predictor(tally=tally)
        return self._predictor

    @property
    def asking_move(self) -> bool:
        """Whether the question open is which move the computer will play."""
        return self.round is not None and self.round.stage == "move"

    def hides_search(self) -> bool:
        """True while the computer thinks in predict mode, or its move waits for answers."""
        controller = self.screen.controller
        return (
            self.on
            and controller.mode is Mode.HUMAN_VS_COMPUTER
            and controller.thinking == "computer"
        )

    def asks_before(self, result: Any) -> bool:
        """In predict mode, hold the computer's move back and open the questions about it;
        True when a question is open (the move is played once it is answered)."""
        screen = self.screen
        if not self.on or screen.controller.mode is not Mode.HUMAN_VS_COMPUTER:
            return False
        from tictactoe_tui.play.predict import Round

        decision = result[0]
        board = screen.game.board
        questions = self.predictor.ask(board, getattr(decision, "analysis", None))
        if not questions.asks_anything:
            self.predictor.done()
            self.show(questions.reasons)
            return False
        self.round = Round(self.predictor, result)
        self.show([*questions.reasons, self.round.prompt])
        screen.redraw()
        return True

    def answer(self, text: str) -> None:
        """One answer to the open question: judged at once; the move follows the last one."""
        from tictactoe_tui.play.predict import AnswerError

        turn = self.round
        assert turn is not None
        try:
            turn.answer(text)
        except AnswerError as error:
            self.show([str(error), turn.prompt])
            return
        self._after_answer()

    def _after_answer(self) -> None:
        turn = self.round
        assert turn is not None
        said = [judgement.line for judgement in turn.verdicts]
        if not turn.done:
            self.show([*said, turn.prompt])
            return
        from tictactoe_tui.history.predictions import keep_prediction

        screen = self.screen
        self.round = None
        store = getattr(screen.app, "store", None)
        if store is not None:
            for judgement in turn.verdicts:
                for kept in judgement.kept:
                    keep_prediction(store, kept)
        tally = self.predictor.tally.lines()
        self.show(
            [
                *turn.lines(),
                f"{self.predictor.summary()} in this game · all time: " + ", ".join(tally),
            ]
        )
        screen.view.board.focus()
        screen.run_effects(screen.controller.search_done(turn.held))

    def show(self, lines: list[str]) -> None:
        """The predict bar: the question open (with an answer box for the value), or what
        the last round said."""
        screen = self.screen
        screen.set_class(bool(lines), "-predicting")
        screen.query_one("#predict", Static).update("\n".join(lines))
        value = self.round is not None and self.round.stage == "value"
        screen.set_class(value, "-predict-value")
        box = screen.query_one("#predict-value", Input)
        if value:
            box.value = ""
            box.focus()

    def value_given(self, text: str) -> None:
        """The value answer typed, then Enter."""
        if self.round is not None and self.round.stage == "value":
            self.answer(text)

    def drop_round(self) -> None:
        """The held move is gone (undo, a new game): so are its questions."""
        if self.round is not None:
            self.round = None
            self.predictor.done()
            self.show([])
            self.screen.view.board.focus()

    def skip(self) -> None:
        """Skip the open question."""
        if self.round is not None:
            self.round.skip()
            self._after_answer()

    def toggle(self) -> None:
        """Predict mode on or off, from the computer's next move."""
        self.on = not self.on
        screen = self.screen
        if self.on:
            screen.say(
                "Predict mode on: before each computer move, say which move it will play and "
                "what the position is worth for it."
            )
        else:
            screen.say("Predict mode off: the computer's moves are shown at once.")
            if self.round is not None:
                self.skip()
                if self.round is not None:
                    self.skip()
            self.show([])
