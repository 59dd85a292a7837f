"""The board widget: a grid of cells with column letters and row numbers, a cursor and the mouse.

The board never decides anything: it shows the marks and hints the screen hands it, and when a
player picks a cell (click, or Enter / space on the cursor) it posts `Board.CellChosen`.

Cells are named like a chess board, column letter then row number, with row 1 at the top:
"A1" is the top-left cell, "B2" the centre of a 3×3 board. The engine's `cell_notation` is the
one place that spelling is made; the panel, the move list and `tictactoe-tui analyse` use it.

It is one widget drawn a line at a time (Textual's line API, as its `checker` examples and
`DataTable` are): `render_line` builds each row of the grid from what `show` was handed, the
styles come from `COMPONENT_CLASSES` (so the theme and the stylesheet still decide the colours),
and a change repaints only the cells it touches (`refresh(Region)`). A board of a hundred or two
hundred cell widgets took a tenth to a third of a second to build and style; this one takes a
few milliseconds at any size. The lines and their styles are drawn by `board_drawing`, the
cells' sizes and places are `board_geometry`'s: this module is what each cell shows, the
cursor and the mouse.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Offset, Region
from textual.message import Message
from textual.reactive import var
from textual.strip import Strip
from textual.widget import Widget

from tictactoe_tui.text.scores import fit_cell_score, step_text
from tictactoe_tui.ui.widgets.board_drawing import BoardDrawing
from tictactoe_tui.ui.widgets.board_geometry import (
    COMPACT_FROM,
    CellGeometry,
    board_size_on_screen,
    score_room,
)

__all__ = [
    "BOUND_MARKS",
    "COMPACT_FROM",
    "FRAMES",
    "Board",
    "CellGeometry",
    "board_size_on_screen",
    "score_room",
]

BOUND_MARKS = ("≤", "≥")
"""A faint score that starts with one of these is a bound, not a value (at most / at least):
it is drawn fainter still (`board--bound`), so it never looks like a value."""


FRAMES = {"win": "**", "last": "()", "best": "><"}
"""The characters around a cell's centre for what its colour also says, so that no mark is told
by colour alone (NO_COLOR, a monochrome terminal, colour blindness): a winning line's marks
read `*X*`, the last move `(O)` (as GNU Go marks it), the highlighted move `>+3<`."""


@dataclass(frozen=True)
class _Drawing:
    """What one cell shows: a mark, or the faint words of an empty cell."""

    mark: str = ""
    """"X", "O" or ""."""
    corner: str = ""
    """A small label in the top-left corner (roomy cells only): the digit that plays it."""
    centre: str = ""
    """The word in the middle: a faint score, or an expected line's step number."""
    step_by: str = ""
    """When `centre` is a step of an expected line, the mark that would play it ("X" / "O")."""
    under: str = ""
    """A faint word under the centre (roomy cells): the score when the centre is a step."""


_HIGHLIGHTS = ("x", "o", "last", "best", "win", "hover", "cursor")
"""Every highlight a cell can be drawn with, lowest priority first (as the stylesheet's rules
were once ordered: the cursor's background beats the winning line's, but not on the line)."""


