"""An outside engine in the app: two different computers watched against each other, its words
in the panel while it thinks, a fault that ends the game with the reason, and no engine left
running once the app is gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.conftest import SIZE, game, game_app, status, wait_until
from tests.fake_brains import processes_running, write_brain
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import EvalPanel


def panel_text(pilot: object) -> str:
    return game(pilot).query_one(EvalPanel).text  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_two_different_computers_play_each_other_and_the_engine_ends_with_the_app(
    tmp_path: Path,
) -> None:
    brain = write_brain(tmp_path, "good")
    app = game_app(
        mode="computer-vs-computer", size=9, k=5, x="h1", o=f"engine:path={brain}:time=2", seed=3
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: "O (pbrain-good, an outside engine) played" in panel_text(pilot)
        )
        assert "X H1 · O pbrain-good (outside engine)" in status(pilot)
        assert "In its own words (its MESSAGE lines, not our analysis):" in panel_text(pilot)
        assert "depth 2 | eval 5" in panel_text(pilot)
        assert processes_running(brain)
        await wait_until(pilot, lambda: len(game(pilot).game.moves) >= 6)
        moves = game(pilot).game.moves
        assert len(set(moves)) == len(moves)
    assert processes_running(brain) == []


@pytest.mark.asyncio
async def test_the_panel_shows_the_engines_words_live_marked_as_its_own(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "slow")
    app = game_app(
        mode="computer-vs-computer",
        size=9,
        k=5,
        x=f"engine:path={brain}:time=5",
        o="random",
        seed=1,
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "thinking hard" in panel_text(pilot))
        words = panel_text(pilot)
        assert "Computer X is thinking…" in words
        assert "pbrain-slow says (its own words, not our analysis):" in words
        assert game(pilot).game.moves == ()


@pytest.mark.asyncio
async def test_an_engine_that_crashes_loses_and_its_stderr_is_one_key_away(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "crash")
    app = game_app(mode="human-vs-computer", size=9, k=5, opponent="engine", engine=str(brain))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await pilot.press("enter")  # X in the centre
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
        assert game(pilot).game.result is not None
        assert game(pilot).game.result.forfeit == (
            "Computer (O) (pbrain-crash) lost by a fault: pbrain-crash exited with status 3 in "
            "the middle of the game."
        )
        await pilot.press("escape")
        await pilot.pause(0.2)
        await pilot.press("l")
        await pilot.pause(0.2)
        assert "Segmentation fault (pretend)" in panel_text(pilot)
    assert processes_running(brain) == []


@pytest.mark.asyncio
async def test_settings_offer_an_outside_engine_with_a_path_and_say_when_it_cannot_run(
    tmp_path: Path,
) -> None:
    from textual.widgets import Input, Select, Static

    from tictactoe_tui.cli.play import app_from_args
    from tictactoe_tui.ui.screens.game import GameScreen

    brain = write_brain(tmp_path / "brain", "good")
    app = app_from_args(["--data-dir", str(tmp_path / "data")])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = pilot.app.screen
        screen.query_one("#opponent", Select).value = "engine"
        screen.query_one("#size", Select).value = 9
        await pilot.pause(0.2)
        screen.query_one("#engine", Input).value = str(tmp_path / "missing")
        assert await pilot.click("#start")
        await pilot.pause(0.2)
        error = screen.query_one("#engine-error", Static)
        assert error.display and "does not exist" in str(error.render())
        screen.query_one("#engine", Input).value = str(brain)
        assert await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameScreen))
        assert "pbrain-good (outside engine)" in status(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(game(pilot).game.moves) == 2)
    assert processes_running(brain) == []


def test_opponent_takes_a_spec_and_x_o_imply_two_computers(tmp_path: Path) -> None:
    from tictactoe_tui.cli.flags import parse_args

    brain = write_brain(tmp_path, "good")
    settings, started = parse_args(["--opponent", f"engine:path={brain}:time=2", "--size", "15"])
    assert (settings.opponent, settings.engine, settings.time_limit) == ("engine", str(brain), 2)
    assert started
    settings, _ = parse_args(["--opponent", "alphabeta:depth=3:difficulty=80"])
    assert (settings.opponent, settings.depth, settings.difficulty) == ("alphabeta", 3, 80)
    settings, _ = parse_args(["--x", "h1", "--o", f"engine:path={brain}", "--size", "9"])
    assert (settings.mode, settings.x, settings.o) == (
        "computer-vs-computer",
        "h1",
        f"engine:path={brain}",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--opponent", "engine:path={missing}"],
        ["--x", "alphabeta", "--o", "engine:path={plain}", "--size", "9"],
        ["--opponent", "engine:path={brain}"],  # 3×3: five in a row cannot be played
    ],
)
def test_an_engine_that_cannot_play_gets_one_line_and_exit_2(
    tmp_path: Path, argv: list[str]
) -> None:
    import subprocess
    import sys

    plain = tmp_path / "plain"
    plain.write_text("not a program")
    paths = {
        "missing": tmp_path / "missing",
        "plain": plain,
        "brain": write_brain(tmp_path, "good"),
    }
    out = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *(a.format(**paths) for a in argv)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert out.stderr.startswith("tictactoe-tui: ") and "Traceback" not in out.stderr
