"""SIGTERM, SIGHUP and a vanished terminal: the real app in a real pseudo-terminal, mid-search.

Each test starts `python -m tictactoe_tui` as its own session with a pty as its controlling
terminal (as a terminal emulator or tmux does), waits until the computer is thinking, then sends
the signal or closes the terminal, and reads what the app wrote on its way out.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.scripts import load_script
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.ui.app import EXIT_GRACE

descendants = load_script("browser_game").descendants
"""Every live process below a pid (the search's worker processes, here)."""

THINKING_10X10 = ["--size", "10", "--first", "computer", "--time-limit", "30"]
"""A game whose first search would run for 30 s: any signal lands mid-search."""

RESTORE = {
    "leave the alternate screen": b"\x1b[?1049l",
    "show the cursor": b"\x1b[?25h",
    "stop mouse reporting": b"\x1b[?1000l",
    "stop mouse motion reporting": b"\x1b[?1003l",
}
"""What a terminal must be told when a full-screen app ends."""


@dataclass
class Terminal:
    """The app running on a pseudo-terminal: its pid, the two ends, and what it wrote."""

    pid: int
    master: int
    slave: int
    output: bytearray = field(default_factory=bytearray)
    status: int | None = None
    """The exit status once `wait` has seen the app end."""

    def read_until(self, needle: bytes, timeout: float) -> bool:
        """Read the app's output until `needle` appears (True) or `timeout` passes (False)."""
        end = time.monotonic() + timeout
        while needle not in self.output and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return needle in self.output
                if not chunk:
                    break
                self.output += chunk
        return needle in self.output

    def wait(self, timeout: float) -> int | None:
        """The exit status (-n if signal n killed it), or None if still running after `timeout`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.master >= 0:
                self.read_until(b"\0never\0", 0.05)  # keep draining, or the app blocks
            else:
                time.sleep(0.05)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(status)
                break
        return self.status


@contextmanager
def app_in_terminal(tmp_path: Path, *flags: str) -> Iterator[Terminal]:
    """Run the app on a new 100×34 pty, as the session leader with the pty as its terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 34, 100, 0, 0))
    # The terminal's size is the pty's: a COLUMNS/LINES left by the test runner (pytest-xdist
    # sets them) would make the app believe it has 80×24.
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
        "TERM": "xterm-256color",
        "XDG_STATE_HOME": str(tmp_path),
    }
    pid = os.fork()
    if pid == 0:  # the child: become a session whose controlling terminal is the pty
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.execve(sys.executable, [sys.executable, "-m", "tictactoe_tui", *flags], env)
        finally:
            os._exit(127)
    terminal = Terminal(pid, master, slave)
    try:
        yield terminal
    finally:
        if terminal.status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        for fd in (terminal.master, terminal.slave):
            if fd >= 0:
                os.close(fd)


def wait_gone(pids: set[int], timeout: float = 10) -> bool:
    """Whether every process in `pids` has ended within `timeout` seconds."""
    end = time.monotonic() + timeout
    while any(Path(f"/proc/{pid}").exists() for pid in pids):
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_mid_search_restores_the_terminal_and_exits(tmp_path: Path, signum: int) -> None:
    with app_in_terminal(tmp_path, *THINKING_10X10) as terminal:
        assert terminal.read_until(b"thinking", timeout=60), "the computer never started thinking"
        before = len(terminal.output)
        workers = descendants(terminal.pid)
        os.kill(terminal.pid, signum)
        status = terminal.wait(timeout=30)
        assert status == 128 + signum
        assert wait_gone(workers), "the search's worker processes outlived the app"
        on_exit = bytes(terminal.output[before:])
        for what, sequence in RESTORE.items():
            assert sequence in on_exit, f"the app did not {what}"
        assert b"Traceback" not in on_exit
        modes = termios.tcgetattr(terminal.slave)[3]
        assert modes & termios.ECHO and modes & termios.ICANON, "the tty was left in raw mode"
        assert not list(tmp_path.rglob("crash.log")), "the signal was treated as a crash"


@pytest.mark.slow
def test_the_app_ends_when_its_terminal_goes_away(tmp_path: Path) -> None:
    with app_in_terminal(tmp_path, *THINKING_10X10) as terminal:
        assert terminal.read_until(b"thinking", timeout=60), "the computer never started thinking"
        workers = descendants(terminal.pid)
        # Closing the last handle on the terminal's master side is a hang-up: a closed tmux
        # pane or terminal window, or a dropped ssh link. The kernel sends SIGHUP.
        os.close(terminal.slave)
        os.close(terminal.master)
        terminal.master = terminal.slave = -1
        assert terminal.wait(timeout=EXIT_GRACE + 20) is not None, "the app outlived its terminal"
        assert wait_gone(workers), "the search's worker processes outlived the app"


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["SIGTERM", "SIGHUP", "SIGINT"]
)
def test_a_signal_mid_game_keeps_the_game_as_abandoned(
    tmp_path: Path, data_dir: Path, signum: int
) -> None:
    # You play the centre (Enter on the cursor), the computer starts a 30 s search: the signal
    # lands mid-game, mid-search, and the game with your move in it is in the history after.
    with app_in_terminal(tmp_path, "--size", "10", "--time-limit", "30") as terminal:
        assert terminal.read_until(b"Your turn", timeout=60), "the game never started"
        os.write(terminal.master, b"\r")
        assert terminal.read_until(b"thinking", timeout=30), "the computer never started"
        os.kill(terminal.pid, signum)
        assert terminal.wait(timeout=30) == 128 + signum
    [game] = HistoryStore.open(data_dir).games()
    assert game.outcome == "abandoned" and game.moves == 1
