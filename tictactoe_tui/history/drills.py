"""The alpha-beta drill's attempts in the history: each check, its score, and the streak.

Every check of a drill (issue 36) is one row of `drill_attempts` (schema 6): which exercise
(`values`: fill in the tree; `reorder`: order the children for the most pruning), the position
and the tree's shape, how many nodes were judged and how many were right (for `reorder`: the
leaves the learner's order visits and the fewest any order visits), whether it was solved, and
the streak after it (drills solved in a row). The solved count and the streak are read back
from the rows (`score_of`), so nothing else needs keeping.

No Textual here. A history that is off or read-only keeps nothing (the score reads as empty),
as in `predictions`, the model for this module.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from tictactoe_tui.history.store import HistoryStore

EXERCISES = ("values", "reorder")
"""The drill's exercises: fill in the tree, or reorder its children for the most pruning."""


@dataclass(frozen=True)
class DrillAttempt:
    """One check of one drill."""

    exercise: str
    """One of `EXERCISES`."""
    size: int
    k: int
    position: str
    """The position the tree was cut from (`str(Board)`)."""
    depth: int
    width: int
    nodes: int
    """Nodes judged (`values`), or leaves the learner's order visits (`reorder`)."""
    nodes_right: int
    """Nodes right (`values`), or the fewest leaves any order visits (`reorder`)."""
    solved: bool
    settings: Mapping[str, object] = field(default_factory=dict)
    """How the tree was cut and searched: order, leaves, cut, returns, seed."""


@dataclass(frozen=True)
class DrillScore:
    """Drills checked and solved, and the streak of drills solved in a row."""

    attempts: int = 0
    solved: int = 0
    streak: int = 0
    """Checks solved in a row, up to now (a check that is not right ends it)."""
    best_streak: int = 0

    def after(self, solved: bool) -> DrillScore:
        """The score with one more check."""
        streak = self.streak + 1 if solved else 0
        return replace(
            self,
            attempts=self.attempts + 1,
            solved=self.solved + int(solved),
            streak=streak,
            best_streak=max(self.best_streak, streak),
        )

    def words(self) -> str:
        """ "solved 3 · streak 2"."""
        return f"solved {self.solved} · streak {self.streak}"


def score_of(attempts: Iterable[DrillAttempt]) -> DrillScore:
    """The score of `attempts`, oldest first."""
    score = DrillScore()
    for attempt in attempts:
        score = score.after(attempt.solved)
    return score


def keep_attempt(store: HistoryStore, attempt: DrillAttempt, when: datetime | None = None) -> None:
    """Keep one check, with the streak after it; nothing when the history cannot write (a
    failed write loses only it)."""
    if not store.writable:
        return
    streak = drill_score(store).after(attempt.solved).streak
    stamp = (when or datetime.now()).isoformat(timespec="seconds")
    row = (
        stamp,
        attempt.exercise,
        attempt.size,
        attempt.k,
        attempt.position,
        attempt.depth,
        attempt.width,
        json.dumps(dict(attempt.settings), sort_keys=True),
        attempt.nodes,
        attempt.nodes_right,
        int(attempt.solved),
        streak,
        json.dumps({}),
    )
    with contextlib.suppress(sqlite3.Error):
        store.database.write(
            lambda db: db.execute(
                "INSERT INTO drill_attempts (attempted, exercise, size, k, position, depth, "
                "width, settings, nodes, nodes_right, solved, streak, detail) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
        )


def attempts(store: HistoryStore) -> list[DrillAttempt]:
    """Every check kept, oldest first (none when the history cannot be read)."""
    rows = store.database.rows(
        "SELECT exercise, size, k, position, depth, width, nodes, nodes_right, solved, settings "
        "FROM drill_attempts ORDER BY id"
    )
    return [
        DrillAttempt(
            exercise,
            size,
            k,
            position,
            depth,
            width,
            nodes,
            nodes_right,
            bool(solved),
            _settings(settings),
        )
        for exercise, size, k, position, depth, width, nodes, nodes_right, solved, settings in rows
        if exercise in EXERCISES
    ]


def drill_score(store: HistoryStore) -> DrillScore:
    """The score over every check kept (empty when the history cannot be read)."""
    return score_of(attempts(store))


def _settings(text: str) -> dict[str, object]:
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
