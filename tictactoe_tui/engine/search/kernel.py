"""The search machinery behind `api` and `minimax`, on raw bitboard ints.

Nothing here builds `Board` objects in the inner loops: `Board.__init__` scans every line, which
would cost more than the rest of a node. A position inside the search is a pair of ints
`(me, opp)`: the marks of the side to move and of its opponent. Because the rules are the same for
both players, the side's letter never matters to the value of a position, so the transposition
table is keyed on that mover-relative pair.

Scores follow the project's rule, counted in plies from the root of the search (ply 1 = the
root's move): a win on ply d is `W - d`, a loss `-(W - d)`, a draw 0, with `W = size*size + 1`.
Heuristic values at a depth cut-off are clamped strictly inside the win/loss bands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from tictactoe_tui.engine.evaluation.heuristics import h1_weights
from tictactoe_tui.engine.rules.board import Board, Mark, geometry
from tictactoe_tui.engine.search.types import (
    Band,
    IterationInfo,
    Kind,
    Progress,
    ProgressCallback,
    Source,
    win_score,
)

Evaluator = Callable[[Board, Mark], int]
"""A heuristic seen from the given player: `evaluate(board, player) -> int`."""

EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table flags: the stored value is exact, a lower bound, an upper bound."""

# A cancel must take effect within ~10 ms. Nodes on small boards take a few microseconds, interior
# nodes on big boards up to a few hundred, so the poll interval is chosen per board size.
_POLL_SMALL = 255
_POLL_BIG = 15

ALL_CELLS_MAX = 36
"""Boards up to this many cells are searched over every empty cell at every node; bigger ones
only consider cells next to a mark, where every tactic of a k-in-a-row game happens."""


class Stopped(Exception):
    """Raised inside the search when `should_stop()` says so or the deadline passed."""


@dataclass(frozen=True)
class Shape:
    """Everything the search precomputes once for a (size, k) pair."""

    size: int
    k: int
    cells: int
    full: int
    win: int
    """W = cells + 1 (`types.win_score`): a win on ply d scores W - d."""
    lines: tuple[int, ...]
    cell_lines: tuple[tuple[int, ...], ...]
    line_value: tuple[int, ...]
    """line_value[n] = H1 weight of a line holding n marks of one side only (`h1_weights`; 0 for
    n = 0 or k)."""
    order: tuple[int, ...]
    """Cells from the most lines through them to the fewest (centre first), for move ordering."""
    near: tuple[int, ...]
    """For each cell, the mask of the cells at king distance <= 1 (the cell included)."""
    sym_perms: tuple[tuple[int, ...], ...]
    """The 8 symmetries of the square as cell permutations (identity first)."""
    sym_inverse: tuple[tuple[int, ...], ...]
    sym_tables: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    """Per symmetry: lookup tables mapping the low / high chunk of a bitboard to its image."""
    chunk_bits: int
    all_cells: bool
    symmetric: bool

    @property
    def poll_mask(self) -> int:
        """Poll should_stop when `nodes & poll_mask == 0`."""
        return _POLL_SMALL if self.all_cells else _POLL_BIG


