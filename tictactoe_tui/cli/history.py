"""`tictactoe-tui history`, `export GAME_ID` and `import FILE`: the history from the shell.

    tictactoe-tui history [--json] [--studies] [--data-dir DIR]   list the games (or studies)
    tictactoe-tui export GAME_ID [--data-dir DIR]       print a game as a text record
    tictactoe-tui export --study ID [--data-dir DIR]    print a study with its variations
    tictactoe-tui import FILE [--data-dir DIR]          add a record's game or study; print its id

A problem with the history itself (a damaged file moved aside, a newer program's file, a folder
that cannot be written) is one line on stderr and the command carries on; bad input (a --data-dir
that is a file, or empty) is one line on stderr and exit status 2. The reading commands (`history`,
`export`) never make a directory or a database: where there is none, there are no games.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from tictactoe_tui.history.locations import DATA_DIR_ENV, data_dir_argument, data_dir_problem
from tictactoe_tui.history.predictions import predictions, tally_of
from tictactoe_tui.history.record import PlayedGame, is_study_record, study_from_record
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.arguments import OneLineParser

PROG = "tictactoe-tui"

DATA_DIR_HELP = (
    "where the history lives (default: $TICTACTOE_TUI_DATA_DIR, else the user data directory)"
)
"""The --data-dir flag's help, the same for every command."""


def _parser(command: str, description: str) -> OneLineParser:
    parser = OneLineParser(prog=f"{PROG} {command}", description=description)
    parser.add_argument("--data-dir", metavar="DIR", type=data_dir_argument, help=DATA_DIR_HELP)
    return parser


def _parse(parser: OneLineParser, argv: Sequence[str]) -> argparse.Namespace:
    """The command's arguments; a data directory from the environment is checked as the flag is
    (one line and status 2 when it is a file)."""
    args = parser.parse_args(list(argv))
    from_environment = os.environ.get(DATA_DIR_ENV, "")
    if args.data_dir is None and from_environment:
        problem = data_dir_problem(from_environment)
        if problem is not None:
            parser.error(f"${DATA_DIR_ENV}: {problem}")
    return args


def _open(directory: str | None) -> HistoryStore:
    """The history as it is, with its notice (if any) on stderr; none is made where none is."""
    store = HistoryStore.open(directory, create=False)
    if store.notice:
        print(f"{PROG}: {store.notice}", file=sys.stderr)
    return store


def history_command(argv: Sequence[str]) -> int:
    """List the games of the history, newest first."""
    parser = _parser("history", "List the games in the history, newest first.")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print a JSON list of {"id", "started", "mode", "x", "o", "size", '
        '"k", "result", "moves"}',
    )
    parser.add_argument(
        "--studies",
        action="store_true",
        help="list the analysis board's studies instead of the games",
    )
    parser.add_argument(
        "--predictions",
        action="store_true",
        help="the predictions answered in predict mode: the score per kind of question, the "
        "streak, and the last answers",
    )
    args = _parse(parser, argv)
    if args.studies and args.predictions:
        parser.error("--studies and --predictions list different things: give one")
    store = _open(args.data_dir)
    if args.studies:
        return _list_studies(store, args.json)
    if args.predictions:
        return _list_predictions(store, args.json)
    games = store.games(limit=-1)
    store.close()
    if args.json:
        print(json.dumps([game.to_json() for game in games], indent=1))
        return 0
    if not games:
        where = (
            f"the history is {store.path}"
            if store.path.exists()
            else f"there is no {store.path} yet"
        )
        print(f"No games yet ({where}).")
        return 0
    # As wide as the longest name listed ("engine:Named Brain"), so the columns stay straight.
    wide = max([10, *(len(name) for game in games for name in (game.x, game.o))])
    print(
        f"{'id':>5}  {'started':<16}  {'mode':<20}  {'X':<{wide}}  {'O':<{wide}}  "
        f"{'board':<9}  {'result':<9}  moves"
    )
    for game in games:
        board = f"{game.size}×{game.size} k{game.k}"
        print(
            f"{game.id:>5}  {game.started:%Y-%m-%d %H:%M}  {game.mode:<20}  {game.x:<{wide}}  "
            f"{game.o:<{wide}}  {board:<9}  {game.outcome:<9}  {game.moves:>5}"
        )
    return 0


LAST_PREDICTIONS = 10
"""How many of the latest answers `history --predictions` lists."""


def _list_predictions(store: HistoryStore, as_json: bool) -> int:
    """The predictions' tally (per kind of question, the streak) and the latest answers."""
    kept = predictions(store)
    store.close()
    tally = tally_of(kept)
    if as_json:
        print(
            json.dumps(
                {**tally.as_json(), "answers": [asdict(answer) for answer in kept]}, indent=1
            )
        )
        return 0
    if not kept:
        print("No predictions yet: play with --predict (or f in a game) to be asked.")
        return 0
    print(f"Predictions: {tally.right} of {tally.asked} right.")
    for line in tally.lines():
        print(f"  {line}")
    print(f"The last {min(LAST_PREDICTIONS, len(kept))}:")
    for answer in kept[-LAST_PREDICTIONS:]:
        verdict = "right" if answer.right else f"not quite (expected {answer.expected})"
        print(
            f"  {answer.size}×{answer.size} {answer.position}  {answer.question:<5}  "
            f"{answer.answer:<6} {verdict}  {answer.seconds:.1f} s"
        )
    return 0


