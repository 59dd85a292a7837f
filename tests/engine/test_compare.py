"""The lab's comparison: agreement with minimax, minimax's budget, the costs over a game."""

from __future__ import annotations

import itertools

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import (
    NO_VERDICT,
    Verdict,
    best_so_far,
    compare,
    default_depth,
    game_costs,
    run_minimax,
    score_by_depth,
    verdict,
)
from tictactoe_tui.engine.lab.trace import LAB_ALGORITHMS, trace_search, tree_size


def test_a_full_minimax_judges_every_search_on_move_and_value_separately() -> None:
    board = Board.empty(3, 3)
    reference = trace_search(board, "minimax")
    assert verdict(trace_search(board, "alphabeta-tt"), reference) == Verdict(True, True)
    # H1 to depth 2 picks the centre (a best move) with an estimate of +1 (not the draw, 0).
    judged = verdict(trace_search(board, "h1"), reference)
    assert judged == Verdict(True, False) and judged.agrees is False
    assert verdict(reference, reference) == NO_VERDICT


def test_a_depth_limited_minimax_judges_only_searches_to_its_depth_with_h1() -> None:
    board = Board.from_string("X../.O./...")
    reference = trace_search(board, "minimax", depth=2)
    assert verdict(trace_search(board, "alphabeta-plain", depth=2), reference).agrees is True
    assert verdict(trace_search(board, "h1"), reference).agrees is True  # H1, depth 2: alike
    assert verdict(trace_search(board, "h2"), reference) == NO_VERDICT
    assert verdict(trace_search(board, "alphabeta-tt"), reference) == NO_VERDICT


def test_nothing_judges_when_minimax_did_not_finish() -> None:
    board = Board.empty(3, 3)
    stopped = trace_search(board, "minimax", should_stop=lambda: True)
    assert not stopped.finished
    assert verdict(trace_search(board, "alphabeta-tt"), stopped) == NO_VERDICT
    assert verdict(trace_search(board, "alphabeta-tt"), None).agrees is None


def test_a_tree_too_big_for_the_budget_stops_early_and_a_fitting_depth_is_suggested() -> None:
    board = Board.empty(4, 4)
    run = run_minimax(board, time_limit=0.5)
    assert run.too_big and not run.result.finished and run.result.stopped == "too big"
    assert run.result.seconds < 1.5  # it did not wait for the whole tree
    assert run.tree.positions > 10**12 and not run.tree.exact
    depth = run.suggested_depth
    assert depth is not None and 1 <= depth < 16
    # Half the budget at the measured speed, so the suggestion finishes.
    assert tree_size(board, depth).positions <= run.positions_per_second * 0.5 / 2
    assert tree_size(board, depth + 1).positions > run.positions_per_second * 0.5 / 2


def test_compare_gives_every_algorithm_the_lab_searchs_numbers() -> None:
    board = Board.from_string("XO./.../.OX")
    comparison = compare(board)
    assert [r.algorithm for r in comparison.results] == list(LAB_ALGORITHMS)
    for result in comparison.results:
        expected = trace_search(board, result.algorithm)
        assert (result.move, result.value, result.positions, result.cutoffs, result.table_hits) == (
            expected.move,
            expected.value,
            expected.positions,
            expected.cutoffs,
            expected.table_hits,
        )
    assert comparison.too_big_tree is None and comparison.minimax.tree.exact


def test_a_small_budget_runs_minimax_to_a_depth_and_names_the_tree_it_skipped() -> None:
    comparison = compare(Board.empty(3, 3), time_limit=0.3)
    assert comparison.too_big_tree is not None
    assert comparison.too_big_tree.positions == 549_946
    minimax = comparison.results[0]
    assert minimax.finished and minimax.depth is not None and minimax.depth < 9
    assert minimax.positions == tree_size(Board.empty(3, 3), minimax.depth).positions


