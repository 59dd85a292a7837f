"""Threats in words: what each move of a line does to the lines of the board, in sentences.

    line_words(board, moves)   one sentence per move played in turn from `board`
    move_words(board, move)    the sentence of one move
    read_move(board, move)     what the move does, as data (`MoveReading`), for other wording
    mistake_words(...)         a review's sentence on a bad move: "B1?? lets X fork with A1."
    hint_words(board, move)    what a puzzle's answer does, without naming it

Words for k in a row, for any k: a line of k cells holding k-1 marks of one side and none of
the other is that side's *four* when k is 5 (its empty cell wins at once) and a *line of k-1*
otherwise ("a line of two" on 3×3); one holding k-2 marks is a *three* for k = 5 (an *open
three* when one more mark makes two winning cells) and a *line of k-2* otherwise. A move that
makes two winning cells at once is a *fork*: the opponent can block only one. Lines are named
by the span of their marks ("E2–E5"): the windows of k cells that hold the same marks are one
line, so an open four (E2–E5, winning at E1 and E6) is one line with two winning cells.

Pure: no Textual. The panel's expected line and the lab's tree can call `line_words(board,
pv)` with the position the line starts from (`pv` as cells, the move to play first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.board import cell_notation
from tictactoe_tui.engine.lines import LineState, iter_bits, side_of
from tictactoe_tui.engine.threats import defences

Kind = Literal["win", "fork", "four", "three", "stop", "quiet"]
"""What a move does, strongest first: completes a line; makes two winning cells (a fork);
makes one winning cell; makes a fork threat for the next move (threes); stops the opponent's
fork threat; nothing forcing."""

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve", "thirteen", "fourteen")
"""Number words, for "a line of two" and "two fours"."""


@dataclass(frozen=True)
class Segment:
    """The marks of one side along one line, with the cells that would complete it."""

    cells: tuple[int, ...]
    """The side's marks on the line, in order along it."""
    wins: tuple[int, ...]
    """Empty cells that complete a line of k with these marks (for a line of k-1); for a line
    of k-2, the empty cells that would make it a line of k-1."""


@dataclass(frozen=True)
class MoveReading:
    """What one move does, as data: the words are built from it."""

    mark: Mark
    move: int
    kind: Kind
    won: tuple[int, ...] = ()
    """The completed line, for "win"."""
    blocked: bool = False
    """The move took the opponent's winning cell."""
    fours: tuple[Segment, ...] = ()
    """The lines of k-1 the move made (each with its winning cells)."""
    threes: tuple[Segment, ...] = ()
    """The lines of k-2 through the move that now threaten a fork, for "three"."""
    answers: tuple[int, ...] = ()
    """The opponent's answers: the cell(s) it must block, or that stop the fork threat."""
    stopped: tuple[int, ...] = ()
    """For "stop": the opponent's fork cells the move took away."""
    still_open: tuple[int, ...] = ()
    """The opponent's winning cells left open after the move (it can win at once)."""


def _name(n: int, k: int, plural: bool = False) -> str:
    """The name of a line holding n marks: "four", "open three", "line of two"."""
    if k == 5 and n in (3, 4):
        word = "four" if n == 4 else "three"
        return word + ("s" if plural else "")
    return f"line{'s' if plural else ''} of {NUMBERS[n]}"


def span_words(cells: Sequence[int], size: int) -> str:
    """"E2–E5": the first and last cell of a run (one cell alone is its name)."""
    first, last = cell_notation(cells[0], size), cell_notation(cells[-1], size)
    return first if first == last else f"{first}–{last}"


def _cells(cells: Sequence[int], size: int, joiner: str = "or") -> str:
    """"E6", "E1 or E6", "A1, B2 or C3"."""
    names = [cell_notation(cell, size) for cell in cells]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {joiner} {names[-1]}"


def _segments(state: LineState, board: Board, side: int, through: int, count: int,
              ) -> tuple[Segment, ...]:
    """The lines through cell `through` holding `count` marks of `side` and none of the
    other's, windows with the same marks merged (an open four is one line)."""
    geo = board.geometry
    shape = state.shape
    own, other = state.bits[side], state.bits[1 - side]
    merged: dict[tuple[int, ...], set[int]] = {}
    for line in shape.lines_of[through]:
        mask = shape.line_mask[line]
        if other & mask or (own & mask).bit_count() != count:
            continue
        cells = tuple(c for c in geo.line_cells[line] if own >> c & 1)
        merged.setdefault(cells, set()).update(
            c for c in geo.line_cells[line] if not own >> c & 1)
    return tuple(Segment(cells, tuple(sorted(empty))) for cells, empty in merged.items())