def _list_studies(store: HistoryStore, as_json: bool) -> int:
    """Print the studies kept, the last saved first."""
    studies = store.studies()
    store.close()
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "id": s.id,
                        "saved": s.saved.isoformat(),
                        "size": s.size,
                        "k": s.k,
                        "position": s.root,
                        "moves": s.moves,
                        "variations": s.variations,
                    }
                    for s in studies
                ],
                indent=1,
            )
        )
        return 0
    if not studies:
        print("No studies yet (k on the analysis board keeps one).")
        return 0
    print(f"{'id':>5}  {'saved':<16}  {'board':<9}  {'moves':>5}  {'variations':>10}  position")
    for study in studies:
        board = f"{study.size}×{study.size} k{study.k}"
        print(
            f"{study.id:>5}  {study.saved:%Y-%m-%d %H:%M}  {board:<9}  {study.moves:>5}  "
            f"{study.variations:>10}  {study.root}"
        )
    return 0


def export_command(argv: Sequence[str]) -> int:
    """Print one game (or a study, with `--study`) as a text record."""
    parser = _parser(
        "export",
        "Print a game of the history as a text record (or, with "
        "--study, a study with every variation).",
    )
    parser.add_argument(
        "game_id", metavar="GAME_ID", nargs="?", help="the game's id (see `history`)"
    )
    parser.add_argument("--study", metavar="ID", help="a study's id (see `history --studies`)")
    args = _parse(parser, argv)
    if args.study is not None:
        if args.game_id is not None:
            parser.error("give a GAME_ID or --study ID, not both")
        return _export_one(
            parser,
            args.data_dir,
            "--study",
            "study",
            args.study,
            lambda store, number: store.study(number),
        )
    if args.game_id is None:
        parser.error("give the GAME_ID of a game (or --study ID)")

    def game_record(store: HistoryStore, number: int) -> str | None:
        game = store.game(number)
        return None if game is None else game.to_record(number)

    return _export_one(parser, args.data_dir, "GAME_ID", "game", args.game_id, game_record)


def _export_one(
    parser: argparse.ArgumentParser,
    data_dir: str | None,
    flag: str,
    what: str,
    number: str,
    record_of: Callable[[HistoryStore, int], str | None],
) -> int:
    """Print the record of `what` ("game" or "study") number `number` (as `flag` gave it), or
    say in one line (exit 2) that it is not a number or not in the history."""
    if not number.isdigit():
        parser.error(f"{flag} must be a {what}'s number, not {number!r}")
    store = _open(data_dir)
    record = record_of(store, int(number))
    store.close()
    if record is None:
        parser.error(f"there is no {what} {number} in {store.path}")
    sys.stdout.write(record)
    return 0


def import_command(argv: Sequence[str]) -> int:
    """Add the game of a text record to the history and print its new id."""
    parser = _parser(
        "import",
        "Add a game from a text record (as `export` writes) to the history and print its new id.",
    )
    parser.add_argument("file", metavar="FILE", help="the record's file ('-' reads stdin)")
    args = _parse(parser, argv)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not a text file"
        parser.error(f"cannot read {args.file}: {reason}")
    if is_study_record(text):
        return _import_study(parser, args.file, text, args.data_dir)
    try:
        game = PlayedGame.from_record(text)
    except ValueError as error:
        parser.error(f"{args.file} is not a game record: {error}")
    store = HistoryStore.open(args.data_dir)
    if args.file != "-" and Path(args.file).name in store.adopted and not Path(args.file).exists():
        # One of this history's waiting records: opening the history has just saved it.
        game_id: int | None = store.adopted[Path(args.file).name]
    else:
        game_id = store.save(game, keep=False)
    store.close()
    return _report_added(store, "game", game_id)


def _report_added(store: HistoryStore, what: str, new_id: int | None) -> int:
    """Print the id `import` gave the new `what` ("game" or "study"), with the history's
    notice on stderr; or say in one line why it was not added (status 1)."""
    if new_id is None:
        why = (
            "the history is locked by another program (try again once it is free)"
            if store.locked
            else store.notice
        )
        print(f"{PROG} import: the {what} was not added: {why}", file=sys.stderr)
        return 1
    if store.notice:
        print(f"{PROG}: {store.notice}", file=sys.stderr)
    print(new_id)
    return 0


def _import_study(parser: OneLineParser, name: str, text: str, directory: str | None) -> int:
    """Add a study's record to the history and print its new id."""
    try:
        study_from_record(text)
    except ValueError as error:
        parser.error(f"{name} is not a study record: {error}")
    store = HistoryStore.open(directory)
    study_id = store.save_study(text)
    store.close()
    return _report_added(store, "study", study_id)
