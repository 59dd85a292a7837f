"""The pairing view ("why a draw"): a pairing strategy drawn on the board, to play against.

The game screen pushes it with its position (key `d`); the defender is the side that moved
last, the one that answers. The position goes to the engine as a job
(`worker.jobs.pairing_report`: in a thread here on boards up to 5×5, in the app's worker process
above, where an open board's pairing search and the search for its value take a second or two),
and the screen says it is looking meanwhile. The answer is one of:

- a pairing: its pairs are lettered on `#pairing-board` (cells with the same letter form a
  pair) and the player plays the attacker against it (a click, the arrows and Enter, digits on
  3×3). The defender answers at once by `Pairing.reply`: the partner of the attacker's cell, or
  any free cell (an unpaired one first) when the attacker took a cell in no pair; each turn gets
  its sentence, the spent pairs are counted, and the end of the game is said (`r` plays again);
- no pairing: why, in counts a reader can check (`text.pairing.no_pairing_words`), with the
  value a search proved (a draw proven by search, not by a pairing) and, where the engine finds
  one, a short line after which the defender has a pairing: `l` plays it one ply at a time, and
  its end becomes the position played against.

The rules (the phases, the moves, the line, playing again) live in `play.pairing.PairingPlay`;
this screen asks the engine, hands it the answer, and draws what it holds. Escape goes back;
leaving cancels the job, so no late answer arrives.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import Mark
from tictactoe_tui.engine.proofs.pairing import Pairing
from tictactoe_tui.play.pairing import PairingPhase, PairingPlay
from tictactoe_tui.text.game import board_words
from tictactoe_tui.text.pairing import (
    legend_words,
    line_words,
    no_pairing_words,
    pairing_words,
    result_words,
    search_words,
    spent_words,
)
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.pairing_board import PairingBoard
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed
from tictactoe_tui.worker.jobs import pairing_report

IN_PROCESS_MAX_SIZE = 5
"""Boards up to this size are examined in a thread here: a few milliseconds, no worker needed."""

SIDE_MIN_WIDTH = 34
"""The narrowest the words beside the board may be."""

STATUS_LINES = 2
"""Lines of the status over the board: the headline, then what to do now."""


def needed_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows the pairing view of a size×size board."""
    width, height = board_size_on_screen(size)
    return width + SIDE_MIN_WIDTH + 1, height + STATUS_LINES + 1


