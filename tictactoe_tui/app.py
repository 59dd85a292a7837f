"""The app's stable entry point: `from tictactoe_tui.app import TicTacToeApp` (it lives in `ui`)."""

from tictactoe_tui.ui.app import TicTacToeApp

__all__ = ["TicTacToeApp"]
