"""Rows the learner's tables keep, written the one way they all are.

The tables of what a learner answered (predictions, cards; schema 6) each keep a row per answer,
written through the store's connection in one short transaction, and a failed write loses only
that row: the answer still counts on screen. `write_rows` is that write, so the tables' modules
hold only their own columns.

No Textual here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from tictactoe_tui.history.store import HistoryStore


def write_rows(store: HistoryStore, sql: str, rows: Sequence[Sequence[object]]) -> int | None:
    """Run `sql` once per row of `rows` in one transaction of `store`'s database, and return
    the rows it changed (an `INSERT OR IGNORE` of a row already there changes none); None when
    nothing was written: the history cannot write (off, read-only) or the write failed (a lock,
    a full disk: the store remembers why)."""
    if not store.writable:
        return None
    if not rows:
        return 0
    try:
        return store.database.write(lambda db: db.executemany(sql, rows).rowcount)
    except sqlite3.Error:
        return None
