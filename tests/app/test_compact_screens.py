"""The analysis board and the lab in small terminals: each screen's compact layout at its exact
smallest terminal (every part shown whole, nothing overlapping, a key doing what it should,
what does not fit one key away), one column or row smaller the "enlarge the terminal" notice
naming the size needed, and the full layout back when there is room. One app per screen: the
sizes are swept with `pilot.resize_terminal`; docs/playing.md's table is checked against the
sizes the screens use."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

from rich.cells import cell_len
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select, Static

from tests.app.conftest import settle, text
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens import analysis, compare, heuristics, match
from tictactoe_tui.ui.screens.analysis import AnalysisScreen
from tictactoe_tui.ui.screens.compare import CompareScreen
from tictactoe_tui.ui.screens.heuristics import HeuristicScreen
from tictactoe_tui.ui.screens.match import MatchScreen
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.ui.widgets.variation_list import VariationList

PLAYING = Path(__file__).resolve().parents[2] / "docs" / "playing.md"

CLASSIC = (80, 24)
"""The classic terminal: every lab screen and the 15×15 analysis board work in it."""
SPLIT_PANE = (40, 15)
"""A split pane: the 3×3 analysis board works in it."""


def fits(size: tuple[int, int], room: tuple[int, int]) -> bool:
    """Whether a terminal of `size` is no bigger than `room` either way."""
    return size[0] <= room[0] and size[1] <= room[1]


def whole(screen: Screen[None], selector: str) -> Widget:
    """The widget `selector`, asserted shown and inside the terminal (not cut by its edge)."""
    widget = screen.query_one(selector)
    region = widget.region
    assert widget.display and region.area > 0, f"{selector} is not shown"
    assert screen.region.contains_region(region), f"{selector} sticks out: {region}"
    return widget


def hidden(screen: Screen[None], selector: str) -> bool:
    """Whether `selector` takes no room on the screen now."""
    widget = screen.query_one(selector)
    return not widget.display or widget.region.area == 0 or not widget.visible


def apart(screen: Screen[None], *selectors: str) -> None:
    """The parts `selectors` are shown whole and no two overlap."""
    regions = {selector: whole(screen, selector).region for selector in selectors}
    for (a, first), (b, second) in combinations(regions.items(), 2):
        assert not first.overlaps(second), f"{a} {first} overlaps {b} {second}"


def footer_keys(screen: Screen[None]) -> dict[str, str]:
    """The keys the footer offers now, with their words."""
    return {
        key: active.binding.description
        for key, active in screen.active_bindings.items()
        if active.binding.show and active.enabled
    }


async def smaller_says(
    pilot: Pilot[None], screen: Screen[None], need: tuple[int, int], what: str, content: str
) -> None:
    """One column, then one row, below `need`: the notice names the size and `content` hides."""
    width, height = need
    for smaller in ((width - 1, height), (width, height - 1)):
        await pilot.resize_terminal(*smaller)
        await pilot.pause()
        notice = text(screen.query_one(TooSmall))
        assert notice.startswith(
            f"Enlarge the terminal: {what} needs at least {width}×{height} characters, "
            f"and this one is {smaller[0]}×{smaller[1]}."
        ), notice
        assert hidden(screen, content), f"{content} still shown at {smaller}"


def documented_screens() -> dict[str, str]:
    """docs/playing.md's table of screens: the screen's name, its smallest terminal(s)."""
    rows = re.findall(r"^\| ([^|]+?) \| `?([^|`]+?)`? \| [^|]+ \|$", PLAYING.read_text(), re.M)
    return {name: smallest for name, smallest in rows}


def test_the_docs_list_the_sizes_the_screens_use() -> None:
    table = documented_screens()
    three, fifteen = analysis.compact_terminal(3), analysis.compact_terminal(15)
    assert table["analysis board (3×3 / 15×15)"] == (
        f"{three[0]}×{three[1]} / {fifteen[0]}×{fifteen[1]}"
    )
    assert fits(three, SPLIT_PANE) and fits(fifteen, CLASSIC)
    assert table["compare (a)"] == "{}×{}".format(*compare.COMPACT_TERMINAL)
    lab3, lab15 = heuristics.compact_terminal(3), heuristics.compact_terminal(15)
    assert table["heuristic lab (w, 3×3 / 15×15)"] == (
        f"{lab3[0]}×{lab3[1]} / {lab15[0]}×{lab15[1]}"
    )
    assert table["match runner (m)"] == "{}×{}".format(*match.COMPACT_TERMINAL)
    for size in (compare.COMPACT_TERMINAL, lab3, lab15, match.COMPACT_TERMINAL):
        assert fits(size, CLASSIC)


async def test_the_analysis_board_at_its_smallest_terminals() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=CLASSIC) as pilot:
        for size, key, move in ((3, "5", "1. X B2"), (15, "enter", "1. X H8")):
            width, height = analysis.compact_terminal(size)
            await pilot.resize_terminal(width, height)
            screen = AnalysisScreen(Position.empty(size), time_limit=None, depth=1)
            await app.push_screen(screen)
            await settle(pilot)
            assert screen.has_class("-compact") and not screen.has_class("-too-small")
            parts = ("#analysis-status", "#analysis-board", "#variation-list", "#analysis-verdict")
            apart(screen, *parts, "Footer")
            assert hidden(screen, "#eval-panel"), "the panel is one key away, not squeezed in"
            await pilot.press(key)  # plays on the board, the list beside it says so
            await settle(pilot)
            assert screen.query_one(VariationList).text.startswith(move)
            assert str(screen.position).count("X") == 1
            verdict = screen.query_one("#analysis-verdict", Static)
            assert text(verdict).startswith("i panel · O to move: "), text(verdict)
            await pilot.press("i")  # the panel instead of the board and the list
            await pilot.pause()
            apart(screen, "#analysis-status", "#eval-panel", "#analysis-verdict", "Footer")
            assert hidden(screen, "#analysis-board") and hidden(screen, "#variation-list")
            assert "O to move" in text(screen.query_one("#eval-title", Static))
            assert text(verdict).startswith("i board · ")
            await pilot.press("i")
            await pilot.pause()
            apart(screen, *parts)
            assert screen.query_one(Board).has_focus
            await pilot.press("comma")  # back a move: the key reaches the board's study
            await settle(pilot)
            assert str(screen.position).count("X") == 0
            await smaller_says(
                pilot, screen, (width, height), f"a {size}×{size} board", "#analysis-board"
            )
            await pilot.resize_terminal(*analysis.needed_terminal(size))
            await pilot.pause()
            assert not screen.has_class("-compact")
            apart(screen, "#analysis-board", "#variation-list", "#eval-panel")
            board, moves = screen.query_one(Board).region, screen.query_one(VariationList).region
            assert moves.y >= board.bottom, "in the full layout the list is under the board"
            screen.dismiss()
            await settle(pilot)


async def test_the_comparison_at_80x24_shows_the_table_or_the_charts() -> None:
    app = TicTacToeApp()
    need = compare.COMPACT_TERMINAL
    async with app.run_test(size=need) as pilot:
        screen = CompareScreen(Position.from_string("X../.O./..."))
        await app.push_screen(screen)
        await settle(pilot)
        assert screen.has_class("-compact")
        apart(
            screen, "#compare-title", "#compare-table", "#compare-notes", "#minimax-row", "Footer"
        )
        assert hidden(screen, "#compare-charts")
        assert footer_keys(screen)["i"] == "Charts"
        table = screen.query_one("#compare-table", DataTable)
        assert table.has_focus and table.virtual_size.width > table.size.width
        await pilot.press("right", "right", "right")  # the columns past the edge scroll in
        await pilot.pause()
        assert table.scroll_x == 3
        await pilot.press("down")
        assert table.cursor_row == 1
        await pilot.press("i")
        await pilot.pause()
        apart(screen, "#compare-chart", "#depth-chart", "#game-chart", "Footer")
        assert hidden(screen, "#compare-table") and hidden(screen, "#minimax-row")
        assert footer_keys(screen)["i"] == "Table"
        await pilot.press("i")
        await pilot.pause()
        assert whole(screen, "#compare-table").has_focus and table.cursor_row == 1
        await pilot.press("r")  # run again: the key reaches the screen
        await settle(pilot)
        assert "reference" in str(table.get_cell("minimax", "agrees"))
        await smaller_says(pilot, screen, need, "the comparison", "#compare-body")
        await pilot.resize_terminal(*compare.NEEDED_TERMINAL)
        await pilot.pause()
        assert not screen.has_class("-compact") and "i" not in footer_keys(screen)
        apart(screen, "#compare-table", "#minimax-row", "#compare-chart", "#game-chart")


async def test_the_heuristic_lab_at_its_smallest_terminals() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=CLASSIC) as pilot:
        for size, position in ((15, Position.empty(15).play(112)), (3, Position.empty(3).play(4))):
            need = heuristics.compact_terminal(size)
            await pilot.resize_terminal(*need)
            screen = HeuristicScreen(position, None, depth=1)
            await app.push_screen(screen)
            await settle(pilot)
            tables = ("#lab-picks", "#heuristic-table", "#lab-terms", "#heuristic-lines")
            assert screen.has_class("-compact")
            apart(screen, *tables, "Footer")
            assert hidden(screen, "#heuristic-board")
            assert footer_keys(screen)["i"] == "Board"
            table = screen.query_one("#heuristic-table", DataTable)
            first = text(screen.query_one("#lab-terms", Static))
            await pilot.press("down")  # the next move's lines
            await pilot.pause()
            assert text(screen.query_one("#lab-terms", Static)) != first
            await pilot.press("i")
            await pilot.pause()
            apart(screen, "#heuristic-board", "Footer")
            assert hidden(screen, "#heuristic-table")
            assert screen.query_one("#heuristic-board", Board).has_focus
            await pilot.press("tab")  # the weights under the board scroll into view
            await pilot.pause()
            box = app.focused
            assert isinstance(box, Input) and "weight" in box.classes
            whole(screen, f"#{box.id}")
            await pilot.press("i")  # from the weight's box too
            await pilot.pause()
            assert whole(screen, "#heuristic-table").has_focus
            assert table.cursor_row == 1
            await pilot.resize_terminal(*CLASSIC)  # still compact in 80×24, every table whole
            await pilot.pause()
            assert screen.has_class("-compact")
            apart(screen, *tables, "Footer")
            await smaller_says(pilot, screen, need, "the heuristic lab", "#lab-main")
            await pilot.resize_terminal(*heuristics.needed_terminal(size, position.k))
            await pilot.pause()
            assert not screen.has_class("-compact") and "i" not in footer_keys(screen)
            apart(screen, "#heuristic-board", "#lab-weights", "#heuristic-table")
            screen.dismiss()
            await settle(pilot)


async def test_the_match_runner_at_80x24_shows_every_choice_whole() -> None:
    app = TicTacToeApp()
    need = match.COMPACT_TERMINAL
    async with app.run_test(size=need) as pilot:
        screen = MatchScreen(GameSettings(seed=1))
        await app.push_screen(screen)
        await settle(pilot)
        assert screen.has_class("-compact")
        # Each drop-down's face, its label and arrow (the list it opens is an overlay).
        faces = [f"#{select.id} SelectCurrent" for select in screen.query(Select)]
        apart(screen, *faces, "#match-run", "#match-status", "#match-table", "#match-charts")
        for select in screen.query(Select):
            label = select.query_one("SelectCurrent #label", Static)
            assert label.region.width >= cell_len(text(label)), f"#{select.id} cut"
        await pilot.press("r")
        await settle(pilot)
        assert screen.result is not None and screen.query_one(DataTable).row_count == 2
        await smaller_says(pilot, screen, need, "the match runner", "#match-body")
        await pilot.resize_terminal(*match.NEEDED_TERMINAL)
        await pilot.pause()
        assert not screen.has_class("-compact")


async def test_a_position_pasted_on_the_compact_board_gets_a_board_of_its_own_size() -> None:
    app = TicTacToeApp()
    three = analysis.compact_terminal(3)
    async with app.run_test(size=three) as pilot:
        screen = AnalysisScreen(Position.empty(3), time_limit=None, depth=1)
        await app.push_screen(screen)
        await settle(pilot)
        await pilot.press("v")  # the paste box takes the verdict line's row
        await pilot.pause()
        apart(screen, "#analysis-status", "#analysis-board", "#paste", "Footer")
        assert hidden(screen, "#analysis-verdict")
        await pilot.press(*"X.../..../.O../....", "enter")
        await settle(pilot)
        assert screen.position_text == "X.../..../.O../...."
        four = analysis.compact_terminal(4)
        assert not fits(four, three), "a 4×4 board does not fit 3×3's smallest terminal"
        notice = text(screen.query_one(TooSmall))
        assert notice.startswith(f"Enlarge the terminal: a 4×4 board needs at least {four[0]}×")
        await pilot.resize_terminal(*four)
        await pilot.pause()
        assert screen.has_class("-compact") and screen.view.compact
        apart(screen, "#analysis-status", "#analysis-board", "#variation-list", "Footer")
        assert screen.query_one(Board).has_focus
