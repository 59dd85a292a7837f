"""Computer players: random, heuristic (H1/H2), minimax, alpha-beta, and a difficulty wrapper.

Every player takes an injected `random.Random`, so a seed reproduces every decision; the rng also
breaks ties between equally good moves, so two seeds can play different but equally good games.
Every player answers the same call, `choose(board, limits)` (see `limits.Limits`: time, depth,
positions, the stop check, the progress callback), and returns a `Decision`: the move, whether
it was the clever move or a random one, the analysis the evaluation panel shows, and a one-line
reason for the status bar. An outside engine (`outside.OutsidePlayer`) answers the same call.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tictactoe_tui.engine.evaluation.heuristics import (
    H1Terms,
    H2Terms,
    explain_h1,
    explain_h2,
    heuristic_pick,
)
from tictactoe_tui.engine.players.opening import opening_analysis
from tictactoe_tui.engine.rules.board import Board, IllegalMove, Mark
from tictactoe_tui.engine.search.limits import DEFAULT_TIME_LIMIT, NO_LIMITS, Limits, ShouldStop
from tictactoe_tui.engine.search.types import (
    Algorithm,
    Analysis,
    MoveScore,
    describe_score,
)

if TYPE_CHECKING:
    from tictactoe_tui.engine.search.api import SearchMemory

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "HEURISTICS",
    "MAX_DIFFICULTY",
    "MINIMAX_LEAF_BUDGET",
    "MIN_DIFFICULTY",
    "OPPONENTS",
    "AlphaBetaPlayer",
    "Decision",
    "DifficultyPlayer",
    "HeuristicPlayer",
    "MinimaxPlayer",
    "Player",
    "RandomPlayer",
    "ShouldStop",
    "check_difficulty",
    "make_player",
]

OPPONENTS: tuple[Algorithm, ...] = (
    Algorithm.RANDOM,
    Algorithm.H1,
    Algorithm.H2,
    Algorithm.MINIMAX,
    Algorithm.ALPHABETA,
)
"""The names `make_player` accepts."""

HEURISTICS: tuple[Algorithm, ...] = (Algorithm.H1, Algorithm.H2)
"""The heuristics a `HeuristicPlayer` can use."""

MIN_DIFFICULTY = 1
MAX_DIFFICULTY = 100

MINIMAX_LEAF_BUDGET = 20_000
"""Leaves unpruned minimax may visit per move on boards bigger than 3x3 (about a second).

It searches 2 plies when empty*(empty-1) fits the budget, else 1: a 15x15 board has ~50,000
two-ply leaves, several seconds of pure Python, and minimax has no time limit to stop it.
"""

OPENING_REASON = "opening rule: the centre, where the most lines meet (no search)"
"""The reason of a move the opening rule chose (`engine.opening`)."""


@dataclass(frozen=True)
class Decision:
    """What a computer player decided, and why, for the board, the panel and the status bar."""

    move: int
    clever: bool
    """False when the move was picked at random (a random player, or difficulty said so)."""
    algorithm: str
    """"random", "h1", "h2", "minimax" or "alphabeta": what picked the move."""
    analysis: Analysis | None
    """The scores the panel shows; for a random move, the advisor's (clever player's) if any."""
    terms: H1Terms | H2Terms | None
    """For heuristic play: the heuristic's terms of the board after the chosen move."""
    reason: str
    """One line for the status bar, e.g. "wins at once" or "random move"."""
    said: tuple[str, ...] = ()
    """What an outside engine reported while it thought (its `MESSAGE` lines), in its own
    words; empty for our players, whose reasoning is `analysis`."""


class Player(Protocol):
    """Anything that can pick a move for the side to move: ours, or an outside engine."""

    name: str
    """A name for people: "Random", "Clever (alpha-beta)", ..."""

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """Pick a legal move on `board` (which must not be over) for `board.to_move`.

        `limits` refine the player's own (see `Limits`): its budget, the stop check it polls
        and the callback that hears how the search goes.
        """
        ...


def _require_moves(board: Board) -> list[int]:
    # Asking a player to move on a finished board is a caller bug; say so plainly.
    moves = board.legal_moves()
    if not moves:
        raise IllegalMove("the game is over: there is no move to choose")
    return moves


