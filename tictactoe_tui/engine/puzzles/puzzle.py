"""What a puzzle is: a position, its goal, its proven answer and line, its rating, its JSON.

`Puzzle` is one puzzle (written as plain values by `to_json`, read back by `from_json`: the
form the bank and the history keep); `rate` gives its difficulty from its proof, `rating_word`
the word for it; `canonical` is its position up to symmetry; `SHAPES` the boards puzzles are
made for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from tictactoe_tui.engine.proofs.symmetry import board_images
from tictactoe_tui.engine.proofs.threats import MoveFacts, read_line
from tictactoe_tui.engine.rules.board import (
    Board,
    Mark,
    cell_notation,
    check_shape,
    parse_cell,
)

Goal = Literal["win", "hold"]
"""What the side to move must do: win, or find the only defence."""

SHAPES: tuple[tuple[int, int], ...] = (
    (3, 3),
    (4, 3),
    (4, 4),
    (5, 4),
    (6, 4),
    (7, 4),
    (10, 5),
    (15, 5),
)
"""The (size, k) pairs puzzles are made for."""

EXACT_MAX_CELLS = 49
"""Boards up to 7×7 are solved exactly for each candidate; bigger ones to a horizon."""

RATING_WORDS: tuple[tuple[int, str], ...] = (
    (900, "easy"),
    (1200, "medium"),
    (1500, "hard"),
    (1 << 30, "very hard"),
)
"""A rating's word: the first whose bound is above it."""


def default_k(size: int) -> int:
    """The k puzzles use on a size×size board: the one in `SHAPES` (4 on 5×5 to 7×7), else
    the board's usual min(size, 5)."""
    return next((k for s, k in SHAPES if s == size and (s, k) != (4, 3)), min(size, 5))


def is_exact(size: int, k: int) -> bool:
    """True when puzzles of this shape are checked by the exact solver (boards up to 7×7)."""
    return size * size <= EXACT_MAX_CELLS


def rating_word(rating: int) -> str:
    """ "easy", "medium", "hard" or "very hard"."""
    return next(word for bound, word in RATING_WORDS if rating < bound)


def canonical(board: Board) -> str:
    """The least of the position's eight symmetric images (with its side to move): two
    positions that are mirror images or rotations of each other are one puzzle."""
    least = min("".join(image.rows()) for image in board_images(board))
    return f"{board.size}/{board.k}/{board.to_move}/{least}"


@dataclass(frozen=True)
class Puzzle:
    """A position, what to do there, its proven answer and its proof's main line."""

    position: str
    """The board in the notation `Board.from_string` reads."""
    size: int
    k: int
    to_move: Mark
    goal: Goal
    answer: int
    """The only move that wins ("win") or does not lose ("hold")."""
    plies: int
    """The length of the proof: the win comes within `plies` plies (the answer is ply 1); for
    "hold", every other move loses within `plies`."""
    line: tuple[int, ...]
    """The proven line, the answer first: for "win" the defence that holds out longest and the
    win; for "hold" the answer and how it meets the attacker's best try."""
    rating: int
    """The difficulty (see `rate`)."""
    tempting: int = 0
    """Wrong moves that look right: threats that fail, or defences that stop only part of it."""
    branching: int = 1
    """Defender replies the proof had to answer along its main line (the branching of the
    defence; for "hold", the attacker's threats the answer must meet)."""
    source: str = "self-play"
    """Where the position came from: "self-play", "random opening", "your game", ..."""

    @property
    def board(self) -> Board:
        """The puzzle's position."""
        return Board.from_string(self.position, k=self.k, to_move=self.to_move)

    @property
    def steps(self) -> tuple[MoveFacts, ...]:
        """What each move of the proven line does (the threat it makes, the cells that answer
        it, whether it was forced), read with the rules the proof stands on: the words of an
        explanation are made from these, never from a reading of their own."""
        return read_line(self.board, self.line)

    @property
    def key(self) -> str:
        """The position up to symmetry: one key per puzzle however it is turned."""
        return canonical(self.board)

    @property
    def word(self) -> str:
        """The rating's word."""
        return rating_word(self.rating)

    def to_json(self) -> dict[str, object]:
        """The puzzle as plain values (cells as names, "B2")."""
        return {
            "position": self.position,
            "size": self.size,
            "k": self.k,
            "to_move": str(self.to_move),
            "goal": self.goal,
            "answer": cell_notation(self.answer, self.size),
            "plies": self.plies,
            "rating": self.rating,
            "rating_word": self.word,
            "line": [cell_notation(cell, self.size) for cell in self.line],
            "tempting": self.tempting,
            "branching": self.branching,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Puzzle:
        """Read what `to_json` wrote; ValueError (IllegalMove) if it is not a puzzle."""
        size, k = int(str(data["size"])), int(str(data["k"]))
        check_shape(size, k)
        line = data["line"]
        if not isinstance(line, list):
            raise ValueError("a puzzle's line must be a list of cells")
        goal = str(data["goal"])
        if goal not in ("win", "hold"):
            raise ValueError(f"unknown goal {goal!r}")
        puzzle = cls(
            position=str(data["position"]),
            size=size,
            k=k,
            to_move=Mark(str(data["to_move"])),
            goal="win" if goal == "win" else "hold",
            answer=parse_cell(str(data["answer"]), size),
            plies=int(str(data["plies"])),
            line=tuple(parse_cell(str(cell), size) for cell in line),
            rating=int(str(data["rating"])),
            tempting=int(str(data.get("tempting", 0))),
            branching=int(str(data.get("branching", 1))),
            source=str(data.get("source", "self-play")),
        )
        board = puzzle.board
        if (board.size, board.k) != (size, k) or puzzle.line[:1] != (puzzle.answer,):
            raise ValueError("the puzzle's line must start with its answer")
        return puzzle


def rate(goal: Goal, plies: int, tempting: int, branching: int, cells: int) -> int:
    """A puzzle's difficulty from its proof, on a chess-puzzle-like scale (about 500 to 2000).

    Each two plies of proof add 180 (a move to find and a reply to foresee); each tempting
    wrong move 35 (up to ten); the defence's branching 70 per doubling (more replies to read);
    a big board 60 per doubling of its cells beyond 3×3 (the move hides among more); finding
    the only defence is a little harder than a win of the same length (+60).
    """
    score = (
        420
        + 180 * (plies // 2)
        + 35 * min(tempting, 10)
        + 70 * math.log2(1 + branching)
        + 60 * math.log2(cells / 9)
        + (60 if goal == "hold" else 0)
    )
    return int(round(score / 10) * 10)
