"""Game: moves, undo/redo, the result, and the text record that round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tictactoe_tui.engine import Board, Game, GameResult, IllegalMove, Mark


def test_a_new_game_is_an_empty_board_with_nothing_to_undo() -> None:
    game = Game()
    assert game.board == Board.empty()
    assert (game.size, game.k, game.first) == (3, 3, Mark.X)
    assert game.moves == ()
    assert not game.can_undo and not game.can_redo and not game.is_over
    assert game.result is None


def test_o_can_move_first() -> None:
    game = Game(first=Mark.O)
    assert game.board.to_move is Mark.O
    game.play(4)
    assert game.board[4] is Mark.O and game.board.to_move is Mark.X


def test_k_defaults_to_the_boards_default() -> None:
    assert Game(7).k == 5
    assert Game(5, 4).k == 4


def test_play_returns_the_new_board_and_records_the_move() -> None:
    game = Game()
    board = game.play(4)
    assert board is game.board and board[4] is Mark.X
    game.play(0)
    assert game.moves == (4, 0)
    assert game.can_undo


def test_undo_and_redo_walk_back_and_forth() -> None:
    game = Game()
    for move in (4, 0, 8):
        game.play(move)
    assert game.undo() == 8
    assert game.undo() == 0
    assert game.moves == (4,)
    assert game.board == Board.empty().play(4)
    assert game.can_redo
    assert game.redo() == 0
    assert game.moves == (4, 0)
    assert game.redo() == 8
    assert not game.can_redo
    assert game.board == Board.empty().play(4).play(0).play(8)


def test_playing_after_undo_clears_the_redo_stack() -> None:
    game = Game()
    game.play(4)
    game.play(0)
    game.undo()
    game.play(2)
    assert not game.can_redo
    assert game.moves == (4, 2)
    with pytest.raises(IllegalMove, match="nothing to redo"):
        game.redo()


def test_undo_with_no_moves_is_refused() -> None:
    with pytest.raises(IllegalMove, match="nothing to undo: no move has been played"):
        Game().undo()


def test_an_illegal_move_changes_nothing() -> None:
    game = Game()
    game.play(4)
    game.play(0)
    game.undo()
    with pytest.raises(IllegalMove, match="already taken"):
        game.play(4)
    with pytest.raises(IllegalMove, match="off the board"):
        game.play(9)
    # The rejected moves kept the redo stack: nothing was played.
    assert game.moves == (4,) and game.can_redo


def test_a_win_gives_the_winner_and_the_line() -> None:
    game = Game()
    for move in (0, 3, 1, 4, 2):
        game.play(move)
    assert game.is_over
    assert game.result == GameResult(Mark.X, (0, 1, 2))
    assert game.result is not None and not game.result.is_draw
    with pytest.raises(IllegalMove, match="the game is over"):
        game.play(8)


def test_undo_after_a_win_reopens_the_game() -> None:
    game = Game()
    for move in (0, 3, 1, 4, 2):
        game.play(move)
    game.undo()
    assert not game.is_over and game.result is None


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = Game()
    for move in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        game.play(move)
    assert game.board.is_full
    assert game.result == GameResult(None, ())
    assert game.result is not None and game.result.is_draw


def test_o_wins_on_a_big_board_with_its_line() -> None:
    game = Game(5, 4, first=Mark.O)
    for move in (0, 5, 1, 6, 2, 7, 3):
        game.play(move)
    assert game.result == GameResult(Mark.O, (0, 1, 2, 3))


# -- the text record ------------------------------------------------------------------------------


def test_the_record_format() -> None:
    game = Game()
    for move in (4, 0, 8, 2):
        game.play(move)
    assert game.to_record() == "tictactoe 3x3 k=3 first=X\nmoves: 5 1 9 3\n"
    assert Game(7, 4, Mark.O).to_record() == "tictactoe 7x7 k=4 first=O\nmoves:\n"


def test_the_record_leaves_out_moves_taken_back() -> None:
    game = Game()
    game.play(4)
    game.play(0)
    game.undo()
    assert game.to_record() == "tictactoe 3x3 k=3 first=X\nmoves: 5\n"


def test_from_record_reads_comments_blank_lines_and_either_case() -> None:
    text = "# a game\n\nTicTacToe 3X3 k=3 first=o\n\nMoves: 5  1\n"
    game = Game.from_record(text)
    assert game.first is Mark.O
    assert game.moves == (4, 0)
    assert game.board[4] is Mark.O


def test_from_record_without_a_moves_line_is_a_new_game() -> None:
    assert Game.from_record("tictactoe 4x4 k=3 first=X").moves == ()


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game of random legal moves on size 3..7, some taken back by undo."""
    size = draw(st.integers(3, 7))
    game = Game(size, draw(st.integers(3, size)), draw(st.sampled_from(Mark)))
    for pick in draw(st.lists(st.integers(0, 1000), max_size=size * size)):
        moves = game.board.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    for _ in range(draw(st.integers(0, 2))):
        if game.can_undo:
            game.undo()
    return game


@settings(max_examples=150, deadline=None)
@given(games())
def test_records_round_trip(game: Game) -> None:
    again = Game.from_record(game.to_record())
    assert (again.size, again.k, again.first) == (game.size, game.k, game.first)
    assert again.moves == game.moves
    assert again.board == game.board
    assert again.result == game.result
    assert again.to_record() == game.to_record()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty game record"),
        ("# only a comment\n", "empty game record"),
        ("tic tac toe 3x3\nmoves: 1", r"bad game record header 'tic tac toe 3x3'"),
        ("tictactoe 3x3 k=3 first=Z", "bad game record header"),
        ("tictactoe 3x4 k=3 first=X", r"the board must be square, not 3x4"),
        ("tictactoe 3x3 k=3 first=X\nplays: 1 2", r"bad moves line 'plays: 1 2'"),
        ("tictactoe 3x3 k=3 first=X\nmoves: 1\nmoves: 2", "unexpected line in game record"),
        (
            "tictactoe 3x3 k=3 first=X\nmoves: 5 a1",
            r"move 2 of the record is 'a1', not a cell "
            r"number \(1 to 9\)",
        ),
        ("tictactoe 3x3 k=3 first=X\nmoves: 5 -1", "move 2 of the record is '-1', not a cell"),
    ],
)
def test_malformed_records_are_refused_with_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.from_record(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tictactoe 3x3 k=4 first=X", r"k \(marks in a row to win\) must be between 3 and 3"),
        ("tictactoe 21x21 k=5 first=X", "the board must be"),
        (
            "tictactoe 3x3 k=3 first=X\nmoves: 5 10",
            r"move 2 of the record is cell 10, off the "
            r"board: cells are numbered 1 to 9",
        ),
        ("tictactoe 3x3 k=3 first=X\nmoves: 5 0", r"move 2 of the record is cell 0, off the"),
        (
            "tictactoe 3x3 k=3 first=X\nmoves: 5 1 5",
            r"^move 3 of the record \(5, that is B2\) "
            r"is illegal: B2 is already taken by X$",
        ),
        (
            "tictactoe 3x3 k=3 first=X\nmoves: 1 4 2 5 3 9",
            r"move 6 of the record \(9, that is "
            r"C3\) is illegal: the game is over "
            r"\(X has already won\)",
        ),
    ],
)
def test_impossible_records_are_illegal_moves(text: str, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        Game.from_record(text)


def test_repr_shows_the_record() -> None:
    game = Game()
    game.play(4)
    assert repr(game) == "Game.from_record('tictactoe 3x3 k=3 first=X\\nmoves: 5\\n')"
