"""`grade`: a learner's file judged against proven values, the report a course could hand out.

A learner's file (see `players.guest`) is graded on one board:

- **the contract**: it loads; it gives a legal move on every position (the first failure shown);
  it raises nothing; it prints nothing; it answers within its time; it gives the same answer
  twice for the same position (unless the file says `RANDOM = True`);
- **its moves against the proof**: over every reachable position with a move to make (4,520 on
  3×3; on boards too big to walk, a seeded sample of positions the engine solves exactly), how
  many of its moves keep the game's value (win, draw or loss) and how many are best by the
  depth-aware rule (a faster win, a slower loss), and the first position (fewest marks first)
  where it does worse, with the move it played, the best moves and the line that punishes it;
- **an evaluation's shape** (a file with `evaluate`): whether it gives the same value on the
  eight rotations and reflections of every 3×3 position, and how often its one-ply choice (the
  moves whose boards it scores highest) keeps the game's value, beside H1's and H2's figures;
- **matches**: wins, draws and losses against random, h1, h2 and alphabeta, G games with each
  colour, seeded.

A file with only `evaluate` is graded as the player it makes (win at once, else block, else its
best value: `learner.LearnerPlayer`); where that player could pick among tied moves, a position
counts as kept (or best) only when every tied move is. Every value the grade compares with is an
exact value from `analyse_position` (all moves of a graded position proven), never an estimate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeVar

from tictactoe_tui.engine.evaluation.heuristics import h1, h2, heuristic_pick
from tictactoe_tui.engine.players.computer import Decision, Player
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GuestCode, GuestFault, Provides
from tictactoe_tui.engine.players.learner import LearnerPlayer
from tictactoe_tui.engine.players.match import MatchPlan, PlayerSpec, run_match
from tictactoe_tui.engine.proofs.symmetry import board_images
from tictactoe_tui.engine.rules.board import Board, Mark, check_shape, default_k
from tictactoe_tui.engine.search.api import analyse_position
from tictactoe_tui.engine.search.limits import NO_LIMITS, Limits
from tictactoe_tui.engine.search.types import MoveScore

_T = TypeVar("_T")
_R = TypeVar("_R")

__all__ = [
    "MATCH_OPPONENTS",
    "Check",
    "GradeReport",
    "MatchLine",
    "OnePly",
    "Symmetry",
    "Worse",
    "grade",
    "graded_positions",
]

WALK_MAX_CELLS = 9
"""Boards of at most this many cells are walked whole (every reachable position)."""

SAMPLE = 200
"""Positions graded on a bigger board: a seeded sample of positions from random games."""

SOLVE_SECONDS = 2.0
"""The time the engine may take to prove one sampled position (a position it cannot prove in
it is not graded: the grade compares with proven values only)."""

BATCH = 500
"""Positions sent to the learner's process in one call."""

MAX_FAULTS = 5
"""Faults after which the grade stops asking the learner's code (the report says so)."""

MATCH_OPPONENTS = ("random", "h1", "h2", "alphabeta")
"""The players a learner's file plays its matches against."""

DEFAULT_GAMES = 10
"""Games with each colour against each opponent."""


@dataclass(frozen=True)
class Check:
    """One rule of the contract: kept or not, and what was seen."""

    name: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class Worse:
    """The first position where the learner's move does worse than the best."""

    position: Board
    played: MoveScore
    """The learner's move with its proven score (its `pv` is the line that punishes it)."""
    best: tuple[MoveScore, ...]
    """The best moves, each with its proven score."""


@dataclass(frozen=True)
class Symmetry:
    """An evaluation on the eight rotations and reflections of every position."""

    positions: int
    same: int
    """Positions on whose eight images it gives one value (for both players)."""
    first_different: Board | None = None


@dataclass(frozen=True)
class OnePly:
    """How often an evaluation's one-ply choice keeps the game's value."""

    name: str
    """"yours", "h1" or "h2"."""
    positions: int
    value_preserving: int


@dataclass(frozen=True)
class MatchLine:
    """Results against one opponent with one colour, from the learner's side."""

    against: str
    mark: Mark
    wins: int
    draws: int
    losses: int
    forfeits: int = 0
    """Games lost by a fault of the learner's code (counted among the losses)."""


