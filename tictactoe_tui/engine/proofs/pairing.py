"""Pairing strategies: a proof, without search, that one side cannot complete a line.

A *pairing* for the defender is a set of disjoint pairs of empty cells such that every line the
attacker could still complete (every line holding no defender mark) contains both cells of at
least one pair. The defender's strategy is then a reply table: whenever the attacker takes a cell
of a pair, the defender takes the other cell of that pair (any move will do otherwise). The
attacker can never hold both cells of a pair, so it never fills a line: the attacker cannot win,
whoever is to move (a defender to move just plays anywhere first; an extra defender mark never
hurts it, and a mark on a paired cell kills every line that pair covered). This is the
Hales-Jewett pairing argument; only the cells matter, so it is a sound, cheap leaf proof of "the
attacker's value is at most a draw".

Where one exists (the classic cases):

- **5×5, five in a row**: 12 lines (5 rows, 5 columns, 2 diagonals) and 25 cells: O pairs 24 of
  them, one pair per line, and draws against any first move (`find_pairing(Board.empty(5, 5))`).
- **Bigger k on small boards** (6×6 with k = 6, 7×7 with k = 6 or 7, ...) likewise from the start.

Where none can exist (say so plainly):

- **3×3**: when k equals the size, two cells lie together in at most one line, so every line
  needs a pair of its own: 8 lines need 16 cells and the board has 9. Tic-tac-toe's draw needs
  search (or the case analysis every child knows), not a pairing.
- **4×4, four in a row**: the same count, 10 lines need 20 cells out of 16. Its draw is proven by
  search here (Uiterwijk's *set matching*, which needs fewer than two cells per line, proves it
  without search; that is not implemented).
- **Boards where k is small** (k = 3 or 4 on bigger boards): the lines are too many and too short;
  those games are first-player wins or need search.

`find_pairing(board)` answers for any position (by default for the side that moved last, the one
that answers); `examine_pairing` answers the same question and, when there is no pairing, says
why (`NoPairing`: the count of lines against cells, a line with too few free cells, or the search
tried every way); `pairing_line` finds a short line of play after which the defender has one (the
leaves of the solver's draw proofs on 6×6 and 7×7 are such positions). `PairingSearch` is the
raw form the exact solver uses on bitboards, with a memory of the positions it tried and a bound
on its work per call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from tictactoe_tui.engine.rules.board import Board, Mark, geometry

__all__ = [
    "DEFAULT_BUDGET",
    "LINE_BUDGET",
    "LINE_PLIES",
    "LINE_WIDTH",
    "NoPairing",
    "Pair",
    "Pairing",
    "PairingLine",
    "PairingSearch",
    "examine_pairing",
    "find_pairing",
    "pairing_line",
]

DEFAULT_BUDGET = 20_000
"""Branch points one `find_pairing` call may visit: a few tenths of a second at most. Past it the
answer is None, as if no pairing existed (a pairing that exists is usually found within a few
hundred; proving that none exists on an open 7×7 board takes more)."""


class _OutOfBudget(Exception):
    """Raised inside a pairing search when it has used its branch points."""


@dataclass(frozen=True)
class PairTables:
    """The lines of one board shape and, for each pair of cells sharing a line, the lines that
    hold both (as a mask over line indexes)."""

    lines: tuple[int, ...]
    pair_lines: dict[int, int]


@cache
def pair_tables(size: int, k: int) -> PairTables:
    """The shared pair tables of a size×size board with k in a row."""
    geo = geometry(size, k)
    pair_lines: dict[int, int] = {}
    for index, run in enumerate(geo.line_cells):
        cells = [1 << cell for cell in run]
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                pair = a | b
                pair_lines[pair] = pair_lines.get(pair, 0) | 1 << index
    return PairTables(geo.lines, pair_lines)


def _bits(mask: int) -> list[int]:
    """The single-bit masks of the set cells of `mask`, lowest first.

    Not `[1 << c for c in kernel.iter_cells(mask)]`: `_cover` calls this once per branch point
    and the pair tables are keyed by masks, and that detour costs two to three times as much a
    call (about 5% of a pairing search)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


