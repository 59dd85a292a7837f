"""How long the game board takes to appear: built, styled, laid out and painted, headless.

    python scripts/board_paint.py [--sizes 3 10 15] [--repeat 15]

For each size, a screen holding only the board (`#board`) is pushed `--repeat` times, each with a
busy position on it: every other cell taken, faint scores in the rest, an expected line of five
steps, the last move, a best move and the cursor. The figure is the median time from the push
to the first frame painted with the board on it (Textual's `App._display`, called headless as in
a terminal). The terminal and the driver are left out, so only the board's own cost shows; the
first paint of the whole app is `scripts/latency.py`'s job.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.screen import Screen

from tictactoe_tui.ui.widgets import Board


class BoardScreen(Screen[None]):
    """A screen with nothing on it but a board showing a busy position."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.board_size = size

    def compose(self) -> ComposeResult:
        """Only the board."""
        yield Board(self.board_size, id="board")

    def on_mount(self) -> None:
        """Every other cell taken, scores in the others, a line of five steps."""
        cells = self.board_size * self.board_size
        marks = ["XO"[cell % 2] if cell % 4 in (0, 1) else "" for cell in range(cells)]
        empty = [cell for cell in range(cells) if not marks[cell]]
        hints = {cell: f"{cell % 23 - 11:+d}" for cell in empty}
        line = {cell: (step, "XO"[step % 2]) for step, cell in enumerate(empty[:5], start=1)}
        board = self.query_one(Board)
        board.show(marks, hints=hints, line=line, last=0, best=empty[-1])
        board.cursor = cells // 2
        board.focus()


class PaintClock(App[None]):
    """An empty app that notes when it next paints a `BoardScreen`."""

    def __init__(self) -> None:
        super().__init__()
        self.painted: asyncio.Event = asyncio.Event()
        self.painted_at = 0.0

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        super()._display(screen, renderable)
        if isinstance(screen, BoardScreen) and renderable is not None and not self.painted.is_set():
            self.painted_at = time.perf_counter()
            self.painted.set()


async def paint_times(size: int, repeat: int) -> list[float]:
    """Seconds from pushing the board's screen to its first frame, `repeat` times."""
    app = PaintClock()
    times = []
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(repeat + 1):  # the first push also imports and parses: left out
            app.painted.clear()
            start = time.perf_counter()
            await app.push_screen(BoardScreen(size))
            await asyncio.wait_for(app.painted.wait(), timeout=30)
            times.append(app.painted_at - start)
            await pilot.pause()
            app.pop_screen()
            await pilot.pause()
    return times[1:]


def main() -> int:
    """Print the median paint time of each size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 10, 15])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    for size in args.sizes:
        times = asyncio.run(paint_times(size, args.repeat))
        print(
            f"{size}×{size}: median {statistics.median(times) * 1000:6.1f} ms "
            f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, {len(times)} paints)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