def read_move(board: Board, move: int) -> MoveReading:
    """What `board.to_move` playing `move` does (`move` must be legal on `board`)."""
    mark = board.to_move
    after = board.play(move)
    if after.winner is not None:
        return MoveReading(mark, move, "win", won=after.winning_line)
    state = LineState.from_board(board)
    side = side_of(mark)
    blocked = bool(state.win_cells(1 - side) >> move & 1)
    their_forks = state.double_cells(1 - side)
    state.play(move, side)
    still = tuple(iter_bits(state.win_cells(1 - side)))
    wins = tuple(iter_bits(state.win_cells(side)))
    k = board.k
    fours = _segments(state, board, side, move, k - 1)
    threes = _fork_threes(state, board, side, move)
    if len(wins) > 1:
        kind: Kind = "fork"
    elif wins:
        kind = "four"
    elif threes:
        kind = "three"
    else:
        stopped = tuple(iter_bits(their_forks & ~state.double_cells(1 - side)))
        kind = "stop" if stopped else "quiet"
        return MoveReading(mark, move, kind, blocked=blocked, stopped=stopped,
                           still_open=still)
    answers = wins
    if kind == "three":
        stops = defences(state, 1 - side) or 0
        answers = tuple(iter_bits(stops & ~state.four_moves(1 - side)))
    return MoveReading(mark, move, kind, blocked=blocked, fours=fours,
                       threes=threes if kind != "fork" else (), answers=answers,
                       still_open=still)


def _fork_threes(state: LineState, board: Board, side: int, move: int) -> tuple[Segment, ...]:
    """The lines of k-2 through `move` that give `side` a fork cell (none for k = 3, where a
    line of one mark is no threat worth a word)."""
    forks = state.double_cells(side)
    if not forks or board.k < 4:
        return ()
    found = []
    for segment in _segments(state, board, side, move, board.k - 2):
        if any(forks >> cell & 1 for cell in segment.wins):
            found.append(segment)
    return tuple(found)


def move_words(board: Board, move: int) -> str:
    """The sentence of one move: "X plays E5: a four (E2–E5), O must block E6."."""
    return reading_words(board, read_move(board, move))


def reading_words(board: Board, reading: MoveReading) -> str:
    """The sentence of a `read_move` result on `board` (the position before the move)."""
    size, k = board.size, board.k
    mark, other = reading.mark, reading.mark.opponent
    name = cell_notation(reading.move, size)
    verb = f"{mark} blocks {name}" if reading.blocked else f"{mark} plays {name}"
    if reading.kind == "win":
        return f"{mark} plays {name} and wins ({span_words(reading.won, size)})."
    if reading.still_open:
        where = _cells(reading.still_open, size)
        return f"{verb}, but {other} can win at once at {where}."
    lines = ", ".join(span_words(s.cells, size) for s in reading.fours)
    if reading.kind == "fork":
        if reading.blocked:
            return (f"{verb} and makes two winning cells of its own "
                    f"({_cells(reading.answers, size, 'and')}): {other} can block only one.")
        made = {cell for segment in reading.fours for cell in segment.wins}
        if len(reading.fours) > 1:
            what = f"{NUMBERS[len(reading.fours)]} {_name(k - 1, k, True)} ({lines})"
        elif len(made) > 1:
            what = (f"an open {_name(k - 1, k)} ({lines}) with two winning cells "
                    f"({_cells(reading.answers, size, 'and')})")
        else:
            old = [cell for cell in reading.answers if cell not in made]
            what = (f"a {_name(k - 1, k)} ({lines}), with {_cells(old, size, 'and')} "
                    "still open")
        fork = ", a fork" if k == 3 else ""
        return f"{verb}: {what}{fork}: {other} can block only one."
    if reading.kind == "four":
        block = cell_notation(reading.answers[0], size)
        if reading.blocked:
            return (f"{verb} and makes a {_name(k - 1, k)} of its own ({lines}): "
                    f"{other} must answer at {block}.")
        extra = ""
        if reading.threes:
            threes = ", ".join(span_words(s.cells, size) for s in reading.threes)
            extra = f" and an open {_name(k - 2, k)} ({threes})"
        return f"{verb}: a {_name(k - 1, k)} ({lines}){extra}, {other} must block {block}."
    if reading.kind == "three":
        threes = ", ".join(span_words(s.cells, size) for s in reading.threes)
        many = len(reading.threes) > 1
        what = (f"{NUMBERS[len(reading.threes)]} open {_name(k - 2, k, True)}" if many
                else f"an open {_name(k - 2, k)}")
        if not reading.answers:
            return f"{verb}: {what} ({threes}); {other} can stop only one."
        return (f"{verb}: {what} ({threes}); {other} must stop it at "
                f"{_cells(reading.answers[:4], size)}.")
    if reading.kind == "stop":
        forks = _cells(reading.stopped, size, "and")
        return f"{verb}, taking away {other}'s fork at {forks}."
    return f"{verb}."


