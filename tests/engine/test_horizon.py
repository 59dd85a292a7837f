"""The exact search to a horizon against searches that share no code with the engine."""

from __future__ import annotations

import random

import pytest

from tests.engine.bounded import Bounded
from tests.engine.brute import BruteForce
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.proofs.horizon import HorizonProver, OutOfBudget
from tictactoe_tui.engine.proofs.lines import LineState, side_of


def state_of(cells: str, k: int) -> tuple[LineState, int]:
    board = Board.from_string(cells, k=k)
    return LineState.from_board(board), side_of(board.to_move)


def test_every_3x3_position_and_horizon_agrees_with_brute_force() -> None:
    brute = BruteForce(3, 3)
    prover, threats = HorizonProver(), HorizonProver(threats_only=True)
    seen: set[str] = set()
    stack = ["." * 9]
    while stack:
        cells = stack.pop()
        if cells in seen:
            continue
        seen.add(cells)
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        if brute.winner(cells) is not None or "." not in cells:
            continue
        state, side = state_of(cells, 3)
        value = brute.value(cells, mover)
        for plies in range(1, cells.count(".") + 1):
            truth = value > 0 and brute.big - value <= plies
            assert prover.wins(state, side, plies) == truth, (cells, plies)
            assert threats.wins(state, side, plies) == truth, (cells, plies)  # k = 3: full width
        stack += [cells[:i] + mover + cells[i + 1 :] for i, c in enumerate(cells) if c == "."]
    assert len(seen) == 5478


@pytest.mark.slow
@pytest.mark.parametrize(("k", "marks"), [(3, range(3, 10)), (4, range(5, 12))])
def test_4x4_positions_agree_with_brute_force(k: int, marks: range) -> None:
    brute = BruteForce(4, k)
    prover = HorizonProver()
    rng = random.Random(k)
    for _ in range(25):
        cells = brute.random_position(rng, rng.choice(marks))
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        state, side = state_of(cells, k)
        for move, value in brute.move_values(cells, mover).items():
            for plies in (1, 3, 5, 7, 9):
                truth = value > 0 and brute.big - value <= plies
                assert prover.move_wins(state, side, move, plies) == truth, (cells, move, plies)


def test_5x5_positions_agree_with_an_independent_full_width_search() -> None:
    rng = random.Random(5)
    full = Bounded(5, 4)
    prover, threats = HorizonProver(), HorizonProver(threats_only=True)
    brute = BruteForce(5, 4)
    for _ in range(30):
        cells = brute.random_position(rng, rng.randrange(6, 14))
        state, side = state_of(cells, 4)
        board = Board.from_string(cells, k=4)
        me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
        for plies in (3, 5, 7):
            truth = full.wins(me, opp, plies)
            assert prover.wins(state, side, plies) == truth, (cells, plies)
            # A threat-only win is a win; it may miss wins that need a quiet move.
            assert not threats.wins(state, side, plies) or truth, (cells, plies)


def test_a_winning_line_ends_in_the_win_and_the_state_is_left_as_it_was() -> None:
    # 15×15: X's open three B2–B4 wins within 5 (an open four next, then the win).
    cells = ["."] * 225
    for cell in (16, 31, 46):  # B2, B3, B4
        cells[cell] = "X"
    for cell in (200, 201, 224):
        cells[cell] = "O"
    board = Board.from_string("".join(cells), k=5, to_move="X")
    state, side = LineState.from_board(board), side_of(board.to_move)
    before = (list(state.bits), len(state.history))
    line = HorizonProver().winning_line(state, side, 5)
    assert (list(state.bits), len(state.history)) == before
    for move in line:
        board = board.play(move)
    assert board.winner is not None and len(line) <= 5


def test_a_search_over_budget_says_so_and_leaves_the_state_as_it_was() -> None:
    board = Board.from_string("." * 100, k=5).play(44).play(45).play(55)
    state, side = LineState.from_board(board), side_of(board.to_move)
    with pytest.raises(OutOfBudget):
        HorizonProver(max_nodes=50).wins(state, side, 9)
    assert state.history == [] and state.bits == [board.x_bits, board.o_bits]
