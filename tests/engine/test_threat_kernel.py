"""The compiled threat kernel (engine/proofs/_threatc.c) against the pure Python threat search.

The pure code is the reference: on every position the kernel must return the same line (or
None) and leave the same node count, call after call on one instance (the failure and proven
tables persist between calls, so a difference anywhere shows up later as well). Without the
kernel (no compiler at install time, or TICTACTOE_TUI_PURE_ENGINE=1) the engine runs pure.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import venv
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.bench import THREAT_PUZZLES
from benchmarks.threat_positions import DECIDING
from tictactoe_tui.engine.proofs import threats
from tictactoe_tui.engine.proofs.lines import LineShape, LineState, line_shape, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch, find_vcf, find_vct, kernel_available
from tictactoe_tui.engine.rules.board import Board, Mark, geometry
from tictactoe_tui.engine.search.api import alphabeta

ROOT = Path(__file__).resolve().parents[2]

needs_kernel = pytest.mark.skipif(
    not kernel_available(), reason="the compiled threat kernel is not built (pure engine)"
)

Call = tuple[int, int, int, int, int, int]
"""(kind: 0 VCF / 1 VCT, X bits, O bits, side to move, most attacking moves, max nodes)."""


def snapshot(state: LineState) -> tuple[object, ...]:
    """Everything a search must leave as it found it."""
    return (
        list(state.bits),
        [list(c) for c in state.count],
        state.value,
        len(state.history),
        [set(s) for s in state.fours],
        [set(s) for s in state.threes],
        [set(s) for s in state.twos],
    )


def run(search: ThreatSearch, shape: LineShape, call: Call) -> list[int] | None:
    """One call of `search`, checking that it leaves the state as it found it."""
    kind, x, o, side, most, nodes = call
    state = LineState(shape, x, o)
    before = snapshot(state)
    if kind == 0:
        line = search.vcf(state, side, most, nodes)
    else:
        line = search.vct(state, side, most, nodes)
    assert snapshot(state) == before
    return line


def compare(shape: LineShape, calls: list[Call]) -> int:
    """Run `calls` in turn on one pure and one compiled instance; every answer, node count and
    table size must agree. Returns how many calls found a win (so a test can check it tested
    something)."""
    pure = ThreatSearch(kernel=False)
    compiled = ThreatSearch()
    assert compiled.use_kernel and not pure.use_kernel
    wins = 0
    for index, call in enumerate(calls):
        expected = run(pure, shape, call)
        got = run(compiled, shape, call)
        where = f"call {index} of {len(calls)} on {shape.size}x{shape.size} k={shape.k}: {call}"
        assert got == expected, where
        assert (compiled.nodes, compiled.cut, compiled.limit) == (
            pure.nodes,
            pure.cut,
            pure.limit,
        ), where
        assert compiled.table_sizes() == pure.table_sizes(), where
        wins += expected is not None
    return wins


def random_calls(
    rng: random.Random,
    size: int,
    k: int,
    count: int,
    budgets: tuple[int, ...] = (20, 200, 2_000, 20_000),
) -> list[Call]:
    """`count` calls on random positions whose stones crowd one corner of the board (so lines,
    and threats, form), either side to move, VCF or VCT, with small and large node budgets."""
    calls = []
    for _ in range(count):
        span = min(size, rng.choice((5, 6, 8)))
        top, left = rng.randrange(size - span + 1), rng.randrange(size - span + 1)
        region = [(top + r) * size + left + c for r in range(span) for c in range(span)]
        stones = rng.randrange(2, max(3, len(region) * 3 // 4))
        cells = rng.sample(region, min(stones, len(region) - 1))
        x = sum(1 << cell for cell in cells[::2])
        o = sum(1 << cell for cell in cells[1::2])
        kind = rng.randrange(2)
        most = rng.choice(
            (threats.VCF_MAX_FOURS, 3) if kind == 0 else (threats.VCT_MAX_ATTACKS, 2, 6)
        )
        calls.append((kind, x, o, rng.randrange(2), most, rng.choice(budgets)))
    return calls


@needs_kernel
@pytest.mark.parametrize(
    ("size", "k", "count"),
    [
        (15, 5, 800),
        (20, 5, 300),
        (7, 4, 120),
        (7, 5, 120),
        (8, 4, 120),
        (8, 5, 120),
        (9, 4, 120),
        (9, 5, 120),
        (10, 4, 120),
        (10, 5, 120),
        (3, 3, 100),
        (4, 3, 100),
        (4, 4, 100),
        (5, 3, 100),
        (5, 4, 100),
        (5, 5, 100),
        (13, 3, 100),
        (16, 4, 100),
    ],
)
@pytest.mark.slow
def test_the_kernel_finds_what_the_pure_search_finds(size: int, k: int, count: int) -> None:
    wins = compare(line_shape(size, k), random_calls(random.Random(size * 100 + k), size, k, count))
    # The positions hold threats: the searches were really tried.
    assert wins > (count // 20 if k < size else 3)


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "k"), [(15, 5), (20, 5), (12, 6), (11, 7), (20, 10), (9, 4), (6, 3), (6, 4)]
)
def test_the_kernel_agrees_on_a_long_sweep(size: int, k: int) -> None:
    rng = random.Random(7_000 + size * 100 + k)
    compare(
        line_shape(size, k), random_calls(rng, size, k, 1_500, budgets=(50, 5_000, 50_000, 200_000))
    )


def deciding_calls(vct_nodes: int) -> list[Call]:
    """The bench's 76 deciding positions: a VCF, then a VCT of up to eight threats."""
    calls: list[Call] = []
    for _, text in DECIDING:
        board = Board.from_string(text, k=5)
        side = side_of(board.to_move)
        calls.append((0, board.x_bits, board.o_bits, side, threats.VCF_MAX_FOURS, 20_000))
        calls.append((1, board.x_bits, board.o_bits, side, 8, vct_nodes))
    return calls


