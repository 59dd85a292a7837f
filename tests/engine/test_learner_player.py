"""A learner's file as a player: `python:path=FILE` in every spec, forfeits with the reason."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from tests.fake_brains import processes_running
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.players.guest import GuestFault
from tictactoe_tui.engine.players.learner import LearnerPlayer
from tictactoe_tui.engine.players.match import MatchPlan, PlayerSpec, run_match


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return path


def test_the_spec_reads_and_writes_a_learners_file(tmp_path):
    path = write(tmp_path, "p.py", "def choose(board):\n    return board.legal_moves()[0]\n")
    spec = PlayerSpec.parse(f"python:path={path}:time=0.5")
    assert (spec.opponent, spec.path, spec.time_limit) == ("python", str(path), 0.5)
    assert PlayerSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("python", "a learner's player needs its file: python:path=FILE"),
        ("python:path=/no/such/file.py", "no Python file at /no/such/file.py"),
        ("python:path=FILE:difficulty=50", "a learner's file plays its own moves"),
        ("python:path=FILE:depth=2", "python does not search, so it takes no depth"),
        ("h1:path=FILE", "only an outside engine (engine:path=PATH) or a learner's file"),
    ],
)
def test_a_bad_learner_spec_says_why(tmp_path, text, says):
    path = write(tmp_path, "p.py", "def choose(board):\n    return 0\n")
    with pytest.raises(ValueError, match=r"bad player|unknown") as error:
        PlayerSpec.parse(text.replace("FILE", str(path)))
    assert says in str(error.value)


def test_a_file_with_only_evaluate_wins_then_blocks_then_plays_its_best_value(tmp_path):
    # evaluate likes the cell A3 (index 6) for whoever holds it.
    path = write(
        tmp_path,
        "e.py",
        """
        def evaluate(board, player):
            return 5 if board.to_move != player and str(board)[8] == player else 0
        """,
    )
    player = LearnerPlayer(path, random.Random(1))
    try:
        win = player.choose(Board.from_string("XX./OO./..."))
        assert win.move == 2 and win.reason.endswith("wins at once")
        block = player.choose(Board.from_string("X../OO./X.."))
        assert block.move == 5 and "blocks O" in block.reason
        best = player.choose(Board.from_string("X../.O./..."))
        assert best.move == 6 and best.reason.endswith("best evaluate() value 5")
    finally:
        player.close()


def test_a_buggy_learner_loses_by_forfeit_in_a_match_and_leaves_no_process(tmp_path):
    path = write(tmp_path, "bad.py", "def choose(board):\n    return 4\n")  # B2, then taken
    result = run_match(
        PlayerSpec.parse(f"python:path={path}"), PlayerSpec.parse("random"), MatchPlan(games=2)
    )
    forfeits = [game.forfeit for game in result.outcomes if game.forfeit is not None]
    assert forfeits and all(f.side == "x" for f in forfeits)
    assert "choose() returned B2" in forfeits[0].reason and "already holds" in forfeits[0].reason
    assert not processes_running(path)


def test_a_learner_that_raises_forfeits_with_its_traceback_in_the_log(tmp_path):
    path = write(tmp_path, "oops.py", "def choose(board):\n    raise RuntimeError('no idea')\n")
    player = LearnerPlayer(path, random.Random(1))
    with pytest.raises(GuestFault) as fault:
        player.choose(Board.empty(size=3, k=3))
    assert fault.value.reason == "oops.py: choose() raised RuntimeError: no idea"
    assert any(f'File "{path}", line 2, in choose' in line for line in fault.value.log)
