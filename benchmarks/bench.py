"""`python -m tictactoe_tui bench`: the engine's speed, side by side with plain minimax.

Everything runs in one process. The 3x3 and solving sections start every search from a fresh
state: the shape tables are rebuilt (their cache is cleared) and each call builds its own
transposition table, so no measurement profits from an earlier one. The big-board sections build
each board shape's tables once first, as a game does on its first move, and then give every
search its own transposition table. Cells are named as on the board: column letter, row number
(A1 top-left). `--quick` skips the solves above 4x4 and the slower big-board sections.
Timings on a shared machine are noisy: the load average is printed with the results, and the
depth and node counts are what to compare.

`--against REV` plays a match instead: this checkout's engine (the working tree, "new") against
the engine of any earlier revision ("old"), which gets a temporary `git worktree` of its own
(removed afterwards). Each engine runs in worker processes of its own (`EngineWorker`), with its
own checkout first on `sys.path`, so the two `tictactoe_tui` packages never mix; this process
only referees (`run_match`: colours alternating, seeded random openings, each played from both
sides) and prints the new engine's wins, draws and losses as X and as O.
"""

from __future__ import annotations

import gc
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from pathlib import Path

from tictactoe_tui.engine.players.computer import AlphaBetaPlayer, Decision
from tictactoe_tui.engine.players.match import MatchPlan, WinDrawLoss, run_match
from tictactoe_tui.engine.proofs.lines import line_shape
from tictactoe_tui.engine.proofs.solver import RootSolver, Solver, symmetry_chunks
from tictactoe_tui.engine.proofs.threats import find_vcf
from tictactoe_tui.engine.rules.board import Board, cell_notation
from tictactoe_tui.engine.search import kernel
from tictactoe_tui.engine.search.api import alphabeta, analyse_position
from tictactoe_tui.engine.search.limits import NO_LIMITS, Limits
from tictactoe_tui.engine.search.minimax import minimax
from tictactoe_tui.engine.search.types import Progress, SearchResult, describe_score, win_score
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.text.table import table


def position(x_cells: Sequence[int], o_cells: Sequence[int], size: int = 10, k: int = 5) -> Board:
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
    5: "/".join(
        [
            "...............",
            "...............",
            "...............",
            "...............",
            ".....O....X....",
            "....X...OO.....",
            "....XO.O.......",
            "....O..X..X....",
            ".........O.....",
            "....OXX...X....",
            "......X........",
            "...............",
            "...............",
            "...............",
            "...............",
        ]
    ),
    7: "/".join(
        [
            "...............",
            "...............",
            "...............",
            "...............",
            "....O.O........",
            ".....X...O.....",
            "......X.XOX....",
            "...............",
            ".....XOO.......",
            ".....X.........",
            "....X.X.O.O....",
            "...............",
            "...............",
            "...............",
            "...............",
        ]
    ),
    9: "/".join(
        [
            "...............",
            "...............",
            "...............",
            "...............",
            "....XO.O..O....",
            "....OX.........",
            ".........O.....",
            "....OX...X.....",
            ".......X.......",
            ".....X.O..O....",
            "......X..X.....",
            "...............",
            "...............",
            "...............",
            "...............",
        ]
    ),
}
"""15x15 positions whose side to move wins by continuous fours in exactly 5, 7 and 9 plies (and
no fewer); the defender has no four of its own. tests/engine/test_threats.py checks them."""


def fresh() -> None:
    """Forget every cached shape table so the next search pays for building its own, and
    collect the garbage earlier sections left, so that no collection of theirs is timed."""
    kernel.shape.cache_clear()
    line_shape.cache_clear()
    gc.collect()


def warm(size: int, k: int = 5) -> None:
    """Build a board shape's tables once, as the first move of a game does."""
    kernel.shape(size, k)
    line_shape(size, k)


def cell_list(cells: Sequence[int], size: int) -> str:
    """Cells by their names on the board: "E5 F6"."""
    return " ".join(cell_notation(cell, size) for cell in cells)


def timed(run: Callable[[], SearchResult]) -> tuple[SearchResult, float]:
    """Run a search from a fresh state; return it with its wall time in milliseconds."""
    fresh()
    start = time.perf_counter()
    result = run()
    return result, (time.perf_counter() - start) * 1000


