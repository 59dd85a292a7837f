"""What the game's controller (and the analysis board's, which shares its effects) asks of its
screen, and what the screen draws from its queries: the effects, the board, the faint scores and
the status line as plain values."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tictactoe_tui.engine import Algorithm
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.text.panel import PanelReport, ThinkingReport

Thinking = Literal["computer", "hint", "scores", "view"]
"""What a search is for: the computer's move, a hint shown live in the panel, the quiet
scoring of a person's moves for the board, or an earlier position of the game being looked at."""


def runs_in_process(size: int, algorithm: str) -> bool:
    """Whether a search is small enough to run in the app's process rather than in the worker.

    Measured with `python scripts/worker_start.py`: a 3×3 alpha-beta or heuristic search takes
    well under 10 ms, too short to slow the UI, and running it here needs no worker (the first
    move never waits for the process to start). Minimax on 3×3 takes up to 1.5 s: the worker.
    """
    return size == 3 and algorithm != Algorithm.MINIMAX


# -- effects: what the screen is asked to do ----------------------------------------------------


@dataclass(frozen=True)
class Say:
    """Show a notice in the status line (and as a toast)."""

    text: str


@dataclass(frozen=True)
class Bell:
    """Ring the terminal's bell: a key meant for a hidden board must not play blind."""


@dataclass(frozen=True)
class Search:
    """Start a search in the worker (any running one is dropped): `job(*args)`."""

    kind: Thinking
    job: Callable[..., Any]
    args: tuple[Any, ...]
    in_process: bool
    """True when the search is small enough to run in the app's own process."""


@dataclass(frozen=True)
class StopSearch:
    """Drop the running search at once, and any move waiting for its turn."""


@dataclass(frozen=True)
class Wait:
    """Call `GameController.cvc_tick` after `seconds` (two computers play at a human pace)."""

    seconds: float


@dataclass(frozen=True)
class ShowReport:
    """Show an analysis in the evaluation panel."""

    report: PanelReport
    position: Position | None = None
    """The position whose moves the report's rows are (with `--eval FILE` the screen asks the
    learner's file for its value of each: `with_yours`); None when it does not matter."""


@dataclass(frozen=True)
class ClearPanel:
    """Empty the evaluation panel, leaving `text` in it (None: the panel's own first words)."""

    text: str | None = None


@dataclass(frozen=True)
class ShowThinking:
    """Show a running search live: the report, and the expected line drawn on the board."""

    report: ThinkingReport
    line: tuple[int, ...]
    mover: str


@dataclass(frozen=True)
class Record:
    """Keep this game in the history (finished, or abandoned)."""

    game: PlayedGame


@dataclass(frozen=True)
class Reopened:
    """Undo reopened a finished game: take its record (`game`, as `Record` gave it) out of the
    history, so the game is counted once, when it ends again or is left."""

    game: PlayedGame


@dataclass(frozen=True)
class ScoreChanged:
    """The session's score changed: redraw the scoreboard."""


@dataclass(frozen=True)
class Finished:
    """The game ended: show the results (after the game was recorded)."""

    headline: str
    detail: str


@dataclass(frozen=True)
class Quit:
    """Close the app (the game was recorded first)."""


Effect = (
    Say
    | Bell
    | Search
    | StopSearch
    | Wait
    | ShowReport
    | ClearPanel
    | ShowThinking
    | Record
    | Reopened
    | ScoreChanged
    | Finished
    | Quit
)
"""Anything the controller asks of its screen."""


@dataclass(frozen=True)
class BoardView:
    """What the board shows: each cell's mark, the last move, the winning line, cell labels."""

    marks: tuple[str, ...]
    last: int | None
    winning: tuple[int, ...]
    labels: dict[int, str]


@dataclass(frozen=True)
class ScoreOverlay:
    """The faint scores written in the empty cells, with the caption under the board."""

    scores: dict[int, str]
    caption: str
    key: str
    best: int | None


@dataclass(frozen=True)
class Status:
    """The status line's three parts: who plays whom, whose turn it is, a notice, the last move."""

    players: str
    turn: str
    notice: str
    last: str
