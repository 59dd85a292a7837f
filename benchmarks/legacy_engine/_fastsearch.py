"""The search machinery behind `search.py`, on raw bitboard ints (private module).

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

from tictactoe_tui.engine.board import Board, Mark, geometry

Evaluator = Callable[[Board, Mark], int]
"""A heuristic seen from the given player: `evaluate(board, player) -> int`."""

EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table flags: the stored value is exact, a lower bound, an upper bound."""

# A cancel must take effect within ~10 ms. Nodes on small boards take a few microseconds, interior
# nodes on big boards up to a few hundred, so the poll interval is chosen per board size.
_POLL_SMALL = 255
_POLL_BIG = 15

# Symmetry canonicalisation costs a few microseconds; it pays near the root, where the subtrees
# it merges are large, and not near the leaves. Only nodes with at least this many empty cells
# (counted from the board's size) use it.
_SYMMETRY_MIN_EMPTY_FRACTION = 0.35

# Boards up to this many cells are searched over every empty cell; bigger ones only consider cells
# next to a mark, where every tactic of a k-in-a-row game happens.
_ALL_CELLS_MAX = 36


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
    """W = cells + 1: a win on ply d scores W - d."""
    lines: tuple[int, ...]
    cell_lines: tuple[tuple[int, ...], ...]
    line_value: tuple[int, ...]
    """line_value[n] = H1 weight of a line holding n marks of one side only (0 for n = 0 or k)."""
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


def _chunk_table(perm: tuple[int, ...], offset: int, width: int) -> tuple[int, ...]:
    """Images under `perm` of every bit pattern of the cells offset..offset+width-1."""
    table = [0] * (1 << width)
    for value in range(1, 1 << width):
        low = value & -value
        table[value] = table[value ^ low] | 1 << perm[offset + low.bit_length() - 1]
    return tuple(table)


