"""The New game dialog, asked only after "play from here": start again from that position, or
from an empty board. It dismisses with True (the position), False (the empty board) or None
(Escape: carry on with the game on the board)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class NewGameDialog(ModalScreen[bool | None]):
    """Where the next game starts: the review's position, or an empty board."""

    DEFAULT_CSS = """
    NewGameDialog { align: center middle; background: $background 30%; }
    NewGameDialog #new-game-dialog {
        width: 56;
        height: auto;
        padding: 1 2;
        border: thick $accent;
        background: $surface;
    }
    NewGameDialog #new-game-question { width: 100%; text-align: center; margin-bottom: 1; }
    NewGameDialog #new-game-buttons { height: auto; align: center middle; }
    NewGameDialog Button { margin: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose(True)", "From the position"),
        Binding("e", "choose(False)", "Empty board"),
        Binding("escape", "choose(None)", "Cancel"),
    ]

    def __init__(self, setup_moves: int) -> None:
        """`setup_moves`: how many moves the position the games start from has."""
        super().__init__()
        self.setup_moves = setup_moves
        """The moves played before the first move of each game here."""

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        moves = "move" if self.setup_moves == 1 else "moves"
        with Vertical(id="new-game-dialog"):
            yield Static(
                f"New game: from the position after {self.setup_moves} {moves} "
                '(where you chose "play from here"), or from an empty board?',
                id="new-game-question",
            )
            with Horizontal(id="new-game-buttons"):
                yield Button("From the position (p)", id="from-position", variant="primary")
                yield Button("Empty board (e)", id="empty-board")

    def on_mount(self) -> None:
        """The position first: Enter keeps playing from where the review left off."""
        self.query_one("#from-position", Button).focus()

    @on(Button.Pressed, "#from-position")
    def _from_position(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#empty-board")
    def _empty_board(self) -> None:
        self.dismiss(False)

    def action_choose(self, from_position: bool | None) -> None:
        """Close the dialog with the choice."""
        self.dismiss(from_position)
