"""Record, or check, what the searches return on fixed positions: a guard for refactorings.

    python scripts/search_fingerprint.py --write /tmp/before.json   # before the change
    python scripts/search_fingerprint.py --check /tmp/before.json   # after it: exit 1 if not equal

About 60 positions (3x3 to 15x15, random but seeded) are searched with depth and node budgets
only (no clocks): `analyse_position` and `alphabeta` to a fixed depth, `alphabeta` stopped after
a number of polls, `search_move`, the exact solver under a node budget, and three games played
with one `SearchMemory` (the tables kept from move to move). Every field of every answer is
kept (moves, scores, node counts, lines, kinds) except the times.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tictactoe_tui.engine import Board  # noqa: E402
from tictactoe_tui.engine.search.api import (  # noqa: E402
    FULL_SOLVE_MAX_EMPTY,
    SearchMemory,
    alphabeta,
    analyse_position,
    search_move,
)

TIMES = {"elapsed", "seconds", "time", "nps"}
"""Fields left out: they depend on the machine."""

DEPTH_SPECS = (
    (3, 3, 0, 9), (3, 3, 3, 9), (3, 3, 4, 9), (4, 4, 2, 16), (4, 4, 5, 16), (4, 3, 3, 16),
    (5, 4, 4, 4), (6, 4, 5, 4), (7, 5, 0, 3), (7, 5, 6, 4), (7, 5, 10, 4), (7, 5, 14, 3),
    (9, 5, 8, 3), (10, 5, 0, 3), (10, 5, 6, 4), (10, 5, 12, 3), (10, 5, 20, 3),
    (10, 5, 30, 2), (12, 6, 10, 3), (15, 5, 0, 2), (15, 5, 8, 3), (15, 5, 16, 3),
    (15, 5, 26, 2), (15, 5, 40, 2), (10, 4, 8, 3), (8, 5, 12, 4), (11, 5, 18, 3),
    (13, 5, 14, 3), (15, 5, 12, 4), (10, 5, 16, 4), (6, 5, 8, 5),
)  # fmt: skip
"""(size, k, stones, depth) of the depth-limited positions."""

SOLVE_SPECS = (
    (4, 4, 0), (4, 4, 3), (4, 3, 2), (5, 4, 6), (5, 4, 9), (6, 5, 12), (7, 5, 20), (5, 5, 5),
    (5, 4, 4), (5, 4, 8), (5, 5, 2), (5, 5, 10), (6, 5, 8), (6, 5, 16), (7, 5, 14), (7, 5, 26),
)  # fmt: skip
"""(size, k, stones) of the positions the exact solver gets (under a node budget; those with
more than `FULL_SOLVE_MAX_EMPTY` empty cells to depth 4 instead)."""


def plain(value: Any) -> Any:
    """`value` as JSON: dataclasses as dicts (times left out), enums as their values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: plain(getattr(value, field.name))
            for field in dataclasses.fields(value)
            if field.name not in TIMES
        }
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, float):
        return None
    return value


def stop_after(polls: int) -> Callable[[], bool]:
    """A `should_stop` that says stop from its `polls + 1`-th call on (a node budget)."""
    calls = 0

    def should_stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > polls

    return should_stop


def random_board(rng: random.Random, size: int, k: int, stones: int) -> Board:
    """A position of `stones` random moves (fewer if the next one would end the game)."""
    board = Board.empty(size, k)
    while board.move_count < stones:
        after = board.play(rng.choice(board.legal_moves()))
        if after.is_over:
            break
        board = after
    return board


def record() -> dict[str, Any]:
    """Every search's answer, by a name that says what was searched."""
    out: dict[str, Any] = {}
    rng = random.Random(2026)
    for size, k, stones, depth in DEPTH_SPECS:
        board = random_board(rng, size, k, stones)
        name = f"{size}x{size} k{k} {board}"
        out[f"{name} analyse depth {depth}"] = plain(analyse_position(board, depth=depth))
        out[f"{name} alphabeta depth {depth}"] = plain(alphabeta(board, depth=depth))
        if size >= 7:
            stopped = alphabeta(board, depth=8, should_stop=stop_after(40))
            out[f"{name} alphabeta stopped"] = plain(stopped)
            moves = board.legal_moves()
            move = moves[len(moves) // 2]
            out[f"{name} search_move {move}"] = plain(search_move(board, move, depth=2))
    rng = random.Random(7)
    for size, k, stones in SOLVE_SPECS:
        board = random_board(rng, size, k, stones)
        name = f"{size}x{size} k{k} {board}"
        # Without a depth, a position with more empty cells would get the default clock.
        empties = size * size - board.move_count
        depth = None if empties <= FULL_SOLVE_MAX_EMPTY else 4
        budget = stop_after(3000)
        out[f"{name} solve"] = plain(analyse_position(board, depth=depth, should_stop=budget))
        budget = stop_after(3000)
        out[f"{name} solve alphabeta"] = plain(alphabeta(board, depth=depth, should_stop=budget))
    for size, k in ((10, 5), (15, 5), (7, 5)):
        memory = SearchMemory()
        board = Board.empty(size, k)
        game = []
        while not board.is_over and board.move_count < 14:
            result = alphabeta(board, depth=3, memory=memory)
            game.append(plain(result))
            assert result.move is not None
            board = board.play(result.move)
        out[f"game {size}x{size} k{k}"] = game
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the record to a file, or check it against one (0 when equal, 1 when not)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, metavar="FILE")
    action.add_argument("--check", type=Path, metavar="FILE")
    args = parser.parse_args(argv)
    now = record()
    if args.write is not None:
        args.write.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"{len(now)} answers written to {args.write}")
        return 0
    before = json.loads(args.check.read_text())
    changed = sorted(
        name for name in before.keys() | now.keys() if before.get(name) != now.get(name)
    )
    for name in changed:
        print(f"changed: {name}")
    print(f"{len(now)} answers, {len(changed)} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
