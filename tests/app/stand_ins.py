"""Computer players for the app tests that hold, break or kill a search, wherever it runs.

They travel to the worker process (or are copied for a search run in a thread) like the real
players, so they are module-level classes, and the gate is a file: a test creates it to let
every held search go on.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from tictactoe_tui.engine import NO_LIMITS, Board, Decision, Limits, Player

GATE_TIMEOUT = 20.0
"""Seconds a held search waits for its gate before going on anyway (a test must not hang)."""


class GatedPlayer:
    """Plays like `inner`, once the file `gate` exists (or the search is cancelled)."""

    def __init__(self, inner: Player, gate: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.gate = gate
        self.rng = getattr(inner, "rng", None)

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        end = time.monotonic() + GATE_TIMEOUT
        while not self.gate.exists() and time.monotonic() < end:
            if limits.stopped():
                break
            time.sleep(0.01)
        return self.inner.choose(board, limits)


class BrokenPlayer:
    """A player whose search raises."""

    name = "Broken"

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        raise RuntimeError("the search went wrong")


class DyingPlayer:
    """Ends its process the first time it is asked (while the file `died` does not exist), as a
    crash of the worker would; then plays like `inner`."""

    def __init__(self, inner: Player, died: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.died = died
        self.rng = getattr(inner, "rng", None)

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        if not self.died.exists():
            self.died.touch()
            os._exit(9)
        return self.inner.choose(board, limits)
