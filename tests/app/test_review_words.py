"""The review says a mistake in words drawn from the threats on the board."""

from __future__ import annotations

from tests.app.conftest import SIZE
from tests.app.test_history_app import review_of
from tests.test_review import played_game
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.widgets import EvalPanel


async def test_a_blunder_and_a_missed_win_are_told_by_their_threats() -> None:
    # X B2, O B1?? (an edge: lost), X A1, O C1?!, X B3? (C3 won at once), O C3.
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        await pilot.press("home", "right", "right")
        panel = " ".join(review.query_one(EvalPanel).text.split())
        # With only the centre, X's first move cannot fork: the fork comes on its second.
        assert "B1?? lets X force a fork: " in panel
        await pilot.press("right", "right", "right")
        panel = " ".join(review.query_one(EvalPanel).text.split())
        assert "B3? misses C3: X plays C3 and wins (A1–C3)." in panel
