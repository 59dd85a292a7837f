"""The defence's relevance zone: every move outside it loses to the attacker's threat win.

`defence.relevance_zone` claims that a defender move outside the cells a threat proof reads
leaves the proof as it was, so the move loses within the proof's plies; the root search then
calls those moves proven losses without searching them. This file checks the claim with the
independent prover of `tests/engine/prover.py` (its own lines, the game's rules, the defender
trying every legal move), on positions where the attacker's win is short enough to prove that
way, and checks that the root search's proven losses of such positions hold too.
"""

from __future__ import annotations

import random

import pytest

from tests.engine.prover import Prover, confirmed
from tictactoe_tui.engine import Board, Mark, analyse_position, win_score
from tictactoe_tui.engine.proofs.defence import proof_cells, relevance_zone
from tictactoe_tui.engine.proofs.lines import LineState, iter_bits, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.pvs import DEFENCE_BUDGETS, MAIN, RootMove, Searcher
from tictactoe_tui.engine.search.types import Rule


def threatened(
    rng: random.Random, size: int, k: int, most_plies: int, wanted: int
) -> list[tuple[Board, list[int], bool]]:
    """Random positions (the defender to move) where the attacker, as if the defender passed,
    wins by threats within `most_plies` plies but has no winning cell yet: (board, the win's
    line, whether it is a VCF)."""
    found: list[tuple[Board, list[int], bool]] = []
    tries = 0
    while len(found) < wanted:
        tries += 1
        assert tries < 40_000, "too few threatened positions"
        stones = rng.randint(6, 12)
        cells = rng.sample(range(size * size), 2 * stones + 1)
        text = ["."] * (size * size)
        # The attacker has one stone more: it moved last, so the defender is to move.
        for i, cell in enumerate(cells):
            text[cell] = "X" if i % 2 == 0 else "O"
        board = Board.from_string("".join(text), k=k)
        if board.is_over or board.to_move is not Mark.O:
            continue
        state = LineState.from_board(board)
        attacker = side_of(Mark.X)
        if state.win_cells(attacker) or state.win_cells(1 - attacker):
            continue
        if state.double_cells(attacker):
            continue
        search = ThreatSearch()
        line = search.vcf(state, attacker, max_nodes=5_000)
        fours_only = line is not None
        if line is None:
            line = search.vct(state, attacker, 3, 5_000)
        if line is None or len(line) > most_plies:
            continue
        found.append((board, line, fours_only))
    return found


def zone_of(board: Board, fours_only: bool) -> tuple[int, int, list[int]]:
    """X's threat win as if O (to move) passed: (its proof's zone, the proof's plies, its
    line), from one search whose tables the proof walk reads."""
    state = LineState.from_board(board)
    attacker = side_of(Mark.X)
    search = ThreatSearch()
    line = (
        search.vcf(state, attacker, max_nodes=5_000)
        if fours_only
        else search.vct(state, attacker, 3, 5_000)
    )
    assert line is not None
    cells = proof_cells(search, state, attacker, line, fours_only, 3)
    assert cells is not None, str(board)
    attack, defence, plies = cells
    return relevance_zone(state, attacker, attack, defence), plies, line


@pytest.mark.parametrize(
    ("size", "k", "seed"), [(9, 5, 1), pytest.param(11, 4, 2, marks=pytest.mark.slow), (10, 5, 3)]
)
@pytest.mark.slow
def test_every_move_outside_the_zone_loses_within_the_proofs_plies(
    size: int, k: int, seed: int
) -> None:
    rng = random.Random(seed)
    checked = 0
    for board, _line, fours_only in threatened(rng, size, k, 7, 10):
        state = LineState.from_board(board)
        zone, plies, again = zone_of(board, fours_only)
        assert plies >= len(again)
        outside = [cell for cell in iter_bits(state.empty) if not zone >> cell & 1]
        prover = Prover(size, k)
        x, o = board.bits(Mark.X), board.bits(Mark.O)
        for cell in rng.sample(outside, min(15, len(outside))):
            # The defender (O) plays outside the zone; X still wins within the proof's plies.
            assert prover.attacker_wins(x, o | 1 << cell, plies), (str(board), cell, again)
            checked += 1
    assert checked >= 60


def test_the_zone_keeps_the_moves_that_defend() -> None:
    # Every move the prover finds holding (no win for the attacker within the plies) is in
    # the zone: the zone never throws a defence away.
    rng = random.Random(7)
    held = 0
    for board, _line, fours_only in threatened(rng, 9, 5, 5, 6):
        state = LineState.from_board(board)
        zone, _plies, again = zone_of(board, fours_only)
        prover = Prover(9, 5)
        x, o = board.bits(Mark.X), board.bits(Mark.O)
        for cell in iter_bits(state.empty):
            if not prover.attacker_wins(x, o | 1 << cell, len(again)):
                assert zone >> cell & 1, (str(board), cell)
                held += 1
    assert held >= 3


