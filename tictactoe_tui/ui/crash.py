"""An unexpected error's details: written to a crash log in the user's state directory, never
over the terminal (`TicTacToeApp._fatal_error` closes the app with one plain line)."""

from __future__ import annotations

import os
import tempfile
from datetime import datetime
from pathlib import Path


def state_dir() -> Path:
    """The app's state directory: under $XDG_STATE_HOME, else ~/.local/state, else a temp dir.

    A relative XDG_STATE_HOME is ignored, as the XDG spec says; without a home directory (HOME
    unset and no passwd entry, where `Path.home()` raises) a private folder in the system's
    temporary directory stands in, so the crash handler itself can never fail here.
    """
    xdg = os.environ.get("XDG_STATE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "tictactoe-tui"
    try:
        home = Path.home()
    except RuntimeError:
        home = None
    if home is not None and home.is_absolute():
        return home / ".local" / "state" / "tictactoe-tui"
    return Path(tempfile.gettempdir()) / f"tictactoe-tui-{os.getuid()}"


def crash_log_path() -> Path:
    """Where an unexpected error's details go: the user's state directory, not the screen."""
    return state_dir() / "crash.log"


def log_crash(details: str) -> str:
    """Add `details` (a traceback), dated, to the crash log; say where they went, in words
    for the one line the app closes with."""
    path = crash_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {datetime.now().isoformat(timespec='seconds')}\n{details}\n")
        return f"the details are in {path}"
    except OSError:
        return "the details could not be saved"
