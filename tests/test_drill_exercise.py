"""The drill's judge: node by node, against the search's own answer, in the search's words."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import pytest

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.drill_tree import DrillShape, DrillTree, cut_tree, random_position
from tictactoe_tui.engine.lab.hand_search import INFINITY, Convention, Cut, DrillNode, Returns
from tictactoe_tui.play.drill import DrillExercise, ReorderExercise

CONVENTIONS = [Convention(cut, returns) for cut, returns in product(Cut, Returns)]


def leaf(ident: int, value: int) -> DrillNode:
    return DrillNode(ident, ident, False, value=value)


def hand_tree(root: DrillNode) -> DrillTree:
    """A drill tree made by hand (the position is only a label here)."""
    board = Board.empty(size=3, k=3)
    return DrillTree(board, DrillShape(), root, {}, {}, 100)


# A: MAX; B1 (MIN) over 3 and 5; B2 (MIN) over 2 and 9: B2 cuts after its 2 (α = 3).
SMALL = hand_tree(
    DrillNode(
        0,
        None,
        True,
        (
            DrillNode(
                1, 4, False, (DrillNode(2, 0, True, value=3), DrillNode(3, 1, True, value=5))
            ),
            DrillNode(
                4, 2, False, (DrillNode(5, 6, True, value=2), DrillNode(6, 8, True, value=9))
            ),
        ),
    )
)


def filled(tree: DrillTree, convention: Convention) -> DrillExercise:
    drill = DrillExercise(tree, convention)
    drill.reveal()
    return drill


def test_the_labels_name_each_level_and_place():
    drill = DrillExercise(SMALL)
    assert [drill.names[i] for i in range(7)] == ["A", "B1", "C1", "C2", "B2", "C3", "C4"]
    assert drill.node_named("b2") is drill.nodes[4] and drill.node_named("Z9") is None


def test_the_right_answer_is_right_node_by_node():
    drill = DrillExercise(SMALL)
    drill.set_value(0, 3)
    drill.set_value(1, 3)
    drill.set_value(4, 2)
    drill.toggle_pruned(6)
    verdict = drill.check()
    assert verdict.all_right and verdict.right_count == len(verdict.nodes) == 7


def test_a_wrong_value_is_named_with_the_step_that_decides_it():
    drill = filled(SMALL, Convention())
    drill.set_value(1, 5)
    verdict = drill.check()
    assert [v.node for v in verdict.wrong] == [1]
    assert verdict.nodes[1].words == "B1 returns 3, not 5: MIN takes the smaller of 3 and 5."


def test_a_cut_nodes_value_says_why_it_stopped():
    drill = filled(SMALL, Convention())
    drill.set_value(4, 9)
    words = drill.check().nodes[4].words
    assert words == (
        "B2 returns 2, not 9: MIN has looked at one child only, worth 2 "
        "(after C3 returns 2, α = 3 ≥ β = 2, so MIN at B2 stops)."
    )


def test_an_extra_prune_mark_is_wrong():
    drill = filled(SMALL, Convention())
    drill.toggle_pruned(3)
    verdict = drill.check()
    assert [v.node for v in verdict.wrong] == [3]
    assert verdict.nodes[3].words == (
        "C2: you pruned it, but when the search reaches it α = -∞ and β = 3, so it must look."
    )


def test_a_missed_prune_and_a_value_on_a_skipped_node_are_wrong():
    drill = filled(SMALL, Convention())
    drill.toggle_pruned(6)  # takes the right mark off
    words = drill.check().nodes[6].words
    assert words.startswith("C4 is never visited: after C3 returns 2, α = 3 ≥ β = 2")
    drill.toggle_pruned(6)
    drill.set_window(6, None, None)
    drill.entries[6].value = 9
    assert "so it has no value" in drill.check().nodes[6].words


def test_a_leaf_takes_no_value_and_the_root_no_mark():
    drill = DrillExercise(SMALL)
    assert drill.set_value(2, 4) == "C1 is a leaf: its value is given."
    assert drill.toggle_pruned(0) == "The search always starts at the root."


def test_a_wrong_window_is_named_and_a_right_one_is_right():
    drill = filled(SMALL, Convention())
    drill.set_window(4, 3, INFINITY)
    assert drill.check().all_right
    drill.set_window(4, 5, None)
    words = drill.check().nodes[4].words
    assert words.startswith("B2 is entered with α = 3 and β = ∞, not α = 5")


def test_equal_values_at_the_cut_under_both_rules():
    # B2's first leaf equals α: at-equal cuts, past-equal must look at the next one.
    tree = hand_tree(
        DrillNode(
            0,
            None,
            True,
            (
                DrillNode(1, 0, False, (leaf(2, 3), leaf(3, 5))),
                DrillNode(4, 1, False, (leaf(5, 3), leaf(6, 9))),
            ),
        )
    )
    at_equal = filled(tree, Convention(Cut.AT_EQUAL))
    assert at_equal.entry(6).pruned
    at_equal.switch_cut()  # the same marks, judged under α > β
    assert at_equal.convention.cut is Cut.PAST_EQUAL
    words = at_equal.check().nodes[6].words
    assert words == (
        "C4: you pruned it, but when the search reaches it α = 3 and β = 3, and the search "
        "cuts only once α > β, so it must look."
    )


def test_fail_hard_values_are_explained_as_held_in_the_window():
    drill = filled(SMALL, Convention(returns=Returns.FAIL_HARD))
    assert drill.answer.returns[4] == 3
    drill.set_value(4, 2)
    assert drill.check().nodes[4].words.endswith("; fail-hard holds 2 inside its window, at α = 3.")


@pytest.mark.parametrize("convention", CONVENTIONS, ids=str)
def test_on_real_trees_the_revealed_answer_is_right_and_each_single_slip_is_named(convention):
    rng = random.Random(f"judge {convention}")
    for _ in range(40):
        board = random_position(rng, rng.choice((3, 4)), 3, 4)
        tree = cut_tree(board, DrillShape(rng.randint(2, 4), rng.randint(2, 3)))
        drill = filled(tree, convention)
        assert drill.check().all_right
        answer = drill.answer
        # What the revealed tree shows: a node the answer uses is never shown as pruned.
        for ident in drill.nodes:
            assert drill.shown_pruned(ident) is (not answer.was_visited(ident))
        revealed = {ident: replace(entry) for ident, entry in drill.entries.items()}
        for ident, node in drill.nodes.items():
            if ident == 0:
                continue
            drill.entries = {i: replace(entry) for i, entry in revealed.items()}
            drill.toggle_pruned(ident)  # a mark added or taken away
            wrong = {v.node for v in drill.check().wrong}
            if answer.was_visited(ident):
                assert ident in wrong
            elif ident in answer.pruned_by:
                assert wrong == {ident}
            else:
                assert not wrong  # a mark inside a marked subtree changes nothing
            if not node.is_leaf and answer.was_visited(ident):
                drill.entries = {i: replace(entry) for i, entry in revealed.items()}
                drill.set_value(ident, answer.returns[ident] + 1)
                assert {v.node for v in drill.check().wrong} == {ident}


def test_reordering_counts_leaves_live_and_is_scored_against_the_best_order():
    drill = ReorderExercise(SMALL)
    assert drill.leaves_visited == 3 and drill.best.leaves_visited == 3
    assert drill.solved and drill.score_words() == "3 leaves visited: as few as any order can."
    assert drill.move(4, -1)  # B2 first: 2 then B1 must look at both of its leaves
    assert drill.order[0] == [4, 1]
    assert not drill.move(4, -1)  # already first
    assert drill.leaves_visited == 4
    assert drill.score_words() == "4 leaves visited; the best order visits 3."
