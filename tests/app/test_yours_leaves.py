"""The learner's evaluation on screen as the leaf values of the drill and of the tree view: the
drill opened with a file shows the file's values on its leaves (named "yours: FILE"), a file that
fails is one line in the verdict area with the tree kept, and the tree view's `o` reaches "yours:
FILE". The numbers are checked against the learner's file imported here and called directly."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from tests.app.conftest import SIZE, game_app, press_settled, text, wait_until
from tests.fake_brains import processes_running
from tests.test_cli_eval import FAULTS, load
from tictactoe_tui.engine.lab.drill_tree import DrillShape, LeafValues
from tictactoe_tui.engine.lab.trace import YOURS, record_search
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.play.drill import drill_start
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.drill import DrillScreen
from tictactoe_tui.ui.screens.tree import TreeScreen
from tictactoe_tui.ui.widgets.drill_tree import DrillOutline

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
POSITION = "X../.O./..X"
"""O to move (MAX)."""


def copy(tmp_path: Path, name: str) -> Path:
    """An example of this test's own (the process table is read by path)."""
    path = tmp_path / name
    path.write_text((EXAMPLES / name).read_text())
    return path


def drill_app(path: Path) -> TicTacToeApp:
    start = drill_start(read_position(POSITION), DrillShape(2, 3), seed=1, eval_file=path)
    return TicTacToeApp(drill=start)


def drill_screen(pilot: Pilot[None]) -> DrillScreen:
    screen = pilot.app.screen
    assert isinstance(screen, DrillScreen)
    return screen


async def test_the_drill_opened_with_a_file_has_its_values_on_the_leaves(tmp_path: Path) -> None:
    path = copy(tmp_path, "my_eval.py")
    evaluate = load(path).evaluate
    async with drill_app(path).run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: drill_screen(pilot).controller.tree.shape.leaves is LeafValues.YOURS
        )
        await pilot.pause()
        screen = drill_screen(pilot)
        tree = screen.controller.tree
        assert "yours: my_eval.py leaves" in text(screen.query_one("#drill-title", Static))
        assert text(screen.query_one("#drill-verdict", Static)) == (
            "Leaves valued by yours: my_eval.py."
        )
        outline = [str(option.prompt) for option in screen.query_one(DrillOutline).options]
        leaves = [ident for ident, kind in tree.leaf_kinds.items() if kind == "yours"]
        assert leaves
        for ident in leaves:
            value = round(evaluate(tree.boards[ident], tree.root_mark))
            assert outline[ident].endswith(f"· leaf {value}")
        await pilot.press("n")
        await wait_until(pilot, lambda: drill_screen(pilot).controller.tree is not tree)
        await pilot.pause()
        assert drill_screen(pilot).controller.tree.shape.leaves is LeafValues.YOURS
    assert not processes_running(path)


async def test_a_failing_file_is_one_line_on_the_drill_and_the_tree_stays(tmp_path: Path) -> None:
    path = tmp_path / "raises.py"
    path.write_text(FAULTS["raises"][0])
    async with drill_app(path).run_test(size=SIZE) as pilot:
        await wait_until(
            pilot,
            lambda: drill_screen(pilot).controller.message.startswith("Your evaluation failed"),
        )
        await pilot.pause()
        screen = drill_screen(pilot)
        said = text(screen.query_one("#drill-verdict", Static))
        assert said.startswith("Your evaluation failed: raises.py: evaluate() raised KeyError")
        assert "\n" not in said and "Traceback" not in said
        assert screen.controller.tree.shape.leaves is LeafValues.H1
    assert not processes_running(path)


async def test_the_tree_views_o_reaches_yours_with_the_files_name(tmp_path: Path) -> None:
    path = copy(tmp_path, "h1_by_hand.py")
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await press_settled(pilot, "5")
        board = read_position("X../.O./...")
        pilot.app.push_screen(TreeScreen(board, eval_file=path))
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TreeScreen)
        for _ in range(3):
            await press_settled(pilot, "o")
        controller = screen.controller
        assert controller.algorithm == YOURS
        # The learner's file runs in its own process: under load its start-up takes seconds.
        await wait_until(pilot, lambda: controller.result is not None, seconds=60)
        await pilot.pause()
        title = text(screen.query_one("#tree-title", Static))
        assert title.startswith("yours: h1_by_hand.py (the H1 search")
        h1_result, _ = record_search(board, "h1", 2)
        assert f"{h1_result.positions:,} positions" in title
    assert not processes_running(path)
