"""One try at a puzzle, without a terminal: the phases, the move, the hints, the line."""

from __future__ import annotations

from tictactoe_tui.engine.puzzles.proven import load_bank
from tictactoe_tui.play.puzzle_try import MAX_HINTS, PuzzlePhase, PuzzleTry
from tictactoe_tui.worker.jobs import answer_puzzle


def test_a_try_goes_from_solving_to_checking_playing_and_done() -> None:
    puzzle = next(p for p in load_bank() if p.size == 3)
    attempt = PuzzleTry()
    assert attempt.phase is PuzzlePhase.IDLE and attempt.choose(0) == "No puzzle yet."
    attempt.start(puzzle)
    assert attempt.phase is PuzzlePhase.SOLVING and not attempt.can_retry
    taken = next(c for c in range(9) if puzzle.board[c] is not None)
    assert attempt.choose(taken).endswith("is taken: pick an empty cell.")
    assert attempt.phase is PuzzlePhase.SOLVING and attempt.played == []
    assert attempt.choose(puzzle.answer) == ""
    assert attempt.phase is PuzzlePhase.CHECKING and attempt.busy and not attempt.can_hint
    assert attempt.choose(puzzle.answer) == (
        "Press r to try this puzzle again, or n for the next one."
    )
    reply = answer_puzzle(puzzle, puzzle.answer)
    attempt.answered(reply)
    assert attempt.phase is PuzzlePhase.PLAYING
    indices = []
    while (index := attempt.step()) is not None:
        indices.append(index)
    assert indices == list(range(1, len(reply.line)))  # the move tried was shown already
    assert attempt.phase is PuzzlePhase.DONE and attempt.played == list(reply.line)
    assert attempt.can_retry
    attempt.start()
    assert attempt.phase is PuzzlePhase.SOLVING and attempt.played == []
    assert attempt.position() == puzzle.board


def test_hints_come_one_level_at_a_time_up_to_the_move() -> None:
    attempt = PuzzleTry()
    attempt.start(next(p for p in load_bank() if p.size == 3))
    assert [attempt.hint() for _ in range(MAX_HINTS + 1)] == [True] * MAX_HINTS + [False]
    assert attempt.hints == MAX_HINTS


def test_an_interrupted_try_is_done_and_an_idle_one_stays_idle() -> None:
    attempt = PuzzleTry()
    attempt.interrupt()
    assert attempt.phase is PuzzlePhase.IDLE
    attempt.start(next(p for p in load_bank() if p.size == 3))
    attempt.choose(attempt.puzzle.answer if attempt.puzzle else 0)
    attempt.interrupt()
    assert attempt.phase is PuzzlePhase.DONE
    attempt.clear()
    assert attempt.puzzle is None and attempt.phase is PuzzlePhase.IDLE
