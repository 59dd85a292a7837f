"""Proving puzzles: whether a position is one (`PuzzleChecker.examine`), and the answers to a
wrong move (`refutation`) and to a right one (`continuation`) when it is played.

Boards up to 7×7 are decided by the exact solver's value of every move, bigger ones by the
exact search to a horizon (`horizon.HorizonProver`); every win or loss a puzzle claims is also
proven threat by threat, so that a reader can follow it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tictactoe_tui.engine.proofs.horizon import HorizonProver, OutOfBudget
from tictactoe_tui.engine.proofs.lines import LineState, iter_bits, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch, defences, lowest
from tictactoe_tui.engine.puzzles.puzzle import Goal, Puzzle, is_exact, rate
from tictactoe_tui.engine.rules.board import Board, check_shape
from tictactoe_tui.engine.search.api import analyse_position
from tictactoe_tui.engine.search.kernel import Stopped, shape
from tictactoe_tui.engine.search.types import Analysis, win_score

MAX_EXACT_PLIES = 9
"""The longest win a puzzle on an exactly solved board may ask for (its losses come within 10):
a longer proof is more a test of patience than of sight."""

MAX_HORIZON_PLIES = 7
"""The longest win a big-board proof may look for (so a hold puzzle's losses come within 8)."""

MIN_MARKS: dict[tuple[int, int], int] = {(5, 4): 4, (6, 4): 6, (7, 4): 7}
"""Marks a candidate needs on these boards: earlier positions take the exact solver seconds,
and are rarely puzzles (the game is still open)."""

SOLVE_MAX_NODES = 400_000
"""Positions the exact solver may search for one candidate (a couple of seconds); a harder
position is not a puzzle (nine in ten candidates on 6×6 and 7×7 need under 160,000)."""

SOLVE_NO_CLOCK = 3_600.0
"""The time limit handed to the exact solver so that only the node budget stops it."""

HOLD_CANDIDATES = 3
"""Moves holding against the opponent's threat beyond which a position is given up as a hold
puzzle (a longer horizon rarely leaves only one)."""

THREAT_NODES = 4_000
"""Nodes of threat search that look for a candidate's attack on a big board (a filter only:
the proof is the horizon search's)."""


class PuzzleChecker:
    """Decides whether positions of one board shape are puzzles, and proves it.

    `poll` (if given) is called often and may raise to stop (a cancelled job); each proof may
    visit at most `max_nodes` positions, beyond which the position is simply not a puzzle.
    """

    def __init__(
        self, size: int, k: int, max_nodes: int = 150_000, poll: Callable[[], None] | None = None
    ) -> None:
        """Prepare the searches for size×size boards with k in a row."""
        check_shape(size, k)
        self.size = size
        self.k = k
        self.exact = is_exact(size, k)
        self.poll = poll
        self.prover = HorizonProver(max_nodes=max_nodes, poll=poll)
        """The full-width search: proves that a side does not win in time."""
        self.proofs = HorizonProver(max_nodes=max_nodes, poll=poll, threats_only=True)
        """The threat-only search: proves wins a reader can follow threat by threat. Every
        win or loss a puzzle claims is proven here (a loss only a quiet move exploits is
        true, but no puzzle: nobody could follow its proof)."""
        self.threats = ThreatSearch(poll)

    # -- is it a puzzle? ---------------------------------------------------------------------

    def examine(self, board: Board, source: str = "self-play") -> Puzzle | None:
        """The puzzle `board` is, or None (not a puzzle, or not proven within the budget)."""
        if (board.size, board.k) != (self.size, self.k) or board.is_over:
            return None
        state = LineState.from_board(board)
        side = side_of(board.to_move)
        if state.win_cells(side) or state.win_cells(1 - side) or len(board.legal_moves()) < 2:
            return None  # a rule decides: nothing to find
        try:
            if self.exact:
                return self._exact(board, state, side, source)
            return self._horizon(board, state, side, source)
        except OutOfBudget:
            return None

    def _exact(self, board: Board, state: LineState, side: int, source: str) -> Puzzle | None:
        """A puzzle by the exact solver's values of every move."""
        if board.move_count < MIN_MARKS.get((self.size, self.k), 0):
            return None
        analysis = self._solve(board)
        if analysis is None:
            return None
        big = win_score(board)
        wins = [s for s in analysis.scores if s.score > 0]
        if len(wins) == 1:
            answer, plies = wins[0].move, big - wins[0].score
            if not 3 <= plies <= MAX_EXACT_PLIES:
                return None
            return self._win_puzzle(board, state, side, answer, plies, source, wins[0].pv[:plies])
        holding = [s for s in analysis.scores if s.score == 0]
        if wins or len(holding) != 1:
            return None
        plies = max(big - abs(s.score) for s in analysis.scores if s.score < 0)
        if plies > MAX_EXACT_PLIES + 1:
            return None
        if not all(
            self._lost_by_threats(state, side, s.move, big - abs(s.score) - 1)
            for s in analysis.scores
            if s.score < 0
        ):
            return None
        return self._hold_puzzle(
            board, state, side, holding[0].move, plies, source, holding[0].pv[:3]
        )

    def _solve(self, board: Board) -> Analysis | None:
        """The exact solver's value of every move, or None if it needs more than
        `SOLVE_MAX_NODES` positions (counted, not timed: the same seed gives the same puzzles
        on any machine)."""
        polls = 0
        budget = SOLVE_MAX_NODES // (shape(board.size, board.k).poll_mask + 1)
        cancelled = False

        def stop() -> bool:
            nonlocal polls, cancelled
            polls += 1
            if self.poll is not None:
                try:
                    self.poll()
                except Stopped:
                    cancelled = True
                    return True
            return polls > budget

        # A time limit far beyond the node budget: without one, boards with more than 25
        # empty cells get the engine's default second, and a busy machine would decide.
        analysis = analyse_position(board, time_limit=SOLVE_NO_CLOCK, should_stop=stop)
        if cancelled:
            raise Stopped
        return analysis if analysis.complete and not analysis.cancelled else None

    def _horizon(self, board: Board, state: LineState, side: int, source: str) -> Puzzle | None:
        """A puzzle by the horizon search: the side's own attack first, else the opponent's."""
        attack = self._threat_length(state, side)
        if attack is not None:
            plies = self.prover.fastest(state, side, attack)
            if plies is None or plies < 3:
                return None
            answer = self.prover.winning_line(state, side, plies)[0]
            if not self.proofs.move_wins(state, side, answer, plies):
                return None
            others = self._likely_first(state, side, answer)
            if any(self.prover.move_wins(state, side, move, plies) for move in others):
                return None
            return self._win_puzzle(board, state, side, answer, plies, source)
        threat = self._threat_length(state, 1 - side)
        if threat is None:
            return None
        needed = self.prover.fastest(state, 1 - side, threat)
        if needed is None or needed < 3:
            return None
        holding: list[int] = []
        for move in self._defences_first(state, side):
            lost = self._holds_or_not(state, side, move, needed)
            if lost is None:
                return None
            if not lost:
                holding.append(move)
                if len(holding) > HOLD_CANDIDATES:
                    return None
        # A move that loses within n plies loses within n + 2: a longer horizon can only
        # shrink the moves that hold, and every other move still loses within it.
        horizon = needed
        while len(holding) > 1 and horizon + 2 <= MAX_HORIZON_PLIES:
            horizon += 2
            kept = []
            for move in holding:
                lost = self._holds_or_not(state, side, move, horizon)
                if lost is None:
                    return None
                if not lost:
                    kept.append(move)
            holding = kept
        if len(holding) != 1:
            return None
        return self._hold_puzzle(board, state, side, holding[0], horizon + 1, source)

    def _holds_or_not(self, state: LineState, side: int, move: int, plies: int) -> bool | None:
        """After `side`'s `move`: True when the opponent wins within `plies` by threats, False
        when it does not win within them at all, None when only a quiet move wins (a loss no
        puzzle should ask a player to see)."""
        if self._lost_by_threats(state, side, move, plies):
            return True
        state.play(move, side)
        try:
            return None if self.prover.wins(state, 1 - side, plies) else False
        finally:
            state.undo(move, side)

    def _lost_by_threats(self, state: LineState, side: int, move: int, plies: int) -> bool:
        """Whether after `side`'s `move` the opponent wins within `plies` plies by threats."""
        if state.win_cells(side) >> move & 1:
            return False
        state.play(move, side)
        try:
            return self.proofs.wins(state, 1 - side, plies)
        finally:
            state.undo(move, side)

    def _threat_length(self, state: LineState, side: int) -> int | None:
        """The length of a threat win `side` (to move) has within the horizon, if the threat
        search finds one: a quick filter before the proofs."""
        found = self.threats.vct(state, side, max_nodes=THREAT_NODES)
        if found is None or len(found) > MAX_HORIZON_PLIES:
            return None
        return len(found)

    def _likely_first(self, state: LineState, side: int, answer: int) -> list[int]:
        """Every other legal move, the ones most likely to win too (threats) first, so a second
        winning move is found early."""
        fours = state.four_moves(side)
        threes = state.double_moves(side, state.empty & ~fours)
        return [move for move in _threats_first(state, side, fours | threes) if move != answer]

    def _defences_first(self, state: LineState, side: int) -> list[int]:
        """Every legal move of the defender `side`, the ones touching the attack first, so a
        second holding move is found early."""
        attacker = 1 - side
        near = state.line_cells() | state.double_cells(attacker) | state.four_moves(side)
        for wins in state.partners(attacker).values():
            near |= wins
        return _threats_first(state, side, near)

    # -- the two kinds -----------------------------------------------------------------------

    def _win_puzzle(
        self,
        board: Board,
        state: LineState,
        side: int,
        answer: int,
        plies: int,
        source: str,
        line: Sequence[int] = (),
    ) -> Puzzle | None:
        """The win puzzle of `answer`; `line` is the exact solver's proof, else the horizon
        search proves the win again and gives its line."""
        if not self.proofs.move_wins(state, side, answer, plies):
            return None  # the win must be proven threat by threat, or there is no puzzle
        if not line or not _wins_by(board, line):
            # The solver's line stops where its table has no entry: the threat search's line
            # (the defence holding out longest) stands in.
            line = self.proofs.line_after(state, side, answer, plies)
        fours = state.four_moves(side)
        tempting = (fours | state.double_moves(side, state.empty & ~fours)) & ~(1 << answer)
        return self._make(
            board,
            "win",
            answer,
            plies,
            tuple(line),
            tempting.bit_count(),
            self._branching(state, side, line),
            source,
        )

    def _hold_puzzle(
        self,
        board: Board,
        state: LineState,
        side: int,
        answer: int,
        plies: int,
        source: str,
        line: Sequence[int] = (),
    ) -> Puzzle | None:
        """The hold puzzle of `answer`; `line` is the exact solver's line, else the answer, the
        attacker's strongest try and the reply that holds (proven within the horizon)."""
        attacker = 1 - side
        if not line:
            made = [answer]
            state.play(answer, side)
            try:
                for attempt in self._tries_after(state, side)[:1]:
                    state.play(attempt, attacker)
                    try:
                        reply = self.prover.holding_reply(state, attacker, plies - 2)
                    finally:
                        state.undo(attempt, attacker)
                    if reply is not None:
                        made += [attempt, reply]
            finally:
                state.undo(answer, side)
            line = made
        touched = state.line_cells() | state.double_cells(attacker)
        for wins in state.partners(attacker).values():
            touched |= wins
        tempting = (touched & ~(1 << answer)).bit_count()
        branching = max(len(self._attacker_tries(state, attacker)), 1)
        return self._make(board, "hold", answer, plies, tuple(line), tempting, branching, source)

    def _tries_after(self, state: LineState, side: int) -> list[int]:
        """The attacker's tries after `side`'s answer, strongest first, among the moves the
        forcing rules leave it: the block of a winning cell the answer made (rule 3), the
        moves that stop a double it made or make a four (rule 5); else every forcing try."""
        attacker = 1 - side
        threat = state.win_cells(side)
        if threat:
            return [lowest(threat)]
        stops = defences(state, attacker)
        if stops is not None:
            return _threats_first(state, attacker, stops, only=True)
        return self._attacker_tries(state, attacker)

    def _attacker_tries(self, state: LineState, attacker: int) -> list[int]:
        """The attacker's forcing tries (fours, then moves making a double), strongest first."""
        fours = state.four_moves(attacker)
        doubles = state.double_cells(attacker)
        threes = state.double_moves(attacker, state.empty & ~fours) if not doubles else 0
        return _threats_first(state, attacker, fours | doubles | threes, only=True)

    def _branching(self, state: LineState, side: int, line: Sequence[int]) -> int:
        """The defender's replies the proof answers along `line` (the rules leave the rest
        lost at once): the branching of the defence."""
        total = 0
        played = len(state.history)
        mover = side
        try:
            for move in line[:-1]:
                if state.win_cells(mover) >> move & 1:
                    break
                state.play(move, mover)
                mover = 1 - mover
                if mover != side:
                    total += len(self.prover.replies(state, side))
        finally:
            state.rewind(played)
        return max(total, 1)

    def _make(
        self,
        board: Board,
        goal: Goal,
        answer: int,
        plies: int,
        line: tuple[int, ...],
        tempting: int,
        branching: int,
        source: str,
    ) -> Puzzle:
        return Puzzle(
            position=str(board),
            size=self.size,
            k=self.k,
            to_move=board.to_move,
            goal=goal,
            answer=answer,
            plies=plies,
            line=line,
            rating=rate(goal, plies, tempting, branching, self.size * self.size),
            tempting=tempting,
            branching=branching,
            source=source,
        )

    # -- playing a puzzle --------------------------------------------------------------------

    def verify(self, puzzle: Puzzle) -> bool:
        """Prove the puzzle again from scratch: True when both halves hold."""
        again = self.examine(puzzle.board, puzzle.source)
        return (
            again is not None
            and again.goal == puzzle.goal
            and again.answer == puzzle.answer
            and again.plies == puzzle.plies
        )

    def refutation(self, puzzle: Puzzle, move: int) -> tuple[int, ...]:
        """What answers a wrong `move`, the move itself first: the opponent's win when the move
        loses, else the reply that keeps the side from winning (in time, on a big board)."""
        board = puzzle.board
        if self.exact:
            analysis = self._solve(board)
            scored = (
                None
                if analysis is None
                else next((s for s in analysis.scores if s.move == move), None)
            )
            if scored is None:
                return (move,)
            if scored.score >= 0:
                return scored.pv[:2]
            if _wins_by(board.play(move), scored.pv[1:]):
                return scored.pv
            # The solver's line stops short of the win: the threat search tells the rest.
            state = LineState.from_board(board)
            side = side_of(board.to_move)
            state.play(move, side)
            try:
                plies = win_score(board) - abs(scored.score) - 1
                line = self.proofs.winning_line(state, 1 - side, plies)
            except OutOfBudget:
                line = []
            return (move, *line) if line else scored.pv
        state = LineState.from_board(board)
        side = side_of(board.to_move)
        if state.win_cells(side) >> move & 1:
            return (move,)
        state.play(move, side)
        try:
            horizon = puzzle.plies - 1 if puzzle.goal == "hold" else puzzle.plies + 1
            line = self.proofs.winning_line(state, 1 - side, horizon)
            if line:
                return (move, *line)
            reply = self.prover.holding_reply(state, side, puzzle.plies - 1)
            return (move,) if reply is None else (move, reply)
        except OutOfBudget:
            return (move,)
        finally:
            state.undo(move, side)

    def continuation(self, puzzle: Puzzle) -> tuple[int, ...]:
        """The proof after a right answer, the defence played by the engine: on a big board
        each reply the one that holds out longest (found afresh); the stored line elsewhere."""
        if self.exact or puzzle.goal == "hold":
            return puzzle.line
        board = puzzle.board
        state = LineState.from_board(board)
        try:
            return tuple(
                self.proofs.line_after(state, side_of(board.to_move), puzzle.answer, puzzle.plies)
            )
        except OutOfBudget:
            return puzzle.line


def _wins_by(board: Board, line: Sequence[int]) -> bool:
    """Whether playing `line` from `board` ends with the side to move completing a line."""
    mover = board.to_move
    for move in line:
        if board.is_over:
            return False
        board = board.play(move)
    return board.winner is mover


def _threats_first(state: LineState, side: int, first: int, only: bool = False) -> list[int]:
    """The empty cells of `first` (best H1 gain for `side` first), then (unless `only`) every
    other empty cell in order."""
    gain = state.gain
    empty = state.empty
    head = sorted(iter_bits(first & empty), key=lambda cell: (-gain(cell, side), cell))
    if only:
        return head
    return head + iter_bits(empty & ~first)
