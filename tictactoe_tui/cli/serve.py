"""`tictactoe-tui serve`: the same app in a browser tab, served by textual-serve.

    tictactoe-tui serve [--host 127.0.0.1] [--port 8000] [--allow-engine PATH]
                        [--allow-python FILE] [game flags]

The flow: the game flags are checked as the terminal app checks them (a bad one is one line and
status 2), the address is tried (a port already in use is one line too), then textual-serve
serves a page on it. Each tab that opens the page gets an app process of its own, `python -m
tictactoe_tui [game flags]`, which draws into the page over a websocket; closing the tab tells
that process to quit. Ctrl+C (or SIGTERM) stops the server, and with it every app it started:
the server's loop (`ServerLoop`) waits for each app process to end, ending it if it must, and
closes its pipes before the loop itself closes.

Nobody else's code, nobody else's games: each app runs served (`$TICTACTOE_TUI_SERVED`, set in
`app_command`). Its player specs may name only the programs and learner's files this command
line named (`--allow-engine`, `--allow-python`, and those in the game flags: `--engine`,
`--opponent engine:path=`, `--opponent python:path=` or `alphabeta:eval=`, `--eval`, `--x`/`--o`
specs), and the Settings offer only those
(`engine.players.offered`); its games go to a history of the server's own, the `served` folder
of the data directory, unless `--data-dir` names one (`served_data_dir`); and that history
deletes or rewrites only what the same app process made (`HistoryStore.only_own`).

Only this machine can connect unless `--host` says otherwise; with `--host 0.0.0.0` each page
names the address its browser used (textual-serve would name 0.0.0.0, which no browser loads:
`addressed_server`). The page works offline: the one thing textual-serve's page fetches from
outside, a web font from Google Fonts, is replaced by the same font from textual-serve's own
static files (see `offline_template`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import shlex
import socket
import sys
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from tictactoe_tui.engine import PlayerSpec
from tictactoe_tui.engine.players.guest import check_guest_path
from tictactoe_tui.engine.players.offered import SERVED_ENV, Offered
from tictactoe_tui.engine.players.outside import check_engine_path
from tictactoe_tui.history.locations import served_data_dir
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.play.settings import GameSettings

PROG = "tictactoe-tui serve"

DEFAULT_HOST = "127.0.0.1"
"""The loopback address: nobody else on the network can open the game unless asked."""

DEFAULT_PORT = 8000

TEMPLATE = "app_index.html"
"""textual-serve's page template, the one file the server renders."""

FONT_LINK = re.compile(r"<link\b[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)
"""The template's link to Google Fonts (the page's only request to another host)."""

LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf");
        font-weight: 100 700;
        font-style: normal;
      }
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf");
        font-weight: 100 700;
        font-style: italic;
      }
    </style>"""
"""The same font, from the fonts textual-serve ships in its static files."""


APP_EXIT_SECONDS = 5.0
"""How long the apps get to close themselves when the server stops (their own grace after a
signal is as long) before the server ends them."""


class ServerLoop(asyncio.SelectorEventLoop):
    """The server's event loop: it remembers the app processes it starts, one per tab, and before
    it closes it waits for each to end (SIGTERM, then SIGKILL, if one outstays
    `APP_EXIT_SECONDS`) and closes its pipes.

    textual-serve never waits for an app process. When one outlived the loop, which Ctrl+C left
    to chance, Python closed its pipes only after the loop had closed, and printed "Exception
    ignored ... RuntimeError: Event loop is closed" under the server's last line.
    """

    def __init__(self) -> None:
        super().__init__()
        self._apps: list[asyncio.SubprocessTransport] = []

    async def subprocess_shell(self, *args: Any, **kwargs: Any) -> Any:
        """Start a process as the base loop does, and remember it."""
        transport, protocol = await super().subprocess_shell(*args, **kwargs)
        self._apps.append(transport)
        return transport, protocol

    def close(self) -> None:
        """End the apps, close their pipes, then close the loop."""
        if self._apps and not self.is_running() and not self.is_closed():
            self.run_until_complete(self._end_apps())
        super().close()

    async def _end_apps(self) -> None:
        apps, self._apps = self._apps, []
        for end, seconds in ((None, APP_EXIT_SECONDS), ("terminate", 2.0), ("kill", 2.0)):
            running = [app for app in apps if app.get_returncode() is None]
            if not running:
                break
            for app in running:
                if end is not None:
                    with contextlib.suppress(ProcessLookupError):
                        getattr(app, end)()
            deadline = self.time() + seconds
            while self.time() < deadline and any(a.get_returncode() is None for a in running):
                await asyncio.sleep(0.05)
        for app in apps:
            app.close()
        await asyncio.sleep(0)  # the pipes' last callbacks, while the loop still runs


HOST_HEADER = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?")
"""A Host header that names an address the way a browser writes it: a name or an IPv4 address,
or an IPv6 one in brackets, with an optional port (anything else is not used in the page)."""


def page_address(scheme: str, host: str | None, fallback: str) -> str:
    """The address a page's URLs start with: the one the browser used (its Host header), so a
    server listening on 0.0.0.0 serves pages whose script loads from where the page came from;
    `fallback` (the listening address) when the header is missing or malformed."""
    if host and HOST_HEADER.fullmatch(host) and scheme in ("http", "https"):
        return f"{scheme}://{host}"
    return fallback


WILDCARDS = ("0.0.0.0", "::", "")
"""Hosts that mean "every address of this machine": no browser opens them as they are."""

PROBES = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
"""Documentation addresses (never routed): "connecting" a UDP socket to one sends nothing and
says which local address this machine's traffic would leave from."""


