"""The compare screen's runs: the jobs one run hands the worker, in order (`RunPlan`), and the
effects and states the `CompareController` speaks in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import (
    game_costs,
    run_lab_search,
    run_minimax,
    score_by_depth,
    size_tree,
    try_yours,
)
from tictactoe_tui.engine.lab.trace import HEURISTIC_DEPTH, LAB_ALGORITHMS, YOURS

__all__ = [
    "QUICK_ALGORITHMS",
    "CompareEffect",
    "Draw",
    "LabStep",
    "MinimaxState",
    "Part",
    "RunPlan",
    "RunSteps",
    "StepKind",
    "StopRun",
]

QUICK_ALGORITHMS = tuple(name for name in LAB_ALGORITHMS if name != "minimax")
"""The searches that run before minimax (each takes milliseconds on 3×3); they also deepen,
depth by depth, for the chart of the best score by depth."""


class MinimaxState(StrEnum):
    """Where minimax is."""

    WAITING = "waiting"
    """The quicker searches run first."""
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    TOO_BIG = "too big"
    """It stopped: the tree would not fit its budget."""
    FAILED = "failed"
    """A job failed, or the game is over (nothing to search)."""


class StepKind(StrEnum):
    """What one job of a run is for."""

    QUICK = "quick"
    """One quick search: its row."""
    BY_DEPTH = "by depth"
    """One quick search deepened ply by ply: its curve on the chart by depth."""
    GAME_COSTS = "game costs"
    """What each earlier computer move cost: the chart over the game."""
    TREE_SIZE = "tree size"
    """The size of minimax's tree: its progress bar."""
    MINIMAX = "minimax"
    """Plain minimax under its budget."""


@dataclass(frozen=True)
class LabStep:
    """One job of a run: `job(*args)` in the worker, for `kind` (`name`: the algorithm)."""

    kind: StepKind
    job: Callable[..., Any]
    args: tuple[Any, ...]
    name: str = ""

    @property
    def reports(self) -> bool:
        """Whether the job reports its progress (minimax: the progress bar)."""
        return self.kind is StepKind.MINIMAX


class Part(StrEnum):
    """A part of the screen to draw again."""

    TABLE = "table"
    NOTES = "notes"
    """The lines under the table."""
    MINIMAX = "minimax"
    """Minimax's line and the buttons and keys that fit its state."""
    PROGRESS = "progress"
    """Minimax's progress bar (`bar_total`, `bar_done`)."""
    BARS = "bars"
    DEPTHS = "depths"
    GAME = "game"


@dataclass(frozen=True)
class RunSteps:
    """Run `steps` one after the other in the worker, each answer to `answered` as it comes; a
    run still going is dropped, and a failed job ends the run (to `step_failed`)."""

    steps: tuple[LabStep, ...]


@dataclass(frozen=True)
class StopRun:
    """Drop the running run at once."""


@dataclass(frozen=True)
class Draw:
    """Draw one part again."""

    part: Part


CompareEffect = RunSteps | StopRun | Draw
"""Anything the compare controller asks of its screen."""


@dataclass(frozen=True)
class RunPlan:
    """What a run searches: the position, the positions charted over the game, how deep every
    search goes, the quick searches' clock, and the learner's file (None: no such row)."""

    position: Board
    history: tuple[tuple[int, Board], ...]
    depth: int | None
    time_limit: float
    eval_file: Path | None
    eval_time: float

    def steps(self, depth: int | None, time_limit: float, everything: bool) -> tuple[LabStep, ...]:
        """The jobs of a run: with `everything`, the quick searches, their scores by depth and
        the game's costs first; then minimax to `depth` within `time_limit`."""
        board = self.position
        steps = []
        if everything:
            for name in QUICK_ALGORITHMS:
                args = (board, name, self.depth, HEURISTIC_DEPTH, self.time_limit)
                steps.append(LabStep(StepKind.QUICK, run_lab_search, args, name))
            if self.eval_file is not None:
                yours = (
                    board,
                    str(self.eval_file),
                    self.eval_time,
                    self.depth,
                    HEURISTIC_DEPTH,
                    self.time_limit,
                )
                steps.append(LabStep(StepKind.QUICK, try_yours, yours, YOURS))
            for name in QUICK_ALGORITHMS:
                args = (board, name, self.depth, HEURISTIC_DEPTH, self.time_limit)
                steps.append(LabStep(StepKind.BY_DEPTH, score_by_depth, args, name))
            boards = [position for _, position in self.history]
            steps.append(LabStep(StepKind.GAME_COSTS, game_costs, (boards, None, self.time_limit)))
        steps.append(LabStep(StepKind.TREE_SIZE, size_tree, (board, depth)))
        steps.append(LabStep(StepKind.MINIMAX, run_minimax, (board, depth, time_limit)))
        return tuple(steps)
