"""The scores of this session: kept on the app so they survive new games and settings changes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tictactoe_tui.engine import GameResult, Mark
from tictactoe_tui.play.settings import Mode

if TYPE_CHECKING:
    from tictactoe_tui.history.scores import ScoreLine
    from tictactoe_tui.history.store import HistoryStore
    from tictactoe_tui.play.settings import GameSettings


@dataclass
class SessionScore:
    """Games won and drawn this session, kept apart for games against the computer and the rest.

    Against the computer the tally is you / computer / draws; between two humans (or two
    computers) it is X / O / draws.
    """

    you: int = 0
    """Games the human won against the computer."""
    computer: int = 0
    """Games the computer won against the human."""
    draws: int = 0
    """Drawn games against the computer."""
    x_wins: int = 0
    """Games X won when no human played the computer."""
    o_wins: int = 0
    """Games O won when no human played the computer."""
    mark_draws: int = 0
    """Drawn games when no human played the computer."""

    def record(self, result: GameResult, settings: GameSettings) -> None:
        """Count one finished game."""
        self._add(result, settings, 1)

    def take_back(self, result: GameResult, settings: GameSettings) -> None:
        """Uncount a game counted with `record` (undo reopened it after its end)."""
        self._add(result, settings, -1)

    def _add(self, result: GameResult, settings: GameSettings, step: int) -> None:
        winner = result.winner
        if settings.mode is Mode.HUMAN_VS_COMPUTER:
            if winner is None:
                self.draws += step
            elif winner is settings.human_mark:
                self.you += step
            else:
                self.computer += step
        elif winner is None:
            self.mark_draws += step
        elif winner is Mark.X:
            self.x_wins += step
        else:
            self.o_wins += step

    def tally(self, mode: str) -> tuple[tuple[str, int], ...]:
        """The labelled counts the scoreboard shows for a game in `mode`."""
        if mode == Mode.HUMAN_VS_COMPUTER:
            return (("You", self.you), ("Computer", self.computer), ("Draws", self.draws))
        return (("X", self.x_wins), ("O", self.o_wins), ("Draws", self.mark_draws))


def all_time(
    store: HistoryStore, settings: GameSettings, names: Mapping[Mark, str] | None = None
) -> ScoreLine:
    """The history's all-time line for games like the ones `settings` make (the same mode,
    opponent, difficulty and board): the app's scoreboard and the text mode's `score`.
    `names` names some sides as the history does instead (`GameController.history_names`:
    an outside engine by its own name)."""
    x = o = "human"
    if settings.mode is Mode.COMPUTER_VS_COMPUTER:
        x = o = settings.opponent
    elif settings.mode is Mode.HUMAN_VS_COMPUTER:
        x, o = (
            ("human", settings.opponent)
            if settings.human_mark.value == "X"
            else (settings.opponent, "human")
        )
    x = (names or {}).get(Mark.X, x)
    o = (names or {}).get(Mark.O, o)
    difficulty = settings.difficulty if settings.mode is not Mode.HUMAN_VS_HUMAN else 100
    return store.score_for(settings.mode, x, o, difficulty, settings.size, settings.win_length)
