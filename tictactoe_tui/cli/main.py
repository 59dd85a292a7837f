"""The command line: play (the default), `analyse` a position headless, or run the `bench`mark.

    tictactoe-tui [game flags]                 play (Settings screen unless a game flag is given)
    tictactoe-tui --text [game flags]          play as plain lines on stdin/stdout
    tictactoe-tui --version                    the version
    tictactoe-tui analyse BOARD [--algorithm A] [--k K] [--depth D] [--time-limit S] [--json]
    tictactoe-tui bench [--quick]              the benchmark, side by side with plain minimax
    tictactoe-tui match --x SPEC --o SPEC [--games N --size S --k K --seed N --json]
    tictactoe-tui history [--json]             the games played; export GAME_ID, import FILE
    tictactoe-tui serve [--host H] [--port P] [game flags]   the app in a browser tab
    tictactoe-tui puzzles [--size N] [--k K] [--count C] [--seed S] [--json]   proven puzzles
    tictactoe-tui drill [--depth D] [--width W] [--seed S] [--json | --text]   alpha-beta by hand
    tictactoe-tui grade FILE [--json]          grade a learner's evaluate() or choose()
    tictactoe-tui learn [--text | --progress [--json] | --reset]   the course, with stars
    tictactoe-tui pbrain                       a Gomocup brain on stdin/stdout

The engine-only commands never import Textual, so they start fast and run anywhere.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

VERSION_ALONE = (["--version"], ["-V"])
"""The command lines that only ask for the version: answered without loading Textual."""

COMMANDS: dict[str, str] = {
    "analyse": "tictactoe_tui.cli.analyse:main",
    "bench": "tictactoe_tui.cli.bench:main",
    "match": "tictactoe_tui.cli.match:main",
    "history": "tictactoe_tui.cli.history:history_command",
    "export": "tictactoe_tui.cli.history:export_command",
    "import": "tictactoe_tui.cli.history:import_command",
    "serve": "tictactoe_tui.cli.serve:main",
    "compare": "tictactoe_tui.cli.compare:main",
    "puzzles": "tictactoe_tui.cli.puzzles:main",
    "pbrain": "tictactoe_tui.cli.pbrain:main",
    "drill": "tictactoe_tui.cli.drill:main",
    "grade": "tictactoe_tui.cli.grade:main",
    "learn": "tictactoe_tui.cli.learn:main",
}
"""Each command other than play, as "module:function"; the function takes the arguments after
the command's name and returns the exit status. Imported only when run, so each command starts
fast and the engine-only ones never load Textual."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named by `argv` (default: play) and return the exit status.

    Output piped into a reader that stops early (`tictactoe-tui analyse ... | head`) ends the
    command quietly, for every command, with the status a program killed by SIGPIPE has.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            status = _run(args)
        finally:
            # Flush inside the guard, on a normal return and on SystemExit (argparse's --help)
            # alike: a pipe closed under buffered output fails on this flush.
            sys.stdout.flush()
    except BrokenPipeError:
        # Python would report the pipe again when it flushes stdout at exit: point stdout at
        # nothing first (the reader has gone, so nothing is lost).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 128 + signal.SIGPIPE
    return status


def _run(args: list[str]) -> int:
    """Dispatch to the command named by `args[0]`, or play."""
    target = COMMANDS.get(args[0]) if args else None
    if target is not None:
        module_name, function_name = target.split(":")
        command: Callable[[list[str]], int] = getattr(import_module(module_name), function_name)
        return command(args[1:])
    if args[:1] == ["play"]:
        args = args[1:]
    if args in VERSION_ALONE:
        # The game flags' own parser prints it (and exits); without its --help, which lists the
        # themes, it needs no Textual.
        from tictactoe_tui.cli.flags import build_parser

        build_parser(list_themes=False).parse_args(args)
    if "--text" in args:
        # Before Textual is imported: the text mode never loads it.
        from tictactoe_tui.cli.text_mode import main as text_mode

        return text_mode(args)
    from tictactoe_tui.cli.play import app_from_args

    app = app_from_args(args)
    app.run()
    # Non-zero after an unexpected error (1) or a signal that ended the app (128 + its number).
    return app.return_code or 0
