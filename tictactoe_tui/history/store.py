"""The history: every game played, kept in SQLite in the user's data directory.

Where: `history.sqlite3` in `data_dir()`: the `--data-dir` flag, else `$TICTACTOE_TUI_DATA_DIR`,
else the platform's user data directory (`~/.local/share/tictactoe-tui` on Linux). The database
runs in WAL mode, so a reader never waits for a writer, and every write is one short
`BEGIN IMMEDIATE` transaction, so two copies of the app saving at once both keep every game.

The schema and its migrations are in `schema`: opening an older file runs the steps it lacks.

Opening never raises: `HistoryStore.open` always returns a store, and `notice` holds one line for
the user when something is wrong. A game is never lost to any of it:

- a damaged file is moved aside to `history.sqlite3.damaged-YYYYmmdd-HHMMSS` (kept) and a fresh
  one is started (by a store that writes: one opened to read, `create=False`, moves it aside
  too but starts nothing, and says so);
- a file from a newer version of the program, or one in a folder (or on a mount) that cannot be
  written, opens read-only: its games are listed, nothing is written to it;
- a data directory that can be neither written nor read turns the history off (play goes on);
- a file locked by another program: a game the database cannot take is written at once beside
  it as a text record (`unsaved-*.txt`, the export format), and the store saves those records
  as soon as it can: at the next save, `retry()` (the app calls it every few seconds while a game
  waits), `close()`, and the next `open` of any copy (the app, or `import`). A record is claimed
  by renaming it before it is saved, so two copies never save it twice. A store that met the
  lock while opening opens "waiting" and connects on the first retry that finds the file free.

Each operation waits for a lock (`busy_seconds`) at most once; once a write found the file locked,
later ones only try, so a locked history never freezes the screen. `save` is safe at any moment:
from any thread, while the app shuts down, even after `close` (then the game goes straight to
its record).

No Textual here: the command line uses the store without loading the UI.
"""

from __future__ import annotations

import contextlib
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
from tictactoe_tui.history.record import (
    Outcome,
    PlayedGame,
    PlayedMove,
    study_counts,
    study_from_record,
    study_to_record,
)
from tictactoe_tui.history.schema import SCHEMA_VERSION, migrate, transaction

BUSY_SECONDS = 2.0
"""How long a write waits for another copy of the app to finish its own before giving up."""

UNSAVED_GLOB = "unsaved-*.txt"
"""Games the database could not take yet, waiting beside it as text records."""

CLAIM_MARK = ".saving-"
"""What a copy adds to a waiting record's name while it saves it: `unsaved-….txt.saving-PID`."""

STORE_NOTICES = ("The history is busy", "The history is locked", "Could not save to the history")
"""How the notices the store clears by itself (once nothing waits) begin."""

OUTCOMES: tuple[Outcome, ...] = ("X", "O", "draw", "abandoned")
"""Every value of a game's result."""

