"""A small read-only board: the position at one node of a search, with the line that led there.

The tree explorer hands it a position, the moves made since the search's root (numbered faintly
1, 2, 3… in the corner of their cells) and the cells to light (the node's move, a pruned move
that was never tried, or the moves a search left out). Up to 20×20 fits in about 45 columns, so
it sits beside the search tree.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from string import ascii_uppercase

from textual.content import Content
from textual.widgets import Static


def cell_width(size: int) -> int:
    """Columns per cell: roomy on small boards, tight on big ones."""
    return 4 if size <= 7 else 3 if size <= 10 else 2


class MiniBoard(Static):
    """A position drawn as text: column letters, row numbers, marks, and the line played."""

    DEFAULT_CSS = """
    MiniBoard {
        width: auto;
        height: auto;
        padding: 0 1;
        border: round $primary 50%;
    }
    """

    def show(
        self,
        marks: Sequence[str],
        line: Sequence[int] = (),
        lit: int | Collection[int] | None = None,
        lit_style: str = "reverse",
    ) -> None:
        """Draw a position from its `marks` ("X", "O" or "" per cell, row-major); `line` are the
        moves since the root, `lit` the cell (or cells) to light."""
        lit_cells = {lit} if isinstance(lit, int) else set(lit or ())
        size = math.isqrt(len(marks))
        width = cell_width(size)
        order = {cell: number for number, cell in enumerate(line, start=1)}
        parts: list[str | tuple[str, str]] = [" " * 3]
        parts += [ascii_uppercase[col].center(width) for col in range(size)]
        for row in range(size):
            parts.append("\n" + f"{row + 1:>2} ")
            for col in range(size):
                cell = row * size + col
                mark = marks[cell]
                text = (mark or "·").center(width)
                style = ""
                if mark:
                    style = "bold $primary" if mark == "X" else "bold $warning"
                    if cell in order and width >= 3:
                        # The move number after the mark: "X1", "O2" read as the line's order.
                        text = f"{mark}{order[cell]}".center(width)[:width]
                else:
                    style = "$text-muted"
                if cell in lit_cells:
                    style = f"{style} {lit_style}".strip()
                parts.append((text, style))
        self.update(Content.assemble(*parts))
