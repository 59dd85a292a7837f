"""An expected line's steps never read as scores (issue 39: on 7×7 one-line cells read
`≤0 ≤0 >1< 2 0 ≤0`, where the 2 was a step, not a score)."""

from __future__ import annotations

import re

import pytest

from tictactoe_tui.text.scores import overlay_caption
from tictactoe_tui.ui.widgets.board import Board

SCORE = re.compile(r"^[>(*]?[≤≥~+-]?-?\d+[<)*]?$")
"""A cell text that reads as a score: a number, perhaps signed, marked or framed."""


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("size", range(3, 21))
def test_every_step_on_every_board_size_starts_with_its_sign(size: int, compact: bool) -> None:
    board = Board(size)
    board.set_compact(compact)
    marks = [""] * (size * size)
    marks[0] = "X"
    steps = min(size * size - 3, 12)
    line = {cell: (number, "OX"[number % 2]) for number, cell in enumerate(range(3, 3 + steps), 1)}
    board.show(marks, hints={1: "0", 2: "≤0"}, line=line, best=4)
    assert SCORE.match(board.cell_text(1)) and SCORE.match(board.cell_text(2))
    for cell, (number, _) in line.items():
        shown = board.cell_text(cell).split()[0]
        assert not SCORE.match(shown), (cell, shown)
        assert shown.strip("><") == f"#{number}", (cell, shown)


def test_the_caption_says_what_the_steps_look_like() -> None:
    assert overlay_caption("", [], line=True) == "line #1 #2 #3… (p hides)"
    assert overlay_caption("X's scores", ["0"], "v", line=True).endswith("· line #1 #2… (p)")
