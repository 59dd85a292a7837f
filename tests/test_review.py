"""The review's verdicts, checked against an independent solver of 3×3 written here."""

from __future__ import annotations

from datetime import datetime
from functools import cache

import pytest

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import Analysis, Board, Mark, MoveScore
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.record import PlayedGame, PlayedMove
from tictactoe_tui.history.review import (
    BLUNDER_DROP,
    INACCURACY_DROP,
    MISTAKE_DROP,
    GameReview,
    Verdict,
    analyse_for_review,
    analysis_from_json,
    analysis_to_json,
    judge,
)
from tictactoe_tui.text.review import verdict_words

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@cache
def solve(cells: str, mover: str) -> tuple[int, int]:
    """(1 win / 0 draw / -1 loss for `mover`, plies to the end) with best play by both: the
    winner hurries, the loser holds out. Plain recursion over strings, no engine code."""
    if any(cells[a] == cells[b] == cells[c] != "." for a, b, c in LINES):
        return -1, 0  # the player who just moved made a line
    if "." not in cells:
        return 0, 0
    other = "O" if mover == "X" else "X"
    outcomes = []
    for cell in (i for i, c in enumerate(cells) if c == "."):
        result, plies = solve(cells[:cell] + mover + cells[cell + 1 :], other)
        outcomes.append((-result, plies + 1))
    return max(outcomes, key=lambda o: (o[0], -o[1] if o[0] > 0 else o[1]))


def move_score(board: Board, cell: int) -> int:
    """The seeds' depth-aware score of playing `cell`: 10 - d for a win on ply d, and so on."""
    cells = "".join(str(board[i] or ".") for i in range(9))
    mover = str(board.to_move)
    other = "O" if mover == "X" else "X"
    result, plies = solve(cells[:cell] + mover + cells[cell + 1 :], other)
    return -result * (10 - (plies + 1)) if result else 0


def expected_judgement(board: Board, cell: int) -> str:
    """The module docstring's rule for exact values, from the independent scores."""
    scores = {move: move_score(board, move) for move in board.legal_moves()}
    best, played = max(scores.values()), scores[cell]
    if played == best:
        return "best"
    if (played > 0) == (best > 0) and (played < 0) == (best < 0):
        return "inaccuracy"
    return "blunder" if played < 0 else "mistake"


def played_game(cells: tuple[int, ...], size: int = 3, k: int = 3) -> PlayedGame:
    """A game between two people with these moves, X first."""
    board = Board.empty(size, k)
    for cell in cells:
        board = board.play(cell)
    outcome = (
        "abandoned" if not board.is_over else "draw" if board.winner is None else str(board.winner)
    )
    moves = tuple(
        PlayedMove(cell, Mark.X if i % 2 == 0 else Mark.O, by_computer=False)
        for i, cell in enumerate(cells)
    )
    when = datetime(2025, 3, 1, 12, 0)
    return PlayedGame(
        "human-vs-human", "human", "human", size, k, Mark.X, 100, when, when, moves, outcome
    )  # type: ignore[arg-type]


@pytest.mark.slow
def test_every_move_of_every_3x3_position_is_judged_by_the_games_value() -> None:
    checked = 0
    for board in reachable_3x3():
        if board.is_over:
            continue
        analysis = analyse_for_review(board)
        assert analysis.complete
        best = analysis.scores[0]
        for scored in analysis.scores:
            assert scored.exact and scored.score == move_score(board, scored.move)
            assert judge(scored, best) == expected_judgement(board, scored.move), (
                board,
                scored.move,
            )
            checked += 1
    assert checked > 16_000


