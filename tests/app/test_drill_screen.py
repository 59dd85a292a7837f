"""The alpha-beta drill on screen: the keys and the mouse reach the controller, the outline and
the verdict say what it says, the checks go to the history, and the drill opens from the tree
view and the analysis board. The rules are tested without a terminal in
`tests/test_drill_exercise.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from tests.app.conftest import SIZE, game, game_app, press_settled, text
from tictactoe_tui.engine.lab.drill_tree import DrillShape, cut_tree
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.history.drills import attempts
from tictactoe_tui.play.drill import DrillStart
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.drill import DrillScreen
from tictactoe_tui.ui.screens.heuristics import HeuristicScreen
from tictactoe_tui.ui.screens.tree import TreeScreen
from tictactoe_tui.ui.widgets.drill_tree import DrillOutline

SnapCompare = Callable[..., bool]

POSITION = "X../.O./..X"
"""O to move (MAX). Cut to depth 2, width 3: B1 = -4 (C1..C3), B2 cuts after C4 = -4 (C5, C6
never visited), B3 = -3 (C7..C9); the root returns -3."""


def drill_app(seed: int = 1) -> TicTacToeApp:
    tree = cut_tree(read_position(POSITION), DrillShape(2, 3))
    return TicTacToeApp(drill=DrillStart(tree, seed=seed))


def drill_screen(pilot: Pilot[None]) -> DrillScreen:
    screen = pilot.app.screen
    assert isinstance(screen, DrillScreen)
    return screen


def verdict(pilot: Pilot[None]) -> str:
    return text(drill_screen(pilot).query_one("#drill-verdict", Static))


def outline_lines(pilot: Pilot[None]) -> list[str]:
    outline = drill_screen(pilot).query_one(DrillOutline)
    return [str(option.prompt) for option in outline.options]


async def go_to(pilot: Pilot[None], row: int) -> None:
    """Select the outline's row `row` with the arrows, from the top."""
    await pilot.press("home", *["down"] * row)


async def type_value(pilot: Pilot[None], row: int, value: int) -> None:
    await go_to(pilot, row)
    await pilot.press(*[{"-": "minus"}.get(c, c) for c in str(value)], "enter")


async def fill_in(pilot: Pilot[None]) -> None:
    """The right answer, key by key, walking down the outline once: A = -3, B1 = -4, B2 = -4,
    C5 and C6 never visited, B3 = -3."""
    await pilot.press("home", "minus", "3", "enter", "down", "minus", "4", "enter")
    await pilot.press(*["down"] * 4, "minus", "4", "enter")
    await pilot.press("down", "down", "x", "down", "x", "down", "minus", "3", "enter")


async def test_a_right_answer_typed_node_by_node_is_judged_right_and_kept() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = drill_screen(pilot)
        assert "Convention: cut at α ≥ β, fail-soft" in text(
            screen.query_one("#drill-convention", Static)
        )
        assert text(screen.query_one("#drill-score", Static)) == "solved 0 · streak 0"
        await fill_in(pilot)
        lines = outline_lines(pilot)
        assert "= -4" in lines[1] and "✂ pruned" in lines[7]
        await pilot.press("c")
        assert verdict(pilot).startswith("Right: every node is right (13 of 13).")
        assert all(line.startswith("✓ ") for line in outline_lines(pilot))
        assert text(screen.query_one("#drill-score", Static)) == "solved 1 · streak 1"
        kept = attempts(pilot.app.store)  # type: ignore[attr-defined]
        assert [(a.exercise, a.solved, a.nodes) for a in kept] == [("values", True, 13)]


async def test_one_wrong_value_and_one_wrong_prune_mark_are_each_named() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fill_in(pilot)
        await type_value(pilot, 1, 0)  # B1 returns -4
        await go_to(pilot, 12)  # C9 is visited
        await pilot.press("x", "c")
        said = verdict(pilot)
        assert said.startswith("Not quite: 11 of 13 nodes right.")
        assert "B1 returns -4, not 0: MIN takes the smaller of -4, 0 and 0" in said
        assert "C9: you pruned it, but when the search reaches it" in said
        lines = outline_lines(pilot)
        assert lines[1].startswith("✗ ") and "not quite" in lines[1]
        assert lines[12].startswith("✗ ") and lines[2].startswith("✓ ")
        screen = drill_screen(pilot)
        assert text(screen.query_one("#drill-score", Static)) == "solved 0 · streak 0"


