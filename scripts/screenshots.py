"""Regenerate the README's screenshots by driving the real app.

    python scripts/screenshots.py            # writes screenshots/*.svg at the repository root

Each scene starts the app at 100×34, plays a few seeded moves with Textual's Pilot (waiting for
the computer after each), and saves what the terminal shows with `App.save_screenshot`:

    settings.svg     the Settings screen with its defaults
    game.svg         3×3 against alpha-beta: you took the centre, the panel explains the reply
    results.svg      3×3 against H1: the computer wins, the Results dialog over the board
    help.svg         the Help screen
    game-10x10.svg   10×10 (5 in a row) against H1, two moves each
    browser.png      a finished game in a browser tab (`tictactoe-tui serve` in headless Chromium)

The snapshot tests (tests/app/test_snapshots.py) drive the same scenes, so the pictures in the
README are the screens the tests pin. Run it with the project installed (`pip install .`).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tictactoe_tui.app import TicTacToeApp
from tictactoe_tui.settings import GameSettings

TERMINAL_SIZE = (100, 34)
"""The terminal the app is designed for, and every screenshot's size."""

OUTPUT = Path(__file__).resolve().parent.parent / "screenshots"
"""Where the SVGs go: `screenshots/` at the repository root."""


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the computer has finished thinking and the screen has caught up."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


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

    def app(self) -> TicTacToeApp:
        """A fresh app for this scene."""
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
            if not await pilot.click(f"#cell-{cell}"):
                raise RuntimeError(f"{self.name}: could not click cell {cell}")
            await settle(pilot)


SCENES = {
    scene.name: scene
    for scene in (
        Scene("settings"),
        Scene("game", GameSettings(seed=1), keys=("5",)),
        # X takes A1, B1, A2; O takes the centre, blocks at C1 and wins on the diagonal at A3.
        Scene("results", GameSettings(seed=1, opponent="h1"), keys=("1", "2", "4")),
        Scene("help", keys=("question_mark",)),
        Scene("game-10x10", GameSettings(seed=1, size=10, opponent="h1"), clicks=(44, 55)),
    )
}
"""Every screenshot, by name."""


async def shoot(scene: Scene, directory: Path) -> Path:
    """Play `scene` and save its screenshot in `directory`; return the file written."""
    app = scene.app()
    async with app.run_test(size=TERMINAL_SIZE) as pilot:
        await scene.play(pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        written = app.save_screenshot(f"{scene.name}.svg", str(directory))
    return Path(written)


async def main() -> None:
    """Regenerate every screenshot."""
    OUTPUT.mkdir(exist_ok=True)
    for scene in SCENES.values():
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
    asyncio.run(main())
    shoot_browser()
