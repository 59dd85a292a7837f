"""The engine as it was before issue 11 (main at commit 53ccb2d), kept only for the benchmark.

`_fastsearch.py`, `search.py` and `players.py` are verbatim copies of that commit's
`tictactoe_tui/engine/` modules with their imports pointed here; the board and the heuristics
(`board.py`, `evaluate.py`) are the package's own, whose rules did not change. `bench --match`
plays the new engine against `LegacyAlphaBetaPlayer` to show what issue 11 changed. Nothing in
the package imports this.
"""

from benchmarks.legacy_engine.players import AlphaBetaPlayer as LegacyAlphaBetaPlayer

__all__ = ["LegacyAlphaBetaPlayer"]
