"""The board widget: a grid of cells with column letters and row numbers, a cursor and the mouse.

The board never decides anything: it shows the marks and hints the screen hands it, and when a
player picks a cell (click, or Enter / space on the cursor) it posts `Board.CellChosen`.

Cells are named like a chess board, column letter then row number, with row 1 at the top:
"A1" is the top-left cell, "B2" the centre of a 3×3 board. The engine's `cell_notation` is the
one place that spelling is made; the panel, the move list and `tictactoe-tui analyse` use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from string import ascii_uppercase
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

COMPACT_FROM = 6
"""Boards this size and bigger use one-line cells so a 10×10 game fits a 100×34 terminal."""


def cell_id(cell: int) -> str:
    """The DOM id of a cell widget: `cell-0` … `cell-{n²-1}`, row-major."""
    return f"cell-{cell}"


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
    def for_size(cls, size: int) -> CellGeometry:
        """Roomy three-line cells for small boards, one-line cells from `COMPACT_FROM` up."""
        if size >= COMPACT_FROM:
            return cls(width=4, height=1, gutter=0)
        return cls(width=8 if size == 3 else 7, height=3, gutter=1)


LABEL_WIDTH = 3
"""Width of the row-number column on the left of the grid."""
BORDER = 2
"""The board's frame: one cell on each side."""


_LINE_STYLES = {"X": "$primary 70%", "O": "$warning 70%"}
"""How an expected line's step numbers are coloured: the colour of the mark that would play."""


def _cell_content(geo: CellGeometry, centre: Content, corner: Content | None = None,
                  under: Content | None = None) -> Content:
    """A cell's text: one line on compact boards; else a corner label, the centre, a line under."""
    if geo.height == 1:
        return centre
    top = (corner or Content("")).pad_right(geo.width - len(corner or ""))
    bottom = under or Content("")
    return Content("\n").join([top, centre, bottom])


def board_size_on_screen(size: int) -> tuple[int, int]:
    """The (width, height) in terminal cells the board widget needs, frame included."""
    geo = CellGeometry.for_size(size)
    width = LABEL_WIDTH + size * (geo.width + geo.gutter) + BORDER
    height = 1 + size * (geo.height + geo.gutter) + BORDER
    return width, height


class Cell(Static):
    """One square of the board; its id is `cell_id(index)`."""

    DEFAULT_CSS = """
    Cell {
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-align: center;
        background: $surface;
        color: $text-muted;
    }
    Cell.-dark { background: $surface-lighten-1; }
    Cell.-x { color: $primary; text-style: bold; }
    Cell.-o { color: $warning; text-style: bold; }
    Cell.-last { background: $boost; text-style: bold underline; }
    Cell.-best { background: $success 30%; }
    Cell.-win { background: $success; color: $text; text-style: bold; }
    Cell:hover { background: $surface-lighten-2; }
    Cell.-cursor { background: $accent 40%; }
    Cell.-cursor.-win { background: $success; }
    """

    def __init__(self, index: int) -> None:
        """Make the cell for board position `index` (row-major)."""
        super().__init__("", id=cell_id(index), markup=False)
        self.index = index
        """The cell's row-major position on the board."""
        self._drawn: tuple[Content, tuple[bool, ...]] | None = None

    def draw(self, content: Content, classes: Mapping[str, bool]) -> None:
        """Show `content` with the given classes set or not; nothing happens if nothing changed.

        The board redraws every cell a few times a second while the computer thinks: skipping
        the unchanged ones keeps that from costing the keys any time.
        """
        drawn = (content, tuple(classes.values()))
        if drawn == self._drawn:
            return
        self._drawn = drawn
        self.update(content)
        for name, on in classes.items():
            self.set_class(on, name)