def bench_3x3() -> str:
    """Minimax against alpha-beta on the empty board and after each kind of first move."""
    empty = Board.empty(3, 3)
    positions = (
        ("empty board", empty),
        ("after corner (0)", empty.play(0)),
        ("after edge (1)", empty.play(1)),
        ("after centre (4)", empty.play(4)),
    )
    rows = []
    for name, board in positions:
        # Alpha-beta first, so that it never runs on tables minimax warmed up.
        fast, fast_ms = timed(partial(alphabeta, board))
        slow, slow_ms = timed(partial(minimax, board))
        agree = "yes" if fast.score == slow.score else "NO"
        rows.append(
            [
                name,
                f"{slow.nodes:,}",
                f"{slow_ms:.1f}",
                f"{fast.nodes:,}",
                f"{fast_ms:.2f}",
                f"{slow_ms / fast_ms:.0f}x",
                f"{100 * fast.nodes / slow.nodes:.3f}%",
                cell_notation(fast.move or 0, 3),
                describe_score(fast.score, board, kind=fast.kind, band=fast.band),
                agree,
            ]
        )
    headers = [
        "3x3 best move",
        "minimax nodes",
        "ms",
        "alpha-beta nodes",
        "ms",
        "speed-up",
        "nodes",
        "move",
        "score",
        "agree",
    ]
    return table(headers, rows)


def bench_analyse() -> str:
    """Exact scores of all nine first moves: alpha-beta's analysis against minimax's."""
    board = Board.empty(3, 3)
    fresh()
    fast = analyse_position(board, "alphabeta")
    fresh()
    slow = analyse_position(board, "minimax")
    same = {m.move: m.score for m in fast.scores} == {m.move: m.score for m in slow.scores}
    rows = [
        [
            "minimax",
            f"{slow.nodes:,}",
            f"{slow.elapsed * 1000:.1f}",
            "100%",
            " ".join(f"{cell_notation(m.move, 3)}:{m.score}" for m in slow.scores),
        ],
        [
            "alpha-beta",
            f"{fast.nodes:,}",
            f"{fast.elapsed * 1000:.2f}",
            f"{100 * fast.elapsed / slow.elapsed:.2f}%",
            " ".join(f"{cell_notation(m.move, 3)}:{m.score}" for m in fast.scores),
        ],
    ]
    text = table(["analyse empty 3x3", "nodes", "ms", "time vs minimax", "move:score"], rows)
    return text + f"\nall nine exact scores identical: {'yes' if same else 'NO'}"


