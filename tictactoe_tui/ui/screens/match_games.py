"""The match's games: every game of the match runner's last match, each one opened in the review.

Opened with `g` from the Match screen. One row per finished game: its number, which player had
X, who won, how many moves (and how many of them were the random opening). Enter (or a click on
the selected row) opens the game in the Review screen, every move judged as a played game's;
escape goes back to the match.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tictactoe_tui.engine import Mark
from tictactoe_tui.engine.players.match import GameOutcome, MatchResult
from tictactoe_tui.history.record import played_from_match

COLUMNS = ("Game", "X", "O", "Result", "Moves", "Opening")
"""The table's columns."""


class MatchGamesScreen(Screen[None]):
    """The table of a match's games; Enter reviews one."""

    DEFAULT_CSS = """
    MatchGamesScreen { layout: vertical; }
    MatchGamesScreen #match-games-status { height: 2; padding: 0 1; background: $boost; }
    MatchGamesScreen #match-games-table { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(self, result: MatchResult) -> None:
        """The games of `result` (a match finished, cancelled, or still running: those done)."""
        super().__init__()
        self.result = result
        """The match."""
        self._when = datetime.now().replace(microsecond=0)

    def compose(self) -> ComposeResult:
        """The status, the table, the footer."""
        result = self.result
        yield Static(
            f"{result.games} game{'s' if result.games != 1 else ''} of x = {result.x} "
            f"against o = {result.o}. Enter reviews a game, every move judged; esc "
            "goes back.",
            id="match-games-status",
            markup=False,
        )
        table: DataTable[Text] = DataTable(
            id="match-games-table", cursor_type="row", zebra_stripes=True
        )
        table.add_columns(*COLUMNS)
        table.add_rows([self._row(game) for game in result.outcomes])
        yield table
        yield Footer()

    def on_mount(self) -> None:
        """The table takes the keys."""
        self.query_one("#match-games-table", DataTable).focus()

    def _row(self, game: GameOutcome) -> tuple[Text, ...]:
        x_side, o_side = ("x", "o") if game.x_mark is Mark.X else ("o", "x")
        winner = game.winning_side
        words = "draw" if winner is None else f"{winner} won as {game.mark_of(winner)}"
        if game.forfeit is not None:
            words += f" ({game.forfeit.side} lost by a fault)"
        return tuple(
            Text(cell)
            for cell in (
                str(game.index + 1),
                x_side,
                o_side,
                words,
                str(len(game.moves)),
                str(game.opening),
            )
        )

    @on(DataTable.RowSelected, "#match-games-table")
    def on_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the selected row) reviews that game."""
        result = self.result
        if not 0 <= event.cursor_row < len(result.outcomes):
            return
        game = played_from_match(
            result.outcomes[event.cursor_row], result.x, result.o, result.size, result.k, self._when
        )
        from tictactoe_tui.ui.screens.review import ReviewScreen  # its charts load when opened

        self.app.push_screen(ReviewScreen(game))

    def action_back(self) -> None:
        """Back to the match."""
        self.dismiss()
