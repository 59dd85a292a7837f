"""The history store: games kept and read back, migrations, and every kind of bad file."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from benchmarks.history_bench import sample_games
from tests.games import a_game
from tictactoe_tui.history import store as history
from tictactoe_tui.history.games import HistoryFilter
from tictactoe_tui.history.locations import DATA_DIR_ENV, DB_NAME
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.schema import MIGRATIONS, SCHEMA_VERSION
from tictactoe_tui.history.store import HistoryStore


def schema(path: Path) -> list[tuple[str, str]]:
    """The tables and indexes of a database file, as SQLite stores their definitions."""
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT name, sql FROM sqlite_master").fetchall())


# -- where and how --------------------------------------------------------------------------------


def test_the_data_dir_comes_from_the_flag_then_the_environment(
    tmp_path: Path, data_dir: Path
) -> None:
    assert os.environ[DATA_DIR_ENV] == str(data_dir)
    assert history.data_dir() == data_dir
    assert history.data_dir(str(tmp_path)) == tmp_path


def test_without_either_the_data_dir_is_the_users(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", "/somewhere/data")
    assert history.data_dir() == Path("/somewhere/data/tictactoe-tui")


def test_a_fresh_history_is_empty_in_wal_mode_at_the_current_schema(data_dir: Path) -> None:
    store = HistoryStore.open()
    assert (store.state, store.notice, store.count()) == ("ready", "", 0)
    store.close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_game_comes_back_exactly_as_it_was_saved() -> None:
    store = HistoryStore.open()
    game = a_game()
    game_id = store.save(game)
    assert game_id is not None
    assert store.game(game_id) == game
    assert store.game(game_id + 1) is None
    [summary] = store.games()
    assert summary.to_json() == {
        "id": game_id,
        "started": "2025-03-01T14:00:00",
        "mode": "human-vs-computer",
        "x": "human",
        "o": "alphabeta",
        "size": 3,
        "k": 3,
        "result": "draw",
        "moves": 9,
    }


def test_the_history_survives_closing_and_reopening() -> None:
    store = HistoryStore.open()
    ids = [store.save(game) for game in sample_games(20)]
    store.close()
    again = HistoryStore.open()
    assert again.count() == 20
    assert sorted(g.id for g in again.games(limit=-1)) == ids


def test_the_last_settings_are_remembered() -> None:
    store = HistoryStore.open()
    assert store.last_settings() is None
    store.remember_settings({"size": 4, "opponent": "h1"})
    store.remember_settings({"size": 5, "opponent": "h2"})
    store.close()
    assert HistoryStore.open().last_settings() == {"size": 5, "opponent": "h2"}


def test_analyses_are_cached_by_position_and_method() -> None:
    store = HistoryStore.open()
    store.cache_analysis("3x3 k=3 X .........", "exact", "{}")
    store.cache_analysis("3x3 k=3 O X........", "exact", "[1]")
    store.cache_analysis("3x3 k=3 O X........", "other", "[2]")
    found = store.cached_analyses(["3x3 k=3 O X........", "3x3 k=3 X .........", "nope"], "exact")
    assert found == {"3x3 k=3 X .........": "{}", "3x3 k=3 O X........": "[1]"}


# -- listing --------------------------------------------------------------------------------------


def test_games_are_filtered_sorted_and_paged() -> None:
    store = HistoryStore.open()
    games = list(sample_games(60))
    store.save_many(games)
    newest_first = store.games(limit=-1)
    assert [g.started for g in newest_first] == sorted((g.started for g in games), reverse=True)
    page = store.games(offset=10, limit=5)
    assert page == newest_first[10:15]
    longest = store.games(sort="length", limit=-1)
    assert [g.moves for g in longest] == sorted((len(g.moves) for g in games), reverse=True)

    h2 = HistoryFilter(player="h2")
    assert store.count(h2) == sum(1 for g in games if "h2" in (g.x, g.o)) > 0
    assert all("h2" in (g.x, g.o) for g in store.games(h2, limit=-1))
    draws = HistoryFilter(outcome="draw")
    assert store.count(draws) == sum(1 for g in games if g.outcome == "draw") > 0
    big = HistoryFilter(board=(10, 5), outcome="abandoned")
    assert store.count(big) == sum(1 for g in games if g.size == 10) > 0
    assert store.players() == sorted({g.x for g in games} | {g.o for g in games})
    assert store.boards() == sorted({(g.size, g.k) for g in games})


def test_all_time_scores_are_kept_by_opponent_difficulty_and_board() -> None:
    store = HistoryStore.open()
    won = a_game((0, 3, 1, 4, 2), outcome="X")
    lost = a_game((0, 3, 1, 4, 8, 5), outcome="O")
    won_as_o = a_game((0, 3, 1, 4, 8, 5), outcome="O", x="alphabeta", o="human")
    store.save_many(
        [
            won,
            lost,
            won_as_o,
            a_game(),
            a_game(difficulty=100),
            a_game(outcome="abandoned", moves=won.moves[:2]),
        ]
    )
    line = store.score_for("human-vs-computer", "human", "alphabeta", 80, 3, 3)
    assert (line.wins, line.losses, line.draws, line.abandoned) == (2, 1, 1, 1)
    assert line.tally() == (("You", 2), ("Computer", 1), ("Draws", 1))
    assert store.score_for("human-vs-computer", "alphabeta", "human", 80, 3, 3) == line
    other = store.score_for("human-vs-computer", "human", "alphabeta", 100, 3, 3)
    assert (other.wins, other.losses, other.draws) == (0, 0, 1)
    none = store.score_for("human-vs-computer", "human", "h1", 80, 3, 3)
    assert none.games == 0
    assert sum(line.games for line in store.scores()) == 6


def test_a_forgotten_game_leaves_the_history_and_its_scores() -> None:
    store = HistoryStore.open()
    lost = a_game((0, 3, 1, 4, 8, 5), outcome="O")
    kept = a_game()
    store.save(kept)
    store.save(lost)
    assert store.forget(lost)
    assert store.count() == 1 and store.game(1) == kept
    line = store.score_for("human-vs-computer", "human", "alphabeta", 80, 3, 3)
    assert line.tally() == (("You", 0), ("Computer", 0), ("Draws", 1))
    assert not store.forget(lost)  # gone already: nothing else goes


def test_a_game_forgotten_while_the_history_is_locked_goes_before_the_next_save(
    data_dir: Path,
) -> None:
    store = HistoryStore.open(busy_seconds=0.2)
    lost = a_game((0, 3, 1, 4, 8, 5), outcome="O")
    store.save(lost)
    other = hold_lock(data_dir / DB_NAME)
    assert not store.forget(lost)
    other.execute("ROLLBACK")
    other.close()
    drawn = a_game(outcome="draw")
    game_id = store.save(drawn)
    assert store.count() == 1 and game_id is not None and store.game(game_id) == drawn


def test_a_game_waiting_beside_a_locked_history_is_forgotten_there(data_dir: Path) -> None:
    store = HistoryStore.open(busy_seconds=0.2)
    other = hold_lock(data_dir / DB_NAME)
    lost = a_game((0, 3, 1, 4, 8, 5), outcome="O")
    assert store.save(lost) is None and records(data_dir) == [lost]
    assert store.forget(lost)
    assert records(data_dir) == []
    other.execute("ROLLBACK")
    other.close()
    assert store.retry() == [] and store.count() == 0


# -- migrations -----------------------------------------------------------------------------------


def test_every_schema_version_migrates_to_the_current_one(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    HistoryStore.open(fresh).close()
    for version in range(SCHEMA_VERSION):
        folder = tmp_path / f"v{version}"
        folder.mkdir()
        with sqlite3.connect(folder / DB_NAME) as db:
            for step in MIGRATIONS[:version]:
                db.executescript(step)
            db.execute(f"PRAGMA user_version = {version}")
        store = HistoryStore.open(folder)
        assert (store.state, store.notice) == ("ready", "")
        store.close()
        assert schema(folder / DB_NAME) == schema(fresh / DB_NAME)


def test_games_saved_under_the_first_schema_are_kept_by_the_migration(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.executescript(MIGRATIONS[0])
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "INSERT INTO games (started, ended, mode, x, o, size, k, first, difficulty, "
            "outcome, move_count) VALUES ('2024-01-02T03:04:05', "
            "'2024-01-02T03:05:00', 'human-vs-human', 'human', 'human', 3, 3, 'X', "
            "100, 'X', 5)"
        )
        db.executemany(
            "INSERT INTO moves (game_id, number, cell, mark, by_computer) VALUES (1, ?, ?, ?, 0)",
            [(n, cell, "XO"[n % 2]) for n, cell in enumerate((0, 3, 1, 4, 2))],
        )
    store = HistoryStore.open(tmp_path)
    game = store.game(1)
    assert game is not None and game.cells == (0, 3, 1, 4, 2) and game.outcome == "X"
    store.cache_analysis("key", "method", "value")
    assert store.cached_analyses(["key"], "method") == {"key": "value"}


# -- bad files, nothing lost ----------------------------------------------------------------------


def test_a_file_that_is_not_a_database_is_moved_aside_and_kept(data_dir: Path) -> None:
    junk = b"this is not a database" * 100
    (data_dir / DB_NAME).write_bytes(junk)
    store = HistoryStore.open()
    [moved] = data_dir.glob(f"{DB_NAME}.damaged-*")
    assert re.fullmatch(rf"{re.escape(DB_NAME)}\.damaged-\d{{8}}-\d{{6}}", moved.name)
    assert moved.read_bytes() == junk
    assert store.state == "ready" and store.count() == 0
    assert "\n" not in store.notice and "damaged" in store.notice and str(moved) in store.notice
    assert store.save(a_game()) == 1


def test_a_database_with_broken_pages_is_moved_aside(data_dir: Path) -> None:
    store = HistoryStore.open()
    store.save_many(sample_games(300))
    store.close()
    path = data_dir / DB_NAME
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data) - page, page):
        data[offset : offset + 64] = b"\xff" * 64  # clobber every page's header after the first
    path.write_bytes(bytes(data))
    again = HistoryStore.open()
    assert "damaged" in again.notice
    assert list(data_dir.glob(f"{DB_NAME}.damaged-*"))
    assert again.count() == 0 and again.state == "ready"


def test_two_damaged_files_in_the_same_second_are_both_kept(data_dir: Path) -> None:
    for _ in range(2):
        (data_dir / DB_NAME).write_bytes(b"junk" * 1000)
        HistoryStore.open().close()
        (data_dir / DB_NAME).unlink()
    assert len(list(data_dir.glob(f"{DB_NAME}.damaged-*"))) == 2


def test_a_newer_schema_opens_read_only_and_is_never_written(data_dir: Path) -> None:
    store = HistoryStore.open()
    store.save(a_game())
    store.close()
    path = data_dir / DB_NAME
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    newer = HistoryStore.open()
    assert newer.state == "read-only"
    assert "newer" in newer.notice and "read-only" in newer.notice and "\n" not in newer.notice
    assert newer.count() == 1 and newer.game(1) == a_game()
    assert newer.save(a_game()) is None
    newer.remember_settings({"size": 4})
    newer.close()
    assert path.read_bytes() == before


def read_only_dir(tmp_path: Path) -> Path:
    """A directory this process really cannot write: chmod for a normal user; for root (who
    ignores permissions) a directory of a read-only file system, if there is one."""
    folder = tmp_path / "locked-away"
    folder.mkdir()
    folder.chmod(0o555)
    candidates = [folder, Path("/sys/kernel"), Path("/proc/sys")]
    for candidate in candidates:
        try:
            (candidate / "probe").write_text("x")
        except OSError:
            return candidate
        (candidate / "probe").unlink()
    pytest.skip("no directory here refuses writes to this user")


def test_a_read_only_data_dir_turns_the_history_off(tmp_path: Path) -> None:
    folder = read_only_dir(tmp_path)
    store = HistoryStore.open(folder)
    assert store.state == "off"
    assert store.notice.startswith("History is off") and "\n" not in store.notice
    assert store.save(a_game()) is None
    assert store.count() == 0 and store.games() == [] and store.scores() == []


@contextmanager
def read_only_history(tmp_path: Path, games: int = 12) -> Iterator[Path]:
    """A data directory holding `games` games that this process cannot write: for root (whom
    permissions do not stop) a read-only bind mount, as a read-only disk would be; for anyone
    else a folder and a file without write permission."""
    source = tmp_path / "history-source"
    store = HistoryStore.open(source)
    store.save_many(sample_games(games))
    store.close()
    if os.geteuid() != 0:
        (source / DB_NAME).chmod(0o444)
        source.chmod(0o555)
        try:
            yield source
        finally:
            source.chmod(0o755)
        return
    mount = tmp_path / "read-only-mount"
    mount.mkdir()
    made = subprocess.run(["mount", "--bind", str(source), str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("cannot make a read-only mount here")
    try:
        if (
            subprocess.run(
                ["mount", "-o", "remount,bind,ro", str(mount)], capture_output=True
            ).returncode
            != 0
        ):
            pytest.skip("cannot make a read-only mount here")
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_read_only_history_lists_its_games(tmp_path: Path) -> None:
    with read_only_history(tmp_path) as folder:
        before = sorted(path.name for path in folder.iterdir())
        store = HistoryStore.open(folder)
        assert store.state == "read-only" and store.count() == 12
        assert len(store.games(limit=-1)) == 12 and store.game(1) is not None
        assert "cannot be written" in store.notice and "\n" not in store.notice
        assert store.save(a_game()) is None
        store.remember_settings({"size": 4})
        store.cache_analysis("key", "method", "value")
        store.close()
        assert sorted(path.name for path in folder.iterdir()) == before


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_history_that_is_not_a_file_turns_the_history_off(data_dir: Path, kind: str) -> None:
    path = data_dir / DB_NAME
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)  # SQLite would wait on it for ever
    store = HistoryStore.open()
    assert store.state == "off" and store.notice == f"History is off: {path} is not a file."
    assert store.save(a_game()) is None and store.count() == 0


@contextmanager
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB file system of its own (a tmpfs: root only), to be filled up."""
    mount = tmp_path / "tiny-disk"
    mount.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("cannot mount a small file system here")
    try:
        yield mount
    finally:
        # Lazily: a test that failed may leave the history open on it until it is collected.
        subprocess.run(["umount", "-l", str(mount)], check=True)


