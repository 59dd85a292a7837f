"""The rules of the compare screen (key `a`), without Textual: which searches run and in what
order, what each row of the table says, minimax's state and what it offers, and what the charts
show.

The Compare screen hands every key and every answer of the worker to a `CompareController` and
carries out the effects it returns: run a list of jobs one after the other (`RunSteps`: each
answer goes back through `answered` as it comes, so each row fills as its search ends), stop
them, redraw one part. It draws the table from `columns` and `cell`, minimax's line from
`minimax_words`, and the charts from `play.compare_charts`. The controller holds the run's state
and its words; the jobs of a run and the effects are `compare_runs`'s, the table's rows
`compare_table`'s (their names importable from here too).

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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, assert_never

from tictactoe_tui.engine import Board, Game, IterationInfo, Progress
from tictactoe_tui.engine.lab.compare import (
    LAB_TIME_LIMIT,
    SUGGESTED_SLACK,
    GameCost,
    MinimaxRun,
    YoursFailed,
    default_depth,
)
from tictactoe_tui.engine.lab.trace import LAB_ALGORITHMS, YOURS, TraceResult, TreeSize
from tictactoe_tui.engine.players.guest import DEFAULT_TIME
from tictactoe_tui.play.compare_charts import (
    BarsChart,
    DepthsChart,
    GameChart,
    bars_chart,
    depths_chart,
    game_chart,
)
from tictactoe_tui.play.compare_runs import (
    QUICK_ALGORITHMS,
    CompareEffect,
    Draw,
    LabStep,
    MinimaxState,
    Part,
    RunPlan,
    RunSteps,
    StepKind,
    StopRun,
)
from tictactoe_tui.play.compare_table import COLUMNS, HEADERS, LEGEND, RIGHT, Cell, CompareTable
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.text.lab import (
    duration,
    left_out_note,
    minimax_budget_words,
    tree_words,
    value_cell,
)

__all__ = [
    "COLUMNS",
    "HEADERS",
    "LEGEND",
    "QUICK_ALGORITHMS",
    "RIGHT",
    "Cell",
    "CompareController",
    "CompareEffect",
    "Draw",
    "LabStep",
    "MinimaxState",
    "Part",
    "RunSteps",
    "StepKind",
    "StopRun",
    "game_history",
    "time_text",
]


def time_text(seconds: float) -> str:
    """A search time in the table (the snapshot tests replace it: it varies between runs)."""
    return duration(seconds)


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
        self.table = CompareTable(self.names, self.eval_file)
        """The table's rows, as the searches answer."""

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
        """The jobs of a run (`RunPlan.steps`): minimax to `depth` within `time_limit`, after
        the quick searches, their scores by depth and the game's costs with `everything`."""
        plan = RunPlan(
            self.position, self.history, self.depth, self.time_limit, self.eval_file, self.eval_time
        )
        return plan.steps(depth, time_limit, everything)

    def answered(self, step: LabStep, answer: Any) -> list[CompareEffect]:
        """One job of the run answered: keep it, and say what to draw again."""
        match step.kind:
            case StepKind.QUICK:
                effects: list[CompareEffect] = [Draw(Part.TABLE), Draw(Part.BARS)]
                if isinstance(answer, YoursFailed):
                    self.yours_failed = answer
                    self.table.blank(YOURS)
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
        self.table.no_values()
        return [Draw(Part.MINIMAX), Draw(Part.TABLE)]

    # -- the table --------------------------------------------------------------------------------

    def _fill_row(self, result: TraceResult) -> None:
        """One algorithm's numbers in its row."""
        reference = self.minimax.result if self.minimax is not None else None
        self.table.fill(result, self.position, reference, time_text)

    def columns(self) -> list[str]:
        """The table's columns now: "moves" only when some search left root moves out or
        stopped part way (elsewhere every search looks at every move, and the column would only
        repeat it)."""
        shown = list(self.results.values())
        if self.minimax is not None:
            shown.append(self.minimax.result)
        return self.table.columns(shown)

    def cell(self, name: str, column: str) -> Cell:
        """One cell of algorithm `name`'s row."""
        return self.table.cell(name, column)

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
