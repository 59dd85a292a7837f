"""The history's one SQLite connection, shared between threads under one lock.

A read never raises: a missing or broken file reads as nothing, and the store is told why (its
`notice`). A write is one short `BEGIN IMMEDIATE` transaction that waits for another program's
lock at most `busy_seconds`, or not at all; the database remembers whether the last write met a
lock (then the store's later writes only try) or another trouble (a full disk), until one
succeeds. Which file to open and what its state is are `opening`'s business; the tables'
queries are in `games`, `scores`, `studies`, `analyses` and `puzzles`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tictactoe_tui.history.schema import transaction

T = TypeVar("T")


class Database:
    """The connection (None when there is no file to use), its lock and its last write's fate."""

    def __init__(self, busy_seconds: float, on_read_error: Callable[[str], None]) -> None:
        """No connection yet (`attach` gives it one); a read that fails tells `on_read_error`
        why, in a few words."""
        self.connection: sqlite3.Connection | None = None
        """The open file, or None (off, waiting for a lock, or closed)."""
        self.lock = threading.RLock()
        """Held by every read and write, and by the store around each of its operations."""
        self.busy_seconds = busy_seconds
        """How long the first write of an operation waits for a lock."""
        self.locked_out = False
        """Whether the last write found the file locked (then the store's writes only try,
        never wait, until one succeeds)."""
        self.trouble: str | None = None
        """Why the last write failed, when it was not a lock (a full disk): until one succeeds."""
        self._on_read_error = on_read_error

    def attach(self, connection: sqlite3.Connection | None) -> None:
        """Use `connection` from now on, waiting `busy_seconds` for a lock as usual."""
        with self.lock:
            self.connection = connection
            if connection is not None:
                self._wait_as_usual(connection)

    def close(self) -> None:
        """Close the file, if one is open (a write after this raises, a read reads nothing)."""
        with self.lock:
            if self.connection is not None:
                self.connection.close()
                self.connection = None

    def rows(self, sql: str, values: Sequence[object] = ()) -> list[Any]:
        """The rows a query returns; none when the file cannot be read."""

        def fetch(db: sqlite3.Connection) -> list[Any]:
            return db.execute(sql, values).fetchall()

        return self.read(fetch, [])

    def read(self, query: Callable[[sqlite3.Connection], T], empty: T) -> T:
        """Run a read; a broken or missing file reads as `empty` (and the store hears why)."""
        with self.lock:
            if self.connection is None:
                return empty
            try:
                return query(self.connection)
            except sqlite3.Error as error:
                self._on_read_error(reason(error))
                return empty

    def write(self, change: Callable[[sqlite3.Connection], T], wait: bool = True) -> T:
        """Run `change` in one write transaction and return what it returns; without `wait`,
        a locked file fails at once rather than after `busy_seconds`. sqlite3 errors propagate
        (and are remembered: `locked_out`, `trouble`)."""
        with self.lock:
            db = self.connection
            if db is None:
                raise sqlite3.OperationalError("the history is closed")
            if not wait:
                db.execute("PRAGMA busy_timeout = 0")
            try:
                with transaction(db):
                    done = change(db)
            except sqlite3.Error as error:
                if is_busy(error):
                    self.locked_out = True
                else:
                    self.trouble = reason(error)
                raise
            else:
                self.locked_out = False
                self.trouble = None
                return done
            finally:
                if db.in_transaction:  # a COMMIT that failed (a full disk) leaves one open
                    db.execute("ROLLBACK")
                if not wait:
                    self._wait_as_usual(db)

    def _wait_as_usual(self, db: sqlite3.Connection) -> None:
        """Make `db` wait `busy_seconds` for a lock again."""
        db.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")


def is_busy(error: sqlite3.Error) -> bool:
    """Another connection holds the lock."""
    name = getattr(error, "sqlite_errorname", "")
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(error)


def reason(error: BaseException) -> str:
    """An error in a few words, for a one-line notice."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__
