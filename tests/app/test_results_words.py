"""The results dialog never splits a number from its unit (issue 39 item 5: the dialog wrapped
"0.5 s + 6 / s grace")."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from tictactoe_tui.ui.screens.results import ResultsScreen, units_kept

REASON = "O forfeits: timed out: no move within 0.5 s + 6 s grace (the engine was killed)."


def test_numbers_stay_with_their_units_and_other_words_keep_their_spaces() -> None:
    assert units_kept(REASON) == (
        "O forfeits: timed out: no move within 0.5s + 6s grace (the engine was killed)."
    )
    assert units_kept("3 sides, 40 % in 12 ms") == "3 sides, 40% in 12ms"


async def test_the_dialog_at_its_narrowest_shows_each_time_whole() -> None:
    class Shown(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ResultsScreen("O forfeits", REASON, [("X", 1), ("O", 0)]))

    app = Shown()
    async with app.run_test(size=(40, 24)) as pilot:
        for width in range(40, 64):
            await pilot.resize_terminal(width, 24)
            await pilot.pause()
            detail = pilot.app.screen.query_one("#results-detail", Static)
            lines = [
                strip.text.strip() for strip in detail.render_lines(detail.region.reset_offset)
            ]
            words = " ".join(lines).split()
            assert "0.5s" in words and "6s" in words, (width, lines)
