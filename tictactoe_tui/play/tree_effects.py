"""The tree explorer's vocabulary: what a line of the tree stands for and how it reads, what the
small board shows, and the effects `TreeController` asks of its screen."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tictactoe_tui.history.predictions import Prediction
from tictactoe_tui.play.lab_effects import Notify, RunJob

__all__ = [
    "Advance",
    "DrawPredict",
    "DrawStep",
    "DrawTitle",
    "KeepPredictions",
    "Line",
    "LineLabel",
    "LineView",
    "Lit",
    "Look",
    "Rebuild",
    "Relabel",
    "Searching",
    "StepChange",
    "TreeEffect",
]


@dataclass(frozen=True)
class Line:
    """What one line of the tree stands for: a recorded node, or a move pruned at a node."""

    node: int
    pruned: int | None = None
    """The pruned move (the line is then a greyed "pruned" entry under `node`)."""


class Look(StrEnum):
    """How a line is drawn: what it is, not its colours (the screen picks those)."""

    PLAIN = "plain"
    """A value returned inside its window, or the root."""
    CUTOFF = "cutoff"
    """A move that reached β (its value is a lower bound)."""
    FAIL_LOW = "fail-low"
    """A move no better than one found before (its value is an upper bound)."""
    PENDING = "pending"
    """Entered but not yet returned, at the event shown."""
    PRUNED = "pruned"
    """A move pruned by a cut-off: never searched."""
    LEFT_OUT = "left-out"
    """The line standing for the moves a big-board search left out."""


@dataclass(frozen=True)
class LineLabel:
    """One line of the tree: its words and its look."""

    text: str
    look: Look


class Lit(StrEnum):
    """What the small board lights."""

    MOVE = "move"
    """The node's own move."""
    PRUNED = "pruned"
    """A move that was pruned, never tried."""
    LEFT_OUT = "left-out"
    """The moves a search left out, on the position where it left them out."""


@dataclass(frozen=True)
class LineView:
    """What the small board and the words under it show for one line."""

    marks: tuple[str, ...]
    path: tuple[int, ...]
    """The moves from the root to the position shown."""
    lit: int | tuple[int, ...] | None
    lit_kind: Lit
    words: str


@dataclass(frozen=True)
class StepChange:
    """What one step forward adds to the tree, in place."""

    entered: tuple[int, int] | None
    """(parent, node): the node entered now, whose line appears under its parent's."""
    cut: int | None
    """The node whose pruned moves appear now (a cut-off)."""
    relabel: tuple[int, ...]
    """The nodes whose lines read differently now."""
    cursor: int
    """The node the event is about: the tree's cursor goes there."""


@dataclass(frozen=True)
class Searching:
    """A new search is on its way: empty the tree (its root reads `TreeController.root_label`)."""


@dataclass(frozen=True)
class Rebuild:
    """Build the tree again from the root, open along the path to the event shown."""


@dataclass(frozen=True)
class Advance:
    """Show one more event in place."""

    change: StepChange


@dataclass(frozen=True)
class DrawTitle:
    """Redraw the title: what is searched and the search's counts."""


@dataclass(frozen=True)
class DrawStep:
    """Redraw the step panel and the small board for the line it is about."""


@dataclass(frozen=True)
class Relabel:
    """Redraw these lines in place (a mark put on or taken off)."""

    lines: tuple[Line, ...]


@dataclass(frozen=True)
class DrawPredict:
    """Show or hide what prediction mode adds (the box for the guess), as `asking` says."""


@dataclass(frozen=True)
class KeepPredictions:
    """Keep these answers in the history."""

    predictions: tuple[Prediction, ...]


TreeEffect = (
    Searching
    | Rebuild
    | Advance
    | DrawTitle
    | DrawStep
    | RunJob
    | Notify
    | Relabel
    | DrawPredict
    | KeepPredictions
)
"""Anything the tree controller asks of its screen."""
