"""Threat-space search for k in a row: the forcing rules, VCF and a bounded VCT.

Words from five-in-a-row, used for any k: a *four* is a line holding k-1 stones of one side and
no stone of the other (its empty cell wins at once); a *three* holds k-2 (one more stone makes a
four); a *double* is a cell where one move makes two or more winning cells at once, which the
opponent cannot both stop.

The rules below are proofs, so a search may use them to leave moves out and still call its
result exact:

1. The side to move with a winning cell wins in 1.
2. Otherwise, if the opponent has two winning cells, the side to move loses in 2.
3. If the opponent has one winning cell, every other move loses in 2: the block is forced.
4. If the side to move has a double (and the opponent no winning cell), it wins in 3.
5. If the opponent has doubles (and no winning cell), a move that neither stops every double
   (`defences`) nor makes a four of its own loses in 4: the opponent plays the double left open.
   Some of those stopping cells lie two cells away from every stone.

**VCF** (victory by continuous fours): every attacking move makes a four, so each reply is
forced (rule 3), and a move that makes two winning cells wins (rule 2). **VCT** (victory by
continuous threats) also allows moves that make a double for the next move (a three, in
five-in-a-row); the defender then has every reply rule 5 leaves, its own fours included, and the
attack must win against each. Both searches are bounded (attacking moves and nodes), cached
between calls in a table keyed by the position, and return the line they found: the attacker's
first move first, ending with the winning move; its length is the number of plies within which
the win is forced, whatever the defender does (a shorter win may exist by other means).

From a `Board`: `find_vcf(board)`, `find_vct(board)`. From raw bitboards, as the exact solver
keeps them (the side to move's stones `me`, the other's `opp`): sides are only indexes, so
`ThreatSearch().vcf(LineState(line_shape(size, k), me, opp), 0)` asks whether `me` wins by
fours; keep one `ThreatSearch` to share its failure table between calls.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from tictactoe_tui.engine.proofs.forcing import defences, fork_stops, lowest
from tictactoe_tui.engine.proofs.lines import LineShape, LineState, iter_bits, line_shape, side_of
from tictactoe_tui.engine.proofs.move_facts import MoveFacts, MoveKind, Run, read_line, read_move
from tictactoe_tui.engine.rules.board import Board, geometry

try:
    from tictactoe_tui.engine.proofs import _threatc
except ImportError:  # built without a compiler: the pure Python search below runs
    _threatc = None  # type: ignore[assignment]

KERNEL_MAX_SIZE = 20
"""The biggest board the compiled kernel searches (400 cells); bigger ones run pure."""

PURE_ENGINE_VARIABLE = "TICTACTOE_TUI_PURE_ENGINE"
"""Set to 1 in the environment to run the pure Python threat search even when the compiled
kernel is installed."""

VCF_MAX_FOURS = 30
"""Fours a VCF may play before its winning move (61 plies): beyond any real board's supply."""

VCT_MAX_ATTACKS = 4
"""Threats (fours and threes) a VCT may play before its final double or winning move."""

DEFAULT_MAX_NODES = 200_000
"""Nodes one threat search may visit before it gives up (it then reports no win)."""

_NEVER = 1 << 30
"""A failure-table budget meaning "fails whatever the number of attacking moves"."""

_TABLE_LIMIT = 400_000
"""Entries the failure table keeps before it starts afresh (it bounds memory between calls)."""


class OutOfBudget(Exception):
    """Raised inside a threat search when it has visited its allowed number of nodes."""


@dataclass(frozen=True)
class ThreatWin:
    """A forced win found by threat search."""

    moves: tuple[int, ...]
    """The line: the attacker's move, the reply, ..., the attacker's winning move."""

    @property
    def plies(self) -> int:
        """The number of plies within which the win is forced (the length of `moves`)."""
        return len(self.moves)


