"""The opening rule: on an empty big board the computer plays the centre at once.

No search can say much about the empty 15×15 board in a second: it would spend its whole budget
to come back with an estimate. The centre is the classic opening of k-in-a-row (the cell most
winning lines run through, with room on every side, and every first move's mirror images meet
there), so a player answers with it straight away, and says that a rule chose it, not a search:
its score is H1's estimate of the board after it, marked as one.

Only where a search cannot settle the position: boards of `CENTRE_MIN_SIZE` and more with at
least `CENTRE_MIN_K` in a row (smaller boards and three in a row are solved, or nearly, within
the budget, and then a proven value is worth the wait).
"""

from __future__ import annotations

import random

from tictactoe_tui.engine.evaluation.heuristics import h1
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search.types import (
    Algorithm,
    Analysis,
    IterationInfo,
    Kind,
    MoveScore,
    Rule,
    Source,
)

CENTRE_MIN_SIZE = 9
"""The smallest board the rule plays on (empty 7×7 and 8×8 boards, five in a row, are left to
the search: measured with `analyse`, it finishes or nearly within a second there)."""

CENTRE_MIN_K = 4
"""The shortest winning line the rule plays for (three in a row is solved at once anyway)."""


def centre_cells(size: int) -> tuple[int, ...]:
    """The centre of a size×size board: one cell when the size is odd, the middle four when it
    is even."""
    middle = range(size // 2 - (1 - size % 2), size // 2 + 1)
    return tuple(row * size + col for row in middle for col in middle)


def opening_analysis(board: Board, rng: random.Random) -> Analysis | None:
    """The opening rule's answer on `board` (its one move scored), or None where the rule does
    not apply (a mark on the board, a small board, a short line): then a search decides. On an
    even board `rng` picks among the four middle cells."""
    if board.move_count or board.size < CENTRE_MIN_SIZE or board.k < CENTRE_MIN_K:
        return None
    cells = centre_cells(board.size)
    move = cells[0] if len(cells) == 1 else rng.choice(cells)
    scored = MoveScore(
        move,
        h1(board.play(move), board.to_move),
        nodes=0,
        pv=(move,),
        kind=Kind.ESTIMATE,
        depth=0,
        source=Source.RULE,
        rule=Rule.CENTRE_OPENING,
    )
    # The story is one row, the rule's answer, so it ends on the verdict as a search's does.
    told = IterationInfo(
        depth=0,
        move=move,
        score=scored.score,
        kind=scored.kind,
        band=scored.band,
        nodes=0,
        elapsed=0.0,
        pv=(move,),
        source=Source.RULE,
    )
    return Analysis(
        Algorithm.ALPHABETA,
        (scored,),
        nodes=0,
        elapsed=0.0,
        depth=0,
        complete=False,
        cancelled=False,
        iterations=(told,),
    )
