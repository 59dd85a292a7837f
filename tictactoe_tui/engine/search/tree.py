"""The tree of the depth-limited search: the node, its table, its move order (see `pvs`).

`Tree` holds what every part of a search shares (`TreeState`: the position, the poller, the
transposition table, the threat searches, this search's generation and budget scale) and
searches below the root: every node applies the root's rules, runs a small VCF for the side to
move, and searches forced replies without spending depth. Quiet nodes try the cells next to a
stone and the cells of the lines where a four can be made or stopped (`LineState.line_cells`):
that choice is for ordering and for the heuristic only. **Soundness rule**: a node that left
legal moves out for any other reason than a proof never reports a proven loss; it reports the
heuristic's worst value instead.

At the cut-off a position scores H1 from the side to move plus a *tempo* bonus for being the side
to move (`tempo`). Scores inside use a wider scale than the public one: a win on ply d (counted
from the root) is `MATE - d`; heuristic values stay below `HEURISTIC_MAX`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from tictactoe_tui.engine.proofs.defence import proof_cells, relevance_zone
from tictactoe_tui.engine.proofs.lines import LineShape, LineState, iter_bits, line_shape
from tictactoe_tui.engine.proofs.threats import VCT_MAX_ATTACKS, ThreatSearch, defences, lowest
from tictactoe_tui.engine.rules.board import Board, Mark, geometry
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import ALL_CELLS_MAX, EXACT, LOWER, UPPER

if TYPE_CHECKING:
    from tictactoe_tui.engine.proofs import _threatc

MATE = 1 << 24
"""A win on ply d scores MATE - d inside the search."""

MATE_BAND = MATE - 4096
"""Scores at or beyond +-MATE_BAND are proven wins or losses."""

HEURISTIC_MAX = MATE_BAND - 4096
"""The largest heuristic value; also what a node that could not prove its loss reports."""

QUIESCENCE_PLIES = 12
"""Plies past the nominal depth that forced replies may extend a line."""

MAX_PLY = 160
"""The deepest ply any line reaches (the killer table's size)."""

LMR_AFTER = 3
"""Quiet moves from this index on (after the table's move and the best few) are reduced."""

LMR_MIN_DEPTH = 3
"""Only nodes with at least this much depth left reduce their late moves."""

VCF_MIN_DEPTH = 2
"""Nodes with at least this much depth left run a small VCF for the side to move."""

VCF_NODE_NODES = 150
"""Nodes one in-tree VCF may visit (the root's has `ROOT_VCF_NODES`)."""

GUARD_VCT_PLY, GUARD_VCT_NODES, GUARD_WALK_NODES = 2, 2_000, 400
"""With the compiled kernel under a clock, nodes up to this ply also look for the opponent's
VCT as if they passed (within this many nodes), not only its VCF; a proof whose tree has more
nodes than the last is not walked for its zone there."""

GENERATION = 1 << 10
"""How much each search adds to the depths its table entries record: an entry of an earlier
search has a smaller depth than any position of this one asks for, so it only orders moves."""

TABLE_LIMIT = 500_000
"""Entries the transposition table keeps before it starts afresh (about 120 MB at worst)."""


def is_mate(value: int) -> bool:
    """True when `value` is a proven win or loss."""
    return value >= MATE_BAND or value <= -MATE_BAND


def tempo(shape: LineShape) -> int:
    """The cut-off bonus of the side to move: half of what the move it is about to make gains.

    The best quiet move at the horizon gains about 1.3 H1 points per line through the centre
    (it grows its own lines and kills the opponent's): searched without a bonus, the value after
    X's first move in the centre swings by that much between odd and even depths (0, -24, +3,
    -25, +4 on 10x10 with k = 5; 0, -29, +5, -29, +4 on 12x12 with k = 6). Two thirds of a point
    per line keeps consecutive depths within 5 points of one another (-13, -11, -10, -12, -7
    and -16, -13, -11, -14, -12); half the line count, the earlier bonus, left swings of 7 to 10.
    (0.7 a line flattened the first a little more but made the 15x15 defence of
    `tests/engine/test_defence.py` play into a threat win at 1 s a move.)
    """
    return max(1, max(len(lines) for lines in shape.lines_of) * 2 // 3)


def to_table(value: int, ply: int) -> int:
    """A win/loss score made relative to the node (plies from it), not to the root."""
    if value >= MATE_BAND:
        return value + ply
    if value <= -MATE_BAND:
        return value - ply
    return value


def from_table(value: int, ply: int) -> int:
    """A node-relative win/loss score made relative to the root again."""
    if value >= MATE_BAND:
        return value - ply
    if value <= -MATE_BAND:
        return value + ply
    return value


class MoveOrder:
    """The order a node tries its moves in: the table's move, the killers, the history, H1 gain."""

    killers: list[list[int]]
    history: list[int]
    state: LineState
    gain_kernel: _threatc.Kernel | None

    def _staged(self, candidates: int, side: int, tt_move: int, ply: int) -> Iterator[int]:
        """The table's move first (a refutation often needs nothing more), then the others
        ordered; the others are only scored if the first does not cut the node off."""
        if tt_move >= 0 and candidates >> tt_move & 1:
            yield tt_move
            candidates &= ~(1 << tt_move)
        if candidates:
            yield from self._ordered(candidates, side, -1, ply)

    def _ordered(self, candidates: int, side: int, tt_move: int, ply: int) -> list[int]:
        """The candidate cells, the table's move first, then killers, then by H1 gain."""
        history = self.history
        first, second = self.killers[ply]
        scored = []
        cells = iter_bits(candidates)
        if self.gain_kernel is not None:
            gains = self.gain_kernel.gains(*self._kernel_args(side, candidates))
        else:
            gain = self.state.gain
            gains = [gain(cell, side) for cell in cells]
        for cell, cell_gain in zip(cells, gains, strict=True):
            if cell == tt_move:
                score = 1 << 40
            elif cell in (first, second):
                score = 1 << 30
            else:
                score = (cell_gain << 16) + history[cell]
            scored.append((score, cell))
        scored.sort(reverse=True)
        return [cell for _, cell in scored]

    def _kernel_args(self, side: int, cells: int) -> tuple[bytes, bytes, int, bytes]:
        """The gain kernel's arguments for `side` and the mask `cells` in the current position:
        the stones of X and O and the mask as little-endian bitboards."""
        assert self.gain_kernel is not None
        size = self.gain_kernel.words * 8
        bits = self.state.bits
        return (
            bits[0].to_bytes(size, "little"),
            bits[1].to_bytes(size, "little"),
            side,
            cells.to_bytes(size, "little"),
        )

    def _reward(self, move: int, ply: int, depth: int) -> None:
        """Remember a move that refuted a position: a killer at this ply, and in the history."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        if depth > 0:
            self.history[move] = min(self.history[move] + depth * depth, 0xFFFF)


class TreeState(MoveOrder):
    """The state all the parts of one game's search share: the position, the poller, the
    tables, the threat searches, this search's generation and budget scale."""

    def __init__(self, size: int, k: int, evaluate: fs.Evaluator | None = None) -> None:
        """Empty tables for positions of a size x size board with k in a row."""
        self.shape = line_shape(size, k)
        self.fs_shape = fs.shape(size, k)
        self.all_cells = self.shape.cells <= ALL_CELLS_MAX
        self.evaluate = evaluate
        self.tempo = 0 if evaluate is not None else tempo(self.shape)
        # Scoring quiet moves without playing them needs H1 at the leaves, lines of two to
        # recognise the moves that make threes (k >= 4), and restricted candidates.
        self.frontier_shortcut = evaluate is None and k >= 4 and not self.all_cells
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.threats = ThreatSearch()
        self.gain_kernel = self.threats.compiled_kernel(self.shape)
        """The compiled kernel that scores many cells' gains at once, if it runs here."""
        self.killers = [[-1, -1] for _ in range(MAX_PLY + 2)]
        self.history = [0] * self.shape.cells
        self.state = LineState(self.shape)
        self.poller = fs.Poller(None, None, 15)
        self.limit_ply = 0
        self.root_side = 0
        self.half = 1 << (k - 1)
        self.one = 1 << k
        self.table_answers = 0
        """Nodes answered by the transposition table without a search, over all searches."""
        self.unreduced = 0
        """Bit `side` set: that side's late quiet moves are never searched shallower."""
        self.generation = 0
        """Added to the depth of every table entry of the current search (see `GENERATION`)."""
        self.scale = 1
        """What the threat searches' node budgets are multiplied by in this search
        (`threat_calls.KERNEL_BUDGET_SCALE` under a clock with the compiled kernel, else 1)."""

    def new_search(self) -> None:
        """Start a search of the game: the table's entries of earlier searches only order moves
        from now on, the killers start afresh, the history counts fade."""
        if len(self.tt) > TABLE_LIMIT:
            self.tt.clear()
        # Entries of earlier searches still order the moves, but no longer answer a position:
        # they were made from another root (other reductions, another horizon for forced
        # lines), and a value must be what a search from this root gives.
        self.generation += GENERATION
        self.killers = [[-1, -1] for _ in range(MAX_PLY + 2)]
        self.history = [value >> 2 for value in self.history]

    def set_root(self, board: Board, poller: fs.Poller, limit_ply: int) -> int:
        """Search from `board` under `poller`, no line past `limit_ply`; the side to move."""
        self.poller = poller
        self.threats.poll = poller.poll
        self.state = LineState(self.shape, board.x_bits, board.o_bits)
        side = 0 if board.to_move is Mark.X else 1
        self.root_side = side
        self.limit_ply = limit_ply
        return side


class Tree(TreeState):
    """The search below the root: the node and its phases, the frontier, the leaves."""

    def node(self, depth: int, alpha: int, beta: int, ply: int, side: int) -> int:
        """Fail-soft negamax value of the position with `side` to move `ply` plies from the root.

        The rules that decide a position at once come first, then the table's answer; the moves
        are a forced block, the stops against the opponent's doubles (`_against_doubles`) or the
        quiet moves (`_quiet`), and `_children` searches them and stores the value.
        """
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        state = self.state
        bits = state.bits
        empty = self.shape.full & ~(bits[0] | bits[1])
        if not empty:
            return 0
        if state.fours[side] and state.win_cells(side):
            return MATE - ply - 1
        other = 1 - side
        threat = state.win_cells(other) if state.fours[other] else 0
        if threat & (threat - 1):
            return -(MATE - ply - 2)
        # A double needs two lines of three through one cell: one line of three cannot make one.
        if not threat and len(state.threes[side]) > 1 and state.double_cells(side):
            return MATE - ply - 3
        if self.all_cells and self._cannot_win(empty, alpha, beta, side):
            return 0
        key = bits[side] << self.shape.cells | bits[other]
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            flag, stored, tt_move, stored_depth = entry
            if stored_depth >= depth + self.generation:
                value = from_table(stored, ply)
                if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                    self.table_answers += 1
                    return value
        if threat:
            # The block is forced, and searched without spending depth.
            move = lowest(threat)
            state.play(move, side)
            value = -self.node(depth if depth > 0 else 0, -beta, -alpha, ply + 1, other)
            state.undo(move, side)
            return self._store(key, value, move, alpha, beta, ply, depth, False)
        stops = defences(state, side) if len(state.threes[other]) > 1 else None
        if stops is not None:
            return self._against_doubles(stops, empty, depth, alpha, beta, ply, side, key, tt_move)
        return self._quiet(empty, depth, alpha, beta, ply, side, key, tt_move)

    def _cannot_win(self, empty: int, alpha: int, beta: int, side: int) -> bool:
        """Erdős-Selfridge: whether 0 cuts the node off: `side` (to move) cannot win, its lines'
        potential being too small, and a draw is not above `alpha`; or the opponent cannot win
        and a draw reaches `beta`."""
        empties = empty.bit_count()
        mine_left = (empties + 1) >> 1
        bits = self.state.bits
        me, opp = bits[side], bits[1 - side]
        if alpha >= 0 and fs.maker_potential(self.fs_shape, me, opp, mine_left) < self.half:
            return True
        return (
            beta <= 0 and fs.maker_potential(self.fs_shape, opp, me, empties - mine_left) < self.one
        )

    def _against_doubles(
        self,
        stops: int,
        empty: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        side: int,
        key: int,
        tt_move: int,
    ) -> int:
        """A node whose opponent has doubles: only `stops` (the cells that stop them all, or make
        a four) are searched, every other move loses in 4."""
        lost_floor = -(MATE - ply - 4) if empty & ~stops else -MATE - 1
        if not stops:
            return lost_floor
        restricted = False
        child_depth = depth - 1
        if depth <= 0:
            # At the horizon only the cells that stop the double are tried: a counter-four is
            # left to deeper searches, so a loss found here is not a proof.
            child_depth = 0
            counters = self.state.four_moves(side)
            if stops & ~counters:
                restricted = bool(stops & counters)
                stops &= ~counters
        moves = self._staged(stops, side, tt_move, ply)
        return self._children(
            moves, child_depth, alpha, beta, ply, side, depth, key, lost_floor, restricted, MAX_PLY
        )

    def _quiet(
        self,
        empty: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        side: int,
        key: int,
        tt_move: int,
    ) -> int:
        """A node where nothing is forced: the heuristic at the cut-off, a win by fours if a small
        VCF finds one, else the candidate moves (only the zone of the opponent's threat win if it
        has one, `_guard`), one ply above the cut-off without playing them (`_frontier`)."""
        if depth <= 0 or ply >= self.limit_ply:
            return self.leaf(side)
        state = self.state
        if depth >= VCF_MIN_DEPTH and state.threes[side]:
            line = self._vcf(side)
            if line is not None:
                self.store_line(line, side, ply)
                return MATE - ply - len(line)
        lost_floor = -MATE - 1
        restricted = False
        guarded = None
        if depth >= VCF_MIN_DEPTH and not self.all_cells and state.threes[1 - side]:
            guarded = self._guard(side, ply)
        if self.all_cells:
            candidates = empty
        elif guarded is not None:
            # The opponent wins by fours if we pass: only the zone of its proof can stop it,
            # every other move is a proven loss (`defence`).
            candidates, lost = guarded
            if empty & ~candidates:
                lost_floor = max(lost_floor, lost)
            if not candidates:
                return lost_floor
        else:
            candidates = (state.near | state.line_cells()) & empty
            restricted = candidates != empty
            if not candidates:
                candidates = 1 << next(c for c in self.shape.centre_order if empty >> c & 1)
        if depth == 1 and self.frontier_shortcut and empty & (empty - 1):
            return self._frontier(candidates, restricted, side, alpha, beta, ply, key, tt_move)
        # Late quiet moves are searched a ply shallower first (late move reductions).
        late = MAX_PLY if depth < LMR_MIN_DEPTH or self.unreduced >> side & 1 else LMR_AFTER
        moves = self._staged(candidates, side, tt_move, ply)
        return self._children(
            moves, depth - 1, alpha, beta, ply, side, depth, key, lost_floor, restricted, late
        )

    def _children(
        self,
        moves: Iterable[int],
        child_depth: int,
        alpha: int,
        beta: int,
        ply: int,
        side: int,
        depth: int,
        key: int,
        lost_floor: int,
        restricted: bool,
        reduce_from: int,
    ) -> int:
        """A node's `moves` searched `child_depth` plies deep (after the first, with a null window
        first), those from index `reduce_from` on that make no four a ply shallower first; its
        value, at least `lost_floor` (the moves left out), stored (`_store`)."""
        state = self.state
        other = 1 - side
        alpha0 = alpha
        best = -MATE - 1
        best_move = -1
        first = True
        node = self.node
        fours = state.four_moves(side) if reduce_from < MAX_PLY else 0
        index = 0
        for move in moves:
            state.play(move, side)
            if first:
                value = -node(child_depth, -beta, -alpha, ply + 1, other)
                first = False
            else:
                if index >= reduce_from and not fours >> move & 1:
                    value = -node(child_depth - 1, -alpha - 1, -alpha, ply + 1, other)
                    if value <= alpha:
                        state.undo(move, side)
                        index += 1
                        if value > best:
                            best = value
                            best_move = move
                        continue
                value = -node(child_depth, -alpha - 1, -alpha, ply + 1, other)
                if alpha < value < beta:
                    value = -node(child_depth, -beta, -alpha, ply + 1, other)
            state.undo(move, side)
            index += 1
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(move, ply, depth)
                        break
        if lost_floor > best:
            best = lost_floor
        return self._store(key, best, best_move, alpha0, beta, ply, depth, restricted)

    def _store(
        self,
        key: int,
        best: int,
        best_move: int,
        alpha0: int,
        beta: int,
        ply: int,
        depth: int,
        restricted: bool,
    ) -> int:
        """Put a node's value `best` in the table (a bound if it falls outside the window
        `alpha0`..`beta` it was searched with) and return it; not as a proven loss when
        `restricted` (legal moves were left out without a proof)."""
        if restricted and best <= -MATE_BAND:
            # Every move tried loses, but not every legal move was tried: not a proof.
            best = -HEURISTIC_MAX
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (flag, to_table(best, ply), best_move, depth + self.generation)
        return best

    def _frontier(
        self,
        candidates: int,
        restricted: bool,
        side: int,
        alpha: int,
        beta: int,
        ply: int,
        key: int,
        tt_move: int,
    ) -> int:
        """A quiet node one ply above the cut-off, without playing its quiet moves.

        A move that makes no four leaves the opponent with no winning cell to answer, so its
        child is scored at once: H1 after the move, seen from the opponent, plus the tempo. Its
        value for this side is H1 now, plus the move's H1 gain, minus the tempo: only the best
        gain matters (`_best_gain`), and the table's move is tried first in case it is enough.
        Fours are played and searched (`_fours`: the reply is forced, so they cost a few nodes).
        """
        state = self.state
        fours = state.four_moves(side) & candidates
        quiet = candidates & ~fours
        here = (state.value if side == 0 else -state.value) - self.tempo
        self.poller.nodes += 1
        if tt_move >= 0 and quiet >> tt_move & 1:
            best = here + state.gain(tt_move, side)
            if best >= beta:
                self.tt[key] = (LOWER, best, tt_move, 1 + self.generation)
                return best
        best_move, best_gain = self._best_gain(quiet, side)
        alpha0 = alpha
        best = -MATE - 1
        if best_move >= 0:
            best = here + best_gain
            if best > alpha:
                alpha = best
        if best < beta and fours:
            best, best_move = self._fours(fours, best, best_move, alpha, beta, ply, side)
        if best >= beta:
            self._reward(best_move, ply, 1)
        return self._store(key, best, best_move, alpha0, beta, ply, 1, restricted)

    def _best_gain(self, quiet: int, side: int) -> tuple[int, int]:
        """The cell of `quiet` whose move gains `side` the most H1, and that gain (-1 and -MATE
        when `quiet` is empty); each cell scored counts as a node."""
        best_gain = -MATE
        best_move = -1
        count = 0
        if self.gain_kernel is not None:
            best_move, value, count = self.gain_kernel.best_gain(*self._kernel_args(side, quiet))
            if best_move >= 0:
                best_gain = value
        else:
            gain = self.state.gain
            while quiet:
                low = quiet & -quiet
                quiet ^= low
                cell = low.bit_length() - 1
                count += 1
                value = gain(cell, side)
                if value > best_gain:
                    best_gain = value
                    best_move = cell
        poller = self.poller
        before = poller.nodes
        poller.nodes += count
        if (before ^ poller.nodes) > poller.poll_mask:
            poller.poll()
        return best_move, best_gain

    def _fours(
        self, fours: int, best: int, best_move: int, alpha: int, beta: int, ply: int, side: int
    ) -> tuple[int, int]:
        """A frontier node's fours played and searched (the replies are forced), in the move
        order, after the value `best` of `best_move` its quiet moves reached within the window
        `alpha`..`beta`: the best value and move."""
        state = self.state
        node = self.node
        other = 1 - side
        for move in self._ordered(fours, side, -1, ply):
            state.play(move, side)
            value = -node(0, -beta, -alpha, ply + 1, other)
            state.undo(move, side)
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best, best_move

    def leaf(self, side: int) -> int:
        """The heuristic value of a quiet position at the cut-off, from `side`."""
        if self.evaluate is not None:
            mark = Mark.X if side == 0 else Mark.O
            bits = self.state.bits
            board = Board(geometry(self.shape.size, self.shape.k), bits[0], bits[1], mark)
            raw = self.evaluate(board, mark)
            return max(-HEURISTIC_MAX + 1, min(HEURISTIC_MAX - 1, raw))
        value = self.state.value
        return (value if side == 0 else -value) + self.tempo

    def _vcf(self, side: int) -> list[int] | None:
        before = self.threats.nodes
        try:
            return self.threats.vcf(self.state, side, max_nodes=VCF_NODE_NODES * self.scale)
        finally:
            self.poller.nodes += self.threats.nodes - before

    def _guard(self, side: int, ply: int) -> tuple[int, int] | None:
        """If the opponent of `side` (to move, `ply` plies from the root) wins by fours as if
        `side` passed (a small VCF): the relevance zone of that win, the only cells where a
        move can stop it, and the value of every move outside it (a loss within the VCF's
        plies after it); else None."""
        other = 1 - side
        line = self._vcf(other)
        state = self.state
        if line is not None:
            cells = proof_cells(self.threats, state, other, line, True, 0)
        elif self.scale > 1 and ply <= GUARD_VCT_PLY:
            # With the kernel, a small VCT as well near the root: the opponent's quiet move
            # that sets up a threat win is what decides the second player's games.
            before = self.threats.nodes
            try:
                line = self.threats.vct(state, other, VCT_MAX_ATTACKS, GUARD_VCT_NODES)
                cells = (
                    None
                    if line is None
                    else proof_cells(
                        self.threats, state, other, line, False, VCT_MAX_ATTACKS, GUARD_WALK_NODES
                    )
                )
            finally:
                self.poller.nodes += self.threats.nodes - before
        else:
            return None
        if line is None or cells is None:
            return None
        attack, defence, plies = cells
        return relevance_zone(state, other, attack, defence), -(MATE - ply - 1 - plies)

    def store_line(self, line: list[int], side: int, ply: int) -> None:
        """Put a threat win in the table so the expected line can be read back from it."""
        state = self.state
        played = len(state.history)
        mover = side
        for index, move in enumerate(line[:-1]):
            if mover == side:
                value = MATE - ply - len(line)
                key = state.key(side)
                self.tt[key] = (
                    LOWER,
                    to_table(value, ply + index),
                    move,
                    MAX_PLY + self.generation,
                )
            state.play(move, mover)
            mover = 1 - mover
        state.rewind(played)
