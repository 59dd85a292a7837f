"""An evaluation to start from: H1's line count, plus a taste for corners.

Grade it with `tictactoe-tui grade examples/my_eval.py`, or play it with
`tictactoe-tui match --x alphabeta:eval=examples/my_eval.py:depth=2 --o h1`.

The contract: `evaluate(board, player)` returns a number, the worth of `board` for `player`
(higher is better for `player`). It is called on the board after each of `player`'s legal moves;
the player wins at once when it can, blocks the opponent's win when it must, and otherwise plays
the move whose board scores best. It must return the same number for the same position (unless
the file says `RANDOM = True`), answer within the time limit, raise nothing and print nothing.
`board` is the engine's `Board`: `str(board)` is "X../.O./..." (rows top to bottom, "." for an
empty cell), `board[i]` the mark on cell i (0 is A1, 1 is B1, …) or None, `board.to_move` the side
to move; `player` is a `Mark`, "X" or "O".

As X it beats the H1 player: it opens in a corner, and when O answers in the centre it takes
the opposite corner, where H1's one-move look picks a corner that loses to a fork. As O it only
draws against H1, and the full search beats it: it answers a corner with a corner. Improving
that is yours to do.
"""

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
CORNERS = (0, 2, 6, 8)


def lines(cells: str, me: str, opp: str) -> int:
    """H1 from `me`'s side: 3 for each line of two, 1 for each line of one, the opponent's minus."""
    total = 0
    for line in LINES:
        marks = [cells[i] for i in line]
        if opp not in marks:
            n = marks.count(me)
            total += 3 if n == 2 else n
        if me not in marks:
            n = marks.count(opp)
            total -= 3 if n == 2 else n
    return total


def evaluate(board, player):
    """The worth of `board` for `player`."""
    cells = str(board).replace("/", "")
    me = str(player)
    opp = "O" if me == "X" else "X"
    total = lines(cells, me, opp)
    total += 2 * sum(cells[i] == me for i in CORNERS)
    if cells[0] == cells[8] == me or cells[2] == cells[6] == me:
        total += 3  # two opposite corners
    return total
