"""An independent win/draw/loss solver for small boards, sharing no code with the engine.

`brute.BruteForce` gives exact depth-aware values, which means visiting every position it can
reach: fine on 3×3, far too slow on 5×5 positions a dozen moves from the end. A puzzle's claims
need less: whether each move wins, draws or loses. This solver asks one question, "can the side
to move force a line?", as a plain AND/OR search with a memo, cut only by rules that are
textbook-sound:

- a side that can complete a line does; a side facing one winning cell must take it (any other
  move loses at once); a move leaving the opponent two winning cells loses;
- the Erdős–Selfridge criterion: if the lines a side could still fill weigh less than 1/2 in
  total (each 2^-(marks it lacks)) with that side to move, the other side has a strategy that
  blocks every one of them, so the side cannot force a line.

Lines come from `brute.lines_of`. A position is a pair of bit masks, the side to move first.
"""

from __future__ import annotations

from tests.engine.brute import BitLines


class WinDrawLoss(BitLines):
    """Outcomes (1 win, 0 draw, -1 loss for the side to move) on one board shape."""

    def __init__(self, size: int, k: int) -> None:
        super().__init__(size, k)
        self.memo: dict[tuple[int, int], bool] = {}

    def hopeless(self, me: int, opp: int) -> bool:
        """Erdős–Selfridge with `me` to move: the open lines weigh less than 1/2 (scaled by
        2**k to stay in integers), so `opp` can block every line `me` might fill."""
        weight = 0
        for line in self.lines:
            if not opp & line:
                weight += 1 << (me & line).bit_count()
        return 2 * weight < 1 << self.k

    def wins(self, me: int, opp: int) -> bool:
        """True when the side to move (marks `me`) can force a line of its own."""
        key = (me, opp)
        known = self.memo.get(key)
        if known is not None:
            return known
        empty = self.full & ~(me | opp)
        if self.winning_cells(me, opp) & empty:
            result = True
        elif not empty or self.hopeless(me, opp):
            result = False
        else:
            threat = self.winning_cells(opp, me) & empty
            moves = threat & -threat if threat else empty
            result = False
            while moves and not result:
                low = moves & -moves
                moves ^= low
                result = self.forced(me | low, opp)
        self.memo[key] = result
        return result

    def forced(self, me: int, opp: int) -> bool:
        """True when `me` (which just moved, no line complete) forces a line whatever `opp`,
        to move now, replies."""
        empty = self.full & ~(me | opp)
        if not empty or self.winning_cells(opp, me) & empty:
            return False
        mine = self.winning_cells(me, opp) & empty
        if mine & (mine - 1):
            return True
        replies = mine if mine else empty
        while replies:
            low = replies & -replies
            replies ^= low
            if not self.wins(me, opp | low):
                return False
        return True

    def move_outcome(self, me: int, opp: int, cell: int) -> int:
        """The outcome for the side to move (marks `me`) of playing the empty `cell`."""
        bit = 1 << cell
        if self.winning_cells(me, opp) & bit:
            return 1
        after = me | bit
        if self.forced(after, opp):
            return 1
        if not self.full & ~(after | opp):
            return 0
        return -1 if self.wins(opp, after) else 0
