"""The variation list: a study's moves with their variations, as a chess GUI writes them.

The main line reads "1. X B2  2. O A1", and each variation sits in brackets right after the move
it is an alternative to: "2. O A1 ( 2. O C1  3. X A3 ) 3. X C3". Variations are drawn fainter
the deeper they are; the move shown on the board is highlighted. A click on a move posts
`VariationList.Picked` with its node's number. The screen hands the entries over (`show`);
the widget only lays them out, whole entries to a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static


@dataclass(frozen=True)
class Entry:
    """One entry: a move ("3. X B2", with the number of its node) or a bracket (node None)."""

    text: str
    node: int | None
    depth: int
    """How deep in variations (0: the main line)."""


DEPTH_STYLES = ("", "$text-muted", "$text-muted italic")
"""The look of the main line, a variation and a variation inside one (and deeper)."""


class VariationList(VerticalScroll, can_focus=False):
    """The moves of a study with their variations; the current move highlighted."""

    DEFAULT_CSS = """
    VariationList {
        border: round $secondary 40%;
        border-title-color: $text-muted;
        padding: 0 1;
        width: 100%;
        height: 1fr;
    }
    VariationList > #variation-list-body { width: 100%; }
    """

    class Picked(Message):
        """A move was clicked."""

        def __init__(self, node: int) -> None:
            """The clicked move's node number."""
            super().__init__()
            self.node = node
            """The node the clicked move leads to."""

    def __init__(self, *, id: str | None = "variation-list") -> None:
        """An empty list."""
        super().__init__(id=id)
        self.border_title = "Moves and variations"
        self._body = Static("", id="variation-list-body", markup=False)
        self._entries: tuple[Entry, ...] = ()
        self._current: int | None = None
        self._places: list[tuple[int, int, int, int]] = []
        """Where each move is drawn: (line, first column, last column + 1, node)."""
        self._plain = ""

    def compose(self) -> ComposeResult:
        """One text body inside the scroll container."""
        yield self._body

    @property
    def text(self) -> str:
        """The list as plain text, one line per drawn line."""
        return self._plain

    def show(self, entries: Sequence[Entry], current: int | None) -> None:
        """Show `entries`, highlighting the move of node `current` (None: the root)."""
        self._entries = tuple(entries)
        self._current = current
        self._render_entries()

    def on_resize(self) -> None:
        """Refit the entries to the new width."""
        self._render_entries()

    def on_click(self, event: events.Click) -> None:
        """A click on a move posts `Picked` with its node."""
        offset = event.get_content_offset(self._body)
        if offset is None:
            return
        for line, start, end, node in self._places:
            if line == offset.y and start <= offset.x < end:
                self.post_message(self.Picked(node))
                return

    def _render_entries(self) -> None:
        if not self._entries:
            self._plain = "no moves yet: play one on the board"
            self._body.update(Content.styled(self._plain, "dim"))
            self._places = []
            return
        width = max(self.scrollable_content_region.width, 12)
        lines: list[list[Content]] = [[]]
        used = 0
        places: list[tuple[int, int, int, int]] = []
        current_line = 0
        for entry in self._entries:
            text = entry.text
            if used and used + 1 + len(text) > width:
                lines.append([])
                used = 0
            if used:
                lines[-1].append(Content(" "))
                used += 1
            style = DEPTH_STYLES[min(entry.depth, len(DEPTH_STYLES) - 1)]
            if entry.node is not None and entry.node == self._current:
                style = "bold reverse"
                current_line = len(lines) - 1
            lines[-1].append(Content.styled(text, style) if style else Content(text))
            if entry.node is not None:
                places.append((len(lines) - 1, used, used + len(text), entry.node))
            used += len(text)
        self._places = places
        self._plain = "\n".join("".join(part.plain for part in parts) for parts in lines)
        self._body.update(Content("\n").join(Content("").join(parts) for parts in lines))
        self.call_after_refresh(self.scroll_to, y=max(current_line - 1, 0), animate=False)
