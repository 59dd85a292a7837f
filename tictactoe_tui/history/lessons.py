"""The course's progress in the history: each lesson's stars, how far the learner got, slips.

One row of `lessons` (schema 6) per lesson, by its key ("value", "minimax", …): the best stars
earned (0 until it is done), whether it is done, the exercises reached in the run kept last (so
a half-done lesson resumes there), and that run's mistakes and hints. A lesson done again keeps
its best stars. `reset_progress` empties the table (the screen and `learn --reset` confirm it
first). A store that keeps `only_own` (served to browsers) writes a lesson's row only when the
lesson has none or this store wrote it, and resets only the rows it wrote.

No Textual here. A history that is off or read-only keeps nothing and reads as no progress.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from tictactoe_tui.history.store import HistoryStore


@dataclass(frozen=True)
class LessonProgress:
    """Where the learner stands in one lesson."""

    lesson: str
    """The lesson's key (its file name without the number)."""
    stars: int = 0
    """The best stars earned, 0 to 3 (0 until done)."""
    done: bool = False
    reached: int = 0
    """Exercises done in the run kept last (where a half-done lesson resumes)."""
    mistakes: int = 0
    hints: int = 0


def keep_progress(store: HistoryStore, progress: LessonProgress) -> None:
    """Keep `progress` (a done lesson keeps its best stars); nothing when the history cannot
    write (a failed write loses only this)."""
    if not store.writable:
        return
    was = lesson_progress(store).get(progress.lesson)
    if store.only_own and was is not None and progress.lesson not in store.made_lessons:
        return  # made by the owner, another browser or an earlier visit: left as it is
    stars = max(progress.stars, was.stars if was is not None else 0)
    done = progress.done or (was is not None and was.done)
    row = (
        progress.lesson,
        stars,
        int(done),
        progress.reached,
        progress.mistakes,
        progress.hints,
        datetime.now().isoformat(timespec="seconds"),
    )
    with contextlib.suppress(sqlite3.Error):
        store.database.write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO lessons (lesson, stars, done, reached, mistakes, hints, "
                "updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                row,
            )
        )
        store.made_lessons.add(progress.lesson)


def lesson_progress(store: HistoryStore) -> dict[str, LessonProgress]:
    """Every lesson's progress kept, by key (none when the history cannot be read)."""
    rows = store.database.rows(
        "SELECT lesson, stars, done, reached, mistakes, hints FROM lessons ORDER BY lesson"
    )
    return {
        lesson: LessonProgress(lesson, int(stars), bool(done), int(reached), int(m), int(h))
        for lesson, stars, done, reached, m, h in rows
    }


def reset_progress(store: HistoryStore) -> bool:
    """Forget every lesson's progress (`only_own`: the progress this store wrote); False when
    the history cannot write."""
    if not store.writable:
        return False
    if store.only_own:
        mine = sorted(store.made_lessons)
        marks = ", ".join("?" * len(mine))
        delete = (f"DELETE FROM lessons WHERE lesson IN ({marks})", mine)
    else:
        delete = ("DELETE FROM lessons", [])
    try:
        store.database.write(lambda db: db.execute(*delete))
    except sqlite3.Error:
        return False
    store.made_lessons.clear()
    return True
