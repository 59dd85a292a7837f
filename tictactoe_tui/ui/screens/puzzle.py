"""The Puzzle screen: find the only winning move, or the only defence, in a proven position.

The flow: the screen takes a puzzle (the shipped bank's, for the board of the current settings,
the unsolved one closest to the player's rating; or the puzzle of the day; or one found in the
player's own games) and shows its position and goal. The player picks a cell on `#puzzle-board`
(a click, or the arrows and Enter). The move goes to the engine as a job
(`worker.jobs.answer_puzzle`: in a thread of this process on boards up to 4×4, in the app's
worker process above, where the defence is searched afresh); its answer comes back with the
line that follows, which is played out on the board one ply at a time with a sentence for each:
the rest of the proof after a right move, the refutation after a wrong one. The try goes into
the history (`history.puzzles.record_try`), which moves the rating and the streak.

`h` gives a hint, one level at a time (the area, then the threat, then the move); `r` tries
the puzzle again (unrated), `n` goes on to the next one, `d` shows the puzzle of the day, `b`
changes the board, `g` looks for puzzles in the player's games (a job too: the status counts the
moves looked at, escape stops it, and what it found stays beside the board), `c` opens the
"find a better move" cards made from the player's reviewed mistakes. Digits 1–9 play on 3×3,
as in the game; the cursor starts on a stone, so Enter alone never plays the answer. Moving on
cancels a running job, so no late answer arrives. Escape goes back. What a key or a click may
do during a try (its phases: solving, checking, playing, done) is
`play.puzzle_try.PuzzleTry`'s to decide.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import date
from typing import Any, ClassVar, TypeVar, TypeVarTuple

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from tictactoe_tui.engine.puzzles.proven import (
    SHAPES,
    Generation,
    Puzzle,
    default_k,
    load_bank,
    puzzle_of_the_day,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.puzzles import (
    GameScan,
    Standing,
    choose_next,
    record_try,
    standing,
)
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.puzzle_try import MAX_HINTS, PuzzlePhase, PuzzleTry
from tictactoe_tui.text.game import board_words
from tictactoe_tui.text.puzzles import (
    area,
    explanation,
    goal_detail,
    goal_words,
    hint,
    outcome_words,
    standing_words,
    title_words,
    verdict_words,
)
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.messages import OpenCards
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import JobFailed
from tictactoe_tui.worker.jobs import PuzzleReply, answer_puzzle, find_puzzles, puzzles_in_games

T = TypeVar("T")
"""What a job of this screen returns (its answer's argument)."""

Ts = TypeVarTuple("Ts")
"""A job's arguments."""

STEP_SECONDS = 0.7
"""Seconds between two plies of a line played out on the board (slow enough to read)."""

IN_PROCESS_MAX_SIZE = 4
"""Boards up to this size are answered in a thread here: a few milliseconds, no worker needed."""

SIDE_MIN_WIDTH = 34
"""The narrowest the words beside the board may be."""

GAMES_SCANNED = 40
"""How many of the newest games `g` looks through for puzzles."""

MORE_PUZZLES = 5
"""How many puzzles are made at once when the bank has no unsolved one left for a board."""


def shape_for(size: int, k: int) -> tuple[int, int]:
    """The puzzle board for a game's (size, k): itself when puzzles are made for it, else one
    of the same size, else 3×3."""
    if (size, k) in SHAPES:
        return size, k
    if any(s == size for s, _ in SHAPES):
        return size, default_k(size)
    return SHAPES[0]


def needed_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows a size×size puzzle."""
    width, height = board_size_on_screen(size)
    return width + SIDE_MIN_WIDTH + 1, height + 3 + 1


class PuzzleScreen(Screen[None]):
    """One puzzle at a time: the position, the goal, the player's move and what follows."""

    DEFAULT_CSS = """
    PuzzleScreen { layout: vertical; }
    PuzzleScreen #puzzle-status { height: 3; padding: 0 1; background: $boost; }
    PuzzleScreen #puzzle-main { height: 1fr; }
    PuzzleScreen #puzzle-side { width: 1fr; padding: 0 1; min-width: 34; }
    PuzzleScreen #puzzle-scroll { height: 1fr; }
    PuzzleScreen #puzzle-words { height: auto; }
    PuzzleScreen #puzzle-standing { height: auto; color: $text-muted; }
    PuzzleScreen.-too-small #puzzle-main, PuzzleScreen.-too-small #puzzle-status {
        display: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "Hint"),
        Binding("r", "retry", "Retry"),
        Binding("n", "next_puzzle", "Next"),
        Binding("d", "daily", "Of the day"),
        Binding("b", "next_board", "Board"),
        Binding("g", "from_games", "Your games"),
        Binding("c", "cards", "Cards", show=False),
        Binding("escape", "back", "Back"),
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
    ]

    step_seconds = STEP_SECONDS
    """Seconds between two plies of a line played out (tests set it small)."""

    def __init__(
        self,
        store: HistoryStore | None = None,
        shape: tuple[int, int] = (3, 3),
        bank: Sequence[Puzzle] | None = None,
        today: date | None = None,
    ) -> None:
        """Puzzles of `shape` first (any board with `b`), from `bank` (default: the shipped
        one); tries go to `store`; `today` decides the puzzle of the day (default: today)."""
        super().__init__()
        self.store = store
        self.shape = shape
        self.bank: list[Puzzle] = list(load_bank() if bank is None else bank)
        self.today = today
        self.attempt = PuzzleTry()
        """The puzzle shown and the try at it: its phase, hints, the moves shown."""
        self.words: list[str] = []
        """The sentences shown beside the board."""
        self.mine = Standing()
        self._waiting_for = ""
        self._timer: Timer | None = None
        self._seen: set[str] = set()
        self._found: list[Puzzle] = []
        self._daily = False
        self._last_outcome = ""
        self._scanning = ""
        """While `g` looks through the games: what it looks through ("your last 13 games")."""
        self.note = ""
        """What `g` found (or why it stopped), kept above the puzzle's words until another
        puzzle is chosen."""

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The status, the board beside the words and the standing, the footer."""
        yield Static("", id="puzzle-status", markup=False)
        with Horizontal(id="puzzle-main"):
            yield Board(self.shape[0], id="puzzle-board")
            with Vertical(id="puzzle-side"):
                with VerticalScroll(id="puzzle-scroll", can_focus=False):
                    yield Static("", id="puzzle-words", markup=False)
                yield Static("", id="puzzle-standing", markup=False)
        yield TooSmall(id="puzzle-too-small")
        yield Footer()

    @property
    def board(self) -> Board:
        """The puzzle's board widget."""
        return self.query_one("#puzzle-board", Board)

    @property
    def puzzle(self) -> Puzzle | None:
        """The puzzle shown."""
        return self.attempt.puzzle

    @property
    def phase(self) -> PuzzlePhase:
        """Where the try is: idle, solving, checking, playing, done."""
        return self.attempt.phase

    @property
    def played(self) -> list[int]:
        """The moves shown on the board since the puzzle's position."""
        return self.attempt.played

    @property
    def busy(self) -> bool:
        """True while the engine works on a move or a line is being played out."""
        return self.attempt.busy or bool(self._waiting_for)

    async def on_mount(self) -> None:
        """Take the player's standing and show the first puzzle."""
        self.mine = standing(self.store) if self.store is not None else Standing()
        self._fit_terminal()
        await self._show_next()

    def on_unmount(self) -> None:
        """Stop a job still running and the playing-out."""
        self._drop_job()

    def on_resize(self, event: events.Resize) -> None:
        """Ask for a bigger terminal when the board and words no longer fit."""
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        size = self.shape[0]
        self.query_one(TooSmall).fit(
            needed_terminal(size),
            f"a {size}×{size} puzzle",
            "b changes the board; escape goes back.",
            refocus=self.board,
        )

    # -- choosing a puzzle -----------------------------------------------------------------------

    async def _show_next(self) -> None:
        """The next puzzle of this board: one found in the games first, else the bank's."""
        pool = self._found + self.bank
        puzzle = choose_next(pool, self.mine, self.shape, self._seen)
        if puzzle is None or (puzzle.size, puzzle.k) != self.shape:
            await self._swap_board(self.shape[0])
            self._make_more()
            return
        self._daily = False
        await self.show_puzzle(puzzle)

    def _make_more(self) -> None:
        """Every puzzle of this board was solved or shown: make new ones in the worker."""
        size, k = self.shape
        self._start_wait(f"Making new {board_words(size, k)} puzzles (every one proven)…")
        seed = self.mine.tries * 1_000 + len(self._seen) + size * 17 + k
        # Always in the worker: even a 4×4 batch searches for a second or so, which a thread
        # here would take from the keys.
        self._submit(
            find_puzzles,
            (size, k, MORE_PUZZLES, seed),
            lambda result: self._found_puzzles(_puzzles_of(result), "made"),
        )

    async def show_puzzle(self, puzzle: Puzzle) -> None:
        """Show `puzzle` from its start, waiting for the player's move."""
        self._drop_job()
        self.note = ""
        self.shape = (puzzle.size, puzzle.k)
        await self._swap_board(puzzle.size)
        self.attempt.start(puzzle)
        self._seen.add(puzzle.key)
        self._restart()

    async def _swap_board(self, size: int) -> None:
        """Put a board of `size` in place of the one showing, if that one has another size."""
        old = self.board
        if old.board_size == size:
            return
        self.attempt.clear()
        await old.remove()
        await self.query_one("#puzzle-main", Horizontal).mount(
            Board(size, id="puzzle-board"), before=0
        )
        self._fit_terminal()

    def _restart(self) -> None:
        """The puzzle from its start (a new try)."""
        self._drop_job()
        puzzle = self.puzzle
        if puzzle is None:
            return
        self.attempt.start()
        self._last_outcome = ""
        self.words = [goal_detail(puzzle)]
        board = self.board
        board.interactive = True
        board.cursor = start_cell(puzzle)
        board.focus()
        self._refresh()

    # -- the player's move -----------------------------------------------------------------------

    @on(Board.CellChosen, "#puzzle-board")
    def on_cell_chosen(self, event: Board.CellChosen) -> None:
        """A cell picked: send the move to the engine, if a move is wanted now."""
        event.stop()
        self._try(event.cell)

    def action_place_digit(self, digit: int) -> None:
        """Digits 1–9 play on 3×3 (1 is top-left, row by row), as in the game."""
        puzzle = self.puzzle
        if puzzle is None:
            return
        if puzzle.size != 3:
            self.notify("Digits play on 3×3 only: use the arrows and Enter, or click.", timeout=3)
            return
        self.board.cursor = digit - 1
        self._try(digit - 1)

    def _try(self, cell: int) -> None:
        """The player's move on `cell`: to the engine, if a move is wanted now."""
        puzzle = self.puzzle
        if puzzle is None or self.has_class("-too-small") or self._scanning:
            return  # moves wait until the board shows (and the scan of the games ends)
        refusal = self.attempt.choose(cell)
        if refusal:
            self.notify(refusal, severity="warning", timeout=3)
            return
        self.board.interactive = False
        self.words = [*self.words, f"You play {cell_notation(cell, puzzle.size)}: checking…"]
        self._refresh()
        self._submit(
            answer_puzzle,
            (puzzle, cell),
            self._answered,
            in_process=puzzle.size <= IN_PROCESS_MAX_SIZE,
        )

    async def _answered(self, reply: PuzzleReply) -> None:
        """The engine's verdict: record the try, then play out the line that follows."""
        if self.puzzle is None:
            return
        puzzle = self.puzzle
        self.attempt.answered(reply)
        if self.store is not None:
            outcome = record_try(self.store, puzzle, reply.correct, self.attempt.hints)
            self.mine = outcome.after
            self._last_outcome = outcome_words(outcome, reply.correct)
        self.words = [self.words[0], verdict_words(puzzle, reply.move, reply.correct, reply.line)]
        if reply.words:
            self.words.append(f"1. {_first_words(puzzle, reply)}")
        self._refresh()
        self._timer = self.set_interval(self.step_seconds, self._step)

    def _step(self) -> None:
        """One more ply of the line on the board, with its sentence; the end when it is done."""
        reply = self.attempt.reply
        if reply is None or self.puzzle is None:
            return
        index = self.attempt.step()
        if index is not None:
            if index < len(reply.words):
                self.words.append(f"{index + 1}. {reply.words[index]}")
            self._refresh()
            return
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if reply.correct:
            self.words.append("Solved!")
        self._refresh()

    def _failed(self, error: str) -> None:
        """A job failed: say so in one line; the puzzle can be tried again."""
        self._waiting_for = ""
        self.notify(f"The engine could not answer: {error}", severity="error")
        if self.phase is PuzzlePhase.CHECKING:
            self._restart()
        else:
            self._refresh()

    async def _found_puzzles(self, puzzles: tuple[Puzzle, ...], where: str) -> None:
        """Puzzles arrived from a job: show the first new one."""
        self._waiting_for = ""
        scanned, self._scanning = self._scanning, ""
        # A puzzle from the player's own game is shown even if the bank's twin was: it is
        # their position, and says so.
        fresh = [p for p in puzzles if where == "games" or p.key not in self._seen]
        if where == "games":
            if not fresh:
                self.note = (
                    f"No puzzles in {scanned} yet: a position where you missed the only win "
                    "or the only defence becomes one."
                )
                self._refresh()
                return
            many = f"{len(fresh)} puzzles" if len(fresh) > 1 else "1 puzzle"
            self._found = fresh + [p for p in self._found if p.key not in {f.key for f in fresh}]
            self._daily = False
            await self.show_puzzle(fresh[0])
            self.note = f"{many} from {scanned}: this is the first" + (
                "; n shows the next." if len(fresh) > 1 else "."
            )
            self._refresh()
            return
        self._found = fresh + [p for p in self._found if p.key not in {f.key for f in fresh}]
        if not fresh:
            self.notify(
                "No new puzzle was found for this board: try another (b).",
                severity="warning",
                timeout=6,
            )
            self._refresh()
            return
        self._daily = False
        await self.show_puzzle(fresh[0])

    # -- keys ------------------------------------------------------------------------------------

    def action_hint(self) -> None:
        """One more hint: the area, then the threat, then the move."""
        if self.attempt.hint():
            self._refresh()

    def action_retry(self) -> None:
        """The same puzzle from its start (a retry is not rated)."""
        if self.puzzle is not None:
            self._restart()

    async def action_next_puzzle(self) -> None:
        """The next puzzle of this board."""
        self._drop_job()
        await self._show_next()

    async def action_daily(self) -> None:
        """The puzzle of the day: the same one all day, on any board."""
        day = self.today or date.today()
        puzzle = puzzle_of_the_day(self.bank, day.toordinal())
        if puzzle is None:
            self.notify(
                "There is no puzzle bank to choose the day's puzzle from.", severity="warning"
            )
            return
        await self.show_puzzle(puzzle)
        self._daily = True
        self._refresh()

    async def action_next_board(self) -> None:
        """Puzzles on the next board (3×3, 4×4 with 3 and 4 in a row, … 15×15)."""
        shapes = list(SHAPES)
        index = shapes.index(self.shape) if self.shape in shapes else -1
        self.shape = shapes[(index + 1) % len(shapes)]
        self._drop_job()
        await self._show_next()

    def action_from_games(self) -> None:
        """Look for puzzles in the player's newest games (in the worker)."""
        if self.store is None:
            self.notify("There is no history to look in.", severity="warning")
            return
        games: list[tuple[int | None, PlayedGame]] = []
        for summary in self.store.games(limit=GAMES_SCANNED):
            if summary.mode == "computer-vs-computer":
                continue
            game = self.store.game(summary.id)
            if game is not None:
                games.append((summary.id, game))
        if not games:
            self.notify("No games with a person in the history yet.", timeout=4)
            return
        self._drop_job()
        self.note = ""
        self._scanning = f"your last {len(games)} games" if len(games) > 1 else "your last game"
        self._start_wait(f"Looking for puzzles in {self._scanning}…")
        self._submit(
            puzzles_in_games,
            (games, 10),
            lambda found: self._found_puzzles(tuple(found), "games"),
            on_progress=self._scanned,
        )

    def _scanned(self, scan: GameScan) -> None:
        """How far the look through the games is, in the status (escape stops it)."""
        if not self._scanning:
            return
        found = f", {scan.found} found" if scan.found else ""
        self._start_wait(
            f"Looking for puzzles in {self._scanning}: move {scan.looked + 1} of {scan.total} "
            f"you played{found}… escape stops."
        )

    def action_cards(self) -> None:
        """Open the "find a better move" cards: your own mistakes, back when due."""
        self.post_message(OpenCards())

    def action_back(self) -> None:
        """Back to where the puzzles were opened from; while `g` looks through the games,
        stop that instead."""
        if self._scanning:
            scanned, self._scanning = self._scanning, ""
            self._drop_job()
            self.note = f"Stopped looking for puzzles in {scanned}: g looks again."
            self._refresh()
            return
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the hint while a move is wanted, and retry once a puzzle is shown."""
        if action == "hint":
            return self.attempt.can_hint
        if action == "retry":
            return self.attempt.can_retry
        return True

    # -- jobs ------------------------------------------------------------------------------------

    def _submit(
        self,
        fn: Callable[[*Ts], T],
        args: tuple[*Ts],
        answer: Callable[[T], Awaitable[None] | None],
        in_process: bool = False,
        on_progress: Callable[[Any], None] | None = None,
    ) -> None:
        """Run a job for this screen in the app's worker; `answer` gets its result (and
        `on_progress` its reports). A newer job (or moving on, or leaving) cancels it, so no
        late answer arrives."""
        self._run_job(fn, args, answer, in_process, on_progress)

    @work(exclusive=True, group="puzzle", exit_on_error=False)
    async def _run_job(
        self,
        fn: Callable[[*Ts], T],
        args: tuple[*Ts],
        answer: Callable[[T], Awaitable[None] | None],
        in_process: bool,
        on_progress: Callable[[Any], None] | None,
    ) -> None:
        try:
            result = await app_thinker(self).run(
                fn, *args, in_process=in_process, on_progress=on_progress
            )
        except JobFailed as error:
            self._failed(str(error))
            return
        handled = answer(result)
        if handled is not None:
            await handled

    def _start_wait(self, words: str) -> None:
        self._waiting_for = words
        self._refresh()

    def _drop_job(self) -> None:
        """Stop the job running for this screen (nothing of it arrives after this), and stop
        playing out a line."""
        self.workers.cancel_group(self, "puzzle")
        self._waiting_for = ""
        self._scanning = ""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.attempt.interrupt()

    # -- drawing ---------------------------------------------------------------------------------

    def _refresh(self) -> None:
        puzzle = self.puzzle
        status = self.query_one("#puzzle-status", Static)
        words = self.query_one("#puzzle-words", Static)
        total = len({p.key for p in self.bank} | {p.key for p in self._found})
        self.query_one("#puzzle-standing", Static).update(standing_words(self.mine, total))
        if puzzle is None or (self._waiting_for and not self.attempt.busy):
            status.update(self._waiting_for or "No puzzle yet.")
            words.update("")
            return
        daily = "Puzzle of the day · " if self._daily else ""
        status.update(f"{daily}{title_words(puzzle)}\n{goal_words(puzzle)}\n{self._prompt()}")
        shown = [self.note, *self.words] if self.note else list(self.words)
        hints = self.attempt.hints
        if self.phase is PuzzlePhase.SOLVING and hints:
            shown += [hint(puzzle, level) for level in range(1, hints + 1)]
        if self._last_outcome and self.phase is PuzzlePhase.DONE:
            shown.append(self._last_outcome)
        words.update("\n\n".join(shown))
        self.query_one("#puzzle-scroll", VerticalScroll).scroll_end(animate=False)
        self._draw_board(puzzle)
        self.refresh_bindings()

    def _prompt(self) -> str:
        return PROMPTS.get(self.phase, "")

    def _draw_board(self, puzzle: Puzzle) -> None:
        position = self.attempt.position() or puzzle.board
        marks = position.marks()
        hints: dict[int, str] = {}
        solving = self.phase is PuzzlePhase.SOLVING
        if solving and self.attempt.hints >= 1:
            hints = {cell: "·" for cell in area(puzzle) if not marks[cell]}
        best = puzzle.answer if solving and self.attempt.hints >= MAX_HINTS else None
        self.board.show(
            marks,
            hints=hints,
            last=self.played[-1] if self.played else None,
            best=best,
            winning=position.winning_line,
        )


PROMPTS = {
    PuzzlePhase.SOLVING: "Your move: click a cell, or the arrows and Enter. h: a hint.",
    PuzzlePhase.CHECKING: "The engine checks your move…",
    PuzzlePhase.PLAYING: "Playing out the line…",
    PuzzlePhase.DONE: "r: try again · n: next puzzle · d: the puzzle of the day · b: board",
}
"""What the player can do in each phase of a try."""


def start_cell(puzzle: Puzzle) -> int:
    """Where the cursor starts: on the stone nearest the centre (the centre first), so Enter
    alone plays nothing and where it starts says nothing about the answer."""
    size = puzzle.size
    centre = (size - 1) / 2
    stones = [cell for cell in range(size * size) if puzzle.board[cell] is not None]
    return min(
        stones,
        key=lambda cell: (abs(cell // size - centre) + abs(cell % size - centre), cell),
        default=(size // 2) * (size + 1),
    )


def _first_words(puzzle: Puzzle, reply: PuzzleReply) -> str:
    """The sentence of the move tried (a "hold" answer says it is the one that holds)."""
    if reply.correct:
        return explanation(puzzle, reply.line[:1])[0]
    return reply.words[0]


def _puzzles_of(result: Generation) -> tuple[Puzzle, ...]:
    return result.puzzles
