"""The grade report's words: what `tictactoe-tui grade` prints, a page a course could hand out.

Pure wording over `engine.lab.grade.GradeReport`; the marks never rely on colour ("ok" and
"FAILED" are words), and every figure says what it counts.
"""

from __future__ import annotations

from tictactoe_tui.engine.lab.grade import GradeReport, OnePly, Worse
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.scores import score_meaning
from tictactoe_tui.text.threats import line_words

__all__ = ["report_lines", "share", "worse_words"]


def share(part: int, whole: int) -> str:
    """ "2,651 of 4,520 (58.6%)"."""
    if not whole:
        return f"{part:,} of 0"
    return f"{part:,} of {whole:,} ({100 * part / whole:.1f}%)"


def worse_words(worse: Worse) -> str:
    """The first worse move in the panel's words: "A1: loss in 6; B2 draws (draw)"."""
    board = worse.position
    size = board.size
    played = cell_notation(worse.played.move, size)
    best = ", ".join(cell_notation(s.move, size) for s in worse.best)
    best_meaning = score_meaning(worse.best[0], board)
    return (
        f"In {board} ({board.to_move} to move) it played {played}: "
        f"{score_meaning(worse.played, board)} (score {worse.played.score}); "
        f"best: {best} ({best_meaning}, score {worse.best[0].score})."
    )


def _one_ply(rows: list[OnePly]) -> str:
    return "; ".join(f"{row.name} {share(row.value_preserving, row.positions)}" for row in rows)


def report_lines(report: GradeReport) -> list[str]:
    """The whole report as lines."""
    k_words = f"{report.k} in a row"
    lines = [f"Grade for {report.file.name} on {report.size}×{report.size}, {k_words}.", ""]
    lines.append("The contract:")
    for check in report.checks:
        lines.append(f"  {'ok' if check.passed else 'FAILED'}  {check.name}: {check.detail}")
    if report.provides is None:
        return lines
    where = (
        "every reachable position with a move to make"
        if report.exhaustive
        else "a seeded sample of positions the engine proves"
    )
    lines += ["", f"Its moves against the proven values ({where}: {report.positions:,}):"]
    lines.append(f"  keeps the game's value: {share(report.value_preserving, report.positions)}")
    lines.append(f"  best by the depth-aware rule: {share(report.best, report.positions)}")
    if report.graded < report.positions:
        lines.append(f"  graded: {report.graded:,} (the rest after its faults)")
    if report.first_worse is None:
        lines.append("  It never does worse than the best move.")
    else:
        worse = report.first_worse
        lines.append(f"  First worse move: {worse_words(worse)}")
        punish = line_words(worse.position, worse.played.pv)
        if punish:
            lines.append("  The line: " + " ".join(punish))
    if report.symmetry is not None or report.one_ply:
        lines += ["", "Its evaluation:"]
    if report.symmetry is not None:
        sym = report.symmetry
        lines.append(
            "  the same value on the eight rotations and reflections: "
            f"{share(sym.same, sym.positions)} positions"
            + ("" if sym.first_different is None else f" (first different: {sym.first_different})")
        )
    if report.one_ply:
        lines.append(f"  its one-ply choice keeps the value: {_one_ply(report.one_ply)}")
    if report.matches:
        lines += ["", "Matches (wins/draws/losses, from its side):"]
        for against in dict.fromkeys(m.against for m in report.matches):
            parts = [
                f"as {m.mark} {m.wins}/{m.draws}/{m.losses}"
                + (f" ({m.forfeits} forfeited)" if m.forfeits else "")
                for m in report.matches
                if m.against == against
            ]
            lines.append(f"  against {against}: " + ", ".join(parts))
    return lines
