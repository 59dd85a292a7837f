"""Board: the rules of play, the notation, and every way to get a board wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import Board, IllegalMove, Mark

# The board's messages use the multiplication sign, which ruff flags as confusable in source.
TIMES = "\N{MULTIPLICATION SIGN}"

# -- helpers --------------------------------------------------------------------------------------


def brute_force_winners(board: Board) -> set[Mark]:
    """Every mark with k in a row, found by walking each cell in each direction (no bitboards)."""
    size, k = board.size, board.k
    found: set[Mark] = set()
    for row in range(size):
        for col in range(size):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + d_row * i, col + d_col * i) for i in range(k)]
                if not all(0 <= r < size and 0 <= c < size for r, c in cells):
                    continue
                marks = {board[r * size + c] for r, c in cells}
                if len(marks) == 1:
                    (mark,) = marks
                    if mark is not None:
                        found.add(mark)
    return found


@st.composite
def played_boards(draw: st.DrawFn, max_size: int = 8) -> Board:
    """A board reached by legal play on size 3..max_size with a random k and first player."""
    size = draw(st.integers(3, max_size))
    k = draw(st.integers(3, size))
    first = draw(st.sampled_from(Mark))
    board = Board.empty(size, k, first)
    picks = draw(st.lists(st.integers(0, 10_000), max_size=size * size))
    for pick in picks:
        moves = board.legal_moves()
        if not moves:
            break
        board = board.play(moves[pick % len(moves)])
    return board


@st.composite
def any_position(draw: st.DrawFn) -> tuple[str, int]:
    """A grid of X, O and '.' with alternating counts, not necessarily reachable by play."""
    size = draw(st.integers(3, 8))
    k = draw(st.integers(3, size))
    cells = draw(st.lists(st.sampled_from("XO."), min_size=size * size, max_size=size * size))
    xs, os_ = cells.count("X"), cells.count("O")
    # Trim the larger side until the counts alternate, so from_string accepts the counts.
    while abs(xs - os_) > 1:
        extra = "X" if xs > os_ else "O"
        cells[cells.index(extra)] = "."
        xs, os_ = cells.count("X"), cells.count("O")
    return "/".join("".join(cells[r * size : (r + 1) * size]) for r in range(size)), k


# -- properties -----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(played_boards(), st.integers(0, 10_000))
def test_play_returns_a_new_board_and_never_changes_the_old_one(board: Board, pick: int) -> None:
    moves = board.legal_moves()
    if not moves:
        return
    before = (str(board), board.to_move, board.x_bits, board.o_bits, hash(board))
    after = board.play(moves[pick % len(moves)])
    assert (str(board), board.to_move, board.x_bits, board.o_bits, hash(board)) == before
    assert after.move_count == board.move_count + 1
    assert after.to_move is board.to_move.opponent


@settings(max_examples=150, deadline=None)
@given(played_boards())
def test_str_and_from_string_round_trip(board: Board) -> None:
    again = Board.from_string(str(board), k=board.k, to_move=board.to_move)
    assert again == board
    assert hash(again) == hash(board)
    assert str(again) == str(board)
    assert board.rows() == str(board).split("/")


@settings(max_examples=150, deadline=None)
@given(played_boards())
def test_winner_agrees_with_a_brute_force_check(board: Board) -> None:
    winners = brute_force_winners(board)
    assert winners == ({board.winner} if board.winner else set())
    if board.winner:
        line = board.winning_line
        assert len(line) == board.k
        assert all(board[c] is board.winner for c in line)


@settings(max_examples=200, deadline=None)
@given(any_position())
def test_winner_of_any_position_agrees_with_a_brute_force_check(case: tuple[str, int]) -> None:
    text, k = case
    size = len(text.split("/"))
    probe = Board.from_string(text.replace("X", ".").replace("O", "."), k=k)
    assert probe.size == size
    try:
        board = Board.from_string(text, k=k)
    except IllegalMove as err:
        # The only rejection left for alternating counts is a line for both players.
        assert "both X and O have a line" in str(err)
        return
    winners = brute_force_winners(board)
    assert len(winners) <= 1
    assert board.winner == (next(iter(winners)) if winners else None)


@settings(max_examples=150, deadline=None)
@given(played_boards())
def test_legal_moves_are_the_empty_cells_until_the_game_ends(board: Board) -> None:
    empty = [c for c in range(board.size * board.size) if board[c] is None]
    assert board.is_full == (not empty)
    if board.is_over:
        assert board.legal_moves() == []
    else:
        assert board.legal_moves() == empty


def test_every_reachable_3x3_position_is_counted_and_judged_right() -> None:
    positions = reachable_3x3()
    assert len(positions) == 5478
    for board in positions:
        winners = brute_force_winners(board)
        assert winners == ({board.winner} if board.winner else set())
        assert board.is_over == bool(winners or board.is_full)


# -- the basics -----------------------------------------------------------------------------------


def test_an_empty_board_has_x_to_move_unless_o_starts() -> None:
    assert Board.empty().to_move is Mark.X
    assert Board.empty(first=Mark.O).to_move is Mark.O
    assert Board.empty(first=Mark.O).play(4)[4] is Mark.O
    assert (Board.empty().size, Board.empty().k) == (3, 3)
    assert Board.empty(7).k == 5


def test_from_string_infers_the_side_to_move_from_the_counts() -> None:
    assert Board.from_string("X../.../...").to_move is Mark.O
    assert Board.from_string("O../.../...").to_move is Mark.X
    assert Board.from_string("XO./.../...").to_move is Mark.X
    assert Board.from_string("XO./.../...", to_move="o").to_move is Mark.O


def test_notation_ignores_slashes_and_whitespace() -> None:
    assert Board.from_string("X O .\n. . .\n. . .") == Board.from_string("XO./.../...")
    assert str(Board.from_string("XO.......")) == "XO./.../..."


def test_winning_line_is_in_order_along_the_line() -> None:
    board = Board.from_string("X.O/.XO/..X")
    assert board.winner is Mark.X
    assert board.winning_line == (0, 4, 8)
    assert board.is_over and board.legal_moves() == []
    assert Board.from_string("O.X/OX./X..").winning_line == (2, 4, 6)


def test_a_full_board_without_a_line_is_a_draw() -> None:
    board = Board.from_string("XOX/XOO/OXX")
    assert board.winner is None and board.winning_line == ()
    assert board.is_full and board.is_over


def test_cell_names_are_one_based_row_and_column() -> None:
    assert Board.empty().cell_name(0) == "row 1, column 1"
    assert Board.empty().cell_name(5) == "row 2, column 3"
    assert Board.empty(5, 4).cell_name(24) == "row 5, column 5"


# -- every illegal move and bad board, with a message a person can read ---------------------------


def test_playing_an_occupied_cell_names_the_cell_and_its_owner() -> None:
    board = Board.empty().play(4)
    with pytest.raises(IllegalMove, match=r"^B2 is already taken by X$"):
        board.play(4)


@pytest.mark.parametrize("cell", [-1, 9, 100])
def test_playing_off_the_board_says_which_cells_exist(cell: int) -> None:
    with pytest.raises(
        IllegalMove,
        match=rf"cell {cell} is off the board: cells are numbered "
        rf"0 to 8 on a 3{TIMES}3 board",
    ):
        Board.empty().play(cell)


def test_reading_a_cell_off_the_board_is_an_illegal_move_too() -> None:
    with pytest.raises(IllegalMove, match="off the board"):
        Board.empty()[9]


def test_playing_after_a_win_says_the_game_is_over_and_who_won() -> None:
    board = Board.from_string("XXX/OO./...")
    with pytest.raises(IllegalMove, match=r"the game is over \(X has already won\)"):
        board.play(8)


def test_playing_on_a_full_board_says_it_is_full() -> None:
    with pytest.raises(IllegalMove, match=r"the game is over \(the board is full\)"):
        Board.from_string("XOX/XOO/OXX").play(0)


def test_unknown_characters_are_listed() -> None:
    with pytest.raises(IllegalMove, match=r"unknown character\(s\) '-', 'Y' in the board"):
        Board.from_string("x-./.Y./...")


def test_a_board_in_lowercase_is_the_same_board() -> None:
    assert Board.from_string("x../.o./...") == Board.from_string("X../.O./...")
    assert Board.from_string("xo./.x./...").to_move is Mark.O


@pytest.mark.parametrize("text", ["XO./...", "..........", ""])
def test_a_cell_count_that_is_not_a_square_is_refused(text: str) -> None:
    with pytest.raises(IllegalMove, match="cannot make a square board"):
        Board.from_string(text)


@pytest.mark.parametrize("text", ["XX./.../...", "OO./.../...", "XXX/X.O/..."])
def test_counts_that_cannot_alternate_are_refused(text: str) -> None:
    with pytest.raises(
        IllegalMove,
        match=r"impossible position: \d+ X and \d+ O "
        r"\(players alternate",
    ):
        Board.from_string(text)


def test_a_side_to_move_the_counts_forbid_is_refused() -> None:
    with pytest.raises(IllegalMove, match="it is O's turn, not X's"):
        Board.from_string("X../.../...", to_move=Mark.X)


def test_a_line_for_both_players_is_refused() -> None:
    with pytest.raises(IllegalMove, match="both X and O have a line"):
        Board.from_string("XXX/OOO/...")


@pytest.mark.parametrize(("size", "k"), [(3, 2), (3, 4), (5, 6), (20, 21)])
def test_k_out_of_range_is_refused(size: int, k: int) -> None:
    with pytest.raises(
        IllegalMove,
        match=rf"k \(marks in a row to win\) must be between 3 and "
        rf"{size} on a {size}{TIMES}{size} board, not {k}",
    ):
        Board.empty(size, k)


@pytest.mark.parametrize("size", [0, 2, 21])
def test_size_out_of_range_is_refused(size: int) -> None:
    with pytest.raises(
        IllegalMove,
        match=rf"the board must be 3{TIMES}3 to 20{TIMES}20, not "
        rf"{size}{TIMES}{size}",
    ):
        Board.empty(size, 3)


def test_a_2x2_string_is_refused_for_its_size() -> None:
    with pytest.raises(IllegalMove, match=f"must be 3{TIMES}3 to 20{TIMES}20, not 2{TIMES}2"):
        Board.from_string("XO/..", k=3)


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)
