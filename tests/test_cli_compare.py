"""`tictactoe-tui compare` as a person or a script runs it: headless, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import trace_search


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "compare", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


ROW_KEYS = {
    "algorithm",
    "move",
    "value",
    "positions",
    "cutoffs",
    "table_hits",
    "seconds",
    "complete",
    "finished",
    "depth",
    "agrees_with_minimax",
    "move_agrees",
    "value_agrees",
    "kind",
    "first_move_cutoffs",
    "first_cut_share",
    "rule",
    "root_moves",
    "legal_moves",
    "root_moves_done",
    "moves",
}


def test_json_gives_every_algorithm_with_the_numbers_the_lab_searches_give() -> None:
    out = run("XO./.../.OX", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["position"], data["to_move"], data["size"], data["k"]) == (
        "XO./.../.OX",
        "X",
        3,
        3,
    )
    rows = {row["algorithm"]: row for row in data["results"]}
    assert list(rows) == [
        "minimax",
        "alphabeta-plain",
        "alphabeta-ordered",
        "alphabeta-tt",
        "h1",
        "h2",
    ]
    board = Board.from_string("XO./.../.OX")
    for name, row in rows.items():
        assert set(row) == ROW_KEYS
        expected = trace_search(board, name)
        assert (
            row["move"],
            row["value"],
            row["positions"],
            row["cutoffs"],
            row["table_hits"],
            row["complete"],
        ) == ("B2", 9, expected.positions, expected.cutoffs, expected.table_hits, True)
        assert isinstance(row["seconds"], float) and row["seconds"] >= 0
    # The hand-worked counts of the engine tests: 10 with ordering, 8 with the table.
    assert rows["alphabeta-ordered"]["positions"] == 10 and rows["alphabeta-tt"]["positions"] == 8
    assert rows["minimax"]["agrees_with_minimax"] is None
    assert all(rows[n]["agrees_with_minimax"] is True for n in list(rows)[1:])
    assert data["minimax"]["tree_positions"] == rows["minimax"]["positions"]
    assert data["minimax"]["tree_exact"] is True and data["minimax"]["too_big"] is False


@pytest.mark.slow
def test_heuristic_values_are_estimates_that_disagree_with_minimax() -> None:
    out = run(".........", "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["algorithm"]: row for row in json.loads(out.stdout)["results"]}
    assert rows["minimax"]["positions"] == 549_946 and rows["minimax"]["value"] == 0
    for name in ("h1", "h2"):
        assert rows[name]["depth"] == 2 and rows[name]["complete"] is False
        assert rows[name]["value"] != 0 and rows[name]["agrees_with_minimax"] is False
        assert rows[name]["move_agrees"] is True  # the centre is one of minimax's best moves


def test_a_tree_too_big_for_the_budget_is_sized_and_minimax_runs_to_a_depth_that_fits() -> None:
    out = run(".........", "--json", "--time-limit", "0.3")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    mini = data["minimax"]
    assert mini["too_big"] is True
    assert (mini["too_big_tree_positions"], mini["too_big_tree_exact"]) == (549_946, True)
    depth = mini["depth"]
    assert depth is not None and 1 <= depth < 9 and mini["suggested_depth"] == depth
    rows = {row["algorithm"]: row for row in data["results"]}
    assert rows["minimax"]["depth"] == depth and rows["minimax"]["finished"] is True
    # Full alpha-beta cannot be judged against a depth-limited minimax.
    assert rows["alphabeta-tt"]["agrees_with_minimax"] is None


def test_the_table_lists_every_algorithm_and_says_how_minimax_went() -> None:
    out = run("XOX/XOO/...")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "3×3, 3 in a row, X to move: XOX/XOO/..."
    table = [line.split() for line in lines[4:10]]
    assert [row[0] for row in table] == [
        "minimax",
        "alphabeta-plain",
        "alphabeta-ordered",
        "alphabeta-tt",
        "h1",
        "h2",
    ]
    # minimax: A3 (+9, win in 1), 11 positions (worked out by hand in the engine tests).
    assert table[0][:7] == ["minimax", "A3", "+9", "win", "in", "1", "11"]
    assert table[1][6:8] == ["8", "2"]  # plain alpha-beta: 8 positions, 2 cut-offs
    assert "Minimax searched the whole tree: 11 positions" in out.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["XXX/OOO/..."], "both X and O have a line"),
        (["XX?/.../..."], "unknown character"),
        (["X........", "--depth", "0"], "at least 1"),
        (["X........", "--time-limit", "0"], "more than 0 seconds"),
        (["X........", "--k", "4"], "k (marks in a row to win)"),
        (["X........", "--frobnicate"], "unrecognized arguments"),
        ([], "required: position"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(args: list[str], words: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == "" and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr


def test_compare_imports_no_textual() -> None:
    code = (
        "import sys; from tictactoe_tui.cli import main; main(['compare', 'XO./.../.OX']); "
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


ONE_STONE = "/".join(["." * 10] * 4 + ["....X....."] + ["." * 10] * 5)
"""10×10 with one X in the middle: O to move, 99 empty cells."""


def test_minimax_is_full_width_and_the_others_say_what_they_left_out() -> None:
    out = run(ONE_STONE, "--k", "5", "--depth", "2", "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["algorithm"]: row for row in json.loads(out.stdout)["results"]}
    mini = rows["minimax"]
    assert mini["positions"] == 1 + 99 + 99 * 98
    assert (mini["rule"], mini["root_moves"], mini["legal_moves"]) == (None, 99, 99)
    assert len(mini["moves"]) == 99 and {m["kind"] for m in mini["moves"]} == {"estimate"}
    for name in ("alphabeta-plain", "alphabeta-ordered", "alphabeta-tt", "h1", "h2"):
        row = rows[name]
        assert (row["rule"], row["root_moves"], row["legal_moves"]) == ("near stones only", 8, 99)
        assert 0 <= row["first_cut_share"] <= 1
        assert row["first_move_cutoffs"] <= row["cutoffs"]
        kinds = [m["kind"] for m in row["moves"]]
        assert kinds[0] == "estimate" and set(kinds[1:]) <= {"estimate", "at_most"}
        assert all(m["depth"] == 1 and m["source"] == "search" for m in row["moves"])


def test_the_table_shows_how_well_each_alpha_beta_ordered_its_moves() -> None:
    out = run(ONE_STONE, "--k", "5", "--depth", "2")
    assert out.returncode == 0, out.stderr
    assert "1st cuts" in out.stdout
    ordered = next(line for line in out.stdout.splitlines() if line.startswith("alphabeta-ordered"))
    assert "100%" in ordered
    assert "near stones only: 8 of 99 moves at the root" in out.stdout