State = Literal["ready", "read-only", "waiting", "off"]
""""ready": reads and writes; "read-only": a newer program's file, or one that cannot be
written; "waiting": the file was locked when opened, nothing is read until a retry connects;
"off": no history at all."""

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
class StudySummary:
    """One line of the list of studies: a study without its moves."""

    id: int
    saved: datetime
    size: int
    k: int
    root: str
    """The root position, as `analyse` reads it."""
    moves: int
    """How many moves the study holds, every variation counted."""
    variations: int
    """How many variations branch off a main continuation."""


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

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection | None,
        state: State,
        notice: str = "",
        busy_seconds: float = BUSY_SECONDS,
    ) -> None:
        """Use `open` instead: it decides the state and the notice."""
        self.path = path
        """The database file."""
        self.state: State = state
        """Whether games can be saved ("ready"), only read ("read-only"), neither yet
        ("waiting": locked when opened) or neither at all ("off")."""
        self.notice = notice
        """One line for the user when the history is not working as usual, else ""."""
        self.pending: list[PlayedGame] = []
        """Games the database could not take that could not be written as records either (a
        folder that cannot be written): kept in memory, tried again with every write."""
        self.busy_seconds = busy_seconds
        """How long the first write of an operation waits for a lock."""
        self.adopted: dict[str, int] = {}
        """The waiting records this store saved, by file name, with the ids they got."""
        self._db = connection
        self._lock = threading.RLock()
        self._locked_out = False
        """Whether the last write found the file locked (then writes only try, never wait, until
        one succeeds)."""
        self._closed = False
        self._parked = 0
        """Records this store has written (numbers their files)."""
        self._settings_waiting: dict[str, object] | None = None
        """The last settings, when the file was locked as they came."""
        self._trouble: str | None = None
        """Why the last write failed, when it was not a lock (a full disk): until one succeeds."""
        self._to_forget: list[PlayedGame] = []
        """Games `forget` could not take out of a locked database yet: they go before any
        game is saved, so a game reopened by undo is never counted twice."""

    # -- opening --------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        busy_seconds: float = BUSY_SECONDS,
        create: bool = True,
    ) -> HistoryStore:
        """Open (or, with `create`, make) the history in `directory` (default `data_dir()`);
        never raises. Without `create` (the reading commands) a missing history stays missing:
        the store is "off" with no notice, and nothing is made on disk."""
        folder = data_dir(directory)
        store = cls(folder / DB_NAME, None, "off", busy_seconds=busy_seconds)
        if create or store.path.exists():
            with store._lock:
                store._attach(create)
                if store.writable:
                    store._catch_up(wait=True)
                    store._say_waiting()
        return store

    def _attach(self, create: bool) -> None:
        """Connect to the file, deciding the state and the notice; never raises."""
        path, folder = self.path, self.path.parent
        if path.exists() and not path.is_file():
            # A folder, a pipe, a device: SQLite would refuse it, or wait on a pipe for ever.
            self.state, self.notice = "off", f"History is off: {path} is not a file."
            return
        try:
            if create:
                folder.mkdir(parents=True, exist_ok=True)
            self._db, self.state, self.notice = _connect(path, self.busy_seconds)
        except sqlite3.DatabaseError as error:
            if _is_damage(error) and not create:
                # A reading command (`history`, `export`) writes nothing: it keeps the damaged
                # file by moving it aside (a rename; the stage-2 contract asks for it), and
                # makes no new history: the next game played (or an import) starts one.
                self.state = "off"
                try:
                    moved = _move_aside(path)
                except OSError as stuck:
                    self.notice = (
                        f"The history at {path} is damaged and cannot be moved aside "
                        f"({_reason(stuck)}): nothing was read or changed."
                    )
                    return
                self.notice = (
                    f"The history at {path} was damaged: nothing was read; it was "
                    f"moved to {moved} (kept), and the next game played (or an "
                    "import) starts a new one."
                )
            elif _is_damage(error):
                try:
                    moved = _move_aside(path)
                except OSError as stuck:
                    self.state = "off"
                    self.notice = (
                        f"History is off: {path} is damaged and cannot be moved "
                        f"aside ({_reason(stuck)})."
                    )
                    return
                notice = f"The history was damaged: it was moved to {moved} and a new one started."
                try:
                    self._db, self.state, self.notice = _connect(path, self.busy_seconds)
                except (sqlite3.Error, OSError) as again:
                    self.state, self.notice = "off", f"{notice} History is off: {_reason(again)}."
                    return
                self.notice = notice
            elif _is_busy(error):
                self.state = "waiting"
                self._locked_out = True
                self.notice = (
                    f"The history is locked by another program ({path}): games are "
                    "kept beside it and saved as soon as it is free."
                )
            else:
                self._attach_read_only(error)
        except OSError as error:
            self._attach_read_only(error)

    def _attach_read_only(self, error: BaseException) -> None:
        """The folder or the file cannot be written: list the games read-only if there are any,
        else the history is off."""
        folder = self.path.parent
        if self.path.exists():
            try:
                self._db = _read_only(self.path, self.busy_seconds)
            except sqlite3.Error:
                self._db = None
            if self._db is not None:
                self.state = "read-only"
                why = "read-only" if not os.access(folder, os.W_OK) else _reason(error)
                self.notice = (
                    f"The history in {folder} cannot be written ({why}): its games "
                    "are listed, but new games are not saved."
                )
                return
        self.state = "off"
        self.notice = f"History is off: cannot write to {folder} ({_reason(error)})."

    def close(self) -> None:
        """Save what waits if the file is free, then close it. Games still waiting stay beside
        it as records (the next start saves them). Closing twice is harmless; a `save` after
        this goes straight to a record."""
        with self._lock:
            if self._closed:
                return
            self._catch_up(wait=not self._locked_out)
            for game in list(self.pending):
                if self._park(game) is not None:
                    self.pending.remove(game)
            self._closed = True
            if self._db is not None:
                self._db.close()
                self._db = None

    @property
    def writable(self) -> bool:
        """True when games can be saved to the database now (locks aside)."""
        return self.state == "ready" and self._db is not None

    @property
    def locked(self) -> bool:
        """True when the last try found the file locked by another program."""
        return self._locked_out and self.state in ("ready", "waiting")

    @property
    def waiting(self) -> bool:
        """True while the store has something to try again: it is waiting for a locked file, or
        games wait (in memory or as records) for a file that was locked."""
        if self._closed or self.state not in ("ready", "waiting"):
            return False
        return (
            self.state == "waiting"
            or bool(self.pending)
            or self._settings_waiting is not None
            or (self._locked_out and self.unsaved() > 0)
        )

    def unsaved(self) -> int:
        """How many games wait outside the database: in memory, and as records beside it."""
        try:
            records = sum(1 for _ in self.path.parent.glob(UNSAVED_GLOB))
        except OSError:
            records = 0
        return len(self.pending) + records

    # -- games ----------------------------------------------------------------------------------

    def save(self, game: PlayedGame, keep: bool = True) -> int | None:
        """Save a game and return its id; None when the database cannot take it now.

        Games waiting from earlier go first. A game the database cannot take is kept, unless
        `keep` is false (`import` says so instead): as a record beside the database, saved by a
        later save, `retry`, `close` or the next start; in `pending` when even that cannot be
        written. A history that is read-only or off keeps nothing (`notice` says so).
        """
        with self._lock:
            self._catch_up(wait=not self._locked_out)
            if self.writable and not self._closed:
                try:
                    game_id = self._write(
                        partial(_insert_game, game=game), wait=not self._locked_out
                    )
                except sqlite3.Error:
                    pass  # a lock or a full disk: kept below, `notice` says why
                else:
                    self._say_waiting()
                    return game_id
            if keep and self.state != "off" and self._park(game) is None:
                self.pending.append(game)
            self._say_waiting()
            return None

    def forget(self, game: PlayedGame) -> bool:
        """Take `game`, as it was saved, out of the history (undo reopened it; it is saved
        again when it ends or is left): from the database, the games in memory or a record
        waiting beside the database. True when it went; a database locked now forgets it
        before its next save. False when the history does not hold it (or is read-only)."""
        with self._lock:
            if game in self.pending:
                self.pending.remove(game)
                return True
            if self._unpark(game):
                return True
            if not self.writable or self._closed:
                return False
            try:
                return self._write(partial(_delete_game, game=game), wait=not self._locked_out)
            except sqlite3.Error:
                self._to_forget.append(game)
                return False

    def _unpark(self, game: PlayedGame) -> bool:
        """Remove the waiting record of `game`, if one is beside the database."""
        text = game.to_record()
        try:
            for record in self.path.parent.glob(UNSAVED_GLOB):
                if record.read_text(encoding="utf-8") == text:
                    record.unlink(missing_ok=True)
                    return True
        except OSError:
            pass  # the folder cannot be read: the database is tried instead
        return False

    def retry(self) -> list[int]:
        """Try again at once (never waiting for a lock): connect if the file was locked when
        opened, then save the games waiting. Returns the ids of the games saved."""
        with self._lock:
            if self._closed:
                return []
            saved = self._catch_up(wait=False)
            self._say_waiting()
            return saved

    def flush(self) -> list[int]:
        """Save the games waiting now (waiting for a lock once); return the ids of those saved."""
        with self._lock:
            saved = self._catch_up(wait=not self._locked_out)
            self._say_waiting()
            return saved

    def save_many(self, games: Iterable[PlayedGame]) -> list[int]:
        """Save many games in one transaction (all or none); raises sqlite3.Error if it fails."""
        if not self.writable:
            return []

        def insert_all(db: sqlite3.Connection) -> list[int]:
            return [_insert_game(db, game) for game in games]

        return self._write(insert_all, wait=True)

    def _catch_up(self, wait: bool) -> list[int]:
        """Connect if the store is waiting, then save the games in memory and the records beside
        the database, oldest first; stop at the first lock. Returns the ids saved."""
        if self._closed:
            return []
        if self.state == "waiting":
            self._reconnect()
        if not self.writable:
            return []
        saved: list[int] = []
        try:
            while self._to_forget:
                self._write(partial(_delete_game, game=self._to_forget[0]), wait=wait)
                self._to_forget.pop(0)
                wait = False
            while self.pending:
                saved.append(self._write(partial(_insert_game, game=self.pending[0]), wait=wait))
                self.pending.pop(0)
                wait = False
            self._recover_claims()
            for record in sorted(self.path.parent.glob(UNSAVED_GLOB)):
                game_id = self._save_record(record, wait)
                wait = False
                if game_id is not None:
                    saved.append(game_id)
                    self.adopted[record.name] = game_id
            self._save_settings(wait)
        except sqlite3.Error:
            return saved  # a lock or a full disk: what waits stays for the next try
        except OSError:
            return saved  # the folder cannot be listed: the records stay for next time
        return saved

    def _reconnect(self) -> None:
        """The file was locked when the store opened: try it again, without waiting."""
        try:
            self._db, self.state, self.notice = _connect(self.path, 0)
        except (sqlite3.Error, OSError):
            return
        assert self._db is not None
        self._db.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")
        self._locked_out = False

    def _park(self, game: PlayedGame) -> Path | None:
        """Write `game` beside the database as a record; None when that cannot be done.

        Written under a hidden name and renamed, so a copy looking for records never reads half
        of one."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = self.path.parent
        try:
            while True:
                self._parked += 1
                target = folder / f"unsaved-{stamp}-{os.getpid()}-{self._parked}.txt"
                if not target.exists():
                    break
            draft = folder / f".{target.name}.draft"
            try:
                draft.write_text(game.to_record(), encoding="utf-8")
                draft.replace(target)
            except OSError:
                draft.unlink(missing_ok=True)  # a full disk: no empty draft left behind
                raise
        except OSError:
            return None
        return target

    def _save_record(self, record: Path, wait: bool) -> int | None:
        """Save the game of a waiting record and remove the record; None when another copy took
        it first or it is not a game (then it stays, plain text, for the user). Raises
        sqlite3.Error (the record back in its place) when the database cannot take it."""
        claimed = record.with_name(f"{record.name}{CLAIM_MARK}{os.getpid()}")
        try:
            record.rename(claimed)
        except OSError:
            return None  # another copy claimed it (or it went): it is that copy's to save
        try:
            game = PlayedGame.from_record(claimed.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _rename_back(claimed, record)
            return None
        try:
            game_id = self._write(partial(_insert_game, game=game), wait=wait)
        except BaseException:
            _rename_back(claimed, record)
            raise
        claimed.unlink(missing_ok=True)
        return game_id

    def _recover_claims(self) -> None:
        """Records claimed by a copy that ended before it saved them: put back the ones its
        crash kept out of the database, and remove the ones it had saved."""
        for claimed in self.path.parent.glob(f"{UNSAVED_GLOB}{CLAIM_MARK}*"):
            owner = claimed.name.rsplit(CLAIM_MARK, 1)[1]
            if not owner.isdigit() or _alive(int(owner)):
                continue
            original = claimed.with_name(claimed.name.rsplit(CLAIM_MARK, 1)[0])
            try:
                game = PlayedGame.from_record(claimed.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                _rename_back(claimed, original)
                continue
            if self._read(partial(_already_saved, game=game), False):
                claimed.unlink(missing_ok=True)
            else:
                _rename_back(claimed, original)

    def _say_waiting(self) -> None:
        """Keep `notice` true to what waits and why (a lock, or a write that failed), or clear
        the store's own notice once nothing does."""
        settings = self._settings_waiting is not None
        troubled = self._locked_out or self._trouble is not None or bool(self.pending)
        waiting = self.unsaved() if troubled else 0
        if waiting:
            where = (
                "in memory"
                if len(self.pending) == waiting
                else f"beside it as {UNSAVED_GLOB} records"
            )
            kept = f"{_games(waiting)} kept {where} and"
        elif settings:
            kept = "your settings are"
        else:
            kept = "games are kept beside it and"
        if self.state == "waiting":
            self.notice = (
                f"The history is locked by another program ({self.path}): {kept} "
                "saved as soon as it is free."
            )
        elif self.state != "ready":
            return
        elif self._trouble is not None:
            self.notice = f"Could not save to the history ({self._trouble})" + (
                f": {kept} tried again with every save." if waiting or settings else "."
            )
        elif self._locked_out and (waiting or settings):
            self.notice = (
                f"The history is busy (another program holds it): {kept} saved as "
                "soon as it is free."
            )
        elif self.notice.startswith(STORE_NOTICES):
            self.notice = ""

    def count(self, where: HistoryFilter = HistoryFilter()) -> int:
        """How many games match."""
        sql, values = where.where()
        rows = self._rows(f"SELECT COUNT(*) FROM games{sql}", values)
        return int(rows[0][0]) if rows else 0

    def games(
        self,
        where: HistoryFilter = HistoryFilter(),
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
            f"move_count FROM games{sql} ORDER BY {SORT_COLUMNS[sort]} {direction}, "
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
            )
            for row in self._rows(query, [*values, limit, offset])
        ]

    def players(self) -> list[str]:
        """Every player name in the history, for the opponent filter."""
        return [
            row[0] for row in self._rows("SELECT x FROM games UNION SELECT o FROM games ORDER BY 1")
        ]

    def boards(self) -> list[tuple[int, int]]:
        """Every (size, k) in the history, for the board filter."""
        return [
            (row[0], row[1])
            for row in self._rows("SELECT DISTINCT size, k FROM games ORDER BY size, k")
        ]

    def game(self, game_id: int) -> PlayedGame | None:
        """A whole game with its moves, or None if there is no such game."""

        def load(db: sqlite3.Connection) -> PlayedGame | None:
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
                        m[0],
                        Mark(m[1]),
                        bool(m[2]),
                        m[3],
                        m[4],
                        None if m[5] is None else bool(m[5]),
                    )
                    for m in moves
                ),
                switched_to_random=_ints(row[10], len(moves)),
                switched_to_clever=_ints(row[11], len(moves)),
                settings=json.loads(row[12]),
                setup_moves=row[13],
                forfeit=row[14],
            )

        return self._read(load, None)

    def scores(self) -> list[ScoreLine]:
        """All-time results by kind of game (opponent, difficulty, board), most played first."""
        rows = self._rows(
            "SELECT mode, x, o, difficulty, size, k, outcome, COUNT(*) FROM games "
            "GROUP BY mode, x, o, difficulty, size, k, outcome"
        )
        lines: dict[tuple[str, str, int, int, int], dict[str, int]] = {}
        for mode, x, o, difficulty, size, k, outcome, count in rows:
            key = (mode, opponent_of(mode, x, o), difficulty, size, k)
            counts = lines.setdefault(key, {"wins": 0, "losses": 0, "draws": 0, "abandoned": 0})
            counts[_column(mode, x, outcome)] += count
        made = [
            ScoreLine(
                mode,
                opponent,
                difficulty,
                size,
                k,
                counts["wins"],
                counts["losses"],
                counts["draws"],
                counts["abandoned"],
            )
            for (mode, opponent, difficulty, size, k), counts in lines.items()
        ]
        return sorted(made, key=lambda line: (-line.games, line.opponent, line.size))

    def score_for(self, mode: str, x: str, o: str, difficulty: int, size: int, k: int) -> ScoreLine:
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
        """Keep `settings` as the last used. Never waits for a lock: a locked file takes them with
        the games that wait (skipped when the history is read-only or off)."""
        with self._lock:
            if self.state not in ("ready", "waiting") or self._closed:
                return
            self._settings_waiting = settings
            with contextlib.suppress(sqlite3.Error):  # they wait, and `notice` says why
                self._save_settings(wait=False)
            self._say_waiting()

    def _save_settings(self, wait: bool) -> None:
        """Write the settings that wait, if any (sqlite3.Error when the file will not take them)."""
        settings = self._settings_waiting
        if settings is None or not self.writable:
            return
        now = datetime.now().isoformat(timespec="seconds")
        text = json.dumps(settings, sort_keys=True)
        self._write(
            lambda db: (
                db.execute(
                    "INSERT OR REPLACE INTO last_settings (id, saved, settings) VALUES (1, ?, ?)",
                    (now, text),
                ).lastrowid
                or 0
            ),
            wait=wait,
        )
        self._settings_waiting = None

    def cached_analyses(self, positions: Iterable[str], method: str) -> dict[str, str]:
        """The cached analyses of `positions` made with `method`, by position."""
        wanted = list(positions)
        found: dict[str, str] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            query = (
                f"SELECT position, analysis FROM analyses WHERE method = ? "
                f"AND position IN ({marks})"
            )
            found.update((row[0], row[1]) for row in self._rows(query, [method, *chunk]))
        return found

    def cache_analysis(self, position: str, method: str, analysis: str) -> None:
        """Keep an analysis for the next review (skipped when the history cannot write)."""
        if not self.writable:
            return
        try:
            self._write(
                lambda db: (
                    db.execute(
                        "INSERT OR REPLACE INTO analyses (position, method, analysis)"
                        " VALUES (?, ?, ?)",
                        (position, method, analysis),
                    ).lastrowid
                    or 0
                ),
                wait=False,
            )
        except sqlite3.Error:
            return  # a cache: the analysis is simply made again next time

    # -- studies of the analysis board ----------------------------------------------------------

    def save_study(self, record: str, study_id: int | None = None) -> int | None:
        """Keep a study's text record (`study_to_record`): a new study, or in place of study
        `study_id`. Returns its id; None (and `notice` says why) when the history cannot take
        it. Raises ValueError when `record` is not a study."""
        tree = study_from_record(record)
        moves, variations = study_counts(tree)
        now = datetime.now().replace(microsecond=0)
        values = (
            now.isoformat(timespec="seconds"),
            tree.root.position.size,
            tree.root.position.k,
            str(tree.root.position),
            moves,
            variations,
        )

        def write(db: sqlite3.Connection) -> int:
            if (
                study_id is not None
                and db.execute("SELECT 1 FROM studies WHERE id = ?", (study_id,)).fetchone()
            ):
                text = study_to_record(tree, study_id, now)
                db.execute(
                    "UPDATE studies SET saved = ?, size = ?, k = ?, root = ?, moves = ?, "
                    "variations = ?, record = ? WHERE id = ?",
                    (*values, text, study_id),
                )
                return study_id
            new = (
                db.execute(
                    "INSERT INTO studies (saved, size, k, root, moves, variations, "
                    "record) VALUES (?, ?, ?, ?, ?, ?, '')",
                    values,
                ).lastrowid
                or 0
            )
            db.execute(
                "UPDATE studies SET record = ? WHERE id = ?", (study_to_record(tree, new, now), new)
            )
            return new

        if not self.writable:
            self.notice = self.notice or "The history cannot be written: the study was not kept."
            return None
        try:
            return self._write(write)
        except sqlite3.Error as error:
            self.notice = f"Could not save the study to the history ({_reason(error)})."
            return None

    def studies(self) -> list[StudySummary]:
        """Every study kept, the last saved first."""
        return [
            StudySummary(
                id=row[0],
                saved=datetime.fromisoformat(row[1]),
                size=row[2],
                k=row[3],
                root=row[4],
                moves=row[5],
                variations=row[6],
            )
            for row in self._rows(
                "SELECT id, saved, size, k, root, moves, variations "
                "FROM studies ORDER BY saved DESC, id DESC"
            )
        ]

    def study(self, study_id: int) -> str | None:
        """A study's text record, or None if there is no such study."""
        rows = self._rows("SELECT record FROM studies WHERE id = ?", (study_id,))
        return str(rows[0][0]) if rows else None

    def delete_study(self, study_id: int) -> bool:
        """Forget a study; whether it was there to forget (False too when the history cannot
        be written)."""
        if not self.writable:
            return False
        try:
            return bool(
                self._write(
                    lambda db: db.execute("DELETE FROM studies WHERE id = ?", (study_id,)).rowcount
                )
            )
        except sqlite3.Error:
            return False

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

    def _write(self, change: Callable[[sqlite3.Connection], T], wait: bool = True) -> T:
        """Run `change` in one write transaction and return what it returns; without `wait`,
        a locked file fails at once rather than after `busy_seconds`."""
        with self._lock:
            db = self._db
            if db is None:
                raise sqlite3.OperationalError("the history is closed")
            if not wait:
                db.execute("PRAGMA busy_timeout = 0")
            try:
                with transaction(db):
                    done = change(db)
            except sqlite3.Error as error:
                if _is_busy(error):
                    self._locked_out = True
                else:
                    self._trouble = _reason(error)
                raise
            else:
                self._locked_out = False
                self._trouble = None
                return done
            finally:
                if db.in_transaction:  # a COMMIT that failed (a full disk) leaves one open
                    db.execute("ROLLBACK")
                if not wait:
                    db.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")


