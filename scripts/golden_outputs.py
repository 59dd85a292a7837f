"""Write tests/golden/outputs.json: `analyse --json` and `compare --json` on fixed positions.

    python scripts/golden_outputs.py

The test `tests/test_outputs_unchanged.py` runs the same commands in-process and compares them
with this file (times left out), so a refactoring that changes what a command prints fails.
Rewrite the file only on purpose, when an output is meant to change, and say why in the commit.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tictactoe_tui.cli.main import main  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "outputs.json"

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("analyse", "XO./.X./..."),
    ("analyse", "XO./.X./...", "--algorithm", "minimax"),
    ("analyse", "XO./.X./...", "--algorithm", "h1"),
    ("analyse", "XO./.X./...", "--algorithm", "h2"),
    ("analyse", "X../.O./..X"),
    ("analyse", "XXX/OO./..."),
    ("analyse", "XO../.X../..O./...."),
    ("analyse", "XO.O/.XX./..O./X...", "--k", "3"),
    ("analyse", "...../...../..X../...../.....", "--k", "4", "--depth", "2"),
    ("analyse", "..../.X../..O./....", "--k", "4", "--depth", "3", "--algorithm", "h1"),
    (
        "analyse",
        "........./........./........./........./..XXX..../..OO...../........./........./.........",
        "--k",
        "5",
        "--depth",
        "2",
    ),
    ("compare", "XO./.X./..."),
    ("compare", "XOX/.O./..."),
    ("compare", "X../.O./..X"),
    ("compare", "XO.O/.XX./..O./X...", "--k", "3"),
    ("compare", "..../.X../..O./....", "--k", "4", "--depth", "2"),
)
"""Each command's arguments after `tictactoe-tui`; `--json` is added."""

TIMES = frozenset({"seconds", "elapsed", "ms", "time", "positions_per_second"})
"""Fields that hold a clock reading: they differ from run to run and are left out."""


def timeless(value: Any) -> Any:
    """The value with every clock reading left out, at any depth."""
    if isinstance(value, dict):
        return {key: timeless(item) for key, item in value.items() if key not in TIMES}
    if isinstance(value, list):
        return [timeless(item) for item in value]
    return value


def run(command: tuple[str, ...]) -> Any:
    """What `tictactoe-tui COMMAND --json` prints, parsed, times left out."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([*command, "--json"])
    if status != 0:
        raise SystemExit(f"{' '.join(command)} exited with {status}")
    return timeless(json.loads(out.getvalue()))


def outputs() -> dict[str, Any]:
    """Every command's output, keyed by its command line."""
    return {" ".join(command): run(command) for command in COMMANDS}


if __name__ == "__main__":
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(outputs(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN.relative_to(ROOT)}: {len(COMMANDS)} commands")