def test_known_errors_in_a_short_game_are_marked() -> None:
    # X takes the centre; O answers on an edge (B1), which loses: a blunder. X replies A1,
    # still winning; O must block at C3 but plays C1: losing faster, an inaccuracy. X could win
    # at once on the diagonal (C3) but plays B3, throwing the win away: a mistake. O blocks.
    review = GameReview(played_game((4, 1, 0, 2, 7, 8)))
    review.analyse_all()
    verdicts = [review.verdict(n) for n in range(1, 7)]
    assert [v.judgement if v else None for v in verdicts] == [
        "best",
        "blunder",
        "best",
        "inaccuracy",
        "mistake",
        "best",
    ]
    assert [v.symbol if v else None for v in verdicts] == ["", "??", "", "?!", "?", ""]
    for number, verdict in enumerate(verdicts, start=1):
        assert verdict is not None
        assert verdict.judgement == expected_judgement(review.positions[number - 1], verdict.cell)
    mistake = verdicts[4]
    assert mistake is not None and mistake.better == 8 and mistake.best.score == 9
    assert mistake.played.score == 0
    assert review.counts(Mark.X) == {"inaccuracy": 0, "mistake": 1, "blunder": 0}
    assert review.counts(Mark.O) == {"inaccuracy": 1, "mistake": 0, "blunder": 1}


def test_the_evaluation_curve_follows_the_game_from_xs_side() -> None:
    # X wins on the top row: the curve ends at +W (10 on 3x3).
    review = GameReview(played_game((0, 3, 1, 4, 2)))
    review.analyse_all()
    values = [review.value(i) for i in range(len(review.positions))]
    assert values[0] == 0  # the empty board is a draw
    assert values[-1] == 10
    for index, value in enumerate(values[:-1]):
        board = review.positions[index]
        best = max(move_score(board, m) for m in board.legal_moves())
        assert value == (best if board.to_move is Mark.X else -best)


def test_nothing_is_judged_before_it_is_analysed() -> None:
    review = GameReview(played_game((4, 0)))
    assert review.progress == (0, 3) and review.verdict(1) is None and review.value(0) is None
    review.analyse_all(should_stop=lambda: True)
    assert review.progress == (0, 3)
    review.analyse_all()
    assert review.progress == (3, 3) and review.to_analyse == []


@pytest.mark.slow
def test_ignoring_a_four_on_a_big_board_is_a_blunder() -> None:
    # 10×10, five in a row: X has B1-E1 with A1 taken by O, so F1 is the only block. O plays
    # far away instead and X completes the five.
    cells = (1, 50, 2, 0, 3, 60, 4, 99, 5)
    review = GameReview(played_game(cells, size=10, k=5))
    review.analyse_all(budget=0.3)
    ignored = review.verdict(8)
    assert ignored is not None and ignored.judgement == "blunder" and ignored.symbol == "??"
    assert ignored.better == 5
    assert ignored.played.exact and ignored.played.score < 0
    assert review.value(len(cells)) == 101  # X's five: +W with W = 10*10 + 1


@pytest.mark.parametrize(
    ("best", "played", "expected"),
    [
        (MoveScore(1, 20, 1, False), MoveScore(2, 20, 1, False), "best"),
        (MoveScore(1, 20, 1, False), MoveScore(2, 20 - INACCURACY_DROP + 1, 1, False), "good"),
        (MoveScore(1, 20, 1, False), MoveScore(2, 20 - INACCURACY_DROP, 1, False), "inaccuracy"),
        (MoveScore(1, 20, 1, False), MoveScore(2, 20 - MISTAKE_DROP, 1, False), "mistake"),
        (MoveScore(1, 20, 1, False), MoveScore(2, 20 - BLUNDER_DROP, 1, False), "blunder"),
        (MoveScore(1, 95, 1, True), MoveScore(2, 93, 1, False), "mistake"),  # a proven win missed
        (MoveScore(1, 3, 1, False), MoveScore(2, -96, 1, True), "blunder"),  # into a proven loss
        (MoveScore(1, 95, 1, True), MoveScore(2, 93, 1, True), "inaccuracy"),  # a slower win
        # Proven results whose distance is only a bound are judged by the result all the same.
        (
            MoveScore(1, 3, 1, False),
            MoveScore(2, -86, 1, False, kind="at_most", band="loss"),
            "blunder",
        ),  # into a proven loss
        (
            MoveScore(1, 86, 1, False, kind="at_least", band="win"),
            MoveScore(2, 84, 1, False),
            "mistake",
        ),  # a proven win missed
        (
            MoveScore(1, 86, 1, False, kind="at_least", band="win"),
            MoveScore(2, 80, 1, False, kind="at_least", band="win"),
            "inaccuracy",
        ),  # still a win
        (
            MoveScore(1, 0, 1, True),
            MoveScore(2, -90, 1, False, kind="at_most", band="loss"),
            "blunder",
        ),  # a draw thrown away
        # Another move is best only when proven as good, or the same estimate; a bound that only
        # reaches the first's number is good (issue 28: "D6 ≤ -9" is not F5's "~-9").
        (MoveScore(1, -9, 1, False), MoveScore(2, -9, 1, False, kind="at_most"), "good"),
        (MoveScore(1, -9, 1, False, kind="at_most"), MoveScore(2, -9, 1, False), "good"),
        (MoveScore(1, 7, 1, True), MoveScore(2, 7, 1, True), "best"),
        (
            MoveScore(1, 5, 1, False, kind="at_most"),
            MoveScore(2, 5, 1, False, kind="at_least"),
            "best",
        ),
        (MoveScore(1, 5, 1, False, kind="at_least"), MoveScore(2, 5, 1, True), "good"),
    ],
)
def test_estimates_are_judged_by_the_documented_thresholds(
    best: MoveScore, played: MoveScore, expected: str
) -> None:
    assert judge(played, best) == expected


