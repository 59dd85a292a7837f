"""`python -m tictactoe_tui bench`: the engine's speed, side by side with plain minimax.

Everything runs in one process. The 3x3 and solving sections start every search from a fresh
state: the shape tables are rebuilt (their cache is cleared) and each call builds its own
transposition table, so no measurement profits from an earlier one. The big-board sections build
each board shape's tables once first, as a game does on its first move, and then give every
search its own transposition table. Cells are named as on the board: column letter, row number
(A1 top-left). `--quick` skips the solves above 4x4 and the slower big-board sections; `--match`
plays the old-against-new match instead (see `bench_match`). Timings on a shared machine are noisy:
the load average is printed with the results, and the depth and node counts are what to compare.
"""

from __future__ import annotations

import os
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from itertools import pairwise
from types import ModuleType

from tictactoe_tui.engine import kernel
from tictactoe_tui.engine.api import alphabeta, analyse_position
from tictactoe_tui.engine.board import Board, cell_notation
from tictactoe_tui.engine.lines import line_shape
from tictactoe_tui.engine.match import run_match
from tictactoe_tui.engine.minimax import minimax
from tictactoe_tui.engine.players import AlphaBetaPlayer, Player
from tictactoe_tui.engine.solver import RootSolver, Solver, symmetry_chunks
from tictactoe_tui.engine.threats import find_vcf
from tictactoe_tui.engine.types import Progress, SearchResult, describe_score, win_score
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.text.table import table


def position(x_cells: Sequence[int], o_cells: Sequence[int], size: int = 10,
             k: int = 5) -> Board:
    """A board with X and O on the given cells (the side to move follows from the counts)."""
    cells = ["X" if c in x_cells else "O" if c in o_cells else "." for c in range(size * size)]
    return Board.from_string("".join(cells), k=k)


MIDDLE_GAMES_10X10 = (
    ((44, 55, 45, 34), (54, 35, 66, 53)),
    ((44, 45, 55, 36), (54, 35, 46, 65)),
    ((12, 25, 44, 54, 67), (23, 34, 43, 45, 55)),
)
"""Middle-game positions (X cells, O cells) for the depth a one-second budget reaches: neither
side has a threat win in any of them (so no proof cuts the search short)."""

MIDDLE_GAMES_15X15 = (
    ((96, 112, 97, 81), (111, 82, 128, 110)),
    ((96, 97, 112, 83), (111, 82, 98, 127)),
    ((66, 67, 81, 82, 95, 111), (65, 83, 96, 97, 109, 175)),
)
"""The same on 15x15 (the first two are the 10x10 ones moved to the middle)."""

TACTICS_10X10 = (
    ("win in one", (42, 43, 44, 45), (20, 30, 90, 51), (41, 46)),
    ("win, not block", (32, 33, 34, 35), (60, 61, 62, 63), (31, 36)),
    ("block a four", (42, 43, 44, 45), (41, 66, 99), (46,)),
    ("open three -> open four", (32, 33, 34), (0, 9, 99), (31, 35)),
)
"""(name, X cells, O cells, the moves that solve it) on 10x10 with k = 5."""

THREAT_PUZZLES = {
    5: "/".join([
        "...............", "...............", "...............", "...............",
        ".....O....X....", "....X...OO.....", "....XO.O.......", "....O..X..X....",
        ".........O.....", "....OXX...X....", "......X........", "...............",
        "...............", "...............", "...............",
    ]),
    7: "/".join([
        "...............", "...............", "...............", "...............",
        "....O.O........", ".....X...O.....", "......X.XOX....", "...............",
        ".....XOO.......", ".....X.........", "....X.X.O.O....", "...............",
        "...............", "...............", "...............",
    ]),
    9: "/".join([
        "...............", "...............", "...............", "...............",
        "....XO.O..O....", "....OX.........", ".........O.....", "....OX...X.....",
        ".......X.......", ".....X.O..O....", "......X..X.....", "...............",
        "...............", "...............", "...............",
    ]),
}
"""15x15 positions whose side to move wins by continuous fours in exactly 5, 7 and 9 plies (and
no fewer); the defender has no four of its own. tests/engine/test_threats.py checks them."""


