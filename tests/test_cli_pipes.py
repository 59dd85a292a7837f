"""Every command's output piped into a reader that stops early (`... | head`): no traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

SIGPIPE_STATUS = 128 + signal.SIGPIPE
"""The status of a program that SIGPIPE ends: what cli.main returns for a reader gone."""

COMMANDS = {
    "analyse": (["analyse", "XX./OO./X.."], SIGPIPE_STATUS),
    "analyse --json": (["analyse", "X......../", "--json"], SIGPIPE_STATUS),
    "history": (["history", "--json"], SIGPIPE_STATUS),
    # argparse's help and `match` notice the broken pipe themselves and end with 0.
    "play --help": (["--help"], 0),
    "analyse --help": (["analyse", "--help"], 0),
    "match": (["match", "--x", "random", "--o", "random", "--games", "2", "--json"], 0),
}
"""A command of each kind that writes to stdout, and the status it ends with."""


@pytest.mark.parametrize(("args", "expected"), COMMANDS.values(), ids=COMMANDS.keys())
def test_a_reader_that_has_gone_ends_the_command_quietly(
    args: list[str], expected: int, tmp_path: Path
) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tictactoe_tui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    assert process.stdout is not None and process.stderr is not None
    # Close the only reading end before the command writes: its first write finds the pipe
    # broken, as `| head` leaves it once head has read its lines and gone.
    process.stdout.close()
    err = process.stderr.read().decode()
    status = process.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert err == ""
    assert status == expected


def test_head_reads_the_first_lines_and_the_command_ends_cleanly() -> None:
    done = subprocess.run(
        f'"{sys.executable}" -m tictactoe_tui analyse "..../..../..../...." --json | head -n 2',
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.splitlines() == ["{", '  "position": "..../..../..../....",']
    assert done.stderr == ""
