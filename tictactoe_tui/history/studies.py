"""The analysis board's studies kept in the history: each whole, as its text record.

A study is kept as `record.study_to_record` writes it (so `export` and `import` need nothing
else), with what the list shows beside it: when it was saved, its board, its root position,
how many moves and variations it holds. The tree itself is `study.MoveTree`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from tictactoe_tui.history.database import Database
from tictactoe_tui.history.record import study_counts, study_to_record
from tictactoe_tui.history.study import MoveTree


@dataclass(frozen=True)
class StudySummary:
    """One line of the list of studies: a study without its moves."""

    id: int
    saved: datetime
    size: int
    k: int
    root: str
    """The root position, as `analyse` reads it."""
    moves: int
    """How many moves the study holds, every variation counted."""
    variations: int
    """How many variations branch off a main continuation."""


class StudyTable:
    """The studies kept, read and written through the history's database."""

    def __init__(self, database: Database) -> None:
        """Read and write through `database`."""
        self._database = database

    def save(self, tree: MoveTree, study_id: int | None = None) -> int:
        """Keep a study: a new one, or in place of study `study_id` (a new one when there is no
        such study). Returns its id; sqlite3.Error when the database refuses it."""
        moves, variations = study_counts(tree)
        now = datetime.now().replace(microsecond=0)
        root = tree.root.position
        values = (
            now.isoformat(timespec="seconds"),
            root.size,
            root.k,
            str(root),
            moves,
            variations,
        )

        def write(db: sqlite3.Connection) -> int:
            if (
                study_id is not None
                and db.execute("SELECT 1 FROM studies WHERE id = ?", (study_id,)).fetchone()
            ):
                text = study_to_record(tree, study_id, now)
                db.execute(
                    "UPDATE studies SET saved = ?, size = ?, k = ?, root = ?, moves = ?, "
                    "variations = ?, record = ? WHERE id = ?",
                    (*values, text, study_id),
                )
                return study_id
            new = (
                db.execute(
                    "INSERT INTO studies (saved, size, k, root, moves, variations, "
                    "record) VALUES (?, ?, ?, ?, ?, ?, '')",
                    values,
                ).lastrowid
                or 0
            )
            db.execute(
                "UPDATE studies SET record = ? WHERE id = ?", (study_to_record(tree, new, now), new)
            )
            return new

        return self._database.write(write)

    def summaries(self) -> list[StudySummary]:
        """Every study kept, the last saved first."""
        return [
            StudySummary(
                id=row[0],
                saved=datetime.fromisoformat(row[1]),
                size=row[2],
                k=row[3],
                root=row[4],
                moves=row[5],
                variations=row[6],
            )
            for row in self._database.rows(
                "SELECT id, saved, size, k, root, moves, variations "
                "FROM studies ORDER BY saved DESC, id DESC"
            )
        ]

    def record(self, study_id: int) -> str | None:
        """A study's text record, or None if there is no such study."""
        rows = self._database.rows("SELECT record FROM studies WHERE id = ?", (study_id,))
        return str(rows[0][0]) if rows else None

    def delete(self, study_id: int) -> bool:
        """Forget a study; whether it was there to forget (False when the database refuses)."""
        try:
            return bool(
                self._database.write(
                    lambda db: db.execute("DELETE FROM studies WHERE id = ?", (study_id,)).rowcount
                )
            )
        except sqlite3.Error:
            return False
