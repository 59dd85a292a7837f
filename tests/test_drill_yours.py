"""The learner's evaluation as the leaf values of the drill and of the tree view (issue 38).

The learner's file is imported here and its `evaluate` called directly: every open leaf of
several generated drill trees must carry that number (rounded), from the root player's side, and
the file is asked once per tree. `drill --leaves yours --eval h1_by_hand.py` must give the tree
`--leaves h1` gives (the file is H1 by hand). Every way a file can fail is one line on stderr and
exit 2, with no process left behind (read from the process table). The tree view's "yours: FILE"
search must be the lab's H1 search, node for node, when the file is H1 by hand.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.fake_brains import processes_running
from tests.test_cli_eval import FAULTS, load
from tictactoe_tui.cli.drill_text import DrillSession
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import YoursFailed
from tictactoe_tui.engine.lab.drill_tree import (
    DrillShape,
    LeafValues,
    MoveOrder,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import OUR_SEARCH
from tictactoe_tui.engine.lab.trace import YOURS, node_board, record_search
from tictactoe_tui.engine.lab.yours import record_yours
from tictactoe_tui.engine.players.guest import GuestCode, GuestFault
from tictactoe_tui.engine.players.offered import SERVED_ENV, Offered
from tictactoe_tui.play.drill import DrillController, drill_start
from tictactoe_tui.play.lab_effects import RunJob
from tictactoe_tui.play.tree import TreeController

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MY_EVAL = EXAMPLES / "my_eval.py"
H1_BY_HAND = EXAMPLES / "h1_by_hand.py"


@pytest.fixture
def my_eval(tmp_path: Path) -> Path:
    """A copy of examples/my_eval.py of this test's own (the process table is read by path,
    and other tests run the example at the same time)."""
    path = tmp_path / "my_eval.py"
    path.write_text(MY_EVAL.read_text())
    return path


@pytest.fixture
def h1_by_hand(tmp_path: Path) -> Path:
    """A copy of examples/h1_by_hand.py of this test's own."""
    path = tmp_path / "h1_by_hand.py"
    path.write_text(H1_BY_HAND.read_text())
    return path


def run(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        input=stdin,
        env=env,
    )


# -- the drill's trees ------------------------------------------------------------------------

TREES = [
    # (seed, size, k, depth, width, order)
    (1, 3, 3, 2, 3, MoveOrder.ENGINE),
    (2, 3, 3, 3, 2, MoveOrder.BOARD),
    (3, 3, 3, 4, 2, MoveOrder.ENGINE),
    (4, 4, 4, 3, 3, MoveOrder.BOARD),
    (5, 5, 4, 2, 4, MoveOrder.ENGINE),
]


@pytest.mark.parametrize(("seed", "size", "k", "depth", "width", "order"), TREES)
def test_every_open_leaf_is_the_files_evaluate_for_the_root_player_in_one_call(
    seed: int,
    size: int,
    k: int,
    depth: int,
    width: int,
    order: MoveOrder,
    monkeypatch: pytest.MonkeyPatch,
    my_eval: Path,
) -> None:
    evaluate = load(my_eval).evaluate
    position = random_position(random.Random(seed), size, k, depth)
    calls: list[int] = []
    original = GuestCode.evaluate_many

    def counted(code: GuestCode, items: Any, should_stop: Any = None) -> list[float]:
        calls.append(len(items))
        return original(code, items, should_stop)

    monkeypatch.setattr(GuestCode, "evaluate_many", counted)
    shape = DrillShape(depth, width, order, LeafValues.YOURS, my_eval)
    tree = cut_tree(position, shape)
    root = position.to_move
    leaves = [ident for ident, kind in tree.leaf_kinds.items() if kind == "yours"]
    assert leaves and len(calls) == 1 and calls[0] == len(leaves)
    values = {}

    def walk(node: Any) -> None:
        if node.is_leaf:
            values[node.id] = node.value
        for child in node.children:
            walk(child)

    walk(tree.root)
    for ident in leaves:
        board = tree.boards[ident]
        assert not board.is_over
        assert values[ident] == round(evaluate(board, root))
    # The tree's shape is the one H1 leaves give: only the leaf values differ.
    h1_tree = cut_tree(position, DrillShape(depth, width, order, LeafValues.H1))
    assert tree.boards == h1_tree.boards
    assert {i: k for i, k in tree.leaf_kinds.items() if k != "yours"} == {
        i: k for i, k in h1_tree.leaf_kinds.items() if k != "h1"
    }
    assert tree.shape.leaves_name == "yours: my_eval.py"
    assert not processes_running(my_eval)


