"""The root's defence on 15x15: a move after which the opponent wins by threats is not chosen
while another move holds, and every loss it claims is confirmed by the independent prover."""

from __future__ import annotations

import random
import time

import pytest

from tests.engine.prover import confirmed
from tictactoe_tui.engine import AlphaBetaPlayer, Analysis, Board, analyse_position
from tictactoe_tui.engine.proofs.threats import find_vct
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.pvs import EXACT, MAIN, UPPER, Iteration, RootMove, Searcher

H4_OR_H8 = "/".join(
    [
        "...............",
        "...............",
        "...............",
        "......O........",
        ".......XO......",
        ".......X.......",
        "......XX.O.....",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ]
)
"""O to move must stop X's open three (H5-H7) at H4 or H8; after H4, X wins by threats (a loss
in 12), after H8 it has no threat win."""

ONLY_D7 = "/".join(
    [
        "...............",
        "...............",
        "...............",
        "...............",
        "...XXXO........",
        "....X..........",
        ".....O.........",
        "...............",
        "...............",
        "...........O...",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ]
)
"""O to move: after every move near the stones but D7, X wins by threats (from a match game)."""

ISSUE_18 = "/".join(
    [
        "...............",
        "...............",
        "...............",
        "....O..........",
        "....X.O........",
        "...X.X.........",
        "....XO.........",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ]
)
"""The issue's example, O to move at ply 8: after G7, X wins by threats in 13. O is lost whatever
it plays: after every move within two cells of the stones the engine's threat search, allowed
eight threats, finds a win for X (9 to 15 plies; a farther move is a pass). So the clock cannot
buy a move that holds here, only one that does not lose at once to the quickest refutation."""

ONLY_F12 = "/".join(
    [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "........X......",
        ".....XXXO......",
        ".....XOO.X.....",
        "......X.O......",
        ".....X.O.......",
        "......OO.......",
        ".....O.........",
        "....X..........",
        "...............",
    ]
)
"""O to move (from a match game at 0.25 s, where O played F10 and X won by threats in 19): after
F12 a long threat search finds no win for X; the engine of main, searched 3 plies, chose H13,
after which X wins by threats in 15."""

ONLY_D5 = "/".join(
    [
        "...............",
        "...............",
        ".....X.........",
        "......O........",
        ".....X.O.......",
        "..XOOOOXO......",
        "...OXXXOXX.....",
        "......X...O....",
        "......X........",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ]
)
"""O to move (from a match game, where O played D4 and lost): D5 is the only move near the stones
after which X has no threat win (allowed six threats)."""

STRONG_ATTACKS, STRONG_NODES = 8, 200_000
"""The threat search that checks the engine's answers: twice the threats and far more nodes than
any check of the engine's defence."""


def cell(name: str) -> int:
    return (int(name[1:]) - 1) * 15 + ord(name[0]) - ord("A")


def analysis(text: str, depth: int) -> tuple[Board, Analysis]:
    """A depth-limited analysis: without a clock the defence is the same at any load."""
    board = Board.from_string(text, k=5)
    return board, analyse_position(board, depth=depth)


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_a_stop_that_leaves_a_threat_win_is_not_chosen(depth: int) -> None:
    _, result = analysis(H4_OR_H8, depth)
    assert result.best_moves == (cell("H8"),)
    h4 = next(score for score in result.scores if score.move == cell("H4"))
    # A proven loss (its distance a bound: the threat search finds a win, maybe not the fastest).
    assert h4.proven and h4.outcome == "loss" and h4.score < 0


@pytest.mark.slow
def test_the_loss_after_the_wrong_stop_is_confirmed_by_the_prover() -> None:
    board, result = analysis(H4_OR_H8, 2)
    h4 = next(score for score in result.scores if score.move == cell("H4"))
    assert confirmed(board, h4.move, h4.score)


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_the_only_move_that_holds_is_found(depth: int) -> None:
    _, result = analysis(ONLY_D7, depth)
    assert result.best_moves == (cell("D7"),)


@pytest.mark.parametrize("time_limit", [0.25, 1.0])
def test_the_issue_example_does_not_play_into_the_threat_win(time_limit: float) -> None:
    board = Board.from_string(ISSUE_18, k=5)
    decision = AlphaBetaPlayer(random.Random(0), time_limit=time_limit).choose(board)
    assert decision.move != cell("G7")


@pytest.mark.parametrize(
    ("text", "depth"), [(ONLY_F12, 3), (ONLY_F12, 4), (ONLY_D5, 2), (ONLY_D5, 3)]
)
def test_the_answer_leaves_no_threat_win_when_a_move_holds(text: str, depth: int) -> None:
    # Without a clock the defence's checks are the same at any load. Each answer the engine
    # might play is checked on the position after it by a far longer threat search: a move
    # that holds exists (the answer shows it), and the answer is one.
    board, result = analysis(text, depth)
    for move in result.best_moves:
        assert find_vct(board.play(move), STRONG_ATTACKS, STRONG_NODES) is None


def cut_short_settle(
    checked: dict[int, int], last_top: int | None, refuted: bool = False
) -> Iteration | None:
    """`Defence.settle` of an iteration whose best move is 109 (then 34), when the clock cuts the
    check of 109 short; the caller's answer so far was `last_top` (None: it has none), which a
    check has refuted since if `refuted`."""
    searcher = Searcher(15, 5)
    defence = searcher.defence
    searcher.calls.threat_deadline = time.perf_counter() + 10
    searcher.tree.poller = fs.Poller(None, None, fs.shape(15, 5).poll_mask)
    defence.checked = dict(checked)
    # The root faces a threat win (as in the match game), so every answer is checked.
    defence.danger = [109]
    roots = [RootMove(109, MAIN, -20, EXACT, depth=5), RootMove(34, MAIN, -25, UPPER, depth=5)]
    if last_top is not None:
        kept = RootMove(last_top, MAIN, -22, EXACT, depth=4)
        defence.last_iteration = Iteration(4, (kept,), False)
        if refuted:
            defence.refuted[last_top] = kept

    def clock_runs_out(root: RootMove, side: int, budget: int, until: float | None) -> None:
        return None  # cut short: neither refuted nor recorded as checked

    defence.check = clock_runs_out  # type: ignore[method-assign]
    return defence.settle(Iteration(5, tuple(roots), False), roots, 1, 5)


def test_a_check_cut_short_keeps_the_answer_checked_with_more() -> None:
    """From a match game as O at 0.25 s (O: E4, E5, E6; X: E7, H8, I8, G9): depth 5's best
    move, E8 (109), had passed only the smallest check and lost to a VCT of four threats;
    depth 4's, E3 (34), had passed the biggest. When the clock cuts the new answer's check
    short, the caller keeps the one checked with more (None: keep what you have)."""
    assert cut_short_settle({109: 400, 34: 25_600}, last_top=34) is None


def test_a_check_cut_short_accepts_an_answer_checked_as_much() -> None:
    """A new answer checked with at least as much as the caller's still replaces it, and at the
    first iteration (nothing to keep) any check will do."""
    settled = cut_short_settle({109: 6_400, 34: 6_400}, last_top=34)
    assert settled is not None and settled.moves[0].move == 109
    settled = cut_short_settle({109: 400}, last_top=None)
    assert settled is not None and settled.moves[0].move == 109


def test_an_answer_refuted_since_is_not_kept() -> None:
    """A caller's answer that a check has refuted since counts as checked with nothing."""
    settled = cut_short_settle({109: 400, 34: 25_600}, last_top=34, refuted=True)
    assert settled is not None and settled.moves[0].move == 109
