"""Principal variation search with a heuristic cut-off: how alpha-beta reads boards it cannot solve.

A `Searcher` belongs to one game (one board shape): its transposition table, killer moves,
history counts and threat-search table survive from one iteration to the next and from one move
of the game to the next, so each search starts from what the previous ones learnt.

Each search (`Searcher.deepen`) goes (its parts: `root` the root's rules and iterations,
`threat_calls` its threat searches, `defence` the checks, `tree` the search below the root,
`iteration` what an iteration knows of each root move):

1. **Root rules** (the proofs of `threats`): a win at once, a double, a forced block, the
   defences against a double. A position they decide is answered without spending the budget.
2. **Threat search**: a VCF, then a bounded VCT, for the side to move. A forced win found there is
   proven however deep it lies. Then the same for the opponent, as if we passed: the cells of its
   line join the moves searched (far ones included).
3. **Defence** (a root facing such a threat win, or a rule's choice of stops against doubles):
   a move after which the opponent still wins by threats is a proven loss. The threat line's
   cells (or the stops) are checked before any depth is searched. Then, once each iteration
   is complete and before the caller hears it, its answer is checked (`Defence.settle`): the best
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
from collections.abc import Iterator

from tictactoe_tui.engine.proofs.threats import defences, lowest
from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.defence import Defence
from tictactoe_tui.engine.search.iteration import FAR, FIXED, MAIN, Iteration, RootMove, snapshot
from tictactoe_tui.engine.search.kernel import EXACT, LOWER, UPPER
from tictactoe_tui.engine.search.root import Root
from tictactoe_tui.engine.search.threat_calls import (
    DEFENCE_BUDGETS,
    KERNEL_BUDGET_SCALE,
    ROOT_VCT_NODES_PER_SECOND,
    ThreatCalls,
)
from tictactoe_tui.engine.search.tree import (
    HEURISTIC_MAX,
    MATE,
    MATE_BAND,
    QUIESCENCE_PLIES,
    Tree,
    is_mate,
    tempo,
)

__all__ = [
    "DEFENCE_BUDGETS",
    "EXACT",
    "FAR",
    "FIXED",
    "HEURISTIC_MAX",
    "LOWER",
    "MAIN",
    "MATE",
    "MATE_BAND",
    "ROOT_VCT_NODES_PER_SECOND",
    "UPPER",
    "Iteration",
    "RootMove",
    "Searcher",
    "is_mate",
    "tempo",
]


class Searcher:
    """The depth-limited search of one game: tables that persist between its searches.

    Its parts share one `Tree` (the position, the tables, the poller): `root` the root's rules
    and iterations, `calls` the root's threat searches, `defence` the checks of its moves.
    """

    def __init__(self, size: int, k: int, evaluate: fs.Evaluator | None = None) -> None:
        """Empty tables for positions of a size x size board with k in a row."""
        self.tree = Tree(size, k, evaluate)
        self.calls = ThreatCalls(self.tree)
        self.defence = Defence(self.tree, self.calls)
        self.root = Root(self.tree, self.calls, self.defence)

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
        caller's), then at a glance (`Root.estimate_others`).
        """
        tree = self.tree
        defence = self.defence
        self.calls.threat_deadline = threat_deadline
        self.root.deadline = deadline
        self.calls.started = time.perf_counter()
        tree.scale = (
            KERNEL_BUDGET_SCALE if threat_deadline is not None and tree.threats.use_kernel else 1
        )
        vct_nodes *= tree.scale
        defence.new_search()
        tree.new_search()
        side = tree.set_root(board, poller, 1 + QUIESCENCE_PLIES)
        roots = self.root.rules(side)
        if roots is None:
            won = self.root.own_threat_win(side, vct_nodes)
            roots = [won] if won is not None else self.root.moves(side, vct_nodes)
        else:
            defence.defend_stops(roots, side)
        if all(root.kind == FIXED for root in roots) or any(
            root.kind == FIXED and root.value >= MATE_BAND for root in roots
        ):
            # Decided without a search: the other moves get a one-ply estimate for the panel.
            roots = self.root.estimate_others(roots, side)
            yield snapshot(1, roots)
            return
        defence.last_iteration = None
        for depth in range(1, max_depth + 1):
            tree.limit_ply = depth + QUIESCENCE_PLIES
            self.root.iterate(roots, side, depth)
            checked = self._checked(snapshot(depth, roots), roots, side, depth)
            if checked is None:
                continue
            iteration = checked
            defence.last_iteration = iteration
            yield iteration
            if iteration.complete:
                return

    def _checked(
        self, iteration: Iteration, roots: list[RootMove], side: int, depth: int
    ) -> Iteration | None:
        """A completed depth's `iteration` as the caller hears it: its answer checked by the
        defence when the root is in danger or the answer makes a four (`Defence.settle`), or
        None when the clock cut that check short and the caller keeps the answer it has."""
        defence = self.defence
        if iteration.complete or (
            defence.danger is None and not defence.makes_four(iteration.moves[0].move, side)
        ):
            return iteration
        settled = defence.settle(iteration, roots, side, depth)
        if settled is None:
            # The clock cut the check of this depth's answer short: the caller keeps the answer
            # it has (checked), unless a check has refuted it since.
            amended = defence.amended()
            if amended is None and defence.last_iteration is not None:
                return None
            # (At depth 1 the caller must hear a move, checked or not.)
            settled = amended or snapshot(depth, roots)
        return settled

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
        tree = self.tree
        limit_ply = (depth + 1 if root_depth is None else root_depth) + QUIESCENCE_PLIES
        side = tree.set_root(board, poller, limit_ply)
        state = tree.state
        if state.win_cells(side) >> move & 1:
            return MATE - 1
        state.play(move, side)
        tree.unreduced = 3
        try:
            return -tree.node(depth, -MATE - 1, MATE + 1, 1, 1 - side)
        finally:
            tree.unreduced = 0
            state.rewind(0)

    # -- reading the expected line ---------------------------------------------------------------

    def line_after(self, first: int, limit: int) -> tuple[int, ...]:
        """The line the search expects after the root move `first`: wins, forced blocks, then
        the table's moves, at most `limit` moves."""
        state = self.tree.state
        state.rewind(0)
        side = self.tree.root_side
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
            entry = self.tree.tt.get(state.key(side))
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
