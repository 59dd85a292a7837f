"""Progress reports while a search runs, and the expected line each scored move carries."""

from __future__ import annotations

import random

import pytest

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import (
    AlphaBetaPlayer,
    Board,
    Limits,
    Progress,
    alphabeta,
    analyse_position,
    minimax,
)


def replay(board: Board, moves: tuple[int, ...]) -> Board:
    """Play `moves` in order (IllegalMove if any is not legal)."""
    for move in moves:
        board = board.play(move)
    return board


@pytest.mark.slow
def test_reports_come_at_least_every_tenth_of_a_second_on_a_big_board() -> None:
    board = Board.empty(10, 5).play(44).play(45)
    seen: list[Progress] = []
    result = alphabeta(board, time_limit=1.0, on_progress=seen.append)
    times = [p.elapsed for p in seen]
    assert len(seen) >= 5
    gaps = [b - a for a, b in zip([0.0, *times], times, strict=False)]
    # 100 ms by design; the slack absorbs a busy CI machine, not a missing report.
    assert max(gaps) < 0.35, gaps
    assert times == sorted(times)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    last = seen[-1]
    assert last.depth == result.depth
    assert last.best_move == result.move
    assert last.pv[0] == last.best_move
    replay(board, last.pv)


def test_every_completed_depth_is_reported_in_order() -> None:
    board = Board.empty(10, 5).play(44).play(45)
    seen: list[Progress] = []
    alphabeta(board, depth=3, on_progress=seen.append)
    depths = [p.depth for p in seen]
    assert {1, 2, 3} <= set(depths)
    assert depths == sorted(depths)


def test_a_solved_position_reports_a_complete_result() -> None:
    seen: list[Progress] = []
    result = alphabeta(Board.from_string("XX./OO./..."), on_progress=seen.append)
    assert seen[-1].complete and seen[-1].best_move == result.move == 2
    assert seen[-1].best_score == result.score == 9


def test_minimax_and_the_analysis_report_too() -> None:
    seen: list[Progress] = []
    minimax(Board.from_string("X../.O./..."), on_progress=seen.append)
    assert seen and seen[-1].complete and seen[-1].best_move is not None
    seen.clear()
    analysis = analyse_position(
        Board.from_string("X../.O./..."), "minimax", on_progress=seen.append
    )
    assert seen[-1].best_move == analysis.scores[0].move
    assert seen[-1].best_score == analysis.scores[0].score


def test_players_pass_progress_through() -> None:
    seen: list[Progress] = []
    board = Board.empty(7, 5).play(24)
    AlphaBetaPlayer(random.Random(0), time_limit=0.3).choose(board, Limits(on_progress=seen.append))
    assert seen and seen[-1].best_move in board.legal_moves()


def test_a_listener_does_not_change_the_result() -> None:
    board = Board.empty(6, 4).play(14).play(15)
    quiet = alphabeta(board, depth=4)
    heard = alphabeta(board, depth=4, on_progress=lambda progress: None)
    assert (quiet.move, quiet.score, quiet.nodes, quiet.pv) == (
        heard.move,
        heard.score,
        heard.nodes,
        heard.pv,
    )


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax"])
def test_every_scored_move_carries_a_legal_line_that_starts_with_it(algorithm: str) -> None:
    positions = [b for b in reachable_3x3() if not b.is_over]
    for board in positions[:: 7 if algorithm == "minimax" else 1]:
        for scored in analyse_position(board, algorithm).scores:
            assert scored.pv and scored.pv[0] == scored.move
            replay(board, scored.pv)


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax"])
@pytest.mark.slow
def test_a_win_or_loss_line_ends_where_the_score_says(algorithm: str) -> None:
    """A move scored "win in d" (or "loss in d") has a line of d moves ending in that win."""
    for board in [b for b in reachable_3x3() if not b.is_over][::3]:
        for scored in analyse_position(board, algorithm).scores:
            if scored.score == 0:
                continue
            end = replay(board, scored.pv)
            plies = 10 - abs(scored.score)
            winner = board.to_move if scored.score > 0 else board.to_move.opponent
            assert (len(scored.pv), end.winner) == (plies, winner), (board, scored)
