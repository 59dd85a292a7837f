"""The heuristic lab's engine side: H1 with other weights, each line's share of H1 and H2, and the
move a heuristic player would pick, checked by hand on H1's worked example and exhaustively on
3x3."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import Board, HeuristicPlayer, Mark, explain_h1, explain_h2, h1, h2
from tictactoe_tui.engine.evaluation.heuristics import (
    LineTerm,
    candidate_terms,
    explain_lines,
    h1_weights,
    heuristic_pick,
    immediate_wins,
)

# Seed 002's board, O O . / . X . / . . . with X to move; its position 3 is cell 2.
SEED_002 = "OO./.X./..."

# The eight lines of 3x3, written out independently of the engine's geometry.
LINES_3X3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def by_cells(terms: tuple[LineTerm, ...]) -> dict[tuple[int, ...], LineTerm]:
    return {t.cells: t for t in terms}


def test_the_usual_weights_are_powers_of_three() -> None:
    assert h1_weights(3) == (1, 3)
    assert h1_weights(4) == (1, 3, 9)
    assert h1_weights(5) == (1, 3, 9, 27)


def test_seed_002_position_3_line_by_line() -> None:
    # After X takes position 3: O O X / . X . / . . . seen from X.
    after = Board.from_string(SEED_002).play(2)
    lines = by_cells(explain_lines(after, Mark.X))
    assert set(lines) == set(LINES_3X3)
    expected = {
        # cells:     (X marks, O marks, H1 share, H2 share, kind)
        (0, 1, 2): (1, 2, 0, 0, "blocked"),  # O O X
        (3, 4, 5): (1, 0, 1, 1, "own"),  # . X .   X1
        (6, 7, 8): (0, 0, 0, 0, "empty"),  # open to both: cancels out in H2
        (0, 3, 6): (0, 1, -1, -1, "opp"),  # O . .   O1
        (1, 4, 7): (1, 1, 0, 0, "blocked"),  # O X .
        (2, 5, 8): (1, 0, 1, 1, "own"),  # X . .   X1
        (0, 4, 8): (1, 1, 0, 0, "blocked"),  # O X .
        (2, 4, 6): (2, 0, 3, 1, "own"),  # X X .   X2, worth 3
    }
    for cells, (own, opp, share1, share2, kind) in expected.items():
        line = lines[cells]
        assert (line.own, line.opp, line.h1, line.h2, line.kind) == (
            own,
            opp,
            share1,
            share2,
            kind,
        ), cells
    # 3·X2 + X1 − (3·O2 + O1) = 3 + 2 − 1 = 4, and Open(X) − Open(O) = 4 − 2 = 2, as the
    # seed's worked example and the panel say.
    assert sum(t.h1 for t in lines.values()) == 4 == h1(after, Mark.X)
    assert sum(t.h2 for t in lines.values()) == 2 == h2(after, Mark.X)


def test_other_weights_change_each_lines_share() -> None:
    after = Board.from_string(SEED_002).play(2)
    lines = by_cells(explain_lines(after, Mark.X, (1, 5)))
    assert lines[(2, 4, 6)].h1 == 5 and lines[(3, 4, 5)].h1 == 1
    # X2·5 + X1·1 − (O2·5 + O1·1) = 5 + 2 − 1.
    assert sum(t.h1 for t in lines.values()) == 6
    assert explain_h1(after, Mark.X).weighted((1, 5)) == 6
    assert explain_h1(after, Mark.X).weighted((0, 0)) == 0


def test_a_complete_line_is_a_win_and_adds_nothing_to_h1() -> None:
    board = Board.from_string("XXX/OO./...")
    line = by_cells(explain_lines(board, Mark.X))[(0, 1, 2)]
    assert (line.kind, line.h1, line.h2) == ("won", 0, 1)


def test_the_wrong_number_of_weights_is_refused() -> None:
    board = Board.from_string(SEED_002)
    with pytest.raises(ValueError, match="H1 needs 2 weights"):
        explain_lines(board, Mark.X, (1, 3, 9))
    with pytest.raises(ValueError, match="H1 needs 2 weights"):
        explain_h1(board, Mark.X).weighted((1,))


def test_line_shares_add_up_to_h1_and_h2_on_every_3x3_position() -> None:
    for board in reachable_3x3():
        for player in Mark:
            lines = explain_lines(board, player)
            terms = explain_h1(board, player)
            assert sum(t.h1 for t in lines) == terms.value == terms.weighted(h1_weights(3))
            assert sum(t.h2 for t in lines) == h2(board, player)
            assert sum(t.open_own for t in lines) == explain_h2(board, player).open_own
            assert sum(t.h1 for t in explain_lines(board, player, (2, 7))) == terms.weighted((2, 7))


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board reached by legal play, size 3..8 with a random k."""
    size = draw(st.integers(3, 8))
    board = Board.empty(size, draw(st.integers(3, min(size, 6))))
    for pick in draw(st.lists(st.integers(0, 1000), max_size=size * size)):
        moves = board.legal_moves()
        if not moves:
            break
        board = board.play(moves[pick % len(moves)])
    return board


