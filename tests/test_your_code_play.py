"""Your own code as a player wherever a spec is taken: `--opponent`, `--x`, `--o` (the game flags
and `GameSettings`), and the text mode through a pipe, where a faulty file forfeits with its
reason in one line and its traceback after it, never a Python traceback of ours. No learner's
process is left behind (read from the process table)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.fake_brains import processes_running
from tictactoe_tui.cli.flags import parse_args
from tictactoe_tui.engine import Mark
from tictactoe_tui.engine.players.guest import GUEST
from tictactoe_tui.play.settings import GameSettings, SettingError, settings_from_values

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RANDOM_PLAYER = EXAMPLES / "random_player.py"
MINIMAX_PLAYER = EXAMPLES / "minimax_player.py"
BUGGY_PLAYER = EXAMPLES / "buggy_player.py"
MY_EVAL = EXAMPLES / "my_eval.py"


def text_mode(tmp_path: Path, lines: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """`tictactoe-tui --text FLAGS` with `lines` piped in, as a person's script runs it."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "--text", "--data-dir", str(tmp_path), *flags],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_opponent_takes_a_learners_player_and_a_search_with_its_evaluation() -> None:
    settings, started = parse_args(["--opponent", f"python:path={MINIMAX_PLAYER}:time=2"])
    assert started
    assert (settings.opponent, settings.learner, settings.time_limit) == (
        GUEST,
        str(MINIMAX_PLAYER),
        2,
    )
    spec = settings.spec_for(settings.computer_mark)
    assert (spec.opponent, spec.path, spec.time_limit) == (GUEST, str(MINIMAX_PLAYER), 2)
    settings, _ = parse_args(["--opponent", f"alphabeta:eval={MY_EVAL}:depth=2"])
    spec = settings.spec_for(settings.computer_mark)
    assert (spec.opponent, spec.eval_path, spec.depth) == ("alphabeta", str(MY_EVAL), 2)


