"""The evaluation panel: how the computer (or the hint) scored every candidate move.

The screen turns a search's result into a `PanelReport` of plain values (cell names, scores and
their meaning in words, node counts) and hands it over; the panel only lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static


@dataclass(frozen=True)
class CandidateRow:
    """One candidate move in the panel."""

    cell: str
    """The cell's name, e.g. "B2"."""
    score: int
    """The score, seen from the side that was to move."""
    words: str
    """The score in words: "win in 3", "draw", "+12 (heuristic)"."""
    nodes: int
    """Positions searched for this move."""
    exact: bool
    """False when the score is an estimate (a heuristic at a depth cut-off), not a game value."""
    chosen: bool
    """True for the move that was played (or that the hint recommends)."""


@dataclass(frozen=True)
class PanelReport:
    """Everything the panel shows about one analysed position."""

    title: str
    """What was analysed: "O (computer) played B2", "Hint for X"."""
    algorithm: str
    """The algorithm's name for people: "alpha-beta", "minimax", "H1", "H2"."""
    nodes: int
    """Positions searched in all."""
    elapsed: float
    """Seconds the search took."""
    depth: int
    """Plies searched."""
    complete: bool
    """True when the search reached the end of the game (scores are exact)."""
    rows: tuple[CandidateRow, ...]
    """The candidates shown, best first (the top ten on big boards)."""
    total_moves: int
    """How many legal moves there were (more than `rows` when the list is cut)."""
    verdict: str = ""
    """Whether the move was clever or random, and why."""
    terms: tuple[str, ...] = ()
    """For H1 / H2: the terms and the formula, one line each."""


WAITING = "No analysis yet: the computer's moves are explained here. Press h for a hint."


class EvalPanel(VerticalScroll, can_focus=False):
    """Shows a `PanelReport`; scrolls with the mouse wheel when it is longer than the panel."""

    DEFAULT_CSS = """
    EvalPanel {
        border: round $secondary 60%;
        border-title-color: $text;
        padding: 0 1;
        height: 1fr;
        min-width: 40;
    }
    EvalPanel > #eval-body { width: 100%; }
    """

    def __init__(self, *, id: str | None = "eval-panel") -> None:
        """Make an empty panel."""
        super().__init__(id=id)
        self.border_title = "Evaluation"
        self._body = Static(WAITING, id="eval-body", markup=False)

    def compose(self) -> ComposeResult:
        """One text body; the scroll container around it does the rest."""
        yield self._body

    @property
    def text(self) -> str:
        """The panel's text as a person reads it (for tests and screen readers)."""
        visual = self._body.visual
        return visual.plain if isinstance(visual, Content) else str(self._body.content)

    def clear(self, message: str = WAITING) -> None:
        """Show a one-line message instead of an analysis."""
        self._body.update(Content(message))

    def show(self, report: PanelReport) -> None:
        """Lay out a report: the headline, the candidate table, the totals and the terms."""
        parts: list[str | tuple[str, str] | Content] = [(report.title, "bold"), "\n"]
        if report.verdict:
            parts += [report.verdict, "\n"]
        parts += ["\n", _header(), "\n"]
        for row in report.rows:
            parts += [_row(row), "\n"]
        hidden = report.total_moves - len(report.rows)
        if hidden > 0:
            parts += [(f"  … and {hidden} more moves", "dim"), "\n"]
        if any(not row.exact for row in report.rows):
            parts += [("  ~ a heuristic estimate, not a proven result", "dim"),
                      "\n"]
        reach = "solved to the end" if report.complete else "cut off, heuristic at the leaves"
        parts += [
            "\n",
            f"{report.algorithm}: {report.nodes:,} positions in {_duration(report.elapsed)}",
            "\n",
            f"depth {report.depth}, {reach}",
        ]
        for line in report.terms:
            parts += ["\n", line]
        self._body.update(Content.assemble(*parts))
        self.scroll_home(animate=False)


def _header() -> Content:
    return Content.styled(f"  {'move':<5} {'score':>5}  {'meaning':<16} {'positions':>9}", "dim")


def _row(row: CandidateRow) -> Content:
    marker = "▶ " if row.chosen else "  "
    score = str(row.score) if row.exact else f"~{row.score}"
    text = f"{marker}{row.cell:<5} {score:>5}  {row.words:<16} {row.nodes:>9,}"
    return Content.styled(text, "bold reverse" if row.chosen else "")



def _duration(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"
