"""The history's SQLite schema and its migrations.

The schema carries its version in `PRAGMA user_version`; `MIGRATIONS` holds the steps from an
empty file to the current version, and opening an older file runs the steps it lacks. Newer
versions only add tables and columns, so an older program can still read a newer file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

_SCHEMA_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    mode TEXT NOT NULL,
    x TEXT NOT NULL,
    o TEXT NOT NULL,
    size INTEGER NOT NULL,
    k INTEGER NOT NULL,
    first TEXT NOT NULL CHECK (first IN ('X', 'O')),
    difficulty INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('X', 'O', 'draw', 'abandoned')),
    move_count INTEGER NOT NULL,
    setup_moves INTEGER NOT NULL DEFAULT 0,
    switched_to_random TEXT NOT NULL DEFAULT '',
    switched_to_clever TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    cell INTEGER NOT NULL,
    mark TEXT NOT NULL CHECK (mark IN ('X', 'O')),
    by_computer INTEGER NOT NULL,
    seconds REAL,
    positions INTEGER,
    clever INTEGER,
    PRIMARY KEY (game_id, number)
) WITHOUT ROWID;
CREATE TABLE last_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    saved TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE INDEX games_by_start ON games (started);
"""

_SCHEMA_V2 = """
CREATE TABLE analyses (
    position TEXT NOT NULL,
    method TEXT NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (position, method)
) WITHOUT ROWID;
CREATE INDEX games_by_kind ON games (mode, x, o, difficulty, size, k, outcome);
"""

_SCHEMA_V3 = """
CREATE TABLE puzzle_attempts (
    id INTEGER PRIMARY KEY,
    puzzle TEXT NOT NULL,
    attempted TEXT NOT NULL,
    size INTEGER NOT NULL,
    k INTEGER NOT NULL,
    puzzle_rating INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    hints INTEGER NOT NULL DEFAULT 0,
    rated INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    streak INTEGER NOT NULL
);
CREATE INDEX puzzle_attempts_by_puzzle ON puzzle_attempts (puzzle);
"""

_SCHEMA_V4 = """
ALTER TABLE games ADD COLUMN forfeit TEXT NOT NULL DEFAULT '';
"""

_SCHEMA_V5 = """
CREATE TABLE IF NOT EXISTS studies (
    id INTEGER PRIMARY KEY,
    saved TEXT NOT NULL,
    size INTEGER NOT NULL,
    k INTEGER NOT NULL,
    root TEXT NOT NULL,
    moves INTEGER NOT NULL,
    variations INTEGER NOT NULL,
    record TEXT NOT NULL
);
"""

_SCHEMA_V6 = """
CREATE TABLE IF NOT EXISTS predictions (
    id INTEGER PRIMARY KEY,
    asked TEXT NOT NULL,
    source TEXT NOT NULL,
    size INTEGER NOT NULL,
    k INTEGER NOT NULL,
    position TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    expected TEXT NOT NULL,
    right INTEGER NOT NULL,
    seconds REAL NOT NULL DEFAULT 0,
    game_id INTEGER,
    detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS predictions_by_question ON predictions (question, asked);
CREATE TABLE IF NOT EXISTS cards (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    size INTEGER NOT NULL,
    k INTEGER NOT NULL,
    position TEXT NOT NULL,
    played INTEGER NOT NULL,
    mark TEXT NOT NULL,
    accepted TEXT NOT NULL,
    game_id INTEGER,
    move_number INTEGER,
    step INTEGER NOT NULL DEFAULT 0,
    due TEXT NOT NULL,
    seen TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '{}',
    UNIQUE (position, size, k)
);
CREATE TABLE IF NOT EXISTS drill_attempts (
    id INTEGER PRIMARY KEY,
    attempted TEXT NOT NULL,
    exercise TEXT NOT NULL,
    size INTEGER NOT NULL,
    k INTEGER NOT NULL,
    position TEXT NOT NULL,
    depth INTEGER NOT NULL,
    width INTEGER NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    nodes INTEGER NOT NULL,
    nodes_right INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS lessons (
    lesson TEXT PRIMARY KEY,
    stars INTEGER NOT NULL,
    done INTEGER NOT NULL,
    reached INTEGER NOT NULL DEFAULT 0,
    mistakes INTEGER NOT NULL DEFAULT 0,
    hints INTEGER NOT NULL DEFAULT 0,
    updated TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}'
);
"""

MIGRATIONS: tuple[str, ...] = (
    _SCHEMA_V1,
    _SCHEMA_V2,
    _SCHEMA_V3,
    _SCHEMA_V4,
    _SCHEMA_V5,
    _SCHEMA_V6,
)
"""`MIGRATIONS[n]` takes a file from schema version n to n + 1 (version 0 is an empty file):
1 the games, their moves and the last settings; 2 the review's cache of analyses; 3 the
puzzles tried (each try with the player's rating and streak after it); 4 why a game was lost
by a fault (an outside engine that failed), when it was; 5 the analysis board's studies (each
kept whole as its text record, with what the list shows beside it); 6 what the learner
answered: predictions (each question, answer and verdict), the "find a better move" cards and
their spaced-repetition step, the alpha-beta drill's attempts, and the course's lessons (stars,
how far, mistakes and hints). Each of those tables keeps extras in a JSON `detail`."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema this program writes."""


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT: take the write lock first, so the busy wait happens up front
    rather than as a deadlock in the middle."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def migrate(db: sqlite3.Connection) -> None:
    """Run the migrations the file lacks, each in its own transaction with its version."""
    with transaction(db):
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[step]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {step + 1}")


def _statements(script: str) -> list[str]:
    """The statements of a migration (executescript would commit the open transaction)."""
    return [part.strip() for part in script.split(";") if part.strip()]
