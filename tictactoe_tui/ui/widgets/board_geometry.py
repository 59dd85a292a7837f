"""The board widget's geometry: how big each cell is drawn, where each cell is on the widget.

`Board` and its drawing (`board_drawing`) both read it; the screens size their layouts with
`board_size_on_screen` (importable from `tictactoe_tui.ui.widgets.board` too).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.geometry import Offset, Region

COMPACT_FROM = 6
"""Boards this size and bigger use one-line cells so a 10×10 game fits a 100×34 terminal."""

LABEL_WIDTH = 3
"""Width of the row-number column on the left of the grid."""
BORDER = 2
"""The board's frame: one cell on each side."""


@dataclass(frozen=True)
class CellGeometry:
    """How big each cell is drawn, and the gaps between them, for a board of a given size."""

    width: int
    """Columns of one cell."""
    height: int
    """Rows of one cell."""
    gutter: int
    """Gap in cells between neighbouring cells (both ways); the board's colour shows through."""

    @classmethod
    def for_size(cls, size: int, compact: bool = False) -> CellGeometry:
        """Roomy three-line cells for small boards, one-line cells from `COMPACT_FROM` up; in
        a compact layout (a small terminal) small boards get one-line cells too, with gaps."""
        if size >= COMPACT_FROM:
            return cls(width=4, height=1, gutter=0)
        if compact:
            return cls(width=5, height=1, gutter=1)
        return cls(width=8 if size == 3 else 7, height=3, gutter=1)

    def region(self, index: int, size: int) -> Region:
        """Where cell `index` of a size×size board is drawn, relative to the board's content
        (inside the frame)."""
        row, col = divmod(index, size)
        x = LABEL_WIDTH + col * (self.width + self.gutter) + self.gutter
        y = 1 + row * (self.height + self.gutter) + self.gutter
        return Region(x, y, self.width, self.height)

    def cell_at(self, offset: Offset, size: int) -> int | None:
        """The cell of a size×size board at `offset` in the board's content, or None (a label,
        a gap, outside)."""
        x, y = offset.x - LABEL_WIDTH, offset.y - 1
        if x < 0 or y < 0:
            return None
        col, x_in = divmod(x, self.width + self.gutter)
        row, y_in = divmod(y, self.height + self.gutter)
        if x_in < self.gutter or y_in < self.gutter or max(row, col) >= size:
            return None
        return row * size + col


def score_room(size: int, compact: bool = False) -> int:
    """Columns a faint score may take in a cell of a size×size board (in the compact layout
    with `compact`): all of a cell with a gutter (the gutter parts it from the next), one less
    in a cell without, so neighbouring scores never touch."""
    geo = CellGeometry.for_size(size, compact)
    return geo.width if geo.gutter else geo.width - 1


def board_size_on_screen(size: int, compact: bool = False) -> tuple[int, int]:
    """The (width, height) in terminal cells the board widget needs, frame included (in the
    compact layout with `compact`)."""
    geo = CellGeometry.for_size(size, compact)
    width = LABEL_WIDTH + size * (geo.width + geo.gutter) + BORDER
    height = 1 + size * (geo.height + geo.gutter) + BORDER
    return width, height
