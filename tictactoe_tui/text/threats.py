"""Threats in words: what each move of a line does to the lines of the board, in sentences.

    line_words(board, moves)     one sentence per move played in turn from `board`
    steps_words(steps, size, k)  the same from the engine's facts (`MoveFacts`), e.g. a
                                 puzzle's `steps`
    move_words(board, move)      the sentence of one move
    mistake_words(...)           a review's sentence on a bad move: "B1?? lets X fork with A1."
    hint_words(board, move)      what a puzzle's answer does, without naming it

The engine says what each move does (`engine.threats.read_line`: the threat it makes, the cells
that answer it, whether it was forced, read with the forcing rules the proofs stand on); this
module only puts those facts into words, so a sentence never says more than the facts hold.

Words for k in a row, for any k: a line of k cells holding k-1 marks of one side and none of
the other is that side's *four* when k is 5 (its empty cell wins at once) and a *line of k-1*
otherwise ("a line of two" on 3×3); one holding k-2 marks is a *three* for k = 5 (an *open
three* when one more mark makes two winning cells) and a *line of k-2* otherwise. A move that
makes two winning cells at once is a *fork*: the opponent can block only one. Lines are named
by the span of their marks ("E2–E5"): the windows of k cells that hold the same marks are one
line, so an open four (E2–E5, winning at E1 and E6) is one line with two winning cells. Every
count agrees with what it lists: "two open threes (F2–F4, C4–F4)", "an open three (F2–F4)".

Pure: no Textual. The panel's expected line and the lab's tree can call `line_words(board,
pv)` with the position the line starts from (`pv` as cells, the move to play first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.rules.board import cell_notation

if TYPE_CHECKING:
    # The threat reader (and its compiled kernel) loads when a move is first put into words.
    from tictactoe_tui.engine.proofs.threats import MoveFacts

NUMBERS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
)
"""Number words, for "a line of two" and "two fours"."""


def _name(n: int, k: int, plural: bool = False) -> str:
    """The name of a line holding n marks: "four", "three", "line of two"."""
    if k == 5 and n in (3, 4):
        word = "four" if n == 4 else "three"
        return word + ("s" if plural else "")
    return f"line{'s' if plural else ''} of {NUMBERS[n]}"


def _counted(count: int, name: str, plural: str, open_: bool = False) -> str:
    """ "a line of three", "an open three", "two open lines of two": the count agrees."""
    word = "open " if open_ else ""
    if count == 1:
        article = "an" if (word or name)[0] in "aeiou" else "a"
        return f"{article} {word}{name}"
    return f"{NUMBERS[count]} {word}{plural}"


def span_words(cells: Sequence[int], size: int) -> str:
    """ "E2–E5": the first and last cell of a run (one cell alone is its name)."""
    first, last = cell_notation(cells[0], size), cell_notation(cells[-1], size)
    return first if first == last else f"{first}–{last}"


def _cells(cells: Sequence[int], size: int, joiner: str = "or") -> str:
    """ "E6", "E1 or E6", "A1, B2 or C3"."""
    names = [cell_notation(cell, size) for cell in cells]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {joiner} {names[-1]}"


def _all(count: int) -> str:
    """ "both" for two, "them all" for more."""
    return "both" if count == 2 else "them all"


def step_words(step: MoveFacts, size: int, k: int) -> str:
    """The sentence of one move's facts: "X plays E5: a four (E2–E5), O must block E6."."""
    mark, other = step.mark, step.mark.opponent
    name = cell_notation(step.move, size)
    verb = f"{mark} blocks {name}" if step.blocked else f"{mark} plays {name}"
    if step.kind == "win":
        return f"{mark} plays {name} and wins ({span_words(step.won, size)})."
    if step.still_open:
        return f"{verb}, but {other} can win at once at {_cells(step.still_open, size)}."
    lines = ", ".join(span_words(run.cells, size) for run in step.fours)
    fours = _counted(len(step.fours), _name(k - 1, k), _name(k - 1, k, True))
    if step.kind == "fork":
        return _fork_words(step, verb, size, k, lines)
    if step.kind == "four":
        block = cell_notation(step.answers[0], size)
        # Two runs of k-1 through one move winning at one cell are still one threat.
        same = " winning at the same cell" if len(step.fours) > 1 else ""
        if step.blocked:
            return (
                f"{verb} and makes {fours} of its own ({lines}){same}: {other} must "
                f"answer at {block}."
            )
        extra = ""
        if step.threes:
            threes = ", ".join(span_words(run.cells, size) for run in step.threes)
            made = _counted(len(step.threes), _name(k - 2, k), _name(k - 2, k, True), True)
            extra = f" and {made} ({threes})"
        return f"{verb}: {fours} ({lines}){same}{extra}, {other} must block {block}."
    if step.kind == "three":
        threes = ", ".join(span_words(run.cells, size) for run in step.threes)
        what = _counted(len(step.threes), _name(k - 2, k), _name(k - 2, k, True), True)
        if step.answers:
            counter = (
                f", or make {_counted(1, _name(k - 1, k), '')} of its own first"
                if step.counters
                else ""
            )
            return (
                f"{verb}: {what} ({threes}); {other} must stop it at "
                f"{_cells(step.answers, size)}{counter}."
            )
        on_runs = {cell for run in step.threes for cell in run.empty}
        if len(step.threes) > 1 and on_runs >= set(step.forks):
            return f"{verb}: {what} ({threes}); {other} can stop only one."
        return (
            f"{verb}: {what} ({threes}); {other} cannot stop all of {mark}'s forks "
            f"({_cells(step.forks, size, 'and')}) with one move."
        )
    if step.kind == "stop":
        forks = "forks" if len(step.stopped) > 1 else "fork"
        return f"{verb}, taking away {other}'s {forks} at {_cells(step.stopped, size, 'and')}."
    return f"{verb}."


