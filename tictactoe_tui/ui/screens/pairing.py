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

Escape goes back; leaving cancels the job, so no late answer arrives.
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
from tictactoe_tui.engine.board import cell_notation
from tictactoe_tui.engine.pairing import Pairing
from tictactoe_tui.text.game import board_words
from tictactoe_tui.text.pairing import (
    answer_words,
    legend_words,
    line_words,
    no_pairing_words,
    pair_letters,
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
from tictactoe_tui.worker.jobs import PairingReport, pairing_report

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
        self.start = position
        """The position the view was opened on."""
        self.defender = defender if defender is not None else position.to_move.opponent
        """The side the pairing is for; the player plays the other one."""
        self.origin = position
        """The position the pairing is played from: `start`, or the end of the line to it."""
        self.position = position
        """The position on the board now."""
        self.report: PairingReport | None = None
        """The engine's answer about `start`, once it has come."""
        self.pairing: Pairing | None = None
        """The pairing played against (of `origin`), if there is one."""
        self.letters: dict[int, str] = {}
        """The letter of each paired cell."""
        self.phase = "looking"
        """"looking" (the engine examines the position), "playing" (the attacker's move is
        wanted), "over" (the game ended), "none" (no pairing to play against), "failed"."""
        self.turns: list[str] = []
        """A sentence for each turn played against the pairing."""
        self.line_played = 0
        """Plies of the line to a pairing played so far."""
        self.last: int | None = None
        """The cell played last on the board (None: none since the view opened)."""

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
        return self.phase == "looking"

    def on_mount(self) -> None:
        """Ask the engine about the position."""
        self._fit_terminal()
        board = self.board
        board.cursor = (self.start.size // 2) * (self.start.size + 1)
        board.focus()
        if self.start.is_over:
            self.phase = "none"
            self._refresh()
            return
        self._refresh()
        self._examine(self.start, self.defender)

    def on_resize(self, event: events.Resize) -> None:
        """Ask for a bigger terminal when the board and the words no longer fit."""
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        size = self.start.size
        self.query_one(TooSmall).fit(needed_terminal(size), f"the pairing view of {size}×{size}",
                                     refocus=self.board)

    # -- the engine ------------------------------------------------------------------------------

    @work(exclusive=True, group="pairing", exit_on_error=False)
    async def _examine(self, position: Position, defender: Mark) -> None:
        """Examine `position` for `defender`'s pairing (in the worker on big boards)."""
        try:
            report = await app_thinker(self).run(
                pairing_report, position, defender,
                in_process=position.size <= IN_PROCESS_MAX_SIZE)
        except JobFailed as error:
            self.phase = "failed"
            self.notify(f"The engine could not answer: {error}", severity="error")
            self._refresh()
            return
        self._answered(report)

    def _answered(self, report: PairingReport) -> None:
        """The engine's answer: play against the pairing, or say why there is none."""
        self.report = report
        if isinstance(report.found, Pairing):
            self._play_against(report.found)
        else:
            self.phase = "none"
            self._refresh()

    def _play_against(self, pairing: Pairing) -> None:
        """Letter `pairing`'s pairs on the board and wait for the attacker's move."""
        self.pairing = pairing
        self.letters = pair_letters(pairing)
        self.origin = self.position
        self.turns = []
        self.phase = "playing"
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
        notice = self._refusal(cell)
        if notice:
            self.notify(notice, severity="warning", timeout=3)
            return
        pairing = self.pairing
        assert pairing is not None  # `_refusal` says so otherwise
        position = self.position.play(cell)
        reply = pairing.reply(position, cell)
        if reply is not None:
            position = position.play(reply)
        self.position = position
        self.last = cell if reply is None else reply
        self.turns.append(answer_words(pairing, self.letters, cell, reply, position.size))
        if position.is_over:
            self.phase = "over"
        self._refresh()

    def _refusal(self, cell: int) -> str:
        """Why the attacker may not take `cell` now ("" when it may)."""
        if self.phase == "looking":
            return "Still looking for a pairing: a moment."
        if self.phase == "over":
            return "The game is over: r plays again from the start."
        if self.phase != "playing":
            if self.report is not None and self.report.line is not None:
                return "There is no pairing here to play against: l steps along the line to one."
            return "There is no pairing here to play against."
        if self.position[cell] is not None:
            return f"{cell_notation(cell, self.position.size)} is taken: pick an empty cell."
        return ""

    # -- keys ------------------------------------------------------------------------------------

    def action_step_line(self) -> None:
        """One more ply of the line to a pairing; at its end, play against that pairing."""
        report = self.report
        if report is None or report.line is None or self.phase != "none":
            return
        line = report.line
        if self.line_played < len(line.moves):
            self.last = line.moves[self.line_played]
            self.position = self.position.play(self.last)
            self.line_played += 1
        if self.line_played == len(line.moves):
            self._play_against(line.pairing)
        else:
            self._refresh()

    def action_restart(self) -> None:
        """The game against the pairing again, from the position it was found in."""
        if self.pairing is None:
            return
        self.position = self.origin
        self.last = None
        self.turns = []
        self.phase = "playing"
        self._refresh()

    def action_back(self) -> None:
        """Back to the game."""
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer `l` while a line to a pairing is there to step along, `r` once a game against
        the pairing has begun."""
        if action == "step_line":
            return self.phase == "none" and self.report is not None \
                and self.report.line is not None
        if action == "restart":
            return self.pairing is not None and bool(self.turns)
        return True

    # -- drawing ---------------------------------------------------------------------------------

    def _refresh(self) -> None:
        """The status, the board and the words from the state."""
        headline, words = self._words()
        self.query_one("#pairing-status", Static).update(f"{headline}\n{self._prompt()}")
        self.query_one("#pairing-words", Static).update("\n\n".join(words))
        self.query_one("#pairing-side", VerticalScroll).scroll_end(animate=False)
        steps: dict[int, tuple[int, str]] = {}
        report = self.report
        if self.phase == "none" and report is not None and report.line is not None:
            mover = self.position
            for number, move in enumerate(report.line.moves[self.line_played:],
                                          start=self.line_played + 1):
                steps[move] = (number, mover.to_move.value)
                mover = mover.play(move)
        self.board.show_pairs(self.position.marks(), self.letters, line=steps, last=self.last)
        self.refresh_bindings()

    def _words(self) -> tuple[str, list[str]]:
        """The headline and the paragraphs beside the board."""
        shape = board_words(self.start.size, self.start.k)
        o = self.defender.value
        if self.start.is_over:
            return "The game is over: there is nothing left to pair.", [
                "Open this view (d) during a game to see whether the side that moved last "
                "has a pairing."]
        if self.phase == "looking":
            return f"Looking for a pairing for {o} on {shape}…", []
        if self.phase == "failed" or self.report is None:
            return "The engine could not examine this position.", []
        if self.pairing is None:
            return self._no_pairing_words(shape)
        headline, explanation = pairing_words(self.pairing)
        words = [explanation, legend_words(len(self.pairing.pairs))]
        if self.origin is not self.start and self.report.line is not None:
            words.insert(0, line_words(self.start, self.report.line))
        words.append(spent_words(self.pairing, self.letters, self.position))
        words += [f"{number}. {turn}" for number, turn in enumerate(self.turns, start=1)]
        if self.phase == "over":
            words.append(result_words(self.position, self.pairing.attacker))
        return headline, words

    def _no_pairing_words(self, shape: str) -> tuple[str, list[str]]:
        """Why there is no pairing, what search proved, and the line to one."""
        report = self.report
        assert report is not None and not isinstance(report.found, Pairing)
        headline, reason = no_pairing_words(report.found, self.start.size)
        words = [f"On {shape}: {reason}"]
        proven = search_words(report.band, self.start.to_move)
        if proven:
            words.append(proven)
        if report.line is not None:
            words.append(line_words(self.start, report.line))
            if self.line_played < len(report.line.moves):
                left = len(report.line.moves) - self.line_played
                words.append(f"The line is numbered on the board: l plays its next move "
                             f"({left} to go), and at its end you play "
                             f"{report.line.pairing.attacker.value} against the pairing.")
        return headline, words

    def _prompt(self) -> str:
        """What the player can do now."""
        x = self.defender.opponent.value
        if self.phase == "playing":
            return (f"You play {x}: click a cell, or the arrows and Enter"
                    f"{' (or 1–9)' if self.start.size == 3 else ''}; {self.defender.value} "
                    "answers by the pairing.")
        if self.phase == "over":
            assert self.pairing is not None
            return f"{result_words(self.position, self.pairing.attacker)} r: again."
        if self.phase == "none" and self.report is not None and self.report.line is not None:
            return "l: step along the line to a pairing · escape: back"
        if self.phase == "looking":
            return "A moment…"
        return "escape: back"