def _symmetries(size: int) -> tuple[tuple[int, ...], ...]:
    last = size - 1
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (c, last - r),
        lambda r, c: (last - r, last - c),
        lambda r, c: (last - c, r),
        lambda r, c: (r, last - c),
        lambda r, c: (last - r, c),
        lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    ]
    perms = []
    for fn in maps:
        perm = []
        for cell in range(size * size):
            r, c = fn(*divmod(cell, size))
            perm.append(r * size + c)
        perms.append(tuple(perm))
    return tuple(perms)


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The inverse of a permutation of the cells."""
    inverse = [0] * len(perm)
    for cell, image in enumerate(perm):
        inverse[image] = cell
    return tuple(inverse)


def chunk_table(perm: tuple[int, ...], offset: int, width: int) -> tuple[int, ...]:
    """Images under `perm` of every bit pattern of the cells offset..offset+width-1."""
    table = [0]
    for cell in range(offset, offset + width):
        # The patterns with this cell are the ones without it, plus its image.
        image = 1 << perm[cell]
        table += [pattern | image for pattern in table]
    return tuple(table)


@cache
def shape(size: int, k: int) -> Shape:
    """The shared precomputed data of a sizexsize board with k in a row."""
    geo = geometry(size, k)
    cells = geo.cells
    centre = (size - 1) / 2

    def rank(cell: int) -> tuple[int, float, int]:
        r, c = divmod(cell, size)
        return (-len(geo.cell_lines[cell]), abs(r - centre) + abs(c - centre), cell)

    near = []
    for cell in range(cells):
        r, c = divmod(cell, size)
        mask = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= r + dr < size and 0 <= c + dc < size:
                    mask |= 1 << ((r + dr) * size + c + dc)
        near.append(mask)
    perms = _symmetries(size)
    inverse = tuple(_inverse(perm) for perm in perms)
    # Symmetry lookups use two chunk tables per symmetry; beyond 26 cells the tables grow too big
    # and the boards are searched with heuristics, where exact transpositions are rare anyway.
    symmetric = cells <= 26
    chunk = (cells + 1) // 2
    tables = (
        tuple(
            (chunk_table(perm, 0, chunk), chunk_table(perm, chunk, cells - chunk)) for perm in perms
        )
        if symmetric
        else ()
    )
    return Shape(
        size=size,
        k=k,
        cells=cells,
        full=geo.full,
        win=win_score(geo),
        lines=geo.lines,
        cell_lines=geo.cell_lines,
        line_value=(0, *h1_weights(k), 0),
        order=tuple(sorted(range(cells), key=rank)),
        near=tuple(near),
        sym_perms=perms,
        sym_inverse=inverse,
        sym_tables=tables,
        chunk_bits=chunk,
        all_cells=cells <= ALL_CELLS_MAX,
        symmetric=symmetric,
    )


def h1_bits(sh: Shape, me: int, opp: int) -> int:
    """H1 seen from the owner of `me`, straight from the bitboards (equals `evaluate.h1`)."""
    value = 0
    weights = sh.line_value
    for line in sh.lines:
        mine = me & line
        theirs = opp & line
        if mine:
            if not theirs:
                value += weights[mine.bit_count()]
        elif theirs:
            value -= weights[theirs.bit_count()]
    return value


def threats(sh: Shape, me: int, opp: int) -> int:
    """The empty cells where the owner of `me` would complete a line at once."""
    need = sh.k - 1
    found = 0
    for line in sh.lines:
        if not opp & line and (me & line).bit_count() == need:
            found |= line & ~me
    return found


def maker_potential(sh: Shape, me: int, opp: int, moves_left: int) -> int:
    """Erdős-Selfridge potential of `me` scaled by 2**k: Σ 2**(marks) over lines it can still fill.

    Lines holding an `opp` mark, or needing more marks than `me` has moves left, do not count.
    """
    k = sh.k
    total = 0
    for line in sh.lines:
        if not opp & line:
            count = (me & line).bit_count()
            if k - count <= moves_left:
                total += 1 << count
    return total


def completes_line(sh: Shape, bits: int, cell: int) -> bool:
    """True if `bits` (which holds `cell`) has a full line through `cell`."""
    return any(bits & line == line for line in sh.cell_lines[cell])


def iter_cells(mask: int) -> list[int]:
    """The set cells of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


Table = dict[int, tuple[int, int, int, int]]
"""A transposition table: key -> (flag, score, best move in the key's orientation, depth)."""


REPORT_INTERVAL = 0.1
"""Seconds between progress reports while a search runs."""


