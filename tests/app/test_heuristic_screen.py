"""The heuristic lab on screen: every number it draws is the engine's (H1 with the weights on
screen, H2, alpha-beta's scores, each line's share), by keyboard alone and by mouse alone, and the
game hands its panel's analysis over. The rules themselves are tested without a terminal in
`tests/test_heuristic_controller.py`."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from tests.app.conftest import SIZE, click_cell, game_app, run_command, settle, text
from tictactoe_tui.engine import Board, analyse_position
from tictactoe_tui.engine.evaluation.heuristics import candidate_terms, explain_lines, rank_moves
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.lab import alphabeta_cell
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.heuristics import HeuristicScreen

SEED_002 = Board.from_string("OO./.X./...")
"""Seed 002's board, O O . / . X . / . . . with X to move."""


def lab(pilot: Pilot[None]) -> HeuristicScreen:
    current = pilot.app.screen
    assert isinstance(current, HeuristicScreen), type(current).__name__
    return current


def rows(pilot: Pilot[None], table_id: str) -> list[list[str]]:
    table = lab(pilot).query_one(f"#{table_id}", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def check_ranking(pilot: Pilot[None], position: Board, weights: tuple[int, ...]) -> None:
    """The ranking table is the engine's, under `weights`, alpha-beta's scores included."""
    ranking = rank_moves(position, candidate_terms(position), weights)
    shown = rows(pilot, "heuristic-table")
    assert [r[1] for r in shown] == [cell_notation(m, position.size) for m in ranking.order]
    assert [int(r[2]) for r in shown] == [ranking.h1[m] for m in ranking.order]
    assert [int(r[3]) for r in shown] == [ranking.h2[m] for m in ranking.order]
    analysis = analyse_position(position, "alphabeta")
    scores = {s.move: alphabeta_cell(s, position, analysis.depth) for s in analysis.scores}
    assert [r[4] for r in shown] == [scores[m] for m in ranking.order]
    for row, move in zip(shown, ranking.order, strict=True):
        assert ("H1" in row[5].split()) == (move in ranking.h1_pick.moves)
        assert ("H2" in row[5].split()) == (move in ranking.h2_pick.moves)


def check_lines(pilot: Pilot[None], position: Board, move: int, weights: tuple[int, ...]) -> None:
    """The lines table lists every line after `move` with the engine's shares."""
    after = position.play(move)
    lines = explain_lines(after, position.to_move, weights)
    shown = rows(pilot, "heuristic-lines")
    assert len(shown) == len(lines) == 8
    expected = sorted(
        (cell_notation(t.cells[0], 3) + "–" + cell_notation(t.cells[-1], 3), t.h1, t.h2)
        for t in lines
    )
    assert sorted((r[0], int(r[3]), int(r[4])) for r in shown) == expected
    assert (
        sum(int(r[3]) for r in shown)
        == rank_moves(position, candidate_terms(position), weights).h1[move]
    )


async def open_lab_on_seed_002(pilot: Pilot[None]) -> None:
    """Two people, O first: O A1, X B2, O B1 is H1's worked example; then the lab."""
    await settle(pilot)
    await pilot.press("1", "5", "2")
    await settle(pilot)
    await pilot.press("w")
    await settle(pilot)


async def test_seed_002_is_drawn_as_the_controller_ranks_it_and_the_cursor_explains_moves() -> None:
    app = game_app(mode="human-vs-human", mark="O", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_on_seed_002(pilot)
        screen = lab(pilot)
        assert screen.position == SEED_002
        check_ranking(pilot, SEED_002, (1, 3))
        # The seed's best move, position 3 (C1), scores 4 and tops the ranking; it is also the
        # only block, so both heuristics play it, and so does alpha-beta.
        top = rows(pilot, "heuristic-table")[0]
        assert top[:4] == ["1", "C1", "4", "2"] and top[5] == "H1 H2 αβ"
        picks = text(screen.query_one("#lab-picks", Static))
        assert "H1 plays C1 (blocks a win); alpha-beta agrees" in picks
        check_lines(pilot, SEED_002, 2, (1, 3))
        terms = text(screen.query_one("#lab-terms", Static))
        assert "3·(1 − 0) + 1·(2 − 1) = 4" in terms
        assert "Open(X) − Open(O) = 4 − 2 = 2" in terms
        shown = {r[0]: r for r in rows(pilot, "heuristic-lines")}
        # The anti-diagonal C1, B2, A3 holds two X and no O: X2, worth 3.
        assert shown["C1–A3"][1:] == ["XX.", "X2 (weight 3)", "+3", "+1"]
        assert shown["A1–C1"][1:] == ["OOX", "blocked (both marks)", "0", "0"]
        assert picks == screen.controller.picks_text()
        # The table's cursor picks the move whose lines are listed.
        ranking = rank_moves(SEED_002, candidate_terms(SEED_002), (1, 3))
        await pilot.press("down")
        await pilot.pause()
        second = ranking.order[1]
        assert screen.controller.selected == second
        check_lines(pilot, SEED_002, second, (1, 3))
        assert text(screen.query_one("#lab-terms", Static)) == screen.controller.terms_text()


@pytest.mark.slow
async def test_weights_are_edited_with_the_keyboard_and_the_ranking_follows() -> None:
    app = game_app(mode="human-vs-human", mark="O", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_on_seed_002(pilot)
        screen = lab(pilot)
        for _ in range(10):
            if pilot.app.focused is screen.query_one("#weight-2", Input):
                break
            await pilot.press("tab")
        await pilot.press("backspace", "0")  # two in a line now counts for nothing
        await pilot.pause()
        assert screen.controller.weights == (1, 0)
        check_ranking(pilot, SEED_002, (1, 0))
        await pilot.press("tab", "backspace", "5")  # one in a line: weight 5
        await pilot.pause()
        assert screen.controller.weights == (5, 0)
        check_ranking(pilot, SEED_002, (5, 0))
        await pilot.press("backspace")  # an empty box is named, nothing changes
        await pilot.pause()
        assert screen.controller.weights == (5, 0)
        problem = screen.query_one("#weights-error", Static)
        assert problem.display and "must be a whole number" in text(problem)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert screen.controller.weights == (1, 3) and not problem.display
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)


@pytest.mark.slow
async def test_the_lab_is_used_with_the_mouse_alone() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 4)  # you take the centre; alpha-beta replies
        await settle(pilot)
        position = pilot.app.screen.game.board  # type: ignore[attr-defined]
        await pilot.press("w")  # the palette's "Heuristic lab" is the mouse's way in
        await settle(pilot)
        screen = lab(pilot)
        check_ranking(pilot, position, (1, 3))
        assert await pilot.click("#weight-1-up")
        assert await pilot.click("#weight-1-up")
        assert await pilot.click("#weight-2-down")
        await pilot.pause()
        assert screen.controller.weights == (3, 2)
        check_ranking(pilot, position, (3, 2))
        move = next(m for m in position.legal_moves() if m != screen.controller.selected)
        assert await click_cell(pilot, move, "#heuristic-board")
        await pilot.pause()
        assert screen.controller.selected == move
        check_lines(pilot, position, move, (3, 2))
        assert await pilot.click("#weights-reset")
        await pilot.pause()
        assert screen.controller.weights == (1, 3)
        taken = next(m for m in range(9) if position[m] is not None)
        assert await click_cell(pilot, taken, "#heuristic-board")
        await pilot.pause()
        assert screen.controller.selected == move, "a taken cell explains nothing"


@pytest.mark.slow
async def test_the_palette_opens_the_lab_on_the_game_position() -> None:
    async with game_app(seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await run_command(pilot, "heuristic lab")
        await settle(pilot)
        assert lab(pilot).position == Board.empty()


async def test_the_labs_alpha_beta_column_is_the_game_panels_analysis_with_its_marks() -> None:
    # Issue 28: 7×7, four in a row, X D4, O replies; w. The lab once ran its own search and
    # wrote "+12", "+8" where the panel said "≤ -38" and "win in 13".
    async with game_app(seed=1, size=7, k=4).run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 24)
        await settle(pilot)
        game_screen = pilot.app.screen
        assert isinstance(game_screen, GameScreen)
        position = game_screen.game.board
        analysis = game_screen.controller.analysed()
        assert analysis is not None and analysis.algorithm == "alphabeta"
        await pilot.press("w")
        await settle(pilot)
        screen = lab(pilot)
        assert screen.controller.from_panel and screen.controller.alphabeta is analysis
        shown = {r[1]: r[4] for r in rows(pilot, "heuristic-table")}
        assert shown == {
            cell_notation(s.move, 7): alphabeta_cell(s, position, analysis.depth)
            for s in analysis.scores
        }
        for scored in analysis.scores:  # every number carries its kind (and its depth)
            words = shown[cell_notation(scored.move, 7)]
            if scored.kind != "exact":
                assert words.startswith(("~", "≤", "≥")) and "(" in words, words
        picks = text(screen.query_one("#lab-picks", Static))
        assert "Alpha-beta: the game panel's analysis" in picks


async def test_a_terminal_too_small_for_the_board_gets_a_notice() -> None:
    async with game_app(seed=1, size=15, opponent="h1").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        screen = lab(pilot)
        notice = screen.query_one("#too-small", Static)
        # 100×34: the compact layout (one pane at a time); 120×34 the full one.
        assert not notice.display and screen.has_class("-compact")
        await pilot.resize_terminal(66, 24)
        await pilot.pause()
        assert notice.display and "the heuristic lab needs at least 67×24" in text(notice)
        await pilot.resize_terminal(120, 34)
        await pilot.pause()
        assert not notice.display and screen.query_one("#lab-main").display
        assert not screen.has_class("-compact")
