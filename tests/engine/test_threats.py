"""Threat-space search: VCF wins of known length, VCT, and the rules the searches rely on.

The puzzles are 15x15 positions with five in a row where the side to move has a win by
continuous fours of exactly 5, 7 or 9 plies and no shorter one. This file's own code (plain
`Board`s and the lines of the geometry, never the engine's threat code) checks each line the
engine gives, and that no shorter win by fours exists.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from benchmarks.bench import THREAT_PUZZLES
from tests.engine.test_search import random_position, reference, reference_move_score
from tictactoe_tui.engine import Board, Mark, alphabeta, analyse_position, win_score
from tictactoe_tui.engine.proofs.lines import LineState, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch, defences, find_vcf, find_vct


def puzzle(plies: int) -> Board:
    """The puzzle whose shortest VCF takes `plies` plies (the benchmark times them too)."""
    return Board.from_string(THREAT_PUZZLES[plies], k=5)


# -- this file's own threat code ---------------------------------------------------------------


def winning_cells(board: Board, mark: Mark) -> frozenset[int]:
    """The empty cells where `mark` would complete a line at once."""
    mine, theirs = board.bits(mark), board.bits(mark.opponent)
    found = 0
    for mask in board.geometry.lines:
        if not theirs & mask and (mine & mask).bit_count() == board.k - 1:
            found |= mask & ~mine
    return frozenset(c for c in range(board.size * board.size) if found >> c & 1)


def four_makers(board: Board, mark: Mark) -> set[int]:
    """The empty cells where a stone of `mark` makes a four (a line one stone short)."""
    mine, theirs = board.bits(mark), board.bits(mark.opponent)
    out: set[int] = set()
    for cells, mask in zip(board.geometry.line_cells, board.geometry.lines, strict=True):
        if not theirs & mask and (mine & mask).bit_count() == board.k - 2:
            out.update(c for c in cells if not (mine >> c) & 1)
    return out


@cache
def vcf_within(board: Board, plies: int) -> bool:
    """True if the side to move wins by continuous fours within `plies` plies."""
    me, them = board.to_move, board.to_move.opponent
    if winning_cells(board, me):
        return plies >= 1
    threat = winning_cells(board, them)
    if plies < 3 or len(threat) > 1:
        return False
    for move in four_makers(board, me):
        if threat and move not in threat:
            continue
        after = board.play(move)
        wins = winning_cells(after, me)
        if len(wins) >= 2:
            return True
        (block,) = wins
        if vcf_within(after.play(block), plies - 2):
            return True
    return False


def is_vcf_line(board: Board, line: tuple[int, ...]) -> bool:
    """True if `line` is a win by fours: each attacking move makes a four (or wins), each reply
    is the only move that does not lose at once, and the last move completes a line."""
    me = board.to_move
    for index, move in enumerate(line):
        if index % 2:
            if winning_cells(board, me.opponent) or move not in winning_cells(board, me):
                return False
        elif index == len(line) - 1:
            return board.play(move).winner is me
        else:
            threat = winning_cells(board, me.opponent)
            if threat and move not in threat:
                return False
            if not winning_cells(board.play(move), me):
                return False
        board = board.play(move)
    return False


# -- the puzzles -----------------------------------------------------------------------------


@pytest.mark.parametrize("plies", [5, 7, 9])
def test_a_vcf_of_known_length_is_found_with_a_valid_line(plies: int) -> None:
    board = puzzle(plies)
    assert not board.is_over
    found = find_vcf(board)
    assert found is not None and found.plies == plies
    assert is_vcf_line(board, found.moves)


@pytest.mark.parametrize("plies", [5, 7, 9])
def test_the_puzzles_have_no_shorter_win_by_fours(plies: int) -> None:
    board = puzzle(plies)
    assert vcf_within(board, plies)
    assert not vcf_within(board, plies - 2)
    # The defender has no four of its own to answer with: a clean puzzle.
    defender = board.to_move.opponent
    assert not four_makers(board, defender) and not winning_cells(board, defender)


@pytest.mark.parametrize("plies", [5, 7, 9])
def test_alphabeta_plays_the_win_and_calls_it_proven(plies: int) -> None:
    board = puzzle(plies)
    result = alphabeta(board, time_limit=1.0)
    assert result.complete and result.score >= win_score(board) - plies
    # The expected line ends in the side to move's win (a VCF or a shorter threat win).
    end = board
    for move in result.pv:
        end = end.play(move)
    assert end.winner is board.to_move and len(result.pv) <= plies


def test_no_vcf_where_there_is_none() -> None:
    board = Board.empty(15, 5).play(112).play(113)
    assert find_vcf(board) is None and find_vct(board) is None


def test_a_vct_wins_with_an_open_three_where_fours_alone_do_not() -> None:
    # X has two open twos crossing at one empty cell: playing it makes two open threes.
    text = ["."] * 225
    for c in (7 * 15 + 5, 7 * 15 + 6, 5 * 15 + 8, 6 * 15 + 8):
        text[c] = "X"
    for c in (0, 14, 210, 224):
        text[c] = "O"
    board = Board.from_string("".join(text), k=5)
    assert board.to_move is Mark.X
    assert find_vcf(board) is None
    found = find_vct(board)
    assert found is not None and found.moves[0] == 7 * 15 + 8
    assert board.play(found.moves[0])


# -- the searches against a brute-force solver -------------------------------------------------


@pytest.mark.slow
def test_threat_wins_and_proven_scores_on_small_boards_agree_with_a_plain_solver() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        board = random_position(rng, 5, 4, rng.randint(14, 16))
        value = reference(board)
        for found in (find_vcf(board), find_vct(board)):
            if found is not None:
                # A win, and no later than the threat search says.
                assert value >= win_score(board) - found.plies, (str(board), found)
                checked += 1
        # The depth-limited search (not the solver: a depth is given) claims only what holds.
        for scored in analyse_position(board, depth=2).scores:
            if scored.exact and scored.score:
                truth = reference_move_score(board, scored.move)
                assert (truth > 0) == (scored.score > 0), (str(board), scored, truth)
                # "Win in N" is a win within N plies; "loss in N" a loss within N plies.
                assert truth >= scored.score if truth > 0 else truth <= scored.score
                checked += 1
    assert checked >= 30


# -- the rules -------------------------------------------------------------------------------


def test_the_defences_against_an_open_three_are_its_ends_and_the_far_ends() -> None:
    # X: an open three in row 7 (cells 6, 7, 8); O to move with no four of its own.
    text = ["."] * 225
    for c in (7 * 15 + 6, 7 * 15 + 7, 7 * 15 + 8):
        text[c] = "X"
    for c in (0, 224):
        text[c] = "O"
    board = Board.from_string("".join(text), k=5, to_move=Mark.O)
    state = LineState.from_board(board)
    stops = defences(state, side_of(Mark.O))
    assert stops is not None
    row = {c - 7 * 15 for c in range(225) if stops >> c & 1}
    # Only the cells next to it stop it: after O on a cell one further out, X still makes an
    # open four on the other side.
    assert row == {5, 9}


def test_a_threat_search_leaves_the_state_as_it_found_it() -> None:
    board = puzzle(9)
    state = LineState.from_board(board)
    before = (list(state.bits), [list(c) for c in state.count], state.value)
    search = ThreatSearch()
    assert search.vcf(state, side_of(board.to_move), max_nodes=3) is None
    assert search.vct(state, side_of(board.to_move)) is not None
    assert (list(state.bits), [list(c) for c in state.count], state.value) == before
