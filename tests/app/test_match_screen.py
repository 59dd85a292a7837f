"""The match runner screen: set up and run a match by keyboard alone and by mouse alone, and check
the table it draws against the engine's own `run_match` with the same seed; cancel keeps the games
so far. The rules themselves are tested without a terminal in `tests/test_match_controller.py`."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, ProgressBar, Select, Static
from textual_plotext import PlotextPlot

from tests.app.conftest import SIZE, game_app, run_command, settle, text
from tictactoe_tui.engine.players.match import MatchPlan, MatchResult, PlayerSpec, run_match
from tictactoe_tui.play.match import ms_words, per_move_ms, positions_words
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.match import MatchScreen


def screen(pilot: Pilot[None]) -> MatchScreen:
    current = pilot.app.screen
    assert isinstance(current, MatchScreen), type(current).__name__
    return current


def table_rows(pilot: Pilot[None]) -> dict[str, list[str]]:
    """The result table as text, row by row, keyed by "x" and "o"."""
    table = pilot.app.screen.query_one("#match-table", DataTable)
    return {
        str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)]
        for i in range(table.row_count)
    }


def check_table(pilot: Pilot[None], expected: MatchResult) -> None:
    """The table shows the engine's numbers for each player."""
    rows = table_rows(pilot)
    assert set(rows) == {"x", "o"}
    for side, name, stats in (
        ("x", expected.x, expected.x_stats),
        ("o", expected.o, expected.o_stats),
    ):
        row = rows[side]
        overall = stats.overall
        assert row[1] == name
        assert row[2:6] == [
            str(overall.wins),
            str(overall.draws),
            str(overall.losses),
            f"{overall.points:g}",
        ]
        assert row[6:8] == [str(stats.as_x), str(stats.as_o)]
        assert row[9] == f"{stats.mean_positions:,.1f}"


async def pick_with_mouse(pilot: Pilot[None], select_id: str, index: int) -> None:
    """Open the compact Select `select_id` with a click and click its option number `index`."""
    assert await pilot.click(f"#{select_id} SelectCurrent #label")
    await pilot.pause()
    select = pilot.app.screen.query_one(f"#{select_id}", Select)
    assert select.expanded
    overlay = select.query_one("SelectOverlay")
    # A compact list has no border: its row 0 is option 0 (the list may have scrolled).
    row = index - overlay.scroll_offset.y
    assert 0 <= row < overlay.size.height, "option scrolled out of sight"
    assert await pilot.click(f"#{select_id} SelectOverlay", offset=(3, row))
    await pilot.pause()
    assert not select.expanded


async def focus(pilot: Pilot[None], widget_id: str) -> None:
    """Press Tab until `widget_id` has the focus (the keyboard's way there)."""
    for _ in range(30):
        if pilot.app.focused is not None and pilot.app.focused.id == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached #{widget_id}")


async def test_m_opens_the_match_runner_with_the_games_settings_and_escape_goes_back() -> None:
    async with game_app(seed=3, opponent="h2", difficulty=80).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        match = screen(pilot)
        assert match.query_one("#x-algorithm", Select).value == "h2"
        assert match.query_one("#x-difficulty", Select).value == 80
        assert match.query_one("#o-algorithm", Select).value == "random"
        assert match.query_one("#match-seed", Select).value == 3
        # Random takes no depth, no time, no difficulty; H2 no depth and no time.
        assert match.query_one("#o-difficulty", Select).disabled
        assert match.query_one("#x-depth", Select).disabled
        assert not match.query_one("#x-difficulty", Select).disabled
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)


@pytest.mark.slow
async def test_a_match_is_run_with_the_keyboard_alone_and_matches_the_engine() -> None:
    async with game_app(seed=2).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        await focus(pilot, "o-algorithm")
        await pilot.press("enter", "up", "enter")  # random -> H1
        assert screen(pilot).query_one("#o-algorithm", Select).value == "h1"
        await focus(pilot, "match-games")
        await pilot.press("enter", "up", "up", "enter")  # 10 -> 4 games
        assert screen(pilot).query_one("#match-games", Select).value == 4
        await focus(pilot, "match-run")
        await pilot.press("r")
        await settle(pilot)
        match = screen(pilot)
        expected = run_match(PlayerSpec("alphabeta"), PlayerSpec("h1"), MatchPlan(4, seed=2))
        assert match.result is not None and not match.result.cancelled
        assert [g.moves for g in match.result.outcomes] == [g.moves for g in expected.outcomes]
        check_table(pilot, expected)
        assert match.query_one("#match-progress", ProgressBar).progress == 4
        status = text(match.query_one("#match-status", Static))
        assert status.startswith(f"Done: 4 games, x won {expected.x_wins}")