def reachable_urls(host: str, port: int) -> list[str]:
    """The addresses a browser opens the game at: the host itself, or for a wildcard host (every
    address) this machine's loopback first, then the network addresses it has, one each."""
    if host not in WILDCARDS:
        return [_url(host, port)]
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    found = ["::1" if family == socket.AF_INET6 else "127.0.0.1"]
    with contextlib.suppress(OSError):
        found += [
            str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, family)
        ]
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect((PROBES[family], 9))
        found.append(probe.getsockname()[0])
    seen = [a for i, a in enumerate(found) if a not in found[:i] and a not in WILDCARDS]
    # 127.0.1.1 (Debian's name for this host) reaches this machine only, as 127.0.0.1 does.
    loopback = [a for a in seen[1:] if a.startswith("127.") or a == "::1"]
    return [_url(a, port) for a in seen if a not in loopback]


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def addressed_server(*args: Any, **kwargs: Any) -> Any:
    """textual-serve's `Server`, whose pages name the address each browser used.

    textual-serve writes its listening address into every page (`public_url`): with `--host
    0.0.0.0` that is `http://0.0.0.0:PORT/...`, which no browser elsewhere can load. Here each
    page gets the address its request came to. Imported when serving, as textual-serve is.
    """
    from textual_serve.server import Server

    class AddressedServer(Server):
        """A `Server` that answers each page with the address its browser used."""

        async def handle_index(self, request: Any) -> Any:
            """The page, with its URLs on the address of `request`. The base method reads
            `public_url` without awaiting anything, so no other request runs in between."""
            self.public_url = page_address(request.scheme, request.host, listening)
            return await super().handle_index(request)

        async def on_startup(self, app: Any) -> None:
            """Say where to open the game: the addresses it can be reached at (textual-serve
            names its listening address, 0.0.0.0 for every address, which no browser opens)."""
            urls = reachable_urls(self.host, self.port)
            where = urls[0] + (" (this machine)" if len(urls) > 1 else "")
            others = "".join(f", {url}" for url in urls[1:])
            print(f"Serving tictactoe-tui on {where}{others}", flush=True)
            print("Press Ctrl+C to quit", flush=True)

    server = AddressedServer(*args, **kwargs)
    listening = server.public_url
    return server