def test_positions_with_many_empty_cells_are_searched_to_depth_3_by_default() -> None:
    assert default_depth(Board.empty(3, 3)) is None
    assert default_depth(Board.from_string("XOX./OXO./..../....", k=4)) is None  # 10 empty
    assert default_depth(Board.from_string("XO../.X../..../....", k=4)) == 3


def test_game_costs_count_each_position_and_stop_when_asked() -> None:
    boards = [Board.empty(3, 3), Board.from_string("X../.O./..."), Board.from_string("XXX/OO./...")]
    costs = game_costs(boards)
    assert len(costs) == 2  # the finished position is skipped
    for cost, board in zip(costs, boards, strict=False):
        assert cost.minimax == tree_size(board)
        assert cost.plain == trace_search(board, "alphabeta-plain").positions
        assert cost.table == trace_search(board, "alphabeta-tt").positions
    assert game_costs(boards, should_stop=lambda: True) == []


# -- the search's story, depth by depth ------------------------------------------------------------


def test_score_by_depth_gives_each_depths_own_search_up_to_the_exact_value() -> None:
    board = Board.empty(3, 3)
    rows = score_by_depth(board, "alphabeta-tt")
    assert [row.depth for row in rows] == list(range(1, 10))
    positions = 0
    for row in rows[:-1]:
        alone = trace_search(board, "alphabeta-tt", row.depth)
        positions += alone.positions
        assert (row.move, row.score, row.nodes) == (alone.move, alone.value, positions)
        assert (row.kind, row.band, row.complete) == ("estimate", "heuristic", False)
    # The last depth is the whole game: the draw, proven.
    last = rows[-1]
    assert (last.score, last.kind, last.band, last.complete) == (0, "exact", "draw", True)
    assert last.nodes == positions + trace_search(board, "alphabeta-tt").positions


def test_score_by_depth_stops_at_a_proven_win() -> None:
    board = Board.from_string("XX./OO./...")  # X wins at once (C1)
    rows = score_by_depth(board, "alphabeta-plain")
    assert len(rows) == 1 and rows[0].kind == "exact" and rows[0].band == "win"


def test_score_by_depth_keeps_a_heuristic_search_to_its_own_depth() -> None:
    board = Board.empty(3, 3)
    assert [row.depth for row in score_by_depth(board, "h2")] == [1, 2]
    assert [row.depth for row in score_by_depth(board, "h1", heuristic_depth=3)] == [1, 2, 3]
    # On a big position every search goes to the comparison's depth (3 by default).
    big = Board.from_string("X.../.O../..../....", k=4)
    assert [row.depth for row in score_by_depth(big, "alphabeta-ordered", depth=3)] == [1, 2, 3]


def test_score_by_depth_keeps_the_depths_done_when_stopped() -> None:
    board = Board.empty(3, 3)
    everything = score_by_depth(board, "alphabeta-plain")
    polls = itertools.count()
    stopped = score_by_depth(board, "alphabeta-plain", should_stop=lambda: next(polls) >= 3)
    assert 0 < len(stopped) < len(everything)
    assert [(r.depth, r.move, r.score) for r in stopped] == [
        (r.depth, r.move, r.score) for r in everything[: len(stopped)]
    ]
    assert score_by_depth(board, "alphabeta-plain", time_limit=0) == ()


def test_a_stopped_search_knows_a_lower_bound_from_the_root_moves_it_finished() -> None:
    board = Board.empty(5, 5)
    polls = itertools.count()
    result = trace_search(board, "minimax", 3, should_stop=lambda: next(polls) >= 4)
    assert not result.finished and 1 <= result.root_moves_done < 25
    bound = best_so_far(result)
    assert bound is not None and bound.kind == "at_least" and not bound.exact
    assert bound.score == max(m.score for m in result.root_scores)
    # Every root move minimax finished has its value: the position is worth at least the best.
    full = trace_search(board, "minimax", 3)
    assert full.value >= bound.score
    assert best_so_far(full) is None