def line_words(board: Board, moves: Sequence[int]) -> list[str]:
    """One sentence per move of `moves`, played in turn from `board`; it stops where the game
    ends (or at a move that is not legal, which a stale line may hold)."""
    sentences = []
    unstoppable = False
    for move in moves:
        if board.is_over or move not in board.legal_moves():
            break
        reading = read_move(board, move)
        sentence = reading_words(board, reading)
        if unstoppable and reading.kind == "quiet" and not reading.blocked:
            # The move after a threat that cannot be stopped is whatever the search tried first:
            # say so, or a reader looks for a reason in it.
            sentence = f"{sentence[:-1]}: no move stops both."
        sentences.append(sentence)
        unstoppable = reading.kind == "three" and not reading.answers
        board = board.play(move)
    return sentences


def mistake_words(board: Board, played: int, symbol: str, reply: Sequence[int] = (),
                  better: Sequence[int] = ()) -> str:
    """A review's sentence on a bad move played on `board`.

    `reply` is the opponent's best line after the played move (its first move first), `better`
    the line of the move that should have been played. The opponent's first fork (or win) in
    `reply` names the mistake ("B1?? lets X fork with A1.", "lets X force a fork: C3, then
    A3."); failing that, what `better` would have done ("C2? misses A1: two lines of two
    (A1–C1, A1–A3), a fork: O can block only one.").
    """
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
            reading = read_move(position, move)
            theirs.append(move)
            if reading.kind in ("win", "fork"):
                verb = "win" if reading.kind == "win" else "fork"
                where = cell_notation(move, size)
                if len(theirs) == 1:
                    return f"{name} lets {them} {verb} with {where}."
                before = ", ".join(cell_notation(m, size) for m in theirs[:-1])
                return f"{name} lets {them} force a {verb}: {before}, then {where}."
        position = position.play(move)
    if better and better[0] in board.legal_moves():
        return f"{name} misses {cell_notation(better[0], size)}: " + _sentence_tail(
            board, read_move(board, better[0]))
    if reply and reply[0] in after.legal_moves():
        first = read_move(after, reply[0])
        return f"{name} lets {them} reply {cell_notation(reply[0], size)}: " + _sentence_tail(
            after, first)
    return f"{name} was not the best move."


def _sentence_tail(board: Board, reading: MoveReading) -> str:
    """The part of a move's sentence after its "X plays E5: "."""
    words = reading_words(board, reading)
    return words.split(": ", 1)[1] if ": " in words else words


def hint_words(board: Board, move: int) -> str:
    """What the move `move` does, without naming it: a puzzle's second hint."""
    reading = read_move(board, move)
    k = board.k
    other = reading.mark.opponent
    if reading.kind == "win":
        return "There is a line to complete."
    if reading.kind == "fork":
        return f"One move makes two winning cells at once: {other} cannot block both."
    if reading.kind == "four":
        if reading.blocked:
            return f"Block, and make a {_name(k - 1, k)} of your own at the same time."
        if reading.threes:
            return (f"Make a {_name(k - 1, k)} that also makes an open {_name(k - 2, k)}: "
                    f"{other}'s forced block cannot stop both.")
        return f"Make a {_name(k - 1, k)}: {other}'s reply is forced, and the attack goes on."
    if reading.kind == "three":
        return f"Make a threat of a fork that {other} cannot meet in one move."
    if reading.kind == "stop":
        return f"{other} threatens a fork: take the cell it needs, or make it answer you first."
    return f"A quiet move: look at what {other} threatens, and where one move stops it all."


__all__ = [
    "Kind",
    "MoveReading",
    "Segment",
    "hint_words",
    "line_words",
    "mistake_words",
    "move_words",
    "read_move",
    "reading_words",
    "span_words",
]
