"""Drill trees: real legal moves from their positions, leaves worth what their positions are."""

from __future__ import annotations

import random

import pytest

from tests.engine.brute import BruteForce
from tictactoe_tui.engine import Board, Mark, h1, h2
from tictactoe_tui.engine.lab.drill_tree import (
    DrillShape,
    LeafValues,
    MoveOrder,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import INFINITY, DrillNode


def nodes(root: DrillNode) -> list[DrillNode]:
    return list(root.walk())


def cells_of(board: Board) -> str:
    return str(board).replace("/", "")


def test_the_root_is_max_and_the_levels_alternate():
    tree = cut_tree(Board.from_string("X../.O./..."), DrillShape(depth=3, width=2))
    assert tree.root.is_max and tree.root.move is None and tree.root_mark is Mark.X
    for node in nodes(tree.root):
        for child in node.children:
            assert child.is_max is not node.is_max
    assert [node.id for node in nodes(tree.root)] == list(range(len(nodes(tree.root))))


@pytest.mark.parametrize("order", list(MoveOrder))
def test_every_move_is_legal_and_each_node_keeps_its_first_moves_in_order(order):
    rng = random.Random(f"legal {order}")
    for size, k in ((3, 3), (4, 3), (5, 4), (7, 5)):
        for _ in range(8):
            depth, width = rng.randint(2, 4), rng.randint(2, 4)
            board = random_position(rng, size, k, depth)
            tree = cut_tree(board, DrillShape(depth, width, order))
            for node in nodes(tree.root):
                here = tree.boards[node.id]
                moves = [child.move for child in node.children]
                assert all(m in here.legal_moves() for m in moves)
                assert len(set(moves)) == len(moves) <= width
                for child in node.children:
                    assert child.move is not None
                    assert tree.boards[child.id] == here.play(child.move)
                if order is MoveOrder.BOARD:
                    assert moves == sorted(moves)
                if not node.children:
                    assert here.is_over or here.move_count - board.move_count == depth


def test_a_position_that_ends_early_is_a_leaf_with_its_result():
    # X to move wins at once on C1: that child is a leaf worth W - 1 at once.
    tree = cut_tree(Board.from_string("XX./OO./..."), DrillShape(depth=3, width=3))
    first = tree.root.children[0]
    assert first.move == 2 and first.is_leaf
    assert first.value == tree.win - 1 and tree.leaf_kinds[first.id] == "win"


@pytest.mark.parametrize("leaves", [LeafValues.H1, LeafValues.H2])
def test_heuristic_leaves_are_the_heuristic_from_the_root_players_side(leaves):
    rng = random.Random(f"heuristic {leaves}")
    evaluate = h1 if leaves is LeafValues.H1 else h2
    for size, k in ((3, 3), (4, 4), (6, 4)):
        for _ in range(10):
            board = random_position(rng, size, k, 3)
            tree = cut_tree(board, DrillShape(3, 3, leaves=leaves))
            biggest = 0
            for node in nodes(tree.root):
                if node.is_leaf:
                    here = tree.boards[node.id]
                    assert node.value is not None and -INFINITY < node.value < INFINITY
                    if here.is_over:
                        ply = here.move_count - board.move_count
                        expected = 0 if here.winner is None else tree.win - ply
                        if here.winner is not None and here.winner is not board.to_move:
                            expected = -expected
                        assert node.value == expected
                    else:
                        assert node.value == evaluate(here, board.to_move)
                        biggest = max(biggest, abs(node.value))
            assert biggest < tree.win - 3  # every win outranks every heuristic value


def test_exact_leaves_are_the_brute_force_values_on_three_by_three():
    brute = BruteForce(3, 3)
    rng = random.Random("exact")
    for _ in range(40):
        board = random_position(rng, 3, 3, 2)
        tree = cut_tree(board, DrillShape(rng.randint(2, 4), 3, leaves=LeafValues.EXACT))
        assert tree.win == 10
        for node in nodes(tree.root):
            if not node.is_leaf:
                continue
            here = tree.boards[node.id]
            ply = here.move_count - board.move_count
            if here.is_over:
                continue
            # The brute force counts plies from `here`; the tree from the root.
            value = brute.value(cells_of(here), here.to_move.value)
            seen = value if here.to_move is board.to_move else -value
            if seen > 0:
                seen -= ply
            elif seen < 0:
                seen += ply
            assert node.value == seen, (str(here), ply)


def test_shapes_that_cannot_be_cut_say_why():
    board = Board.from_string("X../.O./...")
    with pytest.raises(ValueError, match="depth must be 2 to 4"):
        cut_tree(board, DrillShape(depth=5))
    with pytest.raises(ValueError, match="width must be 2 to 4"):
        cut_tree(board, DrillShape(width=1))
    with pytest.raises(ValueError, match="exact leaves need"):
        cut_tree(Board.empty(size=7, k=5), DrillShape(leaves=LeafValues.EXACT))
    with pytest.raises(ValueError, match="game is over"):
        cut_tree(Board.from_string("XXX/OO./..."), DrillShape())


def test_the_engine_order_tries_the_winning_move_first_and_board_order_does_not():
    board = Board.from_string("O.X/.O./X..")  # X to move: O threatens C3; X has no win
    engine = cut_tree(board, DrillShape(2, 2, MoveOrder.ENGINE))
    plain = cut_tree(board, DrillShape(2, 2, MoveOrder.BOARD))
    assert engine.root.children[0].move == 8  # the block first
    assert [c.move for c in plain.root.children] == [1, 3]


def test_a_random_position_is_unfinished_with_room_for_the_tree():
    rng = random.Random(3)
    for _ in range(200):
        board = random_position(rng, 3, 3, 4)
        assert not board.is_over and len(board.legal_moves()) >= 4
