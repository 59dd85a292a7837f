"""The history's parts behind the store: its database's read and write paths, the records waiting
beside it, and which notices the store clears by itself."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.games import a_game
from tictactoe_tui.history import notices
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.waiting import WaitingRecords


def test_a_read_the_file_refuses_reads_as_nothing_and_says_why(data_dir: Path) -> None:
    store = HistoryStore.open()
    assert store.database.rows("SELECT * FROM no_such_table") == []
    assert store.notice == "Could not read the history (no such table: no_such_table)."


def test_a_write_after_closing_raises_and_a_read_reads_nothing(data_dir: Path) -> None:
    store = HistoryStore.open()
    store.save(a_game())
    store.close()
    with pytest.raises(sqlite3.OperationalError, match="closed"):
        store.database.write(lambda db: db.execute("DELETE FROM games").rowcount)
    assert store.count() == 0 and store.notice == ""
    assert HistoryStore.open().count() == 1


def test_a_waiting_file_that_is_not_a_game_stays_as_it_was_beside_the_saved_ones(
    data_dir: Path,
) -> None:
    note = data_dir / "unsaved-1-1-1.txt"
    note.write_text("my own notes, not a game\n", encoding="utf-8")
    WaitingRecords(data_dir).park(a_game())
    store = HistoryStore.open()
    assert store.count() == 1
    assert [path.name for path in data_dir.glob("unsaved-*")] == [note.name]
    assert note.read_text(encoding="utf-8") == "my own notes, not a game\n"


def test_a_record_the_database_refuses_goes_back_under_its_name(tmp_path: Path) -> None:
    records = WaitingRecords(tmp_path)
    parked = records.park(a_game())
    assert parked is not None

    def refuse(_: object) -> int:
        raise sqlite3.OperationalError("database is locked")

    with pytest.raises(sqlite3.OperationalError):
        records.save(parked, refuse)
    assert records.waiting() == [parked] and records.count() == 1
    assert records.save(parked, lambda game: 7) == 7 and records.count() == 0


def test_a_damaged_file_s_notice_stays_after_games_are_saved(data_dir: Path) -> None:
    (data_dir / DB_NAME).write_bytes(b"this is not a database" * 100)
    store = HistoryStore.open()
    said = store.notice
    assert said.startswith("The history was damaged")
    assert store.save(a_game()) == 1 and store.retry() == []
    assert store.notice == said


def test_only_the_store_s_own_notices_clear_once_nothing_waits() -> None:
    def once_nothing_waits(notice: str) -> str:
        nothing = notices.kept(0, 0, False)
        return notices.while_ready(notice, nothing, waiting=False, locked_out=False, trouble=None)

    assert once_nothing_waits("The history is busy (another program holds it): …") == ""
    assert once_nothing_waits("Could not save to the history (disk full).") == ""
    other = notices.read_only(Path("/data"), "read-only")
    assert once_nothing_waits(other) == other


def test_the_waiting_words_count_the_games_and_say_where_they_are() -> None:
    assert notices.kept(1, 1, False) == "1 game is kept in memory and"
    assert notices.kept(3, 1, True) == "3 games are kept beside it as unsaved-*.txt records and"
    assert notices.kept(0, 0, True) == "your settings are"
    busy = notices.while_ready(
        "", notices.kept(2, 0, False), waiting=True, locked_out=True, trouble=None
    )
    assert busy == (
        "The history is busy (another program holds it): 2 games are kept beside it as "
        "unsaved-*.txt records and saved as soon as it is free."
    )
