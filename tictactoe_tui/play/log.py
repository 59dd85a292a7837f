"""The running record of the game on the Game screen: each move with what it cost the computer,
and when `c` switched the computer between clever and random play. `played_game` turns it into
the `PlayedGame` the history keeps (see `record.py`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import TYPE_CHECKING

from tictactoe_tui.engine import Decision, Mark
from tictactoe_tui.history.record import Outcome, PlayedGame, PlayedMove
from tictactoe_tui.play.settings import Mode

if TYPE_CHECKING:
    from tictactoe_tui.play.settings import GameSettings


class GameLog:
    """Moves and clever/random switches of one game, from its start."""

    def __init__(self, settings: GameSettings, setup: Sequence[int] = ()) -> None:
        """Start the record of a game played with `settings`, now, from the position the
        `setup` moves lead to."""
        self.settings = settings
        """The settings of the game."""
        self.started = datetime.now().replace(microsecond=0)
        """When the game started (to the second, as the history keeps it)."""
        first = settings.first_mark
        self.setup = len(setup)
        """How many moves the game started from."""
        self.moves: list[PlayedMove] = [
            PlayedMove(cell, mark, by_computer=settings.is_computer(mark))
            for cell, mark in zip(setup, (first, first.opponent) * len(setup), strict=False)
        ]
        """The moves on the board now, in order (undo takes them off)."""
        self.to_random: list[int] = []
        """Move numbers at which `c` switched the computer to random play."""
        self.to_clever: list[int] = []
        """Move numbers at which `c` switched it back to clever play."""
        self._clever_now: bool | None = None
        """The way the last switch went (None before any): how the computer plays now."""

    def human_move(self, cell: int, mark: Mark) -> None:
        """A person played `cell`."""
        self.moves.append(PlayedMove(cell, mark, by_computer=False))

    def computer_move(self, decision: Decision, mark: Mark, seconds: float) -> None:
        """The computer played `decision` after thinking `seconds` (when it did not say)."""
        analysis = decision.analysis
        # A random player's analysis (if any) is its advisor's: its positions were searched too.
        self.moves.append(
            PlayedMove(
                decision.move,
                mark,
                by_computer=True,
                seconds=analysis.elapsed if analysis is not None else seconds,
                positions=analysis.nodes if analysis is not None else None,
                clever=decision.clever,
            )
        )

    def undone(self, count: int) -> None:
        """The last `count` moves were taken back, and with them the switches made after them.

        A switch numbered past the moves left describes a move no longer in the game, so it
        goes; so do those at the move to come, which no move has used yet. Undo does not change
        how the computer plays now, though: when an odd number of switches went (those left
        would say the other way), one switch at the move to come says how it plays from here.
        """
        del self.moves[len(self.moves) - count :]
        now = len(self.moves)
        dropped = 0
        for switches in (self.to_random, self.to_clever):
            kept = [number for number in switches if number < now]
            dropped += len(switches) - len(kept)
            switches[:] = kept
        if dropped % 2 and self._clever_now is not None:
            (self.to_clever if self._clever_now else self.to_random).append(now)

    def switched(self, clever: bool) -> None:
        """`c` switched the computer to clever (True) or random play, before the next move."""
        self._clever_now = clever
        (self.to_clever if clever else self.to_random).append(len(self.moves))

    def played_game(
        self, outcome: Outcome, forfeit: str = "", names: Mapping[Mark, str] | None = None
    ) -> PlayedGame:
        """The game as the history keeps it, ended now with `outcome` (and, for a game lost by
        a fault, `forfeit`: why); `names` names some sides' players instead of the settings (an
        outside engine by its own name: `engine_key`)."""
        settings = self.settings
        computer = settings.opponent
        if settings.mode is Mode.HUMAN_VS_COMPUTER:
            x = "human" if settings.human_mark is Mark.X else computer
            o = "human" if settings.human_mark is Mark.O else computer
        elif settings.mode is Mode.COMPUTER_VS_COMPUTER:
            x, o = (settings.spec_for(mark).opponent for mark in (Mark.X, Mark.O))
        else:
            x = o = "human"
        x = (names or {}).get(Mark.X, x)
        o = (names or {}).get(Mark.O, o)
        return PlayedGame(
            mode=settings.mode,
            x=x,
            o=o,
            size=settings.size,
            k=settings.win_length,
            first=settings.first_mark,
            difficulty=settings.difficulty if settings.mode is not Mode.HUMAN_VS_HUMAN else 100,
            started=self.started,
            ended=datetime.now().replace(microsecond=0),
            moves=tuple(self.moves),
            outcome=outcome,
            switched_to_random=tuple(self.to_random),
            switched_to_clever=tuple(self.to_clever),
            settings=asdict(settings),
            setup_moves=self.setup,
            forfeit=forfeit,
        )
