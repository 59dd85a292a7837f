"""A match: N games between two computer players, with colours alternating and seeded openings.

The two players are called **x** and **o** after the command line's `--x` and `--o`. With
`swap_colours` (the default) the x player plays X, and so moves first, in the odd-numbered games
(game 1, 3, 5, ...: `GameOutcome.index` 0, 2, 4, ...) and O in the even-numbered ones; the o
player takes the other mark. Without `swap_colours` the x player is X in every game.

Every game starts from a few random moves (`opening_moves`: none on 3×3, where the players'
own tie-breaking already varies the games; `DEFAULT_OPENING_MOVES` on bigger boards, near the
centre) so that two deterministic players do not replay one game N times. Games 2i-1 and 2i
share their opening, so each opening is played once from each side and neither player gains
from the luck of the draw. Each player is built fresh for every game from its own seeded rng
(a player may keep state within a game, never across games), so a seed reproduces the match
and game i is the same whatever the number of games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tictactoe_tui.engine.players.computer import Player
from tictactoe_tui.engine.players.foreign import PlayerFault, PlayerStopped, close_foreign
from tictactoe_tui.engine.players.spec import PlayerSpec
from tictactoe_tui.engine.rules.board import Board, Mark, check_shape, default_k
from tictactoe_tui.engine.search.limits import Limits, ShouldStop

__all__ = [
    "DEFAULT_OPENING_MOVES",
    "Forfeit",
    "GameOutcome",
    "MatchHooks",
    "MatchPlan",
    "MatchResult",
    "PlayerFactory",
    "PlayerSpec",
    "PlayerStats",
    "WinDrawLoss",
    "match_shape",
    "run_match",
]

PlayerFactory = Callable[[random.Random], Player]
"""Builds a player from the rng it must use for every random choice."""

DEFAULT_OPENING_MOVES = 2
"""Random opening moves per game on boards bigger than 3×3."""


@dataclass(frozen=True)
class WinDrawLoss:
    """Wins, draws and losses of one player over some games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """A win is a point, a draw half a point."""
        return self.wins + self.draws / 2

    def __str__(self) -> str:
        """Written as the tables show it: `wins/draws/losses`, e.g. `3/1/0`."""
        return f"{self.wins}/{self.draws}/{self.losses}"

    def add(self, result: float) -> WinDrawLoss:
        """This record with one more game: `result` 1 (won), 0.5 (drawn) or 0 (lost)."""
        return WinDrawLoss(
            self.wins + (result == 1), self.draws + (result == 0.5), self.losses + (result == 0)
        )


@dataclass(frozen=True)
class MoveCost:
    """What one player's moves cost in one game (the random opening not included)."""

    moves: int = 0
    seconds: float = 0.0
    """Wall-clock seconds spent choosing, summed over the moves."""
    positions: int = 0
    """Positions the player's searches visited, summed over the moves (0 for random play)."""


@dataclass(frozen=True)
class Forfeit:
    """A game lost by a fault rather than on the board: an outside engine failed or broke the
    rules (see `outside.EngineFault`)."""

    side: str
    """"x" or "o": the player at fault, who loses the game."""
    reason: str
    """One sentence: "pbrain-x timed out: no move within 1 s + 1 s grace"."""
    log: tuple[str, ...] = ()
    """The last lines of the engine's stderr and ignored output."""


@dataclass(frozen=True)
class GameOutcome:
    """One finished game of a match: on the board, or by a fault (`forfeit`)."""

    index: int
    """0-based: game `index + 1` of the match."""
    x_mark: Mark
    """The mark the x player had in this game (the o player had the other)."""
    moves: tuple[int, ...]
    """Every move, the random opening first, cells row-major from 0."""
    opening: int
    """How many of `moves` were the random opening."""
    final: Board
    """The board at the end."""
    x_cost: MoveCost
    o_cost: MoveCost
    forfeit: Forfeit | None = None
    """When a player lost by a fault (the board at `final` is not over then); else None."""

    @property
    def winner(self) -> Mark | None:
        """The mark that won, or None for a draw."""
        if self.forfeit is not None:
            return self.mark_of(self.forfeit.side).opponent
        return self.final.winner

    @property
    def winning_side(self) -> str | None:
        """ "x" or "o": the player that won, or None for a draw."""
        winner = self.winner
        if winner is None:
            return None
        return "x" if winner is self.x_mark else "o"

    def result_for(self, side: str) -> float:
        """1 if `side` ("x" or "o") won, 0.5 for a draw, 0 if it lost."""
        winner = self.winning_side
        return 0.5 if winner is None else float(winner == side)

    def cost(self, side: str) -> MoveCost:
        """What `side`'s ("x" or "o") moves cost in this game."""
        return self.x_cost if side == "x" else self.o_cost

    def mark_of(self, side: str) -> Mark:
        """The mark `side` ("x" or "o") played in this game."""
        return self.x_mark if side == "x" else self.x_mark.opponent


