"""What the app says, said once and said the same way everywhere; the depth the player chose."""

from __future__ import annotations

import re

import pytest

from tests.app.conftest import SIZE, game_app, panel, settle, status
from tictactoe_tui.ui.screens.help import HELP_MARKDOWN


@pytest.mark.slow
async def test_analysing_is_said_once_while_a_hint_is_worked_out_on_a_big_board() -> None:
    app = game_app(mode="human-vs-human", size=10, time_limit=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        shown = status(pilot)
        # Said by the turn line while the hint is worked out, and not again as a notice (an
        # analysis the screen already made in the background shows at once, saying nothing).
        assert shown.count("Analysing X's position…") <= 1, shown
        assert "Analysing" in shown or "Hint:" in shown, shown
        await pilot.press("n")  # a new game drops the hint at once
        await settle(pilot)


async def test_help_and_panel_count_minimax_positions_the_same_way() -> None:
    """Help promises a number for minimax on the empty board; a minimax hint there shows it."""
    promised = re.search(r"visiting ([\d,]+)\s+positions", HELP_MARKDOWN)
    assert promised is not None
    app = game_app(mode="human-vs-human", opponent="minimax")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await settle(pilot)
        assert f"minimax: {promised.group(1)} positions" in panel(pilot)


async def test_the_computer_searches_to_the_depth_chosen() -> None:
    app = game_app(opponent="alphabeta", depth=2, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        assert "depth 2, cut off, heuristic at the leaves" in panel(pilot)
