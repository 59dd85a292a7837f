"""The game flags: every one parsed, the defaults, and bad values refused in one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.app.conftest import marks as marks_of_board
from tictactoe_tui.cli.flags import parse_args
from tictactoe_tui.cli.play import app_from_args
from tictactoe_tui.engine import Mark
from tictactoe_tui.play.settings import GameSettings, SettingError, settings_from_text


def test_no_flags_gives_the_defaults_and_no_game_flag() -> None:
    settings, game_flag = parse_args([])
    assert settings == GameSettings()
    assert not game_flag
    assert (settings.mode, settings.first, settings.mark) == ("human-vs-computer", "human", "X")
    assert (settings.opponent, settings.difficulty, settings.size) == ("alphabeta", 100, 3)
    assert (settings.k, settings.win_length, settings.seed) == (None, 3, None)
    assert (settings.time_limit, settings.theme) == (1.0, "textual-dark")
    assert settings.depth is None


def test_every_flag_is_parsed() -> None:
    settings, game_flag = parse_args(
        [
            "--mode",
            "computer-vs-computer",
            "--first",
            "computer",
            "--mark",
            "O",
            "--opponent",
            "h2",
            "--difficulty",
            "40",
            "--size",
            "7",
            "--k",
            "4",
            "--time-limit",
            "2.5",
            "--seed",
            "42",
            "--depth",
            "3",
            "--theme",
            "nord",
        ]
    )
    assert game_flag
    assert settings == GameSettings(
        mode="computer-vs-computer",
        first="computer",
        mark="O",
        opponent="h2",
        difficulty=40,
        size=7,
        k=4,
        time_limit=2.5,
        seed=42,
        depth=3,
        theme="nord",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--mode", "human-vs-human"],
        ["--first", "computer"],
        ["--mark", "O"],
        ["--opponent", "random"],
        ["--difficulty", "50"],
        ["--size", "4"],
        ["--k", "3"],
        ["--time-limit", "3"],
        ["--seed", "0"],
        ["--depth", "2"],
    ],
)
def test_any_game_flag_means_start_the_game(argv: list[str]) -> None:
    assert parse_args(argv)[1]


def test_theme_alone_is_not_a_game_flag() -> None:
    settings, game_flag = parse_args(["--theme", "gruvbox"])
    assert settings.theme == "gruvbox"
    assert not game_flag


def test_default_k_follows_the_board_size() -> None:
    assert parse_args(["--size", "4"])[0].win_length == 4
    assert parse_args(["--size", "10"])[0].win_length == 5
    assert parse_args(["--size", "10", "--k", "3"])[0].win_length == 3


@pytest.mark.parametrize(
    ("mark", "first", "first_mark"),
    [
        ("X", "human", Mark.X),
        ("X", "computer", Mark.O),
        ("O", "human", Mark.O),
        ("O", "computer", Mark.X),
    ],
)
def test_the_first_mover_makes_the_first_mark(mark: str, first: str, first_mark: Mark) -> None:
    settings = GameSettings(mark=mark, first=first)
    assert settings.human_mark is Mark(mark)
    assert settings.computer_mark is Mark(mark).opponent
    assert settings.first_mark is first_mark


def test_which_marks_the_computer_plays_depends_on_the_mode() -> None:
    against = GameSettings(mark="O")
    assert against.is_computer(Mark.X) and not against.is_computer(Mark.O)
    assert not any(GameSettings(mode="human-vs-human").is_computer(m) for m in Mark)
    assert all(GameSettings(mode="computer-vs-computer").is_computer(m) for m in Mark)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "21"], "--size must be between 3 and 20, not 21"),
        (["--size", "2"], "--size must be between 3 and 20, not 2"),
        (["--size", "big"], "--size must be a whole number, not 'big'"),
        (["--k", "4"], "--k must be between 3 and the board size 3, not 4"),
        (["--size", "5", "--k", "2"], "--k must be between 3 and the board size 5, not 2"),
        (["--difficulty", "0"], "--difficulty must be between 1 and 100, not 0"),
        (["--difficulty", "101"], "--difficulty must be between 1 and 100, not 101"),
        (["--time-limit", "0"], "--time-limit must be more than 0 and at most 60 seconds, not 0"),
        (["--time-limit", "61"], "--time-limit must be more than 0 and at most 60 seconds, not 61"),
        (["--time-limit", "nan"], "--time-limit must be a number of seconds, not 'nan'"),
        (["--seed", "1.5"], "--seed must be a whole number, not '1.5'"),
        (["--depth", "0"], "--depth must be between 1 and 20, not 0"),
        (["--depth", "-1"], "--depth must be between 1 and 20, not -1"),
        (["--depth", "21"], "--depth must be between 1 and 20, not 21"),
        (["--depth", "deep"], "--depth must be a whole number, not 'deep'"),
        (["--time-limit", "inf"], "--time-limit must be a number of seconds, not 'inf'"),
        (["--time-limit", "-1"], "--time-limit must be more than 0 and at most 60 seconds, not -1"),
        (
            ["--mode", "solo"],
            "--mode must be one of human-vs-computer, human-vs-human, "
            "computer-vs-computer, not 'solo'",
        ),
        (["--first", "me"], "--first must be one of human, computer, not 'me'"),
        (["--mark", "Z"], "--mark must be one of X, O, not 'Z'"),
        (
            ["--opponent", "deep-blue"],
            "--opponent must be one of random, h1, h2, minimax, alphabeta, engine, python, "
            "not 'deep-blue'",
        ),
        (
            ["--opponent", "engine"],  # issue 39 item 5: it said "--engine cannot be used"
            "--opponent engine: an outside engine needs a path: engine:path=/path/to/pbrain",
        ),
        (["--theme", "neon"], "--theme must be one of "),
        (["--colour", "red"], "unrecognized arguments: --colour red"),
        (["--size"], "argument --size: expected one argument"),
    ],
)
def test_a_bad_value_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tictactoe-tui: {message}")
    assert err.count("\n") == 1


def test_settings_refuse_bad_values_when_built() -> None:
    with pytest.raises(SettingError) as error:
        GameSettings(size=4, k=5)
    assert error.value.field == "k"
    assert error.value.flag == "--k"


def test_the_command_line_refuses_a_bad_size_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "--size", "21"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "tictactoe-tui: --size must be between 3 and 20, not 21\n"
    assert done.stdout == ""


async def test_no_game_flag_opens_the_settings_screen() -> None:
    app = app_from_args(["--theme", "nord"])
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "SettingsScreen"
        assert app.theme == "nord"


async def test_a_game_flag_opens_the_game_screen() -> None:
    app = app_from_args(["--size", "4", "--seed", "1"])
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        assert marks_of_board(pilot) == [""] * 16


def test_blank_optional_settings_mean_none() -> None:
    assert settings_from_text({"seed": " ", "k": ""}) == GameSettings()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--mark", "x"], GameSettings(mark="X")),
        (["--mark", "o", "--first", "COMPUTER"], GameSettings(mark="O", first="computer")),
        (["--mode", "Human-vs-Human"], GameSettings(mode="human-vs-human")),
        (["--opponent", "AlphaBeta"], GameSettings(opponent="alphabeta")),
        (["--opponent", "H1"], GameSettings(opponent="h1")),
        (["--theme", "Nord"], GameSettings(theme="nord")),
    ],
)
def test_a_choice_may_be_typed_in_any_case(argv: list[str], expected: GameSettings) -> None:
    assert parse_args(argv)[0] == expected


@pytest.mark.parametrize(
    ("argv", "warnings"),
    [
        (
            ["--mode", "human-vs-human", "--opponent", "minimax"],
            [
                "--opponent has no effect in human-vs-human mode: no computer plays (it only picks "
                "how hints work)"
            ],
        ),
        (
            ["--mode", "human-vs-human", "--difficulty", "50", "--seed", "3", "--depth", "2"],
            [
                "--difficulty has no effect in human-vs-human mode: no computer plays",
                "--seed has no effect in human-vs-human mode: no computer plays",
                "--depth has no effect in human-vs-human mode: no computer plays",
            ],
        ),
        (
            ["--opponent", "random", "--difficulty", "50"],
            [
                "--difficulty has no effect against the random computer: it plays every move at "
                "random"
            ],
        ),
        (
            ["--opponent", "h2", "--depth", "3", "--size", "5"],
            ["--depth has no effect with the h2 computer: it looks one move ahead, no deeper"],
        ),
        (
            ["--time-limit", "2"],
            ["--time-limit has no effect on 3×3: the computer searches it with no time budget"],
        ),
        (
            ["--opponent", "h1", "--size", "7", "--time-limit", "2"],
            [
                "--time-limit has no effect with the h1 computer: it does not search against the "
                "clock"
            ],
        ),
        (
            [
                "--opponent",
                "minimax",
                "--depth",
                "3",
                "--size",
                "4",
                "--time-limit",
                "2",
                "--difficulty",
                "80",
                "--seed",
                "1",
            ],
            [],
        ),
    ],
)
def test_a_flag_that_changes_nothing_is_named_on_stderr_and_the_game_goes_on(
    argv: list[str], warnings: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert parse_args(argv)[1]
    err = capsys.readouterr().err
    assert err.splitlines() == [f"tictactoe-tui: warning: {line}" for line in warnings]


async def test_conflicting_flags_warn_and_the_game_starts_as_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = app_from_args(["--mode", "human-vs-human", "--opponent", "minimax"])
    assert capsys.readouterr().err.startswith("tictactoe-tui: warning: --opponent has no effect")
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings.mode == "human-vs-human"


def test_help_names_every_command_and_each_commands_help_works() -> None:
    from tictactoe_tui.cli.main import COMMANDS

    shown = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0
    listed = [
        line.split()[1] for line in shown.stdout.splitlines() if line.startswith("  tictactoe-tui ")
    ]
    assert sorted(listed) == sorted(set(COMMANDS) - {"export", "import"})
    assert "export GAME_ID" in shown.stdout and "import FILE" in shown.stdout
    for command in COMMANDS:
        own = subprocess.run(
            [sys.executable, "-m", "tictactoe_tui", command, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert own.returncode == 0, (command, own.stderr)
        assert own.stdout.startswith("usage:"), command
