"""The puzzle jobs the app sends to its worker: judging a move, and making puzzles."""

from __future__ import annotations

import threading

import pytest

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.puzzles.proven import Generation, PuzzleChecker, load_bank
from tictactoe_tui.worker.client import Thinker
from tictactoe_tui.worker.jobs import answer_puzzle, find_puzzles


def test_a_right_move_gets_the_rest_of_the_proof_in_words() -> None:
    puzzle = next(p for p in load_bank() if p.size == 10 and p.goal == "win")
    reply = answer_puzzle(puzzle, puzzle.answer)
    assert reply.correct and reply.line[0] == puzzle.answer
    assert len(reply.words) == len(reply.line) == puzzle.plies
    board = puzzle.board
    for move in reply.line:
        board = board.play(move)
    assert board.winner is puzzle.to_move


def test_a_wrong_move_gets_its_refutation_in_words() -> None:
    puzzle = PuzzleChecker(3, 3).examine(Board.from_string("X../.../...", to_move="O"))
    assert puzzle is not None
    reply = answer_puzzle(puzzle, 1)  # B1: an edge, which loses
    assert not reply.correct and reply.line[0] == 1
    assert len(reply.words) == len(reply.line) and reply.words[0] == "O plays B1."
    board = puzzle.board
    for move in reply.line:
        board = board.play(move)
    assert board.winner is Mark.X and reply.words[-1].startswith("X plays ")


@pytest.mark.slow
def test_making_puzzles_runs_in_the_worker_process() -> None:
    thinker = Thinker()
    done = threading.Event()
    made: list[Generation] = []

    def finished(result: Generation) -> None:
        made.append(result)
        done.set()

    try:
        thinker.submit(find_puzzles, 3, 3, 2, 7, on_done=finished)
        assert done.wait(60)
        assert len(made[0].puzzles) == 2 and thinker.worker_pid is not None
    finally:
        thinker.close()
