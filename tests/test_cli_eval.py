"""`analyse --eval FILE` and `compare --eval FILE`: a learner's evaluation beside H1 and H2.

The commands run as a person runs them (a subprocess); the learner's file is imported here and
its `evaluate` called directly, and the numbers the commands print must be those. The compare
row (the H1 search with the file at the cut-off) is checked against a depth-2 negamax written
here over the same direct calls. Every way a file can fail is one line on stderr, exit 2, and
no process left behind (read from the process table). The compare screen's controller gets the
same row with the same option.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.fake_brains import processes_running
from tictactoe_tui.engine import Board, Mark, h1, h2
from tictactoe_tui.engine.lab.trace import YOURS
from tictactoe_tui.engine.rules.board import cell_notation, parse_cell
from tictactoe_tui.play.compare import CompareController, MinimaxState, RunSteps

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MY_EVAL = EXAMPLES / "my_eval.py"
H1_BY_HAND = EXAMPLES / "h1_by_hand.py"

POSITIONS = ("X../.O./...", "XX./OO./X..", "X.O/.X./...", ".../.X./...", "O../.X./..X")
"""Positions with a move to make, X and O to move, early and late."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args], capture_output=True, text=True, timeout=120
    )


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"learner_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("position", POSITIONS)
def test_analyse_shows_the_files_value_of_every_move_beside_h1_and_h2(position: str) -> None:
    evaluate = load(MY_EVAL).evaluate
    out = run("analyse", position, "--eval", str(MY_EVAL), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["eval"] == {"file": str(MY_EVAL), "name": "yours: my_eval.py"}
    board = Board.from_string(position)
    mover = board.to_move
    assert sorted(parse_cell(m["move"], 3) for m in data["moves"]) == board.legal_moves()
    for move in data["moves"]:
        after = board.play(parse_cell(move["move"], 3))
        assert move["yours"] == evaluate(after, mover)
        assert (move["h1"], move["h2"]) == (h1(after, mover), h2(after, mover))


def test_analyse_table_has_the_three_columns_and_says_what_they_are() -> None:
    evaluate = load(MY_EVAL).evaluate
    out = run("analyse", "XX./OO./X..", "--eval", str(MY_EVAL))
    assert out.returncode == 0, out.stderr
    header, *rows = out.stdout.splitlines()[1:6]
    assert header.split()[5:8] == ["h1", "h2", "yours:"]

    def column(row: str, name: str) -> str:
        # The numbers are right-aligned under their header.
        return row[: header.index(name) + len(name)].split()[-1]

    board = Board.from_string("XX./OO./X..")
    for row in rows:
        after = board.play(parse_cell(row.split()[1], 3))
        assert column(row, " h1") == f"{h1(after, Mark.O)}"
        assert column(row, " h2") == f"{h2(after, Mark.O)}"
        assert column(row, "yours: my_eval.py") == f"{evaluate(after, Mark.O):g}"
    assert "h1, h2, yours: my_eval.py: the board after the move, for O" in out.stdout
    # Without --eval the table is as it was.
    assert "yours" not in run("analyse", "XX./OO./X..").stdout


def depth_two(board: Board, evaluate: Callable[[Board, Mark], float]) -> dict[int, int]:
    """Each root move's value in a depth-2 negamax with `evaluate` (rounded) at the cut-off,
    for the side to move: a win at once 9, a loss on the reply -8, a full board 0."""
    me = board.to_move
    values = {}
    for move in board.legal_moves():
        after = board.play(move)
        if after.winner is not None:
            values[move] = 9
        elif after.is_over:
            values[move] = 0
        else:
            replies = []
            for reply in after.legal_moves():
                leaf = after.play(reply)
                if leaf.winner is not None:
                    replies.append(-8)
                elif leaf.is_over:
                    replies.append(0)
                else:
                    replies.append(round(evaluate(leaf, me)))
            values[move] = min(replies)
    return values


@pytest.mark.parametrize("position", POSITIONS)
def test_compares_row_is_the_h1_search_with_the_files_evaluation(position: str) -> None:
    out = run("compare", position, "--eval", str(MY_EVAL), "--json", "--depth", "2")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["results"]
    yours = rows[-1]
    assert (yours["algorithm"], yours["name"], yours["file"]) == (
        YOURS,
        "yours: my_eval.py",
        str(MY_EVAL),
    )
    assert all("name" not in row for row in rows[:-1])
    board = Board.from_string(position)
    values = depth_two(board, load(MY_EVAL).evaluate)
    best = max(values.values())
    assert yours["value"] == best and yours["depth"] == 2
    assert values[parse_cell(yours["move"], 3)] == best


def test_h1_by_hand_in_compare_is_the_h1_row_number_for_number() -> None:
    out = run("compare", "X../.O./...", "--eval", str(H1_BY_HAND), "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["algorithm"]: row for row in json.loads(out.stdout)["results"]}
    same = ("move", "value", "positions", "cutoffs", "depth", "kind", "agrees_with_minimax")
    assert [rows[YOURS][key] for key in same] == [rows["h1"][key] for key in same]
    text = run("compare", "X../.O./...", "--eval", str(H1_BY_HAND))
    row = next(line for line in text.stdout.splitlines() if line.startswith("yours:"))
    assert row.startswith("yours: h1_by_hand.py (depth 2)")


FAULTS = {
    "raises": ("def evaluate(board, player):\n    return {}['x']\n", "raised KeyError"),
    "loops": ("def evaluate(board, player):\n    while True:\n        pass\n", "took more than"),
    "returns_none": ("def evaluate(board, player):\n    return None\n", "returned None"),
    "prints": (
        "def evaluate(board, player):\n    print('thinking')\n    return 0\n",
        "printed to stdout: 'thinking'",
    ),
    "choose_only": (
        "def choose(board):\n    return board.legal_moves()[0]\n",
        "defines no evaluate",
    ),
    "broken": ("def evaluate(board, player)\n    return 0\n", "does not load: SyntaxError"),
}


@pytest.mark.parametrize("command", ["analyse", "compare"])
@pytest.mark.parametrize("name", sorted(FAULTS))
@pytest.mark.slow
def test_a_failing_file_is_one_line_and_exit_2_with_no_process_left(
    tmp_path: Path, command: str, name: str
) -> None:
    body, says = FAULTS[name]
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    out = run(command, "X../.O./...", "--eval", str(path))
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"tictactoe-tui {command}: {name}.py")
    assert says in lines[0] and "Traceback" not in out.stderr
    assert not processes_running(path)


@pytest.mark.parametrize("command", ["analyse", "compare"])
def test_a_missing_file_is_refused_in_one_line(tmp_path: Path, command: str) -> None:
    out = run(command, "X../.O./...", "--eval", str(tmp_path / "nowhere.py"))
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and "does not exist" in out.stderr


def answer_all(controller: CompareController) -> None:
    """Run the controller's first run here, as the screen would in its worker."""
    for effect in controller.start():
        if isinstance(effect, RunSteps):
            for step in effect.steps:
                controller.answered(step, step.job(*step.args))


def test_the_compare_controller_shows_the_row_when_given_the_file() -> None:
    board = Board.from_string("X../.O./...")
    controller = CompareController(board, eval_file=MY_EVAL)
    assert controller.names[-1] == YOURS
    assert controller.cell(YOURS, "algorithm").plain == "yours: my_eval.py"
    answer_all(controller)
    values = depth_two(board, load(MY_EVAL).evaluate)
    result = controller.results[YOURS]
    assert result.value == max(values.values()) and result.label == "yours: my_eval.py"
    assert controller.cell(YOURS, "move").plain == cell_notation(result.move or 0, 3)
    assert controller.cell(YOURS, "value").text == f"{result.value:+d}".replace("-", "−")
    assert controller.minimax_state is MinimaxState.DONE
    assert not processes_running(MY_EVAL)
    # Without the option the table is the lab's own.
    assert YOURS not in CompareController(board).names


def test_a_failing_file_empties_its_row_and_the_other_rows_go_on(tmp_path: Path) -> None:
    path = tmp_path / "raises.py"
    path.write_text(FAULTS["raises"][0])
    controller = CompareController(Board.from_string("X../.O./..."), eval_file=path)
    answer_all(controller)
    assert controller.cell(YOURS, "value").plain == "—"
    assert controller.notes().startswith("Your evaluation failed: raises.py: evaluate() raised")
    assert controller.minimax_state is MinimaxState.DONE and "h1" in controller.results
    assert not processes_running(path)
