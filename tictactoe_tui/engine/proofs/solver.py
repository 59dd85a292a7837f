"""Exact solving of small boards: the value of a position under perfect play, to the end.

The solver works on the same raw bitboard pairs `(me, opp)` as `kernel` (the side to move
first) and keeps its own transposition table, so a depth-limited search run before or after it
never mixes heuristic values into its proofs. Every score it returns is a game value: a win on
ply d scores `W - d`, a loss `-(W - d)`, a draw 0 (plies counted from the root of the solve).

Cuts that are themselves proofs keep the tree small: a side that can complete a line wins at
once; a side facing two winning cells loses; a forced block is the only move worth trying; and
the Erdős-Selfridge potential of a side's open lines proves a draw when it is too small. On
boards from 6x6 up, quick wins (within `QUICK_WIN_PLIES`) are looked for before the question
"a win at all?" (`Bounds.next_test`).

**Pairings and relevance zones** (k >= 5). Most of a draw proof is the question "can this side
win at all?" answered no, in a null window at 0. In such a window a node is an *AND node* when
the side to move is the one that wants the win (every move must fail) and an *OR node* when its
opponent is (one move that holds is enough). A pairing (`pairing`) for the defender ends an AND
node at once; an OR node first looks, move by move, for a move after which the defender has a
pairing, and only then searches. A "cannot win" answer carries a *zone*: a set of empty cells
such that the answer stays true when the attacker gets extra marks anywhere outside it (and the
defender's marks stay as they are). Zones are built bottom up:

- a pairing's zone is its paired cells (marks elsewhere leave every pair whole);
- an OR node's zone is the zone of the move that held, plus that move's cell;
- an AND node's zone is the union of its moves' zones, and a move outside the zone of a move
  already refuted is refuted too, without a search: the position after it has fewer attacker
  marks than (the refuted position + that extra mark), and an extra mark never hurts its owner;
- an AND node that had to block, or whose moves were cut down by the opponent's doubles, adds
  the cells that rule depends on (the block, the doubles' lines) and grows the zone until every
  line the attacker could still complete keeps two (three, for doubles) empty cells in it, so
  that extra marks cannot give the attacker a winning cell (or a four) the rule did not see;
- an Erdős-Selfridge "no win at all" answer's zone is every empty cell of the attacker's open
  lines; a double of the defender's at an OR node keeps the double's lines and the same guard.

Anything else (a table entry without a zone, a rule cut, a window that is not at 0) has no zone
and prunes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from tictactoe_tui.engine.proofs.pairing import PairingSearch
from tictactoe_tui.engine.rules.board import MAX_SIZE, Board
from tictactoe_tui.engine.search.kernel import (
    EXACT,
    LOWER,
    UPPER,
    Poller,
    Shape,
    Table,
    completes_line,
    iter_cells,
    maker_potential,
    table_key,
    threats,
)

SOLVE_MAX_CELLS = 49
"""Boards up to 7x7 are solved first when searched under a clock; bigger ones only near the end."""

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


ALL = -1
"""A zone that holds every cell: the answer has no relevance zone (nothing may be pruned)."""

NO_ROLE, AND_NODE, OR_NODE = 0, 1, 2
"""A node's part in a proof that one side cannot win (see the module docstring)."""

PAIRING_MIN_K = 5
"""Pairings are looked for from k = 5 up: with shorter lines they do not exist before the board
is nearly full, where the other cuts settle positions anyway."""

PAIRING_BUDGET = 200
"""Branch points one pairing search may visit inside the solver."""

PROBE_BUDGET = 25
"""Branch points for each move an OR node tries for a pairing before it searches any."""

PROBE_MOVES = 12
"""The moves an OR node tries for a pairing, best-ordered first: from the empty 7x7 board with
k = 5, the probes beyond the first twelve moves found a pairing 46 times in 14,237, and leaving
them out takes a third off the solve (CPU 3.98 s to 2.34 s; with six random 7x7 openings as
well, 48 s to 33 s)."""

CELL_BITS = (MAX_SIZE * MAX_SIZE - 1).bit_length()
"""Bits that hold any cell index of the biggest board, for the packed move-ordering keys."""
CELL_MASK = (1 << CELL_BITS) - 1

