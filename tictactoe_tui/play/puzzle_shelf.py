"""Where the Puzzle screen's puzzles come from: the shipped bank, the ones made or found since
(made in the worker when a board's bank runs out, found in the player's own games with `g`), the
ones already shown, the puzzle of the day, and the words that say how a look through the games
went.

Pure (no Textual): the screen runs the jobs and shows what this says; what a key or a click may
do during a try is `play.puzzle_try.PuzzleTry`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from tictactoe_tui.engine.puzzles.proven import SHAPES, Puzzle, puzzle_of_the_day
from tictactoe_tui.history.puzzles import GameScan, Standing, choose_next
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.store import HistoryStore

GAMES_SCANNED = 40
"""How many of the newest games `g` looks through for puzzles."""


class PuzzleShelf:
    """The puzzles to choose from, those shown, and the look through the games (if one runs)."""

    def __init__(self, bank: Sequence[Puzzle]) -> None:
        """Puzzles from `bank` first, then those made or found."""
        self.bank: list[Puzzle] = list(bank)
        self.found: list[Puzzle] = []
        """Puzzles made or found since the screen opened, the newest first."""
        self.seen: set[str] = set()
        """The keys of the puzzles shown."""
        self.daily = False
        """Whether the puzzle shown is the puzzle of the day."""
        self.scanning = ""
        """While `g` looks through the games: what it looks through ("your last 13 games")."""
        self.note = ""
        """What `g` found (or why it stopped), kept above the puzzle's words until another
        puzzle is chosen."""

    @property
    def total(self) -> int:
        """How many puzzles there are to try: the bank's and those made or found."""
        return len({p.key for p in self.bank} | {p.key for p in self.found})

    def next(self, mine: Standing, shape: tuple[int, int]) -> Puzzle | None:
        """The next puzzle of the board `shape` (one found in the games first, else the
        bank's), or None when every one was solved or shown."""
        puzzle = choose_next(self.found + self.bank, mine, shape, self.seen)
        if puzzle is None or (puzzle.size, puzzle.k) != shape:
            return None
        return puzzle

    def shown(self, puzzle: Puzzle) -> None:
        """`puzzle` is shown (its note, if any, goes)."""
        self.note = ""
        self.seen.add(puzzle.key)

    def seed(self, mine: Standing, shape: tuple[int, int]) -> int:
        """The seed new puzzles of `shape` are made with: another for every batch."""
        size, k = shape
        return mine.tries * 1_000 + len(self.seen) + size * 17 + k

    def of_the_day(self, day: date) -> Puzzle | None:
        """The puzzle of the day: the same one all day, on any board (None: no bank)."""
        return puzzle_of_the_day(self.bank, day.toordinal())

    def take(self, puzzles: Sequence[Puzzle], from_games: bool) -> list[Puzzle]:
        """Puzzles that arrived from a job, put first: the new ones among them (a puzzle from
        the player's own game counts even if the bank's twin was shown: it is their position,
        and says so)."""
        fresh = [p for p in puzzles if from_games or p.key not in self.seen]
        keys = {f.key for f in fresh}
        self.found = fresh + [p for p in self.found if p.key not in keys]
        return fresh

    def start_scan(self, games: int) -> str:
        """A look through the newest `games` games begins: what the status says."""
        self.note = ""
        self.scanning = f"your last {games} games" if games > 1 else "your last game"
        return f"Looking for puzzles in {self.scanning}…"

    def scan_words(self, scan: GameScan) -> str:
        """How far the look through the games is (escape stops it)."""
        found = f", {scan.found} found" if scan.found else ""
        return (
            f"Looking for puzzles in {self.scanning}: move {scan.looked + 1} of {scan.total} "
            f"you played{found}… escape stops."
        )

    def end_scan(self) -> str:
        """The look through the games is over: what it looked through ("" when none ran)."""
        scanned, self.scanning = self.scanning, ""
        return scanned


def next_shape(shape: tuple[int, int]) -> tuple[int, int]:
    """The board after `shape` (3×3, 4×4 with 3 and 4 in a row, … 15×15, then 3×3 again)."""
    shapes = list(SHAPES)
    index = shapes.index(shape) if shape in shapes else -1
    return shapes[(index + 1) % len(shapes)]


def games_to_scan(store: HistoryStore) -> list[tuple[int | None, PlayedGame]]:
    """The newest games a person played (`GAMES_SCANNED` at most), for `g`."""
    games: list[tuple[int | None, PlayedGame]] = []
    for summary in store.games(limit=GAMES_SCANNED):
        if summary.mode == "computer-vs-computer":
            continue
        game = store.game(summary.id)
        if game is not None:
            games.append((summary.id, game))
    return games


def found_words(fresh: Sequence[Puzzle], scanned: str) -> str:
    """What the look through `scanned` found, above the first puzzle it found (or why none)."""
    if not fresh:
        return (
            f"No puzzles in {scanned} yet: a position where you missed the only win "
            "or the only defence becomes one."
        )
    many = f"{len(fresh)} puzzles" if len(fresh) > 1 else "1 puzzle"
    return f"{many} from {scanned}: this is the first" + (
        "; n shows the next." if len(fresh) > 1 else "."
    )
