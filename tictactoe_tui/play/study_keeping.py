"""The analysis board's study in the history: kept as a new one or in place of the one kept
(`k`), its number in the status while it is the study shown, and the question asked before
Escape or q drop moves that were never kept (`play.leaving`).

Pure (no Textual): the Analysis screen says what these return.
"""

from __future__ import annotations

from tictactoe_tui.history.record import study_counts, study_to_record
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.study import MoveTree
from tictactoe_tui.play.leaving import Leave, LeaveGuard


class StudyKeeping:
    """Where the study shown stands in the history: which study it is, and what is kept."""

    def __init__(self, store: HistoryStore | None, tree: MoveTree, study_id: int | None) -> None:
        """The study `tree`, reopened as study `study_id` of `store` (None: a new one)."""
        self.store = store
        """The history the study is kept in (None: it cannot be kept)."""
        self.study_id = study_id
        """The study's id in the history once kept (saving again replaces it)."""
        self._kept_tree = tree if study_id is not None else None
        self._leaving = LeaveGuard()
        """Escape and q ask once before they drop moves that were never kept."""
        if study_id is not None:
            self._leaving.mark_kept(study_to_record(tree))

    def where(self, tree: MoveTree, where: str) -> str:
        """The status's first line `where`, led by the study's number while `tree` is the
        study kept."""
        if self.study_id is not None and tree is self._kept_tree:
            return f"Study {self.study_id} · {where}"
        return where

    def keep(self, tree: MoveTree) -> str:
        """Keep `tree` (its root and every variation) in the history, in place of the study
        kept when it is that one; the sentence that says what happened."""
        store = self.store
        if store is None:
            return "There is no history here: the study cannot be kept."
        if tree is not self._kept_tree:
            self.study_id = None  # a new study (set up or pasted): kept as a new one
        before = store.notice
        kept = store.save_study(study_to_record(tree), self.study_id)
        if kept is None:
            if store.notice != before:
                return store.notice
            return "The study was not kept: the history cannot be written."
        again = self.study_id == kept
        self.study_id, self._kept_tree = kept, tree
        self._leaving.mark_kept(study_to_record(tree))
        moves, variations = study_counts(tree)
        return (
            f"Study {kept} {'saved again' if again else 'kept in the history'} ({moves} "
            f"move{'s' if moves != 1 else ''}, {variations} variation"
            f"{'s' if variations != 1 else ''}): y, then s, lists the studies."
        )

    def leave_question(self, tree: MoveTree, way: Leave) -> str | None:
        """None when Escape (`Leave.BACK`) or q (`Leave.QUIT`) may leave now; else the
        question asked first, once (the study has moves that were never kept)."""
        if self.store is None or self.store.state not in ("ready", "waiting"):
            return None  # no history to keep the study in: asking would offer nothing
        return self._leaving.ask(study_to_record(tree), study_counts(tree)[0], way)