def test_yours_leaves_need_a_file() -> None:
    with pytest.raises(ValueError, match="--eval FILE"):
        cut_tree(Board.empty(3), DrillShape(leaves=LeafValues.YOURS))


def test_a_failing_file_is_a_guest_fault_and_leaves_no_process(tmp_path: Path) -> None:
    path = tmp_path / "raises.py"
    path.write_text(FAULTS["raises"][0])
    with pytest.raises(GuestFault, match="raised KeyError"):
        cut_tree(Board.empty(3), DrillShape(2, 2, leaves=LeafValues.YOURS, eval_file=path))
    assert not processes_running(path)


# -- the command ------------------------------------------------------------------------------


def values_of(node: dict[str, Any]) -> Any:
    """A tree's ids, moves, sides and leaf values (not how the leaves were valued)."""
    if "children" in node:
        return (node["id"], node["move"], node["max"], [values_of(c) for c in node["children"]])
    return (node["id"], node["move"], node["max"], node["value"])


@pytest.mark.parametrize("seed", [3, 8])
def test_h1_by_hand_leaves_give_the_h1_drill(seed: int, h1_by_hand: Path) -> None:
    common = ("drill", "--seed", str(seed), "--depth", "3", "--json")
    mine = run(*common, "--leaves", "yours", "--eval", str(h1_by_hand))
    theirs = run(*common, "--leaves", "h1")
    assert mine.returncode == 0 and theirs.returncode == 0, mine.stderr + theirs.stderr
    yours, h1s = json.loads(mine.stdout), json.loads(theirs.stdout)
    assert (yours["leaves"], h1s["leaves"]) == ("yours", "h1")
    assert yours["eval"] == {"file": str(h1_by_hand), "name": "yours: h1_by_hand.py"}
    assert h1s["eval"] is None
    assert values_of(yours["tree"]) == values_of(h1s["tree"])
    for key in ("position", "win", "answer", "best_order"):
        assert yours[key] == h1s[key]
    assert '"valued_by": "yours"' in mine.stdout
    assert not processes_running(h1_by_hand)


def test_eval_alone_means_yours_leaves_and_the_text_mode_names_the_file() -> None:
    out = run(
        "drill", "--position", "X../.O./...", "--eval", str(H1_BY_HAND), "--text", stdin="quit\n"
    )
    assert out.returncode == 0, out.stderr
    assert "leaves by yours: h1_by_hand.py;" in out.stdout.splitlines()[0]


def test_the_help_names_yours_and_eval() -> None:
    out = run("drill", "--help")
    assert "--eval FILE" in out.stdout and "yours" in out.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--leaves", "yours"), "--leaves yours needs your evaluation file: --eval FILE"),
        (("--leaves", "h2", "--eval", str(H1_BY_HAND)), "with --leaves yours, not --leaves h2"),
        (("--leaves", "yours", "--eval", "nowhere.py"), "the file does not exist"),
    ],
)
def test_wrong_flags_are_refused_in_one_line(args: tuple[str, ...], says: str) -> None:
    out = run("drill", "--json", *args)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and says in out.stderr


