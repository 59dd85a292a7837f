"""`tictactoe-tui drill`: the JSON a teacher reads, the plain-line drill, and bad flags."""

from __future__ import annotations

import io
import json

import pytest

from tictactoe_tui.cli.drill import main
from tictactoe_tui.cli.drill_text import DrillSession
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.drill_tree import DrillShape, cut_tree
from tictactoe_tui.engine.lab.hand_search import Convention


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def walk(node: dict):
    yield node
    for child in node.get("children", []):
        yield from walk(child)


def test_the_json_holds_the_tree_its_answer_and_the_best_order(capsys):
    drill = run_json(capsys, "--position", "X../.O./...", "--depth", "3", "--width", "2")
    assert drill["position"] == "X../.O./..." and drill["to_move"] == "X"
    assert (drill["size"], drill["k"], drill["depth"], drill["width"]) == (3, 3, 3, 2)
    assert (drill["cut"], drill["returns"], drill["seed"]) == ("at-equal", "fail-soft", None)
    nodes = list(walk(drill["tree"]))
    assert [n["id"] for n in nodes] == list(range(len(nodes)))
    assert drill["tree"]["max"] is True and drill["tree"]["move"] is None
    assert all(("value" in n) != ("children" in n) for n in nodes)
    answer = drill["answer"]
    assert answer["visited"][0] == 0 and answer["windows"]["0"] == [-1000, 1000]
    assert set(answer["returns"]) == {str(n) for n in answer["visited"]}
    assert answer["root_value"] == answer["returns"]["0"]
    assert answer["best_move"] in {n["move"] for n in drill["tree"]["children"]}
    assert set(answer["pruned"]).isdisjoint(answer["visited"])
    best = drill["best_order"]
    inner = {str(n["id"]) for n in nodes if "children" in n}
    assert set(best["children"]) == inner
    assert best["leaves_visited"] <= sum(1 for n in nodes if "value" in n)


def test_a_seed_makes_the_same_drill_and_the_flags_are_kept(capsys):
    one = run_json(capsys, "--size", "4", "--k", "3", "--seed", "7", "--leaves", "h2")
    two = run_json(capsys, "--size", "4", "--k", "3", "--seed", "7", "--leaves", "h2")
    assert one == two and one["seed"] == 7 and one["leaves"] == "h2" and one["size"] == 4
    hard = run_json(capsys, "--seed", "7", "--cut", "past-equal", "--returns", "fail-hard")
    assert (hard["cut"], hard["returns"]) == ("past-equal", "fail-hard")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--depth", "5"], "--depth: must be 2 to 4, not 5"),
        (["--width", "x"], "--width: must be a whole number, not 'x'"),
        (["--position", "XXX/OO./..."], "the game is over"),
        (["--position", "XX"], "--position 'XX'"),
        (["--size", "7", "--leaves", "exact"], "exact leaves need"),
        (["--size", "3", "--k", "4"], "k"),
        (["--order", "random"], "invalid choice"),
    ],
)
def test_a_bad_flag_is_one_line_and_status_two(capsys, args, says):
    with pytest.raises(SystemExit) as stop:
        main([*args, "--json"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tictactoe-tui drill: ") and says in err


def session(lines: str, position: str = "X../.O./...", depth: int = 2, width: int = 2) -> str:
    tree = cut_tree(Board.from_string(position), DrillShape(depth, width))
    out = io.StringIO()
    DrillSession(tree, Convention(), 1, out).run(io.StringIO(lines))
    return out.getvalue()


def test_a_whole_drill_through_plain_lines_is_judged_right():
    out = session("A = -2\nB1 = -2\nB2 = -2\nprune C4\ncheck\n")
    assert "A  the position, X to move, MAX" in out
    assert "    C4  O plays B1, leaf worth 0 (h1)" in out
    assert out.splitlines()[-1] == "Right: every node is right (7 of 7)."


def test_wrong_answers_are_named_one_line_each():
    out = session("B1 = 3\nprune C2\ncheck\n")
    judged = out[out.index("Not quite") :].splitlines()
    assert judged[0] == "Not quite: 2 of 7 nodes right."
    assert "  B1 returns -2, not 3: MIN takes the smaller of -2 and 0." in judged
    assert any(line.startswith("  C2: you pruned it") for line in judged)


def test_bad_lines_get_one_sentence_and_change_nothing():
    out = session("Z9 = 3\nB1 = x\nC1 = 4\nprune A\nfrobnicate\nup B1\ncheck\n")
    assert "There is no node 'Z9' in this tree" in out
    assert "'x' is not a value" in out
    assert "C1 is a leaf: its value is given." in out
    assert "The search always starts at the root." in out
    assert "'frobnicate' is not an instruction I know." in out
    assert "Type reorder first" in out
    assert "Not quite: 3 of 7 nodes right." in out  # nothing written: A, B1, B2 and C4 wrong?


def test_reorder_through_plain_lines_tells_the_leaves_visited():
    out = session("reorder\ndown C3\nup C4\nup C3\nquit\ncheck\n")
    lines = out.splitlines()
    assert "4 leaves visited; the best order visits 3." in lines
    assert "C4 cannot move: it is the root or already first." in lines
    assert "Right: 3 leaves visited: as few as any order can." in lines
    assert "Not quite" not in out  # quit ends the session before check


def test_check_in_the_reorder_exercise_judges_the_order_not_the_values():
    out = session("reorder\ndown C3\ncheck\nup C3\ncheck\n")
    lines = out.splitlines()
    assert "Not quite: 4 leaves visited; the best order visits 3." in lines
    assert lines[-1] == "Right: 3 leaves visited: as few as any order can."
    assert "nodes right" not in out


def test_a_value_rubbed_out_says_which_and_nothing_to_rub_out_says_so():
    lines = session("B1 = 3\nB1 =\nB1 =\n").splitlines()
    assert lines[-3:] == ["B1 = 3.", "B1 = ? (3 rubbed out).", "B1 has no value written."]


def test_new_gives_a_fresh_tree_and_switching_rules_says_the_new_ones():
    out = session("new\ncut\nreturns\n")
    assert out.count("Alpha-beta drill on 3×3") == 2
    assert "A node stops looking at its children only once α > β (equal is not enough)." in out
    assert "held inside the window it was entered with" in out
