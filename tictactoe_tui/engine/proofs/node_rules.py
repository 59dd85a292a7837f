"""What the threat rules say of a position for the exact solver (see `exact`): the doubles, the
move order, the move a rule decides.
"""

from __future__ import annotations

from tictactoe_tui.engine.rules.board import MAX_SIZE
from tictactoe_tui.engine.search.kernel import Shape, iter_cells, threats

CELL_BITS = (MAX_SIZE * MAX_SIZE - 1).bit_length()
"""Bits that hold any cell index of the biggest board, for the packed move-ordering keys."""
CELL_MASK = (1 << CELL_BITS) - 1

WIN_IN_3 = -1
"""What `Solver.doubles` returns when the mover has a double (any other answer is a mask)."""


class NodeRules:
    """The threat rules and the move order of the solver's positions (`sh`: their shape)."""

    sh: Shape
    grow: tuple[int, ...]

    def winning_cells(self, mine: int, opp: int, cell: int) -> int:
        """The cells (some maybe taken) where the owner of `mine`, just played at `cell`,
        completes a line through `cell` with its next move."""
        cells = 0
        need = self.sh.k - 1
        for line in self.sh.cell_lines[cell]:
            if not opp & line and (mine & line).bit_count() == need:
                cells |= line & ~mine
        return cells

    def doubles(self, me: int, opp: int) -> int | None:
        """The threat rules on doubles, for a position where neither side has a winning cell.

        A *double* is a cell where one move makes two winning cells at once. Returns `WIN_IN_3`
        if the mover has one (it plays it, the opponent blocks one cell, it takes the other);
        None if the opponent has none; else the cells that still matter: the moves that stop
        every double of the opponent (the double itself, or one of its exactly two winning
        cells) and the mover's moves that make a winning cell of its own. Every other move loses
        in 4: the opponent plays a double left open.
        """
        sh = self.sh
        need = sh.k - 2
        mine: dict[int, int] = {}
        theirs: dict[int, int] = {}
        my_fours = 0
        for line in sh.lines:
            m = me & line
            t = opp & line
            if t:
                if m or t.bit_count() != need:
                    continue
                partners = theirs
                free = line & ~t
            elif m.bit_count() == need:
                partners = mine
                free = line & ~m
                my_fours |= free
            else:
                continue
            a = free & -free
            b = free ^ a
            partners[a] = partners.get(a, 0) | b
            partners[b] = partners.get(b, 0) | a
        for wins in mine.values():
            if wins & (wins - 1):
                return WIN_IN_3
        stop = -1
        found = False
        for bit, wins in theirs.items():
            if wins & (wins - 1):
                found = True
                # Taking one of exactly two winning cells leaves one, which can be blocked.
                stop &= bit | (wins if (wins & (wins - 1)).bit_count() == 1 else 0)
        if not found:
            return None
        return stop | my_fours

    def ordered(self, me: int, opp: int, empty: int) -> list[int]:
        """Empty cells by what they do to the lines through them, the most first.

        A cell scores the H1 gain of the mover's lines plus the weight of the opponent's lines it
        kills: the defender's refutation in a draw proof is nearly always the cell that kills
        the most of the attacker's lines, and the attacker's win the one that builds the most.
        Ties go to the lower cell.
        """
        sh = self.sh
        weights = sh.line_value
        grow = self.grow
        cell_lines = sh.cell_lines
        keyed = []
        while empty:
            low = empty & -empty
            empty ^= low
            cell = low.bit_length() - 1
            gain = 0
            for line in cell_lines[cell]:
                theirs = opp & line
                if theirs:
                    if not me & line:
                        gain += weights[theirs.bit_count()]
                else:
                    gain += grow[(me & line).bit_count()]
            # One int per cell sorts faster than a tuple: the gain, then the lower cell
            # (CELL_BITS holds any cell of the biggest board).
            keyed.append(gain << CELL_BITS | CELL_MASK - cell)
        keyed.sort(reverse=True)
        return [CELL_MASK - (key & CELL_MASK) for key in keyed]

    def rule_move(self, me: int, opp: int, empty: int) -> int:
        """The move a threat rule dictates, or -1: a win, a block, a double of one's own."""
        sh = self.sh
        win_now = threats(sh, me, opp) & empty
        if win_now:
            return win_now.bit_length() - 1
        block = threats(sh, opp, me) & empty
        if block:
            # A forced block, or one of two when the game is lost anyway.
            return block.bit_length() - 1
        for cell in iter_cells(empty):
            if (threats(sh, me | 1 << cell, opp) & empty & ~(1 << cell)).bit_count() >= 2:
                return cell
        return -1
