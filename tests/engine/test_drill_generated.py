"""The drill's answers on trees cut from real positions agree with a textbook alpha-beta.

Every generated tree (sizes 3 to 7, every order and leaf kind but exact, which test_drill_tree
checks against brute force) is solved under the four conventions, and the answer must be the
textbook's: the nodes visited in order, every value returned, every window, the root's value.
The fast run checks 300 trees (1,200 answers); the slow tier checks 2,500 (10,000 answers).

The best order, on every generated tree of depth ≤ 3 and width ≤ 3 (sizes 3 to 6, both orders,
every leaf kind): no order of the children, every order at every node tried by brute force with
the test's own leaf count, visits fewer leaves than `best_order` says, and the order it gives
reaches that count in the textbook's search. 40 trees in the fast run, 600 in the slow tier,
each under the four conventions.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from tests.engine.textbook import fewest_leaves, textbook
from tictactoe_tui.engine.lab.drill_tree import (
    EXACT_MAX_CELLS,
    DrillShape,
    DrillTree,
    LeafValues,
    MoveOrder,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import (
    Convention,
    Cut,
    Returns,
    best_order,
    minimax_value,
    solve,
)

CONVENTIONS = [Convention(cut, returns) for cut, returns in product(Cut, Returns)]
SHAPES = ((3, 3), (3, 3), (4, 3), (4, 4), (5, 4), (6, 4), (7, 5))


def check_trees(count: int, seed: str) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        size, k = rng.choice(SHAPES)
        depth = rng.randint(2, 4)
        shape = DrillShape(
            depth,
            rng.randint(2, 4),
            rng.choice(list(MoveOrder)),
            rng.choice([LeafValues.H1, LeafValues.H2]),
        )
        tree = cut_tree(random_position(rng, size, k, depth), shape)
        for convention in CONVENTIONS:
            answer = solve(tree.root, convention)
            book = textbook(tree.root, convention)
            assert answer.visited == tuple(book.visited)
            assert answer.returns == book.returns
            assert answer.windows == book.windows
            assert answer.root_value == minimax_value(tree.root)


def test_generated_trees_agree_with_the_textbook():
    check_trees(300, "generated fast")


@pytest.mark.slow
def test_ten_thousand_generated_answers_agree_with_the_textbook():
    check_trees(2_500, "generated slow")


# -- the best order, on trees cut from real positions --------------------------------------------

SMALL_SHAPES = ((3, 3), (4, 3), (4, 4), (5, 4), (6, 4))

OWN_LEAVES = [LeafValues.H1, LeafValues.H2, LeafValues.EXACT]
"""The leaf values the engine makes itself (yours needs a learner's file: test_drill_yours.py)."""


def small_trees(count: int, seed: str) -> list[DrillTree]:
    """`count` trees of depth ≤ 3 and width ≤ 3 cut from random positions: every order, every
    leaf kind (exact leaves on the boards the engine solves)."""
    rng = random.Random(seed)
    trees = []
    for _ in range(count):
        size, k = rng.choice(SMALL_SHAPES)
        kinds = OWN_LEAVES if size * size <= EXACT_MAX_CELLS else [LeafValues.H1, LeafValues.H2]
        depth = rng.randint(2, 3)
        shape = DrillShape(depth, rng.randint(2, 3), rng.choice(list(MoveOrder)), rng.choice(kinds))
        trees.append(cut_tree(random_position(rng, size, k, depth), shape))
    return trees


def check_best_orders(trees: list[DrillTree]) -> int:
    """Check every tree under the four conventions; how many answers beat the tree's own order."""
    better = 0
    for tree in trees:
        for convention in CONVENTIONS:
            best = best_order(tree.root, convention)
            # No order of any node's children, tried by brute force, visits fewer leaves...
            assert best.leaves_visited == fewest_leaves(tree.root, convention)
            # ...and the order given reaches that count, counted by the textbook's own search.
            assert textbook(tree.root, convention, best.children).leaves == best.leaves_visited
            # Every inner node's order is an order of its own children.
            for node in tree.root.walk():
                if node.children:
                    assert sorted(best.children[node.id]) == sorted(c.id for c in node.children)
            better += best.leaves_visited < textbook(tree.root, convention).leaves
    return better


def test_no_order_of_a_generated_tree_visits_fewer_leaves_than_the_best_order():
    trees = small_trees(40, "best order fast")
    assert {tree.shape.leaves for tree in trees} == set(OWN_LEAVES)
    assert {tree.shape.order for tree in trees} == set(MoveOrder)
    assert any(tree.shape.depth == 3 and tree.shape.width == 3 for tree in trees)
    # Not a test of trees already in their best order: many are not.
    assert check_best_orders(trees) >= 20


@pytest.mark.slow
def test_no_order_of_many_generated_trees_visits_fewer_leaves_than_the_best_order():
    assert check_best_orders(small_trees(600, "best order slow")) >= 300
