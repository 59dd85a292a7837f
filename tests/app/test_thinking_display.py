"""Watching the search: the live thinking display, and a move's expected line on the board."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, ProgressBar

from tests.app.conftest import (
    SIZE,
    cell_words,
    game,
    game_app,
    panel,
    press_settled,
    settle,
    status,
    wait_until,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.ui.widgets import EvalPanel


@pytest.mark.slow
async def test_the_panel_shows_the_search_live_then_its_result() -> None:
    # A long budget, so the search is still running when the test looks, however busy the
    # machine is.
    app = game_app(opponent="alphabeta", size=10, time_limit=10, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        screen = game(pilot)
        view = screen.view
        assert "thinking" in status(pilot)
        await wait_until(pilot, lambda: "expected line: " in panel(pilot))
        shown = panel(pilot)
        assert shown.startswith("Computer (O) is thinking…")
        assert " of 10 s" in shown and "positions so far" in shown
        assert "best so far:" in shown and "so far" in shown.split("best so far:")[1]
        bar = view.panel.query_one(ProgressBar)
        assert bar.total == 10 and 0 < bar.progress <= 10
        # The expected line is in the panel by name and on the board by number, in order.
        names = shown.split("expected line: ")[1].splitlines()[0].split()
        line = view.line_shown
        assert [cell_notation(cell, 10) for cell in line] == names
        for step, cell in enumerate(line, start=1):
            assert cell_words(pilot, cell) == [f"#{step}"]
        assert view.board.border_subtitle == "line #1 #2 #3… (p hides)"
        await settle(pilot)
        final = panel(pilot)
        assert final.startswith("Computer (O) played")
        assert "so far" not in final and "alpha-beta:" in final
        assert view.line_shown == ()


@pytest.mark.slow
async def test_a_hint_is_shown_live_while_it_is_searched() -> None:
    # Two people, so the hint is the only search; after X's first move (an empty big board is
    # answered by the opening rule at once, with nothing to show live) O's hint is searched.
    app = game_app(mode="human-vs-human", size=10, time_limit=8, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")  # no quiet scoring: the hint starts from zero
        await pilot.press("enter")  # X at the cursor, the centre
        await pilot.pause()
        await pilot.press("h")
        await wait_until(pilot, lambda: "positions so far" in panel(pilot))
        assert panel(pilot).startswith("Analysing O's position…")
        assert "Analysing O's position" in status(pilot)
        await settle(pilot)
        assert panel(pilot).startswith("Hint for O")


async def test_picking_a_row_draws_its_expected_line_and_p_hides_it() -> None:
    app = game_app(opponent="alphabeta", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "1", "h")
        screen = game(pilot)
        view = screen.view
        assert view.line_shown == (), "no line until a row is picked"
        await pilot.press("tab")
        rows = view.panel.query_one(OptionList)
        assert rows.has_focus
        await pilot.press("down")
        row = view.panel.highlighted
        assert row is not None and row.line, "a row with its line"
        assert view.line_shown == row.line
        position = screen.game.board
        for step, cell in enumerate(row.line, start=1):
            assert position[cell] is None
            framed = f">#{step}<" if cell == view.board.best_move else f"#{step}"
            assert cell_words(pilot, cell)[1] == framed
        assert row.line_names == " ".join(cell_notation(c, 3) for c in row.line)
        # The line of another row, picked with the mouse.
        assert await pilot.click("#eval-rows", offset=(4, 3))
        other = view.panel.highlighted
        assert other is not None and other is not row
        assert view.line_shown == other.line
        await pilot.press("p")
        assert view.line_shown == ()
        assert "Expected line hidden" in status(pilot)
        await pilot.press("p")
        assert view.line_shown == other.line


async def test_p_alone_shows_the_line_of_the_move_played() -> None:
    app = game_app(opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        view = game(pilot).view
        await pilot.press("p")  # lines were on: now off
        await pilot.press("p")  # on again, with no row picked: the chosen one
        chosen = view.panel.highlighted
        assert chosen is not None and chosen.chosen
        # The chosen move is on the board already; the rest of its line is numbered from 2.
        assert view.line_shown == chosen.line
        assert isinstance(view.panel, EvalPanel)
