"""The scoreboard: games won and drawn this session."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static


class Scoreboard(Static):
    """One line of labelled counts, e.g. "You 2 · Computer 1 · Draws 3"."""

    DEFAULT_CSS = """
    Scoreboard {
        height: auto;
        border: round $primary 40%;
        border-title-color: $text-muted;
        padding: 0 1;
        text-align: center;
        min-width: 32;
    }
    """

    def __init__(self, tally: Sequence[tuple[str, int]] = (), *, id: str | None = "scoreboard"
                 ) -> None:
        """Make a scoreboard showing `tally` (label, count) pairs."""
        super().__init__("", id=id, markup=False)
        self.border_title = "This session"
        self.show(tally)

    def show(self, tally: Sequence[tuple[str, int]]) -> None:
        """Show new counts."""
        parts: list[str | tuple[str, str]] = []
        for label, count in tally:
            if parts:
                parts.append((" · ", "dim"))
            parts += [f"{label} ", (str(count), "bold")]
        self.update(Content.assemble(*parts))