@settings(max_examples=80, deadline=None)
@given(boards(), st.lists(st.integers(-20, 20), min_size=5, max_size=5))
def test_weighted_h1_is_the_sum_of_the_line_shares_on_any_board(
    board: Board, raw: list[int]
) -> None:
    weights = tuple(raw[: board.k - 1])
    for player in Mark:
        lines = explain_lines(board, player, weights)
        assert sum(t.h1 for t in lines) == explain_h1(board, player).weighted(weights)
        assert sum(t.h1 for t in explain_lines(board, player)) == h1(board, player)


# -- wins, blocks and picks ----------------------------------------------------------------------


def brute_wins(board: Board, mark: Mark) -> list[int]:
    """Cells where `mark` completes one of the eight lines, by trying each empty cell."""
    if board.is_over:
        return []
    out = []
    for cell in range(9):
        if board[cell] is not None:
            continue
        if any(
            cell in line and all(c == cell or board[c] is mark for c in line) for line in LINES_3X3
        ):
            out.append(cell)
    return out


def test_immediate_wins_match_a_brute_force_on_every_3x3_position() -> None:
    for board in reachable_3x3():
        for mark in Mark:
            assert immediate_wins(board, mark) == brute_wins(board, mark)


def test_seed_002s_board_is_a_block_before_any_score() -> None:
    board = Board.from_string(SEED_002)
    pick = heuristic_pick(board, lambda m: h1(board.play(m), Mark.X))
    assert (pick.rule, pick.moves, pick.score) == ("block", (2,), 4)


def test_a_win_is_preferred_over_a_block() -> None:
    board = Board.from_string("XX./OO./...")  # X to move: C1 wins, C2 would block
    pick = heuristic_pick(board, lambda m: 0)
    assert (pick.rule, pick.moves, pick.score) == ("win", (2,), None)


def test_h1_ranks_the_centre_first_on_the_empty_board() -> None:
    board = Board.empty()
    pick = heuristic_pick(board, lambda m: h1(board.play(m), Mark.X))
    # Centre: 4 lines with one X; a corner 3, an edge 2.
    assert (pick.rule, pick.moves, pick.score) == ("score", (4,), 4)


def test_new_weights_rerank_the_replies_to_a_centre_opening() -> None:
    board = Board.from_string(".../.X./...")  # O to move

    def pick(weights: tuple[int, int]) -> tuple[tuple[int, ...], int | None]:
        chosen = heuristic_pick(
            board, lambda m: explain_h1(board.play(m), Mark.O).weighted(weights)
        )
        return chosen.moves, chosen.score

    # A corner: O alone on 2 lines, X alone on 3 -> 2 − 3 = −1; an edge: 1 − 3 = −2.
    assert pick((1, 3)) == ((0, 2, 6, 8), -1)
    # Weight 0 for one mark in a line: nothing counts, every cell ties.
    assert pick((0, 3)) == ((0, 1, 2, 3, 5, 6, 7, 8), 0)


def test_the_heuristic_player_always_plays_one_of_the_picked_moves() -> None:
    for heuristic, score in (("h1", h1), ("h2", h2)):
        player = HeuristicPlayer(heuristic, random.Random(3))
        for board in reachable_3x3()[::3]:
            if board.is_over:
                continue
            me = board.to_move
            pick = heuristic_pick(board, lambda m, b=board, p=me, f=score: f(b.play(m), p))
            assert player.choose(board).move in pick.moves
            if brute_wins(board, me):
                assert pick.rule == "win" and list(pick.moves) == brute_wins(board, me)
            elif brute_wins(board, me.opponent):
                assert pick.rule == "block"
                assert set(pick.moves) <= set(brute_wins(board, me.opponent))


def test_candidate_terms_are_seed_002s_hand_counts() -> None:
    board = Board.from_string(SEED_002)
    terms = {c.move: c for c in candidate_terms(board)}
    assert sorted(terms) == [2, 3, 5, 6, 7, 8]
    # The seed's positions 3, 4 and 7 (cells 2, 3, 6): H1 4, 1 and 2.
    assert {m: terms[m].h1.value for m in (2, 3, 6)} == {2: 4, 3: 1, 6: 2}
    assert terms[2].h2.value == 2 and terms[2].after == board.play(2)
    assert terms[2].h1.player is Mark.X
