"""Leaving the analysis board: one rule for Escape and q, so a study's moves are never dropped
without a word.

A study whose moves were never kept in the history (or changed since they were) is not left at
the first Escape or q: the board says how many moves would go and how to keep them (`k`); the
same key again, with nothing changed in between, leaves without keeping them. A study with no
moves, or exactly as it was kept, is left at once. The screen hands in the study as the text the
history keeps (`study_to_record`), so "changed" means "would be kept differently".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Leave(StrEnum):
    """The two ways off the analysis board, as the question names them."""

    BACK = "escape"
    QUIT = "q"


@dataclass
class LeaveGuard:
    """Whether leaving now drops unkept moves, and the question asked once first."""

    kept: str | None = None
    """The study as last kept (or as opened from the history), or None: never kept."""
    _asked: str | None = None

    def mark_kept(self, record: str) -> None:
        """The study was kept (or opened from the history) as `record`."""
        self.kept = record
        self._asked = None

    def ask(self, record: str, moves: int, way: Leave) -> str | None:
        """None to leave now; else the sentence that asks first (the question is asked once
        for a study as it stands: the next Escape or q leaves)."""
        if moves == 0 or record == self.kept or record == self._asked:
            return None
        self._asked = record
        verb = "go back" if way is Leave.BACK else "quit"
        key = "Escape" if way is Leave.BACK else "q"
        if self.kept is None:
            plural = "s" if moves != 1 else ""
            them = "them" if moves != 1 else "it"
            return (
                f"This study's {moves} move{plural} {'are' if moves != 1 else 'is'} not kept: "
                f"k keeps {them} in the history; {key} again to {verb} without {them}."
            )
        return (
            "This study has changed since it was kept: k keeps it again; "
            f"{key} again to {verb} without the changes."
        )
