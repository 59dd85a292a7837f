"""The history: every game played, kept in SQLite in the user's data directory.

Where: `history.sqlite3` in `data_dir()`: the `--data-dir` flag, else `$TICTACTOE_TUI_DATA_DIR`,
else the platform's user data directory (`~/.local/share/tictactoe-tui` on Linux). Every write
is one short `BEGIN IMMEDIATE` transaction, so two copies of the app saving at once both keep
every game.

Opening never raises: `HistoryStore.open` always returns a store, and `notice` holds one line for
the user when something is wrong (`opening` decides what a file gives: damaged files are moved
aside and kept, a newer program's file or an unwritable folder opens read-only, a folder that
can be neither written nor read turns the history off). A game is never lost to any of it: a
game the database cannot take (a lock, a full disk) is written at once beside it as a text
record (`waiting`), and the store saves those records as soon as it can: at the next save,
`retry()` (the app calls it every few seconds while a game waits), `close()`, and the next
`open` of any copy (the app, or `import`). A store that met the lock while opening opens
"waiting" and connects on the first retry that finds the file free.

Each operation waits for a lock (`busy_seconds`) at most once; once a write found the file locked,
later ones only try, so a locked history never freezes the screen. `save` is safe at any moment:
from any thread, while the app shuts down, even after `close` (then the game goes straight to
its record).

A store opened `only_own` (the app served to browsers: `serve`) adds, and deletes or rewrites
only what it made itself: the games it saved (undo reopens one), the studies it kept, the
lessons' progress it wrote. A study made before (by the owner, another browser, an earlier
visit) is kept again as a new study rather than in its place, and is never deleted; the last
settings are neither read nor written (each tab starts from the server's flags).

The store is the face of the history's parts: `database` (the connection and its lock),
`opening`, `waiting`, the tables' queries (`games`, `scores`, `studies`, `analyses`,
`last_settings`; the puzzles' in `puzzles`) and `notices` (the user's words). No Textual here:
the command line uses the store without loading the UI.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from tictactoe_tui.history import notices
from tictactoe_tui.history.analyses import AnalysisCache
from tictactoe_tui.history.database import Database, reason
from tictactoe_tui.history.games import (
    EVERY_GAME,
    GameSummary,
    GameTable,
    HistoryFilter,
    delete_game,
    insert_game,
)
from tictactoe_tui.history.last_settings import read_last_settings, write_last_settings
from tictactoe_tui.history.locations import DB_NAME, data_dir
from tictactoe_tui.history.opening import State, connect, open_file
from tictactoe_tui.history.record import PlayedGame, study_from_record
from tictactoe_tui.history.scores import ScoreLine, score_for, score_lines
from tictactoe_tui.history.studies import StudySummary, StudyTable
from tictactoe_tui.history.waiting import WaitingRecords

BUSY_SECONDS = 2.0
"""How long a write waits for another copy of the app to finish its own before giving up."""


@dataclass(frozen=True)
class Kept:
    """Where `HistoryStore.keep` put a game: exactly one of in the database (`game_id`), as a
    record beside it (`record`), in memory (`in_memory`: it is lost if the program ends before
    a write succeeds), or nowhere."""

    game_id: int | None = None
    """The game's id in the database, when it went there."""
    record: Path | None = None
    """The waiting record it was written to, when the database could not take it."""
    in_memory: bool = False
    """Neither the database nor a record could be written: the store holds it, and tries
    again with every write and when it closes."""
    why: str = ""
    """Why it is not in the database, in a few words ("" when it is)."""


