"""Make the puzzle bank the package ships (engine/puzzles/puzzle_bank.json), reproducibly.

    python scripts/puzzle_bank.py              # the shipped bank: every board, seed 2025
    python scripts/puzzle_bank.py --seed 7     # another bank from another seed
    python scripts/puzzle_bank.py --board 10x10 --board 15x15
                                               # remake these boards' puzzles only, keeping
                                               # the others as the file has them

The bank is `engine.puzzles.generate` run for every board of `SHAPES` with the counts below,
from one seed: the same seed writes the same file. Each board's time and the share of the
positions examined that became puzzles are printed, as the report quotes them. The Puzzle
screen serves the bank first (instantly) and makes more in the worker once a board's puzzles
are all solved; the tests re-prove every puzzle in it with their own independent searches.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tictactoe_tui.engine.puzzles.proven import BANK_FILE, SHAPES, generate  # noqa: E402

COUNTS = {
    (3, 3): 25,
    (4, 3): 30,
    (4, 4): 30,
    (5, 4): 30,
    (6, 4): 30,
    (7, 4): 30,
    (10, 5): 40,
    (15, 5): 40,
}
"""Puzzles per board (3×3 has 25 distinct ones, up to symmetry: all of them)."""

DEFAULT_SEED = 2025
"""The seed of the shipped bank."""


def _board(text: str) -> int:
    """A board's size from "10x10" (or "10×10", or "10")."""
    found = re.fullmatch(r"(\d+)(?:[x×](\d+))?", text.strip())
    if found is None or (found[2] is not None and found[1] != found[2]):
        raise argparse.ArgumentTypeError(f"{text!r} is not a square board like 10x10")
    return int(found[1])


def main() -> None:
    """Write the bank and print what each board took."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--output", type=Path, default=ROOT / "tictactoe_tui" / "engine" / "puzzles" / BANK_FILE
    )
    parser.add_argument(
        "--board",
        action="append",
        type=_board,
        default=[],
        help="remake only this board's puzzles (SIZExSIZE, e.g. 10x10; "
        "repeatable); the other boards' are kept from --output as they are",
    )
    args = parser.parse_args()
    kept: dict[tuple[int, int], list[dict[str, object]]] = {}
    if args.board:
        old = json.loads(args.output.read_text(encoding="utf-8"))
        if old["seed"] != args.seed:
            parser.error(f"{args.output} was made from seed {old['seed']}, not {args.seed}")
        for item in old["puzzles"]:
            kept.setdefault((int(item["size"]), int(item["k"])), []).append(item)
    puzzles = []
    print(f"{'board':<12} {'puzzles':>7} {'examined':>9} {'share':>6} {'games':>6} {'seconds':>8}")
    start = time.perf_counter()
    for offset, shape in enumerate(SHAPES):
        if args.board and shape[0] not in args.board:
            puzzles += kept.get(shape, [])
            continue
        made = generate(*shape, COUNTS[shape], args.seed + offset)
        puzzles += [puzzle.to_json() for puzzle in made.puzzles]
        print(
            f"{shape[0]}×{shape[0]} k={shape[1]:<5} {len(made.puzzles):>7} "
            f"{made.candidates:>9,} {made.share:>6.1%} {made.games:>6,} "
            f"{made.seconds:>8.1f}",
            flush=True,
        )
    print(f"{len(puzzles)} puzzles in {time.perf_counter() - start:.0f} s")
    args.output.write_text(
        json.dumps({"seed": args.seed, "puzzles": puzzles}, indent=0, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    print(args.output)


if __name__ == "__main__":
    main()
