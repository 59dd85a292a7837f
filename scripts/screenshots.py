"""Regenerate the README's screenshots by driving the real app.

    python scripts/screenshots.py            # writes screenshots/*.svg at the repository root
    python scripts/screenshots.py compare tree tree-10x10      # only these (or "browser")

Each scene starts the app at 100×34, plays a few seeded moves with Textual's Pilot (waiting for
the computer after each), and saves what the terminal shows with `App.save_screenshot`:

    settings.svg     the Settings screen with its defaults
    game.svg         3×3 against alpha-beta: you took the centre, the panel explains the reply
    results.svg      3×3 against H1: the computer wins, the Results dialog over the board
    help.svg         the Help screen
    game-10x10.svg   10×10 (5 in a row) against H1, two moves each
    match.svg        the match runner after ten games of alpha-beta against random
    heuristics.svg   the heuristic lab on the position after you took the centre
    history.svg      the History screen over a few dozen kept games, with the all-time scores
    review.svg       the Review screen on a game against H1, at a move marked as a mistake
    proof.svg        the Review screen on 10×10 at a blunder a threat search proves lost: bounds
                     (≤), far cells searched one ply ("depth 1"), the proof (VCT) and its line
    compare.svg      the learning lab's comparison (a) after the computer opened and you replied
    tree.svg         the learning lab's search tree (t), replayed step by step to a cut-off
    drill.svg        the alpha-beta drill on docs/lab.md's worked example, filled in and
                     checked: one value wrong, named with the search's reason
    puzzle.svg       the puzzles (z) from a 10×10 game: a proven puzzle, waiting for a move
    puzzle-refutation.svg  a wrong move on the first 3×3 puzzle, its refutation played out
    tree-10x10.svg   the search tree on 10×10, at the line standing for the moves left out
    pairing.svg      why a draw (d) on 5×5, five in a row: O's pairing lettered on the board, two
                     moves of X answered by it
    pairing-3x3.svg  why a draw (d) on 3×3: no pairing (counting rules it out), the draw proven by
                     search, and a line to a pairing numbered on the board
    browser.png      a finished game in a browser tab (`tictactoe-tui serve` in headless Chromium)

The snapshot tests (tests/app/test_snapshots.py) drive the same scenes, so the pictures in the
README are the screens the tests pin. It shoots the code of the checkout it lives in (its root
goes first on `sys.path`), not whichever copy of the package is installed: an installed copy of
another checkout would draw yesterday's screens. Every scene gets a fresh, temporary history, so
the pictures never show (or touch) yours.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

# This checkout's package and benchmarks, before any installed copy (see the docstring).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable
from textual.worker import WorkerCancelled

from benchmarks.history_bench import sample_games
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import Mark, analyse_position
from tictactoe_tui.engine.lab.drill_tree import DrillShape, cut_tree
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.locations import DATA_DIR_ENV
from tictactoe_tui.history.record import PlayedGame, PlayedMove
from tictactoe_tui.history.review import analysis_to_json, position_key, review_method
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.drill import DrillStart
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.widgets import Board

TERMINAL_SIZE = (100, 34)
"""The terminal the app is designed for, and every screenshot's size."""

OUTPUT = Path(__file__).resolve().parent.parent / "screenshots"
"""Where the SVGs go: `screenshots/` at the repository root."""


SETTLE_TIMEOUT = 60.0
"""Seconds `settle` waits for a search before giving up (a hang must fail, not stall)."""


