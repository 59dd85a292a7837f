"""The computations the app sends to its worker process (see `client`), as plain functions.

Each is module-level, so it can be pickled by reference, and takes `should_stop` and
`on_progress` keywords as a `Thinker` job must (`thinker.run(job, *args)` is typed as the job
returns, its arguments checked against the job's); the player jobs fold them into one `Limits`
value, which every player answers. Pure: the worker imports the engine and this module, never
Textual.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tictactoe_tui.engine import (
    Analysis,
    Board,
    Decision,
    Limits,
    Mark,
    Player,
    ProgressCallback,
    make_player,
)
from tictactoe_tui.engine.players.foreign import PlayerFault
from tictactoe_tui.text.threats import line_words

if TYPE_CHECKING:
    # The matches, proofs and puzzles load when a job first needs them (in the worker): the
    # app's first paint imports this module for the game's jobs alone.
    from tictactoe_tui.engine.players.match import GameOutcome, MatchResult, PlayerSpec
    from tictactoe_tui.engine.proofs.pairing import NoPairing, Pairing, PairingLine
    from tictactoe_tui.engine.puzzles.proven import Generation, Puzzle
    from tictactoe_tui.history.puzzles import GameScan
    from tictactoe_tui.history.record import PlayedGame

RandomState = tuple[Any, ...]
"""What `random.Random.getstate()` returns (and `setstate` takes back)."""


@dataclass(frozen=True)
class Forfeited:
    """A player not ours (an outside engine, a learner's code) failed on its move: it loses
    (see `engine.players.foreign.PlayerFault`)."""

    reason: str
    """One sentence: how it failed."""
    log: tuple[str, ...]
    """The last lines of its stderr and of its ignored output."""


def choose_move(
    player: Player,
    rng: random.Random,
    board: Board,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> tuple[Decision | Forfeited, RandomState]:
    """The player's decision on `board` (or how an outside engine failed), and the state its
    `rng` ended in.

    The player travels to the worker as a copy, so its random number generator moves on there,
    not in the app: the app sets its own generator to the returned state, and a seeded session
    stays reproducible whichever process thinks. (An outside engine's copy is the engine
    itself: it runs in the app's process.)
    """
    try:
        decision: Decision | Forfeited = player.choose(
            board, Limits(should_stop=should_stop, on_progress=on_progress)
        )
    except PlayerFault as fault:
        decision = Forfeited(fault.reason, fault.log)
    return decision, rng.getstate()


def clever_analysis(
    board: Board,
    algorithm: str,
    time_limit: float | None,
    depth: int | None = None,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> Analysis:
    """The analysis the clever `algorithm` player makes of `board`, within its budget.

    A hint (and the live scores on the board) score the side to move's moves the way the
    computer would: the same depth (the setting, or minimax's own cut-off on big boards) and
    the same time budget, so a hint always arrives as fast as a computer move.
    """
    player = make_player(algorithm, random.Random(0), time_limit=time_limit, depth=depth)
    analysis = player.choose(
        board, Limits(should_stop=should_stop, on_progress=on_progress)
    ).analysis
    if analysis is None:  # every clever player analyses; only a random one would not
        raise ValueError(f"{algorithm} gives no analysis")
    return analysis


@dataclass(frozen=True)
class MatchProgress:
    """Where a match played by `play_match` stands: every finished game, and the move now."""

    outcomes: tuple[GameOutcome, ...]
    """The games finished so far, in order."""
    game: int
    """0-based index of the game being played (`len(outcomes)` between two games)."""
    moves: int
    """Marks on the board of the game being played."""


def play_match(
    x: PlayerSpec,
    o: PlayerSpec,
    games: int,
    size: int,
    k: int | None,
    seed: int,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[MatchProgress], None] | None = None,
) -> MatchResult:
    """`run_match` as a job. Each report carries every game finished so far, so a report the
    Thinker's throttle drops loses nothing; the result is the engine's whole `MatchResult`."""
    from tictactoe_tui.engine.players.match import MatchHooks, MatchPlan, run_match

    finished: list[GameOutcome] = []

    def report(game: int, moves: int) -> None:
        if on_progress is not None:
            on_progress(MatchProgress(tuple(finished), game, moves))

    def game_done(index: int, outcome: GameOutcome) -> None:
        finished.append(outcome)
        report(index + 1, 0)

    return run_match(
        x,
        o,
        MatchPlan(games, size=size, k=k, seed=seed),
        MatchHooks(should_stop, game_done, lambda index, board: report(index, board.move_count)),
    )


@dataclass(frozen=True)
class PuzzleReply:
    """The engine's answer to a move tried on a puzzle: right or wrong, and what follows."""

    move: int
    correct: bool
    line: tuple[int, ...]
    """From the puzzle's position, the move tried first: the rest of the proof when it was
    right (the defence the engine plays), its refutation when it was wrong."""
    words: tuple[str, ...]
    """One sentence per move of `line`."""


def answer_puzzle(
    puzzle: Puzzle,
    move: int,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> PuzzleReply:
    """Judge `move` on `puzzle` and play out what follows it (see `PuzzleReply`).

    On a big board the defence is searched afresh (the reply that holds out longest at each
    step), which is why this runs in the worker there.
    """
    from tictactoe_tui.engine.puzzles.proven import PuzzleChecker

    checker = PuzzleChecker(puzzle.size, puzzle.k, poll=_poll(should_stop))
    correct = move == puzzle.answer
    line = checker.continuation(puzzle) if correct else checker.refutation(puzzle, move)
    return PuzzleReply(move, correct, line, tuple(line_words(puzzle.board, line)))


def find_puzzles(
    size: int,
    k: int,
    count: int,
    seed: int,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Generation], None] | None = None,
) -> Generation:
    """`engine.puzzles.generate` as a job: `count` new puzzles of the board, from `seed`."""
    from tictactoe_tui.engine.puzzles.proven import generate

    return generate(size, k, count, seed, should_stop=should_stop, on_progress=on_progress)


def puzzles_in_games(
    games: list[tuple[int | None, PlayedGame]],
    limit: int,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[GameScan], None] | None = None,
) -> list[Puzzle]:
    """`history.puzzles.puzzles_from_games` as a job: the puzzles in the player's mistakes
    (`on_progress` hears how far the scan is)."""
    from tictactoe_tui.history.puzzles import puzzles_from_games

    return puzzles_from_games(games, limit=limit, should_stop=should_stop, on_progress=on_progress)


PAIRING_LINE_MAX_SIZE = 7
"""Boards up to this size look for a line to a pairing (under a second on 7×7; an open 10×10
board takes a quarter of a minute to find none)."""

PAIRING_SEARCH_SECONDS = 2.0
"""The time the search for the position's value may take when there is no pairing: small boards
are solved in milliseconds; a big one is not solved in this time, and no value is claimed."""


@dataclass(frozen=True)
class PairingReport:
    """What the pairing view shows about a position: a pairing or why there is none, a line to
    one, and the value a search proved."""

    found: Pairing | NoPairing
    """The defender's pairing, or why it has none."""
    line: PairingLine | None
    """When there is no pairing: a short line after which the defender has one (or None)."""
    band: str | None
    """When there is no pairing: "win", "loss" or "draw" for the side to move, as a search
    proved it; None when the search did not finish (nothing is claimed then)."""


def pairing_report(
    board: Board,
    defender: Mark,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> PairingReport:
    """Examine `board` for `defender`'s pairing (`engine.pairing.examine_pairing`); without one,
    look for a line to one (boards up to `PAIRING_LINE_MAX_SIZE`) and for the position's value
    (alpha-beta, at most `PAIRING_SEARCH_SECONDS`)."""
    from tictactoe_tui.engine.proofs.pairing import Pairing, examine_pairing, pairing_line
    from tictactoe_tui.engine.search.api import alphabeta

    found = examine_pairing(board, defender)
    if isinstance(found, Pairing) or board.is_over:
        return PairingReport(found, None, None)
    line = None
    if board.size <= PAIRING_LINE_MAX_SIZE:
        line = pairing_line(board, defender, should_stop=should_stop)
    result = alphabeta(board, time_limit=PAIRING_SEARCH_SECONDS, should_stop=should_stop)
    band = result.band if result.complete and result.band != "heuristic" else None
    return PairingReport(found, line, band)


def _poll(should_stop: Callable[[], bool] | None) -> Callable[[], None] | None:
    """A checker's poll from a job's `should_stop`: it raises `Stopped` to end the search."""
    if should_stop is None:
        return None
    from tictactoe_tui.engine.search.kernel import Stopped

    def poll() -> None:
        if should_stop():
            raise Stopped

    return poll
