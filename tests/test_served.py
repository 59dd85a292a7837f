"""Served to browsers: nobody else's code (only what the server named), nobody else's games.

The rule of what a served app may start (`engine.players.offered`), where its history is
(`served_data_dir`), what its history may delete or rewrite (`HistoryStore.only_own`), and what
`serve` hands each app (`offered`, `app_command`).
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games import a_game
from tictactoe_tui.cli.serve import app_command, offered
from tictactoe_tui.engine import Board, PlayerSpec
from tictactoe_tui.engine.players.offered import SERVED_ENV, Offered, served
from tictactoe_tui.history.lessons import (
    LessonProgress,
    keep_progress,
    lesson_progress,
    reset_progress,
)
from tictactoe_tui.history.locations import DATA_DIR_ENV, DB_NAME, served_data_dir
from tictactoe_tui.history.record import study_to_record
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.analysis import AnalysisController
from tictactoe_tui.play.settings import GameSettings, SettingError, settings_from_values


def program(folder: Path, name: str) -> Path:
    """An executable that would write `ran-NAME` beside itself if it were ever started."""
    path = folder / name
    path.write_text(f"#!/bin/sh\ntouch {folder / ('ran-' + name)}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def learner(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text("def choose(board):\n    return board.legal_moves()[0]\n")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """Two programs and two learner's files; the server offers the first of each."""
    return {
        "engine": program(tmp_path, "pbrain-offered"),
        "other_engine": program(tmp_path, "pbrain-other"),
        "python": learner(tmp_path, "offered.py"),
        "other_python": learner(tmp_path, "other.py"),
    }


@pytest.fixture
def serving(files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> Offered:
    """This process served, as `serve --allow-engine E --allow-python F` starts an app."""
    offer = Offered((str(files["engine"]),), (str(files["python"]),))
    monkeypatch.setenv(SERVED_ENV, offer.to_env())
    return offer


# -- what a served app may start ------------------------------------------------------------------


def test_the_terminal_app_is_not_served() -> None:
    assert served() is None


def test_what_the_server_offers_reaches_the_app_whole(serving: Offered) -> None:
    assert served() == serving


@pytest.mark.parametrize("value", ["", "not json", "[]", '{"engines": "/bin/sh"}', '{"x": 1}'])
def test_a_value_that_cannot_be_read_offers_nothing(value: str) -> None:
    assert Offered.from_env(value) == Offered()


def test_an_offered_path_is_accepted_however_it_is_written(
    files: dict[str, Path], tmp_path: Path
) -> None:
    offer = Offered((str(files["engine"]),), (str(files["python"]),))
    link = tmp_path / "link-to-brain"
    link.symlink_to(files["engine"])
    for text in (str(files["engine"]), f"{tmp_path}/./pbrain-offered", str(link)):
        assert offer.refusal("engine", text) is None
    assert offer.refusal("python", str(files["python"])) is None
    # A program is not a learner's file, nor the other way round.
    assert offer.refusal("python", str(files["engine"])) is not None
    assert offer.refusal("engine", str(files["python"])) is not None


def test_a_path_not_offered_is_refused_in_one_line_that_says_nothing_of_the_file(
    files: dict[str, Path],
) -> None:
    offer = Offered((str(files["engine"]),))
    there, missing = str(files["other_engine"]), "/no/such/brain"
    assert offer.refusal("engine", there) == (
        f"this server offers no outside engine {there}: choose one it offers: {files['engine']}"
    )
    # Whether the file exists makes no difference to the answer.
    assert offer.refusal("engine", missing) == (
        f"this server offers no outside engine {missing}: choose one it offers: {files['engine']}"
    )
    assert offer.refusal("python", "/etc/passwd") == (
        "this server offers no Python file /etc/passwd: it offers none"
    )


@pytest.mark.parametrize(
    "spec",
    [
        "engine:path={other_engine}",
        "engine:path=/bin/sh",
        "python:path={other_python}",
        "alphabeta:eval={other_python}",
        "minimax:eval={other_python}:depth=2",
        "python:path=/etc/passwd",
    ],
)
def test_a_spec_naming_anything_else_is_refused(
    spec: str, files: dict[str, Path], serving: Offered
) -> None:
    with pytest.raises(ValueError, match="this server offers no") as refused:
        PlayerSpec.parse(spec.format(**files))
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "spec", ["engine:path={engine}:time=2", "python:path={python}", "alphabeta:eval={python}"]
)
def test_a_spec_naming_what_the_server_offers_plays(
    spec: str, files: dict[str, Path], serving: Offered
) -> None:
    parsed = PlayerSpec.parse(spec.format(**files))
    assert (parsed.path or parsed.eval_path) in (str(files["engine"]), str(files["python"]))


