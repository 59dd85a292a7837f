"""Opening the history's file: which connection, in which state, with which notice; never raises.

- a path that is not a file (a folder, a pipe, a device) turns the history off;
- a damaged file is moved aside to `history.sqlite3.damaged-YYYYmmdd-HHMMSS` (kept) and a fresh
  one is started (when opening to write: opening to read moves it aside too but starts nothing);
- a file from a newer version of the program, or one in a folder (or on a mount) that cannot be
  written, opens read-only;
- a file locked by another program leaves the store "waiting" for it;
- a data directory that can be neither written nor read turns the history off.

The file runs in WAL mode, so a reader never waits for a writer; opening an older file runs
the migrations it lacks (`schema`).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from tictactoe_tui.history import notices
from tictactoe_tui.history.database import is_busy, reason
from tictactoe_tui.history.schema import SCHEMA_VERSION, migrate

State = Literal["ready", "read-only", "waiting", "off"]
""""ready": reads and writes; "read-only": a newer program's file, or one that cannot be
written; "waiting": the file was locked when opened, nothing is read until a retry connects;
"off": no history at all."""


@dataclass(frozen=True)
class Opened:
    """What opening the file gave."""

    connection: sqlite3.Connection | None
    """The open file (None when the history is off or waiting)."""
    state: State
    notice: str = ""
    """One line for the user when the history is not working as usual, else ""."""
    locked: bool = False
    """Whether another program held the file's lock."""
    why: str = ""
    """Why new games cannot be written, in a few words, when they cannot ("read-only", "no
    space left on device", "not a file"), else ""."""


def open_file(path: Path, busy_seconds: float, create: bool) -> Opened:
    """Open the history at `path` (with `create`, making its folder and the file if need be),
    waiting `busy_seconds` for a lock; never raises."""
    if path.exists() and not path.is_file():
        # A folder, a pipe, a device: SQLite would refuse it, or wait on a pipe for ever.
        return Opened(None, "off", notices.not_a_file(path), why="it is not a file")
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        return Opened(*connect(path, busy_seconds))
    except sqlite3.DatabaseError as error:
        if is_damage(error):
            return _damaged(path, busy_seconds, create)
        if is_busy(error):
            return Opened(None, "waiting", notices.locked(path, notices.kept(0, 0, False)), True)
        return _read_only(path, busy_seconds, error)
    except OSError as error:
        return _read_only(path, busy_seconds, error)


def connect(path: Path, busy_seconds: float) -> tuple[sqlite3.Connection, State, str]:
    """Open `path`, check it and bring its schema up to date: the connection, its state and its
    notice. sqlite3 errors propagate.

    The migrations take the write lock only when the file lacks one: a current file opens (and
    reads) while another program holds the lock."""
    db = sqlite3.connect(path, timeout=busy_seconds, isolation_level=None, check_same_thread=False)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            db.close()
            return (
                read_only_connection(path, busy_seconds),
                "read-only",
                notices.newer_schema(version, SCHEMA_VERSION),
            )
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
        check = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
        if version < SCHEMA_VERSION:
            migrate(db)
    except BaseException:
        db.close()
        raise
    return db, "ready", ""


def read_only_connection(path: Path, busy_seconds: float) -> sqlite3.Connection:
    """A connection that only reads `path`. A file in WAL mode in a folder that cannot be
    written cannot even be read the usual way (SQLite needs its `-shm` file): then it is read
    as immutable, which is what a read-only mount is."""
    uri = path.resolve().as_uri()
    failure: sqlite3.Error | None = None
    for options in ("mode=ro", "mode=ro&immutable=1"):
        db = sqlite3.connect(
            f"{uri}?{options}",
            uri=True,
            timeout=busy_seconds,
            check_same_thread=False,
            isolation_level=None,
        )
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as error:
            db.close()
            failure = error
            continue
        return db
    assert failure is not None
    raise failure


def is_damage(error: sqlite3.Error) -> bool:
    """A file that is not a database, or one whose pages are broken."""
    name = getattr(error, "sqlite_errorname", "")
    if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return True
    text = str(error)
    return "not a database" in text or "malformed" in text


def _damaged(path: Path, busy_seconds: float, create: bool) -> Opened:
    """Move a damaged file aside; when opening to write, start a new one in its place."""
    try:
        moved = move_aside(path)
    except OSError as stuck:
        if not create:
            return Opened(None, "off", notices.damaged_stuck_reading(path, reason(stuck)))
        return Opened(None, "off", notices.damaged_stuck(path, reason(stuck)), why="damaged")
    if not create:
        # A reading command (`history`, `export`) writes nothing: it keeps the damaged file by
        # moving it aside (a rename; the stage-2 contract asks for it), and makes no new
        # history: the next game played (or an import) starts one.
        return Opened(None, "off", notices.damaged_moved_reading(path, moved))
    try:
        connection, state, _ = connect(path, busy_seconds)
    except (sqlite3.Error, OSError) as again:
        return Opened(
            None, "off", notices.damaged_moved_then_off(moved, reason(again)), why=reason(again)
        )
    return Opened(connection, state, notices.damaged_moved(moved))


def _read_only(path: Path, busy_seconds: float, error: BaseException) -> Opened:
    """The folder or the file cannot be written: list the games read-only if there are any,
    else the history is off."""
    folder = path.parent
    if path.exists():
        try:
            connection: sqlite3.Connection | None = read_only_connection(path, busy_seconds)
        except sqlite3.Error:
            connection = None
        if connection is not None:
            why = "read-only" if not os.access(folder, os.W_OK) else reason(error)
            return Opened(connection, "read-only", notices.read_only(folder, why), why=why)
    why = "read-only" if folder.is_dir() and not os.access(folder, os.W_OK) else reason(error)
    return Opened(None, "off", notices.cannot_write(folder, reason(error)), why=why)


def move_aside(path: Path) -> Path:
    """Rename a damaged file (and its write-ahead log) to a timestamped name beside it."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    suffix = 1
    while target.exists():
        suffix += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{suffix}")
    path.rename(target)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        wal.rename(target.with_name(target.name + "-wal"))
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return target
