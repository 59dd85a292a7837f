"""The move list: every move of the game so far, numbered, with who played it.

A click on a move posts `MoveList.Picked` (the review jumps there); `current` highlights one.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

ENTRY_WIDTH = 12
"""Characters one move takes in the list: "123. X B12 " plus a space (more when a cell's label
is longer, e.g. "B12??" with a review's mark)."""


class MoveList(VerticalScroll, can_focus=False):
    """The moves as "1. X B2", newest at the bottom and kept in view."""

    DEFAULT_CSS = """
    MoveList {
        border: round $secondary 40%;
        border-title-color: $text-muted;
        padding: 0 1;
        height: auto;
        max-height: 8;
    }
    MoveList > #move-list-body { width: 100%; }
    """

    def __init__(self, *, id: str | None = "move-list") -> None:
        """Make an empty move list."""
        super().__init__(id=id)
        self.border_title = "Moves"
        self._body = Static("", id="move-list-body", markup=False)
        self._moves: tuple[tuple[str, str], ...] = ()
        self._current: int | None = None
        self._layout = (ENTRY_WIDTH, 1)

    class Picked(Message):
        """A move was clicked."""

        def __init__(self, number: int) -> None:
            """The move's number, from 1."""
            super().__init__()
            self.number = number
            """The move clicked, numbered from 1."""

    def compose(self) -> ComposeResult:
        """One text body inside the scroll container."""
        yield self._body

    def show(self, moves: Sequence[tuple[str, str]], current: int | None = None) -> None:
        """Show the moves: (mark, cell name) pairs in the order they were played; `current`
        (a move number from 1) is highlighted and kept in view, else the newest is."""
        self._moves = tuple(moves)
        self._current = current
        self._render_moves()
        if current is None:
            self.call_after_refresh(self.scroll_end, animate=False)
        else:
            row = (current - 1) // self._layout[1]
            self.call_after_refresh(self.scroll_to, y=max(row - 1, 0), animate=False)

    def on_click(self, event: events.Click) -> None:
        """A click on a move posts `Picked` with its number."""
        offset = event.get_content_offset(self._body)
        if offset is None:
            return
        width, per_line = self._layout
        column = offset.x // width
        number = offset.y * per_line + column + 1
        if column < per_line and 1 <= number <= len(self._moves):
            self.post_message(self.Picked(number))

    def on_resize(self) -> None:
        """Refit the moves to the new width."""
        self._render_moves()

    def _render_moves(self) -> None:
        if not self._moves:
            self._body.update(Content.styled("no moves yet", "dim"))
            return
        label = max(4, *(len(cell) for _, cell in self._moves))
        width = ENTRY_WIDTH - 4 + label
        entries = [
            Content.styled(
                f"{number:>3}. {mark} {cell:<{label}} ",
                "bold reverse" if number == self._current else "",
            )
            for number, (mark, cell) in enumerate(self._moves, start=1)
        ]
        # Whole entries to a line (never split "12. X B2" across lines), as many as fit.
        per_line = max(1, self.scrollable_content_region.width // width)
        self._layout = (width, per_line)
        lines = [
            Content("").join(entries[i : i + per_line]) for i in range(0, len(entries), per_line)
        ]
        self._body.update(Content("\n").join(lines))
