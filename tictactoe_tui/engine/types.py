"""The search's public results: scores of moves, progress reports, whole-search outcomes.

Scores are seen from the side to move. A win on ply d (ply 1 = the move itself) scores `W - d`,
a loss on ply d scores `-(W - d)`, a draw 0, where `W = win_score(board)` (10 on 3x3,
`size*size + 1` in general). At a depth cut-off the heuristic is clamped strictly inside the
win/loss bands, so a heuristic value can never outrank a win found within the search depth.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tictactoe_tui.engine.board import Board

StopCheck = Callable[[], bool]
"""A search's `should_stop`: polled often; True ends the search at once."""


@dataclass(frozen=True)
class MoveScore:
    """The score of one legal move, from the point of view of the player making it."""

    move: int
    score: int
    nodes: int
    """Positions searched to score this move."""
    exact: bool
    """True when `score` is the game's true value after this move (not a heuristic or bound)."""
    pv: tuple[int, ...] = ()
    """The line the search expects after this move: `move` first, then the best replies."""


@dataclass(frozen=True)
class Progress:
    """A report from a running search: how far it got and what it thinks so far."""

    depth: int
    """Plies of the deepest completed iteration (0 before the first one completes)."""
    nodes: int
    """Positions searched so far."""
    elapsed: float
    """Seconds since the search started."""
    best_move: int | None
    """The best move found so far; None before any move was scored."""
    best_score: int
    """The score of `best_move`, from the side to move (0 while there is none)."""
    pv: tuple[int, ...]
    """The expected line after `best_move`, `best_move` first (empty while there is none)."""
    complete: bool = False
    """True when `best_score` is proven: the position is solved."""


ProgressCallback = Callable[[Progress], None]
"""Called with a `Progress` at least every 100 ms while a search runs and at each completed
depth; it runs on the searching thread, so it must be quick."""


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search from a position."""

    move: int | None
    """The best move found; None only when the game is already over."""
    score: int
    nodes: int
    elapsed: float
    """Seconds spent."""
    depth: int
    """Plies searched (of the deepest completed iteration); the empty cells when solved."""
    pv: tuple[int, ...]
    """The principal variation: `move` and the best replies the search knows."""
    complete: bool
    """True when the position was solved: `score` is exact."""
    cancelled: bool = False
    """True when `should_stop()` interrupted the search (the result is the last complete one)."""


@dataclass(frozen=True)
class Analysis:
    """Scores of every legal move of a position, best first, with totals."""

    algorithm: str
    scores: tuple[MoveScore, ...]
    nodes: int
    elapsed: float
    depth: int
    complete: bool
    cancelled: bool
    best_moves: tuple[int, ...] = ()
    """The moves ranked best and equally good (a player picks one of them). Left empty by the
    caller, it is every move sharing the first score and its exactness; a depth-limited search
    gives its own ties, since heuristic values are clamped into the bands and can look equal."""

    def __post_init__(self) -> None:
        if self.scores and not self.best_moves:
            top = self.scores[0]
            tied = tuple(m.move for m in self.scores
                         if (m.score, m.exact) == (top.score, top.exact))
            object.__setattr__(self, "best_moves", tied)


def win_score(board: Board) -> int:
    """W: a win on ply d scores W - d. 10 on 3x3, size*size + 1 in general."""
    return board.size * board.size + 1


def describe_score(score: int, board: Board, exact: bool | None = None) -> str:
    """Words for a score from the side to move: 'win in 3', 'draw', 'loss in 4', '+12 (heuristic)'.

    `exact` says whether the score is a game value; when it is not given, a score is read as a win
    or loss if its distance fits the empty cells and the turn order (wins land on odd plies,
    losses on even ones), as a draw if it is 0, and as a heuristic otherwise.
    """
    big = win_score(board)
    empties = board.size * board.size - board.move_count
    plies = big - abs(score)
    if exact is not False and score and 1 <= plies <= empties + 1:
        if score > 0 and plies % 2 == 1:
            return f"win in {plies}"
        if score < 0 and plies % 2 == 0:
            return f"loss in {plies}"
    if exact is not False and score == 0:
        return "draw"
    return f"{score:+d} (heuristic)"


def ranked(scores: list[MoveScore]) -> tuple[MoveScore, ...]:
    """Best first: proven wins, then estimates and draws, then proven losses; ties by cell.

    Within each group the score decides. A proven win outranks every estimate even when a
    clamped heuristic value is numerically higher than a long win's score.
    """
    def group(m: MoveScore) -> int:
        return 2 if m.exact and m.score > 0 else 0 if m.exact and m.score < 0 else 1
    return tuple(sorted(scores, key=lambda m: (-group(m), -m.score, m.move)))


def over_result(board: Board, start: float) -> SearchResult:
    """The result of a search from a finished game, seen from the side that would move: it lost
    on ply 0, or drew."""
    score = -win_score(board) if board.winner is not None else 0
    return SearchResult(move=None, score=score, nodes=1, elapsed=time.perf_counter() - start,
                        depth=0, pv=(), complete=True)
