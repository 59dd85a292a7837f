"""The predictions' grader against an independent brute force (not the engine's search).

On 3×3 every non-final reachable position (4,520) is graded: the moves it accepts are exactly
the depth-aware best moves of the minimax written here, and the value it accepts is that
minimax's value. On 4×4, 5×5 and 7×7 (k = 4) sampled positions graded from depth-limited
analyses: no question is asked whose answer is unproven, a move proven worse is never
accepted, a move proven as good is never refused, and late positions agree with the brute
force too.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from tictactoe_tui.engine import Board, analyse_position
from tictactoe_tui.engine.search.types import Band, Kind, value_key
from tictactoe_tui.history.predictions import Tally, tally_of
from tictactoe_tui.play.predict import (
    AnswerError,
    Predictor,
    judge_move,
    judge_value,
    parse_move,
    parse_value,
    questions_for,
)


def lines_of(size: int, k: int) -> list[tuple[int, ...]]:
    """Every run of k cells in a row, column or diagonal."""
    runs = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < size and 0 <= cc < size for rr, cc in cells):
                    runs.append(tuple(rr * size + cc for rr, cc in cells))
    return runs


def won(cells: str, runs: list[tuple[int, ...]]) -> bool:
    """True when some run is all one mark."""
    return any(cells[run[0]] != "." and all(cells[i] == cells[run[0]] for i in run) for run in runs)


def brute_force(size: int, k: int) -> object:
    """A depth-aware negamax: a win on ply d scores W - d (W = size² + 1), memoised by
    position; the function it returns gives every legal move's score from the mover's side."""
    runs = lines_of(size, k)
    big = size * size + 1

    def later(score: int) -> int:
        # A score counted from the opponent's move, seen from the move before: one ply later,
        # and the other side's.
        return -score + (1 if score > 0 else -1 if score < 0 else 0)

    def scores(cells: str) -> dict[int, int]:
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        out = {}
        for i, mark in enumerate(cells):
            if mark != ".":
                continue
            after = cells[:i] + mover + cells[i + 1 :]
            if won(after, runs):
                out[i] = big - 1
            elif "." not in after:
                out[i] = 0
            else:
                out[i] = later(value(after))
        return out

    @cache
    def value(cells: str) -> int:
        return max(scores(cells).values())

    def move_values(board: Board) -> dict[int, int]:
        return scores("".join(ch for ch in str(board) if ch in "XO."))

    return move_values


def test_plies_are_counted_from_the_root_in_the_brute_force() -> None:
    """The brute force's own check: X to win at once scores 9, a loss on the reply -8."""
    values = brute_force(3, 3)
    board = Board.from_string("XX./OO./...", k=3)
    scores = values(board)  # type: ignore[operator]
    assert scores[2] == 9 and scores[6] == -8


def reachable_3x3() -> list[Board]:
    """Every non-final position reachable from the empty 3×3 board."""
    seen: set[str] = set()
    todo = [Board.empty(3, 3)]
    found = []
    while todo:
        board = todo.pop()
        if str(board) in seen:
            continue
        seen.add(str(board))
        if not board.is_over:
            found.append(board)
            todo.extend(board.play(move) for move in board.legal_moves())
    return found


def test_every_3x3_position_accepts_exactly_the_brute_force_best_moves_and_value() -> None:
    values = brute_force(3, 3)
    positions = reachable_3x3()
    assert len(positions) == 4520
    for board in positions:
        truth: dict[int, int] = values(board)  # type: ignore[operator]
        top = max(truth.values())
        questions = questions_for(board, analyse_position(board))
        assert set(questions.best) == {m for m, v in truth.items() if v == top}, str(board)
        assert questions.value == top
        expected = Band.WIN if top > 0 else Band.LOSS if top < 0 else Band.DRAW
        assert questions.outcome is expected
        assert not questions.reasons
        for move, value in truth.items():
            verdict = judge_move(questions, move)
            assert verdict.right == (value == top)
            assert verdict.line.startswith("Right" if value == top else "Not quite")


def _sample(size: int, k: int, plies: int, seed: int) -> Board | None:
    rng = random.Random(seed)
    board = Board.empty(size, k)
    for _ in range(plies):
        if board.is_over:
            return None
        board = board.play(rng.choice(board.legal_moves()))
    return None if board.is_over else board


def _check_proven(board: Board, depth: int | None) -> tuple[bool, bool]:
    """Grade `board` from an analysis at `depth` and check that only proofs decide; whether the
    move and the value questions were asked."""
    analysis = analyse_position(board, depth=depth)
    questions = questions_for(board, analysis)
    scores = {s.move: s for s in analysis.scores}
    if questions.asks_move:
        top = scores[questions.best[0]]
        assert top.exact
        for move, score in scores.items():
            if move in questions.best:
                assert score.exact and score.score == top.score
            else:
                # Proven worse: a lower exact value, or a proven bound below the best.
                assert score.proven and score.kind in (Kind.EXACT, Kind.AT_MOST)
                assert value_key(score.score, score.band) < value_key(top.score, top.band)
                assert not judge_move(questions, move).right
    else:
        assert questions.move_reason.startswith("No move question")
    for move, score in scores.items():
        exact_top = analysis.scores[0]
        if score.exact and exact_top.exact and score.score == exact_top.score:
            # A move proven as good as the best is never refused (when the question is asked).
            assert not questions.asks_move or move in questions.best
    if questions.asks_value:
        assert analysis.scores[0].proven
        assert questions.outcome is analysis.scores[0].outcome
    else:
        assert questions.value_reason.startswith("No value question")
    return questions.asks_move, questions.asks_value