SOLVE_TARGETS = (
    # (size, k, the time limit alphabeta gets): the m,n,k games the engine must solve.
    (4, 3, 1.0),
    (4, 4, 1.0),
    (5, 3, 1.0),
    (5, 5, 1.0),
    (5, 4, 1.0),
    (6, 5, 10.0),
    (6, 4, 10.0),
    (7, 4, 30.0),
    (7, 5, 60.0),
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
        rows.append(
            [
                f"{size}x{size}, k={k}, from empty",
                describe_score(score, board, exact=True),
                f"{cell_notation(move, size)}",
                f"{alone:.2f}",
                f"{nodes:,}",
                f"{limit:g}",
                f"{with_clock:.2f}",
                f"{clocked.nodes:,}",
                "yes" if clocked.complete and clocked.score == score else "NO",
                f"{peak / 2**20:.1f}",
            ]
        )
    headers = [
        "solve",
        "value",
        "move",
        "solver s",
        "nodes",
        "time_limit",
        "alphabeta s",
        "nodes",
        "proven",
        "peak MiB",
    ]
    return table(headers, rows) + f"\n(seconds: median of {repeats} runs)"


def bench_depths(budget: float) -> str:
    """The depth `budget` seconds reach from middle games: the player, which scores every move
    for the panel, beside bare `alphabeta()`."""
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
        rows.append(
            [
                f"{size}x{size} middle game {index} ({board.to_move})",
                f"{bare.depth}",
                f"{bare.nodes:,}",
                f"{analysis.depth}",
                f"{analysis.nodes:,}",
                f"{spent * 1000:.0f}",
                cell_notation(decision.move, size),
                describe_score(bare.score, board, kind=bare.kind, band=bare.band),
            ]
        )
    headers = [
        f"k=5, {budget:g} s a move",
        "bare depth",
        "nodes",
        "player depth",
        "nodes",
        "ms",
        "player's move",
        "bare score",
    ]
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
        ok = (
            "ok"
            if result.move in answers and decision.move in answers
            else f"FAIL (want {cell_list(answers, 10)})"
        )
        rows.append(
            [
                f"{name} ({board.to_move} to move)",
                f"{result.depth}",
                f"{result.nodes:,}",
                f"{ms:.0f}",
                f"{player_ms:.0f}",
                cell_notation(result.move or 0, 10),
                describe_score(result.score, board, kind=result.kind, band=result.band),
                ok,
            ]
        )
    headers = [
        f"10x10, k=5, {budget:g} s budget",
        "depth",
        "nodes",
        "ms",
        "player ms",
        "move",
        "score",
        "check",
    ]
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
        rows.append(
            [
                f"VCF in {plies} plies ({board.to_move} to move)",
                f"{statistics.median(times) * 1000:.1f}",
                "-" if found is None else cell_list(found.moves, 15),
                f"{ms:.0f}",
                describe_score(result.score, board, kind=result.kind, band=result.band),
                cell_notation(result.move or 0, 15),
            ]
        )
    headers = ["15x15 threat puzzle", "VCF ms", "line", "alphabeta ms", "alphabeta score", "move"]
    return table(headers, rows)


def bench_progress(runs: int = 7) -> str:
    """What listening costs: the same fixed-depth search with and without an `on_progress`."""
    rows = []
    for size, (xs, os_), depth in ((10, MIDDLE_GAMES_10X10[0], 6), (15, MIDDLE_GAMES_15X15[2], 5)):
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
        rows.append(
            [
                f"{size}x{size}, depth {depth}",
                f"{quiet.nodes:,}",
                "yes" if quiet.nodes == listened.nodes else "NO",
                f"{plain * 1000:.0f}",
                f"{with_cb * 1000:.0f}",
                f"{100 * (with_cb / plain - 1):+.1f}%",
                f"{len(heard)}",
                f"{max(gaps, default=0) * 1000:.0f}",
            ]
        )
    headers = [
        f"on_progress (median of {runs})",
        "nodes",
        "same",
        "CPU ms without",
        "CPU ms with",
        "cost",
        "reports",
        "longest gap ms",
    ]
    return table(headers, rows)


def bench_reading() -> str:
    """The big-board reading bias: the value after one move in the centre, depth by depth."""
    board = Board.empty(10, 5).play(44)
    warm(10)
    rows = [["H1 + tempo", *(f"{alphabeta(board, depth=d).score:+d}" for d in range(1, 6))]]
    headers = ["10x10, X on E5, O to move", *(f"depth {d}" for d in range(1, 6))]
    return table(headers, rows)


AGAINST_WORKER = r"""
import json, random, sys, time
from pathlib import Path

root = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(root))
import tictactoe_tui

package = Path(tictactoe_tui.__file__).resolve()
if package.parents[1] != root:
    sys.exit(f"the worker imported {package}, not the package of {root}")
from tictactoe_tui.engine import Board, make_player

player = None
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "hello":
        reply = {"package": str(package)}
    elif request["cmd"] == "new":
        options = {"time_limit": request["time"]}
        if request["depth"] is not None:
            options["depth"] = request["depth"]
        player = make_player("alphabeta", random.Random(request["seed"]), **options)
        reply = {}
    else:
        board = Board.from_string(request["board"], k=request["k"])
        began = time.perf_counter()
        decision = player.choose(board)
        analysis = decision.analysis
        reply = {"move": decision.move, "seconds": time.perf_counter() - began,
                 "nodes": analysis.nodes if analysis is not None else 0}
    print(json.dumps(reply), flush=True)
"""
"""The program of a match worker: one engine, imported from the checkout named on its command
line, answering JSON lines on stdin (`hello`, `new` game, `move` on a board) on stdout."""


class EngineWorker:
    """One engine in a process of its own, imported from the checkout at `root`.

    Each side of an `--against` match gets its own worker, so the two revisions' packages never
    meet in one interpreter; the worker checks that it imported the package of `root` and says
    which file that was (`package`).
    """

    def __init__(self, root: Path) -> None:
        """Start the worker (PYTHONPATH is dropped: only `root` may provide the package)."""
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", AGAINST_WORKER, str(root)],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.moves = 0
        self.seconds = 0.0
        self.nodes = 0
        self.longest = 0.0
        """The longest any move took, in seconds."""
        self.longest_board = ""
        """The board that move was chosen on (to look into a slow move)."""
        self.package = str(self.ask({"cmd": "hello"})["package"])

    def ask(self, request: dict[str, object]) -> dict[str, object]:
        """Send one request and read its answer; RuntimeError with the worker's error if it died."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            line = stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.process.wait()
            error = self.process.stderr.read() if self.process.stderr is not None else ""
            raise RuntimeError(f"the match worker stopped: {error.strip()}")
        answer: dict[str, object] = json.loads(line)
        return answer

    def close(self) -> None:
        """End the worker (closing its input ends its loop)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self.process.stderr is not None:
            self.process.stderr.close()


class RemotePlayer:
    """A `Player` whose alpha-beta runs in an `EngineWorker`: one per game, as players are."""

    def __init__(
        self, worker: EngineWorker, time_limit: float | None, depth: int | None, rng: random.Random
    ) -> None:
        """A fresh player in the worker, seeded from `rng`."""
        self.worker = worker
        self.name = f"alpha-beta from {worker.package}"
        worker.ask({"cmd": "new", "seed": rng.getrandbits(64), "time": time_limit, "depth": depth})

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The worker's move on `board` (the worker keeps its own time and depth; the stop
        check and listener stay on this side)."""
        answer = self.worker.ask({"cmd": "move", "board": str(board), "k": board.k})
        move = answer["move"]
        seconds, nodes = answer["seconds"], answer["nodes"]
        assert isinstance(move, int) and isinstance(seconds, float) and isinstance(nodes, int)
        self.worker.moves += 1
        self.worker.seconds += seconds
        self.worker.nodes += nodes
        if seconds > self.worker.longest:
            self.worker.longest = seconds
            self.worker.longest_board = str(board)
        return Decision(move, True, "alphabeta", None, None, "the worker's move")


@dataclass(frozen=True)
class AgainstPart:
    """One process's share of a match of the working tree's engine (new) against a revision's
    (old): the new engine's results by colour, and what each engine's moves cost."""

    new_as_x: WinDrawLoss
    new_as_o: WinDrawLoss
    new_package: str
    old_package: str
    new_cost: tuple[int, float, int]
    """The new engine's moves, seconds and positions."""
    old_cost: tuple[int, float, int]
    longest: tuple[float, float] = (0.0, 0.0)
    """The longest move of the new engine and of the old, in seconds."""
    longest_boards: tuple[str, str] = ("", "")
    """The boards those moves were chosen on."""
    games: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Each game: the new engine's mark and every move (the opening first)."""