def test_under_serve_only_a_file_the_server_named_values_the_leaves(
    tmp_path: Path, h1_by_hand: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    offered = tmp_path / "offered.py"
    offered.write_text(H1_BY_HAND.read_text())
    env = {**os.environ, SERVED_ENV: Offered(python=(str(offered),)).to_env()}
    refused = run("drill", "--json", "--eval", str(h1_by_hand), env=env)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.splitlines() == [
        f"tictactoe-tui drill: this server offers no Python file {h1_by_hand}: "
        f"choose one it offers: {offered}"
    ]
    assert run("drill", "--json", "--eval", str(offered), env=env).returncode == 0
    # The tree view's search and the drill screen's start ask the same gate (the worker
    # inherits the variable).
    monkeypatch.setenv(SERVED_ENV, env[SERVED_ENV])
    failed = record_yours(Board.empty(3), h1_by_hand, 2)
    assert isinstance(failed, YoursFailed) and "this server offers no Python file" in failed.reason
    with pytest.raises(ValueError, match="this server offers no Python file"):
        drill_start(Board.empty(3), eval_file=h1_by_hand)
    assert not processes_running(h1_by_hand) and not processes_running(offered)


@pytest.mark.parametrize(
    ("name", "mode"),
    [(name, "--json") for name in sorted(FAULTS)] + [("raises", "--text"), ("loops", "--text")],
)
@pytest.mark.slow
def test_a_failing_file_is_one_line_and_exit_2_with_no_process_left(
    tmp_path: Path, name: str, mode: str
) -> None:
    body, says = FAULTS[name]
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    out = run("drill", "--position", "X../.O./...", "--leaves", "yours", "--eval", str(path), mode)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"tictactoe-tui drill: {name}.py")
    assert says in lines[0] and "Traceback" not in out.stderr
    assert not processes_running(path)


# -- the drill's controller -------------------------------------------------------------------


def test_the_drill_controller_cuts_yours_leaves_and_says_a_fault_in_one_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mine.py"
    path.write_text(MY_EVAL.read_text())
    position = Board.from_string("X../.O./...")
    controller = DrillController(drill_start(position, eval_file=path, seed=4))
    assert controller.guest_leaves and "Asking yours: mine.py" in controller.message
    again = controller.leaves_cut()
    assert again is not None and again[0] == position
    tree = cut_tree(*again)
    controller.show_tree(tree, "Leaves valued by yours: mine.py.")
    assert controller.leaves_cut() is None
    assert "yours: mine.py leaves" in controller.title_words()
    leaf = next(i for i, kind in tree.leaf_kinds.items() if kind == "yours")
    controller.select(leaf)
    assert "yours: mine.py: its evaluate() of the position for X" in controller.node_words()
    # The file is read again for a fresh tree; a broken one is said, and the tree stays.
    path.write_text(FAULTS["raises"][0])
    controller.new_tree()
    assert controller.tree is tree
    assert controller.message.startswith("Your evaluation failed: mine.py: evaluate() raised")
    assert "\n" not in controller.message
    path.write_text(H1_BY_HAND.read_text())
    controller.new_tree()
    assert controller.tree is not tree and controller.message == "A fresh tree."
    assert controller.tree.shape.leaves is LeafValues.YOURS
    assert not processes_running(path)


def test_drill_start_refuses_a_missing_file_in_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        drill_start(Board.empty(3), eval_file=tmp_path / "nowhere.py")


# -- the tree view ----------------------------------------------------------------------------


def answer(controller: TreeController, effects: Any) -> None:
    """Run the controller's job here, as the screen's worker would, and hand it the answer."""
    for effect in effects:
        if isinstance(effect, RunJob):
            controller.answered(effect.job(*effect.args))


def to_yours(controller: TreeController) -> None:
    answer(controller, controller.start())
    while controller.algorithm != YOURS:
        answer(controller, controller.cycle_algorithm())


