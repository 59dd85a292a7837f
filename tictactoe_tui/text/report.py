"""Turning the engine's analyses into what the evaluation panel and the board show.

Pure formatting: the screen hands an `Analysis` (and the position it is about) to these functions
and passes the resulting `PanelReport`, score labels and H1/H2 term lines to the widgets.

Every number says what it is, with the words of `text.scores`: a row's score carries its kind's
mark ("-8" exact, "~-13" an estimate, "≤ -14" / "≥ +3" bounds), its meaning ("loss in 2",
"win in ≤ 9", "upper bound"), a note when its count of positions or its depth needs one ("mirror
of B1", "leaves a four", "VCT", "depth 1"), and the panel's legend explains the marks shown. The
board's faint scores mark bounds ("≤-21"), and the search's story is one row per completed depth.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine import (
    Analysis,
    H1Terms,
    H2Terms,
    IllegalMove,
    IterationInfo,
    Mark,
    MoveScore,
    Progress,
    describe_score,
    explain_h1,
    explain_h2,
)
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search.types import Band, Kind, same_estimate
from tictactoe_tui.history.review import proven_as_good
from tictactoe_tui.text.panel import CandidateRow, PanelReport, StoryRow, ThinkingReport
from tictactoe_tui.text.scores import (
    cell_score,
    equally_good_words,
    legend_lines,
    marked_score,
    note_words,
    proof_words,
    row_note,
    score_meaning,
    short_meaning,
)
from tictactoe_tui.text.threats import line_words

PANEL_ROWS_BIG_BOARD = 10
"""Candidates listed in the panel on boards bigger than 3×3."""

ALGORITHM_NAMES = {
    "alphabeta": "alpha-beta",
    "minimax": "minimax",
    "h1": "H1",
    "h2": "H2",
    "random": "random",
}
"""How the panel and status name the engine's algorithms."""


def algorithm_name(analysis: Analysis) -> str:
    """How the panel and status name the algorithm behind an analysis."""
    return ALGORITHM_NAMES.get(analysis.algorithm, analysis.algorithm)


def build_report(
    title: str,
    analysis: Analysis,
    position: Position,
    chosen: int,
    *,
    verdict: str = "",
    terms: tuple[str, ...] = (),
) -> PanelReport:
    """The panel's view of an analysis of `position`, with `chosen` highlighted.

    On 3×3 every move is listed; on bigger boards the top ten, plus the chosen move if it is
    not among them (a random move usually is not). The legend explains the marks those rows
    show, and only those.
    """
    limit = None if position.size == 3 else PANEL_ROWS_BIG_BOARD
    shown = list(analysis.scores[:limit])
    if all(s.move != chosen for s in shown):
        shown += [s for s in analysis.scores if s.move == chosen]
    rows = tuple(candidate_row(s, position, analysis.depth, chosen=s.move == chosen) for s in shown)
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
        reach=reach_words(analysis, position),
        legend=legend_lines(shown, position, analysis.depth),
        equal=equally_good_words(analysis.best_moves, position),
        story=story_rows(analysis.iterations, position),
    )


def candidate_row(
    scored: MoveScore, position: Position, root_depth: int, *, chosen: bool = False
) -> CandidateRow:
    """One move of an analysis as a panel row: its score with its mark, what it means, why it
    took no positions or another depth, and a sentence for when it is picked."""
    cell = cell_notation(scored.move, position.size)
    return CandidateRow(
        cell=cell,
        score=scored.score,
        words=short_meaning(scored.score, position, scored.kind, scored.band),
        nodes=scored.nodes,
        exact=scored.exact,
        chosen=chosen,
        move=scored.move,
        line=scored.pv,
        line_names=line_names(scored.pv, position.size),
        kind=scored.kind,
        marked=marked_score(scored.score, scored.kind),
        note=row_note(scored, position, root_depth),
        detail=detail_words(scored, position, root_depth),
        proof=proof_words(scored, position),
    )


def detail_words(scored: MoveScore, position: Position, root_depth: int) -> str:
    """A row in a sentence: "F3: at most -21 (heuristic), depth 1"; for a rule or a threat
    search, its proof and its forcing line told move by move (`text.threats.line_words`):
    "F8 (wins, in at most 9): Won by a chain of threats (VCT), …. X plays F8: a four (F5–F8),
    O must block F9. …"."""
    cell = cell_notation(scored.move, position.size)
    proof = proof_words(scored, position, with_line=False)
    if proof:
        return f"{cell} ({score_meaning(scored, position)}): {proof}{_told(scored, position)}"
    note = note_words(scored, position, root_depth)
    return f"{cell}: {score_meaning(scored, position)}" + (f", {note}" if note else "")


def _told(scored: MoveScore, position: Position) -> str:
    """A proof's forcing line told move by move, after a space ("" for a line of one move)."""
    if len(scored.pv) < 2:
        return ""
    try:
        return " " + " ".join(line_words(position, scored.pv))
    except IllegalMove:
        # Never a traceback in the panel: the cell names say the line all the same.
        return " " + line_names(scored.pv, position.size) + "."


def reach_words(analysis: Analysis, position: Position) -> str:
    """How far the search went and what that makes its scores: "depth 9, solved to the end"
    (every score exact), "depth 5, F2 proven best (win in ≤ 15)", "depth 7, cut off, heuristic
    at the leaves"."""
    scores = analysis.scores
    if scores and analysis.nodes == 0 and all(s.source == "rule" for s in scores):
        # The opening rule (`engine.opening`): nothing was searched.
        return "no search: a rule chose the move"
    if analysis.complete and scores and all(s.kind == "exact" for s in scores):
        reach = f"depth {analysis.depth}, solved to the end"
    elif analysis.complete and scores:
        best = scores[0]
        meaning = short_meaning(best.score, position, best.kind, best.band)
        reach = (
            f"depth {analysis.depth}, {cell_notation(best.move, position.size)} proven "
            f"best ({meaning})"
        )
    else:
        reach = f"depth {analysis.depth}, cut off, heuristic at the leaves"
    return reach + ("; stopped early" if analysis.cancelled else "")


