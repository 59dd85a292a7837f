"""Threats in words: the sentences for hand-made positions on 3×3, 7×7 (4 in a row) and 15×15."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tictactoe_tui.engine import Board, Mark, analyse_position
from tictactoe_tui.engine.proofs.threats import read_move
from tictactoe_tui.engine.puzzles.proven import parse_cell
from tictactoe_tui.text.threats import (
    hint_words,
    line_words,
    mistake_words,
    move_words,
)


def position(
    size: int, k: int, x: Sequence[str], o: Sequence[str], to_move: str | None = None
) -> Board:
    """A board with X and O on the named cells."""
    cells = ["."] * (size * size)
    for name in x:
        cells[parse_cell(name, size)] = "X"
    for name in o:
        cells[parse_cell(name, size)] = "O"
    return Board.from_string("".join(cells), k=k, to_move=to_move)


def words(board: Board, *names: str) -> list[str]:
    return line_words(board, [parse_cell(name, board.size) for name in names])


# -- 3×3 ----------------------------------------------------------------------------------------


def test_a_block_that_makes_a_fork_on_3x3() -> None:
    # X on C1 and A3, O on B2 and C3: O threatens A1, and X's block there makes two lines.
    board = Board.from_string("..X/.O./X.O")
    assert words(board, "A1") == [
        "X blocks A1 and makes two winning cells of its own (B1 and A2): O can block only one."
    ]


def test_a_winning_move_names_its_line() -> None:
    board = Board.from_string(".../OO./X.X")
    assert words(board, "B3") == ["X plays B3 and wins (A3–C3)."]


FORK = ".X./X.O/.O."
"""X on B1 and A2, O on C2 and B3 (no threat): X's A1 makes A1–B1 and A1–A2."""


def test_the_classic_3x3_fork() -> None:
    board = Board.from_string(FORK)
    assert words(board, "A1") == [
        "X plays A1: two lines of two (A1–B1, A1–A2), a fork: O can block only one."
    ]
    assert read_move(board, parse_cell("A1", 3)).kind == "fork"


def test_a_line_of_two_on_3x3_says_where_the_block_must_go() -> None:
    board = Board.from_string("X../.../...", to_move="O")
    assert words(board, "B2", "C1") == [
        "O plays B2.",
        "X plays C1: a line of two (A1–C1), O must block B1.",
    ]


def test_a_block_that_makes_a_line_of_its_own_on_3x3() -> None:
    board = Board.from_string("XX./.O./...", to_move="O")
    assert words(board, "C1") == [
        "O blocks C1 and makes a line of two of its own (C1–B2): X must answer at A3."
    ]


def test_a_line_of_two_is_named_along_the_line() -> None:
    # X on A1 and C3, O in the centre: O's A3 makes C1–B2–A3 a line of two.
    board = Board.from_string("X../.O./..X")
    assert board.to_move is Mark.O
    assert move_words(board, parse_cell("A3", 3)) == (
        "O plays A3: a line of two (B2–A3), X must block C1."
    )


def test_a_move_that_leaves_the_opponents_win_open_says_so() -> None:
    # O threatens B3 (B1, B2); X plays elsewhere.
    board = Board.from_string("XO./.OX/...")
    assert board.to_move is Mark.X
    assert words(board, "A3") == ["X plays A3, but O can win at once at B3."]


def test_the_review_sentence_for_a_3x3_blunder() -> None:
    board = Board.from_string("X../.../...", to_move="O")
    analysis = analyse_position(board)
    edge = next(s for s in analysis.scores if s.move == parse_cell("B1", 3))
    assert edge.score < 0
    sentence = mistake_words(board, edge.move, "??", edge.pv[1:])
    # X's best line after B1 forks on its second move.
    assert sentence.startswith("B1?? lets X force a fork: ")
    assert sentence.endswith(".")


def test_the_review_sentence_for_an_immediate_fork() -> None:
    # X on C1 and A3, O in the centre: after O's C3?? X's A1 makes A1–C1 and A1–A3.
    board = Board.from_string("..X/.O./X..", to_move="O")
    sentence = mistake_words(board, parse_cell("C3", 3), "??", [parse_cell("A1", 3)])
    assert sentence == "C3?? lets X fork with A1."


def test_a_missed_win_names_the_move_and_what_it_does() -> None:
    board = Board.from_string(FORK)
    sentence = mistake_words(board, parse_cell("C3", 3), "?", (), better=[parse_cell("A1", 3)])
    assert sentence == (
        "C3? misses A1: two lines of two (A1–B1, A1–A2), a fork: O can block only one."
    )


# -- 7×7, four in a row -------------------------------------------------------------------------


def test_an_open_three_on_7x7_has_two_winning_cells() -> None:
    board = position(7, 4, ["D2", "D3"], ["A1", "G7"])
    assert words(board, "D4") == [
        "X plays D4: an open line of three (D2–D4) with two winning cells (D1 and D5): "
        "O can block only one."
    ]


def test_a_line_of_three_on_7x7_that_must_be_blocked() -> None:
    board = position(7, 4, ["D2", "D3"], ["D1", "G7"])
    assert words(board, "D4", "D5") == [
        "X plays D4: a line of three (D2–D4), O must block D5.",
        "O blocks D5.",
    ]


def test_two_lines_of_two_that_threaten_a_fork_on_7x7() -> None:
    board = position(7, 4, ["C3", "E3"], ["A7", "G7"])
    # D3 was a fork of X's before D4 (C3–E3): every fork is named, not only the new lines'.
    assert words(board, "D4") == [
        "X plays D4: two open lines of two (C3–D4, E3–D4); O cannot stop all of X's forks "
        "(B2, F2, D3, C5 and E5) with one move."
    ]