def test_x_and_o_take_a_learners_specs() -> None:
    settings, started = parse_args(
        ["--x", f"python:path={RANDOM_PLAYER}", "--o", f"minimax:eval={MY_EVAL}:depth=1"]
    )
    assert started and settings.mode == "computer-vs-computer"
    assert settings.spec_for(Mark.X).path == str(RANDOM_PLAYER)
    assert settings.spec_for(Mark.O).eval_path == str(MY_EVAL)


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--opponent", "python:path=nowhere.py"], "no Python file at nowhere.py: the file does"),
        (["--opponent", "minimax:eval=examples/my_eval.py"], "minimax with your evaluation needs"),
        (["--x", "python:path=nowhere.py"], "--x is not a player: "),
        (["--eval", "nowhere.py"], "--eval cannot be used: no Python file at nowhere.py"),
    ],
)
def test_a_file_that_cannot_be_used_is_one_line_and_exit_2(
    flags: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        parse_args(flags)
    assert ended.value.code == 2
    error = capsys.readouterr().err
    assert says in error and len(error.strip().splitlines()) == 1, error


def test_eval_alone_opens_the_settings_and_is_never_remembered() -> None:
    settings, started = parse_args(["--eval", str(MY_EVAL)])
    assert not started and settings.eval_file == str(MY_EVAL)
    kept = {"opponent": "h1", "eval_file": "/gone/away.py"}
    assert settings_from_values(kept) == GameSettings(opponent="h1")
    with pytest.raises(SettingError):
        GameSettings(opponent=GUEST, learner="")


def test_text_mode_plays_a_learners_player_against_h1_through_a_pipe(tmp_path: Path) -> None:
    out = text_mode(tmp_path, "", "--x", f"python:path={RANDOM_PLAYER}", "--o", "h1", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "Two computers play each other (X yours: random_player.py · O H1)" in out.stdout
    assert "Computer X (yours: random_player.py, your code) played" in out.stdout
    assert "Game over:" in out.stdout
    assert processes_running(RANDOM_PLAYER) == []


def test_text_mode_against_the_minimax_example_plays_legal_moves(tmp_path: Path) -> None:
    out = text_mode(
        tmp_path, "5\n1\n3\n4\n8\n9\n7\n6\n2\n", "--opponent", f"python:path={MINIMAX_PLAYER}"
    )
    assert out.returncode == 0, out.stderr
    replies = [line for line in out.stdout.splitlines() if "your code) played" in line]
    assert replies and "lost by a fault" not in out.stdout
    assert "Game over:" in out.stdout
    assert processes_running(MINIMAX_PLAYER) == []


def test_text_mode_a_buggy_file_forfeits_with_its_reason_in_one_line(tmp_path: Path) -> None:
    out = text_mode(tmp_path, "5\n", "--opponent", f"python:path={BUGGY_PLAYER}")
    assert out.returncode == 0, out.stderr
    assert (
        "Game over: You win. Computer (O) (yours: buggy_player.py) lost by a fault: "
        "buggy_player.py: choose() returned B2 on .../.X./..., a cell X already holds.\n"
    ) in out.stdout
    assert "Traceback" not in out.stdout + out.stderr
    assert processes_running(BUGGY_PLAYER) == []


def test_text_mode_an_exception_shows_the_learners_own_traceback(tmp_path: Path) -> None:
    boom = tmp_path / "boom.py"
    boom.write_text(
        textwrap.dedent(
            """\
            def choose(board):
                return {}["move"]
            """
        )
    )
    out = text_mode(tmp_path / "data", "5\n", "--opponent", f"python:path={boom}")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    fault = next(i for i, line in enumerate(lines) if "lost by a fault" in line)
    assert lines[fault].endswith("boom.py: choose() raised KeyError: 'move'.")
    assert lines[fault + 1] == "Its traceback:"
    assert f'  File "{boom}", line 2, in choose' in lines[fault + 2 :]
    assert out.stderr == ""
    assert processes_running(boom) == []


def test_text_mode_reads_the_file_again_at_each_new_game(tmp_path: Path) -> None:
    player = tmp_path / "mine.py"
    player.write_text("def choose(board):\n    return board.legal_moves()[0]\n")
    # The file changes between the games: a script rewrites it while the game waits for a line.
    script = (
        "import subprocess, sys, pathlib\n"
        f"path = pathlib.Path({str(player)!r})\n"
        "game = subprocess.Popen([sys.executable, '-m', 'tictactoe_tui', '--text', '--data-dir',"
        f" {str(tmp_path / 'data')!r}, '--opponent', 'python:path=' + str(path),"
        " '--first', 'computer'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
        "lines = []\n"
        "while 'Your move' not in (line := game.stdout.readline()):\n"
        "    lines.append(line)\n"
        "path.write_text('def choose(board):\\n    return board.legal_moves()[-1]\\n')\n"
        "out, _ = game.communicate('new\\n')\n"
        "print(''.join(lines) + out)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    played = [line for line in out.stdout.splitlines() if "your code) played" in line]
    assert [line.split(" played ")[1][:2] for line in played] == ["A1", "C3"], out.stdout
    assert processes_running(player) == []


def test_serve_offers_the_files_its_own_flags_name_and_no_other() -> None:
    from tictactoe_tui.cli.serve import offered

    settings, _ = parse_args(
        ["--opponent", f"python:path={MINIMAX_PLAYER}", "--eval", str(MY_EVAL)]
    )
    offer, problem = offered([], [], settings)
    assert problem is None
    assert offer.python == (str(MINIMAX_PLAYER.resolve()), str(MY_EVAL.resolve()))
    assert offer.refusal("python", str(RANDOM_PLAYER)) is not None


def test_two_people_need_no_file_for_the_python_opponent() -> None:
    settings = GameSettings(mode="human-vs-human", opponent=GUEST)
    assert not settings.is_computer(Mark.X) and not settings.is_computer(Mark.O)


def test_text_mode_plays_our_search_with_the_learners_evaluation(tmp_path: Path) -> None:
    out = text_mode(tmp_path, "5\n", "--opponent", f"alphabeta:eval={MY_EVAL}:depth=2")
    assert out.returncode == 0, out.stderr
    assert "O (alpha-beta with yours: my_eval.py)" in out.stdout
    assert "Computer (O) (alpha-beta with yours: my_eval.py, your code) played" in out.stdout
    assert processes_running(MY_EVAL) == []
