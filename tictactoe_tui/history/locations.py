"""Where the history lives: the `--data-dir` flag, else `$TICTACTOE_TUI_DATA_DIR`, else the
platform's user data directory (`~/.local/share/tictactoe-tui` on Linux). The games played in
browsers (`serve`) live apart, in the `served` folder of that directory, unless `--data-dir`
names one (`served_data_dir`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import platformdirs

APP_NAME = "tictactoe-tui"
"""The name of the data directory `platformdirs` finds."""

DATA_DIR_ENV = "TICTACTOE_TUI_DATA_DIR"
"""The environment variable that moves the data directory (the tests point it at a temp dir)."""

DB_NAME = "history.sqlite3"
"""The database's file name inside the data directory."""

SERVED_DIR = "served"
"""The folder, inside the data directory, of the history of the games played in browsers."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: `override` (--data-dir), else $TICTACTOE_TUI_DATA_DIR, else the
    platform's user data directory."""
    chosen = override if override is not None else os.environ.get(DATA_DIR_ENV)
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def served_data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory of the games played in browsers (`serve`): `override` (serve's
    --data-dir) itself, else the `served` folder of `data_dir()`, so the owner's own history
    is never the browsers' unless --data-dir names it. Absolute: the app processes serve starts
    read it whatever their working directory."""
    if override:
        return Path(override).expanduser().absolute()
    return (data_dir() / SERVED_DIR).absolute()


def data_dir_problem(text: str) -> str | None:
    """Why `text` cannot name the data directory, in a few words; None when it can (it need not
    exist yet: the game makes it, the reading commands find nothing there)."""
    if not text.strip():
        return f"must name a directory, not {text!r}"
    path = Path(text).expanduser()
    for candidate in (path, *path.parents):
        if candidate.exists():
            if candidate.is_dir():
                return None
            what = "a file" if candidate.is_file() else "not a directory"
            if candidate == path:
                return f"{text} is {what}" + (", not a directory" if what == "a file" else "")
            return f"{text} is inside {candidate}, which is {what}"
    return None


def data_dir_argument(text: str) -> str:
    """argparse's reader for `--data-dir`: the text itself, or one line saying what is wrong."""
    problem = data_dir_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text
