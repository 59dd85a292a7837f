"""What a new user tripped over (issue 27, item 5), command by command: each message names
things one way, every example in the docs shows something, and a read never writes."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import tictactoe_tui

DOCS = Path(tictactoe_tui.__file__).resolve().parents[1] / "docs"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_unknown_algorithm_lists_the_names_to_type() -> None:
    out = cli("analyse", "X..", "--algorithm", "foo")
    assert out.returncode == 2
    assert out.stderr == (
        "tictactoe-tui analyse: argument --algorithm: invalid choice: 'foo' "
        "(choose from 'minimax', 'alphabeta', 'h1', 'h2')\n"
    )


def test_an_import_names_a_taken_cell_one_way() -> None:
    out = cli("import", "-", stdin="tictactoe 3x3 k=3 first=X\nmoves: 5 5\n")
    assert out.returncode == 2
    assert out.stderr == (
        "tictactoe-tui import: - is not a game record: move 2 of the record "
        "(5, that is B2) is illegal: B2 is already taken by X\n"
    )


@pytest.mark.parametrize("command", ["analyse", "compare"])
def test_a_board_in_lowercase_is_read(command: str) -> None:
    lower, upper = cli(command, "x../.o./...", "--json"), cli(command, "X../.O./...", "--json")
    assert lower.returncode == 0, lower.stderr
    assert json.loads(lower.stdout)["position"] == json.loads(upper.stdout)["position"]


@pytest.mark.parametrize(
    ("board", "words", "result"),
    [
        ("XXX/OO./...", "The game is over: X wins.\n", "X"),
        ("XOX/XOO/OXX", "The game is over: a draw.\n", "draw"),
    ],
)
def test_a_finished_position_is_an_answer_for_analyse_and_compare_alike(
    board: str, words: str, result: str
) -> None:
    for command in ("analyse", "compare"):
        out = cli(command, board)
        assert (out.returncode, out.stdout, out.stderr) == (0, words, ""), command
        data = json.loads(cli(command, board, "--json").stdout)
        assert data["result"] == result


def test_compare_says_the_game_goes_on_in_its_json() -> None:
    assert json.loads(cli("compare", "X../.O./...", "--json").stdout)["result"] is None


def test_match_help_points_at_the_page_with_its_json_keys() -> None:
    help_text = " ".join(cli("match", "--help").stdout.split())
    assert "README" not in help_text
    assert 'docs/lab.md, under "Match runner"' in help_text
    lab = (DOCS / "lab.md").read_text()
    section = lab[lab.index("## Match runner") :]
    assert '"mean_positions"' in section


def test_puzzles_from_a_missing_history_say_so_and_make_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    out = cli("puzzles", "--from-history", "--data-dir", str(missing))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == (
        f"tictactoe-tui puzzles: there is no history at "
        f"{missing / 'history.sqlite3'}: no game has been kept there (play "
        "one, or give the --data-dir it was played with)\n"
    )
    assert not missing.exists()


def analyse_examples() -> list[list[str]]:
    """Every `tictactoe-tui analyse` line of docs/panel.md's examples, as arguments."""
    text = (DOCS / "panel.md").read_text()
    lines = re.findall(r"^tictactoe-tui (analyse .*)$", text, flags=re.MULTILINE)
    return [shlex.split(line.split("  #")[0]) for line in lines]


@pytest.mark.parametrize("example", analyse_examples(), ids=" ".join)
def test_every_analyse_example_in_the_docs_scores_moves(example: list[str]) -> None:
    out = cli(*example, "--json") if "--json" not in example else cli(*example)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["moves"] and not data["stopped"]
