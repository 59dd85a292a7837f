"""Pairing strategies: every pairing the engine returns is checked by code that shares nothing
with it (lines from `brute.lines_of`), as a cover of the open lines, as a strategy played out,
and against the brute-force value of the position."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from tests.engine.brute import BruteForce, lines_of
from tictactoe_tui.engine import Board, Mark, Pairing, find_pairing


def open_lines(board: Board, defender: Mark) -> list[tuple[int, ...]]:
    """The lines (from the independent line list) that hold no mark of `defender`."""
    return [
        line
        for line in lines_of(board.size, board.k)
        if all(board[cell] is not defender for cell in line)
    ]


def assert_is_a_pairing(board: Board, pairing: Pairing) -> None:
    """The pairs are disjoint pairs of empty cells and every open line holds one of them."""
    cells = [cell for pair in pairing.pairs for cell in pair.cells]
    assert len(cells) == len(set(cells))
    assert all(board[cell] is None for cell in cells)
    pairs = [set(pair.cells) for pair in pairing.pairs]
    for line in open_lines(board, pairing.defender):
        assert any(pair <= set(line) for pair in pairs), line
    for pair in pairing.pairs:
        # The lines listed for a pair are exactly the open lines that hold both its cells.
        assert sorted(pair.lines) == sorted(
            line for line in open_lines(board, pairing.defender) if set(pair.cells) <= set(line)
        )


def play_it_out(board: Board, pairing: Pairing, rng: random.Random) -> Board:
    """A random attacker against the pairing strategy, to the end of the game: the defender
    takes the partner of the attacker's last cell while it is free, any cell otherwise."""
    last = None
    while not board.is_over:
        moves = board.legal_moves()
        if board.to_move is pairing.defender:
            partner = None if last is None else pairing.partner(last)
            move = partner if partner in moves else rng.choice(moves)
        else:
            move = rng.choice(moves)
            last = move
        board = board.play(move)
    return board


@cache
def brute(size: int, k: int) -> BruteForce:
    return BruteForce(size, k)


def test_five_by_five_five_in_a_row_has_the_classic_pairing() -> None:
    board = Board.empty(5, 5)
    pairing = find_pairing(board)
    assert pairing is not None and pairing.defender is Mark.O
    # 12 lines, 12 pairs: one per line, the centre left over.
    assert len(pairing.pairs) == 12 and len(pairing.cells) == 24
    assert_is_a_pairing(board, pairing)


@pytest.mark.parametrize(("size", "k"), [(3, 3), (4, 4)])
def test_no_pairing_exists_when_k_is_the_size_and_lines_outnumber_half_the_cells(
    size: int, k: int
) -> None:
    lines = lines_of(size, k)
    # Two cells lie together in at most one line, so every line needs a pair of its own.
    for a, b in combinations(range(size * size), 2):
        assert sum(1 for line in lines if a in line and b in line) <= 1
    assert 2 * len(lines) > size * size
    assert find_pairing(Board.empty(size, k)) is None


@pytest.mark.parametrize(("size", "k"), [(6, 6), (7, 6), (7, 7)])
def test_empty_boards_with_long_lines_have_pairings(size: int, k: int) -> None:
    board = Board.empty(size, k)
    pairing = find_pairing(board)
    assert pairing is not None
    assert_is_a_pairing(board, pairing)


def test_partner_answers_each_paired_cell_and_nothing_else() -> None:
    pairing = find_pairing(Board.empty(5, 5))
    assert pairing is not None
    for pair in pairing.pairs:
        a, b = pair.cells
        assert pairing.partner(a) == b and pairing.partner(b) == a
    unpaired = set(range(25)) - pairing.cells
    assert all(pairing.partner(cell) is None for cell in unpaired)


def test_a_finished_game_has_no_pairing() -> None:
    board = Board.from_string("XXXXX/OOOO./...../...../.....", k=5)
    assert board.is_over and find_pairing(board) is None


def test_the_defender_defaults_to_the_side_that_moved_last() -> None:
    board = Board.empty(5, 5).play(12)
    pairing = find_pairing(board)
    assert pairing is not None and pairing.defender is Mark.X
    other = find_pairing(board, Mark.O)
    assert other is not None and other.defender is Mark.O
    assert_is_a_pairing(board, other)


@pytest.mark.parametrize(
    ("size", "k", "seed", "marks"),
    [
        (5, 5, 1, (2, 12)),
        (5, 4, 2, (8, 14)),
        (4, 4, 3, (4, 9)),
        (6, 5, 4, (4, 16)),
        (7, 5, 5, (4, 16)),
    ],
)
@pytest.mark.slow
def test_every_pairing_found_covers_the_open_lines_and_holds_in_play(
    size: int, k: int, seed: int, marks: tuple[int, int]
) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(40 if size > 6 else 120):
        cells = brute(size, k).random_position(rng, rng.randint(*marks))
        board = Board.from_string(cells, k=k)
        for defender in (Mark.X, Mark.O):
            pairing = find_pairing(board, defender)
            if pairing is None:
                continue
            found += 1
            assert_is_a_pairing(board, pairing)
            for _ in range(3):
                assert play_it_out(board, pairing, rng).winner is not pairing.attacker
    assert found >= 10


@pytest.mark.parametrize(
    ("size", "k", "seed", "marks"),
    [
        (5, 5, 6, (13, 17)),
        (5, 4, 7, (13, 16)),
        (4, 4, 8, (6, 10)),
    ],
)
@pytest.mark.slow
def test_a_pairing_means_the_attacker_cannot_win_by_brute_force(
    size: int, k: int, seed: int, marks: tuple[int, int]
) -> None:
    rng = random.Random(seed)
    ref = brute(size, k)
    checked = 0
    while checked < 12:
        cells = ref.random_position(rng, rng.randint(*marks))
        board = Board.from_string(cells, k=k)
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        # Defender to move: its value is at least a draw. Attacker to move: at most a draw.
        if find_pairing(board, board.to_move) is not None:
            checked += 1
            assert ref.value(cells, mover) >= 0, cells
        if find_pairing(board, board.to_move.opponent) is not None:
            checked += 1
            assert ref.value(cells, mover) <= 0, cells