def _against_part(
    new_root: str,
    old_root: str,
    games: int,
    size: int,
    k: int,
    time_limit: float | None,
    depth: int | None,
    seed: int,
) -> AgainstPart:
    """Play `games` games between two workers (new is the match's x player)."""
    new, old = EngineWorker(Path(new_root)), EngineWorker(Path(old_root))
    try:
        result = run_match(
            partial(RemotePlayer, new, time_limit, depth),
            partial(RemotePlayer, old, time_limit, depth),
            MatchPlan(games, size=size, k=k, seed=seed),
        )
    finally:
        new.close()
        old.close()
    stats = result.x_stats
    return AgainstPart(
        stats.as_x,
        stats.as_o,
        new.package,
        old.package,
        (new.moves, new.seconds, new.nodes),
        (old.moves, old.seconds, old.nodes),
        (new.longest, old.longest),
        (new.longest_board, old.longest_board),
        tuple((str(game.x_mark), game.moves) for game in result.outcomes),
    )


def checkout_root() -> Path:
    """The checkout this benchmark runs from (the new engine of an `--against` match)."""
    return Path(__file__).resolve().parents[1]


def _git(*args: str) -> str:
    """Run git in this checkout; its output, or RuntimeError with git's own words."""
    done = subprocess.run(
        ["git", "-C", str(checkout_root()), *args], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout.strip()


@contextmanager
def revision_checkout(rev: str) -> Iterator[tuple[Path, str]]:
    """A temporary worktree of revision `rev` (detached), removed afterwards: (root, commit)."""
    commit = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    parent = Path(tempfile.mkdtemp(prefix="tictactoe-against-"))
    root = parent / "checkout"
    try:
        _git("worktree", "add", "--detach", "--quiet", str(root), commit)
        yield root, commit
    finally:
        if root.exists():
            _git("worktree", "remove", "--force", str(root))
        shutil.rmtree(parent, ignore_errors=True)


@dataclass(frozen=True)
class AgainstResult:
    """A match of the working tree's engine against a revision's, added up over its parts."""

    commit: str
    """The revision played against, as a full commit hash."""
    time_limit: float | None
    parts: tuple[AgainstPart, ...]

    @property
    def new_as_x(self) -> WinDrawLoss:
        """The new engine's results when it moved first."""
        return _total(part.new_as_x for part in self.parts)

    @property
    def new_as_o(self) -> WinDrawLoss:
        """The new engine's results when it moved second."""
        return _total(part.new_as_o for part in self.parts)

    def cost(self, side: str) -> tuple[float, float]:
        """Mean seconds and positions per move of "new" or "old"."""
        costs = [part.new_cost if side == "new" else part.old_cost for part in self.parts]
        moves = sum(cost[0] for cost in costs)
        if not moves:
            return 0.0, 0.0
        return (sum(cost[1] for cost in costs) / moves, sum(cost[2] for cost in costs) / moves)


def _slowest_part(parts: Iterable[AgainstPart], side: int) -> AgainstPart:
    """The part that made `side`'s longest move (new: 0, old: 1)."""
    return max(parts, key=lambda part: part.longest[side])


def _total(records: Iterable[WinDrawLoss]) -> WinDrawLoss:
    total = WinDrawLoss()
    for record in records:
        total = WinDrawLoss(
            total.wins + record.wins, total.draws + record.draws, total.losses + record.losses
        )
    return total


def play_against(
    rev: str,
    games: int,
    time_limit: float | None,
    size: int = 15,
    k: int | None = None,
    depth: int | None = None,
    jobs: int = 2,
    seed: int = 1,
) -> AgainstResult:
    """The working tree's engine against revision `rev`'s: `games` games (an even number, each
    opening played once from each side), shared out over `jobs` processes with seeds of their
    own, both engines at `time_limit` seconds (and `depth` plies, if given) a move."""
    k = min(size, 5) if k is None else k
    pairs = [games // 2 // jobs + (1 if i < games // 2 % jobs else 0) for i in range(jobs)]
    with (
        revision_checkout(rev) as (old_root, commit),
        ProcessPoolExecutor(max_workers=jobs) as pool,
    ):
        parts = list(
            pool.map(
                _against_part,
                [str(checkout_root())] * jobs,
                [str(old_root)] * jobs,
                [2 * n for n in pairs],
                [size] * jobs,
                [k] * jobs,
                [time_limit] * jobs,
                [depth] * jobs,
                [seed * 100 + i for i in range(jobs)],
            )
        )
    return AgainstResult(commit, time_limit, tuple(part for part in parts))


SLOW_MOVE = 1.5
"""An `--against` match names the board of an engine's longest move past this many times its
clock."""


def bench_against(
    rev: str, games: int, times: Sequence[float], jobs: int, seed: int, size: int = 15
) -> str:
    """The working tree's engine (new) against revision `rev`'s (old) on size x size, k = 5, at
    each time a move in `times` for both: the new engine's wins, draws and losses as X (moving
    first) and as O, and what the moves cost."""
    rows = []
    slow = []
    commit = ""
    for time_limit in times:
        result = play_against(rev, games, time_limit, size=size, jobs=jobs, seed=seed)
        commit = result.commit
        as_x, as_o = result.new_as_x, result.new_as_o
        total = _total((as_x, as_o))
        new_seconds, new_nodes = result.cost("new")
        old_seconds, old_nodes = result.cost("old")
        # The part that made each engine's longest move (new: 0, old: 1).
        slowest = [_slowest_part(result.parts, side) for side in (0, 1)]
        new_longest, old_longest = slowest[0].longest[0], slowest[1].longest[1]
        rows.append(
            [
                f"{time_limit:g} s a move",
                f"{total.games}",
                str(as_x),
                str(as_o),
                str(total),
                f"{100 * total.points / max(total.games, 1):.0f}%",
                f"{new_seconds:.2f} / {new_longest:.2f}",
                f"{old_seconds:.2f} / {old_longest:.2f}",
                f"{new_nodes:,.0f}",
                f"{old_nodes:,.0f}",
            ]
        )
        for name, index in (("new", 0), ("old", 1)):
            part = slowest[index]
            if part.longest[index] > SLOW_MOVE * time_limit:
                # Worth a look: the board to replay it on.
                slow.append(
                    f"{name}'s longest move at {time_limit:g} s took "
                    f"{part.longest[index]:.2f} s, on "
                    f"{part.longest_boards[index].replace(chr(10), '/')}"
                )
    headers = [
        f"{size}x{size}, k=5, new vs {rev}",
        "games",
        "new as X W/D/L",
        "new as O W/D/L",
        "new W/D/L",
        "new score",
        "new s/move mean / max",
        "old s/move mean / max",
        "new positions/move",
        "old positions/move",
    ]
    return "\n".join([f"old = {rev} = {commit[:12]}", table(headers, rows), *slow])


def main(argv: list[str]) -> int:
    """Run the benchmark and print its tables (see the module docstring for the options)."""
    parser = OneLineParser(
        prog="tictactoe-tui bench", description="Engine benchmark: alpha-beta against minimax."
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="skip the solves above 4x4, the depths in 1 s and the cost of listening",
    )
    parser.add_argument(
        "--history",
        action="store_true",
        help="time the history instead: saving, the History screen, a review",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="play this checkout's engine against revision REV's on 15x15 "
        "(long: see --games and --time)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=40,
        help="games per match (--against; even: each opening is played from both sides)",
    )
    parser.add_argument(
        "--time",
        type=float,
        action="append",
        dest="times",
        help="seconds a move for both engines (--against; repeat for more "
        "matches; default 0.25 and 1)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes for --against")
    parser.add_argument("--seed", type=int, default=1, help="seed of the match openings")
    parser.add_argument(
        "--threats",
        action="store_true",
        help="time the threat search on the 76 deciding positions against "
        "the search before issue 26 (907400b)",
    )
    args = parser.parse_args(argv)
    if args.threats:
        from benchmarks.threat_bench import bench_deciding

        print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        print(bench_deciding())
        return 0
    if args.history:
        from benchmarks.history_bench import bench_history

        print(bench_history())
        return 0
    load = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    if args.against is not None:
        if args.games < 2 or args.games % 2 or not 1 <= args.jobs <= args.games // 2:
            parser.error(
                "--games must be even and at least 2, and --jobs between 1 and half of --games"
            )
        times = args.times or [0.25, 1.0]
        if any(not math.isfinite(t) or t <= 0 for t in times):
            parser.error("--time must be a number of seconds above 0")
        print(f"{load} at the start")
        try:
            print(bench_against(args.against, args.games, times, args.jobs, args.seed))
        except RuntimeError as error:
            parser.error(f"--against {args.against}: {error}")
        print("load average {:.2f} {:.2f} {:.2f} at the end".format(*os.getloadavg()))
        return 0
    sections = [
        bench_3x3(),
        bench_analyse(),
        solve_table(args.quick),
        bench_tactics(0.25 if args.quick else 1.0),
    ]
    if not args.quick:
        sections.append(bench_depths(1.0))
    sections += [bench_threats(), bench_reading()]
    if not args.quick:
        sections.append(bench_progress())
    print(
        f"W (win score base) on 3x3 = {win_score(Board.empty(3, 3))}; scores are from the side "
        f"to move; {load}.\n"
    )
    print("\n\n".join(sections))
    return 0
