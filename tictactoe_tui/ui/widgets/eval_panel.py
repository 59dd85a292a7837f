"""The evaluation panel: how the computer (or the hint) scored every candidate move, or, while a
search runs, how far it got.

The screen turns a search's result into a `PanelReport` of plain values (cell names, scores and
their meaning in words, node counts, expected lines) and hands it over; the panel only lays it
out. Its candidate rows can be picked with the mouse or, once the panel has the focus (Tab),
the arrows: it posts `EvalPanel.RowHighlighted` so the view can draw that move's expected line.
While a search runs, `show_thinking` shows a `ThinkingReport`: depth, positions, the time against
the budget on a progress bar, and the best move so far.

Every number says what it is. A row's score carries its kind's mark ("~-13" an estimate,
"≤ -14" / "≥ +3" bounds, drawn fainter than values), its note says why a move took 0 positions
or another depth ("mirror of B1", "leaves a four", "VCT", "depth 1"), and the legend under the
rows explains the marks shown, one line each. The picked row (or the chosen one, when a rule or
a threat search proved it) is told in a sentence under the rows. The search's story, one row
per completed depth (depth, best move, score, positions, time), closes the panel, live while
the search runs as at its end.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from tictactoe_tui.text.panel import CandidateRow, PanelReport, StoryRow, ThinkingReport

WAITING = "No analysis yet: the computer's moves are explained here. Press h for a hint."

ENGINE_LINES = 12
"""An outside engine's last few MESSAGE lines shown while it thinks."""

NOTHING_SAID = "(nothing yet: many engines speak only when their search ends)"
"""What the panel says while an outside engine thinks in silence."""

STORY_ROWS = 5
"""The search's story shows its last few depths (the panel is short on a 34-line terminal)."""


