"""Predict the search (issue 35, item 2): the tree view's questions, without Textual.

Before the recorded search is replayed, the learner marks the root moves alpha-beta will cut
off or fail low on, and guesses how many positions it will visit. Both answers are judged
against the recording itself (`engine.lab.trace`), the real search's record, so every verdict
is a fact about that search:

- A root move **cuts off or fails low** when it does not raise the root's α: the value its
  search returned is at most α as it stood when the move was tried (`TraceNode.value <=
  TraceNode.alpha`, both seen by the side to move at the root). Below such a move a reply
  reached β, so its node was cut off there (α ≥ β) and the value is only an upper bound; a
  move scored without a search (a full board, a table entry, a second win at once) fails low
  the same way when its value is no better than α. A root move never searched because a
  cut-off at the root pruned it counts too; at the root the window is (−∞, +∞), so the lab's
  searches never prune there, but the rule reads it from the recording all the same.
- Every other root move **raised α** (its value > α when tried: the best so far). The first
  move tried always does, since α starts at −∞.
- **The count** is the positions the search visited, the root counted, as the title and the
  last event of the replay say (`TraceEvent.positions` of the root's return). A guess is right
  when it is within 10% of it: 10·|guess − visited| ≤ visited, in whole numbers.

A root move is judged whether or not it was marked: marked and failing low is right, unmarked
and raising α is right, the other two are wrong. Moves a big-board search left out (near
stones only) are not root moves it searched and are not asked about. Only a finished search
whose recording holds every event is offered (`search_facts` says why not otherwise): a
capped recording could not show the end of every root move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import LEFT_OUT, TraceRecorder, TraceResult
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.predictions import Prediction
from tictactoe_tui.text.lab import signed

CONVENTION = (
    "The search cuts off at α ≥ β; a root move fails low when its value ≤ α, the best "
    "before it (it does not raise α)."
)
"""The convention the search uses, as the screen states it."""
CONVENTION_SHORT = "cut-off at α ≥ β; fails low: value ≤ α"
"""The same, where the screen has less room (beside the verdict)."""

CUTOFFS_QUESTION = "cutoffs"
"""The history's kind for the marks: which root moves cut off or fail low."""
VISITS_QUESTION = "visits"
"""The history's kind for the count: how many positions the search visits."""
SOURCE = "tree"
"""Where the history says these predictions were asked."""

TOLERANCE_PERCENT = 10
"""How far (in % of the count) a right guess of the positions visited may be."""


class GuessError(ValueError):
    """A guess of the count that is no number; the message says what to type."""


@dataclass(frozen=True)
class RootFate:
    """What happened to one root move in the recorded search."""

    move: int
    node: int | None
    """The recorded node of the move; None for a move a root cut-off pruned."""
    alpha: int | None
    """The root's α when the move was tried (None: never tried)."""
    value: int | None
    """What the move's search returned, seen by the side to move at the root."""
    refuted: bool = False
    """A reply below the move reached β: its node was cut off (α ≥ β)."""

    @property
    def fails_low(self) -> bool:
        """Cut off or failed low: never searched, or its value is at most α when tried."""
        return self.value is None or self.alpha is None or self.value <= self.alpha


@dataclass(frozen=True)
class SearchFacts:
    """What the learner predicts against: every root move's fate and the count, read from the
    recording."""

    moves: tuple[RootFate, ...]
    """The root moves in the order the search tried them (pruned ones last)."""
    visited: int
    """Positions visited, the root counted."""

    @property
    def fails_low(self) -> frozenset[int]:
        """The root moves that cut off or failed low."""
        return frozenset(fate.move for fate in self.moves if fate.fails_low)

    def fate(self, move: int) -> RootFate:
        """The fate of one root move."""
        return next(fate for fate in self.moves if fate.move == move)


