"""scripts/second_player.py: the engine as O only against a revision's as X, and where a lost
game was decided (its plumbing on 3x3; the study itself is run by hand on 15x15)."""

from __future__ import annotations

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
