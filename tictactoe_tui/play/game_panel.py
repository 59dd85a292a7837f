"""What the game's evaluation panel says: the computer's reasoning after its move, a hint, an
earlier position's analysis, and the last lines of an outside engine or a learner's code."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tictactoe_tui.engine import Analysis, Decision, GameResult
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.players.outside import ENGINE
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.effects import ClearPanel, ShowReport
from tictactoe_tui.play.seats import Seats
from tictactoe_tui.text.panel import PanelReport
from tictactoe_tui.text.report import (
    algorithm_name,
    build_report,
    clever_move_words,
    move_words,
    terms_after,
    terms_lines,
)

if TYPE_CHECKING:
    from tictactoe_tui.engine.lab.yours import OnePly


def decision_panel(seats: Seats, decision: Decision, before: Position) -> ShowReport | ClearPanel:
    """The computer's reasoning for the panel, after it played `decision` in `before`."""
    mover = before.to_move
    name = cell_notation(decision.move, before.size)
    if decision.algorithm == ENGINE:
        words = (
            "\n".join(f"  {line}" for line in decision.said)
            if decision.said
            else "  (it said nothing: no MESSAGE lines)"
        )
        return ClearPanel(
            f"{seats.who(mover)} ({seats.engine_name(mover)}, an outside engine) played {name}."
            f"\n\nIn its own words (its MESSAGE lines, not our analysis):\n{words}"
        )
    learner = seats.learner_name(mover)
    if learner:
        # The reason starts with the name and the move, which the sentence says already.
        why = decision.reason.removeprefix(f"{learner}: ")
        why = why.removeprefix(f"choose() played {name}").removeprefix(f"{name}, ")
        return ClearPanel(
            f"{seats.who(mover)} ({learner}, your code) played {name}"
            + (f": {why}." if why else ".")
        )
    analysis = decision.analysis
    if analysis is None or not analysis.scores:
        return ClearPanel(
            f"{seats.who(mover)} played {name} at random: a random player "
            "does not search, so there are no scores to show."
        )
    return ShowReport(
        build_report(
            f"{seats.who(mover)} played {name}",
            analysis,
            before,
            decision.move,
            verdict=_verdict(decision, analysis, before),
            terms=terms_lines(decision.terms, name, before.k) if decision.terms else (),
        ),
        before,
    )


def _verdict(decision: Decision, analysis: Analysis, before: Position) -> str:
    """Clever or random, and for a random move what the clever one would have been."""
    if decision.clever:
        return f"A clever move: {decision.reason}."
    if decision.reason.startswith("random move"):
        # The reason repeats "random move"; keep only what it adds, e.g. "(difficulty 70)".
        verdict = f"A random move{decision.reason.removeprefix('random move')}."
    else:
        verdict = f"A random move ({decision.reason})."
    return verdict + " " + clever_move_words(analysis, before, decision.move)


def hint_panel(position: Position, analysis: Analysis) -> ShowReport:
    """The hint for the side to move in `position`: the best of `analysis`'s (scored) moves."""
    best = analysis.scores[0]
    name = cell_notation(best.move, position.size)
    return ShowReport(
        build_report(
            f"Hint for {position.to_move}: {name} ({move_words(best, position)})",
            analysis,
            position,
            best.move,
            verdict=f"The best move for {position.to_move} by {algorithm_name(analysis)}.",
            terms=terms_after(analysis.algorithm, position, best.move),
        ),
        position,
    )


def view_panel(position: Position, number: int, analysis: Analysis) -> ShowReport | ClearPanel:
    """An earlier position of the game (after move `number`) with its analysis, read-only."""
    if not analysis.scores:
        return ClearPanel("No analysis: the search stopped before scoring a move.")
    best = analysis.scores[0]
    name = cell_notation(best.move, position.size)
    return ShowReport(
        build_report(
            f"After move {number}: {position.to_move} to move, best {name} "
            f"({move_words(best, position)})",
            analysis,
            position,
            best.move,
            verdict=f"Looking back at the game (read-only): the best move for "
            f"{position.to_move} by {algorithm_name(analysis)}.",
        ),
        position,
    )


def engine_panel(seats: Seats, log: tuple[str, ...], result: GameResult | None) -> ClearPanel | str:
    """l: the last lines of an outside engine's stderr (and what it printed in vain), or a
    learner's traceback, for the panel: the failed one's (`log`), else the running engines';
    a notice instead when there are none."""
    outside = seats.outside_players()
    if seats.learners and not outside:
        if log:
            return ClearPanel("Your code's traceback (its file and line):\n\n" + "\n".join(log))
        lost = result is not None and bool(result.forfeit)
        return (
            "No traceback: your code raised no exception (its answer broke the rules, as the "
            "results say)."
            if lost
            else "Your code has not failed in this game: no traceback to show."
        )
    lines = log or tuple(line for player in outside for line in player.log)
    if not outside:
        return "No outside engine or Python file of yours plays in this game."
    if not lines:
        return "The outside engine has written nothing to stderr."
    return ClearPanel(
        "The outside engine's last lines (stderr, and what it printed "
        "that meant nothing), oldest first:\n\n" + "\n".join(lines)
    )


def with_yours(report: PanelReport, values: OnePly) -> PanelReport:
    """`report` with the learner's evaluation (`--eval FILE`) beside each row: the board after
    the move, for the mover, as the heuristic lab and `analyse --eval` give it ("yours +4" in
    the row's note), and a legend line saying whose it is."""
    known = {move.move: move.yours for move in values.moves}
    rows = tuple(
        replace(row, note=" · ".join(filter(None, (row.note, f"yours {known[row.move]:+g}"))))
        if row.move in known
        else row
        for row in report.rows
    )
    legend = f"{values.name}: its evaluate() of the board after each move, for the mover"
    return replace(report, rows=rows, legend=(*report.legend, legend))
