"""The threat search's cost on the deciding positions, against an earlier revision's search.

    python -m tictactoe_tui bench --threats [--against-threats REV]

For each position of `threat_positions.DECIDING` (76 threat wins from the games lost to Rapfi),
a fresh search looks for the side to move's VCT (up to eight threats, 200,000 nodes), as
`scripts/second_player.py` does: with this checkout's `ThreatSearch` and with the one of
revision REV (default 907400b, the search before issue 26), loaded from git into this process,
so both run on the same machine at the same moment; this checkout's search runs twice, with the
compiled kernel (when it is installed) and pure. Prints, per search, the positions proven,
the nodes and the seconds in total, the proofs per second and the ratio of the old to the new.
"""

from __future__ import annotations

import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from benchmarks.threat_positions import DECIDING
from tictactoe_tui.engine.proofs.lines import LineState, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch, kernel_available
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.text.table import table

BASELINE = "907400b"
"""The revision whose threat search issue 26 measures against (stage 4 as it landed)."""

ATTACKS, NODES = 8, 200_000
"""The VCT asked of every position (as the study of the second player asks it)."""

ROOT = Path(__file__).resolve().parents[1]


def old_threats(rev: str) -> ModuleType | None:
    """Revision `rev`'s `engine/threats.py`, imported under its own name (it imports only the
    engine's board and lines, which have not changed their interface); None outside a git
    checkout or when git does not know `rev`."""
    try:
        source = subprocess.run(
            ["git", "show", f"{rev}:tictactoe_tui/engine/threats.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    folder = Path(tempfile.mkdtemp(prefix="threats-"))
    path = folder / f"threats_{rev}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def measure(make: Callable[[], object]) -> tuple[int, int, float, list[int]]:
    """(positions proven, nodes, seconds, each position's nodes) of a fresh search per position."""
    proven = nodes = 0
    seconds = 0.0
    each = []
    for _, text in DECIDING:
        board = Board.from_string(text, k=5)
        state = LineState.from_board(board)
        search = make()
        began = time.perf_counter()
        line = search.vct(state, side_of(board.to_move), ATTACKS, NODES)  # type: ignore[attr-defined]
        seconds += time.perf_counter() - began
        proven += line is not None
        nodes += search.nodes  # type: ignore[attr-defined]
        each.append(search.nodes)  # type: ignore[attr-defined]
    return proven, nodes, seconds, each


def bench_deciding(rev: str = BASELINE) -> str:
    """The table: each search's proofs, nodes and time on the deciding positions."""
    rows = []
    runs: list[tuple[str, tuple[int, int, float, list[int]]]] = []
    old = old_threats(rev)
    if old is not None:
        runs.append((f"{rev} (before issue 26)", measure(old.ThreatSearch)))
    if kernel_available():
        runs.append(("this checkout, compiled kernel", measure(ThreatSearch)))
    runs.append(("this checkout, pure Python", measure(lambda: ThreatSearch(kernel=False))))
    base = runs[0][1]
    for name, (proven, nodes, seconds, each) in runs:
        rows.append(
            [
                name,
                f"{proven}/{len(DECIDING)}",
                f"{nodes:,}",
                f"{statistics.median(each):,.0f}",
                f"{seconds:.2f}",
                f"{proven / seconds:.1f}" if seconds else "-",
                f"{base[1] / nodes:.1f}x" if nodes else "-",
                f"{base[2] / seconds:.1f}x" if seconds else "-",
            ]
        )
    headers = [
        f"VCT on {len(DECIDING)} deciding positions (15x15)",
        "proven",
        "nodes",
        "median nodes",
        "seconds",
        "proofs/s",
        "fewer nodes",
        "less time",
    ]
    note = "" if old is not None else f"\n(no git checkout or no {rev}: only this checkout)"
    return table(headers, rows) + note
