"""The settings of the last game started, kept so the next start offers them again.

One row (`id = 1`) of plain values as JSON; the store decides when to write them (a locked file
takes them later, with the games that wait).
"""

from __future__ import annotations

import json
from datetime import datetime

from tictactoe_tui.history.database import Database


def read_last_settings(database: Database) -> dict[str, object] | None:
    """The settings of the last game started, as plain values, or None."""
    rows = database.rows("SELECT settings FROM last_settings WHERE id = 1")
    if not rows:
        return None
    try:
        value = json.loads(rows[0][0])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def write_last_settings(database: Database, settings: dict[str, object], wait: bool) -> None:
    """Keep `settings` as the last used (sqlite3.Error when the file will not take them)."""
    now = datetime.now().isoformat(timespec="seconds")
    text = json.dumps(settings, sort_keys=True)
    database.write(
        lambda db: (
            db.execute(
                "INSERT OR REPLACE INTO last_settings (id, saved, settings) VALUES (1, ?, ?)",
                (now, text),
            ).lastrowid
            or 0
        ),
        wait=wait,
    )
