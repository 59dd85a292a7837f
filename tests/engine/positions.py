"""Every 3×3 position reachable by play, shared by the exhaustive engine tests."""

from __future__ import annotations

from functools import cache

from tictactoe_tui.engine import Board, Mark


@cache
def reachable_3x3(first: Mark = Mark.X) -> tuple[Board, ...]:
    """Every position reachable from the empty 3×3 board with `first` moving first, in a fixed
    order (5,478 of them when X starts)."""
    seen: dict[Board, None] = {}
    stack = [Board.empty(3, 3, first=first)]
    while stack:
        board = stack.pop()
        if board in seen:
            continue
        seen[board] = None
        stack.extend(board.play(move) for move in board.legal_moves())
    return tuple(seen)
