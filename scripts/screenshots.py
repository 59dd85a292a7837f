"""Regenerate the README's screenshots by driving the real app.

    python scripts/screenshots.py            # writes screenshots/*.svg at the repository root
    python scripts/screenshots.py compare tree tree-10x10      # only these (or "browser")

Each scene starts the app at 100×34, plays a few seeded moves with Textual's Pilot (waiting for
the computer after each), and saves what the terminal shows with `App.save_screenshot`:

    settings.svg     the Settings screen with its defaults
    game.svg         3×3 against alpha-beta: you took the centre, the panel explains the reply
    results.svg      3×3 against H1: the computer wins, the Results dialog over the board
    help.svg         the Help screen
    game-10x10.svg   10×10 (5 in a row) against H1, two moves each
    match.svg        the match runner after ten games of alpha-beta against random
    heuristics.svg   the heuristic lab on the position after you took the centre
    history.svg      the History screen over a few dozen kept games, with the all-time scores
    review.svg       the Review screen on a game against H1, at a move marked as a mistake
    compare.svg      the learning lab's comparison (a) after the computer opened and you replied
    tree.svg         the learning lab's search tree (t), replayed step by step to a cut-off
    tree-10x10.svg   the search tree on 10×10, at the line standing for the moves left out
    browser.png      a finished game in a browser tab (`tictactoe-tui serve` in headless Chromium)

The snapshot tests (tests/app/test_snapshots.py) drive the same scenes, so the pictures in the
README are the screens the tests pin. Run it with the project installed (`pip install .`).
Every scene gets a fresh, temporary history, so the pictures never show (or touch) yours.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable

from benchmarks.history_bench import sample_games
from tictactoe_tui.engine import Mark
from tictactoe_tui.history.locations import DATA_DIR_ENV
from tictactoe_tui.history.record import PlayedGame, PlayedMove
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.widgets import Board

TERMINAL_SIZE = (100, 34)
"""The terminal the app is designed for, and every screenshot's size."""

OUTPUT = Path(__file__).resolve().parent.parent / "screenshots"
"""Where the SVGs go: `screenshots/` at the repository root."""


SETTLE_TIMEOUT = 60.0
"""Seconds `settle` waits for a search before giving up (a hang must fail, not stall)."""


