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
from typing import TypeVar

from tictactoe_tui.engine.rules.board import Board, Geometry


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


class Kind(StrEnum):
    """What a score says about the move's value (`MoveScore.kind`). A member is its string
    (`Kind.EXACT == "exact"`), so JSON fields and comparisons with strings keep working."""

    EXACT = "exact"
    """The game's value after the move (a "win/loss in N" distance is exact)."""
    ESTIMATE = "estimate"
    """The value a depth-limited search gives the move (a heuristic at its leaves)."""
    AT_MOST = "at_most"
    """The value is at most the score: the game's when the bound is a proof
    (`MoveScore.proven`), else the depth-limited search's."""
    AT_LEAST = "at_least"
    """The value is at least the score (the game's, or the search's, as for `AT_MOST`)."""


class Source(StrEnum):
    """Where a score came from (`MoveScore.source`)."""

    SEARCH = "search"
    """A search of the move."""
    TABLE = "table"
    """A transposition table: the move's position was already known."""
    SYMMETRY = "symmetry"
    """The move's mirror image under a symmetry of the position (`MoveScore.twin`)."""
    THREATS = "threats"
    """A threat search (VCF / VCT, `MoveScore.rule`)."""
    RULE = "rule"
    """A rule of the game that is a proof, or the opening rule (`MoveScore.rule`)."""


class Band(StrEnum):
    """What sort of number a score is (`MoveScore.band`)."""

    WIN = "win"
    """A win's score `W - d` (a win on ply d)."""
    LOSS = "loss"
    """A loss's score `-(W - d)`."""
    DRAW = "draw"
    """A draw's 0, as a game value."""
    HEURISTIC = "heuristic"
    """A heuristic's value."""


class Rule(StrEnum):
    """Which rule or threat search decided a score of source "rule" or "threats"
    (`MoveScore.rule`)."""

    WINS_AT_ONCE = "wins at once"
    """The move completes a line: a win in 1."""
    TWO_FOURS = "two fours"
    """The opponent has two winning cells and the move completes no line: a loss in 2."""
    LEAVES_A_FOUR = "leaves a four"
    """The opponent has one winning cell and the move neither takes it nor wins: a loss in 2."""
    DOUBLE_THREAT = "double threat"
    """The move makes two winning cells while the opponent has none: a win in 3."""
    LEAVES_A_DOUBLE = "leaves a double"
    """The opponent has a double (a cell making two winning cells) that the move neither stops
    nor answers with a four: a loss in 4."""
    FILLS_THE_BOARD = "fills the board"
    """The move takes the last empty cell without completing a line: a draw."""
    VCF = "vcf"
    """A threat search found a win by continuous fours from this move (`pv` is its line)."""
    VCT = "vct"
    """A threat search found a win by continuous threats (fours and threes) from this move."""
    ALLOWS_VCF = "allows vcf"
    """After the move the opponent still wins by continuous fours (`pv`: the move, then its
    line)."""
    ALLOWS_VCT = "allows vct"
    """After the move the opponent still wins by continuous threats."""
    FOUR_THEN_LOST = "four then lost"
    """The move makes a four, and after its forced block every move loses to the opponent's
    threat wins (`pv`: the move, the block, the most stubborn move, the opponent's line)."""
    CENTRE_OPENING = "centre opening"
    """The opening rule (`players.opening`) chose the centre of an empty big board: a rule of
    play, not a proof (its score is an estimate)."""


KINDS = tuple(Kind)
"""Every `MoveScore.kind` (see `Kind`)."""

SOURCES = tuple(Source)
"""Every `MoveScore.source` (see `Source`)."""

BANDS = tuple(Band)
"""Every `MoveScore.band` (see `Band`)."""

GAME_RULES = (
    Rule.WINS_AT_ONCE,
    Rule.TWO_FOURS,
    Rule.LEAVES_A_FOUR,
    Rule.DOUBLE_THREAT,
    Rule.LEAVES_A_DOUBLE,
    Rule.FILLS_THE_BOARD,
)
"""The rules of source "rule" that are proofs: each gives the exact value."""
THREAT_RULES = (Rule.VCF, Rule.VCT, Rule.ALLOWS_VCF, Rule.ALLOWS_VCT, Rule.FOUR_THEN_LOST)
"""The rules of source "threats": each proves a win or a loss within its line's length."""
RULES = tuple(Rule)
"""Every `MoveScore.rule`."""

