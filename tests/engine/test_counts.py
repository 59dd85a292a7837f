"""The classic counts of 3x3 tic-tac-toe, computed through the engine's own rules."""

from __future__ import annotations

from functools import cache

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import Board, Mark, minimax


@cache
def tally(board: Board) -> tuple[int, int, int, int]:
    """(games, X wins, O wins, draws) of every game that continues from `board`."""
    if board.winner is Mark.X:
        return 1, 1, 0, 0
    if board.winner is Mark.O:
        return 1, 0, 1, 0
    if board.is_full:
        return 1, 0, 0, 1
    totals = [0, 0, 0, 0]
    for move in board.legal_moves():
        for i, n in enumerate(tally(board.play(move))):
            totals[i] += n
    return totals[0], totals[1], totals[2], totals[3]


@cache
def tree_size(board: Board) -> int:
    """Nodes of the full game tree below `board`, counting it."""
    return 1 + sum(tree_size(board.play(move)) for move in board.legal_moves())


def test_there_are_255168_games_of_which_131184_x_wins_77904_o_wins_and_46080_draws() -> None:
    assert tally(Board.empty(3, 3)) == (255_168, 131_184, 77_904, 46_080)


def test_5478_positions_are_reachable_and_958_of_them_end_the_game() -> None:
    positions = reachable_3x3()
    assert len(positions) == 5_478
    assert sum(board.is_over for board in positions) == 958


def test_the_game_tree_has_549946_nodes_and_minimax_visits_every_one() -> None:
    empty = Board.empty(3, 3)
    assert tree_size(empty) == 549_946
    assert minimax(empty).nodes == 549_946


def test_minimax_counts_the_whole_subtree_of_any_position() -> None:
    for text in ("X../.O./...", "XO./.X./O..", "XOX/.O./..."):
        board = Board.from_string(text)
        assert minimax(board).nodes == tree_size(board)
