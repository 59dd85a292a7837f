"""Heuristic H1 written by hand: 3·X2 + X1 − (3·O2 + O1), seen from `player`.

X2 counts the lines holding two of `player`'s marks and none of the opponent's, X1 those holding
one; O2 and O1 are the same for the opponent. A full line is a win, not a term (it adds 0).
It gives the engine's own h1 on every 3×3 position (a test checks them all).
"""

WEIGHTS = {0: 0, 1: 1, 2: 3, 3: 0}  # marks in an open line -> what the line is worth


def evaluate(board, player):
    """H1 of `board` for `player`: higher is better for `player`."""
    opponent = player.opponent
    total = 0
    for line in board.geometry.line_cells:  # every row, column and diagonal, as cell numbers
        marks = [board[cell] for cell in line]  # each a Mark, or None for an empty cell
        if opponent not in marks:
            total += WEIGHTS[marks.count(player)]
        if player not in marks:
            total -= WEIGHTS[marks.count(opponent)]
    return total
