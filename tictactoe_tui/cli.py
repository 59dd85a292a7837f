"""The command line: play (the default), `analyse` a position headless, or run the `bench`mark.

    tictactoe-tui [game flags]                 play (Settings screen unless a game flag is given)
    tictactoe-tui analyse BOARD [--algorithm A] [--k K] [--depth D] [--time-limit S]
    tictactoe-tui bench [--quick]              the benchmark, side by side with plain minimax
    tictactoe-tui match --x SPEC --o SPEC [--games N --size S --k K --seed N --json]
    tictactoe-tui history [--json]             the games played; export GAME_ID, import FILE

The engine-only commands never import Textual, so they start fast and run anywhere.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from tictactoe_tui.arguments import OneLineParser

PROG = "tictactoe-tui"


def analyse_command(argv: Sequence[str]) -> int:
    """Print every legal move of a position with its score, best first."""
    from tictactoe_tui.engine import ALGORITHMS, Board, IllegalMove, analyse_position
    from tictactoe_tui.engine.board import cell_notation
    from tictactoe_tui.engine.search import describe_score

    parser = OneLineParser(
        prog=f"{PROG} analyse",
        description="Score every legal move of a position, best first, from the side to move.",
        epilog='Example: tictactoe-tui analyse "XX./OO./X.."  (rows split by "/", "." is empty). '
        "Cells are named A1 (top-left) to C3 on 3×3: column letter, then row number.",
    )
    parser.add_argument("board", help="the position: X, O and '.' row by row, rows split by '/'")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="alphabeta")
    parser.add_argument("--k", type=int, default=None, help="marks in a row to win")
    parser.add_argument("--depth", type=int, default=None, help="search depth (plies)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds for alpha-beta")
    args = parser.parse_args(list(argv))
    try:
        board = Board.from_string(args.board, k=args.k)
    except IllegalMove as err:
        parser.error(str(err))
    if board.is_over:
        print(f"The game is over: {'a draw' if board.winner is None else f'{board.winner} wins'}.")
        return 0
    result = analyse_position(board, args.algorithm, depth=args.depth, time_limit=args.time_limit)
    print(f"{board.size}×{board.size}, {board.k} in a row, {board.to_move} to move; "
          f"{result.algorithm}: {result.nodes:,} positions, {result.elapsed * 1000:.1f} ms, "
          f"depth {result.depth}{'' if result.complete else ' (cut off)'}")
    print(" rank  cell  score  meaning            positions")
    for rank, scored in enumerate(result.scores, start=1):
        meaning = describe_score(scored.score, board, exact=scored.exact)
        print(f"{rank:>5}  {cell_notation(scored.move, board.size):<4}  {scored.score:>5}  "
              f"{meaning:<17}  {scored.nodes:>9,}")
    return 0


COMMANDS: dict[str, str] = {
    "analyse": "tictactoe_tui.cli:analyse_command",
    "bench": "tictactoe_tui.bench:main",
    "match": "tictactoe_tui.commands.match:main",
    "history": "tictactoe_tui.commands.history:history_command",
    "export": "tictactoe_tui.commands.history:export_command",
    "import": "tictactoe_tui.commands.history:import_command",
    "compare": "tictactoe_tui.commands.compare:main",
}
"""Each command other than play, as "module:function"; the function takes the arguments after
the command's name and returns the exit status. Imported only when run, so each command starts
fast and the engine-only ones never load Textual."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named by `argv` (default: play) and return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    target = COMMANDS.get(args[0]) if args else None
    if target is not None:
        module_name, function_name = target.split(":")
        command: Callable[[list[str]], int] = getattr(import_module(module_name), function_name)
        return command(args[1:])
    if args[:1] == ["play"]:
        args = args[1:]
    from tictactoe_tui.app import TicTacToeApp

    TicTacToeApp.from_args(args).run()
    return 0
