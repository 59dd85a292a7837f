"""The exact search to a horizon: "does this side win within n plies, whatever the other does?"

The puzzles need proofs both ways on boards too big to solve: that the answer wins by force
within n plies, and that no other move does. A threat search only finds wins; this search also
proves their absence, because it looks at every legal move wherever a move could matter, and
leaves a move out only by a rule that is itself a proof. For the attacker A (trying to complete
a line within n plies) against the defender D:

1. A with a winning cell wins in 1. D with a winning cell wins first when D is to move.
2. A facing two winning cells of D cannot win (it blocks one, D takes the other); facing one,
   A must block it.
3. A with a *double* (a cell where one move makes two winning cells) wins in 3.
4. Within 3 or 4 plies A wins only by 1 or 3. Within 5 or 6 plies A's first move must make a
   four or make a double for its next move: after any other move D passes or plays anywhere,
   and D's stones never give A a four or a double it did not have, so A cannot win in time.
   (For k = 3 a line with no mark is not tracked, so there every move is tried.)
5. D facing one winning cell of A must block it; facing A's doubles, D must play a cell that
   stops them all or make a four (`threats.defences`): every other move loses in 4 plies.
6. If A would not win in time even were D to pass (A moving twice), no reply of D can help A
   either: D's stones never help A, so every reply holds (the null move, as a proof).

Everything else is searched in full: every legal move of A from 7 plies up, and every reply of
D, so "no win within n" is as exact as "a win within n". Results are kept in a table keyed by
the position, the side and the horizon (a win within n is a win within n + 1, a failure within
n is a failure within n - 1). A search that visits more than `max_nodes` positions raises
`OutOfBudget`: an unproven answer is never reported as a proof.

Sides are `lines` indexes (0 is X, 1 is O); the position is a `LineState` that is played on and
taken back, and left as it was found.
"""

from __future__ import annotations

from collections.abc import Callable

from tictactoe_tui.engine.proofs.lines import LineState, iter_bits
from tictactoe_tui.engine.proofs.threats import defences, lowest

DEFAULT_MAX_NODES = 400_000
"""Positions one question may visit before it gives up (about ten seconds at worst)."""


TABLE_LIMIT = 1_000_000
"""Results the table keeps before it starts afresh (a long run of questions must not take the
machine's memory; forgetting costs only time)."""


class OutOfBudget(Exception):
    """The search visited its allowed number of positions without an answer."""


