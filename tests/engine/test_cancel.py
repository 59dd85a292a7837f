"""A search cancelled at any moment leaves nothing broken behind: its answer's expected line is
a line of legal moves, and the tables a game's searches share (`SearchMemory`) hold the position
it was given, so the next search starts from the truth.

The cancels land at seeded, scattered points (after 1 to 60 polls of `should_stop`): in the
main search, in its threat searches and in the root's threat defence (whose cancel once took
back the wrong stone and left the shared board one stone off).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.engine.test_search import replay
from tictactoe_tui.engine import Board, alphabeta
from tictactoe_tui.engine.proofs.lines import LineState
from tictactoe_tui.engine.search.api import SearchMemory


def stop_after(polls: int) -> Callable[[], bool]:
    """A `should_stop` that says stop from its `polls + 1`-th call on."""
    calls = 0

    def should_stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > polls

    return should_stop


def test_a_cancel_anywhere_leaves_a_legal_line_and_the_shared_board_as_given() -> None:
    rng = random.Random(11)
    cancelled = 0
    for size in (10, 12, 15, 12, 10, 15):
        board = Board.empty(size, 5)
        while not board.is_over and board.move_count < 30:
            memory = SearchMemory()
            result = alphabeta(
                board, time_limit=0.3, should_stop=stop_after(rng.randint(1, 60)), memory=memory
            )
            if result.cancelled:
                cancelled += 1
                replay(board, result.pv)  # IllegalMove if the line holds a taken cell
                tree = memory.searcher(board).tree
                tree.state.rewind(0)
                fresh = LineState(tree.shape, board.x_bits, board.o_bits)
                assert (tree.state.bits, tree.state.count) == (fresh.bits, fresh.count)
                assert (tree.state.threes, tree.state.fours) == (
                    fresh.threes,
                    fresh.fours,
                ), str(board)
            move = result.move
            if move is None or rng.random() < 0.2:
                move = rng.choice(board.legal_moves())
            board = board.play(move)
    assert cancelled > 50
