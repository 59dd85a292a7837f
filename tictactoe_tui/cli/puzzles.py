"""`tictactoe-tui puzzles`: puzzles with proven answers, made on the spot, as a list or JSON.

    tictactoe-tui puzzles                                  ten 3×3 puzzles, a readable list
    tictactoe-tui puzzles --size 10 --count 10 --seed 4    the same ten every time with seed 4
    tictactoe-tui puzzles --size 4 --k 3 --json            JSON (schema below)
    tictactoe-tui puzzles --from-history                   from the mistakes in your own games

Puzzles come from games the engine plays against itself at several strengths and from random
openings (`engine.puzzles.generate`), or from the positions where you missed the only win or the
only defence in the history's games; every one is proven before it is printed (see
`engine.puzzles`). The same --seed gives the same puzzles; without one a seed is drawn and
printed, so a list can be made again.

The JSON object: {"seed", "candidates", "seconds", "puzzles": [...]}, each puzzle with position
(as `analyse` reads it), size, k, to_move, goal ("win" or "hold"), answer ("B2"), plies (the
length of the proof), rating (a number) and rating_word, line (the proven line, the answer
first), explanation (its sentences), source, tempting (wrong moves that look right) and
branching (the defender replies the proof answers).

Engine-only (the history's store aside): never imports Textual.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from tictactoe_tui.engine.puzzles.proven import SHAPES, Generation, default_k, generate
from tictactoe_tui.engine.rules.board import (
    MAX_SIZE,
    MIN_SIZE,
    IllegalMove,
    cell_notation,
    check_shape,
)
from tictactoe_tui.history.locations import data_dir_argument
from tictactoe_tui.history.puzzles import puzzles_from_games
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.arguments import OneLineParser, positive_int
from tictactoe_tui.text.puzzles import explanation, goal_words

PROG = "tictactoe-tui puzzles"

MAX_COUNT = 500
"""The most puzzles one command makes."""


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def _shapes() -> str:
    return ", ".join(f"{s}×{s} k={k}" for s, k in SHAPES)


def build_parser() -> OneLineParser:
    """The puzzles command's flags."""
    parser = OneLineParser(
        prog=PROG,
        description="Make puzzles whose answers are proven: the only winning move, or the only "
        "defence, in positions from engine self-play and random openings.",
        epilog=f"Puzzles are made for {_shapes()} (other boards work too, when they have any). "
        "Example: tictactoe-tui puzzles --size 10 --count 10 --seed 1 --json",
    )
    parser.add_argument(
        "--size",
        type=_whole,
        default=3,
        metavar="N",
        help=f"board size {MIN_SIZE}..{MAX_SIZE} (default 3)",
    )
    parser.add_argument(
        "--k",
        type=_whole,
        default=None,
        metavar="K",
        help="marks in a row that win (default: 4 on 5×5 to 7×7, else min(size, 5))",
    )
    parser.add_argument(
        "--count",
        type=positive_int,
        default=10,
        metavar="C",
        help=f"how many puzzles, 1..{MAX_COUNT} (default 10)",
    )
    parser.add_argument(
        "--seed",
        type=_whole,
        default=None,
        metavar="S",
        help="seed for the games the puzzles come from (default: drawn, and printed)",
    )
    parser.add_argument(
        "--from-history",
        action="store_true",
        help="take the puzzles from the mistakes in the games of the history",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        type=data_dir_argument,
        help="where the history lives (with --from-history)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the list"
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Make the puzzles the flags ask for and print them."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    k = default_k(args.size) if args.k is None else args.k
    try:
        check_shape(args.size, k)
    except IllegalMove as error:
        parser.error(str(error))
    if args.count > MAX_COUNT:
        parser.error(f"--count must be at most {MAX_COUNT}, not {args.count}")
    seed = random.randrange(1 << 31) if args.seed is None else args.seed
    if args.from_history:
        store = HistoryStore.open(args.data_dir, create=False)
        if not store.path.exists():
            parser.error(
                f"there is no history at {store.path}: no game has been kept there "
                "(play one, or give the --data-dir it was played with)"
            )
        made = _from_history(store, args.size, k, args.count)
    else:
        made = generate(args.size, k, args.count, seed)
    if args.json:
        print(json.dumps(as_json(made, seed), indent=1, ensure_ascii=False))
    else:
        print(as_text(made, args.size, k, seed, args.from_history))
    if len(made.puzzles) < args.count:
        print(
            f"{PROG}: found {len(made.puzzles)} of the {args.count} puzzles asked for",
            file=sys.stderr,
        )
    return 0


def _from_history(store: HistoryStore, size: int, k: int, count: int) -> Generation:
    """The puzzles in the history's games of this board (newest games first); closes `store`."""
    if store.notice:
        print(f"{PROG}: {store.notice}", file=sys.stderr)
    games = []
    for summary in store.games(limit=-1):
        if (summary.size, summary.k) == (size, k):
            game = store.game(summary.id)
            if game is not None:
                games.append((summary.id, game))
    store.close()
    puzzles = puzzles_from_games(games, limit=count)
    moves = sum(len(game.moves) for _, game in games)
    return Generation(tuple(puzzles), moves, len(games), 0.0)


def as_json(made: Generation, seed: int) -> dict[str, object]:
    """The puzzles as the JSON object the module docstring describes."""
    puzzles = []
    for puzzle in made.puzzles:
        data = puzzle.to_json()
        data["explanation"] = explanation(puzzle)
        puzzles.append(data)
    return {
        "seed": seed,
        "candidates": made.candidates,
        "seconds": round(made.seconds, 3),
        "puzzles": puzzles,
    }


def as_text(made: Generation, size: int, k: int, seed: int, from_history: bool) -> str:
    """The puzzles as a readable list: each position, its goal, answer, line and words."""
    where = (
        "from the history's games"
        if from_history
        else f"seed {seed}, {made.candidates:,} positions examined in {made.seconds:.1f} s"
    )
    lines = [
        f"{len(made.puzzles)} puzzle{'s' if len(made.puzzles) != 1 else ''}, "
        f"{size}×{size} with {k} in a row ({where})"
    ]
    for number, puzzle in enumerate(made.puzzles, start=1):
        board = puzzle.board
        lines += [
            "",
            f"{number}. {goal_words(puzzle)} — difficulty {puzzle.rating} "
            f"({puzzle.word}), from {puzzle.source}",
        ]
        letters = "".join(chr(ord("A") + col) for col in range(size))
        lines.append(f"      {letters}")
        lines += [f"   {row:>2} {text}" for row, text in enumerate(board.rows(), start=1)]
        lines.append(f"   position: {puzzle.position}")
        lines.append(
            f"   answer: {cell_notation(puzzle.answer, size)} (proof: {puzzle.plies} plies)"
        )
        lines += [f"   {sentence}" for sentence in explanation(puzzle)]
    return "\n".join(lines)