def test_two_lines_of_two_that_make_every_fork_on_7x7() -> None:
    board = position(7, 4, ["B2", "F2"], ["A7", "G7"])
    assert words(board, "D4") == [
        "X plays D4: two open lines of two (B2–D4, F2–D4); O can stop only one."
    ]


def test_a_block_that_makes_a_line_of_three_of_its_own_on_7x7() -> None:
    board = position(7, 4, ["D2", "D3", "D4", "A5"], ["D1", "B5", "C5"])
    assert board.to_move is Mark.O
    # X's forced block also threatens forks at C3 and F6; only C3 stops both (C3 would give
    # X three winning cells: B2, F6 and B4 on A5–D2).
    assert words(board, "D5", "E5") == [
        "O blocks D5 and makes a line of three of its own (B5–D5): X must answer at E5.",
        "X blocks E5: an open line of two (D4–E5); O must stop it at C3.",
    ]


# -- 15×15, five in a row -----------------------------------------------------------------------


def test_a_four_and_its_forced_block_on_15x15() -> None:
    board = position(15, 5, ["E2", "E3", "E4", "A10"], ["E1", "J9", "J10", "K3"], to_move="X")
    assert words(board, "E5", "E6") == [
        "X plays E5: a four (E2–E5), O must block E6.",
        "O blocks E6.",
    ]


def test_two_open_threes_on_15x15() -> None:
    board = position(15, 5, ["F2", "F3", "C4", "D4"], ["J9", "J10", "K3", "L3"])
    assert words(board, "F4") == [
        "X plays F4: two open threes (F2–F4, C4–F4); O can stop only one."
    ]


def test_the_reply_to_two_open_threes_that_blocks_neither_says_none_could() -> None:
    board = position(15, 5, ["F2", "F3", "C4", "D4"], ["J9", "J10", "K3", "L3"])
    assert words(board, "F4", "A15", "F5") == [
        "X plays F4: two open threes (F2–F4, C4–F4); O can stop only one.",
        "O plays A15: no move stops both.",
        "X plays F5: an open four (F2–F5) with two winning cells (F1 and F6): O can block "
        "only one.",
    ]
    # A reply that stops one of them is told for what it does, as before.
    assert words(board, "F4", "F5")[1] == "O plays F5, taking away X's fork at F5."


def test_one_open_three_says_where_it_can_be_stopped() -> None:
    # F5 would make an open four (F1 and F6): F5 itself, F1 or F6 stop it.
    board = position(15, 5, ["F2", "F3"], ["J9", "J10"])
    assert words(board, "F4") == [
        "X plays F4: an open three (F2–F4); O must stop it at F1, F5 or F6."
    ]


def test_taking_a_fork_cell_away_is_said() -> None:
    board = position(15, 5, ["F2", "F3", "F4"], ["J9", "J10"])
    assert board.to_move is Mark.O
    assert words(board, "F5") == ["O plays F5, taking away X's fork at F5."]


def test_a_double_four_on_15x15() -> None:
    board = position(
        15, 5, ["E2", "E3", "E4", "B5", "C5", "D5"], ["J9", "J10", "K3", "L3", "M3", "A9"]
    )
    assert words(board, "E5") == ["X plays E5: two fours (E2–E5, B5–E5): O can block only one."]


def test_an_open_four_on_15x15() -> None:
    board = position(15, 5, ["E2", "E3", "E4", "A12"], ["J9", "J10", "K3", "L3"], to_move="X")
    assert words(board, "E5", "E1", "E6") == [
        "X plays E5: an open four (E2–E5) with two winning cells (E1 and E6): O can block "
        "only one.",
        "O blocks E1, but X can win at once at E6.",
        "X plays E6 and wins (E2–E6).",
    ]


def test_a_block_that_makes_a_four_of_its_own_on_15x15() -> None:
    # X's four E1–E4 wins at E5; O's block there makes B5–E5 (A5 is X's: one winning cell).
    board = position(15, 5, ["E1", "E2", "E3", "E4", "A5"], ["N1", "B5", "C5", "D5"])
    assert board.to_move is Mark.O
    assert words(board, "E5", "F5") == [
        "O blocks E5 and makes a four of its own (B5–E5): X must answer at F5.",
        "X blocks F5.",
    ]


def test_a_block_that_makes_an_open_four_on_15x15() -> None:
    board = position(15, 5, ["E1", "E2", "E3", "E4", "A12"], ["N1", "B5", "C5", "D5"])
    assert words(board, "E5", "F5") == [
        "O blocks E5 and makes two winning cells of its own (A5 and F5): X can block only one.",
        "X blocks F5, but O can win at once at A5.",
    ]


def test_a_four_that_is_also_an_open_three() -> None:
    board = position(
        15, 5, ["E2", "E3", "E4", "C5", "D5"], ["E1", "J9", "J10", "K3", "L3"], to_move="X"
    )
    assert words(board, "E5") == [
        "X plays E5: a four (E2–E5) and an open three (C5–E5), O must block E6."
    ]
    assert hint_words(board, parse_cell("E5", 15)).startswith("Make a four that also makes")


def test_a_line_stops_at_its_end_and_at_a_move_that_is_not_legal() -> None:
    board = position(15, 5, ["E2", "E3", "E4", "E5"], ["J9", "J10", "K3", "A1"])
    assert words(board, "E6", "E7") == ["X plays E6 and wins (E2–E6)."]
    assert words(board, "E2") == []


@pytest.mark.parametrize("size", [3, 7, 15])
def test_every_sentence_ends_with_a_full_stop(size: int) -> None:
    board = Board.empty(size, 3 if size == 3 else 4 if size == 7 else 5)
    moves = [cell for cell in range(0, size * size, size + 1)][:5]
    assert all(sentence.endswith(".") for sentence in line_words(board, moves))
