"""The drill's judge: node by node, against the search's own answer, in the search's words."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import pytest

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.drill_tree import DrillShape, DrillTree, cut_tree, random_position
from tictactoe_tui.engine.lab.hand_search import INFINITY, Convention, Cut, DrillNode, Returns
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.play.drill import (
    DrillController,
    DrillExercise,
    DrillStart,
    ReorderExercise,
    drill_start,
)

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


# -- the screen's controller: every key the drill screen reads, without a terminal -------------

# O to move (MAX), depth 2, width 3: B1 and B2 each cut after their first leaf once B3 is first.
REAL = cut_tree(read_position("X../.O./..X"), DrillShape(2, 3))


def controller(seed: int | None = 1) -> DrillController:
    return DrillController(DrillStart(REAL, seed=seed))


def type_value(drill: DrillController, node: int, value: int) -> None:
    """Select `node`, type `value` key by key, and press Enter."""
    drill.select(node)
    for character in str(value):
        drill.type_key(character)
    drill.enter()


def fill_in(drill: DrillController) -> None:
    """The search's own answer, typed as a learner would."""
    answer = drill.drill.answer
    for ident, node in drill.drill.nodes.items():
        if not node.is_leaf and answer.was_visited(ident):
            type_value(drill, ident, answer.returns[ident])
        if ident in answer.pruned_by:
            drill.select(ident)
            drill.toggle_pruned()


def test_the_outline_lists_every_node_with_its_move_side_and_leaf_value():
    drill = controller()
    texts = [row.text for row in drill.rows()]
    assert len(texts) == 13
    assert texts[0] == "  A  O to move · MAX"
    assert texts[1] == "    B1  O plays C1 · MIN"
    assert texts[2] == "      C1  X plays A3 · leaf -4"
    type_value(drill, 1, -4)
    drill.select(7)
    drill.toggle_pruned()
    assert drill.rows()[1].text.endswith("= -4") and "✂ pruned" in drill.rows()[7].text
    assert drill.rows()[7].skipped and drill.message == "C5 pruned."


def test_typed_numbers_go_to_the_node_selected_and_bad_ones_are_refused():
    drill = controller()
    type_value(drill, 0, -12)
    assert drill.drill.entry(0).value == -12 and drill.message == "A = -12."
    drill.select(1)
    drill.type_key("3")
    drill.type_key("-")  # a minus goes first only
    assert drill.typing == "3" and drill.message == "A minus goes first."
    drill.type_key("∞")  # not a value
    assert drill.typing == "3"
    drill.select(0)  # another node drops what was half typed
    assert drill.typing == ""
    drill.enter()  # nothing typed: rubs the value out, and says so
    assert drill.drill.entry(0).value is None
    assert drill.message == "A's value (-12) rubbed out."
    drill.enter()  # nothing to rub out: nothing changes
    assert drill.message == "Type a number for A first, then Enter." and drill.drill.entries == {}
    type_value(drill, 2, 5)
    assert drill.message == "C1 is a leaf: its value is given."
    drill.select(5)
    drill.begin("alpha")
    drill.type_key("-")
    drill.type_key("∞")
    drill.enter()
    drill.begin("beta")
    drill.type_key("4")
    assert drill.typing_words() == "B2, β: 4  (Enter sets it)"
    drill.enter()
    entry = drill.drill.entry(5)
    assert (entry.alpha, entry.beta) == (-INFINITY, 4)
    assert "α -∞ β 4" in drill.rows()[5].text
    drill.begin("alpha")
    assert drill.cancel_typing() and not drill.cancel_typing()


def test_a_right_answer_typed_node_by_node_is_right_and_kept_once():
    drill = controller()
    fill_in(drill)
    attempt = drill.check()
    assert attempt is not None and attempt.solved and attempt.exercise == "values"
    assert (attempt.nodes, attempt.nodes_right) == (13, 13)
    assert attempt.position == "X../.O./..X" and attempt.settings["cut"] == "at-equal"
    assert drill.message == "Right: every node is right (13 of 13)."
    assert all(row.text.startswith("✓ ") for row in drill.rows())
    assert drill.check() is None  # nothing changed: nothing new to keep
    drill.select(1)
    drill.toggle_pruned()
    drill.toggle_pruned()
    assert drill.check() is None  # solved already on this tree


def test_a_wrong_value_and_a_wrong_prune_mark_are_each_named():
    drill = controller()
    fill_in(drill)
    type_value(drill, 1, 0)  # B1 returns -4
    drill.select(12)  # C9 is visited
    drill.toggle_pruned()
    attempt = drill.check()
    assert attempt is not None and not attempt.solved and attempt.nodes_right == 11
    lines = drill.verdict_lines()
    assert lines[0] == "Not quite: 11 of 13 nodes right."
    assert lines[1].startswith("B1 returns -4, not 0: MIN takes the smaller of -4, 0 and 0")
    assert lines[2].startswith("C9: you pruned it, but when the search reaches it")
    rows = drill.rows()
    assert rows[1].wrong and rows[1].text.startswith("✗ ") and "not quite" in rows[1].text
    assert rows[12].wrong and not rows[2].wrong and rows[2].text.startswith("✓ ")
    drill.select(1)
    assert "✗ B1 returns -4, not 0" in drill.node_words()