@pytest.mark.parametrize("position", ["X../.O./...", "..O/.X./...", "XX./OO./X.."])
def test_the_tree_views_yours_search_is_the_h1_search_with_h1_by_hand(
    position: str, h1_by_hand: Path
) -> None:
    board = Board.from_string(position)
    controller = TreeController(board, eval_file=h1_by_hand)
    assert controller.algorithms[-1] == YOURS
    to_yours(controller)
    assert controller.result is not None and controller.recorder is not None
    h1_result, h1_recorder = record_search(board, "h1", 2)
    same = ("move", "value", "positions", "cutoffs", "pruned", "depth", "complete")
    assert [getattr(controller.result, key) for key in same] == [
        getattr(h1_result, key) for key in same
    ]
    assert controller.recorder.nodes == h1_recorder.nodes
    assert controller.recorder.events == h1_recorder.events
    title = controller.title()
    assert title.startswith("yours: h1_by_hand.py (the H1 search, your evaluate at the cut-off)")
    assert "to depth 2" in title and f"{h1_result.positions:,} positions" in title
    # `o` goes round to the lab's own again.
    answer(controller, controller.cycle_algorithm())
    assert controller.algorithm == "alphabeta-ordered"
    assert not processes_running(h1_by_hand)


def test_the_tree_views_yours_leaves_are_the_files_values(my_eval: Path) -> None:
    board = Board.from_string("X../.O./...")
    evaluate = load(my_eval).evaluate
    result = record_yours(board, my_eval, 2)
    assert not isinstance(result, YoursFailed)
    found, recorder = result
    assert found.label == "yours: my_eval.py"
    # A leaf's value is seen by the player who moved into it; the file was asked for the side
    # to move there (the search's negamax), so the leaf reads minus the file's value.
    leaves = [node for node in recorder.nodes if node.leaf == "heuristic"]
    assert leaves
    for node in leaves:
        leaf = node_board(board, recorder.nodes, node.id)
        assert node.value == -round(evaluate(leaf, leaf.to_move))
    assert not processes_running(my_eval)


def test_a_failing_file_says_so_in_the_tree_views_title(tmp_path: Path) -> None:
    path = tmp_path / "raises.py"
    path.write_text(FAULTS["raises"][0])
    controller = TreeController(Board.from_string("X../.O./..."), eval_file=path)
    to_yours(controller)
    title = controller.title()
    assert title.startswith("Your evaluation failed: raises.py: evaluate() raised KeyError")
    assert "\n" not in title and not controller.busy
    assert not processes_running(path)
    # Without a file the lab's three are all `o` offers.
    assert YOURS not in TreeController(Board.empty(3)).algorithms


def test_the_depth_keys_move_the_yours_search_from_depth_2(h1_by_hand: Path) -> None:
    board = Board.from_string("X../.O./...")
    controller = TreeController(board, eval_file=h1_by_hand)
    to_yours(controller)
    answer(controller, controller.change_depth(-1))
    assert "to depth 1" in controller.title()
    assert controller.result is not None
    assert controller.result.positions == record_search(board, "h1", 1)[0].positions
    answer(controller, controller.change_depth(1))
    answer(controller, controller.change_depth(1))
    assert "to depth 3" in controller.title()
    assert controller.result is not None
    assert controller.result.positions == record_search(board, "h1", 3)[0].positions
    assert not processes_running(h1_by_hand)


def test_the_text_modes_new_reads_the_file_again_and_a_fault_keeps_the_tree(
    my_eval: Path,
) -> None:
    shape = DrillShape(2, 2, leaves=LeafValues.YOURS, eval_file=my_eval)
    tree = cut_tree(Board.from_string("X../.O./..."), shape)
    out = io.StringIO()
    session = DrillSession(tree, OUR_SEARCH, 5, out)
    my_eval.write_text(FAULTS["raises"][0])
    session.run(["new", "quit"])
    failed = [line for line in out.getvalue().splitlines() if "failed" in line]
    assert len(failed) == 1
    assert failed[0].startswith("Your evaluation failed: my_eval.py: evaluate() raised KeyError")
    assert session.drill.tree is tree
    assert not processes_running(my_eval)