EXHAUSTED = 1 << 40
"""The budget remembered for a position whose pairing search tried every branch."""

QUICK_WIN_PLIES = 19
"""Wins within this many plies are looked for first, fastest first, before the question "a win
at all?": a search bounded by the distance is cut by the horizon and finishes quickly, where
the unbounded question can wander through long wins first (a win in 11 on 7x7 with k = 4: 0.1 s
instead of 7 s; 25 random 6x6 positions with k = 4: 3 s instead of 10). A fail-soft answer
usually skips many rungs at once, so draws pay little for the ladder."""

QUICK_WIN_MIN_CELLS = 36
"""Boards from 6x6 up look for quick wins first; smaller ones are solved whole in less time
than the ladder of questions costs."""

WIN_IN_3 = -1
"""What `Solver.doubles` returns when the mover has a double (any other answer is a mask)."""

TABLE_LIMIT = 1_500_000
"""Entries the solver's table may hold (about 250 MB) before it forgets the cheapest half: a
long solve must not take the machine's memory."""


# Symmetry canonicalisation costs a few microseconds; it pays near the root, where the subtrees
# it merges are large, and not near the leaves. Only nodes with at least this many empty cells
# (counted from the board's size) use it.
_SYMMETRY_MIN_EMPTY_FRACTION = 0.35


_CHUNK_BITS = 10


Chunks = tuple[int, tuple[tuple[tuple[int, ...], ...], ...]]


@cache
def symmetry_chunks(perms: tuple[tuple[int, ...], ...]) -> Chunks:
    """Per symmetry of the square, lookup tables mapping each chunk of a bitboard to its image.

    Returns the chunk width and, for each symmetry (`perms`, identity first), one table per
    `width`-bit chunk of the board, lowest cells first.
    """
    cells = len(perms[0])
    width = min(_CHUNK_BITS, cells)
    out = []
    for perm in perms:
        tables = []
        for offset in range(0, cells, width):
            span = min(width, cells - offset)
            table = [0]
            for cell in range(offset, offset + span):
                # The patterns with this cell are the ones without it, plus its image.
                image = 1 << perm[cell]
                table += [pattern | image for pattern in table]
            tables.append(tuple(table))
        out.append(tuple(tables))
    return width, tuple(out)


