"""The move list: every move of the game so far, numbered, with who played it."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static


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

    def compose(self) -> ComposeResult:
        """One text body inside the scroll container."""
        yield self._body

    def show(self, moves: Sequence[tuple[str, str]]) -> None:
        """Show the moves: (mark, cell name) pairs in the order they were played."""
        if not moves:
            self._body.update(Content.styled("no moves yet", "dim"))
            return
        entries = [f"{number:>3}. {mark} {cell:<4}"
                   for number, (mark, cell) in enumerate(moves, start=1)]
        # Four moves to a line keeps a long game readable in the narrow column.
        lines = ["".join(entries[i:i + 4]) for i in range(0, len(entries), 4)]
        self._body.update(Content("\n".join(lines)))
        self.call_after_refresh(self.scroll_end, animate=False)
