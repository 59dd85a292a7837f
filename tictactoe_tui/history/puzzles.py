"""The player's puzzles in the history: each try, the rating, the streak; and puzzles from games.

Every try at a puzzle is one row of `puzzle_attempts` (schema 3), with the player's rating and
streak after it, so the latest row is the player's standing and nothing else needs keeping:

- Only the first try at a puzzle is rated (a retry after seeing the refutation proves little):
  a solve scores 1, less a quarter for each hint taken (the third hint shows the move), a miss
  0, against the puzzle's difficulty (`rating.after_puzzle`).
- The streak counts rated tries solved without a hint in a row; a miss or a hint ends it.

`puzzles_from_games` turns the player's own games into puzzles: a position where a person
played a move other than the only winning move or the only defence is one where the review
marks the move `?` or `??` (by its own rules: a proven win missed is a mistake at least, a
move into a proven loss a blunder), and the puzzle asks the question again.

No Textual here. A history that is off or read-only keeps nothing (the standing reads as a new
player's).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.puzzles.proven import Puzzle, PuzzleChecker
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search.kernel import Stopped
from tictactoe_tui.history.rating import Rating, after_puzzle
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.review import SYMBOLS, Judgement
from tictactoe_tui.history.store import HistoryStore

HINT_COST = 0.25
"""What each hint takes off a solve's score (three hints: the move was shown)."""


@dataclass(frozen=True)
class Standing:
    """Where the player stands at puzzles."""

    rating: Rating = field(default_factory=Rating)
    streak: int = 0
    """Rated puzzles solved without a hint in a row, up to now."""
    best_streak: int = 0
    solved: frozenset[str] = frozenset()
    """The keys (`Puzzle.key`) of the puzzles solved at least once."""
    tried: frozenset[str] = frozenset()
    """The keys of every puzzle tried."""
    tries: int = 0


@dataclass(frozen=True)
class Outcome:
    """What one try changed."""

    before: Standing
    after: Standing
    rated: bool
    """False for a retry: the rating did not move."""

    @property
    def change(self) -> float:
        """How much the rating moved."""
        return self.after.rating.rating - self.before.rating.rating


def score_of(solved: bool, hints: int) -> float:
    """A try's score for the rating: 1 for a solve without hints, a quarter less per hint."""
    return max(0.0, 1.0 - HINT_COST * hints) if solved else 0.0


def standing(store: HistoryStore) -> Standing:
    """The player's standing from the history (a new player's when it holds no try)."""
    # The store's own read path (under its lock; a broken file reads as no rows).
    rows = store.database.rows(
        "SELECT puzzle, solved, rating, deviation, volatility, streak FROM puzzle_attempts "
        "ORDER BY id"
    )
    if not rows:
        return Standing()
    solved = frozenset(row[0] for row in rows if row[1])
    best = max(row[5] for row in rows)
    last = rows[-1]
    return Standing(
        Rating(last[2], last[3], last[4]),
        last[5],
        best,
        solved,
        frozenset(row[0] for row in rows),
        len(rows),
    )


def record_try(
    store: HistoryStore, puzzle: Puzzle, solved: bool, hints: int, when: datetime | None = None
) -> Outcome:
    """Keep one try at `puzzle` and return the standing before and after it.

    Nothing is written when the history cannot write (the outcome still says what the try
    would have done); a write that fails leaves the history as it was.
    """
    before = standing(store)
    key = puzzle.key
    rated = key not in before.tried
    rating = (
        after_puzzle(before.rating, puzzle.rating, score_of(solved, hints))
        if rated
        else before.rating
    )
    streak = before.streak
    if rated:
        streak = streak + 1 if solved and not hints else 0
    after = Standing(
        rating,
        streak,
        max(before.best_streak, streak),
        before.solved | {key} if solved else before.solved,
        before.tried | {key},
        before.tries + 1,
    )
    if store.writable:
        stamp = (when or datetime.now()).isoformat(timespec="seconds")
        row = (
            key,
            stamp,
            puzzle.size,
            puzzle.k,
            puzzle.rating,
            int(solved),
            hints,
            int(rated),
            rating.rating,
            rating.deviation,
            rating.volatility,
            streak,
        )
        # The store's own write path (one short transaction under its lock). A failed write
        # loses only this row: the try still counts on screen.
        with contextlib.suppress(sqlite3.Error):
            store.database.write(
                lambda db: (
                    db.execute(
                        "INSERT INTO puzzle_attempts (puzzle, attempted, size, k, puzzle_rating, "
                        "solved, hints, rated, rating, deviation, volatility, streak) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        row,
                    ).lastrowid
                    or 0
                )
            )
    return Outcome(before, after, rated)


