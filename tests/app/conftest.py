"""Helpers for driving the real app with Textual's Pilot."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Select, Static

import tictactoe_tui.play.controller as game_module
from tests.app.stand_ins import GatedPlayer
from tests.scripts import load_script
from tictactoe_tui.engine import Player, make_player
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.widgets import Board, EvalPanel

SIZE = (100, 34)
"""The terminal size every app test runs at (the size the app is designed for)."""


screenshots = load_script("screenshots")
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
    if not 1 <= row <= overlay.size.height:
        # A long list (board sizes up to 20×20) needs the wheel, as a person would scroll it.
        overlay.scroll_to(y=index, animate=False)
        await pilot.pause()
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


async def wait_until(
    pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 20.0
) -> None:
    """Let the app run until `condition()` holds (a search reports a few times a second)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out; the status says:\n{status(pilot)}"
        await pilot.pause(0.05)


async def press_settled(pilot: Pilot[None], *keys: str) -> None:
    """Press `keys` in turn, waiting for the computer (and any screen's work) after each."""
    await settle(pilot)
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def click_command(pilot: Pilot[None], title: str) -> None:
    """With the mouse alone: open the command palette from the footer, click the command whose
    title starts with `title`, and wait for what it opens."""
    palette = next(k for k in pilot.app.screen.query("FooterKey") if k.key == "ctrl+p")
    assert await pilot.click(palette)
    await pilot.pause(0.3)
    commands = pilot.app.screen.query_one(CommandList)
    index = next(
        i
        for i in range(commands.option_count)
        if str(commands.get_option_at_index(i).prompt).startswith(title)
    )
    # Each command takes two lines (its title, then its help) under the list's top edge.
    assert await pilot.click(CommandList, offset=(4, 1 + 2 * index))
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


def board(pilot: Pilot[None], selector: str = "#board") -> Board:
    """The board `selector` on the screen shown, or the game's board (`#board`) under a dialog."""
    screen = pilot.app.screen if selector != "#board" else game(pilot)
    return screen.query_one(selector, Board)


def marks(pilot: Pilot[None]) -> list[str]:
    """The marks the player sees, cell by cell, row by row: "X", "O" or "" (faint hints and
    cell digits in empty cells are not marks)."""
    return list(board(pilot).marks)


def cell_words(pilot: Pilot[None], cell: int) -> list[str]:
    """What a cell of the game's board shows, word by word: its corner digit, its mark or
    score, a line step."""
    return board(pilot).cell_text(cell).split()


async def click_cell(pilot: Pilot[None], cell: int, selector: str = "#board") -> bool:
    """Click the middle of `cell` on the board `selector`, as a player would; whether the click
    landed on the screen."""
    target = pilot.app.screen.query_one(selector, Board)
    return await pilot.click(target, offset=target.cell_offset(cell))


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


class Gate:
    """Holds every computer search until `set()`; see `stand_ins.GatedPlayer`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def set(self) -> None:
        """Let every held search go on."""
        self.path.touch()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Gate:
    """Hold every computer search until the test calls `set()` on the returned gate.

    "While the computer thinks" then lasts exactly as long as the test needs, with no timing
    guesswork (and Pilot, which waits for the CPU to go idle, is not slowed by a busy search).
    """
    opened = Gate(tmp_path / "gate")

    def gated_make_player(*args: Any, **kwargs: Any) -> Player:
        return GatedPlayer(make_player(*args, **kwargs), opened.path)  # type: ignore[return-value]

    monkeypatch.setattr(game_module, "make_player", gated_make_player)
    return opened
