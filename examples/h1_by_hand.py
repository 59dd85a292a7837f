"""Heuristic H1 written by hand: on 3×3, 3·X2 + X1 − (3·O2 + O1), seen from `player`.

X2 counts the lines holding two of `player`'s marks and none of the opponent's, X1 those holding
one; O2 and O1 are the same for the opponent. On a bigger board a line of n marks is worth
3^(n-1) (1, 3, 9, ...); a full line is a win, not a term (it adds 0). It gives the engine's own
h1 on every 3×3 position (a test checks them all) and on bigger boards too.
"""


def worth(marks, k):
    """What an open line with `marks` of one player's marks is worth: 3^(marks-1), 0 if none."""
    return 3 ** (marks - 1) if 0 < marks < k else 0


def evaluate(board, player):
    """H1 of `board` for `player`: higher is better for `player`."""
    opponent = player.opponent
    total = 0
    for line in board.geometry.line_cells:  # every row, column and diagonal, as cell numbers
        marks = [board[cell] for cell in line]  # each a Mark, or None for an empty cell
        if opponent not in marks:
            total += worth(marks.count(player), board.k)
        if player not in marks:
            total -= worth(marks.count(opponent), board.k)
    return total