def choose_next(
    puzzles: Sequence[Puzzle],
    mine: Standing,
    shape: tuple[int, int] | None,
    skip: Iterable[str] = (),
) -> Puzzle | None:
    """The next puzzle to offer: of the board `shape` (any, if None or none is left), not
    solved nor skipped, its difficulty the closest to the player's rating."""
    skipped = set(skip)

    def fresh(puzzle: Puzzle) -> bool:
        return puzzle.key not in mine.solved and puzzle.key not in skipped

    pool = [p for p in puzzles if fresh(p) and (shape is None or (p.size, p.k) == shape)]
    if not pool:
        pool = [p for p in puzzles if fresh(p)]
    if not pool:
        return None
    target = mine.rating.rating
    return min(pool, key=lambda p: (abs(p.rating - target), p.key))


# -- puzzles from the player's games ---------------------------------------------------------


@dataclass(frozen=True)
class MissedMove:
    """A person's move in a kept game, and the position it was played in."""

    board: Board
    played: int
    game: str
    """Which game, for the puzzle's source: "game 12, move 7"."""


def human_moves(games: Iterable[tuple[int | None, PlayedGame]]) -> Iterator[MissedMove]:
    """Every move a person made in `games` ((id, game) pairs), in the position it was made in."""
    for game_id, game in games:
        board = Board.empty(game.size, game.k, game.first)
        for number, move in enumerate(game.moves, start=1):
            if board.is_over:
                break
            if not move.by_computer:
                where = f"game {game_id}, move {number}" if game_id else f"move {number}"
                yield MissedMove(board, move.cell, where)
            board = board.play(move.cell)


@dataclass(frozen=True)
class GameScan:
    """How far `puzzles_from_games` is: `looked` of the person's `total` moves examined,
    `found` puzzles so far."""

    looked: int
    total: int
    found: int


def puzzles_from_games(
    games: Iterable[tuple[int | None, PlayedGame]],
    *,
    limit: int = 20,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[GameScan], None] | None = None,
) -> list[Puzzle]:
    """Puzzles from the positions where a person missed the only win or the only defence.

    Each such move is one the review marks `?` (a proven win missed) or `??` (a move into a
    proven loss); the puzzle's source names the game, the move and the mark. At most `limit`.
    `on_progress` hears before each move is examined how far the scan is; `should_stop` ends
    the scan within a proof (the puzzles so far are returned).
    """

    def poll() -> None:
        if should_stop is not None and should_stop():
            raise Stopped

    checkers: dict[tuple[int, int], PuzzleChecker] = {}
    found: list[Puzzle] = []
    seen: set[str] = set()
    moves = list(human_moves(games))
    for looked, missed in enumerate(moves):
        if should_stop is not None and should_stop():
            break
        if on_progress is not None:
            on_progress(GameScan(looked, len(moves), len(found)))
        try:
            puzzle = _missed_puzzle(missed, checkers, poll, seen)
        except Stopped:
            break
        if puzzle is None:
            continue
        found.append(puzzle)
        seen.add(puzzle.key)
        if len(found) >= limit:
            break
    return found


def _missed_puzzle(
    missed: MissedMove,
    checkers: dict[tuple[int, int], PuzzleChecker],
    poll: Callable[[], None],
    seen: set[str],
) -> Puzzle | None:
    """The puzzle a person's move missed, named after it, or None (`Stopped` from `poll`)."""
    board = missed.board
    shape = (board.size, board.k)
    checker = checkers.setdefault(shape, PuzzleChecker(*shape, poll=poll))
    puzzle = checker.examine(board, "your game")
    if puzzle is None or puzzle.answer == missed.played or puzzle.key in seen:
        return None
    judgement: Judgement = (
        "blunder"
        if puzzle.goal == "hold" or _loses(board, checker.refutation(puzzle, missed.played))
        else "mistake"
    )
    played = cell_notation(missed.played, board.size)
    return replace(puzzle, source=f"your game ({missed.game}: {played}{SYMBOLS[judgement]})")


def _loses(board: Board, line: Sequence[int]) -> bool:
    """Whether `line` (a move, then the best play after it) ends with the mover's opponent
    completing a line."""
    mover = board.to_move
    try:
        for move in line:
            board = board.play(move)
    except ValueError:
        return False
    return board.winner is mover.opponent


__all__ = [
    "HINT_COST",
    "GameScan",
    "MissedMove",
    "Outcome",
    "Standing",
    "choose_next",
    "human_moves",
    "puzzles_from_games",
    "record_try",
    "score_of",
    "standing",
]
