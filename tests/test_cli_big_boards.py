"""Every command on the biggest board, 20×20, as a person runs it (and 21×21 refused by each)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tictactoe_tui.cli.flags import parse_args
from tictactoe_tui.engine import Board

POSITION = str(Board.empty(20, 5).play(210).play(211).play(190))
"""A 20×20 position after three moves, O to move."""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `tictactoe-tui ARGS` headless."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args], capture_output=True, text=True, timeout=180
    )


def test_analyse_scores_every_move_of_a_20x20_position() -> None:
    out = cli("analyse", POSITION, "--time-limit", "0.2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["size"], data["k"], data["to_move"]) == (20, 5, "O")
    assert len(data["moves"]) == 397


@pytest.mark.slow
def test_compare_runs_every_search_on_a_20x20_position() -> None:
    out = cli("compare", POSITION, "--time-limit", "0.2", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["size"] == 20


@pytest.mark.slow
def test_match_plays_a_20x20_game() -> None:
    out = cli(
        "match",
        "--x",
        "h1",
        "--o",
        "random",
        "--size",
        "20",
        "--games",
        "1",
        "--seed",
        "1",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["games"] == 1


@pytest.mark.slow
def test_puzzles_on_20x20_are_proven_and_say_their_size() -> None:
    out = cli("puzzles", "--size", "20", "--count", "1", "--seed", "1", "--json")
    assert out.returncode == 0, out.stderr
    (puzzle,) = json.loads(out.stdout)["puzzles"]
    assert puzzle["size"] == 20 and puzzle["goal"] in ("win", "hold")


def test_the_game_flags_take_20_and_refuse_21() -> None:
    settings, _ = parse_args(["--size", "20"])
    assert settings.size == 20
    with pytest.raises(SystemExit) as refused:
        parse_args(["--size", "21"])
    assert refused.value.code == 2


@pytest.mark.parametrize("command", [("match", "--x", "h1", "--o", "h2"), ("puzzles",)])
def test_21x21_is_refused_in_one_line(command: tuple[str, ...]) -> None:
    out = cli(*command, "--size", "21")
    assert out.returncode == 2
    assert "20×20" in out.stderr and len(out.stderr.strip().splitlines()) == 1
