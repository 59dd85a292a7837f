"""The symmetry-aware table keys of a board shape: near the root the least of a position's eight
images, so symmetric positions share one entry; deeper down the plain pair.

The exact solver (`exact.Solver`, through `SymmetryKeys`) and the lab's trace (`ShapeKeys`)
key their tables here; the shape's permutations and two-chunk tables are `kernel.shape`'s.
A board's eight images (`board_images`: the puzzles' canonical form, the grade's symmetry
check) are made here too, with the same permutations.
"""

from __future__ import annotations

from functools import cache

from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search.kernel import Shape, chunk_table, shape

# Symmetry canonicalisation costs a few microseconds; it pays near the root, where the subtrees
# it merges are large, and not near the leaves. Only nodes with at least this many empty cells
# (counted from the board's size) use it.
SYMMETRY_MIN_EMPTY_FRACTION = 0.35


_CHUNK_BITS = 10


Chunks = tuple[int, tuple[tuple[tuple[int, ...], ...], ...]]


def symmetry_min_empty(cells: int) -> int:
    """The fewest empty cells at which a position of a board of `cells` cells is keyed on its
    least image (`SYMMETRY_MIN_EMPTY_FRACTION` of the board, at least 4)."""
    return max(4, round(cells * SYMMETRY_MIN_EMPTY_FRACTION))


def image(perm: tuple[int, ...], bits: int) -> int:
    """The image of a set of cells under a permutation of the cells (one of `Shape.sym_perms`)."""
    out = 0
    while bits:
        low = bits & -bits
        bits ^= low
        out |= 1 << perm[low.bit_length() - 1]
    return out


def board_images(board: Board) -> list[Board]:
    """The board's eight rotations and reflections, in `Shape.sym_perms`' order (the board
    itself first; some may be equal), with the same side to move."""
    geo, x, o = board.geometry, board.x_bits, board.o_bits
    return [
        Board(geo, image(perm, x), image(perm, o), board.to_move)
        for perm in shape(board.size, board.k).sym_perms
    ]


def table_key(sh: Shape, me: int, opp: int, use_symmetry: bool) -> tuple[int, int]:
    """The table key of (me, opp) and the symmetry that maps the position onto it.

    With `use_symmetry` (and a board small enough for the symmetry tables) the key is the least
    of the position's eight images, so symmetric positions share one entry.
    """
    cells = sh.cells
    if not sh.symmetric or not use_symmetry:
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


@cache
def symmetry_chunks(perms: tuple[tuple[int, ...], ...]) -> Chunks:
    """Per symmetry of the square, lookup tables mapping each chunk of a bitboard to its image.

    Returns the chunk width and, for each symmetry (`perms`, identity first), one table per
    `width`-bit chunk of the board, lowest cells first.
    """
    cells = len(perms[0])
    width = min(_CHUNK_BITS, cells)
    out = []
    for perm in perms:
        tables = [
            chunk_table(perm, offset, min(width, cells - offset))
            for offset in range(0, cells, width)
        ]
        out.append(tuple(tables))
    return width, tuple(out)


class SymmetryKeys:
    """The table keys of the solver's positions (`sh`: their shape)."""

    sh: Shape
    chunks: Chunks | None
    """The symmetry tables, built on first use (`symmetry_chunks`)."""
    sym_min_empty: int
    """Positions with fewer empty cells than this key on the plain pair."""

    def key(self, me: int, opp: int, empties: int) -> tuple[int, int]:
        """The table key of (me, opp) and the symmetry that maps the position onto it.

        Near the root the key is the least of the position's eight images, so symmetric
        positions share one entry; deeper down the plain pair is cheaper.
        """
        cells = self.sh.cells
        if empties < self.sym_min_empty:
            return me << cells | opp, 0
        if self.sh.symmetric:
            # Small boards: the shape's own two-chunk tables, already built (a fresh 3x3 solve
            # would spend half its time building tables of its own).
            return table_key(self.sh, me, opp, True)
        chunks = self.chunks
        if chunks is None:
            # Built on first use: a big board whose endgame the solver sees never needs them.
            chunks = self.chunks = symmetry_chunks(self.sh.sym_perms)
        width, tables = chunks
        mask = (1 << width) - 1
        best = -1
        best_sym = 0
        for sym, chunk_tables in enumerate(tables):
            image_me = image_opp = 0
            shift = 0
            for table in chunk_tables:
                image_me |= table[me >> shift & mask]
                image_opp |= table[opp >> shift & mask]
                shift += width
            key = image_me << cells | image_opp
            if best < 0 or key < best:
                best = key
                best_sym = sym
        return best, best_sym


class ShapeKeys(SymmetryKeys):
    """The keys of a shape from its own two-chunk tables (the lab's trace keys its table so).

    Symmetric positions share an entry on boards small enough for those tables
    (`Shape.symmetric`); bigger boards key on the plain pair.
    """

    def __init__(self, sh: Shape) -> None:
        """Keys for positions of shape `sh`."""
        self.sh = sh
        self.chunks = None
        # No position has more empty cells than the board has cells: plain pairs throughout.
        self.sym_min_empty = symmetry_min_empty(sh.cells) if sh.symmetric else sh.cells + 1
