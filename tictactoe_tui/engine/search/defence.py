"""The root's threat defence: its moves checked against the opponent's threat wins (see `pvs`).

A root facing a threat win of the opponent's (found as if we passed), or a rule's choice of stops
against doubles, checks its moves: a move after which the opponent still wins by threats is a
proven loss. The moves outside the win's relevance zone lose at once (`refute_outside`); the
others are checked in rounds before the first iteration (`defend`), and each iteration's answer
once it is complete (`settle`), with bigger budgets as the iterations deepen.
"""

from __future__ import annotations

import time

from tictactoe_tui.engine.proofs.defence import proof_cells, relevance_zone
from tictactoe_tui.engine.proofs.lines import iter_bits
from tictactoe_tui.engine.proofs.threats import VCT_MAX_ATTACKS, lowest
from tictactoe_tui.engine.search.iteration import FIXED, MAIN, Iteration, RootMove, snapshot
from tictactoe_tui.engine.search.kernel import EXACT, UPPER
from tictactoe_tui.engine.search.threat_calls import ThreatCalls
from tictactoe_tui.engine.search.tree import MATE, Tree
from tictactoe_tui.engine.search.types import Rule

FOUR_CHECK_SHARE = 8
"""A check with at least `DEFENCE_BUDGETS[2]` nodes also asks, of a move making a four, whether
every move after the forced block loses to the opponent's threats, each of those moves with
this share of the check's budget."""


