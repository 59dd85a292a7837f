"""`grade` counts what an independent brute force counts, and names every buggy file.

The brute force (tests/engine/brute.py) shares no code with the engine: it walks every reachable
3×3 position itself and values every move by plain negamax. Each reference player is a file
the grade runs as guest code; the test calls the same `choose` directly (it is the subject,
not the oracle) and counts, position by position, the moves that keep the value and the moves
that are best by the depth-aware rule.
"""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from tests.engine.brute import BruteForce
from tests.fake_brains import processes_running
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.grade import grade, graded_positions

PLAYERS = {
    "corner_first": """
        ORDER = [0, 2, 6, 8, 4, 1, 3, 5, 7]
        def choose(board):
            legal = board.legal_moves()
            return next(cell for cell in ORDER if cell in legal)
        """,
    "seeded_random": """
        import random
        RANDOM = True
        def choose(board):
            return random.Random(str(board)).choice(sorted(board.legal_moves()))
        """,
    "never_blocks": """
        LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
                 (2, 4, 6)]

        def choose(board):
            cells = str(board).replace("/", "")
            me = str(board.to_move)
            them = "O" if me == "X" else "X"
            legal = sorted(board.legal_moves())

            def wins(mark, cell):
                return any(
                    cell in line and all(cells[c] == mark or c == cell for c in line)
                    for line in LINES
                )

            for cell in legal:
                if wins(me, cell):
                    return cell
            return next((c for c in legal if not wins(them, c)), legal[0])
        """,
    "perfect": """
        from functools import cache
        def choose(board):
            me = board.to_move
            return max(sorted(board.legal_moves()), key=lambda m: value(board.play(m), me))
        @cache
        def value(board, me):
            if board.winner is not None:
                w = 10 - board.move_count
                return w if board.winner == me else -w
            if board.is_over:
                return 0
            scores = [value(board.play(m), me) for m in board.legal_moves()]
            return max(scores) if board.to_move == me else min(scores)
        """,
}


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return path


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def every_open_position(brute: BruteForce) -> list[tuple[str, str]]:
    """Every reachable 3×3 position with a move to make, as (cells, mover), walked here."""
    found: set[tuple[str, str]] = set()
    stack = [("." * 9, "X")]
    while stack:
        cells, mover = stack.pop()
        if (cells, mover) in found or brute.winner(cells) is not None or "." not in cells:
            continue
        found.add((cells, mover))
        for cell, mark in enumerate(cells):
            if mark == ".":
                after = cells[:cell] + mover + cells[cell + 1 :]
                stack.append((after, "O" if mover == "X" else "X"))
    return sorted(found)


def as_board(cells: str, mover: str) -> Board:
    return Board.from_string("/".join(cells[i : i + 3] for i in (0, 3, 6)), k=3, to_move=mover)


def brute_counts(brute: BruteForce, choose, positions) -> tuple[int, int]:
    kept = best = 0
    for cells, mover in positions:
        values = brute.move_values(cells, mover)
        top = max(values.values())
        played = values[choose(as_board(cells, mover))]
        kept += (played > 0) - (played < 0) == (top > 0) - (top < 0)
        best += played == top
    return kept, best


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_the_counts_are_the_brute_forces_over_every_three_by_three_position(tmp_path, name):
    path = write(tmp_path, name, PLAYERS[name])
    brute = BruteForce(3, 3)
    positions = every_open_position(brute)
    assert len(positions) == 4520
    report = grade(path, games=1)
    assert report.positions == report.graded == 4520 and report.exhaustive
    kept, best = brute_counts(brute, load(path).choose, positions)
    assert (report.value_preserving, report.best) == (kept, best)
    assert report.passed, [c for c in report.checks if not c.passed]
    if name == "perfect":
        assert report.first_worse is None and best == 4520
    else:
        worse = report.first_worse
        assert worse is not None
        cells = str(worse.position).replace("/", "")
        values = brute.move_values(cells, str(worse.position.to_move))
        assert values[worse.played.move] < max(values.values()) == worse.best[0].score
        assert worse.played.score == values[worse.played.move]
    assert not processes_running(path)


@pytest.mark.slow
def test_on_four_by_four_the_sampled_counts_are_recounted_and_the_values_brute_forced(tmp_path):
    # The counts are recounted here from each sampled position's proven scores and the
    # player's own moves; the scores themselves are the brute force's on every sampled position
    # with at least 5 marks (earlier ones have millions of lines for a plain negamax).
    order = "[0, 3, 12, 15, 5, 6, 9, 10, 1, 2, 4, 7, 8, 11, 13, 14]"
    body = PLAYERS["corner_first"].replace("[0, 2, 6, 8, 4, 1, 3, 5, 7]", order)
    path = write(tmp_path, "corner_first", body)
    report = grade(path, size=4, k=3, games=1)
    assert not report.exhaustive and report.positions == report.graded > 100
    brute = BruteForce(4, 3)
    choose = load(path).choose
    positions, _ = graded_positions(4, 3)
    kept = best = checked = 0
    for graded in positions:
        board = graded.board
        values = {m: s.score for m, s in graded.scores.items()}
        if board.move_count >= 5:
            cells, mover = str(board).replace("/", ""), str(board.to_move)
            assert brute.move_values(cells, mover) == values
            checked += 1
        top, played = max(values.values()), values[choose(board)]
        kept += (played > 0) - (played < 0) == (top > 0) - (top < 0)
        best += played == top
    assert checked > 50
    assert (report.value_preserving, report.best) == (kept, best)


@pytest.mark.slow
def test_an_evaluation_is_checked_for_symmetry_and_its_one_ply_choice(tmp_path):
    lopsided = write(
        tmp_path,
        "lopsided",
        """
        def evaluate(board, player):
            return 1 if str(board)[0] == player else 0   # likes A1 only: not symmetric
        """,
    )
    report = grade(lopsided, games=1)
    assert report.symmetry is not None and report.symmetry.positions == 5478
    assert 0 < report.symmetry.same < 5478 and report.symmetry.first_different is not None
    assert [row.name for row in report.one_ply] == ["yours", "h1", "h2"]
    assert all(row.positions == 4520 for row in report.one_ply)


BUGGY = {
    "occupied": ("def choose(board):\n    return 4\n", "legal moves", "a cell"),
    "none": ("def choose(board):\n    return None\n", "legal moves", "not a move"),
    "raises": ("def choose(board):\n    raise KeyError('x')\n", "no exception", "KeyError"),
    "loops": ("def choose(board):\n    while True:\n        pass\n", "within time", "took"),
    "allocates": (
        "def choose(board):\n    return len(bytearray(10**10))\n",
        "no exception",
        "more memory",
    ),
    "prints": (
        "def choose(board):\n    print(board)\n    return board.legal_moves()[0]\n",
        "prints nothing",
        "printed",
    ),
    "flaky": (
        "import random\ndef choose(board):\n    return random.choice(board.legal_moves())\n",
        "same answer twice",
        "two different moves",
    ),
    "broken": ("def choose(board)\n", "loads", "SyntaxError"),
}


@pytest.mark.parametrize("name", sorted(BUGGY))
@pytest.mark.slow
def test_grade_names_each_buggy_file_and_leaves_no_process(tmp_path, name):
    body, check, says = BUGGY[name]
    path = write(tmp_path, name, body)
    report = grade(path, games=1, time_limit=0.2)
    failed = {c.name: c.detail for c in report.checks if not c.passed}
    assert check in failed and says in failed[check]
    assert not report.passed and not processes_running(path)
