"""The defender's answer by a pairing (`Pairing.reply`), played out against attackers, checked by
code that shares nothing with the engine's win detection: the lines come from `brute.lines_of`,
and a line is won when every one of its cells holds the attacker's mark."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tests.engine.brute import lines_of
from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.proofs.pairing import Pairing, examine_pairing, find_pairing


@cache
def line_sets(size: int, k: int) -> tuple[frozenset[int], ...]:
    """The independent line list, as sets."""
    return tuple(frozenset(line) for line in lines_of(size, k))


def holds_a_line(cells: set[int], size: int, k: int) -> bool:
    """Whether `cells` contain every cell of some line (the independent line list)."""
    return any(line <= cells for line in line_sets(size, k))


def pairing_of(board: Board) -> Pairing:
    found = find_pairing(board)
    assert found is not None
    return found


def test_the_partner_of_a_paired_cell_is_the_answer() -> None:
    board = Board.empty(5, 5)
    pairing = pairing_of(board)
    for pair in pairing.pairs:
        a, b = pair.cells
        assert pairing.reply(board.play(a), a) == b
        assert pairing.reply(board.play(b), b) == a


def test_a_cell_in_no_pair_is_answered_in_no_pair_while_there_is_one() -> None:
    # 6×6, six in a row: 14 lines, 36 cells, so some cells are in no pair.
    board = Board.empty(6, 6)
    pairing = pairing_of(board)
    unpaired = sorted(set(range(36)) - pairing.cells)
    assert len(unpaired) >= 2
    answer = pairing.reply(board.play(unpaired[0]), unpaired[0])
    assert answer == unpaired[1]


def test_a_pair_under_threat_is_answered_before_a_cell_in_no_pair() -> None:
    # O strayed: X took a, O took p (not a's partner), X took q, p's partner. q's pair is spent,
    # so the answer is free: b, the partner X threatens, before A1 (in no pair).
    board = Board.empty(5, 5)
    pairing = pairing_of(board)
    (a, b), (p, q) = pairing.pairs[0].cells, pairing.pairs[1].cells
    assert 0 not in pairing.cells
    position = board.play(a).play(p).play(q)
    assert pairing.reply(position, q) == b


def test_with_no_cell_in_no_pair_left_the_answer_breaks_a_whole_pair() -> None:
    # A1 is 5×5's one cell in no pair: when X takes it, O must take a paired cell (its lines then
    # hold an O, so the pairing still covers every line X could make).
    board = Board.empty(5, 5)
    pairing = pairing_of(board)
    answer = pairing.reply(board.play(0), 0)
    assert answer in pairing.cells


def test_no_answer_once_the_game_is_over() -> None:
    board = Board.from_string("XXX/OO./...")
    pairing = Pairing(Mark.O, ())
    assert pairing.reply(board, 2) is None


def play_against(pairing: Pairing, start: Board, rng: random.Random) -> tuple[set[int], Board]:
    """A random attacker against the pairing to the end; the attacker's cells and the end."""
    board = start
    mine = {cell for cell in range(board.size**2) if board[cell] is pairing.attacker}
    while not board.is_over:
        move = rng.choice(board.legal_moves())
        board = board.play(move)
        mine.add(move)
        assert not holds_a_line(mine, board.size, board.k), board
        answer = pairing.reply(board, move)
        if answer is None:
            break
        assert board[answer] is None
        board = board.play(answer)
    return mine, board


@pytest.mark.parametrize(("size", "k"), [(5, 5), (6, 6), (7, 6)])
def test_random_attackers_never_complete_a_line_against_the_pairing(size: int, k: int) -> None:
    rng = random.Random(size * 100 + k)
    start = Board.empty(size, k)
    pairing = pairing_of(start)
    for _ in range(1000):
        mine, end = play_against(pairing, start, rng)
        assert not holds_a_line(mine, size, k)
        assert end.winner is not Mark.X


def test_greedy_attackers_never_complete_a_line_either() -> None:
    # An attacker that always extends its fullest open line (the way a person attacks).
    start = Board.empty(5, 5)
    pairing = pairing_of(start)
    lines = lines_of(5, 5)
    rng = random.Random(5)
    for _ in range(100):
        board, mine = start, set[int]()
        while not board.is_over:
            free = board.legal_moves()
            pressure = {
                cell: max(
                    (
                        sum(c in mine for c in line)
                        for line in lines
                        if cell in line and all(board[c] is not Mark.O for c in line)
                    ),
                    default=-1,
                )
                for cell in free
            }
            best = max(pressure.values())
            move = rng.choice([cell for cell in free if pressure[cell] == best])
            board = board.play(move)
            mine.add(move)
            assert not holds_a_line(mine, 5, 5)
            answer = pairing.reply(board, move)
            if answer is not None:
                board = board.play(answer)


@pytest.mark.parametrize(
    "moves",
    [
        (12, 24, 6, 18, 1, 11),
        pytest.param((12, 24, 6, 18), marks=pytest.mark.slow),
    ],
)
@pytest.mark.slow
def test_every_attacker_strategy_fails_from_a_position_with_a_pairing(
    moves: tuple[int, ...],
) -> None:
    # Every sequence of attacker moves (the defender answering by the pairing) from 5×5 after
    # `moves`: the positions reached are walked exhaustively, none has a line of X's.
    start = Board.empty(5, 5)
    for move in moves:
        start = start.play(move)
    found = examine_pairing(start)
    assert isinstance(found, Pairing) and found.defender is Mark.O
    seen: set[tuple[int, int]] = set()
    # The independent lines as bit masks (cell i is bit i, as `Board.bits` counts them).
    masks = [sum(1 << cell for cell in line) for line in lines_of(5, 5)]

    def walk(board: Board) -> None:
        key = (board.bits(Mark.X), board.bits(Mark.O))
        if key in seen:
            return
        seen.add(key)
        for move in board.legal_moves():
            after = board.play(move)
            xs = after.bits(Mark.X)
            assert not any(xs & line == line for line in masks), after
            answer = found.reply(after, move)
            if answer is not None:
                walk(after.play(answer))

    walk(start)
    assert len(seen) > 100
