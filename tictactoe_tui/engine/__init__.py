"""The pure game engine: boards, rules, heuristics, search and computer players.

Standard library only: it never imports textual or anything else from the app.
"""

from tictactoe_tui.engine.evaluation.heuristics import (
    H1Terms,
    H2Terms,
    explain_h1,
    explain_h2,
    h1,
    h2,
)
from tictactoe_tui.engine.players.computer import (
    OPPONENTS,
    AlphaBetaPlayer,
    Decision,
    DifficultyPlayer,
    HeuristicPlayer,
    MinimaxPlayer,
    Player,
    RandomPlayer,
    make_player,
)
from tictactoe_tui.engine.players.match import (
    Forfeit,
    GameOutcome,
    MatchHooks,
    MatchPlan,
    MatchResult,
    PlayerSpec,
    run_match,
)
from tictactoe_tui.engine.players.outside import EngineFault, EngineReport, OutsidePlayer
from tictactoe_tui.engine.proofs.pairing import Pair, Pairing, find_pairing
from tictactoe_tui.engine.rules.board import Board, Geometry, IllegalMove, Mark, geometry
from tictactoe_tui.engine.rules.game import Game, GameResult
from tictactoe_tui.engine.search.api import (
    ALGORITHMS,
    alphabeta,
    analyse,
    analyse_position,
    search_move,
)
from tictactoe_tui.engine.search.kernel import Evaluator
from tictactoe_tui.engine.search.limits import NO_LIMITS, Limits
from tictactoe_tui.engine.search.minimax import minimax
from tictactoe_tui.engine.search.types import (
    BANDS,
    KINDS,
    RULES,
    SOURCES,
    Algorithm,
    Analysis,
    IterationInfo,
    MoveScore,
    Progress,
    ProgressCallback,
    SearchResult,
    describe_score,
    win_score,
)

__all__ = [
    "ALGORITHMS",
    "BANDS",
    "KINDS",
    "NO_LIMITS",
    "OPPONENTS",
    "RULES",
    "SOURCES",
    "Algorithm",
    "AlphaBetaPlayer",
    "Analysis",
    "Board",
    "Decision",
    "DifficultyPlayer",
    "EngineFault",
    "EngineReport",
    "Evaluator",
    "Forfeit",
    "Game",
    "GameOutcome",
    "GameResult",
    "Geometry",
    "H1Terms",
    "H2Terms",
    "HeuristicPlayer",
    "IllegalMove",
    "IterationInfo",
    "Limits",
    "Mark",
    "MatchHooks",
    "MatchPlan",
    "MatchResult",
    "MinimaxPlayer",
    "MoveScore",
    "OutsidePlayer",
    "Pair",
    "Pairing",
    "Player",
    "PlayerSpec",
    "Progress",
    "ProgressCallback",
    "RandomPlayer",
    "SearchResult",
    "alphabeta",
    "analyse",
    "analyse_position",
    "describe_score",
    "explain_h1",
    "explain_h2",
    "find_pairing",
    "geometry",
    "h1",
    "h2",
    "make_player",
    "minimax",
    "run_match",
    "search_move",
    "win_score",
]
