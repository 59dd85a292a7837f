"""The app's stable entry point: `from tictactoe_tui.app import TicTacToeApp` (it lives in `ui`),
and `TicTacToeApp.from_args(argv)`, the app the command-line flags ask for (`cli.play`, which
binds it: the flags are the command line's)."""

import tictactoe_tui.cli.play  # noqa: F401  (binds TicTacToeApp.from_args)
from tictactoe_tui.ui.app import TicTacToeApp

__all__ = ["TicTacToeApp"]
