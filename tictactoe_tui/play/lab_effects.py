"""What the lab's and the review's controllers ask of their screens besides drawing: run a job in
the worker, stop it, show a notice.

The tree, compare, match, heuristic-lab and review controllers (`play.tree`, `play.compare`,
`play.match`, `play.heuristics`, `play.review`) return these among their own effects; each screen
carries them out with `match` and `typing.assert_never`, so an effect a screen forgot is a type
error, not a silent no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunJob:
    """Run `job(*args)` in the app's worker process (in a thread of the app when `in_process`);
    a job of the same screen still running is dropped, so only the last one asked answers."""

    job: Callable[..., Any]
    args: tuple[Any, ...]
    in_process: bool = False


@dataclass(frozen=True)
class StopJob:
    """Drop the screen's running job at once (its answer never arrives)."""


@dataclass(frozen=True)
class Notify:
    """Show `text` as a passing notice for `seconds`."""

    text: str
    seconds: float = 3.0
    warning: bool = False
    """A notice that something cannot be done here (shown as a warning)."""
