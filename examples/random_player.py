"""A random player: any empty cell, each as likely as the others.

Play it with `tictactoe-tui --opponent python:path=examples/random_player.py`, or grade it with
`tictactoe-tui grade examples/random_player.py`. `RANDOM = True` tells the grade that two calls
on the same position may answer differently (without it, that is a broken contract).
"""

import random

RANDOM = True


def choose(board):
    """Any legal move: `board.legal_moves()` lists the empty cells (0 is A1, 1 is B1, ...)."""
    return random.choice(board.legal_moves())
