"""An independent reader of threat-line sentences: replays a line and checks every sentence of
its explanation against the board, sharing no code with the engine or the wording.

`problems(position, k, to_move, line, sentences)` returns what is wrong, as sentences for an
assertion message (empty when all is right). What it checks, sentence by sentence:

- the sentence names the move of its line, in order: "X plays E5" / "X blocks E5", with the
  right mark; "blocks" only when the cell was the opponent's winning cell;
- every line it names ("a line of three (C6–F6)") holds that many of the mover's marks between
  its ends, on one line of k cells free of the other side's marks, through the move played;
- every count agrees with the lines or cells listed: "two open lines of two (A, B)" lists two,
  "an open line of two (A)" one;
- every winning cell it names ("two winning cells (G3 and C7)", "must block E6", "can win at once
  at G3") really completes a line for that side, on the board after the move;
- "must block E6" / "must answer at E6" / "must stop it at D2" name the cells the next move of
  the line plays (unless the sentence also offers the answer the next move gives);
- "and wins (P–Q)" ends the game with that line; "taking away X's fork at F5" takes a real fork
  cell; "can stop only one" / "cannot stop all of X's forks (A1 and B2)" leave no single cell
  that stops every fork, and the forks named are all of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tests.engine.brute import lines_of

NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
"""Count words a sentence may use."""

CELL = r"[A-Z]\d{1,2}"
HEAD = re.compile(rf"^(X|O) (plays|blocks) ({CELL})\b")
SPAN = re.compile(rf"^({CELL})(?:–({CELL}))?$")
# "two open lines of two (A–B, C–D)", "a line of three (C6–F6)", "an open four (E2–E5)",
# "two fours (..)", "an open three (..)": the count word, the kind, the list.
NAMED_LINES = re.compile(
    r"\b(a|an|one|two|three|four|five|six) (open )?(?:lines? of (\w+)|(fours?|threes?)) "
    r"\(([^()]*)\)"
)
WIN_CELLS = re.compile(r"\b(\w+) winning cells?(?: of its own)? \(([^()]*)\)")


def _name(cell: int, size: int) -> str:
    return f"{chr(ord('A') + cell % size)}{cell // size + 1}"


def _cell(name: str, size: int) -> int:
    return (int(name[1:]) - 1) * size + ord(name[0]) - ord("A")


def _cells(text: str, size: int) -> list[int]:
    """ "A1", "A1 and B2", "A1, B2 or C3" as cells."""
    names = re.findall(CELL, text)
    return [_cell(name, size) for name in names]


class Replay:
    """A board as a list of marks, with the few questions the checks ask."""

    def __init__(self, position: str, k: int) -> None:
        self.marks = [c for c in position if c in "XO."]
        self.size = int(len(self.marks) ** 0.5)
        self.k = k
        self.lines = lines_of(self.size, k)
        self.through: dict[int, list[tuple[int, ...]]] = {}
        for line in self.lines:
            for cell in line:
                self.through.setdefault(cell, []).append(line)

    def wins_at(self, cell: int, mark: str) -> bool:
        """Whether `mark` playing the empty `cell` completes a line."""
        if self.marks[cell] != ".":
            return False
        return any(
            all(self.marks[c] == mark or c == cell for c in line) for line in self.through[cell]
        )

    def win_cells(self, mark: str) -> set[int]:
        """The empty cells where `mark` completes a line at once."""
        found = set()
        for line in self.lines:
            empty = [c for c in line if self.marks[c] == "."]
            if len(empty) == 1 and all(self.marks[c] in (mark, ".") for c in line):
                found.add(empty[0])
        return found

    def won(self, mark: str) -> list[tuple[int, ...]]:
        """The lines `mark` has completed."""
        return [line for line in self.lines if all(self.marks[c] == mark for c in line)]

    def _pairs(self, mark: str) -> dict[int, set[int]]:
        """For each empty cell on a line holding k-2 of `mark`'s marks and nothing else, the
        winning cells a mark there would make on those lines."""
        pairs: dict[int, set[int]] = {}
        for line in self.lines:
            empty = [c for c in line if self.marks[c] == "."]
            if len(empty) == 2 and all(self.marks[c] in (mark, ".") for c in line):
                a, b = empty
                pairs.setdefault(a, set()).add(b)
                pairs.setdefault(b, set()).add(a)
        return pairs

    def fork_cells(self, mark: str) -> set[int]:
        """Empty cells where `mark` makes two or more winning cells at once (without winning)."""
        old = self.win_cells(mark)
        return {
            cell
            for cell, made in self._pairs(mark).items()
            if cell not in old and len((made | old) - {cell}) >= 2
        }

    def stoppers(self, mark: str) -> set[int]:
        """The cells where the other side, playing there, leaves `mark` no fork cell (only the
        cells of the lines that make forks can: a mark elsewhere changes none of them)."""
        other = "O" if mark == "X" else "X"
        pairs = self._pairs(mark)
        found = set()
        for cell in set(pairs) | {c for made in pairs.values() for c in made}:
            self.marks[cell] = other
            if not self.fork_cells(mark):
                found.add(cell)
            self.marks[cell] = "."
        return found

    def holds_line(self, first: int, last: int, count: int, mark: str, through: int) -> bool:
        """Whether `count` marks of `mark` lie from `first` to `last` (both `mark`'s) on a line
        of k cells holding no other mark, through `through`."""
        for line in self.through.get(first, []):
            if last not in line or through not in line:
                continue
            if any(self.marks[c] not in (mark, ".") for c in line):
                continue
            i, j = sorted((line.index(first), line.index(last)))
            span = line[i : j + 1]
            if (
                self.marks[first] == self.marks[last] == mark
                and sum(self.marks[c] == mark for c in span) == count
                and sum(self.marks[c] == mark for c in line) == count
            ):
                return True
        return False


def problems(
    position: str, k: int, to_move: str, line: Sequence[int], sentences: Sequence[str]
) -> list[str]:
    """What is wrong with `sentences` as the words of `line` played from `position`."""
    board = Replay(position, k)
    size = board.size
    found: list[str] = []
    if len(sentences) != len(line):
        found.append(f"{len(sentences)} sentences for a line of {len(line)} moves")
    mark = to_move
    for index, (move, sentence) in enumerate(zip(line, sentences, strict=False)):
        other = "O" if mark == "X" else "X"
        nxt = line[index + 1] if index + 1 < len(line) else None

        def wrong(what: str, sentence: str = sentence) -> None:
            found.append(f"{sentence!r}: {what}")

        head = HEAD.match(sentence)
        if head is None or head[1] != mark or head[3] != _name(move, size):
            wrong(f"does not start with {mark} playing {_name(move, size)}")
        elif head[2] == "blocks" and not board.wins_at(move, other):
            wrong(f"{_name(move, size)} blocks nothing")
        forks_before = {mark: board.fork_cells(mark), other: board.fork_cells(other)}
        board.marks[move] = mark
        if " and wins (" in sentence:
            ends = _cells(sentence.split(" and wins (", 1)[1], size)
            if not any(ends[0] in won and ends[-1] in won for won in board.won(mark)):
                wrong("names a line it did not win with")
        for count, _open, of, noun, listed in NAMED_LINES.findall(sentence):
            spans = [part.strip() for part in listed.split(",")]
            if NUMBER_WORDS[count] != len(spans):
                wrong(f"says {count} but lists {len(spans)} ({listed})")
            marks_on = NUMBER_WORDS.get(of, 0) if of else (4 if noun.startswith("four") else 3)
            for span in spans:
                parsed = SPAN.match(span)
                if parsed is None:
                    wrong(f"{span!r} is not a line")
                    continue
                first = _cell(parsed[1], size)
                last = _cell(parsed[2], size) if parsed[2] else first
                if not board.holds_line(first, last, marks_on, mark, move):
                    wrong(f"{span} is not a line of {marks_on} of {mark}'s through the move")
        for count, listed in WIN_CELLS.findall(sentence):
            cells = _cells(listed, size)
            if count in NUMBER_WORDS and NUMBER_WORDS[count] != len(cells):
                wrong(f"says {count} winning cells but lists {len(cells)}")
            if not set(cells) <= board.win_cells(mark):
                wrong(f"{listed} are not all {mark}'s winning cells")
        answer = re.search(rf"must (?:block|answer at) ({CELL})", sentence)
        if answer:
            cell = _cell(answer[1], size)
            if cell not in board.win_cells(mark):
                wrong(f"{answer[1]} is not a winning cell of {mark}'s")
            if nxt is not None and nxt != cell:
                wrong(f"the next move is {_name(nxt, size)}, not {answer[1]}")
        stop = re.search(rf"must stop it at ((?:{CELL}(?:, | or )?)+)", sentence)
        if stop:
            cells = _cells(stop[1], size)
            if not set(cells) <= board.stoppers(mark):
                wrong(f"not every one of {stop[1]} stops {mark}'s forks")
            if nxt is not None and nxt not in cells:
                made = board.win_cells(other)
                board.marks[nxt] = other
                counter = bool(board.win_cells(other) - made)
                board.marks[nxt] = "."
                if not (counter and " first" in sentence):
                    wrong(f"the next move is {_name(nxt, size)}, which it does not name")
        if re.search(r"can stop only one|cannot stop all of", sentence):
            if not board.fork_cells(mark):
                wrong(f"{mark} has no fork to stop")
            elif board.stoppers(mark):
                wrong(f"one move stops all of {mark}'s forks")
        at_once = re.search(rf"can win at once at ((?:{CELL}(?:, | or )?)+)", sentence)
        if at_once and not set(_cells(at_once[1], size)) <= board.win_cells(other):
            wrong(f"{at_once[1]} are not {other}'s winning cells")
        forks = re.search(r"cannot stop all of \w's forks \(([^()]*)\)", sentence)
        if forks and set(_cells(forks[1], size)) != board.fork_cells(mark):
            wrong(f"{forks[1]} are not all of {mark}'s fork cells")
        taking = re.search(rf"taking away \w's forks? at ((?:{CELL}(?:, | and )?)+)", sentence)
        if taking and not set(_cells(taking[1], size)) <= forks_before[other]:
            wrong(f"{taking[1]} were not {other}'s fork cells")
        mark = other
    return found
