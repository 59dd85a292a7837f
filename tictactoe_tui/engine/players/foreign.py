"""Players that are not ours (an outside engine, a learner's code): how they fail and end.

Both run in processes of their own and may hang, crash or break the rules; the caller (a match,
the app's worker) ends the game as a forfeit with the fault's one sentence, whichever kind of
player it was. A stop request is not a fault: the move is simply not made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

__all__ = ["ForeignPlayer", "PlayerFault", "PlayerStopped", "close_foreign"]


class PlayerFault(Exception):
    """A player failed or broke the rules: it loses. `reason` says how in one sentence; `log`
    holds what it said last (an engine's stderr, a learner's traceback)."""

    def __init__(self, reason: str, log: tuple[str, ...] = ()) -> None:
        """Record why the player lost and what it said last."""
        super().__init__(reason)
        self.reason = reason
        self.log = log


class PlayerStopped(Exception):
    """The caller asked the player to stop (`should_stop`): its process was ended, no move made."""


@runtime_checkable
class ForeignPlayer(Protocol):
    """A player whose moves come from a process of its own, ended by `close()` (it starts again
    on its next move)."""

    def close(self) -> None:
        """End the player's process, if one runs."""
        ...


def close_foreign(players: Iterable[object]) -> None:
    """End the process of every player in `players` that has one."""
    for player in players:
        if isinstance(player, ForeignPlayer):
            player.close()
