"""The game flags (`tictactoe-tui --size 10 --k 5 ...`) that make `GameSettings`.

Read by the play command (`cli.play`, which hands the app what they say), the text mode
(`--text`) and `serve` (which checks them before it starts any app). The themes `--theme`
accepts are Textual's and the app's own (`ui.themes`); they are imported only when needed
(`themes()`), so the text mode reads the same flags without loading Textual.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import cache

from tictactoe_tui import __version__
from tictactoe_tui.engine import Board, IllegalMove, PlayerSpec
from tictactoe_tui.engine.players.guest import GUEST
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_SIZE
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.history.locations import data_dir_argument
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.play.settings import (
    COMPUTERS,
    GAME_FLAGS,
    MAX_DEPTH,
    MIN_DEPTH,
    MODES,
    GameSettings,
    SettingError,
    flag_of,
    settings_from_text,
)

PROG = "tictactoe-tui"
"""The program name used in command-line messages."""

TEXT_MODE_FLAG = "--text"
"""The flag that plays the game as plain lines on stdin/stdout (`cli.text_mode`)."""


@cache
def themes() -> tuple[str, ...]:
    """The themes the app offers (`ui.themes.THEMES`: Textual's and its own).

    Imported here, when first asked, not with this module: they are Textual themes, and the
    text mode reads the game flags too and must start without Textual.
    """
    from tictactoe_tui.ui.themes import THEMES

    return THEMES


EPILOG = """\
With no game flag (--theme alone counts as none) the app opens on the Settings screen;
with any, it starts the game at once. --position opens the analysis board instead.

other commands (each has its own --help):
  tictactoe-tui analyse BOARD       score every move of a position
  tictactoe-tui compare BOARD       minimax, alpha-beta and the heuristics side by side
  tictactoe-tui match --x SPEC --o SPEC
                                    play N games between two computer players
  tictactoe-tui history             list the games kept (export GAME_ID, import FILE)
  tictactoe-tui puzzles             puzzles with proven answers (the only win, the only defence)
  tictactoe-tui drill               run alpha-beta by hand on a tree cut from a real position
  tictactoe-tui grade FILE          grade your own evaluate() or choose() against proven values
  tictactoe-tui learn               the course: lessons with exercises and stars (--text too)
  tictactoe-tui serve               play in a browser (textual-serve, loopback by default)
  tictactoe-tui pbrain              our engine as a Gomocup brain (also pbrain-tictactoe-tui)
  tictactoe-tui bench               time the engine against plain minimax

tictactoe-tui --text [game flags] plays the same game as plain lines (screen readers, braille
displays, pipes): type a cell such as B2, or help.
"""
"""The end of `--help`: how the first screen is chosen, and every other command."""


def build_parser(list_themes: bool = True) -> argparse.ArgumentParser:
    """The parser for the game flags; values are read as text and checked by `GameSettings`.

    `--help` lists the themes unless `list_themes` is False (the text mode: no Textual).
    """
    parser = OneLineParser(
        prog=PROG,
        description="Play tic-tac-toe in the terminal and watch the computer think.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=argparse.SUPPRESS,
    )
    _add_player_flags(parser)
    _add_board_flags(parser)
    _add_search_flags(parser)
    theme_names = f": {', '.join(themes())}" if list_themes else ""
    parser.add_argument(
        "--theme",
        metavar="NAME",
        help=f"a Textual theme{theme_names} (default {GameSettings().theme})",
    )
    _add_input_flags(parser)
    _add_way_flags(parser)
    return parser


def _add_player_flags(parser: argparse.ArgumentParser) -> None:
    """Who plays: the mode, who starts, the marks, the computer players and how clever."""
    defaults = GameSettings()
    parser.add_argument(
        "--mode",
        metavar="{" + ",".join(MODES) + "}",
        help=f"who plays whom (default {defaults.mode})",
    )
    parser.add_argument(
        "--first", metavar="{human,computer}", help="who moves first (default human)"
    )
    parser.add_argument("--mark", metavar="{X,O}", help="the human's mark (default X)")
    parser.add_argument(
        "--opponent",
        metavar="SPEC",
        help=f"the computer player: {', '.join(COMPUTERS)}, with options as "
        "match reads them (alphabeta:time=0.5, engine:path=PATH[:time=S] for "
        "an outside Gomocup brain, python:path=FILE[:time=S] for your own player, "
        f"alphabeta:eval=FILE[:depth=D] for our search with your evaluation; default "
        f"{defaults.opponent})",
    )
    parser.add_argument(
        "--engine", metavar="PATH", help="the outside engine's program when --opponent is engine"
    )
    parser.add_argument(
        "--x", metavar="SPEC", help="computer-vs-computer: X's player (a SPEC; implies that mode)"
    )
    parser.add_argument(
        "--o", metavar="SPEC", help="computer-vs-computer: O's player (a SPEC; implies that mode)"
    )
    parser.add_argument(
        "--difficulty", metavar="1..100", help="percentage of clever computer moves (default 100)"
    )


def _add_board_flags(parser: argparse.ArgumentParser) -> None:
    """The board: its size and the marks in a row that win."""
    parser.add_argument(
        "--size", metavar="N", help=f"board size {MIN_SIZE}..{MAX_SIZE} (default 3)"
    )
    parser.add_argument(
        "--k", metavar="K", help="marks in a row that win, 3..size (default: min(size, 5))"
    )


def _add_search_flags(parser: argparse.ArgumentParser) -> None:
    """The computer's search: its time, its seed, its depth."""
    parser.add_argument(
        "--time-limit",
        metavar="SECONDS",
        help="seconds per computer move on boards bigger than 3x3 (default 1)",
    )
    parser.add_argument("--seed", metavar="N", help="seed for reproducible computer moves")
    parser.add_argument(
        "--depth",
        metavar="PLIES",
        help=f"how far minimax and alpha-beta look ahead, {MIN_DEPTH}..{MAX_DEPTH} "
        "plies, scoring with H1 where they stop (default: automatic)",
    )


def _add_input_flags(parser: argparse.ArgumentParser) -> None:
    """What the app is handed: a position to analyse, the learner's evaluation, the history's
    folder."""
    parser.add_argument(
        "--position",
        metavar="BOARD",
        help="open the analysis board on this position: X, O and '.' row by "
        "row, rows split by '/', either case, as analyse reads it (the size "
        "comes from it; --k sets k)",
    )
    parser.add_argument(
        "--eval",
        metavar="FILE",
        dest="eval_file",
        help="your evaluate(board, player) in a Python file, shown beside H1 and H2 in the "
        "evaluation panel, the compare screen (a) and the heuristic lab (w); r there reads "
        "the file again",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        type=data_dir_argument,
        help="where the history is kept (default: $TICTACTOE_TUI_DATA_DIR, "
        "else the user data directory)",
    )


def _add_way_flags(parser: argparse.ArgumentParser) -> None:
    """How the game is played and shown: predict mode, the text mode, the version."""
    parser.add_argument(
        "--predict",
        action="store_const",
        const="on",
        help="predict mode: before the computer's move is shown, say which move it will play "
        "and what the position is worth for it; each answer is judged against proven values",
    )
    parser.add_argument(
        TEXT_MODE_FLAG,
        action="store_true",
        help="play as plain lines on stdin/stdout, for screen readers, braille "
        "displays and pipes (type help once it starts)",
    )
    parser.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")


def parse_args(
    argv: Sequence[str] | None = None, text_mode: bool = False
) -> tuple[GameSettings, bool]:
    """Read the game flags into `GameSettings`, and say whether any game flag was given.

    A bad value prints one line on stderr ("tictactoe-tui: --size must be between 3 and 20,
    not 21") and raises SystemExit(2). A flag that changes nothing in the game it sets up gets
    a one-line warning on stderr, and the game goes on. In the `text_mode` a theme is left out
    with a warning (it has no effect there, and checking it would load Textual).
    """
    parser = build_parser(list_themes=not text_mode)
    given: dict[str, str] = vars(parser.parse_args(sys.argv[1:] if argv is None else argv))
    given.pop("data_dir", None)  # where the history lives, not a game setting: data_dir_flag
    given.pop("text", None)  # how the game is shown, not a game setting
    if text_mode and given.pop("theme", None) is not None:
        print(
            f"{PROG}: warning: --theme has no effect in the text mode: it writes plain lines",
            file=sys.stderr,
        )
    if given.pop("position", None) is not None:
        if text_mode:
            parser.error(
                "--position opens the analysis board, which the text mode does not have: "
                "`tictactoe-tui analyse BOARD` reads the position as plain lines"
            )
        # --k belongs to the position (its size is the string's): `position_flag` reads both,
        # and refuses a --size the position does not have.
        given.pop("k", None)
        given.pop("size", None)
    if ":" in given.get("opponent", ""):
        given.update(_spec_fields(parser, given["opponent"]))
    if ("x" in given or "o" in given) and "mode" not in given:
        given["mode"] = "computer-vs-computer"
    try:
        settings = settings_from_text(given, () if text_mode else themes())
    except SettingError as error:
        if error.field == "engine":
            # The engine's program is given in --opponent's spec: there is no --engine flag.
            parser.error(f"--opponent engine: {error.problem.removeprefix('cannot be used: ')}")
        if error.field == "learner":
            # The learner's file is given in --opponent's spec (python:path=, alphabeta:eval=).
            parser.error(f"--opponent: {error.problem.removeprefix('cannot be used: ')}")
        parser.error(f"{error.flag} {error.problem}")
    for name in given:
        reason = settings.unused(name)
        if reason is not None:
            print(f"{PROG}: warning: {flag_of(name)} has no effect {reason}", file=sys.stderr)
    return settings, any(name in given for name in GAME_FLAGS)


def _spec_fields(parser: argparse.ArgumentParser, text: str) -> dict[str, str]:
    """The settings an --opponent SPEC stands for (`alphabeta:time=0.5` → opponent and
    time_limit); a bad spec is the parser's one-line error."""
    try:
        spec = PlayerSpec.parse(text)
    except ValueError as error:
        parser.error(f"--opponent {error}")
    fields = {"opponent": spec.opponent}
    if spec.depth is not None:
        fields["depth"] = str(spec.depth)
    if spec.time_limit is not None:
        fields["time_limit"] = repr(spec.time_limit)
    if spec.difficulty != 100:
        fields["difficulty"] = str(spec.difficulty)
    if spec.path is not None:
        fields["learner" if spec.opponent == GUEST else "engine"] = spec.path
    if spec.eval_path is not None:
        fields["learner"] = spec.eval_path
    return fields


def position_flag(argv: Sequence[str] | None = None) -> Board | None:
    """The --position flag's board (with --k), or None; an impossible or unreadable position
    prints one line on stderr and raises SystemExit(2)."""
    parser = build_parser()
    given = parser.parse_args(sys.argv[1:] if argv is None else argv)
    text: str | None = getattr(given, "position", None)
    if text is None:
        return None
    k_text: str | None = getattr(given, "k", None)
    try:
        k = int(k_text) if k_text is not None else None
    except ValueError:
        parser.error(f"--k must be a whole number, not {k_text!r}")
    try:
        board = read_position(text, k)
    except IllegalMove as error:
        parser.error(f"--position {text!r}: {error}")
    size_text: str | None = getattr(given, "size", None)
    if size_text is not None and size_text.strip() != str(board.size):
        parser.error(
            f"--size {size_text} does not fit --position, a {board.size}×{board.size} board: "
            "the size comes from the position (leave --size out)"
        )
    return board


def data_dir_flag(argv: Sequence[str] | None = None) -> str | None:
    """The --data-dir flag's value, or None (after `parse_args` has checked the flags)."""
    given = build_parser(list_themes=False).parse_args(sys.argv[1:] if argv is None else argv)
    return getattr(given, "data_dir", None)
