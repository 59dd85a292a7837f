"""The root's threat searches: under the threat deadline, within this search's budgets (see `pvs`).

The root rules and the defence ask the same few questions of the threat searches ("does this side
win by threats here?", "where can its win be stopped?"); `ThreatCalls` asks them on the tree's
position with the budgets and clocks of the current search, and gives the clock's answer (None)
when the deadline stops one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tictactoe_tui.engine.proofs.defence import proof_cells, relevance_zone
from tictactoe_tui.engine.proofs.threats import VCT_MAX_ATTACKS
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.tree import Tree

_T = TypeVar("_T")

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


CHECK_ATTACKS = 6
"""Threats (fours and threes) the opponent's VCT may play before its final double when the root
looks for the opponent's threat win as if it passed, and in the defence's checks from
`DEFENCE_BUDGETS[2]` nodes on, under a clock: most of the threat wins that decided match games
needed five or six (`threats.VCT_MAX_ATTACKS`, four, missed them)."""

DEFENCE_STRETCH = 1.4
"""A root facing a threat win may go on checking its moves after the threat deadline for this
many times the threat phase's length again (with the API's quarter of the clock for threats,
until 60% of the clock): stopping the threat matters more than a deeper search."""


class ThreatCalls:
    """The threat searches of the root and of its defence, with this search's budgets and clock."""

    def __init__(self, tree: Tree) -> None:
        """Threat searches on `tree`'s position, with its threat searcher and poller."""
        self.tree = tree
        self.threat_deadline: float | None = None
        """When the threat searches before the first iteration give up (None: no clock)."""
        self.started = 0.0
        """When the current search began."""

    def search(
        self,
        side: int,
        fours_only: bool,
        nodes: int,
        until: float | None = None,
        attacks: int = VCT_MAX_ATTACKS,
    ) -> list[int] | None:
        """A root VCF (or VCT) for `side` within `nodes` nodes and the threat deadline (or
        `until`, if given)."""
        tree = self.tree
        state = tree.state

        def search() -> list[int] | None:
            if fours_only:
                return tree.threats.vcf(state, side, max_nodes=nodes)
            return tree.threats.vct(state, side, attacks, nodes)

        return self.call(search, until)

    def call(self, call: Callable[[], _T], until: float | None) -> _T | None:
        """`call` (a threat search on the root's state) under the threat deadline (or `until`,
        if given): None when the clock stops it, the state then taken back as it was."""
        tree = self.tree
        state = tree.state
        poller = tree.poller
        before = tree.threats.nodes
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
            poller.nodes += tree.threats.nodes - before

    def zone(self, side: int, threat: list[int], fours_only: bool) -> tuple[int, int] | None:
        """The relevance zone of the opponent's threat win `threat` (found as if we passed),
        the only cells where a move of ours can stop it (`defence`), and the plies within which
        its proof wins; None when the proof could not be walked in time."""
        tree = self.tree
        state = tree.state
        attacker = 1 - side
        cells = self.call(
            lambda: proof_cells(
                tree.threats, state, attacker, threat, fours_only, self.check_attacks()
            ),
            self.defence_deadline(),
        )
        if cells is None:
            return None
        attack, defence, plies = cells
        return relevance_zone(state, attacker, attack, defence), plies

    def after(
        self, attacker: int, budget: int, until: float | None
    ) -> tuple[list[int] | None, bool]:
        """`attacker`'s threat win (VCF, else VCT), `budget` nodes each, and whether it is a
        VCF."""
        line = self.search(attacker, True, budget, until)
        if line is not None:
            return line, True
        return self.search(attacker, False, budget, until, VCT_MAX_ATTACKS), False

    def budgets(self) -> tuple[int, ...]:
        """The budgets of the checks: without a clock, all but the biggest."""
        if self.threat_deadline is None:
            return DEFENCE_BUDGETS[:-1]
        return tuple(budget * self.tree.scale for budget in DEFENCE_BUDGETS)

    def budget(self, index: int) -> int:
        """`DEFENCE_BUDGETS[index]` for this search (times its `scale`)."""
        return DEFENCE_BUDGETS[index] * self.tree.scale

    def check_attacks(self) -> int:
        """Threats the opponent's VCT may play in the defence's bigger checks: `CHECK_ATTACKS`
        under a clock, which bounds what the checks cost; without one (a search to a fixed
        depth), the threat search's usual number, so a fixed-depth analysis of a position that
        is lost almost whatever the move stays quick."""
        if self.threat_deadline is None:
            return VCT_MAX_ATTACKS
        return KERNEL_CHECK_ATTACKS if self.tree.scale > 1 else CHECK_ATTACKS

    def defence_deadline(self) -> float | None:
        """When a threatened root stops checking its moves before the first iteration."""
        if self.threat_deadline is None:
            return None
        return self.threat_deadline + DEFENCE_STRETCH * (self.threat_deadline - self.started)
