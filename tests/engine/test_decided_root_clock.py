"""A root decided without a search (a win at once, a threat proof) still values its other moves
for the panel, one ply deep; past the caller's deadline the rest are valued at a glance, so the
decision keeps to the clock (a crowded 15x15 position from a match game took 0.43 s at 0.25 s)."""

from __future__ import annotations

import pytest

from tests.engine.brute import BitLines
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.pvs import MATE, Iteration, Searcher

CROWDED = "/".join(
    [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        ".......O.O.....",
        ".......OXXXX...",
        ".........XXXOO.",
        "........OOXOX..",
        ".........XOX...",
        "......O.O.X.O..",
        "...............",
        "...............",
        "...............",
    ]
)
"""X to move wins at once (L8 or G8); one ply below each of its other moves lie long forced
lines: valuing them all took 65,000 positions and 0.43 s (from a match at 0.25 s a move)."""

BOTH_FOURS = "/".join(
    ["XXXX...........", "...............", "OOOO..........."] + ["..............."] * 12
)
"""X to move wins at once on E1; O's four wins on E3 unless X blocks it there."""


def decided(text: str, deadline: float | None) -> tuple[Board, Iteration, int]:
    """The root's one iteration, with the caller's deadline `deadline`, and its positions."""
    board = Board.from_string(text, k=5)
    searcher = Searcher(15, 5)
    poller = fs.Poller(None, None, fs.shape(15, 5).poll_mask)
    (iteration,) = list(searcher.deepen(board, poller, 5, 0, None, deadline))
    return board, iteration, poller.nodes


@pytest.mark.slow
def test_past_the_deadline_the_other_moves_cost_a_glance_each() -> None:
    board, iteration, nodes = decided(CROWDED, deadline=0.0)
    assert iteration.complete and iteration.moves[0].value == MATE - 1
    assert sorted(root.move for root in iteration.moves) == sorted(board.legal_moves())
    assert nodes <= len(board.legal_moves())
    _, _, searched = decided(CROWDED, deadline=None)
    assert searched > 50 * nodes


def test_a_glance_calls_a_loss_only_what_loses_at_once() -> None:
    """Every move but the win and the block leaves O's four: each is a loss in 2, as the one-ply
    search says too; the block is an estimate."""
    board, glanced, _ = decided(BOTH_FOURS, deadline=0.0)
    _, searched, _ = decided(BOTH_FOURS, deadline=None)
    lines = BitLines(15, 5)
    win, block = 4, 2 * 15 + 4
    for iteration in (glanced, searched):
        values = {root.move: root.value for root in iteration.moves}
        assert values[win] == MATE - 1
        for move, value in values.items():
            if move == win:
                continue
            o_wins = lines.winning_cells(board.o_bits, board.x_bits | 1 << move)
            assert (value == -(MATE - 2)) == bool(o_wins), move
        assert abs(values[block]) < MATE // 2
    assert {root.move: root.value for root in glanced.moves if root.value == -(MATE - 2)} == {
        root.move: root.value for root in searched.moves if root.value == -(MATE - 2)
    }
