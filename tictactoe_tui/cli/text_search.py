"""A search run to its end in the text mode: the next line waits for it, and Ctrl+C stops it
(and every other search of ours) at once."""

from __future__ import annotations

import threading
import time
from typing import Any

from tictactoe_tui.play.controller import Search
from tictactoe_tui.worker.client import Thinker


def run_to_end(thinker: Thinker, search: Search) -> tuple[Any, str | None]:
    """Run `search` in this process and wait for it: (its result, None), or (None, the error)."""
    done = threading.Event()
    answer: list[tuple[Any, str | None]] = []

    def finish(result: Any = None, error: str | None = None) -> None:
        answer.append((result, error))
        done.set()

    try:
        thinker.submit(
            search.job,
            *search.args,
            on_done=finish,
            on_error=lambda error: finish(error=error),
            in_process=True,
        )
        # In short sleeps, so Ctrl+C is heard at once (a plain wait would hold it back).
        # Not `done.wait(0.1)`: a Ctrl+C landing inside it can leave the event's lock taken
        # (a `with` block is not signal-safe), and the search thread would then hang in
        # `done.set()`.
        while not done.is_set():
            time.sleep(0.05)
    except KeyboardInterrupt:
        # Wherever Ctrl+C landed (the job may have started without our holding it yet),
        # every search of ours stops.
        thinker.cancel()
        raise
    return answer[0]
