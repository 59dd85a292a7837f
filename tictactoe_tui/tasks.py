"""The computations the app sends to its worker process (see `thinking.py`), as plain functions.

Each is module-level, so it can be pickled by reference, and takes `should_stop` and
`on_progress` keywords as a `Thinker` job must. Pure: the worker imports the engine and this
module, never Textual.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tictactoe_tui.engine import Board, Decision, Player, ProgressCallback
from tictactoe_tui.engine.match import GameOutcome, MatchResult, PlayerSpec, run_match

RandomState = Any
"""What `random.Random.getstate()` returns."""


def choose_move(player: Player, rng: random.Random, board: Board, *,
                should_stop: Callable[[], bool] | None = None,
                on_progress: ProgressCallback | None = None) -> tuple[Decision, RandomState]:
    """The player's decision on `board`, and the state its `rng` ended in.

    The player travels to the worker as a copy, so its random number generator moves on there,
    not in the app: the app sets its own generator to the returned state, and a seeded session
    stays reproducible whichever process thinks.
    """
    decision = player.choose(board, should_stop, on_progress)
    return decision, rng.getstate()


@dataclass(frozen=True)
class MatchProgress:
    """Where a match played by `play_match` stands: every finished game, and the move now."""

    outcomes: tuple[GameOutcome, ...]
    """The games finished so far, in order."""
    game: int
    """0-based index of the game being played (`len(outcomes)` between two games)."""
    moves: int
    """Marks on the board of the game being played."""


def play_match(x: PlayerSpec, o: PlayerSpec, games: int, size: int, k: int | None, seed: int,
               *, should_stop: Callable[[], bool] | None = None,
               on_progress: Callable[[MatchProgress], None] | None = None) -> MatchResult:
    """`run_match` as a job. Each report carries every game finished so far, so a report the
    Thinker's throttle drops loses nothing; the result is the engine's whole `MatchResult`."""
    finished: list[GameOutcome] = []

    def report(game: int, moves: int) -> None:
        if on_progress is not None:
            on_progress(MatchProgress(tuple(finished), game, moves))

    def game_done(index: int, outcome: GameOutcome) -> None:
        finished.append(outcome)
        report(index + 1, 0)

    return run_match(x, o, games, size=size, k=k, seed=seed, should_stop=should_stop,
                     on_game=game_done, on_move=lambda index, board: report(index,
                                                                          board.move_count))