class HorizonProver:
    """Exact wins-within-n questions on one board shape, with a table kept between calls."""

    def __init__(
        self,
        max_nodes: int = DEFAULT_MAX_NODES,
        poll: Callable[[], None] | None = None,
        threats_only: bool = False,
    ) -> None:
        """`max_nodes` bounds each question; `poll` (called every 256 positions) may raise to
        stop the search (the position is then left as it was found).

        With `threats_only` the attacker tries only threats from 7 plies up (moves making a
        four, or a three from a line of k-3): a win found is still a proof, and one a reader
        can follow threat by threat, but "no win" is then no proof of anything.
        """
        self.threats_only = threats_only
        self.max_nodes = max_nodes
        self.poll = poll
        self.nodes = 0
        """Positions visited by every question so far."""
        self._limit = 0
        self._won: dict[tuple[int, int], int] = {}
        """(position key with A to move, role) -> the fewest plies known to be enough."""
        self._failed: dict[tuple[int, int], int] = {}
        """(position key, role) -> the most plies known not to be enough."""

    # -- questions ---------------------------------------------------------------------------------

    def wins(self, state: LineState, side: int, plies: int) -> bool:
        """True when `side`, to move, completes a line within `plies` plies against any defence."""
        return self._ask(lambda: self._attack(state, side, plies), state)

    def move_wins(self, state: LineState, side: int, move: int, plies: int) -> bool:
        """True when `side` playing `move` completes a line within `plies` plies (the move is
        ply 1) against any defence."""
        return self._ask(lambda: self._after_move(state, side, move, plies), state)

    def fastest(self, state: LineState, side: int, most: int) -> int | None:
        """The fewest plies within which `side` (to move) wins, if it wins within `most`."""
        for plies in range(1, most + 1, 2):
            if self.wins(state, side, plies):
                return plies
        return None

    def _ask(self, question: Callable[[], bool], state: LineState) -> bool:
        if len(self._won) + len(self._failed) > TABLE_LIMIT:
            self._won.clear()
            self._failed.clear()
        self._limit = self.nodes + self.max_nodes
        played = len(state.history)
        try:
            return question()
        except BaseException:
            state.rewind(played)
            raise

    # -- lines -------------------------------------------------------------------------------------

    def winning_line(self, state: LineState, side: int, plies: int) -> list[int]:
        """A line proving that `side` (to move) wins within `plies`: its moves, each reply the
        one that holds out longest, ending with the winning move. Empty if there is no such win.
        """
        left = self.fastest(state, side, plies)
        return [] if left is None else self._walk(state, side, None, left)

    def line_after(self, state: LineState, side: int, move: int, plies: int) -> list[int]:
        """The line of `side`'s `move`, known to win within `plies`, then as `winning_line`."""
        return self._walk(state, side, move, plies)

    def _walk(self, state: LineState, side: int, first: int | None, left: int) -> list[int]:
        line: list[int] = []
        mover = side
        played = len(state.history)
        try:
            while True:
                wins = state.win_cells(side) if mover == side else 0
                if wins:
                    line.append(first if first is not None and wins >> first & 1 else lowest(wins))
                    return line
                if mover == side:
                    move = (
                        first
                        if first is not None
                        else next(
                            m
                            for m in self._attack_moves(state, side, left, full=True)
                            if self.move_wins(state, side, m, left)
                        )
                    )
                    first = None
                    left -= 1
                else:
                    move, left = self.stubborn_reply(state, side, left)
                line.append(move)
                state.play(move, mover)
                mover = 1 - mover
        finally:
            state.rewind(played)

    def stubborn_reply(self, state: LineState, attacker: int, plies: int) -> tuple[int, int]:
        """The defender's reply after which the attacker needs the most plies, and those plies
        (the attacker's win is known to come within `plies` of the defender's move)."""
        best_move, best_left = -1, -1
        replies = self.replies(state, attacker)
        if not replies:
            # Nothing stops every double: show the try a player would make, taking a double.
            tries = state.double_cells(attacker)
            for wins in state.partners(attacker).values():
                tries |= wins
            replies = iter_bits(tries & state.empty) or iter_bits(state.empty)
        for reply in replies:
            state.play(reply, 1 - attacker)
            needed = self.fastest(state, attacker, plies - 1)
            state.undo(reply, 1 - attacker)
            if needed is not None and needed > best_left:
                best_move, best_left = reply, needed
        if best_move < 0:
            raise AssertionError("the defence was proven lost but every reply holds")
        return best_move, best_left

    def holding_reply(self, state: LineState, attacker: int, plies: int) -> int | None:
        """A reply of the defender (to move) after which `attacker` does not win within the
        remaining `plies - 1` plies; None when every reply loses in time."""
        own = state.win_cells(1 - attacker)
        if own:
            return lowest(own)  # it completes a line: the game ends there
        for reply in self.replies(state, attacker):
            state.play(reply, 1 - attacker)
            try:
                holds = not self.wins(state, attacker, plies - 1)
            finally:
                state.undo(reply, 1 - attacker)
            if holds:
                return reply
        return None

    # -- the search ----------------------------------------------------------------------------

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self._limit:
            raise OutOfBudget
        if self.poll is not None and not self.nodes & 255:
            self.poll()

    def _after_move(self, state: LineState, side: int, move: int, plies: int) -> bool:
        if state.win_cells(side) >> move & 1:
            return plies >= 1
        state.play(move, side)
        try:
            return self._defend(state, side, plies - 1)
        finally:
            state.undo(move, side)

    def _attack(self, state: LineState, side: int, plies: int) -> bool:
        """A (`side`) to move completes a line within `plies` plies."""
        self._count()
        if state.win_cells(side):
            return plies >= 1
        if plies < 3:
            return False
        threat = state.win_cells(1 - side)
        if threat & (threat - 1):
            return False
        if not threat and state.double_cells(side):
            return True
        if not threat and plies < 5:
            return False
        if not state.empty:
            return False
        key = (state.key(side), 0)
        if self._won.get(key, 1 << 30) <= plies:
            return True
        if self._failed.get(key, -1) >= plies:
            return False
        result = any(
            self._after_move(state, side, move, plies)
            for move in self._attack_moves(state, side, plies)
        )
        if result:
            self._won[key] = min(plies, self._won.get(key, 1 << 30))
        else:
            self._failed[key] = max(plies, self._failed.get(key, -1))
        return result

    def _attack_moves(
        self, state: LineState, side: int, plies: int, full: bool = False
    ) -> list[int]:
        """The attacker's moves worth trying within `plies` (rules 2 and 4), strongest first.

        `full` lists every move the rules allow even where a shortcut (a double) decides.
        """
        threat = state.win_cells(1 - side)
        if threat:
            return [lowest(threat)]
        empty = state.empty
        fours = state.four_moves(side)
        if plies < 5:
            return (
                [
                    cell
                    for cell in iter_bits(fours)
                    if (state.partners(side).get(cell, 0)).bit_count() >= 2
                ]
                if full
                else []
            )
        if plies < 7 and state.shape.k > 3:
            cells = fours | state.double_moves(side, empty & ~fours)
        elif self.threats_only and state.shape.k > 3:
            cells = fours | state.two_cells(side)
        else:
            # For k = 3 a line with no mark is not tracked, so `double_moves` cannot see a
            # move that makes a double from empty lines: every move is tried.
            cells = empty
        gain = state.gain
        return sorted(
            iter_bits(cells), key=lambda cell: (not fours >> cell & 1, -gain(cell, side), cell)
        )

    def replies(self, state: LineState, attacker: int) -> list[int]:
        """The defender's replies worth trying (rule 5), the strongest first: the defender's
        fours, then the cells that take the most from the attacker's lines."""
        defender = 1 - attacker
        wins = state.win_cells(attacker)
        if wins:
            return [lowest(wins)]
        stops = defences(state, defender)
        cells = state.empty if stops is None else stops
        fours = state.four_moves(defender)
        gain = state.gain
        return sorted(
            iter_bits(cells), key=lambda cell: (not fours >> cell & 1, -gain(cell, defender), cell)
        )

    def _defend(self, state: LineState, attacker: int, plies: int) -> bool:
        """D to move cannot keep A (`attacker`) from completing a line within `plies` plies."""
        self._count()
        defender = 1 - attacker
        if state.win_cells(defender):
            return False
        wins = state.win_cells(attacker)
        if wins & (wins - 1):
            return plies >= 2
        if wins:
            block = lowest(wins)
            state.play(block, defender)
            try:
                return self._attack(state, attacker, plies - 1)
            finally:
                state.undo(block, defender)
        if plies < 4 or not state.empty:
            return False
        if not self._attack(state, attacker, plies - 1):
            # Even if the defender passed, the attacker would not win in time; a defender's
            # stone never helps the attacker, so every reply holds.
            return False
        key = (state.key(defender), 1)
        if self._won.get(key, 1 << 30) <= plies:
            return True
        if self._failed.get(key, -1) >= plies:
            return False
        result = True
        for reply in self.replies(state, attacker):
            state.play(reply, defender)
            try:
                lost = self._attack(state, attacker, plies - 1)
            finally:
                state.undo(reply, defender)
            if not lost:
                result = False
                break
        if result:
            self._won[key] = min(plies, self._won.get(key, 1 << 30))
        else:
            self._failed[key] = max(plies, self._failed.get(key, -1))
        return result
