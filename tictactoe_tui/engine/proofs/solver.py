"""Exact solving of a root: the solver's share of a clock, the bounds it narrows, every move.

`exact.Solver` searches one position to the end; `RootSolver` solves each move of a root with it,
narrowing `Bounds` on the root's value by null-window questions (quick wins first on boards from
6x6 up, `QUICK_WIN_PLIES`), and `solvable` / `solver_seconds` say when and for how long a search
under a clock tries it first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tictactoe_tui.engine.proofs.exact import (
    AND_NODE,
    NO_ROLE,
    OR_NODE,
    PAIRING_BUDGET,
    PAIRING_MIN_K,
    PROBE_BUDGET,
    PROBE_MOVES,
    SOLVE_MAX_CELLS,
    TABLE_LIMIT,
    Solver,
)
from tictactoe_tui.engine.proofs.node_rules import WIN_IN_3
from tictactoe_tui.engine.proofs.symmetry import image, symmetry_chunks
from tictactoe_tui.engine.proofs.zones import ALL, EXHAUSTED
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search.kernel import (
    Shape,
    iter_cells,
    threats,
)

__all__ = [
    "ALL",
    "AND_NODE",
    "EXHAUSTED",
    "NO_ROLE",
    "OR_NODE",
    "PAIRING_BUDGET",
    "PAIRING_MIN_K",
    "PROBE_BUDGET",
    "PROBE_MOVES",
    "QUICK_WIN_MIN_CELLS",
    "QUICK_WIN_PLIES",
    "SOLVE_MAX_CELLS",
    "SOLVE_MAX_EMPTY",
    "TABLE_LIMIT",
    "WIN_IN_3",
    "Bounds",
    "RootSolver",
    "Solver",
    "full_bounds",
    "narrow",
    "solvable",
    "solver_seconds",
    "solver_share",
    "symmetry_chunks",
]

SOLVE_MAX_EMPTY = 25
"""On bigger boards, positions with at most this many empty cells are solved first as well."""

LIKELY_MAX_CELLS = 36
"""Boards up to 6x6 are solved within a second or so from any position, as are positions with at
most `SOLVE_MAX_EMPTY` empty cells; 7x7 is a long shot before its middle game under a short
clock (five in a row on 7x7 takes a few seconds from the empty board)."""

SOLVER_SHARE = 0.7
"""The share of a time limit the solver may use where it is likely to finish; a depth-limited
search takes over to find a move (an estimate) in the rest."""

LONG_SHOT_SHARE = 0.5
"""The share of a time limit the solver may use where it is a long shot (7x7 early on): enough to
prove the quick wins (four in a row on 7x7 is proven in a tenth of a second) and, on an idle
machine, five in a row's draw from the empty board (about 2.3 s of CPU) within a 5 s hint; the
depth-limited search keeps the other half for its move when the proof does not come (a few
tenths of a second more reach less than a ply deeper)."""


def solvable(board: Board) -> bool:
    """True when the exact solver should try `board` before any depth-limited search."""
    empties = board.size * board.size - board.move_count
    return board.size * board.size <= SOLVE_MAX_CELLS or empties <= SOLVE_MAX_EMPTY


DEEPENING_KEEPS = 10.0
"""Seconds of a long clock the depth-limited search keeps after the solver: enough for a move
worth playing, while a deeper iteration rarely changes it and a proof changes everything (the
draw of 7x7 with k = 5 takes the solver about 3 s of CPU, and a loaded machine gives a process
a fraction of each second)."""


def solver_share(board: Board) -> float:
    """The share of a time limit the solver gets on a `solvable` board."""
    empties = board.size * board.size - board.move_count
    likely = board.size * board.size <= LIKELY_MAX_CELLS or empties <= SOLVE_MAX_EMPTY
    return SOLVER_SHARE if likely else LONG_SHOT_SHARE


def solver_seconds(board: Board, time_limit: float) -> float:
    """The seconds of `time_limit` the solver gets on a `solvable` board: its share, or all
    but `DEEPENING_KEEPS` seconds of a long clock."""
    return max(solver_share(board) * time_limit, time_limit - DEEPENING_KEEPS)


QUICK_WIN_PLIES = 19
"""Wins within this many plies are looked for first, fastest first, before the question "a win
at all?": a search bounded by the distance is cut by the horizon and finishes quickly, where
the unbounded question can wander through long wins first (a win in 11 on 7x7 with k = 4: 0.1 s
instead of 7 s; 25 random 6x6 positions with k = 4: 3 s instead of 10). A fail-soft answer
usually skips many rungs at once, so draws pay little for the ladder."""

QUICK_WIN_MIN_CELLS = 36
"""Boards from 6x6 up look for quick wins first; smaller ones are solved whole in less time
than the ladder of questions costs."""


def _new_thr(sh: Shape, me: int, opp: int, cell: int) -> int:
    """The winning cells `me` gains by playing `cell`."""
    mine = me | 1 << cell
    need = sh.k - 1
    found = 0
    for line in sh.cell_lines[cell]:
        if not opp & line and (mine & line).bit_count() == need:
            found |= line & ~mine
    return found


@dataclass
class Bounds:
    """What is proven about a value so far: `lo <= value <= hi`, and a move that reaches `lo`."""

    lo: int
    hi: int
    move: int = -1
    """For a whole position: a move whose value is at least `lo` (-1 while none is known)."""
    quick: int | None = None
    """While no win is proven or ruled out, wins scoring at least this much (the quick ones)
    are looked for first, fastest first (None: no such ladder)."""

    @property
    def exact(self) -> bool:
        """True once the value is known."""
        return self.lo == self.hi

    def next_test(self) -> int:
        """The next null-window test to run: "is the value at least s?" (window (s-1, s)).

        Win or not first, then draw or loss: most positions are settled by those two questions,
        and a null window lets every node stop at its first refutation. Then the distance of a
        win or loss, from the fastest end of the game towards the slowest: proving that there is
        no faster win is cheap near the end of the window, where the horizon cuts prune most.
        """
        if self.lo < 1 <= self.hi:
            if self.quick is not None and self.hi >= self.quick:
                return self.hi
            return 1
        if self.lo < 0 <= self.hi:
            return 0
        if self.lo >= 1:
            return self.hi
        return self.lo + 1

    def record(self, alpha: int, beta: int, value: int, move: int) -> None:
        """Take in the fail-soft `value` a search in the window (alpha, beta) returned.

        `move` is the move that gave it (the root's best move, or the move searched).
        """
        if value >= beta:
            self.lo = max(self.lo, value)
            self.move = move
        elif value <= alpha:
            self.hi = min(self.hi, value)
            if self.move < 0 and self.exact:
                # Settled at the starting floor (the quickest possible loss): every move is
                # that bad, the one the test returned as well.
                self.move = move
        else:
            self.lo = self.hi = value
            self.move = move


Test = Callable[[int, int], tuple[int, int]]
"""A fail-soft search of one position in a window: (alpha, beta) -> (value, best move)."""


def narrow(test: Test, bounds: Bounds, listener: Callable[[Bounds], None] | None = None) -> None:
    """Run null-window tests until the value is exact; `bounds` holds the progress if stopped.

    `listener` (if given) hears the bounds after each test.
    """
    while not bounds.exact:
        s = bounds.next_test()
        value, move = test(s - 1, s)
        bounds.record(s - 1, s, value, move)
        if listener is not None:
            listener(bounds)


def full_bounds(sh: Shape) -> Bounds:
    """Bounds that hold for any position: no win before ply 1, no loss before ply 2."""
    quick = sh.win - QUICK_WIN_PLIES if sh.cells >= QUICK_WIN_MIN_CELLS else None
    return Bounds(-(sh.win - 2), sh.win - 1, quick=quick)


class RootSolver:
    """Solves one position: its value and a best move, or the exact value of each move.

    What the searches prove along the way is kept: `bounds` for the position, `moves` for each
    legal move (every root search narrows the bounds of the moves it searched), so a search the
    clock stops still says what it knows.
    """

    def __init__(
        self,
        board: Board,
        solver: Solver,
        listener: Callable[[Bounds], None] | None = None,
        bounds: Bounds | None = None,
    ) -> None:
        """Precompute the root's bitboards and threats for `solver`.

        `listener` (if given) hears the position's bounds each time a test narrows them;
        `bounds` (if given) is the object to keep them in.
        """
        self.board = board
        self.solver = solver
        self.listener = listener
        sh = self.sh = solver.sh
        self.me, self.opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
        self.empty = sh.full & ~(self.me | self.opp)
        self.empties = self.empty.bit_count()
        self.my_thr = threats(sh, self.me, self.opp) & self.empty
        self.opp_thr = threats(sh, self.opp, self.me) & self.empty
        self.bounds = full_bounds(sh) if bounds is None else bounds
        self.moves = {cell: full_bounds(sh) for cell in iter_cells(self.empty)}
        self.spent = dict.fromkeys(self.moves, 0)
        """Positions searched for each root move."""
        self.twin: dict[int, int] = {}
        """For each root move, the first move of its orbit under the symmetries that leave the
        position unchanged: all of them have the same value, so only the first is searched."""
        self.orbit: dict[int, list[int]] = {}
        """For each move `twin` names, the moves of its orbit."""
        self.mirror: dict[int, tuple[int, ...]] = {}
        """For each move, a symmetry of the position that maps its twin onto it."""
        fixing = [
            perm
            for perm in sh.sym_perms
            if image(perm, self.me) == self.me and image(perm, self.opp) == self.opp
        ]
        for cell in solver.ordered(self.me, self.opp, self.empty):
            if cell not in self.twin:
                for perm in fixing:
                    self.mirror.setdefault(perm[cell], perm)
                self.orbit[cell] = sorted({perm[cell] for perm in fixing})
                for twin in self.orbit[cell]:
                    self.twin[twin] = cell

    def solve_child(self, cell: int, alpha: int, beta: int) -> int:
        """Exact-search value of `cell` for the mover, fail-soft within (alpha, beta).

        The bounds of the move and of its symmetric twins are updated, and the positions spent
        are counted on the move the search ran for.
        """
        cell = self.twin[cell]
        poller = self.solver.poller
        before = poller.nodes
        try:
            if self.my_thr >> cell & 1:
                value = self.sh.win - 1
            else:
                bit = 1 << cell
                # At the root the mover may hold winning cells it does not play (analyse scores
                # every move): they stay threats after this move.
                mine = (_new_thr(self.sh, self.me, self.opp, cell) | self.my_thr) & ~bit
                value = -self.solver.solve(
                    self.opp, self.me | bit, self.opp_thr & ~bit, mine, 1, -beta, -alpha
                )
        finally:
            self.spent[cell] += poller.nodes - before
        for twin in self.orbit[cell]:
            self.moves[twin].record(alpha, beta, value, twin)
        return value

    def settle(self) -> None:
        """Narrow the bounds of every root move until all are exact.

        A round runs one test per unsettled move (one per set of symmetric twins), best-looking
        moves first, so a search stopped by the clock has classified as many moves as it could
        (win or not, then draw or loss) before spending time on distances.
        """
        order = [
            cell
            for cell in self.solver.ordered(self.me, self.opp, self.empty)
            if self.twin[cell] == cell
        ]
        while True:
            pending = [move for move in order if not self.moves[move].exact]
            if not pending:
                return
            for move in pending:
                s = self.moves[move].next_test()
                self.solve_child(move, s - 1, s)

    def solve_moves(self) -> list[int]:
        """The moves worth a full search at the root: a forced block, else every empty cell."""
        thr = self.opp_thr
        if thr and not thr & (thr - 1) and not self.my_thr:
            return [thr.bit_length() - 1]
        return [
            cell
            for cell in self.solver.ordered(self.me, self.opp, self.empty)
            if self.twin[cell] == cell
        ]

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
        """The exact value of the position and a best move (`bounds` keeps the progress)."""
        if self.my_thr:
            move = self.my_thr.bit_length() - 1
            self.bounds.record(-self.sh.win, self.sh.win, self.sh.win - 1, move)
            return self.bounds.lo, move
        moves = self.solve_moves()
        narrow(lambda alpha, beta: self.solve_pass(moves, alpha, beta), self.bounds, self.listener)
        return self.bounds.lo, self.bounds.move

    def walk_pv(self, first: int, limit: int) -> tuple[int, ...]:
        """The line the solver's table remembers after the root move `first`.

        A move searched as its twin's image gets the image of its twin's line.
        """
        line = self.solver.walk_pv(self.me, self.opp, self.twin[first], limit)
        perm = self.mirror[first]
        return tuple(perm[cell] for cell in line)
