"""The pure game engine: boards, rules, heuristics, search and computer players.

Standard library only: it never imports textual or anything else from the app.

Every public name is importable from here (`from tictactoe_tui.engine import Board`), but each is
loaded from its room only when first asked for (PEP 562): the app's first paint waits for the
rules it draws, not for the searches, the proofs and the lab (`Board` alone costs a few
milliseconds, the whole engine about a hundred and fifty on a busy machine).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

_ROOMS: dict[str, tuple[str, ...]] = {
    "rules.board": ("Board", "Geometry", "IllegalMove", "Mark", "geometry"),
    "rules.game": ("Game", "GameResult"),
    "evaluation.heuristics": ("H1Terms", "H2Terms", "explain_h1", "explain_h2", "h1", "h2"),
    "search.types": (
        "BANDS",
        "KINDS",
        "RULES",
        "SOURCES",
        "Algorithm",
        "Analysis",
        "IterationInfo",
        "MoveScore",
        "Progress",
        "ProgressCallback",
        "SearchResult",
        "describe_score",
        "win_score",
    ),
    "search.limits": ("NO_LIMITS", "Limits"),
    "search.kernel": ("Evaluator",),
    "search.minimax": ("minimax",),
    "search.api": ("ALGORITHMS", "alphabeta", "analyse", "analyse_position", "search_move"),
    "proofs.pairing": ("Pair", "Pairing", "find_pairing"),
    "players.computer": (
        "OPPONENTS",
        "AlphaBetaPlayer",
        "Decision",
        "DifficultyPlayer",
        "HeuristicPlayer",
        "MinimaxPlayer",
        "Player",
        "RandomPlayer",
        "make_player",
    ),
    "players.match": (
        "Forfeit",
        "GameOutcome",
        "MatchHooks",
        "MatchPlan",
        "MatchResult",
        "PlayerSpec",
        "run_match",
    ),
    "players.outside": ("EngineFault", "EngineReport", "OutsidePlayer"),
}
"""Each room (a module under `tictactoe_tui.engine`) and the public names it defines."""

_ROOM_OF = {name: room for room, names in _ROOMS.items() for name in names}

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


def __getattr__(name: str) -> object:
    """Load a public name from its room on first access, and keep it here for the next."""
    room = _ROOM_OF.get(name)
    if room is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{room}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's own names and every public one, loaded or not."""
    return sorted({*globals(), *__all__})
