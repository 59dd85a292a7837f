"""The pairing view's board: the game's board with a letter on each cell of a pair.

Cells with the same letter form a pair. An empty lettered cell shows its letter in the middle,
in the board's plain text colour (not faint: the letters are what this board is for); a taken
cell of a pair keeps its letter, faint, in its top-left corner (roomy cells only: a compact cell
has room for the mark alone), so the spent pairs stay readable. The cell under the cursor or the
mouse lights its partner, which is how a reader finds the other "k" on a 10×10 board.

Everything else (the grid, the cursor, the mouse, `CellChosen`) is `Board`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual import events

from tictactoe_tui.ui.widgets.board import Board


class PairingBoard(Board):
    """A board that draws a pairing's letters and lights the partner of the pointed cell."""

    DEFAULT_CSS = """
    PairingBoard > .board--cell { color: $foreground; text-style: bold; }
    """

    def __init__(self, size: int, *, id: str | None = None) -> None:
        """An empty size×size board with no letters."""
        super().__init__(size, id=id)
        self._letters: dict[int, str] = {}
        self._partners: dict[int, int] = {}
        self._marks: tuple[str, ...] = ("",) * (size * size)
        self._step_line: dict[int, tuple[int, str]] = {}
        self._last_shown: int | None = None
        self._pointed: int | None = None

    def show_pairs(
        self,
        marks: Sequence[str],
        letters: Mapping[int, str],
        *,
        line: Mapping[int, tuple[int, str]] | None = None,
        last: int | None = None,
    ) -> None:
        """Draw the position `marks` with the pair `letters` (cell → letter), the steps of a
        line to play (`line`, as `Board.show` draws them) and the last move."""
        self._letters = dict(letters)
        by_letter: dict[str, list[int]] = {}
        for cell, letter in letters.items():
            by_letter.setdefault(letter, []).append(cell)
        self._partners = {}
        for cells in by_letter.values():
            if len(cells) == 2:
                a, b = cells
                self._partners[a], self._partners[b] = b, a
        self._marks = tuple(marks)
        self._step_line = dict(line or {})
        self._last_shown = last
        self._draw()
        # The corner letters of taken cells are not part of what `show` compares.
        self.refresh()

    @property
    def letters(self) -> dict[int, str]:
        """The letters shown, cell → letter."""
        return dict(self._letters)

    @property
    def lit_partner(self) -> int | None:
        """The partner lit for the cell under the cursor or the mouse, if any."""
        return self.best_move

    def _draw(self) -> None:
        """Hand the position to `Board.show`, the letters as the empty cells' words."""
        hints = {cell: letter for cell, letter in self._letters.items() if not self._marks[cell]}
        pointed = self._pointed
        best = self._partners.get(pointed) if pointed is not None else None
        self.show(self._marks, hints=hints, line=self._step_line, last=self._last_shown, best=best)

    def _cell_lines(self, index: int) -> list[tuple[str, str]]:
        """`Board`'s lines of the cell, with its letter drawn plainly (an empty cell) or faint in
        the corner (a taken one)."""
        lines = super()._cell_lines(index)
        letter = self._letters.get(index)
        if letter is None or index in self._step_line:
            return lines
        if self._marks[index]:
            if len(lines) > 1:
                lines[0] = (letter, "corner")
            return lines
        middle = len(lines) // 2
        lines[middle] = (letter, "letter")
        return lines

    def _point(self, cell: int | None) -> None:
        """Light the partner of `cell` (None: of no cell)."""
        if cell != self._pointed:
            self._pointed = cell
            self._draw()

    def watch_cursor(self, old: int, new: int) -> None:
        """Move the cursor, and light its cell's partner."""
        super().watch_cursor(old, new)
        if self.has_focus:
            self._point(new)

    # Textual calls `Board`'s handlers of these events too (every class's in the MRO): these
    # only add the partner's light.

    def on_focus(self) -> None:
        """The keys come here: the cursor's cell's partner lights up."""
        self._point(self.cursor)

    def on_blur(self) -> None:
        """The keys go elsewhere: no partner is lit."""
        self._point(None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Light the partner of the cell under the mouse."""
        offset = event.get_content_offset(self)
        cell = None if offset is None else self.cell_at(offset)
        self._point(cell if cell is not None else self.cursor if self.has_focus else None)

    def on_leave(self, event: events.Leave) -> None:
        """The mouse left: back to the cursor's partner."""
        self._point(self.cursor if self.has_focus else None)
