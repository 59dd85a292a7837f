"""A played game as the history keeps it: who played, every move with its cost, how it ended.

The Game screen builds a `PlayedGame` when a game ends (or is abandoned: a new game, settings or
quit before the end) and posts it to the app as `GameEnded` (see `messages.py`); the app hands
it to the history store. Plain data only, no Textual, so the store and the command line can use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from tictactoe_tui.engine import Mark

Outcome = Literal["X", "O", "draw", "abandoned"]
"""How a game ended: a mark won, a draw, or it was left before the end."""


@dataclass(frozen=True)
class PlayedMove:
    """One move of a played game."""

    cell: int
    """0-based, row-major."""
    mark: Mark
    """Who made it."""
    by_computer: bool
    """True when the computer chose it (also in computer-vs-computer)."""
    seconds: float | None = None
    """How long the computer thought (None for a person's move)."""
    positions: int | None = None
    """Positions the computer's search visited (None for a person's move or a random player)."""
    clever: bool | None = None
    """For a computer move: True for its clever move, False for a random one; None for a person."""


@dataclass(frozen=True)
class PlayedGame:
    """A game from its first move to its end, with the settings it was played with."""

    mode: str
    """"human-vs-computer", "human-vs-human" or "computer-vs-computer"."""
    x: str
    """Who played X: "human" or an opponent name ("alphabeta", "random", "h1", ...)."""
    o: str
    """Who played O, the same way."""
    size: int
    k: int
    first: Mark
    difficulty: int
    """The computer's difficulty (100 when no computer played)."""
    started: datetime
    ended: datetime
    moves: tuple[PlayedMove, ...]
    outcome: Outcome
    switched_to_random: tuple[int, ...] = field(default=())
    """Move numbers (0-based: before that move) at which `c` switched the computer to random
    play; switching back to clever is listed in `switched_to_clever`."""
    switched_to_clever: tuple[int, ...] = field(default=())
    """Move numbers at which `c` switched the computer back to clever play."""
    settings: dict[str, object] = field(default_factory=dict)
    """Every field of the `GameSettings` the game was played with (for "play again" and the
    Settings screen), as plain values."""

    @property
    def cells(self) -> tuple[int, ...]:
        """The cells played, in order."""
        return tuple(move.cell for move in self.moves)
