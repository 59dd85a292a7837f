"""The Heuristic lab: how H1 and H2 rank every move of the current position, line by line.

Flow: the screen gets the game's position and the alpha-beta time budget. On mount it asks the
engine for H1's and H2's terms after every legal move (`candidate_terms`) and sends alpha-beta on
the position to the app's worker (the worker process on boards above 3×3, where it searches for
its whole budget; a thread on 3×3, where it takes milliseconds); leaving the screen stops it. The
table ranks the moves by H1 under the weights shown on the left; editing a weight (type it, or the
− / + buttons) re-ranks at once, because the terms are kept and only re-weighted. Selecting a move
(the table's cursor, a click on the board, or the board's cursor and Enter) lists every line of the
board after that move with its share of H1 and H2 (`explain_lines`). The picks line says which move
each heuristic player would choose (`heuristic_pick`: win, block, best score) and whether alpha-
beta agrees, once its analysis is in.

Alpha-beta's column says what each number is, as the game's panel does (`text.lab.
alphabeta_cell`: "~41 estimate, depth 8", "≤ -38 loss in ≤ 12, depth 6", "-40 loss in 10"). When
the game hands over its panel's analysis of this very position, the lab shows that one (the
same numbers as the panel and the board); otherwise it runs the panel's search itself and says
so, since a search of its own may reach another depth.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Static

from tictactoe_tui.engine import Algorithm, Analysis, Mark
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.evaluation.heuristics import (
    LineTerm,
    candidate_terms,
    explain_lines,
    h1_weights,
    rank_moves,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.lab import HEURISTIC_WORDS, alphabeta_cell, alphabeta_source_words
from tictactoe_tui.text.report import move_words
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed
from tictactoe_tui.worker.jobs import clever_analysis

TABLES_WIDTH = 50
"""Columns the picks, the ranking and the lines need beside the board."""
TABLES_HEIGHT = 22
"""Rows the picks, the ranking and the lines need, at the least."""

RULE_WORDS = {"win": "wins at once", "block": "blocks a win", "score": "best score"}
"""How the picks line names the rule behind a heuristic's choice."""