class PairingScreen(Screen[None]):
    """Why a position is a draw, when a pairing strategy proves it; play the attacker against
    it."""

    DEFAULT_CSS = """
    PairingScreen { layout: vertical; }
    PairingScreen #pairing-status { height: 2; padding: 0 1; background: $boost; }
    PairingScreen #pairing-main { height: 1fr; }
    PairingScreen #pairing-side { width: 1fr; height: 1fr; padding: 0 1; min-width: 34; }
    PairingScreen #pairing-words { height: auto; }
    PairingScreen.-too-small #pairing-main, PairingScreen.-too-small #pairing-status {
        display: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
        Binding("l", "step_line", "Line to a pairing"),
        Binding("r", "restart", "Again"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, position: Position, defender: Mark | None = None) -> None:
        """The pairing view of `position` for `defender` (default: the side that moved last)."""
        super().__init__()
        self.controller = PairingPlay(position, defender)
        """The view's rules: its phase, the pairing, the game played against it."""

    @property
    def phase(self) -> PairingPhase:
        """Where the view is (looking, playing, over, none, failed)."""
        return self.controller.phase

    @property
    def start(self) -> Position:
        """The position the view was opened on."""
        return self.controller.start

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The status, the board beside the words, the footer."""
        yield Static("", id="pairing-status", markup=False)
        with Horizontal(id="pairing-main"):
            yield PairingBoard(self.start.size, id="pairing-board")
            with VerticalScroll(id="pairing-side", can_focus=False):
                yield Static("", id="pairing-words", markup=False)
        yield TooSmall(id="pairing-too-small")
        yield Footer()

    @property
    def board(self) -> PairingBoard:
        """The lettered board."""
        return self.query_one("#pairing-board", PairingBoard)

    @property
    def busy(self) -> bool:
        """True while the engine examines the position."""
        return self.phase is PairingPhase.LOOKING

    def on_mount(self) -> None:
        """Ask the engine about the position (unless the game is over there)."""
        self._fit_terminal()
        board = self.board
        board.cursor = (self.start.size // 2) * (self.start.size + 1)
        board.focus()
        self._refresh()
        if self.phase is PairingPhase.LOOKING:
            self._examine(self.start, self.controller.defender)

    def on_resize(self, event: events.Resize) -> None:
        """Ask for a bigger terminal when the board and the words no longer fit."""
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        size = self.start.size
        self.query_one(TooSmall).fit(
            needed_terminal(size), f"the pairing view of {size}×{size}", refocus=self.board
        )

    # -- the engine ------------------------------------------------------------------------------

    @work(exclusive=True, group="pairing", exit_on_error=False)
    async def _examine(self, position: Position, defender: Mark) -> None:
        """Examine `position` for `defender`'s pairing (in the worker on big boards)."""
        try:
            report = await app_thinker(self).run(
                pairing_report, position, defender, in_process=position.size <= IN_PROCESS_MAX_SIZE
            )
        except JobFailed as error:
            self.controller.failed()
            self.notify(f"The engine could not answer: {error}", severity="error")
            self._refresh()
            return
        self.controller.answered(report)
        self._refresh()

    # -- the attacker's moves --------------------------------------------------------------------

    @on(PairingBoard.CellChosen, "#pairing-board")
    def on_cell_chosen(self, event: PairingBoard.CellChosen) -> None:
        """A cell picked: the attacker's move, and the defender's answer at once."""
        event.stop()
        self.play(event.cell)

    def action_place_digit(self, digit: int) -> None:
        """1–9 play a cell of a 3×3 board (1 is top-left, row by row)."""
        if self.start.size == 3:
            self.play(digit - 1)

    def play(self, cell: int) -> None:
        """The attacker takes `cell` and the defender answers by the pairing; a move that cannot
        be made now gets a one-line notice and changes nothing."""
        if self.has_class("-too-small"):
            return  # moves wait until the board shows
        notice = self.controller.play(cell)
        if notice:
            self.notify(notice, severity="warning", timeout=3)
            return
        self._refresh()

    # -- keys ------------------------------------------------------------------------------------

    def action_step_line(self) -> None:
        """One more ply of the line to a pairing; at its end, play against that pairing."""
        self.controller.step_line()
        self._refresh()

    def action_restart(self) -> None:
        """The game against the pairing again, from the position it was found in."""
        self.controller.restart()
        self._refresh()

    def action_back(self) -> None:
        """Back to the game."""
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer `l` while a line to a pairing is there to step along, `r` once a game against
        the pairing has begun."""
        if action == "step_line":
            return self.controller.can_step_line
        if action == "restart":
            return self.controller.can_restart
        return True

    # -- drawing ---------------------------------------------------------------------------------

    def _refresh(self) -> None:
        """The status, the board and the words from the state."""
        headline, words = self._words()
        self.query_one("#pairing-status", Static).update(f"{headline}\n{self._prompt()}")
        self.query_one("#pairing-words", Static).update("\n\n".join(words))
        self.query_one("#pairing-side", VerticalScroll).scroll_end(animate=False)
        play = self.controller
        self.board.show_pairs(
            play.position.marks(), play.letters, line=play.line_steps(), last=play.last
        )
        self.refresh_bindings()

    def _words(self) -> tuple[str, list[str]]:
        """The headline and the paragraphs beside the board."""
        play = self.controller
        shape = board_words(self.start.size, self.start.k)
        o = play.defender.value
        if self.start.is_over:
            return "The game is over: there is nothing left to pair.", [
                "Open this view (d) during a game to see whether the side that moved last "
                "has a pairing."
            ]
        if play.phase is PairingPhase.LOOKING:
            return f"Looking for a pairing for {o} on {shape}…", []
        if play.phase is PairingPhase.FAILED or play.report is None:
            return "The engine could not examine this position.", []
        if play.pairing is None:
            return self._no_pairing_words(shape)
        headline, explanation = pairing_words(play.pairing)
        words = [explanation, legend_words(len(play.pairing.pairs))]
        if play.origin is not self.start and play.report.line is not None:
            words.insert(0, line_words(self.start, play.report.line))
        words.append(spent_words(play.pairing, play.letters, play.position))
        words += [f"{number}. {turn}" for number, turn in enumerate(play.turns, start=1)]
        if play.phase is PairingPhase.OVER:
            words.append(result_words(play.position, play.pairing.attacker))
        return headline, words

    def _no_pairing_words(self, shape: str) -> tuple[str, list[str]]:
        """Why there is no pairing, what search proved, and the line to one."""
        report = self.controller.report
        assert report is not None and not isinstance(report.found, Pairing)
        headline, reason = no_pairing_words(report.found, self.start.size)
        words = [f"On {shape}: {reason}"]
        proven = search_words(report.band, self.start.to_move)
        if proven:
            words.append(proven)
        if report.line is not None:
            words.append(line_words(self.start, report.line))
            if self.controller.line_played < len(report.line.moves):
                left = len(report.line.moves) - self.controller.line_played
                words.append(
                    f"The line is numbered on the board: l plays its next move "
                    f"({left} to go), and at its end you play "
                    f"{report.line.pairing.attacker.value} against the pairing."
                )
        return headline, words

    def _prompt(self) -> str:
        """What the player can do now."""
        play = self.controller
        x = play.defender.opponent.value
        if play.phase is PairingPhase.PLAYING:
            return (
                f"You play {x}: click a cell, or the arrows and Enter"
                f"{' (or 1–9)' if self.start.size == 3 else ''}; {play.defender.value} "
                "answers by the pairing."
            )
        if play.phase is PairingPhase.OVER:
            assert play.pairing is not None
            return f"{result_words(play.position, play.pairing.attacker)} r: again."
        if play.can_step_line:
            return "l: step along the line to a pairing · escape: back"
        if play.phase is PairingPhase.LOOKING:
            return "A moment…"
        return "escape: back"
