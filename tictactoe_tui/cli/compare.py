"""`tictactoe-tui compare POSITION`: every lab algorithm on one position, side by side.

    tictactoe-tui compare "XO./.../.OX"              a table: move, value, positions, cut-offs,
                                                     table hits, time, agreement with minimax
    tictactoe-tui compare "........." --json         the same numbers as one JSON object
    tictactoe-tui compare "XO./.../.OX" --eval my_eval.py   and a row for your evaluation

Headless and engine-only: it never imports Textual. Bad input (a malformed position, a bad
flag) gets one line on stderr and exit status 2. A finished position is not bad input: as
`analyse` does, it says how the game ended and exits 0 (JSON: `result` "X", "O" or "draw", no
results, `minimax` null; `result` is null while the game goes on).

Minimax searches every legal move at every node (the reference); on boards bigger than 6×6 the
other searches keep to the cells near the stones, and the output says how many root moves that
left out. The table's "1st cuts" column is the share of an alpha-beta's cut-offs made by the
first move it tried (100% when its move ordering is ideal).

Each JSON row carries, besides the table's numbers: kind ("exact" or "estimate": what value
is), first_move_cutoffs and first_cut_share (null without cut-offs), rule ("near stones only"
when the search left legal moves out, else null), root_moves and legal_moves (the moves it
considered at the root, of the legal ones), root_moves_done (the root moves it finished: where a
stopped search stopped), and moves: each root move searched, in the order tried, with its value
as `analyse --json` gives a move (score, words, kind, band, proven, depth, source, ...): minimax
knows every move's value, alpha-beta the best move's and upper bounds ("at_most") for others.

With `--eval FILE` (a learner's file defining `evaluate(board, player)`, see docs/your-code.md)
one more row comes last, named "yours: FILE": the H1 search's alpha-beta, to the same depth,
with the file's evaluation at the cut-off (JSON: `algorithm` "yours", and `name` "yours: FILE" and
`file` its path, which the lab's own rows do not have). The file runs in a process of its own,
before the other searches; when it fails (it raises, hangs, prints, returns no number, defines
no evaluate) the command says so in one line on stderr and exits 2.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from tictactoe_tui.cli.analyse import (
    board_result,
    game_over_words,
    guest_failed,
    move_json,
    read_eval,
)
from tictactoe_tui.engine import Board, IllegalMove
from tictactoe_tui.engine.lab.compare import LAB_TIME_LIMIT, Comparison, compare
from tictactoe_tui.engine.lab.trace import HEURISTIC_DEPTH, YOURS, TraceResult
from tictactoe_tui.engine.players.guest import GuestFault
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.play.arguments import OneLineParser, positive_int, positive_seconds
from tictactoe_tui.text.lab import (
    agreement_words,
    algorithm_label,
    duration,
    left_out_note,
    minimax_note,
    signed,
    value_words,
)
from tictactoe_tui.text.scores import first_cut_text
from tictactoe_tui.text.table import table

PROG = "tictactoe-tui compare"


def build_parser() -> OneLineParser:
    """The command's arguments."""
    parser = OneLineParser(
        prog=PROG,
        description="Run minimax, three alpha-betas and the two heuristics on one position and "
        "show, side by side, the move each chooses, its value, the positions it visited, its "
        "cut-offs, table hits and time, and whether it agrees with minimax.",
        epilog='Example: tictactoe-tui compare "XO./.../.OX"  (rows split by "/", "." empty).',
    )
    parser.add_argument("position", help="the position: X, O and '.' row by row, rows split by '/'")
    parser.add_argument("--k", type=int, default=None, help="marks in a row to win")
    parser.add_argument(
        "--depth",
        type=positive_int,
        default=None,
        help="plies for every search (default: to the end of the game when "
        "at most 10 cells are empty, else 3)",
    )
    parser.add_argument(
        "--heuristic-depth",
        type=positive_int,
        default=HEURISTIC_DEPTH,
        help=f"plies for the h1 and h2 searches (default {HEURISTIC_DEPTH})",
    )
    parser.add_argument(
        "--minimax-depth",
        type=positive_int,
        default=None,
        help="plies for minimax (default: as --depth)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=LAB_TIME_LIMIT,
        help="seconds each search may take; minimax stops early when its tree "
        f"would take longer (default {LAB_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--eval",
        default=None,
        metavar="FILE",
        help="a Python file defining evaluate(board, player): one more row, the H1 search "
        "with your evaluation at the cut-off",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str]) -> int:
    """Compare the lab's algorithms on the position given; print a table or JSON."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        board = read_position(args.position, k=args.k)
    except IllegalMove as error:
        parser.error(str(error))
    eval_file = read_eval(parser, args.eval)
    if board.is_over:
        # As `analyse`: a finished position is an answer, not an error.
        print(json.dumps(over_json(board), indent=2) if args.json else game_over_words(board))
        return 0
    try:
        comparison = compare(
            board,
            depth=args.depth,
            heuristic_depth=args.heuristic_depth,
            time_limit=args.time_limit,
            minimax_depth=args.minimax_depth,
            eval_file=eval_file,
        )
    except GuestFault as fault:
        return guest_failed(PROG, fault)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    output = json.dumps(to_json(comparison), indent=2) if args.json else to_text(comparison)
    try:
        print(output)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. `| head`) left early: that is not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def result_json(comparison: Comparison, result: TraceResult) -> dict[str, Any]:
    """One row of the JSON output."""
    size = comparison.board.size
    verdict = comparison.verdict(result)
    row: dict[str, Any] = {
        "algorithm": result.algorithm,
        "move": None
        if not result.finished or result.move is None
        else cell_notation(result.move, size),
        "value": result.value if result.finished else None,
        "positions": result.positions,
        "cutoffs": result.cutoffs,
        "table_hits": result.table_hits,
        "seconds": round(result.seconds, 6),
        "complete": result.complete,
        "finished": result.finished,
        "depth": result.depth,
        "agrees_with_minimax": verdict.agrees,
        "move_agrees": verdict.move,
        "value_agrees": verdict.value,
        "kind": result.kind if result.finished else None,
        "first_move_cutoffs": result.first_move_cutoffs,
        "first_cut_share": (
            None if result.first_cut_share is None else round(result.first_cut_share, 4)
        ),
        "rule": result.rule or None,
        "root_moves": result.root_moves,
        "legal_moves": result.legal_moves,
        "root_moves_done": result.root_moves_done,
        "moves": [move_json(scored, comparison.board) for scored in result.root_scores],
    }
    if result.algorithm == YOURS:
        row.update(name=result.label, file=str(comparison.eval_file))
    return row


def over_json(board: Board) -> dict[str, Any]:
    """A finished position as JSON: its result, and no search (`minimax` is null)."""
    return {
        "position": str(board),
        "size": board.size,
        "k": board.k,
        "to_move": str(board.to_move),
        "result": board_result(board),
        "results": [],
        "minimax": None,
    }


def to_json(comparison: Comparison) -> dict[str, Any]:
    """The whole comparison as the JSON object docs/lab.md documents."""
    board = comparison.board
    run = comparison.minimax
    skipped = comparison.too_big_tree or (run.tree if run.too_big else None)
    return {
        "position": str(board),
        "size": board.size,
        "k": board.k,
        "to_move": str(board.to_move),
        "result": None,
        "results": [result_json(comparison, r) for r in comparison.results],
        "minimax": {
            "depth": run.result.depth,
            "tree_positions": run.tree.positions,
            "tree_exact": run.tree.exact,
            "positions_per_second": round(run.positions_per_second),
            "too_big": skipped is not None or run.too_big,
            "too_big_tree_positions": None if skipped is None else skipped.positions,
            "too_big_tree_exact": None if skipped is None else skipped.exact,
            # After a fallback, the depth minimax ran to is the one suggested.
            "suggested_depth": (
                run.result.depth if comparison.too_big_tree is not None else run.suggested_depth
            ),
        },
    }


def to_text(comparison: Comparison) -> str:
    """The comparison as a table with a line about minimax under it."""
    board = comparison.board
    rows = []
    for result in comparison.results:
        move = (
            "—"
            if not result.finished or result.move is None
            else cell_notation(result.move, board.size)
        )
        rows.append(
            [
                algorithm_label(result),
                move,
                signed(result.value) if result.finished else "—",
                value_words(result, board),
                f"{result.positions:,}",
                f"{result.cutoffs:,}",
                first_cut_text(result),
                f"{result.table_hits:,}",
                duration(result.seconds),
                agreement_words(comparison.verdict(result), result),
            ]
        )
    headers = [
        "algorithm",
        "move",
        "value",
        "meaning",
        "positions",
        "cut-offs",
        "1st cuts",
        "table hits",
        "time",
        "agrees with minimax",
    ]
    title = f"{board.size}×{board.size}, {board.k} in a row, {board.to_move} to move: {board}"
    notes = [minimax_note(comparison), left_out_note(comparison.results)]
    return "\n".join([title, "", table(headers, rows), "", *filter(None, notes)])
