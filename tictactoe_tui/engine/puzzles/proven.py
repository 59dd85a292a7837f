"""Puzzles with proven answers: find the only winning move, or the only defence.

A position is a puzzle when one move stands alone, and both halves of that claim are proven:

- **win**: the answer is the only move that wins. On boards the engine solves exactly (up to
  7×7, `is_exact`) the values come from the exact solver (`analyse_position` to the end): the
  answer wins, every other move draws or loses; `plies` is the length of the fastest win. On
  bigger boards the exact search to a horizon (`horizon.HorizonProver`) proves that the answer
  wins by force within `plies` plies and that no other move does within that many.
- **hold**: the side to move is under attack and the answer is the only move that does not lose:
  every other move loses (exactly, or within `plies` plies on big boards, where the answer is
  proven not to lose within `plies`); `plies` is the longest of those losses.

Positions where a rule decides at once (a win in 1, or blocking the opponent's single winning
cell) are not puzzles: there is nothing to find.

Candidate positions come from games the engine plays against itself at several strengths
(`STRENGTHS`), from random openings continued that way, and from any positions a caller hands
in (the history's games). `generate` is seeded: the same seed gives the same puzzles. A
puzzle's `rating` is a difficulty drawn from its proof: the length, the tempting wrong moves
(threats that fail, or defences that stop only part of the attack) and the branching of the
defence the solver has to answer; `rating_word` names it.

This module generates puzzles (`generate`); its parts: `puzzle` what a puzzle is (and its
JSON), `checker` the proofs, `self_play` where candidates come from, `bank` the shipped bank.
Their public names are importable here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tictactoe_tui.engine.puzzles.bank import BANK_FILE, load_bank, puzzle_of_the_day
from tictactoe_tui.engine.puzzles.checker import (
    MAX_EXACT_PLIES,
    MAX_HORIZON_PLIES,
    PuzzleChecker,
)
from tictactoe_tui.engine.puzzles.puzzle import (
    SHAPES,
    Goal,
    Puzzle,
    canonical,
    default_k,
    is_exact,
    rate,
    rating_word,
)
from tictactoe_tui.engine.puzzles.self_play import STRENGTHS, SelfPlay, Strength
from tictactoe_tui.engine.rules.board import Board, check_shape, parse_cell
from tictactoe_tui.engine.search.kernel import Stopped


@dataclass(frozen=True)
class Generation:
    """What `generate` made, and what it took."""

    puzzles: tuple[Puzzle, ...]
    candidates: int
    """Distinct positions examined."""
    games: int
    """Self-play games played for candidates."""
    seconds: float

    @property
    def share(self) -> float:
        """The share of examined positions that became puzzles."""
        return len(self.puzzles) / self.candidates if self.candidates else 0.0


def generate(
    size: int,
    k: int,
    count: int,
    seed: int,
    positions: Iterable[tuple[Board, str]] = (),
    *,
    max_games: int = 5_000,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Generation], None] | None = None,
) -> Generation:
    """Up to `count` distinct puzzles of size×size with k in a row, reproducibly from `seed`.

    `positions` (each with its source) are examined first, then self-play games at mixed
    strengths, until `count` puzzles or `max_games` games. At most one puzzle is taken from a
    game for each answer (a missed win stays a win for several moves: one puzzle of it is
    enough). `should_stop` ends the search early (the puzzles so far are returned);
    `on_progress` hears each new puzzle.
    """
    check_shape(size, k)
    start = time.perf_counter()

    def poll() -> None:
        if should_stop is not None and should_stop():
            raise Stopped

    play = SelfPlay(size, k, random.Random(seed), poll)
    found = _Found(PuzzleChecker(size, k, poll=poll), play, count, start, on_progress)
    try:
        if not found.take(positions, one_per_answer=False):
            while play.games < max_games and not found.take(play.game(), one_per_answer=True):
                pass
    except Stopped:
        pass
    return found.report()


class _Found:
    """The puzzles `generate` has found so far, and the candidates it examined for them."""

    def __init__(
        self,
        checker: PuzzleChecker,
        play: SelfPlay,
        count: int,
        start: float,
        on_progress: Callable[[Generation], None] | None,
    ) -> None:
        self.checker = checker
        self.play = play
        self.count = count
        self.start = start
        self.on_progress = on_progress
        self.puzzles: list[Puzzle] = []
        self.seen: set[str] = set()
        """The candidates examined, up to symmetry (`canonical`)."""
        self.examined = 0

    def report(self) -> Generation:
        """What was made so far."""
        return Generation(
            tuple(self.puzzles), self.examined, self.play.games, time.perf_counter() - self.start
        )

    def take(self, batch: Iterable[tuple[Board, str]], one_per_answer: bool) -> bool:
        """Examine the new positions of `batch` (each with its source) until `count` puzzles
        are found: True then. `one_per_answer`: take one puzzle per answer and goal (a game's)."""
        answers: set[tuple[int, Goal]] = set()
        for board, source in batch:
            if len(self.puzzles) >= self.count:
                return True
            key = canonical(board)
            if key in self.seen:
                continue
            self.seen.add(key)
            self.examined += 1
            puzzle = self.checker.examine(board, source)
            if puzzle is None or (one_per_answer and (puzzle.answer, puzzle.goal) in answers):
                continue
            answers.add((puzzle.answer, puzzle.goal))
            self.puzzles.append(puzzle)
            if self.on_progress is not None:
                self.on_progress(self.report())
        return len(self.puzzles) >= self.count


__all__ = [
    "BANK_FILE",
    "MAX_EXACT_PLIES",
    "MAX_HORIZON_PLIES",
    "SHAPES",
    "STRENGTHS",
    "Generation",
    "Goal",
    "Puzzle",
    "PuzzleChecker",
    "SelfPlay",
    "Strength",
    "canonical",
    "default_k",
    "generate",
    "is_exact",
    "load_bank",
    "parse_cell",
    "puzzle_of_the_day",
    "rate",
    "rating_word",
]
