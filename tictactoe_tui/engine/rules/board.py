"""The board: marks, the lines of an n×n board with k in a row, and the rules of play.

A `Board` is immutable and hashable. Internally each player's marks are one Python int used as a
bitboard (bit `i` = cell `i`, row-major), so win checks and heuristics are a few mask operations.
The geometry of a (size, k) pair (its lines and which lines pass through each cell) is computed
once and shared by every board of that shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from string import ascii_uppercase

MIN_SIZE = 3
MAX_SIZE = 20
MIN_K = 3
DEFAULT_MAX_K = 5


class IllegalMove(ValueError):
    """A move or a board description that breaks the rules, with a message a person understands."""


class Mark(StrEnum):
    """A player's mark. X always moves first."""

    X = "X"
    O = "O"  # noqa: E741 - the letter is the name of the mark

    @property
    def opponent(self) -> Mark:
        """The other player's mark."""
        return Mark.O if self is Mark.X else Mark.X


@dataclass(frozen=True)
class Geometry:
    """The lines of an n×n board with k in a row, as bit masks, computed once per shape."""

    size: int
    k: int
    full: int
    """Mask with every cell set."""
    lines: tuple[int, ...]
    """Every run of k cells in a row, column or diagonal, as a mask."""
    line_cells: tuple[tuple[int, ...], ...]
    """The cells of each line, in order along the line."""
    cell_lines: tuple[tuple[int, ...], ...] = field(repr=False)
    """For each cell, the masks of the lines that pass through it."""

    @property
    def cells(self) -> int:
        """The number of cells on the board."""
        return self.size * self.size


@cache
def geometry(size: int, k: int) -> Geometry:
    """Return the shared geometry of a size×size board with k in a row."""
    check_shape(size, k)
    runs: list[tuple[int, ...]] = []
    for row in range(size):
        for col in range(size):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                if 0 <= end_row < size and 0 <= end_col < size:
                    runs.append(tuple((row + d_row * i) * size + col + d_col * i for i in range(k)))
    masks = tuple(sum(1 << c for c in run) for run in runs)
    through: list[list[int]] = [[] for _ in range(size * size)]
    for run, mask in zip(runs, masks, strict=True):
        for cell in run:
            through[cell].append(mask)
    return Geometry(
        size=size,
        k=k,
        full=(1 << (size * size)) - 1,
        lines=masks,
        line_cells=tuple(runs),
        cell_lines=tuple(tuple(c) for c in through),
    )


def check_shape(size: int, k: int) -> None:
    """Raise IllegalMove unless MIN_SIZE <= size <= MAX_SIZE (3..20) and 3 <= k <= size."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise IllegalMove(
            f"the board must be {MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}, not {size}×{size}"
        )
    if not MIN_K <= k <= size:
        raise IllegalMove(
            f"k (marks in a row to win) must be between {MIN_K} and {size} "
            f"on a {size}×{size} board, not {k}"
        )


def default_k(size: int) -> int:
    """The k used when none is given: the whole row up to 5 in a row."""
    return min(size, DEFAULT_MAX_K)


def cell_notation(cell: int, size: int) -> str:
    """A cell's short name: column letter and row number, row 1 on top ("A1", "B2", "O15")."""
    row, col = divmod(cell, size)
    return f"{ascii_uppercase[col]}{row + 1}"


def parse_cell(name: str, size: int) -> int:
    """The cell a name like "B2" stands for (column letter, row number from 1 at the top)."""
    text = name.strip().upper()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise IllegalMove(f"{name!r} is not a cell name (like B2)")
    col, row = ord(text[0]) - ord("A"), int(text[1:]) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise IllegalMove(f"{name} is off a {size}×{size} board")
    return row * size + col


def cell_words(cell: int, size: int) -> str:
    """A cell's long name: "row 1, column 2" (1-based)."""
    row, col = divmod(cell, size)
    return f"row {row + 1}, column {col + 1}"


def find_line(geo: Geometry, bits: int) -> int:
    """Return the mask of a complete line inside `bits`, or 0 if there is none."""
    for mask in geo.lines:
        if bits & mask == mask:
            return mask
    return 0


