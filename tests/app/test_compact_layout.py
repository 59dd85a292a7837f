"""The compact layout: every board plays in the smallest terminal docs/playing.md lists for it
(status, board, a one-line verdict, the panel one key away), one size smaller gets the "enlarge
the terminal" notice, and 3×3 at 80×24 shows the full layout with no panel row cut or wrapped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from tests.app.conftest import click_cell, game, game_app, press_settled, settle, status, text
from tictactoe_tui.play.settings import MAX_SIZE, MIN_SIZE
from tictactoe_tui.ui.screens.game import GameScreen, compact_terminal, needed_terminal
from tictactoe_tui.ui.widgets import Board, EvalPanel

PLAYING = Path(__file__).resolve().parents[2] / "docs" / "playing.md"

SMALLEST = {
    3: (40, 13),
    4: (40, 15),
    5: (40, 17),
    6: (40, 13),
    7: (40, 14),
    8: (40, 15),
    9: (41, 16),
    10: (45, 17),
    11: (49, 18),
    12: (53, 19),
    13: (57, 20),
    14: (61, 21),
    15: (65, 22),
    16: (69, 23),
    17: (73, 24),
    18: (77, 25),
    19: (81, 26),
    20: (85, 27),
}
"""The smallest terminal each board size plays in, as docs/playing.md lists it."""


def documented() -> dict[int, tuple[int, int]]:
    """docs/playing.md's table of the smallest terminal per board size."""
    rows = re.findall(r"^\| (\d+)×\1 \| (\d+)×(\d+) \|", PLAYING.read_text(), re.MULTILINE)
    return {int(size): (int(width), int(height)) for size, width, height in rows}


def panel_key(screen: GameScreen) -> str:
    """The key that shows and hides the panel (whichever key `toggle_panel` is bound to)."""
    return next(
        key
        for key, active in screen.active_bindings.items()
        if active.binding.action == "toggle_panel"
    )


def seen_whole(pilot: Pilot[None], selector: str) -> bool:
    """Whether the widget `selector` of the game shows, inside the terminal."""
    widget = game(pilot).query_one(selector)
    return (
        widget.display
        and widget.region.area > 0
        and pilot.app.screen.region.contains_region(widget.region)
    )


def test_the_table_in_the_docs_is_the_one_the_game_uses() -> None:
    assert documented() == SMALLEST
    assert {size: compact_terminal(size) for size in range(MIN_SIZE, MAX_SIZE + 1)} == SMALLEST
    for size, (most_width, most_height) in ((3, (40, 15)), (15, (80, 24))):
        width, height = SMALLEST[size]
        assert width <= most_width and height <= most_height, size


@pytest.mark.parametrize("size", range(MIN_SIZE, MAX_SIZE + 1))
async def test_each_board_plays_in_its_smallest_terminal_and_not_one_smaller(size: int) -> None:
    width, height = SMALLEST[size]
    app = game_app(mode="human-vs-human", size=size)
    async with app.run_test(size=(width, height)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        assert screen.has_class("-compact") and not screen.has_class("-too-small")
        for part in ("#status", "#board", "#verdict"):
            assert seen_whole(pilot, part), f"{part} at {width}×{height}"
        board = screen.query_one(Board)
        last = size * size - 1
        assert await click_cell(pilot, last)
        await settle(pilot)
        assert board.marks[last] == "X" and "O to move" in status(pilot)
        for smaller in ((width - 1, height), (width, height - 1)):
            await pilot.resize_terminal(*smaller)
            await pilot.pause()
            notice = text(screen.query_one("#too-small", Static))
            assert notice.startswith(
                f"Enlarge the terminal: a {size}×{size} board needs at "
                f"least {width}×{height} characters"
            ), smaller
            assert "hides the evaluation panel" not in notice, "hiding it would not help"
            assert not seen_whole(pilot, "#board")
            await pilot.press("enter")
            assert screen.game.moves == (last,), "moves wait until the board fits"
        await pilot.resize_terminal(width, height)
        await pilot.pause()
        assert seen_whole(pilot, "#board") and board.has_focus


async def test_3x3_at_40x15_plays_against_the_computer_with_the_panel_one_key_away() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=(40, 15)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        assert screen.has_class("-compact")
        for hidden in ("#scoreboard", "#move-list", "#eval-panel"):
            assert not screen.query_one(hidden).display, hidden
        await press_settled(pilot, "5")
        board = screen.query_one(Board)
        reply = next(cell for cell, mark in enumerate(board.marks) if mark == "O")
        assert board.cell_text(reply) == "(O)", "the last move, framed"
        verdict = text(screen.query_one("#verdict", Static))
        assert verdict.startswith(f"{panel_key(screen)} panel · Computer (O) played ")
        assert verdict.endswith(": draw")
        await press_settled(pilot, panel_key(screen))
        panel = screen.query_one(EvalPanel)
        assert seen_whole(pilot, "#eval-panel") and not seen_whole(pilot, "#board")
        assert "Computer (O) played" in panel.text and "positions" in panel.text
        assert text(screen.query_one("#verdict", Static)).startswith(
            f"{panel_key(screen)} board · "
        )
        await press_settled(pilot, panel_key(screen))
        assert seen_whole(pilot, "#board") and not panel.display and board.has_focus
        await press_settled(pilot, "h")
        assert "Hint: " in status(pilot)
        assert (
            text(screen.query_one("#verdict", Static)).split(" · ", 1)[1].startswith("Hint for X: ")
        )


async def test_a_resize_switches_between_the_full_and_the_compact_layout() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=(100, 34)) as pilot:
        await press_settled(pilot, "5")
        screen = game(pilot)
        board = screen.query_one(Board)
        full = board.size
        assert not screen.has_class("-compact") and seen_whole(pilot, "#scoreboard")
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        assert screen.has_class("-compact") and board.size.height < full.height
        assert not seen_whole(pilot, "#scoreboard")
        await pilot.resize_terminal(100, 34)
        await pilot.pause()
        assert not screen.has_class("-compact") and board.size == full
        assert seen_whole(pilot, "#eval-panel") and board.has_focus
        assert await click_cell(pilot, 0)
        assert board.marks[0] == "O"


