"""The cut-off's tempo term keeps a reading steady from one depth to the next (issue 28, item 8).

docs/panel.md says the tempo bonus keeps a position's value from swinging by a move's worth
between odd and even depths. Measured as `bench` does: X in the centre, O to move, searched to
each depth from 1 to 5 (to 6 on 10x10), the values of consecutive depths stay within a few
points of one another (half of a move's worth, the earlier bonus, left swings of 7 to 10).
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from tictactoe_tui.engine import Board, alphabeta

STEADY = 5
"""The largest difference between the values of two consecutive depths."""


@pytest.mark.parametrize(
    ("size", "k", "centre", "deepest"), [(10, 5, 44, 6), (15, 5, 112, 5), (12, 6, 66, 5)]
)
def test_the_value_after_a_centre_move_does_not_swing_between_odd_and_even_depths(
    size: int, k: int, centre: int, deepest: int
) -> None:
    board = Board.empty(size, k).play(centre)
    values = []
    for depth in range(1, deepest + 1):
        result = alphabeta(board, depth=depth)
        assert result.kind == "estimate"
        values.append(result.score)
    swings = [abs(a - b) for a, b in pairwise(values)]
    assert max(swings) <= STEADY, values