@dataclass(frozen=True)
class PlayerStats:
    """One player's results and costs over a match."""

    overall: WinDrawLoss
    as_x: WinDrawLoss
    """Its games with the X mark (moving first)."""
    as_o: WinDrawLoss
    """Its games with the O mark."""
    moves: int
    seconds: float
    positions: int

    @property
    def mean_seconds(self) -> float:
        """Mean seconds per move (0 before any move)."""
        return self.seconds / self.moves if self.moves else 0.0

    @property
    def mean_positions(self) -> float:
        """Mean positions searched per move (0 before any move)."""
        return self.positions / self.moves if self.moves else 0.0

    @classmethod
    def of(cls, side: str, outcomes: tuple[GameOutcome, ...]) -> PlayerStats:
        """Add up `side`'s ("x" or "o") games."""
        overall = as_x = as_o = WinDrawLoss()
        moves = positions = 0
        seconds = 0.0
        for game in outcomes:
            result = game.result_for(side)
            overall = overall.add(result)
            if game.mark_of(side) is Mark.X:
                as_x = as_x.add(result)
            else:
                as_o = as_o.add(result)
            cost = game.cost(side)
            moves += cost.moves
            seconds += cost.seconds
            positions += cost.positions
        return cls(overall, as_x, as_o, moves, seconds, positions)


@dataclass(frozen=True)
class MatchResult:
    """What a match gave: every game, and each player's results and costs."""

    x: str
    """The x player, as its spec (`alphabeta:time=0.5`) or a factory's name."""
    o: str
    """The o player, likewise."""
    size: int
    k: int
    seed: int
    requested: int
    """Games asked for; fewer were played when the match was cancelled."""
    outcomes: tuple[GameOutcome, ...]
    cancelled: bool = False
    """True when `should_stop` ended the match early (the unfinished game is not counted)."""
    x_stats: PlayerStats = field(init=False)
    o_stats: PlayerStats = field(init=False)

    def __post_init__(self) -> None:
        """Add up each player's games once."""
        object.__setattr__(self, "x_stats", PlayerStats.of("x", self.outcomes))
        object.__setattr__(self, "o_stats", PlayerStats.of("o", self.outcomes))

    @property
    def games(self) -> int:
        """Games played to the end."""
        return len(self.outcomes)

    @property
    def x_wins(self) -> int:
        """Games the x player won (with either mark)."""
        return self.x_stats.overall.wins

    @property
    def o_wins(self) -> int:
        """Games the o player won (with either mark)."""
        return self.o_stats.overall.wins

    @property
    def draws(self) -> int:
        """Drawn games."""
        return self.x_stats.overall.draws

    @property
    def forfeits(self) -> tuple[GameOutcome, ...]:
        """The games lost by a fault rather than on the board."""
        return tuple(game for game in self.outcomes if game.forfeit is not None)


def _label(player: PlayerSpec | PlayerFactory) -> str:
    if isinstance(player, PlayerSpec):
        return str(player)
    return getattr(player, "__name__", type(player).__name__)


def _factory(player: PlayerSpec | PlayerFactory) -> PlayerFactory:
    return player.build if isinstance(player, PlayerSpec) else player


def _opening(start: Board, moves: int, rng: random.Random) -> list[int]:
    """`moves` random cells near the centre, none of them ending the game."""
    size = start.size
    margin = size // 4
    central = [
        r * size + c for r in range(margin, size - margin) for c in range(margin, size - margin)
    ]
    board, played = start, []
    for _ in range(moves):
        legal = set(board.legal_moves())
        choices = [c for c in central if c in legal] or sorted(legal)
        quiet = [c for c in choices if not board.play(c).is_over]
        if not quiet:
            break
        cell = rng.choice(quiet)
        board = board.play(cell)
        played.append(cell)
    return played


