"""The position view: the board, the move list and the evaluation panel, side by side.

The Game screen shows its game in one; the review and lab screens show theirs the same way. The
view only draws what its screen hands it — the marks, the moves, an analysis or a running
search — and keeps what the board shows over the marks in one place:

- faint scores in the empty cells, with a caption saying whose they are (`show_scores`);
- small corner labels (the digits that play a 3×3 board);
- an expected line, numbered 1, 2, 3… in the colour of the side that would play each step:
  the running search's best line while it thinks (`show_thinking`), else the line of the
  panel row picked with the mouse or the keys. `toggle_lines` (the `p` key) hides or shows it.

A pick on the board comes out as the board's own `Board.CellChosen`; the view posts nothing else.

In a small terminal the screen asks for the compact layout (`set_compact`): the board alone, its
small boards in one-line cells, without the widget under it and the move list; the panel then
shows instead of the board, not beside it, when `toggle_panel` asks for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget

from tictactoe_tui.text.panel import CandidateRow, PanelReport, ThinkingReport
from tictactoe_tui.text.scores import fit_cell_score, overlay_caption
from tictactoe_tui.ui.widgets.board import Board, board_size_on_screen
from tictactoe_tui.ui.widgets.eval_panel import WAITING, EvalPanel
from tictactoe_tui.ui.widgets.move_list import MoveList

CAPTION_MARGIN = 6
"""Columns of the board's width its caption cannot use: the frame's corners, a line either
side, a space either side."""


class PositionView(Horizontal):
    """Board (with an optional widget under it) and move list on the left, the panel right."""

    DEFAULT_CSS = """
    PositionView { height: 1fr; }
    PositionView > #position-left { width: auto; height: 1fr; }
    PositionView #move-list { width: 100%; height: 1fr; max-height: 100%; }
    PositionView > #eval-panel { width: 1fr; }
    """

    def __init__(
        self,
        size: int,
        *,
        under_board: Widget | None = None,
        id: str | None = None,
        board_id: str = "board",
        under_board_in_compact: bool = False,
    ) -> None:
        """A view of a size×size board; `under_board` (e.g. a scoreboard) goes below it (in the
        compact layout too with `under_board_in_compact`: the screen's CSS places it there)."""
        super().__init__(id=id)
        self.board = Board(size, id=board_id)
        """The board widget."""
        self.panel = EvalPanel(id="eval-panel", pickable=True)
        """The evaluation panel."""
        self.moves = MoveList(id="move-list")
        """The move list."""
        self.show_lines = True
        """Whether expected lines are drawn on the board (`toggle_lines` flips it)."""
        self._under_board = under_board
        self._under_board_in_compact = under_board_in_compact
        self._marks: list[str] = [""] * (size * size)
        self._last: int | None = None
        self._winning: tuple[int, ...] = ()
        self._labels: dict[int, str] = {}
        self._scores: dict[int, str] = {}
        self._scores_caption = ""
        self._scores_key = ""
        self._best: int | None = None
        self._live_line: tuple[tuple[int, ...], str] | None = None
        self.compact = False
        """Whether the view is laid out for a small terminal (`set_compact`)."""
        self.panel_wanted = True
        """Whether the panel shows beside the board in the full layout."""
        self._panel_instead = False

    def compose(self) -> ComposeResult:
        """The left column, then the panel."""
        with Vertical(id="position-left"):
            yield self.board
            if self._under_board is not None:
                yield self._under_board
            yield self.moves
        yield self.panel

    # -- what the board shows -----------------------------------------------------------------

    def show_position(
        self,
        marks: Sequence[str],
        *,
        last: int | None = None,
        winning: Sequence[int] = (),
        labels: Mapping[int, str] | None = None,
    ) -> None:
        """The marks ("X", "O" or "" per cell), the last move, a winning line, corner labels."""
        self._marks = list(marks)
        self._last = last
        self._winning = tuple(winning)
        self._labels = dict(labels or {})
        self._draw()

    def show_scores(
        self, scores: Mapping[int, str], caption: str = "", key: str = "", best: int | None = None
    ) -> None:
        """Faint scores in the empty cells, whose they are (`caption`, e.g. "X's scores") and
        the key that hides them, and a cell to highlight."""
        self._scores = dict(scores)
        self._scores_caption = caption if scores else ""
        self._scores_key = key
        self._best = best
        self._draw()

    def show_moves(self, moves: Sequence[tuple[str, str]], current: int | None = None) -> None:
        """The move list: (mark, cell name) pairs in the order they were played; `current` (a
        move number from 1) is highlighted."""
        self.moves.show(moves, current=current)

    # -- what the panel shows ------------------------------------------------------------------

    def show_report(self, report: PanelReport) -> None:
        """An analysis in the panel; no line is drawn until a row is picked."""
        self._live_line = None
        self.panel.show(report)
        self._draw()

    def show_thinking(self, report: ThinkingReport, line: Sequence[int], mover: str) -> None:
        """A running search in the panel, and its best line so far on the board."""
        self._live_line = (tuple(line), mover)
        self.panel.show_thinking(report)
        self._draw()

    def clear_panel(self, message: str = WAITING) -> None:
        """A one-line message in the panel instead of an analysis; no line on the board."""
        self._live_line = None
        self.panel.clear(message)
        self._draw()

    @property
    def caption_room(self) -> int:
        """Characters the caption under the board can show (its frame, corners and a space
        either side take the rest)."""
        return board_size_on_screen(self.board.board_size)[0] - CAPTION_MARGIN

    @property
    def panel_shown(self) -> bool:
        """Whether the evaluation panel is shown."""
        return self.panel.display

    def verdict_line(self, key: str) -> Content:
        """The compact layout's verdict line: `key` (the one that shows the panel, or the board
        again), what it shows, and the panel in one line."""
        what = "board" if self.panel_shown else "panel"
        return Content.assemble((key, "bold $accent"), f" {what} · ", self.panel.summary)

    def toggle_panel(self) -> bool:
        """Hide or show the evaluation panel (in the compact layout: show it instead of the
        board, or the board again); returns whether it is shown now."""
        if self.compact:
            self._panel_instead = not self._panel_instead
        else:
            self.panel_wanted = not self.panel_wanted
        self._arrange()
        return self.panel.display

    def set_compact(self, compact: bool) -> None:
        """Lay the view out for a small terminal (the board alone, or the panel alone), or
        for a big one (board, what is under it and the moves, with the panel beside them)."""
        if compact != self.compact:
            self.compact = compact
            self.board.set_compact(compact)
            self._arrange()

    def _arrange(self) -> None:
        # Each widget's own `display`, not a class on the view: a class change restyles every
        # widget under the view (the panel's rows, the move list, the scoreboard): a slower key.
        compact = self.compact
        if self._under_board is not None:
            self._under_board.display = not compact or self._under_board_in_compact
        self.moves.display = not compact
        self.query_one("#position-left").display = not (compact and self._panel_instead)
        self.panel.display = self._panel_instead if compact else self.panel_wanted

    def toggle_lines(self) -> bool:
        """Hide or show expected lines; on, with no row picked, pick the chosen move's row.

        Returns whether lines are now shown.
        """
        self.show_lines = not self.show_lines
        if self.show_lines and self.panel.highlighted is None:
            self.panel.select_chosen()
        self._draw()
        return self.show_lines

    @property
    def line_shown(self) -> tuple[int, ...]:
        """The cells of the expected line drawn on the board now (empty when none)."""
        line = self._line()
        return line[0] if line is not None else ()

    @on(EvalPanel.RowHighlighted, "#eval-panel")
    def _row_picked(self, event: EvalPanel.RowHighlighted) -> None:
        event.stop()
        self._draw()

    # -- drawing -------------------------------------------------------------------------------

    def _line(self) -> tuple[tuple[int, ...], str] | None:
        """The line to draw and the mark that plays its first step, if any."""
        if not self.show_lines:
            return None
        if self._live_line is not None:
            return self._live_line if self._live_line[0] else None
        row: CandidateRow | None = self.panel.highlighted
        report = self.panel.report
        if row is None or report is None or not row.line:
            return None
        return row.line, report.mover

    def _draw(self) -> None:
        line = self._line()
        steps: dict[int, tuple[int, str]] = {}
        if line is not None:
            cells, first = line
            other = {"X": "O", "O": "X"}.get(first, "")
            for number, cell in enumerate(cells, start=1):
                if 0 <= cell < len(self._marks) and not self._marks[cell]:
                    steps[cell] = (number, first if number % 2 else other)
        # The marks the cells show, as they are drawn (a number too wide for its cell is cut).
        drawn = [fit_cell_score(text, self.board.score_room) for text in self._scores.values()]
        caption = overlay_caption(
            self._scores_caption, drawn, self._scores_key, line=bool(steps), width=self.caption_room
        )
        if self.board.border_subtitle != caption:  # setting it repaints all the board's cells
            self.board.border_subtitle = caption
        self.board.show(
            self._marks,
            hints=self._scores,
            labels=self._labels,
            line=steps,
            last=self._last,
            best=self._best,
            winning=self._winning,
        )
