"""`bench --against REV`: the plumbing of a match against an earlier revision's engine (a
temporary git worktree, one worker process per engine), checked on tiny 3x3 matches; the
strength itself is measured by the benchmark, never asserted here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.bench import (
    EngineWorker,
    bench_against,
    checkout_root,
    play_against,
    revision_checkout,
)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(checkout_root()), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_each_engine_plays_from_its_own_checkout_and_the_worktree_is_removed() -> None:
    result = play_against("HEAD", 2, None, size=3, jobs=1)
    assert result.commit == git("rev-parse", "HEAD")
    assert result.new_as_x.games == 1 and result.new_as_o.games == 1
    (part,) = result.parts
    assert Path(part.new_package) == checkout_root() / "tictactoe_tui" / "__init__.py"
    old_root = Path(part.old_package).parents[1]
    assert old_root != checkout_root() and not old_root.exists()
    assert str(old_root) not in git("worktree", "list")
    moves, seconds, _ = part.old_cost
    assert moves >= 4 and seconds > 0


def test_the_worktree_goes_even_when_the_match_fails() -> None:
    with pytest.raises(RuntimeError), revision_checkout("HEAD") as (root, _):
        assert (root / "tictactoe_tui" / "engine").is_dir()
        raise RuntimeError("the match broke")
    assert not root.exists() and str(root) not in git("worktree", "list")


def test_an_unknown_revision_is_refused_before_any_worktree_is_made() -> None:
    before = git("worktree", "list")
    with pytest.raises(RuntimeError), revision_checkout("no-such-revision-775"):
        pass
    assert git("worktree", "list") == before


def test_a_worker_refuses_a_checkout_without_the_package(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="worker stopped"):
        EngineWorker(tmp_path)


def test_the_command_refuses_an_odd_number_of_games_in_one_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "bench", "--against", "HEAD", "--games", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=checkout_root(),
    )
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "--games" in out.stderr and "Traceback" not in out.stderr


def test_a_move_far_over_its_clock_is_named_with_its_board() -> None:
    """A clock no search can keep (0.1 ms a move): the report names each engine's longest move
    and the board it was chosen on, to replay it."""
    report = bench_against("HEAD", 2, [0.0001], jobs=1, seed=1, size=3)
    lines = report.splitlines()
    for name in ("new", "old"):
        (line,) = [line for line in lines if line.startswith(f"{name}'s longest move")]
        board = line.rsplit(" on ", 1)[1]
        rows = board.split("/")
        assert len(rows) == 3 and all(len(row) == 3 and set(row) <= set("XO.") for row in rows)