async def settle(pilot: Pilot[Any], timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until no search runs and the screen has caught up.

    The Game screen's `thinking` covers the computer's move, a hint and the board's scores; a
    screen whose work runs in the worker process says so with a `busy` property.
    """
    await pilot.pause()
    deadline = time.monotonic() + timeout
    while any(getattr(screen, "thinking", None) for screen in pilot.app.screen_stack):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still thinking after {timeout:g} s")
        await pilot.pause(0.02)
    await pilot.app.workers.wait_for_complete()
    while getattr(pilot.app.screen, "busy", False) or _tables_measuring(pilot.app.screen):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{type(pilot.app.screen).__name__} still busy after {timeout} s")
        await pilot.pause(0.05)
    await pilot.pause()


def _tables_measuring(screen: Screen[Any]) -> bool:
    """Whether a table on `screen` has cells whose new width it has not measured yet.

    A DataTable widens its columns for updated cells only when it next goes idle (Textual 8.2.8,
    `DataTable._on_idle`): a picture taken before that shows the new text cut to the old width.
    Waiting is not always enough: a frame drawn between the update and that idle stays in the
    table's render cache, cut, until the next update (Textual issue #3533); the compare screen's
    table, whose cells fill while the picture is being set up, sets its own column widths.
    """
    return any(table._updated_cells or table._require_update_dimensions
               for table in screen.query(DataTable))


@dataclass(frozen=True)
class Scene:
    """One picture: which app to start, and the keys and clicks that lead to the moment."""

    name: str
    """The screenshot's file name, without ".svg"."""
    settings: GameSettings | None = None
    """The game to start straight away, or None to open on the Settings screen."""
    keys: tuple[str, ...] = ()
    """Keys pressed in turn, waiting for the computer after each."""
    clicks: tuple[int, ...] = ()
    """Board cells clicked in turn (after the keys), waiting for the computer after each."""
    history: tuple[PlayedGame, ...] = ()
    """Games put in the history (the data directory's, $TICTACTOE_TUI_DATA_DIR) first."""

    def app(self) -> TicTacToeApp:
        """A fresh app for this scene."""
        if self.history:
            store = HistoryStore.open()
            store.save_many(self.history)
            store.close()
        if self.settings is None:
            return TicTacToeApp()
        return TicTacToeApp(self.settings, start_in_game=True)

    async def play(self, pilot: Pilot[Any]) -> None:
        """Bring the app to the moment the picture shows."""
        await settle(pilot)
        for key in self.keys:
            await pilot.press(key)
            await settle(pilot)
        for cell in self.clicks:
            board = pilot.app.screen.query_one("#board", Board)
            if not await pilot.click(board, offset=board.cell_offset(cell)):
                raise RuntimeError(f"{self.name}: could not click cell {cell}")
            await settle(pilot)


def showcase_game() -> PlayedGame:
    """A game against H1 with a mistake and blunders on both sides; X wins on the A column."""
    cells = (6, 1, 5, 2, 0, 4, 7, 8, 3)
    moves = tuple(PlayedMove(cell, Mark.X if i % 2 == 0 else Mark.O, by_computer=i % 2 == 1,
                             seconds=0.0004 if i % 2 else None, positions=8 if i % 2 else None,
                             clever=True if i % 2 else None)
                  for i, cell in enumerate(cells))
    started = datetime(2025, 3, 1, 15, 0)
    return PlayedGame("human-vs-computer", "human", "h1", 3, 3, Mark.X, 100, started,
                      started + timedelta(seconds=40), moves, "X",
                      settings={"opponent": "h1", "seed": 1})


EXAMPLE_HISTORY = (*sample_games(30, seed=4, last=datetime(2025, 3, 1, 14, 30)),
                   showcase_game())
"""The history the history and review scenes start from: 30 sample games, then the showcase."""

SCENES = {
    scene.name: scene
    for scene in (
        Scene("settings"),
        Scene("game", GameSettings(seed=1), keys=("5",)),
        # X takes A1, B1, A2; O takes the centre, blocks at C1 and wins on the diagonal at A3.
        Scene("results", GameSettings(seed=1, opponent="h1"), keys=("1", "2", "4")),
        Scene("help", keys=("question_mark",)),
        Scene("game-10x10", GameSettings(seed=1, size=10, opponent="h1"), clicks=(44, 55)),
        # Ten games of alpha-beta against random on 3×3: the match runner's table and charts.
        Scene("match", GameSettings(seed=1), keys=("m", "r")),
        # You took the centre, alpha-beta answered in a corner: how H1 and H2 rank your replies.
        Scene("heuristics", GameSettings(seed=1), keys=("5", "w")),
        Scene("history", keys=("y",), history=EXAMPLE_HISTORY),
        # The newest game is the showcase: open it, go to the start, step to X's mistake C2.
        Scene("review", keys=("y", "enter", "home", "right", "right", "right"),
              history=EXAMPLE_HISTORY),
        # The computer (X) opens, you take the centre, it replies; then the lab on move 4.
        Scene("compare", GameSettings(seed=1, first="computer", mark="O"), keys=("5", "a")),
        # You take the centre, the computer replies; the tree replayed to a cut-off that prunes two.
        Scene("tree", GameSettings(seed=1), keys=("5", "t", "s", *["n"] * 47)),
        # 10×10 against H1: you take F6, it replies; the tree to depth 2, at its last line, the
        # one standing for the moves the search left out (lit on the small board).
        Scene("tree-10x10", GameSettings(seed=1, size=10, opponent="h1"),
              keys=("enter", "t", "down", "down", "enter", "end")),
    )
}
"""Every screenshot, by name."""


async def shoot(scene: Scene, directory: Path) -> Path:
    """Play `scene` (with a fresh history) and save its screenshot in `directory`; return the
    file written."""
    with tempfile.TemporaryDirectory() as data:
        os.environ[DATA_DIR_ENV] = data
        app = scene.app()
        async with app.run_test(size=TERMINAL_SIZE) as pilot:
            await scene.play(pilot)
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            written = app.save_screenshot(f"{scene.name}.svg", str(directory))
    return Path(written)


async def main(names: list[str]) -> None:
    """Regenerate the screenshots of the scenes `names` (every one when empty)."""
    unknown = [name for name in names if name not in SCENES]
    if unknown:
        raise SystemExit(f"no scene {', '.join(unknown)}: the scenes are {', '.join(SCENES)}")
    OUTPUT.mkdir(exist_ok=True)
    for scene in SCENES.values():
        if not names or scene.name in names:
            print(await shoot(scene, OUTPUT))


def shoot_browser() -> None:
    """screenshots/browser.png: a finished game in headless Chromium (scripts/browser_game.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import browser_game

    missing = browser_game.browser_missing()
    if missing is not None:
        print(f"browser.png not regenerated: {missing}")
        return
    with browser_game.served() as server:
        browser_game.play_in_browser(server.url, OUTPUT / "browser.png")
    print(OUTPUT / "browser.png")


if __name__ == "__main__":
    chosen = sys.argv[1:]
    scenes = [name for name in chosen if name != "browser"]
    if scenes or not chosen:
        asyncio.run(main(scenes))
    if not chosen or "browser" in chosen:
        shoot_browser()