def test_the_terminal_app_takes_any_file(files: dict[str, Path]) -> None:
    assert PlayerSpec.parse(f"engine:path={files['other_engine']}").path
    assert PlayerSpec.parse(f"python:path={files['other_python']}").path


def test_the_settings_refuse_an_engine_not_offered_and_take_an_offered_one(
    files: dict[str, Path], serving: Offered
) -> None:
    with pytest.raises(SettingError, match="this server offers no outside engine") as refused:
        GameSettings(opponent="engine", engine=str(files["other_engine"]), size=15, k=5)
    assert refused.value.field == "engine"
    with pytest.raises(SettingError, match="this server offers no Python file") as refused:
        GameSettings(mode="computer-vs-computer", x=f"python:path={files['other_python']}")
    assert refused.value.field == "x"
    assert GameSettings(opponent="engine", engine=str(files["engine"]), size=15, k=5)
    # A game of the history played against another program is not replayed with it.
    kept = {"opponent": "engine", "engine": str(files["other_engine"]), "size": 15, "k": 5}
    assert settings_from_values(kept) is None


def test_no_player_starts_a_program_not_offered_whatever_called_it(
    files: dict[str, Path], serving: Offered
) -> None:
    from tictactoe_tui.engine.players.guest import GuestCode
    from tictactoe_tui.engine.players.outside import OutsidePlayer

    with pytest.raises(ValueError, match="this server offers no"):
        OutsidePlayer(str(files["other_engine"]))
    with pytest.raises(ValueError, match="this server offers no"):
        GuestCode(str(files["other_python"]))
    assert not list(files["engine"].parent.glob("ran-*"))


def test_the_course_grades_no_file_the_server_did_not_offer(
    files: dict[str, Path], serving: Offered
) -> None:
    from tictactoe_tui.play.course import judge, load_course

    lesson = load_course().by_key("your_eval")
    assert lesson is not None
    code = next(e for e in lesson.exercises if e.kind == "code")
    verdict = judge(code, str(files["other_python"]))
    assert not verdict.judged and "this server offers no Python file" in verdict.line


# -- where the browsers' games are kept -----------------------------------------------------------


def test_the_browsers_history_is_not_the_owners(data_dir: Path) -> None:
    assert served_data_dir() == data_dir / "served"
    assert served_data_dir(None) == served_data_dir("") == data_dir / "served"


def test_the_browsers_history_is_the_one_data_dir_names(tmp_path: Path) -> None:
    assert served_data_dir(str(tmp_path / "shared")) == tmp_path / "shared"


def test_a_served_app_keeps_its_games_in_the_served_history(
    serving: Offered, data_dir: Path
) -> None:
    from tictactoe_tui.cli.play import app_from_args

    app = app_from_args(["--size", "4"])
    try:
        assert app.store.path == data_dir / "served" / DB_NAME and app.store.only_own
        assert app.served == serving
    finally:
        app.store.close()


# -- nothing a browser does deletes or rewrites what it did not make ------------------------------


def a_record(cells: tuple[int, ...] = (4,)) -> str:
    controller = AnalysisController(Board.empty(3, 3))
    for cell in cells:
        controller.play(cell)
    return study_to_record(controller.tree)


@pytest.fixture
def owners(tmp_path: Path) -> Path:
    """A history with a game, a study, a lesson's progress and the last settings in it."""
    folder = tmp_path / "owner"
    store = HistoryStore.open(folder)
    assert store.save(a_game()) == 1
    assert store.save_study(a_record((4, 0))) == 1
    keep_progress(store, LessonProgress("value", stars=3, done=True, reached=4))
    store.remember_settings({"opponent": "h1", "size": 4})
    store.cache_analysis("X........", "exact", "the owner's")
    store.close()
    return folder


