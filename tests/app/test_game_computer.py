"""The computer on the Game screen: clever/random, undo, hints, and thinking without blocking."""

from __future__ import annotations

import re

from textual.widgets import Static

from tests.app.conftest import (
    SIZE,
    Gate,
    cell_words,
    click_cell,
    game,
    game_app,
    marks,
    panel,
    press_settled,
    settle,
    status,
    text,
)
from tests.engine.test_search import reference_move_score
from tictactoe_tui.engine import Mark
from tictactoe_tui.ui.widgets import EvalPanel

ROW = re.compile(r"^(▶ |  )[A-J]\d{1,2} ")
"""A candidate row of the panel: the chosen marker or two spaces, then the cell."""


def rows(shown: str) -> list[str]:
    """The panel's candidate rows."""
    return [line for line in shown.splitlines() if ROW.match(line)]


async def test_the_panel_explains_every_computer_move() -> None:
    app = game_app(opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        shown = panel(pilot)
        reply = next(i for i, m in enumerate(marks(pilot)) if m == "O")
        chosen = next(line for line in shown.splitlines() if line.startswith("▶"))
        assert chosen.split()[1] == "ABC"[reply % 3] + str(reply // 3 + 1)
        # Eight candidates (every empty cell), in words, with the totals.
        assert len(rows(shown)) == 8
        assert "draw" in shown and "loss in" in shown
        assert "alpha-beta:" in shown and "positions" in shown and "solved to the end" in shown
        assert "A clever move" in shown


async def test_the_board_scores_the_moves_of_the_side_to_move_and_keeps_the_digits() -> None:
    app = game_app(opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        screen = game(pilot)
        position = screen.game.board
        assert position.to_move is Mark.X
        board = screen.view.board
        assert board.border_subtitle.startswith("X's scores")
        for cell in range(9):
            words = cell_words(pilot, cell)
            if position[cell] is not None:
                continue
            # The digit that plays the cell stays in its corner; X's exact score is under it.
            digit, score = words
            assert digit == str(cell + 1)
            assert int(score) == reference_move_score(position, cell)
        await pilot.press("v")
        assert cell_words(pilot, 0) == ["1"]
        assert board.border_subtitle == ""


async def test_c_switches_to_random_at_once_and_the_next_move_is_random() -> None:
    app = game_app(opponent="alphabeta", seed=7)
    async with app.run_test(size=SIZE) as pilot:
        assert "alpha-beta, clever" in status(pilot)
        await pilot.press("c")
        assert "random" in status(pilot).splitlines()[0]
        assert game(pilot).query_one(EvalPanel).border_subtitle == "computer: random"
        await pilot.press("1")
        await settle(pilot)
        assert "random" in status(pilot).splitlines()[2]
        assert "A random move" in panel(pilot)
        assert "The clever move was" in panel(pilot)
        await pilot.press("c")
        assert "alpha-beta, clever" in status(pilot)
        await pilot.press(str(marks(pilot).index("") + 1))
        await settle(pilot)
        assert "A clever move" in panel(pilot)


async def test_c_while_thinking_applies_from_the_next_move(gate: Gate) -> None:
    app = game_app(opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        assert "thinking" in status(pilot)
        await pilot.press("c")
        assert "from its next move" in status(pilot)
        assert "random" in status(pilot).splitlines()[0]
        gate.set()
        await settle(pilot)
        assert "A clever move" in panel(pilot), "the search already running stays clever"
        await pilot.press(str(marks(pilot).index("") + 1))
        await settle(pilot)
        assert "A random move" in panel(pilot)


async def test_undo_takes_back_your_move_and_the_computers_reply() -> None:
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        first = marks(pilot)
        await pilot.press(str(first.index("") + 1))
        await settle(pilot)
        assert marks(pilot).count("") == 5
        await pilot.press("u")
        await settle(pilot)
        assert marks(pilot) == first
        assert "Took back" in status(pilot)
        assert "Your turn (X)" in status(pilot)
        await pilot.press("u", "u")
        await settle(pilot)
        assert marks(pilot) == [""] * 9
        assert "Nothing to undo" in status(pilot)
        assert "no moves yet" in text(game(pilot).query_one("#move-list-body", Static))


async def test_hint_analyses_your_position_and_lights_the_best_cell() -> None:
    app = game_app(opponent="alphabeta", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "1", "h")
        shown = panel(pilot)
        assert shown.startswith("Hint for X")
        board = game(pilot).view.board
        best = [cell for cell in range(9) if "best" in board.cell_highlights(cell)]
        assert len(best) == 1
        assert board.best_move == best[0]
        name = "ABC"[best[0] % 3] + str(best[0] // 3 + 1)
        chosen = next(line for line in shown.splitlines() if line.startswith("▶"))
        assert chosen.split()[1] == name
        assert f"Hint: {name}" in status(pilot)
        # Taking the hint plays it; the hint's highlight goes with it.
        assert await click_cell(pilot, best[0])
        await settle(pilot)
        assert marks(pilot)[best[0]] == "X"


async def test_hint_with_h1_shows_the_terms_and_the_formula() -> None:
    app = game_app(opponent="h1", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        assert "H1 for O after" in panel(pilot)
        assert "H1 = 3·O2 + O1 − (3·X2 + X1)" in panel(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert "H1 for X after" in panel(pilot)
        assert "H1 = 3·X2 + X1 − (3·O2 + O1)" in panel(pilot)


async def test_hint_between_two_people_analyses_the_side_to_move() -> None:
    app = game_app(mode="human-vs-human", opponent="h2")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5", "h")
        await settle(pilot)
        assert panel(pilot).startswith("Hint for O")
        assert "Open(O)" in panel(pilot)


async def test_new_game_while_the_computer_thinks_is_clean() -> None:
    app = game_app(opponent="alphabeta", size=10, time_limit=30, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert "thinking" in status(pilot)
        await pilot.press("n")
        assert "Your turn (X)" in status(pilot)
        assert "thinking" not in status(pilot)
        # The cancelled search stops at once, and its late answer is ignored. (Not `settle`:
        # the new game's quiet scoring of X's moves has a 30 s budget too.)
        await pilot.pause(1.0)
        assert marks(pilot) == [""] * 100
        assert game(pilot).game.moves == ()
        assert "no moves yet" in text(game(pilot).query_one("#move-list-body", Static))
        assert "No analysis yet" in panel(pilot)


async def test_a_move_while_the_computer_thinks_is_refused(gate: Gate) -> None:
    app = game_app(opponent="alphabeta", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        assert "thinking" in status(pilot)
        assert await click_cell(pilot, 0)
        assert "still thinking" in status(pilot)
        await pilot.press("3")
        assert "still thinking" in status(pilot)
        assert marks(pilot) == ["", "", "", "", "X", "", "", "", ""]
        gate.set()
        await settle(pilot)
        assert "Your turn (X)" in status(pilot)
        assert marks(pilot).count("O") == 1


async def test_help_opens_while_a_real_search_runs_on_10x10() -> None:
    # Pilot waits for the CPU to go idle after each key, which a running search never lets
    # it do, so each key here costs about two seconds: keep them few.
    app = game_app(opponent="alphabeta", size=10, time_limit=30, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert "thinking" in status(pilot)
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        assert app.screen_stack[-2].thinking == "computer"


async def test_an_occupied_cell_explains_and_changes_nothing() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        assert await click_cell(pilot, 0)
        before = marks(pilot)
        assert await click_cell(pilot, 0)
        await pilot.press("1")
        assert "A1 (row 1, column 1) is taken by X" in status(pilot)
        assert marks(pilot) == before
        assert "O to move" in status(pilot)
        assert game(pilot).game.moves == (0,)
