"""The history: every game played, kept in SQLite in the user's data directory.

Where: `history.sqlite3` in `data_dir()`: the `--data-dir` flag, else `$TICTACTOE_TUI_DATA_DIR`,
else the platform's user data directory (`~/.local/share/tictactoe-tui` on Linux). The database
runs in WAL mode, so a reader never waits for a writer, and every write is one short
`BEGIN IMMEDIATE` transaction, so two copies of the app saving at once both keep every game.

The schema and its migrations are in `schema`: opening an older file runs the steps it lacks, and
a file from a newer program opens read-only.

Opening never raises: `HistoryStore.open` always returns a store, and `notice` holds one line for
the user when something was wrong:

- a damaged file is moved aside to `history.sqlite3.damaged-YYYYmmdd-HHMMSS` (kept) and a fresh
  one is started;
- a file from a newer version of the program opens read-only (nothing is written to it);
- a data directory that cannot be written turns the history off (play goes on);
- a file locked by another copy: each write waits `busy_seconds`, then the game is kept in
  `pending` and saved with the next write (or `flush()`); games still pending when the store
  closes are written beside the database as text records (`unsaved-*.txt`, the export format)
  and saved by the next `open`, so a game is never lost to a lock.

No Textual here: the command line uses the store without loading the UI.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

from tictactoe_tui.engine import Mark
from tictactoe_tui.history.locations import DB_NAME, data_dir
from tictactoe_tui.history.record import Outcome, PlayedGame, PlayedMove
from tictactoe_tui.history.schema import SCHEMA_VERSION, migrate, transaction

BUSY_SECONDS = 2.0
"""How long a write waits for another copy of the app to finish its own before giving up."""

UNSAVED_GLOB = "unsaved-*.txt"
"""Games that could not be saved before the app closed, waiting beside the database."""

OUTCOMES: tuple[Outcome, ...] = ("X", "O", "draw", "abandoned")
"""Every value of a game's result."""

State = Literal["ready", "read-only", "off"]
""""ready": reads and writes; "read-only": a newer program's file; "off": no history at all."""

SORT_COLUMNS = {
    "date": "started",
    "mode": "mode",
    "opponent": "o",
    "board": "size * 100 + k",
    "result": "outcome",
    "length": "move_count",
}
"""The history's sort keys and the SQL each sorts by (ties: newest first)."""

T = TypeVar("T")


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

    def to_json(self) -> dict[str, object]:
        """The fields `tictactoe-tui history --json` prints for a game."""
        return {"id": self.id, "started": self.started.isoformat(timespec="seconds"),
                "mode": self.mode, "x": self.x, "o": self.o, "size": self.size, "k": self.k,
                "result": self.outcome, "moves": self.moves}


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


@dataclass(frozen=True)
class ScoreLine:
    """All-time results of one kind of game: one opponent, difficulty and board.

    Against the computer `wins` are the human's and `losses` the computer's; in the other modes
    they are X's and O's.
    """

    mode: str
    opponent: str
    """The computer's name against a human; "human" between people; "x vs o" for computers."""
    difficulty: int
    size: int
    k: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0

    @property
    def games(self) -> int:
        """Every game counted, abandoned ones too."""
        return self.wins + self.losses + self.draws + self.abandoned

    def tally(self) -> tuple[tuple[str, int], ...]:
        """The labelled counts a scoreboard shows, like the session's."""
        won, lost = ("You", "Computer") if self.mode == "human-vs-computer" else ("X", "O")
        return ((won, self.wins), (lost, self.losses), ("Draws", self.draws))


def opponent_of(mode: str, x: str, o: str) -> str:
    """Who a game was against: the computer's name, "human", or "x vs o" for two computers."""
    if mode == "human-vs-computer":
        return o if x == "human" else x
    if mode == "human-vs-human":
        return "human"
    return f"{x} vs {o}"


