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

from tictactoe_tui.engine.proofs.node_rules import WIN_IN_3, NodeRules
from tictactoe_tui.engine.proofs.pairing import PairingSearch
from tictactoe_tui.engine.proofs.symmetry import Chunks, SymmetryKeys, symmetry_min_empty
from tictactoe_tui.engine.proofs.zones import ALL, ZoneBook
from tictactoe_tui.engine.proofs.zones import AND_NODE as AND_NODE
from tictactoe_tui.engine.proofs.zones import NO_ROLE as NO_ROLE
from tictactoe_tui.engine.proofs.zones import OR_NODE as OR_NODE
from tictactoe_tui.engine.search.kernel import (
    EXACT,
    LOWER,
    UPPER,
    Poller,
    Shape,
    Table,
    completes_line,
    maker_potential,
)

SOLVE_MAX_CELLS = 49
"""Boards up to 7x7 are solved first when searched under a clock; bigger ones only near the end."""

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

TABLE_LIMIT = 1_500_000
"""Entries the solver's table may hold (about 250 MB) before it forgets the cheapest half: a
long solve must not take the machine's memory."""


class Solver(NodeRules, ZoneBook, SymmetryKeys):
    """Fail-soft alpha-beta to the end of the game with a bound-storing transposition table.

    Its parts: the threat rules and the move order (`NodeRules`), the zones and pairings
    (`ZoneBook`), the table keys (`SymmetryKeys`).
    """

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
        self.sym_min_empty = symmetry_min_empty(sh.cells)
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

        `my_thr` / `opp_thr`: the empty cells where each side would complete a line. `zone`
        then holds the answer's relevance zone (module docstring). Steps: `_potential_cut`,
        `_from_entry` (the table), `_paired_node`, `_moves`, then `_search_moves` (the moves,
        `_store` and `keep_zone`).
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
            role = AND_NODE if alpha >= 0 else OR_NODE if beta <= 0 else NO_ROLE
        if entry is not None:
            value, alpha, beta = self._from_entry(entry, key, sym, role, ply, alpha, beta)
            if value is not None:
                return value
            first = sh.sym_inverse[sym][entry[2]]
        if role != NO_ROLE and self._paired_node(role, me, opp, opp_thr, empty, key, sym, start):
            return 0
        plan = self._moves(me, opp, opp_thr, empty, first, role, ply)
        if not plan[0]:
            return plan[4]
        return self._search_moves(me, opp, opp_thr, ply, alpha, beta, role, key, sym, start, plan)

    def _search_moves(
        self,
        me: int,
        opp: int,
        opp_thr: int,
        ply: int,
        alpha: int,
        beta: int,
        role: int,
        key: int,
        sym: int,
        start: int,
        plan: tuple[list[int], int, int, bool, int],
    ) -> int:
        """`solve`'s search of a node's moves (`plan`: `_moves`' answer), the table's move alone
        first when there is one (the others are scored only if it fails); then `_store` and
        `keep_zone`. `start`: the positions counted when the node was entered."""
        moves, allowed, first, restricted, best = plan
        occupied = me | opp
        alpha0 = alpha
        best_move = moves[0]
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
            new_thr = self.winning_cells(mine, opp, cell) & ~occupied
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
        empty = self.sh.full & ~occupied
        self.keep_zone(role, best, union, found, me, opp, opp_thr, empty, restricted, key, sym)
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

    def prune(self) -> None:
        """Halve the table (at least), keeping the entries that saved the most work.

        Entries are cached bounds, so forgetting some only costs time: the cheap ones, near the
        leaves and most numerous, go first; the few that stand for big subtrees stay.
        """
        work = 1
        while len(self.tt) > self.table_limit // 2:
            work *= 2
            self.tt = {key: entry for key, entry in self.tt.items() if entry[3] >= work}

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
