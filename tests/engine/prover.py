"""An independent bounded prover of k-in-a-row wins, for checking the engine's proofs.

It shares no code with the engine: its lines come from `brute.lines_of`, its rules are the game's.
It answers "does the attacker win within p plies?" by trying, for the attacker, the moves that
make a four or a line of k-2 (a subset: enough to confirm a win, never to refute one), and for the
defender every legal move. Its only shortcuts skip defender replies that lose at once (not
blocking the attacker's single winning cell, or facing two of them).
"""

from __future__ import annotations

from tests.engine.brute import BitLines
from tictactoe_tui.engine import Board, win_score


class Prover(BitLines):
    """Bounded "wins within p plies" questions on one board shape, remembered between calls."""

    def __init__(self, size: int, k: int) -> None:
        super().__init__(size, k)
        self.memo: dict[tuple[int, int, int, bool], bool] = {}

    def attacks(self, me: int, opp: int) -> tuple[bool, list[int]]:
        """Whether `me` has a move making two winning cells, and its moves making a four or a
        line of k-2 (one bit each, no repeats)."""
        occupied = me | opp
        partners: dict[int, int] = {}
        threes = 0
        for line in self.lines:
            if opp & line:
                continue
            count = (me & line).bit_count()
            if count == self.k - 2:
                spaces = line & ~occupied
                low = spaces & -spaces
                partners[low] = partners.get(low, 0) | spaces ^ low
                partners[spaces ^ low] = partners.get(spaces ^ low, 0) | low
            elif count == self.k - 3:
                threes |= line & ~occupied
        double = any(wins & (wins - 1) for wins in partners.values())
        moves = list(partners)
        seen = sum(moves)
        while threes:
            low = threes & -threes
            threes ^= low
            if not seen & low:
                moves.append(low)
        return double, moves

    def attacker_wins(self, attacker: int, defender: int, plies: int) -> bool:
        """The attacker, to move, completes a line within `plies` plies whatever the defender
        does (True is certain; False only means the prover's moves found no such win)."""
        if self.winning_cells(attacker, defender):
            return plies >= 1
        if plies < 3:
            return False
        key = (attacker, defender, plies, True)
        if key not in self.memo:
            threat = self.winning_cells(defender, attacker)
            if threat & (threat - 1):
                result = False
            elif threat:
                result = self.defender_loses(attacker | threat, defender, plies - 1)
            else:
                double, moves = self.attacks(attacker, defender)
                # Within 3 or 4 plies only a move making two winning cells wins.
                result = double or (
                    plies >= 5
                    and any(
                        self.defender_loses(attacker | move, defender, plies - 1) for move in moves
                    )
                )
            self.memo[key] = result
        return self.memo[key]

    def defender_loses(self, attacker: int, defender: int, plies: int) -> bool:
        """The defender, to move, cannot stop the attacker completing a line within `plies`."""
        if self.winning_cells(defender, attacker):
            return False
        empty = self.full & ~(attacker | defender)
        if not empty:
            return False
        wins = self.winning_cells(attacker, defender)
        if wins & (wins - 1):
            return plies >= 2
        if wins:
            # Any reply but the block loses at once.
            return self.attacker_wins(attacker, defender | wins, plies - 1)
        if plies < 4:
            return False
        key = (attacker, defender, plies, False)
        if key not in self.memo:
            result = True
            while empty and result:
                low = empty & -empty
                empty ^= low
                result = self.attacker_wins(attacker, defender | low, plies - 1)
            self.memo[key] = result
        return self.memo[key]


def confirmed(board: Board, move: int, score: int) -> bool:
    """True when the prover agrees that `move` wins (score > 0) or loses (score < 0) for the side
    to move within the plies the score names."""
    plies = win_score(board) - abs(score)
    after = board.play(move)
    if after.winner is not None:
        return score > 0 and plies == 1
    prover = Prover(board.size, board.k)
    mover, other = after.bits(board.to_move), after.bits(board.to_move.opponent)
    if score > 0:
        return prover.defender_loses(mover, other, plies - 1)
    return prover.attacker_wins(other, mover, plies - 1)