@needs_kernel
@pytest.mark.slow
def test_the_kernel_agrees_on_the_deciding_positions_within_a_small_budget() -> None:
    # 3,000 nodes stops most of these VCTs: the out-of-budget cut-offs must match too.
    compare(line_shape(15, 5), deciding_calls(3_000))


@needs_kernel
@pytest.mark.slow
def test_the_kernel_agrees_on_the_deciding_positions_in_full() -> None:
    wins = compare(line_shape(15, 5), deciding_calls(200_000))
    assert wins >= 76


@needs_kernel
@pytest.mark.slow
def test_the_kernel_agrees_on_the_threat_puzzles() -> None:
    calls: list[Call] = []
    for text in THREAT_PUZZLES.values():
        board = Board.from_string(text, k=5)
        side = side_of(board.to_move)
        for kind in (0, 1):
            calls.append((kind, board.x_bits, board.o_bits, side, 30 if kind == 0 else 4, 200_000))
            calls.append(
                (kind, board.x_bits, board.o_bits, 1 - side, 30 if kind == 0 else 4, 200_000)
            )
    assert compare(line_shape(15, 5), calls) >= 6


@needs_kernel
def test_the_tables_are_cleared_past_their_limit_as_in_the_pure_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(threats, "_TABLE_LIMIT", 40)
    calls = random_calls(random.Random(3), 15, 5, 150, budgets=(2_000,))
    compare(line_shape(15, 5), calls)


class Halt(Exception):
    """What the test's poll raises."""


def halting_poll(after: int) -> tuple[list[int], Callable[[], None]]:
    """A poll that raises Halt on its `after`-th call (and counts its calls)."""
    calls = [0]

    def poll() -> None:
        calls[0] += 1
        if calls[0] >= after:
            raise Halt

    return calls, poll