def rows(folder: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(folder / DB_NAME) as db:
        return db.execute(query).fetchall()


def test_a_browser_cannot_delete_or_rewrite_a_study_it_did_not_make(owners: Path) -> None:
    before = rows(owners, "SELECT * FROM studies")
    store = HistoryStore.open(owners, only_own=True)
    assert not store.owns_study(1)
    assert store.delete_study(1) is False
    # Kept "again" from the browser: a new study; the owner's stays as it was.
    again = store.save_study(a_record((4, 0, 8)), 1)
    assert again == 2
    assert rows(owners, "SELECT * FROM studies WHERE id = 1") == before
    # What it made, it may rewrite and delete.
    assert store.save_study(a_record((4, 0, 8, 2)), again) == again
    assert store.delete_study(again) is True
    store.close()
    assert rows(owners, "SELECT * FROM studies") == before


def test_a_browser_cannot_forget_a_game_it_did_not_save(owners: Path) -> None:
    store = HistoryStore.open(owners, only_own=True)
    assert store.forget(a_game()) is False
    mine = a_game((0, 4, 8))
    assert store.save(mine) == 2
    assert store.forget(mine) is True  # undo reopened the game it just saved
    store.close()
    assert rows(owners, "SELECT id FROM games") == [(1,)]


def test_a_browser_neither_reads_nor_writes_the_last_settings(owners: Path) -> None:
    store = HistoryStore.open(owners, only_own=True)
    assert store.last_settings() is None
    store.remember_settings({"opponent": "random"})
    store.close()
    assert HistoryStore.open(owners).last_settings() == {"opponent": "h1", "size": 4}


def test_a_browser_keeps_its_own_lessons_and_resets_only_those(owners: Path) -> None:
    store = HistoryStore.open(owners, only_own=True)
    keep_progress(store, LessonProgress("value", stars=1, done=True, reached=1, mistakes=3))
    keep_progress(store, LessonProgress("minimax", stars=2, done=True, reached=5))
    progress = lesson_progress(store)
    assert progress["value"] == LessonProgress("value", 3, True, 4, 0, 0)  # the owner's, as it was
    assert progress["minimax"].stars == 2
    assert reset_progress(store)
    assert set(lesson_progress(store)) == {"value"}
    store.close()


def test_a_browser_never_replaces_a_cached_analysis(owners: Path) -> None:
    store = HistoryStore.open(owners, only_own=True)
    store.cache_analysis("X........", "exact", "a browser's")
    store.cache_analysis(".X.......", "exact", "new")
    assert store.cached_analyses(["X........", ".X......."], "exact") == {
        "X........": "the owner's",
        ".X.......": "new",
    }
    store.close()


# -- what serve hands each app --------------------------------------------------------------------


def test_serve_offers_what_its_command_line_names(files: dict[str, Path]) -> None:
    from tictactoe_tui.cli.flags import parse_args

    settings, _ = parse_args(
        ["--mode", "computer-vs-computer", "--x", f"alphabeta:eval={files['python']}"]
    )
    offer, problem = offered([str(files["engine"])], [], settings)
    assert problem is None
    assert offer == Offered((str(files["engine"]),), (str(files["python"]),))
    _, problem = offered(["/no/such/brain"], [], GameSettings())
    assert problem == (
        "--allow-engine /no/such/brain: no outside engine at /no/such/brain: "
        "the file does not exist"
    )


def test_each_app_is_served_with_what_is_offered_and_the_servers_history(tmp_path: Path) -> None:
    offer = Offered(("/opt/pbrain",), ("/srv/my eval.py",))
    words = shlex.split(app_command(["--size", "4"], offer, tmp_path / "served"))
    assert words[:2] == ["exec", "env"]
    assert words[2] == f"{SERVED_ENV}={offer.to_env()}"
    assert words[3:] == [
        sys.executable,
        "-m",
        "tictactoe_tui",
        "--size",
        "4",
        "--data-dir",
        str(tmp_path / "served"),
    ]


def test_serve_refuses_a_program_it_cannot_offer_in_one_line(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "serve", "--allow-python", str(tmp_path / "x.txt")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, DATA_DIR_ENV: str(tmp_path)},
    )
    assert out.returncode == 2
    assert out.stderr == (
        f"tictactoe-tui serve: --allow-python {tmp_path / 'x.txt'}: no Python file at "
        f"{tmp_path / 'x.txt'}: the file does not exist\n"
    )