_E = TypeVar("_E", Kind, Source, Band, Rule, Algorithm)


def member(vocabulary: type[_E], value: str, what: str) -> _E:
    """`value` as a member of `vocabulary` (a member already is one; so is its string), or a
    ValueError naming `what` and the words it could be."""
    try:
        return vocabulary(value)
    except ValueError:
        words = ", ".join(vocabulary)
        raise ValueError(f"unknown {what} {value!r}: use one of {words}") from None


@dataclass(frozen=True, init=False)
class MoveScore:
    """The score of one legal move, from the point of view of the player making it.

    `score` is a number on the public scale; `kind` says what it is (see `Kind`), `band` what
    sort of number it is (see `Band`), `depth` how deep the search below the move went and
    `source` where it came from. `exact` is no field of its own: it is true exactly when
    `kind` is `Kind.EXACT`. Built with only the first four arguments (as older code does), the
    kind follows `exact`: exact or an estimate; given both, they must agree. Strings are read
    as the vocabulary's members ("at_most" is `Kind.AT_MOST`), and an empty rule as none.
    """

    move: int
    score: int
    nodes: int
    """Positions searched to score this move (0 when a rule, the table or a twin settled it)."""
    pv: tuple[int, ...]
    """The line the search expects after this move: `move` first, then the best replies. For
    source "threats" or "rule" it is the forcing line that proves the verdict."""
    kind: Kind
    """What the number says about the move's value."""
    depth: int
    """Plies searched below this move (the move itself not counted): 0 for a rule, a threat
    search or a one-ply look; the plies left in the game after the move for an exact solve;
    for a table answer, the depth of the search that left the entry."""
    source: Source
    """Where the score came from."""
    band: Band
    """What sort of number `score` is; by default read from `score` when exact, else
    heuristic."""
    rule: Rule | None
    """For source "rule" or "threats": which rule decided (else None)."""
    twin: int | None
    """For source "symmetry": the cell whose mirror image this move is; its search settled both."""

    def __init__(
        self,
        move: int,
        score: int,
        nodes: int,
        exact: bool | None = None,
        pv: tuple[int, ...] = (),
        kind: Kind | None = None,
        depth: int = 0,
        source: Source = Source.SEARCH,
        band: Band | None = None,
        rule: Rule | None = None,
        twin: int | None = None,
    ) -> None:
        """A move's score; see the class docstring for how `exact`, `kind` and `band` meet."""
        if kind is None:
            if exact is None:
                raise ValueError("a score needs its kind (or exact=True/False)")
            kind = Kind.EXACT if exact else Kind.ESTIMATE
        kind = member(Kind, kind, "kind")
        if exact is not None and exact != (kind is Kind.EXACT):
            raise ValueError(f"exact={exact} contradicts kind {kind.value!r}")
        band = (
            member(Band, band, "band")
            if band
            else band_of(score)
            if kind is Kind.EXACT
            else Band.HEURISTIC
        )
        if kind is Kind.EXACT and band is Band.HEURISTIC:
            raise ValueError("an exact score is a game value, not a heuristic")
        if depth < 0:
            raise ValueError(f"depth must be at least 0, not {depth}")
        settle = object.__setattr__
        settle(self, "move", move)
        settle(self, "score", score)
        settle(self, "nodes", nodes)
        settle(self, "pv", pv)
        settle(self, "kind", kind)
        settle(self, "depth", depth)
        settle(self, "source", member(Source, source, "source"))
        settle(self, "band", band)
        settle(self, "rule", member(Rule, rule, "rule") if rule else None)
        settle(self, "twin", twin)

    @property
    def exact(self) -> bool:
        """True exactly when `kind` is `Kind.EXACT`: `score` is the game's value after this
        move."""
        return self.kind is Kind.EXACT

    @property
    def proven(self) -> bool:
        """True when the claim holds for the game itself, not only for a depth-limited search:
        an exact value, a proven win (at least a win's score), a proven loss (at most a loss's
        score), or a draw proven as a bound (at most / at least a draw)."""
        if self.kind is Kind.EXACT:
            return True
        if self.kind is Kind.AT_LEAST:
            return self.band in (Band.WIN, Band.DRAW)
        if self.kind is Kind.AT_MOST:
            return self.band in (Band.LOSS, Band.DRAW)
        return False

    @property
    def outcome(self) -> Band | None:
        """The proven result of the move: a win, a loss or a draw (`Band.WIN`, `LOSS`,
        `DRAW`); None while it is unproven."""
        if self.kind in (Kind.EXACT, Kind.AT_LEAST) and self.band is Band.WIN:
            return Band.WIN
        if self.kind in (Kind.EXACT, Kind.AT_MOST) and self.band is Band.LOSS:
            return Band.LOSS
        if self.kind is Kind.EXACT and self.band is Band.DRAW:
            return Band.DRAW
        return None

    def at_most_draw(self) -> bool:
        """True when the move is proven not to win."""
        return self.proven and self.kind in (Kind.EXACT, Kind.AT_MOST) and self.score <= 0

    def at_least_draw(self) -> bool:
        """True when the move is proven not to lose."""
        return self.proven and self.kind in (Kind.EXACT, Kind.AT_LEAST) and self.score >= 0


