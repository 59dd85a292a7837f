"""The Studies screen: every study of the analysis board kept in the history; Enter reopens one.

Opened with `s` from the History screen. The table lists each study, the last saved first: when
it was saved, its board, its root position, how many moves and variations it holds. Enter (or a
click on the selected row) reopens the study on the analysis board with every variation, where
`k` saves it again in its place; `Delete` forgets the study shown; escape goes back.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tictactoe_tui.history.record import study_from_record
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.studies import StudySummary
from tictactoe_tui.text.game import board_words
from tictactoe_tui.ui.messages import Analyse

COLUMNS = ("Saved", "Board", "Root position", "Moves", "Variations")
"""The table's columns."""


class StudiesScreen(Screen[None]):
    """The table of studies kept."""

    DEFAULT_CSS = """
    StudiesScreen { layout: vertical; }
    StudiesScreen #studies-status { height: 2; padding: 0 1; background: $boost; }
    StudiesScreen #studies-table { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("delete", "forget", "Delete", key_display="del"),
    ]

    def __init__(self, store: HistoryStore) -> None:
        """The studies of `store`."""
        super().__init__()
        self.store = store
        """Where the studies are kept."""
        self.ids: list[int] = []
        """The study id of each row, in table order."""

    def compose(self) -> ComposeResult:
        """The status, the table, the footer."""
        yield Static("", id="studies-status", markup=False)
        table: DataTable[Text] = DataTable(
            id="studies-table", cursor_type="row", zebra_stripes=True
        )
        table.add_columns(*COLUMNS)
        yield table
        yield Footer()

    def on_mount(self) -> None:
        """Fill the table."""
        self.query_one("#studies-table", DataTable).focus()
        self.reload()

    def on_screen_resume(self) -> None:
        """Back from a study: it may have been saved again."""
        self.reload()

    def reload(self) -> None:
        """Read the studies again."""
        table = self.query_one("#studies-table", DataTable)
        row = table.cursor_row
        table.clear()
        studies = self.store.studies()
        self.ids = [study.id for study in studies]
        table.add_rows([_row(study) for study in studies])
        if studies:
            table.move_cursor(row=min(row, len(studies) - 1))
        count = (
            f"{len(studies)} stud{'y' if len(studies) == 1 else 'ies'}, the last saved "
            "first. Enter reopens one on the analysis board."
            if studies
            else "No studies yet: k on the analysis board (e in a game) keeps one."
        )
        keys = "del forgets the study under the cursor; esc goes back."
        self.query_one("#studies-status", Static).update(f"{count}\n{self.store.notice or keys}")

    @on(DataTable.RowSelected, "#studies-table")
    def on_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the selected row) reopens that study."""
        self.open_study(event.cursor_row)

    def open_study(self, row: int) -> None:
        """Reopen the study on `row` on the analysis board (the app opens it)."""
        if not 0 <= row < len(self.ids):
            return
        study_id = self.ids[row]
        record = self.store.study(study_id)
        if record is None:
            self.notify(f"Study {study_id} is no longer in the history.", severity="warning")
            return
        try:
            tree = study_from_record(record)
        except ValueError as error:
            self.notify(f"Study {study_id} cannot be read: {error}", severity="error")
            return
        self.post_message(Analyse(tree, study_id=study_id))

    def action_forget(self) -> None:
        """Forget the study under the cursor."""
        row = self.query_one("#studies-table", DataTable).cursor_row
        if not 0 <= row < len(self.ids):
            return
        study_id = self.ids[row]
        if not self.store.owns_study(study_id):
            self.notify(
                f"Study {study_id} was not made in this browser tab: it is kept (a served game "
                "deletes only the studies it made).",
                severity="warning",
            )
        elif self.store.delete_study(study_id):
            self.notify(f"Study {study_id} deleted.")
        else:
            self.notify(
                f"Study {study_id} could not be deleted: the history cannot be written.",
                severity="warning",
            )
        self.reload()

    def action_back(self) -> None:
        """Back to the history."""
        self.dismiss()


def _row(study: StudySummary) -> tuple[Text, ...]:
    return tuple(
        Text(cell)
        for cell in (
            f"{study.saved:%Y-%m-%d %H:%M}",
            board_words(study.size, study.k),
            study.root,
            str(study.moves),
            str(study.variations),
        )
    )
