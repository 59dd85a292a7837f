"""Played games for the history's tests."""

from __future__ import annotations

from datetime import datetime, timedelta

from tictactoe_tui.engine import Mark
from tictactoe_tui.history.record import PlayedGame, PlayedMove

STARTED = datetime(2025, 3, 1, 14, 0, 0)


def a_game(cells: tuple[int, ...] = (4, 0, 8, 2, 1, 7, 6, 3, 5), **changes: object) -> PlayedGame:
    """A game against alpha-beta with every field filled in."""
    moves = tuple(
        PlayedMove(
            cell,
            Mark.X if i % 2 == 0 else Mark.O,
            by_computer=i % 2 == 1,
            seconds=0.00125 * i if i % 2 else None,
            positions=10 * i if i % 2 else None,
            clever=(i != 3) if i % 2 else None,
        )
        for i, cell in enumerate(cells)
    )
    fields: dict[str, object] = dict(
        mode="human-vs-computer",
        x="human",
        o="alphabeta",
        size=3,
        k=3,
        first=Mark.X,
        difficulty=80,
        started=STARTED,
        ended=STARTED + timedelta(seconds=75),
        moves=moves,
        outcome="draw",
        switched_to_random=(3,),
        switched_to_clever=(5,),
        settings={"opponent": "alphabeta", "difficulty": 80, "seed": None},
        setup_moves=0,
    )
    fields.update(changes)
    return PlayedGame(**fields)  # type: ignore[arg-type]
