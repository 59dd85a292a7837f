"""One answer everywhere, on the screens: each screen shows the texts `tests/test_one_answer.py`
computes from the analysis it was handed (the game's panel rows and board cells, the heuristic
lab's alpha-beta column, the review's sentence and board, the random move's words)."""

from __future__ import annotations

import re

from tests.app.conftest import SIZE, click_cell, game, game_app, settle
from tests.app.test_heuristic_screen import lab, rows
from tests.app.test_history_app import review_of
from tests.test_one_answer import check_one_answer, surfaces
from tests.test_review import played_game
from tictactoe_tui.engine import Analysis, Board
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.review import (
    GameReview,
    analyse_for_review,
    analysis_to_json,
    position_key,
    review_method,
)
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.text.review import verdict_words
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.widgets import Board as BoardWidget
from tictactoe_tui.ui.widgets import EvalPanel, PositionView
from tictactoe_tui.ui.widgets.board import FRAMES
from tictactoe_tui.worker.jobs import clever_analysis


def flat(text: str) -> str:
    """`text` with its runs of white space (the panel wraps its lines) made single spaces."""
    return " ".join(text.split())


def check_panel_rows(panel: EvalPanel, position: Board, analysis: Analysis) -> None:
    """Every row the panel lists shows its move with the module's marked score."""
    expected = surfaces(position, analysis).panel
    lines = panel.text.splitlines()
    for move, marked in expected.items():
        name = cell_notation(move, position.size)
        pattern = re.compile(rf"^\W*{name}\s+{re.escape(marked)}\s")
        assert any(pattern.match(line) for line in lines), (name, marked, panel.text)


def unframed(text: str) -> str:
    """A cell's text without the frame (`FRAMES`) that marks the last or highlighted move
    without colour: the score inside is what the surfaces must agree on."""
    for opening, closing in FRAMES.values():
        if text.startswith(opening):
            return text[1:-1] if text.endswith(closing) else text[1:]
    return text


def check_board_cells(board: BoardWidget, position: Board, analysis: Analysis) -> None:
    """Every empty cell shows the module's text for it; the caption explains its marks."""
    cells = surfaces(position, analysis).board
    for move, shown in cells.items():
        assert unframed(board.cell_text(move)) == shown, cell_notation(move, position.size)
    caption = str(board.border_subtitle)
    for mark in ("~", "≤", "≥", "…"):
        assert (mark in caption) == any(mark in text for text in cells.values()), caption


async def test_the_game_panel_and_the_board_show_the_analysis_as_the_module_reads_it() -> None:
    async with game_app(seed=1, size=10).run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 44)
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        screen = game(pilot)
        position = screen.game.board
        analysis = screen.controller.analysed()
        assert analysis is not None
        check_one_answer(position, analysis)
        check_panel_rows(screen.query_one(EvalPanel), position, analysis)
        check_board_cells(screen.query_one("#board", BoardWidget), position, analysis)


async def test_the_lab_shows_the_panels_numbers_as_the_module_reads_them() -> None:
    async with game_app(seed=1, size=7, k=4).run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 24)
        await settle(pilot)
        screen = game(pilot)
        position = screen.game.board
        analysis = screen.controller.analysed()
        assert analysis is not None
        await pilot.press("w")
        await settle(pilot)
        column = {r[1]: r[4] for r in rows(pilot, "heuristic-table")}
        expected = check_one_answer(position, analysis).lab
        assert lab(pilot).controller.alphabeta is analysis
        assert column == {cell_notation(m, 7): text for m, text in expected.items()}


async def test_the_review_says_and_draws_what_the_module_reads() -> None:
    # A 10×10 game to move 4 (O D6), every position analysed once and kept in the cache.
    game_record = played_game((44, 55, 46, 53), size=10, k=5)
    store = HistoryStore.open()
    store.save(game_record)
    review = GameReview(game_record)
    for index, position in enumerate(review.positions[:-1]):
        analysis = analyse_for_review(position, 0.2)
        review.analyses[index] = analysis
        store.cache_analysis(position_key(position), review_method(10), analysis_to_json(analysis))
    verdict = review.verdict(4)
    before = review.positions[3]
    analysis = review.analyses[3]
    assert verdict is not None and analysis is not None
    words = verdict_words(verdict, before)
    assert words == check_one_answer(before, analysis).review[53]
    async with TicTacToeApp().run_test(size=SIZE) as pilot:
        screen = await review_of(pilot)
        await pilot.press("home", *["right"] * 4)
        await pilot.pause()
        view = screen.query_one(PositionView)
        assert flat(words) in flat(view.panel.text)
        check_panel_rows(view.panel, before, analysis)
        shown = surfaces(before, analysis).board
        after = review.positions[4]
        for move, text in shown.items():
            if after[move] is None:
                assert unframed(view.board.cell_text(move)) == text, cell_notation(move, 10)


async def test_a_random_moves_words_are_the_modules() -> None:
    async with game_app(seed=3, difficulty=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        screen = game(pilot)
        before = Board.empty().play(4)
        reply = screen.game.moves[1]
        analysis = clever_analysis(before, "alphabeta", None)
        expected = check_one_answer(before, analysis).random[reply]
        assert "A random move" in flat(screen.query_one(EvalPanel).text)
        assert flat(expected) in flat(screen.query_one(EvalPanel).text)
