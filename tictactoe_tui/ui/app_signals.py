"""The app's exit on a signal: SIGTERM, SIGHUP and SIGINT close it the normal way.

Python's default for them ends the process on the spot, leaving the terminal on the alternate
screen with mouse reporting on and the cursor hidden. Closing the normal way restores the
terminal and unmounts every screen, which stops any search in progress; a watchdog ends the
process if that takes longer than `EXIT_GRACE` seconds (the terminal itself may be gone).
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading

from textual.app import App

EXIT_SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")
"""Signals that end the app the normal way (terminal restored, every screen unmounted, any search
stopped), rather than killing it with the terminal still in full-screen mode. In a terminal
Ctrl+C is a key, not SIGINT; SIGINT comes from `kill -INT`, or from Ctrl+C pressed where
`tictactoe-tui serve` runs, which reaches the apps it started for the browser tabs too."""

EXIT_GRACE = 5.0
"""Seconds the normal exit may take after such a signal before the process ends regardless."""


def exit_on_signals(app: App[None]) -> None:
    """Let SIGTERM, SIGHUP and SIGINT close `app` as `q` does, with status 128 + the signal.

    Under a test runner (headless) the runner's own signals are left alone.
    """
    if app.is_headless:
        return
    loop = asyncio.get_running_loop()
    for name in EXIT_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:  # SIGHUP does not exist on Windows
            continue
        try:
            loop.add_signal_handler(number, exit_on_signal, app, number)
        except (NotImplementedError, RuntimeError, ValueError):
            return  # no signal handling in this loop or thread: keep the default


def exit_on_signal(app: App[None], number: int) -> None:
    """Close `app` after signal `number`, within `EXIT_GRACE` seconds whatever happens."""
    status = 128 + number
    app.exit(return_code=status)
    # When the terminal itself has gone (a closed tmux pane, a dropped ssh link), Textual's
    # output thread dies on the first write that fails and the exit then waits for it
    # forever. Screens unmount (searches stop) before that wait, so ending the process
    # after a grace period loses nothing; the worker processes notice their parent is gone.
    watchdog = threading.Timer(EXIT_GRACE, os._exit, (status,))
    watchdog.daemon = True
    watchdog.start()
