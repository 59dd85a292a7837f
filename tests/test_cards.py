"""The "find a better move" cards: which moves make one, which answers count (against a brute
force written here, not the engine's search), the schedule on an injected clock, and the store."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import pytest

from tests.test_review import played_game
from tictactoe_tui.engine import Analysis, Board, Mark, analyse_position
from tictactoe_tui.engine.search.types import Kind, value_key
from tictactoe_tui.history.cards import Card, all_cards, keep_answer, keep_cards
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.review import (
    GameReview,
    Judgement,
    Verdict,
    analyse_for_review,
    judge,
)
from tictactoe_tui.history.schema import SCHEMA_VERSION
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.cards import (
    LEARNED,
    CardSession,
    after_answer,
    card_for,
    cards_from_review,
    due_cards,
    keep_review_cards,
    next_due,
    nothing_due_words,
    question_words,
    verdict_line,
    wait_words,
)

NOON = datetime(2026, 3, 2, 12, 0)
DAY = timedelta(days=1)
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@cache
def negamax(cells: str) -> int:
    """The depth-aware value of a 3×3 position for the side to move (X when the counts are
    equal): a win on ply d scores 10 - d, a loss -(10 - d), a draw 0."""
    return max(move_values(cells).values())


def move_values(cells: str) -> dict[int, int]:
    """Every empty cell's depth-aware value for the side to move."""
    mover = "X" if cells.count("X") == cells.count("O") else "O"
    values = {}
    for cell in (i for i, c in enumerate(cells) if c == "."):
        after = cells[:cell] + mover + cells[cell + 1 :]
        if any(all(after[i] == mover for i in line) for line in LINES):
            values[cell] = 9
        elif "." not in after:
            values[cell] = 0
        else:
            reply = negamax(after)  # the opponent's best, one ply later from here
            values[cell] = -reply + (1 if reply > 0 else -1 if reply < 0 else 0)
    return values


def cells_of(board: Board) -> str:
    return "".join(c for c in str(board) if c in "XO.")


def reachable() -> list[Board]:
    seen, todo, found = set(), [Board.empty(3, 3)], []
    while todo:
        board = todo.pop()
        if str(board) in seen:
            continue
        seen.add(str(board))
        if not board.is_over:
            found.append(board)
            todo.extend(board.play(move) for move in board.legal_moves())
    return found


def test_the_brute_force_counts_plies_from_the_move() -> None:
    assert move_values("XX.OO....")[2] == 9
    assert move_values("XX.OO....")[8] == -8  # O completes its row at once


def test_every_marked_3x3_move_makes_a_card_accepting_exactly_the_brute_force_best_moves() -> None:
    positions = reachable()
    assert len(positions) == 4520
    cards = 0
    for board in positions:
        truth = move_values(cells_of(board))
        top = max(truth.values())
        best = {move for move, value in truth.items() if value == top}
        analysis = analyse_for_review(board)
        first = analysis.scores[0]
        for scored in analysis.scores:
            verdict_mark = judge(scored, first)
            verdict = _verdict(board, scored.move, verdict_mark, analysis)
            card = card_for(board, analysis, verdict, NOON)
            if truth[scored.move] == top:
                assert card is None, (str(board), scored.move)  # a best move is no mistake
                continue
            assert card is not None, (str(board), scored.move)
            cards += 1
            assert set(card.accepted) == best
            for move, value in truth.items():
                line = verdict_line(card, move)
                assert line.startswith("Right" if value == top else "Not quite"), line
    assert cards == 9044  # every move of every position that is not a best move


def _verdict(board: Board, cell: int, judgement: Judgement, analysis: Analysis) -> Verdict:
    """The review's verdict on playing `cell` in `board`, as `GameReview.verdict` makes it."""
    played = next(s for s in analysis.scores if s.move == cell)
    return Verdict(1, cell, board.to_move, judgement, played, analysis.scores[0])


def test_a_review_makes_cards_of_the_learners_marked_moves_only() -> None:
    # X B2, O B1??, X A1, O C1?!, X B3?, O C3: between two people, three cards.
    game = played_game((4, 1, 0, 2, 7, 8))
    review = GameReview(game)
    review.analyse_all()
    cards = cards_from_review(review, NOON, game_id=7)
    assert [(c.move_number, c.mark, c.played) for c in cards] == [
        (2, "??", 1),
        (4, "?!", 2),
        (5, "?", 7),
    ]
    assert [c.accepted for c in cards] == [(0, 2, 6, 8), (8,), (8,)]
    assert all(c.due == NOON and c.step == 0 and c.game_id == 7 for c in cards)
    assert question_words(cards[0]) == "Find a better move than B1 (marked ??): O to move."
    # Against the computer, only the person's mistakes; none in a game between computers.
    against = replace(game, mode="human-vs-computer", o="random")
    review = GameReview(against)
    review.analyse_all()
    assert [c.mark for c in cards_from_review(review, NOON)] == ["?"]
    review = GameReview(replace(game, mode="computer-vs-computer", x="alphabeta", o="random"))
    review.analyse_all()
    assert cards_from_review(review, NOON) == []
    # Moves set up from an earlier game were that game's.
    review = GameReview(replace(game, setup_moves=2))
    review.analyse_all()
    assert [c.move_number for c in cards_from_review(review, NOON)] == [4, 5]


