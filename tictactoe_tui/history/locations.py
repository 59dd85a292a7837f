"""Where the history lives: the `--data-dir` flag, else `$TICTACTOE_TUI_DATA_DIR`, else the
platform's user data directory (`~/.local/share/tictactoe-tui` on Linux)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "tictactoe-tui"
"""The name of the data directory `platformdirs` finds."""

DATA_DIR_ENV = "TICTACTOE_TUI_DATA_DIR"
"""The environment variable that moves the data directory (the tests point it at a temp dir)."""

DB_NAME = "history.sqlite3"
"""The database's file name inside the data directory."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: `override` (--data-dir), else $TICTACTOE_TUI_DATA_DIR, else the
    platform's user data directory."""
    chosen = override if override is not None else os.environ.get(DATA_DIR_ENV)
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
