"""A root proven a draw is a draw on every path (issue 28, item 6).

Once the solver has proven the position's value, the analysis says so whatever the clock left
undone: the best moves are exact draws and every other move is exact where the solver settled
it, else "at most 0" (the side to move cannot win with it), never a heuristic number that would
claim what the game's value is not known to be. Every such claim is checked against an
independent win/draw/loss solver (`wdl.py`) on boards small enough for it.
"""

from __future__ import annotations

import random

import pytest

from tests.engine.wdl import WinDrawLoss
from tictactoe_tui.engine import Board, analyse_position
from tictactoe_tui.engine.proofs.solver import RootSolver, Solver
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.solver_scores import _with_bounds
from tictactoe_tui.engine.search.types import MoveScore

SEVEN_FIVE = "......./.....X./O....../......./....X../X....../......O"
"""7x7, five in a row, O to move: a draw the solver proves in a fraction of a second, while
settling every move's exact value takes far longer."""


def positions(size: int, k: int, stones: int, count: int, seed: int) -> list[Board]:
    """`count` unfinished positions with `stones` marks placed at random."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board.empty(size, k)
        for _ in range(stones):
            board = board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            found.append(board)
    return found


def true_of(claim: MoveScore, outcome: int) -> bool:
    """Whether a score's claim about the game holds for the move's true outcome (1 win, 0 draw,
    -1 loss); an unproven estimate claims nothing."""
    if claim.kind == "exact":
        return (claim.score > 0) - (claim.score < 0) == outcome
    if claim.at_most_draw():
        return outcome <= (-1 if claim.outcome == "loss" else 0)
    if claim.at_least_draw():
        return outcome >= (1 if claim.outcome == "win" else 0)
    return not claim.proven


@pytest.mark.parametrize(
    ("size", "k", "stones", "seed"), [(4, 4, 3, 1), (5, 4, 9, 2), (5, 4, 11, 3)]
)
@pytest.mark.slow
def test_a_move_proven_not_to_win_reads_at_most_a_draw_whatever_its_estimate(
    size: int, k: int, stones: int, seed: int
) -> None:
    oracle = WinDrawLoss(size, k)
    for board in positions(size, k, stones, 4, seed):
        sh = fs.shape(size, k)
        root = RootSolver(board, Solver(sh, fs.Poller(None, None, sh.poll_mask)))
        root.solve()  # the position's value only: most moves keep bounds, not values
        me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
        for move in board.legal_moves():
            outcome = oracle.move_outcome(me, opp, move)
            for guess in (-3, 5):
                estimate = MoveScore(move, guess, 10, False, (move,), "estimate", 2)
                claim = _with_bounds(estimate, root)
                assert true_of(claim, outcome), (str(board), move, claim, outcome)
                if root.moves[move].hi <= 0:
                    assert claim.at_most_draw(), (str(board), move, claim)


@pytest.mark.slow
def test_a_hint_on_a_proven_draw_says_draw_for_every_move() -> None:
    board = Board.from_string(SEVEN_FIVE, k=5)
    analysis = analyse_position(board, time_limit=10.0)
    assert analysis.complete
    best = analysis.scores[0]
    assert (best.kind, best.score) == ("exact", 0)
    assert all(scored.at_most_draw() for scored in analysis.scores)
    assert all(scored.kind != "estimate" for scored in analysis.scores)
    last = analysis.iterations[-1]
    assert (last.move, last.score, last.kind, last.complete) == (best.move, 0, "exact", True)


@pytest.mark.slow
def test_the_empty_7x7_five_in_a_row_board_is_proven_a_draw_in_a_minute() -> None:
    board = Board.empty(7, 5)
    analysis = analyse_position(board, time_limit=60.0)
    assert analysis.complete
    assert (analysis.scores[0].kind, analysis.scores[0].score) == ("exact", 0)
    assert all(scored.at_most_draw() for scored in analysis.scores)
    assert analysis.iterations[-1].complete
