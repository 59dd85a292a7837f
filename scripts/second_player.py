"""The engine as the second player: where its games as O are lost.

    python scripts/second_player.py --against 098e9b6 [--games 20] [--time 0.25] [--seed 1]
                                    [--json games.json] [--blame 3] [--o-engine PATH]

Plays this checkout's engine as O only against revision REV's engine as X (the plumbing of
`bench --against`: a temporary worktree and one worker process per engine; `match.run_match`
with its seeded random openings), two games at a time. Prints X's wins, the draws and O's wins,
and with `--json` writes every game's moves. `--blame S` then searches each lost game's O turns
for S seconds each and names the first turn already lost, the O move just before it (the
deciding mistake, unless O was lost earlier still, beyond what S seconds can see) and whether
that move allows a threat win (a VCT of up to eight threats within 200,000 nodes) or a win that
no threat search finds.

`--o-engine PATH` seats an outside Gomocup engine as O instead (same openings, same X, same
clock): what a stronger second player makes of the same games, the yardstick for this one's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench import EngineWorker, RemotePlayer, revision_checkout  # noqa: E402
from tictactoe_tui.engine import Board, alphabeta  # noqa: E402
from tictactoe_tui.engine.players.match import (  # noqa: E402
    DEFAULT_OPENING_MOVES,
    MatchPlan,
    PlayerSpec,
    run_match,
)
from tictactoe_tui.engine.players.outside import ENGINE  # noqa: E402
from tictactoe_tui.engine.proofs.threats import find_vct  # noqa: E402
from tictactoe_tui.engine.rules.board import cell_notation  # noqa: E402

BLAME_ATTACKS, BLAME_NODES = 8, 200_000
"""The threat search that tells a threat win from a deeper one."""


def play_part(
    new_root: str,
    old_root: str,
    games: int,
    time_limit: float,
    seed: int,
    size: int = 15,
    o_engine: str | None = None,
) -> list[dict[str, object]]:
    """`games` games of `match.run_match` with the old engine always X and the new always O
    (k = 5, or the size); the outside engine `o_engine` as O instead, when given."""
    old = EngineWorker(Path(old_root))
    new = EngineWorker(Path(new_root)) if o_engine is None else None
    o_player = (
        partial(RemotePlayer, new, time_limit, None)
        if new is not None
        else PlayerSpec(ENGINE, time_limit=time_limit, path=o_engine).build
    )
    try:
        result = run_match(
            partial(RemotePlayer, old, time_limit, None),
            o_player,
            MatchPlan(
                games,
                size=size,
                k=min(size, 5),
                seed=seed,
                swap_colours=False,
                opening_moves=DEFAULT_OPENING_MOVES,
            ),
        )
    finally:
        if new is not None:
            new.close()
        old.close()
    return [
        {
            "seed": seed,
            "pair": game.index,
            "opening": game.opening,
            "moves": list(game.moves),
            "winner": None if game.winner is None else game.winner.value,
            "forfeit": None if game.forfeit is None else game.forfeit.reason,
        }
        for game in result.outcomes
    ]


def play_as_o(
    rev: str,
    games: int,
    time_limit: float,
    seed: int,
    size: int = 15,
    jobs: int = 2,
    o_engine: str | None = None,
) -> list[dict[str, object]]:
    """`games` games of this checkout's engine (or the outside engine `o_engine`) as O against
    revision `rev`'s as X, shared out over `jobs` processes with seeds of their own (as
    `bench --against` does)."""
    shares = [games // jobs + (1 if job < games % jobs else 0) for job in range(jobs)]
    with revision_checkout(rev) as (old_root, _), ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            play_part,
            [str(ROOT)] * jobs,
            [str(old_root)] * jobs,
            shares,
            [time_limit] * jobs,
            [seed * 100 + job for job in range(jobs)],
            [size] * jobs,
            [o_engine] * jobs,
        )
        return [game for part in parts for game in part]


def blame(game: dict[str, object], seconds: float, size: int = 15) -> str:
    """Where a game O lost was decided (see the module docstring)."""
    moves = game["moves"]
    assert isinstance(moves, list)
    boards = [Board.empty(size, min(size, 5))]
    for move in moves:
        boards.append(boards[-1].play(move))
    for ply in range(int(str(game["opening"])), len(moves)):
        board = boards[ply]
        if board.to_move.value == "O" and alphabeta(board, time_limit=seconds).band == "loss":
            break
    else:
        return "O was never found lost"
    before = ply - 2
    if before < 0 or boards[before].to_move.value != "O":
        return f"O lost from ply {ply}, already after the opening"
    move = moves[before]
    after = boards[before + 1]
    found = find_vct(after, BLAME_ATTACKS, BLAME_NODES)
    how = (
        f"X wins by threats in {found.plies}"
        if found is not None
        else "no threat win: a deeper win"
    )
    return (
        f"O lost from ply {ply}; O's move before, {cell_notation(move, size)} at ply {before}: "
        f"{how}; board before it {str(boards[before]).replace(chr(10), '/')}"
    )


def main(argv: list[str] | None = None) -> int:
    """Play, report, and blame if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, metavar="REV")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--blame", type=float, metavar="SECONDS")
    parser.add_argument(
        "--o-engine",
        metavar="PATH",
        help="an outside Gomocup engine plays O instead of this checkout",
    )
    args = parser.parse_args(argv)
    if args.o_engine is not None:
        try:
            PlayerSpec(ENGINE, time_limit=args.time, path=args.o_engine)
        except ValueError as error:
            parser.error(str(error))
    games = play_as_o(
        args.against, args.games, args.time, args.seed, args.size, o_engine=args.o_engine
    )
    if args.json is not None:
        args.json.write_text(json.dumps(games))
    results = Counter(game["winner"] for game in games)
    who = "new" if args.o_engine is None else Path(args.o_engine).name
    forfeits = sum(1 for game in games if game["forfeit"] is not None)
    print(
        f"{who} as O against {args.against} as X, {args.time:g} s a move, seed {args.seed}: "
        f"X won {results['X']}, drew {results[None]}, O won {results['O']}"
        + (f" ({forfeits} by forfeit)" if forfeits else "")
    )
    if args.blame is not None:
        for game in games:
            if game["winner"] == "X":
                print(
                    f"seed {game['seed']}, game {game['pair']}: "
                    f"{blame(game, args.blame, args.size)}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