def test_a_game_o_started_asks_with_o_to_move(data_dir: Path) -> None:
    game = replace(played_game((4, 1, 0, 2, 7, 8)), first=Mark.O)
    flipped = {Mark.X: Mark.O, Mark.O: Mark.X}
    game = replace(game, moves=tuple(replace(m, mark=flipped[m.mark]) for m in game.moves))
    review = GameReview(game)
    review.analyse_all()
    made = cards_from_review(review, NOON)
    # After four moves, two marks each: O (who started) is to move, and stays so when kept.
    assert made[-1].move_number == 5 and made[-1].board.to_move is Mark.O
    store = HistoryStore.open()
    keep_cards(store, made)
    assert [c.board for c in all_cards(store)] == [c.board for c in made]
    assert question_words(all_cards(store)[-1]).endswith("O to move.")
    store.close()


def test_the_verdicts_are_in_the_panels_words() -> None:
    review = GameReview(played_game((4, 1, 0, 2, 7, 8)))
    review.analyse_all()
    blunder, slip, miss = cards_from_review(review, NOON)
    assert (
        verdict_line(blunder, 3) == "Not quite: A2 loses in 6 (score -4); A1, C1, A3 and C3 draw."
    )
    assert verdict_line(blunder, 0) == "Right: A1 draws, as do C1, A3 and C3."
    assert (
        verdict_line(slip, 8)
        == "Right: C3 is the only move that holds out longest (it loses in 4)."
    )
    assert verdict_line(miss, 8) == "Right: C3 is the only move that wins in 1."
    assert verdict_line(miss, 7) == "Not quite: B3 draws (score 0); C3 wins in 1."


# -- the schedule ---------------------------------------------------------------------------------


def a_card(step: int = 0, due: datetime = NOON, cells: str = "XX..O....") -> Card:
    board = Board.from_string(cells, k=3)
    analysis = analyse_for_review(board)
    return Card(board, 8, "?", (2,), analysis, created=due, due=due, step=step)


def test_a_missed_card_comes_back_after_1_day_then_3_then_7_then_it_is_learned() -> None:
    card = a_card()
    assert due_cards([card], NOON) == [card]  # a new card is due at once
    now = NOON
    card = after_answer(card, right=False, now=now)
    assert (card.step, card.due, card.missed) == (1, now + DAY, 1)
    assert due_cards([card], now + DAY - timedelta(seconds=1)) == []
    now += DAY
    assert due_cards([card], now) == [card]
    card = after_answer(card, right=True, now=now)
    assert (card.step, card.due) == (2, now + 3 * DAY)
    now += 3 * DAY
    card = after_answer(card, right=True, now=now)
    assert (card.step, card.due) == (3, now + 7 * DAY)
    now += 7 * DAY
    card = after_answer(card, right=True, now=now)
    assert card.step == LEARNED and card.right == 3
    assert due_cards([card], now + 1000 * DAY) == [] and next_due([card]) is None
    assert nothing_due_words([card], now) == "Nothing is due: all 1 card learned."


def test_a_right_answer_moves_a_card_one_step_on_and_a_miss_sends_it_back_to_step_1() -> None:
    new = after_answer(a_card(), right=True, now=NOON)
    assert (new.step, new.due) == (1, NOON + DAY)
    late = after_answer(a_card(step=3), right=False, now=NOON)
    assert (late.step, late.due) == (1, NOON + DAY)
    assert nothing_due_words([late], NOON) == (
        "Nothing is due now. The next card is due in 1 day (2026-03-03 12:00)."
    )
    assert nothing_due_words([], NOON).startswith("No cards yet")
    assert wait_words(NOON, NOON + DAY - timedelta(seconds=5)) == "in 1 day"
    assert wait_words(NOON, NOON + timedelta(hours=22)) == "in 22 hours"
    assert wait_words(NOON, NOON + 3 * DAY) == "in 3 days"


def test_due_cards_come_oldest_first() -> None:
    older = a_card(due=NOON - 3 * DAY, cells="XX..O....")
    old = a_card(due=NOON - DAY, cells="X...O....")
    later = a_card(due=NOON + DAY, cells="....X....")
    assert due_cards([old, later, older], NOON) == [older, old]


# -- the store ------------------------------------------------------------------------------------


def reviewed() -> GameReview:
    review = GameReview(played_game((4, 1, 0, 2, 7, 8)))
    review.analyse_all()
    return review


