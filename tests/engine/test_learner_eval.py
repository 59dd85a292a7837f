"""A learner's evaluation inside our search (issue 38 item 1): `alphabeta:eval=FILE[:depth=D]`
and `minimax:eval=FILE:depth=D` play, a fault forfeits with the learner's traceback, and a spec
that cannot work is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tictactoe_tui.cli.match import main as match
from tictactoe_tui.engine.players.match import PlayerSpec


def written(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def test_a_zero_evaluation_plays_whole_games_with_both_searches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zero = written(tmp_path, "zero.py", "def evaluate(board, player):\n    return 0\n")
    for spec in (f"alphabeta:eval={zero}:depth=2", f"minimax:eval={zero}:depth=2"):
        argv = ["--x", spec, "--o", "random", "--games", "2", "--size", "3", "--json"]
        assert match(argv) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["requested"] == 2


def test_an_exception_in_evaluate_forfeits_naming_the_learners_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    boom = written(
        tmp_path, "boom.py", "def evaluate(board, player):\n    raise RuntimeError('boom')\n"
    )
    argv = ["--x", f"alphabeta:eval={boom}:depth=2", "--o", "random", "--games", "1"]
    assert match([*argv, "--size", "3"]) == 0
    out = capsys.readouterr().out
    assert "boom.py: evaluate() raised RuntimeError: boom" in out
    assert f'File "{boom}", line 2, in evaluate' in out


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("minimax:eval=FILE", "needs a depth"),
        ("alphabeta:eval=", "eval= names nothing"),
        ("h1:eval=FILE", "eval"),
    ],
)
def test_a_spec_that_cannot_work_says_why(tmp_path: Path, spec: str, words: str) -> None:
    zero = written(tmp_path, "zero.py", "def evaluate(board, player):\n    return 0\n")
    with pytest.raises(ValueError, match=words):
        PlayerSpec.parse(spec.replace("FILE", str(zero)))


def test_the_spec_reads_back_as_written(tmp_path: Path) -> None:
    zero = written(tmp_path, "zero.py", "def evaluate(board, player):\n    return 0\n")
    spec = PlayerSpec.parse(f"alphabeta:eval={zero}:depth=3")
    assert PlayerSpec.parse(str(spec)) == spec
