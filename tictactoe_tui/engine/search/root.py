"""The root's rules: which moves are searched, in what order, and how each is valued (see `pvs`).

A rule of `threats` (a win at once, a double, a forced block, the defences against a double) or
a threat win of the side to move decides a root without a search; the other moves then get a
one-ply estimate for the panel. A quiet root's moves are MAIN near the stones and the threats
and FAR elsewhere; with the opponent's threat win (as if we passed) found, the defence narrows
them first. Each iteration searches the MAIN moves by principal variation search in an
aspiration window, then the FAR ones one ply first.
"""

from __future__ import annotations

import time

from tictactoe_tui.engine.proofs.lines import iter_bits
from tictactoe_tui.engine.proofs.threats import defences
from tictactoe_tui.engine.search.defence import Defence
from tictactoe_tui.engine.search.iteration import FAR, FIXED, MAIN, RootMove
from tictactoe_tui.engine.search.kernel import EXACT, LOWER, UPPER
from tictactoe_tui.engine.search.threat_calls import DEFENCE_BUDGETS, ROOT_VCF_NODES, ThreatCalls
from tictactoe_tui.engine.search.tree import MATE, Tree, is_mate
from tictactoe_tui.engine.search.types import Rule

ASPIRATION = 30
"""Half the width of the aspiration window around the previous iteration's value."""


