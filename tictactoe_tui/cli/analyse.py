"""`tictactoe-tui analyse BOARD`: score every legal move of a position, headless.

    tictactoe-tui analyse "XX./OO./X.."                      a table, best move first
    tictactoe-tui analyse "XX./OO./X.." --json               the same as JSON (schema below)
    tictactoe-tui analyse "..../..../..../...." --algorithm minimax --depth 4
    tictactoe-tui analyse "XX./OO./X.." --eval my_eval.py   your evaluation beside H1 and H2

Every limit is checked before the search starts (a depth of at least 1, a time limit that is a
positive number of seconds) and honoured by every algorithm: plain minimax stops at the time
limit (`MINIMAX_TIME_LIMIT` when none is given), and the output says how many moves it scored.

Every score says what it is. The table prints a bound with its sign ("≤ -14": the search only
proved the move is no better; "≥ +3") and notes where a score came from when not from a search
of its own (so a move scored with 0 positions is explained: "mirror of B1", "from the table",
"rule: wins at once", "threats: wins by continuous fours") and a move's depth when it differs
from the search's ("depth 1": a cell far from every stone, looked at one ply deep).

The JSON object: position (the board as `analyse` reads it), size, k, to_move, result (null while
the game goes on, else "X", "O" or "draw"), algorithm, nodes, seconds, depth, complete (the best
move is proven best), stopped (true when the time limit cut the search short), best_moves (the
moves known to be equally good, as cell names), iterations (one per completed depth, first to
last: depth, move, score, kind, band, words, positions so far, seconds, pv, source, complete),
and moves, best first: each with move ("B2"), score, words ("win in 3", "loses, in at most 14",
"at most -4 (heuristic)"), exact, kind ("exact", "estimate", "at_most", "at_least"), band ("win",
"loss", "draw", "heuristic": what sort of number score is), proven, depth (plies searched below
the move: 0 for a rule, a threat search or the table), source ("search", "table", "symmetry",
"threats", "rule"), rule (which rule or threat search, else null), twin (for "symmetry": the
cell whose mirror image it is, else null), positions and pv (the expected line, as cell names;
for a rule or a threat search, the forcing line) and pv_words (that line told threat by threat,
one sentence per move: `text.threats.line_words`).

With `--eval FILE` (a learner's file defining `evaluate(board, player)`, see docs/your-code.md)
every move also gets its one-ply values, the board after the move seen from the player who made
it, by H1, H2 and the file: three more columns, "h1", "h2" and "yours: FILE" (JSON: `eval`
{file, name} and, per move, h1, h2 and yours). The file runs in a process of its own; when it
fails (it raises, hangs, prints, returns no number, defines no evaluate) the command says so
in one line on stderr and exits 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from tictactoe_tui.engine import ALGORITHMS, Analysis, Board, IllegalMove, analyse_position
from tictactoe_tui.engine.lab.yours import OnePly, one_ply_values
from tictactoe_tui.engine.players.guest import GuestFault, check_guest_path
from tictactoe_tui.engine.rules.board import cell_notation, parse_cell
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.engine.search.types import IterationInfo, MoveScore, describe_score
from tictactoe_tui.play.arguments import OneLineParser, positive_int, positive_seconds
from tictactoe_tui.text.scores import (
    LEGEND,
    equally_good_words,
    note_words,
    score_meaning,
    score_text,
)
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
    # The names as typed: argparse would list the enum's members by their repr.
    parser.add_argument(
        "--algorithm",
        choices=[str(name) for name in ALGORITHMS],
        default="alphabeta",
        type=str.lower,
        help="how to score the moves (default alphabeta)",
    )
    parser.add_argument("--k", type=positive_int, default=None, help="marks in a row to win")
    parser.add_argument(
        "--depth",
        type=positive_int,
        default=None,
        help="plies to search before scoring with H1 (default: to the end, or as "
        "deep as the time limit allows)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds the search may take (default: alpha-beta 1 s on boards it "
        f"cannot solve, minimax {MINIMAX_TIME_LIMIT:g} s)",
    )
    parser.add_argument(
        "--eval",
        default=None,
        metavar="FILE",
        help="a Python file defining evaluate(board, player): its value of each move "
        "beside H1's and H2's",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the table"
    )
    return parser


def read_eval(parser: OneLineParser, text: str | None) -> str | None:
    """The --eval file, checked to be a Python file that exists (else the parser's one line)."""
    if text is None:
        return None
    try:
        check_guest_path(text)
    except ValueError as error:
        parser.error(str(error))
    return text


def guest_failed(prog: str, fault: GuestFault) -> int:
    """A learner's file failed: one line on stderr (its reason), exit status 2."""
    print(f"{prog}: {fault.reason}", file=sys.stderr)
    return 2


def main(argv: Sequence[str]) -> int:
    """Analyse the position given on the command line; print a table or JSON."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        board = read_position(args.board, k=args.k)
    except IllegalMove as err:
        parser.error(str(err))
    eval_file = read_eval(parser, args.eval)
    yours = None
    if eval_file is not None:
        # Before the search: a file that fails says so at once.
        try:
            yours = one_ply_values(board, eval_file)
        except GuestFault as fault:
            return guest_failed(PROG, fault)
    analysis, stopped = _analyse(board, args.algorithm, args.depth, args.time_limit)
    if args.json:
        output = as_json(board, analysis, stopped)
        if yours is not None:
            add_yours_json(output, board, yours)
        print(json.dumps(output, indent=2, ensure_ascii=False))
    else:
        print(as_table(board, analysis, stopped, yours))
    return 0


def _analyse(
    board: Board, algorithm: str, depth: int | None, time_limit: float | None
) -> tuple[Analysis, bool]:
    """The analysis, and whether the time limit stopped it before every move was scored."""
    if algorithm == "minimax" and time_limit is None:
        time_limit = MINIMAX_TIME_LIMIT  # a 4×4 tree would take years: never run unbounded
    analysis = analyse_position(board, algorithm, depth=depth, time_limit=time_limit)
    return analysis, len(analysis.scores) < len(board.legal_moves())


def board_result(board: Board) -> str | None:
    """None while the game goes on, else the winner's mark or "draw"."""
    if not board.is_over:
        return None
    return "draw" if board.winner is None else str(board.winner)


def game_over_words(board: Board) -> str:
    """A finished position's answer (not an error: every command that reads a position says
    it and exits 0): "The game is over: X wins.", "The game is over: a draw."."""
    return f"The game is over: {'a draw' if board.winner is None else f'{board.winner} wins'}."


def move_json(scored: MoveScore, board: Board) -> dict[str, Any]:
    """One move's score as JSON: the number and everything it says about itself."""
    size = board.size
    return {
        "move": cell_notation(scored.move, size),
        "score": scored.score,
        "words": score_meaning(scored, board),
        "exact": scored.exact,
        "kind": scored.kind,
        "band": scored.band,
        "proven": scored.proven,
        "depth": scored.depth,
        "source": scored.source,
        "rule": scored.rule or None,
        "twin": None if scored.twin is None else cell_notation(scored.twin, size),
        "positions": scored.nodes,
        "pv": [cell_notation(cell, size) for cell in scored.pv],
        "pv_words": line_words(board, scored.pv),
    }


def iteration_json(row: IterationInfo, board: Board) -> dict[str, Any]:
    """One completed depth of the search as JSON."""
    size = board.size
    return {
        "depth": row.depth,
        "move": cell_notation(row.move, size),
        "score": row.score,
        "kind": row.kind,
        "band": row.band,
        "words": describe_score(row.score, board, kind=row.kind, band=row.band),
        "positions": row.nodes,
        "seconds": round(row.elapsed, 6),
        "pv": [cell_notation(cell, size) for cell in row.pv],
        "source": row.source,
        "complete": row.complete,
    }


def as_json(board: Board, analysis: Analysis, stopped: bool) -> dict[str, Any]:
    """The analysis as the JSON object the module docstring describes."""
    size = board.size
    return {
        "position": str(board),
        "size": size,
        "k": board.k,
        "to_move": str(board.to_move),
        "result": board_result(board),
        "algorithm": analysis.algorithm,
        "nodes": analysis.nodes,
        "seconds": round(analysis.elapsed, 6),
        "depth": analysis.depth,
        "complete": analysis.complete,
        "stopped": stopped,
        "best_moves": [cell_notation(move, size) for move in analysis.best_moves],
        "iterations": [iteration_json(row, board) for row in analysis.iterations],
        "moves": [move_json(scored, board) for scored in analysis.scores],
    }


def add_yours_json(output: dict[str, Any], board: Board, yours: OnePly) -> None:
    """The learner's evaluation in `analyse --json`: `eval`, and each move's h1, h2, yours."""
    output["eval"] = {"file": str(yours.path), "name": yours.name}
    for move in output["moves"]:
        values = yours.of(parse_cell(move["move"], board.size))
        move.update(h1=values.h1, h2=values.h2, yours=values.yours)


def number_text(value: float) -> str:
    """An evaluation's value in a table, as the score column writes numbers: "3", "-2", "1.5"."""
    return f"{value:g}"


def as_table(board: Board, analysis: Analysis, stopped: bool, yours: OnePly | None = None) -> str:
    """The analysis as a header line and one row per move, best first; with `yours`, each
    move's one-ply values by H1, H2 and the learner's evaluation before the note."""
    if board.is_over:
        return game_over_words(board)
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
    if not analysis.scores:
        return "\n".join(lines)
    rows = [
        [
            str(rank),
            cell_notation(scored.move, board.size),
            score_text(scored.score, scored.kind),
            score_meaning(scored, board),
            f"{scored.nodes:,}",
            *_values_cells(yours, scored.move),
            note_words(scored, board, analysis.depth),
        ]
        for rank, scored in enumerate(analysis.scores, start=1)
    ]
    headers = ["rank", "cell", "score", "meaning", "positions"]
    aligns = "><><>"
    if yours is not None:
        headers += ["h1", "h2", yours.name]
        aligns += ">>>"
    lines.append(_table([*headers, "note"], rows, aligns + "<"))
    notes = [equally_good_words(analysis.best_moves, board)]
    if any(scored.kind in ("at_most", "at_least") for scored in analysis.scores):
        notes.append(LEGEND)
    if yours is not None:
        notes.append(
            f"h1, h2, {yours.name}: the board after the move, for {board.to_move} "
            "(one ply, no search)."
        )
    if any(notes):
        # Below a blank line: whoever reads the table's rows stops there.
        lines += ["", *(note for note in notes if note)]
    return "\n".join(lines)


def _values_cells(yours: OnePly | None, move: int) -> list[str]:
    """A move's h1, h2 and yours cells (none without --eval)."""
    if yours is None:
        return []
    values = yours.of(move)
    return [number_text(values.h1), number_text(values.h2), number_text(values.yours)]


def _table(headers: list[str], rows: list[list[str]], aligns: str) -> str:
    """Columns two spaces apart, each aligned as `aligns` says ("<" left, ">" right)."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if align == "<" else cell.rjust(width)
            for cell, width, align in zip(cells, widths, aligns, strict=True)
        ).rstrip()

    return "\n".join(line(row) for row in [headers, *rows])