def search_facts(result: TraceResult, recorder: TraceRecorder) -> SearchFacts | str:
    """The root moves' fates and the count of a recorded search; a sentence saying why there is
    nothing to predict against when the search stopped or its recording was capped."""
    if not result.finished:
        return (
            f"The search stopped ({result.stopped}) before the end: there is nothing proven "
            "to predict against."
        )
    if recorder.truncated or not recorder.nodes:
        return (
            f"The recording is capped at {len(recorder.events):,} of "
            f"{recorder.total_events:,} events: the replay cannot show how every root move "
            "ends, so there is nothing to judge a prediction against."
        )
    nodes = recorder.nodes
    root = nodes[0]
    fates = []
    for index in root.children:
        node = nodes[index]
        if node.leaf == LEFT_OUT or node.move is None:
            continue
        fates.append(RootFate(node.move, index, node.alpha, node.value, node.cut_at >= 0))
    fates += [RootFate(move, None, None, None) for move in root.pruned]
    return SearchFacts(tuple(fates), recorder.events[-1].positions)


def parse_guess(text: str) -> int | None:
    """The guess typed: a whole number of positions (commas, spaces and _ allowed), or None for
    nothing typed (the count is then not asked)."""
    cleaned = text.strip().replace(",", "").replace("_", "").replace(" ", "")
    if not cleaned:
        return None
    if not cleaned.isdigit() or not cleaned.isascii():
        raise GuessError(f"{text.strip()!r} is not a count: type a whole number, like 1200.")
    guess = int(cleaned)
    if guess < 1:
        raise GuessError("The search visits at least the root: type a number from 1.")
    return guess


def count_is_right(guess: int, visited: int) -> bool:
    """Within `TOLERANCE_PERCENT` of the count: 100·|guess − visited| ≤ 10·visited (no floats)."""
    return 100 * abs(guess - visited) <= TOLERANCE_PERCENT * visited


@dataclass(frozen=True)
class MoveVerdict:
    """One root move judged: what the learner said of it and what the search did."""

    move: int
    marked: bool
    fate: RootFate
    sentence: str

    @property
    def right(self) -> bool:
        """Marked exactly when it cut off or failed low."""
        return self.marked == self.fate.fails_low

    @property
    def tag(self) -> str:
        """What its line in the tree says first: a symbol and a word, never a colour alone
        ("✓ mark right", "✗ mark wrong"; unmarked, "✓ right" or "✗ missed")."""
        if self.marked:
            return "✓ mark right" if self.right else "✗ mark wrong"
        return "✓ right" if self.right else "✗ missed"


@dataclass(frozen=True)
class CountVerdict:
    """The guess of the positions visited, judged."""

    guess: int
    visited: int
    sentence: str

    @property
    def right(self) -> bool:
        """Within 10% of the count."""
        return count_is_right(self.guess, self.visited)


@dataclass(frozen=True)
class TreeVerdict:
    """The whole prediction judged."""

    moves: tuple[MoveVerdict, ...]
    count: CountVerdict | None
    """None when no count was guessed."""
    marked: tuple[int, ...]
    """The moves marked, in the search's order."""
    facts: SearchFacts

    def of(self, move: int) -> MoveVerdict:
        """The verdict on one root move."""
        return next(verdict for verdict in self.moves if verdict.move == move)

    @property
    def marks_right(self) -> bool:
        """Every root move judged right: the marked set is the set that cut off or failed low."""
        return all(verdict.right for verdict in self.moves)

    def predictions(self, board: Board, seconds: float) -> list[Prediction]:
        """The history's rows: the marks, and the count if one was guessed."""
        size, k, position = board.size, board.k, str(board)
        expected = [fate.move for fate in self.facts.moves if fate.fails_low]
        kept = [
            Prediction(
                size,
                k,
                position,
                CUTOFFS_QUESTION,
                cells_words(self.marked, size),
                cells_words(expected, size),
                self.marks_right,
                seconds,
                SOURCE,
            )
        ]
        if self.count is not None:
            kept.append(
                Prediction(
                    size,
                    k,
                    position,
                    VISITS_QUESTION,
                    str(self.count.guess),
                    str(self.count.visited),
                    self.count.right,
                    seconds,
                    SOURCE,
                )
            )
        return kept