class Root:
    """The root's moves: the rules that decide them, the moves searched, the iterations."""

    def __init__(self, tree: Tree, calls: ThreatCalls, defence: Defence) -> None:
        """The root of `tree`'s searches, its threat searches `calls`, its `defence`."""
        self.tree = tree
        self.calls = calls
        self.defence = defence
        self.deadline: float | None = None
        """The caller's deadline (None: no clock)."""

    def rules(self, side: int) -> list[RootMove] | None:
        """The root moves when a rule of `threats` applies at the root, else None.

        Moves a rule decides are FIXED with their proven value; the moves it leaves are MAIN.
        """
        state = self.tree.state
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

    def estimate_others(self, roots: list[RootMove], side: int) -> list[RootMove]:
        """`roots` and every other legal move valued one ply deep (an estimate, or a proof).

        Past the caller's deadline the moves left are valued at a glance instead: a move that
        leaves the opponent a winning cell loses in 2, any other gets the heuristic of the
        position after it (the forced lines a one-ply search would follow are left out: on a
        crowded 15x15 board they cost 0.4 s, over a 0.25 s clock)."""
        tree = self.tree
        known = {root.move for root in roots}
        out = list(roots)
        state = tree.state
        deadline = self.deadline
        # The moves that build most first: if the clock runs out, the glances go to far cells.
        others = sorted(
            (-state.gain(cell, side), cell) for cell in iter_bits(state.empty) if cell not in known
        )
        for minus_gain, cell in others:
            before = tree.poller.nodes
            state.play(cell, side)
            if deadline is not None and time.perf_counter() > deadline:
                tree.poller.nodes += 1
                value = -(MATE - 2) if state.win_cells(1 - side) else -tree.leaf(1 - side)
            else:
                value = -tree.node(0, -MATE - 1, MATE + 1, 1, 1 - side)
            state.undo(cell, side)
            out.append(
                RootMove(cell, FIXED, value, EXACT, tree.poller.nodes - before, prior=-minus_gain)
            )
        return out

    def own_threat_win(self, side: int, vct_nodes: int) -> RootMove | None:
        """A forced win of the side to move found by VCF or VCT, as a proven root move."""
        tree = self.tree
        before = tree.threats.nodes
        line = self.calls.search(side, True, ROOT_VCF_NODES * tree.scale)
        rule = Rule.VCF
        if line is None and vct_nodes > 0:
            line = self.calls.search(side, False, vct_nodes)
            rule = Rule.VCT
        if line is None:
            return None
        tree.store_line(line, side, 0)
        return RootMove(
            line[0],
            FIXED,
            MATE - len(line),
            LOWER,
            tree.threats.nodes - before,
            tuple(line),
            rule=rule,
        )

    def moves(self, side: int, vct_nodes: int) -> list[RootMove]:
        """Every legal move of a quiet root: MAIN near the stones and the threats, FAR elsewhere.

        When the opponent (as if we passed) has a threat win, the moves outside its proof's
        relevance zone (`defence`) are proven losses at once; the zone's moves are MAIN, far
        ones included, and each that the opponent still beats by threats is a proven loss.
        """
        tree = self.tree
        state = tree.state
        empty = state.empty
        threat = None
        zone = None
        plies = 0
        if tree.all_cells:
            main = empty
        else:
            threat, fours_only = self._opponent_threat(side, vct_nodes)
            main = state.neighbourhood() | state.line_cells()
            for cell in threat or ():
                main |= 1 << cell
            if threat is not None:
                zoned = self.calls.zone(side, threat, fours_only)
                if zoned is not None:
                    zone, plies = zoned
                    main |= zone
            main &= empty
            if not main:
                main = 1 << next(c for c in tree.shape.centre_order if empty >> c & 1)
        gain = state.gain
        roots = [RootMove(cell, MAIN, prior=gain(cell, side)) for cell in iter_bits(main)] + [
            RootMove(cell, FAR, prior=gain(cell, side)) for cell in iter_bits(empty & ~main)
        ]
        self.defence.danger = threat
        if threat is not None:
            if zone is not None:
                self.defence.refute_outside(roots, zone, threat, fours_only, plies)
            self.defence.defend(roots, side, threat)
        return roots

    def _opponent_threat(self, side: int, vct_nodes: int) -> tuple[list[int] | None, bool]:
        """The opponent's threat win (VCF, else VCT) as if the side to move passed, if any, and
        whether it is a VCF.

        Its VCT gets at least the budget of the defence's middle pass: a threat missed here is
        a threat the root never defends against.
        """
        line = self.calls.search(1 - side, True, ROOT_VCF_NODES * self.tree.scale // 4)
        if line is not None or vct_nodes <= 0:
            return line, True
        return self.calls.search(
            1 - side,
            False,
            max(vct_nodes, self.calls.budget(len(DEFENCE_BUDGETS) // 2)),
            attacks=self.calls.check_attacks(),
        ), False

    def iterate(self, roots: list[RootMove], side: int, depth: int) -> None:
        """One iteration at `depth` over the root moves, in an aspiration window."""
        searched = [root.value for root in roots if root.kind == MAIN and root.nodes]
        previous = max(searched, default=None)
        if previous is None or is_mate(previous) or depth <= 2:
            low, high = -MATE - 1, MATE + 1
        else:
            low, high = previous - ASPIRATION, previous + ASPIRATION
        while True:
            best = self._search(roots, side, depth, low, high)
            if low > -MATE - 1 and best <= low:
                low = -MATE - 1
            elif high < MATE + 1 and best >= high:
                high = MATE + 1
            else:
                return

    def _search(self, roots: list[RootMove], side: int, depth: int, low: int, high: int) -> int:
        """Principal variation search over the root moves; values land in `roots`."""
        tree = self.tree
        state = tree.state
        poller = tree.poller
        other = 1 - side
        best = max((root.value for root in roots if root.kind == FIXED), default=-MATE - 1)
        alpha = max(low, best)
        main = [root for root in roots if root.kind == MAIN]
        main.sort(key=lambda root: (root.nodes > 0, root.value), reverse=True)
        far = [root for root in roots if root.kind == FAR]
        first = True
        for root in main + far:
            before = poller.nodes
            answers = tree.table_answers
            searched_before = root.nodes
            state.play(root.move, side)
            root.depth = depth - 1
            if root.kind == FAR:
                # One ply shows whether a cell far from every stone deserves the full depth.
                value = -tree.node(0, -alpha - 1, -alpha, 1, other)
                if value > alpha:
                    value = -tree.node(depth - 1, -high, -alpha, 1, other)
                else:
                    root.depth = 0
            elif first:
                value = -tree.node(depth - 1, -high, -alpha, 1, other)
            else:
                # A fail-low is shown as an upper bound on what a search of the move alone
                # would give. It is one when the side to move never reduces: its moves are all
                # searched to the full depth, and the opponent's refutations always are.
                tree.unreduced = 1 << side
                try:
                    value = -tree.node(depth - 1, -alpha - 1, -alpha, 1, other)
                    if alpha < value < high:
                        value = -tree.node(depth - 1, -high, -alpha, 1, other)
                finally:
                    tree.unreduced = 0
            spent = poller.nodes - before
            # Every node visited for the move was a table answer: the table settled it, with
            # the value of a search as deep as its entry says.
            answered = spent == tree.table_answers - answers
            if answered:
                entry = tree.tt.get(state.key(other))
                if entry is not None:
                    root.depth = max(root.depth, entry[3] - tree.generation)
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
