"""The games table and its moves: one row per game kept, one per move.

The write side (`insert_game`, `delete_game`, `saved_id`) runs inside a write transaction the
store opens; the read side (`GameTable`) lists, filters, sorts, pages and loads games through
the shared `Database`, so a broken file reads as no games.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tictactoe_tui.engine import Mark
from tictactoe_tui.history.database import Database
from tictactoe_tui.history.record import Outcome, PlayedGame, PlayedMove

OUTCOMES: tuple[Outcome, ...] = ("X", "O", "draw", "abandoned")
"""Every value of a game's result."""

SORT_COLUMNS = {
    "date": "started",
    "mode": "mode",
    "opponent": "o",
    "board": "size * 100 + k",
    "result": "outcome",
    "length": "move_count",
}
"""The history's sort keys and the SQL each sorts by (ties: newest first)."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the history: a game without its moves."""

    id: int
    started: datetime
    ended: datetime
    mode: str
    x: str
    o: str
    size: int
    k: int
    difficulty: int
    outcome: Outcome
    moves: int
    """How many moves were played."""
    forfeit: str = ""
    """Why the loser lost by a fault (an outside engine that failed), in one sentence, else ""."""

    def to_json(self) -> dict[str, object]:
        """The fields `tictactoe-tui history --json` prints for a game."""
        return {
            "id": self.id,
            "started": self.started.isoformat(timespec="seconds"),
            "mode": self.mode,
            "x": self.x,
            "o": self.o,
            "size": self.size,
            "k": self.k,
            "result": self.outcome,
            "moves": self.moves,
        }


@dataclass(frozen=True)
class HistoryFilter:
    """Which games to list; None means any."""

    player: str | None = None
    """A player name ("alphabeta", "h1", "human", ...) that played X or O."""
    outcome: Outcome | None = None
    """"X", "O", "draw" or "abandoned"."""
    board: tuple[int, int] | None = None
    """(size, k)."""

    def where(self) -> tuple[str, list[object]]:
        """The SQL condition and its parameters."""
        terms: list[str] = []
        values: list[object] = []
        if self.player is not None:
            terms.append("(x = ? OR o = ?)")
            values += [self.player, self.player]
        if self.outcome is not None:
            terms.append("outcome = ?")
            values.append(self.outcome)
        if self.board is not None:
            terms.append("size = ? AND k = ?")
            values += list(self.board)
        return (" WHERE " + " AND ".join(terms) if terms else ""), values


EVERY_GAME = HistoryFilter()
"""The filter that lets every game through."""


class GameTable:
    """The games kept, read through the history's database."""

    def __init__(self, database: Database) -> None:
        """Read through `database`."""
        self._database = database

    def count(self, where: HistoryFilter = EVERY_GAME) -> int:
        """How many games match."""
        sql, values = where.where()
        rows = self._database.rows(f"SELECT COUNT(*) FROM games{sql}", values)
        return int(rows[0][0]) if rows else 0

    def page(
        self,
        where: HistoryFilter = EVERY_GAME,
        sort: str = "date",
        descending: bool = True,
        offset: int = 0,
        limit: int = 100,
    ) -> list[GameSummary]:
        """A page of games, sorted by one of `SORT_COLUMNS` (ties newest first)."""
        sql, values = where.where()
        direction = "DESC" if descending else "ASC"
        query = (
            f"SELECT id, started, ended, mode, x, o, size, k, difficulty, outcome, "
            f"move_count, forfeit FROM games{sql} ORDER BY {SORT_COLUMNS[sort]} {direction}, "
            "started DESC, id DESC LIMIT ? OFFSET ?"
        )
        return [
            GameSummary(
                id=row[0],
                started=datetime.fromisoformat(row[1]),
                ended=datetime.fromisoformat(row[2]),
                mode=row[3],
                x=row[4],
                o=row[5],
                size=row[6],
                k=row[7],
                difficulty=row[8],
                outcome=row[9],
                moves=row[10],
                forfeit=row[11],
            )
            for row in self._database.rows(query, [*values, limit, offset])
        ]

    def players(self) -> list[str]:
        """Every player name in the history, for the opponent filter."""
        query = "SELECT x FROM games UNION SELECT o FROM games ORDER BY 1"
        return [row[0] for row in self._database.rows(query)]

    def boards(self) -> list[tuple[int, int]]:
        """Every (size, k) in the history, for the board filter."""
        query = "SELECT DISTINCT size, k FROM games ORDER BY size, k"
        return [(row[0], row[1]) for row in self._database.rows(query)]

    def game(self, game_id: int) -> PlayedGame | None:
        """A whole game with its moves, or None if there is no such game."""
        return self._database.read(lambda db: load_game(db, game_id), None)

    def holds(self, game: PlayedGame) -> bool:
        """Whether the history holds `game` already (the same times, players and moves)."""
        return self._database.read(lambda db: saved_id(db, game) is not None, False)


