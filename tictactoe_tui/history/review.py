"""Reviewing a played game: every position analysed, every move judged, the evaluation over time.

A `GameReview` holds the positions of a `PlayedGame` (position i is the board after i moves) and,
as they arrive, an alpha-beta `Analysis` of each one that is not over: exact on 3×3 (the game is
solved from every position), under `REVIEW_BUDGET` seconds a position on bigger boards. From those
it judges each move by comparing the played move's score with the best move's score in the
position it was played from, both seen from the player who moved:

- **best**: the move the analysis ranks first, or one its scores prove as good (an exact value
  or a lower bound reaching the first's exact value or upper bound), or one scoring the same
  estimate; a move whose score only reaches the first's number (a bound equal to an estimate)
  is **good**.
- With exact values (3×3, or any proven result on a bigger board), the game's value is what
  counts: a win thrown to a draw is a **mistake** (`?`); a draw or a win thrown to a loss is a
  **blunder** (`??`); keeping the same value but winning more slowly (or losing sooner, which
  gives the opponent fewer chances to go wrong) is an **inaccuracy** (`?!`).
- With heuristic estimates (a bigger board cut off by the time budget), the drop from the best
  score in H1 points (a line of n of your marks and none of the opponent's is worth 3^(n-1)):
  at least `INACCURACY_DROP` (3, one more two-in-a-row for the opponent) is an inaccuracy, at
  least `MISTAKE_DROP` (9) a mistake, at least `BLUNDER_DROP` (27) a blunder; a smaller drop is
  **good**. A move into a proven loss is a blunder and a move that misses a proven win a mistake
  at least, whatever the estimates say.

The evaluation curve is the best score of each position seen from X (positive: X is better), the
end of the game scoring ±W (W = size² + 1) for a win and 0 for a draw.

Analyses are cached in the history by position (`position_key`) and method (`review_method`), as
JSON (`analysis_to_json` / `analysis_from_json`), so a game is analysed once. No Textual here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tictactoe_tui.engine import (
    Analysis,
    Board,
    IterationInfo,
    Mark,
    MoveScore,
    ProgressCallback,
    win_score,
)
from tictactoe_tui.engine.search.types import Algorithm, Band, Kind, Rule, Source, same_estimate
from tictactoe_tui.history.record import PlayedGame

REVIEW_BUDGET = 0.5
"""Seconds of alpha-beta per position when reviewing a board bigger than 3×3."""

INACCURACY_DROP = 3
"""A heuristic drop (H1 points) from which a move is an inaccuracy."""
MISTAKE_DROP = 9
"""A heuristic drop from which a move is a mistake."""
BLUNDER_DROP = 27
"""A heuristic drop from which a move is a blunder."""

Judgement = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
"""How good a move was (see the module's docstring)."""

SYMBOLS: dict[Judgement, str] = {
    "best": "",
    "good": "",
    "inaccuracy": "?!",
    "mistake": "?",
    "blunder": "??",
}
"""The annotation written after a move, as chess players write them."""


@dataclass(frozen=True)
class Verdict:
    """What the review says about one move."""

    number: int
    """1-based move number."""
    cell: int
    mark: Mark
    judgement: Judgement
    played: MoveScore
    """The played move's score in the position it was played from."""
    best: MoveScore
    """The best move of that position: the first its analysis ranks (the review's table
    lists the moves in that order)."""

    @property
    def symbol(self) -> str:
        """ "", "?!", "?" or "??"."""
        return SYMBOLS[self.judgement]

    @property
    def better(self) -> int | None:
        """The move that should have been played, when this one was not good enough."""
        return None if self.judgement in ("best", "good") else self.best.move


def proven_as_good(played: MoveScore, best: MoveScore) -> bool:
    """Whether the scores prove `played` no worse than `best`: the least it is worth (an exact
    value or a lower bound) reaches the most `best` is worth (an exact value or an upper
    bound). Two equal estimates prove nothing; a bound equal to an estimate neither."""
    return (
        played.kind in (Kind.EXACT, Kind.AT_LEAST)
        and best.kind in (Kind.EXACT, Kind.AT_MOST)
        and played.score >= best.score
    )


def judge(played: MoveScore, best: MoveScore) -> Judgement:
    """Judge a move by its score against the best score of its position (see the docstring).

    `best` is the position's first-ranked move. Another move is "best" too only when the scores
    prove it as good, or it scores the same estimate (`types.same_estimate`: the same number from
    a search as deep); one that merely reaches the best's number (an upper bound equal to an
    estimate) is "good". A proven result (`MoveScore.outcome`: a
    win, loss or draw that holds against every reply, its distance exact or a bound) is judged
    by the result; estimates by how far they drop.
    """
    if played.move == best.move or proven_as_good(played, best) or same_estimate(played, best):
        return "best"
    if played.score >= best.score:
        return "good"
    mine, theirs = played.outcome, best.outcome
    if mine is not None and theirs is not None:
        if mine == theirs:  # the same result, only slower to win or quicker to lose
            return "inaccuracy"
        return "blunder" if mine is Band.LOSS else "mistake"
    if mine is Band.LOSS:
        return "blunder"
    drop = best.score - played.score
    worst: Judgement = (
        "blunder"
        if drop >= BLUNDER_DROP
        else "mistake"
        if drop >= MISTAKE_DROP
        else "inaccuracy"
        if drop >= INACCURACY_DROP
        else "good"
    )
    if theirs is Band.WIN and worst in ("good", "inaccuracy"):
        return "mistake"
    return worst


def review_method(size: int, budget: float = REVIEW_BUDGET) -> str:
    """The cache's name for how a position of a size×size game is analysed."""
    return "alphabeta-exact" if size == 3 else f"alphabeta-{budget:g}s"


def position_key(board: Board) -> str:
    """The cache's key for a position: its shape, the side to move and the cells."""
    return f"{board.size}x{board.size} k={board.k} {board.to_move} {board}"


def board_of_key(key: str) -> Board | None:
    """The position a `position_key` names, or None for text that is not one (a damaged row)."""
    try:
        _shape, k, mover, cells = key.split(" ", 3)
        return Board.from_string(cells, k=int(k.removeprefix("k=")), to_move=mover)
    except ValueError:
        return None


def analyse_for_review(
    board: Board,
    budget: float = REVIEW_BUDGET,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
) -> Analysis:
    """Alpha-beta's analysis of one position: solved on 3×3, `budget` seconds on bigger boards.

    A `Thinker` job as it stands (module-level, `should_stop` and `on_progress` keywords).
    """
    from tictactoe_tui.engine.search.api import analyse_position  # the searches load when used

    return analyse_position(
        board,
        "alphabeta",
        time_limit=None if board.size == 3 else budget,
        should_stop=should_stop,
        on_progress=on_progress,
    )


def analysis_to_json(analysis: Analysis) -> str:
    """An analysis as compact JSON for the cache, each score with what it is (kind, depth,
    source, band, rule, twin) and the search's rows."""
    return json.dumps(
        {
            "algorithm": analysis.algorithm,
            "nodes": analysis.nodes,
            "elapsed": analysis.elapsed,
            "depth": analysis.depth,
            "complete": analysis.complete,
            "scores": [
                [
                    s.move,
                    s.score,
                    s.nodes,
                    s.exact,
                    list(s.pv),
                    s.kind,
                    s.depth,
                    s.source,
                    s.band,
                    s.rule,
                    s.twin,
                ]
                for s in analysis.scores
            ],
            "best_moves": list(analysis.best_moves),
            "iterations": [
                [
                    r.depth,
                    r.move,
                    r.score,
                    r.kind,
                    r.band,
                    r.nodes,
                    r.elapsed,
                    list(r.pv),
                    r.source,
                    r.complete,
                ]
                for r in analysis.iterations
            ],
        },
        separators=(",", ":"),
    )


def _score_from_json(entry: list[Any]) -> MoveScore:
    """One cached score; an entry from before scores said what they are has five fields."""
    move, score, nodes, exact, pv, *told = entry
    line = tuple(int(c) for c in pv)
    if not told:
        return MoveScore(int(move), int(score), int(nodes), bool(exact), line)
    kind, depth, source, band, rule, twin = told
    return MoveScore(
        int(move),
        int(score),
        int(nodes),
        bool(exact),
        line,
        Kind(kind),
        int(depth),
        Source(source),
        Band(band),
        Rule(rule) if rule else None,
        None if twin is None else int(twin),
    )


def _row_from_json(entry: list[Any]) -> IterationInfo:
    """One cached row of the search's story."""
    depth, move, score, kind, band, nodes, elapsed, pv, source, complete = entry
    return IterationInfo(
        int(depth),
        int(move),
        int(score),
        Kind(kind),
        Band(band),
        int(nodes),
        float(elapsed),
        tuple(int(c) for c in pv),
        Source(source),
        bool(complete),
    )


def analysis_from_json(text: str) -> Analysis | None:
    """An analysis from the cache, or None if the text is not one (a damaged cache entry)."""
    try:
        data = json.loads(text)
        scores = tuple(_score_from_json(entry) for entry in data["scores"])
        return Analysis(
            Algorithm(data["algorithm"]),
            scores,
            int(data["nodes"]),
            float(data["elapsed"]),
            int(data["depth"]),
            bool(data["complete"]),
            False,
            tuple(int(m) for m in data.get("best_moves", ())),
            tuple(_row_from_json(row) for row in data.get("iterations", ())),
        )
    except (ValueError, KeyError, TypeError):
        return None


class GameReview:
    """A played game's positions, their analyses as they come, and what they say."""

    def __init__(self, game: PlayedGame) -> None:
        """Replay `game` (IllegalMove if its moves are not legal); nothing is analysed yet."""
        self.game = game
        """The game under review."""
        board = Board.empty(game.size, game.k, game.first)
        self.positions: list[Board] = [board]
        """positions[i] is the board after i moves; positions[0] is the empty board."""
        for cell in game.cells:
            board = board.play(cell)
            self.positions.append(board)
        self.analyses: list[Analysis | None] = [None] * len(self.positions)
        """The analysis of each position (None until it is made, and for a finished one)."""

    @property
    def to_analyse(self) -> list[int]:
        """The positions still waiting for an analysis, in order."""
        return [
            i
            for i, board in enumerate(self.positions)
            if not board.is_over and self.analyses[i] is None
        ]

    @property
    def progress(self) -> tuple[int, int]:
        """(positions analysed, positions to analyse in all)."""
        total = sum(1 for board in self.positions if not board.is_over)
        return total - len(self.to_analyse), total

    def analyse_all(
        self, budget: float = REVIEW_BUDGET, should_stop: Callable[[], bool] | None = None
    ) -> None:
        """Analyse every position still waiting (in this thread), stopping when asked."""
        for index in self.to_analyse:
            if should_stop is not None and should_stop():
                return
            analysis = analyse_for_review(self.positions[index], budget, should_stop=should_stop)
            if analysis.cancelled:
                return
            self.analyses[index] = analysis

    def verdict(self, number: int) -> Verdict | None:
        """The verdict on move `number` (1-based), once its position is analysed."""
        analysis = self.analyses[number - 1]
        if analysis is None or not analysis.scores:
            return None
        cell = self.game.cells[number - 1]
        played = next((s for s in analysis.scores if s.move == cell), None)
        if played is None:
            return None
        before = self.positions[number - 1]
        best = analysis.scores[0]
        return Verdict(number, cell, before.to_move, judge(played, best), played, best)

    def value(self, index: int) -> int | None:
        """Position `index`'s value seen from X: its best score, ±W at a win, 0 at a draw."""
        board = self.positions[index]
        if board.is_over:
            winner = board.winner
            return 0 if winner is None else win_score(board) * (1 if winner is Mark.X else -1)
        analysis = self.analyses[index]
        if analysis is None or not analysis.scores:
            return None
        best = analysis.scores[0].score
        return best if board.to_move is Mark.X else -best

    def counts(self, mark: Mark) -> dict[Judgement, int]:
        """How many inaccuracies, mistakes and blunders `mark` made (moves judged so far)."""
        found: dict[Judgement, int] = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for number in range(1, len(self.positions)):
            verdict = self.verdict(number)
            if verdict is not None and verdict.mark is mark and verdict.judgement in found:
                found[verdict.judgement] += 1
        return found
