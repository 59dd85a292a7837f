"""Search on big boards (10x10, five in a row): tactics, iterative deepening and cancelling."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import pytest

from tictactoe_tui.engine import (
    AlphaBetaPlayer,
    Board,
    Progress,
    alphabeta,
    analyse_position,
    minimax,
)


def position(x_cells: Sequence[int], o_cells: Sequence[int], size: int = 10, k: int = 5) -> Board:
    """A board with X and O on the given cells; the side to move follows from the counts."""
    cells = ["X" if c in x_cells else "O" if c in o_cells else "." for c in range(size * size)]
    return Board.from_string("".join(cells), k=k)


def stop_after(calls: int) -> Callable[[], bool]:
    """A should_stop that says yes from its `calls`-th call on."""
    count = 0

    def should_stop() -> bool:
        nonlocal count
        count += 1
        return count >= calls

    return should_stop


QUIET = position((44, 55, 45, 34), (54, 35, 66, 53))


@pytest.mark.parametrize("limits", [{"depth": 3}, {"time_limit": 0.3}])
def test_a_win_in_one_is_never_missed(limits: dict[str, float]) -> None:
    board = position((42, 43, 44, 45), (20, 30, 90, 51))
    result = alphabeta(board, **limits)  # type: ignore[arg-type]
    assert result.move in (41, 46) and result.score == 100 and result.complete


def test_winning_beats_blocking_when_both_sides_have_four() -> None:
    board = position((32, 33, 34, 35), (60, 61, 62, 63))
    assert alphabeta(board, depth=4).move in (31, 36)


@pytest.mark.parametrize("limits", [{"depth": 1}, {"depth": 4}, {"time_limit": 0.3}])
def test_a_four_is_always_blocked(limits: dict[str, float]) -> None:
    board = position((42, 43, 44, 45), (41, 66, 99))
    assert alphabeta(board, **limits).move == 46  # type: ignore[arg-type]


def test_an_open_three_is_turned_into_an_open_four_that_wins_on_ply_three() -> None:
    board = position((32, 33, 34), (0, 9, 99))
    result = alphabeta(board, time_limit=0.5)
    assert result.move in (31, 35)
    assert result.score == 101 - 3 and result.complete
    assert len(result.pv) == 3


def test_facing_an_open_four_the_loss_is_reported_as_a_loss() -> None:
    board = position((31, 32, 33, 34), (0, 9, 99))
    result = alphabeta(board, depth=3)
    assert result.score == -(101 - 2) and result.complete


def test_iterative_deepening_reports_the_deepest_completed_depth() -> None:
    result = alphabeta(QUIET, time_limit=0.5)
    assert result.depth >= 2 and not result.complete and not result.cancelled
    assert result.elapsed < 1.5
    assert result.pv[0] == result.move and result.move in QUIET.legal_moves()


def test_a_fixed_depth_is_searched_exactly_that_deep() -> None:
    result = alphabeta(QUIET, depth=3)
    assert result.depth == 3 and abs(result.score) < 101 - 3


def test_without_limits_a_big_board_falls_back_to_the_default_time_limit() -> None:
    result = alphabeta(QUIET, should_stop=stop_after(50))
    assert result.cancelled


def test_should_stop_cancels_alphabeta_and_keeps_a_legal_move() -> None:
    result = alphabeta(QUIET, time_limit=30, should_stop=stop_after(3))
    assert result.cancelled and result.move in QUIET.legal_moves()


def test_should_stop_cancels_a_full_solve() -> None:
    result = alphabeta(Board.empty(5, 4), should_stop=stop_after(2))
    assert result.cancelled and not result.complete
    assert result.move in Board.empty(5, 4).legal_moves()


def test_should_stop_cancels_minimax() -> None:
    result = minimax(Board.empty(3, 3), should_stop=stop_after(2))
    assert result.cancelled and not result.complete
    assert result.nodes < 549_946


def test_should_stop_cancels_an_analysis() -> None:
    analysis = analyse_position(QUIET, time_limit=30, should_stop=stop_after(3))
    assert analysis.cancelled


def test_a_cancel_is_noticed_within_a_few_milliseconds() -> None:
    # Not a performance claim: a generous bound that only catches a search that stops polling.
    asked: list[float] = []

    def should_stop() -> bool:
        if not asked and time.perf_counter() - started > 0.2:
            asked.append(time.perf_counter())
        return bool(asked)

    started = time.perf_counter()
    result = alphabeta(QUIET, time_limit=30, should_stop=should_stop)
    assert result.cancelled
    assert time.perf_counter() - asked[0] < 0.1


def test_depth_limited_analysis_scores_every_candidate_inside_the_bands() -> None:
    analysis = analyse_position(QUIET, depth=2)
    assert analysis.depth == 2 and not analysis.cancelled
    assert len(analysis.scores) == len(QUIET.legal_moves())
    assert all(abs(m.score) < 101 - 2 for m in analysis.scores if not m.exact)


# -- the player, the reading bias, minimax under a clock -----------------------------------------


def test_a_win_in_one_is_played_at_once_without_spending_the_budget() -> None:
    board = position((42, 43, 44, 45), (20, 30, 90, 51))
    decision = AlphaBetaPlayer(random.Random(0), time_limit=30.0).choose(board)
    analysis = decision.analysis
    assert decision.move in (41, 46) and analysis is not None
    # One position per legal move at most: the other moves get a one-ply estimate, no search.
    assert analysis.complete and analysis.depth == 1
    assert analysis.nodes <= 2 * len(board.legal_moves())


def test_the_player_keeps_its_tables_between_the_moves_of_a_game() -> None:
    # A clock far beyond what depth 4 needs: the searches end by depth and node budgets, so
    # two fresh ones are the same search.
    player = AlphaBetaPlayer(random.Random(0), depth=4, time_limit=30)
    first = player.choose(QUIET)
    assert first.analysis is not None
    # The same position again: the table answers most of it.
    again = player.choose(QUIET)
    assert again.analysis is not None and again.move == first.move
    assert again.analysis.nodes < first.analysis.nodes / 2
    fresh = AlphaBetaPlayer(random.Random(0), depth=4, time_limit=30).choose(QUIET)
    assert fresh.analysis is not None and fresh.analysis.nodes == first.analysis.nodes


def test_the_player_searches_as_deep_as_the_bare_search() -> None:
    # Same fixed depth and clock: the per-move scores come from the same search, not a second
    # one. (A clock changes the search: with the compiled kernel its threat checks get bigger
    # budgets and its guard looks for the opponent's VCT near the root.)
    bare = alphabeta(QUIET, depth=4, time_limit=30)
    decision = AlphaBetaPlayer(random.Random(0), depth=4, time_limit=30).choose(QUIET)
    assert decision.analysis is not None and decision.analysis.depth == bare.depth == 4
    assert decision.analysis.nodes <= 1.2 * bare.nodes
    assert decision.analysis.scores[0].score == bare.score


def test_a_balanced_position_reads_near_zero_at_every_depth() -> None:
    # After X's first move in the centre, O to move: slightly worse for O, never by much, and
    # no longer swinging by a move's worth between odd and even depths.
    board = Board.empty(10, 5).play(44)
    scores = [alphabeta(board, depth=depth).score for depth in range(1, 6)]
    assert all(-20 <= score <= 0 for score in scores), scores
    assert max(scores) - min(scores) <= 10, scores


def test_every_move_of_a_big_board_analysis_carries_its_line() -> None:
    seen: list[Progress] = []
    analysis = analyse_position(QUIET, time_limit=0.5, on_progress=seen.append)
    assert {m.move for m in analysis.scores} == set(QUIET.legal_moves())
    for scored in analysis.scores:
        assert scored.pv and scored.pv[0] == scored.move
    assert seen and all(p.pv and p.pv[0] == p.best_move for p in seen if p.best_move is not None)


def test_minimax_stops_when_its_time_runs_out_and_says_the_tree_is_unfinished() -> None:
    empty = Board.empty(3, 3)
    result = minimax(empty, time_limit=0.05)
    assert not result.complete and not result.cancelled
    assert result.move in empty.legal_moves() and result.nodes < 549_946
    analysis = analyse_position(empty, "minimax", time_limit=0.05)
    assert not analysis.complete and not analysis.cancelled
    assert len(analysis.scores) < 9 and analysis.nodes < 549_946


@pytest.mark.slow
def test_minimax_and_its_analysis_count_the_root_alike() -> None:
    empty = Board.empty(3, 3)
    assert minimax(empty).nodes == analyse_position(empty, "minimax").nodes == 549_946
    board = Board.from_string("X../.O./...")
    assert minimax(board).nodes == analyse_position(board, "minimax").nodes