class Board(Widget, can_focus=True):
    """The grid of cells. Posts `Board.CellChosen` when a player picks one."""

    DEFAULT_CSS = """
    Board {
        layout: grid;
        background: $panel;
        border: round $primary 50%;
        padding: 0;
    }
    Board:focus { border: round $primary; }
    Board .board-label {
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        color: $text-muted;
        background: $panel;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_cursor(0, -1)", "Up", show=False),
        Binding("down", "move_cursor(0, 1)", "Down", show=False),
        Binding("left", "move_cursor(-1, 0)", "Left", show=False),
        Binding("right", "move_cursor(1, 0)", "Right", show=False),
        Binding("enter", "choose_cursor", "Place", show=False),
        Binding("space", "choose_cursor", "Place", show=False),
    ]

    cursor: reactive[int] = reactive(0)
    """The cell the keyboard cursor is on."""

    class CellChosen(Message):
        """A player picked a cell, by mouse or by keyboard."""

        def __init__(self, board: Board, cell: int) -> None:
            """Record which board and which cell."""
            super().__init__()
            self.board = board
            """The board the cell belongs to."""
            self.cell = cell
            """The chosen cell, row-major."""

        @property
        def control(self) -> Board:
            """The board that posted the message, so `@on(Board.CellChosen, "#board")` works."""
            return self.board

    def __init__(self, size: int, *, id: str | None = None) -> None:
        """Make an empty size×size board."""
        super().__init__(id=id)
        self.board_size = size
        """Rows (and columns) on the board (`size` is Textual's on-screen size)."""
        self.interactive = True
        """False while a player may not place a mark from this board (Enter / space pass on)."""
        geo = CellGeometry.for_size(size)
        self.set_class(size >= COMPACT_FROM, "-compact")
        width, height = board_size_on_screen(size)
        self.styles.width = width
        self.styles.height = height
        self.styles.grid_size_columns = size + 1
        self.styles.grid_size_rows = size + 1
        self.styles.grid_columns = f"{LABEL_WIDTH} " + " ".join([str(geo.width)] * size)
        self.styles.grid_rows = "1 " + " ".join([str(geo.height)] * size)
        self.styles.grid_gutter_vertical = geo.gutter
        self.styles.grid_gutter_horizontal = geo.gutter
        self._cells = [Cell(index) for index in range(size * size)]
        for cell in self._cells:
            row, col = divmod(cell.index, size)
            cell.set_class(size >= COMPACT_FROM and (row + col) % 2 == 1, "-dark")

    def compose(self) -> ComposeResult:
        """Column letters on top, then each row: its number and its cells."""
        yield Static("", classes="board-label")
        for col in range(self.board_size):
            yield Static(ascii_uppercase[col], classes="board-label", markup=False)
        for row in range(self.board_size):
            yield Static(str(row + 1), classes="board-label", markup=False)
            yield from self._cells[row * self.board_size:(row + 1) * self.board_size]

    def cell(self, index: int) -> Cell:
        """The widget of one cell."""
        return self._cells[index]

    def show(
        self,
        marks: Sequence[str],
        *,
        hints: Mapping[int, str] | None = None,
        labels: Mapping[int, str] | None = None,
        line: Mapping[int, tuple[int, str]] | None = None,
        last: int | None = None,
        best: int | None = None,
        winning: Sequence[int] = (),
    ) -> None:
        """Draw the position: `marks[i]` is "X", "O" or "" for cell i.

        For empty cells: `hints` are faint labels (scores), `labels` small corner labels (the
        digit that plays the cell on 3×3), `line` the step number and the mark of an expected
        line drawn faintly (1, 2, 3… in the colour of the side that would play it). `last` is
        the cell played last, `best` a cell to highlight (the hint or the computer's choice),
        `winning` the cells of a winning line.
        """
        hints = hints or {}
        labels = labels or {}
        line = line or {}
        lit = set(winning)
        geo = CellGeometry.for_size(self.board_size)
        for index, cell in enumerate(self._cells):
            mark = marks[index]
            if mark:
                content = _cell_content(geo, Content(mark))
            else:
                step = line.get(index)
                hint = hints.get(index, "")
                centre = Content.styled(hint, "dim")
                under = Content("")
                if step is not None:
                    number, by = step
                    centre = Content.styled(str(number), f"italic {_LINE_STYLES.get(by, '')}")
                    under = Content.styled(hint, "dim")
                content = _cell_content(geo, centre, Content.styled(labels.get(index, ""), "dim"),
                                        under)
            cell.draw(content, {"-x": mark == "X", "-o": mark == "O", "-last": index == last,
                                "-best": index == best, "-win": index in lit})

    def watch_cursor(self, old: int, new: int) -> None:
        """Move the cursor highlight."""
        self._cells[old].remove_class("-cursor")
        self._cells[new].add_class("-cursor")

    def on_mount(self) -> None:
        """Show the cursor where it starts."""
        self._cells[self.cursor].add_class("-cursor")

    def action_move_cursor(self, d_col: int, d_row: int) -> None:
        """Move the cursor one cell, stopping at the edges."""
        row, col = divmod(self.cursor, self.board_size)
        row = min(max(row + d_row, 0), self.board_size - 1)
        col = min(max(col + d_col, 0), self.board_size - 1)
        self.cursor = row * self.board_size + col

    def action_choose_cursor(self) -> None:
        """Pick the cell under the cursor."""
        self.post_message(self.CellChosen(self, self.cursor))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Let Enter / space pass to the screen when no player may place a mark from here."""
        if action == "choose_cursor":
            return self.interactive
        return True

    def on_click(self, event: events.Click) -> None:
        """A click on a cell picks it and moves the cursor there."""
        widget = event.widget
        if isinstance(widget, Cell):
            self.cursor = widget.index
            self.post_message(self.CellChosen(self, widget.index))
