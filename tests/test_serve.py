"""`tictactoe-tui serve`: flags, ports, one app process per tab, Ctrl+C, offline, a real browser.

The process tests connect to the page's websocket as a tab does (with aiohttp, which
textual-serve brings); the browser test plays a whole game in Debian's Chromium.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from tests.scripts import load_script
from tictactoe_tui.cli.serve import app_command, offline_template, page_address, reachable_urls
from tictactoe_tui.engine.players.offered import Offered
from tictactoe_tui.history.locations import DATA_DIR_ENV

browser_game = load_script("browser_game")
"""scripts/browser_game.py: the screenshot script plays the same browser game."""
served = browser_game.served


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def wait_until(test: object, timeout: float) -> bool:
    """Poll `test()` until it holds (True) or `timeout` seconds pass (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if test():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_serve_help_names_its_flags_and_the_game_flags() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "--host" in out.stdout and "--port" in out.stdout and "127.0.0.1" in out.stdout
    assert "game flag" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "21"], "tictactoe-tui: --size must be between 3 and 20, not 21"),
        (["--colour", "red"], "tictactoe-tui: unrecognized arguments: --colour red"),
        (["--port", "0"], "tictactoe-tui serve: argument --port: must be between 1 and 65535"),
        (["--port", "http"], "tictactoe-tui serve: argument --port: must be a whole number"),
        (["--host", "no-such-host.invalid"], "tictactoe-tui serve: unknown host"),
    ],
)
def test_a_bad_flag_is_one_line_and_status_2(args: list[str], message: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_a_port_in_use_is_one_clear_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run("--port", str(port))
    assert out.returncode == 2
    assert out.stderr == (
        f"tictactoe-tui serve: cannot listen on 127.0.0.1:{port}: address "
        "already in use (choose another port with --port)\n"
    )


def test_each_tab_runs_the_app_with_the_game_flags(tmp_path: Path) -> None:
    command = app_command(["--size", "4", "--theme", "nord"], Offered(), tmp_path)
    assert command.startswith("exec env ")
    assert command.endswith(
        f"{sys.executable} -m tictactoe_tui --size 4 --theme nord --data-dir {tmp_path}"
    )


def test_the_page_needs_nothing_from_another_host() -> None:
    assert "fonts.googleapis.com" not in offline_template()
    with served() as server:
        page = urllib.request.urlopen(server.url, timeout=30).read().decode()
        addresses = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert addresses and all(a.startswith(server.url) for a in addresses), addresses
        for address in addresses:  # the font, the script and the stylesheet are all here
            assert urllib.request.urlopen(address, timeout=30).status == 200
        # The page's font, from the server's own static files.
        font = f"{server.url}/static/fonts/RobotoMono-VariableFont_wght.ttf"
        assert f'url("{font}")' in page
        assert urllib.request.urlopen(font, timeout=30).status == 200


def test_a_page_served_to_the_network_names_the_address_the_browser_used() -> None:
    # Served on every address; opened through a second loopback address, as a browser on
    # another machine opens it through this one's network address.
    with served("--host", "0.0.0.0") as server:
        elsewhere = f"http://127.0.0.2:{server.port}"
        page = urllib.request.urlopen(elsewhere, timeout=30).read().decode()
        addresses = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert addresses and all(a.startswith(f"{elsewhere}/static/") for a in addresses)
        assert f'data-session-websocket-url="ws://127.0.0.2:{server.port}/ws"' in page
        assert "0.0.0.0" not in page
        for address in addresses:  # and the browser can load them from there
            assert urllib.request.urlopen(address, timeout=30).status == 200


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("[::1]:8000", "http://[::1]:8000"),
        ("game.example:8000", "http://game.example:8000"),
        ('x"><script>', "http://0.0.0.0:8000"),
        (None, "http://0.0.0.0:8000"),
    ],
)
def test_only_a_well_formed_host_header_names_the_page_address(
    host: str | None, expected: str
) -> None:
    assert page_address("http", host, "http://0.0.0.0:8000") == expected


async def _tab(url: str, opened: asyncio.Event, close: asyncio.Event, seen: bytearray) -> None:
    """A browser tab: open the page's websocket, read what the app draws, close when told."""
    socket_url = url.replace("http://", "ws://") + "/ws?width=100&height=34"
    async with aiohttp.ClientSession() as session, session.ws_connect(socket_url) as websocket:
        opened.set()
        while not close.is_set():
            try:
                message = await asyncio.wait_for(websocket.receive(), 0.2)
            except TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                seen.extend(message.data)
            elif message.type != aiohttp.WSMsgType.TEXT:
                return


@pytest.mark.slow
async def test_each_tab_gets_its_own_app_and_closing_the_tab_ends_it() -> None:
    with served("--size", "4") as server:
        closes = [asyncio.Event(), asyncio.Event()]
        opened = [asyncio.Event(), asyncio.Event()]
        seen = [bytearray(), bytearray()]
        tabs = [
            asyncio.create_task(_tab(server.url, opened[i], closes[i], seen[i])) for i in range(2)
        ]
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in opened)), 30)
        assert await asyncio.to_thread(wait_until, lambda: len(server.apps()) >= 2, 60)
        # A game flag was given, so each tab opens on the game, not on Settings.
        assert await asyncio.to_thread(
            wait_until, lambda: all(b"Your turn" in s for s in seen), 60
        ), "a tab never showed the game the flags asked for"
        assert not any(b"Who moves first" in s for s in seen)
        # Which app is whose tab, a process cannot tell: closing one tab must end one app, with
        # every worker it had, while the other runs on.
        two = server.tabs()
        assert len(two) == 2, two
        closes[0].set()
        await tabs[0]

        def one_app_ended() -> bool:
            alive = server.apps()
            return sum(not (tree & alive) for tree in two.values()) == 1

        assert await asyncio.to_thread(wait_until, one_app_ended, 60), (
            "closing a tab left its app running"
        )
        closes[1].set()
        await tabs[1]
        assert await asyncio.to_thread(wait_until, lambda: not server.apps(), 30), (
            f"orphans after every tab closed: {server.apps()}"
        )