def cells_words(moves: tuple[int, ...] | list[int], size: int) -> str:
    """ "A1 C3", or "none"."""
    return " ".join(cell_notation(move, size) for move in moves) or "none"


def fate_words(fate: RootFate, board: Board) -> str:
    """What the search did with a root move, exactly: "B2 raised α from −∞ to 0." / "A1 fails
    low: it returned −8 ≤ α = 0 (a reply reached β below it: a cut-off at α ≥ β)."."""
    cell = cell_notation(fate.move, board.size)
    if fate.value is None or fate.alpha is None:
        return f"{cell} was never searched: a cut-off at the root pruned it."
    value, alpha = signed(fate.value, board), signed(fate.alpha, board)
    if not fate.fails_low:
        return f"{cell} raised α from {alpha} to {value}: the best move so far."
    below = " (a reply reached β below it: a cut-off at α ≥ β)" if fate.refuted else ""
    return f"{cell} fails low: it returned {value} ≤ α = {alpha}{below}."


def move_verdict(fate: RootFate, marked: bool, board: Board) -> MoveVerdict:
    """One root move judged, in a sentence starting "Right" or "Not quite"."""
    facts = fate_words(fate, board)
    cell = cell_notation(fate.move, board.size)
    if marked == fate.fails_low:
        said = "you marked it" if marked else "you left it unmarked"
        sentence = f"Right ({said}): {facts}"
    elif marked:
        sentence = f"Not quite: you marked {cell}, but {facts}"
    else:
        sentence = f"Not quite: you did not mark {cell}, but {facts}"
    return MoveVerdict(fate.move, marked, fate, sentence)


def count_verdict(guess: int, visited: int) -> CountVerdict:
    """The count judged, in a sentence starting "Right" or "Not quite"."""
    off = abs(guess - visited)
    band = f"{TOLERANCE_PERCENT}% of {visited:,} is {visited * TOLERANCE_PERCENT / 100:,.1f}"
    if count_is_right(guess, visited):
        sentence = (
            f"Right: the search visited {visited:,} positions; your {guess:,} is off by "
            f"{off:,}, within 10% ({band})."
        )
    else:
        sentence = (
            f"Not quite: the search visited {visited:,} positions; your {guess:,} is off by "
            f"{off:,}, more than 10% ({band})."
        )
    return CountVerdict(guess, visited, sentence)


@dataclass
class TreePrediction:
    """The learner's prediction as it is being made: the marks and the guess typed."""

    facts: SearchFacts
    board: Board
    """The root of the search."""
    started: float = 0.0
    """When the prediction began, on the clock the controller was given."""
    marked: set[int] = field(default_factory=set)
    guess_text: str = ""

    @property
    def guess_error(self) -> str | None:
        """Why the guess typed is no count (None: it is one, or nothing is typed)."""
        try:
            parse_guess(self.guess_text)
        except GuessError as error:
            return str(error)
        return None

    def toggle(self, move: int) -> bool:
        """Mark a root move, or take its mark off; True when it is marked now."""
        if move in self.marked:
            self.marked.discard(move)
            return False
        self.marked.add(move)
        return True

    def judge(self) -> TreeVerdict:
        """Every root move and the count judged (GuessError when the guess is no number)."""
        guess = parse_guess(self.guess_text)
        verdicts = tuple(
            move_verdict(fate, fate.move in self.marked, self.board) for fate in self.facts.moves
        )
        marked = tuple(fate.move for fate in self.facts.moves if fate.move in self.marked)
        count = None if guess is None else count_verdict(guess, self.facts.visited)
        return TreeVerdict(verdicts, count, marked, self.facts)

    def words(self) -> str:
        """The marks and the guess so far, in a line."""
        size = self.board.size
        marked = tuple(fate.move for fate in self.facts.moves if fate.move in self.marked)
        error = self.guess_error
        guess = (
            error
            if error is not None
            else "not guessed"
            if not self.guess_text.strip()
            else f"{parse_guess(self.guess_text):,}"
        )
        return f"Marked: {cells_words(marked, size)} · positions guessed: {guess}"