class Solver:
    """Fail-soft alpha-beta to the end of the game with a bound-storing transposition table."""

    def __init__(
        self,
        sh: Shape,
        poller: Poller,
        table_limit: int = TABLE_LIMIT,
        pairings: bool | None = None,
    ) -> None:
        """Prepare an empty table for positions of shape `sh`, of at most `table_limit` entries.

        `pairings` turns the pairing proofs and relevance zones on or off (by default on from
        `PAIRING_MIN_K`, on boards up to 7x7: a bigger board's many lines make each pairing
        search slow, and its solves are endgames the other cuts settle).
        """
        self.sh = sh
        self.poller = poller
        self.tt: Table = {}
        self.table_limit = table_limit
        self.chunks: Chunks | None = None
        weights = sh.line_value
        self.grow = tuple([1] + [weights[n + 1] - weights[n] for n in range(1, sh.k)])
        """grow[n]: what a move adds to the H1 of its own line holding n of its marks (1 for an
        empty line)."""
        self.sym_min_empty = max(4, round(sh.cells * _SYMMETRY_MIN_EMPTY_FRACTION))
        self.one = 1 << sh.k
        self.half = 1 << (sh.k - 1)
        self.pairing: PairingSearch | None = None
        """The pairing search (None when pairings are off)."""
        if (
            pairings
            if pairings is not None
            else (sh.k >= PAIRING_MIN_K and sh.cells <= SOLVE_MAX_CELLS)
        ):
            self.pairing = PairingSearch(sh.size, sh.k, PAIRING_BUDGET)
        self.zone = ALL
        """The relevance zone of the last answer `solve` returned (`ALL` when it has none)."""
        self.zones: tuple[dict[int, int], ...] = ({}, {}, {})
        """Zones of the answers in the table, per role (by key, in the key's orientation)."""
        self.unpaired: dict[int, int] = {}
        """The positions (attacker's marks, then the defender's) where the pairing search found
        nothing, with the budget it had."""

    def key(self, me: int, opp: int, empties: int) -> tuple[int, int]:
        """The table key of (me, opp) and the symmetry that maps the position onto it.

        Near the root the key is the least of the position's eight images, so symmetric
        positions share one entry; deeper down the plain pair is cheaper.
        """
        cells = self.sh.cells
        if empties < self.sym_min_empty:
            return me << cells | opp, 0
        if self.sh.symmetric:
            # Small boards: the shape's own two-chunk tables, already built (a fresh 3x3 solve
            # would spend half its time building tables of its own).
            return table_key(self.sh, me, opp, True)
        chunks = self.chunks
        if chunks is None:
            # Built on first use: a big board whose endgame the solver sees never needs them.
            chunks = self.chunks = symmetry_chunks(self.sh.sym_perms)
        width, tables = chunks
        mask = (1 << width) - 1
        best = -1
        best_sym = 0
        for sym, chunk_tables in enumerate(tables):
            image_me = image_opp = 0
            shift = 0
            for table in chunk_tables:
                image_me |= table[me >> shift & mask]
                image_opp |= table[opp >> shift & mask]
                shift += width
            key = image_me << cells | image_opp
            if best < 0 or key < best:
                best = key
                best_sym = sym
        return best, best_sym

    def paired(self, attacker: int, defender: int, empty: int, budget: int) -> int:
        """The cells of a pairing for `defender` against `attacker`, or `ALL` if none is found
        within `budget` branch points.

        Failures are remembered with the budget they had (none when the search was exhaustive),
        so no search is repeated with a budget that is not bigger.
        """
        raw = attacker << self.sh.cells | defender
        tried = self.unpaired.get(raw, 0)
        if tried >= budget or self.pairing is None:
            return ALL
        pairs = self.pairing.find(attacker, defender, empty, budget)
        if pairs is None:
            if len(self.unpaired) > self.table_limit:
                self.unpaired.clear()
            self.unpaired[raw] = budget if not self.pairing.exhausted else EXHAUSTED
            return ALL
        zone = 0
        for pair in pairs:
            zone |= pair
        return zone

    @staticmethod
    def outside(zones: list[int], cell: int) -> bool:
        """True when `cell` lies outside one of `zones`: the move is refuted like that zone's."""
        return any(not zone >> cell & 1 for zone in zones)

    def image(self, mask: int, perm: tuple[int, ...]) -> int:
        """The image of a set of cells under a permutation of the cells."""
        out = 0
        while mask:
            low = mask & -mask
            mask ^= low
            out |= 1 << perm[low.bit_length() - 1]
        return out

    def remember_zone(self, key: int, sym: int, zone: int, role: int) -> None:
        """Keep the zone of a node's answer beside its table entry (in the key's orientation)."""
        zones = self.zones[role]
        if len(zones) > self.table_limit:
            zones.clear()
        zones[key] = self.image(zone, self.sh.sym_perms[sym]) if sym else zone

    def stored_zone(self, key: int, sym: int, role: int) -> int:
        """The zone kept for the table entry `key` in that role, in the position's orientation."""
        zone = self.zones[role].get(key, ALL)
        if zone != ALL and sym:
            zone = self.image(zone, self.sh.sym_inverse[sym])
        return zone

    def guard_zone(self, opp: int, empty: int, zone: int, guard: int) -> int:
        """`zone` grown until every line the mover could still complete has `guard` of its empty
        cells in it (or all of them, if fewer): then marks of the mover outside the zone leave
        each such line at least that many empty cells (see the module docstring)."""
        for line in self.sh.lines:
            if not line & opp:
                free = line & empty
                inside = (free & zone).bit_count()
                if inside < guard and inside != free.bit_count():
                    zone |= free
        return zone

    def open_cells(self, blocker: int, empty: int) -> int:
        """The empty cells of the lines that hold no mark of `blocker`."""
        cells = 0
        for line in self.sh.lines:
            if not line & blocker:
                cells |= line
        return cells & empty

    def threes_cells(self, owner: int, other: int, empty: int) -> int:
        """The empty cells of the lines holding k-2 marks of `owner` and none of `other`."""
        cells = 0
        need = self.sh.k - 2
        for line in self.sh.lines:
            if not line & other and (line & owner).bit_count() == need:
                cells |= line
        return cells & empty

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

    def solve(
        self, me: int, opp: int, my_thr: int, opp_thr: int, ply: int, alpha: int, beta: int
    ) -> int:
        """Exact negamax value (fail-soft) of a position with no depth limit.

        `my_thr` / `opp_thr` are the empty cells where each side would complete a line. With
        pairings on, `zone` holds the relevance zone of the answer when it returns (see the
        module docstring). Its steps: the cuts (`_potential_cut`), the table (`_from_entry`), the
        pairings (`_paired_node`), the moves (`_moves`), the answer kept (`_store`, `_answer_zone`).
        """
        sh = self.sh
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        self.zone = ALL
        start = poller.nodes
        if my_thr:
            return sh.win - ply - 1
        occupied = me | opp
        empty = sh.full & ~occupied
        if not empty:
            return 0
        if opp_thr & (opp_thr - 1):
            # Two cells win for the opponent, we cannot win now: we block one, it takes the other.
            return -(sh.win - ply - 2)
        empties = empty.bit_count()
        if alpha >= 0 or beta <= 0:
            cut = self._potential_cut(me, opp, empty, empties, ply, alpha, beta)
            if cut is not None:
                return cut
        key, sym = self.key(me, opp, empties)
        entry = self.tt.get(key)
        first = -1
        # The node's part in a proof that one side cannot win (module docstring): the mover is
        # that side (AND: every move must fail) or its opponent (OR: one that holds will do).
        role = NO_ROLE
        if self.pairing is not None:
            if alpha >= 0:
                role = AND_NODE
            elif beta <= 0:
                role = OR_NODE
        if entry is not None:
            value, alpha, beta = self._from_entry(entry, key, sym, role, ply, alpha, beta)
            if value is not None:
                return value
            first = sh.sym_inverse[sym][entry[2]]
        if role != NO_ROLE and self._paired_node(role, me, opp, opp_thr, empty, key, sym, start):
            return 0
        alpha0 = alpha
        moves, allowed, first, restricted, best = self._moves(
            me, opp, opp_thr, empty, first, role, ply
        )
        if not moves:
            return best
        best_move = moves[0]
        cell_lines = sh.cell_lines
        need = sh.k - 1
        index = 0
        lazy = first >= 0 and not opp_thr
        zones: list[int] = []
        union = 0 if role == AND_NODE else ALL
        found = ALL
        while index < len(moves):
            cell = moves[index]
            index += 1
            if zones and self.outside(zones, cell):
                # A refutation found for another move holds for this one too (module docstring).
                if best < 0:
                    best = 0
                continue
            bit = 1 << cell
            mine = me | bit
            new_thr = 0
            for line in cell_lines[cell]:
                if not opp & line and (mine & line).bit_count() == need:
                    new_thr |= line & ~mine
            new_thr &= ~occupied
            score = -self.solve(opp, mine, opp_thr & ~bit, new_thr, ply + 1, -beta, -alpha)
            if role == AND_NODE:
                if score <= 0 and self.zone != ALL:
                    zones.append(self.zone)
                    union |= self.zone
                else:
                    union = ALL
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if role == OR_NODE and score >= 0 and self.zone != ALL:
                            found = self.zone | bit
                        break
            if lazy:
                lazy = False
                moves += [c for c in self.ordered(me, opp, allowed) if c != first]
        self._store(key, sym, best, best_move, alpha0, beta, ply, start)
        self._answer_zone(role, best, union, found, me, opp, opp_thr, empty, restricted, key, sym)
        return best

    def _potential_cut(
        self, me: int, opp: int, empty: int, empties: int, ply: int, alpha: int, beta: int
    ) -> int | None:
        """The draw and horizon cuts (Erdős-Selfridge) of a node whose window is at or beyond
        0 on a side: its value when one applies, else None.

        If the potential of the lines a side could fill in time is below 1/2 when it moves next,
        or below 1 when the other side does, the other side can block every one of them. "In
        time" is both the moves left in the game and the moves the window allows: to score above
        alpha the mover must win within `mine` of its moves; to push the value below beta the
        opponent must win within `theirs`. Scaled by 2**k to stay in integers.
        """
        sh = self.sh
        win = sh.win
        mine_left = (empties + 1) >> 1
        if alpha >= 0:
            mine = min(mine_left, (win - alpha - ply) >> 1)
            if maker_potential(sh, me, opp, mine) < self.half:
                # No win within `mine` moves: at best a win with one move more, or a draw.
                if mine < mine_left:
                    return win - ply - 2 * mine - 1
                if self.pairing is not None:
                    self.zone = self.open_cells(opp, empty)
                return 0
        if beta <= 0:
            theirs_left = empties - mine_left
            theirs = min(theirs_left, (win + beta - 1 - ply) >> 1)
            if maker_potential(sh, opp, me, theirs) < self.one:
                if theirs < theirs_left:
                    return -(win - ply - 2 * theirs - 2)
                if self.pairing is not None:
                    self.zone = self.open_cells(me, empty)
                return 0
        return None

    def _from_entry(
        self,
        entry: tuple[int, int, int, int],
        key: int,
        sym: int,
        role: int,
        ply: int,
        alpha: int,
        beta: int,
    ) -> tuple[int | None, int, int]:
        """What the node's table entry says: its value if that settles the node (else None),
        and the window it narrowed."""
        flag, stored, _, _ = entry
        value = self.from_table(stored, ply)
        if flag == EXACT:
            if (role == AND_NODE and value <= 0) or (role == OR_NODE and value >= 0):
                self.zone = self.stored_zone(key, sym, role)
            return value, alpha, beta
        if flag == LOWER:
            if value >= beta:
                if role == OR_NODE and value >= 0:
                    self.zone = self.stored_zone(key, sym, role)
                return value, alpha, beta
            alpha = max(alpha, value)
        elif value <= alpha:
            if role == AND_NODE and value <= 0:
                self.zone = self.stored_zone(key, sym, role)
            return value, alpha, beta
        else:
            beta = min(beta, value)
        return None, alpha, beta

    def _paired_node(
        self, role: int, me: int, opp: int, opp_thr: int, empty: int, key: int, sym: int, start: int
    ) -> bool:
        """True when a pairing proves the node's null-window answer (a draw at best for the side
        that wants the win), which is then in the table, with its zone."""
        sh = self.sh
        poller = self.poller
        if role == AND_NODE:
            # A pairing for the opponent proves at once that the mover cannot win.
            zone = self.paired(me, opp, empty, PAIRING_BUDGET)
            if zone != ALL:
                self.remember_zone(key, sym, zone, role)
                self.tt[key] = (
                    UPPER,
                    0,
                    sh.sym_perms[sym][(empty & -empty).bit_length() - 1],
                    poller.nodes - start + 1,
                )
                self.zone = zone
                return True
        elif role == OR_NODE:
            # A move after which the mover has a pairing proves that the opponent cannot win:
            # looked for among the best moves (`PROBE_MOVES`) before any is searched, since a
            # search that goes deep after the first move can cost thousands of positions a
            # pairing saves.
            for index, cell in enumerate(self.ordered(me, opp, opp_thr or empty)[:PROBE_MOVES]):
                if index & 3 == 3:
                    # Many searches within one node: the clock and the caller are heard here too
                    # (every fourth: the last of the `PROBE_MOVES` ends on a poll).
                    poller.poll()
                bit = 1 << cell
                zone = self.paired(opp, me | bit, empty & ~bit, PROBE_BUDGET)
                if zone != ALL:
                    zone |= bit
                    self.remember_zone(key, sym, zone, role)
                    self.tt[key] = (LOWER, 0, sh.sym_perms[sym][cell], poller.nodes - start + 1)
                    self.zone = zone
                    return True
        return False

    def _moves(
        self, me: int, opp: int, opp_thr: int, empty: int, first: int, role: int, ply: int
    ) -> tuple[list[int], int, int, bool, int]:
        """The moves to search first, the cells allowed, the table's move (-1: none), whether
        moves were left out by a rule, and the value to beat; no moves when a rule settles the
        node (its value is then the last).

        A forced block is the only move; else the table's move is tried before the others are
        even scored, since it often refutes the position alone.
        """
        win = self.sh.win
        best = -win - 1
        allowed = empty
        if opp_thr:
            return [opp_thr.bit_length() - 1], allowed, first, True, best
        restricted = False
        doubles = self.doubles(me, opp)
        if doubles == WIN_IN_3:
            if role == OR_NODE:
                # The win holds while the double's lines stay open and the opponent cannot
                # win first (see the module docstring).
                self.zone = self.guard_zone(me, empty, self.threes_cells(me, opp, empty), 2)
            return [], allowed, first, restricted, win - ply - 3
        if doubles is not None:
            # The opponent has a double: every move but these loses in 4, exactly.
            allowed = doubles & empty
            if allowed != empty:
                restricted = True
                best = -(win - ply - 4)
                if not allowed:
                    return [], allowed, first, restricted, best
        if first >= 0 and allowed >> first & 1:
            return [first], allowed, first, restricted, best
        return self.ordered(me, opp, allowed), allowed, -1, restricted, best

    def _store(
        self,
        key: int,
        sym: int,
        best: int,
        best_move: int,
        alpha: int,
        beta: int,
        ply: int,
        start: int,
    ) -> None:
        """Keep the node's answer in the table (`alpha`, `beta`: the window it was searched
        with); the last field is the work the entry saves: the positions its search took."""
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.tt[key] = (
            flag,
            self.to_table(best, ply),
            self.sh.sym_perms[sym][best_move],
            self.poller.nodes - start + 1,
        )
        if len(self.tt) > self.table_limit:
            self.prune()

    def _answer_zone(
        self,
        role: int,
        best: int,
        union: int,
        found: int,
        me: int,
        opp: int,
        opp_thr: int,
        empty: int,
        restricted: bool,
        key: int,
        sym: int,
    ) -> None:
        """The zone of the node's answer (`zone`), kept beside its entry: an AND node's union of
        its moves' zones, grown for the rules it relied on; an OR node's zone of the move that
        held (`found`); else none."""
        if role == AND_NODE and best <= 0 and union != ALL:
            if opp_thr:
                union = self.guard_zone(opp, empty, union | opp_thr, 2)
            elif restricted:
                union = self.guard_zone(opp, empty, union | self.threes_cells(opp, me, empty), 3)
            self.remember_zone(key, sym, union, role)
            self.zone = union
        else:
            if found != ALL:
                self.remember_zone(key, sym, found, role)
            self.zone = found

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

    def prune(self) -> None:
        """Halve the table (at least), keeping the entries that saved the most work.

        Entries are cached bounds, so forgetting some only costs time: the cheap ones, near the
        leaves and most numerous, go first; the few that stand for big subtrees stay.
        """
        work = 1
        while len(self.tt) > self.table_limit // 2:
            work *= 2
            self.tt = {key: entry for key, entry in self.tt.items() if entry[3] >= work}

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

    def walk_pv(self, me: int, opp: int, first: int, limit: int) -> tuple[int, ...]:
        """The line the table remembers after `first`, at most `limit` moves long.

        Where the table has no entry, the rules the solver proved with stand in: a win, a
        forced block, a double; the line stops where none applies.
        """
        sh = self.sh
        line = [first]
        me, opp = opp, me | 1 << first
        last = first
        while len(line) < limit and not completes_line(sh, opp, last):
            empty = sh.full & ~(me | opp)
            if not empty:
                break
            move = self.rule_move(me, opp, empty)
            if move < 0:
                found, sym = self.key(me, opp, empty.bit_count())
                entry = self.tt.get(found)
                if entry is None:
                    break
                move = sh.sym_inverse[sym][entry[2]]
                if not empty >> move & 1:
                    break
            line.append(move)
            last = move
            me, opp = opp, me | 1 << move
        return tuple(line)

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


def _image(perm: tuple[int, ...], bits: int) -> int:
    """The image of a set of cells under a permutation of the cells."""
    return sum(1 << perm[cell] for cell in iter_cells(bits))


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
            if _image(perm, self.me) == self.me and _image(perm, self.opp) == self.opp
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
