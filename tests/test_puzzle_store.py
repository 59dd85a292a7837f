"""The player's puzzles in the history: tries, the Glicko-2 rating, streaks, puzzles from games."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from tests.games import a_game
from tictactoe_tui.engine import Mark
from tictactoe_tui.engine.puzzles.proven import Puzzle, load_bank
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.puzzles import (
    GameScan,
    Standing,
    choose_next,
    human_moves,
    puzzles_from_games,
    record_try,
    score_of,
    standing,
)
from tictactoe_tui.history.rating import Rating, after_puzzle, update
from tictactoe_tui.history.record import PlayedGame, PlayedMove
from tictactoe_tui.history.schema import SCHEMA_VERSION
from tictactoe_tui.history.store import HistoryStore


def bank_puzzle(size: int = 3, goal: str = "win", index: int = 0) -> Puzzle:
    return [p for p in load_bank() if p.size == size and p.goal == goal][index]


def test_glicko2_matches_glickmans_worked_example() -> None:
    rating = update(Rating(1500, 200, 0.06), [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert round(rating.rating, 2) == 1464.05
    assert round(rating.deviation, 2) == 151.52
    assert round(rating.volatility, 5) == 0.06


def test_a_solve_raises_the_rating_a_miss_lowers_it_and_both_narrow_it() -> None:
    new = Rating()
    up, down = after_puzzle(new, 1500, 1.0), after_puzzle(new, 1500, 0.0)
    assert down.rating < new.rating < up.rating
    assert up.deviation < new.deviation and down.deviation < new.deviation
    # Beating a hard puzzle is worth more than beating an easy one.
    assert after_puzzle(new, 1900, 1.0).rating > after_puzzle(new, 1100, 1.0).rating


def test_hints_cost_a_quarter_each() -> None:
    assert [score_of(True, h) for h in range(4)] == [1.0, 0.75, 0.5, 0.25]
    assert score_of(False, 0) == 0.0


def test_a_fresh_history_holds_a_new_player() -> None:
    mine = standing(HistoryStore.open())
    assert mine == Standing()
    assert mine.rating.provisional


def test_tries_are_kept_rated_once_and_make_a_streak() -> None:
    store = HistoryStore.open()
    first, second = bank_puzzle(index=0), bank_puzzle(index=1)
    solved = record_try(store, first, solved=True, hints=0)
    assert solved.rated and solved.change > 0 and solved.after.streak == 1
    again = record_try(store, first, solved=False, hints=0)
    assert not again.rated and again.change == 0 and again.after.streak == 1
    missed = record_try(store, second, solved=False, hints=0)
    assert missed.rated and missed.change < 0 and missed.after.streak == 0
    store.close()
    kept = standing(HistoryStore.open())
    assert kept.rating == missed.after.rating
    assert (kept.streak, kept.best_streak, kept.tries) == (0, 1, 3)
    assert kept.solved == {first.key} and kept.tried == {first.key, second.key}


def test_a_solve_with_a_hint_counts_less_and_ends_the_streak() -> None:
    store = HistoryStore.open()
    clean = record_try(store, bank_puzzle(index=0), solved=True, hints=0)
    helped = record_try(store, bank_puzzle(index=1), solved=True, hints=2)
    assert helped.after.streak == 0 and clean.after.streak == 1
    fresh = HistoryStore.open(Path(store.path).parent / "other")
    assert record_try(fresh, bank_puzzle(index=1), solved=True, hints=0).change > helped.change


def test_a_newer_history_is_read_only_and_keeps_no_try(data_dir: Path) -> None:
    HistoryStore.open().save(a_game())
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store = HistoryStore.open()
    assert store.state == "read-only"
    outcome = record_try(store, bank_puzzle(), solved=True, hints=0)
    assert outcome.after.streak == 1  # the try still counts on screen
    assert standing(store).tries == 0  # nothing was written


def test_an_old_history_gains_the_puzzle_table(data_dir: Path) -> None:
    HistoryStore.open().close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute("DROP TABLE puzzle_attempts")
        db.execute("ALTER TABLE games DROP COLUMN forfeit")  # as version 2 had it
        db.execute("PRAGMA user_version = 2")
    store = HistoryStore.open()
    assert store.state == "ready"
    record_try(store, bank_puzzle(), solved=True, hints=0, when=datetime(2025, 3, 1))
    assert standing(store).tries == 1


def test_the_next_puzzle_is_unsolved_of_the_board_and_near_the_rating() -> None:
    bank = load_bank()
    mine = Standing(rating=Rating(1000, 100, 0.06))
    chosen = choose_next(bank, mine, (10, 5))
    assert chosen is not None and (chosen.size, chosen.k) == (10, 5)
    closest = min(abs(p.rating - 1000) for p in bank if (p.size, p.k) == (10, 5))
    assert abs(chosen.rating - 1000) == closest
    solved = Standing(rating=mine.rating, solved=frozenset({chosen.key}))
    assert choose_next(bank, solved, (10, 5)) != chosen
    assert choose_next(bank, mine, (10, 5), skip={chosen.key}) != chosen
    everything = Standing(solved=frozenset(p.key for p in bank))
    assert choose_next(bank, everything, (3, 3)) is None


def game_of(cells: tuple[int, ...], human: Mark = Mark.X) -> PlayedGame:
    moves = tuple(
        PlayedMove(
            cell,
            Mark.X if i % 2 == 0 else Mark.O,
            by_computer=(Mark.X if i % 2 == 0 else Mark.O) is not human,
        )
        for i, cell in enumerate(cells)
    )
    when = datetime(2025, 3, 1, 12)
    return PlayedGame(
        "human-vs-computer",
        "human" if human is Mark.X else "h1",
        "h1" if human is Mark.X else "human",
        3,
        3,
        Mark.X,
        100,
        when,
        when,
        moves,
        "O",
    )


def test_the_moves_a_person_made_are_found_in_their_games() -> None:
    game = game_of((0, 4, 8))
    assert [(m.played, m.game) for m in human_moves([(7, game)])] == [
        (0, "game 7, move 1"),
        (8, "game 7, move 3"),
    ]


def test_a_missed_only_defence_in_a_game_becomes_a_puzzle() -> None:
    # The person is O: X took A1 and O answered B1?? instead of the centre (the only defence).
    game = game_of((0, 1, 4, 8), human=Mark.O)
    found = puzzles_from_games([(3, game)])
    assert len(found) == 1
    puzzle = found[0]
    assert (puzzle.goal, puzzle.answer, puzzle.position) == ("hold", 4, "X../.../...")
    assert puzzle.source == "your game (game 3, move 2: B1??)"


def test_a_game_without_such_a_mistake_gives_no_puzzle() -> None:
    # Against the centre every corner holds: no single defence, so no puzzle.
    assert puzzles_from_games([(1, game_of((4, 0, 8), human=Mark.O))]) == []


@pytest.mark.parametrize("hints", [0, 3])
def test_the_rating_never_leaves_sane_bounds(hints: int) -> None:
    rating = Rating()
    for _ in range(50):
        rating = after_puzzle(rating, 3000, score_of(True, hints))
    assert 0 < rating.rating < 4000 and rating.deviation >= 45


def opening_on_7x7() -> PlayedGame:
    """A 7×7 game (five in a row) whose one move by a person is on the empty board: proving
    that position no puzzle takes the checker far longer than a test may."""
    when = datetime(2025, 3, 1, 12)
    moves = (PlayedMove(24, Mark.X, by_computer=False), PlayedMove(0, Mark.O, by_computer=True))
    return PlayedGame(
        "human-vs-computer", "human", "h1", 7, 5, Mark.X, 100, when, when, moves, "abandoned"
    )


def test_the_scan_of_the_games_says_how_far_it_is_move_by_move() -> None:
    games = [(1, game_of((0, 1, 4, 8), human=Mark.O)), (2, game_of((4, 0, 8, 2, 1)))]
    # Counted by hand: O's B1 and C3 in game 1; X's B2, C3 and B1 in game 2.
    scans: list[GameScan] = []
    found = puzzles_from_games(games, on_progress=scans.append)
    assert [(scan.looked, scan.total) for scan in scans] == [(i, 5) for i in range(5)]
    assert [scan.found for scan in scans] == sorted(scan.found for scan in scans)
    assert scans[-1].found <= len(found)


def test_a_stop_request_ends_the_scan_inside_a_long_proof() -> None:
    asked = 0

    def stop_on_the_200th_question() -> bool:
        nonlocal asked
        asked += 1
        return asked >= 200

    found = puzzles_from_games([(1, opening_on_7x7())], should_stop=stop_on_the_200th_question)
    # One question before the move, the rest from inside its proof, which stopped at once.
    assert found == [] and asked == 200
