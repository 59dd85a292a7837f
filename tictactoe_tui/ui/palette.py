"""The command palette's own commands (beside Textual's): the settings, the help, the match
runner, the history, the puzzles, and on a Game screen the learning lab's screens."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.screen import Screen

if TYPE_CHECKING:
    from tictactoe_tui.ui.app import TicTacToeApp


def app_commands(app: TicTacToeApp, screen: Screen[Any]) -> Iterable[SystemCommand]:
    """The app's commands for the palette opened over `screen` (by class name, so asking
    never loads the Game screen's module)."""
    yield SystemCommand("Settings", "Choose the mode, opponent, board and theme", app.open_settings)
    yield SystemCommand("Help", "Rules, keys and how the computer thinks", app.open_help)
    yield SystemCommand("Match runner", "N games between two computer settings", app.open_match)
    if type(screen).__name__ == "GameScreen":
        yield from lab_commands(screen)
    yield SystemCommand("History", "Every game played, and a review of each", app.open_history)
    yield SystemCommand(
        "Puzzles",
        "Find the only win or the only defence: proven puzzles (key z)",
        app.open_puzzles,
    )


def lab_commands(screen: Any) -> Iterable[SystemCommand]:
    """The learning lab's screens, opened from the Game screen `screen`."""
    yield SystemCommand(
        "Compare the algorithms",
        "Learning lab: every search on this position, side by side (key a)",
        screen.action_compare,
    )
    yield SystemCommand(
        "Search tree",
        "Learning lab: the alpha-beta search from this position as a tree, step by step (key t)",
        screen.action_search_tree,
    )
    yield SystemCommand(
        "Heuristic lab", "How H1 and H2 rank this position's moves", screen.action_heuristics
    )
    yield SystemCommand(
        "Why a draw",
        "Learning lab: the pairing strategy that proves "
        "the side that moved last cannot lose, drawn on the board, to "
        "play against (key d)",
        screen.action_pairing,
    )
