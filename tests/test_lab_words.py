"""The learning lab's words: every number in the compare table, the tree and the charts says
what it is (a value, an estimate, a bound), and where moves were left out or cut off, by what."""

from __future__ import annotations

import itertools
from dataclasses import replace

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import score_by_depth
from tictactoe_tui.engine.lab.trace import (
    LEFT_OUT,
    NEAR_STONES,
    EventKind,
    Outcome,
    TraceNode,
    TraceResult,
    record_search,
    trace_search,
)
from tictactoe_tui.text.lab import (
    ALGORITHM_TITLES,
    bounded_value,
    cut_maker,
    depth_cell,
    event_words,
    left_out_note,
    node_label,
    node_words,
    ordinal,
    step_label,
    value_cell,
    value_kind,
    value_words,
)
from tictactoe_tui.text.scores import (
    first_cut_text,
    first_cut_words,
    left_out_words,
    percent,
    result_meaning,
    searched_words,
    stand_in_label,
)

MIDDLE_GAME = Board.from_string(
    "........../........../........../....O...../....XX..../....O...../........../"
    "........../........../..........",
    k=5,
)
"""A 10×10 position where the alpha-betas search only the cells next to a mark."""


def stopped_minimax(board: Board, depth: int) -> TraceResult:
    """Minimax on `board` stopped after a few polls, having finished some root moves."""
    polls = itertools.count()
    return trace_search(board, "minimax", depth, should_stop=lambda: next(polls) >= 4)


# -- the compare table ----------------------------------------------------------------------------


def test_a_value_says_what_it_is_by_its_kind() -> None:
    board = Board.empty(3, 3)
    full = trace_search(board, "alphabeta-tt")
    assert (full.kind, result_meaning(full, board)) == ("exact", "draw")
    assert value_cell(full, board) == "0 draw"
    heuristic = trace_search(board, "h1")
    assert heuristic.kind == "estimate"
    assert result_meaning(heuristic, board) == "+1 (heuristic)"
    assert value_cell(heuristic, board) == "+1 estimate"
    won = trace_search(Board.from_string("XX./OO./..."), "alphabeta-plain")
    assert value_words(won, Board.from_string("XX./OO./...")) == "win in 1"


def test_a_heuristic_value_in_the_win_band_is_not_read_as_a_win() -> None:
    # A depth-limited value that happens to be as big as a win's score is still an estimate.
    board = Board.empty(10, 5)
    estimate = TraceResult("alphabeta-ordered", 44, 92, 10, 0, 0, 0.0, 2, False)
    assert result_meaning(estimate, board) == "+92 (heuristic)"
    assert value_cell(estimate, board) == "+92 estimate"


def test_a_search_stopped_part_way_shows_a_bound_so_far_and_where_it_stopped() -> None:
    board = Board.empty(5, 5)
    stopped = stopped_minimax(board, 3)
    assert not stopped.finished and stopped.root_moves_done
    best = max(score.score for score in stopped.root_scores)
    assert value_cell(stopped, board) == f"≥ {best:+d} so far".replace("-", "−")
    assert searched_words(stopped) == f"{stopped.root_moves_done} of 25"
    cancelled = TraceResult("minimax", None, 0, 10, 0, 0, 0.1, None, False, False, "cancelled")
    assert value_cell(cancelled, board) == "cancelled"
    assert searched_words(cancelled) == "—"


def test_the_moves_searched_are_all_or_near_the_stones() -> None:
    assert searched_words(trace_search(Board.empty(3, 3), "minimax", 1)) == "all 9"
    narrowed = trace_search(MIDDLE_GAME, "alphabeta-ordered", 2)
    assert narrowed.rule == NEAR_STONES
    assert searched_words(narrowed) == f"{narrowed.root_moves} of 96"
    assert left_out_words(narrowed) == f"near stones only: {narrowed.root_moves} of 96 moves"
    assert searched_words(trace_search(MIDDLE_GAME, "minimax", 1)) == "all 96"


def test_the_left_out_note_names_the_searches_and_says_minimax_searches_everything() -> None:
    results = [trace_search(MIDDLE_GAME, name, 1) for name in ALGORITHM_TITLES]
    note = left_out_note(results, titles=True)
    assert note.startswith("Every search but minimax: near stones only: ")
    assert note.endswith("at the root (and likewise below); minimax searches every move.")
    some = left_out_note(results[:3])
    assert some.startswith("alphabeta-plain, alphabeta-ordered: near stones only")
    assert left_out_note([trace_search(Board.empty(3, 3), "h1")]) == ""


def test_the_first_cut_share_is_a_whole_percent_rounded_down() -> None:
    assert (percent(1.0), percent(0.996), percent(0.6), percent(0.0)) == (
        "100%",
        "99%",
        "60%",
        "0%",
    )
    board = Board.empty(3, 3)
    plain = trace_search(board, "alphabeta-plain")
    share = plain.first_move_cutoffs / plain.cutoffs
    assert first_cut_text(plain) == f"{int(share * 100)}%"
    assert first_cut_words(plain) == (
        f"{int(share * 100)}% of {plain.cutoffs:,} cut-offs by the first move"
    )
    # Minimax never cuts: no share to give.
    assert first_cut_text(trace_search(board, "minimax", 2)) == "—"


