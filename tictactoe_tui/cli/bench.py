"""`tictactoe-tui bench`: runs the benchmarks, which live beside the package in a checkout.

The benchmarks (`benchmarks/` at the repository's root) are not installed with the game: they
measure the engine against plain minimax and against earlier revisions, which only makes sense
in a checkout. Run from elsewhere, the command says so in one line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tictactoe_tui.play.arguments import OneLineParser


def checkout_root() -> Path | None:
    """The repository the package was imported from, if it holds the benchmarks."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "benchmarks" / "bench.py").is_file() else None


def main(argv: list[str]) -> int:
    """Run `benchmarks.bench` with `argv`; exit 2 with one line when there is no checkout."""
    root = checkout_root()
    if root is None:
        OneLineParser(prog="tictactoe-tui bench").error(
            "the benchmarks live in the repository (benchmarks/): run this from a checkout")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from benchmarks.bench import main as bench_main

    return bench_main(argv)
