"""`tictactoe-tui serve` as a browser uses it: nobody else's code, nobody else's games.

Each test starts the server and opens the page's websocket as a tab does (textual-serve's own
messages: `["stdin", keys]` types, binary frames are what the app draws), so the app process is
the one serve starts, with what serve hands it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import stat
import time
from pathlib import Path
from types import TracebackType

import aiohttp
import pytest

from tests.scripts import load_script
from tictactoe_tui.engine import Board
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.record import study_to_record
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.history.study import MoveTree

browser_game = load_script("browser_game")
served = browser_game.served

ENTER, TAB, RIGHT, DELETE = "\r", "\t", "\x1b[C", "\x1b[3~"
"""Keys as a terminal (and so the page) sends them."""


class Tab:
    """A browser tab on the served page: what the app drew, as text, and keys to type."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://") + "/ws?width=100&height=34"
        self.drawn = bytearray()
        self._session: aiohttp.ClientSession | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Tab:
        self._session = aiohttp.ClientSession()
        self._socket = await self._session.ws_connect(self.url)
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._socket is not None and self._session is not None
        await self._socket.close()
        if self._reader is not None:
            await self._reader
        await self._session.close()

    async def _read(self) -> None:
        assert self._socket is not None
        async for message in self._socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.drawn.extend(message.data)

    @property
    def text(self) -> str:
        """What the app drew so far, its escape sequences taken out."""
        return browser_game.ANSI.sub(b"", bytes(self.drawn)).decode("utf-8", "replace")

    async def shows(self, words: str, seconds: float = 60) -> None:
        """Wait until the app has drawn `words`."""
        deadline = time.monotonic() + seconds
        while words not in self.text:
            assert time.monotonic() < deadline, f"{words!r} never showed: {self.text[-800:]!r}"
            await asyncio.sleep(0.1)

    async def type(self, *keys: str) -> None:
        """Type each of `keys`, a moment apart (as a person does)."""
        assert self._socket is not None
        for key in keys:
            await self._socket.send_json(["stdin", key])
            await asyncio.sleep(0.25)


def trap(folder: Path) -> Path:
    """An executable that leaves `ran` beside itself if anything ever starts it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pbrain-trap"
    path.write_text(f"#!/bin/sh\ntouch {folder / 'ran'}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def wait_for(test: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
async def test_a_browser_names_no_program_and_its_games_go_to_the_servers_history(
    tmp_path: Path,
) -> None:
    program = trap(tmp_path / "elsewhere")
    with served() as server:
        owners = server.data_dir / DB_NAME
        async with Tab(server.url) as tab:
            await tab.shows("Who moves first")
            # Start → mode: watch two computers → (the computer player) → difficulty → X plays.
            await tab.type(TAB, RIGHT, RIGHT, TAB, TAB, TAB)
            await tab.type(f"engine:path={program}", ENTER)
            await tab.shows("this server offers no")
            assert "outside engine" in tab.text
            # Back to the players the server allows: the two computers play it to a draw.
            await tab.type(*"\b" * len(f"engine:path={program}"), ENTER)
            await tab.shows("The board is full after")
            apps = server.apps()
        assert await asyncio.to_thread(wait_for, lambda: not server.apps() & apps, 60)
        served_games = server.data_dir / "served" / DB_NAME
        assert served_games.exists() and not owners.exists()
        with sqlite3.connect(served_games) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 1
    assert not (program.parent / "ran").exists(), "the browser started a program"


@pytest.mark.slow
async def test_a_browser_cannot_delete_the_owners_study(tmp_path: Path) -> None:
    owner = tmp_path / "owner"
    store = HistoryStore.open(owner)
    study = study_to_record(MoveTree(Board.from_string("X../.O./...")))
    assert store.save_study(study) == 1
    store.close()
    with served("--data-dir", str(owner)) as server:
        async with Tab(server.url) as tab:
            await tab.shows("Who moves first")
            await tab.type("y")
            await tab.shows("Studies")
            await tab.type("s")
            await tab.shows("1 study")
            await tab.type(DELETE)
            await tab.shows("was not made in this")
    assert HistoryStore.open(owner).study(1) is not None