async def settle(pilot: Pilot[Any], timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until no search runs and the screen has caught up.

    The Game screen's `thinking` covers the computer's move, a hint and the board's scores; a
    screen whose work runs in the worker process says so with a `busy` property.
    """
    await pilot.pause()
    deadline = time.monotonic() + timeout
    while any(getattr(screen, "thinking", None) for screen in pilot.app.screen_stack):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still thinking after {timeout:g} s")
        await pilot.pause(0.02)
    await _workers_done(pilot, deadline)
    while getattr(pilot.app.screen, "busy", False) or _tables_measuring(pilot.app.screen):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{type(pilot.app.screen).__name__} still busy after {timeout} s")
        await pilot.pause(0.05)
    await pilot.pause()


async def _workers_done(pilot: Pilot[Any], deadline: float) -> None:
    """Wait for the app's workers; one cancelled meanwhile (a newer job replaced it) is done too."""
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            if time.monotonic() > deadline:
                raise
            await pilot.pause(0.02)


def _tables_measuring(screen: Screen[Any]) -> bool:
    """Whether a table on `screen` has cells whose new width it has not measured yet.

    A DataTable widens its columns for updated cells only when it next goes idle (Textual 8.2.8,
    `DataTable._on_idle`): a picture taken before that shows the new text cut to the old width.
    Waiting is not always enough: a frame drawn between the update and that idle stays in the
    table's render cache, cut, until the next update (Textual issue #3533); the compare screen's
    table, whose cells fill while the picture is being set up, sets its own column widths.
    """
    return any(
        table._updated_cells or table._require_update_dimensions
        for table in screen.query(DataTable)
    )


@dataclass(frozen=True)
class Scene:
    """One picture: which app to start, and the keys and clicks that lead to the moment."""

    name: str
    """The screenshot's file name, without ".svg"."""
    settings: GameSettings | None = None
    """The game to start straight away, or None to open on the Settings screen."""
    keys: tuple[str, ...] = ()
    """Keys pressed in turn, waiting for the computer after each."""
    clicks: tuple[int, ...] = ()
    """Board cells clicked in turn (after the keys), waiting for the computer after each."""
    history: tuple[PlayedGame, ...] = ()
    """Games put in the history (the data directory's, $TICTACTOE_TUI_DATA_DIR) first."""
    prepare: Callable[[HistoryStore], None] | None = None
    """Anything else the history needs before the app starts (cached analyses)."""
    drill: Callable[[], DrillStart] | None = None
    """The drill to open the app on (`tictactoe-tui drill`), instead of a game."""

    def app(self) -> TicTacToeApp:
        """A fresh app for this scene."""
        if self.history or self.prepare is not None:
            store = HistoryStore.open()
            store.save_many(self.history)
            if self.prepare is not None:
                self.prepare(store)
            store.close()
        if self.drill is not None:
            return TicTacToeApp(drill=self.drill())
        if self.settings is None:
            return TicTacToeApp()
        return TicTacToeApp(self.settings, start_in_game=True)

    async def play(self, pilot: Pilot[Any]) -> None:
        """Bring the app to the moment the picture shows."""
        await settle(pilot)
        for key in self.keys:
            await pilot.press(key)
            await settle(pilot)
        for cell in self.clicks:
            board = pilot.app.screen.query_one("#board", Board)
            if not await pilot.click(board, offset=board.cell_offset(cell)):
                raise RuntimeError(f"{self.name}: could not click cell {cell}")
            await settle(pilot)


def showcase_game() -> PlayedGame:
    """A game against H1 with a mistake and blunders on both sides; X wins on the A column."""
    cells = (6, 1, 5, 2, 0, 4, 7, 8, 3)
    moves = tuple(
        PlayedMove(
            cell,
            Mark.X if i % 2 == 0 else Mark.O,
            by_computer=i % 2 == 1,
            seconds=0.0004 if i % 2 else None,
            positions=8 if i % 2 else None,
            clever=True if i % 2 else None,
        )
        for i, cell in enumerate(cells)
    )
    started = datetime(2025, 3, 1, 15, 0)
    return PlayedGame(
        "human-vs-computer",
        "human",
        "h1",
        3,
        3,
        Mark.X,
        100,
        started,
        started + timedelta(seconds=40),
        moves,
        "X",
        settings={"opponent": "h1", "seed": 1},
    )


def threat_game() -> PlayedGame:
    """Two people on 10×10, five in a row: O's eighth move, D4, leaves X a win by a chain of
    threats (G3 G5 H4 …), which X plays to the end."""
    names = (
        "E5",
        "F5",
        "F6",
        "E6",
        "G4",
        "H8",
        "F4",
        "D4",
        "G3",
        "D6",
        "G5",
        "G2",
        "H4",
        "D5",
        "E7",
        "D8",
        "I3",
    )
    by_name = {cell_notation(cell, 10): cell for cell in range(100)}
    moves = tuple(
        PlayedMove(by_name[name], Mark.X if i % 2 == 0 else Mark.O, by_computer=False)
        for i, name in enumerate(names)
    )
    started = datetime(2025, 3, 2, 10, 0)
    return PlayedGame(
        "human-vs-human",
        "human",
        "human",
        10,
        5,
        Mark.X,
        100,
        started,
        started + timedelta(minutes=4),
        moves,
        "X",
        settings={"mode": "human-vs-human", "size": 10, "k": 5},
    )


PROOF_DEPTH = 6
"""Plies of the analyses the proof scene caches: a depth, not a time budget, so the picture (and
its snapshot) is the same on any machine."""


def cache_analyses(game: PlayedGame) -> Callable[[HistoryStore], None]:
    """Put alpha-beta's analysis of every position of `game` (to `PROOF_DEPTH` plies) in the
    review's cache, as if the game had been reviewed before."""

    def prepare(store: HistoryStore) -> None:
        board = Position.empty(game.size, game.k, game.first)
        for cell in (*game.cells, None):
            if not board.is_over:
                analysis = analyse_position(board, "alphabeta", depth=PROOF_DEPTH)
                store.cache_analysis(
                    position_key(board), review_method(game.size), analysis_to_json(analysis)
                )
            if cell is not None:
                board = board.play(cell)

    return prepare


def worked_drill() -> DrillStart:
    """docs/lab.md's worked example: `tictactoe-tui drill --seed 21 --depth 3 --width 2`."""
    return DrillStart(cut_tree(Position.from_string(".../.../X.."), DrillShape(3, 2)), seed=21)


DRILL_KEYS = (
    *("home", "2", "enter"),  # A = 2
    *("down", "2", "enter"),  # B1 = 2
    *("down", "2", "enter"),  # C1 = 2
    *("down", "down", "down", "2", "enter"),  # C2 = 2
    *("down", "down", "x"),  # D4 never visited
    *("down", "2", "enter"),  # B2 = 2: the mistake (fail-hard's answer)
    *("down", "1", "enter"),  # C3 = 1
    *("down", "down", "down", "x"),  # C4 never visited
    *("c", "up", "up", "up", "up"),  # check, then select B2
)
"""The worked example answered under our convention, right but for B2."""

EXAMPLE_HISTORY = (*sample_games(30, seed=4, last=datetime(2025, 3, 1, 14, 30)), showcase_game())
"""The history the history and review scenes start from: 30 sample games, then the showcase."""

SCENES = {
    scene.name: scene
    for scene in (
        Scene("settings"),
        Scene("game", GameSettings(seed=1), keys=("5",)),
        # X takes A1, B1, A2; O takes the centre, blocks at C1 and wins on the diagonal at A3.
        Scene("results", GameSettings(seed=1, opponent="h1"), keys=("1", "2", "4")),
        Scene("help", keys=("question_mark",)),
        Scene("game-10x10", GameSettings(seed=1, size=10, opponent="h1"), clicks=(44, 55)),
        # Ten games of alpha-beta against random on 3×3: the match runner's table and charts.
        Scene("match", GameSettings(seed=1), keys=("m", "r")),
        # You took the centre, alpha-beta answered in a corner: how H1 and H2 rank your replies.
        Scene("heuristics", GameSettings(seed=1), keys=("5", "w")),
        # The same with your evaluation (--eval examples/my_eval.py): its column beside H1's.
        Scene(
            "yours",
            GameSettings(seed=1, eval_file=str(OUTPUT.parent / "examples" / "my_eval.py")),
            keys=("5", "w"),
        ),
        Scene("history", keys=("y",), history=EXAMPLE_HISTORY),
        # The newest game is the showcase: open it, go to the start, step to X's mistake C2.
        Scene(
            "review",
            keys=("y", "enter", "home", "right", "right", "right"),
            history=EXAMPLE_HISTORY,
        ),
        # O's blunder D4 on 10×10: proven lost by a chain of threats, beside bounds and depths.
        Scene(
            "proof",
            keys=("y", "enter", "home", *["right"] * 8),
            history=(threat_game(),),
            prepare=cache_analyses(threat_game()),
        ),
        # The computer (X) opens, you take the centre, it replies; then the lab on move 4.
        Scene("compare", GameSettings(seed=1, first="computer", mark="O"), keys=("5", "a")),
        # The course from Settings (L): lesson 1, its first exercise answered right.
        Scene("learn", keys=("L", "enter", "w", "i", "n", "enter")),
        # Predict mode: you take A1, predict the computer's reply at C1 (it loses), skip the
        # value question; the move (B2) is played, the verdict and the panel shown.
        Scene("predict", GameSettings(seed=2, predict=True), keys=("1", "3", "escape")),
        # docs/lab.md's worked example filled in and checked: B2 wrong, the reason said.
        Scene("drill", keys=DRILL_KEYS, drill=worked_drill),
        # You take the centre, the computer replies; the tree replayed to a cut-off that prunes two.
        Scene("tree", GameSettings(seed=1), keys=("5", "t", "s", *["n"] * 47)),
        # The puzzles from a 10×10 game: the bank's puzzle nearest a new player's rating.
        Scene("puzzle", GameSettings(seed=1, size=10, opponent="h1"), keys=("z",)),
        # From Settings, the first 3×3 puzzle (O must find the only defence after X's corner):
        # C2 (the digit 6), one step right of the centre, loses, and the refutation is played out.
        Scene("puzzle-refutation", keys=("z", "6")),
        # 10×10 against H1: you take F6, it replies; the tree to depth 2, at its last line, the
        # one standing for the moves the search left out (lit on the small board).
        Scene(
            "tree-10x10",
            GameSettings(seed=1, size=10, opponent="h1"),
            keys=("enter", "t", "down", "down", "enter", "end"),
        ),
        # 5×5, five in a row: O's pairing; X takes the centre, then C2, and O answers each.
        Scene("pairing", GameSettings(seed=1, size=5, k=5), keys=("d", "enter", "up", "enter")),
        # 3×3: no pairing, and why; the draw is search's.
        Scene("pairing-3x3", GameSettings(seed=1), keys=("d",)),
        # Two people: X takes the centre, then the analysis board on it, set up by hand:
        # O on B1, X on A1 (the cursor starts on the centre).
        Scene(
            "analysis-setup",
            GameSettings(seed=1, mode="human-vs-human"),
            keys=("5", "e", "s", "up", "o", "left", "x"),
        ),
        # The analysis board after the centre: O's A1 answered by C3, then two variations
        # (X C1 instead of C3; O A3 instead of A1), shown at the second one's reply.
        Scene(
            "analysis-variations",
            GameSettings(seed=1, mode="human-vs-human"),
            keys=("5", "e", "1", "9", "comma", "3", "comma", "comma", "7", "3"),
        ),
    )
}
"""Every screenshot, by name."""


async def shoot(scene: Scene, directory: Path) -> Path:
    """Play `scene` (with a fresh history) and save its screenshot in `directory`; return the
    file written."""
    with tempfile.TemporaryDirectory() as data:
        os.environ[DATA_DIR_ENV] = data
        app = scene.app()
        async with app.run_test(size=TERMINAL_SIZE) as pilot:
            await scene.play(pilot)
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            written = app.save_screenshot(f"{scene.name}.svg", str(directory))
    return Path(written)


async def main(names: list[str]) -> None:
    """Regenerate the screenshots of the scenes `names` (every one when empty)."""
    unknown = [name for name in names if name not in SCENES]
    if unknown:
        raise SystemExit(f"no scene {', '.join(unknown)}: the scenes are {', '.join(SCENES)}")
    OUTPUT.mkdir(exist_ok=True)
    for scene in SCENES.values():
        if not names or scene.name in names:
            print(await shoot(scene, OUTPUT))


def shoot_browser() -> None:
    """screenshots/browser.png: a finished game in headless Chromium (scripts/browser_game.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import browser_game

    missing = browser_game.browser_missing()
    if missing is not None:
        print(f"browser.png not regenerated: {missing}")
        return
    with browser_game.served() as server:
        browser_game.play_in_browser(server.url, OUTPUT / "browser.png")
    print(OUTPUT / "browser.png")


if __name__ == "__main__":
    chosen = sys.argv[1:]
    scenes = [name for name in chosen if name != "browser"]
    if scenes or not chosen:
        asyncio.run(main(scenes))
    if not chosen or "browser" in chosen:
        shoot_browser()
