"""`tictactoe-tui pbrain` as a manager sees it: a real process on pipes, answering in time,
stopping when told to while it thinks, and the `pbrain-tictactoe-tui` script managers look for."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest


class Brain:
    """The brain in its own process; `ask` sends a command and waits for its answer."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "tictactoe_tui", "pbrain"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.messages: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        """Write lines to the brain."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def answer(self, timeout: float = 30.0) -> str:
        """The next line that is not a MESSAGE (those are kept in `messages`)."""
        end = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            assert line is not None, "the brain exited"
            if line.startswith("MESSAGE"):
                self.messages.append(line)
            else:
                return line

    def ask(self, *lines: str, timeout: float = 30.0) -> str:
        """Send lines and wait for the answer."""
        self.send(*lines)
        return self.answer(timeout)

    def finish(self) -> int:
        """Close the brain's input if it is still running; its exit status."""
        try:
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def xy(line: str) -> tuple[int, int]:
    """A move line as (x, y)."""
    x, y = (int(v) for v in line.split(","))
    return x, y


@pytest.mark.slow
def test_a_short_game_on_20x20_with_every_answer_legal_and_end_exits_0() -> None:
    brain = Brain()
    try:
        assert brain.ask("START 20") == "OK"
        brain.send(
            "INFO timeout_turn 1000",
            "INFO timeout_match 0",
            "INFO rule 0",
            "INFO game_type 1",
            "INFO folder /nonexistent",
        )
        taken = {xy(brain.ask("BEGIN"))}
        for theirs in ((0, 0), (19, 19), (0, 19)):
            taken.add(theirs)
            ours = xy(brain.ask(f"TURN {theirs[0]},{theirs[1]}"))
            assert ours not in taken and all(0 <= v < 20 for v in ours)
            taken.add(ours)
        assert brain.messages and all(m.startswith("MESSAGE depth ") for m in brain.messages)
        assert brain.ask("TAKEBACK 0,19") == "OK"
        assert brain.ask("FROB").startswith("UNKNOWN")
        assert brain.ask("TURN 99,99").startswith("ERROR")
        move = xy(brain.ask("BOARD", "7,7,1", "8,7,2", "7,8,1", "DONE"))
        assert move not in {(7, 7), (8, 7), (7, 8)}
        assert brain.ask("ABOUT").startswith('name="tictactoe-tui"')
        brain.send("END")
    finally:
        assert brain.finish() == 0
    assert brain.process.stderr is not None and brain.process.stderr.read() == ""


@pytest.mark.slow
def test_each_answer_comes_within_timeout_turn() -> None:
    """The brain's own clock, measured from outside: every move inside `timeout_turn`, with the
    first (the process just started) included. The margin it keeps is what this checks."""
    brain = Brain()
    try:
        assert brain.ask("START 15") == "OK"
        brain.send("INFO timeout_turn 600")
        worst = 0.0
        theirs = iter([(0, 0), (14, 14), (0, 14), (14, 0), (7, 0)])
        started = time.monotonic()
        ours = xy(brain.ask("BEGIN"))
        worst = max(worst, time.monotonic() - started)
        taken = {ours}
        for x, y in theirs:
            started = time.monotonic()
            ours = xy(brain.ask(f"TURN {x},{y}"))
            worst = max(worst, time.monotonic() - started)
            taken |= {(x, y), ours}
        assert worst < 0.6, f"slowest answer {worst:.3f} s against a 0.6 s turn"
        brain.send("END")
    finally:
        assert brain.finish() == 0


def test_end_while_thinking_stops_the_search_and_exits_0() -> None:
    brain = Brain()
    try:
        assert brain.ask("START 20") == "OK"
        brain.send("INFO timeout_turn 60000", "BEGIN")
        line = brain.lines.get(timeout=30)
        assert line is not None and line.startswith("MESSAGE")  # it is thinking
        asked = time.monotonic()
        brain.send("END")
        assert brain.process.wait(timeout=20) == 0
        assert time.monotonic() - asked < 20
    finally:
        brain.finish()


def test_the_end_of_input_ends_the_brain_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "pbrain"],
        input="START 15\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "OK\n", "")


def test_a_bad_flag_is_one_line_and_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "pbrain", "--fast"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "tictactoe-tui pbrain: unrecognized arguments: --fast\n"


def test_the_pbrain_script_managers_look_for_is_installed_and_speaks() -> None:
    script = shutil.which(
        "pbrain-tictactoe-tui",
        path=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
    )
    if script is None:
        pytest.fail("pbrain-tictactoe-tui is not installed beside this Python")
    brain = Brain([script])
    try:
        assert brain.ask("START 15") == "OK"
        assert brain.ask("ABOUT").startswith('name="tictactoe-tui"')
        brain.send("END")
    finally:
        assert brain.finish() == 0