class Defence:
    """What the root's checks found: the threat the root faces, the moves checked and refuted."""

    def __init__(self, tree: Tree, calls: ThreatCalls) -> None:
        """Checks on `tree`'s root, by the threat searches of `calls`."""
        self.tree = tree
        self.calls = calls
        self.danger: list[int] | None = None
        """The opponent's threat win at the root as if we passed, if it has one (empty when
        a rule already says the opponent has doubles to stop)."""
        self.last_iteration: Iteration | None = None
        """The iteration the caller heard last: its best move is what it would play."""
        self.checked: dict[int, int] = {}
        """Root moves checked for the opponent's threat wins, with the budget that found none."""
        self.refuted: dict[int, RootMove] = {}
        """Root moves a check proved lost (the opponent wins by threats after them)."""

    def new_search(self) -> None:
        """Forget the threat and the checks of the last search."""
        self.danger = None
        self.checked = {}
        self.refuted = {}

    def refute_outside(
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

    def defend(self, roots: list[RootMove], side: int, threat: list[int]) -> None:
        """Check the moves that may stop the opponent's threat win (`threat`, as if we passed):
        after each, the opponent's threat search runs again, and a move it still beats is a
        proven loss.

        The checks go in rounds, each with a bigger budget (`DEFENCE_BUDGETS`) over the moves
        the last round left, until the defence deadline (as CodeCup 2020's winner narrowed the
        defences by trying each against the attacker's search again); in each round the cells
        of the threat's line come first (a defence most often lies there), then the moves that
        build most. The answers of the iterations then get bigger checks still (`settle`).
        """
        on_line = set(threat)
        deadline = self.calls.defence_deadline()
        # Without a clock (a search to a fixed depth) one round: the iterations check on.
        rounds = self.calls.budgets() if deadline is not None else self.calls.budgets()[:1]
        for budget in rounds:
            alive = [root for root in roots if root.kind == MAIN]
            if not alive:
                return
            self.check_all(alive, side, budget, first=on_line)
            if deadline is not None and time.perf_counter() > deadline:
                return
            if budget >= self.calls.budget(1) and len(alive) <= 1:
                # One move left: the iterations' checks take it further.
                return

    def defend_stops(self, roots: list[RootMove], side: int) -> None:
        """When a rule left a choice between the moves that stop the opponent's doubles, check
        each of them for the opponent's threat wins (`DEFENCE_BUDGETS[1]` nodes): a stop that
        leaves a win by threats is a proven loss, and the search guards the others."""
        stops = [root for root in roots if root.kind == MAIN]
        if len(stops) > 1:
            self.danger = []
            self.check_all(stops, side, self.calls.budget(1))

    def check_all(
        self,
        roots: list[RootMove],
        side: int,
        budget: int,
        first: set[int] | frozenset[int] = frozenset(),
    ) -> None:
        """Check `roots` (those in `first`, then the ones that build most) until the defence
        deadline."""
        roots = sorted(roots, key=lambda root: (root.move not in first, -root.prior, root.move))
        deadline = self.calls.defence_deadline()
        for root in roots:
            if deadline is not None and time.perf_counter() > deadline:
                return
            self.check(root, side, budget, deadline)

    def settle(
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
        levels = self.calls.budgets()[1:]
        budget = levels[min(depth // 2, len(levels) - 1)]
        live = {root.move: root for root in roots}
        until = self.tree.poller.deadline
        if until is None:
            until = self.calls.defence_deadline()
        while True:
            top = iteration.moves[0]
            if iteration.complete:
                return iteration
            # The caller plays the best move, or picks among moves of equal known value and
            # gain (`deepening.Deepening.ties`): those are the ones that must hold.
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
                and (self.danger is not None or self.makes_four(move.move, side))
            ]
            refuted = False
            for root in pending:
                if self.check(root, side, budget, until) is not None:
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
            iteration = snapshot(depth, roots)

    def makes_four(self, move: int, side: int) -> bool:
        """Whether `side`'s `move` makes a four (a line one stone short of k)."""
        return bool(self.tree.state.four_moves(side) >> move & 1)

    def _held(self) -> int:
        """The budget the answer the caller has (the last iteration's best move) was checked
        with: 0 when it has none, or when a check has refuted it since."""
        last = self.last_iteration
        if last is None or last.moves[0].move in self.refuted:
            return 0
        return self.checked.get(last.moves[0].move, 0)

    def amended(self) -> Iteration | None:
        """The last iteration the caller heard, with the moves checks have refuted since as
        proven losses; None when it has none of them (or the caller heard none)."""
        last = self.last_iteration
        if last is None:
            return None
        refuted = self.refuted
        if not any(move.move in refuted and not move.proven for move in last.moves):
            return None
        return snapshot(last.depth, [refuted.get(move.move, move) for move in last.moves])

    def check(
        self, root: RootMove, side: int, budget: int, until: float | None
    ) -> list[int] | None:
        """The opponent's threat win after `root`'s move (VCF, then VCT, `budget` nodes each),
        which makes the move a proven loss; None if none was found by `until`."""
        tree = self.tree
        state = tree.state
        before = tree.poller.nodes
        played = len(state.history)
        state.play(root.move, side)
        try:
            line = self.calls.search(1 - side, True, budget, until)
            rule = Rule.ALLOWS_VCF
            if line is None:
                # The bigger checks let the opponent's threats run longer (most refutations
                # found in match games need five or six threats).
                attacks = (
                    self.calls.check_attacks()
                    if budget >= self.calls.budget(2)
                    else VCT_MAX_ATTACKS
                )
                line = self.calls.search(1 - side, False, budget, until, attacks)
                rule = Rule.ALLOWS_VCT
            if line is None and budget >= self.calls.budget(2):
                line = self._blocked_four_loses(side, budget // FOUR_CHECK_SHARE, until)
                rule = Rule.FOUR_THEN_LOST
        finally:
            # A cancel leaves the threat search's stones on the board: take them all back, in
            # order (`undo` of the root move alone would take back the wrong one).
            state.rewind(played)
        root.nodes += tree.poller.nodes - before
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
        state = self.tree.state
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
        tree = self.tree
        state = tree.state
        other = 1 - side
        if state.win_cells(side):
            return None
        threat, fours_only = self.calls.after(other, budget, until)
        if threat is None:
            return None
        won = threat
        cells = self.calls.call(
            lambda: proof_cells(tree.threats, state, other, won, fours_only, VCT_MAX_ATTACKS),
            until,
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
            line, _ = self.calls.after(other, budget, until)
            state.undo(move, side)
            if line is None:
                return None
            if longest is None or len(line) + 1 > len(longest):
                longest = [move, *line]
        return longest
