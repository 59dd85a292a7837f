"""The opening rule: the empty big board gets the centre at once, said to be a rule's choice."""

from __future__ import annotations

import random

import pytest

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.players.computer import AlphaBetaPlayer, make_player
from tictactoe_tui.engine.players.opening import centre_cells, opening_analysis
from tictactoe_tui.engine.search.limits import Limits
from tictactoe_tui.engine.search.types import Rule
from tictactoe_tui.play.controller import GameController, Search, ShowReport
from tictactoe_tui.play.settings import GameSettings


def test_the_centre_is_one_cell_on_an_odd_board_and_four_on_an_even_one() -> None:
    assert centre_cells(15) == (112,)  # H8
    assert centre_cells(9) == (40,)
    assert centre_cells(10) == (44, 45, 54, 55)  # E5 F5 E6 F6


def test_the_empty_15x15_board_gets_the_centre_without_a_search() -> None:
    heard: list[object] = []
    player = AlphaBetaPlayer(random.Random(1), time_limit=30.0)
    decision = player.choose(
        Board.empty(15),
        Limits(should_stop=lambda: heard.append("polled") or False, on_progress=heard.append),
    )
    assert decision.move == 112 and decision.clever
    assert heard == []  # no search ran: nothing to report
    analysis = decision.analysis
    assert analysis is not None and analysis.nodes == 0 and not analysis.complete
    [scored] = analysis.scores
    assert (scored.kind, scored.source, scored.rule) == ("estimate", "rule", Rule.CENTRE_OPENING)
    assert not scored.exact and not scored.proven
    assert "opening rule" in decision.reason
    # Its story is one row, the rule's answer: the same move, value and kind as the verdict.
    [told] = analysis.iterations
    assert (told.move, told.score, told.kind, told.source) == (
        112,
        scored.score,
        "estimate",
        "rule",
    )


def test_an_even_board_picks_one_of_the_middle_four_by_the_rng() -> None:
    picked = {
        opening_analysis(Board.empty(10), random.Random(seed)).scores[0].move  # type: ignore[union-attr]
        for seed in range(40)
    }
    assert picked == set(centre_cells(10))


@pytest.mark.parametrize(
    ("board", "why"),
    [
        (Board.empty(7, 5), "small enough to search"),
        (Board.empty(15, 3), "three in a row is solved at once"),
        (Board.empty(15).play(0), "a mark on the board"),
    ],
)
def test_the_rule_leaves_the_rest_to_the_search(board: Board, why: str) -> None:
    assert opening_analysis(board, random.Random(0)) is None, why


def test_a_hint_on_the_empty_board_uses_the_rule_too() -> None:
    decision = make_player("alphabeta", random.Random(0), time_limit=5.0).choose(Board.empty(11))
    assert decision.move == 60 and decision.analysis is not None
    assert decision.analysis.scores[0].source == "rule"


def test_the_panel_says_a_rule_chose_the_move() -> None:
    controller = GameController(GameSettings(size=15, first="computer", seed=3))
    [search] = [e for e in controller.next_turn() if isinstance(e, Search)]
    result = search.job(*search.args)
    [shown] = [e for e in controller.search_done(result) if isinstance(e, ShowReport)]
    report = shown.report
    assert report.title == "Computer (O) played H8"  # you play X; the computer starts
    assert "opening rule: the centre" in report.verdict
    assert report.reach == "no search: a rule chose the move"
    assert [row.marked for row in report.rows] == ["~20"]
    assert report.rows[0].note == "centre rule"
