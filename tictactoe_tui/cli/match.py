"""`tictactoe-tui match`: N games between two computer players, as a table or as JSON.

    tictactoe-tui match --x alphabeta --o h1:difficulty=80 --games 20 [--size 3 --k 3 --seed 0]
                        [--opening N] [--json]

A player is written `name[:depth=D][:time=S][:difficulty=P]`, or `engine:path=PATH[:time=S]` for
an outside Gomocup brain (see `engine.match.PlayerSpec`); an engine that fails loses that game,
and the table lists why.
The --x player plays X in the odd-numbered games and O in the even ones. While the games run,
a progress bar is drawn on stderr when stderr is a terminal. Ctrl+C (or SIGTERM) stops the match
between two moves and prints what the finished games gave. Engine-only: never imports Textual.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Sequence
from types import FrameType
from typing import Any, TextIO

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.players.match import (
    GameOutcome,
    MatchHooks,
    MatchPlan,
    MatchResult,
    PlayerSpec,
    WinDrawLoss,
    run_match,
)
from tictactoe_tui.engine.players.outside import ENGINE
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_SIZE, cell_notation
from tictactoe_tui.play.arguments import OneLineParser, positive_int

PROG = "tictactoe-tui match"
BAR_WIDTH = 24
REDRAW_EVERY = 0.1
"""Seconds between two redraws of the progress bar (moves can come much faster)."""


def _spec(text: str) -> PlayerSpec:
    """argparse's reader for a player: the spec's own message on a bad one."""
    try:
        return PlayerSpec.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def build_parser() -> OneLineParser:
    """The match command's flags."""
    parser = OneLineParser(
        prog=PROG,
        description="Play N games between two computer players, alternating colours, and "
        "report wins, draws, losses, time and positions per move.",
        epilog="A player is a name (random, h1, h2, minimax, alphabeta) with optional "
        ":depth=D (plies; minimax, alphabeta), :time=S (seconds per move above 3x3; alphabeta) "
        "and :difficulty=P (1-100, the share of clever moves); engine:path=PATH[:time=S] is an "
        "outside Gomocup brain (five in a row: --k 5, a board of 5x5 or more); "
        "python:path=FILE is your own file's choose(board), and alphabeta:eval=FILE[:depth=D] "
        "or minimax:eval=FILE:depth=D our search with your evaluate(board, player). Example: "
        "--x alphabeta:time=0.5 --o h1:difficulty=80. The --x player is X in games 1, 3, 5, ... "
        "and O in games 2, 4, ...",
    )
    _add_player_flags(parser)
    _add_game_flags(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object instead of a table (its keys are in "
        'docs/lab.md, under "Match runner")',
    )
    return parser


def _add_player_flags(parser: OneLineParser) -> None:
    """The two players, each a SPEC."""
    parser.add_argument(
        "--x",
        type=_spec,
        required=True,
        metavar="SPEC",
        help="the first player (X in the odd-numbered games)",
    )
    parser.add_argument(
        "--o",
        type=_spec,
        required=True,
        metavar="SPEC",
        help="the second player (X in the even-numbered games)",
    )


def _add_game_flags(parser: OneLineParser) -> None:
    """The games: how many, on what board, from what seed, after how many random moves."""
    parser.add_argument(
        "--games", type=positive_int, default=10, metavar="N", help="games to play (default 10)"
    )
    parser.add_argument(
        "--size",
        type=_whole,
        default=3,
        metavar="S",
        help=f"board size {MIN_SIZE}..{MAX_SIZE} (default 3)",
    )
    parser.add_argument(
        "--k",
        type=_whole,
        default=None,
        metavar="K",
        help="marks in a row that win, 3..size (default: min(size, 5))",
    )
    parser.add_argument(
        "--seed",
        type=_whole,
        default=0,
        metavar="N",
        help="seed for openings and tie-breaks (default 0)",
    )
    parser.add_argument(
        "--opening",
        type=_whole,
        default=None,
        metavar="MOVES",
        help="random moves that open each game (default 0 on 3x3, 2 above)",
    )


class ProgressBar:
    """A one-line progress bar redrawn in place on a terminal; silent elsewhere."""

    def __init__(self, games: int, stream: TextIO) -> None:
        self.games = games
        self.stream = stream
        self.enabled = stream.isatty()
        self.started = time.perf_counter()
        self.done = 0
        self.tally = {"x": 0, "o": 0, None: 0}
        self.move = 0
        self._drawn = 0.0

    def on_move(self, index: int, board: Board) -> None:
        """A move was played in game `index`."""
        self.move = board.move_count
        if time.perf_counter() - self._drawn >= REDRAW_EVERY:
            self.draw()

    def on_game(self, index: int, outcome: GameOutcome) -> None:
        """Game `index` ended."""
        self.done = index + 1
        self.tally[outcome.winning_side] += 1
        self.move = 0
        self.draw()

    def draw(self) -> None:
        """Redraw the bar: games done, the score so far, the move of the game being played."""
        if not self.enabled:
            return
        self._drawn = time.perf_counter()
        filled = BAR_WIDTH * self.done // self.games
        bar = "█" * filled + "░" * (BAR_WIDTH - filled)
        elapsed = int(self._drawn - self.started)
        playing = ""
        if self.done < self.games:
            playing = f"  game {self.done + 1}" + (f", move {self.move}" if self.move else "")
        line = (
            f"{bar} {self.done}/{self.games} games  x {self.tally['x']} · "
            f"o {self.tally['o']} · draws {self.tally[None]}{playing}  "
            f"{elapsed // 60}:{elapsed % 60:02d}"
        )
        self.stream.write(f"\r{line}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        """Wipe the bar, so the results start on a clean line."""
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def as_json(result: MatchResult) -> dict[str, Any]:
    """The JSON object docs/lab.md documents: the issue's fixed keys first, then the details."""

    def record(side: str) -> dict[str, Any]:
        stats = result.x_stats if side == "x" else result.o_stats
        return {
            "wins": stats.overall.wins,
            "draws": stats.overall.draws,
            "losses": stats.overall.losses,
            "points": stats.overall.points,
            "as_x": _wdl(stats.as_x),
            "as_o": _wdl(stats.as_o),
            "moves": stats.moves,
            "mean_seconds": stats.mean_seconds,
            "mean_positions": _positions(result, side),
        }

    return {
        "x": result.x,
        "o": result.o,
        "games": result.games,
        "x_wins": result.x_wins,
        "o_wins": result.o_wins,
        "draws": result.draws,
        "mean_seconds": {"x": result.x_stats.mean_seconds, "o": result.o_stats.mean_seconds},
        "mean_positions": {"x": _positions(result, "x"), "o": _positions(result, "o")},
        "size": result.size,
        "k": result.k,
        "seed": result.seed,
        "requested": result.requested,
        "cancelled": result.cancelled,
        "players": {"x": record("x"), "o": record("o")},
        "results": [
            {
                "game": g.index + 1,
                "x_mark": str(g.x_mark),
                "winner": g.winning_side,
                "opening": g.opening,
                "moves": [cell_notation(m, result.size) for m in g.moves],
                "forfeit": None
                if g.forfeit is None
                else {
                    "side": g.forfeit.side,
                    "reason": g.forfeit.reason,
                    "log": list(g.forfeit.log),
                },
            }
            for g in result.outcomes
        ],
    }


def _positions(result: MatchResult, side: str) -> float | None:
    """Mean positions per move of `side`; None for an outside engine, which does not say."""
    label = result.x if side == "x" else result.o
    if label.startswith(f"{ENGINE}:"):
        return None
    return (result.x_stats if side == "x" else result.o_stats).mean_positions


def _wdl(stats: WinDrawLoss) -> dict[str, int]:
    return {"wins": stats.wins, "draws": stats.draws, "losses": stats.losses}


def as_table(result: MatchResult) -> str:
    """The result for people: who played, a row per player, the per-colour split."""
    size, k = result.size, result.k
    lines = [
        f"{result.x} (x) vs {result.o} (o): {result.games} game{'s' * (result.games != 1)} "
        f"on {size}×{size}, {k} in a row, seed {result.seed}",
        "x plays X in games 1, 3, 5, … and O in games 2, 4, …",
    ]
    if result.cancelled:
        lines.append(f"Stopped after {result.games} of {result.requested} games.")
    width = max(len(result.x), len(result.o), len("player") - 2)
    lines += [
        "",
        f"{'player':<{width + 2}}  wins  draws  losses  points  as X W/D/L  as O W/D/L  "
        "ms/move  positions/move",
    ]
    for side, name, stats in (("x", result.x, result.x_stats), ("o", result.o, result.o_stats)):
        overall = stats.overall
        lines.append(
            f"{side} {name:<{width}}  {overall.wins:>4}  {overall.draws:>5}  {overall.losses:>6}  "
            f"{overall.points:>6g}  {stats.as_x!s:>11}  {stats.as_o!s:>10}  "
            f"{stats.mean_seconds * 1000:>7.1f}  "
            f"{'—' if _positions(result, side) is None else f'{stats.mean_positions:,.0f}':>14}"
        )
    if result.forfeits:
        lines += ["", "Lost by a fault:"]
        for game in result.forfeits:
            assert game.forfeit is not None
            lines.append(f"  game {game.index + 1}: {game.forfeit.side} — {game.forfeit.reason}")
            lines += [f"      {line}" for line in game.forfeit.log[-3:]]
    return "\n".join(lines)


class _StopOnSignal:
    """Turns the first Ctrl+C or SIGTERM into a request to stop between moves."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _StopOnSignal:
        for number in (signal.SIGINT, signal.SIGTERM):
            self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _handle(self, number: int, frame: FrameType | None) -> None:
        self.signal = number
        # A second press means "now": give the signal back its usual effect.
        signal.signal(number, self._previous[number])

    def __call__(self) -> bool:
        return self.signal is not None


def main(argv: Sequence[str]) -> int:
    """Run the match the flags describe; print a table (or JSON); exit 2 on bad input."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        plan = MatchPlan(args.games, args.size, args.k, args.seed, opening_moves=args.opening)
    except ValueError as error:
        parser.error(str(error))
    for flag, spec in (("--x", args.x), ("--o", args.o)):
        problem = spec.shape_problem(plan.size, plan.win_length)
        if problem:
            parser.error(f"{flag} {spec}: {problem}")
    bar = ProgressBar(args.games, sys.stderr)
    with _StopOnSignal() as stop:
        bar.draw()
        try:
            result = run_match(args.x, args.o, plan, MatchHooks(stop, bar.on_game, bar.on_move))
        finally:
            bar.close()
    try:
        print(json.dumps(as_json(result), indent=2) if args.json else as_table(result))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (`| head`) has gone: nothing more to say, and no traceback either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if stop.signal is not None:
        return 128 + stop.signal
    return 0
