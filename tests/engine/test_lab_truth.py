"""The lab says what its searches did: minimax is full width everywhere, the alpha-betas say
which moves they left out and why, and every cut-off is traced to the move that made it."""

from __future__ import annotations

import pytest

from tests.engine.test_search import reference_move_score
from tests.engine.test_trace import open_positions
from tictactoe_tui.engine import Board, analyse_position, minimax
from tictactoe_tui.engine.lab.compare import compare
from tictactoe_tui.engine.lab.trace import (
    LEFT_OUT,
    NEAR_STONES,
    TraceNode,
    TraceRecorder,
    node_board,
    record_search,
    trace_search,
    tree_size,
)
from tictactoe_tui.engine.rules.board import cell_notation


def one_stone(size: int) -> Board:
    """A size×size board, four or five in a row, with one X in the middle: O to move."""
    return Board.empty(size, 4 if size < 8 else 5).play((size // 2) * size + size // 2)


def full_width(empties: int) -> int:
    """Positions of a full-width tree two plies deep: the root, its moves, their replies."""
    return 1 + empties + empties * (empties - 1)


# -- minimax is the reference ------------------------------------------------------------------


@pytest.mark.parametrize("size", [7, 10])
def test_minimax_is_full_width_on_a_big_board(size: int) -> None:
    board = one_stone(size)
    empties = size * size - 1
    result = trace_search(board, "minimax", depth=2)
    assert result.positions == full_width(empties)
    assert (result.rule, result.root_moves, result.legal_moves) == ("", empties, empties)
    assert len(result.move_values) == empties
    assert tree_size(board, 2).positions == full_width(empties)
    assert analyse_position(board, "minimax", depth=2).nodes == full_width(empties)
    assert minimax(board, depth=2).nodes == full_width(empties)


def test_minimax_stops_at_its_time_limit_and_says_where() -> None:
    board = one_stone(10)
    result = trace_search(board, "minimax", depth=3, time_limit=0.2)
    assert not result.finished and result.stopped == "time limit"
    assert result.root_moves_done < result.legal_moves == 99
    assert len(result.root_scores) == result.root_moves_done


def test_the_comparison_judges_against_full_width_minimax() -> None:
    comparison = compare(one_stone(10), depth=2, time_limit=30)
    results = {r.algorithm: r for r in comparison.results}
    assert results["minimax"].positions == full_width(99)
    for name in ("alphabeta-plain", "alphabeta-ordered", "alphabeta-tt", "h1", "h2"):
        assert results[name].rule == NEAR_STONES
        assert results[name].root_moves == 8 and results[name].legal_moves == 99


# -- what the alpha-betas left out -----------------------------------------------------------------


def test_a_search_near_the_stones_says_what_it_left_out() -> None:
    board = Board.from_string(
        "........../........../........../....O...../....XX..../"
        "....O...../........../........../........../..........",
        k=5,
    )
    result, recorder = record_search(board, "alphabeta-ordered", 2)
    assert result.rule == NEAR_STONES and result.legal_moves == 96
    assert 0 < result.root_moves < 96
    nodes = recorder.nodes
    stand_ins = [node for node in nodes if node.leaf == LEFT_OUT]
    assert stand_ins and all(node.move is None and node.rule == NEAR_STONES for node in stand_ins)
    for parent in nodes:
        kids = [nodes[c] for c in parent.children]
        left = [kid for kid in kids if kid.leaf == LEFT_OUT]
        if not left:
            continue
        # One node stands for every move the parent left out: with the moves it searched and
        # those it pruned after a cut-off, that is every empty cell.
        assert len(left) == 1
        position = node_board(board, nodes, parent.id)
        searched = {kid.move for kid in kids if kid.leaf != LEFT_OUT}
        assert searched | set(parent.pruned) | set(left[0].left_out) == set(position.legal_moves())
        assert not searched & set(left[0].left_out)
    root_left = [nodes[c] for c in nodes[0].children if nodes[c].leaf == LEFT_OUT]
    assert len(root_left[0].left_out) == result.legal_moves - result.root_moves
    assert len([n for n in nodes if n.leaf != LEFT_OUT]) == result.positions


def test_a_search_that_left_moves_out_proves_nothing_but_a_win_at_once() -> None:
    board = one_stone(10)
    for name in ("alphabeta-ordered", "h1"):
        result = trace_search(board, name, depth=2)
        assert not result.complete and result.kind == "estimate"
        assert all(s.band == "heuristic" and not s.proven for s in result.root_scores)


# -- cut-offs and the move that made them -------------------------------------------------------


def test_hand_worked_cut_offs_are_all_made_by_the_first_move() -> None:
    # "XO./.../.OX": ordering tries O's win at B2 first at each of X's four losing moves.
    ordered = trace_search(Board.from_string("XO./.../.OX"), "alphabeta-ordered")
    assert (ordered.cutoffs, ordered.first_move_cutoffs, ordered.first_cut_share) == (4, 4, 1.0)
    # "XOX/XOO/...", board order: inside B3 and C3, O's first move (A3) draws and cuts.
    plain = trace_search(Board.from_string("XOX/XOO/..."), "alphabeta-plain")
    assert (plain.cutoffs, plain.first_move_cutoffs) == (2, 2)
    # Minimax never cuts: no share to give.
    assert trace_search(Board.from_string("XOX/XOO/..."), "minimax").first_cut_share is None


def test_ordering_makes_more_cut_offs_with_the_first_move_from_the_empty_board() -> None:
    shares = {
        name: trace_search(Board.empty(3, 3), name).first_cut_share
        for name in ("alphabeta-plain", "alphabeta-ordered", "alphabeta-tt")
    }
    assert all(share is not None and 0 < share <= 1 for share in shares.values())
    plain, ordered = shares["alphabeta-plain"], shares["alphabeta-ordered"]
    assert plain is not None and ordered is not None and ordered > plain


def _window_of_chooser(node: TraceNode) -> tuple[int, int]:
    """A node's negamax window, as its side to move sees it."""
    return (node.alpha, node.beta) if not node.ply else (-node.beta, -node.alpha)


@pytest.mark.parametrize("algorithm", ["alphabeta-plain", "alphabeta-ordered", "alphabeta-tt"])
def test_every_recorded_cut_off_names_the_child_that_made_it(algorithm: str) -> None:
    for board in open_positions()[::40]:
        recorder = TraceRecorder()
        result = trace_search(board, algorithm, recorder=recorder)
        assert not recorder.truncated
        nodes = recorder.nodes
        cut = [node for node in nodes if node.cut_at >= 0]
        assert len(cut) == result.cutoffs
        assert sum(node.cut_index == 0 for node in cut) == result.first_move_cutoffs
        for node in cut:
            child = nodes[node.cut_by]
            assert child.parent == node.id and child.value is not None
            # The child's value (seen by the player who chose it) reached the node's beta.
            assert child.value >= _window_of_chooser(node)[1], str(board)
            assert node.children.index(child.id) == node.cut_index
            assert node.children[-1] == child.id  # nothing was searched after it


# -- root moves: values and bounds ----------------------------------------------------------------


def test_alpha_beta_knows_its_best_move_and_bounds_for_the_others() -> None:
    for board in open_positions()[::25]:
        mini = trace_search(board, "minimax")
        assert all(s.exact for s in mini.root_scores)
        assert {s.move: s.score for s in mini.root_scores} == mini.move_values
        for name in ("alphabeta-plain", "alphabeta-ordered"):
            scores = trace_search(board, name).root_scores
            assert scores[0].exact
            for scored in scores:
                true = reference_move_score(board, scored.move)
                if scored.exact:
                    assert scored.score == true, (str(board), name, scored)
                else:
                    assert scored.kind == "at_most" and true <= scored.score, (
                        str(board),
                        name,
                        cell_notation(scored.move, 3),
                    )
