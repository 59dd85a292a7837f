"""One `Limits` value for every player: each one answers `choose(board, limits)` and honours
what its search can honour (time, depth, positions, the stop check, the progress callback)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tests.fake_brains import write_brain
from tictactoe_tui.engine import (
    NO_LIMITS,
    OPPONENTS,
    AlphaBetaPlayer,
    Board,
    Limits,
    MinimaxPlayer,
    OutsidePlayer,
    Progress,
    make_player,
)
from tictactoe_tui.engine.players.outside import EngineStopped


def test_a_calls_limits_refine_the_players_own() -> None:
    own = Limits(time=2.0, depth=4)
    stop = lambda: False  # noqa: E731
    merged = Limits(depth=2, should_stop=stop).over(own)
    assert merged == Limits(time=2.0, depth=2, should_stop=stop)
    assert NO_LIMITS.over(own) == own


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"time": 0}, "time limit must be a number of seconds above 0"),
        ({"time": float("nan")}, "time limit"),
        ({"depth": 0}, "depth limit must be a whole number of at least 1"),
        ({"nodes": 2.5}, "nodes limit must be a whole number"),
        ({"depth": True}, "depth limit"),
    ],
)
def test_a_budget_no_player_could_keep_is_refused(kwargs: dict[str, float], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Limits(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_every_player_answers_the_same_call_and_reports_progress(opponent: str) -> None:
    board = Board.from_string("X../.O./...")
    heard: list[Progress] = []
    decision = make_player(opponent, random.Random(0)).choose(
        board, Limits(on_progress=heard.append)
    )
    assert decision.move in board.legal_moves()
    # Random does not search; every other player tells how its search goes.
    assert bool(heard) == (opponent != "random")


@pytest.mark.parametrize("opponent", [o for o in OPPONENTS if o != "random"])
def test_every_searching_player_stops_when_asked(opponent: str) -> None:
    board = Board.empty(9, 5).play(40)
    player = make_player(opponent, random.Random(0), time_limit=30.0)
    began = time.perf_counter()
    decision = player.choose(board, Limits(should_stop=lambda: True))
    assert decision.move in board.legal_moves()
    assert time.perf_counter() - began < 5


@pytest.mark.parametrize(
    "make",
    [
        lambda d: MinimaxPlayer(random.Random(0), depth=d),
        lambda d: AlphaBetaPlayer(random.Random(0), depth=d),
    ],
)
def test_a_depth_limit_bounds_the_search(make: object) -> None:
    board = Board.empty(3, 3)
    player = make(None)  # type: ignore[operator]
    shallow = player.choose(board, Limits(depth=1)).analysis
    assert shallow is not None and shallow.depth == 1 and not shallow.complete
    # The player's own depth applies when the call gives none.
    own = make(2).choose(board).analysis  # type: ignore[operator]
    assert own is not None and own.depth == 2


def test_a_position_budget_stops_a_long_search_soon_after_it() -> None:
    board = Board.empty(10, 5).play(44).play(45)
    decision = AlphaBetaPlayer(random.Random(0), time_limit=30.0).choose(board, Limits(nodes=3000))
    analysis = decision.analysis
    assert analysis is not None and analysis.cancelled
    assert analysis.nodes >= 3000
    assert analysis.elapsed < 10  # far short of the 30 s its clock allowed


def test_a_time_limit_in_the_call_replaces_the_players_own() -> None:
    board = Board.empty(10, 5).play(44).play(45)
    decision = AlphaBetaPlayer(random.Random(0), time_limit=30.0).choose(board, Limits(time=0.2))
    assert decision.analysis is not None and decision.analysis.elapsed < 3


def test_an_outside_engine_answers_the_same_call(tmp_path: Path) -> None:
    player = OutsidePlayer(write_brain(tmp_path, "good"))
    heard: list[Progress] = []
    try:
        board = Board.empty(15, 5)
        assert player.choose(board, Limits(time=0.5, on_progress=heard.append)).move == 112
        assert heard
        with pytest.raises(EngineStopped):
            player.choose(board.play(112), Limits(should_stop=lambda: True))
    finally:
        player.close()