@dataclass
class GradeReport:
    """Everything `grade` found (the JSON fields of `tictactoe-tui grade --json`)."""

    file: Path
    size: int
    k: int
    provides: Provides | None
    checks: list[Check] = field(default_factory=list)
    positions: int = 0
    exhaustive: bool = True
    """Every reachable position (True) or a sample (False)."""
    graded: int = 0
    """Positions whose move was judged (fewer than `positions` after too many faults)."""
    value_preserving: int = 0
    best: int = 0
    first_worse: Worse | None = None
    symmetry: Symmetry | None = None
    one_ply: list[OnePly] = field(default_factory=list)
    matches: list[MatchLine] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether every check of the contract passed."""
        return all(check.passed for check in self.checks)


# -- the positions ------------------------------------------------------------------------------


def _walk(board: Board, seen: dict[str, Board]) -> None:
    key = str(board)
    if key in seen:
        return
    seen[key] = board
    if not board.is_over:
        for move in board.legal_moves():
            _walk(board.play(move), seen)


def every_position(size: int, k: int) -> list[Board]:
    """Every reachable position of a small board, finished ones too, fewest marks first."""
    seen: dict[str, Board] = {}
    _walk(Board.empty(size=size, k=k), seen)
    return sorted(seen.values(), key=lambda b: (b.move_count, str(b)))


def _sampled(size: int, k: int, seed: int, count: int) -> Iterator[Board]:
    rng = random.Random(f"grade/{size}/{k}/{seed}")
    seen: set[str] = set()
    while len(seen) < count:
        board = Board.empty(size=size, k=k)
        for _ in range(rng.randint(0, size * size - 1)):
            if board.is_over:
                break
            board = board.play(rng.choice(board.legal_moves()))
        if not board.is_over and str(board) not in seen:
            seen.add(str(board))
            yield board


@dataclass(frozen=True)
class _Graded:
    """A position with every move's proven score."""

    board: Board
    scores: dict[int, MoveScore]
    best_score: int

    def kept(self, moves: Sequence[int]) -> bool:
        """Whether every one of `moves` keeps the position's value (win, draw or loss)."""
        sign = _sign(self.best_score)
        return all(_sign(self.scores[m].score) == sign for m in moves)

    def best(self, moves: Sequence[int]) -> bool:
        """Whether every one of `moves` is best by the depth-aware rule."""
        return all(self.scores[m].score == self.best_score for m in moves)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _proven(board: Board, time_limit: float | None) -> _Graded | None:
    analysis = analyse_position(board, time_limit=time_limit)
    if len(analysis.scores) != len(board.legal_moves()) or any(
        s.kind != "exact" for s in analysis.scores
    ):
        return None
    scores = {s.move: s for s in analysis.scores}
    return _Graded(board, scores, max(s.score for s in analysis.scores))


@cache
def graded_positions(size: int, k: int, seed: int = 0) -> tuple[tuple[_Graded, ...], bool]:
    """The positions a file is graded on, each with every move proven; and whether they are
    every reachable position (else a sample). Kept for the process: the same for every file."""
    if size * size <= WALK_MAX_CELLS:
        boards = [b for b in every_position(size, k) if not b.is_over]
        graded = [_proven(b, None) for b in boards]
        return tuple(g for g in graded if g is not None), True
    found: list[_Graded] = []
    for board in _sampled(size, k, seed, SAMPLE):
        proven = _proven(board, SOLVE_SECONDS)
        if proven is not None:
            found.append(proven)
    found.sort(key=lambda g: (g.board.move_count, str(g.board)))
    return tuple(found), False


# -- asking the learner's code ------------------------------------------------------------------


@dataclass
class _Asker:
    """Calls into the learner's code in batches, noting each fault and going on after it."""

    code: GuestCode
    faults: list[GuestFault] = field(default_factory=list)

    @property
    def given_up(self) -> bool:
        return len(self.faults) >= MAX_FAULTS

    def each(
        self, items: Sequence[_T], call: Callable[[Sequence[_T]], list[_R]]
    ) -> list[_R | None]:
        """`call` over every item in batches; None for an item it failed on (or never reached).

        A fault names the item it happened on: the items before it are asked again (the
        process was restarted and their answers lost with it), the item gets None, and the
        rest go on. A process that went without saying where is asked one item at a time.
        """
        answers: list[_R | None] = []
        start = 0
        while start < len(items) and not self.given_up:
            batch = items[start : start + BATCH]
            try:
                answers.extend(call(batch))
                start += len(batch)
                continue
            except GuestFault as fault:
                self.faults.append(fault)
                if fault.item is None:
                    failed = len(batch) if len(batch) == 1 else None
                else:
                    failed = fault.item
            if failed is None:
                singly: list[_R | None] = self._one_by_one(batch, call)
                answers += singly
                start += len(batch)
            else:
                before = min(failed, len(batch) - 1)
                redone: list[_R | None] = self.each(batch[:before], call)
                answers += [*redone, None]
                start += before + 1
        return answers + [None] * (len(items) - len(answers))

    def _one_by_one(
        self, batch: Sequence[_T], call: Callable[[Sequence[_T]], list[_R]]
    ) -> list[_R | None]:
        found: list[_R | None] = []
        for item in batch:
            if self.given_up:
                found.append(None)
                continue
            try:
                found.extend(call([item]))
            except GuestFault as fault:
                self.faults.append(fault)
                found.append(None)
        return found