@pytest.mark.slow
async def test_a_match_is_run_with_the_mouse_alone_and_matches_the_engine() -> None:
    async with game_app(seed=5).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")  # the palette's "Match runner" is the mouse's way in
        await pilot.pause()
        await pick_with_mouse(pilot, "x-algorithm", 2)  # Heuristic H2
        await pick_with_mouse(pilot, "o-algorithm", 0)  # Alpha-beta
        await pick_with_mouse(pilot, "o-difficulty", 5)  # 50%
        await pick_with_mouse(pilot, "match-games", 2)  # 6 games
        await pick_with_mouse(pilot, "match-seed", 7)
        assert await pilot.click("#match-run")
        await settle(pilot)
        expected = run_match(
            PlayerSpec("h2"), PlayerSpec("alphabeta", difficulty=50), MatchPlan(6, seed=7)
        )
        check_table(pilot, expected)
        result = screen(pilot).result
        assert result is not None
        assert [g.moves for g in result.outcomes] == [g.moves for g in expected.outcomes]


def chart_text(pilot: Pilot[None], chart_id: str) -> str:
    """What a chart draws, as plain text."""
    return str(pilot.app.screen.query_one(f"#{chart_id}", PlotextPlot).render())


@pytest.mark.slow
async def test_the_progress_bar_shows_only_once_a_match_runs() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause(0.5)
        bar = screen(pilot).query_one("#match-progress", ProgressBar)
        assert not bar.visible and "--%" not in pilot.app.export_screenshot()
        await pilot.press("r")
        await settle(pilot)
        assert bar.visible and bar.percentage == 1


@pytest.mark.slow
async def test_the_charts_name_their_colours_and_write_their_values() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        result = screen(pilot).result
        assert result is not None
        marks = chart_text(pilot, "match-chart")
        # The legend names the stacked parts; each bar says its wins/draws/losses.
        for part in ("wins", "draws", "losses"):
            assert part in marks
        for stats in (result.x_stats, result.o_stats):
            assert str(stats.as_x) in marks and str(stats.as_o) in marks
        times = chart_text(pilot, "match-time-chart")
        positions = chart_text(pilot, "match-positions-chart")
        for stats in (result.x_stats, result.o_stats):
            assert ms_words(per_move_ms(stats)) in times
            assert positions_words(stats.mean_positions) in positions


@pytest.mark.slow
async def test_the_palette_opens_the_match_runner() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await run_command(pilot, "match runner")
        await pilot.pause(0.3)
        assert isinstance(pilot.app.screen, MatchScreen)


@pytest.mark.slow
async def test_a_bigger_board_offers_its_own_ks_and_plays_there() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        await pick_with_mouse(pilot, "match-size", 2)  # 5×5
        await pick_with_mouse(pilot, "match-k", 1)  # 3, 4, 5 (default): k = 4
        await pick_with_mouse(pilot, "x-algorithm", 3)  # H1
        await pick_with_mouse(pilot, "match-games", 0)  # 2 games
        assert await pilot.click("#match-run")
        await settle(pilot)
        expected = run_match(
            PlayerSpec("h1"), PlayerSpec("random"), MatchPlan(2, size=5, k=4, seed=1)
        )
        result = screen(pilot).result
        assert result is not None and (result.size, result.k) == (5, 4)
        check_table(pilot, expected)


@pytest.mark.slow
async def test_cancel_stops_the_match_and_keeps_the_games_so_far() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        await pick_with_mouse(pilot, "match-size", 6)  # 9×9
        await pick_with_mouse(pilot, "x-time", 4)  # 1 s per move: a long match
        await pick_with_mouse(pilot, "o-algorithm", 0)
        await pick_with_mouse(pilot, "match-games", 6)  # 100 games
        assert await pilot.click("#match-run")
        await pilot.pause(1.0)
        match = screen(pilot)
        assert match.running and match.query_one("#match-run").disabled
        await pilot.press("c")
        await pilot.pause()
        assert not match.running
        assert match.result is not None and match.result.cancelled
        assert match.result.games < 100
        status = text(match.query_one("#match-status", Static))
        assert status == f"Cancelled after {match.result.games} of 100 games."
        assert not match.query_one("#match-form").disabled
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)


async def test_a_terminal_too_small_gets_a_notice_until_it_is_enlarged() -> None:
    async with game_app(seed=1).run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        match = screen(pilot)
        notice = match.query_one("#too-small", Static)
        assert notice.display and "needs at least 80×24" in text(notice)
        assert not match.query_one("#match-body").display
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not notice.display and match.query_one("#match-body").display