def test_cards_are_kept_once_per_position_and_survive_a_reopen(data_dir: Path) -> None:
    store = HistoryStore.open()
    assert keep_review_cards(store, reviewed(), NOON, game_id=3) == 3
    first = all_cards(store)[0]
    assert keep_answer(store, after_answer(first, right=False, now=NOON))
    # The same game reviewed again (or another reaching the same positions) makes no new card
    # and leaves the answered one where it is.
    assert keep_review_cards(store, reviewed(), NOON + DAY, game_id=4) == 0
    store.close()
    store = HistoryStore.open()
    kept = all_cards(store)
    assert [(c.move_number, c.mark, c.game_id) for c in kept] == [
        (2, "??", 3),
        (4, "?!", 3),
        (5, "?", 3),
    ]
    assert (kept[0].step, kept[0].due, kept[0].seen, kept[0].missed) == (1, NOON + DAY, NOON, 1)
    # The others read back as they were made, the review's scores with them (the search's
    # story rows are not kept).
    made = cards_from_review(reviewed(), NOON, 3)
    for card, back in zip(made[1:], kept[1:], strict=True):
        assert back.analysis.scores == card.analysis.scores
        assert back == replace(card, analysis=back.analysis, card_id=back.card_id)
    assert [c.move_number for c in due_cards(kept, NOON)] == [4, 5]
    # Oldest first: the two due since noon, then the one missed at noon, due a day later.
    assert [c.move_number for c in due_cards(kept, NOON + DAY)] == [4, 5, 2]
    store.close()


def test_a_sitting_asks_the_due_cards_and_keeps_each_answer(data_dir: Path) -> None:
    store = HistoryStore.open()
    keep_review_cards(store, reviewed(), NOON)
    now = [NOON]
    session = CardSession(store, clock=lambda: now[0])
    assert session.current is not None and session.current.played == 1
    assert session.status() == "3 due · 3 cards"
    assert session.choose(4) == "B2 is taken: pick an empty cell."
    answer = session.choose(0)
    assert not isinstance(answer, str) and answer.right
    assert answer.line == "Right: A1 draws, as do C1, A3 and C3. It comes back in 1 day."
    assert session.choose(2) == "This card is answered: n goes on to the next one."
    session.next_card()
    answer = session.choose(3)
    assert not isinstance(answer, str) and not answer.right
    assert answer.line.startswith("Not quite: A2 loses in 2 (score -8); C3 loses in 4.")
    session.next_card()
    session.choose(8)
    assert session.next_card() is None
    assert session.status() == "2 of 3 right · 0 due · 3 cards"
    now[0] = NOON + DAY
    again = CardSession(HistoryStore.open(), clock=lambda: now[0])
    assert [c.move_number for c in again.due] == [2, 4, 5]
    store.close()


def test_a_history_that_is_off_or_read_only_keeps_no_card(data_dir: Path, tmp_path: Path) -> None:
    off = HistoryStore(tmp_path / DB_NAME)  # never opened: off
    assert keep_review_cards(off, reviewed(), NOON) is None
    assert all_cards(off) == [] and CardSession(off).current is None

    store = HistoryStore.open()
    keep_review_cards(store, reviewed(), NOON)
    store.close()
    path = data_dir / DB_NAME
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    newer = HistoryStore.open()
    assert newer.state == "read-only"
    session = CardSession(newer, clock=lambda: NOON)
    assert len(session.due) == 3  # read, never written
    answer = session.choose(0)
    assert not isinstance(answer, str) and answer.right  # the answer still counts on screen
    newer.close()
    assert path.read_bytes() == before


def test_a_damaged_row_is_left_out(data_dir: Path) -> None:
    store = HistoryStore.open()
    keep_review_cards(store, reviewed(), NOON)
    store.close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute("UPDATE cards SET detail = 'not json' WHERE move_number = 4")
    assert [c.move_number for c in all_cards(HistoryStore.open())] == [2, 5]


def _random_position(size: int, k: int, plies: int, seed: int) -> Board | None:
    rng = random.Random(seed)
    board = Board.empty(size, k)
    for _ in range(plies):
        if board.is_over:
            return None
        board = board.play(rng.choice(board.legal_moves()))
    return None if board.is_over else board


@pytest.mark.parametrize(("size", "k", "plies", "depth"), [(4, 4, 9, None), (5, 4, 6, 2)])
def test_a_big_board_card_is_made_only_from_proven_values(
    size: int, k: int, plies: int, depth: int | None
) -> None:
    made = 0
    for seed in range(12):
        board = _random_position(size, k, plies, seed)
        if board is None:
            continue
        analysis = analyse_position(board, depth=depth)
        first = analysis.scores[0]
        for scored in analysis.scores:
            verdict = _verdict(board, scored.move, judge(scored, first), analysis)
            card = card_for(board, analysis, verdict, NOON)
            if card is None:
                continue
            made += 1
            assert first.exact
            for other in analysis.scores:
                if other.move in card.accepted:
                    assert other.exact and other.score == first.score
                else:
                    # Proven worse: a lower exact value, or a proven bound below the best.
                    assert other.proven and other.kind in (Kind.EXACT, Kind.AT_MOST)
                    assert value_key(other.score, other.band) < value_key(first.score, first.band)
    if depth is None:
        assert made > 0  # late 4×4 positions are solved: their mistakes make cards
    else:
        assert made == 0  # a depth-2 search of 5×5 estimates: no card from estimates
