"""Memory kept per game: play many quick games on one Game screen and watch the process grow.

    python scripts/memory_per_game.py [--games 200] [--stock-footer]

Two people play a five-move game (X wins on the top row), the Results dialog opens, `r` starts
the next one: the path that leaked in Textual 8.2.8 (its `Footer` kept every key widget of every
dialog opened or closed). The process's resident memory is read after a warm-up and at the end
(after a garbage collection); the growth per game is their difference over the games between.
`--stock-footer` runs the same with Textual's own `Footer` on the Game screen, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import tempfile

from textual.widgets import Footer as TextualFooter

import tictactoe_tui.ui.screens.game as game_screen
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.results import ResultsScreen

WARM_UP = 20
"""Games played before the first reading (caches and first-time imports fill up)."""


def resident_mib() -> float:
    """This process's resident memory, in MiB (Linux)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def play(games: int) -> tuple[float, float]:
    """Play `games` games; return the resident memory in MiB after the warm-up and at the end."""
    app = TicTacToeApp(GameSettings(mode="human-vs-human"), start_in_game=True)
    readings: list[float] = []
    async with app.run_test(size=(100, 34)) as pilot:
        for played in range(games):
            if played in (WARM_UP, games - 1):
                gc.collect()
                readings.append(resident_mib())
            await pilot.press("1", "4", "2", "5", "3")
            await pilot.pause()
            if not isinstance(app.screen, ResultsScreen):
                raise SystemExit("memory: the game did not end in the results dialog")
            await pilot.press("r")
            await pilot.pause()
    return readings[0], readings[1]


def main() -> None:
    """Print the heap growth per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--stock-footer",
        action="store_true",
        help="use Textual's own Footer (the leak) on the Game screen",
    )
    args = parser.parse_args()
    if args.games <= WARM_UP + 1:
        raise SystemExit(f"memory: play more than {WARM_UP + 1} games")
    if args.stock_footer:
        game_screen.Footer = TextualFooter  # type: ignore[misc]
    os.environ["TICTACTOE_TUI_DATA_DIR"] = tempfile.mkdtemp(prefix="memory-")
    start, end = asyncio.run(play(args.games))
    per_game = (end - start) / (args.games - 1 - WARM_UP)
    footer = "Textual's Footer" if args.stock_footer else "the app's Footer"
    print(
        f"{args.games} games with {footer}: {start:.1f} MiB after {WARM_UP} games, "
        f"{end:.1f} MiB at the end: {per_game:.3f} MiB per game"
    )


if __name__ == "__main__":
    main()
