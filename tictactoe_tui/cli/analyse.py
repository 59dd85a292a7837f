"""`tictactoe-tui analyse BOARD`: score every legal move of a position, headless.

    tictactoe-tui analyse "XX./OO./X.."                      a table, best move first
    tictactoe-tui analyse "XX./OO./X.." --json               the same as JSON (schema below)
    tictactoe-tui analyse "..../..../..../...." --algorithm minimax --time-limit 2

Every limit is checked before the search starts (a depth of at least 1, a time limit that is a
positive number of seconds) and honoured by every algorithm: plain minimax stops at the time
limit (`MINIMAX_TIME_LIMIT` when none is given), and the output says how many moves it scored.

The JSON object: position (the board as `analyse` reads it), size, k, to_move, result (null while
the game goes on, else "X", "O" or "draw"), algorithm, nodes, seconds, depth, complete, stopped
(true when the time limit cut the search short), and moves, best first: each with move ("B2"),
score, words ("win in 3"), exact, positions, pv (the expected line, as cell names) and
pv_words (that line told threat by threat, one sentence per move: `text.threats.line_words`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tictactoe_tui.engine import ALGORITHMS, Analysis, Board, IllegalMove, analyse_position
from tictactoe_tui.engine.board import cell_notation
from tictactoe_tui.engine.types import describe_score
from tictactoe_tui.play.arguments import OneLineParser, positive_int, positive_seconds
from tictactoe_tui.text.threats import line_words

PROG = "tictactoe-tui analyse"

MINIMAX_TIME_LIMIT = 10.0
"""Seconds plain minimax may run when no --time-limit is given: the empty 3×3 board takes under
one, and a 4×4 tree would take years, so it is stopped and says so."""


def build_parser() -> OneLineParser:
    """The parser for `analyse`: a board and the search's limits, each checked when read."""
    parser = OneLineParser(
        prog=PROG,
        description="Score every legal move of a position, best first, from the side to move.",
        epilog='Example: tictactoe-tui analyse "XX./OO./X.."  (rows split by "/", "." is empty). '
        "Cells are named A1 (top-left) to C3 on 3×3: column letter, then row number.",
    )
    parser.add_argument("board", help="the position: X, O and '.' row by row, rows split by '/'")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="alphabeta",
                        type=str.lower, help="how to score the moves (default alphabeta)")
    parser.add_argument("--k", type=positive_int, default=None, help="marks in a row to win")
    parser.add_argument("--depth", type=positive_int, default=None,
                        help="plies to search before scoring with H1 (default: to the end, or as "
                        "deep as the time limit allows)")
    parser.add_argument("--time-limit", type=positive_seconds, default=None, metavar="SECONDS",
                        help="seconds the search may take (default: alpha-beta 1 s on boards it "
                        f"cannot solve, minimax {MINIMAX_TIME_LIMIT:g} s)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of the table")
    return parser


def main(argv: Sequence[str]) -> int:
    """Analyse the position given on the command line; print a table or JSON."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        board = Board.from_string(args.board, k=args.k)
    except IllegalMove as err:
        parser.error(str(err))
    analysis, stopped = _analyse(board, args.algorithm, args.depth, args.time_limit)
    if args.json:
        print(json.dumps(as_json(board, analysis, stopped), indent=2, ensure_ascii=False))
    else:
        print(as_table(board, analysis, stopped))
    return 0


def _analyse(board: Board, algorithm: str, depth: int | None,
             time_limit: float | None) -> tuple[Analysis, bool]:
    """The analysis, and whether the time limit stopped it before every move was scored."""
    if algorithm == "minimax" and time_limit is None:
        time_limit = MINIMAX_TIME_LIMIT     # a 4×4 tree would take years: never run unbounded
    analysis = analyse_position(board, algorithm, depth=depth, time_limit=time_limit)
    return analysis, len(analysis.scores) < len(board.legal_moves())


def _result(board: Board) -> str | None:
    """None while the game goes on, else the winner's mark or "draw"."""
    if not board.is_over:
        return None
    return "draw" if board.winner is None else str(board.winner)


def as_json(board: Board, analysis: Analysis, stopped: bool) -> dict[str, Any]:
    """The analysis as the JSON object the module docstring describes."""
    size = board.size
    return {
        "position": str(board),
        "size": size,
        "k": board.k,
        "to_move": str(board.to_move),
        "result": _result(board),
        "algorithm": analysis.algorithm,
        "nodes": analysis.nodes,
        "seconds": round(analysis.elapsed, 6),
        "depth": analysis.depth,
        "complete": analysis.complete,
        "stopped": stopped,
        "moves": [
            {
                "move": cell_notation(scored.move, size),
                "score": scored.score,
                "words": describe_score(scored.score, board, exact=scored.exact),
                "exact": scored.exact,
                "positions": scored.nodes,
                "pv": [cell_notation(cell, size) for cell in scored.pv],
                "pv_words": line_words(board, scored.pv),
            }
            for scored in analysis.scores
        ],
    }


def as_table(board: Board, analysis: Analysis, stopped: bool) -> str:
    """The analysis as a header line and one row per move, best first."""
    if board.is_over:
        return f"The game is over: {'a draw' if board.winner is None else f'{board.winner} wins'}."
    lines = [
        f"{board.size}×{board.size}, {board.k} in a row, {board.to_move} to move; "
        f"{analysis.algorithm}: {analysis.nodes:,} positions, {analysis.elapsed * 1000:.1f} ms, "
        f"depth {analysis.depth}{'' if analysis.complete else ' (cut off)'}"
    ]
    if stopped:
        total = len(board.legal_moves())
        lines.append(
            f"Stopped at the time limit with {len(analysis.scores)} of {total} moves scored: "
            "the whole tree is too big for plain minimax in that time. Give a longer "
            "--time-limit, a --depth, or use --algorithm alphabeta."
        )
    if analysis.scores:
        lines.append(" rank  cell  score  meaning            positions")
    for rank, scored in enumerate(analysis.scores, start=1):
        meaning = describe_score(scored.score, board, exact=scored.exact)
        lines.append(f"{rank:>5}  {cell_notation(scored.move, board.size):<4}  "
                     f"{scored.score:>5}  {meaning:<17}  {scored.nodes:>9,}")
    return "\n".join(lines)