class PairingSearch:
    """Finds pairings on one board shape, from raw bitboards, within a bound on the work.

    The search covers the most constrained line first (the one with the fewest free cells), takes
    forced pairs at once (a line with exactly two free cells), and tries the pairs of a line that
    cover the most other lines first; a line left with fewer than two free cells ends a branch.
    A search that uses up `budget` branch points answers None, which only costs a missed proof.
    """

    def __init__(self, size: int, k: int, budget: int = DEFAULT_BUDGET) -> None:
        """Searches for a size×size board with k in a row, of at most `budget` branch points."""
        tables = pair_tables(size, k)
        self.lines = tables.lines
        self.pair_lines = tables.pair_lines
        self.all_lines = (1 << len(self.lines)) - 1
        self.budget = budget
        self.left = 0
        self.calls = 0
        """Searches run (the counters are for benchmarks and tuning)."""
        self.found = 0
        """Searches that found a pairing."""
        self.visited = 0
        """Branch points visited over all searches."""
        self.exhausted = True
        """False when the last search ran out of budget before trying every branch."""
        self.hint: set[int] = set()
        """The pairs of the last pairing found, tried first."""

    def find(
        self, attacker: int, defender: int, free: int, budget: int | None = None
    ) -> list[int] | None:
        """The pairs (two-bit masks) of a pairing for `defender`, or None if none was found.

        `free` is the mask of the empty cells; every line without a `defender` mark is covered.
        `budget` (default: the search's own) bounds the branch points of this call; `exhausted`
        then says whether a None is final (every branch was tried) or the budget ran out.
        """
        self.calls += 1
        if budget is None:
            budget = self.budget
        lines = self.lines
        need = 0
        for index, line in enumerate(lines):
            if not line & defender:
                need |= 1 << index
        self.left = budget
        self.exhausted = True
        try:
            pairs = self._cover(need, free)
        except _OutOfBudget:
            self.exhausted = False
            return None
        finally:
            self.visited += budget - max(self.left, 0)
        if pairs is not None:
            self.found += 1
            self.hint = set(pairs)
        return pairs

    def _cover(self, need: int, free: int) -> list[int] | None:
        """Pairs of `free` cells covering every line of the index mask `need`, or None."""
        self.left -= 1
        if self.left < 0:
            raise _OutOfBudget
        lines = self.lines
        pair_lines = self.pair_lines
        pairs: list[int] = []
        while True:
            if not need:
                return pairs
            best = 0
            fewest = 99
            rest = need
            while rest:
                low = rest & -rest
                rest ^= low
                count = (lines[low.bit_length() - 1] & free).bit_count()
                if count < fewest:
                    fewest = count
                    best = low.bit_length() - 1
                    if count < 3:
                        break
            if fewest < 2:
                return None
            if fewest > 2:
                break
            # Exactly two free cells left in a line: that pair is forced.
            pair = lines[best] & free
            pairs.append(pair)
            free &= ~pair
            need &= ~pair_lines[pair]
        cells = _bits(lines[best] & free)
        options = []
        hint = self.hint
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                covers = pair_lines[a | b] & need
                # The pairs of the last pairing found first: nearby positions share most pairs.
                options.append((covers.bit_count() + (64 if a | b in hint else 0), a | b, covers))
        options.sort(reverse=True)
        for _, pair, covers in options:
            found = self._cover(need & ~covers, free & ~pair)
            if found is not None:
                return [*pairs, pair, *found]
        return None


@dataclass(frozen=True)
class Pair:
    """Two empty cells paired together, and the open lines that hold both."""

    cells: tuple[int, int]
    """The two cells, lower first."""
    lines: tuple[tuple[int, ...], ...]
    """Every line the attacker could still complete that holds both cells (cells in line
    order): the pair stops all of them."""


@dataclass(frozen=True)
class Pairing:
    """A pairing strategy for `defender`: taking a cell's partner whenever the attacker takes a
    paired cell stops every line the attacker could still complete."""

    defender: Mark
    pairs: tuple[Pair, ...]

    @property
    def attacker(self) -> Mark:
        """The side the pairing stops."""
        return self.defender.opponent

    @property
    def cells(self) -> frozenset[int]:
        """Every paired cell."""
        return frozenset(cell for pair in self.pairs for cell in pair.cells)

    def partner(self, cell: int) -> int | None:
        """The defender's answer when the attacker takes `cell`: its partner, or None when the
        cell is not paired (then any move keeps the strategy going)."""
        for pair in self.pairs:
            a, b = pair.cells
            if cell == a:
                return b
            if cell == b:
                return a
        return None

    def reply(self, board: Board, move: int) -> int | None:
        """The defender's answer on `board`, where the attacker has just taken `move`.

        The partner of `move` when it is free. Otherwise (an unpaired cell, or a pair the
        defender already broke) the strategy is indifferent, and the answer is the first free
        cell of: a cell whose partner the attacker holds (a pair under threat: none while the
        strategy is followed from the start), an unpaired cell (it keeps every pair whole), a
        cell whose partner the defender holds (a spent pair), any cell (breaking a pair only
        adds a defender mark to its lines). None when the game is over.
        """
        if board.is_over:
            return None
        partner = self.partner(move)
        if partner is not None and board[partner] is None:
            return partner
        attacker = self.attacker
        paired = self.cells
        threatened, unpaired, spent, whole = [], [], [], []
        for cell in board.legal_moves():
            other = self.partner(cell) if cell in paired else None
            if other is None:
                unpaired.append(cell)
            elif board[other] is attacker:
                threatened.append(cell)
            elif board[other] is not None:
                spent.append(cell)
            else:
                whole.append(cell)
        for cells in (threatened, unpaired, spent, whole):
            if cells:
                return cells[0]
        return None


