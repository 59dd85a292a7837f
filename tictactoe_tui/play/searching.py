"""One search at a time, for the game and the analysis board alike: what it is for, the position
it searches and since when (`SearchRun`), the `Search` that starts an analysis and the
`ShowThinking` that follows it live.

The screens run one search at a time, so an answer always belongs to the search asked for last:
starting one forgets the one before, and stopping forgets it too (its answer, should it come,
belongs to nothing)."""

from __future__ import annotations

import time
from typing import Generic, TypeVar

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import Progress
from tictactoe_tui.play.effects import Search, ShowThinking, Thinking, runs_in_process
from tictactoe_tui.text.panel import ThinkingReport
from tictactoe_tui.text.report import ALGORITHM_NAMES, thinking_report
from tictactoe_tui.worker.jobs import clever_analysis

T = TypeVar("T")


class SearchRun(Generic[T]):
    """The search running now: what it is for (`what`, None when none runs), its position and
    the moment it started."""

    def __init__(self, position: Position) -> None:
        """No search yet; `position` stands in until the first starts."""
        self.what: T | None = None
        """What the running search is for, or None."""
        self.position = position
        """The position the last search started searches."""
        self.started = 0.0
        """When the last search started (`time.perf_counter`)."""

    def start(self, what: T, position: Position) -> None:
        """A search of `position` for `what` starts (any running one is forgotten)."""
        self.what = what
        self.position = position
        self.started = time.perf_counter()

    def stop(self) -> bool:
        """Forget the running search; True when one ran."""
        running, self.what = self.what is not None, None
        return running

    def end(self) -> T | None:
        """The running search answered: what it was for (None: it had been stopped)."""
        what, self.what = self.what, None
        return what

    def elapsed(self) -> float:
        """Seconds since the last search started."""
        return time.perf_counter() - self.started


def analysis_search(
    kind: Thinking, position: Position, algorithm: str, time_limit: float | None, depth: int | None
) -> Search:
    """The search that analyses `position` (every move of the side to move scored) with
    `algorithm`, within `time_limit` seconds and `depth` plies (None: no limit, automatic)."""
    return Search(
        kind,
        clever_analysis,
        (position, algorithm, time_limit, depth),
        runs_in_process(position.size, algorithm),
    )


def thinking_shown(
    title: str,
    algorithm: str,
    progress: Progress | None,
    position: Position,
    budget: float | None,
) -> ShowThinking:
    """A running search of `position` by `algorithm` shown live under `title`: its last report
    (None: it has just started) and its expected line; `budget` is its clock, if it has one."""
    mover = str(position.to_move)
    if progress is None:
        name = ALGORITHM_NAMES.get(algorithm, algorithm)
        return ShowThinking(ThinkingReport(title, name, 0, 0, 0.0, budget, "", ""), (), mover)
    report = thinking_report(title, algorithm, progress, position, budget)
    return ShowThinking(report, progress.pv, mover)


def analysis_failed(error: str) -> str:
    """What the panel and the status line say when an analysis raised or its process died."""
    return f"The analysis failed: {error}"
