"""The Puzzle screen, driven like a player would: keys and the mouse, right and wrong moves,
hints, retry, next, the puzzle of the day, another board, and what the history keeps."""

from __future__ import annotations

from datetime import date

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.app.conftest import SIZE, game_app, settle, text, wait_until
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.puzzles.proven import Puzzle, PuzzleChecker, load_bank, puzzle_of_the_day
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.puzzles import standing
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.text.puzzles import explanation, hint
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens import puzzle as puzzle_module
from tictactoe_tui.ui.screens.puzzle import PuzzleScreen
from tictactoe_tui.ui.widgets import Board


@pytest.fixture(autouse=True)
def _quick_play_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play lines out quickly: the pace is for people, not for tests."""
    monkeypatch.setattr(PuzzleScreen, "step_seconds", 0.02)


def screen(pilot: Pilot[None]) -> PuzzleScreen:
    shown = pilot.app.screen
    assert isinstance(shown, PuzzleScreen)
    return shown


def side_text(pilot: Pilot[None]) -> str:
    return text(pilot.app.screen.query_one("#puzzle-words", Static))


def status_text(pilot: Pilot[None]) -> str:
    return text(pilot.app.screen.query_one("#puzzle-status", Static))


async def click_cell(pilot: Pilot[None], index: int) -> None:
    """Click one cell of the puzzle board, however the board draws its cells."""
    board = pilot.app.screen.query_one("#puzzle-board", Board)
    if hasattr(board, "cell_offset"):
        assert await pilot.click("#puzzle-board", offset=board.cell_offset(index))
    else:
        assert await pilot.click(f"#puzzle-board #cell-{index}")
    await settle(pilot)


async def keys_to(pilot: Pilot[None], index: int) -> None:
    """Walk the board's cursor to cell `index` with the arrows and press Enter."""
    board = pilot.app.screen.query_one("#puzzle-board", Board)
    size = board.board_size
    row, col = divmod(board.cursor, size)
    want_row, want_col = divmod(index, size)
    keys = ["down" if want_row > row else "up"] * abs(want_row - row) + [
        "right" if want_col > col else "left"
    ] * abs(want_col - col)
    await pilot.press(*keys, "enter")
    await settle(pilot)


async def open_puzzles(pilot: Pilot[None]) -> PuzzleScreen:
    await pilot.pause()
    await pilot.press("z")
    await settle(pilot)
    return screen(pilot)


def wrong_move(puzzle: Puzzle) -> int:
    return next(m for m in puzzle.board.legal_moves() if m != puzzle.answer)


