"""Leaving the analysis board (issue 39 item 2, work thrown away): the rule Escape and q share."""

from __future__ import annotations

from tictactoe_tui.play.leaving import Leave, LeaveGuard


def test_a_study_with_no_moves_or_as_kept_is_left_at_once() -> None:
    guard = LeaveGuard()
    assert guard.ask("root only", 0, Leave.BACK) is None
    guard.mark_kept("three moves")
    assert guard.ask("three moves", 3, Leave.QUIT) is None


def test_unkept_moves_are_asked_about_once_then_either_key_leaves() -> None:
    guard = LeaveGuard()
    question = guard.ask("two moves", 2, Leave.BACK)
    assert question == (
        "This study's 2 moves are not kept: k keeps them in the history; "
        "Escape again to go back without them."
    )
    assert guard.ask("two moves", 2, Leave.QUIT) is None


def test_a_change_after_the_question_asks_again_and_q_says_quit() -> None:
    guard = LeaveGuard()
    assert guard.ask("one move", 1, Leave.QUIT) == (
        "This study's 1 move is not kept: k keeps it in the history; q again to quit without it."
    )
    assert guard.ask("two moves", 2, Leave.QUIT) is not None


def test_a_kept_study_that_changed_says_so() -> None:
    guard = LeaveGuard()
    guard.mark_kept("one move")
    assert guard.ask("two moves", 2, Leave.BACK) == (
        "This study has changed since it was kept: k keeps it again; "
        "Escape again to go back without the changes."
    )
    guard.mark_kept("two moves")
    assert guard.ask("two moves", 2, Leave.BACK) is None
