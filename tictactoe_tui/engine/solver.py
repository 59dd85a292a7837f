"""Exact solving of small boards: the value of a position under perfect play, to the end.

The solver works on the same raw bitboard pairs `(me, opp)` as `_fastsearch` (the side to move
first) and keeps its own transposition table, so a depth-limited search run before or after it
never mixes heuristic values into its proofs. Every score it returns is a game value: a win on
ply d scores `W - d`, a loss `-(W - d)`, a draw 0 (plies counted from the root of the solve).

Cuts that are themselves proofs keep the tree small: a side that can complete a line wins at
once; a side facing two winning cells loses; a forced block is the only move worth trying; and
the Erdős-Selfridge potential of a side's open lines proves a draw when it is too small.
"""

from __future__ import annotations

from tictactoe_tui.engine._fastsearch import (
    EXACT,
    LOWER,
    UPPER,
    Poller,
    Shape,
    Table,
    maker_potential,
    table_key,
    table_line,
    threats,
)
from tictactoe_tui.engine.board import Board

# Symmetry canonicalisation costs a few microseconds; it pays near the root, where the subtrees
# it merges are large, and not near the leaves. Only nodes with at least this many empty cells
# (counted from the board's size) use it.
_SYMMETRY_MIN_EMPTY_FRACTION = 0.35


class Solver:
    """Fail-soft alpha-beta to the end of the game with a bound-storing transposition table."""

    def __init__(self, sh: Shape, poller: Poller) -> None:
        """Prepare an empty table for positions of shape `sh`."""
        self.sh = sh
        self.poller = poller
        self.tt: Table = {}
        self.sym_min_empty = max(4, round(sh.cells * _SYMMETRY_MIN_EMPTY_FRACTION))
        self.one = 1 << sh.k
        self.half = 1 << (sh.k - 1)

    def key(self, me: int, opp: int, empties: int) -> tuple[int, int]:
        """The table key of (me, opp) and the symmetry that maps the position onto it."""
        return table_key(self.sh, me, opp, empties >= self.sym_min_empty)

    @staticmethod
    def to_table(score: int, ply: int) -> int:
        """Make a win/loss score relative to the node (plies from here), not to the root."""
        if score > 0:
            return score + ply
        if score < 0:
            return score - ply
        return score

    @staticmethod
    def from_table(score: int, ply: int) -> int:
        """Turn a node-relative win/loss score back into a root-relative one."""
        if score > 0:
            return score - ply
        if score < 0:
            return score + ply
        return score

    def solve(self, me: int, opp: int, my_thr: int, opp_thr: int, ply: int,
              alpha: int, beta: int) -> int:
        """Exact negamax value (fail-soft) of a position with no depth limit.

        `my_thr` / `opp_thr` are the empty cells where each side would complete a line.
        """
        sh = self.sh
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        win = sh.win
        if my_thr:
            return win - ply - 1
        occupied = me | opp
        empty = sh.full & ~occupied
        if not empty:
            return 0
        if opp_thr & (opp_thr - 1):
            # Two cells win for the opponent and we cannot win now: we block one, it takes the
            # other.
            return -(win - ply - 2)
        empties = empty.bit_count()
        mine_left = (empties + 1) >> 1
        # Draw cuts (Erdős-Selfridge): if the potential of a side's completable lines is below 1/2
        # when it moves next, or below 1 when the other side does, the other side can block every
        # one of them, so that side can at best draw. Scaled by 2**k to stay in integers.
        if alpha >= 0 and maker_potential(sh, me, opp, mine_left) < self.half:
            return 0
        if beta <= 0 and maker_potential(sh, opp, me, empties - mine_left) < self.one:
            return 0
        key, sym = self.key(me, opp, empties)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            flag, stored, move, _ = entry
            value = self.from_table(stored, ply)
            if flag == EXACT:
                return value
            if flag == LOWER:
                if value >= beta:
                    return value
                alpha = max(alpha, value)
            elif value <= alpha:
                return value
            else:
                beta = min(beta, value)
            first = sh.sym_inverse[sym][move]
        moves = [opp_thr.bit_length() - 1] if opp_thr else self.ordered(me, opp, empty, first)
        alpha0 = alpha
        best = -win - 1
        best_move = moves[0]
        cell_lines = sh.cell_lines
        need = sh.k - 1
        for cell in moves:
            bit = 1 << cell
            mine = me | bit
            new_thr = 0
            for line in cell_lines[cell]:
                if not opp & line and (mine & line).bit_count() == need:
                    new_thr |= line & ~mine
            new_thr &= ~occupied
            score = -self.solve(opp, mine, opp_thr & ~bit, new_thr, ply + 1, -beta, -alpha)
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (flag, self.to_table(best, ply), sh.sym_perms[sym][best_move], 0)
        return best

    def ordered(self, me: int, opp: int, empty: int, first: int) -> list[int]:
        """Empty cells, the table's move first, then by what they do to the lines through them.

        A cell scores the H1 gain of the mover's lines plus the weight of the opponent's lines it
        kills: the defender's refutation in a draw proof is nearly always the cell that kills
        the most of the attacker's lines, and the attacker's win the one that builds the most.
        """
        sh = self.sh
        weights = sh.line_value
        cell_lines = sh.cell_lines
        scored = []
        for cell in sh.order:
            if not empty >> cell & 1:
                continue
            gain = 0
            for line in cell_lines[cell]:
                theirs = opp & line
                if theirs:
                    if not me & line:
                        gain += weights[theirs.bit_count()]
                else:
                    count = (me & line).bit_count()
                    gain += weights[count + 1] - weights[count] if count else 1
            scored.append((cell == first, gain, -cell))
        scored.sort(reverse=True)
        return [-item[2] for item in scored]

    def walk_pv(self, me: int, opp: int, first: int, limit: int) -> tuple[int, ...]:
        """The line the table remembers after `first`: wins, forced blocks and stored moves."""
        return table_line(self.sh, self.tt, self.key, me, opp, first, limit)


