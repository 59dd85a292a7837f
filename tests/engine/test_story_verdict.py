"""The search's story and its verdict agree (issue 28, item 1).

Whatever path an analysis takes (the exact solver, the solver then the depth-limited search for
the moves it did not settle, the depth-limited search alone), the story (`iterations`) ends on
the answer the caller gets: the same move, value and kind. Once the root is proven, nothing
after the proof is told as if the search still wondered. And a heuristic in a won position
reads the same number at every depth instead of sliding towards 0 as the search deepens.
"""

from __future__ import annotations

import pytest

from tictactoe_tui.engine import Analysis, Board, alphabeta, analyse_position
from tictactoe_tui.engine.search.api import SearchMemory
from tictactoe_tui.engine.search.types import IterationInfo

EMPTY_7X7 = "/".join(["......."] * 7)


def ends_on_its_verdict(analysis: Analysis) -> bool:
    """The story's last row says what the analysis's first move says."""
    last = analysis.iterations[-1]
    best = analysis.scores[0]
    return (last.move, last.score, last.kind, last.band, last.complete) == (
        best.move,
        best.score,
        best.kind,
        best.band,
        analysis.complete,
    )


def nothing_after_a_proof(rows: tuple[IterationInfo, ...]) -> bool:
    """No row follows a row that proved the root best, unless it is the final answer (a move of
    the same proven value, once every move is known)."""
    proven = [index for index, row in enumerate(rows) if row.complete]
    return not proven or all(row.complete for row in rows[proven[0] :])


@pytest.mark.slow
def test_the_empty_7x7_four_in_a_row_story_ends_on_the_proven_win() -> None:
    board = Board.from_string(EMPTY_7X7, k=4)
    analysis = analyse_position(board, time_limit=1.0)
    assert analysis.complete
    best = analysis.scores[0]
    assert best.exact and best.band == "win"
    assert ends_on_its_verdict(analysis)
    assert nothing_after_a_proof(analysis.iterations)
    # No row after the proof is a heuristic: the deepening that values the other moves only
    # orders them and is not told as the search's story.
    first_proof = next(i for i, row in enumerate(analysis.iterations) if row.complete)
    assert all(row.band != "heuristic" for row in analysis.iterations[first_proof:])


@pytest.mark.parametrize(
    ("text", "k", "limits"),
    [
        ("X../.O./...", 3, {}),
        ("X../.O./...", 3, {"depth": 2}),
        ("..../.X../..O./....", 4, {"time_limit": 0.5}),
        (EMPTY_7X7, 4, {"depth": 8}),
        ("......./......./..X..../...O.../......./......./.......", 5, {"time_limit": 0.5}),
        (
            "........../........../........../........../....XO..../"
            ".....X..../........../........../........../..........",
            5,
            {"time_limit": 0.3},
        ),
    ],
)
def test_every_story_ends_on_the_answer_the_caller_gets(
    text: str, k: int, limits: dict[str, float]
) -> None:
    board = Board.from_string(text, k=k)
    analysis = analyse_position(board, **limits)  # type: ignore[arg-type]
    assert ends_on_its_verdict(analysis)
    assert nothing_after_a_proof(analysis.iterations)


@pytest.mark.slow
def test_the_players_search_ends_its_story_on_its_move() -> None:
    # The computer's move and a hint in the game come from this same analysis (with the game's
    # memory): the panel's story ends on the move the panel ranks first.
    board = Board.from_string(EMPTY_7X7, k=4)
    analysis = analyse_position(board, time_limit=1.0, memory=SearchMemory())
    assert ends_on_its_verdict(analysis)
    result = alphabeta(board, time_limit=1.0)
    last = result.iterations[-1]
    assert (last.move, last.score, last.kind, last.band) == (
        result.move,
        result.score,
        result.kind,
        result.band,
    )


def test_a_won_position_the_search_cannot_prove_does_not_drift_to_0() -> None:
    # Four in a row on 7x7 is a win the depth-limited search sees but cannot prove: its nodes
    # report the heuristic's extreme. That number must not shrink with each deeper iteration.
    board = Board.from_string(EMPTY_7X7, k=4)
    rows = analyse_position(board, depth=30).iterations
    heuristic = [row for row in rows if row.band == "heuristic"]
    assert heuristic[-1].depth == 30
    by_depth = {row.depth: row.score for row in heuristic}
    assert by_depth[30] >= by_depth[8] > 0
