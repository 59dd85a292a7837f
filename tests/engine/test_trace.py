"""The lab's instrumented searches: the engine's values everywhere, counts worked out by hand."""

from __future__ import annotations

import pickle
import threading
import time
from functools import cache

import pytest

from tests.engine.positions import reachable_3x3
from tests.engine.test_search import random_position, reference, reference_move_score
from tictactoe_tui.engine import Board, Progress, alphabeta, h1, h2, minimax
from tictactoe_tui.engine.lab.trace import (
    EVENT_CAP,
    LAB_ALGORITHMS,
    EventKind,
    TraceRecorder,
    h2_bits,
    node_board,
    record_search,
    trace_search,
    tree_size,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search import kernel as fs

FULL = ("minimax", "alphabeta-plain", "alphabeta-ordered", "alphabeta-tt")
"""The lab's searches that go to the end of the game unless given a depth."""


def open_positions() -> list[Board]:
    """Every reachable 3x3 position where someone can still move, in a fixed order."""
    return sorted((b for b in reachable_3x3() if not b.is_over), key=str)


@cache
def game_tree_size(board: Board) -> int:
    """Positions in the full game tree below `board`, counting it: brute force over `Board`."""
    if board.is_over:
        return 1
    return 1 + sum(game_tree_size(board.play(move)) for move in board.legal_moves())


def names(cells: list[int] | tuple[int, ...]) -> list[str]:
    return [cell_notation(cell, 3) for cell in cells]


# -- the same values as the engine, everywhere ------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", FULL)
def test_every_full_search_gives_the_engines_value_and_a_best_move_on_all_3x3_positions(
    algorithm: str,
) -> None:
    for board in open_positions():
        result = trace_search(board, algorithm)
        assert result.value == alphabeta(board).score == reference(board), str(board)
        assert result.move is not None
        assert reference_move_score(board, result.move) == result.value, str(board)
        assert result.complete and result.finished and result.depth is None
        if algorithm == "minimax":
            # Every position of the game tree, and every move's exact value.
            assert result.positions == game_tree_size(board), str(board)
            assert result.move_values == {
                m: reference_move_score(board, m) for m in board.legal_moves()
            }, str(board)
            assert result.cutoffs == result.table_hits == result.pruned == 0


@pytest.mark.parametrize("heuristic", ["h1", "h2"])
@pytest.mark.slow
def test_heuristic_searches_give_depth_limited_minimaxs_value_on_all_3x3_positions(
    heuristic: str,
) -> None:
    evaluate = h1 if heuristic == "h1" else h2
    for board in open_positions():
        result = trace_search(board, heuristic)
        expected = minimax(board, depth=2, evaluate=evaluate)
        assert result.value == expected.score, str(board)
        assert result.depth == (2 if 9 - board.move_count > 2 else None)
        assert result.complete == expected.complete, str(board)


@pytest.mark.parametrize("algorithm", FULL)
@pytest.mark.slow
def test_depth_limited_lab_searches_give_depth_limited_minimaxs_value(algorithm: str) -> None:
    for board in open_positions():
        result = trace_search(board, algorithm, depth=2)
        assert result.value == minimax(board, depth=2).score, str(board)


def test_h2_from_bitboards_is_h2_on_every_3x3_position() -> None:
    sh = fs.shape(3, 3)
    for board in reachable_3x3():
        for side in (board.to_move, board.to_move.opponent):
            assert h2_bits(sh, board.bits(side), board.bits(side.opponent)) == h2(board, side)


def test_bigger_boards_agree_with_minimax_at_the_same_depth() -> None:
    import random

    rng = random.Random(3)
    for size, k, marks, depth in ((4, 4, 6, 3), (5, 4, 6, 2), (8, 5, 5, 2)):
        board = random_position(rng, size, k, marks)
        reference_run = trace_search(board, "minimax", depth=depth)
        for algorithm in ("alphabeta-plain", "alphabeta-ordered", "alphabeta-tt", "h1"):
            result = trace_search(board, algorithm, depth=depth)
            assert result.value == reference_run.value, (algorithm, str(board))
            assert reference_run.move_values[result.move] == result.value
            assert result.positions <= reference_run.positions
        assert reference_run.positions == tree_size(board, depth).positions


def test_order_and_table_each_save_positions_from_the_empty_board() -> None:
    counts = {a: trace_search(Board.empty(3, 3), a).positions for a in FULL[1:]}
    assert counts["alphabeta-tt"] < counts["alphabeta-ordered"] < counts["alphabeta-plain"]
    assert counts["alphabeta-plain"] < game_tree_size(Board.empty(3, 3)) // 20


# -- counters on trees worked out by hand -----------------------------------------------------


def test_counters_on_a_hand_worked_tree_minimax_and_plain_alphabeta() -> None:
    # X O X      X to move, A3 B3 C3 empty. O threatens B3 (column B).
    # X O O      A3 wins at once (column A): +9.
    # . . .      B3 blocks; then O must block A3 (O A3, X C3: full, draw 0) or lose
    #            (O C3, X A3 wins on ply 3: +7): B3 is worth 0.
    #            C3 lets O win at B3 on ply 2: -8 (or O A3, X B3: draw 0).
    board = Board.from_string("XOX/XOO/...")
    mini = trace_search(board, "minimax")
    assert mini.move_values == {6: 9, 7: 0, 8: -8}
    # root 1 + A3 (a win, a leaf) 1 + B3 [1 + O A3 (1 + X C3 1) + O C3 (1 + X A3 wins 1)] 5
    #        + C3 [1 + O A3 (1 + X B3 1) + O B3 wins 1] 4 = 11
    assert (mini.move, mini.value, mini.positions, mini.cutoffs) == (6, 9, 11, 0)

    # Board order: A3 wins, alpha = 9 (no cut: beta is +inf). B3: O tries A3 first, X C3 draws,
    # so O holds X to 0 <= 9 and cuts (C3 pruned). C3: O tries A3 first, X B3 draws: O cuts
    # again (B3 pruned). Positions: root, A3, B3, O A3, X C3, C3, O A3, X B3 = 8.
    plain = trace_search(board, "alphabeta-plain")
    assert (plain.move, plain.value, plain.positions, plain.cutoffs, plain.pruned) == (
        6,
        9,
        8,
        2,
        2,
    )


def test_counters_on_a_hand_worked_tree_ordering_and_the_symmetric_table() -> None:
    # X O .      X to move; B2 wins at once (diagonal A1-C3): ordering tries it first, +9.
    # . . .      Every other X move (C1, A3, A2, C2) lets O win at B2 (column B) on ply 2.
    # . O X      Ordered: each of those four O nodes tries the win B2 first and cuts its three
    #            other moves: 1 + 1 + 4 * (1 + 1) = 10 positions, 4 cut-offs, 12 moves pruned.
    board = Board.from_string("XO./.../.OX")
    ordered = trace_search(board, "alphabeta-ordered")
    assert (ordered.move, ordered.value) == (4, 9)
    assert (ordered.positions, ordered.cutoffs, ordered.table_hits, ordered.pruned) == (
        10,
        4,
        0,
        12,
    )
    # With the table: the position after A3 is the position after C1 turned half a circle
    # (A1<->C3, C1<->A3, B1<->B3), and C2 is A2's: both are answered by the table, unsearched.
    # 1 + 1 + (1 + 1) + 1 + (1 + 1) + 1 = 8 positions, 2 cut-offs, 2 table hits, 6 pruned.
    recorder = TraceRecorder()
    table = trace_search(board, "alphabeta-tt", recorder=recorder)
    assert (table.positions, table.cutoffs, table.table_hits, table.pruned) == (8, 2, 2, 6)
    root = recorder.nodes[0]
    kids = [recorder.nodes[i] for i in root.children]
    assert names([k.move for k in kids if k.move is not None]) == ["B2", "C1", "A3", "A2", "C2"]
    assert [k.leaf for k in kids] == ["win", None, "table", None, "table"]
    assert [k.value for k in kids] == [9, -8, -8, -8, -8]
    assert [k.outcome for k in kids] == ["exact"] + ["fail-low"] * 4


def test_the_recorded_tree_shows_each_move_with_its_window_value_and_pruned_siblings() -> None:
    recorder = TraceRecorder()
    trace_search(Board.from_string("XOX/XOO/..."), "alphabeta-plain", recorder=recorder)
    root = recorder.nodes[0]
    a3, b3, c3 = (recorder.nodes[i] for i in root.children)
    big = 11  # W + 1: shown as infinity
    assert (root.alpha, root.beta, root.value) == (-big, big, 9)
    assert (a3.move, a3.alpha, a3.beta, a3.value, a3.leaf, a3.outcome) == (
        6,
        -big,
        big,
        9,
        "win",
        "exact",
    )
    # B3 and C3 are searched with alpha already 9: each fails low at 0, an upper bound.
    assert (b3.alpha, b3.beta, b3.value, b3.outcome) == (9, big, 0, "fail-low")
    assert (c3.alpha, c3.beta, c3.value, c3.outcome) == (9, big, 0, "fail-low")
    # Inside B3, O's A3 reaches O's beta (-9 seen by O): a cut-off, and O's C3 is pruned.
    o_a3 = recorder.nodes[b3.children[0]]
    assert (o_a3.move, o_a3.alpha, o_a3.beta, o_a3.value, o_a3.outcome) == (
        6,
        -big,
        -9,
        0,
        "cutoff",
    )
    assert names(b3.pruned) == ["C3"] and names(c3.pruned) == ["B3"]
    assert str(node_board(Board.from_string("XOX/XOO/..."), recorder.nodes, o_a3.id)) == (
        "XOX/XOO/OX."
    )


def test_every_event_of_a_hand_worked_search_in_order() -> None:
    recorder = TraceRecorder()
    trace_search(Board.from_string("XO./.../.OX"), "alphabeta-ordered", recorder=recorder)
    steps = [(e.kind.value, e.node, e.value) for e in recorder.events[:9]]
    assert steps == [
        ("enter", 0, None),  # the root, X to move
        ("enter", 1, None),  # X B2
        ("leaf", 1, 9),  # wins at once
        ("return", 1, 9),
        ("raise", 0, 9),  # X's alpha rises to 9
        ("enter", 2, None),  # X C1
        ("enter", 3, None),  # O B2
        ("leaf", 3, 8),  # O wins on ply 2
        ("return", 3, 8),
    ]
    # O's alpha at its node rises to 8, which reaches O's beta (-9, the negative of X's 9):
    # O's other moves are pruned.
    rise, cut = recorder.events[9:11]
    assert (rise.kind, rise.node, rise.value) == (EventKind.RAISE, 2, 8)
    assert (cut.kind, cut.node, cut.value, cut.alpha, cut.beta) == (EventKind.CUT, 2, 8, 8, -9)
    assert names(recorder.nodes[2].pruned) == ["C2", "A3", "A2"]
    assert recorder.events[-1].kind is EventKind.RETURN and recorder.events[-1].node == 0
    assert [e.positions for e in recorder.events][-1] == 10


# -- what the recording promises --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["alphabeta-plain", "alphabeta-ordered", "alphabeta-tt"])
def test_every_recorded_value_is_exact_or_the_bound_its_label_says(algorithm: str) -> None:
    for board in open_positions()[::7]:
        recorder = TraceRecorder()
        result = trace_search(board, algorithm, recorder=recorder)
        assert not recorder.truncated
        nodes = recorder.nodes
        assert len(nodes) == result.positions
        assert sum(len(n.pruned) for n in nodes) == result.pruned
        assert sum(1 for e in recorder.events if e.kind is EventKind.CUT) == result.cutoffs
        assert sum(1 for n in nodes if n.leaf == "table") == result.table_hits
        for node in nodes[1:]:
            parent = node_board(board, nodes, node.parent)
            assert node.move is not None and node.value is not None
            true = reference_move_score(parent, node.move)
            # As seen by the player who made the move (the depth-aware value from the root).
            true = _from_root(true, node.ply)
            if node.outcome == "exact":
                assert node.value == true, str(parent)
            elif node.outcome == "cutoff":
                assert true >= node.value, str(parent)
            else:
                assert true <= node.value, str(parent)


def _from_root(score: int, ply: int) -> int:
    """A move's depth-aware score counted from its own position, shifted to count from the root:
    a win or loss `ply - 1` plies further away is worth that much less."""
    shift = ply - 1
    return score - shift if score > 0 else score + shift if score < 0 else 0


def test_the_recording_stops_at_its_cap_and_says_how_much_it_left_out() -> None:
    recorder = TraceRecorder(cap=50)
    result = trace_search(Board.empty(3, 3), "alphabeta-plain", recorder=recorder)
    full = TraceRecorder()
    trace_search(Board.empty(3, 3), "alphabeta-plain", recorder=full)
    assert len(recorder.events) == 50 and recorder.truncated
    assert recorder.total_events == len(full.events) > 50
    assert recorder.events == full.events[:50]
    assert result.positions == 20_866 == len(full.nodes)
    assert EVENT_CAP == 200_000


@pytest.mark.slow
def test_minimax_from_the_empty_board_counts_549946_positions_past_the_default_cap() -> None:
    recorder = TraceRecorder()
    result = trace_search(Board.empty(3, 3), "minimax", recorder=recorder)
    assert result.positions == game_tree_size(Board.empty(3, 3)) == 549_946
    assert recorder.truncated and len(recorder.events) == EVENT_CAP
    # Every position is entered and left once; the recording kept the first 200,000 steps.
    assert recorder.total_events > 2 * 549_946


def test_a_recording_survives_the_trip_from_the_worker_process() -> None:
    result, recorder = record_search(Board.from_string("X../.O./..."), "alphabeta-plain")
    again = pickle.loads(pickle.dumps(recorder))
    assert again.events == recorder.events and again.nodes == recorder.nodes
    assert again.total_events == recorder.total_events and not again.truncated
    assert all(isinstance(e.kind, EventKind) for e in again.events)
    assert pickle.loads(pickle.dumps(result)) == result


# -- stopping, time and progress --------------------------------------------------------------


def test_should_stop_ends_minimax_quickly_and_says_it_did_not_finish() -> None:
    stop = threading.Event()
    timer = threading.Timer(0.1, stop.set)
    timer.start()
    started = time.perf_counter()
    result = trace_search(Board.empty(3, 3), "minimax", should_stop=stop.is_set)
    assert time.perf_counter() - started < 0.5
    assert not result.finished and not result.complete and result.stopped == "cancelled"
    assert 0 < result.positions < 549_946


def test_a_time_limit_stops_the_search_and_says_so() -> None:
    result = trace_search(Board.empty(4, 4), "minimax", time_limit=0.2)
    assert result.stopped == "time limit" and not result.finished and result.seconds < 0.6


def test_progress_reports_come_while_minimax_runs_and_once_at_the_end() -> None:
    seen: list[Progress] = []
    result = trace_search(Board.empty(3, 3), "minimax", on_progress=seen.append)
    assert len(seen) >= 2
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    assert seen[-1].nodes == 549_946 and seen[-1].complete
    assert seen[-1].best_move == result.move


def test_unknown_algorithms_and_depths_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown algorithm"):
        trace_search(Board.empty(3, 3), "negascout")
    with pytest.raises(ValueError, match="at least 1"):
        trace_search(Board.empty(3, 3), "h1", depth=0)


def test_a_finished_game_needs_no_search() -> None:
    result = trace_search(Board.from_string("XXX/OO./..."), "minimax")
    assert (result.move, result.value, result.positions, result.complete) == (None, -10, 1, True)


# -- tree size ----------------------------------------------------------------------------------


def test_tree_size_counts_exactly_when_the_tree_is_small() -> None:
    for board in open_positions()[::11]:
        assert tree_size(board).positions == game_tree_size(board)
        assert tree_size(board).exact
    assert tree_size(Board.empty(3, 3), depth=2).positions == 1 + 9 + 72


def test_tree_size_estimates_big_trees_within_ten_percent() -> None:
    estimate = tree_size(Board.empty(3, 3), max_distinct=100)
    assert not estimate.exact
    assert abs(estimate.positions - 549_946) < 55_000
    assert tree_size(Board.empty(4, 4)).positions > 10**12


def test_all_lab_algorithms_are_known() -> None:
    assert LAB_ALGORITHMS == (
        "minimax",
        "alphabeta-plain",
        "alphabeta-ordered",
        "alphabeta-tt",
        "h1",
        "h2",
    )
