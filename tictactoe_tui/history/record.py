"""A played game as the history keeps it: who played, every move with its cost, how it ended.

The Game screen builds a `PlayedGame` when a game ends (or is abandoned: a new game, settings or
quit before the end) and posts it to the app as `GameEnded` (see `messages.py`); the app hands
it to the history store. Plain data only, no Textual, so the store and the command line can use it.

`PlayedGame.to_record` writes a game as the engine's text record (`engine/game.py`: a header line
and a `moves:` line) with the rest in `#` comment lines, which `Game.from_record` skips::

    # tictactoe-tui game
    # started: 2025-03-01T14:02:11
    # ended: 2025-03-01T14:03:40
    # mode: human-vs-computer
    # x: human
    # o: alphabeta
    # difficulty: 100
    # outcome: O
    # move 2: O computer clever seconds=0.0021 positions=1234
    # settings: {"mode": "human-vs-computer", ...}
    tictactoe 3x3 k=3 first=X
    moves: 5 1 9 3 ...

`PlayedGame.from_record` reads it back, and also a bare engine record with no comments (then the
game counts as two people's, dated now). The moves decide the outcome: a record whose moves end
the game cannot claim otherwise, and one whose moves do not is an abandoned game.

A study of the analysis board (a root position and every variation explored from it) has a
record of its own, with the variations in brackets after the move they are an alternative to,
as a chess game's PGN writes them (`study_to_record`, `study_from_record`)::

    # tictactoe-tui study 3
    # saved: 2025-03-01T14:02:11
    tictactoe-study 3x3 k=3
    position: X../.O./... to-move=X
    moves: C1 ( C3 A1 ) B1 ( A2 )

Here X's C1 is the main line, X's C3 (then O's A1) an alternative to it; after C1, O's B1 is
the main reply and A2 another.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal, cast

from tictactoe_tui.engine import Game, IllegalMove, Mark
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.rules.setup import setup_position
from tictactoe_tui.history.study import MoveTree, Node

if TYPE_CHECKING:
    from tictactoe_tui.engine.players.match import GameOutcome

Outcome = Literal["X", "O", "draw", "abandoned"]
"""How a game ended: a mark won, a draw, or it was left before the end."""


@dataclass(frozen=True)
class PlayedMove:
    """One move of a played game."""

    cell: int
    """0-based, row-major."""
    mark: Mark
    """Who made it."""
    by_computer: bool
    """True when the computer chose it (also in computer-vs-computer)."""
    seconds: float | None = None
    """How long the computer thought (None for a person's move)."""
    positions: int | None = None
    """Positions the computer's search visited (None for a person's move or a random player)."""
    clever: bool | None = None
    """For a computer move: True for its clever move, False for a random one; None for a person."""


@dataclass(frozen=True)
class PlayedGame:
    """A game from its first move to its end, with the settings it was played with."""

    mode: str
    """"human-vs-computer", "human-vs-human" or "computer-vs-computer"."""
    x: str
    """Who played X: "human" or an opponent name ("alphabeta", "random", "h1", ...)."""
    o: str
    """Who played O, the same way."""
    size: int
    k: int
    first: Mark
    difficulty: int
    """The computer's difficulty (100 when no computer played)."""
    started: datetime
    ended: datetime
    moves: tuple[PlayedMove, ...]
    outcome: Outcome
    switched_to_random: tuple[int, ...] = field(default=())
    """Move numbers (0-based: before that move) at which `c` switched the computer to random
    play; switching back to clever is listed in `switched_to_clever`."""
    switched_to_clever: tuple[int, ...] = field(default=())
    """Move numbers at which `c` switched the computer back to clever play."""
    settings: dict[str, object] = field(default_factory=dict)
    """Every field of the `GameSettings` the game was played with (for "play again" and the
    Settings screen), as plain values."""
    setup_moves: int = 0
    """How many of the first moves were set up rather than played in this game ("Play from
    here" in the review starts a game from a position of an earlier one)."""
    forfeit: str = ""
    """When the loser lost by a fault rather than on the board (an outside engine that failed),
    why, in one sentence; `outcome` names the winner then."""

    @property
    def cells(self) -> tuple[int, ...]:
        """The cells played, in order."""
        return tuple(move.cell for move in self.moves)

    def replay(self) -> Game:
        """The engine's game with every move played (IllegalMove if the moves are not legal)."""
        game = Game(self.size, self.k, self.first)
        for cell in self.cells:
            game.play(cell)
        return game

    def to_record(self, game_id: int | None = None) -> str:
        """The game as text: the engine's record, with everything else in `#` comment lines."""
        lines = [
            f"# tictactoe-tui game{f' {game_id}' if game_id is not None else ''}",
            f"# started: {self.started.isoformat(timespec='seconds')}",
            f"# ended: {self.ended.isoformat(timespec='seconds')}",
            f"# mode: {self.mode}",
            f"# x: {self.x}",
            f"# o: {self.o}",
            f"# difficulty: {self.difficulty}",
            f"# outcome: {self.outcome}",
        ]
        if self.setup_moves:
            lines.append(f"# setup-moves: {self.setup_moves}")
        if self.forfeit:
            lines.append(f"# forfeit: {self.forfeit}")
        if self.switched_to_random:
            lines.append(f"# switched-to-random: {' '.join(map(str, self.switched_to_random))}")
        if self.switched_to_clever:
            lines.append(f"# switched-to-clever: {' '.join(map(str, self.switched_to_clever))}")
        lines += [_move_comment(number, move) for number, move in enumerate(self.moves, start=1)]
        if self.settings:
            lines.append(f"# settings: {json.dumps(self.settings, sort_keys=True)}")
        return "\n".join(lines) + "\n" + self.replay().to_record()

    @classmethod
    def from_record(cls, text: str, now: datetime | None = None) -> PlayedGame:
        """Read `to_record`'s text, or a bare engine record (a game between two people).

        Raises ValueError (IllegalMove for a move the rules refuse) saying what is wrong.
        """
        game = Game.from_record(text)
        meta: dict[str, str] = {}
        notes: dict[int, str] = {}
        for raw in text.splitlines():
            found = _META.fullmatch(raw.strip())
            if found is None:
                continue
            key, value = found.group(1).lower(), found.group(2).strip()
            move = _MOVE_KEY.fullmatch(key)
            if move is not None:
                notes[int(move.group(1))] = value
            else:
                meta[key] = value
        when = now if now is not None else datetime.now().replace(microsecond=0)
        marks = [game.first if i % 2 == 0 else game.first.opponent for i in range(len(game.moves))]
        moves = tuple(
            _read_move(number, cell, mark, notes.get(number, ""))
            for number, (cell, mark) in enumerate(zip(game.moves, marks, strict=True), start=1)
        )
        result = game.result
        outcome: Outcome = (
            "abandoned"
            if result is None
            else "draw"
            if result.winner is None
            else cast(Outcome, str(result.winner))
        )
        forfeit = meta.get("forfeit", "")
        if forfeit and result is None and meta.get("outcome") in ("X", "O"):
            # Lost by a fault before the board decided: the record's winner stands.
            outcome = cast(Outcome, meta["outcome"])
        elif result is not None:
            forfeit = ""
        settings = _read_settings(meta.get("settings"))
        return cls(
            mode=_word(meta, "mode", "human-vs-human"),
            x=_word(meta, "x", "human"),
            o=_word(meta, "o", "human"),
            size=game.size,
            k=game.k,
            first=game.first,
            difficulty=_number(meta, "difficulty", 100, 1, 100),
            started=_when(meta, "started", when),
            ended=_when(meta, "ended", when),
            moves=moves,
            outcome=outcome,
            switched_to_random=_numbers(meta, "switched-to-random", len(moves)),
            switched_to_clever=_numbers(meta, "switched-to-clever", len(moves)),
            settings=settings,
            setup_moves=_number(meta, "setup-moves", 0, 0, len(moves)),
            forfeit=forfeit if outcome in ("X", "O") else "",
        )


def played_from_match(
    outcome: GameOutcome, x: str, o: str, size: int, k: int, when: datetime
) -> PlayedGame:
    """Game `outcome` of a match between the players `x` and `o` (their specs, e.g.
    "alphabeta:time=0.5": the name before the first ':' is kept) as a played game, for the
    review. Every move is a computer's; X moves first, as in every match game; a game lost by
    a fault keeps its reason."""
    x_name, o_name = (name.split(":", 1)[0] for name in (x, o))
    if outcome.x_mark is not Mark.X:
        x_name, o_name = o_name, x_name
    moves = tuple(
        PlayedMove(cell, Mark.X if i % 2 == 0 else Mark.O, by_computer=True)
        for i, cell in enumerate(outcome.moves)
    )
    winner = outcome.winner  # a game lost by a fault names its winner too
    result: Outcome = "draw" if winner is None else winner.value
    forfeit = outcome.forfeit.reason if outcome.forfeit is not None else ""
    return PlayedGame(
        "computer-vs-computer",
        x_name,
        o_name,
        size,
        k,
        Mark.X,
        100,
        when,
        when,
        moves,
        result,
        forfeit=forfeit,
    )


_META = re.compile(r"#\s*([A-Za-z][\w -]*?)\s*:(.*)")
_MOVE_KEY = re.compile(r"move\s+(\d+)")


def _move_comment(number: int, move: PlayedMove) -> str:
    """`# move 2: O computer clever seconds=0.0021 positions=1234`, or `# move 1: X human`."""
    if not move.by_computer:
        return f"# move {number}: {move.mark} human"
    parts = [f"# move {number}: {move.mark} computer"]
    if move.clever is not None:
        parts.append("clever" if move.clever else "random")
    if move.seconds is not None:
        parts.append(f"seconds={move.seconds!r}")
    if move.positions is not None:
        parts.append(f"positions={move.positions}")
    return " ".join(parts)


def _read_move(number: int, cell: int, mark: Mark, note: str) -> PlayedMove:
    """A move of a record, with what its `# move N:` comment says about it (if anything)."""
    words = note.split()
    if "computer" not in words:
        return PlayedMove(cell, mark, by_computer=False)
    values = dict(word.split("=", 1) for word in words if "=" in word)
    try:
        seconds = float(values["seconds"]) if "seconds" in values else None
        positions = int(values["positions"]) if "positions" in values else None
    except ValueError:
        raise ValueError(f"move {number}'s comment has a bad number: {note!r}") from None
    clever = True if "clever" in words else False if "random" in words else None
    return PlayedMove(
        cell, mark, by_computer=True, seconds=seconds, positions=positions, clever=clever
    )


def _word(meta: dict[str, str], key: str, default: str) -> str:
    """A one-word value such as a mode or a player's name."""
    value = meta.get(key, default)
    if not re.fullmatch(r"[\w.-]+", value):
        raise ValueError(f"'# {key}:' must be one word, not {value!r}")
    return value


def _number(meta: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    """A whole number between `low` and `high`."""
    text = meta.get(key)
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"'# {key}:' must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def _numbers(meta: dict[str, str], key: str, moves: int) -> tuple[int, ...]:
    """Move numbers (0-based, at most `moves`), separated by spaces."""
    words = meta.get(key, "").split()
    if not all(w.isdigit() and int(w) <= moves for w in words):
        raise ValueError(f"'# {key}:' must list move numbers from 0 to {moves}, not {meta[key]!r}")
    return tuple(int(w) for w in words)


def _when(meta: dict[str, str], key: str, default: datetime) -> datetime:
    """A date and time in ISO 8601."""
    text = meta.get(key)
    if text is None:
        return default
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"'# {key}:' must be a date and time like 2025-03-01T14:02:11, not {text!r}"
        ) from None


def _read_settings(text: str | None) -> dict[str, object]:
    """The settings' JSON object, or nothing."""
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ValueError("'# settings:' must be a JSON object like {\"size\": 3}")
    return value


# -- studies ------------------------------------------------------------------------------------

STUDY_TITLE = "# tictactoe-tui study"
"""The first line of a study's record (then the study's id in the history, if it has one)."""

_STUDY_HEADER = re.compile(r"tictactoe-study\s+(\d+)\s*x\s*(\d+)\s+k\s*=\s*(\d+)", re.IGNORECASE)
_STUDY_POSITION = re.compile(r"position\s*:\s*(\S+)\s+to-move\s*=\s*([XO])", re.IGNORECASE)
_STUDY_MOVES = re.compile(r"moves\s*:(.*)", re.IGNORECASE)
_STUDY_TOKEN = re.compile(r"\(|\)|[A-Za-z]\d+|\S+")


def is_study_record(text: str) -> bool:
    """Whether `text` holds a study (a `tictactoe-study` header line) rather than a game."""
    return any(_STUDY_HEADER.fullmatch(line.strip()) for line in text.splitlines())


def study_to_record(
    tree: MoveTree, study_id: int | None = None, saved: datetime | None = None
) -> str:
    """A study as text: its root position and every variation, in brackets after the move
    each is an alternative to."""
    root = tree.root.position
    lines = [f"{STUDY_TITLE}{f' {study_id}' if study_id is not None else ''}"]
    if saved is not None:
        lines.append(f"# saved: {saved.isoformat(timespec='seconds')}")
    words: list[str] = []
    _write_line(tree.root, words)
    lines += [
        f"tictactoe-study {root.size}x{root.size} k={root.k}",
        f"position: {root} to-move={root.to_move}",
        f"moves: {' '.join(words)}".rstrip(),
    ]
    return "\n".join(lines) + "\n"


def _write_line(node: Node, words: list[str]) -> None:
    """The moves after `node`: the main continuation, each variation bracketed after the move it
    replaces."""
    while node.children:
        main, *others = node.children
        words.append(_name(main))
        for other in others:
            words.append("(")
            words.append(_name(other))
            _write_line(other, words)
            words.append(")")
        node = main


def _name(node: Node) -> str:
    assert node.move is not None  # only the root has no move
    return cell_notation(node.move, node.position.size)


def study_from_record(text: str) -> MoveTree:
    """Read `study_to_record`'s text back into a tree.

    Raises ValueError (IllegalMove for a position or a move the rules refuse) saying in one
    sentence what is wrong.
    """
    header = position = moves = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = header or _STUDY_HEADER.fullmatch(line)
        position = position or _STUDY_POSITION.fullmatch(line)
        moves = moves or _STUDY_MOVES.fullmatch(line)
    if header is None:
        raise ValueError("no 'tictactoe-study NxN k=K' line: this is not a study")
    if position is None:
        raise ValueError("no 'position: ... to-move=X' line")
    size, width, k = (int(header.group(i)) for i in (1, 2, 3))
    if size != width:
        raise ValueError(f"the board must be square, not {size}x{width}")
    marks = position.group(1).upper().replace("/", "")
    root = setup_position(marks, size, k, Mark(position.group(2).upper()))
    tree = MoveTree(root)
    _read_moves(tree, moves.group(1) if moves is not None else "")
    return tree


def _read_moves(tree: MoveTree, text: str) -> None:
    """Add the moves of a `moves:` line to `tree` (a bracket opens an alternative to the move
    before it, from the same position)."""
    names = {
        cell_notation(cell, tree.root.position.size): cell
        for cell in range(tree.root.position.size**2)
    }
    current: Node = tree.root
    before: Node | None = None  # the position the last move was played from
    open_brackets: list[tuple[Node, Node | None]] = []
    for token in _STUDY_TOKEN.findall(text):
        if token == "(":
            if before is None:
                raise ValueError("a '(' must follow the move it is an alternative to")
            open_brackets.append((current, before))
            current = before
            before = None
        elif token == ")":
            if not open_brackets:
                raise ValueError("a ')' closes no '('")
            current, before = open_brackets.pop()
        else:
            cell = names.get(token.upper())
            if cell is None:
                raise ValueError(
                    f"{token!r} is not a cell of a {tree.root.position.size}×"
                    f"{tree.root.position.size} board"
                )
            try:
                child, _ = tree.add(current, cell)
            except IllegalMove as error:
                raise IllegalMove(f"{token.upper()} cannot be played there: {error}") from None
            before, current = current, child
    if open_brackets:
        raise ValueError("a '(' is never closed")


def study_counts(tree: MoveTree) -> tuple[int, int]:
    """(moves, variations) of a study: its nodes other than the root, and the branches."""
    variations = sum(max(len(node.children) - 1, 0) for node in tree.nodes())
    return len(tree), variations