def fresh() -> None:
    """Forget every cached shape table so the next search pays for building its own."""
    kernel.shape.cache_clear()
    line_shape.cache_clear()


def warm(size: int, k: int = 5) -> None:
    """Build a board shape's tables once, as the first move of a game does."""
    kernel.shape(size, k)
    line_shape(size, k)


def cell_list(cells: Sequence[int], size: int) -> str:
    """Cells by their names on the board: "E5 F6"."""
    return " ".join(cell_notation(cell, size) for cell in cells)


def legacy() -> ModuleType | None:
    """The engine before issue 11 (benchmarks/legacy_engine, beside the package), if present."""
    try:
        import benchmarks.legacy_engine as old
    except ImportError:
        return None
    return old


def timed(run: Callable[[], SearchResult]) -> tuple[SearchResult, float]:
    """Run a search from a fresh state; return it with its wall time in milliseconds."""
    fresh()
    start = time.perf_counter()
    result = run()
    return result, (time.perf_counter() - start) * 1000


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
                     f"{100 * fast.nodes / slow.nodes:.3f}%", cell_notation(fast.move or 0, 3),
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
             " ".join(f"{cell_notation(m.move, 3)}:{m.score}" for m in slow.scores)],
            ["alpha-beta", f"{fast.nodes:,}", f"{fast.elapsed * 1000:.2f}",
             f"{100 * fast.elapsed / slow.elapsed:.2f}%",
             " ".join(f"{cell_notation(m.move, 3)}:{m.score}" for m in fast.scores)]]
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
    sh = kernel.shape(board.size, board.k)
    poller = kernel.Poller(None, None, sh.poll_mask)
    score, move = RootSolver(board, Solver(sh, poller)).solve()
    return score, move, poller.nodes


def fresh_solver() -> None:
    """A fresh state for the solver: the shape tables and its symmetry tables are rebuilt."""
    fresh()
    symmetry_chunks.cache_clear()


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """The median wall time of `repeats` runs, each from a fresh state."""
    times = []
    for _ in range(repeats):
        fresh_solver()
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
        fresh_solver()
        score, move, nodes = exact_solve(board)
        alone = median_seconds(partial(exact_solve, board), repeats)
        fresh_solver()
        clocked = alphabeta(board, time_limit=limit)
        with_clock = median_seconds(partial(alphabeta, board, time_limit=limit), repeats)
        fresh_solver()
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


def bench_depths(budget: float) -> str:
    """The depth `budget` seconds reach from middle games: the player, which scores every move
    for the panel, beside bare `alphabeta()`, and the old engine's player when it is present."""
    old = legacy()
    rows = []
    boards = [(10, i, g) for i, g in enumerate(MIDDLE_GAMES_10X10, start=1)]
    boards += [(15, i, g) for i, g in enumerate(MIDDLE_GAMES_15X15, start=1)]
    for size, index, (xs, os_) in boards:
        board = position(xs, os_, size)
        warm(size)
        bare = alphabeta(board, time_limit=budget)
        began = time.perf_counter()
        decision = AlphaBetaPlayer(random.Random(0), time_limit=budget).choose(board)
        spent = time.perf_counter() - began
        analysis = decision.analysis
        assert analysis is not None
        old_depth = "-"
        if old is not None:
            old_decision = old.LegacyAlphaBetaPlayer(random.Random(0), time_limit=budget)
            old_analysis = old_decision.choose(board).analysis
            old_depth = str(old_analysis.depth) if old_analysis is not None else "-"
        rows.append([f"{size}x{size} middle game {index} ({board.to_move})",
                     f"{bare.depth}", f"{bare.nodes:,}", f"{analysis.depth}",
                     f"{analysis.nodes:,}", f"{spent * 1000:.0f}", old_depth,
                     cell_notation(decision.move, size),
                     describe_score(bare.score, board, exact=bare.complete)])
    headers = [f"k=5, {budget:g} s a move", "bare depth", "nodes", "player depth", "nodes",
               "ms", "old player depth", "player's move", "bare score"]
    return table(headers, rows)