class HeuristicScreen(Screen[None]):
    """Every move's H1 and H2, their terms line by line, editable H1 weights, and the picks."""

    DEFAULT_CSS = """
    HeuristicScreen #lab-main { height: 1fr; }
    HeuristicScreen.-too-small #lab-main { display: none; }
    HeuristicScreen #lab-left { height: 1fr; padding: 0 1; }
    HeuristicScreen #lab-right { width: 1fr; height: 1fr; padding-right: 1; }
    HeuristicScreen #lab-weights { height: auto; border: round $primary 50%; padding: 0 1; }
    HeuristicScreen .weight-row { height: 1; }
    HeuristicScreen .weight-row Label { width: 15; color: $text-muted; }
    HeuristicScreen .weight-row Input { width: 6; }
    HeuristicScreen .weight-row Button { min-width: 3; margin-left: 1; }
    HeuristicScreen #weights-reset { margin-top: 1; }
    HeuristicScreen #weights-error { color: $text-error; height: auto; }
    HeuristicScreen #lab-picks { height: auto; color: $text; margin-bottom: 1; }
    HeuristicScreen #heuristic-table { height: 1fr; }
    HeuristicScreen #lab-terms { height: auto; color: $text-muted; margin-top: 1; }
    HeuristicScreen #heuristic-lines { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+r", "reset_weights", "Reset weights"),
    ]

    def __init__(
        self,
        position: Position,
        time_limit: float | None = None,
        *,
        analysis: Analysis | None = None,
        depth: int | None = None,
    ) -> None:
        """Study `position` (the side to move's choices). `analysis` is the game panel's
        alpha-beta analysis of it, if there is one; else the lab runs the panel's search itself:
        `time_limit` seconds (None: solved exactly, as on 3×3), `depth` plies (None: automatic).
        """
        super().__init__()
        self.position = position
        """The position whose moves are ranked."""
        self.time_limit = time_limit
        """Alpha-beta's budget for the comparison."""
        self.candidates = candidate_terms(position)
        """The engine's H1/H2 terms after each legal move."""
        self.weights = h1_weights(position.k)
        """H1's weights now, for n = 1 .. k-1 marks in an open line."""
        self.ranking = (
            rank_moves(position, self.candidates, self.weights) if self.candidates else None
        )
        """The moves ranked under `weights`; None when the game is over."""
        self.selected: int | None = self.ranking.order[0] if self.ranking else None
        """The move whose lines are listed."""
        self.from_panel = analysis is not None and analysis.algorithm == Algorithm.ALPHABETA
        """Whether alpha-beta's column is the game panel's analysis (else the lab's own)."""
        self.alphabeta: Analysis | None = analysis if self.from_panel else None
        """Alpha-beta's analysis, once it is in."""
        self.depth = depth
        """The depth of the lab's own search, as the game's settings give it."""
        self._failed = False

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The board and the weights on the left; the picks, the ranking and the lines."""
        yield Header()
        yield TooSmall(id="too-small")
        with Horizontal(id="lab-main"):
            left = VerticalScroll(id="lab-left", can_focus=False)
            # As wide as the board (plus the padding): the tables take the rest.
            left.styles.width = board_size_on_screen(self.position.size)[0] + 2
            with left:
                yield Board(self.position.size, id="heuristic-board")
                weights = Vertical(id="lab-weights")
                weights.border_title = "H1 weights"
                mover, them = self.position.to_move, self.position.to_move.opponent
                with weights:
                    for n in range(self.position.k - 1, 0, -1):
                        yield Horizontal(
                            Label(f"n = {n} ({mover}{n}, {them}{n})"),
                            Input(
                                str(self.weights[n - 1]),
                                restrict=r"-?\d*",
                                compact=True,
                                id=f"weight-{n}",
                                classes="weight",
                            ),
                            _step_button("−", n, "down"),
                            _step_button("+", n, "up"),
                            classes="weight-row",
                        )
                    yield Static("", id="weights-error", markup=False)
                    yield Button("Reset to 3^(n−1)", compact=True, id="weights-reset")
            with Vertical(id="lab-right"):
                yield Static("", id="lab-picks", markup=False)
                yield DataTable(id="heuristic-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="lab-terms", markup=False)
                yield DataTable(id="heuristic-lines", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        """Fill the tables, and start alpha-beta for the comparison."""
        mover = self.position.to_move
        self.sub_title = (
            f"heuristic lab: {mover} to move on "
            f"{self.position.size}×{self.position.size}, {self.position.k} in a row"
        )
        table = self.query_one("#heuristic-table", DataTable)
        table.add_columns("rank", "cell", "H1", "H2", "alpha-beta", "picked by")
        lines = self.query_one("#heuristic-lines", DataTable)
        lines.add_columns("line", "marks", "counted as", "H1", "H2")
        board = self.query_one("#heuristic-board", Board)
        board.interactive = self.ranking is not None
        if self.selected is not None:
            board.cursor = self.selected
        self.query_one("#weights-error", Static).display = False
        self._refresh()
        table.focus()
        self.on_resize()
        if self.ranking is not None and self.alphabeta is None:
            self._analyse()

    def on_resize(self, event: events.Resize | None = None) -> None:
        """Swap the screen for an "enlarge the terminal" notice when it does not fit."""
        board_width, board_height = board_size_on_screen(self.position.size)
        # The board with the weights under it on the left, the tables at least TABLES_WIDTH wide.
        need = (
            board_width + 2 + TABLES_WIDTH,
            max(board_height + self.position.k + 4, TABLES_HEIGHT) + 2,
        )
        self.query_one(TooSmall).fit(need, "the heuristic lab")

    @property
    def busy(self) -> bool:
        """True while alpha-beta's analysis is awaited (the screenshot script waits on it)."""
        return self.ranking is not None and self.alphabeta is None and not self._failed

    # -- alpha-beta -----------------------------------------------------------------------------

    @work(exclusive=True, group="alphabeta", exit_on_error=False)
    async def _analyse(self) -> None:
        """Alpha-beta's score for every move, searched as the game's panel searches (the same
        job, budget and depth), in the worker (in a thread on 3×3); leaving the screen cancels
        it."""
        position = self.position
        try:
            self.alphabeta = await app_thinker(self).run(
                clever_analysis,
                position,
                Algorithm.ALPHABETA,
                self.time_limit,
                self.depth,
                in_process=position.size == 3,
            )
        except JobFailed as error:
            # The heuristics stand on their own: say that alpha-beta failed.
            self._failed = True
            self.query_one("#lab-picks", Static).update(
                self._picks_text() + f"\nAlpha-beta failed: {error}"
            )
            return
        self._refresh()

    def alphabeta_best(self) -> tuple[int, ...]:
        """Alpha-beta's best moves (those known to be equally good, as the panel counts them),
        empty until its analysis is in."""
        analysis = self.alphabeta
        if analysis is None or not analysis.scores:
            return ()
        return tuple(sorted(analysis.best_moves))

    # -- the weights ----------------------------------------------------------------------------

    @on(Input.Changed, ".weight")
    def _weight_typed(self, event: Input.Changed) -> None:
        """Re-rank at once with the typed weight; a box that is not a number is named."""
        values = []
        for n in range(1, self.position.k):
            text = self.query_one(f"#weight-{n}", Input).value.strip()
            try:
                values.append(int(text))
            except ValueError:
                self._weights_problem(f"The weight of {n} in a line must be a whole number.")
                return
        self._weights_problem("")
        self.set_weights(tuple(values))

    @on(Button.Pressed, ".weight-step")
    def _step(self, event: Button.Pressed) -> None:
        """− / + move one weight by 1."""
        n = int(event.button.name or "1")
        box = self.query_one(f"#weight-{n}", Input)
        delta = 1 if event.button.has_class("-up") else -1
        try:
            box.value = str(int(box.value) + delta)
        except ValueError:
            box.value = str(self.weights[n - 1])

    @on(Button.Pressed, "#weights-reset")
    def action_reset_weights(self) -> None:
        """Back to H1's usual weights, 3^(n-1)."""
        for n, weight in enumerate(h1_weights(self.position.k), start=1):
            self.query_one(f"#weight-{n}", Input).value = str(weight)

    def set_weights(self, weights: tuple[int, ...]) -> None:
        """Rank the moves again under `weights` and redraw."""
        self.weights = weights
        if self.candidates:
            self.ranking = rank_moves(self.position, self.candidates, weights)
        self._refresh()

    def _weights_problem(self, problem: str) -> None:
        error = self.query_one("#weights-error", Static)
        error.update(problem)
        error.display = bool(problem)

    # -- choosing the move to explain -----------------------------------------------------------

    @on(DataTable.RowHighlighted, "#heuristic-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The table's cursor picks the move whose lines are listed."""
        move = int(event.row_key.value or 0)
        if move != self.selected:
            self.selected = move
            self.query_one("#heuristic-board", Board).cursor = move
            self._refresh_detail()

    @on(Board.CellChosen, "#heuristic-board")
    def _cell_chosen(self, event: Board.CellChosen) -> None:
        """A click (or Enter) on an empty cell explains that move."""
        if self.ranking is None or event.cell not in self.ranking.h1:
            cell = cell_notation(event.cell, self.position.size)
            self.notify(f"{cell} is taken: pick an empty cell.", timeout=3)
            return
        self.select(event.cell)

    def select(self, move: int) -> None:
        """Explain `move`: move the table's cursor to it and list its lines."""
        self.selected = move
        table = self.query_one("#heuristic-table", DataTable)
        table.move_cursor(row=table.get_row_index(str(move)))
        self._refresh_detail()

    def action_back(self) -> None:
        """Back to the game."""
        self.dismiss()

    # -- drawing --------------------------------------------------------------------------------

    def _refresh(self) -> None:
        self._fill_ranking()
        self.query_one("#lab-picks", Static).update(self._picks_text())
        self._refresh_detail()

    def _refresh_detail(self) -> None:
        self._fill_lines()
        self._draw_board()

    def _cell_named(self, move: int) -> str:
        return cell_notation(move, self.position.size)

    def _cells_named(self, moves: tuple[int, ...], most: int = 6) -> str:
        """The cells' names, the first `most` of them when there are many."""
        names = ", ".join(self._cell_named(m) for m in moves[:most])
        return names + (f" and {len(moves) - most} more" if len(moves) > most else "")

    def _picks_text(self) -> str:
        ranking = self.ranking
        if ranking is None:
            return "The game is over: there is no move to rank."
        lines = []
        best = self.alphabeta_best()
        for name, pick in (("H1", ranking.h1_pick), ("H2", ranking.h2_pick)):
            rule = RULE_WORDS[pick.rule] + (f" {pick.score}" if pick.rule == "score" else "")
            choice = self._cells_named(pick.moves)
            tie = (
                f" ({len(pick.moves)} moves tie: it picks one at random)"
                if len(pick.moves) > 1
                else ""
            )
            verdict = ""
            if best:
                agree = set(pick.moves) & set(best)
                verdict = (
                    "; alpha-beta agrees"
                    if agree == set(pick.moves)
                    else "; alpha-beta agrees with some"
                    if agree
                    else "; alpha-beta disagrees"
                )
            lines.append(f"{name} plays {choice} ({rule}){tie}{verdict}")
        if self.alphabeta is None:
            lines.append("Alpha-beta is thinking…")
        elif best:
            top = self.alphabeta.scores[0]
            words = move_words(top, self.position)
            lines.append(f"Alpha-beta plays {self._cells_named(best)} ({words})")
            lines.append(
                alphabeta_source_words(
                    self.alphabeta,
                    self.position,
                    from_panel=self.from_panel,
                    time_limit=self.time_limit,
                )
            )
        lines.append(HEURISTIC_WORDS)
        return "\n".join(lines)

    def _fill_ranking(self) -> None:
        table = self.query_one("#heuristic-table", DataTable)
        table.clear()
        ranking = self.ranking
        if ranking is None:
            return
        scores = {s.move: s for s in self.alphabeta.scores} if self.alphabeta else {}
        root_depth = self.alphabeta.depth if self.alphabeta else 0
        best = set(self.alphabeta_best())
        rank_of = 0
        previous: int | None = None
        for index, move in enumerate(ranking.order):
            if ranking.h1[move] != previous:
                rank_of, previous = index + 1, ranking.h1[move]
            pickers = [
                name
                for name, moves in (
                    ("H1", ranking.h1_pick.moves),
                    ("H2", ranking.h2_pick.moves),
                    ("αβ", tuple(best)),
                )
                if move in moves
            ]
            scored = scores.get(move)
            table.add_row(
                rank_of,
                self._cell_named(move),
                ranking.h1[move],
                ranking.h2[move],
                "…" if scored is None else alphabeta_cell(scored, self.position, root_depth),
                " ".join(pickers),
                key=str(move),
            )
        if self.selected is not None:
            table.move_cursor(row=table.get_row_index(str(self.selected)), animate=False)

    def _fill_lines(self) -> None:
        table = self.query_one("#heuristic-lines", DataTable)
        table.clear()
        terms = self.query_one("#lab-terms", Static)
        move = self.selected
        if self.ranking is None or move is None:
            terms.update("")
            return
        candidate = next(c for c in self.candidates if c.move == move)
        mover = self.position.to_move
        lines = explain_lines(candidate.after, mover, self.weights)
        shown = [line for line in lines if line.own or line.opp]
        hidden = len(lines) - len(shown)
        if self.position.size == 3:
            shown, hidden = list(lines), 0
        for line in sorted(shown, key=lambda t: (-abs(t.h1), -abs(t.h2), t.cells)):
            table.add_row(
                self._line_name(line),
                self._marks(candidate.after, line),
                self._counted(line, mover),
                f"{line.h1:+d}" if line.h1 else "0",
                f"{line.h2:+d}" if line.h2 else "0",
            )
        h1_value = candidate.h1.weighted(self.weights)
        them = mover.opponent
        formula = " + ".join(
            f"{w}·({candidate.h1.own[n]} − {candidate.h1.opp[n]})"
            for n, w in reversed(list(enumerate(self.weights)))
        )
        text = (
            f"After {mover} plays {self._cell_named(move)}: "
            f"H1 = Σ weight·({mover}n − {them}n) = {formula} = {h1_value}\n"
            f"H2 = Open({mover}) − Open({them}) = {candidate.h2.formula()}"
        )
        if hidden:
            text += f"\n{hidden} empty lines are not listed: each is open to both, +1 − 1 = 0."
        terms.update(text)

    def _line_name(self, line: LineTerm) -> str:
        return f"{self._cell_named(line.cells[0])}–{self._cell_named(line.cells[-1])}"

    @staticmethod
    def _marks(after: Position, line: LineTerm) -> str:
        return "".join(str(after[c] or ".") for c in line.cells)

    def _counted(self, line: LineTerm, mover: Mark) -> str:
        """How a line counts, in the heuristics' terms: "X2 (weight 3)", "blocked (both marks)"."""
        them = mover.opponent
        kind = line.kind
        if kind == "blocked":
            return "blocked (both marks)"
        if kind == "won":
            return f"won by {mover if line.own else them}"
        if kind == "empty":
            return "empty (open to both)"
        mark, count = (mover, line.own) if kind == "own" else (them, line.opp)
        return f"{mark}{count} (weight {self.weights[count - 1]})"

    def _draw_board(self) -> None:
        board = self.query_one("#heuristic-board", Board)
        position = self.position
        marks = position.marks()
        ranking = self.ranking
        hints = (
            {} if ranking is None else {m: f"{v:+d}" if v else "0" for m, v in ranking.h1.items()}
        )
        board.border_subtitle = "H1 after each move"
        board.show(marks, hints=hints, best=self.selected, winning=position.winning_line)


def _step_button(label: str, n: int, direction: str) -> Button:
    """A − or + button for weight n: for the mouse (Tab skips it; typing is quicker)."""
    button = Button(
        label,
        name=str(n),
        compact=True,
        id=f"weight-{n}-{direction}",
        classes=f"weight-step -{direction}",
    )
    button.can_focus = False
    button.active_effect_duration = 0
    return button
