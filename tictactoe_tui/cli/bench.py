"""`tictactoe-tui bench`: runs the benchmarks, which live beside the package in a checkout.

The benchmarks (`benchmarks/` at the repository's root) are not installed with the game: they
measure the engine against plain minimax and against earlier revisions, which only makes sense
in a checkout. Where the package itself is a checkout's (`pip install -e .`, or `python -m
tictactoe_tui` run inside one) they run at once. Where it is an installed copy (`pip install .`),
the checkout the command is run in (the current folder or one above it) is found and its
benchmarks run with its own package, in a process of their own: the numbers are the checkout's
engine's, never the installed copy's. Anywhere else the command, and its `--help`, say in one
line how to run them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tictactoe_tui.play.arguments import OneLineParser

PROG = "tictactoe-tui bench"

HOW = (
    "the benchmarks live in the repository (benchmarks/), not in an installed copy: run "
    "tictactoe-tui bench inside a checkout (git clone, then cd into it)"
)
"""What to do when there is no checkout to run."""


def is_checkout(folder: Path) -> bool:
    """Whether `folder` is a checkout of the project: the package and its benchmarks."""
    return (folder / "benchmarks" / "bench.py").is_file() and (
        folder / "tictactoe_tui" / "__init__.py"
    ).is_file()


def checkout_root() -> Path | None:
    """The repository the package was imported from, if it holds the benchmarks."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "benchmarks" / "bench.py").is_file() else None


def checkout_around(folder: Path) -> Path | None:
    """The checkout `folder` is in (itself or the nearest folder above it), if any."""
    return next((place for place in (folder, *folder.parents) if is_checkout(place)), None)


def main(argv: list[str]) -> int:
    """Run `benchmarks.bench` with `argv`: the package's own checkout's, else the one the
    current folder is in; exit 2 with one line (or `--help` saying the same) without one."""
    root = checkout_root()
    if root is None:
        around = checkout_around(Path.cwd())
        parser = OneLineParser(prog=PROG, description=f"Time the engine. Here {HOW}.")
        if around is None:
            parser.parse_args(argv[:1] if argv[:1] in (["-h"], ["--help"]) else [])
            parser.error(HOW)
        # `python -m` puts the folder it runs in first on the path: the checkout's package is
        # imported there, not this installed copy.
        print(
            f"{PROG}: the benchmarks of the checkout in {around}, with its own engine",
            file=sys.stderr,
        )
        return subprocess.call([sys.executable, "-m", "tictactoe_tui", "bench", *argv], cwd=around)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from benchmarks.bench import main as bench_main

    return bench_main(argv)
