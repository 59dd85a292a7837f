"""Played games as text records: what `export` writes and `import` reads."""

from __future__ import annotations

from datetime import datetime

import pytest

from benchmarks.history_bench import sample_games
from tests.games import a_game
from tictactoe_tui.engine import Game, IllegalMove, Mark
from tictactoe_tui.history.record import PlayedGame


def test_every_field_survives_a_round_trip_through_text() -> None:
    games = [
        a_game(),
        a_game(setup_moves=4, switched_to_random=(), switched_to_clever=()),
        *sample_games(30),
    ]
    for game in games:
        assert PlayedGame.from_record(game.to_record(7)) == game


def test_the_engine_reads_an_exported_record_as_the_same_game() -> None:
    game = a_game()
    replayed = Game.from_record(game.to_record(1))
    assert replayed.moves == game.cells
    assert (replayed.size, replayed.k, replayed.first) == (3, 3, Mark.X)


def test_the_record_is_readable() -> None:
    text = a_game().to_record(12)
    assert text.splitlines()[0] == "# tictactoe-tui game 12"
    assert "# o: alphabeta" in text
    assert "# move 2: O computer clever seconds=0.00125 positions=10" in text
    assert text.endswith("tictactoe 3x3 k=3 first=X\nmoves: 5 1 9 3 2 8 7 4 6\n")


def test_a_bare_engine_record_is_a_game_between_two_people() -> None:
    now = datetime(2025, 1, 2, 3, 4, 5)
    game = PlayedGame.from_record("tictactoe 3x3 k=3 first=O\nmoves: 1 5 2 6 3\n", now=now)
    assert (game.mode, game.x, game.o, game.first) == ("human-vs-human", "human", "human", Mark.O)
    assert game.outcome == "O" and game.started == game.ended == now
    assert [m.mark for m in game.moves] == [Mark.O, Mark.X, Mark.O, Mark.X, Mark.O]
    assert not any(m.by_computer for m in game.moves)


def test_the_moves_decide_the_outcome_whatever_the_comment_says() -> None:
    text = a_game().to_record().replace("# outcome: draw", "# outcome: X")
    assert PlayedGame.from_record(text).outcome == "draw"
    unfinished = "# outcome: X\ntictactoe 4x4 k=3 first=X\nmoves: 1 2\n"
    assert PlayedGame.from_record(unfinished).outcome == "abandoned"


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "empty game record"),
        ("hello\n", "bad game record header"),
        ("tictactoe 3x3 k=3 first=X\nmoves: 5 5\n", "illegal"),
        ("tictactoe 3x3 k=3 first=X\nmoves: 10\n", "off the board"),
        ("# started: yesterday\ntictactoe 3x3 k=3 first=X\nmoves: 5\n", "date and time"),
        ("# difficulty: 300\ntictactoe 3x3 k=3 first=X\nmoves: 5\n", "difficulty"),
        ("# x: two words\ntictactoe 3x3 k=3 first=X\nmoves: 5\n", "one word"),
        ("# settings: [1]\ntictactoe 3x3 k=3 first=X\nmoves: 5\n", "JSON object"),
        ("# switched-to-random: 9\ntictactoe 3x3 k=3 first=X\nmoves: 5\n", "move numbers"),
        ("# move 1: X computer seconds=fast\ntictactoe 3x3 k=3 first=X\nmoves: 5\n", "bad number"),
    ],
)
def test_a_bad_record_is_refused_saying_what_is_wrong(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        PlayedGame.from_record(text)


def test_an_illegal_move_is_an_illegal_move_error() -> None:
    with pytest.raises(IllegalMove):
        PlayedGame.from_record("tictactoe 3x3 k=3 first=X\nmoves: 1 2 3 4 5 6 7 8\n")
