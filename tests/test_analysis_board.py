"""The analysis board's rules, without a terminal: the move tree, the set-up, the analyses."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tictactoe_tui.engine import Board, IllegalMove, Mark
from tictactoe_tui.engine.rules.setup import setup_position
from tictactoe_tui.history.study import MoveTree, Node
from tictactoe_tui.play.analysis import (
    AnalysisController,
    AnalysisEffect,
    Copy,
    Phase,
    Resized,
)
from tictactoe_tui.play.controller import ClearPanel, Say, Search, ShowReport, StopSearch

from .engine.brute import lines_of


def said(effects: Sequence[AnalysisEffect]) -> list[str]:
    return [e.text for e in effects if isinstance(e, Say)]


def answer(
    controller: AnalysisController, effects: Sequence[AnalysisEffect]
) -> list[AnalysisEffect]:
    """Run the search the effects start here, as the worker would, and hand back its answer."""
    [search] = [e for e in effects if isinstance(e, Search)]
    return controller.search_done(search.job(*search.args))


def board(text: str = ".../.../...") -> AnalysisController:
    return AnalysisController(Board.from_string(text.upper()), time_limit=0.2)


def texts(controller: AnalysisController) -> list[str]:
    return [token.text for token in controller.move_tokens()]


# -- the move tree ------------------------------------------------------------------------------


def test_a_move_from_a_position_with_a_continuation_starts_a_variation() -> None:
    c = board()
    c.play(4)
    c.play(0)
    c.back()
    effects = c.play(2)
    assert c.notice == "A new variation."
    assert any(isinstance(e, Search) for e in effects)
    assert texts(c) == ["1. X B2", "2. O A1", "(", "2. O C1", ")"]
    assert c.position_text == "..O/.X./..."


def test_the_move_list_writes_variations_in_brackets_after_the_move_they_replace() -> None:
    c = board()
    for cell in (4, 0, 8):
        c.play(cell)
    c.to_root()
    c.forward()
    c.play(2)  # 2. O C1 instead of A1
    c.play(6)
    assert texts(c) == ["1. X B2", "2. O A1", "(", "2. O C1", "3. X A3", ")", "3. X C3"]
    assert [t.depth for t in c.move_tokens()] == [0, 0, 1, 1, 1, 1, 0]


def test_playing_a_move_tried_before_goes_to_it_rather_than_adding_it_twice() -> None:
    c = board()
    c.play(4)
    c.back()
    c.play(4)
    assert len(c.tree) == 1 and c.notice == ""


def test_back_forward_root_and_end_walk_the_main_line() -> None:
    c = board()
    for cell in (4, 0, 8):
        c.play(cell)
    c.to_root()
    assert c.node is c.tree.root
    assert said(c.back()) == ["This is the root position: there is no move before it."]
    c.forward()
    assert c.node.move == 4
    c.to_end()
    assert c.node.move == 8
    assert said(c.forward()) == ["The end of this line: play a move to go on."]


def test_next_and_previous_variation_cycle_at_the_nearest_branch() -> None:
    c = board()
    c.play(4)
    c.back()
    c.play(0)
    c.back()
    c.play(8)
    c.play(1)  # deep in the third variation: the branch is its first move
    c.variation(1)
    assert c.node.move == 4  # wrapped round to the main line
    c.variation(-1)
    assert c.node.move == 8
    c.to_root()
    assert said(c.variation(1))[0].startswith("No other variation here")


def test_promote_makes_the_variation_the_main_line() -> None:
    c = board()
    c.play(4)
    c.back()
    c.play(0)
    c.play(8)
    said_ = said(c.promote())
    assert said_ == ["1. X A1 is now the main line."]
    assert [n.move for n in c.tree.root.children] == [0, 4]
    assert texts(c) == ["1. X A1", "(", "1. X B2", ")", "2. O C3"]
    assert said(c.promote()) == ["This is the main line already: nothing to promote."]


def test_delete_removes_the_move_and_everything_after_it() -> None:
    c = board()
    for cell in (4, 0, 8):
        c.play(cell)
    c.back()
    effects = c.delete()
    assert said(effects) == ["Deleted 2. O A1 and the 1 move after it."]
    assert c.node is c.tree.root.children[0] and not c.node.children
    c.to_root()
    assert said(c.delete()) == ["The root cannot be deleted: s sets up another position."]
    assert len(c.tree) == 1


def test_a_taken_cell_or_a_finished_game_says_why_and_changes_nothing() -> None:
    c = board("XX./OO./...")
    c.play(2)
    before = (len(c.tree), c.position_text)
    assert said(c.play(2)) == ["The game is over here (X won): go back to try another move."]
    c.back()
    assert said(c.play(0)) == ["A1 is taken by X."]
    assert (len(c.tree), c.node.move) == (before[0], None)


def test_goto_a_node_by_its_number() -> None:
    c = board()
    c.play(4)
    c.play(0)
    ident = c.node.ident
    c.to_root()
    c.goto(ident)
    assert c.node.move == 0


@st.composite
def edits(draw: st.DrawFn) -> list[tuple[str, int]]:
    ops = st.one_of(
        st.tuples(st.just("play"), st.integers(0, 15)),
        st.tuples(
            st.sampled_from(["back", "forward", "delete", "promote", "root", "end"]), st.just(0)
        ),
        st.tuples(st.just("variation"), st.sampled_from([1, -1])),
    )
    return draw(st.lists(ops, max_size=60))


def _reachable_from(root: Board, node: Node) -> None:
    """Every node's position is its parent's with its move played; no move twice."""
    assert node.position.size == root.size and node.position.k == root.k
    moves = [child.move for child in node.children]
    assert len(moves) == len(set(moves))
    for child in node.children:
        assert child.parent is node
        assert child.move is not None and node.position[child.move] is None
        assert not node.position.is_over
        # Independent of Board.play: the child's marks are the parent's plus one for the mover.
        before, after = node.position.marks(), child.position.marks()
        changed = [i for i in range(len(after)) if before[i] != after[i]]
        assert changed == [child.move] and after[child.move] == str(node.position.to_move)
        assert child.position.to_move is node.position.to_move.opponent
        _reachable_from(root, child)


@given(st.sampled_from(["..../..../..../....", ".../.../...", "X.../.O../..../...."]), edits())
@settings(max_examples=150, deadline=None)
def test_any_sequence_of_edits_leaves_a_well_formed_tree(
    root: str, steps: list[tuple[str, int]]
) -> None:
    c = AnalysisController(Board.from_string(root, k=3), time_limit=0.05)
    for op, value in steps:
        cells = c.position.size**2
        if op == "play":
            c.play(value % cells)
        elif op == "variation":
            c.variation(value)
        else:
            getattr(c, {"root": "to_root", "end": "to_end"}.get(op, op))()
        # The node shown is in the tree.
        assert any(node is c.node for node in c.tree.nodes())
    _reachable_from(c.tree.root.position, c.tree.root)
    idents = [node.ident for node in c.tree.nodes()]
    assert len(idents) == len(set(idents))
    assert len([t for t in c.move_tokens() if t.node is not None]) == len(c.tree)


def test_a_tree_deleting_its_root_refuses() -> None:
    tree = MoveTree(Board.empty())
    with pytest.raises(ValueError):
        tree.delete(tree.root)


# -- the analysis of each position shown ---------------------------------------------------------


def test_each_position_shown_is_analysed_and_the_analysis_is_kept() -> None:
    c = board()
    effects = c.play(4)
    report = answer(c, effects)
    assert isinstance(report[0], ShowReport)
    assert report[0].report.title.startswith("O to move: ")
    c.back()
    effects = c.forward()
    assert not any(isinstance(e, Search) for e in effects)  # kept on the node
    assert any(isinstance(e, ShowReport) for e in effects)


def test_moving_on_stops_the_search_and_its_late_answer_is_not_shown() -> None:
    c = board()
    first = c.play(4)
    second = c.back()
    assert any(isinstance(e, StopSearch) for e in second)
    [search] = [e for e in first if isinstance(e, Search)]
    # The running search is now the root's; the old one's answer would be dropped by the
    # worker group, and the root's arrives for the root.
    assert c.thinking is c.tree.root
    assert search.args[0] == Board.from_string(".../.X./...")


def test_a_finished_position_says_how_it_ended_instead_of_a_search() -> None:
    c = board("XX./OO./...")
    effects = c.play(2)
    assert not any(isinstance(e, Search) for e in effects)
    assert [e.text for e in effects if isinstance(e, ClearPanel)] == [
        "The game is over here: X won."
    ]


def test_hint_names_the_best_move_once_analysed() -> None:
    c = board("XX./OO./...")
    answer(c, c.to_root())
    assert said(c.hint()) == ["Hint: C1 (win in 1, score 9)."]


# -- setting a position up ------------------------------------------------------------------------


def test_setup_puts_marks_and_done_makes_a_new_study() -> None:
    c = board()
    c.play(4)
    c.start_setup()
    assert c.phase is Phase.SETUP
    c.put(0, Mark.O)
    assert c.position_text == "O../.X./..."
    assert c.position.to_move is Mark.X
    effects = c.finish_setup()
    assert c.phase is Phase.EXPLORE and len(c.tree) == 0
    assert c.tree.root.position == Board.from_string("O../.X./...")
    assert any(isinstance(e, Search) for e in effects)


def test_cancel_leaves_the_study_as_it_was() -> None:
    c = board()
    c.play(4)
    c.start_setup()
    c.put(0, Mark.O)
    c.cancel_setup()
    assert c.position_text == ".../.X./..." and len(c.tree) == 1


@pytest.mark.parametrize(
    ("marks", "put", "why"),
    [
        (
            "X../.../...",
            (1, Mark.X),
            "Impossible position: 2 X and 0 O (the players take turns, so the counts differ by at "
            "most one).",
        ),
        ("XX./OO./...", (2, Mark.X), None),  # a legal win for X
    ],
)
def test_an_impossible_setup_says_why_and_keeps_the_last_legal_position(
    marks: str, put: tuple[int, Mark], why: str | None
) -> None:
    c = board(marks)
    c.start_setup()
    effects = c.put(*put)
    if why is None:
        assert said(effects) == []
    else:
        assert said(effects) == [why]
        assert c.position_text == marks


def test_both_sides_with_a_line_is_refused() -> None:
    c = board("XXX/OO./...")
    c.start_setup()
    assert said(c.put(5, Mark.O)) == [
        "Impossible position: both X and O have a line, but the game ends at the first one."
    ]
    assert c.position_text == "XXX/OO./..."


def test_the_side_to_move_is_switched_only_when_the_position_allows() -> None:
    c = board("X../.O./...")
    c.start_setup()
    c.switch_side()
    assert c.position.to_move is Mark.O  # equal counts: either side may move
    c.put(8, Mark.X)  # now X has more: O must move
    assert said(c.switch_side()) == [
        "X cannot be to move with 2 X and 1 O: the side with fewer marks moves, O."
    ]
    assert c.position.to_move is Mark.O


def test_clear_and_click_cycling() -> None:
    c = board("X../.O./...")
    c.start_setup()
    c.clear()
    assert c.position_text == ".../.../..."
    c.cycle(4)
    c.cycle(0)  # a second X would be impossible: the click gives O
    assert c.position_text == "O../.X./..."
    c.cycle(0)
    assert c.position_text == ".../.X./..."


def test_paste_reads_either_case_and_refuses_a_bad_string_in_one_sentence() -> None:
    c = board()
    c.play(4)
    assert said(c.paste("xx./oo./...")) == ["Pasted: a new study from this position, X to move."]
    assert c.tree.root.position == Board.from_string("XX./OO./...")
    for bad, why in [
        ("xq./.../...", "Not pasted: unknown character(s) 'Q' in the board: use X, O and '.'."),
        (
            "XX./.../...",
            "Not pasted: impossible position: 2 X and 0 O (the "
            "players take turns, so the counts differ by at most one).",
        ),
        ("XX", "Not pasted: 2 cells cannot make a square board (9 make 3×3, 16 make 4×4, ...)."),
    ]:
        assert said(c.paste(bad)) == [why]
        assert c.position_text == "XX./OO./..."


def test_paste_of_another_size_resizes_the_board() -> None:
    c = board()
    effects = c.paste("X.../..../..../....")
    assert Resized(4) in effects and c.position.k == 4


def test_copy_gives_the_string_analyse_reads() -> None:
    c = board("x../.o./...")
    effects = c.copy()
    assert effects[0] == Copy("X../.O./...")
    assert "Copied X../.O./..." in said(effects)[0]


# -- the set-up rules against every reachable 3×3 position ----------------------------------------


def _reachable() -> set[tuple[str, Mark]]:
    """Every (marks, side to move) a 3×3 game reaches, X or O starting; built by playing
    moves with this test's own line check, not the engine's."""
    lines = lines_of(3, 3)

    def won(marks: str, mark: str) -> bool:
        return any(all(marks[c] == mark for c in line) for line in lines)

    seen: set[tuple[str, Mark]] = set()
    frontier = [("." * 9, Mark.X), ("." * 9, Mark.O)]
    while frontier:
        state = frontier.pop()
        if state in seen:
            continue
        seen.add(state)
        marks, mover = state
        if won(marks, "X") or won(marks, "O"):
            continue
        for cell in range(9):
            if marks[cell] == ".":
                frontier.append((marks[:cell] + mover + marks[cell + 1 :], mover.opponent))
    return seen


def test_setup_accepts_exactly_the_positions_a_game_can_reach() -> None:
    reachable = _reachable()
    for cells in product(".XO", repeat=9):
        marks = "".join(cells)
        for side in (Mark.X, Mark.O):
            try:
                setup_position(marks, 3, 3, side)
                accepted = True
            except IllegalMove as error:
                accepted = False
                assert str(error).endswith(".") and "\n" not in str(error)
            assert accepted == ((marks, side) in reachable), (marks, side)


def test_cancelling_a_setup_after_pasting_another_size_gives_the_board_back() -> None:
    c = board()
    c.start_setup()
    assert Resized(4) in c.paste("..../..../..../....")
    effects = c.cancel_setup()
    assert Resized(3) in effects and c.position.size == 3
