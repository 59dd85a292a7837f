"""The review's words about a judged move: what it leads to, beside the move ranked first.

Pure wording for the Review screen (no Textual here), so that a test can hold it against the
panel's rows: "The best move" always names the move the review's table ranks first (the
analysis' first row), with that row's words; another move is "one of the best" only when the
scores prove it as good, and "as good by the estimates" when it scores the same estimate.
"""

from __future__ import annotations

from tictactoe_tui.engine import Board, MoveScore
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.review import Verdict, proven_as_good
from tictactoe_tui.text.report import score_words
from tictactoe_tui.text.threats import mistake_words

JUDGEMENT_WORDS = {
    "best": "the best move",
    "good": "a good move",
    "inaccuracy": "an inaccuracy",
    "mistake": "a mistake",
    "blunder": "a blunder",
}
"""How the panel names each judgement."""


def outlook_words(move: MoveScore, position: Board) -> str:
    """What a move leads to, from its player's side: "wins in 5", "leads to a draw", "wins,
    in at most 9", "scores ~3 (an estimate)", "scores at most -14 (a bound)"."""
    words = score_words(move.score, position, kind=move.kind, band=move.band)
    if words == "draw":
        return "leads to a draw"
    if words.startswith(("win in ", "loss in ")):
        kind, plies = words.split(" in ")
        return f"{'wins' if kind == 'win' else 'loses'} in {plies}"
    if move.band != "heuristic":
        # A proven bound: "wins, in at most 9", "leads to a draw or better", "has no win
        # before ply 15".
        if words.startswith(("wins", "loses")):
            return words
        return f"has {words}" if words.startswith("no ") else f"leads to a {words}"
    if move.kind == "estimate":
        return f"scores ~{move.score} (an estimate)"
    bound = "at most" if move.kind == "at_most" else "at least"
    return f"scores {bound} {move.score} (a bound)"


def verdict_words(verdict: Verdict, position: Board) -> str:
    """The review's sentence on a move played in `position`: "The best move: F5 scores ~-9 (an
    estimate).", "A good move: D6 scores at most -9 (a bound); F5, ranked first, scores ~-9
    (an estimate).", "A mistake (?): C2 leads to a draw, where A1 wins in 5. …"."""
    played = cell_notation(verdict.cell, position.size)
    first = cell_notation(verdict.best.move, position.size)
    mine = outlook_words(verdict.played, position)
    theirs = outlook_words(verdict.best, position)
    judgement = verdict.judgement
    if verdict.played.move == verdict.best.move:
        return f"The best move: {played} {mine}."
    if judgement == "best" and proven_as_good(verdict.played, verdict.best):
        return f"One of the best moves: {played} {mine}; {first}, ranked first, {theirs}."
    if judgement == "best":
        return (
            f"As good as the best by the estimates: {played} {mine}, the same estimate as "
            f"{first}, ranked first."
        )
    if judgement == "good":
        return f"A good move: {played} {mine}; {first}, ranked first, {theirs}."
    words = (
        f"{JUDGEMENT_WORDS[judgement].capitalize()} ({verdict.symbol}): {played} {mine}, "
        f"where {first} {theirs}."
    )
    if judgement in ("mistake", "blunder"):
        # What the threats say: "B1?? lets X fork with A1." (the played move's expected line
        # after it, else what the better move would have done).
        words += " " + mistake_words(
            position, verdict.cell, verdict.symbol, verdict.played.pv[1:], verdict.best.pv
        )
    return words