def _new_thr(sh: Shape, me: int, opp: int, cell: int) -> int:
    """The winning cells `me` gains by playing `cell`."""
    mine = me | 1 << cell
    need = sh.k - 1
    found = 0
    for line in sh.cell_lines[cell]:
        if not opp & line and (mine & line).bit_count() == need:
            found |= line & ~mine
    return found


class RootSolver:
    """Solves one position: its value and a best move, or the exact value of each move."""

    def __init__(self, board: Board, solver: Solver) -> None:
        """Precompute the root's bitboards and threats for `solver`."""
        self.board = board
        self.solver = solver
        sh = self.sh = solver.sh
        self.me, self.opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
        self.empty = sh.full & ~(self.me | self.opp)
        self.empties = self.empty.bit_count()
        self.my_thr = threats(sh, self.me, self.opp) & self.empty
        self.opp_thr = threats(sh, self.opp, self.me) & self.empty

    def solve_child(self, cell: int, alpha: int, beta: int) -> int:
        """Exact-search value of `cell` for the mover, fail-soft within (alpha, beta)."""
        if self.my_thr >> cell & 1:
            return self.sh.win - 1
        bit = 1 << cell
        # At the root the mover may hold winning cells it does not play (analyse scores every
        # move): they stay threats after this move.
        mine = (_new_thr(self.sh, self.me, self.opp, cell) | self.my_thr) & ~bit
        return -self.solver.solve(self.opp, self.me | bit, self.opp_thr & ~bit, mine, 1,
                                  -beta, -alpha)

    def exact_child(self, cell: int) -> int:
        """The exact value of `cell`: null windows decide win/draw/loss, then the distance."""
        big = self.sh.win
        if self.solve_child(cell, 0, 1) >= 1:
            return self.solve_child(cell, 0, big)
        if self.solve_child(cell, -1, 0) >= 0:
            return 0
        return self.solve_child(cell, -big, 0)

    def solve_moves(self) -> list[int]:
        """The moves worth a full search at the root: a forced block, else every empty cell."""
        thr = self.opp_thr
        if thr and not thr & (thr - 1) and not self.my_thr:
            return [thr.bit_length() - 1]
        return self.solver.ordered(self.me, self.opp, self.empty, -1)

    def solve_pass(self, moves: list[int], alpha: int, beta: int) -> tuple[int, int]:
        """Fail-soft alpha-beta over the root moves: (value, best move)."""
        best, best_move = -self.sh.win - 1, moves[0]
        for cell in moves:
            score = self.solve_child(cell, alpha, beta)
            if score > best:
                best, best_move = score, cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best, best_move

    def solve(self) -> tuple[int, int]:
        """The exact value of the position and a best move."""
        big = self.sh.win
        if self.my_thr:
            return big - 1, self.my_thr.bit_length() - 1
        moves = self.solve_moves()
        # Null windows first: most positions are draws, and proving "no win" with the window
        # (0, 1) lets every node stop at the first refutation, whatever the win distance.
        score, move = self.solve_pass(moves, 0, 1)
        if score >= 1:
            return self.solve_pass(moves, 0, big)
        score, move = self.solve_pass(moves, -1, 0)
        if score >= 0:
            return 0, move
        return self.solve_pass(moves, -big, 0)

    def walk_pv(self, first: int, limit: int) -> tuple[int, ...]:
        """The line the solver's table remembers after the root move `first`."""
        return self.solver.walk_pv(self.me, self.opp, first, limit)
