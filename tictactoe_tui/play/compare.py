"""The rules of the compare screen (key `a`), without Textual: which searches run and in what
order, what each row of the table says, minimax's state and what it offers, and what the charts
show.

The Compare screen hands every key and every answer of the worker to a `CompareController` and
carries out the effects it returns: run a list of jobs one after the other (`RunSteps`: each
answer goes back through `answered` as it comes, so each row fills as its search ends), stop
them, redraw one part. It draws the table from `columns` and `cell`, minimax's line from
`minimax_words`, and the charts from `play.compare_charts`.

The order: the three alpha-betas and the two heuristic searches, the same searches again to 1,
2, … plies for the chart by depth, the cost of each earlier computer move for the chart over the
game, the size of minimax's tree, then plain minimax under its budget. When the tree will not
fit, minimax stops and offers the deepest depth that fits (`d`) or the full tree anyway (`f`).
Once minimax has a value, the last column says whether each algorithm agrees with it.

With a learner's evaluation (`eval_file`, the `--eval FILE` option), one more row comes last,
named "yours: FILE": the H1 search with the file's `evaluate` at the cut-off (`YOURS`), run
with the quick searches as a job of its own (`try_yours`; the file runs in a process of its
own). A file that fails fills its row with "—" and says why under the table (`notes`); the
other rows go on. The screen lists the rows in `names` order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal, assert_never

from tictactoe_tui.engine import Board, Game, IterationInfo, Progress
from tictactoe_tui.engine.lab.compare import (
    LAB_TIME_LIMIT,
    SUGGESTED_SLACK,
    GameCost,
    MinimaxRun,
    YoursFailed,
    best_so_far,
    default_depth,
    game_costs,
    run_lab_search,
    run_minimax,
    score_by_depth,
    size_tree,
    try_yours,
    verdict,
)
from tictactoe_tui.engine.lab.trace import (
    HEURISTIC_DEPTH,
    LAB_ALGORITHMS,
    YOURS,
    TraceResult,
    TreeSize,
)
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, guest_name
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.compare_charts import (
    BarsChart,
    DepthsChart,
    GameChart,
    bars_chart,
    depths_chart,
    game_chart,
)
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.text.lab import (
    ALGORITHM_TITLES,
    agreement_words,
    depth_cell,
    duration,
    left_out_note,
    minimax_budget_words,
    result_name,
    tree_words,
    value_cell,
)
from tictactoe_tui.text.scores import first_cut_text, searched_words

QUICK_ALGORITHMS = tuple(name for name in LAB_ALGORITHMS if name != "minimax")
"""The searches that run before minimax (each takes milliseconds on 3×3); they also deepen,
depth by depth, for the chart of the best score by depth."""

COLUMNS = (
    "algorithm",
    "move",
    "value",
    "depth",
    "positions",
    "cut-offs",
    "1st cuts",
    "table hits",
    "time",
    "moves",
    "agrees",
)
"""The table's columns, by key."""

HEADERS = {"cut-offs": "cut-\noffs", "1st cuts": "1st\ncuts", "table hits": "table\nhits"}
"""Headers written on two lines, so that the table fits 100 columns."""

RIGHT = ("depth", "positions", "cut-offs", "1st cuts", "table hits", "time", "moves")
"""The columns of numbers, aligned right."""

LEGEND = (
    "depth: plies searched (end: the whole game) · 1st cuts: the share of cut-offs "
    "made by the first move tried (100% is ideal ordering)"
)
"""The line under the table that says what its newer columns are."""


def time_text(seconds: float) -> str:
    """A search time in the table (the snapshot tests replace it: it varies between runs)."""
    return duration(seconds)


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
class Cell:
    """One cell of the table: its words, fainter when it is only a bound or a stop (`faint`),
    or with a fainter `tail` ("0" and " draw")."""

    text: str
    faint: bool = False
    tail: str = ""

    @property
    def plain(self) -> str:
        """The cell's words, as one string."""
        return self.text + self.tail


