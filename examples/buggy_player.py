"""A player with a bug to find: grade it and read the first failure.

The idea is sound (win if you can, else take the centre, else a corner, else any cell), but the
centre test counts the moves made instead of looking at the cell: "the centre is free during the
first two moves" is true when X opens in a corner and false when X opens in the centre, so as
O it plays B2 on a cell X already holds. `tictactoe-tui grade examples/buggy_player.py` names
that position; fixing it is one line.
"""

CENTRE = 4
CORNERS = (0, 2, 6, 8)


def winning_move(board):
    """A move that wins at once, or None."""
    for move in board.legal_moves():
        if board.play(move).winner is not None:
            return move
    return None


def choose(board):
    """Win, else the centre, else a free corner, else the first empty cell."""
    move = winning_move(board)
    if move is not None:
        return move
    if board.move_count < 2:  # the bug: the centre may already be taken
        return CENTRE
    for corner in CORNERS:
        if board[corner] is None:
            return corner
    return board.legal_moves()[0]
