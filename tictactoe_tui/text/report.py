"""Turning the engine's analyses into what the evaluation panel and the board show.

Pure formatting: the screen hands an `Analysis` (and the position it is about) to these functions
and passes the resulting `PanelReport`, score labels and H1/H2 term lines to the widgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine import (
    Analysis,
    H1Terms,
    H2Terms,
    Mark,
    Progress,
    describe_score,
    explain_h1,
    explain_h2,
)
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.board import cell_notation
from tictactoe_tui.text.panel import CandidateRow, PanelReport, ThinkingReport

PANEL_ROWS_BIG_BOARD = 10
"""Candidates listed in the panel on boards bigger than 3×3."""

ALGORITHM_NAMES = {"alphabeta": "alpha-beta", "minimax": "minimax", "h1": "H1", "h2": "H2",
                   "random": "random"}
"""How the panel and status name the engine's algorithms."""


def algorithm_name(analysis: Analysis) -> str:
    """How the panel and status name the algorithm behind an analysis."""
    return ALGORITHM_NAMES.get(analysis.algorithm, analysis.algorithm)


def build_report(title: str, analysis: Analysis, position: Position, chosen: int, *,
                 verdict: str = "", terms: tuple[str, ...] = ()) -> PanelReport:
    """The panel's view of an analysis of `position`, with `chosen` highlighted.

    On 3×3 every move is listed; on bigger boards the top ten, plus the chosen move if it is
    not among them (a random move usually is not).
    """
    limit = None if position.size == 3 else PANEL_ROWS_BIG_BOARD
    shown = list(analysis.scores[:limit])
    if all(s.move != chosen for s in shown):
        shown += [s for s in analysis.scores if s.move == chosen]
    rows = tuple(
        CandidateRow(
            cell=cell_notation(s.move, position.size),
            score=s.score,
            words=score_words(s.score, position, s.exact),
            nodes=s.nodes,
            exact=s.exact,
            chosen=s.move == chosen,
            move=s.move,
            line=s.pv,
            line_names=line_names(s.pv, position.size),
        )
        for s in shown
    )
    return PanelReport(
        title=title,
        algorithm=algorithm_name(analysis),
        nodes=analysis.nodes,
        elapsed=analysis.elapsed,
        depth=analysis.depth,
        complete=analysis.complete,
        rows=rows,
        total_moves=len(analysis.scores),
        verdict=verdict,
        terms=terms,
        mover=str(position.to_move),
    )


def thinking_report(title: str, algorithm: str, progress: Progress, position: Position,
                    budget: float | None) -> ThinkingReport:
    """The panel's live view of a running search of `position` from its latest progress."""
    best = ""
    if progress.best_move is not None:
        name = cell_notation(progress.best_move, position.size)
        if progress.complete:
            best = f"{name}, {score_words(progress.best_score, position, True)}"
        else:
            # Until the search ends every number is provisional: say so, and never "win in N".
            best = f"{name}, score {progress.best_score:+d} so far"
    return ThinkingReport(
        title=title,
        algorithm=ALGORITHM_NAMES.get(algorithm, algorithm),
        depth=progress.depth,
        nodes=progress.nodes,
        elapsed=progress.elapsed,
        budget=budget,
        best=best,
        line_names=line_names(progress.pv, position.size),
    )


def line_names(line: Sequence[int], size: int) -> str:
    """An expected line in cell names: "B2 A1 C3"."""
    return " ".join(cell_notation(cell, size) for cell in line)


def score_words(score: int, position: Position, exact: bool) -> str:
    """A score in words for the panel: "win in 3", "draw", "heuristic estimate"."""
    words = describe_score(score, position, exact=exact)
    # The number is in its own column; "(heuristic)" alone says what kind of number it is.
    return "heuristic estimate" if words.endswith("(heuristic)") else words


def score_hints(analysis: Analysis) -> dict[int, str]:
    """Each scored cell's score as the faint label the board writes in it."""
    return {s.move: f"{s.score:+d}" if s.score else "0" for s in analysis.scores}


def terms_after(algorithm: str, position: Position, move: int) -> tuple[str, ...]:
    """H1 / H2 terms of the board after `move`, for a hint under a heuristic."""
    if algorithm not in ("h1", "h2"):
        return ()
    after = position.play(move)
    mover = position.to_move
    terms = explain_h1(after, mover) if algorithm == "h1" else explain_h2(after, mover)
    return terms_lines(terms, cell_notation(move, position.size), position.k)


def terms_lines(terms: H1Terms | H2Terms, cell: str, k: int) -> tuple[str, ...]:
    """The heuristic's terms and its formula with the numbers filled in, for the panel."""
    me, them = terms.player, terms.player.opponent
    if isinstance(terms, H2Terms):
        return (
            f"H2 for {me} after {cell}: Open({me}) = {terms.open_own}, "
            f"Open({them}) = {terms.open_opp}",
            f"H2 = Open({me}) − Open({them}) = {terms.formula()}",
        )

    def symbols(mark: Mark) -> str:
        return " + ".join(f"{3 ** (n - 1)}·{mark}{n}" if n > 1 else f"{mark}1"
                          for n in range(k - 1, 0, -1))

    def counts(mark: Mark, values: tuple[int, ...]) -> str:
        return ", ".join(f"{mark}{n} = {values[n - 1]}" for n in range(k - 1, 0, -1))

    return (
        f"H1 for {me} after {cell}: {counts(me, terms.own)}; {counts(them, terms.opp)}",
        f"H1 = {symbols(me)} − ({symbols(them)})",
        f"   = {terms.formula()}",
    )
