"""The pairing view's rules, without a terminal: its phases, the moves, the line, again."""

from __future__ import annotations

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.play.pairing import PairingPhase, PairingPlay
from tictactoe_tui.worker.jobs import pairing_report


def examined(board: Board) -> PairingPlay:
    play = PairingPlay(board)
    assert play.phase is PairingPhase.LOOKING
    play.answered(pairing_report(board, play.defender))
    return play


def test_a_pairing_is_played_against_to_a_draw_and_again() -> None:
    play = examined(Board.empty(5, 5))
    assert play.phase is PairingPhase.PLAYING and play.defender is Mark.O
    assert play.refusal(12) == "" and play.letters
    while play.phase is PairingPhase.PLAYING:
        assert play.play(play.position.marks().index("")) == ""
    assert play.phase is PairingPhase.OVER and play.position.winner is None
    assert play.play(0) == "The game is over: r plays again from the start."
    assert play.can_restart
    play.restart()
    assert play.phase is PairingPhase.PLAYING and play.position == Board.empty(5, 5)
    assert not play.turns


def test_a_taken_cell_is_refused_and_changes_nothing() -> None:
    play = examined(Board.empty(5, 5))
    play.play(12)
    before = play.position
    assert play.play(12) == "C3 is taken: pick an empty cell."
    assert play.position is before and len(play.turns) == 1


def test_no_pairing_on_3x3_refuses_moves() -> None:
    play = examined(Board.empty(3, 3))
    assert play.phase is PairingPhase.NONE and play.pairing is None
    assert play.play(4).startswith("There is no pairing here to play against")
    assert play.position == Board.empty(3, 3) and not play.turns


def test_the_line_to_a_pairing_is_stepped_then_played_against() -> None:
    play = examined(Board.empty(4, 4))
    assert play.phase is PairingPhase.NONE and play.can_step_line
    assert play.play(5).endswith("l steps along the line to one.")
    assert play.line_steps() == {0: (1, "X"), 3: (2, "O")}
    play.step_line()
    assert play.position.marks()[0] == "X" and play.phase is PairingPhase.NONE
    play.step_line()
    assert play.phase is PairingPhase.PLAYING and play.origin == play.position
    assert play.line_steps() == {}


def test_a_finished_position_has_nothing_to_look_for_and_a_failure_says_so() -> None:
    assert PairingPlay(Board.from_string("XXX/OO./...")).phase is PairingPhase.NONE
    play = PairingPlay(Board.empty(5, 5))
    play.failed()
    assert play.phase is PairingPhase.FAILED
