"""A perfect 3×3 player: plain minimax over the whole game, sooner wins worth more.

A win on the move itself scores 9, a loss on the opponent's reply -8, a draw 0 (the depth-aware
rule the engine uses): each ply between now and the end moves a score one step towards 0.
`cache` remembers every position's value, so the whole 3×3 game (5,478 positions) is searched
once per process, well inside the 1 s a call may take. On bigger boards it would be far too slow.
"""

from functools import cache


def toward_zero(score):
    """A score one ply further away: a win or a loss one step nearer 0."""
    return score - 1 if score > 0 else score + 1 if score < 0 else 0


@cache
def value(board):
    """The game's value for the side to move, with best play on both sides."""
    if board.winner is not None:
        return -10  # the player who just moved has won
    if board.is_over:
        return 0  # the board is full: a draw
    return max(toward_zero(-value(board.play(move))) for move in board.legal_moves())


def choose(board):
    """The move with the best value (the first such cell when several tie)."""
    return max(board.legal_moves(), key=lambda move: toward_zero(-value(board.play(move))))
