"""tictactoe-tui: a terminal tic-tac-toe that shows how its computer opponent thinks."""

__version__ = "0.1.0"
