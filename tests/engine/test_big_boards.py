"""Boards up to 20×20 (Gomocup's big board): the engine plays them, and where it claims exact
values on them, an independent brute force agrees (cells past 255 included)."""

from __future__ import annotations

import random

import pytest

from tests.engine.brute import BruteForce
from tictactoe_tui.engine import Board, IllegalMove, alphabeta
from tictactoe_tui.engine.rules.board import MAX_SIZE, cell_notation
from tictactoe_tui.engine.search.api import analyse_position

SIZE = 20


def drawn_fill(size: int) -> list[str]:
    """A full board with no five in a row anywhere: every line reads XXOO or XOXO repeated."""
    return ["X" if (col + 2 * row) % 4 < 2 else "O" for row in range(size) for col in range(size)]


def test_the_biggest_board_is_20x20() -> None:
    assert MAX_SIZE == SIZE
    assert Board.empty(SIZE, 5).legal_moves() == list(range(SIZE * SIZE))
    with pytest.raises(IllegalMove, match="not 21×21"):
        Board.empty(SIZE + 1, 5)


@pytest.mark.parametrize("size", [16, 17, 18, 19, 20])
def test_alphabeta_answers_a_legal_move_on_every_big_board_in_its_time(size: int) -> None:
    board = Board.empty(size, 5).play(size * size // 2).play(size * size // 2 + 1)
    result = alphabeta(board, time_limit=0.3)
    assert result.move in board.legal_moves()
    assert result.pv and result.pv[0] == result.move
    # A generous margin: the time limit is the engine's own, the machine may be loaded.
    assert result.elapsed < 3.0


def test_the_last_cells_of_a_20x20_board_have_names() -> None:
    assert cell_notation(0, SIZE) == "A1"
    assert cell_notation(SIZE * SIZE - 1, SIZE) == "T20"


def test_a_winning_four_on_the_bottom_row_is_taken() -> None:
    board = Board.empty(SIZE, 5)
    bottom = (SIZE - 1) * SIZE
    for step in range(4):
        board = board.play(bottom + 10 + step).play(step * SIZE)
    result = alphabeta(board, time_limit=0.5)
    assert result.move in (bottom + 9, bottom + 14)
    assert board.play(result.move).winner is not None


def ending(rng: random.Random) -> tuple[Board, str]:
    """A nearly full 20×20 board with 8 to 12 empty cells, every one past cell 255, and its text."""
    cells = drawn_fill(SIZE)
    tail = range(300, SIZE * SIZE)
    for cell in rng.sample(tail, 6):  # a few swaps so that some fives become possible
        cells[cell] = "O" if cells[cell] == "X" else "X"
    surplus = cells.count("X") - cells.count("O")
    xs = [c for c in tail if cells[c] == "X"]
    os = [c for c in tail if cells[c] == "O"]
    for cell in rng.sample(xs, 4 + max(surplus, 0)) + rng.sample(os, 4 + max(-surplus, 0)):
        cells[cell] = "."
    text = "".join(cells)
    return Board.from_string(
        "/".join(text[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)), k=5
    ), text


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_exact_values_near_the_end_of_a_20x20_game_match_brute_force(seed: int) -> None:
    """A nearly full 20×20 board whose empty cells are all past cell 255: the solver answers
    every move exactly, and brute force (no shared code) agrees on each value."""
    rng = random.Random(seed)
    board, text = ending(rng)
    while board.is_over:  # a swap may complete a five: draw again (the seed still fixes it)
        board, text = ending(rng)
    expected = BruteForce(SIZE, 5).move_values(text, board.to_move.value)
    analysis = analyse_position(board)
    assert analysis.complete
    assert {s.move: s.score for s in analysis.scores} == expected
    assert all(s.kind == "exact" for s in analysis.scores)
