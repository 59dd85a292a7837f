"""The rules of the heuristic lab (key `w`), without Textual: how H1 and H2 rank every move, under
which weights, the move whose lines are listed, and what alpha-beta says beside them.

The Heuristic screen hands every edit, cursor move and answer of the worker to a
`HeuristicController` and carries out the effects it returns (run alpha-beta, redraw, show the
move selected, say why a cell explains nothing); it fills its tables from `ranking_rows` and
`line_rows`, and its words from `picks_text` and `terms_text`.

The engine gives H1's and H2's terms after every legal move once (`candidate_terms`); a change
of weights only re-weights them (`rank_moves`). Alpha-beta's column is the game panel's analysis
when the game hands one over, else the lab's own search with the panel's budget, and its words
say which (`text.lab.alphabeta_source_words`).

With a learner's evaluation (`eval_file`, the app's `--eval FILE`), a column "yours: FILE" gives
its `evaluate` of the board after every move, for the mover, as H1's and H2's are (one call of
the file, in a process of its own: `engine.lab.yours.try_one_ply`), and the picks line says
which move the clever rule would play with it. `r` reads the file again; a file that fails is
one line under the picks, and the other columns stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tictactoe_tui.engine import Algorithm, Analysis, Board, Mark
from tictactoe_tui.engine.evaluation.heuristics import (
    LineTerm,
    candidate_terms,
    explain_lines,
    h1_weights,
    heuristic_pick,
    rank_moves,
)
from tictactoe_tui.engine.lab.compare import YoursFailed
from tictactoe_tui.engine.lab.yours import OnePly
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, guest_name
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.text.lab import HEURISTIC_WORDS, alphabeta_cell, alphabeta_source_words
from tictactoe_tui.text.report import move_words
from tictactoe_tui.worker.jobs import clever_analysis

RULE_WORDS = {"win": "wins at once", "block": "blocks a win", "score": "best score"}
"""How the picks line names the rule behind a heuristic's choice."""

MOST_NAMED = 6
"""Cells named in full in the picks line before "and N more"."""


@dataclass(frozen=True)
class DrawAll:
    """Redraw the ranking, the picks and the selected move's lines and board."""


@dataclass(frozen=True)
class DrawPicks:
    """Redraw the picks line (alpha-beta's answer or failure)."""


@dataclass(frozen=True)
class DrawProblem:
    """Redraw what is wrong with the weights typed (`HeuristicController.problem`), or hide it."""


@dataclass(frozen=True)
class ShowSelected:
    """The selected move changed: list its lines and light it on the board, and move the
    table's cursor (`table`) or the board's cursor (`board`) to it."""

    table: bool
    board: bool


@dataclass(frozen=True)
class ReadYours:
    """Ask the learner's file at `path` for its value of every move of `board` (each position
    `call_time` seconds): `engine.lab.yours.try_one_ply`, a job of its own beside alpha-beta's,
    in a thread of the app (the file runs in a process of its own)."""

    board: Board
    path: str
    call_time: float


HeuristicEffect = RunJob | Notify | DrawAll | DrawPicks | DrawProblem | ShowSelected | ReadYours
"""Anything the heuristic lab's controller asks of its screen."""


@dataclass(frozen=True)
class RankRow:
    """One row of the ranking: a move, its rank by H1, its values and who picks it."""

    move: int
    rank: int
    cell: str
    h1: int
    h2: int
    alphabeta: str
    """Alpha-beta's score in words ("…" until it is in)."""
    picked_by: str
    """"H1 H2 αβ": the players that would choose the move (and "yours")."""
    yours: str = ""
    """The learner's evaluation after the move ("…" until it is in, "—" when it failed, ""
    without one)."""


@dataclass(frozen=True)
class LineRow:
    """One line of the board after the selected move, with its share of H1 and H2."""

    name: str
    """Its first and last cells: "A1–C3"."""
    marks: str
    """Its cells' marks: "XX."."""
    counted: str
    """How it counts: "X2 (weight 3)", "blocked (both marks)"."""
    h1: str
    h2: str


