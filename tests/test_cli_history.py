"""`tictactoe-tui history`, `export` and `import`, run as a user runs them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.history_bench import sample_games
from tests.games import a_game
from tests.test_store import read_only_history
from tictactoe_tui.cli.flags import data_dir_flag, parse_args
from tictactoe_tui.history.locations import DATA_DIR_ENV, DB_NAME
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.store import HistoryStore


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line in a fresh interpreter (the data dir comes from the environment)."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
    )


def test_history_lists_the_games_as_json_newest_first() -> None:
    store = HistoryStore.open()
    games = list(sample_games(5))
    store.save_many(games)
    store.close()
    out = cli("history", "--json")
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    assert [entry["id"] for entry in listed] == [5, 4, 3, 2, 1]
    newest = games[-1]
    assert listed[0] == {
        "id": 5,
        "started": newest.started.isoformat(),
        "mode": newest.mode,
        "x": newest.x,
        "o": newest.o,
        "size": newest.size,
        "k": newest.k,
        "result": newest.outcome,
        "moves": len(newest.moves),
    }


def test_history_prints_a_table_and_says_where_an_empty_one_lives(data_dir: Path) -> None:
    empty = cli("history")
    assert empty.returncode == 0
    assert "No games yet" in empty.stdout and str(data_dir / DB_NAME) in empty.stdout
    HistoryStore.open().save(a_game())
    table = cli("history")
    assert "2025-03-01 14:00" in table.stdout and "alphabeta" in table.stdout


def test_the_data_dir_flag_beats_the_environment(tmp_path: Path, data_dir: Path) -> None:
    HistoryStore.open(tmp_path).save(a_game())
    assert json.loads(cli("history", "--json", "--data-dir", str(tmp_path)).stdout)[0]["id"] == 1
    assert json.loads(cli("history", "--json").stdout) == []


def test_export_then_import_gives_back_the_same_game(tmp_path: Path) -> None:
    game = a_game()
    HistoryStore.open().save(game)
    exported = cli("export", "1")
    assert exported.returncode == 0, exported.stderr
    assert PlayedGame.from_record(exported.stdout) == game
    record = tmp_path / "game.txt"
    record.write_text(exported.stdout)
    other = tmp_path / "other"
    imported = cli("import", str(record), "--data-dir", str(other))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "1"
    assert HistoryStore.open(other).game(1) == game
    again = cli("import", "-", stdin=exported.stdout)
    assert again.stdout.strip() == "2"


def test_a_game_saved_before_undo_trimmed_its_switches_still_exports_and_imports(
    data_dir: Path,
) -> None:
    # Saved by an earlier version: `c` after six plies, undo to the start, a five-ply game.
    HistoryStore.open().save(
        a_game((4, 0, 8, 2, 1), outcome="abandoned", switched_to_random=(6,), switched_to_clever=())
    )
    with sqlite3.connect(data_dir / DB_NAME) as db:
        assert db.execute("SELECT switched_to_random FROM games").fetchone() == ("6",)
    exported = cli("export", "1")
    assert exported.returncode == 0, exported.stderr
    imported = cli("import", "-", stdin=exported.stdout)
    assert (imported.returncode, imported.stderr) == (0, "")
    assert HistoryStore.open().game(2) == HistoryStore.open().game(1)


def test_import_takes_a_plain_engine_record() -> None:
    out = cli("import", "-", stdin="tictactoe 3x3 k=3 first=X\nmoves: 1 4 2 5 3\n")
    assert out.returncode == 0, out.stderr
    game = HistoryStore.open().game(int(out.stdout))
    assert game is not None and game.outcome == "X" and game.mode == "human-vs-human"


@pytest.mark.parametrize(
    "args",
    [
        ["history", "--data-dir"],
        ["history", "--bogus"],
        ["export"],
        ["export", "seven"],
        ["export", "99"],
        ["import", "/no/such/file"],
        ["import"],
    ],
)
def test_bad_input_gets_one_line_and_status_2(args: list[str]) -> None:
    out = cli(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "command", [["history"], ["export", "1"], ["import", "-"], [], ["--size", "4"], ["serve"]]
)
@pytest.mark.parametrize(
    ("where", "complaint"),
    [
        ("/etc/passwd", "argument --data-dir: /etc/passwd is a file, not a directory"),
        (
            "/etc/passwd/games",
            "argument --data-dir: /etc/passwd/games is inside /etc/passwd, which is a file",
        ),
        ("", "argument --data-dir: must name a directory, not ''"),
    ],
)
def test_a_data_dir_that_is_a_file_or_empty_is_one_line_and_status_2(
    command: list[str], where: str, complaint: str
) -> None:
    out = cli(*command, "--data-dir", where, stdin="")
    assert out.returncode == 2, out.stdout
    assert out.stderr.endswith(f": {complaint}\n") and out.stderr.count("\n") == 1


def test_a_data_dir_from_the_environment_that_is_a_file_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, "/etc/passwd")
    for command in (["history"], ["export", "1"], ["import", "-"]):
        out = cli(*command, stdin="")
        assert out.returncode == 2
        assert (
            out.stderr.endswith(
                ": $TICTACTOE_TUI_DATA_DIR: /etc/passwd is a file, not a directory\n"
            )
            and out.stderr.count("\n") == 1
        )


def test_the_reading_commands_make_nothing_where_there_is_no_history(tmp_path: Path) -> None:
    missing = tmp_path / "not" / "there"
    listed = cli("history", "--data-dir", str(missing))
    assert listed.returncode == 0 and listed.stderr == ""
    assert listed.stdout == f"No games yet (there is no {missing / DB_NAME} yet).\n"
    assert cli("history", "--json", "--data-dir", str(missing)).stdout.strip() == "[]"
    exported = cli("export", "1", "--data-dir", str(missing))
    assert exported.returncode == 2 and "there is no game 1" in exported.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli("history", "--data-dir", str(empty)).returncode == 0
    assert not (tmp_path / "not").exists() and list(empty.iterdir()) == []


@pytest.mark.slow
def test_history_says_when_games_wait_beside_a_locked_history(data_dir: Path) -> None:
    store = HistoryStore.open(busy_seconds=0.1)
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    store.save(a_game())
    store.close()
    listed = cli("history")
    assert "No games yet" in listed.stdout
    assert "1 game is kept beside it" in listed.stderr and listed.stderr.count("\n") == 1
    other.execute("ROLLBACK")
    other.close()
    assert "2025-03-01 14:00" in cli("history").stdout  # saved by the next command to look
    assert not list(data_dir.glob("unsaved-*"))


@pytest.mark.slow
def test_import_into_a_locked_history_says_so_and_keeps_nothing_behind(data_dir: Path) -> None:
    HistoryStore.open().close()
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    out = cli("import", "-", stdin="tictactoe 3x3 k=3 first=X\nmoves: 5\n")
    other.execute("ROLLBACK")
    other.close()
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == (
        "tictactoe-tui import: the game was not added: the history is locked "
        "by another program (try again once it is free)\n"
    )
    assert not list(data_dir.glob("unsaved-*")) and HistoryStore.open().count() == 0


def test_importing_a_waiting_record_by_hand_saves_it_once(data_dir: Path) -> None:
    store = HistoryStore.open(busy_seconds=0.1)
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    store.save(a_game())
    store.close()
    other.execute("ROLLBACK")
    other.close()
    [record] = data_dir.glob("unsaved-*.txt")
    out = cli("import", str(record))
    assert (out.returncode, out.stdout) == (0, "1\n")
    assert HistoryStore.open().count() == 1


def test_history_lists_a_history_it_cannot_write(tmp_path: Path) -> None:
    with read_only_history(tmp_path, games=12) as folder:
        listed = cli("history", "--json", "--data-dir", str(folder))
        assert listed.returncode == 0
        assert len(json.loads(listed.stdout)) == 12
        assert "cannot be written" in listed.stderr and listed.stderr.count("\n") == 1
        exported = cli("export", "3", "--data-dir", str(folder))
        assert exported.returncode == 0 and "# tictactoe-tui game 3" in exported.stdout
        table = cli("history", "--data-dir", str(folder))
        assert "No games yet" not in table.stdout and len(table.stdout.splitlines()) == 13


def test_a_file_that_is_not_a_record_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    for text in ("hello", "tictactoe 3x3 k=3 first=X\nmoves: 5 5\n"):
        bad.write_text(text)
        out = cli("import", str(bad))
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
        assert "not a game record" in out.stderr
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00" * 50)
    out = cli("import", str(binary))
    assert out.returncode == 2 and "cannot read" in out.stderr
    assert HistoryStore.open().count() == 0


def test_a_damaged_history_is_kept_aside_by_a_read_which_makes_no_new_one(data_dir: Path) -> None:
    damaged = b"\x00garbage" * 500
    (data_dir / DB_NAME).write_bytes(damaged)
    out = cli("history", "--json")
    assert out.returncode == 0 and json.loads(out.stdout) == []
    assert len(out.stderr.strip().splitlines()) == 1
    assert "damaged" in out.stderr and "moved to" in out.stderr and "kept" in out.stderr
    # A read makes nothing: the damaged file is kept as it was, under its new name, and no new
    # history is started (the next game or import starts one).
    [moved] = data_dir.iterdir()
    assert moved.name.startswith(f"{DB_NAME}.damaged-") and moved.read_bytes() == damaged
    for command in (["history", "--json"], ["export", "1"]):
        cli(*command)
    assert list(data_dir.iterdir()) == [moved]


def test_the_next_import_moves_a_damaged_history_aside(data_dir: Path) -> None:
    (data_dir / DB_NAME).write_bytes(b"\x00garbage" * 500)
    out = cli("import", "-", stdin="tictactoe 3x3 k=3 first=X\nmoves: 5\n")
    assert out.returncode == 0 and "moved to" in out.stderr
    assert list(data_dir.glob(f"{DB_NAME}.damaged-*"))


def test_importing_into_a_newer_history_fails_without_touching_it(data_dir: Path) -> None:
    HistoryStore.open().close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute("PRAGMA user_version = 99")
    out = cli("import", "-", stdin="tictactoe 3x3 k=3 first=X\nmoves: 5\n")
    assert out.returncode == 1 and "not added" in out.stderr and "newer" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_data_dir_is_a_game_flag_too() -> None:
    settings, game_flag = parse_args(["--data-dir", "/tmp/elsewhere"])
    assert not game_flag and settings.size == 3
    assert data_dir_flag(["--size", "4", "--data-dir", "/tmp/elsewhere"]) == "/tmp/elsewhere"
    assert data_dir_flag([]) is None
    out = cli("--data-dir")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1


def test_the_history_commands_never_load_the_ui() -> None:
    check = (
        "import sys, tictactoe_tui.cli.history, tictactoe_tui.history.review; "
        "sys.exit('textual' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", check], timeout=60).returncode == 0


def test_the_table_stays_straight_with_an_engine_named_at_length(data_dir: Path) -> None:
    store = HistoryStore.open()
    store.save(a_game(o="engine:Named Brain"))
    store.save(a_game(o="alphabeta"))
    store.close()
    lines = cli("history").stdout.splitlines()
    starts = {line.find("3×3") for line in lines[1:]}
    assert len(starts) == 1 and lines[0].find("board") in starts
    assert "engine:Named Brain" in lines[1] + lines[2]
