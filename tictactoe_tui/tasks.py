"""The computations the app sends to its worker process (see `thinking.py`), as plain functions.

Each is module-level, so it can be pickled by reference, and takes `should_stop` and
`on_progress` keywords as a `Thinker` job must. Pure: the worker imports the engine and this
module, never Textual.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tictactoe_tui.engine import Board, Decision, Player, ProgressCallback

RandomState = Any
"""What `random.Random.getstate()` returns."""


def choose_move(player: Player, rng: random.Random, board: Board, *,
                should_stop: Callable[[], bool] | None = None,
                on_progress: ProgressCallback | None = None) -> tuple[Decision, RandomState]:
    """The player's decision on `board`, and the state its `rng` ended in.

    The player travels to the worker as a copy, so its random number generator moves on there,
    not in the app: the app sets its own generator to the returned state, and a seeded session
    stays reproducible whichever process thinks.
    """
    decision = player.choose(board, should_stop, on_progress)
    return decision, rng.getstate()
