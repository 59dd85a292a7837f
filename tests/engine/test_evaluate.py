"""H1 and H2: values worked out by hand from the formulas, and their term breakdowns."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tictactoe_tui.engine import Board, H1Terms, H2Terms, Mark, explain_h1, explain_h2, h1, h2

# The heuristics write their formulas with a real minus sign, which ruff flags in source.
MINUS = "\N{MINUS SIGN}"

# Seed 002's board: O O . / . X . / . . . with X (the computer) to move. Its "positions" are
# 1-based; cell = position - 1. The hand counts below are (X1, X2, O1, O2) after X plays there,
# each written out line by line in the comment.
SEED_002 = "OO./.X./..."
SEED_002_CASES = [
    # pos 3: rows .X. (X1); cols X.. (X1), O.. (O1); anti-diagonal XX. (X2) -> 3·1 + 2 - (0 + 1)
    (3, (2, 1), (1, 0), 4),
    # pos 4: rows OO. (O2), XX. (X2); anti-diagonal .X. (X1) -> 3·1 + 1 - (3·1 + 0)
    (4, (1, 1), (0, 1), 1),
    # pos 6: rows OO. (O2), .XX (X2); cols O.. (O1), .X. (X1); anti .X. (X1) -> 3 + 2 - (3 + 1).
    # The seed prints "3*1 + 1 - (3*1 + 1) = 0": it misses the anti-diagonal; the value is 1.
    (6, (2, 1), (1, 1), 1),
    # pos 7: rows OO. (O2), .X. (X1), X.. (X1); anti-diagonal .XX (X2) -> 3 + 2 - 3
    (7, (2, 1), (0, 1), 2),
    # pos 8: rows OO. (O2), .X. (X1), .X. (X1); cols O.. (O1); anti .X. (X1) -> 3 - (3 + 1)
    (8, (3, 0), (1, 1), -1),
    # pos 9: rows OO. (O2), .X. (X1), ..X (X1); cols O.. (O1), ..X (X1); anti .X. (X1) -> 4 - 4.
    # The seed prints "3*0 + 3 + (3*1 + 1) = -1": a sign slip and a missed line; the value is 0.
    (9, (4, 0), (1, 1), 0),
]


@pytest.mark.parametrize(("position", "own", "opp", "value"), SEED_002_CASES)
def test_h1_of_each_candidate_on_seed_002s_board(
    position: int, own: tuple[int, int], opp: tuple[int, int], value: int
) -> None:
    board = Board.from_string(SEED_002)
    assert board.to_move is Mark.X
    after = board.play(position - 1)
    assert explain_h1(after, Mark.X) == H1Terms(Mark.X, own, opp)
    assert h1(after, Mark.X) == value
    assert 3 * own[1] + own[0] - (3 * opp[1] + opp[0]) == value


def test_seed_002s_best_move_is_position_3_with_the_formula_written_out() -> None:
    board = Board.from_string(SEED_002)
    values = {pos: h1(board.play(pos - 1), Mark.X) for pos, *_ in SEED_002_CASES}
    assert max(values, key=values.__getitem__) == 3
    terms = explain_h1(board.play(2), Mark.X)
    assert terms.formula() == f"3·1 + 2 {MINUS} (3·0 + 1) = 4"
    assert terms.value == 4


def test_h2_counts_open_lines_on_seed_002s_board() -> None:
    after = Board.from_string(SEED_002).play(2)  # O O X / . X . / . . .
    # Open for X (no O): row 2, row 3, column 3, the anti-diagonal. Open for O (no X): row 3,
    # column 1.
    assert explain_h2(after, Mark.X) == H2Terms(Mark.X, 4, 2)
    assert h2(after, Mark.X) == 2
    assert explain_h2(after, Mark.X).formula() == f"4 {MINUS} 2 = 2"
    assert h2(after, Mark.O) == -2


def test_the_empty_board_is_even_for_both() -> None:
    board = Board.empty()
    assert h1(board, Mark.X) == h1(board, Mark.O) == 0
    assert explain_h2(board, Mark.X) == H2Terms(Mark.X, 8, 8)


def test_a_lone_centre_mark_on_3x3() -> None:
    board = Board.from_string(".../.X./...")
    # Four lines pass through the centre, each holding one X.
    assert explain_h1(board, Mark.X) == H1Terms(Mark.X, (4, 0), (0, 0))
    assert h1(board, Mark.O) == -4
    # Open(X) = all 8 lines, Open(O) = the 4 lines that miss the centre.
    assert h2(board, Mark.X) == 4


def test_a_4x4_position_by_hand() -> None:
    # X X . .
    # . O . .
    # . . O .
    # . . . .    k = 4: 4 rows, 4 columns, 2 diagonals.
    board = Board.from_string("XX../.O../..O./....")
    assert board.k == 4
    # X: row 1 holds two X (n=2), column 1 one X (n=1); column 2 and the main diagonal are mixed.
    # O: rows 2 and 3, column 3 hold one O each (n=1).
    terms = explain_h1(board, Mark.X)
    assert terms == H1Terms(Mark.X, (1, 1, 0), (3, 0, 0))
    assert terms.value == 1 + 3 * 1 - 3
    assert terms.formula() == f"9·0 + 3·1 + 1 {MINUS} (9·0 + 3·0 + 3) = 1"
    # Open(X): row 1, row 4, column 1, column 4, anti-diagonal = 5.
    # Open(O): rows 2, 3, 4, columns 3, 4, anti-diagonal = 6.
    assert explain_h2(board, Mark.X) == H2Terms(Mark.X, 5, 6)
    assert h2(board, Mark.X) == -1


def test_a_5x5_k4_position_by_hand() -> None:
    # O . . . .
    # . . . . .
    # . . X . .     k = 4: 2 runs per row (10), per column (10), 4 per diagonal direction (8).
    # . . . . .
    # . . . . .
    board = Board.from_string("O..../...../..X../...../.....", k=4)
    # The centre lies on 8 runs: both runs of row 3, both of column 3, two of each diagonal
    # direction; one of them (the main diagonal from the corner) also holds the O.
    # The corner lies on 3 runs: row 1 from column 1, column 1 from row 1, that diagonal.
    assert explain_h1(board, Mark.X) == H1Terms(Mark.X, (7, 0, 0), (2, 0, 0))
    assert h1(board, Mark.X) == 5
    # Open(X) = 28 - 3 runs through the O; Open(O) = 28 - 8 runs through the X.
    assert explain_h2(board, Mark.X) == H2Terms(Mark.X, 25, 20)
    assert h2(board, Mark.X) == 5


def test_three_in_a_row_weighs_nine_on_a_5x5_k4_board() -> None:
    board = Board.from_string("XXX../OO.../...../...../.....", k=4)
    # X alone: row 1 from column 1 (three: weight 9) and from column 2 (two: weight 3); column 3
    # from row 1 and the diagonal from (1, 2) (one each). O alone: row 2 from column 1 (two),
    # row 2 from column 2, columns 1 and 2 from row 2, the diagonals from (2, 1) and (2, 2)
    # (one each). So H1(X) = 9·1 + 3·1 + 2 - (3·1 + 5) = 6.
    terms = explain_h1(board, Mark.X)
    assert terms == H1Terms(Mark.X, (2, 1, 1), (5, 1, 0))
    assert terms.value == 6
    assert terms.formula() == f"9·1 + 3·1 + 2 {MINUS} (9·0 + 3·1 + 5) = 6"


def test_a_full_line_is_a_win_not_a_term() -> None:
    board = Board.from_string("XXX/OO./...")
    terms = explain_h1(board, Mark.X)
    # Row 1 is complete: it is neither an X3 term (there is none) nor an X2. Only column 3
    # holds X alone; every other line through an X also holds an O.
    assert terms.own == (1, 0)
    assert len(terms.own) == board.k - 1


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board reached by legal play, size 3..7 with a random k."""
    size = draw(st.integers(3, 7))
    board = Board.empty(size, draw(st.integers(3, size)))
    for pick in draw(st.lists(st.integers(0, 1000), max_size=size * size)):
        moves = board.legal_moves()
        if not moves:
            break
        board = board.play(moves[pick % len(moves)])
    return board


