"""The pure game engine: boards, rules, heuristics, search and computer players.

Standard library only: it never imports textual or anything else from the app.
"""

from tictactoe_tui.engine.board import Board, Geometry, IllegalMove, Mark, geometry
from tictactoe_tui.engine.evaluate import H1Terms, H2Terms, explain_h1, explain_h2, h1, h2
from tictactoe_tui.engine.search import (
    ALGORITHMS,
    Analysis,
    Evaluator,
    MoveScore,
    SearchResult,
    alphabeta,
    analyse,
    analyse_position,
    describe_score,
    minimax,
    win_score,
)

__all__ = [
    "ALGORITHMS",
    "Analysis",
    "Board",
    "Evaluator",
    "Geometry",
    "H1Terms",
    "H2Terms",
    "IllegalMove",
    "Mark",
    "MoveScore",
    "SearchResult",
    "alphabeta",
    "analyse",
    "analyse_position",
    "describe_score",
    "explain_h1",
    "explain_h2",
    "geometry",
    "h1",
    "h2",
    "minimax",
    "win_score",
]
