"""`tictactoe-tui analyse` and `bench` as a person runs them: headless, in a subprocess."""

import json
import subprocess
import sys
import time

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tictactoe_tui", *args],
                          capture_output=True, text=True, timeout=120)


def test_analyse_lists_every_move_best_first_with_its_meaning() -> None:
    out = run("analyse", "XX./OO./X..")
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()[2:]]
    assert [(r[1], r[2]) for r in rows] == [("C2", "9"), ("C1", "0"), ("B3", "-8"), ("C3", "-8")]
    assert "win in 1" in out.stdout and "loss in 2" in out.stdout
    assert "O to move" in out.stdout


def test_analyse_with_a_heuristic_prints_estimates_not_game_values() -> None:
    out = run("analyse", "X../.X./..O", "--algorithm", "h1")
    assert out.returncode == 0, out.stderr
    assert "(heuristic)" in out.stdout and "draw" not in out.stdout


def test_analyse_of_a_finished_game_says_who_won() -> None:
    out = run("analyse", "XXX/OO./...")
    assert out.returncode == 0 and "X wins" in out.stdout


def test_analyse_rejects_a_bad_board_in_one_line_with_status_2() -> None:
    out = run("analyse", "XX?/.../...")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "unknown character" in out.stderr
    assert "Traceback" not in out.stderr


def test_analyse_imports_no_textual() -> None:
    code = ("import sys; from tictactoe_tui.cli import main; main(['analyse', 'X........']); "
            "print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_quick_bench_prints_minimax_and_alphabeta_side_by_side() -> None:
    out = run("bench", "--quick")
    assert out.returncode == 0, out.stderr
    assert "549,946" in out.stdout and "alpha-beta" in out.stdout
    assert "4x4, k=4, from empty" in out.stdout and "5x5" not in out.stdout


def test_bench_against_refuses_a_match_it_cannot_share_out() -> None:
    out = run("bench", "--against", "HEAD", "--games", "1")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "--games" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--depth", "0"], "argument --depth: must be at least 1, not 0"),
        (["--depth", "-1"], "argument --depth: must be at least 1, not -1"),
        (["--depth", "two"], "argument --depth: must be a whole number, not 'two'"),
        (["--time-limit", "nan"], "argument --time-limit: must be a number of seconds, not 'nan'"),
        (["--time-limit", "inf"], "argument --time-limit: must be a number of seconds, not 'inf'"),
        (["--time-limit", "0"], "argument --time-limit: must be more than 0 seconds, not 0"),
        (["--time-limit", "-2"], "argument --time-limit: must be more than 0 seconds, not -2"),
        (["--k", "0"], "argument --k: must be at least 1, not 0"),
        (["--algorithm", "deep-blue"], "argument --algorithm: invalid choice: 'deep-blue'"),
    ],
)
def test_every_limit_is_checked_in_one_line_with_status_2(args: list[str], message: str) -> None:
    out = run("analyse", "XX./OO./X..", *args)
    assert out.returncode == 2
    assert out.stderr.startswith(f"tictactoe-tui analyse: {message}")
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_the_algorithm_may_be_named_in_any_case() -> None:
    out = run("analyse", "XX./OO./X..", "--algorithm", "AlphaBeta")
    assert out.returncode == 0, out.stderr
    assert "alphabeta:" in out.stdout


def test_minimax_on_an_empty_4x4_stops_at_the_time_limit_and_says_so() -> None:
    started = time.monotonic()
    out = run("analyse", "..../..../..../....", "--algorithm", "minimax", "--time-limit", "1")
    took = time.monotonic() - started
    assert out.returncode == 0, out.stderr
    assert took < 30, f"minimax ignored its one-second limit ({took:.0f} s)"
    assert "Stopped at the time limit with" in out.stdout and "of 16 moves scored" in out.stdout
    assert "(cut off)" in out.stdout


def test_minimax_without_a_limit_still_solves_3x3_to_the_end() -> None:
    out = run("analyse", ".........", "--algorithm", "minimax")
    assert out.returncode == 0, out.stderr
    assert "Stopped" not in out.stdout and "(cut off)" not in out.stdout
    rows = [line.split() for line in out.stdout.splitlines()[2:]]
    assert len(rows) == 9 and {r[2] for r in rows} == {"0"}


def test_json_has_the_documented_schema() -> None:
    out = run("analyse", "XX./OO./X..", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"position", "size", "k", "to_move", "result", "algorithm", "nodes",
                         "seconds", "depth", "complete", "stopped", "moves"}
    assert data["position"] == "XX./OO./X.." and data["to_move"] == "O"
    assert (data["size"], data["k"], data["result"]) == (3, 3, None)
    assert data["algorithm"] == "alphabeta" and data["complete"] and not data["stopped"]
    assert isinstance(data["nodes"], int) and isinstance(data["seconds"], float)
    moves = data["moves"]
    assert [(m["move"], m["score"], m["words"]) for m in moves] == [
        ("C2", 9, "win in 1"), ("C1", 0, "draw"), ("B3", -8, "loss in 2"), ("C3", -8, "loss in 2")]
    for move in moves:
        assert set(move) == {"move", "score", "words", "exact", "positions", "pv"}
        assert move["exact"] is True and isinstance(move["positions"], int)
        assert move["pv"][0] == move["move"]
        # Cell names of the empty cells (C1, C2, B3, C3), each at most once.
        assert len(set(move["pv"])) == len(move["pv"])
        assert set(move["pv"]) <= {"C1", "C2", "B3", "C3"}


def test_json_of_a_finished_game_names_the_result() -> None:
    out = run("analyse", "XXX/OO./...", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["result"] == "X" and data["moves"] == []


def test_json_marks_heuristic_scores_as_estimates() -> None:
    out = run("analyse", "X../.X./..O", "--algorithm", "h1", "--json")
    data = json.loads(out.stdout)
    assert not data["complete"]
    assert all(not m["exact"] and m["words"].endswith("(heuristic)") for m in data["moves"])