def _explain(heuristic: str, board: Board, player: Mark) -> H1Terms | H2Terms:
    return explain_h1(board, player) if heuristic == Algorithm.H1 else explain_h2(board, player)


def _formula_without_total(terms: H1Terms | H2Terms) -> str:
    # formula() ends in "= value"; the reason already states the value first.
    return terms.formula().rsplit(" = ", 1)[0]


def _random_decision(
    board: Board, rng: random.Random, advice: Decision | None, reason: str
) -> Decision:
    """A uniformly random legal move, annotated with the advisor's analysis if there is one."""
    move = rng.choice(_require_moves(board))
    terms: H1Terms | H2Terms | None = None
    if advice is not None and advice.algorithm in HEURISTICS:
        # Show the random move's terms under the advisor's heuristic, so it compares directly.
        terms = _explain(advice.algorithm, board.play(move), board.to_move)
    return Decision(
        move=move,
        clever=False,
        algorithm=Algorithm.RANDOM,
        analysis=advice.analysis if advice is not None else None,
        terms=terms,
        reason=reason,
    )


def _best_of(analysis: Analysis, board: Board, rng: random.Random) -> tuple[MoveScore, int] | None:
    """A uniformly random pick among the moves the analysis ranks best, and how many tied."""
    legal = set(board.legal_moves())
    # Sorted so the pick depends only on the rng's state, not on the search's ordering.
    tied = sorted(move for move in analysis.best_moves if move in legal)
    if not tied:
        return None
    pick = rng.choice(tied)
    return next(s for s in analysis.scores if s.move == pick), len(tied)


def _search_decision(board: Board, rng: random.Random, analysis: Analysis, label: str) -> Decision:
    """Turn a search's analysis into a decision; a search stopped too early gives a random move."""
    picked = _best_of(analysis, board, rng)
    if picked is None:
        return Decision(
            move=rng.choice(_require_moves(board)),
            clever=False,
            algorithm=Algorithm.RANDOM,
            analysis=analysis,
            terms=None,
            reason=f"{label} stopped before scoring a move: random move",
        )
    best, ties = picked
    # Kind-aware: a proven win whose distance is only bounded reads "wins, in at most N", not
    # "+86 (heuristic)"; a bound says it is one.
    reason = f"{label}: {describe_score(best.score, board, kind=best.kind, band=best.band)}"
    if ties > 1:
        reason += f" ({ties} moves equally good)"
    if analysis.cancelled:
        reason += ", search stopped early"
    return Decision(
        move=best.move,
        clever=True,
        algorithm=analysis.algorithm,
        analysis=analysis,
        terms=None,
        reason=reason,
    )


class RandomPlayer:
    """Plays a uniformly random legal move.

    With an `advisor` (usually the clever player), the decision also carries the advisor's
    analysis, so the panel can show how the random move compares with the clever one.
    """

    def __init__(self, rng: random.Random, advisor: Player | None = None) -> None:
        """Use `rng` for every pick; ask `advisor` (if given) for the analysis to show."""
        self.rng = rng
        self.advisor = advisor
        self.name = "Random"

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """A uniformly random legal move; `clever` is False and the reason is "random move".

        The limits go to the advisor, whose search they bound; the random pick needs none.
        """
        _require_moves(board)
        advice = self.advisor.choose(board, limits) if self.advisor is not None else None
        return _random_decision(board, self.rng, advice, "random move")


