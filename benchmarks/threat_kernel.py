"""The compiled threat kernel against the pure Python threat search, on the 76 deciding positions.

`python -m benchmarks.threat_kernel` runs a VCT (up to eight threats, 200,000 nodes; a fresh
`ThreatSearch` per position) on every position of `threat_positions.DECIDING`, once with the
pure Python search and once with the kernel, and prints the total time and nodes of each. The
lines and node counts must be identical (the run stops with an error if they are not).
"""

from __future__ import annotations

import os
import time

from benchmarks.threat_positions import DECIDING
from tictactoe_tui.engine.proofs.lines import LineState, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch, kernel_available
from tictactoe_tui.engine.rules.board import Board


def run(kernel: bool) -> tuple[float, int, list[list[int] | None]]:
    """Seconds, nodes and lines of the VCTs of every deciding position."""
    seconds, nodes, lines = 0.0, 0, []
    for _, text in DECIDING:
        board = Board.from_string(text, k=5)
        search = ThreatSearch(kernel=kernel)
        state = LineState.from_board(board)
        began = time.perf_counter()
        lines.append(search.vct(state, side_of(board.to_move), 8, 200_000))
        seconds += time.perf_counter() - began
        nodes += search.nodes
    return seconds, nodes, lines


def main() -> None:
    """Print the two runs and the speed-up."""
    if not kernel_available():
        raise SystemExit(
            "the compiled threat kernel is not built (or TICTACTOE_TUI_PURE_ENGINE "
            "is set): nothing to compare"
        )
    print(
        f"76 deciding positions, VCT (8 threats, 200,000 nodes); load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    pure = run(False)
    compiled = run(True)
    if pure[1:] != compiled[1:]:
        raise SystemExit("the kernel and the pure search disagree")
    wins = sum(line is not None for line in pure[2])
    print(f"pure Python  {pure[0]:7.2f} s  {pure[1]:,} nodes  {wins} wins")
    print(
        f"C kernel     {compiled[0]:7.2f} s  {compiled[1]:,} nodes  {wins} wins (identical lines)"
    )
    print(f"speed-up     {pure[0] / compiled[0]:.1f}x")


if __name__ == "__main__":
    main()
