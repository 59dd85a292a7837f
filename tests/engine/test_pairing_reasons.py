"""Why a position has no pairing (`examine_pairing`) and a line to one (`pairing_line`), checked
by code that shares nothing with the engine: lines from `brute.lines_of`, an exact-cover search
of its own for small boards, and the brute-force value of the positions."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from tests.engine.brute import BruteForce, lines_of
from tests.engine.test_pairing import assert_is_a_pairing, open_lines
from tictactoe_tui.engine import Board, Mark, alphabeta
from tictactoe_tui.engine.proofs.pairing import (
    NoPairing,
    Pairing,
    examine_pairing,
    find_pairing,
    move_order,
    pairing_line,
)

BIG_BUDGET = 1_000_000
"""Enough branch points to settle every small board here for good."""


@cache
def brute(size: int, k: int) -> BruteForce:
    return BruteForce(size, k)


def pairing_exists(board: Board, defender: Mark) -> bool:
    """Whether disjoint pairs of free cells can cover every open line: an exact search, the
    plainest one (the first uncovered line, each pair of its free cells in turn)."""
    free = {cell for cell in range(board.size * board.size) if board[cell] is None}
    lines = [set(line) for line in open_lines(board, defender)]

    def cover(todo: list[set[int]], free: set[int]) -> bool:
        if not todo:
            return True
        first, rest = todo[0], todo[1:]
        for a, b in combinations(sorted(first & free), 2):
            if cover([line for line in rest if not {a, b} <= line], free - {a, b}):
                return True
        return False

    return cover(lines, free)


@pytest.mark.parametrize(("size", "k", "lines", "pairs"), [(3, 3, 8, 8), (4, 4, 10, 10)])
def test_the_empty_board_is_counted_out_when_k_is_the_size(
    size: int, k: int, lines: int, pairs: int
) -> None:
    answer = examine_pairing(Board.empty(size, k))
    assert isinstance(answer, NoPairing)
    assert answer.defender is Mark.O and answer.attacker is Mark.X
    assert (answer.open_lines, answer.free_cells, answer.most_shared) == (lines, size * size, 1)
    assert answer.pairs_needed == pairs and answer.counted_out and answer.exhausted
    assert answer.short_line == ()


def test_seven_by_seven_five_in_a_row_is_not_counted_out_but_searched_out() -> None:
    answer = examine_pairing(Board.empty(7, 5), budget=BIG_BUDGET)
    assert isinstance(answer, NoPairing)
    # 60 lines, one pair in at most 3 of them (two cells in the middle of a row of 7): 20 pairs,
    # 40 cells, and there are 49: counting allows it, the search tried every way.
    assert (answer.open_lines, answer.free_cells, answer.most_shared) == (60, 49, 3)
    assert answer.pairs_needed == 20 and not answer.counted_out
    assert answer.exhausted and answer.visited > 0


def test_a_small_budget_says_it_stopped_rather_than_that_none_exists() -> None:
    answer = examine_pairing(Board.empty(6, 5), budget=100)
    assert isinstance(answer, NoPairing) and not answer.exhausted and answer.visited == 100


def test_a_line_with_one_free_cell_is_named() -> None:
    # X has four of the top row's five; O's marks are elsewhere.
    board = Board.from_string("XXXX./OOO../...../...../.....", k=5)
    answer = examine_pairing(board, Mark.O)
    assert isinstance(answer, NoPairing)
    assert answer.short_line == (0, 1, 2, 3, 4)


@pytest.mark.parametrize(
    ("size", "k", "seed", "marks"),
    [
        (3, 3, 1, (0, 6)),
        (4, 4, 2, (0, 10)),
        (5, 4, 3, (4, 14)),
        (5, 5, 4, (0, 14)),
    ],
)
def test_every_answer_agrees_with_an_exact_cover_search(
    size: int, k: int, seed: int, marks: tuple[int, int]
) -> None:
    rng = random.Random(seed)
    lines = lines_of(size, k)
    for _ in range(60):
        board = Board.from_string(brute(size, k).random_position(rng, rng.randint(*marks)), k=k)
        for defender in (Mark.X, Mark.O):
            answer = examine_pairing(board, defender, budget=BIG_BUDGET)
            assert (find_pairing(board, defender, BIG_BUDGET) is not None) == (
                isinstance(answer, Pairing) and not board.is_over
            )
            if isinstance(answer, Pairing):
                assert_is_a_pairing(board, answer)
                continue
            assert answer.exhausted
            assert not pairing_exists(board, defender), str(board)
            opened = open_lines(board, defender)
            free = [cell for cell in range(size * size) if board[cell] is None]
            assert answer.open_lines == len(opened)
            assert answer.free_cells == len(free)
            assert answer.most_shared == max(
                (
                    sum(1 for line in opened if a in line and b in line)
                    for a, b in combinations(free, 2)
                ),
                default=0,
            )
            if answer.short_line:
                assert answer.short_line in lines and answer.short_line in opened
                assert sum(1 for cell in answer.short_line if board[cell] is None) < 2
            else:
                assert all(sum(1 for cell in line if board[cell] is None) >= 2 for line in opened)


def test_move_order_puts_the_centre_first_on_an_empty_board_and_a_win_first_later() -> None:
    assert move_order(Board.empty(7, 5))[0] == 24
    board = Board.from_string("XXXX./OOOO./...../...../.....", k=5)
    assert move_order(board)[0] in (4, 9)


@pytest.mark.slow
def test_seven_by_seven_reaches_a_pairing_after_a_few_moves() -> None:
    board = Board.empty(7, 5)
    line = pairing_line(board)
    assert line is not None and 0 < len(line.moves) <= 8
    position = board
    for ply, move in enumerate(line.moves):
        if ply % 2 == 0:
            # The attacker (X) plays its most promising move each time.
            assert move == move_order(position)[0]
        position = position.play(move)
    assert position == line.board and not position.is_over
    assert line.pairing.defender is Mark.O
    assert_is_a_pairing(position, line.pairing)


def test_a_position_with_a_pairing_needs_no_line() -> None:
    board = Board.empty(5, 5)
    line = pairing_line(board)
    assert line is not None and line.moves == () and line.board == board
    assert_is_a_pairing(board, line.pairing)


@pytest.mark.parametrize(("size", "k"), [(3, 3), (4, 4), (6, 5)])
def test_small_draws_reach_a_pairing_along_a_line_the_defender_holds(size: int, k: int) -> None:
    board = Board.empty(size, k)
    line = pairing_line(board)
    assert line is not None
    assert_is_a_pairing(line.board, line.pairing)
    # The attacker cannot win from there: the solver's value agrees with the pairing.
    if not line.board.is_over and line.board.move_count < size * size:
        result = alphabeta(line.board)
        attacker_to_move = line.board.to_move is line.pairing.attacker
        assert result.complete
        assert (result.score <= 0) if attacker_to_move else (result.score >= 0)


def test_a_caller_can_stop_the_search() -> None:
    assert pairing_line(Board.empty(7, 5), should_stop=lambda: True) is None


def test_no_line_is_found_when_the_defender_has_lost_already() -> None:
    board = Board.from_string("XXXXX/OOOO./...../...../.....", k=5)
    assert pairing_line(board, Mark.O) is None
