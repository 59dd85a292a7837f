"""One value for what a player may spend on a move, and how it is watched (python-chess's `Limit`).

Every player, ours or an outside engine, answers `player.choose(board, limits) -> Decision`.
`Limits` carries the budget (seconds, plies, positions) with the stop check and the progress
callback, so the callers (the match, the worker's jobs, the game controller) pass one value
instead of threading five through every signature. A player built from a spec has its own
limits (`alphabeta:time=0.5`); the limits of a call refine them field by field (`over`).

What each player does with each field:

- `time`: alpha-beta's budget per move on boards above 3×3 (3×3 is always solved); an outside
  engine's `timeout_turn` (it is stopped, and loses, when it runs past it plus a grace).
- `depth`: minimax's and alpha-beta's plies; the heuristics look one move ahead whatever it says.
- `nodes`: the search stops at its first progress report at or past this many positions
  (reports come at least every 100 ms, so a fast search may overshoot by that much).
- `should_stop`: polled by every search; True stops it at once (an outside engine is ended).
- `on_progress`: hears the search as it goes (an outside engine's `MESSAGE` lines included).

The Gomocup protocol has no depth or position budget, so an outside engine keeps to `time` only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from tictactoe_tui.engine.search.types import Progress, ProgressCallback

DEFAULT_TIME_LIMIT = 1.0
"""Seconds alpha-beta allows itself (and the computer player per move) when given neither a depth
nor a time limit on a board too big to solve: it must never hang the caller."""

ShouldStop = Callable[[], bool]
"""A zero-argument callable polled by the search; True asks it to stop at once."""


@dataclass(frozen=True)
class Limits:
    """What one move may cost, and who watches it; every field is optional (None: no limit)."""

    time: float | None = None
    """Seconds for the move (see the module docstring for who honours it how)."""
    depth: int | None = None
    """Plies a search may look ahead."""
    nodes: int | None = None
    """Positions a search may visit (checked at its progress reports)."""
    should_stop: ShouldStop | None = None
    """Polled while the player thinks; True asks it to stop at once."""
    on_progress: ProgressCallback | None = None
    """Hears how the search goes, on the thinking thread (it must be quick)."""

    def __post_init__(self) -> None:
        """Refuse a budget no player could keep, in one sentence."""
        if self.time is not None and not (math.isfinite(self.time) and self.time > 0):
            raise ValueError(f"a time limit must be a number of seconds above 0, not {self.time!r}")
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ValueError(
                    f"a {name} limit must be a whole number of at least 1, not {value!r}"
                )

    def over(self, defaults: Limits) -> Limits:
        """These limits, with `defaults`' value for every field left None here."""
        return replace(
            defaults,
            **{
                f.name: getattr(self, f.name)
                for f in fields(self)
                if getattr(self, f.name) is not None
            },
        )

    def stopped(self) -> bool:
        """Whether the stop check (if any) says stop now."""
        return self.should_stop is not None and self.should_stop()

    def search_hooks(self) -> tuple[ShouldStop | None, ProgressCallback | None]:
        """The stop check and progress callback to hand a search, the node budget folded in:
        the stop check also says stop once a report counted `nodes` positions."""
        if self.nodes is None:
            return self.should_stop, self.on_progress
        budget, outer_stop, outer_progress = self.nodes, self.should_stop, self.on_progress
        seen = [0]

        def progress(report: Progress) -> None:
            seen[0] = report.nodes
            if outer_progress is not None:
                outer_progress(report)

        def stop() -> bool:
            return seen[0] >= budget or (outer_stop is not None and outer_stop())

        return stop, progress


NO_LIMITS = Limits()
"""No budget and nobody watching: the player's own limits apply."""
