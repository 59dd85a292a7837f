"""The command line: play (the default) and one module per other command; `main` dispatches."""

from tictactoe_tui.cli.main import main

__all__ = ["main"]
