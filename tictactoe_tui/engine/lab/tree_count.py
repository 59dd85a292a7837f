"""How big plain minimax's tree is from a position: counted, or estimated by random probes.

`tree_size` counts the positions exactly (each distinct position once, its subtree's size
remembered) when there are few enough, else estimates them with Knuth's estimator.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from math import comb

from tictactoe_tui.engine.lab.methods import METHODS
from tictactoe_tui.engine.lab.searcher import LabSearcher
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import completes_line


@dataclass(frozen=True)
class TreeSize:
    """How many positions plain minimax visits from a position (the root counted)."""

    positions: int
    exact: bool
    """True when counted; False when estimated by random probes (Knuth's estimator)."""


def _distinct_bound(plies: int, empties: int) -> int:
    """At most how many distinct positions `plies` moves can make on `empties` empty cells."""
    total = 0
    for j in range(plies + 1):
        total += comb(empties, j) * comb(j, j // 2)
    return total


class _TooMany(Exception):
    """The exact count would need more distinct positions than allowed."""


def tree_size(
    board: Board,
    depth: int | None = None,
    max_distinct: int = 200_000,
    probes: int = 3_000,
    seed: int = 0,
    time_limit: float = 0.5,
) -> TreeSize:
    """The positions plain minimax visits from `board` (to `depth` plies; None: to the end).

    Counted exactly (each distinct position once, with its subtree's size remembered) when the
    tree has at most `max_distinct` distinct positions; else estimated with Knuth's random-probe
    estimator: along a random line, the product of the branching factors met so far estimates how
    many positions each level holds; the average over `probes` lines (fewer if `time_limit`
    seconds pass first, on big boards with long games) is unbiased.
    """
    if board.is_over:
        return TreeSize(1, True)
    sh = fs.shape(board.size, board.k)
    empties = sh.cells - board.move_count
    limit = depth if depth is not None and depth < empties else None
    counter = LabSearcher(
        board, METHODS["minimax"], limit, fs.Poller(None, None, sh.poll_mask), None
    )
    me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
    if _distinct_bound(empties if limit is None else limit, empties) <= max_distinct:
        try:
            return TreeSize(_count(counter, me, opp, max_distinct), True)
        except _TooMany:
            pass
    return TreeSize(_estimate(counter, me, opp, probes, random.Random(seed), time_limit), False)


def _count(counter: LabSearcher, me: int, opp: int, max_distinct: int) -> int:
    """The positions below (me, opp) counted exactly, each distinct one once (its subtree's
    size remembered); `_TooMany` past `max_distinct` distinct positions."""
    sh = counter.sh
    limit = counter.limit
    memo: dict[tuple[int, int], int] = {}

    def count(me: int, opp: int, ply: int) -> int:
        known = memo.get((me, opp))
        if known is not None:
            return known
        if len(memo) >= max_distinct:
            raise _TooMany
        total = 1
        if sh.full & ~(me | opp) and (limit is None or ply < limit):
            for cell in counter.moves(me, opp, -1):
                mine = me | 1 << cell
                total += 1 if completes_line(sh, mine, cell) else count(opp, mine, ply + 1)
        memo[(me, opp)] = total
        return total

    return count(me, opp, 0)


def _estimate(
    counter: LabSearcher, me: int, opp: int, probes: int, rng: random.Random, time_limit: float
) -> int:
    """Knuth's estimate of the positions below (me, opp): the average over `probes` random
    lines (at least 10, fewer than `probes` once `time_limit` seconds have passed)."""
    sh = counter.sh
    limit = counter.limit
    grand = 0
    done = 0
    deadline = time.perf_counter() + time_limit
    while done < probes and (done < 10 or time.perf_counter() < deadline):
        done += 1
        a, b, ply, width, total = me, opp, 0, 1, 1
        while sh.full & ~(a | b) and (limit is None or ply < limit):
            moves = counter.moves(a, b, -1)
            width *= len(moves)
            total += width
            cell = rng.choice(moves)
            mine = a | 1 << cell
            if completes_line(sh, mine, cell):
                break
            a, b, ply = b, mine, ply + 1
        grand += total
    return round(grand / done)
