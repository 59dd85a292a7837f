"""The drill's alpha-beta and its best order, against an independent textbook alpha-beta.

`textbook` (tests/engine/textbook.py) is written from the pseudo-code of the textbooks (two
functions, MAX and MIN, each updating its own bound), not from the module; `all_outcomes` there
tries every order of every node's children (subtrees entered with the same window share their
answers, so depth 3 at width 3 stays small).
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from tests.engine.textbook import all_outcomes, textbook
from tictactoe_tui.engine.lab.hand_search import (
    INFINITY,
    Convention,
    Cut,
    DrillNode,
    Returns,
    best_order,
    minimax_value,
    solve,
)

CONVENTIONS = [Convention(cut, returns) for cut, returns in product(Cut, Returns)]


def random_tree(rng: random.Random, depth: int, width: int, values: int = 9) -> DrillNode:
    """A tree of up to `depth` plies, 1..width children a node, some leaves early, small values."""
    counter = iter(range(10_000))

    def build(level: int, is_max: bool, move: int | None) -> DrillNode:
        ident = next(counter)
        if level == depth or (level > 0 and rng.random() < 0.15):
            return DrillNode(ident, move, is_max, value=rng.randint(-values, values))
        count = rng.randint(1, width) if level > 0 else max(2, rng.randint(1, width))
        kids = tuple(build(level + 1, not is_max, cell) for cell in range(count))
        return DrillNode(ident, move, is_max, kids)

    return build(0, True, None)


@pytest.mark.parametrize("convention", CONVENTIONS, ids=str)
def test_the_drill_answer_is_the_textbooks_on_random_trees(convention: Convention):
    rng = random.Random(f"hand-search {convention}")
    for _ in range(2_500):
        root = random_tree(rng, rng.randint(1, 4), rng.randint(2, 4))
        answer = solve(root, convention)
        book = textbook(root, convention)
        assert answer.visited == tuple(book.visited)
        assert answer.returns == book.returns
        assert answer.windows == book.windows
        assert answer.root_value == book.returns[0] == minimax_value(root)
        assert answer.leaves_visited == book.leaves
        # Every node not visited was skipped by a visited parent's cut, and no other.
        every = {node.id for node in root.walk()}
        unvisited = every - set(answer.visited)
        assert set(answer.pruned_by) <= unvisited
        for node in root.walk():
            if node.id in answer.returns:
                for child in node.children:
                    assert (child.id in answer.returns) != (child.id in answer.pruned_by)


def test_equal_values_at_the_cut_differ_between_the_two_cut_rules():
    # MAX root: first child MIN returns 5; second MIN child's first leaf is 5 = alpha.
    leaf = lambda i, v: DrillNode(i, i, True, value=v)  # noqa: E731
    root = DrillNode(
        0,
        None,
        True,
        (
            DrillNode(1, 1, False, (leaf(2, 5), leaf(3, 7))),
            DrillNode(4, 4, False, (leaf(5, 5), leaf(6, 9))),
        ),
    )
    at_equal = solve(root, Convention(Cut.AT_EQUAL))
    past_equal = solve(root, Convention(Cut.PAST_EQUAL))
    assert 6 not in at_equal.visited and at_equal.pruned_by[6] == 4
    assert 6 in past_equal.visited
    assert at_equal.cuts[4].by == 5 and at_equal.cuts[4].alpha == 5 == at_equal.cuts[4].beta
    assert at_equal.root_value == past_equal.root_value == 5


def test_fail_hard_holds_a_value_inside_the_window_and_fail_soft_does_not():
    leaf = lambda i, v: DrillNode(i, i, True, value=v)  # noqa: E731
    root = DrillNode(
        0,
        None,
        True,
        (
            DrillNode(1, 1, False, (leaf(2, 5), leaf(3, 7))),
            DrillNode(4, 4, False, (leaf(5, 2), leaf(6, 9))),
        ),
    )
    soft = solve(root, Convention(returns=Returns.FAIL_SOFT))
    hard = solve(root, Convention(returns=Returns.FAIL_HARD))
    assert soft.returns[4] == 2  # MIN cut at 2 ≤ α = 5: its best so far
    assert hard.returns[4] == 5  # held at α
    assert soft.windows[4] == hard.windows[4] == (5, INFINITY)


@pytest.mark.parametrize("convention", CONVENTIONS, ids=str)
def test_no_order_of_any_small_tree_visits_fewer_leaves_than_the_best_order(convention):
    rng = random.Random(f"best order {convention}")
    for _ in range(300):
        root = random_tree(rng, rng.randint(1, 3), rng.randint(2, 3))
        best = best_order(root, convention)
        fewest = min(cost for _v, cost in all_outcomes(convention)(root, -INFINITY, INFINITY))
        assert best.leaves_visited == fewest
        assert textbook(root, convention, best.children).leaves == fewest
        assert solve(root, convention, best.children).leaves_visited == fewest


@pytest.mark.slow
def test_the_best_order_of_a_width_four_tree_is_reached_by_the_order_it_gives():
    rng = random.Random(4)
    for _ in range(50):
        root = random_tree(rng, 4, 4)
        for convention in CONVENTIONS:
            best = best_order(root, convention)
            assert solve(root, convention, best.children).leaves_visited == best.leaves_visited
            assert best.leaves_visited <= solve(root, convention).leaves_visited


def test_an_order_that_is_not_of_the_nodes_children_is_refused():
    root = DrillNode(
        0, None, True, (DrillNode(1, 1, False, value=1), DrillNode(2, 2, False, value=2))
    )
    with pytest.raises(ValueError, match="node 0"):
        solve(root, order={0: (1, 3)})