def game_history(game: Game, settings: GameSettings) -> tuple[tuple[int, Board], ...]:
    """The positions the chart over a game shows, with their move numbers: those where the
    computer moved, then the position now (between two people, every move is charted)."""
    board = Board.empty(game.size, game.k, game.first)
    history = []
    has_computer = settings.mode != Mode.HUMAN_VS_HUMAN
    for number, move in enumerate(game.moves, start=1):
        if not has_computer or settings.is_computer(board.to_move):
            history.append((number, board))
        board = board.play(move)
    if not board.is_over:
        history.append((len(game.moves) + 1, board))
    return tuple(history)


class CompareController:
    """One position compared: every search's result as it arrives, and minimax's run."""

    def __init__(
        self,
        position: Board,
        history: Sequence[tuple[int, Board]] = (),
        time_limit: float = LAB_TIME_LIMIT,
        depth: int | Literal["default"] | None = "default",
        eval_file: str | Path | None = None,
        eval_time: float = DEFAULT_TIME,
    ) -> None:
        """Compare on `position`; `history` lists (move number, position before it) to chart.

        `depth` is how deep every search goes: None to the end of the game; by default, to the
        end on positions with few empty cells and `BIG_POSITION_DEPTH` plies on the others.
        `eval_file` adds the learner's row (each of its calls `eval_time` seconds a position).
        """
        self.position = position
        """The position compared."""
        self.history = tuple(history)
        """The positions the chart over the game shows, with their move numbers."""
        self.time_limit = time_limit
        """Seconds minimax may take before it is called too big."""
        self.depth = default_depth(position) if depth == "default" else depth
        """The depth every search goes to (None: the end of the game)."""
        self.results: dict[str, TraceResult] = {}
        """Each algorithm's result, as they arrive."""
        self.by_depth: dict[str, tuple[IterationInfo, ...]] = {}
        """Each quick algorithm's best move and score at each depth, as they arrive."""
        self.minimax: MinimaxRun | None = None
        """Minimax's last run, once it ended."""
        self.costs: list[GameCost] = []
        """The chart over the game's numbers."""
        self.minimax_tree: TreeSize | None = None
        """The size of the tree minimax is searching (for the progress bar)."""
        self.minimax_state = MinimaxState.WAITING
        """Where minimax is."""
        self.minimax_depth: int | None = None
        """The depth of minimax's run now (None: the whole tree)."""
        self.bar_total = 0
        """The progress bar's end: the positions of the tree minimax searches."""
        self.bar_done = 0
        """The progress bar's position: the positions minimax visited."""
        self.failure = ""
        """What minimax's line says when it failed (or when the game is over)."""
        self.eval_file = None if eval_file is None else Path(eval_file)
        """The learner's file whose row comes last (None: no such row)."""
        self.eval_time = eval_time
        self.yours_failed: YoursFailed | None = None
        """Why the learner's row is empty, when its file failed."""
        self.names: tuple[str, ...] = LAB_ALGORITHMS + (() if eval_file is None else (YOURS,))
        """The table's rows, by key, in order (`cell(name, column)`)."""
        self._last_progress: Progress | None = None
        self._cells: dict[str, dict[str, Cell]] = {
            name: {column: Cell("…") for column in COLUMNS} | {"algorithm": self._title(name)}
            for name in self.names
        }

    # -- the run ----------------------------------------------------------------------------------

    def start(self) -> list[CompareEffect]:
        """Run everything (the screen opens, or r runs it again); a finished game has nothing
        to search."""
        if self.position.is_over:
            return self._say_over()
        self.results.clear()
        self.by_depth.clear()
        self.yours_failed = None
        self.minimax = None
        self.minimax_state = MinimaxState.WAITING
        return [Draw(Part.MINIMAX), RunSteps(self._steps(self.depth, self.time_limit, True))]

    def _steps(self, depth: int | None, time_limit: float, everything: bool) -> tuple[LabStep, ...]:
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

    def answered(self, step: LabStep, answer: Any) -> list[CompareEffect]:
        """One job of the run answered: keep it, and say what to draw again."""
        match step.kind:
            case StepKind.QUICK:
                effects: list[CompareEffect] = [Draw(Part.TABLE), Draw(Part.BARS)]
                if isinstance(answer, YoursFailed):
                    self.yours_failed = answer
                    self._cells[YOURS] |= {
                        column: Cell("—") for column in COLUMNS if column != "algorithm"
                    }
                else:
                    self.results[answer.algorithm] = answer
                    self._fill_row(answer)
                if step.name == self.names[-1] or step.name == QUICK_ALGORITHMS[-1]:
                    effects.append(Draw(Part.NOTES))
                return effects
            case StepKind.BY_DEPTH:
                self.by_depth[step.name] = answer
                return [Draw(Part.DEPTHS)]
            case StepKind.GAME_COSTS:
                self.costs = answer
                return [Draw(Part.GAME)]
            case StepKind.TREE_SIZE:
                return self._minimax_sized(answer, step.args[1])
            case StepKind.MINIMAX:
                return self._minimax_done(answer)
            case _:
                assert_never(step.kind)

    def step_failed(self, message: str) -> list[CompareEffect]:
        """A job failed: the run ends there, and minimax's line says why."""
        self.minimax_state = MinimaxState.FAILED
        self.failure = f"The search failed: {message}"
        return [Draw(Part.MINIMAX)]

    def _minimax_sized(self, tree: TreeSize, depth: int | None) -> list[CompareEffect]:
        """Minimax starts: its tree's size and an empty progress bar."""
        self.minimax_depth = depth
        self.minimax_tree = tree
        self._last_progress = None
        self.minimax_state = MinimaxState.RUNNING
        self.bar_total, self.bar_done = tree.positions, 0
        return [Draw(Part.PROGRESS), Draw(Part.MINIMAX), Draw(Part.BARS)]

    def progress(self, progress: Progress) -> list[CompareEffect]:
        """Minimax's progress: move the bar."""
        if self.minimax_state is not MinimaxState.RUNNING:
            return []
        self._last_progress = progress
        self.bar_done = progress.nodes
        return [Draw(Part.PROGRESS)]

    def _minimax_done(self, run: MinimaxRun) -> list[CompareEffect]:
        """Minimax ended: its row, the others judged, how it went."""
        self.minimax = run
        result = run.result
        effects: list[CompareEffect] = []
        if run.too_big:
            self.minimax_state = MinimaxState.TOO_BIG
        elif result.finished:
            self.minimax_state = MinimaxState.DONE
            self.results["minimax"] = result
            self.bar_total = self.bar_done = result.positions
            effects.append(Draw(Part.PROGRESS))
        else:
            self.minimax_state = MinimaxState.CANCELLED
        self._fill_rows(result)
        return [*effects, Draw(Part.TABLE), Draw(Part.MINIMAX), Draw(Part.BARS), Draw(Part.DEPTHS)]

    def _fill_rows(self, minimax: TraceResult) -> None:
        """Minimax's row, and the others judged against it."""
        self._fill_row(minimax)
        for other in self.results.values():
            self._fill_row(other)

    # -- the keys ---------------------------------------------------------------------------------

    def offers(self, action: str) -> bool:
        """Whether minimax's key `action` (cancel, minimax_depth, minimax_full, rerun) does
        something now: the footer and the buttons show only those."""
        state = self.minimax_state
        run = self.minimax
        if action == "cancel":
            return state is MinimaxState.RUNNING
        if action == "minimax_depth":
            return (
                state is MinimaxState.TOO_BIG
                and run is not None
                and run.suggested_depth is not None
            )
        if action == "minimax_full":
            return state is MinimaxState.TOO_BIG
        if action == "rerun":
            return (
                state in (MinimaxState.CANCELLED, MinimaxState.FAILED) and not self.position.is_over
            )
        return True

    @property
    def progress_shown(self) -> bool:
        """Whether minimax's progress bar means something now."""
        return self.minimax_state in (MinimaxState.RUNNING, MinimaxState.DONE)

    def cancel(self) -> list[CompareEffect]:
        """Stop minimax; the others' rows stay."""
        tree = self.minimax_tree
        if self.minimax_state is not MinimaxState.RUNNING or tree is None:
            return []
        reached = self._last_progress
        positions = reached.nodes if reached is not None else 0
        seconds = reached.elapsed if reached is not None else 0.0
        stopped = TraceResult(
            "minimax",
            None,
            0,
            positions,
            0,
            0,
            seconds,
            self.minimax_depth,
            False,
            False,
            "cancelled",
        )
        self.minimax = MinimaxRun(stopped, tree, positions / max(seconds, 1e-6))
        self.minimax_state = MinimaxState.CANCELLED
        self._fill_rows(stopped)
        return [StopRun(), Draw(Part.TABLE), Draw(Part.MINIMAX)]

    def minimax_to_depth(self) -> list[CompareEffect]:
        """Run minimax to the deepest depth that fits the budget."""
        run = self.minimax
        if not self.offers("minimax_depth") or run is None or run.suggested_depth is None:
            return []
        slack = self.time_limit * SUGGESTED_SLACK
        return [RunSteps(self._steps(run.suggested_depth, slack, everything=False))]

    def minimax_full(self) -> list[CompareEffect]:
        """Run the full tree whatever its size (c cancels)."""
        if not self.offers("minimax_full"):
            return []
        return [RunSteps(self._steps(self.depth, math.inf, everything=False))]

    def rerun(self) -> list[CompareEffect]:
        """Run everything again (after a cancel or a failure)."""
        if not self.offers("rerun"):
            return []
        return self.start()

    def _say_over(self) -> list[CompareEffect]:
        """A finished game has nothing to search."""
        self.minimax_state = MinimaxState.FAILED
        board = self.position
        ended = "a draw" if board.winner is None else f"{board.winner} won"
        self.failure = f"The game is over ({ended}): there is no move to search. Escape goes back."
        for name in self.names:
            self._cells[name]["value"] = Cell("—")
        return [Draw(Part.MINIMAX), Draw(Part.TABLE)]

    # -- the table --------------------------------------------------------------------------------

    def _fill_row(self, result: TraceResult) -> None:
        """One algorithm's numbers in its row."""
        size = self.position.size
        reference = self.minimax.result if self.minimax is not None else None
        value = value_cell(result, self.position)
        move = Cell(
            "—" if not result.finished or result.move is None else cell_notation(result.move, size)
        )
        if result.finished:
            number, _, meaning = value.partition(" ")
            value_text = Cell(number, tail=f" {meaning}")
        else:
            # A bound, or why it stopped: fainter than a value.
            value_text = Cell(value, faint=True)
            bound = best_so_far(result)
            if bound is not None:
                move = Cell(cell_notation(bound.move, size), faint=True)
        self._cells[result.algorithm] = {
            "algorithm": Cell(result_name(result, titles=True)),
            "move": move,
            "value": value_text,
            "depth": Cell(depth_cell(result)),
            "positions": Cell(f"{result.positions:,}"),
            "cut-offs": Cell(f"{result.cutoffs:,}"),
            "1st cuts": Cell(first_cut_text(result)),
            "table hits": Cell(f"{result.table_hits:,}"),
            "time": Cell(time_text(result.seconds)),
            "moves": Cell(searched_words(result), faint=not result.finished),
            "agrees": Cell(agreement_words(verdict(result, reference), result)),
        }

    def columns(self) -> list[str]:
        """The table's columns now: "moves" only when some search left root moves out or
        stopped part way (elsewhere every search looks at every move, and the column would only
        repeat it)."""
        return [column for column in COLUMNS if column != "moves" or self._moves_matter()]

    def cell(self, name: str, column: str) -> Cell:
        """One cell of algorithm `name`'s row."""
        return self._cells[name][column]

    def _moves_matter(self) -> bool:
        """Whether some search left root moves out or stopped after only some of them."""
        shown = list(self.results.values())
        if self.minimax is not None:
            shown.append(self.minimax.result)
        return any(
            result.rule or (not result.finished and result.root_moves_done) for result in shown
        )

    # -- the words --------------------------------------------------------------------------------

    def title(self) -> str:
        """What is compared: the side to move, the position, how deep."""
        board = self.position
        depth = "to the end" if self.depth is None else f"to depth {self.depth} (H1 at the cut-off)"
        # The notation fits the line on small boards; bigger ones are named by the move number.
        moves = board.move_count
        plural = "" if moves == 1 else "s"
        where = str(board) if board.size <= 4 else f"the position after {moves} move{plural}"
        shape = f"{board.size}×{board.size}, {board.k} in a row"
        if board.is_over:
            # Nobody is to move on a finished board: say how it ended instead.
            ended = f"{board.winner} has won" if board.winner is not None else "a draw"
            return f"Compare the algorithms: the game is over on {where} ({shape}): {ended}"
        return (
            f"Compare the algorithms: {board.to_move} to move on {where} ({shape}), "
            f"searched {depth}"
        )

    def notes(self) -> str:
        """The lines under the table: the moves left out, and what the columns are."""
        note = left_out_note(list(self.results.values()), titles=True)
        failed = self.yours_failed
        fault = None if failed is None else f"Your evaluation failed: {failed.reason}"
        return "\n".join(filter(None, (fault, note, LEGEND)))

    def minimax_words(self) -> str:
        """Minimax's line: what it does or did, and what it offers."""
        state, run = self.minimax_state, self.minimax
        match state:
            case MinimaxState.WAITING:
                return "Minimax waits for the quicker searches…"
            case MinimaxState.RUNNING:
                tree = self.minimax_tree
                assert tree is not None
                where = (
                    "the full tree"
                    if self.minimax_depth is None
                    else f"the tree to depth {self.minimax_depth}"
                )
                return (
                    f"Minimax is searching {where}, every move at every node: "
                    f"{tree_words(tree)}. c cancels."
                )
            case MinimaxState.DONE:
                assert run is not None
                result = run.result
                where = "the whole tree" if result.depth is None else f"to depth {result.depth}"
                return (
                    f"Minimax searched {where}, full width: {result.positions:,} "
                    f"positions in {time_text(result.seconds)}. Its move and value are "
                    "the reference for the last column."
                )
            case MinimaxState.CANCELLED:
                assert run is not None
                return (
                    f"Minimax was cancelled after {run.result.positions:,} of "
                    f"{tree_words(run.tree)}. r runs it again."
                )
            case MinimaxState.TOO_BIG:
                assert run is not None
                return self._too_big_words(run)
            case MinimaxState.FAILED:
                return self.failure
            case _:
                assert_never(state)

    def _too_big_words(self, run: MinimaxRun) -> str:
        offer = (
            f"d: minimax to depth {run.suggested_depth}"
            if run.suggested_depth is not None
            else "Even depth 1 would not fit"
        )
        result = run.result
        stopped = (
            f"It stopped after {result.root_moves_done} of {result.root_moves} root "
            f"moves ({value_cell(result, self.position)}). "
            if result.root_moves_done
            else ""
        )
        return (
            f"{minimax_budget_words(run, self.time_limit)} {stopped}{offer}; "
            "f: the full tree anyway (c cancels)."
        )

    # -- the charts -------------------------------------------------------------------------------

    def bars(self) -> BarsChart | None:
        """The positions each search visited (minimax's tree while it runs)."""
        return bars_chart(self.results, self.minimax_tree)

    def depths(self) -> DepthsChart | None:
        """The best score by depth, with minimax's value once it has one."""
        return depths_chart(self.position, self.by_depth, self.results.get("minimax"))

    def game(self) -> GameChart | None:
        """The positions per computer move over the game."""
        numbers = [number for number, board in self.history if not board.is_over]
        return game_chart(numbers, self.costs)

    def _title(self, name: str) -> Cell:
        """A row's name before its search answers: the lab's title, or "yours: FILE"."""
        if name == YOURS and self.eval_file is not None:
            return Cell(guest_name(self.eval_file))
        return Cell(ALGORITHM_TITLES[name])