STORY_SOURCES = {
    "threats": "threat search",
    "rule": "a rule",
    "table": "the table",
    "symmetry": "a mirror",
}
"""How a story row's best score was found, when not by the search itself."""


def story_rows(iterations: Sequence[IterationInfo], position: Position) -> tuple[StoryRow, ...]:
    """The search's story: one row per completed depth (best move, marked score, positions and
    time so far), as a chess engine's `info` lines tell it."""
    return tuple(
        StoryRow(
            depth=row.depth,
            cell=cell_notation(row.move, position.size),
            marked=marked_score(row.score, row.kind),
            nodes=row.nodes,
            elapsed=row.elapsed,
            note=STORY_SOURCES.get(row.source, ""),
        )
        for row in iterations
    )


def thinking_report(
    title: str, algorithm: str, progress: Progress, position: Position, budget: float | None
) -> ThinkingReport:
    """The panel's live view of a running search of `position` from its latest progress."""
    best = ""
    if progress.best_move is not None:
        name = cell_notation(progress.best_move, position.size)
        marked = marked_score(progress.best_score, progress.kind)
        if progress.complete:
            meaning = short_meaning(progress.best_score, position, progress.kind, progress.band)
            best = f"{name}, {marked} ({meaning}), proven best"
        else:
            # Until the search ends every number is provisional: say so, and never "win in N".
            best = f"{name}, score {marked} so far"
    return ThinkingReport(
        title=title,
        algorithm=ALGORITHM_NAMES.get(algorithm, algorithm),
        depth=progress.depth,
        nodes=progress.nodes,
        elapsed=progress.elapsed,
        budget=budget,
        best=best,
        line_names=line_names(progress.pv, position.size),
        story=story_rows(progress.iterations, position),
    )


def line_names(line: Sequence[int], size: int) -> str:
    """An expected line in cell names: "B2 A1 C3"."""
    return " ".join(cell_notation(cell, size) for cell in line)


def score_words(
    score: int,
    position: Position,
    exact: bool | None = None,
    *,
    kind: Kind | None = None,
    band: Band | None = None,
) -> str:
    """A score in words for a headline: "win in 3", "draw", "wins, in at most 9",
    "heuristic estimate", "upper bound" (a bound on a heuristic's value).

    Give `kind` and `band` (a `MoveScore`'s); `exact` alone reads the number as a game value
    (True) or an estimate, and nothing at all as an estimate.
    """
    kind = kind or (Kind.EXACT if exact else Kind.ESTIMATE)
    words = describe_score(score, position, kind=kind, band=band)
    if not words.endswith("(heuristic)"):
        return words
    # The number is beside the words: say only what kind of number it is.
    return (
        "heuristic estimate"
        if kind == "estimate"
        else short_meaning(score, position, kind, Band.HEURISTIC)
    )


def move_words(scored: MoveScore, position: Position) -> str:
    """A move's score for a headline, words and number: "win in 3, score 7", "heuristic
    estimate, score ~-13", "wins, in at most 9, score ≥ +92"."""
    words = score_words(scored.score, position, kind=scored.kind, band=scored.band)
    return f"{words}, score {marked_score(scored.score, scored.kind)}"


def clever_move_words(analysis: Analysis, position: Position, played: int) -> str:
    """After a random move `played` in `position`: the move the clever player would have
    played (the analysis' first), and whether the random one is as good — only when the scores
    prove it (`history.review.proven_as_good`), or "the same estimate" when both are equal
    estimates. "The clever move was A1 (draw, score 0); A3 is proven just as good (draw,
    score 0)."
    """
    first = analysis.scores[0]
    clever = f"{cell_notation(first.move, position.size)} ({move_words(first, position)})"
    if played == first.move:
        return f"By chance it is the clever move: {clever}."
    name = cell_notation(played, position.size)
    scored = next((s for s in analysis.scores if s.move == played), None)
    if scored is not None and proven_as_good(scored, first):
        return (
            f"The clever move was {clever}; {name} is proven just as good "
            f"({move_words(scored, position)})."
        )
    if scored is not None and same_estimate(scored, first):
        return (
            f"The clever move was {clever}; {name} scores the same estimate "
            f"({marked_score(scored.score, scored.kind)}), not proven as good."
        )
    if scored is not None:
        return f"The clever move was {clever}, not {name} ({move_words(scored, position)})."
    return f"The clever move was {clever}."


def score_hints(analysis: Analysis) -> dict[int, str]:
    """Each scored cell's score as the faint label the board writes in it: a value "+14", a
    bound with its mark "≤-21", "≥92" (the board draws those fainter still)."""
    return {s.move: cell_score(s.score, s.kind) for s in analysis.scores}


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
        return " + ".join(
            f"{3 ** (n - 1)}·{mark}{n}" if n > 1 else f"{mark}1" for n in range(k - 1, 0, -1)
        )

    def counts(mark: Mark, values: tuple[int, ...]) -> str:
        return ", ".join(f"{mark}{n} = {values[n - 1]}" for n in range(k - 1, 0, -1))

    return (
        f"H1 for {me} after {cell}: {counts(me, terms.own)}; {counts(them, terms.opp)}",
        f"H1 = {symbols(me)} − ({symbols(them)})",
        f"   = {terms.formula()}",
    )
