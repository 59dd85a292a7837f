"""The rules of the tree explorer (key `t`), without Textual: which search is recorded, which
lines the tree shows and how each reads, what the step mode's replay shows at each event.

The Tree screen hands every key and every answer of the worker to a `TreeController` and carries
out the effects it returns (record a search, clear or rebuild the tree, show one more event in
place, redraw the title or the step panel, say something); it draws each line from `label`, the
children of a line from `lines_under`, and the small board beside the tree from `line_view`.
The controller holds the state and runs the search, the replay's steps and the predictions; the
vocabulary and effects are `tree_effects`'s (importable from here too), the layout of the lines
`tree_lines`'s, the panels' words `tree_words`'s.

A recording (`engine.lab.trace.record_search`) holds the search's nodes and its events. With no
step chosen the whole search is shown. In step mode only the nodes entered by the event shown
are there, a value not yet returned is "…", and the moves a cut-off pruned appear from the
cut's event on. On big boards the line standing for the moves a node left out stays last.

Prediction mode (`toggle_predict`, issue 35) asks before the replay: the tree shows only the
root moves, without values, the learner marks those alpha-beta will cut off or fail low on
(`toggle_mark`) and guesses the positions it visits (`set_guess`); any replay key then judges
the prediction (`play.tree_predict`), keeps it in the history and starts the replay, each root
move's verdict appearing on its line once the replay has reached its end.

Given the learner's evaluation file (`eval_file`), `o` also offers "yours: FILE": the H1 search
(to `HEURISTIC_DEPTH` plies unless a depth is chosen) with the file's `evaluate` at the cut-off
(`engine.lab.yours.record_yours`, the file in a process of its own, every cut-off position asked
for in one call); a file that fails says so in the title, in one line.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import YoursFailed, default_depth
from tictactoe_tui.engine.lab.trace import (
    EVENT_CAP,
    HEURISTIC_DEPTH,
    YOURS,
    TraceNode,
    TraceRecorder,
    TraceResult,
    record_search,
)
from tictactoe_tui.engine.lab.yours import record_yours
from tictactoe_tui.engine.players.guest import guest_name
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.play.tree_effects import (
    Advance,
    DrawPredict,
    DrawStep,
    DrawTitle,
    KeepPredictions,
    Line,
    LineLabel,
    LineView,
    Lit,
    Look,
    Rebuild,
    Relabel,
    Searching,
    StepChange,
    TreeEffect,
)
from tictactoe_tui.play.tree_lines import TreeLines
from tictactoe_tui.play.tree_predict import (
    CONVENTION,
    CONVENTION_SHORT,
    GuessError,
    TreePrediction,
    TreeVerdict,
    search_facts,
)
from tictactoe_tui.play.tree_words import PREDICT_HELP, counts_words, step_words, verdict_words
from tictactoe_tui.text.lab import ALGORITHM_TITLES

__all__ = [
    "BIG_BOARD_TREE_DEPTH",
    "HEURISTIC",
    "MAX_DEPTH",
    "PREDICT_HELP",
    "TREE_ALGORITHMS",
    "TREE_TIME_LIMIT",
    "YOURS",
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
    "TreeController",
    "TreeEffect",
]

TREE_ALGORITHMS = ("alphabeta-ordered", "alphabeta-plain", "alphabeta-tt")
"""The searches the explorer can show, in the order `o` cycles through them (then `YOURS`, the
learner's evaluation, when the explorer was given its file)."""

TREE_TIME_LIMIT = 10.0
"""Seconds a recorded search may take (the recording itself is capped in events)."""

MAX_DEPTH = 9
"""The deepest depth `+` offers on boards too big to search to the end."""

BIG_BOARD_TREE_DEPTH = 2
"""The depth the explorer starts with on positions the lab does not search to the end."""

HEURISTIC = "H1"
"""What scores a leaf at the depth cut-off, as the lines name it."""


class TreeController:
    """One position's recorded search, the algorithm and depth asked for, the event shown."""

    def __init__(
        self,
        position: Board,
        depth: int | None = None,
        event_cap: int = EVENT_CAP,
        clock: Callable[[], float] = time.monotonic,
        eval_file: str | Path | None = None,
    ):
        """Explore the search from `position` to `depth` plies, recording `event_cap` events.

        Without a depth, positions with few empty cells are searched to the end and the others
        to `BIG_BOARD_TREE_DEPTH` plies. `clock` times a prediction (injected by the tests).
        `eval_file`, the learner's evaluation, adds "yours: FILE" to the algorithms `o` offers.
        """
        self.eval_file = None if eval_file is None else Path(eval_file)
        """The learner's evaluation file (None: the lab's algorithms only)."""
        self.algorithms: tuple[str, ...] = TREE_ALGORITHMS + (() if eval_file is None else (YOURS,))
        """The algorithms `o` cycles through."""
        self.clock = clock
        self.asking: TreePrediction | None = None
        """The prediction being made (prediction mode, before the replay); None otherwise."""
        self.verdict: TreeVerdict | None = None
        """The last prediction judged, for the search shown; None when there is none."""
        self.position = position
        """The root of the search."""
        self.event_cap = event_cap
        """The most events a recording keeps."""
        self.algorithm = TREE_ALGORITHMS[0]
        """The lab algorithm shown (one of `TREE_ALGORITHMS`)."""
        if depth is None and default_depth(position) is not None:
            depth = BIG_BOARD_TREE_DEPTH
        self.depth = depth
        """Plies searched; None for to the end of the game."""
        self.result: TraceResult | None = None
        """The search's numbers once recorded."""
        self.recorder: TraceRecorder | None = None
        """The recording once it arrives."""
        self.step: int | None = None
        """In step mode, the index of the event shown; None shows the finished search."""
        self.failure: str | None = None
        """Why the last search failed (None: it did not)."""
        self.failure_head = "The search failed"
        """What failed: the search, or the learner's evaluation."""
        self.lines = TreeLines(self)
        """The tree's lines and the small board, as this state shows them."""

    @property
    def busy(self) -> bool:
        """True while the recording is awaited."""
        return not self.position.is_over and self.recorder is None and self.failure is None

    @property
    def root_label(self) -> str:
        """The root's line before there is a recording."""
        return "no search" if self.position.is_over else "Searching…"

    # -- the search -------------------------------------------------------------------------------

    def start(self) -> list[TreeEffect]:
        """The screen opens: search (a finished game has nothing to search)."""
        if self.position.is_over:
            return [Searching(), DrawTitle()]
        return self._search()

    def _search(self) -> list[TreeEffect]:
        """(Re)run the search with the current algorithm and depth; a running one is dropped
        (a finished game has none to run)."""
        if self.position.is_over:
            return []
        self.result = self.recorder = None
        self.failure = None
        self.step = None
        # A new search drops the prediction made on the old one (and its box).
        dropped = [DrawPredict()] if self.asking is not None or self.verdict is not None else []
        self.asking = self.verdict = None
        if self.algorithm == YOURS:
            assert self.eval_file is not None
            job = RunJob(
                record_yours,
                (
                    self.position,
                    str(self.eval_file),
                    self.search_depth,
                    TREE_TIME_LIMIT,
                    self.event_cap,
                ),
            )
        else:
            job = RunJob(
                record_search,
                (self.position, self.algorithm, self.depth, TREE_TIME_LIMIT, self.event_cap),
            )
        return [Searching(), DrawTitle(), DrawStep(), *dropped, job]

    @property
    def search_depth(self) -> int | None:
        """The depth the shown search runs to: the one chosen, or for the learner's evaluation
        (which is read only at a cut-off) `HEURISTIC_DEPTH` when none is."""
        if self.algorithm == YOURS and self.depth is None:
            return HEURISTIC_DEPTH
        return self.depth

    @property
    def heuristic(self) -> str:
        """What scores a leaf at the depth cut-off, as the lines name it."""
        if self.algorithm == YOURS and self.eval_file is not None:
            return guest_name(self.eval_file)
        return HEURISTIC

    def algorithm_title(self) -> str:
        """The search shown, as the title names it."""
        if self.algorithm == YOURS and self.eval_file is not None:
            return f"{guest_name(self.eval_file)} (the H1 search, your evaluate at the cut-off)"
        return ALGORITHM_TITLES[self.algorithm]

    def answered(self, answer: tuple[TraceResult, TraceRecorder] | YoursFailed) -> list[TreeEffect]:
        """The worker's answer: a recording to show, or the learner's file's fault."""
        if isinstance(answer, YoursFailed):
            self.failure = answer.reason
            self.failure_head = "Your evaluation failed"
            return [DrawTitle()]
        return self.recorded(*answer)

    def recorded(self, result: TraceResult, recorder: TraceRecorder) -> list[TreeEffect]:
        """The recording arrived: show it."""
        self.result, self.recorder = result, recorder
        self.failure = None
        return [Rebuild(), DrawTitle(), DrawStep()]

    def search_failed(self, message: str) -> list[TreeEffect]:
        """The worker could not record the search."""
        self.failure = message
        self.failure_head = "The search failed"
        return [DrawTitle()]

    def cycle_algorithm(self) -> list[TreeEffect]:
        """Show the next alpha-beta variant (board order, ordered, with the table; then the
        learner's evaluation when given)."""
        index = self.algorithms.index(self.algorithm)
        self.algorithm = self.algorithms[(index + 1) % len(self.algorithms)]
        return self._search()

    def change_depth(self, delta: int) -> list[TreeEffect]:
        """Search one ply deeper or shallower (to the end is the deepest on small positions)."""
        empties = self.position.size * self.position.size - self.position.move_count
        # The learner's evaluation always runs to a depth (None would read as its default).
        full_allowed = default_depth(self.position) is None and self.algorithm != YOURS
        deepest = min(MAX_DEPTH, empties)
        shown = self.search_depth
        current = empties if shown is None else shown
        target = max(1, min(deepest, current + delta))
        if target >= empties and full_allowed:
            new: int | None = None
        else:
            new = min(target, empties - 1) if full_allowed else target
        if new == shown:
            words = (
                "That is as far as the explorer goes here."
                if delta > 0
                else "Depth 1 is the shallowest."
            )
            return [Notify(words, 2)]
        self.depth = new
        return self._search()

    # -- step mode --------------------------------------------------------------------------------

    def _has_events(self) -> bool:
        return self.recorder is not None and bool(self.recorder.events)

    def toggle_steps(self) -> list[TreeEffect]:
        """Start the replay at the first event, or leave it to see the whole search (while a
        prediction is made: judge it, then replay)."""
        if self.asking is not None:
            return self.commit()
        if not self._has_events():
            return []
        self.step = 0 if self.step is None else None
        return [Rebuild(), DrawStep(), *self._verdict_title()]

    def step_by(self, delta: int) -> list[TreeEffect]:
        """Replay one event forward or back (starting the replay if needed; while a prediction
        is made: judge it, then replay)."""
        if self.asking is not None:
            return self.commit()
        recorder = self.recorder
        if recorder is None or not recorder.events:
            return []
        if self.step is None:
            self.step = 0
            return [Rebuild(), DrawStep(), *self._verdict_title()]
        target = max(0, min(len(recorder.events) - 1, self.step + delta))
        if target == self.step:
            return [Notify("The first event." if delta < 0 else "The last recorded event.", 2)]
        self.step = target
        if delta == 1:
            return [Advance(self.step_change()), DrawStep(), *self._verdict_title()]
        return [Rebuild(), DrawStep(), *self._verdict_title()]

    def step_end(self) -> list[TreeEffect]:
        """Leave the replay and show the finished search (while a prediction is made: judge it
        first)."""
        if self.asking is not None:
            judged = self.commit()
            if self.asking is not None:
                return judged
            self.step = None
            return [*judged, Rebuild(), DrawStep(), DrawTitle()]
        if self.step is None:
            return []
        self.step = None
        return [Rebuild(), DrawStep(), *self._verdict_title()]

    def _verdict_title(self) -> list[TreeEffect]:
        """The title again when it carries a verdict that follows the replay."""
        return [DrawTitle()] if self.verdict is not None else []

    # -- prediction mode --------------------------------------------------------------------------

    def toggle_predict(self) -> list[TreeEffect]:
        """Start a prediction on the search shown, or leave prediction mode (dropping a
        prediction not yet judged, or the verdicts shown)."""
        if self.asking is not None or self.verdict is not None:
            self.asking = self.verdict = None
            return [Rebuild(), DrawTitle(), DrawStep(), DrawPredict()]
        if self.position.is_over:
            return [Notify("The game is over: there is no search to predict.", 3)]
        if self.result is None or self.recorder is None:
            return [Notify("Wait for the search to be recorded, then predict it.", 3)]
        facts = search_facts(self.result, self.recorder)
        if isinstance(facts, str):
            return [Notify(facts, 5)]
        self.asking = TreePrediction(facts, self.position, self.clock())
        self.step = None
        return [Rebuild(), DrawTitle(), DrawStep(), DrawPredict()]

    def toggle_mark(self, line: Line | None) -> list[TreeEffect]:
        """Mark the root move on `line` as cut off or failing low, or take the mark off."""
        asking = self.asking
        if asking is None:
            return [Notify("Press p to predict the search first.", 2)]
        move = None if line is None else self.root_move_of(line)
        if line is None or move is None:
            return [Notify("Only a root move (a line just under the root) can be marked.", 2)]
        asking.toggle(move)
        return [Relabel((line,)), DrawStep()]

    def set_guess(self, text: str) -> list[TreeEffect]:
        """The guess of the positions visited, as typed so far."""
        if self.asking is None:
            return []
        self.asking.guess_text = text
        return [DrawStep()]

    def commit(self) -> list[TreeEffect]:
        """Judge the prediction, keep it, and start the replay at its first event (a guess that
        is no number is told and nothing is lost)."""
        asking = self.asking
        if asking is None:
            return []
        try:
            verdict = asking.judge()
        except GuessError as error:
            return [Notify(str(error), 4)]
        seconds = max(0.0, self.clock() - asking.started)
        self.asking, self.verdict = None, verdict
        self.step = 0
        kept = tuple(verdict.predictions(self.position, round(seconds, 1)))
        return [KeepPredictions(kept), Rebuild(), DrawTitle(), DrawStep(), DrawPredict()]

    def root_move_of(self, line: Line) -> int | None:
        """The root move a line stands for (None: the line is not a root move)."""
        return self.lines.root_move_of(line)

    def verdict_words(self) -> str:
        """The prediction's verdict as far as the replay has gone: the marks, then the count."""
        return verdict_words(self.lines)

    def step_change(self) -> StepChange:
        """What the event shown adds to the tree, compared with the one before it."""
        return self.lines.step_change()

    def cursor_node(self) -> int | None:
        """The node of the event shown (None outside step mode)."""
        return self.lines.cursor_node()

    # -- the tree's lines (`TreeLines`) -----------------------------------------------------------

    def node(self, index: int) -> TraceNode:
        """A recorded node."""
        return self.lines.node(index)

    @property
    def has_nodes(self) -> bool:
        """Whether there is a recording with a root to show."""
        return self.lines.has_nodes

    def visible(self, node: TraceNode) -> bool:
        """Whether a recorded node has been entered by the event shown."""
        return self.lines.visible(node)

    def can_expand(self, index: int) -> bool:
        """Whether a node's line has anything under it now."""
        return self.lines.can_expand(index)

    def lines_under(self, index: int) -> list[Line]:
        """The lines under a node's, in order (see `TreeLines.lines_under`)."""
        return self.lines.lines_under(index)

    def stand_in(self, index: int) -> int | None:
        """The node standing for the moves node `index` left out, if it has one."""
        return self.lines.stand_in(index)

    def label(self, line: Line) -> LineLabel:
        """How one line reads."""
        return self.lines.label(line)

    def path(self, index: int) -> tuple[int, ...]:
        """The moves from the root to a node."""
        return self.lines.path(index)

    def line_view(self, line: Line) -> LineView | None:
        """The position of `line` on the small board and what it is (None: nothing recorded)."""
        return self.lines.line_view(line)

    # -- the words --------------------------------------------------------------------------------

    def shown_line(self) -> Line | None:
        """The line the step panel is about: the root, or the node of the event shown."""
        return self.lines.shown_line()

    def step_words(self) -> str:
        """The step panel: the event in words, the window, the running counts."""
        return step_words(self.lines)

    def title(self) -> str:
        """What is shown: the algorithm, the position, the depth and the search's counts."""
        board = self.position
        if board.is_over:
            ended = "a draw" if board.winner is None else f"{board.winner} won"
            return f"The game is over ({ended}): there is no search to show. Escape goes back."
        if self.failure is not None:
            return f"{self.failure_head}: {self.failure}"
        size = board.size
        plies = self.search_depth
        depth = "to the end of the game" if plies is None else f"to depth {plies}"
        head = (
            f"{self.algorithm_title()} from {board.to_move} to move "
            f"({size}×{size}, {board.k} in a row), {depth}"
        )
        if self.asking is not None:
            return f"{head}\nPredicting: the counts are hidden until the replay. {CONVENTION}"
        if self.verdict is not None:
            return f"{head}\n{self._counts()}\n{self.verdict_words()} ({CONVENTION_SHORT})"
        return f"{head}\n{self._counts()}"

    def _counts(self) -> str:
        return counts_words(self.result, self.recorder, self.position)