@settings(max_examples=100, deadline=None)
@given(boards())
def test_each_heuristic_is_zero_sum_and_matches_its_terms(board: Board) -> None:
    for player in Mark:
        assert h1(board, player) == -h1(board, player.opponent)
        assert h2(board, player) == -h2(board, player.opponent)
        t1, t2 = explain_h1(board, player), explain_h2(board, player)
        assert t1.value == h1(board, player)
        assert t2.value == h2(board, player)
        assert t1.own == explain_h1(board, player.opponent).opp
        assert t1.formula().endswith(f"= {t1.value}")
        assert t2.formula() == f"{t2.open_own} {MINUS} {t2.open_opp} = {t2.value}"


@settings(max_examples=100, deadline=None)
@given(boards())
def test_terms_match_a_direct_count_over_the_lines(board: Board) -> None:
    mine, theirs = board.bits(Mark.X), board.bits(Mark.O)
    own = [0] * (board.k - 1)
    open_own = 0
    for cells in board.geometry.line_cells:
        xs = sum(board[c] is Mark.X for c in cells)
        os_ = sum(board[c] is Mark.O for c in cells)
        if os_ == 0:
            open_own += 1
            if 0 < xs < board.k:
                own[xs - 1] += 1
    assert explain_h1(board, Mark.X).own == tuple(own)
    assert explain_h2(board, Mark.X).open_own == open_own
    assert mine & theirs == 0
