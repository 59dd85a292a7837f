"""Principal variation search with a heuristic cut-off: how alpha-beta reads boards it cannot solve.

A `Searcher` belongs to one game (one board shape): its transposition table, killer moves,
history counts and threat-search table survive from one iteration to the next and from one move
of the game to the next, so each search starts from what the previous ones learnt.

Each search (`Searcher.deepen`) goes:

1. **Root rules** (the proofs of `threats`): a win at once, a double, a forced block, the
   defences against a double. A position they decide is answered without spending the budget.
2. **Threat search**: a VCF, then a bounded VCT, for the side to move. A forced win found there is
   proven however deep it lies. Then the same for the opponent, as if we passed: the cells of its
   line join the moves searched (far ones included).
3. **Defence** (a root facing such a threat win, or a rule's choice of stops against doubles):
   a move after which the opponent still wins by threats is a proven loss. The threat line's
   cells (or the stops) are checked before any depth is searched. Then, once each iteration
   is complete and before the caller hears it, its answer is checked (`_settle`): the best
   move (and the moves tied with it), with bigger budgets as the iterations deepen; a refuted
   one becomes a proven loss and the next best is checked, until one holds. The search itself
   never stops for a check (checking every move that takes the lead inside an iteration cost
   most of a short clock). If the clock cuts a check short, the caller keeps the answer it
   has, which was checked, amended if a check has refuted it since; a new answer checked with
   a smaller budget before the cut never replaces an answer checked with a bigger one. The
   checks run under the caller's clock (the defence deadline until the first iteration).
4. **Iterative deepening** with principal variation search (each move after the first is tried
   with a null window and searched again only if it fails high) inside an aspiration window
   around the previous iteration's value. A move that fails low keeps the value it failed with
   as an upper bound (`RootMove.bound`), and that bound holds for the move searched alone with
   a full window at the same depth (`Searcher.search_move`): in those searches the root's side
   never reduces its late moves, so every move it has is searched to the full depth, and the
   opponent's refutations always are. Each root move also keeps how deep its value was
   searched (`RootMove.depth`), which rule or threat search gave it (`RootMove.rule`) and
   whether the table answered it (`RootMove.from_table`); `api` turns these into the public
   kinds, depths and sources of `types.MoveScore`.

Inside the tree every node applies the same rules, runs a small VCF for the side to move, and
searches forced replies without spending depth. Quiet nodes try the cells next to a stone and the
cells of the lines where a four can be made or stopped (`LineState.line_cells`): that choice is
for ordering and for the heuristic only. **Soundness rule**: a node that left legal moves out for
any other reason than a proof never reports a proven loss; it reports the heuristic's worst value
instead. So every win or loss the search reports holds against every legal reply, far cells
included. A win or loss is a bound on its distance: "win in 9" means a win forced within 9 plies
(a threat search may find a longer win than the shortest one).

At the cut-off a position scores H1 from the side to move plus a *tempo* bonus for being the side
to move (`tempo`, half of what its next move would gain): without it a search to an even depth,
where the opponent moved last, would read every position as worse for the side to move than a
search to an odd depth does, by about a move's worth.

Scores inside use a wider scale than the public one: a win on ply d (counted from the root) is
`MATE - d`; heuristic values stay below `HEURISTIC_MAX`. `api` converts to the public
`W - d` form.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TypeVar

from tictactoe_tui.engine.proofs.defence import proof_cells, relevance_zone
from tictactoe_tui.engine.proofs.lines import LineShape, LineState, iter_bits, line_shape
from tictactoe_tui.engine.proofs.threats import VCT_MAX_ATTACKS, ThreatSearch, defences, lowest
from tictactoe_tui.engine.rules.board import Board, Mark, geometry
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.types import Rule

_T = TypeVar("_T")

MATE = 1 << 24
"""A win on ply d scores MATE - d inside the search."""

MATE_BAND = MATE - 4096
"""Scores at or beyond +-MATE_BAND are proven wins or losses."""

HEURISTIC_MAX = MATE_BAND - 4096
"""The largest heuristic value; also what a node that could not prove its loss reports."""

EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table flags: the stored value is exact, a lower bound, an upper bound."""

ALL_CELLS_MAX = 36
"""Boards up to this many cells are searched over every empty cell at every node."""

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

ROOT_VCF_NODES = 30_000
"""Nodes the root's VCF may visit (the threat deadline may stop it first)."""

ROOT_VCT_NODES_PER_SECOND = 4_000
"""Nodes the root's VCT may visit per second of time limit, up to two seconds' worth (a search to
a fixed depth gets one second's worth)."""

DEFENCE_BUDGETS = (400, 1_600, 6_400, 25_600)
"""Nodes each threat search may visit when checking whether a root move stops the opponent's
threats: the cells of the threat's line get the first before the search; an iteration's answer
gets the second at depth 1, the third at depths 2-3, the last from depth 4."""

KERNEL_BUDGET_SCALE = 8
"""How many times bigger the threat searches' node budgets are under a clock when the compiled
kernel runs them (`threats.kernel_available`): it runs them over twenty times faster (`bench
--threats`), so the same share of the clock buys that many more nodes. A search to a fixed depth
keeps the plain budgets, so its answer is the same with either engine."""

KERNEL_CHECK_ATTACKS = 8
"""`CHECK_ATTACKS` when the kernel runs the checks: the threat wins that decided the second
player's games needed up to eight or nine threats."""

