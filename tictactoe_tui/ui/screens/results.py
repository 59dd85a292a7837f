"""The Results dialog: who won, the session's score, and what to do next.

It sits over the game board (the winning line stays lit underneath) and dismisses with the
player's choice: "again", "review", "settings", "quit", or "look" (Escape: close the dialog to
look at the final board and the panel). The Game screen acts on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tictactoe_tui.ui.widgets import Scoreboard


class ResultsScreen(ModalScreen[str]):
    """A dialog on the right of the board: the result, the scoreboard, and four choices."""

    DEFAULT_CSS = """
    ResultsScreen {
        align: right middle;
        background: $background 30%;
    }
    ResultsScreen #results-dialog {
        width: 50;
        height: auto;
        margin: 0 2;
        padding: 1 2;
        border: thick $accent;
        background: $surface;
    }
    ResultsScreen #results-headline {
        width: 100%;
        text-align: center;
        text-style: bold;
        color: $text-accent;
    }
    ResultsScreen #results-detail {
        width: 100%;
        text-align: center;
        margin: 1 0;
    }
    ResultsScreen #results-keys {
        width: 100%;
        text-align: center;
        color: $text-muted;
        margin-top: 1;
    }
    ResultsScreen #results-buttons { height: auto; align: center middle; margin-top: 1; }
    ResultsScreen Button { min-width: 9; margin: 0 1; }
    ResultsScreen.-compact { align: center middle; }
    ResultsScreen.-compact #results-dialog {
        width: 100%;
        max-width: 50;
        margin: 0;
        padding: 0 1;
        border: round $accent;
    }
    ResultsScreen.-compact #results-detail, ResultsScreen.-compact #results-keys,
    ResultsScreen.-compact #results-buttons { margin: 0; }
    ResultsScreen.-compact #results-scoreboard { border: none; min-width: 0; }
    ResultsScreen.-compact Button { min-width: 0; margin: 0; }
    """

    COMPACT_BELOW = (56, 22)
    """A terminal narrower or shorter than this (width, height) gets the dialog without its
    margins and frames, so that it fits the game's compact layout (40×13 at the least)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('again')", "Play again"),
        Binding("enter", "choose('again')", "Play again", show=False),
        Binding("v", "choose('review')", "Review"),
        Binding("s", "choose('settings')", "Settings"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "choose('look')", "Look at the board"),
    ]

    def __init__(
        self,
        headline: str,
        detail: str,
        tally: Sequence[tuple[str, int]],
        all_time: Sequence[tuple[str, int]] | None = None,
    ) -> None:
        """`headline` like "You win!", a line of `detail`, the session's (label, count)s and
        the all-time ones of games like this (if known)."""
        super().__init__()
        self.headline = headline
        """The result in a few words: "You win!", "Computer wins", "Draw", "X wins"."""
        self.detail = detail
        """How the game ended, in one sentence."""
        self.tally = tuple(tally)
        """The session's score after this game."""
        self.all_time = None if all_time is None else tuple(all_time)
        """The all-time score of games like this one, this one included."""

    def compose(self) -> ComposeResult:
        """The headline, how it ended, the score, the keys and the buttons."""
        with Vertical(id="results-dialog"):
            yield Static(self.headline, id="results-headline", markup=False)
            yield Static(units_kept(self.detail), id="results-detail", markup=False)
            yield Scoreboard(self.tally, self.all_time, id="results-scoreboard")
            yield Static(
                "r again · v review · s settings · q quit\nEscape: look at the board",
                id="results-keys",
                markup=False,
            )
            with Horizontal(id="results-buttons"):
                # Not focusable: Enter always means "play again", whatever was clicked last.
                yield Button("Again", id="again", variant="primary", compact=True)
                yield Button("Review", id="review", compact=True)
                yield Button("Settings", id="settings", compact=True)
                yield Button("Quit", id="quit", variant="error", compact=True)

    def on_mount(self) -> None:
        """Keep the keyboard on the dialog's bindings rather than on a button."""
        for button in self.query(Button):
            button.can_focus = False
        self.on_resize()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """In a small terminal, the dialog without its margins and frames."""
        width, height = self.COMPACT_BELOW
        self.set_class(self.app.size.width < width or self.app.size.height < height, "-compact")

    def action_choose(self, choice: str) -> None:
        """Close the dialog with the player's choice."""
        self.dismiss(choice)

    @on(Button.Pressed)
    def on_button(self, event: Button.Pressed) -> None:
        """The mouse way to the same four choices."""
        if event.button.id:
            self.dismiss(event.button.id)


_NUMBER_AND_UNIT = re.compile(r"(\d) (s|ms|%)(?=\W|$)")


def units_kept(text: str) -> str:
    """`text` with each number written against its unit ("6s"), so the dialog never wraps
    "0.5 s + 6 s grace" between the 6 and its s (Textual breaks lines at no-break spaces too)."""
    return _NUMBER_AND_UNIT.sub(r"\1\2", text)