def band_of(score: int) -> Band:
    """The band of a game value: a win, a loss or a draw."""
    return Band.WIN if score > 0 else Band.LOSS if score < 0 else Band.DRAW


def value_key(score: int, band: Band) -> tuple[int, int]:
    """A score in the engine's order of values: every loss below every heuristic value, every
    win above, whatever the numbers (a long win's `W - d` can be below a heuristic's value)."""
    return (2 if band is Band.WIN else 0 if band is Band.LOSS else 1, score)


_KIND_ORDER = {Kind.EXACT: 3, Kind.ESTIMATE: 2, Kind.AT_LEAST: 1, Kind.AT_MOST: 0}
"""Among equal numbers, the better known first."""


def rank_key(score: MoveScore) -> tuple[int, tuple[int, int], int]:
    """Sort key, bigger is better: proven wins, then the rest, then proven losses; within each
    group the engine's order of values; among equal values an exact one, then an estimate,
    then a lower bound, then an upper bound."""
    outcome = score.outcome
    group = 2 if outcome is Band.WIN else 0 if outcome is Band.LOSS else 1
    return group, value_key(score.score, score.band), _KIND_ORDER[score.kind]


def same_estimate(a: MoveScore, b: MoveScore) -> bool:
    """True when two moves score the same estimate: the same heuristic number from a search of
    the same depth below them (equal by the heuristic, not proven equal; estimates of different
    depths are different measurements)."""
    return a.kind is b.kind is Kind.ESTIMATE and (a.score, a.band, a.depth) == (
        b.score,
        b.band,
        b.depth,
    )


def equally_good(a: MoveScore, b: MoveScore) -> bool:
    """True when both values are known and equal: the same exact value, or the same estimate
    (`same_estimate`; a bound is never known to equal anything)."""
    if a.kind is b.kind is Kind.EXACT:
        return a.score == b.score
    return same_estimate(a, b)


def proven_best(scores: tuple[MoveScore, ...] | list[MoveScore]) -> bool:
    """True when the first of `scores` (every legal move, ranked) is proven best: a proven win;
    a proven draw where every other move is proven not to win; or every move a proven loss."""
    if not scores:
        return False
    top = scores[0]
    if top.outcome is Band.WIN:
        return True
    if top.outcome is Band.DRAW:
        return all(other.at_most_draw() for other in scores[1:])
    return all(other.outcome is Band.LOSS for other in scores)