@pytest.mark.parametrize("size", [3, 7])
async def test_at_80x24_the_full_layout_shows_and_no_panel_row_wraps(size: int) -> None:
    app = game_app(size=size, seed=3, time_limit=0.3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        width, height = needed_terminal(size)
        assert width <= 80 and height <= 24
        assert not screen.has_class("-compact")
        await press_settled(pilot, "enter", "h")
        rows = screen.query_one("#eval-rows", OptionList)
        assert rows.option_count > 1
        # 3×3's rows say "draw · mirror of B1": the row that wrapped at 80×24 before.
        assert size != 3 or any(
            "mirror of" in rows.get_option_at_index(i).prompt.plain  # type: ignore[union-attr]
            for i in range(rows.option_count)
        )
        drawn = [
            strip.text.rstrip()
            for strip in rows.render_lines(Region(0, 0, rows.size.width, rows.option_count))
        ]
        prompts = [
            rows.get_option_at_index(i).prompt.plain  # type: ignore[union-attr]
            for i in range(rows.option_count)
        ]
        assert rows.virtual_size.height == rows.option_count, "one line a row"
        for line, prompt in zip(drawn, prompts, strict=True):
            if size == 3:
                assert line == prompt.rstrip()
            else:  # a long meaning may be cut at its end, never the numbers before it
                cut = line.removesuffix("…")
                numbers = len("▶ A1    ≤ +9 1,234,567  ")  # the columns before the words
                assert prompt.startswith(cut) and len(cut) > numbers, line


async def test_the_results_fit_the_smallest_3x3_terminal_and_their_buttons_work() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SMALLEST[3]) as pilot:
        await press_settled(pilot, "1", "4", "2", "5", "3")  # X: the top row
        dialog = pilot.app.screen.query_one("#results-dialog")
        assert pilot.app.screen.region.contains_region(dialog.region)
        for button in ("#again", "#review", "#settings", "#quit"):
            region = pilot.app.screen.query_one(button).region
            assert region.area and dialog.region.contains_region(region), button
        assert await pilot.click("#again")
        await settle(pilot)
        assert game(pilot).game.moves == ()


async def test_the_verdict_line_keeps_the_number_of_an_estimate() -> None:
    app = game_app(size=9, k=5, depth=2, seed=1)
    async with app.run_test(size=(60, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        assert screen.has_class("-compact")
        await press_settled(pilot, "enter")
        report = screen.query_one(EvalPanel).report
        assert report is not None
        chosen = next(row for row in report.rows if row.chosen)
        assert chosen.kind == "estimate" and chosen.marked.startswith("~")
        verdict = text(screen.query_one("#verdict", Static))
        assert verdict.endswith(f" played {chosen.cell}: {chosen.marked} (estimate)"), verdict
