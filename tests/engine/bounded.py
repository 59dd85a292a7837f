"""An independent full-width search to a horizon: "does the side to move force a line within p
plies?", for checking what the puzzles claim about every move, not only the answer.

It shares no code with the engine (lines from `brute.lines_of`), and unlike `prover.Prover`,
whose attacker tries only threats (so it can confirm a win but never deny one), it tries every
legal move of the attacker, so a False is as certain as a True. Its only cuts are rules that are
plainly sound:

- a side with a winning cell completes it; a side facing one winning cell must take it, facing
  two it cannot stop the other; a move leaving two winning cells wins within 3 plies;
- within 1 or 2 plies only a winning cell wins; within 3 or 4 only a move that leaves two;
- the defender's stones never help the attacker, so if the attacker cannot win in time even
  when the defender passes, every reply of the defender holds.
"""

from __future__ import annotations

from tests.engine.brute import BitLines


class Bounded(BitLines):
    """Wins-within-p questions on one board shape, remembered between calls."""

    def __init__(self, size: int, k: int) -> None:
        super().__init__(size, k)
        self.memo: dict[tuple[int, int, int, bool], bool] = {}

    def has_double(self, me: int, opp: int) -> bool:
        """Whether some empty cell leaves `me` two winning cells at once."""
        empty = self.full & ~(me | opp)
        cells = empty
        while cells:
            low = cells & -cells
            cells ^= low
            wins = self.winning_cells(me | low, opp) & empty & ~low
            if wins & (wins - 1):
                return True
        return False

    def wins(self, me: int, opp: int, plies: int) -> bool:
        """`me`, to move, completes a line within `plies` plies against every defence."""
        empty = self.full & ~(me | opp)
        if self.winning_cells(me, opp) & empty:
            return plies >= 1
        if plies < 3 or not empty:
            return False
        key = (me, opp, plies, True)
        if key in self.memo:
            return self.memo[key]
        threat = self.winning_cells(opp, me) & empty
        if threat & (threat - 1):
            result = False
        elif threat:
            result = self.after(me | threat, opp, plies - 1)
        elif self.has_double(me, opp):
            result = True
        elif plies < 5:
            result = False
        else:
            result = False
            cells = empty
            while cells and not result:
                low = cells & -cells
                cells ^= low
                result = self.after(me | low, opp, plies - 1)
        self.memo[key] = result
        return result

    def after(self, me: int, opp: int, plies: int) -> bool:
        """`me` just moved (no line complete), `opp` to move: `me` completes a line within
        `plies` plies (counted from `opp`'s move) whatever `opp` does."""
        empty = self.full & ~(me | opp)
        if not empty or self.winning_cells(opp, me) & empty:
            return False
        mine = self.winning_cells(me, opp) & empty
        if mine & (mine - 1):
            return plies >= 2
        if mine:
            return self.wins(me, opp | mine, plies - 1)
        if plies < 4 or not self.wins(me, opp, plies - 1):
            return False  # not even with a free move: no reply can help the attacker more
        key = (me, opp, plies, False)
        if key not in self.memo:
            result = True
            cells = empty
            while cells and result:
                low = cells & -cells
                cells ^= low
                result = self.wins(me, opp | low, plies - 1)
            self.memo[key] = result
        return self.memo[key]
