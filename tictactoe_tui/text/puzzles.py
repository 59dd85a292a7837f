"""The puzzle trainer's words: the goal, the hints, the verdict on a try, the player's standing.

Pure (no Textual): the Puzzle screen and `tictactoe-tui puzzles` hand a `Puzzle` (and the
player's `Standing`) to these functions and show the text. The explanation and the second hint
are the words of the puzzle's `steps`: what the engine says each move of the proven line does.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine.proofs.threats import read_line
from tictactoe_tui.engine.puzzles.proven import Puzzle
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.puzzles import Outcome, Standing
from tictactoe_tui.text.game import board_words
from tictactoe_tui.text.threats import step_hint, steps_words

AREA_SIDE = 3
"""The area hint names a square of this many cells a side around the answer (boards over 4×4)."""

SMALL_AREA_MAX_SIZE = 4
"""Boards up to this size get a 2×2 area: a 3×3 square would be the whole 3×3 board."""


def goal_words(puzzle: Puzzle) -> str:
    """ "X to play and win in 5", "O to move: find the only defence"."""
    if puzzle.goal == "win":
        return f"{puzzle.to_move} to play and win in {puzzle.plies}"
    return f"{puzzle.to_move} to move: find the only defence"


def goal_detail(puzzle: Puzzle) -> str:
    """What the goal means, proven how: the line under the goal."""
    plies = puzzle.plies
    if puzzle.goal == "win":
        return (
            f"Exactly one move wins by force within {plies} plies (your move is ply 1); "
            "the engine defends."
        )
    return f"{puzzle.to_move.opponent} is attacking: every move but one loses within {plies} plies."


def title_words(puzzle: Puzzle) -> str:
    """ "10×10, 5 in a row · difficulty 1230 (hard) · from self-play"."""
    return (
        f"{board_words(puzzle.size, puzzle.k)} · difficulty {puzzle.rating} "
        f"({puzzle.word}) · from {puzzle.source}"
    )


def area(puzzle: Puzzle) -> tuple[int, ...]:
    """The cells of the area hint: a square around the answer (2×2 on boards up to 4×4, 3×3
    above) that does not always centre on it (its place is fixed per puzzle)."""
    size, answer = puzzle.size, puzzle.answer
    side = 2 if size <= SMALL_AREA_MAX_SIZE else AREA_SIDE
    row, col = divmod(answer, size)
    shift = sum(map(ord, puzzle.key)) % (side * side)
    top = min(max(row - shift // side, 0), size - side)
    left = min(max(col - shift % side, 0), size - side)
    return tuple((top + r) * size + left + c for r in range(side) for c in range(side))


def hint(puzzle: Puzzle, level: int) -> str:
    """Hint `level` (1 the area, 2 the threat, 3 the move), each saying a little more."""
    size = puzzle.size
    if level <= 1:
        cells = area(puzzle)
        first, last = cell_notation(cells[0], size), cell_notation(cells[-1], size)
        return f"Hint 1 of 3: the move is in the square {first}–{last} (marked ·)."
    if level == 2:
        return f"Hint 2 of 3: {step_hint(puzzle.steps[0], puzzle.k)}"
    return f"Hint 3 of 3: the move is {cell_notation(puzzle.answer, size)} (lit green)."


def explanation(puzzle: Puzzle, line: Sequence[int] | None = None) -> list[str]:
    """The sentences of a puzzle's line (its proof unless `line` is given); a "hold" answer's
    sentence says that it is the one move that holds."""
    steps = puzzle.steps if line is None else read_line(puzzle.board, line)
    words = steps_words(steps, puzzle.size, puzzle.k)
    if (
        puzzle.goal == "hold"
        and steps
        and steps[0].move == puzzle.answer
        and steps[0].kind == "quiet"
    ):
        words[0] = words[0].rstrip(".") + ": the only move that holds."
    return words


def verdict_words(puzzle: Puzzle, move: int, correct: bool, line: Sequence[int]) -> str:
    """The first line after a try: right, or what is wrong with the move."""
    size = puzzle.size
    name = cell_notation(move, size)
    if correct and puzzle.goal == "hold":
        return f"{name} is right: it holds. The attacker's best try, and the answer to it:"
    if correct:
        return f"{name} is right! The rest of the proof, the engine defending:"
    if len(line) > 1:
        board = puzzle.board
        for played in line:
            board = board.play(played)
        if board.winner is puzzle.to_move.opponent:
            return f"{name} loses: {puzzle.to_move.opponent} wins by force. The refutation:"
        if puzzle.goal == "win":
            return (
                f"{name} does not win in time: {puzzle.to_move.opponent} holds with "
                f"{cell_notation(line[1], size)}."
            )
    return f"{name} is not the answer."


def outcome_words(outcome: Outcome, solved: bool) -> str:
    """How the try changed the player's standing: "Rating 1500 → 1588 (+88) · streak 1"."""
    before, after = outcome.before.rating, outcome.after.rating
    if not outcome.rated:
        return "A retry: the rating does not move (only a puzzle's first try counts)."
    change = round(after.rating) - round(before.rating)
    sign = "+" if change >= 0 else "−"
    streak = (
        f"streak {outcome.after.streak}"
        if solved and outcome.after.streak
        else "the streak starts again"
    )
    return f"Rating {round(before.rating)} → {round(after.rating)} ({sign}{abs(change)}) · {streak}"


def standing_words(mine: Standing, total: int) -> str:
    """The player's standing: "Your rating 1588 ±290 (provisional) · streak 1 (best 3) · 4
    of 240 solved"."""
    rating = mine.rating
    kind = " (provisional)" if rating.provisional else ""
    return (
        f"Your rating {round(rating.rating)} ±{round(rating.deviation)}{kind} · streak "
        f"{mine.streak} (best {mine.best_streak}) · {len(mine.solved)} of {total} solved"
    )


__all__ = [
    "area",
    "explanation",
    "goal_detail",
    "goal_words",
    "hint",
    "outcome_words",
    "standing_words",
    "title_words",
    "verdict_words",
]
