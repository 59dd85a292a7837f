"""`tictactoe-tui analyse` and `bench` as a person runs them: headless, in a subprocess."""

import json
import subprocess
import sys
import time

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args], capture_output=True, text=True, timeout=120
    )


def table_rows(stdout: str) -> list[list[str]]:
    """The words of each row of the table: after the title and the header, up to a blank line."""
    rows = []
    for line in stdout.splitlines()[2:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_analyse_lists_every_move_best_first_with_its_meaning() -> None:
    out = run("analyse", "XX./OO./X..")
    assert out.returncode == 0, out.stderr
    rows = table_rows(out.stdout)
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
    code = (
        "import sys; from tictactoe_tui.cli import main; main(['analyse', 'X........']); "
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


@pytest.mark.slow
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


@pytest.mark.slow
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
    rows = table_rows(out.stdout)
    assert len(rows) == 9 and {r[2] for r in rows} == {"0"}


def test_json_has_the_documented_schema() -> None:
    out = run("analyse", "XX./OO./X..", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {
        "position",
        "size",
        "k",
        "to_move",
        "result",
        "algorithm",
        "nodes",
        "seconds",
        "depth",
        "complete",
        "stopped",
        "best_moves",
        "iterations",
        "moves",
    }
    assert data["position"] == "XX./OO./X.." and data["to_move"] == "O"
    assert (data["size"], data["k"], data["result"]) == (3, 3, None)
    assert data["algorithm"] == "alphabeta" and data["complete"] and not data["stopped"]
    assert isinstance(data["nodes"], int) and isinstance(data["seconds"], float)
    moves = data["moves"]
    assert [(m["move"], m["score"], m["words"]) for m in moves] == [
        ("C2", 9, "win in 1"),
        ("C1", 0, "draw"),
        ("B3", -8, "loss in 2"),
        ("C3", -8, "loss in 2"),
    ]
    for move in moves:
        assert set(move) == {
            "move",
            "score",
            "words",
            "exact",
            "kind",
            "band",
            "proven",
            "depth",
            "source",
            "rule",
            "twin",
            "positions",
            "pv",
            "pv_words",
        }
        assert move["exact"] is True and isinstance(move["positions"], int)
        assert move["kind"] == "exact" and move["proven"] is True
        assert move["pv"][0] == move["move"]
        # Cell names of the empty cells (C1, C2, B3, C3), each at most once.
        assert len(set(move["pv"])) == len(move["pv"])
        assert set(move["pv"]) <= {"C1", "C2", "B3", "C3"}
        # One sentence per move of the line, the move's own first.
        assert len(move["pv_words"]) == len(move["pv"])
        assert move["pv_words"][0].startswith(f"O plays {move['move']}") or move["pv_words"][
            0
        ].startswith(f"O blocks {move['move']}")
    assert moves[0]["pv_words"] == ["O plays C2 and wins (A2–C2)."]


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


EXAMPLE_1 = (
    "........../........../........../........../....XO..../.....X..../........../"
    "........../........../.........."
)
"""10×10, five in a row, O to move: the issue's position whose bounds printed as values."""

KINDS = {"exact", "estimate", "at_most", "at_least"}
SOURCES = {"search", "table", "symmetry", "threats", "rule"}


def test_bounds_print_with_their_sign_and_shallow_looks_with_their_depth() -> None:
    out = run("analyse", EXAMPLE_1, "--k", "5", "--depth", "5")
    assert out.returncode == 0, out.stderr
    rows = table_rows(out.stdout)
    assert len(rows) == 97
    # The best move is an estimate; the others mostly the bound that showed them no better.
    assert rows[0][2] == rows[0][3] and rows[0][4] == "(heuristic)"
    bounds = [row for row in rows if row[2] == "≤"]
    assert len(bounds) > 90
    assert all(row[4:7] == ["at", "most", row[3]] for row in bounds)
    # The cells far from every stone were looked at one ply deep, and say so.
    assert sum(row[-2:] == ["depth", "1"] for row in rows) > 50
    assert "≤ s: at most s" in out.stdout


def test_json_says_what_every_score_is_and_how_the_search_went() -> None:
    out = run("analyse", EXAMPLE_1, "--k", "5", "--depth", "4", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    moves = data["moves"]
    for move in moves:
        assert move["kind"] in KINDS and move["source"] in SOURCES
        assert isinstance(move["depth"], int) and 0 <= move["depth"] <= 3
        assert move["exact"] == (move["kind"] == "exact")
    kinds = [m["kind"] for m in moves]
    assert kinds[0] == "estimate" and kinds.count("at_most") > 90
    assert all(m["words"].startswith("at most") for m in moves if m["kind"] == "at_most")
    assert data["best_moves"] == [moves[0]["move"]]
    rows = data["iterations"]
    assert [row["depth"] for row in rows] == [1, 2, 3, 4]
    assert rows[-1]["move"] == moves[0]["move"] and rows[-1]["score"] == moves[0]["score"]
    assert all(
        set(row)
        == {
            "depth",
            "move",
            "score",
            "kind",
            "band",
            "words",
            "positions",
            "seconds",
            "pv",
            "source",
            "complete",
        }
        for row in rows
    )


def test_a_move_scored_with_no_positions_says_why() -> None:
    out = run("analyse", "X../.O./...")
    assert out.returncode == 0, out.stderr
    rows = table_rows(out.stdout)
    zeros = [row for row in rows if row[4] == "0"]
    assert zeros and all(row[5:7] == ["mirror", "of"] for row in zeros)
    out = run("analyse", "XX../OO../..../....", "--k", "3", "--json")
    first = json.loads(out.stdout)["moves"][0]
    assert (first["move"], first["positions"], first["source"], first["rule"]) == (
        "C1",
        0,
        "rule",
        "wins at once",
    )


def test_the_words_for_scores_say_what_each_number_is() -> None:
    from tictactoe_tui.engine import Board, MoveScore
    from tictactoe_tui.engine.lab.trace import record_search, trace_search
    from tictactoe_tui.text.scores import (
        first_cut_words,
        left_out_words,
        note_words,
        origin_words,
        score_meaning,
        score_text,
        stand_in_words,
    )

    board = Board.from_string(EXAMPLE_1, k=5)
    assert (
        score_text(-14, "at_most"),
        score_text(3, "at_least"),
        score_text(0, "at_most"),
        score_text(-14, "estimate"),
    ) == ("≤ -14", "≥ +3", "≤ 0", "-14")
    assert score_text(-14, "at_most", minus="−") == "≤ −14"
    bound = MoveScore(33, -14, 9, False, kind="at_most", depth=0)
    assert score_meaning(bound, board) == "at most -14 (heuristic)"
    assert note_words(bound, board, 9) == "depth 1" and note_words(bound, board, 1) == ""
    twin = MoveScore(3, 0, 0, True, depth=5, source="symmetry", twin=1)
    assert origin_words(twin, Board.from_string("X../.O./...")) == "mirror of B1"
    vcf = MoveScore(7, 90, 5, False, (7, 8, 9), "at_least", 0, "threats", "win", "vcf")
    assert origin_words(vcf, board) == "threats: wins by continuous fours (3 plies)"
    assert score_meaning(vcf, board) == "wins, in at most 11"
    result, recorder = record_search(board, "alphabeta-ordered", 2)
    assert left_out_words(result) == f"near stones only: {result.root_moves} of 97 moves"
    stand_in = next(n for n in recorder.nodes if n.leaf == "left out")
    assert stand_in_words(stand_in, board).startswith(f"{len(stand_in.left_out)} moves left out")
    assert first_cut_words(result).endswith("cut-offs by the first move")
    assert first_cut_words(trace_search(board, "minimax", depth=1)) == ""
