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
from enum import StrEnum

from tictactoe_tui.engine.rules.board import Board


class Algorithm(StrEnum):
    """The engine's ways of choosing a move, by the names the command line and the history use.

    A member is its name (`Algorithm.ALPHABETA == "alphabeta"`), so plain strings still work
    wherever a name is read from a flag or a file."""

    RANDOM = "random"
    H1 = "h1"
    H2 = "h2"
    MINIMAX = "minimax"
    ALPHABETA = "alphabeta"


StopCheck = Callable[[], bool]
"""A search's `should_stop`: polled often; True ends the search at once."""


KINDS = ("exact", "estimate", "at_most", "at_least")
"""What a score says about the move's value (`MoveScore.kind`):

- "exact": the game's value after the move (a "win/loss in N" distance is exact);
- "estimate": the value a depth-limited search gives the move (a heuristic at its leaves);
- "at_most": the value is at most the score; "at_least": at least the score. Which value: the
  game's when the bound is a proof (`MoveScore.proven`), else the depth-limited search's.
"""

SOURCES = ("search", "table", "symmetry", "threats", "rule")
"""Where a score came from (`MoveScore.source`): a search of the move; a transposition table
(the move's position was already known); the move's mirror image under a symmetry of the
position (`MoveScore.twin`); a threat search (VCF / VCT, `MoveScore.rule`); a rule of the game
that is a proof (`MoveScore.rule`)."""

BANDS = ("win", "loss", "draw", "heuristic")
"""What the number of a score is (`MoveScore.band`): a win's score `W - d` (a win on ply d), a
loss's `-(W - d)`, a draw's 0 as a game value, or a heuristic's value."""

RULE_WINS_AT_ONCE = "wins at once"
"""The move completes a line: a win in 1."""
RULE_TWO_FOURS = "two fours"
"""The opponent has two winning cells and the move completes no line: a loss in 2."""
RULE_LEAVES_A_FOUR = "leaves a four"
"""The opponent has one winning cell and the move neither takes it nor wins: a loss in 2."""
RULE_DOUBLE_THREAT = "double threat"
"""The move makes two winning cells while the opponent has none: a win in 3."""
RULE_LEAVES_A_DOUBLE = "leaves a double"
"""The opponent has a double (a cell making two winning cells) that the move neither stops nor
answers with a four: a loss in 4."""
RULE_FILLS_THE_BOARD = "fills the board"
"""The move takes the last empty cell without completing a line: a draw."""
RULE_VCF = "vcf"
"""A threat search found a win by continuous fours from this move (`pv` is its line)."""
RULE_VCT = "vct"
"""A threat search found a win by continuous threats (fours and threes) from this move."""
RULE_ALLOWS_VCF = "allows vcf"
"""After the move the opponent still wins by continuous fours (`pv`: the move, then its line)."""
RULE_ALLOWS_VCT = "allows vct"
"""After the move the opponent still wins by continuous threats."""
RULE_FOUR_THEN_LOST = "four then lost"
"""The move makes a four, and after its forced block every move loses to the opponent's threat
wins (`pv`: the move, the block, the most stubborn move, the opponent's line)."""
GAME_RULES = (
    RULE_WINS_AT_ONCE,
    RULE_TWO_FOURS,
    RULE_LEAVES_A_FOUR,
    RULE_DOUBLE_THREAT,
    RULE_LEAVES_A_DOUBLE,
    RULE_FILLS_THE_BOARD,
)
"""The rules of source "rule": each is a proof of the exact value it gives."""
THREAT_RULES = (RULE_VCF, RULE_VCT, RULE_ALLOWS_VCF, RULE_ALLOWS_VCT, RULE_FOUR_THEN_LOST)
"""The rules of source "threats": each proves a win or a loss within its line's length."""
RULES = GAME_RULES + THREAT_RULES
"""Every `MoveScore.rule`."""


