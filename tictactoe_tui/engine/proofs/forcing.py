"""The cells the forcing rules leave a side (`threats`' rules 3 and 5), as masks.

`defences`: the moves rule 5 leaves against the opponent's doubles; `fork_stops`: the cells that
stop every double; `lowest`: a mask's lowest cell (the block of a single winning cell). The
threat search and the move reader (`move_facts`) both read moves with them.
"""

from __future__ import annotations

from tictactoe_tui.engine.proofs.lines import LineState


def lowest(mask: int) -> int:
    """The lowest set cell of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def defences(state: LineState, side: int) -> int | None:
    """The moves for `side` (to move) that rule 5 leaves, or None when the opponent has no double.

    Meant for a position where neither side has a winning cell. The result is the cells that
    stop every double of the opponent (`fork_stops`) and the cells where `side` makes a four of
    its own; every other move loses in 4. The result can be empty: then every move loses in 4.
    """
    stops = fork_stops(state, side)
    return None if stops is None else stops | state.four_moves(side)


def fork_stops(state: LineState, side: int) -> int | None:
    """The empty cells where `side` (to move) stops every double of the opponent, or None when
    the opponent has none: the double itself, or for a double that makes exactly two winning
    cells either of them. Rule 5's other answers, `side`'s own fours, are not counted here."""
    opponent = 1 - side
    stop = -1
    found = False
    for cell, wins in state.partners(opponent).items():
        if wins & (wins - 1):
            found = True
            # Taking one of exactly two winning cells leaves one: that can be blocked in time.
            here = 1 << cell | (wins if (wins & (wins - 1)).bit_count() == 1 else 0)
            stop &= here
    if not found:
        return None
    return stop & state.empty
