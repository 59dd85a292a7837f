"""The "find a better move" cards in the history: one per position, with its place in the schedule.

Each move of the learner's that a review marks `?!`, `?` or `??` becomes one row of `cards`
(schema 6) when the review's analysis proves the question (`play.cards` decides which, and
what counts as right). A row holds:

- `position`: the review's own key for the position before the mistake (`review.position_key`:
  the shape, the side to move and the cells), so a game O started is asked with O to move;
  with `size` and `k` it is the card's identity (UNIQUE): a position is kept once, however
  many games reach it and the same mistake in it;
- `played` (the cell played) and `mark` (`?!`, `?` or `??`); `accepted`: the cells that count
  as right, as a JSON list; `game_id` and `move_number`: where the mistake was made;
- `step`, `due` and `seen`: where the card is in the spaced repetition (`play.cards`' schedule),
  when it is due and when it was last answered ('' never);
- `detail` (JSON): the review's analysis of the position (its scores, without the search's
  story), so the verdict is worded from the very values that made the card; and how many
  times the card was answered right and missed.

Times are local, in ISO format to the second. No Textual here. A history that is off or
read-only keeps nothing (no cards read back).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from tictactoe_tui.engine import Analysis, Board
from tictactoe_tui.history.review import (
    analysis_from_json,
    analysis_to_json,
    board_of_key,
    position_key,
)
from tictactoe_tui.history.rows import write_rows
from tictactoe_tui.history.store import HistoryStore

MARKS = ("?!", "?", "??")
"""The review's marks a card is made from: an inaccuracy, a mistake, a blunder."""


@dataclass(frozen=True)
class Card:
    """One "find a better move" card."""

    board: Board
    """The position before the mistake, its side to move the one that made it."""
    played: int
    """The cell that was played there."""
    mark: str
    """The review's mark on it: one of `MARKS`."""
    accepted: tuple[int, ...]
    """The cells that count as right, in order: every move the analysis proves as good as the
    best."""
    analysis: Analysis
    """The review's analysis of `board` (every legal move scored, best first)."""
    created: datetime
    due: datetime
    """When the card is asked next (a new card: when it was made)."""
    step: int = 0
    """Where it is in the schedule (`play.cards.INTERVALS`); 0 for a new card."""
    seen: datetime | None = None
    """When it was last answered (None: never)."""
    game_id: int | None = None
    move_number: int | None = None
    """The mistake's move number (1-based) in its game."""
    right: int = 0
    """Times answered right."""
    missed: int = 0
    """Times answered wrong."""
    card_id: int | None = None
    """Its row in the history (None until it is kept and read back)."""
    extra: Mapping[str, object] = field(default_factory=dict)
    """What else the row's `detail` holds (kept as it is when the card is answered)."""

    @property
    def position(self) -> str:
        """The card's key in the history (`review.position_key`)."""
        return position_key(self.board)


def keep_cards(store: HistoryStore, cards: Iterable[Card]) -> int | None:
    """Keep the new cards of `cards` (a position already kept keeps its card and its step) and
    return how many were new; None when the history cannot write (nothing is lost but them)."""
    rows = [
        (
            _stamp(card.created),
            card.board.size,
            card.board.k,
            card.position,
            card.played,
            card.mark,
            json.dumps(list(card.accepted)),
            card.game_id,
            card.move_number,
            card.step,
            _stamp(card.due),
            _stamp(card.seen),
            _detail(card),
        )
        for card in cards
    ]
    return write_rows(
        store,
        "INSERT OR IGNORE INTO cards (created, size, k, position, played, mark, accepted, "
        "game_id, move_number, step, due, seen, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def keep_answer(store: HistoryStore, card: Card) -> bool:
    """Keep where an answered card now stands (its step, when it is due, when it was seen, its
    counts); False when the history cannot write or has no such card."""
    row = (card.step, _stamp(card.due), _stamp(card.seen), _detail(card), card.position)
    changed = write_rows(
        store,
        "UPDATE cards SET step = ?, due = ?, seen = ?, detail = ? WHERE position = ?",
        [row],
    )
    return bool(changed)


def all_cards(store: HistoryStore) -> list[Card]:
    """Every card kept, in the order they were made; a damaged row is left out (none when the
    history cannot be read)."""
    rows = store.database.rows(
        "SELECT id, created, position, played, mark, accepted, game_id, move_number, step, due, "
        "seen, detail FROM cards ORDER BY id"
    )
    found = []
    for row in rows:
        card = _card(row)
        if card is not None:
            found.append(card)
    return found


def _card(row: Any) -> Card | None:
    """One row as a card, or None when it cannot be read back."""
    card_id, created, position, played, mark, accepted, game_id, number, step, due, seen, text = row
    try:
        board = board_of_key(position)
        detail = json.loads(text)
        analysis = analysis_from_json(json.dumps(detail.pop("analysis")))
        cells = tuple(int(cell) for cell in json.loads(accepted))
        if board is None or analysis is None or mark not in MARKS or not cells:
            return None
        return Card(
            board,
            int(played),
            mark,
            cells,
            analysis,
            datetime.fromisoformat(created),
            datetime.fromisoformat(due),
            int(step),
            datetime.fromisoformat(seen) if seen else None,
            game_id,
            number,
            int(detail.pop("right", 0)),
            int(detail.pop("missed", 0)),
            card_id,
            detail,
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def _stamp(when: datetime | None) -> str:
    return "" if when is None else when.isoformat(timespec="seconds")


def _detail(card: Card) -> str:
    """The row's `detail`: the analysis (without the search's story rows) and the counts."""
    scores_only = replace(card.analysis, iterations=())
    return json.dumps(
        {
            **card.extra,
            "analysis": json.loads(analysis_to_json(scores_only)),
            "right": card.right,
            "missed": card.missed,
        },
        separators=(",", ":"),
    )
