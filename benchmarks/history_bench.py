"""`python -m tictactoe_tui bench --history`: the history's three speed targets.

- saving one game: at most 20 ms (each save is its own transaction, as in the app);
- opening the History screen on 10,000 games: at most 300 ms to the table's first paint
  (measured headless, from pushing the screen to the end of its first refresh; the filters and
  the all-time scores, built just after, are timed too);
- reviewing a 3×3 game, every position solved: at most 100 ms.

Games come from `sample_games`: seeded random games over a mix of boards, modes and opponents.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.history.record import Outcome, PlayedGame, PlayedMove
from tictactoe_tui.history.review import GameReview
from tictactoe_tui.history.store import HistoryStore

if TYPE_CHECKING:
    from textual.app import ComposeResult

KINDS = (
    ("human-vs-computer", "human", "alphabeta", 3, 3),
    ("human-vs-computer", "h1", "human", 3, 3),
    ("human-vs-computer", "human", "random", 4, 4),
    ("human-vs-human", "human", "human", 3, 3),
    ("computer-vs-computer", "h2", "h2", 10, 5),
    ("human-vs-computer", "human", "minimax", 3, 3),
)
"""(mode, x, o, size, k) of the sample games, in turn."""


def sample_games(count: int, seed: int = 1, last: datetime | None = None) -> Iterator[PlayedGame]:
    """`count` random but legal games a minute apart, the last at `last` (default: now), some
    left unfinished."""
    rng = random.Random(seed)
    end = last if last is not None else datetime.now().replace(microsecond=0)
    start = end - timedelta(minutes=count - 1)
    for number in range(count):
        mode, x, o, size, k = KINDS[number % len(KINDS)]
        board = Board.empty(size, k)
        moves: list[PlayedMove] = []
        stop = rng.randint(3, 14) if size > 4 else None
        while not board.is_over and (stop is None or len(moves) < stop):
            cell = rng.choice(board.legal_moves())
            mover = board.to_move
            by_computer = (x if mover is Mark.X else o) != "human"
            moves.append(
                PlayedMove(
                    cell,
                    mover,
                    by_computer,
                    seconds=0.01 if by_computer else None,
                    positions=100 if by_computer else None,
                    clever=True if by_computer else None,
                )
            )
            board = board.play(cell)
        outcome: Outcome = (
            "abandoned"
            if not board.is_over
            else "draw"
            if board.winner is None
            else board.winner.value
        )
        began = start + timedelta(minutes=number)
        yield PlayedGame(
            mode,
            x,
            o,
            size,
            k,
            Mark.X,
            100 if number % 5 else 60,
            began,
            began + timedelta(seconds=30),
            tuple(moves),
            outcome,
            settings={"mode": mode, "size": size},
        )


def bench_save(directory: Path, games: int = 200) -> list[float]:
    """Milliseconds per save, each game its own transaction."""
    store = HistoryStore.open(directory)
    times = []
    for game in sample_games(games, seed=2):
        begin = time.perf_counter()
        store.save(game)
        times.append((time.perf_counter() - begin) * 1000)
    store.close()
    return times


def fill(directory: Path, games: int) -> None:
    """Put `games` sample games in the history in `directory`, in one transaction."""
    store = HistoryStore.open(directory)
    store.save_many(sample_games(games))
    store.close()


def bench_history_screen(
    directory: Path, repeats: int = 5
) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds from pushing the History screen to the table's first paint, to the filters
    and all-time scores being filled in just after it, and (for scale, since it depends on the
    machine and its load) to the first paint of a screen holding one line of text."""
    from textual.screen import Screen
    from textual.widgets import Footer, Static

    from tictactoe_tui.ui.app import TicTacToeApp
    from tictactoe_tui.ui.screens.history import HistoryScreen

    class Baseline(Screen[None]):
        """A screen of one line of text and a footer: what any screen costs to show."""

        def compose(self) -> ComposeResult:
            yield Static("baseline")
            yield Footer()

    async def measure() -> tuple[list[float], list[float], list[float]]:
        painted: list[float] = []
        ready: list[float] = []
        bare: list[float] = []
        app = TicTacToeApp(store=HistoryStore.open(directory))
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            for _ in range(repeats):
                filled = asyncio.get_running_loop().create_future()
                begin = time.perf_counter()
                screen = HistoryScreen(app.store)
                await app.push_screen(screen)
                screen.call_after_refresh(lambda f=filled: f.done() or f.set_result(None))
                await filled
                ready.append((time.perf_counter() - begin) * 1000)
                assert screen.painted_at is not None
                painted.append((screen.painted_at - begin) * 1000)
                app.pop_screen()
                await pilot.pause()
                shown = asyncio.get_running_loop().create_future()
                begin = time.perf_counter()
                baseline = Baseline()
                await app.push_screen(baseline)
                baseline.call_after_refresh(lambda f=shown: f.done() or f.set_result(None))
                await shown
                bare.append((time.perf_counter() - begin) * 1000)
                app.pop_screen()
                await pilot.pause()
        return painted, ready, bare

    return asyncio.run(measure())


def bench_review(games: int = 50) -> list[float]:
    """Milliseconds to solve every position of a finished 3×3 game, per game."""
    times = []
    for game in (g for g in sample_games(games * 6, seed=3) if g.size == 3):
        review = GameReview(game)
        begin = time.perf_counter()
        review.analyse_all()
        times.append((time.perf_counter() - begin) * 1000)
    return times[:games]


def bench_history() -> str:
    """The three measurements, medians and worst cases against their targets."""
    with tempfile.TemporaryDirectory() as temp:
        saves = bench_save(Path(temp) / "saves")
        fill(Path(temp) / "big", 10_000)
        painted, ready, bare = bench_history_screen(Path(temp) / "big")
    reviews = bench_review()
    rows = [
        ("save one game", saves, 20.0),
        ("open History, 10,000 games", painted, 300.0),
        ("  ... filters and scores filled", ready, None),
        ("  (a one-line screen, for scale)", bare, None),
        ("review a 3x3 game (all exact)", reviews, 100.0),
    ]
    lines = [
        f"{'history':<32}  {'runs':>4}  {'median ms':>9}  {'worst ms':>8}  {'target':>6}  ok",
        f"{'-' * 32}  ----  ---------  --------  ------  --",
    ]
    for name, times, target in rows:
        median = statistics.median(times)
        verdict = "" if target is None else "yes" if median <= target else "NO"
        limit = "" if target is None else f"{target:.0f}"
        lines.append(
            f"{name:<32}  {len(times):>4}  {median:>9.2f}  {max(times):>8.2f}  "
            f"{limit:>6}  {verdict}"
        )
    return "\n".join(lines)