def _port(text: str) -> int:
    """argparse's reader for a TCP port: 1..65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be between 1 and 65535, not {port}")
    return port


def build_parser() -> OneLineParser:
    """The parser for `serve`'s own flags; the rest are the game's flags."""
    parser = OneLineParser(
        prog=PROG,
        usage=f"{PROG} [-h] [--host HOST] [--port PORT] [--allow-engine PATH] "
        "[--allow-python FILE] [game flags]",
        description="Serve the game to a web browser: open the address it prints, one game per "
        "tab. Ctrl+C stops the server.",
        epilog="Every game flag of tictactoe-tui works here too (see tictactoe-tui --help), "
        "e.g. tictactoe-tui serve --size 10 --opponent h1. A browser can name no program or "
        "file of this machine but those this command line names; its games are kept in the "
        "served folder of the data directory (unless --data-dir names one), and it deletes or "
        "rewrites only what it made.",
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine "
        "only; 0.0.0.0 lets the whole network in)",
    )
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"the TCP port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--allow-engine",
        metavar="PATH",
        action="append",
        default=[],
        help="an outside engine (Gomocup brain) the browsers may choose; again for more",
    )
    parser.add_argument(
        "--allow-python",
        metavar="FILE",
        action="append",
        default=[],
        help="a learner's Python file the browsers' player specs may name (python:path=FILE, "
        "alphabeta:eval=FILE); again for more",
    )
    return parser


def offered(
    engines: Sequence[str], files: Sequence[str], settings: GameSettings
) -> tuple[Offered, str | None]:
    """What the browsers may start: the `engines` and learner's `files` named, and those the
    game flags' `settings` name; with why one of them cannot be used (None when all can)."""
    named: list[tuple[str, str, str]] = [("engine", "--allow-engine", e) for e in engines]
    named += [("python", "--allow-python", f) for f in files]
    if settings.engine:
        named.append(("engine", "--engine", settings.engine))
    if settings.learner:
        named.append(("python", "--opponent", settings.learner))
    if settings.eval_file:
        named.append(("python", "--eval", settings.eval_file))
    for flag, text in (("--x", settings.x), ("--o", settings.o)):
        spec = PlayerSpec.parse(text) if text else None
        if spec is not None and spec.path is not None:
            named.append(("engine" if spec.outside else "python", flag, spec.path))
        if spec is not None and spec.eval_path is not None:
            named.append(("python", flag, spec.eval_path))
    kept: dict[str, list[str]] = {"engine": [], "python": []}
    for kind, flag, text in named:
        try:
            path = str(check_engine_path(text) if kind == "engine" else check_guest_path(text))
        except ValueError as error:
            return Offered(), f"{flag} {text}: {error}"
        if path not in kept[kind]:
            kept[kind].append(path)
    return Offered(tuple(kept["engine"]), tuple(kept["python"])), None


def app_command(game_flags: Sequence[str], offer: Offered, data_dir: Path) -> str:
    """The shell command each tab's app process runs (`exec`: no shell left in between, and
    `env` puts itself in the app's place): the app served (`SERVED_ENV`, offering `offer`),
    keeping its games in `data_dir` (the last --data-dir is the one the app reads)."""
    return "exec " + shlex.join(
        [
            "env",
            f"{SERVED_ENV}={offer.to_env()}",
            sys.executable,
            "-m",
            "tictactoe_tui",
            *game_flags,
            "--data-dir",
            str(data_dir),
        ]
    )


def offline_template() -> str:
    """textual-serve's page template with its Google Fonts link replaced by a local font."""
    page = resources.files("textual_serve").joinpath("templates", TEMPLATE).read_text("utf-8")
    offline, replaced = FONT_LINK.subn(LOCAL_FONT, page)
    if replaced != 1:  # textual-serve is pinned; a new version must be checked again
        raise RuntimeError(f"textual-serve's {TEMPLATE} no longer has the font link to replace")
    return offline


def check_address(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (None when it can), in a few words."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        return f"unknown host {host!r}"
    with socket.socket(family, kind, proto) as probe:
        # As aiohttp will: a port left in TIME_WAIT by an earlier run is free to use.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            return f"cannot listen on {host}:{port}: {reason} (choose another port with --port)"
    return None


def main(argv: Sequence[str]) -> int:
    """Check the flags and the address, then serve until Ctrl+C."""
    from tictactoe_tui.cli.flags import data_dir_flag, parse_args

    parser = build_parser()
    args, game_flags = parser.parse_known_args(list(argv))
    # One line and status 2 for a bad game flag, as in a terminal.
    settings, _ = parse_args(game_flags)
    offer, problem = offered(args.allow_engine, args.allow_python, settings)
    if problem is not None:
        parser.error(problem)
    problem = check_address(args.host, args.port)
    if problem is not None:
        parser.error(problem)
    games = served_data_dir(data_dir_flag(game_flags))
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"{PROG}: listening on {args.host}: anyone who can reach this machine can play",
            file=sys.stderr,
        )
    print(f"{PROG}: the browsers' games are kept in {games}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="tictactoe-tui-serve-") as templates:
        Path(templates, TEMPLATE).write_text(offline_template(), encoding="utf-8")
        server = addressed_server(
            app_command(game_flags, offer, games),
            host=args.host,
            port=args.port,
            title="tictactoe-tui",
            templates_path=templates,
        )
        # textual-serve runs on the current event loop: make it one that ends the apps.
        asyncio.set_event_loop(ServerLoop())
        try:
            server.serve()
        except OSError as error:  # the port was taken between the check and now
            parser.error(f"cannot listen on {args.host}:{args.port}: {error}")
        finally:
            asyncio.set_event_loop(None)
    return 0
