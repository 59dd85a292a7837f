"""Key latency and first paint in a real terminal (tmux), side by side with a minimal Textual app.

    python scripts/latency.py [--repeat 15] [--paints 7] [--paints-only] [--checkout DIR]
                              [--against DIR]

Pilot cannot measure this (it waits for the app to go idle), so each app runs in a private tmux
server at 100×34 and the script watches the pane as a person would. Every figure is a median:

    first paint      from launching the command to its first screen on the pane: the minimal
                     app; ours on the Settings screen (no flag), on a 3×3 game, on a 10×10 game
                     and on a 15×15 game (at 120×34: it needs 111 columns), the minimal app
                     again at that size
    key latency      from `tmux send-keys` to the pane showing the key's effect:
                     minimal: a key that hides and shows a widget;
                     ours, idle, 10×10: `i` (hide/show the panel) and an arrow (the cursor);
                     ours while the computer thinks on 10×10 (a 60 s budget): `i`
    help             `?` until the help text shows, Escape until the game is back

and it checks the responsiveness targets: thinking within 1.5× idle + 20 ms, idle within 2× the
minimal app + 20 ms, first paint within 2× the minimal app + 150 ms, help as fast as a key.
Each poll of the pane (`tmux capture-pane`) costs a few milliseconds, the same for every app.
The machine's load (from `uptime`) is printed: other work on it slows every figure.

The app measured is this checkout's (or `--checkout DIR`'s: an older revision's tree, to compare),
run as `python -m tictactoe_tui` in it and byte-compiled first, as an installed copy would be.
`--against DIR` launches another checkout's app too, in the same rounds as this one's (each round
launches every app once), so a before-and-after comparison shares the machine's load; its first
paints are printed beside, with no target. A revision's tree for it:
`git archive REV tictactoe_tui | tar -x -C DIR` (copy the compiled kernel,
`tictactoe_tui/engine/proofs/_threatc*.so`, beside it, or that tree runs the pure-Python one).
`--paints-only` stops after the first paints (a minute, against three or four for everything).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SOCKET = f"latency-{os.getpid()}"
"""The private tmux server's socket name (never the default server: others may use it)."""

SIZE = ("100", "34")
"""The terminal every figure is taken in, but the 15×15 game's first paint."""
WIDE = ("120", "34")
"""The terminal of the 15×15 game's first paint (and the minimal app's beside it)."""
START_LOAD = os.getloadavg()[0]
"""The machine's load average (one minute) when the script started."""
TIMEOUT = 20.0
"""Seconds to wait for any one change on the pane before calling it a failure."""

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Static


class Minimal(App):
    BINDINGS = [("i", "toggle", "Toggle")]

    def compose(self):
        yield Static("minimal app ready")
        yield Static("Evaluation", id="panel")

    def action_toggle(self):
        panel = self.query_one("#panel")
        panel.display = not panel.display


Minimal().run()
"""


def tmux(*args: str) -> str:
    """Run a command on the private tmux server and return what it printed."""
    return subprocess.run(
        ["tmux", "-L", SOCKET, *args], check=True, capture_output=True, text=True
    ).stdout


def pane() -> str:
    """What the pane shows now, with its colours (a cursor move changes only colours)."""
    return tmux("capture-pane", "-p", "-e", "-t", "run")


def wait_for(condition: Callable[[str], bool], what: str) -> float:
    """Poll the pane until `condition(text)` holds; return the perf_counter time it did."""
    deadline = time.perf_counter() + TIMEOUT
    while time.perf_counter() < deadline:
        if condition(pane()):
            return time.perf_counter()
    raise SystemExit(f"latency: timed out waiting for {what}")


def start(
    command: list[str], ready: str, size: tuple[str, str] = SIZE, directory: Path | None = None
) -> float:
    """Launch `command` in the pane "run" (in `directory`, a `size` terminal); return seconds
    until `ready` shows (first paint)."""
    begin = time.perf_counter()
    where = ["-c", str(directory)] if directory is not None else []
    tmux("new-session", "-d", "-s", "run", "-x", size[0], "-y", size[1], *where, *command)
    return wait_for(lambda text: ready in text, f"{ready!r} at start") - begin


def stop() -> None:
    """End the pane's program (and the session)."""
    subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", "run"], capture_output=True)
    time.sleep(0.3)


