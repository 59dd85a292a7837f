"""Play the served app in a real browser: `tictactoe-tui serve` driven by headless Chromium.

    python scripts/browser_game.py [screenshots/browser.png]

Starts `tictactoe-tui serve` on a free port, opens the page in Debian's Chromium through
Playwright's Python package (Playwright's own browser download is not used), waits for the
Settings screen, starts the default game with Enter, plays it to the end with digit keys and
saves a screenshot. The page draws the terminal on a canvas, so what the app shows is read from
the websocket frames the page receives: the same ANSI stream a terminal would get.

The browser test (tests/test_serve.py) and scripts/screenshots.py use the same functions.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (`apt-get install chromium`)."""

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Headless, and quiet: no connection of Chromium's own leaves the machine."""

VIEWPORT = {"width": 1100, "height": 720}
"""The browser window: about 100×34 cells of the page's 16 px font."""

RESULTS_SHOWN = re.compile(r"made \d+ in a row, \w+ to \w+, in \d+ moves|The board is full after")
"""The Results dialog's detail line: it shows nowhere else."""

HEADLINE = re.compile(r"You win!|Computer wins|Draw(?!s)")
"""The Results dialog's headlines in a game against the computer ("Draws" is the scoreboard)."""

ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, clipboard
    rb"|\x1b[()][0-9A-Z]|\x1b[=>78]"
)
"""Escape sequences in the app's output: what is left is the text on the screen."""


def browser_missing() -> str | None:
    """Why the browser game cannot run here (None when it can)."""
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright's Python package is not installed (pip install '.[test]')"
    return None


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (children, grandchildren...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command name, in parentheses, may hold spaces: the fields follow its end.
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


@dataclass
class Server:
    """A running `tictactoe-tui serve`: its process, its page's address and its data directory
    (the browsers' games are kept in its `served` folder, unless a --data-dir says otherwise)."""

    process: subprocess.Popen[bytes]
    port: int
    data_dir: Path
    url: str = field(init=False)

    def __post_init__(self) -> None:
        self.url = f"http://127.0.0.1:{self.port}"

    def apps(self) -> set[int]:
        """The app processes (and their workers) the server runs now."""
        return descendants(self.process.pid)

    def tabs(self) -> dict[int, set[int]]:
        """Each tab's app process (the server's own children), with its workers."""
        below = descendants(self.process.pid)
        children = below - {p for child in below for p in descendants(child)}
        return {child: {child} | descendants(child) for child in children}

    def interrupt(self, timeout: float = 30) -> int:
        """Ctrl+C in the server's terminal: SIGINT to its whole process group; the status."""
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=timeout)


@contextmanager
def served(*game_flags: str, port: int | None = None) -> Iterator[Server]:
    """`tictactoe-tui serve` on a free port, in a process group of its own, until the block ends.

    The block may stop the server itself (`Server.interrupt`); otherwise it is interrupted at
    the end, and killed with everything under it if it does not stop.
    """
    from tictactoe_tui.history.locations import DATA_DIR_ENV

    port = free_port() if port is None else port
    # A history of its own, so the games (and the pictures) never depend on earlier ones.
    history = tempfile.mkdtemp(prefix="tictactoe-tui-browser-")
    process = subprocess.Popen(
        [sys.executable, "-m", "tictactoe_tui", "serve", "--port", str(port), *game_flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, DATA_DIR_ENV: history},
    )
    server = Server(process, port, Path(history))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "tictactoe-tui serve did not start: "
                        + (process.stderr.read().decode() if process.stderr else "")
                    ) from None
                time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            try:
                server.interrupt()
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        shutil.rmtree(history, ignore_errors=True)


@dataclass
class BrowserGame:
    """What a browser saw of a game: the app's output, as text, and the page's requests."""

    output: bytearray = field(default_factory=bytearray)
    requests: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Whether the Results dialog has shown."""
        return RESULTS_SHOWN.search(self.text) is not None

    @property
    def headline(self) -> str:
        """The Results dialog's headline (the last one written)."""
        found = HEADLINE.findall(self.text)
        return found[-1] if found else ""

    @property
    def text(self) -> str:
        """The app's output so far with the escape sequences taken out."""
        return self.since(0)

    def since(self, mark: int) -> str:
        """The text the app wrote once its output was `mark` bytes long."""
        return ANSI.sub(b"", bytes(self.output[mark:])).decode("utf-8", "replace")


def _wait_for(page: Any, game: BrowserGame, test: Any, timeout: float, what: str) -> None:
    """Let the page run until `test()` holds, or fail saying `what` never showed."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{what} never showed in the browser; the page showed: {game.text[-600:]!r}"
            )
        page.wait_for_timeout(100)


def _wait_until_quiet(
    page: Any, game: BrowserGame, quiet: float = 0.8, timeout: float = 60
) -> None:
    """Let the page run until the app has drawn nothing new for `quiet` seconds."""
    deadline = time.monotonic() + timeout
    page.wait_for_timeout(100)
    size, since = len(game.output), time.monotonic()
    while time.monotonic() - since < quiet and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        if len(game.output) != size:
            size, since = len(game.output), time.monotonic()


def play_in_browser(url: str, screenshot: Path | None = None) -> BrowserGame:
    """Open `url` in headless Chromium, start the default game and play it to the end.

    The human (X, first) presses 1 to 9 in turn, waiting for the computer's reply after each;
    a taken cell is refused and changes nothing, so going round again finishes the game.
    """
    from playwright.sync_api import sync_playwright

    game = BrowserGame()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=list(CHROMIUM_FLAGS),
            # A fresh profile every time, in a folder Playwright makes and removes.
            chromium_sandbox=False,
        )
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.on("request", lambda request: game.requests.append(request.url))

            def on_socket(socket: Any) -> None:
                def on_frame(payload: str | bytes) -> None:
                    if isinstance(payload, bytes):
                        game.output.extend(payload)

                socket.on("framereceived", on_frame)

            page.on("websocket", on_socket)
            page.goto(url)
            _wait_for(page, game, lambda: "Who moves first" in game.text, 60, "the Settings screen")
            # Keys go to the terminal's hidden text box (xterm.js), as after a click on it.
            page.focus(".xterm-helper-textarea")
            page.keyboard.press("Enter")
            _wait_for(page, game, lambda: "Your turn" in game.text, 30, "the game")
            for _round in range(3):
                for digit in "123456789":
                    if game.finished:
                        break
                    page.keyboard.press(digit)
                    # The computer replies (or the taken cell is refused) and the screen goes
                    # quiet; on a busy machine that can take a while.
                    _wait_until_quiet(page, game)
            _wait_for(page, game, lambda: game.finished, 10, "the Results dialog")
            page.wait_for_timeout(500)
            if screenshot is not None:
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(screenshot))
            page.close()
        finally:
            browser.close()
    return game


def main() -> None:
    """Play one game in the browser and save the screenshot (default screenshots/browser.png)."""
    out = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else (Path(__file__).resolve().parent.parent / "screenshots" / "browser.png")
    )
    missing = browser_missing()
    if missing is not None:
        print(f"browser game skipped: {missing}", file=sys.stderr)
        return
    with served() as server:
        game = play_in_browser(server.url, out)
    print(f"{game.headline}; screenshot in {out}")


if __name__ == "__main__":
    main()
