"""The compare screen: every lab algorithm on the game's position, side by side, with charts.

The game screen pushes it with its position and the positions where the computer moved (key
`a`). The searches run in the app's worker process (a pure-Python search in a thread would
hold the GIL and slow every key), one after the other: the three alpha-betas and the two
heuristic searches (each row of the table fills as its result arrives), the same searches again
to 1, 2, … plies for the chart of the best score by depth, the cost of each earlier computer
move for the chart over the game, the size of minimax's tree, then plain minimax with a progress
bar. Cancelling, rerunning or leaving cancels the run, so no late answer arrives.

Every number says what it is: a value with its meaning ("0 draw", "+1 estimate"), a bound as a
bound ("≥ −3 so far", fainter), the depth searched, the share of cut-offs the first move tried
made (how good the move ordering is), and how many root moves each search looked at: minimax is
full width, the others keep to the cells near the stones on big boards, and a note says so.

Minimax runs under `LAB_TIME_LIMIT`. When its speed shows the tree will not fit, it stops and
the screen says how big the tree is and how long it would take, what the root moves it finished
prove, and offers minimax to the deepest depth that fits (`d`) or the full tree anyway (`f`,
cancellable with `c`). Once minimax has a value, the last column says whether each algorithm's
move and value agree with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, ProgressBar, Static
from textual_plotext import PlotextPlot

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import Game, IterationInfo, Progress
from tictactoe_tui.engine.lab.compare import (
    LAB_TIME_LIMIT,
    SUGGESTED_SLACK,
    GameCost,
    MinimaxRun,
    best_so_far,
    default_depth,
    game_costs,
    run_lab_search,
    run_minimax,
    score_by_depth,
    size_tree,
    verdict,
)
from tictactoe_tui.engine.lab.trace import HEURISTIC_DEPTH, LAB_ALGORITHMS, TraceResult, TreeSize
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.lab import (
    ALGORITHM_TITLES,
    agreement_words,
    depth_cell,
    duration,
    left_out_note,
    minimax_budget_words,
    tree_words,
    value_cell,
)
from tictactoe_tui.text.scores import first_cut_text, searched_words
from tictactoe_tui.ui.charts import Colours, label_colours
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.screens.compare_charts import draw_bars, draw_depths, draw_game
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed

QUICK_ALGORITHMS = tuple(name for name in LAB_ALGORITHMS if name != "minimax")
"""The searches that run before minimax (each takes milliseconds on 3×3); they also deepen,
depth by depth, for the chart of the best score by depth."""

NEEDED_TERMINAL = (96, 24)
"""The smallest (width, height) that shows the whole table and the charts."""

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


class CompareScreen(Screen[None]):
    """Minimax, three alpha-betas and two heuristic searches on one position, with charts."""

    DEFAULT_CSS = """
    CompareScreen { layout: vertical; }
    CompareScreen #compare-body { height: 1fr; }
    CompareScreen.-too-small #compare-body { display: none; }
    CompareScreen #compare-title { height: auto; padding: 0 1; background: $boost; }
    CompareScreen #compare-table { height: auto; max-height: 10; }
    CompareScreen #compare-notes { height: auto; padding: 0 1; color: $text-muted; }
    CompareScreen #minimax-row { height: auto; padding: 0 1; }
    CompareScreen #minimax-status { height: auto; }
    CompareScreen #minimax-controls { height: 1; }
    CompareScreen #minimax-progress { width: 1fr; height: 1; }
    CompareScreen #minimax-controls Button { margin-left: 1; min-width: 0; width: auto; }
    CompareScreen #compare-charts { height: 1fr; min-height: 10; }
    CompareScreen PlotextPlot { width: 1fr; height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("c", "cancel", "Cancel minimax"),
        Binding("d", "minimax_depth", "Minimax to a depth"),
        Binding("f", "minimax_full", "Full tree anyway"),
        Binding("r", "rerun", "Run again"),
    ]

    def __init__(
        self,
        position: Position,
        history: Sequence[tuple[int, Position]] = (),
        time_limit: float = LAB_TIME_LIMIT,
        depth: int | Literal["default"] | None = "default",
    ) -> None:
        """Compare on `position`; `history` lists (move number, position before it) to chart.

        `depth` is how deep every search goes: None to the end of the game; by default, to the
        end on positions with few empty cells and `BIG_POSITION_DEPTH` plies on the others.
        """
        super().__init__()
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
        self.minimax_state = "waiting"
        """"waiting", "running", "done", "cancelled", "too big" or "failed"."""
        self._cells: dict[str, dict[str, str | Text]] = {}
        self._last_progress: Progress | None = None
        self._minimax_depth: int | None = None

    @classmethod
    def for_game(cls, game: Game, settings: GameSettings) -> CompareScreen:
        """The screen for a game's current position, charting the computer's moves so far.

        Between two people no move is the computer's, so every move is charted instead.
        """
        board = Position.empty(game.size, game.k, game.first)
        history = []
        has_computer = settings.mode != "human-vs-human"
        for number, move in enumerate(game.moves, start=1):
            if not has_computer or settings.is_computer(board.to_move):
                history.append((number, board))
            board = board.play(move)
        if not board.is_over:
            history.append((len(game.moves) + 1, board))
        return cls(game.board, history)

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Title, the table and its notes, minimax's status line, three charts side by side."""
        with Vertical(id="compare-body"):
            yield Static("", id="compare-title", markup=False)
            yield DataTable(
                id="compare-table", cursor_type="row", zebra_stripes=True, header_height=2
            )
            yield Static("", id="compare-notes", markup=False)
            with Vertical(id="minimax-row"):
                yield Static("", id="minimax-status", markup=False)
                with Horizontal(id="minimax-controls"):
                    yield ProgressBar(id="minimax-progress", show_eta=False)
                    yield Button("Cancel", id="minimax-cancel", compact=True)
                    yield Button("To a depth", id="minimax-depth", compact=True)
                    yield Button("Full tree", id="minimax-full", compact=True)
                    yield Button("Run again", id="minimax-rerun", compact=True)
                    yield Button("Back", id="close", compact=True)
            with Horizontal(id="compare-charts"):
                yield PlotextPlot(id="compare-chart")
                yield PlotextPlot(id="depth-chart")
                yield PlotextPlot(id="game-chart")
        yield TooSmall(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        """Lay out the table and start the searches."""
        for name in LAB_ALGORITHMS:
            self._cells[name] = {column: "…" for column in COLUMNS}
            self._cells[name]["algorithm"] = ALGORITHM_TITLES[name]
        self._show_table()
        board = self.position
        depth = "to the end" if self.depth is None else f"to depth {self.depth} (H1 at the cut-off)"
        # The notation fits the line on small boards; bigger ones are named by the move number.
        where = str(board) if board.size <= 4 else f"the position after {board.move_count} moves"
        self.query_one("#compare-title", Static).update(
            f"Compare the algorithms: {board.to_move} to move on {where} "
            f"({board.size}×{board.size}, {board.k} in a row), searched {depth}"
        )
        self._refresh_notes()
        self.query_one("#compare-table", DataTable).focus()
        self.on_resize()
        self._start()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """Swap the screen for an "enlarge the terminal" notice when it does not fit."""
        self.query_one(TooSmall).fit(NEEDED_TERMINAL, "the comparison")

    # -- running the searches -------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while answers are awaited (the tests and the screenshot script wait on it)."""
        return any(
            worker.node is self and worker.group == "lab" and worker.is_running
            for worker in self.workers
        )

    def _start(self) -> None:
        if self.position.is_over:
            self._say_over()
            return
        self.results.clear()
        self.by_depth.clear()
        self.minimax = None
        self.minimax_state = "waiting"
        self._refresh_minimax()
        self._run_lab(self.depth, self.time_limit, everything=True)

    @work(exclusive=True, group="lab", exit_on_error=False)
    async def _run_lab(self, depth: int | None, time_limit: float, everything: bool) -> None:
        """Run the lab's jobs in the worker, one at a time, showing each answer as it comes:
        with `everything`, the quick searches, their scores by depth and the game's costs
        first, then minimax. A newer run (or leaving the screen) cancels it."""
        thinker = app_thinker(self)
        try:
            if everything:
                for name in QUICK_ALGORITHMS:
                    result = await thinker.run(
                        run_lab_search,
                        self.position,
                        name,
                        self.depth,
                        HEURISTIC_DEPTH,
                        self.time_limit,
                    )
                    self.results[result.algorithm] = result
                    self._fill_row(result)
                    self._draw_bars()
                self._refresh_notes()
                for name in QUICK_ALGORITHMS:
                    self.by_depth[name] = await thinker.run(
                        score_by_depth,
                        self.position,
                        name,
                        self.depth,
                        HEURISTIC_DEPTH,
                        self.time_limit,
                    )
                    self._draw_depths()
                boards = [board for _, board in self.history]
                self.costs = await thinker.run(game_costs, boards, None, self.time_limit)
                self._draw_game()
            self._minimax_depth = depth
            tree = await thinker.run(size_tree, self.position, depth)
            self._minimax_sized(tree, depth)
            run = await thinker.run(
                run_minimax, self.position, depth, time_limit, on_progress=self._minimax_progress
            )
        except JobFailed as error:
            self.minimax_state = "failed"
            self.query_one("#minimax-status", Static).update(f"The search failed: {error}")
            self._refresh_buttons()
            return
        self._minimax_done(run)

    def _minimax_sized(self, tree: TreeSize, depth: int | None) -> None:
        """Minimax starts: show its tree's size and an empty progress bar."""
        self.minimax_tree = tree
        self._last_progress = None
        self.minimax_state = "running"
        self.query_one("#minimax-progress", ProgressBar).update(total=tree.positions, progress=0)
        self._refresh_minimax(depth)
        self._draw_bars()

    def _minimax_progress(self, progress: Progress) -> None:
        """Move the progress bar."""
        if self.minimax_state == "running":
            self._last_progress = progress
            self.query_one("#minimax-progress", ProgressBar).update(progress=progress.nodes)

    def _minimax_done(self, run: MinimaxRun) -> None:
        """Minimax ended: fill its row, judge the others, say how it went."""
        self.minimax = run
        result = run.result
        if run.too_big:
            self.minimax_state = "too big"
        elif result.finished:
            self.minimax_state = "done"
            self.results["minimax"] = result
            self.query_one("#minimax-progress", ProgressBar).update(
                total=result.positions, progress=result.positions
            )
        else:
            self.minimax_state = "cancelled"
        self._fill_row(result, show=False)
        for other in self.results.values():
            self._fill_row(other, show=False)
        self._show_table()
        self._refresh_minimax()
        self._draw_bars()
        self._draw_depths()

    # -- drawing --------------------------------------------------------------------------------

    def _fill_row(self, result: TraceResult, show: bool = True) -> None:
        """Write one algorithm's numbers into its row (`show`: redraw the table now)."""
        size = self.position.size
        reference = self.minimax.result if self.minimax is not None else None
        value = value_cell(result, self.position)
        move: str | Text = (
            "—" if not result.finished or result.move is None else cell_notation(result.move, size)
        )
        if result.finished:
            number, _, meaning = value.partition(" ")
            value_text = Text.assemble(number, (f" {meaning}", "dim"))
        else:
            # A bound, or why it stopped: fainter than a value.
            value_text = Text(value, style="dim")
            bound = best_so_far(result)
            if bound is not None:
                move = Text(cell_notation(bound.move, size), style="dim")
        self._cells[result.algorithm] = {
            "algorithm": ALGORITHM_TITLES[result.algorithm],
            "move": move,
            "value": value_text,
            "depth": depth_cell(result),
            "positions": f"{result.positions:,}",
            "cut-offs": f"{result.cutoffs:,}",
            "1st cuts": first_cut_text(result),
            "table hits": f"{result.table_hits:,}",
            "time": time_text(result.seconds),
            "moves": (
                searched_words(result)
                if result.finished
                else Text(searched_words(result), style="dim", justify="right")
            ),
            "agrees": agreement_words(verdict(result, reference), result),
        }
        if show:
            self._show_table()

    def _show_table(self) -> None:
        """Draw the table from the cells, every column as wide as its widest cell.

        The "moves" column shows only when a search left root moves out or stopped part way
        (elsewhere every search looks at every move, and the column would only repeat it).

        The widths are set here rather than left to the DataTable: in Textual 8.2.8 it widens a
        column for an updated cell only when it next goes idle, and a row drawn in between stays
        in its render cache at the old width until the next update (Textual issue #3533), so a
        picture could show "reference" cut to "refere". A table built with its final widths has
        nothing to catch up on.
        """
        table = self.query_one("#compare-table", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        columns = [column for column in COLUMNS if column != "moves" or self._moves_matter()]
        for column in columns:
            header = HEADERS.get(column, column)
            texts = [str(self._cells[name][column]) for name in LAB_ALGORITHMS]
            width = max(cell_len(line) for text in (header, *texts) for line in text.split("\n"))
            table.add_column(
                Text(header, justify="right" if column in RIGHT else "left"),
                key=column,
                width=width,
            )
        for name in LAB_ALGORITHMS:
            table.add_row(*(self._cell(name, column) for column in columns), key=name)
        table.move_cursor(row=row, animate=False)

    def _cell(self, name: str, column: str) -> Text:
        """One cell, styled: numbers aligned right."""
        cell = self._cells[name][column]
        if isinstance(cell, Text):
            return cell
        return Text(cell, justify="right" if column in RIGHT else "left")

    def _moves_matter(self) -> bool:
        """Whether some search left root moves out or stopped after only some of them."""
        shown = list(self.results.values())
        if self.minimax is not None:
            shown.append(self.minimax.result)
        return any(
            result.rule or (not result.finished and result.root_moves_done) for result in shown
        )

    def _refresh_notes(self) -> None:
        """The lines under the table: the moves left out, and what the columns are."""
        note = left_out_note(list(self.results.values()), titles=True)
        self.query_one("#compare-notes", Static).update("\n".join(filter(None, (note, LEGEND))))

    def _refresh_minimax(self, depth: int | None = None) -> None:
        """Minimax's status line and the buttons that fit its state."""
        status = self.query_one("#minimax-status", Static)
        state = self.minimax_state
        run = self.minimax
        if state == "waiting":
            status.update("Minimax waits for the quicker searches…")
        elif state == "running" and self.minimax_tree is not None:
            where = "the full tree" if depth is None else f"the tree to depth {depth}"
            status.update(
                f"Minimax is searching {where}, every move at every node: "
                f"{tree_words(self.minimax_tree)}. c cancels."
            )
        elif state == "done" and run is not None:
            result = run.result
            where = "the whole tree" if result.depth is None else f"to depth {result.depth}"
            status.update(
                f"Minimax searched {where}, full width: {result.positions:,} "
                f"positions in {time_text(result.seconds)}. Its move and value are "
                "the reference for the last column."
            )
        elif state == "cancelled" and run is not None:
            status.update(
                f"Minimax was cancelled after {run.result.positions:,} of "
                f"{tree_words(run.tree)}. r runs it again."
            )
        elif state == "too big" and run is not None:
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
            status.update(
                f"{minimax_budget_words(run, self.time_limit)} {stopped}{offer}; "
                "f: the full tree anyway (c cancels)."
            )
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        """Show only the buttons that do something now."""
        state = self.minimax_state
        run = self.minimax
        shown = {
            "minimax-cancel": state == "running",
            "minimax-depth": state == "too big"
            and run is not None
            and run.suggested_depth is not None,
            "minimax-full": state == "too big",
            "minimax-rerun": state in ("cancelled", "failed"),
        }
        for button, visible in shown.items():
            self.query_one(f"#{button}", Button).display = visible
        self.query_one("#minimax-progress", ProgressBar).display = state in ("running", "done")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer in the footer only the minimax keys that do something now."""
        state = self.minimax_state
        if action == "cancel":
            return state == "running"
        if action == "minimax_depth":
            return (
                state == "too big"
                and self.minimax is not None
                and (self.minimax.suggested_depth is not None)
            )
        if action == "minimax_full":
            return state == "too big"
        if action == "rerun":
            return state in ("cancelled", "failed")
        return True

    def _say_over(self) -> None:
        """A finished game has nothing to search."""
        self.minimax_state = "failed"
        board = self.position
        ended = "a draw" if board.winner is None else f"{board.winner} won"
        self.query_one("#minimax-status", Static).update(
            f"The game is over ({ended}): there is no move to search. Escape goes back."
        )
        for name in LAB_ALGORITHMS:
            self._cells[name]["value"] = "—"
        self._show_table()
        self._refresh_buttons()
        self.query_one("#minimax-rerun", Button).display = False

    def _draw_bars(self) -> None:
        draw_bars(
            self.query_one("#compare-chart", PlotextPlot),
            self.results,
            self.minimax_tree,
            self._colours(),
        )

    def _draw_depths(self) -> None:
        draw_depths(
            self.query_one("#depth-chart", PlotextPlot),
            self.position,
            self.by_depth,
            self.results.get("minimax"),
            self._colours(),
        )

    def _draw_game(self) -> None:
        numbers = [number for number, board in self.history if not board.is_over]
        draw_game(self.query_one("#game-chart", PlotextPlot), numbers, self.costs, self._colours())

    def _colours(self) -> Colours:
        return label_colours(self.app.theme_variables)

    # -- keys and buttons -----------------------------------------------------------------------

    def action_close(self) -> None:
        """Back to the game (whatever runs is stopped when the screen goes)."""
        self.dismiss()

    def action_cancel(self) -> None:
        """Stop minimax; the others' rows stay."""
        if self.minimax_state != "running" or self.minimax_tree is None:
            return
        self.workers.cancel_group(self, "lab")
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
            self._minimax_depth,
            False,
            False,
            "cancelled",
        )
        self.minimax = MinimaxRun(stopped, self.minimax_tree, positions / max(seconds, 1e-6))
        self.minimax_state = "cancelled"
        self._fill_row(stopped, show=False)
        for other in self.results.values():
            self._fill_row(other, show=False)
        self._show_table()
        self._refresh_minimax()

    def action_minimax_depth(self) -> None:
        """Run minimax to the deepest depth that fits the budget."""
        run = self.minimax
        if self.minimax_state != "too big" or run is None or run.suggested_depth is None:
            return
        self._run_lab(run.suggested_depth, self.time_limit * SUGGESTED_SLACK, everything=False)

    def action_minimax_full(self) -> None:
        """Run the full tree whatever its size (c cancels)."""
        if self.minimax_state != "too big":
            return
        self._run_lab(self.depth, math.inf, everything=False)

    def action_rerun(self) -> None:
        """Run everything again."""
        if self.minimax_state in ("cancelled", "failed") and not self.position.is_over:
            self._start()

    @on(Button.Pressed)
    def on_button(self, event: Button.Pressed) -> None:
        """Every button does what its key does."""
        actions = {
            "minimax-cancel": self.action_cancel,
            "minimax-depth": self.action_minimax_depth,
            "minimax-full": self.action_minimax_full,
            "minimax-rerun": self.action_rerun,
            "close": self.action_close,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
