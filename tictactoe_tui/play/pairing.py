"""The rules of the pairing view ("why a draw"), without Textual: its phases and moves.

The screen asks the engine about a position (`worker.jobs.pairing_report`) and hands the answer
here; from then on this decides: whether the attacker may take a cell (and why not), the
defender's answer by the pairing, the steps of the line to a pairing, playing again. The screen
draws what `PairingPlay` holds and says what `play` returns.
"""

from __future__ import annotations

from enum import StrEnum

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.proofs.pairing import Pairing
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.pairing import answer_words, pair_letters
from tictactoe_tui.worker.jobs import PairingReport


class PairingPhase(StrEnum):
    """Where the pairing view is."""

    LOOKING = "looking"
    """The engine examines the position."""
    PLAYING = "playing"
    """A pairing is lettered on the board: the attacker's move is wanted."""
    OVER = "over"
    """The game against the pairing ended."""
    NONE = "none"
    """No pairing to play against (maybe a line to one, to step along)."""
    FAILED = "failed"
    """The engine could not answer."""


class PairingPlay:
    """A position, the defender's pairing (once found) and the game played against it."""

    def __init__(self, position: Board, defender: Mark | None = None) -> None:
        """The view of `position` for `defender` (default: the side that moved last)."""
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
        self.phase = PairingPhase.NONE if position.is_over else PairingPhase.LOOKING
        """Where the view is (nothing to look for once the game is over)."""
        self.turns: list[str] = []
        """A sentence for each turn played against the pairing."""
        self.line_played = 0
        """Plies of the line to a pairing played so far."""
        self.last: int | None = None
        """The cell played last on the board (None: none since the view opened)."""

    @property
    def has_line(self) -> bool:
        """Whether the engine found a line to a pairing (there being none here)."""
        return self.report is not None and self.report.line is not None

    # -- the engine's answer ----------------------------------------------------------------------

    def answered(self, report: PairingReport) -> None:
        """The engine's answer: play against the pairing, or there is none."""
        self.report = report
        if isinstance(report.found, Pairing):
            self._play_against(report.found)
        else:
            self.phase = PairingPhase.NONE

    def failed(self) -> None:
        """The engine could not answer."""
        self.phase = PairingPhase.FAILED

    def _play_against(self, pairing: Pairing) -> None:
        self.pairing = pairing
        self.letters = pair_letters(pairing)
        self.origin = self.position
        self.turns = []
        self.phase = PairingPhase.PLAYING

    # -- the attacker's moves ---------------------------------------------------------------------

    def play(self, cell: int) -> str:
        """The attacker takes `cell` and the defender answers by the pairing; returns "" or,
        when the move cannot be made now, why (and nothing changes)."""
        refusal = self.refusal(cell)
        if refusal:
            return refusal
        pairing = self.pairing
        assert pairing is not None  # `refusal` says so otherwise
        position = self.position.play(cell)
        reply = pairing.reply(position, cell)
        if reply is not None:
            position = position.play(reply)
        self.position = position
        self.last = cell if reply is None else reply
        self.turns.append(answer_words(pairing, self.letters, cell, reply, position.size))
        if position.is_over:
            self.phase = PairingPhase.OVER
        return ""

    def refusal(self, cell: int) -> str:
        """Why the attacker may not take `cell` now ("" when it may)."""
        if self.phase is PairingPhase.LOOKING:
            return "Still looking for a pairing: a moment."
        if self.phase is PairingPhase.OVER:
            return "The game is over: r plays again from the start."
        if self.phase is not PairingPhase.PLAYING:
            if self.has_line:
                return "There is no pairing here to play against: l steps along the line to one."
            return "There is no pairing here to play against."
        if self.position[cell] is not None:
            return f"{cell_notation(cell, self.position.size)} is taken: pick an empty cell."
        return ""

    # -- the line to a pairing, and again ---------------------------------------------------------

    @property
    def can_step_line(self) -> bool:
        """Whether `l` has a line to step along."""
        return self.phase is PairingPhase.NONE and self.has_line

    def step_line(self) -> None:
        """One more ply of the line to a pairing; at its end, play against that pairing."""
        report = self.report
        if not self.can_step_line or report is None or report.line is None:
            return
        line = report.line
        if self.line_played < len(line.moves):
            self.last = line.moves[self.line_played]
            self.position = self.position.play(self.last)
            self.line_played += 1
        if self.line_played == len(line.moves):
            self._play_against(line.pairing)

    def line_steps(self) -> dict[int, tuple[int, str]]:
        """The rest of the line to a pairing, numbered on the board with the mark playing each
        step (empty when there is none to show)."""
        report = self.report
        if not self.can_step_line or report is None or report.line is None:
            return {}
        steps: dict[int, tuple[int, str]] = {}
        mover = self.position
        for number, move in enumerate(
            report.line.moves[self.line_played :], start=self.line_played + 1
        ):
            steps[move] = (number, mover.to_move.value)
            mover = mover.play(move)
        return steps

    @property
    def can_restart(self) -> bool:
        """Whether a game against the pairing has begun (so `r` can play it again)."""
        return self.pairing is not None and bool(self.turns)

    def restart(self) -> None:
        """The game against the pairing again, from the position it was found in."""
        if self.pairing is None:
            return
        self.position = self.origin
        self.last = None
        self.turns = []
        self.phase = PairingPhase.PLAYING
