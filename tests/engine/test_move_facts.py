"""What the engine says each move of a line does (`engine.threats.read_line`) agrees with a
plain reading of the board (`tests/explanations.Replay`, which shares no code with the engine):
for every move of every shipped puzzle's line, and of random lines on 7×7 and 15×15."""

from __future__ import annotations

import random

import pytest

from tests.explanations import Replay
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.proofs.threats import MoveFacts, read_line
from tictactoe_tui.engine.puzzles.proven import load_bank

BANK = load_bank()


def disagreements(board: Board, moves: list[int]) -> list[str]:
    """Where the engine's facts of `moves` played from `board` differ from the plain reading."""
    replay = Replay(str(board), board.k)
    found: list[str] = []
    facts = read_line(board, moves)
    for step in facts:
        mark, other = str(step.mark), str(step.mark.opponent)

        def differ(what: str, step: MoveFacts = step) -> None:
            found.append(f"{''.join(replay.marks)} move {step.move} ({step.kind}): {what}")

        if (step.kind == "win") != replay.wins_at(step.move, mark):
            differ("win")
        if step.kind == "win":  # a win is told as a win, whatever else it does
            replay.marks[step.move] = mark
            continue
        theirs = replay.win_cells(other)
        mine = replay.win_cells(mark)
        if step.blocked != (step.move in theirs):
            differ("blocked")
        if step.forced != (step.move in theirs and len(theirs) == 1 and not mine):
            differ("forced")
        replay.marks[step.move] = mark
        if set(step.still_open) != replay.win_cells(other):
            differ("still open")
        wins = replay.win_cells(mark)
        if step.kind in ("fork", "four") and set(step.wins) != wins:
            differ(f"wins {step.wins} != {sorted(wins)}")
        if (step.kind == "fork") != (len(wins) >= 2):
            differ("fork")
        if (step.kind == "four") != (len(wins) == 1):
            differ("four")
        if step.kind == "three":
            if set(step.forks) != replay.fork_cells(mark):
                differ("forks")
            if set(step.answers) != replay.stoppers(mark):
                differ(f"answers {step.answers} != {sorted(replay.stoppers(mark))}")
            counters = set()
            for cell, held in enumerate(replay.marks):
                if held == ".":
                    replay.marks[cell] = other
                    if replay.win_cells(other):
                        counters.add(cell)
                    replay.marks[cell] = "."
            if set(step.counters) != counters - set(step.answers):
                differ("counters")
        if step.kind == "four" and step.forks and not step.still_open:
            replay.marks[step.wins[0]] = other
            if set(step.forks) != replay.fork_cells(mark):
                differ("forks after the block")
            replay.marks[step.wins[0]] = "."
    return found


@pytest.mark.slow
def test_every_bank_line_is_read_as_the_board_says() -> None:
    wrong = [d for p in BANK for d in disagreements(p.board, list(p.line))]
    assert not wrong, "\n".join(wrong[:10])


@pytest.mark.parametrize(("size", "k"), [(7, 4), (15, 5)])
@pytest.mark.slow
def test_random_lines_are_read_as_the_board_says(size: int, k: int) -> None:
    rng = random.Random(size)
    for _ in range(12):
        board = Board.empty(size, k)
        centre = size // 2
        near = [
            r * size + c
            for r in range(centre - 3, centre + 4)
            for c in range(centre - 3, centre + 4)
        ]
        moves = rng.sample(near, 20)
        assert not disagreements(board, moves)
