"""The cards screen: your mistakes come back, as "find a better move" questions.

Every move of yours a review marks `?!`, `?` or `??` is kept as a card (`play.cards` makes them
when a game is reviewed, `history.cards` keeps them). This screen asks the due ones, oldest
first: it shows the position before the mistake on the board the puzzles use, and the question
("Find a better move than B1 (marked ??): O to move.") before any answer is shown. The learner
answers with a click, the arrows and Enter, or a digit on 3×3; the verdict line comes in the
panel's words, the accepted moves are ticked on the board, and `n` (or Enter) asks the next
due card. When nothing is due the screen says so, and when the next card is due. Escape goes
back. Opened with `c` from the review and from the puzzles.

The rules (which moves count, the schedule) are `play.cards.CardSession`'s; the screen only asks
and shows.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.cards import CardAnswer, CardSession, question_words, where_words
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall

TICK = "✓"
"""The faint mark on each accepted move once a card is answered."""

SIDE_MIN_WIDTH = 30
"""The narrowest the words beside the board may be."""


class CardsScreen(Screen[None]):
    """The due cards, one at a time: the question, the answer, the verdict."""

    DEFAULT_CSS = """
    CardsScreen { layout: vertical; }
    CardsScreen #cards-status { height: 3; padding: 0 1; background: $boost; }
    CardsScreen #cards-main { height: 1fr; }
    CardsScreen #cards-side { width: 1fr; padding: 0 1; min-width: 30; }
    CardsScreen #cards-words { height: auto; }
    CardsScreen #cards-standing { height: auto; margin-top: 1; color: $text-muted; }
    CardsScreen.-nothing-due #cards-board { display: none; }
    CardsScreen.-too-small #cards-main, CardsScreen.-too-small #cards-status { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
        Binding("n", "next_card", "Next card"),
        Binding("enter", "next_card", "Next card", show=False),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self, store: HistoryStore | None = None, clock: Callable[[], datetime] = datetime.now
    ) -> None:
        """The cards kept in `store`, asked by `clock`'s time (tests give their own)."""
        super().__init__()
        self.session = CardSession(store, clock)
        """The cards and the answers of this sitting."""
        self.said = ""
        """The verdict on the last card answered (shown until the next answer)."""

    def compose(self) -> ComposeResult:
        """The status, the board beside the words, the footer."""
        yield Static("", id="cards-status", markup=False)
        with Horizontal(id="cards-main"):
            yield Board(self._board_size(), id="cards-board")
            with Vertical(id="cards-side"):
                yield Static("", id="cards-words", markup=False)
                yield Static("", id="cards-standing", markup=False)
        yield TooSmall(id="cards-too-small")
        yield Footer()

    @property
    def board(self) -> Board:
        """The card's board widget."""
        return self.query_one("#cards-board", Board)

    def _board_size(self) -> int:
        card = self.session.current
        return card.board.size if card is not None else 3

    def on_mount(self) -> None:
        """Ask the first due card (or say that none is)."""
        self._ask()

    def on_resize(self, event: events.Resize) -> None:
        """Ask for a bigger terminal when the board and the words no longer fit."""
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        size = self.board.board_size
        width, height = board_size_on_screen(size)
        self.query_one(TooSmall).fit(
            (width + SIDE_MIN_WIDTH + 1, height + 3 + 1),
            f"a {size}×{size} card",
            refocus=self.board,
        )

    # -- asking and answering ---------------------------------------------------------------------

    def _ask(self) -> None:
        """Show the current card's position and question, with no answer on it."""
        self.call_later(self._show_card)

    async def _show_card(self) -> None:
        card = self.session.current
        if card is not None and self.board.board_size != card.board.size:
            old = self.board
            await old.remove()
            await self.query_one("#cards-main", Horizontal).mount(
                Board(card.board.size, id="cards-board"), before=0
            )
        self._fit_terminal()
        board = self.board
        board.interactive = card is not None
        if card is not None:
            # The centre, or (taken) the cell the mistake was played on: an empty cell either way.
            size = card.board.size
            centre = (size // 2) * (size + 1)
            board.cursor = centre if centre in card.board.legal_moves() else card.played
            board.focus()
        self._refresh()

    @on(Board.CellChosen, "#cards-board")
    def on_cell_chosen(self, event: Board.CellChosen) -> None:
        """A cell picked: the answer to the card asked."""
        event.stop()
        self._choose(event.cell)

    def action_digit(self, digit: int) -> None:
        """A digit answers a 3×3 card (1 is top-left, row by row)."""
        card = self.session.current
        if card is None or card.board.size != 3 or self.session.answer is not None:
            return
        self.board.cursor = digit - 1
        self._choose(digit - 1)

    def _choose(self, cell: int) -> None:
        if self.has_class("-too-small"):
            return  # answers wait until the board shows
        answer = self.session.choose(cell)
        if isinstance(answer, str):
            self.notify(answer, severity="warning", timeout=3)
            return
        self.said = answer.line
        self.board.interactive = False
        self._refresh()

    def action_next_card(self) -> None:
        """Ask the next due card, once this one is answered."""
        if self.session.answer is None:
            return
        self.session.next_card()
        self._ask()

    def action_back(self) -> None:
        """Back to the review or the puzzles."""
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer "next card" once the card shown is answered."""
        if action == "next_card":
            return self.session.answer is not None
        return True

    # -- drawing ----------------------------------------------------------------------------------

    def _refresh(self) -> None:
        session = self.session
        card = session.current
        status = self.query_one("#cards-status", Static)
        words = self.query_one("#cards-words", Static)
        self.query_one("#cards-standing", Static).update(session.status())
        self.set_class(card is None, "-nothing-due")
        answer = session.answer
        if card is None:
            status.update(f"Your mistakes come back\n{session.nothing_due()}\nEscape goes back.")
            words.update(self.said)
        else:
            digits = ", or a digit" if card.board.size == 3 else ""
            prompt = (
                "n or Enter: the next card · escape: back"
                if answer is not None
                else f"Your move: click a cell, or the arrows and Enter{digits}."
            )
            status.update(
                f"Your mistakes come back · {where_words(card)}\n{question_words(card)}\n{prompt}"
            )
            words.update(answer.line if answer is not None else "")
            self._draw(answer)
        self.refresh_bindings()

    def _draw(self, answer: CardAnswer | None) -> None:
        card = self.session.current
        assert card is not None
        marks = list(card.board.marks())
        ticks: dict[int, str] = {}
        last = None
        if answer is not None:
            marks[answer.cell] = str(card.board.to_move)
            last = answer.cell
            ticks = {cell: TICK for cell in card.accepted if not marks[cell]}
        self.board.show(marks, hints=ticks, last=last)
