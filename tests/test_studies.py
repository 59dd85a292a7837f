"""Studies of the analysis board kept: the text record with variations, the store, the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tictactoe_tui.engine import Board
from tictactoe_tui.history.record import (
    is_study_record,
    study_counts,
    study_from_record,
    study_to_record,
)
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.study import MoveTree, Node
from tictactoe_tui.play.analysis import AnalysisController


def shape(node: Node) -> tuple[object, ...]:
    """A tree as nested tuples of (move, children in order): what must survive a round trip."""
    return (node.move, str(node.position), tuple(shape(child) for child in node.children))


def a_study() -> MoveTree:
    """From X../.O./...: C1 B1 (A2 instead of B1), and C3 instead of C1."""
    c = AnalysisController(Board.from_string("X../.O./..."))
    c.play(2)
    c.play(1)
    c.back()
    c.play(3)
    c.to_root()
    c.play(8)
    return c.tree


def test_a_study_is_written_with_its_variations_in_brackets() -> None:
    text = study_to_record(a_study(), 7)
    assert text.splitlines() == [
        "# tictactoe-tui study 7",
        "tictactoe-study 3x3 k=3",
        "position: X../.O./... to-move=X",
        "moves: C1 ( C3 ) B1 ( A2 )",
    ]
    assert is_study_record(text)
    assert study_counts(study_from_record(text)) == (4, 2)


@given(
    st.lists(
        st.tuples(st.sampled_from(["play", "back", "root", "variation"]), st.integers(0, 15)),
        max_size=50,
    ),
    st.sampled_from(["..../..../..../....", "X.../.O../..../...."]),
)
@settings(max_examples=100, deadline=None)
def test_any_study_reads_back_the_same(steps: list[tuple[str, int]], root: str) -> None:
    c = AnalysisController(Board.from_string(root, k=3))
    for op, value in steps:
        if op == "play":
            c.play(value)
        elif op == "back":
            c.back()
        elif op == "root":
            c.to_root()
        else:
            c.variation(1 if value % 2 else -1)
    again = study_from_record(study_to_record(c.tree))
    assert shape(again.root) == shape(c.tree.root)
    assert again.root.position.k == 3


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("tictactoe 3x3 k=3 first=X\nmoves: 5", "no 'tictactoe-study NxN k=K' line"),
        ("tictactoe-study 3x3 k=3\nmoves: B2", "no 'position: ... to-move=X' line"),
        ("tictactoe-study 3x3 k=3\nposition: XX./.../... to-move=O\nmoves:", "2 X and 0 O"),
        (
            "tictactoe-study 3x3 k=3\nposition: .../.../... to-move=X\nmoves: ( B2 )",
            "a '(' must follow the move",
        ),
        (
            "tictactoe-study 3x3 k=3\nposition: .../.../... to-move=X\nmoves: B2 ( A1",
            "a '(' is never closed",
        ),
        (
            "tictactoe-study 3x3 k=3\nposition: .../.../... to-move=X\nmoves: B2 )",
            "a ')' closes no '('",
        ),
        (
            "tictactoe-study 3x3 k=3\nposition: .../.../... to-move=X\nmoves: B2 B2",
            "B2 cannot be played there",
        ),
        (
            "tictactoe-study 3x3 k=3\nposition: .../.../... to-move=X\nmoves: D4",
            "'D4' is not a cell of a 3×3 board",
        ),
    ],
)
def test_a_bad_study_record_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why.replace("(", r"\(").replace(")", r"\)")):
        study_from_record(text)


def test_the_store_keeps_lists_replaces_and_forgets_studies(tmp_path: Path) -> None:
    store = HistoryStore.open(tmp_path)
    tree = a_study()
    first = store.save_study(study_to_record(tree))
    assert first is not None
    [listed] = store.studies()
    assert (listed.id, listed.root, listed.moves, listed.variations) == (first, "X../.O./...", 4, 2)
    kept = store.study(first)
    assert kept is not None and kept.startswith(f"# tictactoe-tui study {first}\n# saved: ")
    assert shape(study_from_record(kept).root) == shape(tree.root)
    tree.delete(tree.root.children[1])  # forget the C3 variation, and save in place
    assert store.save_study(study_to_record(tree), first) == first
    [listed] = store.studies()
    assert (listed.moves, listed.variations) == (3, 1)
    assert store.delete_study(first) and store.studies() == []
    assert store.study(first) is None
    store.close()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args], capture_output=True, text=True, timeout=60
    )


def test_export_and_import_keep_every_variation(tmp_path: Path) -> None:
    store = HistoryStore.open(tmp_path / "one")
    study_id = store.save_study(study_to_record(a_study()))
    store.close()
    exported = cli("export", "--study", str(study_id), "--data-dir", str(tmp_path / "one"))
    assert exported.returncode == 0, exported.stderr
    record = tmp_path / "study.txt"
    record.write_text(exported.stdout)
    imported = cli("import", str(record), "--data-dir", str(tmp_path / "two"))
    assert imported.returncode == 0, imported.stderr
    other = HistoryStore.open(tmp_path / "two")
    kept = other.study(int(imported.stdout))
    other.close()
    assert kept is not None
    assert shape(study_from_record(kept).root) == shape(a_study().root)
    listed = cli("history", "--studies", "--data-dir", str(tmp_path / "two"))
    assert "X../.O./..." in listed.stdout and listed.returncode == 0


def test_export_of_a_missing_study_and_import_of_a_bad_one_are_one_line(tmp_path: Path) -> None:
    missing = cli("export", "--study", "9", "--data-dir", str(tmp_path))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "there is no study 9" in missing.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("tictactoe-study 3x3 k=3\nposition: .../.../... to-move=X\nmoves: B2 B2\n")
    refused = cli("import", str(bad), "--data-dir", str(tmp_path))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "is not a study record: B2 cannot be played there" in refused.stderr


def test_a_match_game_becomes_a_played_game_for_the_review() -> None:
    from datetime import datetime

    from tictactoe_tui.engine.players.match import MatchPlan, PlayerSpec, run_match
    from tictactoe_tui.history.record import played_from_match

    result = run_match(PlayerSpec("alphabeta"), PlayerSpec("random"), MatchPlan(2, seed=5))
    when = datetime(2025, 3, 1, 12, 0)
    first, second = (
        played_from_match(game, "alphabeta:depth=3", "random", result.size, result.k, when)
        for game in result.outcomes
    )
    assert (first.x, first.o) == ("alphabeta", "random")  # x plays X in odd games
    assert (second.x, second.o) == ("random", "alphabeta")
    for played, game in zip((first, second), result.outcomes, strict=True):
        assert played.cells == game.moves
        assert played.replay().board == game.final
        winner = game.final.winner
        assert played.outcome == ("draw" if winner is None else winner.value)
        assert all(move.by_computer for move in played.moves)
