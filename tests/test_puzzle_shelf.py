"""Where the Puzzle screen's puzzles come from (play.puzzle_shelf) and what it shows of a try
(play.puzzle_view), without the app."""

from __future__ import annotations

from datetime import date

from tictactoe_tui.engine.puzzles.proven import SHAPES, load_bank
from tictactoe_tui.history.puzzles import GameScan, Standing
from tictactoe_tui.play.puzzle_shelf import PuzzleShelf, found_words, next_shape
from tictactoe_tui.play.puzzle_try import PuzzleTry
from tictactoe_tui.play.puzzle_view import PROMPTS, board_hints, side_text, status_text


def test_the_next_puzzle_is_of_the_board_and_not_shown_twice() -> None:
    bank = [p for p in load_bank() if (p.size, p.k) == (3, 3)][:2]
    shelf = PuzzleShelf(bank)
    first = shelf.next(Standing(), (3, 3))
    assert first is not None and (first.size, first.k) == (3, 3)
    shelf.shown(first)
    second = shelf.next(Standing(), (3, 3))
    assert second is not None and second.key != first.key
    shelf.shown(second)
    assert shelf.next(Standing(), (3, 3)) is None
    assert shelf.next(Standing(), (4, 3)) is None  # none of that board in this bank
    assert shelf.total == 2


def test_puzzles_that_arrive_go_first_and_the_games_count_even_when_shown() -> None:
    bank = load_bank()
    shelf = PuzzleShelf(bank)
    shelf.shown(bank[0])
    assert shelf.take([bank[0], bank[1]], from_games=False) == [bank[1]]
    assert shelf.take([bank[0]], from_games=True) == [bank[0]]
    assert shelf.found == [bank[0], bank[1]]
    assert (
        found_words([bank[0]], "your last game")
        == "1 puzzle from your last game: this is the first."
    )
    assert found_words([], "your last 3 games").startswith("No puzzles in your last 3 games yet")


def test_the_look_through_the_games_says_how_far_it_is() -> None:
    shelf = PuzzleShelf([])
    assert shelf.start_scan(13) == "Looking for puzzles in your last 13 games…"
    assert shelf.scan_words(GameScan(looked=4, total=20, found=2)) == (
        "Looking for puzzles in your last 13 games: move 5 of 20 you played, 2 found… escape stops."
    )
    assert shelf.end_scan() == "your last 13 games" and shelf.scanning == ""
    assert shelf.of_the_day(date(2026, 1, 1)) is None  # no bank, no puzzle of the day


def test_the_boards_go_round() -> None:
    assert next_shape(SHAPES[0]) == SHAPES[1]
    assert next_shape(SHAPES[-1]) == SHAPES[0]
    assert next_shape((99, 99)) == SHAPES[0]


def test_a_try_shows_its_prompt_its_hints_and_its_words() -> None:
    puzzle = load_bank()[0]
    attempt = PuzzleTry()
    attempt.start(puzzle)
    assert status_text(attempt, puzzle, daily=True).startswith("Puzzle of the day · ")
    assert status_text(attempt, puzzle, daily=False).endswith(PROMPTS[attempt.phase])
    marks = puzzle.board.marks()
    assert board_hints(attempt, puzzle, marks) == ({}, None)
    assert side_text(attempt, puzzle, "", ["Goal."], "") == "Goal."
    while attempt.hint():
        pass
    hints, best = board_hints(attempt, puzzle, marks)
    assert best == puzzle.answer and hints and all(not marks[cell] for cell in hints)
    assert side_text(attempt, puzzle, "Found.", ["Goal."], "").startswith("Found.\n\nGoal.\n\n")