async def test_z_opens_the_puzzles_from_settings_and_escape_comes_back() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        assert shown.puzzle is not None and shown.phase == "solving"
        assert shown.query_one("#puzzle-board", Board).board_size == 3
        assert shown.puzzle.goal in ("win", "hold")
        assert status_text(pilot).splitlines()[1].startswith(f"{shown.puzzle.to_move} to ")
        await pilot.press("escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "SettingsScreen"


async def test_z_opens_the_puzzles_of_the_games_board_from_the_game() -> None:
    app = game_app(size=10, k=5, opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = [key.key for key in pilot.app.screen.query("FooterKey")]
        assert "z" in footer
        shown = await open_puzzles(pilot)
        assert shown.puzzle is not None and (shown.puzzle.size, shown.puzzle.k) == (10, 5)
        assert "z" not in [key.key for key in shown.query("FooterKey")]
        await pilot.press("z")  # no second puzzle screen on top
        await pilot.pause()
        assert pilot.app.screen is shown


async def test_the_right_move_with_the_keys_solves_it_and_raises_the_rating() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        puzzle = shown.puzzle
        assert puzzle is not None
        await keys_to(pilot, puzzle.answer)
        assert shown.phase == "done"
        words = side_text(pilot)
        assert f"{cell_notation(puzzle.answer, 3)} is right" in words
        assert "Solved!" in words and "Rating 1500 → " in words
        assert shown.played == list(puzzle.line)
        mine = standing(app.store)
        assert mine.rating.rating > 1500 and mine.streak == 1 and puzzle.key in mine.solved


async def test_the_board_has_the_keys_again_after_the_terminal_was_too_small() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        await pilot.resize_terminal(20, 5)
        await pilot.pause()
        assert shown.has_class("-too-small")
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert shown.board.has_focus, "hiding the board took its focus for good"
        puzzle = shown.puzzle
        assert puzzle is not None
        await keys_to(pilot, puzzle.answer)
        assert shown.phase == "done"


@pytest.mark.slow
async def test_a_wrong_click_shows_the_refutation_and_a_retry_is_not_rated() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        puzzle = shown.puzzle
        assert puzzle is not None
        wrong = wrong_move(puzzle)
        await click_cell(pilot, wrong)
        refutation = PuzzleChecker(puzzle.size, puzzle.k).refutation(puzzle, wrong)
        assert shown.phase == "done" and shown.played == list(refutation)
        words = side_text(pilot)
        assert "is right" not in words and "Rating 1500 → " in words
        assert "1. " in words and "2. " in words  # the refutation, ply by ply
        after = standing(app.store)
        assert after.rating.rating < 1500 and after.tries == 1
        await pilot.press("r")
        await settle(pilot)
        assert shown.phase == "solving" and shown.played == []
        await keys_to(pilot, puzzle.answer)
        assert "A retry: the rating does not move" in side_text(pilot)
        assert standing(app.store).rating == after.rating


async def test_hints_come_one_level_at_a_time_and_the_last_lights_the_move() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        puzzle = shown.puzzle
        assert puzzle is not None
        await pilot.press("h")
        assert "Hint 1 of 3" in side_text(pilot) and "Hint 2" not in side_text(pilot)
        await pilot.press("h")
        assert "Hint 2 of 3" in side_text(pilot)
        await pilot.press("h")
        await pilot.pause()
        assert "Hint 3 of 3" in side_text(pilot)
        board = shown.query_one("#puzzle-board", Board)
        assert "best" in board.cell_highlights(puzzle.answer)
        await pilot.press("h")  # no fourth hint
        assert side_text(pilot).count("Hint") == 3
        await keys_to(pilot, puzzle.answer)
        assert standing(app.store).streak == 0  # a hint ends the streak


async def test_a_taken_cell_is_refused_and_changes_nothing() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        puzzle = shown.puzzle
        assert puzzle is not None
        taken = next(c for c in range(puzzle.size**2) if puzzle.board[c] is not None)
        await click_cell(pilot, taken)
        assert shown.phase == "solving" and standing(app.store).tries == 0


@pytest.mark.slow
async def test_next_the_puzzle_of_the_day_and_another_board() -> None:
    day = date(2025, 3, 1)
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(PuzzleScreen(app.store, (3, 3), today=day))
        await settle(pilot)
        shown = screen(pilot)
        first = shown.puzzle
        await pilot.press("n")
        await settle(pilot)
        assert shown.puzzle is not None and shown.puzzle != first
        await pilot.press("d")
        await settle(pilot)
        assert shown.puzzle == puzzle_of_the_day(load_bank(), day.toordinal())
        assert status_text(pilot).startswith("Puzzle of the day")
        await pilot.press("b")
        await settle(pilot)
        board = shown.query_one("#puzzle-board", Board)
        assert shown.puzzle is not None and shown.puzzle.size == board.board_size


@pytest.mark.slow
async def test_a_10x10_move_is_answered_by_the_worker_process() -> None:
    app = game_app(size=10, k=5, opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = await open_puzzles(pilot)
        puzzle = shown.puzzle
        assert puzzle is not None and puzzle.size == 10
        await click_cell(pilot, puzzle.answer)
        assert shown.phase == "done" and "is right" in side_text(pilot)
        assert app.thinker.worker_pid is not None
        position = puzzle.board
        for move in shown.played:
            position = position.play(move)
        if puzzle.goal == "win":
            assert position.winner is puzzle.to_move


async def test_puzzles_from_your_games() -> None:
    from tests.test_puzzle_store import game_of
    from tictactoe_tui.engine import Mark

    store = HistoryStore.open()
    store.save(game_of((0, 1, 4, 8), human=Mark.O))
    store.close()
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert shown.puzzle is not None
        assert shown.puzzle.source.startswith("your game (game 1, move 2: B1??")
        assert shown.puzzle.board == Position.from_string("X../.../...", to_move="O")


def test_a_board_too_big_for_the_terminal_asks_for_more_room() -> None:
    width, height = puzzle_module.needed_terminal(15)
    assert width <= SIZE[0] and height <= SIZE[1]


async def test_the_screen_tells_the_proof_in_the_words_of_its_explanation() -> None:
    # The 7×7 win in 5 of issue 28: its second step once said "O must stop it at D2" before
    # O's D5. The screen shows the sentences `text.puzzles.explanation` makes of its steps.
    [puzzle] = [
        p
        for p in load_bank()
        if p.position == "...X.O./....XX./....XO./...O..O/.....X./......./......."
    ]
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(PuzzleScreen(app.store, (7, 4), bank=[puzzle]))
        await settle(pilot)
        assert screen(pilot).puzzle == puzzle
        await pilot.press("h", "h")
        assert hint(puzzle, 2) in side_text(pilot)
        await keys_to(pilot, puzzle.answer)
        assert screen(pilot).phase == "done"
        words = side_text(pilot)
    for number, sentence in enumerate(explanation(puzzle), start=1):
        assert f"{number}. {sentence}" in words
    assert "O must stop it at D2, or make a line of three of its own first." in words


def centre_defence() -> Puzzle:
    """X on A1, O to move: B2 is the only defence (the cursor's old starting cell)."""
    puzzle = PuzzleChecker(3, 3).examine(Position.from_string("X../.../...", to_move="O"))
    assert puzzle is not None and puzzle.goal == "hold" and puzzle.answer == 4
    return puzzle


def test_the_cursor_starts_on_a_stone_of_every_puzzle_never_on_its_answer() -> None:
    for puzzle in load_bank():
        start = puzzle_module.start_cell(puzzle)
        assert puzzle.board[start] is not None, puzzle.key


async def test_enter_alone_does_not_solve_the_only_defence_on_the_centre() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(PuzzleScreen(app.store, (3, 3), bank=[centre_defence()]))
        await settle(pilot)
        shown = screen(pilot)
        assert shown.board.cursor == 0  # A1, X's stone
        await pilot.press("enter")
        await settle(pilot)
        assert shown.phase == "solving" and standing(app.store).tries == 0


async def test_digits_play_on_a_3x3_puzzle_and_say_why_not_on_a_bigger_one() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(PuzzleScreen(app.store, (3, 3), bank=[centre_defence()]))
        await settle(pilot)
        shown = screen(pilot)
        await pilot.press("5")
        await settle(pilot)
        assert shown.phase == "done" and "B2 is right" in side_text(pilot)
        await pilot.press("b")  # the next board: 4×4
        await settle(pilot)
        assert shown.puzzle is not None and shown.puzzle.size == 4
        await pilot.press("1")
        await settle(pilot)
        assert shown.phase == "solving" and shown.played == []
        assert pilot.app._notifications and list(pilot.app._notifications)[-1].message == (
            "Digits play on 3×3 only: use the arrows and Enter, or click."
        )


async def test_what_your_games_gave_stays_beside_the_puzzle() -> None:
    from tests.test_puzzle_store import game_of
    from tictactoe_tui.engine import Mark

    store = HistoryStore.open()
    store.save(game_of((0, 1, 4, 8), human=Mark.O))
    store.close()
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert shown.puzzle is not None and shown.puzzle.source.startswith("your game")
        assert side_text(pilot).startswith("1 puzzle from your last game: this is the first.")
        await pilot.pause(0.5)
        assert "1 puzzle from your last game" in side_text(pilot)


@pytest.mark.slow
async def test_looking_through_your_games_counts_the_moves_and_escape_stops_it() -> None:
    from tests.test_puzzle_store import opening_on_7x7

    store = HistoryStore.open()
    store.save(opening_on_7x7())
    store.close()
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        shown = await open_puzzles(pilot)
        before = shown.puzzle
        await pilot.press("g")
        await wait_until(pilot, lambda: "move 1 of 1 you played" in status_text(pilot))
        assert status_text(pilot) == (
            "Looking for puzzles in your last game: move 1 of 1 you played… escape stops."
        )
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is shown and shown.puzzle == before
        assert side_text(pilot).startswith(
            "Stopped looking for puzzles in your last game: g looks again."
        )
        assert shown.phase == "solving"