@needs_kernel
def test_a_poll_that_raises_stops_both_searches_at_the_same_node() -> None:
    board = Board.from_string(DECIDING[0][1], k=5)
    side = side_of(board.to_move)
    searches = []
    for use_kernel in (False, True):
        polls, poll = halting_poll(5)
        search = ThreatSearch(poll, kernel=use_kernel)
        state = LineState.from_board(board)
        played = len(state.history)
        with pytest.raises(Halt):
            search.vct(state, side, 8, 200_000)
        state.rewind(played)  # what `ThreatCalls.call` does for the pure search
        assert polls[0] == 5
        assert search.nodes == 5 * 64
        # The search goes on working once the caller stops raising (pvs sets a new poll).
        search.poll = None
        searches.append((search.vct(state, side, 8, 200_000), search.nodes, search.table_sizes()))
        assert snapshot(state) == snapshot(LineState.from_board(board))
    assert searches[0] == searches[1]
    assert searches[0][0] is not None


@needs_kernel
def test_the_kernel_sees_a_poll_set_between_searches() -> None:
    # pvs.py sets `threats.poll` anew before each search: the kernel must call that one.
    search = ThreatSearch()
    first = Board.from_string(DECIDING[3][1], k=5)
    assert search.vct(LineState.from_board(first), side_of(first.to_move), 8) is not None
    polls, poll = halting_poll(10**9)
    search.poll = poll
    board = Board.from_string(DECIDING[5][1], k=5)
    before = search.nodes
    search.vct(LineState.from_board(board), side_of(board.to_move), 8)
    assert search.nodes - before > 64
    assert polls[0] == search.nodes // 64 - before // 64


@needs_kernel
@pytest.mark.parametrize(("size", "k"), [(15, 5), (20, 5), (7, 4), (10, 5), (4, 3), (13, 6)])
def test_the_kernel_scores_gains_as_line_state_does(size: int, k: int) -> None:
    # The main search asks the kernel for the best gain of many cells at once (`_frontier`) and
    # for the gains of the candidates it orders: the same numbers as LineState.gain, the same
    # first cell of the best, between threat searches that move the kernel's position.
    shape = line_shape(size, k)
    rng = random.Random(size * 10 + k)
    search = ThreatSearch()
    kernel = search.compiled_kernel(shape)
    assert kernel is not None and ThreatSearch(kernel=False).compiled_kernel(shape) is None
    width = kernel.words * 8
    tried = 0
    for kind, x, o, side, most, nodes in random_calls(rng, size, k, 150, budgets=(200,)):
        state = LineState(shape, x, o)
        run(search, shape, (kind, x, o, side, most, nodes))
        empty = state.empty
        for mask in (empty, empty & rng.getrandbits(size * size), state.near & empty, 0):
            cells = [cell for cell in range(size * size) if mask >> cell & 1]
            gains = [state.gain(cell, side) for cell in cells]
            args = (
                x.to_bytes(width, "little"),
                o.to_bytes(width, "little"),
                side,
                mask.to_bytes(width, "little"),
            )
            assert kernel.gains(*args) == gains
            best = max(gains, default=0)
            first = gains.index(best) if gains else -1
            assert kernel.best_gain(*args) == (cells[first] if cells else -1, best, len(cells))
            tried += len(cells)
    assert tried > 1_000
    with pytest.raises(ValueError, match="taken"):
        stone = (1).to_bytes(width, "little")
        kernel.gains(stone, bytes(width), 0, stone)


def test_the_pure_engine_is_chosen_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(threats.PURE_ENGINE_VARIABLE, "1")
    assert not kernel_available()
    assert not ThreatSearch().use_kernel
    monkeypatch.setenv(threats.PURE_ENGINE_VARIABLE, "0")
    assert ThreatSearch().use_kernel == (threats._threatc is not None)
    assert not ThreatSearch(kernel=False).use_kernel


@pytest.mark.slow
def test_find_vcf_and_find_vct_agree_in_both_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    boards = [Board.from_string(text, k=5) for text in THREAT_PUZZLES.values()]
    boards += [Board.from_string(text, k=5) for _, text in DECIDING[:12]]
    answers = []
    for pure in ("1", "0"):
        monkeypatch.setenv(threats.PURE_ENGINE_VARIABLE, pure)
        answers.append([(find_vcf(board), find_vct(board, 8, 20_000)) for board in boards])
    assert answers[0] == answers[1]
    assert sum(vct is not None for _, vct in answers[0]) >= len(boards) // 2