def bench_tactics(budget: float) -> str:
    """Tactics on 10x10 that must not fail, and how long the player takes over each."""
    rows = []
    for name, xs, os_, answers in TACTICS_10X10:
        board = position(xs, os_)
        warm(10)
        result, ms = timed(partial(alphabeta, board, time_limit=budget))
        began = time.perf_counter()
        decision = AlphaBetaPlayer(random.Random(0), time_limit=budget).choose(board)
        player_ms = (time.perf_counter() - began) * 1000
        ok = ("ok" if result.move in answers and decision.move in answers
              else f"FAIL (want {cell_list(answers, 10)})")
        rows.append([f"{name} ({board.to_move} to move)", f"{result.depth}",
                     f"{result.nodes:,}", f"{ms:.0f}", f"{player_ms:.0f}",
                     cell_notation(result.move or 0, 10),
                     describe_score(result.score, board, exact=result.complete), ok])
    headers = [f"10x10, k=5, {budget:g} s budget", "depth", "nodes", "ms", "player ms",
               "move", "score", "check"]
    return table(headers, rows)


def bench_threats() -> str:
    """The VCF puzzles: time to find each win by fours, and for alpha-beta to prove it."""
    rows = []
    for plies, text in THREAT_PUZZLES.items():
        board = Board.from_string(text, k=5)
        warm(15)
        times = []
        found = None
        for _ in range(3):
            began = time.perf_counter()
            found = find_vcf(board)
            times.append(time.perf_counter() - began)
        result, ms = timed(partial(alphabeta, board, time_limit=1.0))
        rows.append([f"VCF in {plies} plies ({board.to_move} to move)",
                     f"{statistics.median(times) * 1000:.1f}",
                     "-" if found is None else cell_list(found.moves, 15), f"{ms:.0f}",
                     describe_score(result.score, board, exact=result.complete),
                     cell_notation(result.move or 0, 15)])
    headers = ["15x15 threat puzzle", "VCF ms", "line", "alphabeta ms", "alphabeta score",
               "move"]
    return table(headers, rows)


def bench_progress(runs: int = 7) -> str:
    """What listening costs: the same fixed-depth search with and without an `on_progress`."""
    rows = []
    for size, (xs, os_), depth in ((10, MIDDLE_GAMES_10X10[0], 6),
                                   (15, MIDDLE_GAMES_15X15[2], 5)):
        board = position(xs, os_, size)
        warm(size)
        quiet_times, heard_times = [], []
        heard: list[Progress] = []
        for _ in range(runs):
            # Interleaved, so a change in the machine's load hits both alike; CPU time, so
            # that time spent waiting for a busy machine's cores does not count.
            began = time.process_time()
            quiet = alphabeta(board, depth=depth)
            quiet_times.append(time.process_time() - began)
            heard.clear()
            began = time.process_time()
            listened = alphabeta(board, depth=depth, on_progress=heard.append)
            heard_times.append(time.process_time() - began)
        gaps = [b.elapsed - a.elapsed for a, b in pairwise(heard)]
        plain, with_cb = statistics.median(quiet_times), statistics.median(heard_times)
        rows.append([f"{size}x{size}, depth {depth}", f"{quiet.nodes:,}",
                     "yes" if quiet.nodes == listened.nodes else "NO",
                     f"{plain * 1000:.0f}", f"{with_cb * 1000:.0f}",
                     f"{100 * (with_cb / plain - 1):+.1f}%", f"{len(heard)}",
                     f"{max(gaps, default=0) * 1000:.0f}"])
    headers = [f"on_progress (median of {runs})", "nodes", "same", "CPU ms without",
               "CPU ms with", "cost", "reports", "longest gap ms"]
    return table(headers, rows)


def bench_reading() -> str:
    """The big-board reading bias: the value after one move in the centre, depth by depth."""
    old = legacy()
    board = Board.empty(10, 5).play(44)
    warm(10)
    rows = [["new (H1 + tempo)", *(f"{alphabeta(board, depth=d).score:+d}" for d in range(1, 6))]]
    if old is not None:
        rows.append(["old (H1 alone)",
                     *(f"{old.search.alphabeta(board, depth=d).score:+d}" for d in range(1, 6))])
    headers = ["10x10, X on E5, O to move", *(f"depth {d}" for d in range(1, 6))]
    return table(headers, rows)


def _new_player(time_limit: float, rng: random.Random) -> Player:
    return AlphaBetaPlayer(rng, time_limit=time_limit)