def load_game(db: sqlite3.Connection, game_id: int) -> PlayedGame | None:
    """Game `game_id` with its moves, or None if there is no such game."""
    row = db.execute(
        "SELECT mode, x, o, size, k, first, difficulty, started, ended, outcome, "
        "switched_to_random, switched_to_clever, settings, setup_moves, forfeit "
        "FROM games WHERE id = ?",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    moves = db.execute(
        "SELECT cell, mark, by_computer, seconds, positions, clever "
        "FROM moves WHERE game_id = ? ORDER BY number",
        (game_id,),
    ).fetchall()
    return PlayedGame(
        mode=row[0],
        x=row[1],
        o=row[2],
        size=row[3],
        k=row[4],
        first=Mark(row[5]),
        difficulty=row[6],
        started=datetime.fromisoformat(row[7]),
        ended=datetime.fromisoformat(row[8]),
        outcome=row[9],
        moves=tuple(
            PlayedMove(
                m[0], Mark(m[1]), bool(m[2]), m[3], m[4], None if m[5] is None else bool(m[5])
            )
            for m in moves
        ),
        switched_to_random=_ints(row[10], len(moves)),
        switched_to_clever=_ints(row[11], len(moves)),
        settings=json.loads(row[12]),
        setup_moves=row[13],
        forfeit=row[14],
    )


def insert_game(db: sqlite3.Connection, game: PlayedGame) -> int:
    """Insert a game and its moves; return its id."""
    cursor = db.execute(
        "INSERT INTO games (started, ended, mode, x, o, size, k, first, difficulty, outcome, "
        "move_count, setup_moves, switched_to_random, switched_to_clever, settings, forfeit) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.started.isoformat(timespec="seconds"),
            game.ended.isoformat(timespec="seconds"),
            game.mode,
            game.x,
            game.o,
            game.size,
            game.k,
            str(game.first),
            game.difficulty,
            game.outcome,
            len(game.moves),
            game.setup_moves,
            _text(game.switched_to_random),
            _text(game.switched_to_clever),
            json.dumps(game.settings, sort_keys=True),
            game.forfeit,
        ),
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    db.executemany(
        "INSERT INTO moves (game_id, number, cell, mark, by_computer, seconds, positions, "
        "clever) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                number,
                move.cell,
                str(move.mark),
                int(move.by_computer),
                move.seconds,
                move.positions,
                None if move.clever is None else int(move.clever),
            )
            for number, move in enumerate(game.moves)
        ],
    )
    return game_id


def delete_game(db: sqlite3.Connection, game: PlayedGame) -> bool:
    """Delete the saved `game` and its moves; False when the history does not hold it."""
    game_id = saved_id(db, game)
    if game_id is None:
        return False
    db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM games WHERE id = ?", (game_id,))
    return True


def saved_id(db: sqlite3.Connection, game: PlayedGame) -> int | None:
    """The id of the saved `game` (the same times, players and moves), if the history holds it
    (the newest, should it hold two)."""
    rows = db.execute(
        "SELECT id FROM games WHERE started = ? AND ended = ? AND x = ? AND o = ? "
        "AND move_count = ?",
        (
            game.started.isoformat(timespec="seconds"),
            game.ended.isoformat(timespec="seconds"),
            game.x,
            game.o,
            len(game.moves),
        ),
    ).fetchall()
    for (game_id,) in sorted(rows, reverse=True):
        cells = db.execute(
            "SELECT cell FROM moves WHERE game_id = ? ORDER BY number", (game_id,)
        ).fetchall()
        if tuple(cell for (cell,) in cells) == game.cells:
            return int(game_id)
    return None


def _flag(value: int | None) -> bool | None:
    """A column that may hold no answer (a person's move is neither clever nor random)."""
    return None if value is None else bool(value)


def _text(numbers: Sequence[int]) -> str:
    return " ".join(map(str, numbers))


def _ints(text: str, moves: int) -> tuple[int, ...]:
    """The move numbers of a switch column. Before undo trimmed them, a switch made after moves
    later taken back stayed, numbered past the game's end: it describes no move, so it goes."""
    return tuple(number for number in map(int, text.split()) if number <= moves)