def review_at_move_4(second: MoveScore) -> tuple[Verdict, Board]:
    """The issue's 10×10 game at move 4: O played D6, scored `second`, below F5 at ~-9."""
    cells = (44, 55, 46)
    review = GameReview(played_game((*cells, 53), size=10, k=5))
    first = MoveScore(45, -9, 9_000, False, (45,), "estimate", 5)
    review.analyses[3] = Analysis("alphabeta", (first, second), 10_000, 0.5, 6, False, False)
    verdict = review.verdict(4)
    assert verdict is not None
    return verdict, review.positions[3]


def test_the_best_move_named_by_the_review_is_the_one_its_table_ranks_first() -> None:
    bound = MoveScore(53, -9, 800, False, (53,), "at_most", 5)
    verdict, before = review_at_move_4(bound)
    assert cell_notation(verdict.cell, 10) == "D6" and verdict.judgement == "good"
    assert verdict.best.move == 45 and verdict.symbol == ""
    assert verdict_words(verdict, before) == (
        "A good move: D6 scores at most -9 (a bound); F5, ranked first, scores ~-9 (an estimate)."
    )
    same = MoveScore(53, -9, 800, False, (53,), "estimate", 5)
    verdict, before = review_at_move_4(same)
    assert verdict.judgement == "best"
    assert verdict_words(verdict, before) == (
        "As good as the best by the estimates: D6 scores ~-9 (an estimate), the same estimate "
        "as F5, ranked first."
    )


def test_the_same_number_from_a_shallower_search_is_not_the_same_estimate() -> None:
    # The review and the engine (`Analysis.best_moves`) share one "same estimate": the same
    # number from a search as deep. A one-ply look that lands on F5's number is only as good.
    glance = MoveScore(53, -9, 1, False, (53,), "estimate", 0)
    verdict, _ = review_at_move_4(glance)
    assert verdict.judgement == "good"


def test_a_move_proven_as_good_as_the_first_is_one_of_the_best() -> None:
    review = GameReview(played_game((4, 2)))  # O answers the centre in a corner: C1
    review.analyse_all()
    verdict = review.verdict(2)
    assert verdict is not None and verdict.judgement == "best"
    first = review.analyses[1].scores[0]  # type: ignore[union-attr]
    words = verdict_words(verdict, review.positions[1])
    if first.move == 2:
        assert words == "The best move: C1 leads to a draw."
    else:
        assert words == (
            f"One of the best moves: C1 leads to a draw; "
            f"{cell_notation(first.move, 3)}, ranked first, leads to a draw."
        )


def test_an_analysis_survives_the_cache() -> None:
    analysis = analyse_for_review(Board.from_string("X../.O./..."))
    assert analysis_from_json(analysis_to_json(analysis)) == analysis
    assert analysis_from_json("not json") is None
    assert analysis_from_json('{"scores": 1}') is None
