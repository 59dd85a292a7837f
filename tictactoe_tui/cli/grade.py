"""`tictactoe-tui grade FILE`: a learner's evaluation or player, graded against proven values.

    tictactoe-tui grade my_player.py                   the report on 3×3
    tictactoe-tui grade my_eval.py --games 20 --json   JSON, 20 games a colour against each
    tictactoe-tui grade my_player.py --size 4 --k 3    a seeded sample of 4×4 positions

The JSON object: file, size, k, checks ([{name, passed, detail}]), positions (4,520 on 3×3),
exhaustive (every reachable position, or a sample), graded, value_preserving, best, first_worse
(null, or {position, to_move, played, played_words, best, best_moves, best_words, score, line,
line_moves}), symmetry (null, or {positions, same, first_different}), one_ply ([{name,
positions, value_preserving}]) and matches ([{against, as, wins, draws, losses, forfeits}]).
See `engine.lab.grade` for what each counts. Exit status 0 when every check of the contract
passed, 1 when one failed (the report says which), 2 for a bad flag or a file that cannot be
read. Engine-only: never imports Textual.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tictactoe_tui.engine.lab.grade import DEFAULT_GAMES, GradeReport, grade
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, check_guest_path
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_SIZE, IllegalMove, cell_notation
from tictactoe_tui.play.arguments import OneLineParser, positive_int, positive_seconds
from tictactoe_tui.text.grade import report_lines
from tictactoe_tui.text.scores import score_meaning
from tictactoe_tui.text.threats import line_words

PROG = "tictactoe-tui grade"


def _size(text: str) -> int:
    value = positive_int(text)
    if not MIN_SIZE <= value <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"must be {MIN_SIZE} to {MAX_SIZE}, not {value}")
    return value


def build_parser() -> OneLineParser:
    """The grade command's flags."""
    parser = OneLineParser(
        prog=PROG,
        description="Grade a Python file that defines evaluate(board, player) and/or "
        "choose(board): the contract, its moves against proven values, its evaluation's "
        "symmetry and matches against our players.",
        epilog="Example: tictactoe-tui grade examples/my_eval.py --json",
    )
    parser.add_argument("file", help="the learner's Python file")
    parser.add_argument("--size", type=_size, default=3, metavar="N", help="board size (3)")
    parser.add_argument("--k", type=positive_int, default=None, metavar="K", help="in a row")
    parser.add_argument(
        "--games",
        type=positive_int,
        default=DEFAULT_GAMES,
        metavar="G",
        help=f"games with each colour against each opponent (default {DEFAULT_GAMES})",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument(
        "--time",
        type=positive_seconds,
        default=DEFAULT_TIME,
        metavar="S",
        help=f"seconds each call of the file may take (default {DEFAULT_TIME:g})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def report_json(report: GradeReport) -> dict[str, Any]:
    """The report as the JSON object the module docstring describes."""
    worse = report.first_worse
    first_worse = None
    if worse is not None:
        board = worse.position
        size = board.size
        first_worse = {
            "position": str(board),
            "to_move": str(board.to_move),
            "played": cell_notation(worse.played.move, size),
            "played_words": score_meaning(worse.played, board),
            "score": worse.played.score,
            "best": cell_notation(worse.best[0].move, size),
            "best_moves": [cell_notation(s.move, size) for s in worse.best],
            "best_words": score_meaning(worse.best[0], board),
            "line": line_words(board, worse.played.pv),
            "line_moves": [cell_notation(cell, size) for cell in worse.played.pv],
        }
    symmetry = report.symmetry
    return {
        "file": str(report.file),
        "size": report.size,
        "k": report.k,
        "checks": [{"name": c.name, "passed": c.passed, "detail": c.detail} for c in report.checks],
        "passed": report.passed,
        "positions": report.positions,
        "exhaustive": report.exhaustive,
        "graded": report.graded,
        "value_preserving": report.value_preserving,
        "best": report.best,
        "first_worse": first_worse,
        "symmetry": None
        if symmetry is None
        else {
            "positions": symmetry.positions,
            "same": symmetry.same,
            "first_different": None
            if symmetry.first_different is None
            else str(symmetry.first_different),
        },
        "one_ply": [
            {"name": r.name, "positions": r.positions, "value_preserving": r.value_preserving}
            for r in report.one_ply
        ],
        "matches": [
            {
                "against": m.against,
                "as": str(m.mark),
                "wins": m.wins,
                "draws": m.draws,
                "losses": m.losses,
                "forfeits": m.forfeits,
            }
            for m in report.matches
        ],
    }


def main(argv: Sequence[str]) -> int:
    """Grade the file; print the report or its JSON."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        check_guest_path(args.file)
    except ValueError as error:
        parser.error(str(error))
    try:
        report = grade(args.file, args.size, args.k, args.games, args.seed, args.time)
    except IllegalMove as error:
        parser.error(str(error))
    if args.json:
        print(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        print("\n".join(report_lines(report)))
    sys.stdout.flush()
    return 0 if report.passed else 1
