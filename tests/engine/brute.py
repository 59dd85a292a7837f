"""An independent brute-force solver for small boards, sharing no code with the engine.

Positions are strings of 'X', 'O' and '.' (row-major, no separators) with the side to move given
apart; the lines are built here from scratch. Values follow the project's depth-aware rule, seen
from the side to move: a win on ply d (ply 1 = the move itself) scores W - d, a loss on ply d
-(W - d), a draw 0, with W = cells + 1. A plain negamax with a memo, no pruning but one that is
obviously right: a move that wins at once is the best move there is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from operator import itemgetter


def lines_of(size: int, k: int) -> list[tuple[int, ...]]:
    """Every run of k cells in a row, a column or a diagonal of a size x size board."""
    lines = []
    for row in range(size):
        for col in range(size):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + d_row * i, col + d_col * i) for i in range(k)]
                if all(0 <= r < size and 0 <= c < size for r, c in cells):
                    lines.append(tuple(r * size + c for r, c in cells))
    return lines


def empty_cells(cells: str) -> Iterator[int]:
    """The empty cells of `cells` in increasing order (found by `str.find`: a nearly full big
    board has hundreds of cells and a handful of empty ones)."""
    cell = cells.find(".")
    while cell >= 0:
        yield cell
        cell = cells.find(".", cell + 1)


class BitLines:
    """One board shape's lines as bit masks (cell c is bit c), for the bit-mask checkers
    (`prover`, `bounded`, `wdl`)."""

    def __init__(self, size: int, k: int) -> None:
        self.k = k
        self.full = (1 << size * size) - 1
        self.lines = [sum(1 << c for c in line) for line in lines_of(size, k)]

    def winning_cells(self, me: int, opp: int) -> int:
        """The empty cells where `me` would complete a line at once."""
        need = self.k - 1
        found = 0
        for line in self.lines:
            if (me & line).bit_count() == need and not opp & line:
                found |= line
        return found & ~me


class BruteForce:
    """Exact values of positions on one board shape, remembered between calls."""

    def __init__(self, size: int, k: int) -> None:
        self.size = size
        self.k = k
        self.big = size * size + 1
        # Each line through a cell as a getter of its k marks (`itemgetter(*line)(cells)` is the
        # tuple of the line's marks): the same test as reading them one by one, at C speed.
        self.through: list[list[Callable[[str], tuple[str, ...]]]] = [
            [] for _ in range(size * size)
        ]
        for line in lines_of(size, k):
            for cell in line:
                self.through[cell].append(itemgetter(*line))
        self.memo: dict[tuple[str, str], int] = {}

    def wins(self, cells: str, cell: int) -> bool:
        """True if the mark on `cell` completes a line through it."""
        full = (cells[cell],) * self.k
        return any(marks(cells) == full for marks in self.through[cell])

    def winner(self, cells: str) -> str | None:
        """The mark with a full line, if any."""
        for cell, mark in enumerate(cells):
            if mark != "." and self.wins(cells, cell):
                return mark
        return None

    def move_value(self, cells: str, mover: str, cell: int) -> int:
        """The value of `mover` marking the empty `cell`, for `mover`."""
        after = cells[:cell] + mover + cells[cell + 1 :]
        if self.wins(after, cell):
            return self.big - 1
        if "." not in after:
            return 0
        child = self.value(after, "O" if mover == "X" else "X")
        # One ply further from here: a win or a loss moves one step towards zero.
        return -(child - 1) if child > 0 else -(child + 1) if child < 0 else 0

    def value(self, cells: str, mover: str) -> int:
        """The value for `mover` of a position nobody has won with an empty cell left."""
        key = (cells, mover)
        found = self.memo.get(key)
        if found is not None:
            return found
        best = -self.big
        for cell in empty_cells(cells):
            best = max(best, self.move_value(cells, mover, cell))
            if best == self.big - 1:
                break
        self.memo[key] = best
        return best

    def move_values(self, cells: str, mover: str) -> dict[int, int]:
        """The value of every legal move, for `mover`."""
        return {cell: self.move_value(cells, mover, cell) for cell in empty_cells(cells)}

    def random_position(self, rng: random.Random, marks: int) -> str:
        """A random game of `marks` moves (X first) that nobody has won yet."""
        while True:
            cells = "." * (self.size * self.size)
            mover = "X"
            for _ in range(marks):
                cell = rng.choice([c for c, m in enumerate(cells) if m == "."])
                cells = cells[:cell] + mover + cells[cell + 1 :]
                mover = "O" if mover == "X" else "X"
            if self.winner(cells) is None and "." in cells:
                return cells
