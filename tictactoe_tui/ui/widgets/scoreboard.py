"""The scoreboard: games won and drawn this session and, beside them, all time."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static

Tally = Sequence[tuple[str, int]]
"""Labelled counts, e.g. (("You", 2), ("Computer", 1), ("Draws", 3))."""


class Scoreboard(Static):
    """The session's counts on one line, e.g. "You 2 · Computer 1 · Draws 3"; with the all-time
    counts of the same kind of game (opponent, difficulty, board), a small table::

                  You  Computer  Draws
        session     2         1      3
        all time   14        40     52
    """

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

    def __init__(
        self, tally: Tally = (), all_time: Tally | None = None, *, id: str | None = "scoreboard"
    ) -> None:
        """Make a scoreboard showing `tally` (label, count) pairs, and `all_time` if given."""
        super().__init__("", id=id, markup=False)
        self.show(tally, all_time)

    def show(self, tally: Tally, all_time: Tally | None = None) -> None:
        """Show new counts."""
        if all_time is None:
            self.border_title = "This session"
            self.update(_line(tally))
            return
        self.border_title = "Score"
        labels = [label for label, _ in tally]
        widths = [max(len(label), 3) for label in labels]
        header = "".join(f" {label:>{w}}" for label, w in zip(labels, widths, strict=True))
        rows: list[str | tuple[str, str]] = [(f"{'':<8}{header}", "dim")]
        for name, counts in (("session", tally), ("all time", all_time)):
            cells = " ".join(f"{count:>{w}}" for (_, count), w in zip(counts, widths, strict=True))
            # The space after the label is the label's: read as text (a screen reader, the
            # screenshot's SVG), "all time" never runs into its first number.
            rows += ["\n", (f"{name:<8} ", "dim"), (cells, "bold")]
        self.update(Content.assemble(*rows))


def _line(tally: Tally) -> Content:
    parts: list[str | tuple[str, str]] = []
    for label, count in tally:
        if parts:
            parts.append((" · ", "dim"))
        parts += [f"{label} ", (str(count), "bold")]
    return Content.assemble(*parts)
