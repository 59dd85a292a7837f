"""Your mistakes come back (issue 35): the rules of the "find a better move" cards.

**Which moves make a card.** Every move of the learner's (a human's side of the game; none of
a computer's, none of the moves set up from an earlier game) that the review marks `?!`, `?`
or `??` (`history.review`) becomes a card: the position before the mistake, the move played,
its mark, and the moves that count as right.

**Which answers count.** The review's own analysis of that position decides, by its proven
values alone, exactly as a prediction of the computer's move is judged (`play.predict`'s
`questions_for`): a card is made only when the first-ranked move's value is exact and every
other move is proven either equal to it (the same exact value) or worse (a lower exact value,
or a proven bound below it). Right is then *any* move of the equal set, the depth-aware best
moves: on 3×3 a move that wins as fast, draws, or loses as late as the best. When the review
has not proven that much (a big board whose time budget left a move estimated or only bounded
at or above the best), no card is made at all: never a card with part of the set, since an
answer outside a part could not be called wrong.

**The schedule** (spaced repetition, on an injected clock): a new card is due at once. Each
answer moves it along `INTERVALS`: a right answer moves it one step on (step 1 waits 1 day,
step 2 waits 3 days, step 3 waits 7 days), and a card answered right at the last step is
*learned*: it is not asked again. A miss, at any step, sends it back to step 1: it comes back
after 1 day, then (answered right) 3, then 7. Due cards are asked oldest first: the one due
longest ago, then the order they were made in.

No Textual here; the cards are kept by `history.cards`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from tictactoe_tui.engine import Analysis, Board, Mark
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.cards import MARKS, Card, all_cards, keep_answer, keep_cards
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.review import GameReview, Verdict
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.predict import Questions, judge_move, questions_for

INTERVALS: tuple[timedelta, ...] = (timedelta(days=1), timedelta(days=3), timedelta(days=7))
"""How long a card waits at steps 1, 2 and 3 before it is asked again."""

LEARNED = len(INTERVALS) + 1
"""The step of a learned card: answered right at the last step, never asked again."""


def learners(game: PlayedGame) -> set[Mark]:
    """The marks a person played in `game` (the ones whose mistakes become cards)."""
    return {mark for mark, who in ((Mark.X, game.x), (Mark.O, game.o)) if who == "human"}


def accepted_moves(board: Board, analysis: Analysis) -> tuple[int, ...]:
    """The moves that count as right in `board`: every move proven as good as the best by
    `analysis` (see the module's docstring); () when the analysis does not prove that set."""
    return questions_for(board, analysis).best


def card_for(
    board: Board,
    analysis: Analysis,
    verdict: Verdict,
    now: datetime,
    game_id: int | None = None,
) -> Card | None:
    """The card for the move `verdict` judges, played in `board` (analysed by `analysis`), made
    `now`; None when the move is not marked or the analysis does not prove the question."""
    if verdict.symbol not in MARKS:
        return None
    accepted = accepted_moves(board, analysis)
    if not accepted or verdict.cell in accepted:
        return None
    return Card(
        board,
        verdict.cell,
        verdict.symbol,
        accepted,
        analysis,
        created=now,
        due=now,
        game_id=game_id,
        move_number=verdict.number,
    )


def cards_from_review(review: GameReview, now: datetime, game_id: int | None = None) -> list[Card]:
    """The cards of a reviewed game: one per marked move of the learner's whose position the
    review has analysed and proven (moves not analysed yet make none, for now)."""
    people = learners(review.game)
    made = []
    for number in range(review.game.setup_moves + 1, len(review.positions)):
        verdict = review.verdict(number)
        analysis = review.analyses[number - 1]
        if verdict is None or analysis is None or verdict.mark not in people:
            continue
        card = card_for(review.positions[number - 1], analysis, verdict, now, game_id)
        if card is not None:
            made.append(card)
    return made


# -- the schedule -------------------------------------------------------------------------------


def after_answer(card: Card, right: bool, now: datetime) -> Card:
    """`card` answered `now`: right moves it one step on (learned past the last), a miss sends
    it back to step 1."""
    if not right:
        return replace(card, step=1, due=now + INTERVALS[0], seen=now, missed=card.missed + 1)
    step = min(card.step + 1, LEARNED)
    due = now + INTERVALS[step - 1] if step < LEARNED else now
    return replace(card, step=step, due=due, seen=now, right=card.right + 1)


def is_learned(card: Card) -> bool:
    """True once the card was answered right at the last step."""
    return card.step >= LEARNED


def due_cards(cards: Iterable[Card], now: datetime) -> list[Card]:
    """The cards due `now`, oldest first (due longest ago, then the order made)."""
    due = [card for card in cards if not is_learned(card) and card.due <= now]
    return sorted(due, key=lambda card: (card.due, card.created, card.card_id or 0))


def next_due(cards: Iterable[Card]) -> datetime | None:
    """When the next card not learned is due (None: there is none)."""
    return min((card.due for card in cards if not is_learned(card)), default=None)


def wait_words(now: datetime, then: datetime) -> str:
    """How long from `now` to `then`, roughly (the screen gives the time too): "in 1 day", "in
    3 days", "in 5 hours", "in 20 minutes"; a wait a few seconds short of a day is a day."""
    seconds = (then - now).total_seconds()
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size * 0.95:
            count = round(seconds / size)
            return f"in {count} {unit}{'' if count == 1 else 's'}"
    return "in a minute"


def nothing_due_words(cards: Sequence[Card], now: datetime) -> str:
    """What the screen says when no card is due: none made yet, all learned, or when the next
    one is due."""
    if not cards:
        return (
            "No cards yet: every move of yours that a review marks ?!, ? or ?? becomes a "
            "card (y: the history, then Enter reviews a game)."
        )
    then = next_due(cards)
    if then is None:
        return f"Nothing is due: all {len(cards)} card{'s' if len(cards) > 1 else ''} learned."
    return (
        f"Nothing is due now. The next card is due {wait_words(now, then)} ({then:%Y-%m-%d %H:%M})."
    )


# -- asking ---------------------------------------------------------------------------------------


def question_words(card: Card) -> str:
    """The question, asked before any answer is shown: "Find a better move than B1 (marked
    ??): X to move."."""
    name = cell_notation(card.played, card.board.size)
    return f"Find a better move than {name} (marked {card.mark}): {card.board.to_move} to move."


def where_words(card: Card) -> str:
    """Where the mistake was made: "Game 12, move 4", "Move 4"."""
    move = f"move {card.move_number}" if card.move_number is not None else "a game"
    return f"Game {card.game_id}, {move}" if card.game_id is not None else move.capitalize()


def refusal(card: Card, cell: int) -> str:
    """Why `cell` is no answer ("" when it is one): a taken cell."""
    if cell in card.board.legal_moves():
        return ""
    name = cell_notation(cell, card.board.size)
    return f"{name} is taken: pick an empty cell."


def verdict_line(card: Card, cell: int) -> str:
    """The verdict on answering `cell` (a legal move), in the panel's words, as a prediction is
    judged: "Right: B2 is the only move that keeps the draw." / "Not quite: A2 loses in 6
    (score -4); B2 draws."."""
    questions = Questions(card.board, card.analysis.scores, card.accepted, None, None)
    return judge_move(questions, cell).line


def schedule_words(card: Card, now: datetime) -> str:
    """What happens to an answered card: "It comes back in 3 days." / "Learned: it will not
    come back."."""
    if is_learned(card):
        return "Learned: it will not come back."
    return f"It comes back {wait_words(now, card.due)}."


@dataclass(frozen=True)
class CardAnswer:
    """One card answered."""

    card: Card
    """The card as it stands after the answer (its new step and due time)."""
    cell: int
    right: bool
    line: str
    """The verdict, then what happens to the card."""


@dataclass
class CardSession:
    """The cards asked in one sitting: the due ones, in order, each answered once. The cards
    are read from `store` (None: no history, no cards) and each answer is kept there; `clock`
    says what time it is (injected: tests never wait)."""

    store: HistoryStore | None
    clock: Callable[[], datetime] = datetime.now
    cards: list[Card] = field(default_factory=list)
    """Every card kept, as it stands."""
    current: Card | None = None
    """The card asked now (None: nothing is due)."""
    answer: CardAnswer | None = None
    """The current card's answer, once given (the next card waits until asked for)."""
    right: int = 0
    asked: int = 0

    def __post_init__(self) -> None:
        self.cards = all_cards(self.store) if self.store is not None else []
        self.next_card()

    @property
    def due(self) -> list[Card]:
        """The cards still due now, oldest first (the current one among them until answered)."""
        return due_cards(self.cards, self.clock())

    def next_card(self) -> Card | None:
        """Go on to the next due card (None: nothing is due)."""
        due = self.due
        self.current = due[0] if due else None
        self.answer = None
        return self.current

    def choose(self, cell: int) -> CardAnswer | str:
        """Answer the current card with `cell`: the answer, or one line saying why it is none
        (a taken cell, no card asked, or the card already answered)."""
        card = self.current
        if card is None:
            return "Nothing is due: there is no card to answer."
        if self.answer is not None:
            return "This card is answered: n goes on to the next one."
        why = refusal(card, cell)
        if why:
            return why
        now = self.clock()
        right = cell in card.accepted
        after = after_answer(card, right, now)
        self.cards = [after if c.position == card.position else c for c in self.cards]
        if self.store is not None:
            keep_answer(self.store, after)
        self.asked += 1
        self.right += int(right)
        line = f"{verdict_line(card, cell)} {schedule_words(after, now)}"
        self.answer = CardAnswer(after, cell, right, line)
        return self.answer

    def status(self) -> str:
        """The sitting in one line: "2 of 3 right · 4 due · 7 cards" ("4 due · 7 cards" before
        the first answer)."""
        cards = f"{len(self.due)} due · {len(self.cards)} card{'' if len(self.cards) == 1 else 's'}"
        return f"{self.right} of {self.asked} right · {cards}" if self.asked else cards

    def nothing_due(self) -> str:
        """What to say when nothing is due (`nothing_due_words`)."""
        return nothing_due_words(self.cards, self.clock())


def keep_review_cards(
    store: HistoryStore, review: GameReview, now: datetime, game_id: int | None = None
) -> int | None:
    """Make the cards of `review` and keep the new ones (a position already kept keeps its
    card); how many were new, None when the history cannot write."""
    return keep_cards(store, cards_from_review(review, now, game_id))