@needs_kernel
@pytest.mark.slow
def test_the_main_search_is_the_same_with_either_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # alpha-beta runs threat searches at its root and inside its tree: with identical threat
    # answers and node counts, a depth-limited search is identical move for move, node for node.
    # Its quiet nodes score their moves' gains in the kernel too (`_frontier`, `_ordered`):
    # quiet positions (random stones near the centre) searched deeper check those.
    boards = [Board.from_string(text, k=5) for _, text in DECIDING[::8]]
    rng = random.Random(5)
    quiet = []
    for stones in (2, 3, 5, 6):
        cells = rng.sample([row * 15 + col for row in range(5, 10) for col in range(5, 10)], stones)
        quiet.append(
            Board(
                geometry(15, 5),
                sum(1 << c for c in cells[::2]),
                sum(1 << c for c in cells[1::2]),
                Mark.X if stones % 2 == 0 else Mark.O,
            )
        )
    runs = []
    for pure in ("1", "0"):
        monkeypatch.setenv(threats.PURE_ENGINE_VARIABLE, pure)
        results = [alphabeta(board, depth=3) for board in boards] + [
            alphabeta(board, depth=5) for board in quiet
        ]
        runs.append([(r.move, r.score, r.nodes, r.kind) for r in results])
    assert runs[0] == runs[1]


@pytest.mark.slow
def test_the_threat_tests_pass_with_the_pure_engine() -> None:
    # The everyday run uses the kernel when it is built; the threat tests run pure here too.
    env = dict(os.environ, **{threats.PURE_ENGINE_VARIABLE: "1"})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/engine/test_threats.py",
            "tests/engine/test_defence.py",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def build_wheel(tmp_path: Path, env: dict[str, str]) -> Path:
    """`pip wheel .` of the project into tmp_path, with `env`; the wheel built."""
    out = tmp_path / "wheels"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = out.glob("tictactoe_tui-*.whl")
    return wheel


@pytest.mark.slow
def test_without_a_compiler_the_wheel_is_pure_and_the_engine_runs(tmp_path: Path) -> None:
    # No compiler anywhere: CC fails and PATH holds only the interpreter's folder.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = dict(
        os.environ, CC="/bin/false", PATH=str(bin_dir), TMPDIR=str(tmp_path), PIP_NO_CACHE_DIR="1"
    )
    env.pop(threats.PURE_ENGINE_VARIABLE, None)
    wheel = build_wheel(tmp_path, env)
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not any(
        "_threatc." in name and not name.endswith((".c", ".pyi"))
        for name in zipfile.ZipFile(wheel).namelist()
    )
    home = tmp_path / "venv"
    venv.create(home, with_pip=True)
    python = str(home / "bin" / "python")
    done = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    probe = (
        "from tictactoe_tui.engine.rules.board import Board\n"
        "from tictactoe_tui.engine.proofs.threats import ThreatSearch, find_vcf, kernel_available\n"
        f"board = Board.from_string({THREAT_PUZZLES[5]!r}, k=5)\n"
        "assert not kernel_available() and not ThreatSearch().use_kernel\n"
        "print(len(find_vcf(board).moves))\n"
    )
    done = subprocess.run(
        [python, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["5"]


@needs_kernel
@pytest.mark.slow
def test_with_a_compiler_the_wheel_carries_the_kernel(tmp_path: Path) -> None:
    env = dict(os.environ, TMPDIR=str(tmp_path), PIP_NO_CACHE_DIR="1")
    wheel = build_wheel(tmp_path, env)
    assert not wheel.name.endswith("-none-any.whl")
    assert any(
        name.startswith("tictactoe_tui/engine/proofs/_threatc.") and name.endswith(".so")
        for name in zipfile.ZipFile(wheel).namelist()
    )