@pytest.mark.slow
async def test_ctrl_c_stops_the_server_and_every_app_it_started() -> None:
    with served() as server:
        close, opened, seen = asyncio.Event(), asyncio.Event(), bytearray()
        tab = asyncio.create_task(_tab(server.url, opened, close, seen))
        await asyncio.wait_for(opened.wait(), 30)
        assert await asyncio.to_thread(wait_until, lambda: b"Start" in seen, 60)
        apps = server.apps()
        assert apps
        status = await asyncio.to_thread(server.interrupt, 30)
        close.set()
        await tab
        assert status == 0
        assert not any(Path(f"/proc/{pid}").exists() for pid in apps), "orphan app processes"
        assert b"Traceback" not in (server.process.stderr.read() if server.process.stderr else b"")


OUTLIVED_LOOP = """
import asyncio, gc, sys, time
from tictactoe_tui.cli import serve
serve.APP_EXIT_SECONDS = 0.2
loop = asyncio.SelectorEventLoop() if sys.argv[1] == "plain" else serve.ServerLoop()
asyncio.set_event_loop(loop)

async def start_app() -> int:
    app = await asyncio.create_subprocess_shell(
        sys.argv[2], stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    keeper = [app]
    keeper.append(keeper)   # a cycle: only the garbage collector frees it
    return app.pid

print(loop.run_until_complete(start_app()), flush=True)
loop.close()
time.sleep(0.6)             # the app ends after the loop has closed, as after Ctrl+C
gc.collect()
"""
"""The race behind serve's traceback after Ctrl+C, made certain: an app process that ends after
the server's loop has closed, and is cleaned up by the garbage collector after that."""


def outlive_the_loop(loop: str, app: str) -> tuple[int, str]:
    """Run OUTLIVED_LOOP with a plain or a server loop: the app's pid and what was printed."""
    out = subprocess.run(
        [sys.executable, "-c", OUTLIVED_LOOP, loop, app], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0
    return int(out.stdout.split()[0]), out.stderr


def test_an_app_process_outliving_a_plain_loop_is_the_traceback_serve_printed() -> None:
    _, printed = outlive_the_loop("plain", "exec sleep 0.2")
    assert "Exception ignored" in printed and "RuntimeError: Event loop is closed" in printed


@pytest.mark.parametrize("app", ["exec sleep 0.2", "exec sleep 30"])
@pytest.mark.slow
def test_the_server_loop_ends_every_app_and_closes_its_pipes_before_it_closes(app: str) -> None:
    pid, printed = outlive_the_loop("server", app)
    assert printed == ""
    assert not Path(f"/proc/{pid}").exists(), "the app process was left running"


@pytest.mark.slow
def test_a_whole_game_in_a_real_browser(tmp_path: Path) -> None:
    missing = browser_game.browser_missing()
    if missing is not None:
        pytest.skip(missing)
    picture = tmp_path / "browser.png"
    with served() as server:
        game = browser_game.play_in_browser(server.url, picture)
        apps = server.apps()
    text = game.text
    assert "Who moves first" in text, "the Settings screen never showed"
    assert game.finished and game.headline in ("You win!", "Computer wins", "Draw")
    # The panel explained the computer's last move with alpha-beta's exact search.
    assert "alpha-beta:" in text and "positions in" in text and "solved to the end" in text
    assert picture.stat().st_size > 10_000 and picture.read_bytes()[:4] == b"\x89PNG"
    # Nothing the page asked for came from another host (no CDN, no web font from outside).
    assert game.requests and all(
        url.startswith(server.url.replace("http", "ws")) or url.startswith(server.url)
        for url in game.requests
    )
    assert not any(Path(f"/proc/{pid}").exists() for pid in apps), "orphans after the server"


def test_a_named_host_is_printed_as_it_is() -> None:
    assert reachable_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000"]
    assert reachable_urls("::1", 8000) == ["http://[::1]:8000"]
    assert reachable_urls("game.example", 8000) == ["http://game.example:8000"]


def test_serving_every_address_prints_addresses_a_browser_opens(tmp_path: Path) -> None:
    """Issue 39: "Serving … on http://0.0.0.0:8765", which no browser opens."""
    port = browser_game.free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tictactoe_tui", "serve", "--host", "0.0.0.0", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env={**os.environ, DATA_DIR_ENV: str(tmp_path)},
    )
    try:
        assert process.stdout is not None
        serving = next(line for line in process.stdout if line.startswith("Serving"))
        urls = re.findall(r"http://\S+?:\d+", serving)
        assert "0.0.0.0" not in serving and urls[0] == f"http://127.0.0.1:{port}"
        assert urls == reachable_urls("0.0.0.0", port)

        def listening() -> bool:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except OSError:
                return False
            return True

        assert wait_until(listening, 60)  # the line comes as the server starts, just before
        for url in urls:  # each one is this machine's: the page opens there
            assert urllib.request.urlopen(url, timeout=30).status == 200
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