def _fork_words(step: MoveFacts, verb: str, size: int, k: int, lines: str) -> str:
    """The sentence of a move that makes two or more winning cells."""
    other = step.mark.opponent
    count = NUMBERS[len(step.wins)]
    wins = _cells(step.wins, size, "and")
    if step.blocked:
        return (
            f"{verb} and makes {count} winning cells of its own ({wins}): {other} can block "
            "only one."
        )
    made = {cell for run in step.fours for cell in run.empty}
    if len(step.fours) > 1:
        what = f"{NUMBERS[len(step.fours)]} {_name(k - 1, k, True)} ({lines})"
    elif len(made) > 1 and made == set(step.wins):
        what = f"an open {_name(k - 1, k)} ({lines}) with {count} winning cells ({wins})"
    else:
        old = [cell for cell in step.wins if cell not in made]
        what = f"a {_name(k - 1, k)} ({lines}), with {_cells(old, size, 'and')} still open"
    fork = ", a fork" if k == 3 else ""
    return f"{verb}: {what}{fork}: {other} can block only one."


def steps_words(steps: Sequence[MoveFacts], size: int, k: int) -> list[str]:
    """One sentence per move's facts, in order (a line's `read_line`, a puzzle's `steps`)."""
    sentences = []
    before: MoveFacts | None = None
    for step in steps:
        sentence = step_words(step, size, k)
        if (
            before is not None
            and before.kind == "three"
            and not before.answers
            and step.kind == "quiet"
            and not step.blocked
        ):
            # The move after a threat that cannot be stopped is whatever the search tried first:
            # say so, or a reader looks for a reason in it.
            sentence = f"{sentence[:-1]}: no move stops {_all(len(before.forks))}."
        sentences.append(sentence)
        before = step
    return sentences


def line_words(board: Board, moves: Sequence[int]) -> list[str]:
    """One sentence per move of `moves`, played in turn from `board`; it stops where the game
    ends (or at a move that is not legal, which a stale line may hold)."""
    from tictactoe_tui.engine.proofs.threats import read_line

    return steps_words(read_line(board, moves), board.size, board.k)