def test_an_order_checked_before_it_is_the_best_is_not_quite():
    drill = controller()
    drill.toggle_reorder()
    attempt = drill.check()
    assert attempt is not None and attempt.exercise == "reorder" and not attempt.solved
    assert drill.message == "Not quite: 7 leaves visited; the best order visits 5."
    assert drill.verdict_lines() == [drill.message, "7 leaves visited; the best order visits 5."]


def test_n_cuts_a_different_tree_and_the_same_seed_the_same_trees():
    one, two = controller(seed=5), controller(seed=5)
    type_value(one, 0, 3)
    one.new_tree()
    two.new_tree()
    assert one.tree.root != REAL.root and one.tree.shape == REAL.shape
    assert one.tree.root == two.tree.root and one.drill.entries == {}
    assert one.selected == 0 and one.message == "A fresh tree."


def test_the_reorder_exercise_counts_the_leaves_live_and_checks_the_order():
    drill = controller()
    drill.toggle_reorder()
    assert drill.verdict_lines()[-1] == "7 leaves visited; the best order visits 5."
    drill.select(9)  # B3 to the front: B1 and B2 then cut after their first leaf
    drill.move_selected(-1)  # B1, B3, B2: B2 cuts, B1 still looks at all of its leaves
    assert drill.message == "7 leaves visited; the best order visits 5."
    drill.move_selected(-1)
    assert drill.message == "Right: 5 leaves visited: as few as any order can."
    drill.move_selected(-1)
    assert drill.message == "B3 cannot move: it is the root or already first."
    rows = drill.rows()
    assert [row.node for row in rows[:3]] == [0, 9, 10]
    assert [row.node for row in rows if row.skipped] == [3, 4, 7, 8]
    assert rows[-1].text.endswith("· skipped")
    drill.type_key("3")  # typing belongs to filling in
    assert drill.typing == "" and "reorder exercise" in drill.message
    attempt = drill.check()
    assert attempt is not None and attempt.exercise == "reorder" and attempt.solved
    assert (attempt.nodes, attempt.nodes_right) == (5, 5)
    assert drill.message == "Right: 5 leaves visited: as few as any order can."
    drill.toggle_reorder()
    assert drill.reorder is None and [row.node for row in drill.rows()[:2]] == [0, 1]


def test_switching_the_convention_keeps_the_entries_and_says_the_new_one():
    drill = controller()
    fill_in(drill)
    assert "cut at α ≥ β, fail-soft" in drill.convention_words()
    drill.switch_cut()
    assert drill.convention.cut is Cut.PAST_EQUAL
    assert drill.message.startswith("Now: cut only at α > β, fail-soft")
    drill.switch_returns()
    assert "fail-hard" in drill.convention_words()
    assert drill.drill.entry(1).value == -4  # kept, judged under the new convention
    drill.toggle_reorder()
    drill.select(9)
    drill.move_selected(-1)
    drill.switch_cut()  # the order is kept too
    assert drill.reorder is not None and drill.reorder.order[0] == [1, 9, 5]


def test_the_board_beside_shows_the_selected_nodes_position_and_its_line():
    drill = controller()
    drill.select(2)  # C1: O plays C1, then X plays A3
    marks, path, last = drill.board_view()
    assert path == [2, 6] and last == 6
    assert marks[2] == "O" and marks[6] == "X" and marks[0] == "X"
    drill.select(0)
    assert drill.board_view()[1:] == ([], None)
    assert drill.node_words().startswith("A: O to move · MAX")
    assert "depth 2, width 3" in drill.title_words()


def test_a_drill_is_refused_where_the_game_is_over():
    with pytest.raises(ValueError, match="over"):
        drill_start(read_position("XXX/OO./..."))
    assert (
        drill_start(read_position("X../.O./..X")).tree.root
        == cut_tree(read_position("X../.O./..X"), DrillShape()).root
    )


def test_a_selected_leaf_says_how_it_got_its_value():
    drill = controller()
    drill.select(2)  # C1: H1 of the position after X's A3, for O (the root's player)
    assert "A leaf: its value, -4, is given (H1 of the position, for O)." in drill.node_words()
    tree = cut_tree(read_position("XX./OO./..."), DrillShape(2, 3))
    ended = DrillController(DrillStart(tree))
    win = tree.root.children[0]  # the engine's order tries the win first: X on C1
    assert win.is_leaf and win.move == 2 and win.value == 100 - 1
    ended.select(win.id)
    assert "its value, 99, is given (X wins here, on ply 1: 100 - 1)." in ended.node_words()
