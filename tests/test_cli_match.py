"""`tictactoe-tui match` as a person runs it: headless, in a subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "match", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_json_has_the_fixed_keys_and_every_game_is_counted() -> None:
    out = run(
        "--x", "alphabeta", "--o", "h1:difficulty=50", "--games", "8", "--seed", "3", "--json"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"x", "o", "games", "x_wins", "o_wins", "draws", "mean_seconds"} <= set(data)
    assert data["x"] == "alphabeta" and data["o"] == "h1:difficulty=50"
    assert data["games"] == 8 == data["x_wins"] + data["o_wins"] + data["draws"]
    assert set(data["mean_seconds"]) == {"x", "o"}
    assert all(isinstance(v, float) and v >= 0 for v in data["mean_seconds"].values())
    assert data["o_wins"] == 0
    assert len(data["results"]) == 8
    assert [g["x_mark"] for g in data["results"]] == ["X", "O"] * 4
    x = data["players"]["x"]
    assert x["as_x"]["wins"] + x["as_o"]["wins"] == data["x_wins"]
    assert out.stderr == "", "no progress bar when stderr is not a terminal"


def test_json_matches_the_engine_for_the_same_seed() -> None:
    from tictactoe_tui.engine.players.match import MatchPlan, PlayerSpec, run_match
    from tictactoe_tui.engine.rules.board import cell_notation

    out = run(
        "--x",
        "h2",
        "--o",
        "random",
        "--games",
        "4",
        "--size",
        "5",
        "--k",
        "4",
        "--seed",
        "9",
        "--json",
    )
    data = json.loads(out.stdout)
    result = run_match(PlayerSpec("h2"), PlayerSpec("random"), MatchPlan(4, size=5, k=4, seed=9))
    assert [g["moves"] for g in data["results"]] == [
        [cell_notation(m, 5) for m in g.moves] for g in result.outcomes
    ]
    assert (data["x_wins"], data["o_wins"], data["draws"]) == (
        result.x_wins,
        result.o_wins,
        result.draws,
    )
    assert data["k"] == 4 and data["size"] == 5


def test_the_table_names_both_players_and_their_records() -> None:
    out = run("--x", "alphabeta", "--o", "random", "--games", "4", "--seed", "1")
    assert out.returncode == 0, out.stderr
    rows = {
        line.split()[0]: line.split()
        for line in out.stdout.splitlines()
        if line[:2] in ("x ", "o ")
    }
    assert rows["x"][1] == "alphabeta" and rows["o"][1] == "random"
    assert int(rows["x"][2]) + int(rows["x"][3]) + int(rows["x"][4]) == 4
    assert rows["o"][2] == "0"  # random never beats perfect play
    assert "x plays X in games 1, 3, 5" in out.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], "--games: must be at least 1"),
        (["--x", "chess", "--o", "random"], "unknown player 'chess'"),
        (["--x", "alphabeta:depth=0", "--o", "random"], "depth must be"),
        (["--x", "random:time=1", "--o", "random"], "random has no time limit"),
        (["--x", "h1", "--o", "h2", "--size", "4", "--k", "5"], "between 3 and 4"),
        (["--x", "h1", "--o", "h2", "--size", "21"], "20×20"),
        (["--x", "h1", "--o", "h2", "--seed", "soon"], "--seed: must be a whole number"),
        (["--x", "h1"], "required: --o"),
        (["--x", "h1", "--o", "h2", "--games", "many"], "--games: must be a whole number"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(args: list[str], words: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr
    assert out.stdout == ""


def test_match_imports_no_textual() -> None:
    code = (
        "import sys; from tictactoe_tui.cli import main; "
        "main(['match', '--x', 'h1', '--o', 'random', '--games', '1']); "
        "assert 'textual' not in sys.modules, 'textual was imported'"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


@pytest.mark.slow
def test_ctrl_c_stops_the_match_and_reports_the_finished_games() -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tictactoe_tui",
            "match",
            "--x",
            "alphabeta:time=0.3",
            "--o",
            "alphabeta:time=0.3",
            "--games",
            "50",
            "--size",
            "12",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.5)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=20)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    data = json.loads(stdout)
    assert data["cancelled"] is True and data["requested"] == 50
    assert data["games"] == len(data["results"]) < 50


def test_a_match_lists_the_games_an_outside_engine_lost_by_a_fault(tmp_path) -> None:
    from tests.fake_brains import write_brain

    brain = write_brain(tmp_path, "crash")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tictactoe_tui",
            "match",
            "--x",
            "h1",
            "--o",
            f"engine:path={brain}",
            "--size",
            "9",
            "--k",
            "5",
            "--games",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "Lost by a fault:" in out.stdout
    assert "game 1: o — pbrain-crash exited with status 3 in the middle of the game" in out.stdout
    assert "Segmentation fault (pretend)" in out.stdout
    # An outside engine does not say how many positions it searched: no number is made up.
    engine_row = next(line for line in out.stdout.splitlines() if line.startswith("o engine:"))
    assert engine_row.rstrip().endswith("—")
    report = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-m",
                "tictactoe_tui",
                "match",
                "--x",
                "h1",
                "--o",
                f"engine:path={brain}",
                "--size",
                "9",
                "--k",
                "5",
                "--games",
                "1",
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    assert report["mean_positions"]["o"] is None
    assert report["results"][0]["forfeit"]["side"] == "o"


def test_a_missing_engine_gets_one_line_and_exit_2(tmp_path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tictactoe_tui",
            "match",
            "--x",
            "h1",
            "--o",
            f"engine:path={tmp_path / 'nope'}",
            "--size",
            "9",
            "--k",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "does not exist" in out.stderr
