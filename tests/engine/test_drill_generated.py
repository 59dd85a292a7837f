"""The drill's answers on trees cut from real positions agree with a textbook alpha-beta.

Every generated tree (sizes 3 to 7, every order and leaf kind but exact, which test_drill_tree
checks against brute force) is solved under the four conventions, and the answer must be the
textbook's: the nodes visited in order, every value returned, every window, the root's value.
The fast run checks 300 trees (1,200 answers); the slow tier checks 2,500 (10,000 answers).
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from tests.engine.textbook import textbook
from tictactoe_tui.engine.lab.drill_tree import (
    DrillShape,
    LeafValues,
    MoveOrder,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import Convention, Cut, Returns, minimax_value, solve

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
