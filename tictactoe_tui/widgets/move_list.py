"""The move list: every move of the game so far, numbered, with who played it."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

ENTRY_WIDTH = 12
"""Characters one move takes in the list: "123. X B12 " plus a space."""


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

    def compose(self) -> ComposeResult:
        """One text body inside the scroll container."""
        yield self._body

    def show(self, moves: Sequence[tuple[str, str]]) -> None:
        """Show the moves: (mark, cell name) pairs in the order they were played."""
        self._moves = tuple(moves)
        self._render_moves()
        self.call_after_refresh(self.scroll_end, animate=False)

    def on_resize(self) -> None:
        """Refit the moves to the new width."""
        self._render_moves()

    def _render_moves(self) -> None:
        if not self._moves:
            self._body.update(Content.styled("no moves yet", "dim"))
            return
        entries = [f"{number:>3}. {mark} {cell:<4} "
                   for number, (mark, cell) in enumerate(self._moves, start=1)]
        # Whole entries to a line (never split "12. X B2" across lines), as many as fit.
        per_line = max(1, self.scrollable_content_region.width // ENTRY_WIDTH)
        lines = ["".join(entries[i:i + per_line]) for i in range(0, len(entries), per_line)]
        self._body.update(Content("\n".join(lines)))