def test_the_depth_is_plies_or_the_end() -> None:
    assert depth_cell(trace_search(Board.empty(3, 3), "h1")) == "2"
    assert depth_cell(trace_search(Board.empty(3, 3), "alphabeta-tt")) == "end"


def test_a_point_of_the_chart_by_depth_is_a_number_and_once_proven_what_it_means() -> None:
    board = Board.empty(3, 3)
    rows = score_by_depth(board, "alphabeta-tt")
    assert [step_label(row, board) for row in rows] == [
        "+4",
        "+1",
        "+5",
        "0",
        "+4",
        "0",
        "+2",
        "0",
        "0 draw",
    ]
    won = Board.from_string("XX./OO./...")
    assert step_label(score_by_depth(won, "alphabeta-plain")[0], won) == "+9 win in 1"


# -- the tree -------------------------------------------------------------------------------------


def test_the_moves_left_out_have_one_line_with_their_rule() -> None:
    result, recorder = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)
    root = recorder.nodes[0]
    stand_in = next(recorder.nodes[c] for c in root.children if recorder.nodes[c].leaf == LEFT_OUT)
    left = result.legal_moves - result.root_moves
    assert stand_in_label(stand_in) == f"near stones only: {left} moves not searched"
    assert node_label(stand_in, MIDDLE_GAME) == f"… near stones only: {left} moves not searched"
    words = node_words(stand_in, MIDDLE_GAME)
    # Too many to name: the board lights them instead.
    assert words.startswith(f"{left} moves left out (near stones only), lit on the board.")
    assert "X's moves here were searched only on the cells next to a mark" in words


def test_a_few_moves_left_out_are_named() -> None:
    node = TraceNode(5, 0, None, 1, 0, 0, 0, leaf=LEFT_OUT, left_out=(0, 1, 99), rule=NEAR_STONES)
    assert stand_in_label(node) == "near stones only: 3 moves not searched"
    assert node_words(node, MIDDLE_GAME).startswith(
        "3 moves left out (near stones only): A1, B1, J10, lit on the board."
    )


def test_the_move_that_made_a_cut_off_is_marked_with_its_place_in_the_order() -> None:
    board = Board.empty(3, 3).play(4)
    _, recorder = record_search(board, "alphabeta-plain")
    nodes = recorder.nodes
    late = next(n for n in nodes if n.cut_by >= 0 and n.cut_index > 0)
    maker = nodes[late.cut_by]
    assert cut_maker(maker, nodes) and not cut_maker(nodes[late.children[0]], nodes)
    label = node_label(maker, board, nodes=nodes)
    assert label.startswith("✂ ") and label.endswith(
        f"β cut-off, {ordinal(late.cut_index + 1)} tried"
    )
    assert "(ideal ordering tries it first)" in node_words(maker, board, nodes=nodes)
    # Without the recording's nodes the label is the plain one, and before the cut in a replay
    # the move is not yet marked.
    assert "✂" not in node_label(maker, board)
    assert not cut_maker(maker, nodes, step=late.cut_at - 1)
    words = event_words(recorder.events, late.cut_at, nodes, board)
    assert f"the {ordinal(late.cut_index + 1)} move tried, made the cut." in words


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
    ]


def test_leaves_are_exact_values_and_searched_nodes_beyond_the_window_are_bounds() -> None:
    board = Board.empty(3, 3)
    searched = TraceNode(1, 0, 4, 1, 0, 3, 0, value=5, returned=9)
    assert searched.outcome is Outcome.CUTOFF
    assert (value_kind(searched), bounded_value(searched, board)) == ("at_least", "≥ +5")
    fail_low = replace(searched, value=-2, alpha=0)
    assert (value_kind(fail_low), bounded_value(fail_low, board)) == ("at_most", "≤ −2")
    inside = replace(searched, value=1)
    assert bounded_value(inside, board) == "= +1"
    # A win at once, a full board and the heuristic give exact values whatever the window.
    for leaf in ("win", "draw", "heuristic"):
        assert bounded_value(replace(searched, leaf=leaf), board) == "= +5"
    # A table's answer can be a bound, like a searched node's.
    assert bounded_value(replace(searched, leaf="table"), board) == "≥ +5"


def test_a_rule_leaf_says_which_rule() -> None:
    board = Board.from_string("XX./OO./...")
    _, recorder = record_search(board, "alphabeta-plain")
    win = next(n for n in recorder.nodes if n.leaf == "win")
    label = node_label(win, board, nodes=recorder.nodes)
    assert "rule: wins at once" in label and "= +9" in label
    assert "(rule: wins at once): exact" in node_words(win, board, nodes=recorder.nodes)
    events = [
        i for i, e in enumerate(recorder.events) if e.kind is EventKind.LEAF and e.node == win.id
    ]
    assert event_words(recorder.events, events[0], recorder.nodes, board) == (
        "X C1 wins at once: +9."
    )


def test_a_bound_in_the_tree_is_called_what_the_tables_call_it() -> None:
    board = Board.empty(3, 3)
    cutoff = TraceNode(1, 0, 4, 1, 0, 3, 0, value=5, returned=9)
    assert "at least β, so the moves after it were not needed (a lower bound)." in node_words(
        cutoff, board
    )
    fail_low = replace(cutoff, value=-2)
    assert "no better than α, a move found earlier (an upper bound)." in node_words(fail_low, board)
    assert "(a lower bound)" not in node_words(replace(cutoff, leaf="heuristic"), board)