@dataclass(frozen=True)
class NoPairing:
    """Why the defender has no pairing: facts a reader can check by counting.

    Each open line (one the attacker could still complete) needs a pair of free cells inside
    it, and the pairs are disjoint. A line with fewer than two free cells can hold no pair; and
    when one pair lies in at most `most_shared` open lines, at least `pairs_needed` pairs,
    `2 * pairs_needed` cells, are needed: more than `free_cells` rules a pairing out by counting
    alone. Otherwise only the search says so (`exhausted`), or it stopped at its budget.
    """

    defender: Mark
    """The side that has no pairing."""
    open_lines: int
    """Lines the attacker could still complete (no mark of the defender in them)."""
    free_cells: int
    """Empty cells on the board."""
    most_shared: int
    """The most open lines any two free cells lie in together: one pair covers at most this
    many (0 when no two free cells share an open line)."""
    short_line: tuple[int, ...]
    """An open line with fewer than two free cells (its cells in line order), or ()."""
    exhausted: bool
    """True when the search tried every way to pair the cells: no pairing exists. False when it
    stopped at its budget: one might exist."""
    visited: int
    """Branch points the search visited."""

    @property
    def attacker(self) -> Mark:
        """The side no pairing stops."""
        return self.defender.opponent

    @property
    def pairs_needed(self) -> int:
        """The fewest pairs that could cover the open lines, by counting."""
        if not self.most_shared:
            return self.open_lines
        return -(-self.open_lines // self.most_shared)

    @property
    def counted_out(self) -> bool:
        """True when counting alone rules a pairing out: more cells needed than are free."""
        return 2 * self.pairs_needed > self.free_cells


def _as_pairing(board: Board, defender: Mark, found: list[int]) -> Pairing:
    """The `Pairing` of the raw pairs `found` (two-bit masks) for `defender` on `board`."""
    mine = board.bits(defender)
    geo = board.geometry
    open_lines = [
        (mask, cells)
        for mask, cells in zip(geo.lines, geo.line_cells, strict=True)
        if not mask & mine
    ]
    pairs = []
    for pair in sorted(found, key=lambda mask: (mask & -mask).bit_length()):
        low = pair & -pair
        cells = (low.bit_length() - 1, (pair ^ low).bit_length() - 1)
        pairs.append(Pair(cells, tuple(line for mask, line in open_lines if mask & pair == pair)))
    return Pairing(defender, tuple(pairs))


def examine_pairing(
    board: Board, defender: Mark | None = None, budget: int = DEFAULT_BUDGET
) -> Pairing | NoPairing:
    """A pairing strategy for `defender` on `board`, or why there is none (`NoPairing`).

    `defender` defaults to the side that moved last. Unlike `find_pairing` it does not look
    whether the game is over: on a finished board the answer is about the cells alone.
    """
    if defender is None:
        defender = board.to_move.opponent
    search = PairingSearch(board.size, board.k, budget)
    mine, theirs = board.bits(defender), board.bits(defender.opponent)
    free = board.geometry.full & ~(mine | theirs)
    found = search.find(theirs, mine, free)
    if found is not None:
        return _as_pairing(board, defender, found)
    geo = board.geometry
    open_mask = 0
    short_line: tuple[int, ...] = ()
    for index, (mask, cells) in enumerate(zip(geo.lines, geo.line_cells, strict=True)):
        if not mask & mine:
            open_mask |= 1 << index
            if not short_line and (mask & free).bit_count() < 2:
                short_line = cells
    most_shared = 0
    for pair, lines in search.pair_lines.items():
        if pair & free == pair:
            most_shared = max(most_shared, (lines & open_mask).bit_count())
    return NoPairing(
        defender,
        open_mask.bit_count(),
        free.bit_count(),
        most_shared,
        short_line,
        search.exhausted,
        search.visited,
    )


def find_pairing(
    board: Board, defender: Mark | None = None, budget: int = DEFAULT_BUDGET
) -> Pairing | None:
    """A pairing strategy for `defender` on `board`, or None when none is found.

    `defender` defaults to the side that moved last (the one that answers the side to move).
    A result proves that the other side cannot complete a line from this position, whoever is to
    move. None means no pairing exists, or none was found within `budget` branch points; a
    finished game has none.
    """
    if board.is_over:
        return None
    found = examine_pairing(board, defender, budget)
    return found if isinstance(found, Pairing) else None


LINE_PLIES = 8
"""The longest line `pairing_line` looks along (plies from the position)."""
LINE_WIDTH = 6
"""Replies of the defender `pairing_line` follows further at each of its moves (every reply is
tried for a pairing at once)."""
LINE_BUDGET = 100
"""Branch points of each pairing search along a line: a pairing that settles a position is
usually found within a few dozen."""


class _Stopped(Exception):
    """Raised inside `pairing_line` when its caller asks it to stop."""


@dataclass(frozen=True)
class PairingLine:
    """A line of play after which the defender has a pairing: the rest is settled."""

    moves: tuple[int, ...]
    """The moves from the starting position, in order (empty: it has a pairing already)."""
    board: Board
    """The position after `moves`."""
    pairing: Pairing
    """The defender's pairing there."""


def move_order(board: Board) -> list[int]:
    """The empty cells of `board`, the side to move's most promising first: by what the move
    does to the lines through the cell (3^n for each of its own lines holding n of its marks it
    extends, 3^n for each of the opponent's lines holding n marks it blocks), then the lower
    cell. The solver orders its moves in the same spirit."""
    geo = board.geometry
    mover = board.to_move
    mine, theirs = board.bits(mover), board.bits(mover.opponent)
    keyed = []
    for cell in board.legal_moves():
        gain = 0
        for line in geo.cell_lines[cell]:
            other = theirs & line
            if other:
                if not mine & line:
                    gain += 3 ** other.bit_count()
            else:
                gain += 3 ** (mine & line).bit_count()
        keyed.append((-gain, cell))
    keyed.sort()
    return [cell for _, cell in keyed]


def pairing_line(
    board: Board,
    defender: Mark | None = None,
    *,
    plies: int = LINE_PLIES,
    width: int = LINE_WIDTH,
    budget: int = LINE_BUDGET,
    should_stop: Callable[[], bool] | None = None,
) -> PairingLine | None:
    """A short line from `board` after which `defender` has a pairing, or None.

    The attacker plays its most promising move each time (`move_order`'s first); the defender
    looks among its replies for one after which it has a pairing, and follows its first `width`
    replies further, for at most `plies` plies in all (the shortest line first). This is one
    branch of a draw proof the way the solver builds them: its proof must answer every move of
    the attacker, and its leaves are mostly such pairings. `defender` defaults to the side that
    moved last. `should_stop()` (polled between searches) ends the search with None.
    """
    if defender is None:
        defender = board.to_move.opponent
    line = _LineSearch(board, defender, width, budget, should_stop)
    try:
        for limit in range(plies + 1):
            answer = line.look(board, limit)
            if answer is not None:
                moves, end, found = answer
                return PairingLine(moves, end, _as_pairing(end, defender, found))
    except _Stopped:
        return None
    return None


class _LineSearch:
    """`pairing_line`'s search: the lines along which `defender` looks for a pairing."""

    def __init__(
        self,
        board: Board,
        defender: Mark,
        width: int,
        budget: int,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        self.search = PairingSearch(board.size, board.k, budget)
        self.defender = defender
        self.attacker = defender.opponent
        self.full = board.geometry.full
        self.width = width
        self.should_stop = should_stop

    def paired(self, position: Board) -> list[int] | None:
        """The defender's pairing at `position` (as `PairingSearch.find` gives it), or None;
        `_Stopped` when the caller asks to stop."""
        if self.should_stop is not None and self.should_stop():
            raise _Stopped
        if position.is_over:
            return None
        mine, theirs = position.bits(self.defender), position.bits(self.attacker)
        return self.search.find(theirs, mine, self.full & ~(mine | theirs))

    def look(self, position: Board, left: int) -> tuple[tuple[int, ...], Board, list[int]] | None:
        """A line of at most `left` plies from `position` after which the defender has a
        pairing: (its moves, the position after them, the pairing), or None."""
        found = self.paired(position)
        if found is not None:
            return (), position, found
        if left == 0 or position.is_over:
            return None
        order = move_order(position)
        if position.to_move is self.attacker:
            move = order[0]
            deeper = self.look(position.play(move), left - 1)
            return None if deeper is None else ((move, *deeper[0]), deeper[1], deeper[2])
        for move in order:
            after = position.play(move)
            found = self.paired(after)
            if found is not None:
                return (move,), after, found
        if left >= 3:
            for move in order[: self.width]:
                deeper = self.look(position.play(move), left - 1)
                if deeper is not None:
                    return (move, *deeper[0]), deeper[1], deeper[2]
        return None
