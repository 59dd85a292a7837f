"""What the Puzzle screen shows of a try (`play.puzzle_try.PuzzleTry`): the status's lines, the
words beside the board, and the hints lit on the board.

Pure (no Textual): the screen puts these where they go.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine.puzzles.proven import Puzzle
from tictactoe_tui.play.puzzle_try import MAX_HINTS, PuzzlePhase, PuzzleTry
from tictactoe_tui.text.puzzles import area, goal_words, hint, title_words

PROMPTS = {
    PuzzlePhase.SOLVING: "Your move: click a cell, or the arrows and Enter. h: a hint.",
    PuzzlePhase.CHECKING: "The engine checks your move…",
    PuzzlePhase.PLAYING: "Playing out the line…",
    PuzzlePhase.DONE: "r: try again · n: next puzzle · d: the puzzle of the day · b: board",
}
"""What the player can do in each phase of a try."""


def status_text(attempt: PuzzleTry, puzzle: Puzzle, daily: bool) -> str:
    """The status's three lines: the puzzle (of the day?), its goal, what to do now."""
    day = "Puzzle of the day · " if daily else ""
    return f"{day}{title_words(puzzle)}\n{goal_words(puzzle)}\n{PROMPTS.get(attempt.phase, '')}"


def side_text(
    attempt: PuzzleTry, puzzle: Puzzle, note: str, words: Sequence[str], outcome: str
) -> str:
    """The words beside the board: the `note` (what `g` found), the try's `words`, the hints
    given while solving, and the rating's `outcome` once done."""
    shown = [note, *words] if note else list(words)
    hints = attempt.hints
    if attempt.phase is PuzzlePhase.SOLVING and hints:
        shown += [hint(puzzle, level) for level in range(1, hints + 1)]
    if outcome and attempt.phase is PuzzlePhase.DONE:
        shown.append(outcome)
    return "\n\n".join(shown)


def board_hints(
    attempt: PuzzleTry, puzzle: Puzzle, marks: Sequence[str]
) -> tuple[dict[int, str], int | None]:
    """The hints on the board while solving: the area's empty cells (from the first hint),
    and the answer itself (the last)."""
    solving = attempt.phase is PuzzlePhase.SOLVING
    hints: dict[int, str] = {}
    if solving and attempt.hints >= 1:
        hints = {cell: "·" for cell in area(puzzle) if not marks[cell]}
    best = puzzle.answer if solving and attempt.hints >= MAX_HINTS else None
    return hints, best
