"""The game's one record in the history and its count in the session's score: given once when
the game ends or is left unfinished, handed back when undo reopens a finished game (so it is
counted once, when it ends again or is left)."""

from __future__ import annotations

from collections.abc import Mapping

from tictactoe_tui.engine import GameResult, Mark
from tictactoe_tui.history.record import Outcome, PlayedGame
from tictactoe_tui.play.effects import Effect, Record, Reopened, ScoreChanged
from tictactoe_tui.play.log import GameLog
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import GameSettings


class GameRecord:
    """The record given for the game on the board, if any, and the session that counts it."""

    def __init__(self, settings: GameSettings, session: SessionScore) -> None:
        """Nothing kept yet; finished games count in `session`."""
        self.settings = settings
        self.session = session
        self.kept: PlayedGame | None = None
        """The record given for the game on the board (finished, or left unfinished), or None:
        none yet, or undo reopened it."""

    def finish(self, result: GameResult, log: GameLog, names: Mapping[Mark, str]) -> list[Effect]:
        """The game ended with `result`: count it, and keep it (`Record`)."""
        self.session.record(result, self.settings)
        outcome: Outcome = "draw" if result.winner is None else result.winner.value
        self.kept = log.played_game(outcome, result.forfeit, names)
        return [Record(self.kept), ScoreChanged()]

    def abandon(self, log: GameLog, names: Mapping[Mark, str]) -> PlayedGame:
        """The game is left unfinished: its record, as abandoned."""
        self.kept = log.played_game("abandoned", "", names)
        return self.kept

    def reopen(self, result: GameResult) -> list[Effect]:
        """Undo reopened the finished game (`result`): uncount it, and take its record back
        out of the history (`Reopened`)."""
        self.session.take_back(result, self.settings)
        effects: list[Effect] = [] if self.kept is None else [Reopened(self.kept)]
        self.kept = None
        return [*effects, ScoreChanged()]

    def forget(self) -> None:
        """A new game: nothing of it is kept yet."""
        self.kept = None