@dataclass(frozen=True)
class MoveScore:
    """The score of one legal move, from the point of view of the player making it.

    `score` is a number on the public scale; `kind` says what it is (see `KINDS`), `band` what
    sort of number it is (see `BANDS`), `depth` how deep the search below the move went and
    `source` where it came from. Built with only the first four fields (as older code does),
    `kind` follows `exact`: "exact" or "estimate".
    """

    move: int
    score: int
    nodes: int
    """Positions searched to score this move (0 when a rule, the table or a twin settled it)."""
    exact: bool
    """True exactly when `kind == "exact"`: `score` is the game's value after this move."""
    pv: tuple[int, ...] = ()
    """The line the search expects after this move: `move` first, then the best replies. For
    source "threats" or "rule" it is the forcing line that proves the verdict."""
    kind: str = ""
    """One of `KINDS`; left empty, "exact" if `exact` else "estimate"."""
    depth: int = 0
    """Plies searched below this move (the move itself not counted): 0 for a rule, a threat
    search or a one-ply look; the plies left in the game after the move for an exact solve;
    for a table answer, the depth of the search that left the entry."""
    source: str = "search"
    """One of `SOURCES`."""
    band: str = ""
    """One of `BANDS`; left empty, read from `score` when exact and "heuristic" otherwise."""
    rule: str = ""
    """For source "rule" or "threats": which one of `RULES` decided (else empty)."""
    twin: int | None = None
    """For source "symmetry": the cell whose mirror image this move is; its search settled both."""

    def __post_init__(self) -> None:
        kind = self.kind or ("exact" if self.exact else "estimate")
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}: use one of {', '.join(KINDS)}")
        if self.exact != (kind == "exact"):
            raise ValueError(f"exact={self.exact} contradicts kind {kind!r}")
        band = self.band or (_band_of(self.score) if kind == "exact" else "heuristic")
        if band not in BANDS:
            raise ValueError(f"unknown band {band!r}: use one of {', '.join(BANDS)}")
        if kind == "exact" and band == "heuristic":
            raise ValueError("an exact score is a game value, not a heuristic")
        if self.source not in SOURCES:
            raise ValueError(f"unknown source {self.source!r}: use one of {', '.join(SOURCES)}")
        if self.depth < 0:
            raise ValueError(f"depth must be at least 0, not {self.depth}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "band", band)

    @property
    def proven(self) -> bool:
        """True when the claim holds for the game itself, not only for a depth-limited search:
        an exact value, a proven win (at least a win's score), a proven loss (at most a loss's
        score), or a draw proven as a bound (at most / at least a draw)."""
        if self.kind == "exact":
            return True
        if self.kind == "at_least":
            return self.band in ("win", "draw")
        if self.kind == "at_most":
            return self.band in ("loss", "draw")
        return False

    @property
    def outcome(self) -> str | None:
        """The proven result of the move: "win", "loss" or "draw"; None while it is unproven."""
        if self.kind in ("exact", "at_least") and self.band == "win":
            return "win"
        if self.kind in ("exact", "at_most") and self.band == "loss":
            return "loss"
        if self.kind == "exact" and self.band == "draw":
            return "draw"
        return None

    def at_most_draw(self) -> bool:
        """True when the move is proven not to win."""
        return self.proven and self.kind in ("exact", "at_most") and self.score <= 0

    def at_least_draw(self) -> bool:
        """True when the move is proven not to lose."""
        return self.proven and self.kind in ("exact", "at_least") and self.score >= 0


def _band_of(score: int) -> str:
    """The band of a game value."""
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def value_key(score: int, band: str) -> tuple[int, int]:
    """A score in the engine's order of values: every loss below every heuristic value, every
    win above, whatever the numbers (a long win's `W - d` can be below a heuristic's value)."""
    return (2 if band == "win" else 0 if band == "loss" else 1, score)


_KIND_ORDER = {"exact": 3, "estimate": 2, "at_least": 1, "at_most": 0}
"""Among equal numbers, the better known first."""


def rank_key(score: MoveScore) -> tuple[int, tuple[int, int], int]:
    """Sort key, bigger is better: proven wins, then the rest, then proven losses; within each
    group the engine's order of values; among equal values an exact one, then an estimate,
    then a lower bound, then an upper bound."""
    outcome = score.outcome
    group = 2 if outcome == "win" else 0 if outcome == "loss" else 1
    return group, value_key(score.score, score.band), _KIND_ORDER[score.kind]


def equally_good(a: MoveScore, b: MoveScore) -> bool:
    """True when both values are known and equal: the same exact value, or the same estimate
    from the same depth (a bound is never known to equal anything)."""
    if a.kind == b.kind == "exact":
        return a.score == b.score
    return a.kind == b.kind == "estimate" and (a.score, a.band, a.depth) == (
        b.score,
        b.band,
        b.depth,
    )


def proven_best(scores: tuple[MoveScore, ...] | list[MoveScore]) -> bool:
    """True when the first of `scores` (every legal move, ranked) is proven best: a proven win;
    a proven draw where every other move is proven not to win; or every move a proven loss."""
    if not scores:
        return False
    top = scores[0]
    if top.outcome == "win":
        return True
    if top.outcome == "draw":
        return all(other.at_most_draw() for other in scores[1:])
    return all(other.outcome == "loss" for other in scores)


@dataclass(frozen=True)
class IterationInfo:
    """One completed step of a search, like a chess engine's `info` line: after each depth of
    iterative deepening (or once for a search made in one go), what the search thought."""

    depth: int
    """Plies searched from the position (the step's depth)."""
    move: int
    """The best move after this step."""
    score: int
    kind: str
    """What `score` is (see `KINDS`)."""
    band: str
    """What sort of number `score` is (see `BANDS`)."""
    nodes: int
    """Positions searched so far, over all steps."""
    elapsed: float
    """Seconds since the search started."""
    pv: tuple[int, ...] = ()
    """The expected line after `move`, `move` first."""
    source: str = "search"
    """Where the best move's score came from (see `SOURCES`)."""
    complete: bool = False
    """True when the best move was proven best at this step."""


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
    """True when `best_move` is proven best (see `proven_best`): the position is decided."""
    kind: str = "estimate"
    """What `best_score` is (see `KINDS`)."""
    band: str = "heuristic"
    """What sort of number `best_score` is (see `BANDS`)."""
    iterations: tuple[IterationInfo, ...] = ()
    """The completed steps so far, first to last (see `IterationInfo`)."""


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
    """True when `move` is proven best: a proven win, a proven draw no other move can beat, or
    every move a proven loss. `score` is then exact unless `kind` says it is a bound on a win's
    or a loss's distance."""
    cancelled: bool = False
    """True when `should_stop()` interrupted the search (the result is the last complete one)."""
    kind: str = ""
    """What `score` is (see `KINDS`); left empty, "exact" when complete, else "estimate"."""
    band: str = ""
    """What sort of number `score` is (see `BANDS`); left empty, read from `kind` and `score`."""
    iterations: tuple[IterationInfo, ...] = ()
    """The search's steps, first to last (see `IterationInfo`)."""

    def __post_init__(self) -> None:
        kind = self.kind or ("exact" if self.complete else "estimate")
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}: use one of {', '.join(KINDS)}")
        band = self.band or (_band_of(self.score) if kind == "exact" else "heuristic")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "band", band)


