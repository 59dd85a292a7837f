"""The pairing view's words (`text.pairing`): letters, headlines and reasons, with real counts."""

from __future__ import annotations

from unicodedata import east_asian_width

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.proofs.pairing import (
    NoPairing,
    Pair,
    Pairing,
    examine_pairing,
    pairing_line,
)
from tictactoe_tui.text.pairing import (
    PAIR_SYMBOLS,
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


def five_by_five() -> Pairing:
    found = examine_pairing(Board.empty(5, 5))
    assert isinstance(found, Pairing)
    return found


def test_each_pair_gets_one_letter_shared_by_its_two_cells() -> None:
    pairing = five_by_five()
    letters = pair_letters(pairing)
    assert len(letters) == 24 and sorted(set(letters.values())) == list("abcdefghijkl")
    for pair in pairing.pairs:
        a, b = pair.cells
        assert letters[a] == letters[b]


def test_there_are_letters_for_every_pair_of_a_20x20_board_one_column_each() -> None:
    assert len(set(PAIR_SYMBOLS)) == len(PAIR_SYMBOLS) >= 400 // 2
    assert all(
        len(symbol) == 1 and east_asian_width(symbol) not in ("W", "F") for symbol in PAIR_SYMBOLS
    )
    # No pair reads as one of the board's column letters until the lowercase ones run out.
    assert PAIR_SYMBOLS[:26] == "abcdefghijklmnopqrstuvwxyz"
    pairing = Pairing(Mark.O, tuple(Pair((2 * i, 2 * i + 1), ()) for i in range(200)))
    assert len(set(pair_letters(pairing).values())) == 200


def test_the_legend_names_the_letters_in_use() -> None:
    assert "(a–l)" in legend_words(12)
    assert "A–Z" in legend_words(40)


def test_a_pairing_headline_counts_its_pairs_and_the_lines_they_cover() -> None:
    headline, explanation = pairing_words(five_by_five())
    assert headline == (
        "X cannot win: O has a pairing. 12 pairs cover all 12 lines X could still make."
    )
    assert "O takes the other cell with the same letter" in explanation
    # A pairing proves the attacker cannot win, nothing more.
    assert "says nothing about O's own chances" in explanation


def test_3x3_is_counted_out() -> None:
    found = examine_pairing(Board.empty(3, 3))
    assert isinstance(found, NoPairing)
    headline, reason = no_pairing_words(found, 3)
    assert headline == "O has no pairing here."
    assert reason == (
        "8 lines X could still make, and any two free cells lie together in at "
        "most 1 of them: 8 pairs = 16 cells needed, 9 are free — counting rules "
        "a pairing out."
    )


def test_4x4_four_in_a_row_is_counted_out() -> None:
    found = examine_pairing(Board.empty(4, 4))
    assert isinstance(found, NoPairing)
    assert "10 pairs = 20 cells needed, 16 are free" in no_pairing_words(found, 4)[1]


def test_a_line_with_one_free_cell_is_named_by_its_ends() -> None:
    board = Board.from_string("XXXX./OOO../...../...../.....", k=5)
    found = examine_pairing(board, Mark.O)
    assert isinstance(found, NoPairing)
    assert no_pairing_words(found, 5)[1].startswith(
        "The line A1–E1 could still be X's and has fewer than two free cells"
    )


def test_a_search_that_tried_every_way_says_none_exists() -> None:
    found = NoPairing(Mark.O, 60, 49, 3, (), True, 19070)
    reason = no_pairing_words(found, 7)[1]
    assert "counting allows a pairing" in reason
    assert reason.endswith("the search tried every way (19,070 branch points): none exists.")


def test_a_search_that_stopped_says_one_may_exist() -> None:
    found = NoPairing(Mark.O, 32, 36, 2, (), False, 100)
    headline, reason = no_pairing_words(found, 6)
    assert headline == "No pairing found for O."
    assert reason.endswith("the search stopped after 100 branch points: one may exist.")


def test_a_value_is_said_only_when_search_proved_it() -> None:
    assert search_words("draw", Mark.X) == "The draw here is proven by search, not by a pairing."
    assert search_words("win", Mark.X).startswith("X wins here with best play (proven by search)")
    assert search_words("loss", Mark.X).startswith("O wins here")
    assert search_words(None, Mark.X) == ""


def test_the_line_to_a_pairing_is_said_move_by_move() -> None:
    board = Board.empty(4, 4)
    line = pairing_line(board)
    assert line is not None
    words = line_words(board, line)
    assert words.startswith("After X A1, O D1, O has a pairing (7 pairs): from there X cannot win")
    assert "settles this line only" in words


def test_a_turn_says_which_pair_was_answered() -> None:
    pairing = five_by_five()
    letters = pair_letters(pairing)
    a, b = pairing.pairs[0].cells
    assert answer_words(pairing, letters, a, b, 5) == (
        f"X took B1 ({letters[a]}): O takes the other {letters[a]}, B2."
    )
    # A1 is in no pair on 5×5: O answers anywhere, and says what its answer does.
    reply = pairing.reply(Board.empty(5, 5).play(0), 0)
    assert reply is not None
    words = answer_words(pairing, letters, 0, reply, 5)
    assert words.startswith("X took A1, in no pair: O may answer anywhere, and takes ")
    assert "that pair's lines now hold an O" in words


def test_spent_pairs_are_counted_and_the_rest_listed() -> None:
    pairing = five_by_five()
    letters = pair_letters(pairing)
    a, b = pairing.pairs[0].cells
    board = Board.empty(5, 5).play(a).play(b)
    assert spent_words(pairing, letters, board) == (
        "1 of 12 pairs spent; left: b c d e f g h i j k l."
    )


def test_the_end_of_a_game_against_the_pairing() -> None:
    assert result_words(Board.from_string("XOX/XOO/OXX"), Mark.X) == (
        "A draw: every line X could make holds an O."
    )
    assert result_words(Board.from_string("XX./OOO/X.."), Mark.X).startswith("O wins")
