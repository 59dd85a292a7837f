"""Search on small boards: exact scores everywhere on 3x3, 4x4 against a plain solver, the API."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import (
    ALGORITHMS,
    Board,
    Mark,
    alphabeta,
    analyse,
    analyse_position,
    describe_score,
    h1,
    h2,
    minimax,
    win_score,
)
from tictactoe_tui.engine.proofs.lines import LineState, side_of
from tictactoe_tui.engine.search import kernel as fs


@cache
def reference(board: Board) -> int:
    """An independent negamax with the depth-aware rule, from the side to move.

    It scores plies from `board` itself: a win on ply d is W - d, a loss -(W - d), a draw 0.
    """
    big = board.size * board.size + 1
    best = -big
    for move in board.legal_moves():
        after = board.play(move)
        if after.winner is not None:
            return big - 1
        if after.is_full:
            score = 0
        else:
            child = reference(after)
            # One ply further from here: a win or loss moves one step towards zero.
            score = -(child - 1) if child > 0 else -(child + 1) if child < 0 else 0
        best = max(best, score)
    return best


def reference_move_score(board: Board, move: int) -> int:
    """The exact score of `move` for the side playing it, by the reference solver."""
    after = board.play(move)
    big = board.size * board.size + 1
    if after.winner is not None:
        return big - 1
    if after.is_full:
        return 0
    child = reference(after)
    return -(child - 1) if child > 0 else -(child + 1) if child < 0 else 0


def random_position(rng: random.Random, size: int, k: int, marks: int) -> Board:
    """A random game of `marks` moves that has not ended."""
    while True:
        board = Board.empty(size, k)
        for _ in range(marks):
            if board.is_over:
                break
            board = board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            return board


def replay(board: Board, moves: tuple[int, ...]) -> Board:
    """Play `moves` in order (IllegalMove if any is not legal)."""
    for move in moves:
        board = board.play(move)
    return board


# -- every 3x3 position ----------------------------------------------------------------------


@pytest.mark.slow
def test_alphabeta_minimax_and_a_reference_solver_agree_on_every_reachable_3x3_position() -> None:
    for board in sorted(reachable_3x3(), key=str):
        if board.is_over:
            continue
        fast, slow = alphabeta(board), minimax(board)
        assert fast.score == slow.score == reference(board), str(board)
        assert fast.complete and slow.complete
        assert reference_move_score(board, fast.move) == fast.score, str(board)
        assert reference_move_score(board, slow.move) == slow.score, str(board)


@pytest.mark.slow
def test_analyse_gives_the_exact_score_of_every_move_in_every_3x3_position() -> None:
    for board in sorted(reachable_3x3(), key=str):
        if board.is_over:
            continue
        scored = analyse(board)
        assert {m.move: m.score for m in scored} == {
            move: reference_move_score(board, move) for move in board.legal_moves()
        }, str(board)
        assert all(m.exact and m.kind == "exact" and m.band != "heuristic" for m in scored)
        # Each searched, settled by its mirror twin, or won at once (no position of its own).
        assert all(m.source in ("search", "symmetry", "rule") for m in scored), str(board)
        assert all(m.nodes or m.source != "search" for m in scored), str(board)
        assert [(m.score, -m.move) for m in scored] == sorted(
            ((m.score, -m.move) for m in scored), reverse=True
        )


def test_minimax_analysis_matches_alphabeta_analysis_on_sample_positions() -> None:
    for text in ("XX./OO./X..", "X../.O./...", "XO./.X./O..", "..O/..O/.XX"):
        board = Board.from_string(text)
        slow, fast = analyse(board, "minimax"), analyse(board)
        assert [(m.move, m.score) for m in slow] == [(m.move, m.score) for m in fast]
        assert all(m.exact for m in slow)


def test_a_won_position_scores_nine_and_a_loss_on_the_reply_minus_eight() -> None:
    board = Board.from_string("XX./OO./X..")
    assert {m.move: m.score for m in analyse(board)} == {2: 0, 5: 9, 7: -8, 8: -8}
    assert describe_score(9, board, exact=True) == "win in 1"
    assert describe_score(-8, board, exact=True) == "loss in 2"
    assert describe_score(0, board, exact=True) == "draw"


def test_alphabeta_from_the_empty_board_prunes_at_least_fifty_fold() -> None:
    result = alphabeta(Board.empty(3, 3))
    assert result.nodes < 549_946 // 50
    assert result.score == 0 and result.complete and result.depth == 9


def test_each_alphabeta_call_starts_from_an_empty_table() -> None:
    board = Board.empty(3, 3)
    assert alphabeta(board).nodes == alphabeta(board).nodes


def test_a_finished_game_has_no_move_and_scores_from_the_loser() -> None:
    won = Board.from_string("XXX/OO./...")
    for result in (alphabeta(won), minimax(won)):
        assert result.move is None and result.score == -10 and result.complete
    assert analyse(won) == []


def test_o_may_move_first() -> None:
    board = Board.empty(3, 3, first=Mark.O)
    result = alphabeta(board)
    assert result.score == 0 and result.move in board.legal_moves()
    assert replay(board, result.pv)


# -- 4x4 and 5x5 -----------------------------------------------------------------------------


def test_4x4_results_match_a_plain_solver_on_random_positions() -> None:
    rng = random.Random(4)
    for _ in range(30):
        board = random_position(rng, 4, 4, rng.randint(8, 11))
        assert alphabeta(board).score == reference(board), str(board)


def test_4x4_analysis_is_exact_on_random_positions() -> None:
    rng = random.Random(44)
    for _ in range(8):
        board = random_position(rng, 4, 4, rng.randint(8, 10))
        assert {m.move: m.score for m in analyse(board)} == {
            move: reference_move_score(board, move) for move in board.legal_moves()
        }


def test_symmetric_images_of_a_4x4_position_have_the_same_value() -> None:
    rng = random.Random(7)
    sh = fs.shape(4, 4)
    for _ in range(6):
        board = random_position(rng, 4, 4, 6)
        scores = set()
        for perm in sh.sym_perms:
            x = sum(1 << perm[c] for c in fs.iter_cells(board.x_bits))
            o = sum(1 << perm[c] for c in fs.iter_cells(board.o_bits))
            image = Board(board.geometry, x, o, board.to_move)
            scores.add(alphabeta(image).score)
        assert len(scores) == 1


def test_4x4_and_5x5_with_four_in_a_row_are_draws() -> None:
    for size in (4, 5):
        result = alphabeta(Board.empty(size, 4))
        assert result.complete and result.score == 0
        assert replay(Board.empty(size, 4), result.pv)


# -- heuristics at a cut-off -------------------------------------------------------------------


def test_the_bitboard_h1_equals_the_evaluate_h1() -> None:
    rng = random.Random(1)
    for size, k in ((3, 3), (4, 4), (5, 4), (7, 5), (10, 5)):
        sh = fs.shape(size, k)
        for _ in range(20):
            board = random_position(rng, size, k, rng.randint(0, size * size // 2))
            me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
            assert fs.h1_bits(sh, me, opp) == h1(board, board.to_move)


def test_the_incremental_h1_change_of_a_move_equals_the_difference_of_h1() -> None:
    rng = random.Random(2)
    for size, k in ((5, 4), (10, 5)):
        for _ in range(10):
            board = random_position(rng, size, k, rng.randint(2, 20))
            mover = board.to_move
            side = side_of(mover)
            state = LineState.from_board(board)
            assert state.value == h1(board, Mark.X)
            for cell in board.legal_moves():
                after = board.play(cell)
                if after.winner is None:
                    assert h1(board, mover) + state.gain(cell, side) == h1(after, mover)
                    state.play(cell, side)
                    assert state.value == h1(after, Mark.X)
                    state.undo(cell, side)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_depth_limited_scores_stay_inside_the_win_and_loss_bands(depth: int) -> None:
    rng = random.Random(depth)
    for size, k in ((3, 3), (5, 4), (7, 5)):
        big = size * size + 1
        for _ in range(5):
            board = random_position(rng, size, k, rng.randint(1, 6))
            for result in (
                alphabeta(board, depth=depth),
                minimax(board, depth=depth) if size == 3 else alphabeta(board, depth=depth),
            ):
                if not result.complete:
                    assert abs(result.score) < big - depth, (str(board), result)
                else:
                    plies = big - abs(result.score)
                    assert result.score == 0 or 1 <= plies <= big - 1


def test_a_custom_evaluator_is_called_from_the_side_to_move_at_the_cut_off() -> None:
    board = Board.from_string("X../.O./...")
    seen: list[Mark] = []

    def evaluate(position: Board, player: Mark) -> int:
        seen.append(player)
        assert player is position.to_move
        return 0

    assert minimax(board, depth=2, evaluate=evaluate).score == 0
    assert seen and set(seen) == {Mark.X}


def test_heuristic_analysis_scores_the_board_after_each_move_from_the_movers_side() -> None:
    board = Board.from_string("XX./OO./...")
    for name, heuristic in (("h1", h1), ("h2", h2)):
        scored = {m.move: m for m in analyse(board, name)}
        assert scored[2].score == 9 and scored[2].exact
        for move in (5, 6, 7, 8):
            assert scored[move].score == heuristic(board.play(move), Mark.X)
            assert not scored[move].exact


def test_analyse_rejects_an_unknown_algorithm_and_lists_the_known_ones() -> None:
    assert ALGORITHMS == ("minimax", "alphabeta", "h1", "h2")
    with pytest.raises(ValueError, match="unknown algorithm"):
        analyse(Board.empty(3, 3), "magic")


def test_win_score_is_ten_on_3x3_and_cells_plus_one_in_general() -> None:
    assert win_score(Board.empty(3, 3)) == 10
    assert win_score(Board.empty(10, 5)) == 101


def test_describe_score_marks_heuristic_values() -> None:
    board = Board.empty(10, 5)
    assert describe_score(12, board, exact=False) == "+12 (heuristic)"
    assert describe_score(-3, board, exact=False) == "-3 (heuristic)"
    assert describe_score(98, board, exact=True) == "win in 3"


# -- principal variation and totals -----------------------------------------------------------


def test_the_principal_variation_is_a_legal_line_starting_with_the_move() -> None:
    rng = random.Random(3)
    for size, k in ((3, 3), (4, 4), (5, 4)):
        for _ in range(10):
            board = random_position(rng, size, k, rng.randint(0, 5))
            for result in (
                alphabeta(board, depth=3),
                alphabeta(board) if size < 5 else alphabeta(board, time_limit=0.2),
            ):
                assert result.pv[0] == result.move
                replay(board, result.pv)


def test_analyse_position_reports_totals_matching_its_moves() -> None:
    analysis = analyse_position(Board.from_string("X../.O./..."))
    assert analysis.algorithm == "alphabeta" and analysis.complete and not analysis.cancelled
    assert analysis.nodes >= sum(m.nodes for m in analysis.scores)
    assert analysis.depth == 7
    assert len(analysis.scores) == 7
