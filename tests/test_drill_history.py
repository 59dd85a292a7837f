"""The drill's checks in the history: kept on check, read back as the solved count and the
streak; a history that is off or read-only keeps nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tictactoe_tui.history.drills import (
    DrillAttempt,
    DrillScore,
    attempts,
    drill_score,
    keep_attempt,
    score_of,
)
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.schema import SCHEMA_VERSION
from tictactoe_tui.history.store import HistoryStore


def attempt(solved: bool, exercise: str = "values") -> DrillAttempt:
    return DrillAttempt(
        exercise, 3, 3, "X../.O./...", 3, 3, 13, 13 if solved else 11, solved, {"seed": 4}
    )


def test_the_score_counts_solved_drills_and_the_streak_of_them_in_a_row():
    score = score_of([attempt(True), attempt(False), attempt(True), attempt(True)])
    assert score == DrillScore(attempts=4, solved=3, streak=2, best_streak=2)
    assert score.words() == "solved 3 · streak 2"
    assert score_of([]).words() == "solved 0 · streak 0"
    assert score_of([attempt(True), attempt(False)]).streak == 0


def test_attempts_are_kept_and_read_back_with_the_streak_after_each(data_dir: Path):
    store = HistoryStore.open()
    for solved, exercise in ((True, "values"), (True, "reorder"), (False, "values")):
        keep_attempt(store, attempt(solved, exercise))
    kept = attempts(store)
    assert kept == [attempt(True), attempt(True, "reorder"), attempt(False)]
    assert drill_score(store) == DrillScore(attempts=3, solved=2, streak=0, best_streak=2)
    keep_attempt(store, attempt(True))
    store.close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        streaks = [row[0] for row in db.execute("SELECT streak FROM drill_attempts ORDER BY id")]
    assert streaks == [1, 2, 0, 1]
    assert drill_score(HistoryStore.open()).words() == "solved 3 · streak 1"


def test_a_history_that_is_off_or_read_only_keeps_nothing(data_dir: Path, tmp_path: Path):
    off = HistoryStore(tmp_path / DB_NAME)  # never opened: off
    keep_attempt(off, attempt(True))
    assert attempts(off) == [] and drill_score(off) == DrillScore()

    store = HistoryStore.open()
    keep_attempt(store, attempt(True))
    store.close()
    path = data_dir / DB_NAME
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    newer = HistoryStore.open()
    assert newer.state == "read-only"
    keep_attempt(newer, attempt(True))
    assert drill_score(newer).solved == 1  # read, never written
    newer.close()
    assert path.read_bytes() == before