# -- the grade ----------------------------------------------------------------------------------


def _choices(
    code: GuestCode, asker: _Asker, positions: list[_Graded], provides: Provides
) -> list[tuple[int, ...] | None]:
    """The moves the file's player may play in each position (None where it failed)."""
    boards = [g.board for g in positions]
    if provides.choose:
        moves = asker.each(boards, code.choose_many)
        return [None if m is None else (m,) for m in moves]
    values = _child_values(code, asker, boards)
    picks: list[tuple[int, ...] | None] = []
    for board, by_move in zip(boards, values, strict=True):
        if by_move is None:
            picks.append(None)
        else:
            picks.append(heuristic_pick(board, by_move.__getitem__).moves)
    return picks


def _child_values(
    code: GuestCode, asker: _Asker, boards: list[Board]
) -> list[dict[int, float] | None]:
    """The file's `evaluate` of the board after each legal move, from the mover's side."""
    items = [(b.play(m), b.to_move) for b in boards for m in b.legal_moves()]
    values = asker.each(items, code.evaluate_many)
    found: list[dict[int, float] | None] = []
    at = 0
    for board in boards:
        moves = board.legal_moves()
        chunk = values[at : at + len(moves)]
        at += len(moves)
        known = [v for v in chunk if v is not None]
        found.append(dict(zip(moves, known, strict=True)) if len(known) == len(moves) else None)
    return found


def _one_ply(name: str, positions: list[_Graded], values: list[dict[int, float] | None]) -> OnePly:
    kept = 0
    for graded, by_move in zip(positions, values, strict=True):
        if by_move is None:
            continue
        top = max(by_move.values())
        kept += graded.kept([m for m, v in by_move.items() if v == top])
    return OnePly(name, len(positions), kept)


def _heuristic_values(
    positions: list[_Graded], heuristic: Callable[[Board, Mark], int]
) -> list[dict[int, float] | None]:
    return [
        {m: float(heuristic(g.board.play(m), g.board.to_move)) for m in g.board.legal_moves()}
        for g in positions
    ]


def _symmetry(code: GuestCode, asker: _Asker, size: int, k: int) -> Symmetry:
    boards = every_position(size, k)
    images = [board_images(b) for b in boards]
    items = [(image, mark) for group in images for mark in Mark for image in group]
    values = asker.each(items, code.evaluate_many)
    same = 0
    first: Board | None = None
    width = 2 * len(images[0]) if images else 0
    for index, board in enumerate(boards):
        chunk = values[index * width : (index + 1) * width]
        half = len(chunk) // 2
        if None not in chunk and len(set(chunk[:half])) == 1 and len(set(chunk[half:])) == 1:
            same += 1
        elif first is None:
            first = board
    return Symmetry(len(boards), same, first)


class _SharedLearner:
    """One learner's player for every game of the grade's matches: one process, not one a game
    (the matches end foreign players with each game; this wrapper has no `close`)."""

    def __init__(self, player: LearnerPlayer) -> None:
        self.player = player
        self.name = player.name

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        return self.player.choose(board, limits)


def _matches(player: LearnerPlayer, size: int, k: int, games: int, seed: int) -> list[MatchLine]:
    lines = []
    for against in MATCH_OPPONENTS:
        shared = _SharedLearner(player)

        def factory(rng: random.Random, shared: Player = shared) -> Player:
            return shared

        factory.__name__ = player.name
        plan = MatchPlan(games=2 * games, size=size, k=k, seed=seed)
        result = run_match(factory, PlayerSpec.parse(against), plan)
        for mark in Mark:
            mine = [g for g in result.outcomes if g.x_mark is mark]
            wins = sum(g.winner is mark for g in mine)
            draws = sum(g.winner is None for g in mine)
            forfeits = sum(g.forfeit is not None and g.forfeit.side == "x" for g in mine)
            lines.append(MatchLine(against, mark, wins, draws, len(mine) - wins - draws, forfeits))
    return lines


