"""A mutable position for searching big boards: stones, per-line counts and the lines that threaten.

The depth-limited search and the threat search play and take back millions of moves; building a
`Board` (which scans every line) for each would cost more than the search itself. A `LineState`
keeps, for each side, how many of its stones every line holds, and the sets of lines that side can
still complete holding k-1, k-2 and k-3 of its stones (its *fours*, *threes* and *twos*, named as
in five-in-a-row whatever k is). Playing or taking back a move touches only the lines through its
cell, so every threat question below is answered from a handful of lines.

Sides are indexes: 0 is X, 1 is O. A move that completes a line is never played here: the
searches see a winning cell first (`win_cells`) and score it without playing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tictactoe_tui.engine.rules.board import Board, Mark, geometry
from tictactoe_tui.engine.search.kernel import iter_cells, shape


@dataclass(frozen=True)
class LineShape:
    """The precomputed line tables of a size x size board with k in a row."""

    size: int
    k: int
    cells: int
    full: int
    line_mask: tuple[int, ...]
    """Each line (run of k cells) as a bit mask."""
    lines_of: tuple[tuple[int, ...], ...]
    """For each cell, the indexes of the lines through it."""
    gain: tuple[int, ...]
    """gain[n]: what H1 gains when a line holding n stones of one side (only) gets one more."""
    weight: tuple[int, ...]
    """weight[n]: the H1 weight 3**(n-1) of a line holding n stones of one side only (0 at 0, k)."""
    near: tuple[int, ...]
    """For each cell, the mask of the cells at king distance <= 1 (the cell included)."""
    centre_order: tuple[int, ...]
    """Cells from the most lines through them to the fewest (the centre first)."""


@cache
def line_shape(size: int, k: int) -> LineShape:
    """The shared line tables of a size x size board with k in a row: the board's lines
    (`geometry`) by index, and the search's weights, neighbours and centre order (`kernel.shape`),
    computed there once and only indexed here."""
    geo = geometry(size, k)
    base = shape(size, k)
    index = {mask: i for i, mask in enumerate(geo.lines)}
    weight = base.line_value
    gain = [weight[n + 1] - weight[n] for n in range(k)]
    return LineShape(
        size=size,
        k=k,
        cells=geo.cells,
        full=geo.full,
        line_mask=geo.lines,
        lines_of=tuple(tuple(index[mask] for mask in masks) for masks in geo.cell_lines),
        gain=tuple(gain),
        weight=weight,
        near=base.near,
        centre_order=base.order,
    )


iter_bits = iter_cells
"""The set cells of a mask, lowest first: `kernel.iter_cells` itself, by the name the line
searches import it under."""


class LineState:
    """A position that moves can be played on and taken back, with its line counts kept current.

    `value` is H1 seen from X (side 0), kept up to date move by move; `fours[s]`, `threes[s]` and
    `twos[s]` are the sets of line indexes holding k-1, k-2 and k-3 stones of side `s` and none
    of the other side's (for k = 3 there are no twos: a line with no stone is not tracked).
    """

    __slots__ = ("bits", "count", "fours", "history", "near", "shape", "threes", "twos", "value")

    def __init__(self, shape: LineShape, x_bits: int = 0, o_bits: int = 0) -> None:
        """Set up the counts of the position with X on `x_bits` and O on `o_bits`."""
        self.shape = shape
        self.bits = [x_bits, o_bits]
        lines = len(shape.line_mask)
        self.count = [[0] * lines, [0] * lines]
        self.fours: list[set[int]] = [set(), set()]
        self.threes: list[set[int]] = [set(), set()]
        self.twos: list[set[int]] = [set(), set()]
        self.history: list[tuple[int, int, int, int]] = []
        """(value, near, cell, side) before each move played, the last move last."""
        k = shape.k
        value = 0
        near = 0
        for side in (0, 1):
            own = self.bits[side]
            other = self.bits[1 - side]
            counts = self.count[side]
            for line, mask in enumerate(shape.line_mask):
                n = (own & mask).bit_count()
                counts[line] = n
                if n and not other & mask:
                    value += shape.weight[n] if side == 0 else -shape.weight[n]
                    self._track(side, line, n, k)
            for cell in iter_cells(own):
                near |= shape.near[cell]
        self.value = value
        self.near = near

    @classmethod
    def from_board(cls, board: Board) -> LineState:
        """The state of `board` (its side to move is `side_of(board.to_move)`)."""
        return cls(line_shape(board.size, board.k), board.x_bits, board.o_bits)

    def _track(self, side: int, line: int, n: int, k: int) -> None:
        if n == k - 1:
            self.fours[side].add(line)
        elif n == k - 2:
            self.threes[side].add(line)
        elif n == k - 3 and n > 0:
            self.twos[side].add(line)

    @property
    def empty(self) -> int:
        """The mask of the empty cells."""
        return self.shape.full & ~(self.bits[0] | self.bits[1])

    def play(self, cell: int, side: int) -> None:
        """Put a stone of `side` on the empty `cell` (which must not complete a line)."""
        shape = self.shape
        k = shape.k
        four, three, two = k - 1, k - 2, k - 3
        gain = shape.gain
        mine = self.count[side]
        theirs = self.count[1 - side]
        fours, threes, twos = self.fours[side], self.threes[side], self.twos[side]
        delta = 0
        for line in shape.lines_of[cell]:
            n = mine[line]
            mine[line] = n + 1
            other = theirs[line]
            if other == 0:
                delta += gain[n]
                n += 1
                if n == four:
                    threes.discard(line)
                    fours.add(line)
                elif n == three:
                    twos.discard(line)
                    threes.add(line)
                elif n == two:
                    twos.add(line)
            elif n == 0:
                # The line was the other side's: it can no longer be completed.
                delta += shape.weight[other]
                if other >= two:
                    side_sets = (
                        self.fours
                        if other == four
                        else (self.threes if other == three else self.twos)
                    )
                    side_sets[1 - side].discard(line)
        self.bits[side] |= 1 << cell
        self.history.append((self.value, self.near, cell, side))
        self.value += delta if side == 0 else -delta
        self.near |= shape.near[cell]

    def undo(self, cell: int, side: int) -> None:
        """Take back the stone of `side` on `cell` (the last move played)."""
        shape = self.shape
        k = shape.k
        four, three, two = k - 1, k - 2, k - 3
        mine = self.count[side]
        theirs = self.count[1 - side]
        fours, threes, twos = self.fours[side], self.threes[side], self.twos[side]
        for line in shape.lines_of[cell]:
            n = mine[line] - 1
            mine[line] = n
            other = theirs[line]
            if other == 0:
                if n < two - 1:
                    continue
                if n == three:
                    fours.discard(line)
                    threes.add(line)
                elif n == two:
                    threes.discard(line)
                    if n > 0:
                        twos.add(line)
                elif n == two - 1:
                    twos.discard(line)
            elif n == 0 and other >= two:
                side_sets = (
                    self.fours if other == four else (self.threes if other == three else self.twos)
                )
                side_sets[1 - side].add(line)
        self.bits[side] &= ~(1 << cell)
        self.value, self.near, _, _ = self.history.pop()

    def rewind(self, moves: int) -> None:
        """Take back moves until only `moves` of those played here remain (after an interrupt)."""
        while len(self.history) > moves:
            _, _, cell, side = self.history[-1]
            self.undo(cell, side)

    def gain(self, cell: int, side: int) -> int:
        """How much H1 seen from `side` rises if `side` plays the empty `cell`."""
        shape = self.shape
        mine = self.count[side]
        theirs = self.count[1 - side]
        gain = shape.gain
        weight = shape.weight
        delta = 0
        for line in shape.lines_of[cell]:
            other = theirs[line]
            if other == 0:
                delta += gain[mine[line]]
            elif mine[line] == 0:
                delta += weight[other]
        return delta

    def key(self, side: int) -> int:
        """The transposition key of the position with `side` to move (mover's stones high)."""
        return self.bits[side] << self.shape.cells | self.bits[1 - side]

    # -- threats ---------------------------------------------------------------------------------

    def win_cells(self, side: int) -> int:
        """The empty cells where `side` would complete a line at once."""
        found = 0
        masks = self.shape.line_mask
        for line in self.fours[side]:
            found |= masks[line]
        return found & ~(self.bits[0] | self.bits[1])

    def four_moves(self, side: int) -> int:
        """The empty cells where `side` would make a four (a cell that then wins at once)."""
        found = 0
        masks = self.shape.line_mask
        for line in self.threes[side]:
            found |= masks[line]
        return found & ~(self.bits[0] | self.bits[1])

    def partners(self, side: int) -> dict[int, int]:
        """For each four-making cell of `side`, the mask of the winning cells that move makes."""
        occupied = self.bits[0] | self.bits[1]
        masks = self.shape.line_mask
        out: dict[int, int] = {}
        for line in self.threes[side]:
            spaces = masks[line] & ~occupied
            low = spaces & -spaces
            high = spaces ^ low
            a = low.bit_length() - 1
            b = high.bit_length() - 1
            out[a] = out.get(a, 0) | high
            out[b] = out.get(b, 0) | low
        return out

    def double_cells(self, side: int) -> int:
        """The cells where a move of `side` makes two or more winning cells at once.

        Meant for a side with no winning cell yet: then every winning cell such a move makes lies
        on a line through it that held k-2 of its stones, which is what `partners` lists.
        """
        found = 0
        for cell, wins in self.partners(side).items():
            if wins & (wins - 1):
                found |= 1 << cell
        return found

    def two_cells(self, side: int) -> int:
        """The empty cells where `side` would make a new line of three (from a line of two)."""
        found = 0
        masks = self.shape.line_mask
        for line in self.twos[side]:
            found |= masks[line]
        return found & ~(self.bits[0] | self.bits[1])

    def double_moves(self, side: int, cells: int) -> int:
        """The cells of `cells` where a move of `side` makes a double for its next move.

        Meant for a side with no double now. Such a move turns lines of two into lines of three;
        each new line pairs its two empty cells (a stone on one makes the other a winning cell),
        and a cell paired with two different cells, old pairs included, is a double.
        """
        twos = self.twos[side]
        if not twos:
            return 0
        masks = self.shape.line_mask
        lines_of = self.shape.lines_of
        occupied = self.bits[0] | self.bits[1]
        old = self.partners(side) if self.threes[side] else {}
        found = 0
        for cell in iter_cells(self.two_cells(side) & cells):
            bit = 1 << cell
            new: dict[int, int] = {}
            for line in lines_of[cell]:
                if line in twos:
                    spaces = masks[line] & ~occupied & ~bit
                    low = spaces & -spaces
                    high = spaces ^ low
                    a = low.bit_length() - 1
                    b = high.bit_length() - 1
                    new[a] = new.get(a, 0) | high
                    new[b] = new.get(b, 0) | low
            for target, wins in new.items():
                wins |= old.get(target, 0)
                if wins & (wins - 1):
                    found |= bit
                    break
        return found

    def neighbourhood(self) -> int:
        """The empty cells next to a stone (king distance 1)."""
        return self.near & ~(self.bits[0] | self.bits[1])

    def line_cells(self) -> int:
        """The empty cells of every line on which either side could make a four.

        They are where the tactics of the next moves happen, some of them two cells away from
        every stone: the cells that make a four and the cells that stop one.
        """
        found = 0
        masks = self.shape.line_mask
        for side in (0, 1):
            for line in self.threes[side]:
                found |= masks[line]
        return found & ~(self.bits[0] | self.bits[1])


def side_of(mark: Mark) -> int:
    """The side index of a mark: 0 for X, 1 for O."""
    return 0 if mark is Mark.X else 1