@cache
def shape(size: int, k: int) -> Shape:
    """The shared precomputed data of a sizexsize board with k in a row."""
    geo = geometry(size, k)
    cells = size * size
    values = [0] + [3 ** (n - 1) for n in range(1, k)] + [0]
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
    inverse = tuple(tuple(perm.index(cell) for cell in range(cells)) for perm in perms)
    # Symmetry lookups use two chunk tables per symmetry; beyond 26 cells the tables grow too big
    # and the boards are searched with heuristics, where exact transpositions are rare anyway.
    symmetric = cells <= 26
    chunk = (cells + 1) // 2
    tables = tuple(
        (_chunk_table(perm, 0, chunk), _chunk_table(perm, chunk, cells - chunk))
        for perm in perms
    ) if symmetric else ()
    return Shape(
        size=size, k=k, cells=cells, full=geo.full, win=cells + 1,
        lines=geo.lines, cell_lines=geo.cell_lines, line_value=tuple(values),
        order=tuple(sorted(range(cells), key=rank)), near=tuple(near),
        sym_perms=perms, sym_inverse=inverse, sym_tables=tables, chunk_bits=chunk,
        all_cells=cells <= _ALL_CELLS_MAX, symmetric=symmetric,
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


REPORT_INTERVAL = 0.1
"""Seconds between progress reports while a search runs."""


class Poller:
    """Counts nodes, raises `Stopped` when asked to stop or past the deadline, and reports.

    `reporter` (if given) is called from `poll` at most every `REPORT_INTERVAL` seconds, so a
    caller watching the search hears from it a few times a second, whatever the board.
    """

    def __init__(self, should_stop: Callable[[], bool] | None, deadline: float | None,
                 poll_mask: int, reporter: Callable[[], None] | None = None) -> None:
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

    def __init__(self, sh: Shape, poller: Poller, depth: int | None,
                 evaluate: Evaluator | None, root_mark: Mark) -> None:
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


# -- alpha-beta ----------------------------------------------------------------------------------


class AlphaBeta:
    """Alpha-beta negamax with a bound-storing transposition table, threats and draw cuts.

    One instance is one top-level search: its transposition table starts empty, so every call
    from `search.py` is measured from a fresh state.
    """

    def __init__(self, sh: Shape, poller: Poller, evaluate: Evaluator | None,
                 root_mark: Mark) -> None:
        """Prepare an empty table for positions of shape `sh`."""
        self.sh = sh
        self.poller = poller
        self.evaluate = evaluate
        self.root_mark = root_mark
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.sym_min_empty = max(4, round(sh.cells * _SYMMETRY_MIN_EMPTY_FRACTION))
        self.cap = 0
        self.mate_floor = sh.win
        self.heuristic_calls = 0
        self.one = 1 << sh.k
        self.half = 1 << (sh.k - 1)

    # -- table helpers ----------------------------------------------------------------------

    def key(self, me: int, opp: int, empties: int) -> tuple[int, int]:
        """The table key of (me, opp) and the symmetry that maps the position onto it."""
        sh = self.sh
        cells = sh.cells
        if not sh.symmetric or empties < self.sym_min_empty:
            return me << cells | opp, 0
        chunk = sh.chunk_bits
        mask = (1 << chunk) - 1
        me_lo, me_hi, opp_lo, opp_hi = me & mask, me >> chunk, opp & mask, opp >> chunk
        best = -1
        best_sym = 0
        for sym, (lo, hi) in enumerate(sh.sym_tables):
            key = (lo[me_lo] | hi[me_hi]) << cells | lo[opp_lo] | hi[opp_hi]
            if best < 0 or key < best:
                best = key
                best_sym = sym
        return best, best_sym

    def to_table(self, score: int, ply: int) -> int:
        """Make a win/loss score relative to the node (plies from here), not to the root."""
        if score >= self.mate_floor:
            return score + ply
        if score <= -self.mate_floor:
            return score - ply
        return score

    def from_table(self, score: int, ply: int) -> int:
        """Turn a node-relative win/loss score back into a root-relative one."""
        if score >= self.mate_floor + ply:
            return score - ply
        if score <= -self.mate_floor - ply:
            return score + ply
        return score

    # -- full solve -------------------------------------------------------------------------

    def solve(self, me: int, opp: int, my_thr: int, opp_thr: int, ply: int,
              alpha: int, beta: int) -> int:
        """Exact negamax value (fail-soft) of a position with no depth limit.

        `my_thr` / `opp_thr` are the empty cells where each side would complete a line.
        """
        sh = self.sh
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        win = sh.win
        if my_thr:
            return win - ply - 1
        occupied = me | opp
        empty = sh.full & ~occupied
        if not empty:
            return 0
        if opp_thr & (opp_thr - 1):
            # Two cells win for the opponent and we cannot win now: we block one, it takes the
            # other.
            return -(win - ply - 2)
        empties = empty.bit_count()
        mine_left = (empties + 1) >> 1
        # Draw cuts (Erdős-Selfridge): if the potential of a side's completable lines is below 1/2
        # when it moves next, or below 1 when the other side does, the other side can block every
        # one of them, so that side can at best draw. Scaled by 2**k to stay in integers.
        if alpha >= 0 and maker_potential(sh, me, opp, mine_left) < self.half:
            return 0
        if beta <= 0 and maker_potential(sh, opp, me, empties - mine_left) < self.one:
            return 0
        key, sym = self.key(me, opp, empties)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            flag, stored, move, _ = entry
            value = self.from_table(stored, ply)
            if flag == EXACT:
                return value
            if flag == LOWER:
                if value >= beta:
                    return value
                alpha = max(alpha, value)
            elif value <= alpha:
                return value
            else:
                beta = min(beta, value)
            first = sh.sym_inverse[sym][move]
        moves = [opp_thr.bit_length() - 1] if opp_thr else self.ordered(me, opp, empty, first)
        alpha0 = alpha
        best = -win - 1
        best_move = moves[0]
        cell_lines = sh.cell_lines
        need = sh.k - 1
        for cell in moves:
            bit = 1 << cell
            mine = me | bit
            new_thr = 0
            for line in cell_lines[cell]:
                if not opp & line and (mine & line).bit_count() == need:
                    new_thr |= line & ~mine
            new_thr &= ~occupied
            score = -self.solve(opp, mine, opp_thr & ~bit, new_thr, ply + 1, -beta, -alpha)
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (flag, self.to_table(best, ply), sh.sym_perms[sym][best_move], 0)
        return best

    def ordered(self, me: int, opp: int, empty: int, first: int) -> list[int]:
        """Empty cells, the table's move first, then by what they do to the lines through them.

        A cell scores the H1 gain of the mover's lines plus the weight of the opponent's lines it
        kills: the defender's refutation in a draw proof is nearly always the cell that kills
        the most of the attacker's lines, and the attacker's win the one that builds the most.
        """
        sh = self.sh
        weights = sh.line_value
        cell_lines = sh.cell_lines
        scored = []
        for cell in sh.order:
            if not empty >> cell & 1:
                continue
            gain = 0
            for line in cell_lines[cell]:
                theirs = opp & line
                if theirs:
                    if not me & line:
                        gain += weights[theirs.bit_count()]
                else:
                    count = (me & line).bit_count()
                    gain += weights[count + 1] - weights[count] if count else 1
            scored.append((cell == first, gain, -cell))
        scored.sort(reverse=True)
        return [-item[2] for item in scored]

    # -- depth-limited search with a heuristic -----------------------------------------------

    def begin_solve(self) -> None:
        """Prepare a full search: every non-zero score is a win or a loss; a fresh table.

        Entries of earlier depth-limited iterations hold heuristic values, so they cannot serve
        an exact search.
        """
        self.tt = {}
        self.mate_floor = 1

    def begin_iteration(self, depth: int) -> None:
        """Set the clamp and the win/loss threshold for a search `depth` plies deep."""
        self.cap = heuristic_cap(self.sh, depth)
        self.mate_floor = self.sh.win - depth

    def search(self, me: int, opp: int, my_thr: int, opp_thr: int, value: int, near: int,
               ply: int, depth: int, alpha: int, beta: int) -> int:
        """Depth-limited negamax value (fail-soft); `value` is H1 from the side to move."""
        sh = self.sh
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        win = sh.win
        if my_thr:
            return win - ply - 1
        occupied = me | opp
        empty = sh.full & ~occupied
        if not empty:
            return 0
        if opp_thr & (opp_thr - 1):
            return -(win - ply - 2)
        if depth <= 0:
            return self.leaf(me, opp, value, ply)
        empties = empty.bit_count()
        if sh.all_cells:
            # The same draw cuts as in `solve`: they prove the game value, whatever the depth.
            mine_left = (empties + 1) >> 1
            if alpha >= 0 and maker_potential(sh, me, opp, mine_left) < self.half:
                return 0
            if beta <= 0 and maker_potential(sh, opp, me, empties - mine_left) < self.one:
                return 0
        key, sym = self.key(me, opp, empties)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            flag, stored, move, stored_depth = entry
            first = sh.sym_inverse[sym][move]
            if stored_depth >= depth:
                score = self.from_table(stored, ply)
                if flag == EXACT:
                    return score
                if flag == LOWER:
                    if score >= beta:
                        return score
                    alpha = max(alpha, score)
                elif score <= alpha:
                    return score
                else:
                    beta = min(beta, score)
        candidates = opp_thr if opp_thr else self.candidates(empty, near)
        scored = self.scored_moves(me, opp, candidates)
        if first >= 0 and candidates >> first & 1:
            scored.sort(key=lambda item: (item[2] == first, item[0]), reverse=True)
        else:
            scored.sort(reverse=True)
        alpha0 = alpha
        best = -win - 1
        best_move = scored[0][2]
        near_table = sh.near
        for delta, new_thr, cell in scored:
            bit = 1 << cell
            score = -self.search(opp, me | bit, opp_thr & ~bit, new_thr & ~occupied,
                                 -(value + delta), near | near_table[cell], ply + 1, depth - 1,
                                 -beta, -alpha)
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (flag, self.to_table(best, ply), sh.sym_perms[sym][best_move], depth)
        return best

    def candidates(self, empty: int, near: int) -> int:
        """The cells worth trying: all empty cells on small boards, else those next to a mark."""
        if self.sh.all_cells:
            return empty
        close = near & empty
        if close:
            return close
        return 1 << self.sh.order[0] if empty >> self.sh.order[0] & 1 else empty

    def scored_moves(self, me: int, opp: int, candidates: int) -> list[tuple[int, int, int]]:
        """(H1 change for the mover, the mover's new winning cells, cell) for each candidate."""
        sh = self.sh
        weights = sh.line_value
        need = sh.k - 1
        cell_lines = sh.cell_lines
        out = []
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            cell = low.bit_length() - 1
            mine = me | low
            delta = 0
            new_thr = 0
            for line in cell_lines[cell]:
                theirs = opp & line
                if theirs:
                    if not me & line:
                        # The move kills a line the opponent still had: its weight goes away.
                        delta += weights[theirs.bit_count()]
                else:
                    count = (mine & line).bit_count()
                    delta += weights[count] - weights[count - 1]
                    if count == need:
                        new_thr |= line & ~mine
            out.append((delta, new_thr, cell))
        return out

    def leaf(self, me: int, opp: int, value: int, ply: int) -> int:
        """The clamped heuristic value at the cut-off, from the side to move."""
        self.heuristic_calls += 1
        if self.evaluate is not None:
            mark = self.root_mark if ply % 2 == 0 else self.root_mark.opponent
            x, o = (me, opp) if mark is Mark.X else (opp, me)
            value = self.evaluate(Board(geometry(self.sh.size, self.sh.k), x, o, mark), mark)
        cap = self.cap - 1 if self.cap > 1 else self.cap
        return max(-cap, min(cap, value))

    # -- principal variation -----------------------------------------------------------------

    def walk_pv(self, me: int, opp: int, first: int, limit: int) -> tuple[int, ...]:
        """The line the table remembers after `first`: wins, forced blocks and stored moves."""
        sh = self.sh
        line = [first]
        me, opp = opp, me | 1 << first
        last = first
        while len(line) < limit:
            if completes_line(sh, opp, last):
                break
            empty = sh.full & ~(me | opp)
            if not empty:
                break
            win_now = threats(sh, me, opp) & empty
            block = threats(sh, opp, me) & empty
            if win_now:
                move = win_now.bit_length() - 1
            elif block:
                # A forced block, or one of two when the game is lost anyway.
                move = block.bit_length() - 1
            else:
                key, sym = self.key(me, opp, empty.bit_count())
                entry = self.tt.get(key)
                if entry is None:
                    break
                move = sh.sym_inverse[sym][entry[2]]
                if not empty >> move & 1:
                    break
            line.append(move)
            last = move
            me, opp = opp, me | 1 << move
        return tuple(line)