def _old_player(time_limit: float, rng: random.Random) -> Player:
    old = legacy()
    assert old is not None
    player: Player = old.LegacyAlphaBetaPlayer(rng, time_limit=time_limit)
    return player


def _match_part(new_time: float, old_time: float, games: int, seed: int,
                size: int) -> tuple[float, int, int, int, float, float]:
    """One process's share of a match: (new's points, wins, draws, losses, mean seconds and
    positions per move of the new player)."""
    result = run_match(partial(_new_player, new_time), partial(_old_player, old_time), games,
                       size=size, k=5, seed=seed)
    new = result.x_stats
    return (new.overall.points, new.overall.wins, new.overall.draws, new.overall.losses,
            new.mean_seconds, new.mean_positions)


def bench_match(games: int, jobs: int, seed: int, size: int = 15) -> str:
    """The new engine against the old (benchmarks/legacy_engine) on size x size, k = 5: new at
    1 s a move against old at 1 s, then new at 0.25 s against old at 1 s. Colours alternate and
    each random opening is played once from each side (`run_match`); the games are shared out
    over `jobs` processes, each with its own seed."""
    rows = []
    for new_time, old_time in ((1.0, 1.0), (0.25, 1.0)):
        shares = [games // jobs + (1 if i < games % jobs else 0) for i in range(jobs)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_match_part, [new_time] * jobs, [old_time] * jobs, shares,
                                  [seed * 100 + i for i in range(jobs)], [size] * jobs))
        points = sum(p[0] for p in parts)
        wins, draws, losses = (sum(p[i] for p in parts) for i in (1, 2, 3))
        seconds = sum(p[4] * n for p, n in zip(parts, shares, strict=True)) / games
        positions = sum(p[5] * n for p, n in zip(parts, shares, strict=True)) / games
        rows.append([f"new {new_time:g} s vs old {old_time:g} s", f"{games}",
                     f"{wins}/{draws}/{losses}", f"{points:g}", f"{100 * points / games:.0f}%",
                     f"{seconds:.2f}", f"{positions:,.0f}"])
    headers = [f"{size}x{size}, k=5 match", "games", "new W/D/L", "points", "score",
               "new s/move", "new positions/move"]
    return table(headers, rows)


def main(argv: list[str]) -> int:
    """Run the benchmark and print its tables (see the module docstring for the options)."""
    parser = OneLineParser(prog="tictactoe-tui bench",
                           description="Engine benchmark: alpha-beta against minimax.")
    parser.add_argument("--quick", action="store_true",
                        help="skip the solves above 4x4, the depths in 1 s and the cost of "
                        "listening")
    parser.add_argument("--history", action="store_true",
                        help="time the history instead: saving, the History screen, a review")
    parser.add_argument("--match", action="store_true",
                        help="play the new engine against the old one on 15x15 (long)")
    parser.add_argument("--games", type=int, default=40, help="games per match (--match)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --match")
    parser.add_argument("--seed", type=int, default=1, help="seed of the match openings")
    args = parser.parse_args(argv)
    if args.history:
        from benchmarks.history_bench import bench_history

        print(bench_history())
        return 0
    load = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    if args.match:
        if legacy() is None:
            parser.error("--match needs the old engine in benchmarks/legacy_engine: run it "
                         "from the repository's root")
        if args.games < 2 or not 1 <= args.jobs <= args.games:
            parser.error("--games must be at least 2 and --jobs between 1 and --games")
        print(f"{load} at the start")
        print(bench_match(args.games, args.jobs, args.seed))
        print("load average {:.2f} {:.2f} {:.2f} at the end".format(*os.getloadavg()))
        return 0
    sections = [bench_3x3(), bench_analyse(), solve_table(args.quick),
                bench_tactics(0.25 if args.quick else 1.0)]
    if not args.quick:
        sections.append(bench_depths(1.0))
    sections += [bench_threats(), bench_reading()]
    if not args.quick:
        sections.append(bench_progress())
    print(f"W (win score base) on 3x3 = {win_score(Board.empty(3, 3))}; scores are from the side "
          f"to move; {load}.\n")
    print("\n\n".join(sections))
    return 0