def _connect(path: Path, busy_seconds: float) -> tuple[sqlite3.Connection, State, str]:
    """Open `path`, check it and bring its schema up to date: the connection, its state and its
    notice. sqlite3 errors propagate.

    The migrations take the write lock only when the file lacks one: a current file opens (and
    reads) while another program holds the lock."""
    db = sqlite3.connect(path, timeout=busy_seconds, isolation_level=None, check_same_thread=False)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            db.close()
            return (
                _read_only(path, busy_seconds),
                "read-only",
                f"The history was written by a newer tictactoe-tui (schema {version}; this "
                f"one knows {SCHEMA_VERSION}): it is read-only, so new games wait beside it "
                f"as {UNSAVED_GLOB} records, for that version to save.",
            )
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
        check = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
        if version < SCHEMA_VERSION:
            migrate(db)
    except BaseException:
        db.close()
        raise
    return db, "ready", ""


def _read_only(path: Path, busy_seconds: float) -> sqlite3.Connection:
    """A connection that only reads `path`. A file in WAL mode in a folder that cannot be
    written cannot even be read the usual way (SQLite needs its `-shm` file): then it is read
    as immutable, which is what a read-only mount is."""
    uri = path.resolve().as_uri()
    failure: sqlite3.Error | None = None
    for options in ("mode=ro", "mode=ro&immutable=1"):
        db = sqlite3.connect(
            f"{uri}?{options}",
            uri=True,
            timeout=busy_seconds,
            check_same_thread=False,
            isolation_level=None,
        )
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as error:
            db.close()
            failure = error
            continue
        return db
    assert failure is not None
    raise failure


