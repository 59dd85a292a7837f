"""The text mode's words (`tictactoe-tui --text`): the board, an evaluation, the score and the
help as plain lines that a screen reader speaks and a braille display shows.

Plain means: one sentence per line, no colour, no box drawing, no "·" or "—" (a speech
synthesizer reads them out or drops them), "3 by 3" rather than "3×3" ("three times three"),
columns only where a braille reader wants them (the board's grid, told in words after it).
Scores keep their marks ("~−13", "≤ −14", "≥ +3") and say them in words beside them, as
`analyse` does: the marks are the teaching.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.panel import PanelReport
from tictactoe_tui.text.scores import LEGEND_LINES

MINUS = "\N{MINUS SIGN}"
"""The minus of a marked score: after a mark ("≤ -21", "~-13") a speech synthesizer takes a
hyphen for a pause and says "at most 21" (espeak-ng does); it reads this sign as "minus"."""

TOP_MOVES = 5
"""Moves an evaluation lists on boards bigger than 3×3 (every move on 3×3: at most nine)."""

WORDS: tuple[tuple[str, str, str], ...] = (
    ("undo", "u", "take back your last move (and the computer's reply)"),
    ("hint", "h", "the best move for the side to move, with the top moves and their scores"),
    ("why", "w", "the computer's reasons for its last move"),
    ("engine", "e", "every MESSAGE line an outside engine said on its last move"),
    ("clever", "c", "switch the computer between its clever moves and random ones"),
    ("board", "b", "the board, row by row, and which cells each side holds"),
    ("moves", "m", "every move so far"),
    ("score", "s", "this session's score and the all-time score of games like this one"),
    (
        "predict",
        "p",
        "predict mode on or off: say the computer's move and the value before it is told",
    ),
    ("new", "n", "start a new game with the same settings (this one is kept as abandoned)"),
    ("help", "?", "this list"),
    ("quit", "q", "end (a game left unfinished is kept as abandoned)"),
)
"""The words the text mode understands besides cell names: (word, short form, what it does)."""


def numbered(count: int, thing: str) -> str:
    """ "1 move", "3 moves", "1,234 positions"."""
    return f"{count:,} {thing}{'' if count == 1 else 's'}"


def cells_words(cells: Sequence[int], size: int) -> str:
    """Cell names in a sentence: "A1, B2 and C3"; "none" for no cell."""
    names = [cell_notation(cell, size) for cell in sorted(cells)]
    if not names:
        return "none"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def board_lines(board: Board) -> list[str]:
    """The board as a grid (column letters over the rows, "." for an empty cell) and then in
    words: which cells each side holds, how many are empty, whose turn it is."""
    size = board.size
    letters = [cell_notation(col, size)[0] for col in range(size)]
    width = len(str(size))
    lines = [f"{'':>{width}}  {' '.join(letters)}"]
    for row, text in enumerate(board.rows(), start=1):
        lines.append(f"{row:>{width}}  {' '.join(text)}")
    marks = board.marks()
    x = [cell for cell, mark in enumerate(marks) if mark == "X"]
    o = [cell for cell, mark in enumerate(marks) if mark == "O"]
    empty = size * size - len(x) - len(o)
    lines.append(
        f"X has {cells_words(x, size)}. O has {cells_words(o, size)}. "
        f"{numbered(empty, 'empty cell')}."
    )
    return lines


def report_lines(report: PanelReport, played_move: bool) -> list[str]:
    """An evaluation (what the panel shows) as plain lines: the headline, the verdict, how far
    the search went, then the top moves, best first, each with its marked score and what it
    means (the move played marked so when `played_move`), and the legend of the marks those
    lines use."""
    lines = [_sentence(report.title)]
    if report.verdict:
        lines.append(report.verdict)
    reach = f"; {report.reach}" if report.reach else ""
    lines.append(
        f"{report.algorithm}: {numbered(report.nodes, 'position')} in "
        f"{duration_words(report.elapsed)}{reach}."
    )
    limit = None if len(report.rows) <= 9 else TOP_MOVES
    shown = [
        row for index, row in enumerate(report.rows) if limit is None or index < limit or row.chosen
    ]
    if report.total_moves == 1:
        lines.append("The move:")
    elif len(shown) < report.total_moves:
        lines.append(f"The top {numbered(len(shown), 'move')} of {report.total_moves}, best first:")
    else:
        lines.append(f"All {numbered(report.total_moves, 'move')}, best first:")
    for rank, row in enumerate(shown, start=1):
        # The row's sentence starts with its cell: "F3: at most -21 (heuristic), depth 1",
        # "F8 (wins, in at most 9): Won by a chain of threats ...".
        said = row.detail.removeprefix(row.cell)
        played = " (played)" if row.chosen and played_move else ""
        marked = row.marked.replace("-", MINUS)
        lines.append(_sentence(f"{rank}. {row.cell}{played}, score {marked}{said}"))
    if report.equal:
        lines.append(_sentence(report.equal))
    lines += [_sentence(line) for line in report.terms]
    # The panel's legend, but for its positions column, which these lines do not show.
    legend = [" ".join(line.split()) for line in report.legend if line != LEGEND_LINES["zero"]]
    if legend:
        lines.append(f"Marks: {'; '.join(legend)}.")
    return lines


def duration_words(seconds: float) -> str:
    """A search's time, said in full (a speech synthesizer spells "ms" out letter by letter):
    "3 milliseconds", "1.2 seconds"."""
    if seconds < 0.0005:
        return "under a millisecond"
    if seconds < 1:
        return numbered(round(seconds * 1000), "millisecond")
    return f"{seconds:.1f} seconds"


def tally_words(tally: Sequence[tuple[str, int]]) -> str:
    """Counts as words: "You 1, Computer 0, Draws 2"."""
    return ", ".join(f"{label} {count}" for label, count in tally)


def help_lines(size: int) -> list[str]:
    """What the text mode understands: cell names, then each word with its short form."""
    if size == 3:
        cells = (
            "A cell by name, column letter then row number: A1 is the top left, C3 the "
            "bottom right. Or a digit, 1 to 9, row by row from the top left."
        )
    else:
        last = cell_notation(size * size - 1, size)
        cells = (
            f"A cell by name, column letter then row number: A1 is the top left, {last} "
            "the bottom right."
        )
    return [cells, *(f"{word} (or {short}): {meaning}." for word, short, meaning in WORDS)]


def _sentence(text: str) -> str:
    """`text` ending in a full stop (a screen reader pauses there)."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ":")) else f"{text}."
