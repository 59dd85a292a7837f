"""The review's cache of analyses: a position's analysis by the method that made it, as text.

A cache only: an analysis the history cannot keep (a lock, a full disk) is simply made again
the next time the position is reviewed, so keeping one never waits for a lock.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from tictactoe_tui.history.database import Database

CHUNK = 500
"""Positions asked for in one query (SQLite limits the parameters of a statement)."""


class AnalysisCache:
    """The analyses kept, read and written through the history's database."""

    def __init__(self, database: Database) -> None:
        """Read and write through `database`."""
        self._database = database

    def cached(self, positions: Iterable[str], method: str) -> dict[str, str]:
        """The cached analyses of `positions` made with `method`, by position."""
        wanted = list(positions)
        found: dict[str, str] = {}
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start : start + CHUNK]
            marks = ", ".join("?" * len(chunk))
            query = (
                f"SELECT position, analysis FROM analyses WHERE method = ? "
                f"AND position IN ({marks})"
            )
            found.update((row[0], row[1]) for row in self._database.rows(query, [method, *chunk]))
        return found

    def keep(self, position: str, method: str, analysis: str, replace: bool = True) -> None:
        """Keep an analysis for the next review, without waiting for a lock (a failure is
        silent: the analysis is made again next time); without `replace`, one kept already
        stays as it is."""
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        try:
            self._database.write(
                lambda db: (
                    db.execute(
                        f"{verb} INTO analyses (position, method, analysis) VALUES (?, ?, ?)",
                        (position, method, analysis),
                    ).lastrowid
                    or 0
                ),
                wait=False,
            )
        except sqlite3.Error:
            return
