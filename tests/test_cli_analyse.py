"""`tictactoe-tui analyse` and `bench` as a person runs them: headless, in a subprocess."""

import subprocess
import sys


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


def test_analyse_rejects_a_depth_or_time_limit_out_of_range_in_one_line() -> None:
    for flag, value in (("--depth", "0"), ("--depth", "-3"), ("--time-limit", "0"),
                        ("--time-limit", "-1"), ("--time-limit", "nan")):
        out = run("analyse", "XX./OO./X..", flag, value)
        assert out.returncode == 2, (flag, value)
        assert out.stderr.count("\n") == 1 and flag in out.stderr
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


def test_bench_match_refuses_a_match_it_cannot_share_out() -> None:
    out = run("bench", "--match", "--games", "1")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "--games" in out.stderr and "Traceback" not in out.stderr