class HistoryStore:
    """The games, the last settings and the review's cached analyses in one SQLite file."""

    def __init__(self, path: Path, connection: sqlite3.Connection | None, state: State,
                 notice: str = "") -> None:
        """Use `open` instead: it decides the state and the notice."""
        self.path = path
        """The database file."""
        self.state: State = state
        """Whether games can be saved ("ready"), only read ("read-only") or neither ("off")."""
        self.notice = notice
        """One line for the user when the history is not working as usual, else ""."""
        self.pending: list[PlayedGame] = []
        """Games not saved yet because another copy of the app held the file."""
        self._db = connection
        self._lock = threading.Lock()

    # -- opening --------------------------------------------------------------------------------

    @classmethod
    def open(cls, directory: str | os.PathLike[str] | None = None,
             busy_seconds: float = BUSY_SECONDS) -> HistoryStore:
        """Open (or create) the history in `directory` (default `data_dir()`); never raises."""
        folder = data_dir(directory)
        path = folder / DB_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return cls._connect(path, busy_seconds)
        except sqlite3.DatabaseError as error:
            if _is_damage(error):
                moved = _move_aside(path)
                notice = (f"The history was damaged: it was moved to {moved} and a new one "
                          "started.")
                try:
                    store = cls._connect(path, busy_seconds)
                except (sqlite3.Error, OSError) as again:
                    return cls(path, None, "off", f"{notice} History is off: {_reason(again)}.")
                store.notice = notice
                return store
            if _is_busy(error):
                return cls(path, None, "off", f"History is off: {path} is locked by another "
                           "program.")
            return cls(path, None, "off", f"History is off: cannot write to {folder} "
                       f"({_reason(error)}).")
        except OSError as error:
            return cls(path, None, "off",
                       f"History is off: cannot write to {folder} ({_reason(error)}).")

    @classmethod
    def _connect(cls, path: Path, busy_seconds: float) -> HistoryStore:
        """Open `path`, check it and bring its schema up to date; sqlite3 errors propagate."""
        db = sqlite3.connect(path, timeout=busy_seconds, isolation_level=None,
                             check_same_thread=False)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                db.close()
                reader = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                         timeout=busy_seconds, check_same_thread=False,
                                         isolation_level=None)
                return cls(path, reader, "read-only",
                           f"The history was written by a newer tictactoe-tui (schema "
                           f"{version}; this one knows {SCHEMA_VERSION}): it is read-only, "
                           "so games are not saved.")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA synchronous = NORMAL")
            check = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
            migrate(db)
        except BaseException:
            db.close()
            raise
        store = cls(path, db, "ready")
        store._adopt_unsaved()
        return store

    def close(self) -> None:
        """Close the file; games still pending are written beside it, to be saved next time."""
        self.flush()
        if self.pending and self.state == "ready":
            self._park_unsaved()
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _park_unsaved(self) -> None:
        """Write the pending games as text records next to the database (best effort)."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        for number, game in enumerate(self.pending, start=1):
            target = self.path.with_name(f"unsaved-{stamp}-{os.getpid()}-{number}.txt")
            try:
                target.write_text(game.to_record(), encoding="utf-8")
            except OSError:
                continue
        self.pending = []

    def _adopt_unsaved(self) -> None:
        """Save the games an earlier run could not, and remove their files once saved."""
        for parked in sorted(self.path.parent.glob(UNSAVED_GLOB)):
            try:
                game = PlayedGame.from_record(parked.read_text(encoding="utf-8"))
                self._write(partial(_insert_game, game=game))
            except (OSError, ValueError, sqlite3.Error):
                continue  # left where it is: a later start tries again, and it is plain text
            parked.unlink(missing_ok=True)

    @property
    def writable(self) -> bool:
        """True when games can be saved."""
        return self.state == "ready" and self._db is not None

    # -- games ----------------------------------------------------------------------------------

    def save(self, game: PlayedGame) -> int | None:
        """Save a game and return its id; None when it could not be saved now.

        When another copy holds the file too long the game joins `pending` (and `notice` says
        so); every later save tries the pending games first, oldest first.
        """
        if not self.writable:
            return None
        self.pending.append(game)
        saved = self.flush()
        return saved[-1] if saved and not self.pending else None

    def flush(self) -> list[int]:
        """Save the pending games, oldest first; return the ids of those saved."""
        ids: list[int] = []
        while self.pending and self.writable:
            try:
                ids.append(self._write(lambda db: _insert_game(db, self.pending[0])))
            except sqlite3.Error as error:
                self.notice = self._write_failed(error)
                return ids
            self.pending.pop(0)
        if not self.pending and self.notice.startswith("The history is busy"):
            self.notice = ""
        return ids

    def save_many(self, games: Iterable[PlayedGame]) -> list[int]:
        """Save many games in one transaction (all or none); raises sqlite3.Error if it fails."""
        if not self.writable:
            return []

        def insert_all(db: sqlite3.Connection) -> list[int]:
            return [_insert_game(db, game) for game in games]

        return self._write(insert_all)

    def _write_failed(self, error: sqlite3.Error) -> str:
        count = len(self.pending)
        games = "1 game is" if count == 1 else f"{count} games are"
        if _is_busy(error):
            return (f"The history is busy (another copy of tictactoe-tui is writing): {games} "
                    "kept in memory and will be saved with the next game.")
        return f"Could not save to the history ({_reason(error)}): {games} kept in memory."

    def count(self, where: HistoryFilter = HistoryFilter()) -> int:
        """How many games match."""
        sql, values = where.where()
        rows = self._rows(f"SELECT COUNT(*) FROM games{sql}", values)
        return int(rows[0][0]) if rows else 0

    def games(self, where: HistoryFilter = HistoryFilter(), sort: str = "date",
              descending: bool = True, offset: int = 0, limit: int = 100) -> list[GameSummary]:
        """A page of games, sorted by one of `SORT_COLUMNS` (ties newest first)."""
        sql, values = where.where()
        direction = "DESC" if descending else "ASC"
        query = (f"SELECT id, started, ended, mode, x, o, size, k, difficulty, outcome, "
                 f"move_count FROM games{sql} ORDER BY {SORT_COLUMNS[sort]} {direction}, "
                 "started DESC, id DESC LIMIT ? OFFSET ?")
        return [GameSummary(id=row[0], started=datetime.fromisoformat(row[1]),
                            ended=datetime.fromisoformat(row[2]), mode=row[3], x=row[4],
                            o=row[5], size=row[6], k=row[7], difficulty=row[8],
                            outcome=row[9], moves=row[10])
                for row in self._rows(query, [*values, limit, offset])]

    def players(self) -> list[str]:
        """Every player name in the history, for the opponent filter."""
        return [row[0] for row in self._rows(
            "SELECT x FROM games UNION SELECT o FROM games ORDER BY 1")]

    def boards(self) -> list[tuple[int, int]]:
        """Every (size, k) in the history, for the board filter."""
        return [(row[0], row[1]) for row in self._rows(
            "SELECT DISTINCT size, k FROM games ORDER BY size, k")]

    def game(self, game_id: int) -> PlayedGame | None:
        """A whole game with its moves, or None if there is no such game."""
        def load(db: sqlite3.Connection) -> PlayedGame | None:
            row = db.execute(
                "SELECT mode, x, o, size, k, first, difficulty, started, ended, outcome, "
                "switched_to_random, switched_to_clever, settings, setup_moves "
                "FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = db.execute("SELECT cell, mark, by_computer, seconds, positions, clever "
                               "FROM moves WHERE game_id = ? ORDER BY number",
                               (game_id,)).fetchall()
            return PlayedGame(
                mode=row[0], x=row[1], o=row[2], size=row[3], k=row[4], first=Mark(row[5]),
                difficulty=row[6], started=datetime.fromisoformat(row[7]),
                ended=datetime.fromisoformat(row[8]), outcome=row[9],
                moves=tuple(PlayedMove(m[0], Mark(m[1]), bool(m[2]), m[3], m[4],
                                       None if m[5] is None else bool(m[5])) for m in moves),
                switched_to_random=_ints(row[10]), switched_to_clever=_ints(row[11]),
                settings=json.loads(row[12]), setup_moves=row[13])
        return self._read(load, None)

    def scores(self) -> list[ScoreLine]:
        """All-time results by kind of game (opponent, difficulty, board), most played first."""
        rows = self._rows("SELECT mode, x, o, difficulty, size, k, outcome, COUNT(*) FROM games "
                          "GROUP BY mode, x, o, difficulty, size, k, outcome")
        lines: dict[tuple[str, str, int, int, int], dict[str, int]] = {}
        for mode, x, o, difficulty, size, k, outcome, count in rows:
            key = (mode, opponent_of(mode, x, o), difficulty, size, k)
            counts = lines.setdefault(key, {"wins": 0, "losses": 0, "draws": 0, "abandoned": 0})
            counts[_column(mode, x, outcome)] += count
        made = [ScoreLine(mode, opponent, difficulty, size, k, counts["wins"], counts["losses"],
                          counts["draws"], counts["abandoned"])
                for (mode, opponent, difficulty, size, k), counts in lines.items()]
        return sorted(made, key=lambda line: (-line.games, line.opponent, line.size))

    def score_for(self, mode: str, x: str, o: str, difficulty: int, size: int,
                  k: int) -> ScoreLine:
        """The all-time line of one kind of game (zeros when none was played)."""
        key = (mode, opponent_of(mode, x, o), difficulty, size, k)
        for line in self.scores():
            if (line.mode, line.opponent, line.difficulty, line.size, line.k) == key:
                return line
        return ScoreLine(*key)

    # -- settings and analyses ------------------------------------------------------------------

    def last_settings(self) -> dict[str, object] | None:
        """The settings of the last game started, as plain values, or None."""
        rows = self._rows("SELECT settings FROM last_settings WHERE id = 1")
        if not rows:
            return None
        try:
            value = json.loads(rows[0][0])
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def remember_settings(self, settings: dict[str, object]) -> None:
        """Keep `settings` as the last used (silently skipped when the history cannot write)."""
        if not self.writable:
            return
        now = datetime.now().isoformat(timespec="seconds")
        text = json.dumps(settings, sort_keys=True)
        try:
            self._write(lambda db: db.execute(
                "INSERT OR REPLACE INTO last_settings (id, saved, settings) VALUES (1, ?, ?)",
                (now, text)).lastrowid or 0)
        except sqlite3.Error as error:
            self.notice = f"Could not save the settings ({_reason(error)})."

    def cached_analyses(self, positions: Iterable[str], method: str) -> dict[str, str]:
        """The cached analyses of `positions` made with `method`, by position."""
        wanted = list(positions)
        found: dict[str, str] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            query = (f"SELECT position, analysis FROM analyses WHERE method = ? "
                     f"AND position IN ({marks})")
            found.update((row[0], row[1]) for row in self._rows(query, [method, *chunk]))
        return found

    def cache_analysis(self, position: str, method: str, analysis: str) -> None:
        """Keep an analysis for the next review (skipped when the history cannot write)."""
        if not self.writable:
            return
        try:
            self._write(lambda db: db.execute(
                "INSERT OR REPLACE INTO analyses (position, method, analysis) VALUES (?, ?, ?)",
                (position, method, analysis)).lastrowid or 0)
        except sqlite3.Error:
            return  # a cache: the analysis is simply made again next time

    # -- plumbing -------------------------------------------------------------------------------

    def _rows(self, sql: str, values: Sequence[object] = ()) -> list[Any]:
        """The rows a query returns; none when the file cannot be read."""
        def fetch(db: sqlite3.Connection) -> list[Any]:
            return db.execute(sql, values).fetchall()
        return self._read(fetch, [])

    def _read(self, query: Callable[[sqlite3.Connection], T], empty: T) -> T:
        """Run a read; a broken or missing file reads as `empty` (and says so in `notice`)."""
        with self._lock:
            if self._db is None:
                return empty
            try:
                return query(self._db)
            except sqlite3.Error as error:
                self.notice = f"Could not read the history ({_reason(error)})."
                return empty

    def _write(self, change: Callable[[sqlite3.Connection], T]) -> T:
        """Run `change` in one write transaction and return what it returns."""
        with self._lock:
            db = self._db
            if db is None:
                raise sqlite3.OperationalError("the history is closed")
            with transaction(db):
                return change(db)


def _insert_game(db: sqlite3.Connection, game: PlayedGame) -> int:
    """Insert a game and its moves; return its id."""
    cursor = db.execute(
        "INSERT INTO games (started, ended, mode, x, o, size, k, first, difficulty, outcome, "
        "move_count, setup_moves, switched_to_random, switched_to_clever, settings) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game.started.isoformat(timespec="seconds"), game.ended.isoformat(timespec="seconds"),
         game.mode, game.x, game.o, game.size, game.k, str(game.first), game.difficulty,
         game.outcome, len(game.moves), game.setup_moves, _text(game.switched_to_random),
         _text(game.switched_to_clever), json.dumps(game.settings, sort_keys=True)))
    game_id = cursor.lastrowid
    assert game_id is not None
    db.executemany(
        "INSERT INTO moves (game_id, number, cell, mark, by_computer, seconds, positions, "
        "clever) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, number, move.cell, str(move.mark), int(move.by_computer), move.seconds,
          move.positions, None if move.clever is None else int(move.clever))
         for number, move in enumerate(game.moves)])
    return game_id


def _column(mode: str, x: str, outcome: str) -> str:
    """Which ScoreLine count a game's outcome adds to."""
    if outcome in ("draw", "abandoned"):
        return "draws" if outcome == "draw" else "abandoned"
    if mode == "human-vs-computer":
        human = Mark.X if x == "human" else Mark.O
        return "wins" if outcome == str(human) else "losses"
    return "wins" if outcome == "X" else "losses"


def _text(numbers: Sequence[int]) -> str:
    return " ".join(map(str, numbers))


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(word) for word in text.split())


def _is_damage(error: sqlite3.Error) -> bool:
    """A file that is not a database, or one whose pages are broken."""
    name = getattr(error, "sqlite_errorname", "")
    if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return True
    text = str(error)
    return "not a database" in text or "malformed" in text


def _is_busy(error: sqlite3.Error) -> bool:
    """Another connection holds the lock."""
    name = getattr(error, "sqlite_errorname", "")
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(error)


def _reason(error: BaseException) -> str:
    """An error in a few words, for a one-line notice."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


def _move_aside(path: Path) -> Path:
    """Rename a damaged file (and its write-ahead log) to a timestamped name beside it."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    suffix = 1
    while target.exists():
        suffix += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{suffix}")
    path.rename(target)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        wal.rename(target.with_name(target.name + "-wal"))
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return target

