"""One rule decides which positions a game reaches: checked against a brute force of our own.

The brute force knows nothing of the engine: it finds the lines itself, and decides a position
by trying to take back its last move. A game stops at the first line, so a position with a line
is reached only from one without, by the winner's last move; a position without a line is
reached by any alternation its counts allow (take the marks back one by one: no subset of a
line-free position has a line). Every 4×4 position with k = 3 is checked in the slow tier (15
million positions, each with both sides to move), a seeded sample of them in the everyday run;
the 3×3 rule is checked on all of its positions against a forward search in
`tests/test_analysis_board.py`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest

from tictactoe_tui.engine import IllegalMove, Mark
from tictactoe_tui.engine.rules.board import geometry
from tictactoe_tui.engine.rules.setup import reachability_problem, read_position

SIZE, K = 4, 3


def _our_lines(size: int, k: int) -> list[int]:
    """Every run of k cells in a row, a column or a diagonal, as a bit mask (our own scan)."""
    masks = []
    for row in range(size):
        for col in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + dr * i, col + dc * i) for i in range(k)]
                if all(0 <= r < size and 0 <= c < size for r, c in cells):
                    masks.append(sum(1 << (r * size + c) for r, c in cells))
    return masks


LINES = _our_lines(SIZE, K)


@cache
def _has_line(marks: int) -> bool:
    # Remembered: a 4×4 board has 65,536 sets of marks, and the sweep asks each many times.
    return any(marks & line == line for line in LINES)


def brute_reachable(x: int, o: int, to_move: Mark) -> bool:
    """Whether a game reaches marks `x`, `o` with `to_move` to move (see the module docstring)."""
    last, other = (o, x) if to_move is Mark.X else (x, o)
    if last.bit_count() - other.bit_count() not in (0, 1):
        return False  # the players alternate and `last` moved last (or nobody moved)
    if not _has_line(x) and not _has_line(o):
        return True
    if _has_line(other):
        return False  # the side to move has a line: the game was over before its last move
    for cell in range(SIZE * SIZE):
        bit = 1 << cell
        if last & bit and not _has_line(last & ~bit):
            return True  # the last move made every line, from a line-free position
    return False


def _positions_with(x_count: int) -> Iterator[tuple[int, int]]:
    """Every 4×4 position with `x_count` X and one more, as many or one fewer O."""
    cells = range(SIZE * SIZE)
    for xs in combinations(cells, x_count):
        x = sum(1 << c for c in xs)
        free = [c for c in cells if not x >> c & 1]
        for o_count in (x_count - 1, x_count, x_count + 1):
            if o_count < 0:
                continue
            for os_ in combinations(free, o_count):
                yield x, sum(1 << c for c in os_)


@cache
def _engine_lines() -> tuple[int, ...]:
    """The engine's lines for the 4×4 board (asked once, not once per position)."""
    return tuple(geometry(SIZE, K).lines)


def _check(x: int, o: int) -> None:
    lines = _engine_lines()
    for side in (Mark.X, Mark.O):
        problem = reachability_problem(x, o, lines, side)
        assert (problem is None) == brute_reachable(x, o, side), (bin(x), bin(o), side, problem)
        if problem is not None:
            assert problem.endswith(".") and "\n" not in problem


def test_the_engines_lines_are_ours() -> None:
    assert sorted(geometry(SIZE, K).lines) == sorted(LINES)


@pytest.mark.slow
@pytest.mark.parametrize("x_count", range(SIZE * SIZE // 2 + 2))
def test_every_4x4_position_with_k3_is_judged_as_the_brute_force_judges_it(x_count: int) -> None:
    for x, o in _positions_with(x_count):
        _check(x, o)


def test_a_sample_of_4x4_positions_is_judged_as_the_brute_force_judges_it() -> None:
    rng = random.Random(5)
    for _ in range(20_000):
        x = o = 0
        for cell in rng.sample(range(SIZE * SIZE), rng.randrange(3, 13)):
            if x.bit_count() <= o.bit_count():
                x |= 1 << cell
            else:
                o |= 1 << cell
        if rng.random() < 0.3:  # a count one off either way
            x, o = o, x
        _check(x, o)


def _read(text: str) -> str:
    try:
        read_position(text, k=3)
    except IllegalMove as error:
        return str(error)
    return "reachable"


def test_three_lines_that_share_cells_pairwise_get_a_true_reason() -> None:
    # X's lines A1-C1, A1-A3 and C1-A3 share a cell two by two, but no cell is on all three.
    reason = _read("XXXO/XXO./X..O/.OO.")
    assert "two lines with no cell in common" not in reason
    assert reason == (
        "Impossible position: no cell of X's is on all 3 of its lines, so no last move made "
        "them all, and the game ends at the first one."
    )


def test_two_separate_lines_are_named_as_such() -> None:
    assert _read("XXX./OO.O/.OO./XXX.") == (
        "Impossible position: X has two lines with no cell in common, but the game ends at "
        "the first one."
    )


def test_a_winning_move_that_made_two_lines_at_once_is_reachable() -> None:
    # X's last move B2 made the row A2-C2 and the column B1-B3 at once.
    assert _read(".X../XXX./OXO./O.O.") == "reachable"


def test_rows_of_different_lengths_are_refused_naming_the_row() -> None:
    assert _read("X..../..../.......") == (
        "row 2 has 4 cells but row 1 has 5: every row of a board has the same number of cells"
    )
    assert _read("..../..../.../....") == (
        "row 3 has 3 cells but row 1 has 4: every row of a board has the same number of cells"
    )
    assert _read("X...............") == "reachable"  # one row of 16: no '/' to disagree with