@dataclass(frozen=True)
class Analysis:
    """Scores of every legal move of a position, best first, with totals."""

    algorithm: str
    scores: tuple[MoveScore, ...]
    nodes: int
    elapsed: float
    depth: int
    """Plies searched from the position (of the deepest completed iteration); a move's own
    `MoveScore.depth` counts the plies below it, so `depth - 1` for a move searched in full."""
    complete: bool
    """True when the first move is proven best (see `proven_best`)."""
    cancelled: bool
    best_moves: tuple[int, ...] = ()
    """The moves ranked best and known to be equally good (a player picks one of them). Left
    empty by the caller, it is every move `equally_good` as the first one (a bound is only
    equal to itself); a depth-limited search gives its own ties, since heuristic values are
    clamped into the bands and can look equal."""
    iterations: tuple[IterationInfo, ...] = ()
    """The search's steps, first to last: one per completed depth of iterative deepening, one
    for a search made in one go (see `IterationInfo`)."""

    def __post_init__(self) -> None:
        if self.scores and not self.best_moves:
            top = self.scores[0]
            tied = (top.move, *(m.move for m in self.scores[1:] if equally_good(m, top)))
            object.__setattr__(self, "best_moves", tied)


def win_score(board: Board) -> int:
    """W: a win on ply d scores W - d. 10 on 3x3, size*size + 1 in general."""
    return board.size * board.size + 1


def plies_of(score: int, board: Board) -> int:
    """The ply a win's or a loss's score lands on: d for `W - d` and `-(W - d)`."""
    return win_score(board) - abs(score)


def describe_score(
    score: int,
    board: Board,
    exact: bool | None = None,
    kind: str | None = None,
    band: str | None = None,
) -> str:
    """Words for a score from the side to move: "win in 3", "draw", "loss in 4",
    "wins, in at most 15", "+12 (heuristic)", "at most -3 (heuristic)".

    `kind` (see `KINDS`) says what the number is, `band` (see `BANDS`) what sort of number; with
    neither `kind` nor `exact` a score is read as a heuristic estimate (a number alone cannot
    say it is proven: a heuristic's value can equal a win's score). `exact=True` alone reads the
    number as a game value, `exact=False` alone as an estimate.
    """
    kind = kind or ("exact" if exact else "estimate")
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}: use one of {', '.join(KINDS)}")
    if not band:
        band = _band_of(score) if kind == "exact" else "heuristic"
    plies = plies_of(score, board)
    if kind == "exact":
        if band == "win":
            return f"win in {plies}"
        if band == "loss":
            return f"loss in {plies}"
        return "draw" if score == 0 else f"{score:+d}"
    if kind == "estimate":
        return f"{score:+d} (heuristic)"
    if kind == "at_least":
        if band == "win":
            return f"wins, in at most {plies}"
        if band == "draw":
            return "draw or better"
        if band == "loss":
            return f"no loss before ply {plies}"
        return f"at least {score:+d} (heuristic)"
    if band == "loss":
        return f"loses, in at most {plies}"
    if band == "draw":
        return "draw at best"
    if band == "win":
        return f"no win before ply {plies}"
    return f"at most {score:+d} (heuristic)"


def ranked(scores: list[MoveScore]) -> tuple[MoveScore, ...]:
    """Best first (see `rank_key`): proven wins, then estimates, bounds and draws, then proven
    losses; ties by cell.

    A proven win outranks every estimate even when a clamped heuristic value is numerically
    higher than a long win's score, and a proven win whose distance is only bounded is still a
    proven win.
    """
    by_cell = sorted(scores, key=lambda m: m.move)
    return tuple(sorted(by_cell, key=rank_key, reverse=True))


def over_result(board: Board, start: float) -> SearchResult:
    """The result of a search from a finished game, seen from the side that would move: it lost
    on ply 0, or drew."""
    score = -win_score(board) if board.winner is not None else 0
    return SearchResult(
        move=None,
        score=score,
        nodes=1,
        elapsed=time.perf_counter() - start,
        depth=0,
        pv=(),
        complete=True,
    )