class HistoryStore:
    """The games, the last settings, the studies and the review's cached analyses in one SQLite
    file, kept whatever the file does."""

    def __init__(
        self, path: Path, busy_seconds: float = BUSY_SECONDS, only_own: bool = False
    ) -> None:
        """A store of `path` with no file open yet: use `open` instead (it opens the file and
        decides the state and the notice)."""
        self.path = path
        """The database file."""
        self.only_own = only_own
        """Served to browsers: delete or rewrite only what this store made (see the module)."""
        self._made_games: list[PlayedGame] = []
        self._made_studies: set[int] = set()
        self.made_lessons: set[str] = set()
        """The lessons whose progress this store wrote (`lessons.keep_progress`)."""
        self.state: State = "off"
        """Whether games can be saved ("ready"), only read ("read-only"), neither yet
        ("waiting": locked when opened) or neither at all ("off")."""
        self.notice = ""
        """One line for the user when the history is not working as usual, else ""."""
        self.refusal = ""
        """Why the file cannot take games at all (read-only, off), in a few words, else ""."""
        self.pending: list[PlayedGame] = []
        """Games the database could not take that could not be written as records either (a
        folder that cannot be written): kept in memory, tried again with every write."""
        self.adopted: dict[str, int] = {}
        """The waiting records this store saved, by file name, with the ids they got."""
        self.database = Database(busy_seconds, self._read_failed)
        """The connection and its lock (the puzzles' queries use it too)."""
        self.records = WaitingRecords(path.parent)
        """The games waiting beside the database as text records."""
        self._games = GameTable(self.database)
        self._studies = StudyTable(self.database)
        self._analyses = AnalysisCache(self.database)
        self._closed = False
        self._settings_waiting: dict[str, object] | None = None
        """The last settings, when the file was locked as they came."""
        self._to_forget: list[PlayedGame] = []
        """Games `forget` could not take out of a locked database yet: they go before any
        game is saved, so a game reopened by undo is never counted twice."""

    # -- opening and closing --------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        busy_seconds: float = BUSY_SECONDS,
        create: bool = True,
        only_own: bool = False,
    ) -> HistoryStore:
        """Open (or, with `create`, make) the history in `directory` (default `data_dir()`);
        never raises. Without `create` (the reading commands) a missing history stays missing:
        the store is "off" with no notice, and nothing is made on disk. `only_own`: served to
        browsers (see the module)."""
        store = cls(data_dir(directory) / DB_NAME, busy_seconds, only_own)
        if create or store.path.exists():
            with store.database.lock:
                opened = open_file(store.path, busy_seconds, create)
                store.database.attach(opened.connection)
                store.database.locked_out = opened.locked
                store.state, store.notice = opened.state, opened.notice
                store.refusal = opened.why
                if store.writable:
                    store._catch_up(wait=True)
                    store._say_waiting()
        return store

    def close(self) -> None:
        """Save what waits if the file is free, then close it. Games still waiting stay beside
        it as records (the next start saves them). Closing twice is harmless; a `save` after
        this goes straight to a record."""
        with self.database.lock:
            if self._closed:
                return
            self._catch_up(wait=not self.database.locked_out)
            for game in list(self.pending):
                if self.records.park(game) is not None:
                    self.pending.remove(game)
            self._closed = True
            self.database.close()

    @property
    def busy_seconds(self) -> float:
        """How long the first write of an operation waits for a lock."""
        return self.database.busy_seconds

    @property
    def writable(self) -> bool:
        """True when games can be saved to the database now (locks aside)."""
        return self.state == "ready" and self.database.connection is not None

    @property
    def locked(self) -> bool:
        """True when the last try found the file locked by another program."""
        return self.database.locked_out and self.state in ("ready", "waiting")

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
            or (self.database.locked_out and self.unsaved() > 0)
        )

    def unsaved(self) -> int:
        """How many games wait outside the database: in memory, and as records beside it."""
        return len(self.pending) + self.records.count()

    # -- keeping games --------------------------------------------------------------------------

    def save(self, game: PlayedGame, keep: bool = True) -> int | None:
        """Save a game and return its id; None when the database cannot take it now.

        Games waiting from earlier go first. A game the database cannot take is kept, unless
        `keep` is false (`import` says so instead): as a record beside the database, saved by a
        later save, `retry`, `close` or the next start; in `pending` when even that cannot be
        written. A history that is off keeps nothing (`notice` says so). `keep` says where the
        game went.
        """
        return self.keep(game, keep).game_id

    def keep(self, game: PlayedGame, elsewhere: bool = True) -> Kept:
        """Save a game as `save` does (`elsewhere`: as a record or in memory when the database
        cannot take it), and say where it went."""
        with self.database.lock:
            if self.only_own:
                self._made_games.append(game)
            self._catch_up(wait=not self.database.locked_out)
            if self.writable and not self._closed:
                try:
                    game_id = self._insert(game, wait=not self.database.locked_out)
                except sqlite3.Error:
                    pass  # a lock or a full disk: kept below, `notice` says why
                else:
                    self._say_waiting()
                    return Kept(game_id=game_id)
            why = self._why_not_written()
            kept = Kept(why=why)
            if elsewhere and self.state != "off":
                record = self.records.park(game)
                if record is not None:
                    kept = Kept(record=record, why=why)
                else:
                    self.pending.append(game)
                    kept = Kept(in_memory=True, why=self.records.failure or why)
            self._say_waiting()
            return kept

    def _why_not_written(self) -> str:
        """Why the database did not take the last game, in a few words."""
        if self._closed:
            return "the history was closed"
        if self.database.locked_out:
            return "another program holds it"
        if self.database.trouble is not None:
            return self.database.trouble
        return self.refusal or ("it is locked" if self.state == "waiting" else self.state)

    def forget(self, game: PlayedGame) -> bool:
        """Take `game`, as it was saved, out of the history (undo reopened it; it is saved
        again when it ends or is left): from the database, the games in memory or a record
        waiting beside the database. True when it went; a database locked now forgets it
        before its next save. False when the history does not hold it (or is read-only), and
        `only_own` when this store did not save it."""
        with self.database.lock:
            if self.only_own and game not in self._made_games:
                return False
            if game in self.pending:
                self.pending.remove(game)
                return True
            if self.records.unpark(game):
                return True
            if not self.writable or self._closed:
                return False
            try:
                return self.database.write(
                    partial(delete_game, game=game), wait=not self.database.locked_out
                )
            except sqlite3.Error:
                self._to_forget.append(game)
                return False

    def retry(self) -> list[int]:
        """Try again at once (never waiting for a lock): connect if the file was locked when
        opened, then save the games waiting. Returns the ids of the games saved."""
        with self.database.lock:
            if self._closed:
                return []
            saved = self._catch_up(wait=False)
            self._say_waiting()
            return saved

    def flush(self) -> list[int]:
        """Save the games waiting now (waiting for a lock once); return the ids of those saved."""
        with self.database.lock:
            saved = self._catch_up(wait=not self.database.locked_out)
            self._say_waiting()
            return saved

    def save_many(self, games: Iterable[PlayedGame]) -> list[int]:
        """Save many games in one transaction (all or none); raises sqlite3.Error if it fails."""
        if not self.writable:
            return []

        def insert_all(db: sqlite3.Connection) -> list[int]:
            return [insert_game(db, game) for game in games]

        return self.database.write(insert_all, wait=True)

    def _insert(self, game: PlayedGame, wait: bool) -> int:
        """Write `game` to the database and return its id (sqlite3.Error when it will not)."""
        return self.database.write(partial(insert_game, game=game), wait=wait)

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
                self.database.write(partial(delete_game, game=self._to_forget[0]), wait=wait)
                self._to_forget.pop(0)
                wait = False
            while self.pending:
                saved.append(self._insert(self.pending[0], wait))
                self.pending.pop(0)
                wait = False
            self.records.recover_claims(self._games.holds)
            for record in self.records.waiting():
                game_id = self.records.save(record, partial(self._insert, wait=wait))
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
            connection, self.state, self.notice = connect(self.path, 0)
        except (sqlite3.Error, OSError):
            return
        self.database.attach(connection)
        self.database.locked_out = False

    def _say_waiting(self) -> None:
        """Keep `notice` true to what waits and why (a lock, or a write that failed), or clear
        the store's own notice once nothing does."""
        settings = self._settings_waiting is not None
        troubled = (
            self.database.locked_out or self.database.trouble is not None or bool(self.pending)
        )
        waiting = self.unsaved() if troubled else 0
        what = notices.kept(waiting, len(self.pending), settings)
        if self.state == "waiting":
            self.notice = notices.locked(self.path, what)
        elif self.state == "ready":
            self.notice = notices.while_ready(
                self.notice,
                what,
                waiting=bool(waiting or settings),
                locked_out=self.database.locked_out,
                trouble=self.database.trouble,
            )

    def _read_failed(self, why: str) -> None:
        """A read the file refused: the user hears why."""
        self.notice = notices.cannot_read(why)

    # -- reading games --------------------------------------------------------------------------

    def count(self, where: HistoryFilter = EVERY_GAME) -> int:
        """How many games match."""
        return self._games.count(where)

    def games(
        self,
        where: HistoryFilter = EVERY_GAME,
        sort: str = "date",
        descending: bool = True,
        offset: int = 0,
        limit: int = 100,
    ) -> list[GameSummary]:
        """A page of games, sorted by one of `games.SORT_COLUMNS` (ties newest first)."""
        return self._games.page(where, sort, descending, offset, limit)

    def players(self) -> list[str]:
        """Every player name in the history, for the opponent filter."""
        return self._games.players()

    def boards(self) -> list[tuple[int, int]]:
        """Every (size, k) in the history, for the board filter."""
        return self._games.boards()

    def game(self, game_id: int) -> PlayedGame | None:
        """A whole game with its moves, or None if there is no such game."""
        return self._games.game(game_id)

    def scores(self) -> list[ScoreLine]:
        """All-time results by kind of game (opponent, difficulty, board), most played first."""
        return score_lines(self.database)

    def score_for(self, mode: str, x: str, o: str, difficulty: int, size: int, k: int) -> ScoreLine:
        """The all-time line of one kind of game (zeros when none was played)."""
        return score_for(self.scores(), mode, x, o, difficulty, size, k)

    # -- settings and analyses ------------------------------------------------------------------

    def last_settings(self) -> dict[str, object] | None:
        """The settings of the last game started, as plain values, or None (always, `only_own`:
        another browser's, or the owner's)."""
        if self.only_own:
            return None
        return read_last_settings(self.database)

    def remember_settings(self, settings: dict[str, object]) -> None:
        """Keep `settings` as the last used. Never waits for a lock: a locked file takes them with
        the games that wait (skipped when the history is read-only or off, or `only_own`)."""
        with self.database.lock:
            if self.state not in ("ready", "waiting") or self._closed or self.only_own:
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
        write_last_settings(self.database, settings, wait)
        self._settings_waiting = None

    def cached_analyses(self, positions: Iterable[str], method: str) -> dict[str, str]:
        """The cached analyses of `positions` made with `method`, by position."""
        return self._analyses.cached(positions, method)

    def cache_analysis(self, position: str, method: str, analysis: str) -> None:
        """Keep an analysis for the next review (skipped when the history cannot write)."""
        if self.writable:
            self._analyses.keep(position, method, analysis, replace=not self.only_own)

    # -- studies of the analysis board ----------------------------------------------------------

    def save_study(self, record: str, study_id: int | None = None) -> int | None:
        """Keep a study's text record (`study_to_record`): a new study, or in place of study
        `study_id`. Returns its id; None (and `notice` says why) when the history cannot take
        it. Raises ValueError when `record` is not a study. `only_own`, a study this store did
        not make is kept as a new one (the returned id says which), its old one left as it was."""
        tree = study_from_record(record)
        if study_id is not None and not self.owns_study(study_id):
            study_id = None
        if not self.writable:
            self.notice = self.notice or notices.study_not_kept()
            return None
        try:
            kept = self._studies.save(tree, study_id)
        except sqlite3.Error as error:
            self.notice = notices.study_failed(reason(error))
            return None
        self._made_studies.add(kept)
        return kept

    def studies(self) -> list[StudySummary]:
        """Every study kept, the last saved first."""
        return self._studies.summaries()

    def study(self, study_id: int) -> str | None:
        """A study's text record, or None if there is no such study."""
        return self._studies.record(study_id)

    def owns_study(self, study_id: int) -> bool:
        """Whether this store may rewrite or delete study `study_id`: always, unless `only_own`
        and another made it (the owner, another browser, an earlier visit)."""
        return not self.only_own or study_id in self._made_studies

    def delete_study(self, study_id: int) -> bool:
        """Forget a study; whether it was there to forget (False too when the history cannot
        be written, or `only_own` when this store did not make it: `owns_study`)."""
        return self.writable and self.owns_study(study_id) and self._studies.delete(study_id)