class Poller:
    """Counts nodes, raises `Stopped` when asked to stop or past the deadline, and reports.

    `reporter` (if given) is called from `poll` at most every `REPORT_INTERVAL` seconds, so a
    caller watching the search hears from it a few times a second, whatever the board.
    """

    def __init__(
        self,
        should_stop: Callable[[], bool] | None,
        deadline: float | None,
        poll_mask: int,
        reporter: Callable[[], None] | None = None,
    ) -> None:
        """Poll `should_stop`, the clock and the reporter every `poll_mask + 1` nodes."""
        self.should_stop = should_stop
        self.deadline = deadline
        self.poll_mask = poll_mask
        self.reporter = reporter
        self.next_report = time.perf_counter() + REPORT_INTERVAL
        self.nodes = 0
        self.cancelled = False
        self.timed_out = False

    def poll(self) -> None:
        """Raise `Stopped` if the caller cancelled or the time is up; report when it is due."""
        if self.should_stop is not None and self.should_stop():
            self.cancelled = True
            raise Stopped
        if self.deadline is not None or self.reporter is not None:
            now = time.perf_counter()
            if self.deadline is not None and now > self.deadline:
                self.timed_out = True
                raise Stopped
            if self.reporter is not None and now >= self.next_report:
                self.next_report = now + REPORT_INTERVAL
                self.reporter()


# -- plain minimax -------------------------------------------------------------------------------


class Minimax:
    """The unpruned negamax form of minimax: every node of the tree is visited and counted."""

    def __init__(
        self,
        sh: Shape,
        poller: Poller,
        depth: int | None,
        evaluate: Evaluator | None,
        root_mark: Mark,
    ) -> None:
        """Search `sh`-shaped positions; `depth` None means to the end of the game."""
        self.sh = sh
        self.poller = poller
        self.depth = depth
        self.evaluate = evaluate
        self.root_mark = root_mark
        self.horizon = heuristic_cap(sh, depth)
        self.pv: list[tuple[int, ...]] = [()] * (sh.cells + 2)

    def value(self, me: int, opp: int, ply: int) -> int:
        """The negamax value of a non-terminal position, from the side to move at `ply`."""
        sh = self.sh
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        pv = self.pv
        pv[ply] = ()
        empty = sh.full & ~(me | opp)
        if not empty:
            return 0
        if self.depth is not None and ply >= self.depth:
            return self.leaf(me, opp, ply)
        best = -sh.win - 1
        win_here = sh.win - ply - 1
        cell = 0
        while empty:
            low = empty & -empty
            empty ^= low
            cell = low.bit_length() - 1
            mine = me | low
            if completes_line(sh, mine, cell):
                # The winning child is a terminal node of the tree: count it like any other.
                poller.nodes += 1
                score = win_here
                pv[ply + 1] = ()
            else:
                score = -self.value(opp, mine, ply + 1)
            if score > best:
                best = score
                pv[ply] = (cell, *pv[ply + 1])
        return best

    def leaf(self, me: int, opp: int, ply: int) -> int:
        """The clamped heuristic value at the depth cut-off."""
        if self.evaluate is None:
            raw = h1_bits(self.sh, me, opp)
        else:
            mark = self.root_mark if ply % 2 == 0 else self.root_mark.opponent
            x, o = (me, opp) if mark is Mark.X else (opp, me)
            raw = self.evaluate(Board(geometry(self.sh.size, self.sh.k), x, o, mark), mark)
        return max(-self.horizon, min(self.horizon, raw))


def heuristic_cap(sh: Shape, depth: int | None) -> int:
    """The largest |heuristic| allowed at a cut-off `depth` plies deep: strictly inside the bands.

    Wins found within `depth` plies score at least W - depth, so heuristic values stay below.
    """
    if depth is None:
        return 0
    return max(sh.win - depth - 1, 0)