class HeuristicPlayer:
    """The clever computer: win now, else block, else the best heuristic board.

    1. If a move wins at once, play it (a win is preferred over a block).
    2. Else if the opponent could win at once somewhere, block there (with several such cells,
       the block whose board scores best).
    3. Else play the move whose resulting board scores best under H1 or H2 from its own side.
    Ties at every step are broken by the rng.
    """

    def __init__(self, heuristic: str = "h1", rng: random.Random | None = None) -> None:
        """`heuristic` is "h1" or "h2"; `rng` (required) breaks ties reproducibly."""
        if heuristic not in HEURISTICS:
            raise ValueError(f"unknown heuristic {heuristic!r}: use 'h1' or 'h2'")
        if rng is None:
            # The default for `heuristic` forces a default here, but unseeded play would make
            # decisions impossible to reproduce, so the rng is still required.
            raise TypeError(
                "HeuristicPlayer needs an rng, e.g. HeuristicPlayer('h1', random.Random(seed))"
            )
        self.heuristic = heuristic
        self.rng = rng
        self.name = f"Heuristic ({heuristic.upper()})"

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """Win, block or best heuristic score; the analysis is `analyse_position(board, h)`.

        It looks one move ahead, whatever the limits' depth; time and positions are never
        short for it (one heuristic score per legal move).
        """
        _require_moves(board)
        should_stop, on_progress = limits.search_hooks()
        from tictactoe_tui.engine.search.api import analyse_position

        analysis = analyse_position(
            board, self.heuristic, should_stop=should_stop, on_progress=on_progress
        )

        pick = heuristic_pick(board, lambda m: self._score(board, m))
        move = self.rng.choice(pick.moves)
        if pick.rule == "win":
            reason = "wins at once"
        elif pick.rule == "block":
            reason = f"blocks {board.to_move.opponent} at {board.cell_name(move)}"
        else:
            terms = self._terms(board, move)
            reason = (
                f"best {self.heuristic.upper()} score {terms.value} "
                f"({_formula_without_total(terms)})"
            )
        return self._decision(board, move, analysis, reason)

    def _score(self, board: Board, move: int) -> int:
        return self._terms(board, move).value

    def _terms(self, board: Board, move: int) -> H1Terms | H2Terms:
        return _explain(self.heuristic, board.play(move), board.to_move)

    def _decision(self, board: Board, move: int, analysis: Analysis, reason: str) -> Decision:
        return Decision(
            move=move,
            clever=True,
            algorithm=self.heuristic,
            analysis=analysis,
            terms=self._terms(board, move),
            reason=reason,
        )