def fill(folder: Path) -> Path:
    """Fill the file system `folder` is on; the file that fills it."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"x" * 4096)
        except OSError:
            pass
    return filler


def test_a_full_disk_keeps_the_games_in_memory_says_why_and_saves_them_later(
    tmp_path: Path,
) -> None:
    with tiny_disk(tmp_path) as disk:
        store = HistoryStore.open(disk)
        filler = fill(disk)
        games = list(sample_games(5))
        assert [store.save(game) for game in games] == [None] * 5
        assert store.pending == games and store.waiting
        assert store.notice.startswith(
            "Could not save to the history (database or disk is full): 5 games are kept in memory"
        )
        assert sorted(path.name for path in disk.iterdir()) == [
            "filler",
            "history.sqlite3",
            "history.sqlite3-shm",
            "history.sqlite3-wal",
        ]
        filler.unlink()
        assert store.retry() == [1, 2, 3, 4, 5]
        assert store.notice == "" and not store.waiting and store.pending == []
        store.close()


def test_a_data_dir_that_cannot_be_made_turns_the_history_off(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    store = HistoryStore.open(tmp_path / "file" / "data")
    assert store.state == "off" and store.notice.startswith("History is off")


def hold_lock(path: Path, wal: bool = True) -> sqlite3.Connection:
    """Another program holding the history's write lock (`BEGIN EXCLUSIVE`); in a file that is
    not in WAL mode this keeps readers out too."""
    other = sqlite3.connect(path, isolation_level=None)
    if not wal:
        other.execute("PRAGMA journal_mode = DELETE")
    other.execute("BEGIN EXCLUSIVE")
    return other


def records(folder: Path) -> list[PlayedGame]:
    """The games waiting beside the database as records, oldest first."""
    return [
        PlayedGame.from_record(path.read_text()) for path in sorted(folder.glob("unsaved-*.txt"))
    ]


def test_a_locked_history_keeps_the_game_beside_it_and_saves_it_later(data_dir: Path) -> None:
    store = HistoryStore.open(busy_seconds=0.2)
    other = hold_lock(data_dir / DB_NAME)
    first = a_game(outcome="draw")
    assert store.save(first) is None
    # Kept at once where the next start finds it, not only in memory: a crash loses nothing.
    assert records(data_dir) == [first] and store.pending == []
    assert store.waiting
    assert "busy" in store.notice and "1 game is kept" in store.notice
    assert "\n" not in store.notice
    other.execute("ROLLBACK")
    other.close()
    second = a_game((0, 3, 1, 4, 2), outcome="X")
    second_id = store.save(second)
    assert second_id == 2 and records(data_dir) == [] and store.notice == ""
    assert store.game(1) == first and store.game(2) == second
    assert not store.waiting


def test_retry_saves_the_waiting_games_once_the_lock_goes(data_dir: Path) -> None:
    store = HistoryStore.open(busy_seconds=0.2)
    other = hold_lock(data_dir / DB_NAME)
    games = [a_game(outcome="draw"), a_game((0, 3, 1, 4, 2), outcome="X")]
    assert [store.save(game) for game in games] == [None, None]
    assert store.retry() == [] and store.waiting and "2 games are kept" in store.notice
    other.execute("ROLLBACK")
    other.close()
    assert store.retry() == [1, 2]
    assert [store.game(1), store.game(2)] == games
    assert not store.waiting and store.notice == "" and records(data_dir) == []


def test_a_history_locked_at_start_up_connects_when_the_lock_goes(data_dir: Path) -> None:
    # A file readers cannot even open while another program holds it.
    HistoryStore.open().close()
    other = hold_lock(data_dir / DB_NAME, wal=False)
    store = HistoryStore.open(busy_seconds=0.2)
    assert store.state == "waiting" and store.waiting
    assert "locked" in store.notice and "\n" not in store.notice
    game = a_game()
    assert store.save(game) is None
    assert records(data_dir) == [game]
    assert store.retry() == [] and store.state == "waiting"
    other.execute("ROLLBACK")
    other.close()
    assert store.retry() == [1]
    assert store.state == "ready" and store.notice == "" and not store.waiting
    assert store.game(1) == game and store.save(a_game()) == 2


def test_an_older_history_locked_at_start_up_is_migrated_once_free(data_dir: Path) -> None:
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.executescript(MIGRATIONS[0])
        db.execute("PRAGMA user_version = 1")
    other = hold_lock(data_dir / DB_NAME)
    store = HistoryStore.open(busy_seconds=0.2)
    assert store.state == "waiting"
    other.execute("ROLLBACK")
    other.close()
    store.retry()
    assert store.state == "ready"
    with sqlite3.connect(data_dir / DB_NAME) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_current_history_locked_at_start_up_still_lists_its_games(data_dir: Path) -> None:
    store = HistoryStore.open()
    store.save_many(sample_games(12))
    store.close()
    other = hold_lock(data_dir / DB_NAME)
    locked = HistoryStore.open(busy_seconds=0.2)
    assert locked.state == "ready" and locked.count() == 12
    other.execute("ROLLBACK")
    other.close()


def test_settings_given_while_the_history_is_locked_are_saved_once_it_is_free(
    data_dir: Path,
) -> None:
    store = HistoryStore.open(busy_seconds=30)  # a wait would show: it must not happen
    other = hold_lock(data_dir / DB_NAME)
    store.remember_settings({"size": 4})
    assert store.waiting and "settings" in store.notice and "\n" not in store.notice
    other.execute("ROLLBACK")
    other.close()
    store.retry()
    assert store.last_settings() == {"size": 4} and not store.waiting and store.notice == ""


def test_a_save_after_closing_is_kept_for_the_next_start(data_dir: Path) -> None:
    store = HistoryStore.open()
    store.close()
    store.close()
    game = a_game()
    assert store.save(game) is None
    assert records(data_dir) == [game]
    again = HistoryStore.open()
    assert again.game(1) == game and records(data_dir) == []


def test_saves_racing_the_close_from_another_thread_lose_nothing(data_dir: Path) -> None:
    store = HistoryStore.open()
    games = list(sample_games(60))
    saver = threading.Thread(target=lambda: [store.save(game) for game in games])
    saver.start()
    store.close()
    saver.join()
    again = HistoryStore.open()
    kept = sorted(again.game(g.id).cells for g in again.games(limit=-1))  # type: ignore[union-attr]
    assert kept == sorted(game.cells for game in games)


def test_two_copies_saving_the_same_waiting_records_save_each_once(data_dir: Path) -> None:
    first = HistoryStore.open(busy_seconds=0.2)
    other = hold_lock(data_dir / DB_NAME)
    games = list(sample_games(5))
    assert [first.save(game) for game in games] == [None] * 5
    other.execute("ROLLBACK")
    other.close()
    second = HistoryStore.open()  # a second copy starts and saves the records it finds
    first.retry()
    first.close()
    assert second.count() == 5 and records(data_dir) == []


def test_a_record_claimed_by_a_copy_that_crashed_is_saved_once(data_dir: Path) -> None:
    store = HistoryStore.open()
    saved, unsaved = a_game(), a_game((0, 3, 1, 4, 2), outcome="X")
    store.save(saved)
    store.close()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # One crashed after saving its record, one before.
    (data_dir / f"unsaved-1-1-1.txt.saving-{dead}").write_text(saved.to_record())
    (data_dir / f"unsaved-1-1-2.txt.saving-{dead}").write_text(unsaved.to_record())
    again = HistoryStore.open()
    assert again.count() == 2 and again.game(2) == unsaved
    assert list(data_dir.glob("unsaved-*")) == []


def test_two_processes_saving_at_once_lose_no_game(data_dir: Path) -> None:
    script = (
        "import sys\n"
        "from benchmarks.history_bench import sample_games\n"
        "from tictactoe_tui.history.store import HistoryStore\n"
        "store = HistoryStore.open(busy_seconds=10)\n"
        "lost = [g for g in sample_games(200, seed=int(sys.argv[1])) if store.save(g) is None]\n"
        "sys.exit(1 if lost or store.pending else 0)\n"
    )
    HistoryStore.open().close()  # created first, so neither writer races to make the file
    writers = [subprocess.Popen([sys.executable, "-c", script, str(seed)]) for seed in (1, 2)]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0]
    store = HistoryStore.open()
    assert store.count() == 400
    kept = sorted(store.game(g.id).cells for g in store.games(limit=-1))  # type: ignore[union-attr]
    expected = sorted(g.cells for seed in (1, 2) for g in sample_games(200, seed=seed))
    assert kept == expected


def test_games_still_locked_out_at_closing_are_saved_by_the_next_start(data_dir: Path) -> None:
    store = HistoryStore.open(busy_seconds=0.1)
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    game = a_game()
    assert store.save(game) is None
    store.close()
    [parked] = data_dir.glob("unsaved-*.txt")
    assert PlayedGame.from_record(parked.read_text()) == game
    other.execute("ROLLBACK")
    other.close()
    again = HistoryStore.open()
    assert again.count() == 1 and again.game(1) == game
    assert not list(data_dir.glob("unsaved-*.txt"))


def test_a_game_lost_by_a_fault_keeps_its_reason_in_the_history_and_its_record() -> None:
    reason = "Computer (O) (pbrain-x) lost by a fault: pbrain-x timed out."
    game = a_game((4, 0, 8), o="engine", outcome="X", forfeit=reason)
    store = HistoryStore.open()
    game_id = store.save(game)
    assert game_id is not None
    kept = store.game(game_id)
    assert kept is not None and kept.forfeit == reason and kept.outcome == "X"
    text = kept.to_record(game_id)
    assert f"# forfeit: {reason}" in text
    again = PlayedGame.from_record(text)
    assert (again.outcome, again.forfeit) == ("X", reason)
