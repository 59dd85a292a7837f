"""The History screen: every game kept, newest first, with the all-time scores; Enter reviews one.

The screen reads the app's `HistoryStore` a page at a time: the first `FIRST_PAGE` rows paint at
once, and the next page is read when the cursor or the scroll bar comes near the end of what is
loaded, so the table opens as fast on ten thousand games as on ten. The filters (three lists) and
the all-time scores are built just after the table's first paint, in the room kept for them.
Sorting (click a column's header, or `o` for the next column and `r` to reverse) and the three
filters (opponent, result, board) ask the store again from the first page. Enter or a click on
a selected row opens the game in the Review screen; `s` lists the analysis board's studies;
escape goes back.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Select, Static

from tictactoe_tui.history.games import SORT_COLUMNS, GameSummary, HistoryFilter
from tictactoe_tui.history.record import Outcome
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.text.game import (
    MODE_WORDS,
    board_words,
    opponent_words,
    player_name,
    result_words,
    score_line_words,
)

FIRST_PAGE = 25
"""Rows read for the first paint: a screenful (each row costs the table a little)."""
PAGE = 100
"""Rows read at a time after that."""
NEAR_END = 10
"""Rows from the end of what is loaded at which the next page is read."""

COLUMNS = (
    ("date", "Date"),
    ("mode", "Mode"),
    ("opponent", "Opponent"),
    ("board", "Board"),
    ("result", "Result"),
    ("length", "Moves"),
)
"""The table's columns: (sort key in `SORT_COLUMNS`, header)."""

RESULT_CHOICES: tuple[tuple[str, Outcome], ...] = (
    ("X won", "X"),
    ("O won", "O"),
    ("Draw", "draw"),
    ("Abandoned", "abandoned"),
)
"""The result filter's options."""

ALL = "all"
"""The filters' value for "any"."""


class HistoryTable(DataTable[Text]):
    """The games' table: it says when it is scrolled near its end, so more can be loaded."""

    class NearEnd(Message):
        """The view reached the last loaded rows."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scroll as usual, and post `NearEnd` when the bottom comes into view."""
        super().watch_scroll_y(old_value, new_value)
        if new_value >= self.max_scroll_y - NEAR_END:
            self.post_message(self.NearEnd())