class MinimaxPlayer:
    """Plain minimax: the whole game tree on 3x3, a depth cut-off with H1 on bigger boards.

    Picks uniformly (by the rng) among the moves with the best score.
    """

    def __init__(self, rng: random.Random, depth: int | None = None) -> None:
        """`depth` None: to the end on 3x3, 2 plies (1 on crowded big boards) above 3x3."""
        self.rng = rng
        self.limits = Limits(depth=depth)
        """The player's own limits; a call's limits refine them."""
        self.name = "Clever (minimax)"

    @property
    def depth(self) -> int | None:
        """The player's own depth (None: automatic)."""
        return self.limits.depth

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The best move by minimax; a cancelled search still gives a legal move.

        Honours depth, time (minimax stops when it runs out), positions and the stop check.
        """
        _require_moves(board)
        limits = limits.over(self.limits)
        depth = limits.depth
        if depth is None and board.size > 3:
            empty = board.size * board.size - board.move_count
            depth = 2 if empty * (empty - 1) <= MINIMAX_LEAF_BUDGET else 1
        should_stop, on_progress = limits.search_hooks()
        from tictactoe_tui.engine.search.api import analyse_position

        analysis = analyse_position(
            board,
            Algorithm.MINIMAX,
            depth=depth,
            time_limit=limits.time,
            should_stop=should_stop,
            on_progress=on_progress,
        )
        return _search_decision(board, self.rng, analysis, Algorithm.MINIMAX)


class AlphaBetaPlayer:
    """Alpha-beta: an exact solve on 3x3, a time budget with a heuristic cut-off on bigger boards.

    Picks uniformly (by the rng) among the moves the search ranks best. A player is meant to
    play one game: it keeps the search's tables (`SearchMemory`) from one move to the next, so
    each move starts from what the earlier ones learnt. A win in one is played at once.
    """

    def __init__(
        self, rng: random.Random, depth: int | None = None, time_limit: float | None = None
    ) -> None:
        """`time_limit` (seconds, default 1) applies to boards bigger than 3x3 only."""
        self.rng = rng
        self.limits = Limits(time=time_limit, depth=depth)
        """The player's own limits; a call's limits refine them."""
        self.name = "Clever (alpha-beta)"
        self._memory: SearchMemory | None = None

    @property
    def memory(self) -> SearchMemory:
        """The tables this player's searches share, made at its first search: the searches
        load then, not with this module nor when the player is made (a game's first paint
        makes its players, and the players' names and specs need no search)."""
        if self._memory is None:
            from tictactoe_tui.engine.search.api import SearchMemory

            self._memory = SearchMemory()
        return self._memory

    @property
    def depth(self) -> int | None:
        """The player's own depth (None: as deep as the time allows)."""
        return self.limits.depth

    @property
    def time_limit(self) -> float | None:
        """The player's own seconds per move above 3x3 (None: `DEFAULT_TIME_LIMIT`)."""
        return self.limits.time

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The best move by alpha-beta; a cancelled search still gives a legal move."""
        _require_moves(board)
        opening = opening_analysis(board, self.rng)
        if opening is not None:
            # The empty big board: the centre at once, rather than a whole budget's estimate.
            return Decision(
                move=opening.scores[0].move,
                clever=True,
                algorithm=Algorithm.ALPHABETA,
                analysis=opening,
                terms=None,
                reason=OPENING_REASON,
            )
        limits = limits.over(self.limits)
        # 3x3 solves in well under a second, and an exact analysis is what the panel promises
        # there, so the time budget (meant for big boards) is not applied to it.
        time_limit = None
        if board.size > 3:
            time_limit = DEFAULT_TIME_LIMIT if limits.time is None else limits.time
        should_stop, on_progress = limits.search_hooks()
        from tictactoe_tui.engine.search.api import analyse_position

        analysis = analyse_position(
            board,
            Algorithm.ALPHABETA,
            depth=limits.depth,
            time_limit=time_limit,
            should_stop=should_stop,
            on_progress=on_progress,
            memory=self.memory,
        )
        return _search_decision(board, self.rng, analysis, "alpha-beta")


def check_difficulty(difficulty: int) -> int:
    """Return `difficulty` if it is a whole number from 1 to 100, else raise ValueError."""
    if (
        isinstance(difficulty, bool)
        or not isinstance(difficulty, int)
        or not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY
    ):
        raise ValueError(
            f"difficulty must be a whole number from {MIN_DIFFICULTY} "
            f"(easiest) to {MAX_DIFFICULTY} (always the best move), "
            f"not {difficulty!r}"
        )
    return difficulty


class DifficultyPlayer:
    """Plays the clever player's move with probability difficulty/100, else a random legal move.

    Either way the decision carries the clever player's analysis, so the panel shows what the
    clever move would have been; `Decision.clever` says which kind of move was played.
    """

    def __init__(self, clever: Player, difficulty: int, rng: random.Random) -> None:
        """`difficulty` from 1 (almost always random) to 100 (always clever)."""
        self.clever = clever
        self.difficulty = check_difficulty(difficulty)
        self.rng = rng
        self.name = f"{clever.name}, difficulty {difficulty}"

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        """The clever move or, with probability 1 - difficulty/100, a random one; the limits
        bound the clever player's search."""
        _require_moves(board)
        # Roll before asking the clever player: it may share this rng, and rolling first keeps
        # the chance of a clever move exactly difficulty/100 whatever it draws.
        play_clever = self.rng.randrange(MAX_DIFFICULTY) < self.difficulty
        advice = self.clever.choose(board, limits)
        if play_clever:
            return advice
        return _random_decision(
            board, self.rng, advice, f"random move (difficulty {self.difficulty})"
        )


def make_player(
    opponent: str,
    rng: random.Random,
    difficulty: int = 100,
    time_limit: float | None = None,
    clever: bool = True,
    depth: int | None = None,
) -> Player:
    """Build the computer player the settings describe.

    `opponent` is one of "random", "h1", "h2", "minimax", "alphabeta". For a clever opponent,
    a difficulty below 100 wraps it in a `DifficultyPlayer`; `clever=False` (the "random
    computer" switch, key `c`) gives a `RandomPlayer` advised by that clever player instead. A plain
    "random" opponent has no advisor. `time_limit` is alpha-beta's budget on boards above 3x3;
    `depth` (plies) limits minimax's and alpha-beta's search.
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}: choose one of {', '.join(OPPONENTS)}")
    check_difficulty(difficulty)
    if opponent == Algorithm.RANDOM:
        return RandomPlayer(rng)
    player: Player
    if opponent in HEURISTICS:
        player = HeuristicPlayer(opponent, rng)
    elif opponent == Algorithm.MINIMAX:
        player = MinimaxPlayer(rng, depth=depth)
    else:
        player = AlphaBetaPlayer(rng, depth=depth, time_limit=time_limit)
    if not clever:
        return RandomPlayer(rng, advisor=player)
    if difficulty < MAX_DIFFICULTY:
        return DifficultyPlayer(player, difficulty, rng)
    return player