@pytest.mark.parametrize(("size", "k", "depth"), [(4, 4, 2), (5, 4, 2), (7, 4, 1)])
def test_big_boards_ask_only_proven_questions(size: int, k: int, depth: int) -> None:
    for seed in range(12):
        board = _sample(size, k, 3 + seed % 6, seed)
        if board is not None:
            _check_proven(board, depth)


def test_late_4x4_positions_agree_with_the_brute_force() -> None:
    values = brute_force(4, 4)
    asked = 0
    for seed in range(20):
        board = _sample(4, 4, 9, 100 + seed)
        if board is None:
            continue
        truth: dict[int, int] = values(board)  # type: ignore[operator]
        top = max(truth.values())
        questions = questions_for(board, analyse_position(board))
        if questions.asks_move:
            asked += 1
            assert set(questions.best) == {m for m, v in truth.items() if v == top}
            assert questions.value == top
    assert asked > 0


def test_a_win_forced_in_a_7x7_k4_position_is_asked_and_graded() -> None:
    # X has three in a row, open at both ends, O to move cannot stop it: a loss for O.
    board = Board.from_string(
        "......./......./..XXX../......./...O.../....O../.......", k=4, to_move="O"
    )
    questions = questions_for(board, analyse_position(board, depth=2))
    assert questions.asks_value and questions.outcome is Band.LOSS


# -- the answers and the lines ----------------------------------------------------------------


def test_the_panel_words_of_the_issue() -> None:
    board = Board.from_string("X../.../...", k=3)
    questions = questions_for(board, analyse_position(board))
    assert judge_move(questions, 4).line == "Right: B2 is the only move that keeps the draw."
    assert judge_move(questions, 3).line == "Not quite: A2 loses in 6 (score -4); B2 draws."


def test_several_best_moves_are_each_right() -> None:
    board = Board.from_string(".../.X./...", k=3)
    questions = questions_for(board, analyse_position(board))
    assert judge_move(questions, 0).line == "Right: A1 draws, as do C1, A3 and C3."
    assert judge_move(questions, 1).line == (
        "Not quite: B1 loses in 6 (score -4); A1, C1, A3 and C3 draw."
    )


def test_value_answers_with_and_without_the_score() -> None:
    board = Board.from_string("XO./.X./...", k=3)  # O to move loses in 4 whatever it does
    questions = questions_for(board, analyse_position(board))
    loss = judge_value(questions, parse_value("loss", board))  # type: ignore[arg-type]
    assert loss.line == "Right: the position is a loss for O, in 4 (score -6)."
    assert [k.question for k in loss.kept] == ["value"]
    exact = judge_value(questions, parse_value("loss in 4", board))  # type: ignore[arg-type]
    assert exact.right and [k.question for k in exact.kept] == ["value", "score"]
    near = judge_value(questions, parse_value("-4", board))  # type: ignore[arg-type]
    assert near.line.startswith("Not quite") and [k.right for k in near.kept] == [True, False]
    assert judge_value(questions, parse_value("d", board)).line == (  # type: ignore[arg-type]
        "Not quite: the position is a loss for O, in 4 (score -6), not a draw."
    )


@pytest.mark.parametrize("text", ["Z9", "hello", "A1"])
def test_a_bad_move_answer_is_one_line(text: str) -> None:
    board = Board.from_string("X../.../...", k=3)
    with pytest.raises(AnswerError) as caught:
        parse_move(text, board)
    assert "\n" not in str(caught.value) and str(caught.value).endswith("or skip.")


@pytest.mark.parametrize("text", ["maybe", "win in", "draw in 3", "+12", "-1"])
def test_a_bad_value_answer_is_one_line(text: str) -> None:
    board = Board.from_string("X../.../...", k=3)
    with pytest.raises(AnswerError):
        parse_value(text, board)


def test_skips_are_no_answer_and_digits_name_3x3_cells() -> None:
    board = Board.from_string("X../.../...", k=3)
    assert parse_move("skip", board) is None and parse_value("skip", board) is None
    assert parse_move("5", board) == 4 and parse_move("b2", board) == 4


def test_the_predictor_counts_per_kind_times_answers_and_keeps_a_streak() -> None:
    ticks = iter([0.0, 2.5, 4.0, 10.0, 11.0, 20.0, 21.5])
    predictor = Predictor(clock=lambda: next(ticks))
    board = Board.from_string("X../.../...", k=3)
    predictor.ask(board, analyse_position(board))
    move = predictor.answer_move("B2")
    value = predictor.answer_value("draw")
    assert move is not None and move.right and move.kept[0].seconds == 2.5
    assert value is not None and value.right and value.kept[0].seconds == 1.5
    assert predictor.tally.streak == 2
    predictor.done()
    board = Board.from_string("XO./.X./...", k=3)
    predictor.ask(board, analyse_position(board))
    assert predictor.answer_move("skip") is None
    wrong = predictor.answer_value("win")
    assert wrong is not None and not wrong.right
    assert predictor.summary() == "Predictions: 2 of 3 right"
    assert predictor.tally.streak == 0 and predictor.tally.best_streak == 2
    assert predictor.game.kinds["value"].words() == "1 of 2 right"
    predictor.new_game()
    assert predictor.summary() == "Predictions: 0 of 0 right"
    assert predictor.tally.asked == 3


def test_a_tally_is_the_same_read_back_from_its_answers() -> None:
    board = Board.from_string("X../.../...", k=3)
    questions = questions_for(board, analyse_position(board))
    kept = [*judge_move(questions, 4).kept, *judge_move(questions, 1).kept]
    tally = tally_of(kept)
    assert tally == Tally().after("move", True).after("move", False)
    assert tally.lines() == ["the move: 1 of 2 right", "streak 0 (best 1)"]
