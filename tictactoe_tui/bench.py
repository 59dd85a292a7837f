"""`python -m tictactoe_tui bench`: the engine's speed, side by side with plain minimax.

Everything runs in one process and every search starts from a fresh state: the shape tables are
rebuilt (their cache is cleared) and each call builds its own transposition table, so no
measurement profits from an earlier one. `--quick` skips the solves above 4x4.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial

from tictactoe_tui.engine import _fastsearch
from tictactoe_tui.engine.board import Board, cell_notation
from tictactoe_tui.engine.search import (
    SearchResult,
    alphabeta,
    analyse_position,
    describe_score,
    minimax,
    win_score,
)
from tictactoe_tui.engine.solver import RootSolver, Solver


def position(x_cells: Sequence[int], o_cells: Sequence[int], size: int = 10,
             k: int = 5) -> Board:
    """A board with X and O on the given cells (the side to move follows from the counts)."""
    cells = ["X" if c in x_cells else "O" if c in o_cells else "." for c in range(size * size)]
    return Board.from_string("".join(cells), k=k)


MIDDLE_GAMES_10X10 = (
    ((44, 55, 45, 34), (54, 35, 66, 53)),
    ((44, 45, 55, 36), (54, 35, 46, 65)),
    ((33, 44, 55, 42, 52, 63), (43, 54, 34, 45, 64, 22)),
)
"""Middle-game positions (X cells, O cells) for the depth a one-second budget reaches."""

TACTICS_10X10 = (
    ("win in one", (42, 43, 44, 45), (20, 30, 90, 51), (41, 46)),
    ("win, not block", (32, 33, 34, 35), (60, 61, 62, 63), (31, 36)),
    ("block a four", (42, 43, 44, 45), (41, 66, 99), (46,)),
    ("open three -> open four", (32, 33, 34), (0, 9, 99), (31, 35)),
)
"""(name, X cells, O cells, the moves that solve it) on 10x10 with k = 5."""


def fresh() -> None:
    """Forget every cached shape table so the next search pays for building its own."""
    _fastsearch.shape.cache_clear()


def timed(run: Callable[[], SearchResult]) -> tuple[SearchResult, float]:
    """Run a search from a fresh state; return it with its wall time in milliseconds."""
    fresh()
    start = time.perf_counter()
    result = run()
    return result, (time.perf_counter() - start) * 1000


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain text table with right-aligned columns (the first one left-aligned)."""
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        parts = [str(c).ljust(w) if i == 0 else str(c).rjust(w)
                 for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(parts)

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def bench_3x3() -> str:
    """Minimax against alpha-beta on the empty board and after each kind of first move."""
    empty = Board.empty(3, 3)
    positions = (("empty board", empty), ("after corner (0)", empty.play(0)),
                 ("after edge (1)", empty.play(1)), ("after centre (4)", empty.play(4)))
    rows = []
    for name, board in positions:
        # Alpha-beta first, so that it never runs on tables minimax warmed up.
        fast, fast_ms = timed(partial(alphabeta, board))
        slow, slow_ms = timed(partial(minimax, board))
        agree = "yes" if fast.score == slow.score else "NO"
        rows.append([name, f"{slow.nodes:,}", f"{slow_ms:.1f}", f"{fast.nodes:,}",
                     f"{fast_ms:.2f}", f"{slow_ms / fast_ms:.0f}x",
                     f"{100 * fast.nodes / slow.nodes:.3f}%", f"{fast.move}",
                     describe_score(fast.score, board), agree])
    headers = ["3x3 best move", "minimax nodes", "ms", "alpha-beta nodes", "ms", "speed-up",
               "nodes", "move", "score", "agree"]
    return table(headers, rows)


def bench_analyse() -> str:
    """Exact scores of all nine first moves: alpha-beta's analysis against minimax's."""
    board = Board.empty(3, 3)
    fresh()
    fast = analyse_position(board, "alphabeta")
    fresh()
    slow = analyse_position(board, "minimax")
    same = {m.move: m.score for m in fast.scores} == {m.move: m.score for m in slow.scores}
    rows = [["minimax", f"{slow.nodes:,}", f"{slow.elapsed * 1000:.1f}", "100%",
             " ".join(f"{m.move}:{m.score}" for m in slow.scores)],
            ["alpha-beta", f"{fast.nodes:,}", f"{fast.elapsed * 1000:.2f}",
             f"{100 * fast.elapsed / slow.elapsed:.2f}%",
             " ".join(f"{m.move}:{m.score}" for m in fast.scores)]]
    text = table(["analyse empty 3x3", "nodes", "ms", "time vs minimax", "move:score"], rows)
    return text + f"\nall nine exact scores identical: {'yes' if same else 'NO'}"


SOLVE_TARGETS = (
    # (size, k, the time limit alphabeta gets): the m,n,k games the engine must solve.
    (4, 3, 1.0), (4, 4, 1.0), (5, 3, 1.0), (5, 5, 1.0), (5, 4, 1.0), (6, 5, 10.0), (6, 4, 10.0),
    (7, 4, 30.0),
)
"""The empty boards `solve_table` solves: 4x4 only with --quick."""


def exact_solve(board: Board) -> tuple[int, int, int]:
    """The exact solver alone, with no clock: (score, move, nodes)."""
    sh = _fastsearch.shape(board.size, board.k)
    poller = _fastsearch.Poller(None, None, sh.poll_mask)
    score, move = RootSolver(board, Solver(sh, poller)).solve()
    return score, move, poller.nodes


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """The median wall time of `repeats` runs, each from a fresh state."""
    times = []
    for _ in range(repeats):
        fresh()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def solve_table(quick: bool, repeats: int = 3) -> str:
    """Empty boards solved to the end, by the solver alone and through alphabeta under a clock.

    Times are medians of `repeats` runs; the peak memory is the solver's, from one more run under
    tracemalloc (which slows Python down, so it is not timed).
    """
    rows = []
    for size, k, limit in SOLVE_TARGETS:
        if quick and size > 4:
            continue
        board = Board.empty(size, k)
        score, move, nodes = exact_solve(board)
        alone = median_seconds(partial(exact_solve, board), repeats)
        clocked = alphabeta(board, time_limit=limit)
        with_clock = median_seconds(partial(alphabeta, board, time_limit=limit), repeats)
        fresh()
        tracemalloc.start()
        exact_solve(board)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append([f"{size}x{size}, k={k}, from empty", describe_score(score, board),
                     f"{cell_notation(move, size)}", f"{alone:.2f}", f"{nodes:,}",
                     f"{limit:g}", f"{with_clock:.2f}", f"{clocked.nodes:,}",
                     "yes" if clocked.complete and clocked.score == score else "NO",
                     f"{peak / 2**20:.1f}"])
    headers = ["solve", "value", "move", "solver s", "nodes", "time_limit", "alphabeta s",
               "nodes", "proven", "peak MiB"]
    return table(headers, rows) + f"\n(seconds: median of {repeats} runs)"


def bench_10x10(budget: float) -> str:
    """Depth reached in `budget` seconds from middle games, and the tactics that must not fail."""
    rows = []
    for index, (xs, os_) in enumerate(MIDDLE_GAMES_10X10, start=1):
        board = position(xs, os_)
        result, ms = timed(partial(alphabeta, board, time_limit=budget))
        rows.append([f"middle game {index} ({board.to_move} to move)", f"{result.depth}",
                     f"{result.nodes:,}", f"{ms:.0f}", f"{result.move}",
                     describe_score(result.score, board, exact=result.complete), "-"])
    for name, xs, os_, answers in TACTICS_10X10:
        board = position(xs, os_)
        result, ms = timed(partial(alphabeta, board, time_limit=budget))
        ok = "ok" if result.move in answers else f"FAIL (want {answers})"
        rows.append([f"{name} ({board.to_move} to move)", f"{result.depth}",
                     f"{result.nodes:,}", f"{ms:.0f}", f"{result.move}",
                     describe_score(result.score, board, exact=result.complete), ok])
    headers = [f"10x10, k=5, {budget:g} s budget", "depth", "nodes", "ms", "move", "score",
               "check"]
    return table(headers, rows)


def main(argv: list[str]) -> int:
    """Run the benchmark and print its tables; `--quick` skips the solves above 4x4."""
    parser = argparse.ArgumentParser(prog="tictactoe-tui bench",
                                     description="Engine benchmark: alpha-beta against minimax.")
    parser.add_argument("--quick", action="store_true", help="skip the solves above 4x4")
    parser.add_argument("--history", action="store_true",
                        help="time the history instead: saving, the History screen, a review")
    args = parser.parse_args(argv)
    if args.history:
        from tictactoe_tui.history_bench import bench_history

        print(bench_history())
        return 0
    sections = [bench_3x3(), bench_analyse(), solve_table(args.quick), bench_10x10(1.0)]
    print(f"W (win score base) on 3x3 = {win_score(Board.empty(3, 3))}; scores are from the side "
          "to move.\n")
    print("\n\n".join(sections))
    return 0
