"""Where puzzle candidates come from: games the engine plays against itself, seeded.

Each side plays at one of the `STRENGTHS` (a loose player leaves wins and threats about, a
sharp one finds them); a game may start from a few random moves (`SelfPlay.game`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tictactoe_tui.engine.proofs.lines import LineState, iter_bits, side_of
from tictactoe_tui.engine.proofs.threats import ThreatSearch, lowest
from tictactoe_tui.engine.rules.board import Board

SMALL_OPENINGS = 5
"""Boards up to this size open their random openings anywhere on the board."""


@dataclass(frozen=True)
class Strength:
    """How a self-play side picks its moves."""

    name: str
    clever: float
    """The chance of the H1 player's move (win, else block, else the best H1 gain); otherwise
    a random cell next to the marks."""
    threats: bool = False
    """Whether it also plays a win by continuous fours when it has one."""


STRENGTHS: tuple[Strength, ...] = (
    Strength("random", 0.0),
    Strength("loose", 0.6),
    Strength("steady", 0.85),
    Strength("sharp", 0.95, threats=True),
)
"""The self-play strengths: a loose player leaves wins and threats about, a sharp one finds
them; games between different strengths are where puzzles appear."""


@dataclass
class SelfPlay:
    """Games the engine plays against itself for candidates, seeded."""

    size: int
    k: int
    rng: random.Random
    poll: Callable[[], None] | None = None
    games: int = field(default=0)

    def game(self) -> Iterator[tuple[Board, str]]:
        """The positions of one game (each with its source), from its first move to its end."""
        self.games += 1
        board = Board.empty(self.size, self.k)
        opening = self.rng.choice((0, 0, 1, 2, 3, 4))
        source = "random opening" if opening else "self-play"
        centre = self.size // 2
        # Small boards open anywhere (their games are short, and every corner matters); big
        # ones near the centre, where real games start.
        reach = self.size if self.size <= SMALL_OPENINGS else max(1, self.size // 4)
        for _ in range(opening):
            near = [
                m
                for m in board.legal_moves()
                if abs(m // self.size - centre) <= reach and abs(m % self.size - centre) <= reach
            ]
            board = board.play(self.rng.choice(near))
        sides = (self.rng.choice(STRENGTHS), self.rng.choice(STRENGTHS))
        state = LineState.from_board(board)
        threats = ThreatSearch(self.poll)
        while not board.is_over:
            yield board, source
            if self.poll is not None:
                self.poll()
            mover = side_of(board.to_move)
            move = self._move(state, mover, sides[mover], threats)
            board = board.play(move)
            if not board.is_over:
                state.play(move, mover)

    def _move(self, state: LineState, side: int, strength: Strength, threats: ThreatSearch) -> int:
        wins = state.win_cells(side)
        if wins:
            return lowest(wins)
        empty = state.empty
        if self.rng.random() >= strength.clever:
            near = state.neighbourhood() or empty
            return self.rng.choice(iter_bits(near))
        blocks = state.win_cells(1 - side)
        if blocks:
            return lowest(blocks)
        if strength.threats:
            found = threats.vcf(state, side, max_nodes=2_000)
            if found:
                return found[0]
        cells = iter_bits(state.neighbourhood() or empty)
        gains = [state.gain(cell, side) + state.gain(cell, 1 - side) // 2 for cell in cells]
        best = max(gains)
        return self.rng.choice([cell for cell, g in zip(cells, gains, strict=True) if g == best])