def _contract(
    report: GradeReport, faults: list[GuestFault], same_twice: Check, graded: int
) -> list[Check]:
    kinds = {fault.kind for fault in faults}

    def first(*names: str) -> str:
        return next(f.reason for f in faults if f.kind in names)

    total = f"all {graded:,} positions" if graded else "no position"
    checks = [
        Check(
            "legal moves",
            not kinds & {"move", "type"},
            first("move", "type") if kinds & {"move", "type"} else f"a legal move on {total}",
        ),
        Check(
            "no exception",
            not kinds & {"exception", "memory", "crash"},
            first("exception", "memory", "crash")
            if kinds & {"exception", "memory", "crash"}
            else "nothing raised",
        ),
        Check(
            "prints nothing",
            "printed" not in kinds,
            first("printed") if "printed" in kinds else "nothing printed to stdout",
        ),
        Check(
            "within time",
            "timeout" not in kinds,
            first("timeout") if "timeout" in kinds else "every call answered in time",
        ),
        same_twice,
    ]
    if len(faults) >= MAX_FAULTS:
        checks.append(
            Check("graded", False, f"stopped after {MAX_FAULTS} faults: {report.graded} graded")
        )
    return checks


def grade(
    path: str | Path,
    size: int = 3,
    k: int | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME,
) -> GradeReport:
    """Grade the learner's file at `path` on a size×size board (see the module docstring)."""
    k = default_k(size) if k is None else k
    check_shape(size, k)
    code = GuestCode(path, time_limit)
    report = GradeReport(code.path, size, k, None)
    try:
        try:
            provides = code.provides()
        except GuestFault as fault:
            report.checks = [Check("loads", False, fault.reason)]
            return report
        report.provides = provides
        _grade_moves(report, code, provides, seed)
        if provides.evaluate and size * size <= WALK_MAX_CELLS and report.passed:
            asker = _Asker(code)
            report.symmetry = _symmetry(code, asker, size, k)
        if report.passed:
            player = LearnerPlayer(code.path, random.Random(seed), time_limit)
            try:
                report.matches = _matches(player, size, k, games, seed)
            finally:
                player.close()
        return report
    finally:
        code.close()


def _grade_moves(report: GradeReport, code: GuestCode, provides: Provides, seed: int) -> None:
    graded_list, report.exhaustive = graded_positions(report.size, report.k, seed)
    positions = list(graded_list)
    report.positions = len(positions)
    asker = _Asker(code)
    first = _choices(code, asker, positions, provides)
    same = Check("same answer twice", True, "declared random (RANDOM = True): not checked")
    if not provides.random:
        second = _choices(code, asker, positions, provides)
        differs = next(
            (g for g, a, b in zip(positions, first, second, strict=True) if a and b and a != b),
            None,
        )
        same = Check(
            "same answer twice",
            differs is None,
            "the same move each time"
            if differs is None
            else f"two different moves on {differs.board} (a random player says RANDOM = True)",
        )
    for graded, moves in zip(positions, first, strict=True):
        if moves is None:
            continue
        report.graded += 1
        report.value_preserving += graded.kept(moves)
        is_best = graded.best(moves)
        report.best += is_best
        if not is_best and report.first_worse is None:
            worst = min(moves, key=lambda m: graded.scores[m].score)
            best = tuple(s for s in graded.scores.values() if s.score == graded.best_score)
            report.first_worse = Worse(graded.board, graded.scores[worst], best)
    if provides.evaluate:
        values = _child_values(code, asker, [g.board for g in positions])
        report.one_ply = [
            _one_ply("yours", positions, values),
            _one_ply("h1", positions, _heuristic_values(positions, h1)),
            _one_ply("h2", positions, _heuristic_values(positions, h2)),
        ]
    report.checks = [
        Check("loads", True, _defines(provides)),
        *_contract(report, asker.faults, same, report.graded),
    ]


def _defines(provides: Provides) -> str:
    names = [n for n, has in (("evaluate", provides.evaluate), ("choose", provides.choose)) if has]
    return "defines " + " and ".join(f"{n}()" for n in names)