class Board:
    """An immutable, hashable n×n board with k in a row; cells are row-major `0..size*size-1`."""

    __slots__ = ("_geo", "_hash", "_line", "_o", "_to_move", "_winner", "_x")

    def __init__(self, geo: Geometry, x: int, o: int, to_move: Mark) -> None:
        """Build a board from bitboards; use `empty`, `from_string` or `play` instead."""
        self._geo = geo
        self._x = x
        self._o = o
        self._to_move = to_move
        line = find_line(geo, x)
        winner: Mark | None = Mark.X if line else None
        if not line:
            line = find_line(geo, o)
            winner = Mark.O if line else None
        self._line = line
        self._winner = winner
        self._hash = hash((geo.size, geo.k, x, o, to_move))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def empty(cls, size: int = 3, k: int | None = None, first: Mark = Mark.X) -> Board:
        """An empty board; X moves first unless `first` says O. `k` defaults to min(size, 5)."""
        return cls(geometry(size, default_k(size) if k is None else k), 0, 0, first)

    @classmethod
    def from_string(
        cls, text: str, k: int | None = None, to_move: Mark | str | None = None
    ) -> Board:
        """Read the notation `str(board)` writes: 'X', 'O', '.' in either case ("x../.o./..."
        as well); '/' and whitespace are ignored.

        The size is the square root of the number of cells; `k` defaults to min(size, 5). The
        side to move is the one with fewer marks, X when the counts are equal unless `to_move`
        says O (a game O started).
        """
        # Either case, as every flag's value: a board typed in lowercase is the same board.
        cells = [
            ch.upper() if ch in "xo" else ch for ch in text if ch not in "/" and not ch.isspace()
        ]
        bad = sorted({ch for ch in cells if ch not in "XO."})
        if bad:
            shown = ", ".join(repr(ch) for ch in bad)
            raise IllegalMove(f"unknown character(s) {shown} in the board: use X, O and '.'")
        size = round(len(cells) ** 0.5)
        if size * size != len(cells) or len(cells) == 0:
            raise IllegalMove(
                f"{len(cells)} cells cannot make a square board (9 make 3×3, 16 make 4×4, ...)"
            )
        geo = geometry(size, default_k(size) if k is None else k)
        x = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
        o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
        xs, os_ = x.bit_count(), o.bit_count()
        if abs(xs - os_) > 1:
            raise IllegalMove(
                f"impossible position: {xs} X and {os_} O "
                "(players alternate, so the counts differ by at most one)"
            )
        side = Mark(str(to_move).upper()) if to_move is not None else None
        if xs != os_:
            # The side with fewer marks moves; it is the only order the counts allow.
            inferred = Mark.O if xs > os_ else Mark.X
            if side is not None and side is not inferred:
                raise IllegalMove(
                    f"impossible position: with {xs} X and {os_} O it is "
                    f"{inferred}'s turn, not {side}'s"
                )
            side = inferred
        elif side is None:
            side = Mark.X
        board = cls(geo, x, o, side)
        if find_line(geo, x) and find_line(geo, o):
            raise IllegalMove("impossible position: both X and O have a line")
        return board

    # -- what a board is ----------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        """The shared line masks of this board's shape."""
        return self._geo

    @property
    def size(self) -> int:
        """The number of rows (and of columns)."""
        return self._geo.size

    @property
    def k(self) -> int:
        """How many marks in a row win."""
        return self._geo.k

    @property
    def x_bits(self) -> int:
        """X's marks as a bit mask (bit i = cell i)."""
        return self._x

    @property
    def o_bits(self) -> int:
        """O's marks as a bit mask (bit i = cell i)."""
        return self._o

    def bits(self, mark: Mark) -> int:
        """The given player's marks as a bit mask."""
        return self._x if mark is Mark.X else self._o

    @property
    def to_move(self) -> Mark:
        """Whose turn it is (after the game ends: who would have moved next)."""
        return self._to_move

    @property
    def winner(self) -> Mark | None:
        """The player with k in a row, or None."""
        return self._winner

    @property
    def winning_line(self) -> tuple[int, ...]:
        """The cells of the winning line, in order along the line; empty if nobody has won."""
        if not self._line:
            return ()
        index = self._geo.lines.index(self._line)
        return self._geo.line_cells[index]

    @property
    def is_full(self) -> bool:
        """True when no cell is empty."""
        return (self._x | self._o) == self._geo.full

    @property
    def is_over(self) -> bool:
        """True when someone has won or the board is full."""
        return self._winner is not None or self.is_full

    @property
    def move_count(self) -> int:
        """How many marks are on the board."""
        return (self._x | self._o).bit_count()

    def __getitem__(self, cell: int) -> Mark | None:
        """The mark on a cell, or None if it is empty."""
        self._check_cell(cell)
        if self._x >> cell & 1:
            return Mark.X
        if self._o >> cell & 1:
            return Mark.O
        return None

    def marks(self) -> tuple[str, ...]:
        """Every cell's mark as text, row-major: "X", "O", or "" for an empty cell."""
        return tuple(
            "X" if self._x >> i & 1 else "O" if self._o >> i & 1 else ""
            for i in range(self._geo.cells)
        )

    def legal_moves(self) -> list[int]:
        """The empty cells in increasing order; none once the game is over."""
        if self.is_over:
            return []
        free = self._geo.full & ~(self._x | self._o)
        return [i for i in range(self._geo.cells) if free >> i & 1]

    def play(self, move: int) -> Board:
        """Return the board after the side to move marks `move`; this board is unchanged."""
        self._check_cell(move)
        if self.is_over:
            reason = f"{self._winner} has already won" if self._winner else "the board is full"
            raise IllegalMove(f"the game is over ({reason}): no more moves")
        bit = 1 << move
        if (self._x | self._o) & bit:
            raise IllegalMove(f"{cell_notation(move, self.size)} is already taken by {self[move]}")
        if self._to_move is Mark.X:
            return Board(self._geo, self._x | bit, self._o, Mark.O)
        return Board(self._geo, self._x, self._o | bit, Mark.X)

    def cell_name(self, cell: int) -> str:
        """A human name for a cell: 'row 2, column 3' (1-based)."""
        return cell_words(cell, self.size)

    def _check_cell(self, cell: int) -> None:
        if type(cell) is not int or not 0 <= cell < self._geo.cells:
            raise IllegalMove(
                f"cell {cell!r} is off the board: cells are numbered 0 to "
                f"{self._geo.cells - 1} on a {self.size}×{self.size} board"
            )

    # -- notation and identity ----------------------------------------------------------------

    def rows(self) -> list[str]:
        """Each row as a string of 'X', 'O' and '.'."""
        size = self.size
        out = []
        for row in range(size):
            chars = []
            for col in range(size):
                bit = 1 << (row * size + col)
                chars.append("X" if self._x & bit else "O" if self._o & bit else ".")
            out.append("".join(chars))
        return out

    def __str__(self) -> str:
        return "/".join(self.rows())

    def __repr__(self) -> str:
        return f"Board.from_string({str(self)!r}, k={self.k})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._x, self._o, self._to_move, self._geo.size, self._geo.k) == (
            other._x,
            other._o,
            other._to_move,
            other._geo.size,
            other._geo.k,
        )

    def __hash__(self) -> int:
        return self._hash