class EvalPanel(VerticalScroll, can_focus=False):
    """Shows a `PanelReport` or a `ThinkingReport`; scrolls when it is longer than the panel."""

    DEFAULT_CSS = """
    EvalPanel {
        border: round $secondary 60%;
        border-title-color: $text;
        padding: 0 1;
        height: 1fr;
        min-width: 40;
    }
    EvalPanel > Static { width: 100%; }
    EvalPanel > #eval-rows {
        border: none;
        padding: 0;
        height: auto;
        max-height: 24;
        background: transparent;
        /* One line a row, whatever the width: the numbers come first, and a row's words cut
           short here are all in its sentence under the rows once it is picked. */
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    EvalPanel > #eval-rows:focus { background-tint: $foreground 5%; }
    EvalPanel > #eval-detail { color: $text-muted; }
    EvalPanel > #eval-progress { margin: 1 0 0 0; }
    EvalPanel > #eval-progress Bar { width: 1fr; }
    EvalPanel.-thinking > #eval-rows, EvalPanel.-thinking > #eval-header,
    EvalPanel.-thinking > #eval-detail,
    EvalPanel.-empty > #eval-rows, EvalPanel.-empty > #eval-header,
    EvalPanel.-empty > #eval-detail, EvalPanel.-empty > #eval-footer { display: none; }
    EvalPanel > #eval-progress { display: none; }
    EvalPanel.-thinking > #eval-progress { display: block; }
    """

    class RowHighlighted(Message):
        """A candidate row was picked (mouse or keys), or the pick was cleared (`row` None)."""

        def __init__(self, panel: EvalPanel, row: CandidateRow | None) -> None:
            """Record which panel and which row."""
            super().__init__()
            self.panel = panel
            """The panel that posted the message."""
            self.row = row
            """The row picked, or None when none is."""

        @property
        def control(self) -> EvalPanel:
            """The panel, so `@on(EvalPanel.RowHighlighted, "#eval-panel")` works."""
            return self.panel

    def __init__(self, *, id: str | None = "eval-panel", pickable: bool = False) -> None:
        """Make an empty panel; with `pickable`, its rows take the focus (Tab) to be picked."""
        super().__init__(id=id, classes="-empty")
        self.pickable = pickable
        """Whether the candidate rows can take the focus, so the keys can pick one (a screen
        whose keys must stay its own, such as the review's arrows, leaves it off)."""
        self.border_title = "Evaluation"
        self._title = Static(WAITING, id="eval-title", markup=False)
        # Determinate while hidden: an indeterminate bar animates 15 times a second, shown or not.
        self._progress = ProgressBar(
            total=1, id="eval-progress", show_percentage=False, show_eta=False
        )
        self._header = Static(_header(), id="eval-header", markup=False)
        self._rows = OptionList(id="eval-rows", compact=True)
        self._rows.can_focus = False
        self._detail = Static("", id="eval-detail", markup=False)
        self._footer = Static("", id="eval-footer", markup=False)
        self._shown: tuple[CandidateRow, ...] = ()
        self._report: PanelReport | None = None
        self._thinking_best = ""

    def compose(self) -> ComposeResult:
        """Title, progress bar (while thinking), the candidate rows and the totals."""
        yield self._title
        yield self._progress
        yield self._header
        yield self._rows
        yield self._detail
        yield self._footer

    @property
    def text(self) -> str:
        """The panel's text as a person reads it (for tests and screen readers)."""
        parts = [_plain(self._title)]
        if self.has_class("-thinking"):
            parts.append(_plain(self._footer))
        elif not self.has_class("-empty"):
            parts += [
                _plain(self._header),
                *(
                    self._rows.get_option_at_index(i).prompt.plain  # type: ignore[union-attr]
                    for i in range(self._rows.option_count)
                ),
                _plain(self._detail),
                _plain(self._footer),
            ]
        return "\n".join(part for part in parts if part)

    @property
    def summary(self) -> str:
        """The panel in one line, for the compact layout's verdict: what was analysed and the
        chosen move's meaning ("Computer (O) played C3: draw", with the number of an estimate
        or a bound: "played G8: ~-11 (estimate)"), the best move so far of a
        running search, or the panel's message."""
        title = _plain(self._title).split("\n")[0]
        if self.has_class("-thinking"):
            best = self._thinking_best
            return f"{title}: best so far {best}" if best else title
        report = self._report
        chosen = next((row for row in report.rows if row.chosen), None) if report else None
        if chosen is None or chosen.words in title:
            return title
        if chosen.marked and chosen.kind not in ("", "exact"):
            # An estimate or a bound is its number first, as the panel's score column shows
            # it: "~-11 (estimate)", "≤ 0 (draw at best)".
            return f"{title}: {chosen.marked} ({chosen.words})"
        return f"{title}: {chosen.words}"

    @property
    def report(self) -> PanelReport | None:
        """The analysis shown, if any."""
        return self._report

    @property
    def highlighted(self) -> CandidateRow | None:
        """The candidate row picked by the mouse or keys, if any."""
        index = self._rows.highlighted
        if self.has_class("-thinking") or index is None or index >= len(self._shown):
            return None
        return self._shown[index]

    def clear(self, message: str = WAITING) -> None:
        """Show a one-line message instead of an analysis."""
        self._report = None
        self._shown = ()
        self._set_mode("-empty")
        self._title.update(Content(message))
        self._rows.clear_options()
        self._detail.update("")
        self._footer.update("")

    def show(self, report: PanelReport) -> None:
        """Lay out a report: the headline, the candidate rows, the totals and the terms."""
        self._report = report
        # The rows first: whether Tab may give them the keys depends on there being some.
        self._shown = report.rows
        self._set_mode("")
        title: list[str | tuple[str, str]] = [(report.title, "bold")]
        if report.verdict:
            title += ["\n", report.verdict]
        self._title.update(Content.assemble(*title))
        self._rows.set_options(Option(_row(row)) for row in report.rows)
        self._rows.highlighted = None
        self._show_detail()
        parts: list[str | tuple[str, str] | Content] = []
        hidden = report.total_moves - len(report.rows)
        if hidden > 0:
            parts += [(f"  … and {hidden} more moves", "dim"), "\n"]
        if report.equal:
            parts += [f"  {report.equal}", "\n"]
        for line in report.legend:
            parts += [(f"  {line}", "dim"), "\n"]
        if any(row.line for row in report.rows):
            parts += [("  Tab ↑↓ or click: a row's line #1 #2… (p)", "dim"), "\n"]
        parts += [
            "\n",
            f"{report.algorithm}: {report.nodes:,} positions in {_duration(report.elapsed)}",
            "\n",
            report.reach or f"depth {report.depth}",
        ]
        if len(report.story) > 1:
            parts += ["\n", *_story(report.story)]
        for line in report.terms:
            parts += ["\n", line]
        self._footer.update(Content.assemble(*parts))
        self.scroll_home(animate=False)

    def show_thinking(self, report: ThinkingReport) -> None:
        """Show a running search: how deep, how many positions, the time, the best so far."""
        self._set_mode("-thinking")
        self._thinking_best = report.best
        _update(self._title, Content.styled(report.title, "bold"))
        self._progress.update(
            total=report.budget, progress=min(report.elapsed, report.budget or 0.0)
        )
        budget = f" of {report.budget:g} s" if report.budget is not None else ""
        if report.said_by:
            # An outside engine: its words as it wrote them, never read as our numbers.
            said: list[str | tuple[str, str]] = [
                f"{_duration(report.elapsed)}{budget}",
                "\n\n",
                (f"{report.said_by} says (its own words, not our analysis):", "dim"),
            ]
            for line in report.said[-ENGINE_LINES:] or (NOTHING_SAID,):
                said += ["\n", f"  {line}"]
            _update(self._footer, Content.assemble(*said))
            return
        depth = f"depth {report.depth} complete" if report.depth else "first depth in progress"
        parts: list[str | tuple[str, str]] = [
            f"{_duration(report.elapsed)}{budget}",
            "\n\n",
            f"{report.algorithm}: {depth}",
            "\n",
            f"{report.nodes:,} positions so far",
            "\n\n",
            ("best so far: ", "dim"),
            (report.best or "none yet", "bold"),
        ]
        if report.line_names:
            parts += [
                "\n",
                ("expected line: ", "dim"),
                report.line_names,
                "\n",
                ("(numbered 1, 2, 3… on the board; p hides it)", "dim"),
            ]
        if report.story:
            parts += ["\n\n", *_story(report.story)]
        _update(self._footer, Content.assemble(*parts))

    def select_chosen(self) -> None:
        """Pick the row of the move played or recommended (so its line can be drawn)."""
        for index, row in enumerate(self._shown):
            if row.chosen:
                self._rows.highlighted = index
                return

    def _set_mode(self, mode: str) -> None:
        for name in ("-thinking", "-empty"):
            self.set_class(name == mode, name)
        if mode != "-thinking":
            self._progress.update(total=1, progress=0)  # stop a "no budget" bar's animation
        self._rows.can_focus = self.pickable and mode == "" and bool(self._shown)

    def _show_detail(self) -> None:
        """Under the rows, the picked row in a sentence; with none picked, the chosen row's
        proof when a rule or a threat search gave it."""
        row = self.highlighted
        if row is None:
            row = next((r for r in self._shown if r.chosen and r.proof), None)
        self._detail.update(row.detail if row is not None else "")
        self._detail.display = row is not None

    @on(OptionList.OptionHighlighted, "#eval-rows")
    def _row_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_detail()
        self.post_message(self.RowHighlighted(self, self.highlighted))

    @on(OptionList.OptionSelected, "#eval-rows")
    def _row_selected(self, event: OptionList.OptionSelected) -> None:
        # A click highlights and selects at once; Enter on a highlighted row changes nothing.
        event.stop()


