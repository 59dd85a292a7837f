"""scripts/second_player.py: the engine as O only against a revision's as X, and where a lost
game was decided (its plumbing on 3x3; the study itself is run by hand on 15x15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_brains import processes_running, write_brain
from tests.scripts import load_script
from tictactoe_tui.engine import Board

second_player = load_script("second_player")


def test_every_game_is_played_out_from_its_own_opening() -> None:
    games = second_player.play_as_o("HEAD", 2, 0.05, seed=1, size=3, jobs=1)
    assert [game["pair"] for game in games] == [0, 1]
    for game in games:
        # The record replays: legal moves from the two random opening stones to the end.
        board = Board.empty(3, 3)
        for move in game["moves"]:
            board = board.play(move)
        assert game["opening"] == 2 and board.is_over
        assert game["winner"] == (None if board.winner is None else board.winner.value)


def test_blame_names_the_move_that_lost() -> None:
    """X takes the centre, O an edge (B1: the loss), X a corner threatening the diagonal, O
    blocks, X makes two threats at once and wins."""
    game = {"seed": 1, "pair": 0, "opening": 0, "moves": [4, 1, 0, 8, 6, 3, 2], "winner": "X"}
    said = second_player.blame(game, 0.5, size=3)
    assert said.startswith("O lost from ply 3; O's move before, B1 at ply 1: X wins by threats")
    assert said.endswith("board before it .../.X./...")


def _nearest_centre(board: Board) -> int:
    """The fake "good" brain's move: the free cell nearest the centre, by column then row."""
    centre = board.size // 2
    free = [
        (col, row)
        for col in range(board.size)
        for row in range(board.size)
        if board[row * board.size + col] is None
    ]
    col, row = min(free, key=lambda c: (abs(c[0] - centre) + abs(c[1] - centre), c))
    return row * board.size + col


@pytest.mark.slow
def test_an_outside_engine_can_sit_as_o_on_the_same_openings(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "good")
    games = second_player.play_as_o("HEAD", 2, 0.05, seed=1, size=5, jobs=1, o_engine=str(brain))
    ours = second_player.play_as_o("HEAD", 2, 0.05, seed=1, size=5, jobs=1)
    for game, own in zip(games, ours, strict=True):
        assert game["opening"] == 2 and game["forfeit"] is None
        assert game["moves"][:2] == own["moves"][:2]  # the same random openings
        board = Board.empty(5, 5)
        for ply, move in enumerate(game["moves"]):
            if ply >= 2 and ply % 2 == 1:
                assert move == _nearest_centre(board)  # every O move after it is the brain's
            board = board.play(move)
        assert board.is_over
        assert game["winner"] == (None if board.winner is None else board.winner.value)
    assert not processes_running(brain)


@pytest.mark.slow
def test_an_outside_o_that_hangs_loses_by_forfeit_and_is_stopped(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "hung")
    [game] = second_player.play_as_o("HEAD", 1, 0.05, seed=1, size=5, jobs=1, o_engine=str(brain))
    assert game["winner"] == "X"
    assert "timed out" in str(game["forfeit"])
    assert not processes_running(brain)