class Board(Widget, can_focus=True):
    """The grid of cells. Posts `Board.CellChosen` when a player picks one."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--label",
        "board--cell",
        "board--dark",
        "board--x",
        "board--o",
        "board--last",
        "board--best",
        "board--win",
        "board--hover",
        "board--cursor",
        "board--cursor-win",
        "board--faint",
        "board--bound",
        "board--step-x",
        "board--step-o",
    }
    """The styles of everything drawn on the board:

    | class | what |
    | --- | --- |
    | `board--label` | the column letters and row numbers |
    | `board--cell` | an empty cell |
    | `board--dark` | every other cell of a compact board, like a chess board |
    | `board--x`, `board--o` | a cell holding X or O |
    | `board--last` | the cell played last |
    | `board--best` | the highlighted move (a hint, the computer's choice, the lab's pick) |
    | `board--win` | the cells of a winning line |
    | `board--hover` | the cell under the mouse |
    | `board--cursor` | the keyboard cursor's cell, while the board has the focus |
    | `board--cursor-win` | the cursor on a winning line's cell |
    | `board--faint` | scores and corner digits in empty cells |
    | `board--bound` | a score that is a bound ("≤-21", "≥92"), fainter than a value |
    | `board--step-x`, `board--step-o` | an expected line's step numbers, by the mark playing it |

    A cell's background, colour and text style each come from the last of its highlights (in
    the order of this table) that sets them, laid over the board's own background.
    """

    DEFAULT_CSS = """
    Board {
        background: $panel;
        border: round $primary 50%;
        padding: 0;
    }
    Board:focus { border: round $primary; }
    Board > .board--label { color: $text-muted; }
    Board > .board--cell { background: $surface; color: $text-muted; }
    Board > .board--dark { background: $surface-lighten-1; }
    Board > .board--x { color: $primary; text-style: bold; }
    Board > .board--o { color: $warning; text-style: bold; }
    Board > .board--last { background: $boost; text-style: bold underline; }
    Board > .board--best { background: $success 30%; }
    Board > .board--win { background: $success; color: $text; text-style: bold; }
    Board > .board--hover { background: $surface-lighten-2; }
    Board > .board--cursor {
        background: $accent 40%; color: $foreground; text-style: bold reverse;
    }
    Board > .board--cursor-win { background: $success; }
    Board > .board--faint { text-style: dim; }
    Board > .board--bound { color: $text-disabled; text-style: dim; }
    Board > .board--step-x { color: $primary 70%; text-style: italic; }
    Board > .board--step-o { color: $warning 70%; text-style: italic; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_cursor(0, -1)", "Up", show=False),
        Binding("down", "move_cursor(0, 1)", "Down", show=False),
        Binding("left", "move_cursor(-1, 0)", "Left", show=False),
        Binding("right", "move_cursor(1, 0)", "Right", show=False),
        Binding("enter", "choose_cursor", "Place", show=False),
        Binding("space", "choose_cursor", "Place", show=False),
    ]

    cursor: var[int] = var(0)
    """The cell the keyboard cursor is on (only its cell and the one it left are repainted)."""

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
        self._drawings = [_Drawing()] * (size * size)
        self._last: int | None = None
        self._best: int | None = None
        self._winning: tuple[int, ...] = ()
        self._hover: int | None = None
        self._drawing = BoardDrawing(self)
        self.compact = False
        """Whether the board is drawn for the compact layout (`set_compact`)."""
        self.geometry = CellGeometry.for_size(size)
        """How each cell is drawn."""
        self._fit_geometry()

    def set_compact(self, compact: bool) -> None:
        """Draw the board for the compact layout of a small terminal (one-line cells), or
        not; a board of `COMPACT_FROM` or more has one-line cells either way."""
        if compact != self.compact:
            self.compact = compact
            self._fit_geometry()
            self.refresh()

    def _fit_geometry(self) -> None:
        self.geometry = CellGeometry.for_size(self.board_size, self.compact)
        width, height = board_size_on_screen(self.board_size, self.compact)
        self.styles.width = width
        self.styles.height = height

    # -- what the board shows ------------------------------------------------------------------

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

        Only the cells whose look changed are repainted: while the computer thinks this runs a
        few times a second.
        """
        hints = hints or {}
        labels = labels or {}
        line = line or {}
        drawings = []
        for index, mark in enumerate(marks):
            if mark:
                drawings.append(_Drawing(mark=mark))
                continue
            hint = hints.get(index, "")
            step = line.get(index)
            if step is None:
                drawings.append(_Drawing(corner=labels.get(index, ""), centre=hint))
            else:
                number, by = step
                drawings.append(
                    _Drawing(
                        corner=labels.get(index, ""),
                        centre=step_text(number),
                        step_by=by,
                        under=hint,
                    )
                )
        changed = {
            index
            for index, (old, new) in enumerate(zip(self._drawings, drawings, strict=True))
            if old != new
        }
        changed |= {cell for cell in (self._last, last, self._best, best) if cell is not None}
        changed |= set(self._winning) ^ set(winning)
        self._drawings = drawings
        self._last, self._best, self._winning = last, best, tuple(winning)
        self._refresh_cells(changed)

    @property
    def marks(self) -> tuple[str, ...]:
        """The marks shown, cell by cell: "X", "O" or "" (faint words are not marks)."""
        return tuple(drawing.mark for drawing in self._drawings)

    @property
    def last_move(self) -> int | None:
        """The cell drawn as the last move."""
        return self._last

    @property
    def best_move(self) -> int | None:
        """The cell drawn as the highlighted move."""
        return self._best

    @property
    def winning_line(self) -> tuple[int, ...]:
        """The cells drawn as a winning line, in the order `show` was given them."""
        return self._winning

    @property
    def score_room(self) -> int:
        """Columns a faint score may take in one of this board's cells (`score_room`)."""
        return score_room(self.board_size, self.compact)

    def cell_text(self, index: int) -> str:
        """What cell `index` shows, as plain text, one line per row of the cell: its mark; or
        its corner digit, then its faint score or an expected line's step, then the score
        under the step. Compact cells have a single line. The centre is framed as `FRAMES`
        says on the last move "(O)", a winning line "*X*" and the highlighted move ">+3<"."""
        return "\n".join(text for text, _ in self._cell_lines(index) if text)

    def cell_highlights(self, index: int) -> frozenset[str]:
        """The highlights cell `index` is drawn with: "x" or "o" (its mark), "last", "best",
        "win", "hover" (the mouse), "cursor"."""
        return frozenset(self._highlights(index))

    # -- geometry ------------------------------------------------------------------------------

    def cell_region(self, index: int) -> Region:
        """Where cell `index` is drawn, relative to the board's content (inside the frame)."""
        return self.geometry.region(index, self.board_size)

    def cell_offset(self, index: int) -> Offset:
        """The centre of cell `index`, relative to the board (frame included), so that
        `pilot.click("#board", offset=board.cell_offset(i))` clicks cell i."""
        region = self.cell_region(index)
        gutter = self.styles.gutter
        return Offset(
            gutter.left + region.x + region.width // 2, gutter.top + region.y + region.height // 2
        )

    def cell_at(self, offset: Offset) -> int | None:
        """The cell at `offset` in the board's content, or None (a label, a gap, outside)."""
        return self.geometry.cell_at(offset, self.board_size)

    # -- drawing -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Line `y` of the grid: the column letters, a row of cells, or the gap between rows."""
        return self._drawing.line(y)

    def _cell_lines(self, index: int) -> list[tuple[str, str]]:
        """Each line of cell `index`: its text and what kind of text it is ("mark", "corner",
        "faint", "bound", "step")."""
        drawing = self._drawings[index]
        room = self.score_room
        if drawing.mark:
            centre = (drawing.mark, "mark")
        elif drawing.step_by:
            centre = (drawing.centre, "step")
        else:
            centre = _score_line(drawing.centre, room)
        centre = (_framed(centre[0], self._frame(index), self.geometry.width), centre[1])
        if self.geometry.height == 1:
            return [centre]
        if drawing.mark:
            return [("", "corner"), centre, ("", "faint")]
        return [(drawing.corner, "corner"), centre, _score_line(drawing.under, room)]

    def _frame(self, index: int) -> str:
        """The two characters around cell `index`'s centre that say, without colour, what its
        highlight says: the winning line, the last move, the highlighted move (or "")."""
        if index in self._winning:
            return FRAMES["win"]
        if index == self._last:
            return FRAMES["last"]
        return FRAMES["best"] if index == self._best else ""

    def _highlights(self, index: int) -> list[str]:
        """The highlights of cell `index`, lowest priority first (see `_HIGHLIGHTS`)."""
        mark = self._drawings[index].mark
        lit = {
            "x": mark == "X",
            "o": mark == "O",
            "last": index == self._last,
            "best": index == self._best,
            "win": index in self._winning,
            "hover": index == self._hover,
            "cursor": index == self.cursor and self.has_focus,
        }
        return [name for name in _HIGHLIGHTS if lit[name]]

    def _style_names(self, index: int) -> tuple[str, ...]:
        """The component classes cell `index` is drawn with, lowest priority first."""
        names = ["board--cell"]
        row, col = divmod(index, self.board_size)
        if self.board_size >= COMPACT_FROM and (row + col) % 2 == 1:
            names.append("board--dark")
        highlights = self._highlights(index)
        names += [f"board--{name}" for name in highlights]
        if "cursor" in highlights and "win" in highlights:
            names.append("board--cursor-win")
        return tuple(names)

    def _refresh_cells(self, cells: Iterable[int]) -> None:
        """Repaint just these cells."""
        regions = [
            self.cell_region(cell)
            for cell in cells
            if 0 <= cell < self.board_size * self.board_size
        ]
        if regions:
            self.refresh(*regions)

    def notify_style_update(self) -> None:
        """The theme or the stylesheet changed: work the styles out again."""
        super().notify_style_update()
        self._drawing.forget_styles()
        self.refresh()

    # -- the cursor and the mouse --------------------------------------------------------------

    def on_focus(self) -> None:
        """The keys come here: show the cursor (a solid block, seen in every theme)."""
        self._refresh_cells([self.cursor])

    def on_blur(self) -> None:
        """The keys go elsewhere: the cursor hides until they come back."""
        self._refresh_cells([self.cursor])

    def watch_cursor(self, old: int, new: int) -> None:
        """Move the cursor highlight."""
        self._refresh_cells((old, new))

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

    def _cell_under(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.cell_at(offset)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Light the cell under the mouse."""
        self._set_hover(self._cell_under(event))

    def on_leave(self, event: events.Leave) -> None:
        """The mouse left the board: no cell is lit."""
        self._set_hover(None)

    def _set_hover(self, cell: int | None) -> None:
        if cell != self._hover:
            old, self._hover = self._hover, cell
            self._refresh_cells(c for c in (old, cell) if c is not None)

    def on_click(self, event: events.Click) -> None:
        """A click on a cell picks it and moves the cursor there."""
        cell = self._cell_under(event)
        if cell is not None:
            self.cursor = cell
            self.post_message(self.CellChosen(self, cell))


def _framed(text: str, frame: str, width: int) -> str:
    """`text` between the two characters of `frame` when they fit in `width` (a mark always
    does), else with the opening one alone, else as it is (the cell's colour, the status line
    and the panel still say it)."""
    if not frame:
        return text
    if len(text) + 2 <= width:
        return f"{frame[0]}{text}{frame[1]}"
    return f"{frame[0]}{text}" if len(text) + 1 <= width else text


def _score_line(text: str, room: int) -> tuple[str, str]:
    """A faint score and how it is drawn: "bound" for a bound, else "faint". It keeps its
    mark ("~", "≤", "≥") and is fitted to `room` columns by `text.scores.fit_cell_score`."""
    return fit_cell_score(text, room), "bound" if text.startswith(BOUND_MARKS) else "faint"
