"""The doors out of the Game screen to the learning lab: the algorithms compared, the search
tree, the heuristic lab, the pairing view ("why a draw").

Each opens on the position of the moment (the game's, or an earlier one while stepping back)
after the game's search stops (`GameController.leave`); the search starts again when the Game
screen shows. Each lab screen's module loads when it is first opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe_tui.ui.screens.game import GameScreen


def open_compare(screen: GameScreen) -> None:
    """Every search algorithm on this position, side by side."""
    from tictactoe_tui.ui.screens.compare import CompareScreen  # the lab loads when opened

    screen.run_effects(screen.controller.leave())
    screen.app.push_screen(CompareScreen.for_game(screen.game, screen.settings))


def open_search_tree(screen: GameScreen) -> None:
    """The alpha-beta search from the position shown, as a tree."""
    from tictactoe_tui.ui.screens.tree import TreeScreen

    screen.run_effects(screen.controller.leave())
    screen.app.push_screen(
        TreeScreen(screen.controller.shown_position(), eval_file=screen.settings.eval_file or None)
    )


def open_heuristics(screen: GameScreen) -> None:
    """The heuristic lab on the position shown, with the panel's analysis of it (so the lab's
    numbers are the panel's) unless it is an earlier position."""
    from tictactoe_tui.ui.screens.heuristics import HeuristicScreen

    controller = screen.controller
    settings = screen.settings
    # The panel's analysis of this position, so the lab's numbers are the panel's.
    analysis = controller.analysed()
    screen.run_effects(controller.leave())
    # Looking back: the lab studies the earlier position shown, with no panel analysis.
    shown = controller.shown_position()
    if shown is not screen.game.board:
        analysis = None
    screen.app.push_screen(
        HeuristicScreen(
            shown,
            settings.search_time_limit,
            analysis=analysis,
            depth=settings.depth,
            eval_file=settings.eval_file or None,
        )
    )


def open_pairing(screen: GameScreen) -> None:
    """Why the position shown is a draw when a pairing strategy proves it, to play against."""
    from tictactoe_tui.ui.screens.pairing import PairingScreen

    screen.run_effects(screen.controller.leave())
    screen.app.push_screen(PairingScreen(screen.controller.shown_position()))
