"""Keeping the analysis board's study (play.study_keeping): a new one, again in place, the
status's number, and the question before unkept moves are dropped, without the app."""

from __future__ import annotations

from pathlib import Path

from tests.test_studies import a_study
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.leaving import Leave
from tictactoe_tui.play.study_keeping import StudyKeeping


def test_a_study_is_kept_then_saved_again_in_place(tmp_path: Path) -> None:
    store = HistoryStore.open(tmp_path)
    tree = a_study()
    keeping = StudyKeeping(store, tree, None)
    assert keeping.where(tree, "Root") == "Root"
    assert keeping.leave_question(tree, Leave.BACK) is not None  # four moves never kept
    said = keeping.keep(tree)
    assert said == (
        "Study 1 kept in the history (4 moves, 2 variations): y, then s, lists the studies."
    )
    assert keeping.study_id == 1 and keeping.where(tree, "Root") == "Study 1 · Root"
    assert keeping.leave_question(tree, Leave.QUIT) is None
    assert keeping.keep(tree).startswith("Study 1 saved again")
    assert len(store.studies()) == 1


def test_another_tree_is_a_new_study_and_no_history_keeps_nothing(tmp_path: Path) -> None:
    store = HistoryStore.open(tmp_path)
    first, second = a_study(), a_study()
    keeping = StudyKeeping(store, first, None)
    keeping.keep(first)
    assert keeping.where(second, "Root") == "Root"
    assert keeping.keep(second).startswith("Study 2 kept in the history")
    nowhere = StudyKeeping(None, first, None)
    assert nowhere.keep(first) == "There is no history here: the study cannot be kept."
    assert nowhere.leave_question(first, Leave.BACK) is None


def test_a_reopened_study_counts_as_kept(tmp_path: Path) -> None:
    tree = a_study()
    keeping = StudyKeeping(HistoryStore.open(tmp_path), tree, 7)
    assert keeping.where(tree, "Root") == "Study 7 · Root"
    assert keeping.leave_question(tree, Leave.BACK) is None