class ThreatSearch:
    """VCF and bounded VCT on a `LineState`, with a table of the positions known not to win.

    One instance serves many calls on boards of one shape (the main search keeps one for a
    whole game); `poll`, if given, is called every 64 nodes and may raise to stop the search
    (the pure search then leaves the state mid-search for the caller to rewind; the kernel
    never touches it).

    When the compiled kernel (`_threatc`, built at install time if a C compiler is there) is
    available, `vcf` and `vct` run in it: the same lines, the same node counts and the same
    tables as the Python code below, which stays the reference. `kernel=False`, or
    TICTACTOE_TUI_PURE_ENGINE=1 in the environment, runs the Python code. With the kernel the
    tables live in it: `failed` and `proven` stay empty.
    """

    def __init__(self, poll: Callable[[], None] | None = None, kernel: bool = True) -> None:
        """Empty tables; `poll` is the caller's cancel/deadline check; `kernel=False` runs the
        pure Python search even if the compiled one is installed."""
        self.poll = poll
        self.use_kernel = kernel and kernel_available()
        """Whether `vcf` and `vct` run in the compiled kernel."""
        self._kernel: _threatc.Kernel | None = None
        self._kernel_shape: LineShape | None = None
        self.failed: dict[tuple[int, int], int] = {}
        """(kind, position key) -> the most attacking moves known not to be enough (kind 0 is
        VCF, 1 is VCT); `_NEVER` when no number of moves is."""
        self.nodes = 0
        self.limit = 0
        self.cut = 0
        """How many times a search stopped for want of attacking moves (not for want of threats)."""
        self.proven: dict[int, tuple[int, ...]] = {}
        """Positions (attacker to move) won by threats, with the line that wins: a win holds
        whatever the path to it, so the defender's replies in another order (its fours, most
        often) find it again at once. Kept between searches, like the failures."""
        self.refutations: dict[int, int] = {}
        """How often each cell has refuted an attack in this search: the defender tries the
        likeliest first."""

    # -- entry points ----------------------------------------------------------------------------

    def vcf(
        self,
        state: LineState,
        side: int,
        max_fours: int = VCF_MAX_FOURS,
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> list[int] | None:
        """The shortest VCF of `side` (to move) within `max_fours` fours, or None.

        Iterative deepening on the number of fours makes the first line found a shortest one.
        """
        kernel = self.compiled_kernel(state.shape)
        if kernel is not None:
            return self._compiled(kernel, 0, state, side, max_fours, max_nodes)
        return self._deepen(state, side, max_fours, max_nodes, self._vcf)

    def vct(
        self,
        state: LineState,
        side: int,
        max_attacks: int = VCT_MAX_ATTACKS,
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> list[int] | None:
        """A VCT of `side` (to move) within `max_attacks` threats (fewest first), or None."""
        kernel = self.compiled_kernel(state.shape)
        if kernel is not None:
            return self._compiled(kernel, 1, state, side, max_attacks, max_nodes)
        return self._deepen(state, side, max_attacks, max_nodes, self._vct)

    def _compiled(
        self,
        kernel: _threatc.Kernel,
        kind: int,
        state: LineState,
        side: int,
        most: int,
        max_nodes: int,
    ) -> list[int] | None:
        """`_deepen` with `_vcf` (kind 0) or `_vct` (kind 1), run in the compiled `kernel`. It
        never touches `state`; the counters come back even when `poll` raises."""
        size = kernel.words * 8
        kernel.nodes = self.nodes
        kernel.cut = self.cut
        kernel.table_limit = _TABLE_LIMIT
        try:
            return kernel.search(
                kind,
                state.bits[0].to_bytes(size, "little"),
                state.bits[1].to_bytes(size, "little"),
                side,
                most,
                max_nodes,
                self.poll,
            )
        finally:
            self.nodes = kernel.nodes
            self.cut = kernel.cut
            self.limit = kernel.limit

    def compiled_kernel(self, shape: LineShape) -> _threatc.Kernel | None:
        """The compiled kernel of `shape` when this search runs it, else None (the pure search
        runs). Besides `vcf` and `vct`, its `best_gain` and `gains` answer `LineState.gain` for
        many cells in one call (the main search's hottest loop), with the same numbers."""
        if not self.use_kernel or shape.size > KERNEL_MAX_SIZE:
            return None
        kernel = self._kernel
        if kernel is None or self._kernel_shape is not shape:
            # One kernel per board shape (its tables are keyed by positions of that shape).
            kernel = self._kernel = _threatc.Kernel(shape.size, shape.k, *_kernel_tables(shape))
            self._kernel_shape = shape
        return kernel

    def table_sizes(self) -> tuple[int, int]:
        """How many positions the failure table and the proven table hold (either engine's)."""
        if self._kernel is not None:
            return self._kernel.table_sizes()
        return len(self.failed), len(self.proven)

    def _deepen(
        self,
        state: LineState,
        side: int,
        most: int,
        max_nodes: int,
        search: Callable[[LineState, int, int], list[int] | None],
    ) -> list[int] | None:
        if len(self.failed) > _TABLE_LIMIT:
            self.failed.clear()
        if len(self.proven) > _TABLE_LIMIT:
            self.proven.clear()
        self.limit = self.nodes + max_nodes
        self.refutations.clear()
        played = len(state.history)
        try:
            for budget in range(1, most + 1):
                cut = self.cut
                line = search(state, side, budget)
                if line is not None:
                    return line
                if self.cut == cut:
                    # Nothing stopped for want of moves: a bigger budget finds nothing more.
                    return None
        except OutOfBudget:
            state.rewind(played)
        return None

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        if self.poll is not None and not self.nodes & 63:
            self.poll()

    def _known_to_fail(self, kind: int, state: LineState, side: int, left: int) -> bool:
        known = self.failed.get((kind, state.key(side)), -1)
        if known < left:
            return False
        if known != _NEVER:
            # It failed for want of moves before: a bigger budget might still succeed.
            self.cut += 1
        return True

    def _record_failure(
        self, kind: int, state: LineState, side: int, left: int, cut_before: int
    ) -> None:
        # A search that never ran out of moves below this node fails whatever the budget.
        self.failed[(kind, state.key(side))] = left if self.cut != cut_before else _NEVER

    # -- VCF -------------------------------------------------------------------------------------

    def _vcf(self, state: LineState, side: int, left: int) -> list[int] | None:
        """A VCF of `side` (to move) with at most `left` more fours, or None."""
        self._count()
        wins = state.win_cells(side)
        if wins:
            return [lowest(wins)]
        other = 1 - side
        threat = state.win_cells(other)
        if threat & (threat - 1):
            return None
        partners = state.partners(side)
        if threat:
            # The block is forced; the attack goes on only if the block is itself a four.
            cell = lowest(threat)
            if cell not in partners:
                return None
            moves = [cell]
        else:
            moves = _by_strength(state, side, partners)
        if not moves:
            return None
        if left <= 0:
            self.cut += 1
            return None
        if self._known_to_fail(0, state, side, left):
            return None
        cut = self.cut
        for move in moves:
            state.play(move, side)
            made = state.win_cells(side)
            if made & (made - 1):
                block = lowest(made)
                line: list[int] | None = [move, block, lowest(made ^ (1 << block))]
            else:
                block = lowest(made)
                state.play(block, other)
                rest = self._vcf(state, side, left - 1)
                state.undo(block, other)
                line = None if rest is None else [move, block, *rest]
            state.undo(move, side)
            if line is not None:
                return line
        self._record_failure(0, state, side, left, cut)
        return None

    # -- VCT -------------------------------------------------------------------------------------

    def _vct(self, state: LineState, side: int, left: int) -> list[int] | None:
        """A VCT of `side` (to move) with at most `left` more threats, or None."""
        self._count()
        wins = state.win_cells(side)
        if wins:
            return [lowest(wins)]
        other = 1 - side
        threat = state.win_cells(other)
        if threat & (threat - 1):
            return None
        if threat:
            # The block is forced, threat or not; the attack must still be pending after it.
            cell = lowest(threat)
            state.play(cell, side)
            rest = self._vct_reply(state, side, left)
            state.undo(cell, side)
            return None if rest is None else [cell, *rest]
        partners = state.partners(side)
        double = first_double(partners)
        if double is not None:
            made = partners[double]
            block = lowest(made)
            return [double, block, lowest(made ^ (1 << block))]
        key = state.key(side)
        won = self.proven.get(key)
        if won is not None:
            return list(won)
        if left <= 0:
            self.cut += 1
            return None
        if self._known_to_fail(1, state, side, left):
            return None
        cut = self.cut
        for move in self._threat_moves(state, side, partners):
            state.play(move, side)
            rest = self._vct_reply(state, side, left - 1)
            state.undo(move, side)
            if rest is not None:
                line = [move, *rest]
                self.proven[key] = tuple(line)
                return line
        self._record_failure(1, state, side, left, cut)
        return None

    def _vct_reply(self, state: LineState, side: int, left: int) -> list[int] | None:
        """The attack's line against the defender's most stubborn reply, or None if one holds."""
        self._count()
        other = 1 - side
        if state.win_cells(other):
            return None
        wins = state.win_cells(side)
        if wins & (wins - 1):
            block = lowest(wins)
            return [block, lowest(wins ^ (1 << block))]
        found = vct_replies(state, side, wins)
        if found is None:
            return None
        replies, lost_in_four = found
        longest: list[int] | None = None
        order = iter_bits(replies)
        if len(order) > 1:
            refuted = self.refutations
            order.sort(key=lambda cell: -refuted.get(cell, 0))
        for reply in order:
            state.play(reply, other)
            rest = self._vct(state, side, left)
            state.undo(reply, other)
            if rest is None:
                self.refutations[reply] = self.refutations.get(reply, 0) + 1
                return None
            if longest is None or len(rest) + 1 > len(longest):
                longest = [reply, *rest]
        if lost_in_four and (longest is None or len(longest) < 4):
            longest = _double_line(state, other, lowest(lost_in_four))
        return longest

    def _threat_moves(self, state: LineState, side: int, partners: dict[int, int]) -> list[int]:
        """Fours first (strongest first), then the moves that make a double for the next move."""
        fours = _by_strength(state, side, partners)
        four_cells = 0
        for cell in fours:
            four_cells |= 1 << cell
        threes = iter_bits(state.double_moves(side, state.empty & ~four_cells))
        threes.sort(key=lambda cell: (-state.gain(cell, side), cell))
        return fours + threes


def kernel_available() -> bool:
    """Whether the compiled threat kernel is installed and not turned off by
    TICTACTOE_TUI_PURE_ENGINE=1."""
    return _threatc is not None and os.environ.get(PURE_ENGINE_VARIABLE, "") in ("", "0")


@cache
def _kernel_tables(
    shape: LineShape,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """What the compiled kernel needs of a shape: each line's cells (the board's
    `geometry(...).line_cells`, lowest cell first, in `line_mask`'s order), H1's gains and
    weights."""
    return geometry(shape.size, shape.k).line_cells, shape.gain, shape.weight


def vct_replies(state: LineState, side: int, wins: int) -> tuple[int, int] | None:
    """At a VCT node where `side` attacks with `wins` (its winning cells: at most one) and the
    defender, with none of its own, is to move: (the replies the rules leave the defender, the
    other moves, each lost within 4 plies), or None when no threat is pending (the attack has
    failed). Against a four only the block; against doubles the moves of rule 5."""
    if wins:
        return wins, 0
    stops = defences(state, 1 - side)
    if stops is None:
        return None
    return stops, state.empty & ~stops


def first_double(partners: dict[int, int]) -> int | None:
    """The lowest cell of `partners` whose move makes two or more winning cells, if any."""
    doubles = [cell for cell, wins in partners.items() if wins & (wins - 1)]
    return min(doubles) if doubles else None


def _by_strength(state: LineState, side: int, partners: dict[int, int]) -> list[int]:
    """The four-making cells, those that build the most for `side` first."""
    return sorted(partners, key=lambda cell: (-state.gain(cell, side), cell))


def _double_line(state: LineState, side: int, move: int) -> list[int]:
    """The 4-ply loss after `side` plays `move`, which stops no double: double, block, win."""
    state.play(move, side)
    partners = state.partners(1 - side)
    state.undo(move, side)
    for cell in sorted(partners):
        wins = partners[cell]
        if wins & (wins - 1) and cell != move:
            remaining = wins & ~(1 << move)
            if remaining & (remaining - 1):
                block = lowest(remaining)
                return [move, cell, block, lowest(remaining ^ (1 << block))]
    raise AssertionError("rule 5 promised a double that the move leaves open")


def find_vcf(
    board: Board, max_fours: int = VCF_MAX_FOURS, max_nodes: int = DEFAULT_MAX_NODES
) -> ThreatWin | None:
    """The shortest win by continuous fours for the side to move on `board`, if it has one."""
    if board.is_over:
        return None
    line = ThreatSearch().vcf(
        LineState.from_board(board), side_of(board.to_move), max_fours, max_nodes
    )
    return None if line is None else ThreatWin(tuple(line))


def find_vct(
    board: Board, max_attacks: int = VCT_MAX_ATTACKS, max_nodes: int = DEFAULT_MAX_NODES
) -> ThreatWin | None:
    """A win by continuous threats (fours and threes) for the side to move on `board`, if any."""
    if board.is_over:
        return None
    line = ThreatSearch().vct(
        LineState.from_board(board), side_of(board.to_move), max_attacks, max_nodes
    )
    return None if line is None else ThreatWin(tuple(line))


__all__ = [
    "DEFAULT_MAX_NODES",
    "VCF_MAX_FOURS",
    "VCT_MAX_ATTACKS",
    "MoveFacts",
    "MoveKind",
    "Run",
    "ThreatSearch",
    "ThreatWin",
    "defences",
    "find_vcf",
    "find_vct",
    "fork_stops",
    "kernel_available",
    "line_shape",
    "lowest",
    "read_line",
    "read_move",
    "vct_replies",
]