def _update(widget: Static, content: Content) -> None:
    """Show `content` unless it shows already (an update repaints and lays out the panel)."""
    if widget.visual != content:
        widget.update(content)


def _plain(widget: Static) -> str:
    visual = widget.visual
    return visual.plain if isinstance(visual, Content) else str(widget.content)


def _header() -> Content:
    return Content.styled(f"  {'move':<4}{'score':>6} {'positions':>9}  meaning", "dim")


def _row(row: CandidateRow) -> Content:
    """A candidate: the move, its marked score, its positions, what it means and its note; a
    bound is drawn fainter than a value (the chosen move stands out whatever it is)."""
    marker = "▶ " if row.chosen else "  "
    marked = row.marked or (str(row.score) if row.exact else f"~{row.score}")
    meaning = f"{row.words} · {row.note}" if row.note else row.words
    text = f"{marker}{row.cell:<4}{marked:>6} {row.nodes:>9,}  {meaning}"
    if row.chosen:
        return Content.styled(text, "bold reverse")
    return Content.styled(text, "dim") if row.bound else Content(text)


def _story(story: tuple[StoryRow, ...]) -> list[str | tuple[str, str]]:
    """The search's story as a small table: its last `STORY_ROWS` depths, first to last."""
    shown = story[-STORY_ROWS:]
    parts: list[str | tuple[str, str]] = [
        (f"  {'depth':>5}  {'move':<4}{'score':>6} {'positions':>9}  time", "dim")
    ]
    earlier = len(story) - len(shown)
    if earlier:
        parts += ["\n", (f"  … {earlier} earlier depth{'s' if earlier > 1 else ''}", "dim")]
    for row in shown:
        note = f"  {row.note}" if row.note else ""
        parts += [
            "\n",
            f"  {row.depth:>5}  {row.cell:<4}{row.marked:>6} {row.nodes:>9,}  "
            f"{_duration(row.elapsed)}{note}",
        ]
    return parts


def _duration(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"