async def test_a_click_selects_a_node_and_the_board_shows_its_position() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = drill_screen(pilot)
        assert await pilot.click(DrillOutline, offset=(6, 1 + 2))  # the border, then row 2
        await pilot.pause()
        assert screen.controller.selected == 2
        assert text(screen.query_one("#drill-node", Static)).startswith("C1: X plays A3")
        await pilot.press("5", "enter")
        assert "C1 is a leaf" in verdict(pilot)


async def test_at_80x24_the_typing_shows_under_the_outline_and_the_tree_keeps_its_room() -> None:
    async with drill_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = drill_screen(pilot)
        assert not screen.query_one("#drill-side").display  # no room for the board
        await pilot.press("c", "home", "minus", "7")
        await pilot.pause()
        prompt = screen.query_one("#drill-prompt", Static)
        assert prompt.display and text(prompt) == "A, the value: -7  (Enter sets it)"
        assert verdict(pilot).startswith("Not quite: 7 of 13 nodes right.")
        # Six wrong nodes to explain, and still most of the tree in view.
        assert screen.query_one(DrillOutline).content_region.height >= 10


async def test_at_100x34_the_typing_shows_once_beside_the_board() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = drill_screen(pilot)
        assert not screen.query_one("#drill-prompt").display
        assert screen.query_one("#drill-typing").region.height > 0


async def test_n_gives_a_different_tree() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = outline_lines(pilot)
        await type_value(pilot, 0, 3)
        await pilot.press("n")
        after = outline_lines(pilot)
        assert after != before and "= 3" not in after[0]
        assert verdict(pilot).startswith("A fresh tree.")


async def test_the_reorder_exercise_counts_the_leaves_visited_live() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        assert "7 leaves visited; the best order visits 5." in verdict(pilot)
        await go_to(pilot, 9)  # B3
        await pilot.press("shift+up", "left_square_bracket")
        assert "Right: 5 leaves visited: as few as any order can." in verdict(pilot)
        assert outline_lines(pilot)[1].strip().startswith("B3")
        await pilot.press("c")
        assert verdict(pilot).startswith("Right: 5 leaves visited: as few as any order can.")
        kept = attempts(pilot.app.store)  # type: ignore[attr-defined]
        assert [(a.exercise, a.solved) for a in kept] == [("reorder", True)]
        await pilot.press("r")
        assert outline_lines(pilot)[1].strip().startswith("B1")


async def test_k_and_f_switch_the_convention_stated_on_screen() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        convention = drill_screen(pilot).query_one("#drill-convention", Static)
        await pilot.press("k")
        assert "cut only at α > β, fail-soft" in text(convention)
        await pilot.press("f")
        assert "cut only at α > β, fail-hard" in text(convention)


async def test_escape_drops_the_number_typed_then_leaves() -> None:
    async with drill_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("4", "escape")
        assert isinstance(pilot.app.screen, DrillScreen)
        assert drill_screen(pilot).controller.typing == ""
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, DrillScreen)


async def test_shift_d_opens_the_drill_from_the_tree_view_on_its_position() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await press_settled(pilot, "5", "t")
        tree_view = pilot.app.screen
        assert isinstance(tree_view, TreeScreen)
        await pilot.press("D")
        await pilot.pause()
        screen = drill_screen(pilot)
        assert screen.controller.tree.position == tree_view.position
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is tree_view


async def test_shift_d_opens_the_drill_from_the_heuristic_lab_on_its_position() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await press_settled(pilot, "5", "w")
        lab = pilot.app.screen
        assert isinstance(lab, HeuristicScreen)
        played = game(pilot).game.board
        assert lab.position == played and played.move_count == 2  # X's B2 and the reply
        await pilot.press("D")
        await pilot.pause()
        screen = drill_screen(pilot)
        assert screen.controller.tree.position == played
        assert outline_lines(pilot)[0].split() == ["A", "X", "to", "move", "·", "MAX"]
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is lab


async def test_shift_d_opens_the_drill_from_the_analysis_board() -> None:
    app = TicTacToeApp(position=read_position(POSITION))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert str(drill_screen(pilot).controller.tree.position) == POSITION


async def test_no_drill_where_the_game_is_over() -> None:
    app = TicTacToeApp(position=read_position("XXX/OO./..."))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, DrillScreen)


def test_the_drill_screen_snapshot(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await fill_in(pilot)
        await type_value(pilot, 1, 0)
        await pilot.press("c")
        await go_to(pilot, 1)
        await pilot.pause()

    assert snap_compare(drill_app(), run_before=run_before, terminal_size=SIZE)