class HistoryScreen(Screen[None]):
    """The table of games, its filters and the all-time scores."""

    DEFAULT_CSS = """
    HistoryScreen { layout: vertical; }
    HistoryScreen #history-status { height: auto; min-height: 2; max-height: 4; padding: 0 1;
                                    background: $boost; }
    HistoryScreen #history-filters { height: 3; padding: 0 1; }
    HistoryScreen #history-filters Select { width: 1fr; margin-right: 1; }
    HistoryScreen #history-table { height: 1fr; }
    HistoryScreen #history-scores {
        height: auto;
        max-height: 7;
        border: round $primary 40%;
        border-title-color: $text-muted;
        padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("o", "next_sort", "Sort"),
        Binding("r", "reverse", "Reverse"),
        Binding("s", "studies", "Studies"),
    ]

    def __init__(self, store: HistoryStore) -> None:
        """Show the games of `store`."""
        super().__init__()
        self.store = store
        """Where the games are read from."""
        self.sort = "date"
        """The column the games are sorted by (a key of `SORT_COLUMNS`)."""
        self.descending = True
        """Whether the sort runs from the highest value (newest, longest) down."""
        self.where = HistoryFilter()
        """The filters in force."""
        self.total = 0
        """How many games match the filters."""
        self.ids: list[int] = []
        """The game id of each row loaded so far, in table order."""
        self.forfeits: dict[int, str] = {}
        """Why the loser lost, for each game lost by a fault among those loaded, by id."""
        self.painted_at: float | None = None
        """`time.perf_counter()` when the table was first painted (the benchmark reads it)."""

    def compose(self) -> ComposeResult:
        """Status, filters, the table, the all-time scores."""
        yield Static("", id="history-status", markup=False)
        yield Horizontal(id="history-filters")
        table = HistoryTable(id="history-table", cursor_type="row", zebra_stripes=True)
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        yield table
        scores = Static("…", id="history-scores", markup=False)
        scores.border_title = "All time, by opponent, difficulty and board"
        yield scores
        yield Footer()

    def on_mount(self) -> None:
        """Fill the first page; the filters' choices and the scores come after the first paint."""
        self.query_one("#history-table", DataTable).focus()
        self.reload()
        self.call_after_refresh(self._painted)
        self.call_after_refresh(self._fill_choices)

    def _painted(self) -> None:
        self.painted_at = time.perf_counter()

    def _fill_choices(self) -> None:
        """The filters, with the players and boards of the history, and the all-time scores."""
        self.query_one("#history-filters", Horizontal).mount_all(
            [
                Select(
                    [(player_name(p), p) for p in self.store.players()],
                    prompt="Any player",
                    id="filter-opponent",
                ),
                Select(list(RESULT_CHOICES), prompt="Any result", id="filter-result"),
                Select(
                    [(board_words(s, k), f"{s},{k}") for s, k in self.store.boards()],
                    prompt="Any board",
                    id="filter-board",
                ),
            ]
        )
        lines = self.store.scores()
        text = "\n".join(score_line_words(line) for line in lines) or "No games yet."
        self.query_one("#history-scores", Static).update(text)

    # -- reading the store ----------------------------------------------------------------------

    def reload(self) -> None:
        """Read the games again from the first page (after a sort or a filter change)."""
        table = self.query_one("#history-table", DataTable)
        table.clear()
        self.ids = []
        self.total = self.store.count(self.where)
        self.load_more(FIRST_PAGE)

    def load_more(self, count: int = PAGE) -> None:
        """Add the next `count` rows, if any game is still to come."""
        if self.ids and len(self.ids) >= self.total:
            return
        games = self.store.games(self.where, self.sort, self.descending, len(self.ids), count)
        self.query_one("#history-table", DataTable).add_rows([self._row(g) for g in games])
        self.ids += [game.id for game in games]
        self.forfeits.update((game.id, game.forfeit) for game in games if game.forfeit)
        self._show_status()

    @on(HistoryTable.NearEnd)
    def on_near_end(self) -> None:
        """The view reached the last rows loaded: read the next page."""
        self.load_more()

    @on(DataTable.RowHighlighted, "#history-table")
    def on_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The cursor came near the last rows loaded: read the next page."""
        if event.cursor_row >= len(self.ids) - NEAR_END:
            self.load_more()
        self._show_status()

    def _row(self, game: GameSummary) -> tuple[Text, ...]:
        # Text, not str: the table would read a str as markup, which costs (and a name with a
        # "[" in it would break).
        return tuple(
            Text(cell)
            for cell in (
                f"{game.started:%Y-%m-%d %H:%M}",
                MODE_WORDS.get(game.mode, game.mode),
                opponent_words(game.mode, game.x, game.o, game.difficulty),
                board_words(game.size, game.k),
                result_words(game),
                str(game.moves),
            )
        )

    def _highlighted_forfeit(self) -> str:
        """Why the game under the cursor was lost by a fault ("" for any other game)."""
        table = self.query_one("#history-table", DataTable)
        row = table.cursor_row
        return self.forfeits.get(self.ids[row], "") if 0 <= row < len(self.ids) else ""

    def _show_status(self) -> None:
        label = dict(COLUMNS)[self.sort].lower()
        order = "highest first" if self.descending else "lowest first"
        if self.sort == "date":
            order = "newest first" if self.descending else "oldest first"
        if not self.total:
            games = (
                "No games match these filters."
                if self.where != HistoryFilter()
                else "No games yet: finished and abandoned games appear here."
            )
        else:
            loaded = "" if len(self.ids) >= self.total else f" (showing {len(self.ids):,})"
            games = (
                f"{self.total:,} game{'s' if self.total != 1 else ''}{loaded}, "
                f"by {label}, {order}. Enter reviews a game."
            )
        keys = (
            "o sorts by the next column, r reverses; Tab reaches the filters; s: the "
            "studies; esc goes back."
        )
        status = self.query_one("#history-status", Static)
        status.update(f"{games}\n{self.store.notice or self._highlighted_forfeit() or keys}")
        status.tooltip = f"The history is kept in {self.store.path}"

    # -- sorting and filtering ------------------------------------------------------------------

    @on(DataTable.HeaderSelected, "#history-table")
    def on_header_selected(self, event: DataTable.HeaderSelected) -> None:
        """A click on a column's header sorts by it; a second click reverses the order."""
        key = str(event.column_key.value)
        if key == self.sort:
            self.descending = not self.descending
        else:
            self.sort, self.descending = key, key in ("date", "length")
        self.reload()

    def action_next_sort(self) -> None:
        """Sort by the next column."""
        keys = list(SORT_COLUMNS)
        self.sort = keys[(keys.index(self.sort) + 1) % len(keys)]
        self.descending = self.sort in ("date", "length")
        self.reload()

    def action_reverse(self) -> None:
        """Reverse the order."""
        self.descending = not self.descending
        self.reload()

    @on(Select.Changed)
    def on_filter_changed(self, event: Select.Changed) -> None:
        """Apply the three filters."""
        player = self.query_one("#filter-opponent", Select).value
        outcome = self.query_one("#filter-result", Select).value
        board = self.query_one("#filter-board", Select).value
        size_k = tuple(int(n) for n in str(board).split(",")) if isinstance(board, str) else None
        self.where = HistoryFilter(
            player=player if isinstance(player, str) else None,
            outcome=outcome if isinstance(outcome, str) else None,  # type: ignore[arg-type]
            board=(size_k[0], size_k[1]) if size_k else None,
        )
        self.reload()

    # -- opening a game -------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#history-table")
    def on_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the selected row) reviews that game."""
        self.open_game(event.cursor_row)

    def open_game(self, row: int) -> None:
        """Open the game on `row` in the Review screen."""
        if not 0 <= row < len(self.ids):
            return
        game_id = self.ids[row]
        game = self.store.game(game_id)
        if game is None:
            self.notify(f"Game {game_id} is no longer in the history.", severity="warning")
            return
        from tictactoe_tui.ui.screens.review import ReviewScreen  # its charts load when opened

        self.app.push_screen(ReviewScreen(game, self.store, game_id))

    def action_studies(self) -> None:
        """The analysis board's studies kept in the history."""
        from tictactoe_tui.ui.screens.studies import StudiesScreen

        self.app.push_screen(StudiesScreen(self.store))

    def action_back(self) -> None:
        """Back to where the history was opened from."""
        self.dismiss()
