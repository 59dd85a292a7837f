"""Wins the solver must reach under a clock: quick wins are looked for first, fastest first, so a
win in 11 on 7x7 is proven in a fraction of a second (it took seven before). The clocks here are
generous (a busy machine must not fail them: speed is measured by `bench`, not asserted); the
search must still end early, complete, with the proof."""

from __future__ import annotations

import random

import pytest

from tests.engine.brute import BruteForce
from tests.engine.prover import confirmed
from tictactoe_tui.engine import Board, alphabeta, analyse_position, describe_score
from tictactoe_tui.engine.proofs import solver

WIN_IN_11_7X7_K4 = "......./......./......./......./....OX./XO.X.../.O....."
"""X to move wins in exactly 11 (the prover below confirms the win within 11)."""


CLOCK = 60.0
"""Far more than the proof takes (0.1 s idle): the clocked search is what runs."""


def test_a_win_in_eleven_on_seven_by_seven_is_proven_under_a_clock() -> None:
    board = Board.from_string(WIN_IN_11_7X7_K4, k=4)
    result = alphabeta(board, time_limit=CLOCK)
    words = describe_score(result.score, board, kind=result.kind, band=result.band)
    assert result.complete and words == "win in 11"
    assert confirmed(board, result.move, result.score)
    assert result.pv[0] == result.move and len(result.pv) == 11


def test_the_analysis_shows_the_win_as_exact_under_a_clock() -> None:
    board = Board.from_string(WIN_IN_11_7X7_K4, k=4)
    analysis = analyse_position(board, time_limit=CLOCK)
    best = analysis.scores[0]
    words = describe_score(best.score, board, kind=best.kind, band=best.band)
    assert best.exact and words == "win in 11"
    assert best.move == alphabeta(board, time_limit=CLOCK).move


@pytest.mark.slow
def test_looking_for_quick_wins_first_changes_no_value_on_small_boards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Small boards skip the ladder of quick-win questions; turned on, every value still matches
    # the independent brute force.
    monkeypatch.setattr(solver, "QUICK_WIN_MIN_CELLS", 0)
    rng = random.Random(21)
    for size, k, marks in ((4, 3, (2, 8)), (4, 4, (5, 10)), (5, 4, (12, 16))):
        ref = BruteForce(size, k)
        for _ in range(8):
            cells = ref.random_position(rng, rng.randint(*marks))
            mover = "X" if cells.count("X") == cells.count("O") else "O"
            truth = ref.move_values(cells, mover)
            analysis = analyse_position(Board.from_string(cells, k=k))
            assert analysis.complete
            assert {m.move: m.score for m in analysis.scores} == truth, cells