GUARD_VCT_PLY, GUARD_VCT_NODES, GUARD_WALK_NODES = 2, 2_000, 400
"""With the compiled kernel under a clock, nodes up to this ply also look for the opponent's
VCT as if they passed (within this many nodes), not only its VCF; a proof whose tree has more
nodes than the last is not walked for its zone there."""

FOUR_CHECK_SHARE = 8
"""A check with at least `DEFENCE_BUDGETS[2]` nodes also asks, of a move making a four, whether
every move after the forced block loses to the opponent's threats, each of those moves with
this share of the check's budget."""

CHECK_ATTACKS = 6
"""Threats (fours and threes) the opponent's VCT may play before its final double when the root
looks for the opponent's threat win as if it passed, and in the defence's checks from
`DEFENCE_BUDGETS[2]` nodes on, under a clock: most of the threat wins that decided match games
needed five or six (`threats.VCT_MAX_ATTACKS`, four, missed them)."""

DEFENCE_STRETCH = 1.4
"""A root facing a threat win may go on checking its moves after the threat deadline for this
many times the threat phase's length again (with the API's quarter of the clock for threats,
until 60% of the clock): stopping the threat matters more than a deeper search."""

ASPIRATION = 30
"""Half the width of the aspiration window around the previous iteration's value."""

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


FIXED, MAIN, FAR = 0, 1, 2
"""Kinds of root move: valued by a rule or a threat search; searched to the full depth; far from
every stone (one ply first, the full depth only if that looks promising)."""


@dataclass
class RootMove:
    """What the search knows of one root move."""

    move: int
    kind: int
    value: int = -MATE - 1
    """Internal score from the root's side to move."""
    bound: int = UPPER
    """EXACT, LOWER (the move is at least this good) or UPPER (at most this good)."""
    nodes: int = 0
    """Positions searched for this move, over all iterations."""
    line: tuple[int, ...] = ()
    """A line a threat search proved for this move, else empty (the table has the line)."""
    prior: int = 0
    """What the move gains in H1: among equal values, the move that does most ranks first (in
    a lost position, the one that blocks most, which makes the opponent find the win)."""
    depth: int = 0
    """Plies searched below the move for its current value (0: a rule, a threat search or a
    one-ply look)."""
    rule: Rule | None = None
    """For a move a rule or a threat search valued: which one (`types.Rule`), else None."""
    from_table: bool = False
    """True when every search of the move so far was answered at once by the table (an entry
    left by an earlier, deeper search of the game)."""

    @property
    def proven(self) -> bool:
        """True when the value is a proven win or loss (a bound on its distance)."""
        if self.value >= MATE_BAND:
            return self.bound != UPPER
        if self.value <= -MATE_BAND:
            return self.bound != LOWER
        return False


@dataclass(frozen=True)
class Iteration:
    """A completed depth: every root move with its value, best first."""

    depth: int
    moves: tuple[RootMove, ...]
    complete: bool
    """True when the root's value is proven: a win found, or every move a proven loss."""