class Tracker:
    """What a search knows so far, reported through `on_progress` (if any).

    It also keeps the search's story: one `IterationInfo` per completed step (`iterations`).
    """

    def __init__(self, poller: Poller, start: float, on_progress: ProgressCallback | None) -> None:
        self.poller = poller
        self.start = start
        self.on_progress = on_progress
        self.depth = 0
        self.move: int | None = None
        self.score = 0
        self.kind = Kind.ESTIMATE
        self.band = Band.HEURISTIC
        self.pv: tuple[int, ...] = ()
        self.complete = False
        self.iterations: list[IterationInfo] = []
        self.decided = False
        """True once the root is proven (`prove`): later steps only value the other moves, so
        they neither add to the story nor replace the proven best move."""
        if on_progress is not None:
            poller.reporter = self.report

    @property
    def wanted(self) -> bool:
        """True when someone listens: only then is it worth building lines for reports."""
        return self.on_progress is not None

    def best_so_far(
        self,
        move: int,
        score: int,
        pv: tuple[int, ...],
        kind: Kind = Kind.ESTIMATE,
        band: Band = Band.HEURISTIC,
    ) -> None:
        """Remember the best move of an unfinished depth; the next periodic report shows it
        (once the root is proven, the proof stays the best move)."""
        if not self.decided:
            self.move, self.score, self.pv, self.kind, self.band = move, score, pv, kind, band

    def reached(
        self,
        depth: int,
        move: int,
        score: int,
        pv: tuple[int, ...],
        complete: bool,
        kind: Kind = Kind.ESTIMATE,
        band: Band = Band.HEURISTIC,
        source: Source = Source.SEARCH,
    ) -> None:
        """A step is complete: remember it, its best move and its score, and report at once.

        Once the root is proven (`decided`), a step only values the other moves: the story
        keeps the proof as its last row and the report its best move."""
        if not self.decided:
            self._row(depth, move, score, pv, complete, kind, band, source)
        self.report()

    def prove(
        self,
        depth: int,
        move: int,
        score: int,
        pv: tuple[int, ...],
        kind: Kind,
        band: Band,
        source: Source = Source.SEARCH,
    ) -> None:
        """The root is proven: `move` is best with this value. The story says so, and nothing
        the search does afterwards (valuing the other moves) changes its best move or adds a
        row; `close` ends the story on the final answer."""
        self._row(depth, move, score, pv, True, kind, band, source)
        self.decided = True
        self.report()

    def close(
        self,
        depth: int,
        move: int,
        score: int,
        pv: tuple[int, ...],
        complete: bool,
        kind: Kind,
        band: Band,
        source: Source = Source.SEARCH,
    ) -> None:
        """The search's answer: the story's last row becomes it, so the story ends on the
        verdict the caller gets (same move, value and kind).

        Nothing is added when the last row already says it. A proof's row at the same depth is
        replaced (another move of the same value may rank first once every move is known);
        any other answer is a row of its own (the solver's bounds can correct the deepening's
        last answer, for instance)."""
        last = self.iterations[-1] if self.iterations else None
        if last is not None and (last.move, last.score, last.kind, last.band, last.complete) == (
            move,
            score,
            kind,
            band,
            complete,
        ):
            return
        if last is not None and last.complete and complete and last.depth == depth:
            self.iterations.pop()
        self.decided = False
        self._row(depth, move, score, pv, complete, kind, band, source)
        self.report()

    def _row(
        self,
        depth: int,
        move: int,
        score: int,
        pv: tuple[int, ...],
        complete: bool,
        kind: Kind,
        band: Band,
        source: Source,
    ) -> None:
        """Remember a completed step, its best move and its score."""
        self.depth, self.complete = depth, complete
        self.best_so_far(move, score, pv, kind, band)
        self.iterations.append(
            IterationInfo(
                depth,
                move,
                score,
                kind,
                band,
                self.poller.nodes,
                time.perf_counter() - self.start,
                pv,
                source,
                complete,
            )
        )

    def report(self) -> None:
        """Tell the listener where the search stands."""
        if self.on_progress is not None:
            self.on_progress(
                Progress(
                    self.depth,
                    self.poller.nodes,
                    time.perf_counter() - self.start,
                    self.move,
                    self.score,
                    self.pv,
                    self.complete,
                    self.kind,
                    self.band,
                    tuple(self.iterations),
                )
            )
