"""Moves the exact solver's proofs leave tied on bounds (issue 39, item 1).

On 7x7 with five in a row, under a short clock, the solver soon proves that the side to move
cannot win with any move ("at most a draw") and runs out of time before it proves which move
holds the draw. A bound every move shares says nothing about which one to play: the moves then
rank as the depth-limited search ranks them, as in a position the solver never saw, and the
computer plays the search's choice, not the first cell of the board. The bounds stay bounds:
no tied bound is called exact or equally good, and each move keeps what was proven of it.

The clock is `TickClock` (one millisecond each time it is read), so a budget stops the solver
and the search at the same place on every machine.
"""

from __future__ import annotations

import random
import time

import pytest

from tests.engine.test_solver import TickClock
from tictactoe_tui.engine import AlphaBetaPlayer, Analysis, Board, analyse_position
from tictactoe_tui.engine.proofs.solver import RootSolver, Solver, solvable
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.solver_scores import ranked_by_search as _ranked_by_search
from tictactoe_tui.engine.search.types import MoveScore

AFTER_D4 = "......./......./......./...X.../......./......./......."
"""7x7, five in a row, O to move after X took the centre: a draw. Within 100 to 400 ticks the
solver proves that no move of O's wins, but not which moves hold the draw."""

CORNERS = {0, 6, 42, 48}


def board() -> Board:
    return Board.from_string(AFTER_D4, k=5)


def ticking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "perf_counter", TickClock())


def moves(analysis: Analysis) -> list[int]:
    return [scored.move for scored in analysis.scores]