class HeuristicController:
    """One position's moves under H1 (with editable weights) and H2, beside alpha-beta."""

    def __init__(
        self,
        position: Board,
        time_limit: float | None = None,
        *,
        analysis: Analysis | None = None,
        depth: int | None = None,
        eval_file: str | Path | None = None,
        eval_time: float = DEFAULT_TIME,
    ) -> None:
        """Study `position` (the side to move's choices). `analysis` is the game panel's
        alpha-beta analysis of it, if there is one; else the lab runs the panel's search itself:
        `time_limit` seconds (None: solved exactly, as on 3×3), `depth` plies (None: automatic).
        `eval_file` adds the learner's column (`eval_time` seconds a position).
        """
        self.position = position
        """The position whose moves are ranked."""
        self.time_limit = time_limit
        """Alpha-beta's budget for the comparison."""
        self.depth = depth
        """The depth of the lab's own search, as the game's settings give it."""
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
        self.failure: str | None = None
        """Why alpha-beta failed (None: it did not)."""
        self.problem = ""
        """What is wrong with the weights typed ("" when nothing)."""
        self.eval_file = Path(eval_file) if eval_file else None
        """The learner's file whose values the "yours" column shows (None: no such column)."""
        self.eval_time = eval_time
        self.yours: OnePly | None = None
        """The learner's values of every move, once they are in."""
        self.yours_failure: str | None = None
        """Why the learner's file gave no values (None: it did not fail)."""

    @property
    def yours_name(self) -> str:
        """The learner's column's title, "yours: FILE" ("" without a file)."""
        return guest_name(self.eval_file) if self.eval_file is not None else ""

    @property
    def busy(self) -> bool:
        """True while alpha-beta's analysis (or the learner's values) is awaited."""
        if self.ranking is None:
            return False
        waiting_yours = (
            self.eval_file is not None and self.yours is None and self.yours_failure is None
        )
        return waiting_yours or (self.alphabeta is None and self.failure is None)

    # -- alpha-beta -------------------------------------------------------------------------------

    def start(self) -> list[HeuristicEffect]:
        """The screen opens: draw, and search unless the panel's analysis came with it."""
        effects: list[HeuristicEffect] = [DrawAll()]
        if self.ranking is not None and self.alphabeta is None:
            # The game panel's job, budget and depth; in a thread on 3×3, where it is quick.
            args = (self.position, Algorithm.ALPHABETA, self.time_limit, self.depth)
            effects.append(RunJob(clever_analysis, args, in_process=self.position.size == 3))
        return effects + self._read_yours()

    # -- the learner's evaluation -----------------------------------------------------------------

    def _read_yours(self) -> list[HeuristicEffect]:
        if self.eval_file is None or self.ranking is None:
            return []
        self.yours = None
        self.yours_failure = None
        return [ReadYours(self.position, str(self.eval_file), self.eval_time)]

    def reload_yours(self) -> list[HeuristicEffect]:
        """r: read the learner's file again, and show its new values."""
        if self.eval_file is None:
            return [
                Notify(
                    "No evaluation of yours: start the app with --eval FILE to see its "
                    "values here.",
                    4,
                )
            ]
        if self.ranking is None:
            return [Notify("The game is over: there is no move to value.", 3)]
        return [*self._read_yours(), DrawAll(), Notify(f"Reading {self.yours_name} again…", 2)]

    def yours_read(self, answer: OnePly | YoursFailed) -> list[HeuristicEffect]:
        """The learner's values arrived, or why its file failed (one line)."""
        if isinstance(answer, YoursFailed):
            self.yours_failure = answer.reason
        else:
            self.yours = answer
        return [DrawAll()]

    def yours_job_failed(self, message: str) -> list[HeuristicEffect]:
        """The job itself failed (its thread, not the file): one line, the rest stays."""
        self.yours_failure = message
        return [DrawAll()]

    def _yours_cell(self, move: int) -> str:
        if self.eval_file is None:
            return ""
        if self.yours_failure is not None:
            return "—"
        if self.yours is None:
            return "…"
        return f"{self.yours.of(move).yours:g}"

    def yours_pick(self) -> tuple[int, ...]:
        """The moves the clever rule would play with the learner's evaluation (win, block, the
        best value), empty until its values are in."""
        if self.yours is None or self.ranking is None:
            return ()
        values = self.yours
        return heuristic_pick(self.position, lambda move: values.of(move).yours).moves

    def analysed(self, analysis: Analysis) -> list[HeuristicEffect]:
        """Alpha-beta's scores arrived."""
        self.alphabeta = analysis
        return [DrawAll()]

    def analysis_failed(self, message: str) -> list[HeuristicEffect]:
        """Alpha-beta failed: the heuristics stand on their own."""
        self.failure = message
        return [DrawPicks()]

    def alphabeta_best(self) -> tuple[int, ...]:
        """Alpha-beta's best moves (those known to be equally good, as the panel counts them),
        empty until its analysis is in."""
        analysis = self.alphabeta
        if analysis is None or not analysis.scores:
            return ()
        return tuple(sorted(analysis.best_moves))

    # -- the weights ------------------------------------------------------------------------------

    def weights_typed(self, texts: Sequence[str]) -> list[HeuristicEffect]:
        """The weight boxes' texts, for n = 1 .. k-1: re-rank at once; a box that is not a
        whole number is named (`problem`) and the ranking stays."""
        values = []
        for n, text in enumerate(texts, start=1):
            try:
                values.append(int(text.strip()))
            except ValueError:
                self.problem = f"The weight of {n} in a line must be a whole number."
                return [DrawProblem()]
        self.problem = ""
        return [DrawProblem(), *self.set_weights(tuple(values))]

    def set_weights(self, weights: tuple[int, ...]) -> list[HeuristicEffect]:
        """Rank the moves again under `weights`."""
        self.weights = weights
        if self.candidates:
            self.ranking = rank_moves(self.position, self.candidates, weights)
        return [DrawAll()]

    def stepped(self, n: int, text: str, delta: int) -> str:
        """What weight n's box reads after its − (−1) or + (+1) button: a box that is not a
        number goes back to the weight in force."""
        try:
            return str(int(text) + delta)
        except ValueError:
            return str(self.weights[n - 1])

    def usual_weights(self) -> tuple[int, ...]:
        """H1's usual weights, 3^(n-1), that Reset puts back."""
        return h1_weights(self.position.k)

    # -- the move explained -----------------------------------------------------------------------

    def highlight(self, move: int) -> list[HeuristicEffect]:
        """The table's cursor reached `move`'s row: explain it."""
        if move == self.selected:
            return []
        self.selected = move
        return [ShowSelected(table=False, board=True)]

    def choose_cell(self, cell: int) -> list[HeuristicEffect]:
        """A click (or Enter) on the board: an empty cell explains that move."""
        if self.ranking is None or cell not in self.ranking.h1:
            return [Notify(f"{self._cell_named(cell)} is taken: pick an empty cell.", 3)]
        self.selected = cell
        return [ShowSelected(table=True, board=False)]

    # -- the words --------------------------------------------------------------------------------

    @property
    def sub_title(self) -> str:
        """What the header says under the title."""
        board = self.position
        return (
            f"heuristic lab: {board.to_move} to move on "
            f"{board.size}×{board.size}, {board.k} in a row"
        )

    def weight_label(self, n: int) -> str:
        """The label of weight n's box: "n = 2 (X2, O2)"."""
        mover = self.position.to_move
        return f"n = {n} ({mover}{n}, {mover.opponent}{n})"

    def _cell_named(self, move: int) -> str:
        return cell_notation(move, self.position.size)

    def _cells_named(self, moves: tuple[int, ...]) -> str:
        """The cells' names, the first `MOST_NAMED` of them when there are many."""
        names = ", ".join(self._cell_named(m) for m in moves[:MOST_NAMED])
        more = len(moves) - MOST_NAMED
        return names + (f" and {more} more" if more > 0 else "")

    def picks_text(self) -> str:
        """Which move each heuristic would play and why, and whether alpha-beta agrees."""
        ranking = self.ranking
        if ranking is None:
            return "The game is over: there is no move to rank."
        lines = []
        best = set(self.alphabeta_best())
        for name, pick in (("H1", ranking.h1_pick), ("H2", ranking.h2_pick)):
            rule = RULE_WORDS[pick.rule] + (f" {pick.score}" if pick.rule == "score" else "")
            tie = (
                f" ({len(pick.moves)} moves tie: it picks one at random)"
                if len(pick.moves) > 1
                else ""
            )
            verdict = _agreement(pick.moves, best)
            lines.append(f"{name} plays {self._cells_named(pick.moves)} ({rule}){tie}{verdict}")
        lines += self._yours_lines(best)
        lines += self._alphabeta_lines()
        lines.append(HEURISTIC_WORDS)
        if self.failure is not None:
            lines.append(f"Alpha-beta failed: {self.failure}")
        return "\n".join(lines)

    def _yours_lines(self, best: set[int]) -> list[str]:
        """What the learner's evaluation would play (or why it has no values)."""
        name = self.yours_name
        if not name:
            return []
        if self.yours_failure is not None:
            return [f"Your evaluation failed: {self.yours_failure} (r reads it again)"]
        if self.yours is None:
            return [f"{name}: reading its values…"]
        values = self.yours
        pick = heuristic_pick(self.position, lambda move: values.of(move).yours)
        rule = RULE_WORDS[pick.rule] + (f" {pick.score:g}" if pick.score is not None else "")
        verdict = _agreement(pick.moves, best)
        return [f"{name} plays {self._cells_named(pick.moves)} ({rule}){verdict}"]

    def _alphabeta_lines(self) -> list[str]:
        analysis = self.alphabeta
        if analysis is None:
            return ["Alpha-beta is thinking…"]
        best = self.alphabeta_best()
        if not best:
            return []
        words = move_words(analysis.scores[0], self.position)
        source = alphabeta_source_words(
            analysis, self.position, from_panel=self.from_panel, time_limit=self.time_limit
        )
        return [f"Alpha-beta plays {self._cells_named(best)} ({words})", source]

    def ranking_rows(self) -> list[RankRow]:
        """The moves best first by H1 (equal values share a rank), with H2 and alpha-beta."""
        ranking = self.ranking
        if ranking is None:
            return []
        analysis = self.alphabeta
        scores = {s.move: s for s in analysis.scores} if analysis else {}
        root_depth = analysis.depth if analysis else 0
        best = self.alphabeta_best()
        pickers = (
            ("H1", ranking.h1_pick.moves),
            ("H2", ranking.h2_pick.moves),
            ("yours", self.yours_pick()),
            ("αβ", best),
        )
        rows = []
        rank, previous = 0, None
        for index, move in enumerate(ranking.order):
            if ranking.h1[move] != previous:
                rank, previous = index + 1, ranking.h1[move]
            scored = scores.get(move)
            rows.append(
                RankRow(
                    move,
                    rank,
                    self._cell_named(move),
                    ranking.h1[move],
                    ranking.h2[move],
                    "…" if scored is None else alphabeta_cell(scored, self.position, root_depth),
                    " ".join(name for name, moves in pickers if move in moves),
                    self._yours_cell(move),
                )
            )
        return rows

    def _selected_lines(self) -> tuple[list[LineTerm], int]:
        """The selected move's lines to list, and how many empty ones are not listed."""
        candidate = next(c for c in self.candidates if c.move == self.selected)
        lines = explain_lines(candidate.after, self.position.to_move, self.weights)
        if self.position.size == 3:
            return list(lines), 0
        shown = [line for line in lines if line.own or line.opp]
        return shown, len(lines) - len(shown)

    def line_rows(self) -> list[LineRow]:
        """Every line after the selected move that holds a mark (every line on 3×3), those that
        count most first."""
        if self.ranking is None or self.selected is None:
            return []
        after = self.position.play(self.selected)
        shown, _ = self._selected_lines()
        return [
            LineRow(
                f"{self._cell_named(line.cells[0])}–{self._cell_named(line.cells[-1])}",
                "".join(str(after[c] or ".") for c in line.cells),
                self._counted(line, self.position.to_move),
                f"{line.h1:+d}" if line.h1 else "0",
                f"{line.h2:+d}" if line.h2 else "0",
            )
            for line in sorted(shown, key=lambda t: (-abs(t.h1), -abs(t.h2), t.cells))
        ]

    def terms_text(self) -> str:
        """H1 and H2 after the selected move, worked out term by term."""
        move = self.selected
        if self.ranking is None or move is None:
            return ""
        candidate = next(c for c in self.candidates if c.move == move)
        mover = self.position.to_move
        them = mover.opponent
        formula = " + ".join(
            f"{w}·({candidate.h1.own[n]} − {candidate.h1.opp[n]})"
            for n, w in reversed(list(enumerate(self.weights)))
        )
        text = (
            f"After {mover} plays {self._cell_named(move)}: "
            f"H1 = Σ weight·({mover}n − {them}n) = {formula} = "
            f"{candidate.h1.weighted(self.weights)}\n"
            f"H2 = Open({mover}) − Open({them}) = {candidate.h2.formula()}"
        )
        _, hidden = self._selected_lines()
        if hidden:
            text += f"\n{hidden} empty lines are not listed: each is open to both, +1 − 1 = 0."
        return text

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

    def board_hints(self) -> dict[int, str]:
        """H1 after each move, written in its cell."""
        ranking = self.ranking
        if ranking is None:
            return {}
        return {m: f"{v:+d}" if v else "0" for m, v in ranking.h1.items()}


def _agreement(moves: tuple[int, ...], best: set[int]) -> str:
    """Whether alpha-beta's best moves agree with a pick's (nothing until they are in)."""
    if not best:
        return ""
    agree = set(moves) & best
    if agree == set(moves):
        return "; alpha-beta agrees"
    return "; alpha-beta agrees with some" if agree else "; alpha-beta disagrees"