def test_the_root_calls_the_moves_outside_the_zone_proven_losses_and_they_are() -> None:
    rng = random.Random(5)
    losses = 0
    for board, _, _ in threatened(rng, 9, 5, 7, 4):
        result = analyse_position(board, depth=2)
        for scored in result.scores:
            if scored.exact and scored.score < 0:
                plies = win_score(board) - abs(scored.score)
                if plies <= 8:
                    assert confirmed(board, scored.move, scored.score), (str(board), scored)
                    losses += 1
    assert losses >= 20


FOUR_THEN_LOST = [
    # X to move: its four at G7 (76) is blocked at F8 (85), and then every move of X's loses
    # to O's threats; neither search alone sees it (O's VCT after the four has no threat
    # pending after its block). Found by a random search of 10x10 positions.
    (
        "O....X..../.....O..../....X...../......O.O./X....O..../..O.....X./.....O.X.X/"
        "X..O....../..X.....OX/.X.OX.O...",
        76,
    ),
    (
        ".....X...X/X..OO..O../X.O.O....X/.......X../..O...XX../........OX/O...XO..../"
        ".O.OX.O.../.X.....X../.........O",
        28,
    ),
]


@pytest.mark.parametrize(("text", "four"), FOUR_THEN_LOST)
def test_a_four_blocked_into_a_loss_is_a_proven_loss_and_is_one(text: str, four: int) -> None:
    board = Board.from_string(text.replace("/", ""), k=5)
    assert board.to_move is Mark.X
    searcher = Searcher(10, 5)
    tree = searcher.tree
    tree.poller = fs.Poller(None, None, tree.fs_shape.poll_mask)
    tree.state = LineState(tree.shape, board.x_bits, board.o_bits)
    root = RootMove(four, MAIN)
    assert searcher.defence.check(root, side_of(Mark.X), DEFENCE_BUDGETS[2], None) is not None
    assert root.rule == Rule.FOUR_THEN_LOST
    assert root.line[:2] == (four, root.line[1])
    # The prover: after the four and its block (O's only move that does not lose at once),
    # every move of X's loses within the plies the line claims.
    prover = Prover(10, 5)
    after = board.play(four)
    wins = prover.winning_cells(after.bits(Mark.X), after.bits(Mark.O))
    assert wins.bit_count() == 1 and wins == 1 << root.line[1]
    blocked = after.play(root.line[1])
    plies = len(root.line) - 3
    x, o = blocked.bits(Mark.X), blocked.bits(Mark.O)
    for cell in range(100):
        if not (x | o) >> cell & 1:
            assert prover.attacker_wins(o, x | 1 << cell, plies), (cell, root.line)


@pytest.mark.slow
def test_the_searchs_proven_losses_inside_the_tree_hold() -> None:
    # Inside the tree a node whose opponent wins by fours as if it passed searches only the
    # zone of that win and calls the other moves lost: every loss the search then reports for
    # a root move, within the plies the prover can reach, is one.
    rng = random.Random(13)
    checked = 0
    tries = 0
    while checked < 120:
        tries += 1
        assert tries < 400
        stones = rng.randint(7, 11)
        cells = rng.sample(range(81), 2 * stones)
        text = ["."] * 81
        for i, cell in enumerate(cells):
            text[cell] = "X" if i % 2 == 0 else "O"
        board = Board.from_string("".join(text), k=5)
        if board.is_over:
            continue
        for scored in analyse_position(board, depth=4).scores:
            # Losses the search itself found (not a rule's or the root's threat search's).
            if (
                scored.source == "search"
                and scored.exact
                and scored.score < 0
                and win_score(board) - abs(scored.score) <= 8
            ):
                assert confirmed(board, scored.move, scored.score), (str(board), scored)
                checked += 1


@pytest.mark.slow
def test_under_a_clock_every_proven_loss_holds() -> None:
    # Under a clock the defence runs its rounds of checks, the four-then-lost check and (with
    # the compiled kernel) the tree's VCT guard: every loss it reports within the prover's
    # reach is one, whatever the clock let it finish.
    rng = random.Random(17)
    checked = 0
    for board, _line, _fours in threatened(rng, 10, 5, 9, 12):
        for scored in analyse_position(board, time_limit=0.3).scores:
            if scored.exact and scored.score < 0 and win_score(board) - abs(scored.score) <= 8:
                assert confirmed(board, scored.move, scored.score), (str(board), scored)
                checked += 1
    assert checked >= 40