class Searcher:
    """The depth-limited search of one game: tables that persist between its searches."""

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
        self.threat_deadline: float | None = None
        self.deadline: float | None = None
        """The caller's deadline (None: no clock)."""
        self.started = 0.0
        """When the current search began."""
        self.danger: list[int] | None = None
        """The opponent's threat win at the root as if we passed, if it has one (empty when
        a rule already says the opponent has doubles to stop)."""
        self.last_iteration: Iteration | None = None
        """The iteration the caller heard last: its best move is what it would play."""
        self.checked: dict[int, int] = {}
        """Root moves checked for the opponent's threat wins, with the budget that found none."""
        self.refuted: dict[int, RootMove] = {}
        """Root moves a check proved lost (the opponent wins by threats after them)."""
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
        (`KERNEL_BUDGET_SCALE` under a clock with the compiled kernel, else 1)."""

    # -- the root --------------------------------------------------------------------------------

    def deepen(
        self,
        board: Board,
        poller: fs.Poller,
        max_depth: int,
        vct_nodes: int = ROOT_VCT_NODES_PER_SECOND,
        threat_deadline: float | None = None,
        deadline: float | None = None,
    ) -> Iterator[Iteration]:
        """Search `board` deeper and deeper; yield each completed depth (1, 2, ... max_depth).

        Stops after a proven result. `poller` counts nodes and raises `Stopped` on cancel or
        deadline; the caller keeps the last iteration it received (a snapshot). The threat
        searches before the first iteration give up at `threat_deadline` (if given); a root
        decided without a search values its other moves for the panel until `deadline` (the
        caller's), then at a glance (`_estimate_others`).
        """
        self.threat_deadline = threat_deadline
        self.deadline = deadline
        self.started = time.perf_counter()
        self.scale = (
            KERNEL_BUDGET_SCALE if threat_deadline is not None and self.threats.use_kernel else 1
        )
        vct_nodes *= self.scale
        self.danger = None
        self.checked = {}
        self.refuted = {}
        if len(self.tt) > TABLE_LIMIT:
            self.tt.clear()
        # Entries of earlier searches still order the moves, but no longer answer a position:
        # they were made from another root (other reductions, another horizon for forced
        # lines), and a value must be what a search from this root gives.
        self.generation += GENERATION
        self.poller = poller
        self.threats.poll = poller.poll
        self.state = LineState(self.shape, board.x_bits, board.o_bits)
        self.killers = [[-1, -1] for _ in range(MAX_PLY + 2)]
        self.history = [value >> 2 for value in self.history]
        side = 0 if board.to_move is Mark.X else 1
        self.root_side = side
        self.limit_ply = 1 + QUIESCENCE_PLIES
        roots = self._root_rules(side)
        if roots is None:
            won = self._root_threats(side, vct_nodes)
            roots = [won] if won is not None else self._root_moves(side, vct_nodes)
        else:
            self._defend_stops(roots, side)
        if all(root.kind == FIXED for root in roots) or any(
            root.kind == FIXED and root.value >= MATE_BAND for root in roots
        ):
            # Decided without a search: the other moves get a one-ply estimate for the panel.
            roots = self._estimate_others(roots, side)
            yield _snapshot(1, roots)
            return
        self.last_iteration = None
        for depth in range(1, max_depth + 1):
            self.limit_ply = depth + QUIESCENCE_PLIES
            self._iterate(roots, side, depth)
            iteration = _snapshot(depth, roots)
            if not iteration.complete and (
                self.danger is not None or self._makes_four(iteration.moves[0].move, side)
            ):
                settled = self._settle(iteration, roots, side, depth)
                if settled is None:
                    # The clock cut the check of this depth's answer short: the caller keeps
                    # the answer it has (checked), unless a check has refuted it since.
                    amended = self._amended()
                    if amended is None and self.last_iteration is not None:
                        continue
                    # (At depth 1 the caller must hear a move, checked or not.)
                    settled = amended or _snapshot(depth, roots)
                iteration = settled
            self.last_iteration = iteration
            yield iteration
            if iteration.complete:
                return

    def _root_rules(self, side: int) -> list[RootMove] | None:
        """The root moves when a rule of `threats` applies at the root, else None.

        Moves a rule decides are FIXED with their proven value; the moves it leaves are MAIN.
        """
        state = self.state
        other = 1 - side
        empty = state.empty
        wins = state.win_cells(side)
        threat = state.win_cells(other)

        def fixed(cells: int, value: int, rule: Rule) -> list[RootMove]:
            return [
                RootMove(cell, FIXED, value, EXACT, prior=state.gain(cell, side), rule=rule)
                for cell in iter_bits(cells)
            ]

        if wins:
            return fixed(wins, MATE - 1, Rule.WINS_AT_ONCE)
        if threat & (threat - 1):
            return fixed(empty, -(MATE - 2), Rule.TWO_FOURS)
        if threat:
            kept = threat
            lost = -(MATE - 2)
            rule = Rule.LEAVES_A_FOUR
        else:
            doubles = state.double_cells(side)
            if doubles:
                return fixed(doubles, MATE - 3, Rule.DOUBLE_THREAT)
            stops = defences(state, side)
            if stops is None:
                return None
            kept = stops
            lost = -(MATE - 4)
            rule = Rule.LEAVES_A_DOUBLE
        return fixed(empty & ~kept, lost, rule) + [
            RootMove(cell, MAIN, prior=state.gain(cell, side)) for cell in iter_bits(kept)
        ]

    def _estimate_others(self, roots: list[RootMove], side: int) -> list[RootMove]:
        """`roots` and every other legal move valued one ply deep (an estimate, or a proof).

        Past the caller's deadline the moves left are valued at a glance instead: a move that
        leaves the opponent a winning cell loses in 2, any other gets the heuristic of the
        position after it (the forced lines a one-ply search would follow are left out: on a
        crowded 15x15 board they cost 0.4 s, over a 0.25 s clock)."""
        known = {root.move for root in roots}
        out = list(roots)
        state = self.state
        deadline = self.deadline
        # The moves that build most first: if the clock runs out, the glances go to far cells.
        others = sorted(
            (-state.gain(cell, side), cell) for cell in iter_bits(state.empty) if cell not in known
        )
        for minus_gain, cell in others:
            before = self.poller.nodes
            state.play(cell, side)
            if deadline is not None and time.perf_counter() > deadline:
                self.poller.nodes += 1
                value = -(MATE - 2) if state.win_cells(1 - side) else -self._leaf(1 - side)
            else:
                value = -self._node(0, -MATE - 1, MATE + 1, 1, 1 - side)
            state.undo(cell, side)
            out.append(
                RootMove(cell, FIXED, value, EXACT, self.poller.nodes - before, prior=-minus_gain)
            )
        return out

    def _root_threats(self, side: int, vct_nodes: int) -> RootMove | None:
        """A forced win of the side to move found by VCF or VCT, as a proven root move."""
        before = self.threats.nodes
        line = self._threat_search(side, True, ROOT_VCF_NODES * self.scale)
        rule = Rule.VCF
        if line is None and vct_nodes > 0:
            line = self._threat_search(side, False, vct_nodes)
            rule = Rule.VCT
        if line is None:
            return None
        self._store_line(line, side, 0)
        return RootMove(
            line[0],
            FIXED,
            MATE - len(line),
            LOWER,
            self.threats.nodes - before,
            tuple(line),
            rule=rule,
        )

    def _threat_search(
        self,
        side: int,
        fours_only: bool,
        nodes: int,
        until: float | None = None,
        attacks: int = VCT_MAX_ATTACKS,
    ) -> list[int] | None:
        """A root VCF (or VCT) for `side` within `nodes` nodes and the threat deadline (or
        `until`, if given)."""
        state = self.state

        def search() -> list[int] | None:
            if fours_only:
                return self.threats.vcf(state, side, max_nodes=nodes)
            return self.threats.vct(state, side, attacks, nodes)

        return self._threat_call(search, until)

    def _threat_call(self, call: Callable[[], _T], until: float | None) -> _T | None:
        """`call` (a threat search on the root's state) under the threat deadline (or `until`,
        if given): None when the clock stops it, the state then taken back as it was."""
        state = self.state
        poller = self.poller
        before = self.threats.nodes
        played = len(state.history)
        deadline = poller.deadline
        poller.deadline = self.threat_deadline if until is None else until
        try:
            return call()
        except fs.Stopped:
            state.rewind(played)
            if poller.cancelled:
                raise
            # Out of time for threats: the main search still gets its turn.
            poller.timed_out = False
            return None
        finally:
            poller.deadline = deadline
            poller.nodes += self.threats.nodes - before

    def _root_moves(self, side: int, vct_nodes: int) -> list[RootMove]:
        """Every legal move of a quiet root: MAIN near the stones and the threats, FAR elsewhere.

        When the opponent (as if we passed) has a threat win, the moves outside its proof's
        relevance zone (`defence`) are proven losses at once; the zone's moves are MAIN, far
        ones included, and each that the opponent still beats by threats is a proven loss.
        """
        state = self.state
        empty = state.empty
        threat = None
        zone = None
        plies = 0
        if self.all_cells:
            main = empty
        else:
            threat, fours_only = self._opponent_threat(side, vct_nodes)
            main = state.neighbourhood() | state.line_cells()
            for cell in threat or ():
                main |= 1 << cell
            if threat is not None:
                zoned = self._threat_zone(side, threat, fours_only)
                if zoned is not None:
                    zone, plies = zoned
                    main |= zone
            main &= empty
            if not main:
                main = 1 << next(c for c in self.shape.centre_order if empty >> c & 1)
        gain = state.gain
        roots = [RootMove(cell, MAIN, prior=gain(cell, side)) for cell in iter_bits(main)] + [
            RootMove(cell, FAR, prior=gain(cell, side)) for cell in iter_bits(empty & ~main)
        ]
        self.danger = threat
        if threat is not None:
            if zone is not None:
                self._refute_outside(roots, zone, threat, fours_only, plies)
            self._defend(roots, side, threat)
        return roots

    def _opponent_threat(self, side: int, vct_nodes: int) -> tuple[list[int] | None, bool]:
        """The opponent's threat win (VCF, else VCT) as if the side to move passed, if any, and
        whether it is a VCF.

        Its VCT gets at least the budget of the defence's middle pass: a threat missed here is
        a threat the root never defends against.
        """
        line = self._threat_search(1 - side, True, ROOT_VCF_NODES * self.scale // 4)
        if line is not None or vct_nodes <= 0:
            return line, True
        return self._threat_search(
            1 - side,
            False,
            max(vct_nodes, self._budget(len(DEFENCE_BUDGETS) // 2)),
            attacks=self._check_attacks(),
        ), False

    # -- the root's defence ------------------------------------------------------------------

    def _threat_zone(
        self, side: int, threat: list[int], fours_only: bool
    ) -> tuple[int, int] | None:
        """The relevance zone of the opponent's threat win `threat` (found as if we passed),
        the only cells where a move of ours can stop it (`defence`), and the plies within which
        its proof wins; None when the proof could not be walked in time."""
        state = self.state
        attacker = 1 - side
        cells = self._threat_call(
            lambda: proof_cells(
                self.threats, state, attacker, threat, fours_only, self._check_attacks()
            ),
            self._defence_deadline(),
        )
        if cells is None:
            return None
        attack, defence, plies = cells
        return relevance_zone(state, attacker, attack, defence), plies

    def _refute_outside(
        self, roots: list[RootMove], zone: int, threat: list[int], fours_only: bool, plies: int
    ) -> None:
        """Every move outside `zone` loses to the opponent's threat win `threat`, whose proof
        it leaves as it was: a proven loss, within the proof's plies after the move."""
        rule = Rule.ALLOWS_VCF if fours_only else Rule.ALLOWS_VCT
        for root in roots:
            if zone >> root.move & 1 or root.kind == FIXED:
                continue
            root.kind, root.bound = FIXED, UPPER
            root.value = -(MATE - 1 - max(plies, len(threat)))
            root.line = (root.move, *threat)
            root.rule, root.depth, root.from_table = rule, 0, False
            self.refuted[root.move] = root

    def _defend(self, roots: list[RootMove], side: int, threat: list[int]) -> None:
        """Check the moves that may stop the opponent's threat win (`threat`, as if we passed):
        after each, the opponent's threat search runs again, and a move it still beats is a
        proven loss.

        The checks go in rounds, each with a bigger budget (`DEFENCE_BUDGETS`) over the moves
        the last round left, until the defence deadline (as CodeCup 2020's winner narrowed the
        defences by trying each against the attacker's search again); in each round the cells
        of the threat's line come first (a defence most often lies there), then the moves that
        build most. The answers of the iterations then get bigger checks still (`_settle`).
        """
        on_line = set(threat)
        deadline = self._defence_deadline()
        # Without a clock (a search to a fixed depth) one round: the iterations check on.
        rounds = self._budgets() if deadline is not None else self._budgets()[:1]
        for budget in rounds:
            alive = [root for root in roots if root.kind == MAIN]
            if not alive:
                return
            self._check_all(alive, side, budget, first=on_line)
            if deadline is not None and time.perf_counter() > deadline:
                return
            if budget >= self._budget(1) and len(alive) <= 1:
                # One move left: the iterations' checks take it further.
                return

    def _defend_stops(self, roots: list[RootMove], side: int) -> None:
        """When a rule left a choice between the moves that stop the opponent's doubles, check
        each of them for the opponent's threat wins (`DEFENCE_BUDGETS[1]` nodes): a stop that
        leaves a win by threats is a proven loss, and the search guards the others."""
        stops = [root for root in roots if root.kind == MAIN]
        if len(stops) > 1:
            self.danger = []
            self._check_all(stops, side, self._budget(1))

    def _check_all(
        self,
        roots: list[RootMove],
        side: int,
        budget: int,
        first: set[int] | frozenset[int] = frozenset(),
    ) -> None:
        """Check `roots` (those in `first`, then the ones that build most) until the defence
        deadline."""
        roots = sorted(roots, key=lambda root: (root.move not in first, -root.prior, root.move))
        deadline = self._defence_deadline()
        for root in roots:
            if deadline is not None and time.perf_counter() > deadline:
                return
            self._check(root, side, budget, deadline)

    def _settle(
        self, iteration: Iteration, roots: list[RootMove], side: int, depth: int
    ) -> Iteration | None:
        """`iteration` once its answer is checked for the opponent's threat wins: each best
        move refuted becomes a proven loss and the next best is checked, until one holds. None
        when the clock cut a check short before a move that holds was found.

        Only a root facing a threat win (`danger`) is settled (when the opponent has none as if
        we passed, no move of ours gives it one). Only the moves the caller might play are
        checked (the best and those tied with it), once an iteration rather than each time a
        move takes the lead inside one, so the search itself keeps its speed. Deeper iterations
        check with bigger budgets (`DEFENCE_BUDGETS` from the second on), a move once per
        budget; the clock is the caller's deadline (the defence deadline before the caller has
        a move).
        """
        levels = self._budgets()[1:]
        budget = levels[min(depth // 2, len(levels) - 1)]
        live = {root.move: root for root in roots}
        until = self.poller.deadline
        if until is None:
            until = self._defence_deadline()
        while True:
            top = iteration.moves[0]
            if iteration.complete:
                return iteration
            # The caller plays the best move, or picks among moves of equal known value and
            # gain (`api._Deepening.ties`): those are the ones that must hold.
            pending = [
                live[move.move]
                for move in iteration.moves
                if (
                    move is top
                    or (
                        move.bound == top.bound == EXACT
                        and (move.value, move.prior) == (top.value, top.prior)
                    )
                )
                and self.checked.get(move.move, 0) < budget
                # With no threat win against the root, only a four can lose to one:
                # after its block (`_blocked_four_loses`).
                and (self.danger is not None or self._makes_four(move.move, side))
            ]
            refuted = False
            for root in pending:
                if self._check(root, side, budget, until) is not None:
                    refuted = True
                    break
                if self.checked.get(root.move, 0) < budget:
                    # Cut short by the clock: a move checked with a smaller budget will do,
                    # unless the answer the caller has was checked with a bigger one.
                    held = self._held()
                    done = self.checked.get(top.move, 0)
                    return iteration if done and done >= held else None
            if not refuted:
                return iteration
            iteration = _snapshot(depth, roots)

    def _makes_four(self, move: int, side: int) -> bool:
        """Whether `side`'s `move` makes a four (a line one stone short of k)."""
        return bool(self.state.four_moves(side) >> move & 1)

    def _held(self) -> int:
        """The budget the answer the caller has (the last iteration's best move) was checked
        with: 0 when it has none, or when a check has refuted it since."""
        last = self.last_iteration
        if last is None or last.moves[0].move in self.refuted:
            return 0
        return self.checked.get(last.moves[0].move, 0)

    def _amended(self) -> Iteration | None:
        """The last iteration the caller heard, with the moves checks have refuted since as
        proven losses; None when it has none of them (or the caller heard none)."""
        last = self.last_iteration
        if last is None:
            return None
        refuted = self.refuted
        if not any(move.move in refuted and not move.proven for move in last.moves):
            return None
        return _snapshot(last.depth, [refuted.get(move.move, move) for move in last.moves])

    def _check(
        self, root: RootMove, side: int, budget: int, until: float | None
    ) -> list[int] | None:
        """The opponent's threat win after `root`'s move (VCF, then VCT, `budget` nodes each),
        which makes the move a proven loss; None if none was found by `until`."""
        state = self.state
        before = self.poller.nodes
        played = len(state.history)
        state.play(root.move, side)
        try:
            line = self._threat_search(1 - side, True, budget, until)
            rule = Rule.ALLOWS_VCF
            if line is None:
                # The bigger checks let the opponent's threats run longer (most refutations
                # found in match games need five or six threats).
                attacks = self._check_attacks() if budget >= self._budget(2) else VCT_MAX_ATTACKS
                line = self._threat_search(1 - side, False, budget, until, attacks)
                rule = Rule.ALLOWS_VCT
            if line is None and budget >= self._budget(2):
                line = self._blocked_four_loses(side, budget // FOUR_CHECK_SHARE, until)
                rule = Rule.FOUR_THEN_LOST
        finally:
            # A cancel leaves the threat search's stones on the board: take them all back, in
            # order (`undo` of the root move alone would take back the wrong one).
            state.rewind(played)
        root.nodes += self.poller.nodes - before
        if line is not None:
            root.kind, root.bound = FIXED, UPPER
            root.value = -(MATE - 1 - len(line))
            root.line = (root.move, *line)
            # Proven by a threat search, not by the depth searched (nor by the table).
            root.rule, root.depth, root.from_table = rule, 0, False
            self.refuted[root.move] = root
        elif until is None or time.perf_counter() <= until:
            # Not cut short by the clock: no win within this budget.
            self.checked[root.move] = budget
        return line

    def _blocked_four_loses(self, side: int, budget: int, until: float | None) -> list[int] | None:
        """After a root move of `side` that made a four (the opponent to move): the line by
        which every move of ours after the forced block loses to a threat win of the
        opponent's (the block, our most stubborn move, its win), else None.

        No single threat search sees such a loss: the block makes no threat, so the
        opponent's VCT after our move fails, yet after the block each of our moves allows one.
        """
        state = self.state
        other = 1 - side
        four = state.win_cells(side)
        if not four or four & (four - 1) or state.win_cells(other):
            return None
        block = lowest(four)
        state.play(block, other)
        rest = self._every_move_loses(side, budget, until)
        state.undo(block, other)
        return None if rest is None else [block, *rest]

    def _every_move_loses(self, side: int, budget: int, until: float | None) -> list[int] | None:
        """With `side` to move: the opponent's threat win against each of our moves, as the
        longest line (our move first), or None if a move holds (or the clock stopped a search).

        The moves outside the relevance zone of its win as if we passed lose to that win at
        once (`defence`); each move inside it gets a threat search of `budget` nodes.
        """
        state = self.state
        other = 1 - side
        if state.win_cells(side):
            return None
        threat, fours_only = self._threat_after(other, budget, until)
        if threat is None:
            return None
        won = threat
        cells = self._threat_call(
            lambda: proof_cells(self.threats, state, other, won, fours_only, VCT_MAX_ATTACKS), until
        )
        if cells is None:
            return None
        attack, defence, plies = cells
        zone = relevance_zone(state, other, attack, defence)
        outside = state.empty & ~zone
        longest = None
        if outside:
            # The line shown is the threat's; its length is at least the walked proof's depth.
            longest = [lowest(outside), *threat]
            if plies > len(threat):
                return None
        on_line = set(threat)
        for move in sorted(
            iter_bits(zone), key=lambda cell: (cell not in on_line, -state.gain(cell, side))
        ):
            state.play(move, side)
            line, _ = self._threat_after(other, budget, until)
            state.undo(move, side)
            if line is None:
                return None
            if longest is None or len(line) + 1 > len(longest):
                longest = [move, *line]
        return longest

    def _threat_after(
        self, attacker: int, budget: int, until: float | None
    ) -> tuple[list[int] | None, bool]:
        """`attacker`'s threat win (VCF, else VCT), `budget` nodes each, and whether it is a
        VCF."""
        line = self._threat_search(attacker, True, budget, until)
        if line is not None:
            return line, True
        return self._threat_search(attacker, False, budget, until, VCT_MAX_ATTACKS), False

    def _budgets(self) -> tuple[int, ...]:
        """The budgets of the checks: without a clock, all but the biggest."""
        if self.threat_deadline is None:
            return DEFENCE_BUDGETS[:-1]
        return tuple(budget * self.scale for budget in DEFENCE_BUDGETS)

    def _budget(self, index: int) -> int:
        """`DEFENCE_BUDGETS[index]` for this search (times its `scale`)."""
        return DEFENCE_BUDGETS[index] * self.scale

    def _check_attacks(self) -> int:
        """Threats the opponent's VCT may play in the defence's bigger checks: `CHECK_ATTACKS`
        under a clock, which bounds what the checks cost; without one (a search to a fixed
        depth), the threat search's usual number, so a fixed-depth analysis of a position that
        is lost almost whatever the move stays quick."""
        if self.threat_deadline is None:
            return VCT_MAX_ATTACKS
        return KERNEL_CHECK_ATTACKS if self.scale > 1 else CHECK_ATTACKS

    def _defence_deadline(self) -> float | None:
        """When a threatened root stops checking its moves before the first iteration."""
        if self.threat_deadline is None:
            return None
        return self.threat_deadline + DEFENCE_STRETCH * (self.threat_deadline - self.started)

    def _iterate(self, roots: list[RootMove], side: int, depth: int) -> None:
        """One iteration at `depth` over the root moves, in an aspiration window."""
        searched = [root.value for root in roots if root.kind == MAIN and root.nodes]
        previous = max(searched, default=None)
        if previous is None or is_mate(previous) or depth <= 2:
            low, high = -MATE - 1, MATE + 1
        else:
            low, high = previous - ASPIRATION, previous + ASPIRATION
        while True:
            best = self._search_roots(roots, side, depth, low, high)
            if low > -MATE - 1 and best <= low:
                low = -MATE - 1
            elif high < MATE + 1 and best >= high:
                high = MATE + 1
            else:
                return

    def _search_roots(
        self, roots: list[RootMove], side: int, depth: int, low: int, high: int
    ) -> int:
        """Principal variation search over the root moves; values land in `roots`."""
        state = self.state
        poller = self.poller
        other = 1 - side
        best = max((root.value for root in roots if root.kind == FIXED), default=-MATE - 1)
        alpha = max(low, best)
        main = [root for root in roots if root.kind == MAIN]
        main.sort(key=lambda root: (root.nodes > 0, root.value), reverse=True)
        far = [root for root in roots if root.kind == FAR]
        first = True
        for root in main + far:
            before = poller.nodes
            answers = self.table_answers
            searched_before = root.nodes
            state.play(root.move, side)
            root.depth = depth - 1
            if root.kind == FAR:
                # One ply shows whether a cell far from every stone deserves the full depth.
                value = -self._node(0, -alpha - 1, -alpha, 1, other)
                if value > alpha:
                    value = -self._node(depth - 1, -high, -alpha, 1, other)
                else:
                    root.depth = 0
            elif first:
                value = -self._node(depth - 1, -high, -alpha, 1, other)
            else:
                # A fail-low is shown as an upper bound on what a search of the move alone
                # would give. It is one when the side to move never reduces: its moves are all
                # searched to the full depth, and the opponent's refutations always are.
                self.unreduced = 1 << side
                try:
                    value = -self._node(depth - 1, -alpha - 1, -alpha, 1, other)
                    if alpha < value < high:
                        value = -self._node(depth - 1, -high, -alpha, 1, other)
                finally:
                    self.unreduced = 0
            spent = poller.nodes - before
            # Every node visited for the move was a table answer: the table settled it, with
            # the value of a search as deep as its entry says.
            answered = spent == self.table_answers - answers
            if answered:
                entry = self.tt.get(state.key(other))
                if entry is not None:
                    root.depth = max(root.depth, entry[3] - self.generation)
            state.undo(root.move, side)
            root.from_table = answered and (root.from_table or not searched_before)
            root.nodes += spent
            root.value = value
            root.bound = UPPER if value <= alpha else LOWER if value >= high else EXACT
            first = False
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= high:
                        break
        return best

    # -- the tree --------------------------------------------------------------------------------

    def _node(self, depth: int, alpha: int, beta: int, ply: int, side: int) -> int:
        """Fail-soft negamax value of the position with `side` to move `ply` plies from the root."""
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        state = self.state
        bits = state.bits
        occupied = bits[0] | bits[1]
        empty = self.shape.full & ~occupied
        if not empty:
            return 0
        if state.fours[side]:
            wins = state.win_cells(side)
            if wins:
                return MATE - ply - 1
        other = 1 - side
        threat = state.win_cells(other) if state.fours[other] else 0
        if threat & (threat - 1):
            return -(MATE - ply - 2)
        # A double needs two lines of three through one cell: one line of three cannot make one.
        if not threat and len(state.threes[side]) > 1 and state.double_cells(side):
            return MATE - ply - 3
        if self.all_cells:
            # Erdős-Selfridge: a side whose lines' potential is too small can at best draw.
            empties = empty.bit_count()
            mine_left = (empties + 1) >> 1
            me, opp = bits[side], bits[other]
            if alpha >= 0 and fs.maker_potential(self.fs_shape, me, opp, mine_left) < self.half:
                return 0
            if (
                beta <= 0
                and fs.maker_potential(self.fs_shape, opp, me, empties - mine_left) < self.one
            ):
                return 0
        key = bits[side] << self.shape.cells | bits[other]
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            flag, stored, tt_move, stored_depth = entry
            if stored_depth >= depth + self.generation:
                value = _from_table(stored, ply)
                if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                    self.table_answers += 1
                    return value
        lost_floor = -MATE - 1
        restricted = False
        quiet = False
        child_depth = depth - 1
        if threat:
            moves: Iterable[int] = (lowest(threat),)
            child_depth = depth if depth > 0 else 0
        else:
            stops = defences(state, side) if len(state.threes[other]) > 1 else None
            if stops is not None:
                if empty & ~stops:
                    lost_floor = -(MATE - ply - 4)
                if not stops:
                    return lost_floor
                if depth <= 0:
                    # At the horizon only the cells that stop the double are tried: a counter-
                    # four is left to deeper searches, so a loss found here is not a proof.
                    child_depth = 0
                    counters = state.four_moves(side)
                    if stops & ~counters:
                        restricted = bool(stops & counters)
                        stops &= ~counters
                moves = self._staged(stops, side, tt_move, ply)
            else:
                if depth <= 0 or ply >= self.limit_ply:
                    return self._leaf(side)
                if depth >= VCF_MIN_DEPTH and state.threes[side]:
                    line = self._vcf(side)
                    if line is not None:
                        self._store_line(line, side, ply)
                        return MATE - ply - len(line)
                quiet = True
                guarded = (
                    self._guard(side, ply)
                    if depth >= VCF_MIN_DEPTH and not self.all_cells and state.threes[other]
                    else None
                )
                if self.all_cells:
                    candidates = empty
                elif guarded is not None:
                    # The opponent wins by fours if we pass: only the zone of its proof can
                    # stop it, every other move is a proven loss (`defence`).
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
                    return self._frontier(
                        candidates, restricted, side, alpha, beta, ply, key, tt_move
                    )
                moves = self._staged(candidates, side, tt_move, ply)
        alpha0 = alpha
        best = -MATE - 1
        best_move = -1
        first = True
        node = self._node
        # Late quiet moves are searched a ply shallower first (late move reductions); one that
        # then looks better than the best so far gets its full depth.
        reduce_from = (
            LMR_AFTER
            if quiet and depth >= LMR_MIN_DEPTH and not self.unreduced >> side & 1
            else MAX_PLY
        )
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
                        if not threat:
                            self._reward(move, ply, depth)
                        break
        if lost_floor > best:
            best = lost_floor
        if restricted and best <= -MATE_BAND:
            # Every move tried loses, but not every legal move was tried: not a proof.
            best = -HEURISTIC_MAX
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (flag, _to_table(best, ply), best_move, depth + self.generation)
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
        gain matters, and the table's move is tried first in case it is enough. Fours are
        played and searched (the reply is forced, so they cost a few nodes).
        """
        state = self.state
        poller = self.poller
        other = 1 - side
        fours = state.four_moves(side) & candidates
        quiet = candidates & ~fours
        gain = state.gain
        here = (state.value if side == 0 else -state.value) - self.tempo
        poller.nodes += 1
        if tt_move >= 0 and quiet >> tt_move & 1:
            best = here + gain(tt_move, side)
            if best >= beta:
                self.tt[key] = (LOWER, best, tt_move, 1 + self.generation)
                return best
        best_gain = -MATE
        best_move = -1
        count = 0
        if self.gain_kernel is not None:
            best_move, value, count = self.gain_kernel.best_gain(*self._kernel_args(side, quiet))
            if best_move >= 0:
                best_gain = value
        else:
            while quiet:
                low = quiet & -quiet
                quiet ^= low
                cell = low.bit_length() - 1
                count += 1
                value = gain(cell, side)
                if value > best_gain:
                    best_gain = value
                    best_move = cell
        before = poller.nodes
        poller.nodes += count
        if (before ^ poller.nodes) > poller.poll_mask:
            poller.poll()
        alpha0 = alpha
        best = -MATE - 1
        if best_move >= 0:
            best = here + best_gain
            if best > alpha:
                alpha = best
        if best < beta and fours:
            node = self._node
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
        if best >= beta:
            self._reward(best_move, ply, 1)
        if restricted and best <= -MATE_BAND:
            best = -HEURISTIC_MAX
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (flag, _to_table(best, ply), best_move, 1 + self.generation)
        return best

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

    def _leaf(self, side: int) -> int:
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

    def _store_line(self, line: list[int], side: int, ply: int) -> None:
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
                    _to_table(value, ply + index),
                    move,
                    MAX_PLY + self.generation,
                )
            state.play(move, mover)
            mover = 1 - mover
        state.rewind(played)

    def search_move(
        self, board: Board, move: int, depth: int, poller: fs.Poller, root_depth: int | None = None
    ) -> int:
        """The value of the root move `move` of `board` searched alone, `depth` plies below it,
        with a full window and every move searched to the full depth (no reductions), as an
        iteration of `deepen` to `root_depth` plies (by default depth + 1) searches it: forced
        lines may run as far past that depth.

        A root move `deepen` shows as failing low is at most this: its side to move never
        reduced there, and the opponent's refutations are always searched in full.
        """
        self.poller = poller
        self.threats.poll = poller.poll
        self.state = LineState(self.shape, board.x_bits, board.o_bits)
        side = 0 if board.to_move is Mark.X else 1
        self.root_side = side
        self.limit_ply = (depth + 1 if root_depth is None else root_depth) + QUIESCENCE_PLIES
        if self.state.win_cells(side) >> move & 1:
            return MATE - 1
        self.state.play(move, side)
        self.unreduced = 3
        try:
            return -self._node(depth, -MATE - 1, MATE + 1, 1, 1 - side)
        finally:
            self.unreduced = 0
            self.state.rewind(0)

    # -- reading the expected line ---------------------------------------------------------------

    def line_after(self, first: int, limit: int) -> tuple[int, ...]:
        """The line the search expects after the root move `first`: wins, forced blocks, then
        the table's moves, at most `limit` moves."""
        state = self.state
        state.rewind(0)
        side = self.root_side
        line = [first]
        if state.win_cells(side) >> first & 1:
            return tuple(line)
        state.play(first, side)
        side = 1 - side
        while len(line) < limit:
            empty = state.empty
            if not empty:
                break
            wins = state.win_cells(side)
            if wins:
                line.append(lowest(wins))
                break
            threat = state.win_cells(1 - side)
            doubles = 0 if threat else state.double_cells(side)
            entry = self.tt.get(state.key(side))
            if threat:
                move = lowest(threat)
            elif doubles:
                move = lowest(doubles)
            elif entry is not None and empty >> entry[2] & 1:
                move = entry[2]
            elif len(state.threes[1 - side]) > 1 and state.double_cells(1 - side):
                # Rule 5 decided this node without a table entry: a stop if there is one,
                # else the loser takes one of the doubles.
                stops = defences(state, side) or state.double_cells(1 - side)
                move = lowest(stops)
            else:
                break
            line.append(move)
            state.play(move, side)
            side = 1 - side
        state.rewind(0)
        return tuple(line)


def _to_table(value: int, ply: int) -> int:
    """A win/loss score made relative to the node (plies from it), not to the root."""
    if value >= MATE_BAND:
        return value + ply
    if value <= -MATE_BAND:
        return value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    """A node-relative win/loss score made relative to the root again."""
    if value >= MATE_BAND:
        return value - ply
    if value <= -MATE_BAND:
        return value + ply
    return value


_BOUND_ORDER = {EXACT: 2, LOWER: 1, UPPER: 0}
"""Among equal values, a known one first, then a lower bound, then an upper bound."""


def _rank(root: RootMove) -> tuple[int, int, int, int, int]:
    """Sort key, bigger is better: proven wins first and proven losses last whatever their
    bounds, then the value, how well it is known, the move's gain and the lower cell."""
    group = 1
    if root.proven:
        group = 2 if root.value > 0 else 0
    return group, root.value, _BOUND_ORDER[root.bound], root.prior, -root.move


def _snapshot(depth: int, roots: list[RootMove]) -> Iteration:
    """A frozen copy of the root moves, best first, and whether the root is solved."""
    ranked = sorted((replace(root) for root in roots), key=_rank, reverse=True)
    complete = bool(ranked) and (
        (ranked[0].proven and ranked[0].value > 0)
        or all(root.proven and root.value < 0 for root in ranked)
    )
    return Iteration(depth, tuple(ranked), complete)