@dataclass(frozen=True)
class IterationInfo:
    """One completed step of a search, like a chess engine's `info` line: after each depth of
    iterative deepening (or once for a search made in one go), what the search thought.

    Strings given for `kind`, `band` and `source` are read as their members."""

    depth: int
    """Plies searched from the position (the step's depth)."""
    move: int
    """The best move after this step."""
    score: int
    kind: Kind
    """What `score` is."""
    band: Band
    """What sort of number `score` is."""
    nodes: int
    """Positions searched so far, over all steps."""
    elapsed: float
    """Seconds since the search started."""
    pv: tuple[int, ...] = ()
    """The expected line after `move`, `move` first."""
    source: Source = Source.SEARCH
    """Where the best move's score came from."""
    complete: bool = False
    """True when the best move was proven best at this step."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", member(Kind, self.kind, "kind"))
        object.__setattr__(self, "band", member(Band, self.band, "band"))
        object.__setattr__(self, "source", member(Source, self.source, "source"))


@dataclass(frozen=True)
class Progress:
    """A report from a running search: how far it got and what it thinks so far.

    Strings given for `kind` and `band` are read as their members."""

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
    kind: Kind = Kind.ESTIMATE
    """What `best_score` is."""
    band: Band = Band.HEURISTIC
    """What sort of number `best_score` is."""
    iterations: tuple[IterationInfo, ...] = ()
    """The completed steps so far, first to last (see `IterationInfo`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", member(Kind, self.kind, "kind"))
        object.__setattr__(self, "band", member(Band, self.band, "band"))


ProgressCallback = Callable[[Progress], None]
"""Called with a `Progress` at least every 100 ms while a search runs and at each completed
depth; it runs on the searching thread, so it must be quick."""


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search from a position (strings given for `kind` and `band` are read
    as their members)."""

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
    kind: Kind = Kind.ESTIMATE
    """What `score` is."""
    band: Band = Band.HEURISTIC
    """What sort of number `score` is."""
    iterations: tuple[IterationInfo, ...] = ()
    """The search's steps, first to last (see `IterationInfo`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", member(Kind, self.kind, "kind"))
        object.__setattr__(self, "band", member(Band, self.band, "band"))


@dataclass(frozen=True)
class Analysis:
    """Scores of every legal move of a position, best first, with totals."""

    algorithm: Algorithm
    """The algorithm that scored the moves (a string is read as its member)."""
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
        object.__setattr__(self, "algorithm", member(Algorithm, self.algorithm, "algorithm"))
        if self.scores and not self.best_moves:
            top = self.scores[0]
            tied = (top.move, *(m.move for m in self.scores[1:] if equally_good(m, top)))
            object.__setattr__(self, "best_moves", tied)


def win_score(board: Board | Geometry) -> int:
    """W: a win on ply d scores W - d. 10 on 3x3, size*size + 1 in general (the one definition:
    the searches' tables take theirs from here, `kernel.Shape.win`)."""
    return board.size * board.size + 1


def plies_of(score: int, board: Board) -> int:
    """The ply a win's or a loss's score lands on: d for `W - d` and `-(W - d)`."""
    return win_score(board) - abs(score)


def describe_score(
    score: int,
    board: Board,
    exact: bool | None = None,
    kind: Kind | None = None,
    band: Band | None = None,
) -> str:
    """Words for a score from the side to move: "win in 3", "draw", "loss in 4",
    "wins, in at most 15", "+12 (heuristic)", "at most -3 (heuristic)".

    `kind` says what the number is, `band` what sort of number (strings are read as their
    members); with neither `kind` nor `exact` a score is read as a heuristic estimate (a number
    alone cannot say it is proven: a heuristic's value can equal a win's score). `exact=True`
    alone reads the number as a game value, `exact=False` alone as an estimate.
    """
    kind = member(Kind, kind, "kind") if kind else Kind.EXACT if exact else Kind.ESTIMATE
    if band:
        band = member(Band, band, "band")
    else:
        band = band_of(score) if kind is Kind.EXACT else Band.HEURISTIC
    plies = plies_of(score, board)
    if kind is Kind.EXACT:
        if band is Band.WIN:
            return f"win in {plies}"
        if band is Band.LOSS:
            return f"loss in {plies}"
        return "draw" if score == 0 else f"{score:+d}"
    if kind is Kind.ESTIMATE:
        return f"{score:+d} (heuristic)"
    if kind is Kind.AT_LEAST:
        if band is Band.WIN:
            return f"wins, in at most {plies}"
        if band is Band.DRAW:
            return "draw or better"
        if band is Band.LOSS:
            return f"no loss before ply {plies}"
        return f"at least {score:+d} (heuristic)"
    if band is Band.LOSS:
        return f"loses, in at most {plies}"
    if band is Band.DRAW:
        return "draw at best"
    if band is Band.WIN:
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
        kind=Kind.EXACT,
        band=band_of(score),
    )