def _already_saved(db: sqlite3.Connection, game: PlayedGame) -> bool:
    """Whether the history holds `game` already (the same times, players and moves)."""
    return _saved_id(db, game) is not None


def _delete_game(db: sqlite3.Connection, game: PlayedGame) -> bool:
    """Delete the saved `game` and its moves; False when the history does not hold it."""
    game_id = _saved_id(db, game)
    if game_id is None:
        return False
    db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM games WHERE id = ?", (game_id,))
    return True


def _saved_id(db: sqlite3.Connection, game: PlayedGame) -> int | None:
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


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (always "yes" where that cannot be asked safely)."""
    if os.name == "nt":  # os.kill(pid, 0) would send Ctrl+C there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, as another user
    return True


def _rename_back(claimed: Path, record: Path) -> None:
    """Give a claimed record its name back (best effort: under either name it is plain text)."""
    with contextlib.suppress(OSError):
        claimed.rename(record)


def _games(count: int) -> str:
    return "1 game is" if count == 1 else f"{count} games are"


def _insert_game(db: sqlite3.Connection, game: PlayedGame) -> int:
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


def _ints(text: str, moves: int) -> tuple[int, ...]:
    """The move numbers of a switch column. Before undo trimmed them, a switch made after moves
    later taken back stayed, numbered past the game's end: it describes no move, so it goes."""
    return tuple(number for number in map(int, text.split()) if number <= moves)


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