def key(name: str, condition: Callable[[str], bool], what: str) -> float:
    """Press `name` and return seconds until `condition` holds on the pane."""
    begin = time.perf_counter()
    tmux("send-keys", "-t", "run", name)
    return wait_for(condition, what) - begin


def panel_shown(text: str) -> bool:
    """Whether the evaluation panel (or the minimal app's stand-in) is on the pane."""
    return "Evaluation" in text


def toggles(count: int) -> list[float]:
    """`i` pressed `count` times (made even: the panel ends shown), each timed until the panel
    has gone or come back."""
    times = []
    for _ in range(count + count % 2):
        shown = panel_shown(pane())
        times.append(key("i", lambda text, shown=shown: panel_shown(text) != shown, "i"))
    return times


def arrows(count: int) -> list[float]:
    """Left/right pressed `count` times on the board, each timed until the pane changes."""
    times = []
    for index in range(count):
        before = pane()
        times.append(
            key(
                "Right" if index % 2 == 0 else "Left",
                lambda text, before=before: text != before,
                "the cursor",
            )
        )
    return times


def median_ms(values: list[float]) -> float:
    """The median in milliseconds."""
    return statistics.median(values) * 1000


def main() -> int:
    """Measure, print a table and the targets; exit status 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="key presses per figure")
    parser.add_argument("--paints", type=int, default=7, help="launches per first paint")
    parser.add_argument(
        "--paints-only", action="store_true", help="measure the first paints only (no key)"
    )
    parser.add_argument(
        "--checkout",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the checkout whose app is measured (default: this script's)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout whose app's first paints are measured in the same rounds",
    )
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("latency: tmux is not installed")
    # `python -m` in the checkout, not the console script: that one runs whichever checkout the
    # package was installed from.
    checkout = args.checkout.resolve()
    # Byte-compiled first, as an installed copy is: a checkout run with PYTHONDONTWRITEBYTECODE
    # would compile every module from source at each launch.
    against = args.against.resolve() if args.against is not None else None
    for tree in (checkout, against):
        if tree is not None:
            compileall.compile_dir(tree / "tictactoe_tui", quiet=1)
    ours = [sys.executable, "-m", "tictactoe_tui"]
    small_game = [*ours, "--size", "3", "--seed", "1"]
    game = [*ours, "--size", "10", "--k", "5", "--seed", "1", "--time-limit", "0.3"]
    big_game = [*ours, "--size", "15", "--seed", "1", "--time-limit", "0.3"]
    thinking_game = [
        *ours,
        "--size",
        "10",
        "--seed",
        "1",
        "--first",
        "computer",
        "--time-limit",
        "60",
    ]
    work = Path(tempfile.mkdtemp(prefix="latency-"))
    minimal = work / "minimal.py"
    minimal.write_text(MINIMAL_APP)
    os.environ["TICTACTOE_TUI_DATA_DIR"] = str(work / "data")  # never the user's history
    figures: dict[str, float] = {}
    try:
        apps = (
            ("settings", ours, "Start", SIZE),
            ("game 3×3", small_game, "Evaluation", SIZE),
            ("game 10×10", game, "Evaluation", SIZE),
            ("game 15×15 (120×34)", big_game, "Evaluation", WIDE),
        )
        launches = [
            ("minimal", [sys.executable, str(minimal)], "minimal app ready", SIZE, checkout),
            *((name, command, ready, size, checkout) for name, command, ready, size in apps),
            ("minimal 120×34", [sys.executable, str(minimal)], "minimal app ready", WIDE, checkout),
        ]
        if against is not None:
            launches += [
                (f"{name} [against]", command, ready, size, against)
                for name, command, ready, size in apps
            ]
        paints: dict[str, list[float]] = {name: [] for name, *_ in launches}
        for _ in range(args.paints):
            for name, command, ready, size, directory in launches:
                paints[name].append(start(command, ready, size, directory))
                stop()
        for name, values in paints.items():
            figures[f"first paint: {name}"] = median_ms(values)
        if args.paints_only:
            return report(figures, args, paint_targets(figures))

        start([sys.executable, str(minimal)], "minimal app ready")
        time.sleep(1)
        figures["key: minimal app"] = median_ms(toggles(args.repeat))
        stop()

        start(game, "Evaluation", directory=checkout)
        time.sleep(3)  # the board's scores for X are searched at first: let that finish
        figures["key idle: panel (i)"] = median_ms(toggles(args.repeat))
        figures["key idle: cursor (arrow)"] = median_ms(arrows(args.repeat))
        helps = []
        for _ in range(max(3, args.repeat // 3)):
            helps.append(key("?", lambda text: "How to play" in text, "help"))
            key("Escape", lambda text: "Your turn" in text, "the game after help")
        figures["help opens (first)"] = helps[0] * 1000
        figures["help opens (median)"] = median_ms(helps)
        stop()

        start(thinking_game, "Evaluation", directory=checkout)
        wait_for(lambda text: "positions so far" in text, "the computer thinking")
        figures["key while thinking: panel (i)"] = median_ms(toggles(args.repeat))
        if "thinking" not in pane():
            raise SystemExit("latency: the computer stopped thinking during the measurement")
        stop()
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)

    idle = figures["key idle: panel (i)"]
    minimal_key = figures["key: minimal app"]
    return report(
        figures,
        args,
        [
            (
                "key while thinking <= 1.5 × idle + 20 ms",
                figures["key while thinking: panel (i)"],
                1.5 * idle + 20,
            ),
            ("idle key (panel) <= 2 × minimal + 20 ms", idle, 2 * minimal_key + 20),
            (
                "idle key (cursor) <= 2 × minimal + 20 ms",
                figures["key idle: cursor (arrow)"],
                2 * minimal_key + 20,
            ),
            *paint_targets(figures),
            (
                "help opens <= 2 × minimal + 20 ms",
                figures["help opens (median)"],
                2 * minimal_key + 20,
            ),
        ],
    )


def paint_targets(figures: dict[str, float]) -> list[tuple[str, float, float]]:
    """First paint within 2× the minimal app's (in the same terminal) + 150 ms."""
    return [
        (
            f"first paint ({name}) <= 2 × minimal + 150 ms",
            figures[f"first paint: {name}"],
            2 * figures[f"first paint: {minimal}"] + 150,
        )
        for name, minimal in (
            ("settings", "minimal"),
            ("game 3×3", "minimal"),
            ("game 10×10", "minimal"),
            ("game 15×15 (120×34)", "minimal 120×34"),
        )
    ]


def report(
    figures: dict[str, float], args: argparse.Namespace, targets: list[tuple[str, float, float]]
) -> int:
    """Print the figures, the load and each target (label, value, limit); 1 if one is missed."""
    load = os.getloadavg()[0]
    print(
        f"median milliseconds over {args.repeat} keys, {args.paints} launches "
        f"(load average {START_LOAD:.2f} at the start, {load:.2f} at the end, "
        f"on {os.cpu_count()} cores)"
    )
    width = max(36, *map(len, figures))
    for name, value in figures.items():
        print(f"  {name:<{width}} {value:8.0f} ms")
    missed = 0
    for label, value, limit in targets:
        ok = value <= limit
        missed += not ok
        print(f"  {'ok  ' if ok else 'MISS'} {label}: {value:.0f} ms (limit {limit:.0f} ms)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
