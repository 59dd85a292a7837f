"""Helpers for driving the real app with Textual's Pilot."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from textual.pilot import Pilot
from textual.widgets import Select, Static

from tictactoe_tui.app import TicTacToeApp
from tictactoe_tui.screens.game import GameScreen
from tictactoe_tui.settings import GameSettings
from tictactoe_tui.widgets import Cell, EvalPanel

SIZE = (100, 34)
"""The terminal size every app test runs at (the size the app is designed for)."""


def _load_screenshots_script() -> ModuleType:
    """scripts/screenshots.py as a module: its scenes are the snapshot tests' scenes too."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses looks the module up by name while building Scene, so register it first.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


screenshots = _load_screenshots_script()
"""The screenshot script: `SCENES`, `Scene`, `settle`."""

settle = screenshots.settle
"""Wait until the computer has finished thinking and the screen has caught up."""


async def pick_with_mouse(pilot: Pilot[None], select_id: str, index: int) -> None:
    """Open the Select `select_id` with a click and click its option number `index`."""
    assert await pilot.click(f"#{select_id} SelectCurrent")
    await pilot.pause()
    overlay = pilot.app.screen.query_one(f"#{select_id} SelectOverlay")
    # Row 0 of the open list is its top border; the list may have scrolled to the current value.
    row = index - overlay.scroll_offset.y + 1
    assert 1 <= row <= overlay.size.height, "option scrolled out of sight"
    assert await pilot.click(f"#{select_id} SelectOverlay", offset=(3, row))
    await pilot.pause()
    assert pilot.app.screen.query_one(f"#{select_id}", Select).expanded is False


async def run_command(pilot: Pilot[None], words: str) -> None:
    """Open the command palette, type `words` and run the command it offers first."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*words)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await settle(pilot)


def game_app(**settings: object) -> TicTacToeApp:
    """The real app, opened straight on a game with these settings."""
    return TicTacToeApp(GameSettings(**settings), start_in_game=True)  # type: ignore[arg-type]


def text(widget: Static) -> str:
    """What a Static shows, as plain text."""
    return str(widget.render())


def game(pilot: Pilot[None]) -> GameScreen:
    """The game screen, whether or not a dialog is over it."""
    return next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))


def marks(pilot: Pilot[None]) -> list[str]:
    """The marks the player sees, cell by cell, row by row: "X", "O" or "" (faint hints and
    cell digits in empty cells are not marks)."""
    cells = game(pilot).query(Cell)
    return [cell_words(c)[0] if c.has_class("-x") or c.has_class("-o") else "" for c in cells]


def cell_words(cell: Cell) -> list[str]:
    """What a cell shows, word by word: its corner digit, its mark or score, a line step."""
    return text(cell).split()


def status(pilot: Pilot[None]) -> str:
    """The status line's text."""
    return text(game(pilot).query_one("#status", Static))


def scores(widget: Static) -> dict[str, dict[str, int]]:
    """A scoreboard's counts as the player reads them: {"session": {"X": 1, "O": 0, "Draws": 0},
    "all time": {...}} (only "session" when the all-time line is not shown)."""
    lines = text(widget).splitlines()
    if len(lines) == 1:  # one line: "You 2 · Computer 1 · Draws 3"
        pairs = [part.rsplit(" ", 1) for part in lines[0].split(" · ")]
        return {"session": {label.strip(): int(count) for label, count in pairs}}
    labels = lines[0].split()
    table = {}
    for line in lines[1:]:
        name, counts = line[:8].strip(), line[8:].split()
        table[name] = {label: int(count) for label, count in zip(labels, counts, strict=True)}
    return table


def panel(pilot: Pilot[None]) -> str:
    """The evaluation panel's text."""
    return game(pilot).query_one(EvalPanel).text
