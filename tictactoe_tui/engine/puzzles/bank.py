"""The puzzle bank shipped with the package (`puzzle_bank.json`, made by scripts/puzzle_bank.py),
and the day's puzzle from it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources

from tictactoe_tui.engine.puzzles.puzzle import Puzzle

BANK_FILE = "puzzle_bank.json"
"""The puzzles shipped with the package, beside this module (made by scripts/puzzle_bank.py)."""


def load_bank(text: str | None = None) -> tuple[Puzzle, ...]:
    """The shipped puzzles (or those in the JSON `text`): every one a proven puzzle when the
    bank was made. A missing or unreadable bank is empty: puzzles are then made on demand."""
    try:
        if text is None:
            text = (
                resources.files("tictactoe_tui.engine.puzzles")
                .joinpath(BANK_FILE)
                .read_text(encoding="utf-8")
            )
        data = json.loads(text)
        return tuple(Puzzle.from_json(item) for item in data["puzzles"])
    except (OSError, ValueError, KeyError, TypeError):
        return ()


def puzzle_of_the_day(puzzles: Sequence[Puzzle], ordinal: int) -> Puzzle | None:
    """The day's puzzle (`ordinal`: `date.toordinal()`): the same all day, another the next."""
    if not puzzles:
        return None
    # A multiplier coprime with any bank size of interest spreads consecutive days apart.
    return puzzles[(ordinal * 7919) % len(puzzles)]
