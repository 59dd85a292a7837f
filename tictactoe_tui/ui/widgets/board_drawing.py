"""The board widget's drawing: each line of the grid as a `Strip`, each cell's Rich style.

`Board` keeps what each cell shows (its lines of text, its highlights, its component classes);
`BoardDrawing` turns that into the lines Textual's line API asks for (`Board.render_line`), with
the styles worked out from the board's `COMPONENT_CLASSES` (so the theme and the stylesheet still
decide the colours) and kept until the theme or the stylesheet changes.
"""

from __future__ import annotations

from string import ascii_uppercase
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.css.styles import RenderStyles
from textual.strip import Strip

from tictactoe_tui.ui.widgets.board_geometry import BORDER, LABEL_WIDTH, board_size_on_screen

if TYPE_CHECKING:
    from tictactoe_tui.ui.widgets.board import Board


class BoardDrawing:
    """The lines and styles of one board, drawn from what the board says each cell shows."""

    def __init__(self, board: Board) -> None:
        """Draw `board`'s cells (its geometry, its cells' lines and component classes)."""
        self.board = board
        self._styles: dict[tuple[str | None, ...], Style] = {}

    def forget_styles(self) -> None:
        """The theme or the stylesheet changed: the styles are worked out again when drawn."""
        self._styles.clear()

    def line(self, y: int) -> Strip:
        """Line `y` of the grid: the column letters, a row of cells, or the gap between rows."""
        board = self.board
        geo = board.geometry
        size = board.board_size
        label = self.style(("board--label",))
        gap = self.style(("board--label",), text=False)
        width = board_size_on_screen(size, board.compact)[0] - BORDER
        if y == 0:
            segments = [Segment(" " * LABEL_WIDTH, gap)]
            for col in range(size):
                segments += aligned(
                    ascii_uppercase[col], geo.gutter + geo.width, gap, label, skip=geo.gutter
                )
            return Strip(segments, width)
        row, within = divmod(y - 1, geo.height + geo.gutter)
        if row >= size or within < geo.gutter:
            return Strip.blank(width, gap) if row < size else Strip([])
        line = within - geo.gutter
        number = str(row + 1) if line == geo.height // 2 else ""
        segments = aligned(number, LABEL_WIDTH, gap, label)
        for index in range(row * size, (row + 1) * size):
            if geo.gutter:
                segments.append(Segment(" " * geo.gutter, gap))
            segments.extend(self._cell_segments(index, line))
        return Strip(segments, width)

    def _cell_segments(self, index: int, line: int) -> list[Segment]:
        """Line `line` of cell `index`: its text in the cell's style, the space around it."""
        board = self.board
        text, kind = board._cell_lines(index)[line]
        names = board._style_names(index)
        overlay = {
            "faint": "board--faint",
            "corner": "board--faint",
            "bound": "board--bound",
            "step": f"board--step-{board._drawings[index].step_by.lower()}",
        }.get(kind)
        return aligned(
            text,
            board.geometry.width,
            self.style(names, text=False),
            self.style(names, overlay),
            left=kind == "corner",
        )

    def style(
        self, names: tuple[str, ...], overlay: str | None = None, *, text: bool = True
    ) -> Style:
        """The Rich style of a cell drawn with the component classes `names`, and of a word on
        it drawn with `overlay` (faint, or an expected line's colour); without `text`, just the
        background (for the space around a word, which is never underlined).

        Background, colour and text style each come from the last class that sets them, as the
        stylesheet's rules on one widget would; the background is laid over the board's own and
        the colour over that background (an `auto` colour contrasting with it), as Textual does
        for a widget over its parent. An overlay's colour replaces the cell's and its text style
        is added to the cell's, as a styled word inside a widget is drawn.
        """
        key = (*names, overlay, "text" if text else "")
        style = self._styles.get(key)
        if style is not None:
            return style
        board = self.board
        background: Color | None = None
        ink: RenderStyles | None = None
        text_style = Style()
        for name in (*names, overlay):
            if name is None:
                continue
            styles = board.get_component_styles(name)
            if styles.has_rule("background"):
                background = styles.background
            if styles.has_rule("color") or styles.has_rule("auto_color"):
                ink = styles
            if styles.has_rule("text_style"):
                text_style = (
                    text_style + styles.text_style if name == overlay else styles.text_style
                )
        ground = board.background_colors[1]
        if background is not None:
            ground += background
        color = board.styles.color if ink is None else ink.color
        if ink is not None and ink.auto_color:
            color = ground.get_contrast_text(color.a)
        if text:
            style = Style(color=(ground + color).rich_color, bgcolor=ground.rich_color)
            style += text_style
        elif text_style.reverse:
            # A reversed cell (the cursor) is a solid block of its ink, padding included.
            style = Style(
                color=(ground + color).rich_color, bgcolor=ground.rich_color, reverse=True
            )
        else:
            style = Style(bgcolor=ground.rich_color)
        self._styles[key] = style
        return style


def aligned(
    text: str, width: int, pad: Style, ink: Style, *, left: bool = False, skip: int = 0
) -> list[Segment]:
    """`text` in a `width`-wide slot, centred (or on the left) in all but its first `skip`
    columns, cut to fit: the text drawn with `ink`, the space around it with `pad`."""
    text = text[: width - skip]
    before = skip + (0 if left else (width - skip - len(text)) // 2)
    after = width - len(text) - before
    segments = []
    if before:
        segments.append(Segment(" " * before, pad))
    if text:
        segments.append(Segment(text, ink))
    if after:
        segments.append(Segment(" " * after, pad))
    return segments