@pytest.mark.parametrize("ticks", [100, 400])
def test_when_no_move_is_proven_better_the_moves_rank_as_the_depth_limited_search_ranks_them(
    ticks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticking(monkeypatch)
    analysis = analyse_position(board(), time_limit=ticks / 1000)
    # The situation: every move proven no win, none proven a draw.
    assert all(
        (scored.kind, scored.band, scored.score) == ("at_most", "draw", 0)
        for scored in analysis.scores
    )
    assert len(analysis.scores) == 48 and not analysis.complete
    # The depth is the depth-limited search's, which ranked the moves: not the solver's 48.
    assert 1 <= analysis.depth < 48
    searched = analyse_position(board(), depth=analysis.depth)
    assert moves(analysis) == moves(searched)
    assert analysis.scores[0].move not in CORNERS
    # A bound is never known to equal another: the computer plays the first move.
    assert analysis.best_moves == (analysis.scores[0].move,)
    # The story ends on that answer, after the search's own rows.
    *told, last = analysis.iterations
    assert (last.move, last.kind, last.band) == (analysis.scores[0].move, "at_most", "draw")
    assert told and told[-1].band == "heuristic" and told[-1].depth == analysis.depth


def test_a_move_proven_no_win_does_not_outrank_the_searchs_unproven_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At 50 ticks the solver has proven some moves no win, not yet the search's best (C3).
    ticking(monkeypatch)
    analysis = analyse_position(board(), time_limit=0.05)
    best = analysis.scores[0]
    assert (best.move, best.kind, best.band) == (16, "estimate", "heuristic")
    assert any(scored.at_most_draw() for scored in analysis.scores)
    assert 1 <= analysis.depth < 48
    assert moves(analysis) == moves(analyse_position(board(), depth=analysis.depth))


def test_the_computer_plays_the_depth_limited_searchs_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticking(monkeypatch)
    decision = AlphaBetaPlayer(random.Random(0), time_limit=0.1).choose(board())
    assert decision.analysis is not None and decision.analysis.depth < 48
    searched = analyse_position(board(), depth=decision.analysis.depth)
    assert decision.move == searched.scores[0].move
    assert decision.move not in CORNERS


def test_a_proof_that_moves_cannot_win_ranks_them_no_higher_than_their_estimates() -> None:
    """A move the solver proved not to win reads "at most a draw", but ranks at the lower of 0
    and the search's estimate: the proof must not lift a move the search thinks worse above an
    unproven one, nor drop one it thinks better below it."""
    position = board()
    sh = fs.shape(7, 5)
    root = RootSolver(position, Solver(sh, fs.Poller(None, None, sh.poll_mask)))
    worse, better, unproven = 0, 17, 16
    for move in (worse, better):
        root.moves[move].hi = 0
    estimates = [
        MoveScore(worse, -30, 5, False, (worse,), "at_most", 2),
        MoveScore(unproven, -7, 5, False, (unproven,), "estimate", 2),
        MoveScore(better, 4, 5, False, (better,), "at_least", 2),
    ]
    order = _ranked_by_search(estimates, root)
    assert [scored.move for scored in order] == [better, unproven, worse]
    claims = {scored.move: (scored.kind, scored.band, scored.score) for scored in order}
    assert claims[worse] == claims[better] == ("at_most", "draw", 0)
    assert claims[unproven] == ("estimate", "heuristic", -7)


@pytest.mark.slow
def test_after_a_proven_draw_the_moves_no_better_follow_the_solvers_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticking(monkeypatch)
    position = board()
    analysis = analyse_position(position, time_limit=1.0)
    assert analysis.complete and analysis.scores[0].exact and analysis.scores[0].score == 0
    bounds = [scored.move for scored in analysis.scores if scored.kind == "at_most"]
    assert bounds and all(scored.at_most_draw() for scored in analysis.scores)
    sh = fs.shape(7, 5)
    root = RootSolver(position, Solver(sh, fs.Poller(None, None, sh.poll_mask)))
    order = root.solver.ordered(root.me, root.opp, root.empty)
    assert bounds == [cell for cell in order if cell in bounds]


# -- 8x8 and 9x9 ---------------------------------------------------------------------------------

ENDGAME_8X8 = "......../XXOOX.../XOXX.OO./O.OXXXXO/XOOOOXXX/..XOXOX./OX.OX..O/..O..XO."
"""8x8, five in a row, 25 empty cells, O to move: a draw the solver settles in a few
hundredths of a second (about 26 ticks); at 25 ticks it has proven most moves no win."""

ENDGAME_9X9 = (
    "OXO.OXO../XOXO..OXX/..XOXXOXO/O.XXXOX.X/OXXOXO.OX/XOOXOX.OX/..XOOXO../..XOX...O/OO..XO..."
)
"""9x9, five in a row, 25 empty cells: the same, at the same budget."""


@pytest.mark.parametrize("text", [ENDGAME_8X8, ENDGAME_9X9])
def test_on_8x8_and_9x9_the_solver_sees_only_the_last_25_empty_cells(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One move earlier the depth-limited search alone ranks the moves: nothing is proven of
    them, so nothing can tie on a proof (a draw is a game value only the solver gives)."""
    assert solvable(Board.from_string(text, k=5))
    last = "X" if text.count("X") > text.count("O") else "O"
    earlier = Board.from_string(text.replace(last, ".", 1), k=5)
    assert earlier.size * earlier.size - earlier.move_count == 26 and not solvable(earlier)
    ticking(monkeypatch)
    analysis = analyse_position(earlier, time_limit=0.025)
    assert not any(scored.band == "draw" for scored in analysis.scores)
    assert moves(analysis) == moves(analyse_position(earlier, depth=analysis.depth))


@pytest.mark.parametrize("text", [ENDGAME_8X8, ENDGAME_9X9])
def test_on_8x8_and_9x9_endgames_tied_proofs_rank_as_the_depth_limited_search_ranks_them(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticking(monkeypatch)
    position = Board.from_string(text, k=5)
    analysis = analyse_position(position, time_limit=0.025)
    tied = [scored for scored in analysis.scores if scored.at_most_draw()]
    assert len(tied) >= 20 and not analysis.complete
    assert all(scored.kind == "at_most" for scored in tied)
    assert moves(analysis) == moves(analyse_position(position, depth=analysis.depth))