def move_words(board: Board, move: int) -> str:
    """The sentence of one move: "X plays E5: a four (E2–E5), O must block E6."."""
    from tictactoe_tui.engine.proofs.threats import read_move

    return step_words(read_move(board, move), board.size, board.k)


def mistake_words(
    board: Board, played: int, symbol: str, reply: Sequence[int] = (), better: Sequence[int] = ()
) -> str:
    """A review's sentence on a bad move played on `board`.

    `reply` is the opponent's best line after the played move (its first move first), `better`
    the line of the move that should have been played. The opponent's first fork (or win) in
    `reply` names the mistake ("B1?? lets X fork with A1.", "lets X force a fork: C3, then
    A3."); failing that, what `better` would have done ("C2? misses A1: two lines of two
    (A1–C1, A1–A3), a fork: O can block only one.").
    """
    from tictactoe_tui.engine.proofs.threats import read_move

    size = board.size
    name = f"{cell_notation(played, size)}{symbol}"
    after = board.play(played)
    them = after.to_move
    position = after
    theirs: list[int] = []
    for index, move in enumerate(reply):
        if position.is_over or move not in position.legal_moves():
            break
        if index % 2 == 0:
            step = read_move(position, move)
            theirs.append(move)
            if step.kind in ("win", "fork"):
                verb = "win" if step.kind == "win" else "fork"
                where = cell_notation(move, size)
                if len(theirs) == 1:
                    return f"{name} lets {them} {verb} with {where}."
                before = ", ".join(cell_notation(m, size) for m in theirs[:-1])
                return f"{name} lets {them} force a {verb}: {before}, then {where}."
        position = position.play(move)
    if better and better[0] in board.legal_moves():
        return f"{name} misses {cell_notation(better[0], size)}: " + _sentence_tail(
            board, read_move(board, better[0])
        )
    if reply and reply[0] in after.legal_moves():
        first = read_move(after, reply[0])
        return f"{name} lets {them} reply {cell_notation(reply[0], size)}: " + _sentence_tail(
            after, first
        )
    return f"{name} was not the best move."


def _sentence_tail(board: Board, step: MoveFacts) -> str:
    """The part of a move's sentence after its "X plays E5: "."""
    words = step_words(step, board.size, board.k)
    return words.split(": ", 1)[1] if ": " in words else words


def hint_words(board: Board, move: int) -> str:
    """What the move `move` does, without naming it: a puzzle's second hint."""
    from tictactoe_tui.engine.proofs.threats import read_move

    return step_hint(read_move(board, move), board.k)


def step_hint(step: MoveFacts, k: int) -> str:
    """What a move does (its facts), without naming it: a puzzle's second hint."""
    other = step.mark.opponent
    if step.kind == "win":
        return "There is a line to complete."
    if step.kind == "fork":
        return (
            f"One move makes {NUMBERS[len(step.wins)]} winning cells at once: {other} "
            f"cannot block {_all(len(step.wins))}."
        )
    if step.kind == "four":
        if step.blocked:
            return f"Block, and make a {_name(k - 1, k)} of your own at the same time."
        if step.threes:
            return (
                f"Make a {_name(k - 1, k)} that also makes an open {_name(k - 2, k)}: "
                f"{other}'s forced block cannot stop both."
            )
        return f"Make a {_name(k - 1, k)}: {other}'s reply is forced, and the attack goes on."
    if step.kind == "three":
        if not step.answers:
            return f"Make a threat of a fork that {other} cannot meet in one move."
        return f"Threaten a fork: {other} must spend its move on it, and the attack goes on."
    if step.kind == "stop":
        return f"{other} threatens a fork: take the cell it needs, or make it answer you first."
    return f"A quiet move: look at what {other} threatens, and where one move stops it all."


__all__ = [
    "hint_words",
    "line_words",
    "mistake_words",
    "move_words",
    "span_words",
    "step_hint",
    "step_words",
    "steps_words",
]