def match_shape(
    games: int, size: int = 3, k: int | None = None, opening_moves: int | None = None
) -> tuple[int, int]:
    """Check a match's arguments and resolve the defaults: (k, opening moves); else ValueError."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"a match needs at least 1 game, not {games!r}")
    k = default_k(size) if k is None else k
    check_shape(size, k)
    opening = (
        (0 if size == 3 else DEFAULT_OPENING_MOVES) if opening_moves is None else opening_moves
    )
    if not 0 <= opening < size * size - 1:
        raise ValueError(
            f"opening moves must be between 0 and {size * size - 2} on a "
            f"{size}×{size} board, not {opening}"
        )
    return k, opening


@dataclass(frozen=True)
class MatchPlan:
    """What a match plays: how many games, on which board, from which seed.

    `swap_colours` (default) alternates who plays X as the module docstring says; without it
    the x player is X in every game. `opening_moves` random moves start each game (None: 0 on
    3×3, `DEFAULT_OPENING_MOVES` above). Checked when made: ValueError with a clear message.
    """

    games: int
    size: int = 3
    k: int | None = None
    seed: int = 0
    swap_colours: bool = True
    opening_moves: int | None = None

    def __post_init__(self) -> None:
        """Check the plan now, so a match never starts on a bad one."""
        match_shape(self.games, self.size, self.k, self.opening_moves)

    @property
    def win_length(self) -> int:
        """k, resolved for the board size."""
        return match_shape(self.games, self.size, self.k, self.opening_moves)[0]

    @property
    def openings(self) -> int:
        """Random opening moves per game, resolved for the board size."""
        return match_shape(self.games, self.size, self.k, self.opening_moves)[1]


@dataclass(frozen=True)
class MatchHooks:
    """Who watches a match: the stop check and the listeners (each optional)."""

    should_stop: ShouldStop | None = None
    """Polled between moves and by the players' searches; True ends the match at once,
    without the unfinished game."""
    on_game: Callable[[int, GameOutcome], None] | None = None
    """Hears of each finished game: `on_game(index, outcome)`."""
    on_move: Callable[[int, Board], None] | None = None
    """Hears of each move: `on_move(index, board)`."""


def run_match(
    x: PlayerSpec | PlayerFactory,
    o: PlayerSpec | PlayerFactory,
    plan: MatchPlan,
    hooks: MatchHooks = MatchHooks(),
) -> MatchResult:
    """Play `plan.games` games between `x` and `o` (see `MatchPlan`), watched by `hooks`.

    An outside engine that fails (see `outside.EngineFault`) loses that game by forfeit, with
    the reason in `GameOutcome.forfeit`; its process ends with each game. A spec that cannot
    play the board (an outside engine off five in a row) raises ValueError.
    """
    size, k, opening = plan.size, plan.win_length, plan.openings
    for player in (x, o):
        problem = player.shape_problem(size, k) if isinstance(player, PlayerSpec) else ""
        if problem:
            raise ValueError(f"{player}: {problem}")
    stop: ShouldStop = hooks.should_stop if hooks.should_stop is not None else (lambda: False)
    factories = {"x": _factory(x), "o": _factory(o)}
    outcomes: list[GameOutcome] = []
    cancelled = False
    for index in range(plan.games):
        x_mark = Mark.O if plan.swap_colours and index % 2 else Mark.X
        pair = index // 2 if plan.swap_colours else index
        start = Board.empty(size, k)
        opening_cells = _opening(start, opening, random.Random(f"{plan.seed}/opening/{pair}"))
        outcome = _play_game(
            index, x_mark, start, opening_cells, factories, plan.seed, stop, hooks.on_move
        )
        if outcome is None:
            cancelled = True
            break
        outcomes.append(outcome)
        if hooks.on_game is not None:
            hooks.on_game(index, outcome)
    return MatchResult(
        _label(x), _label(o), size, k, plan.seed, plan.games, tuple(outcomes), cancelled
    )


def _play_game(
    index: int,
    x_mark: Mark,
    start: Board,
    opening: list[int],
    factories: dict[str, PlayerFactory],
    seed: int,
    stop: ShouldStop,
    on_move: Callable[[int, Board], None] | None,
) -> GameOutcome | None:
    """Play one game to the end; None when `stop()` said to stop first. Outside engines and
    learners' files end with the game, however it ends."""
    players = {
        side: factories[side](random.Random(f"{seed}/{index}/{side}")) for side in ("x", "o")
    }
    try:
        return _moves(index, x_mark, start, opening, players, stop, on_move)
    finally:
        close_foreign(players.values())


def _moves(
    index: int,
    x_mark: Mark,
    start: Board,
    opening: list[int],
    players: dict[str, Player],
    stop: ShouldStop,
    on_move: Callable[[int, Board], None] | None,
) -> GameOutcome | None:
    side_of = {x_mark: "x", x_mark.opponent: "o"}
    costs = {side: MoveCost() for side in ("x", "o")}
    board = start
    moves = []
    for cell in opening:
        board = board.play(cell)
        moves.append(cell)
        if on_move is not None:
            on_move(index, board)
    limits = Limits(should_stop=stop)
    while not board.is_over:
        if stop():
            return None
        side = side_of[board.to_move]
        began = time.perf_counter()
        try:
            decision = players[side].choose(board, limits)
        except PlayerStopped:
            return None
        except PlayerFault as fault:
            return GameOutcome(
                index,
                x_mark,
                tuple(moves),
                len(opening),
                board,
                costs["x"],
                costs["o"],
                Forfeit(side, fault.reason, fault.log),
            )
        seconds = time.perf_counter() - began
        if stop():
            # A search cut short may have picked a poor move: the game would not be fair.
            return None
        positions = decision.analysis.nodes if decision.analysis is not None else 0
        cost = costs[side]
        costs[side] = MoveCost(cost.moves + 1, cost.seconds + seconds, cost.positions + positions)
        board = board.play(decision.move)
        moves.append(decision.move)
        if on_move is not None:
            on_move(index, board)
    return GameOutcome(index, x_mark, tuple(moves), len(opening), board, costs["x"], costs["o"])
