"""A learner's code runs as guest code: every way it can fail is one sentence, and no process stays.

Each buggy file below is the kind the your-code issue names (an occupied cell, a cell off the
board, None, an exception, an endless loop, one that swallows the clock's interrupt, a huge
allocation, a print to stdout, a file that does not load); each fails with its reason and
kind, and the process table holds nothing of it afterwards.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.fake_brains import processes_running
from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.players.foreign import PlayerStopped
from tictactoe_tui.engine.players.guest import GuestCode, GuestFault, check_guest_path

BOARD = Board.from_string("X../.O./...")


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return path


def test_a_good_file_answers_evaluate_and_choose(tmp_path):
    path = write(
        tmp_path,
        "good.py",
        """
        def evaluate(board, player):
            return len(board.legal_moves()) + (0.5 if player == "X" else 0)

        def choose(board):
            return "C3" if 8 in board.legal_moves() else sorted(board.legal_moves())[0]
        """,
    )
    guest = GuestCode(path)
    try:
        provides = guest.provides()
        assert (provides.evaluate, provides.choose, provides.random) == (True, True, False)
        assert guest.choose(BOARD) == 8
        assert guest.evaluate(BOARD, Mark.X) == 7.5
        assert guest.evaluate_many([(BOARD, Mark.O), (BOARD.play(8), Mark.X)]) == [7, 6.5]
        assert guest.name == "yours: good.py"
    finally:
        guest.close()
    assert not processes_running(path)


def test_a_file_says_it_is_random_and_reload_reads_it_again(tmp_path):
    path = write(tmp_path, "r.py", "RANDOM = True\ndef choose(board):\n    return 2\n")
    guest = GuestCode(path)
    try:
        assert guest.provides().random
        path.write_text("def choose(board):\n    return 'B1'\n")
        assert guest.choose(BOARD) == 2  # the running process keeps the file it read
        assert not guest.reload().random
        assert guest.choose(BOARD) == 1
    finally:
        guest.close()


BUGGY = {
    "occupied": ("def choose(board):\n    return 0\n", "move", "A1 on X../.O./..., a cell X"),
    "occupied_name": ("def choose(board):\n    return 'b2'\n", "move", "a cell O already holds"),
    "off_board": ("def choose(board):\n    return 9\n", "move", "9 on X../.O./..., off the 3×3"),
    "off_board_name": ("def choose(board):\n    return 'D1'\n", "move", "D1 is off a 3×3 board"),
    "not_a_name": ("def choose(board):\n    return 'middle'\n", "move", "is not a cell name"),
    "none": ("def choose(board):\n    pass\n", "type", "returned None on X../.O./..., not a move"),
    "raises": (
        "def choose(board):\n    return helper()\n\ndef helper():\n    return 1 / 0\n",
        "exception",
        "choose() raised ZeroDivisionError: division by zero",
    ),
    "loops": ("def choose(board):\n    while True:\n        pass\n", "timeout", "took more than"),
    "swallows": (
        "def choose(board):\n    while True:\n        try:\n            while True:\n"
        "                pass\n        except BaseException:\n            pass\n",
        "timeout",
        "did not answer in time",
    ),
    "allocates": (
        "def choose(board):\n    return len(bytearray(10**10))\n",
        "memory",
        "used more memory than it may",
    ),
    "prints": (
        "def choose(board):\n    print('thinking')\n    return 2\n",
        "printed",
        "'thinking'",
    ),
    "writes_fd": (
        "import os\ndef choose(board):\n    os.write(1, b'x\\n')\n    return 2\n",
        "printed",
        "printed to stdout: 'x'",
    ),
    "syntax": (
        "def choose(board)\n    return 2\n",
        "import",
        "the file does not load: SyntaxError",
    ),
    "import_error": ("import not_a_module\n", "import", "ModuleNotFoundError"),
    "nothing": ("x = 1\n", "import", "defines neither evaluate(board, player) nor choose(board)"),
    "exits": ("import os\ndef choose(board):\n    os._exit(3)\n", "crash", "exited with status 3"),
}


@pytest.mark.parametrize("name", sorted(BUGGY))
@pytest.mark.slow
def test_each_buggy_file_fails_with_its_reason_and_leaves_no_process(tmp_path, name):
    body, kind, says = BUGGY[name]
    path = write(tmp_path, f"{name}.py", body)
    guest = GuestCode(path, time_limit=0.3)
    with pytest.raises(GuestFault) as fault:
        guest.choose(BOARD)
    assert fault.value.kind == kind
    assert says in fault.value.reason and fault.value.reason.startswith(f"{name}.py: ")
    assert "\n" not in fault.value.reason
    assert guest.pid is None and not processes_running(path)


def test_the_traceback_is_the_learners_own(tmp_path):
    path = write(tmp_path, "raises.py", BUGGY["raises"][0])
    guest = GuestCode(path)
    with pytest.raises(GuestFault) as fault:
        guest.choose(BOARD)
    trace = fault.value.trace
    assert trace.startswith("Traceback (most recent call last):")
    assert f'File "{path}", line 2, in choose' in trace
    assert f'File "{path}", line 5, in helper' in trace
    assert "guest_host" not in trace and trace.rstrip().endswith(
        "ZeroDivisionError: division by zero"
    )


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("def evaluate(board, player):\n    return None\n", "returned None on"),
        ("def evaluate(board, player):\n    return True\n", "returned True on"),
        ("def evaluate(board, player):\n    return 'big'\n", "returned 'big' on"),
        ("def evaluate(board, player):\n    return float('nan')\n", "returned nan on"),
        ("def evaluate(board, player):\n    return [1]\n", "returned [1] on"),
    ],
)
def test_an_evaluation_that_is_not_a_number_is_a_fault(tmp_path, body, says):
    guest = GuestCode(write(tmp_path, "e.py", body))
    with pytest.raises(GuestFault) as fault:
        guest.evaluate(BOARD, Mark.X)
    assert fault.value.kind == "type" and "not a number" in fault.value.reason
    assert says in fault.value.reason


def test_a_missing_function_is_said_and_after_a_fault_the_next_call_starts_afresh(tmp_path):
    path = write(tmp_path, "only.py", "def evaluate(board, player):\n    return 1\n")
    guest = GuestCode(path)
    try:
        with pytest.raises(GuestFault, match="defines no choose"):
            guest.choose(BOARD)
        path.write_text("def evaluate(board, player):\n    return None\n")
        guest.reload()
        with pytest.raises(GuestFault, match="not a number"):
            guest.evaluate(BOARD, Mark.X)
        path.write_text("def evaluate(board, player):\n    return 2\n")
        assert guest.evaluate(BOARD, Mark.X) == 2
    finally:
        guest.close()


def test_a_stop_request_ends_the_process(tmp_path):
    path = write(tmp_path, "slow.py", "import time\ndef choose(board):\n    time.sleep(30)\n")
    guest = GuestCode(path, time_limit=30)
    asked = iter(range(100))
    with pytest.raises(PlayerStopped):
        guest.choose(BOARD, should_stop=lambda: next(asked) > 3)
    assert not processes_running(path)


def test_a_path_that_is_not_a_python_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match="the file does not exist"):
        check_guest_path(str(tmp_path / "missing.py"))
    (tmp_path / "notes.txt").write_text("")
    with pytest.raises(ValueError, match=r"must end in \.py"):
        check_guest_path(str(tmp_path / "notes.txt"))
    with pytest.raises(ValueError, match="needs a path"):
        check_guest_path("")
