"""The app as `serve` runs it for each browser tab ($TICTACTOE_TUI_SERVED set): its Settings
offer only the outside engines the server named, a typed spec naming any other file is refused
beside its field, its games go to the served history, and a study it did not make stays."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from textual.widgets import Input, RadioSet, Select, Static

from tests.app.conftest import SIZE, game, status, wait_until
from tests.fake_brains import processes_running, write_brain
from tictactoe_tui.cli.play import app_from_args
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.players.offered import SERVED_ENV, Offered
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.record import study_to_record
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.study import MoveTree
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.settings import SettingsScreen


def serve_offering(monkeypatch: pytest.MonkeyPatch, *engines: Path) -> None:
    """This process (and the workers it starts) served, offering `engines`."""
    monkeypatch.setenv(SERVED_ENV, Offered(tuple(str(e) for e in engines)).to_env())


def trap(folder: Path) -> Path:
    """A program that leaves `ran` beside itself if anything ever starts it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pbrain-trap"
    path.write_text(f"#!/bin/sh\ntouch {folder / 'ran'}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def options(select: Select[object]) -> list[object]:
    return [value for _label, value in select._options if value != Select.NULL]


async def test_the_engine_is_a_choice_of_what_the_server_offers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    brain = write_brain(tmp_path / "brain", "good")
    serve_offering(monkeypatch, brain)
    app = app_from_args([])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = pilot.app.screen
        assert isinstance(screen, SettingsScreen)
        assert "engine" in options(screen.query_one("#opponent", Select))
        engine = screen.query_one("#engine", Select)  # a list, not a path to type
        assert options(engine) == [str(brain)] and engine.value == str(brain)
        screen.query_one("#opponent", Select).value = "engine"
        screen.query_one("#size", Select).value = 9
        await pilot.pause(0.2)
        assert await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameScreen))
        # The status is drawn once the screen has mounted (a moment after it is pushed).
        await wait_until(pilot, lambda: "pbrain-good (outside engine)" in status(pilot))
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(game(pilot).game.moves) == 2)
    assert processes_running(brain) == []
    # The game went to the served history, not the one of the data directory.
    assert (data_dir / "served" / DB_NAME).exists() and not (data_dir / DB_NAME).exists()
    kept = HistoryStore.open(data_dir / "served").games()
    assert [(g.x, g.o) for g in kept] == [("human", "engine:pbrain-good")]


async def test_a_typed_spec_naming_another_program_is_refused_beside_its_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = trap(tmp_path / "elsewhere")
    serve_offering(monkeypatch)  # the server names no engine
    app = app_from_args([])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = pilot.app.screen
        assert "engine" not in options(screen.query_one("#opponent", Select))
        assert await pilot.click("#mode-computer-vs-computer")
        await pilot.pause(0.1)
        assert screen.query_one("#mode", RadioSet).pressed_button is not None
        screen.query_one("#x", Input).value = f"engine:path={program}"
        await pilot.pause(0.1)
        assert await pilot.click("#start")
        await pilot.pause(0.3)
        error = str(screen.query_one("#x-error", Static).render())
        assert error == (
            f"Is not a player: bad player 'engine:path={program}': this server offers no "
            f"outside engine {program}: it offers none"
        )
        assert pilot.app.screen is screen  # nothing started
    assert not (program.parent / "ran").exists()


@pytest.mark.parametrize("where", ["an earlier visit", "the owner's, named by --data-dir"])
async def test_a_study_the_tab_did_not_make_cannot_be_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path, where: str
) -> None:
    named = where.endswith("--data-dir")
    owner = tmp_path / "owner" if named else data_dir / "served"
    study = study_to_record(MoveTree(Board.from_string("X../.O./...")))
    before = HistoryStore.open(owner)
    assert before.save_study(study) == 1
    before.close()
    serve_offering(monkeypatch)
    app = app_from_args(["--data-dir", str(owner)] if named else [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await pilot.press("y")
        await pilot.pause(0.3)
        await pilot.press("s")
        await pilot.pause(0.3)
        assert type(pilot.app.screen).__name__ == "StudiesScreen"
        await pilot.press("delete")
        await pilot.pause(0.3)
        said = [str(n.message) for n in pilot.app._notifications]
        assert said == [
            "Study 1 was not made in this browser tab: it is kept (a served game deletes only "
            "the studies it made)."
        ]
    assert HistoryStore.open(owner).study(1) is not None
