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
`play.puzzle_try.PuzzleTry`'s to decide; where the puzzles come from (the bank, those made or
found, those shown) is `play.puzzle_shelf`'s, what is shown of a try `play.puzzle_view`'s, and
the keys (the screen's base) are `ui.screens.puzzle_keys`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from tictactoe_tui.engine.puzzles.proven import (
    SHAPES,
    Generation,
    Puzzle,
    default_k,
    load_bank,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.puzzles import (
    GameScan,
    Standing,
    record_try,
    standing,
)
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.puzzle_shelf import (
    PuzzleShelf,
    found_words,
    games_to_scan,
    next_shape,
)
from tictactoe_tui.play.puzzle_try import PuzzlePhase, PuzzleTry
from tictactoe_tui.play.puzzle_view import board_hints, side_text, status_text
from tictactoe_tui.text.game import board_words
from tictactoe_tui.text.puzzles import (
    explanation,
    goal_detail,
    outcome_words,
    standing_words,
    verdict_words,
)
from tictactoe_tui.ui.jobs import submit_job
from tictactoe_tui.ui.screens.puzzle_keys import PuzzleKeys
from tictactoe_tui.ui.widgets import Board
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.jobs import PuzzleReply, answer_puzzle, find_puzzles, puzzles_in_games

STEP_SECONDS = 0.7
"""Seconds between two plies of a line played out on the board (slow enough to read)."""

IN_PROCESS_MAX_SIZE = 4
"""Boards up to this size are answered in a thread here: a few milliseconds, no worker needed."""

SIDE_MIN_WIDTH = 34
"""The narrowest the words beside the board may be."""

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


class PuzzleScreen(PuzzleKeys):
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
        self.shelf = PuzzleShelf(load_bank() if bank is None else bank)
        """The puzzles to choose from, those shown, and the look through the games."""
        self.today = today
        self.attempt = PuzzleTry()
        """The puzzle shown and the try at it: its phase, hints, the moves shown."""
        self.words: list[str] = []
        """The sentences shown beside the board."""
        self.mine = Standing()
        self._waiting_for = ""
        self._timer: Timer | None = None
        self._last_outcome = ""

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
        puzzle = self.shelf.next(self.mine, self.shape)
        if puzzle is None:
            await self._swap_board(self.shape[0])
            self._make_more()
            return
        self.shelf.daily = False
        await self.show_puzzle(puzzle)

    def _make_more(self) -> None:
        """Every puzzle of this board was solved or shown: make new ones in the worker."""
        size, k = self.shape
        self._start_wait(f"Making new {board_words(size, k)} puzzles (every one proven)…")
        seed = self.shelf.seed(self.mine, self.shape)
        # Always in the worker: even a 4×4 batch searches for a second or so, which a thread
        # here would take from the keys.
        submit_job(
            self,
            "puzzle",
            find_puzzles,
            (size, k, MORE_PUZZLES, seed),
            lambda result: self._found_puzzles(_puzzles_of(result), "made"),
            self._failed,
        )

    async def show_puzzle(self, puzzle: Puzzle) -> None:
        """Show `puzzle` from its start, waiting for the player's move."""
        self._drop_job()
        self.shelf.shown(puzzle)
        self.shape = (puzzle.size, puzzle.k)
        await self._swap_board(puzzle.size)
        self.attempt.start(puzzle)
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

    def _try(self, cell: int) -> None:
        """The player's move on `cell`: to the engine, if a move is wanted now."""
        puzzle = self.puzzle
        if puzzle is None or self.has_class("-too-small") or self.shelf.scanning:
            return  # moves wait until the board shows (and the scan of the games ends)
        refusal = self.attempt.choose(cell)
        if refusal:
            self.notify(refusal, severity="warning", timeout=3)
            return
        self.board.interactive = False
        self.words = [*self.words, f"You play {cell_notation(cell, puzzle.size)}: checking…"]
        self._refresh()
        submit_job(
            self,
            "puzzle",
            answer_puzzle,
            (puzzle, cell),
            self._answered,
            self._failed,
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
        """Puzzles arrived from a job: show the first new one (from the games: with what the
        look found, or why nothing)."""
        self._waiting_for = ""
        scanned = self.shelf.end_scan()
        from_games = where == "games"
        fresh = self.shelf.take(puzzles, from_games)
        if fresh:
            self.shelf.daily = False
            await self.show_puzzle(fresh[0])
        if from_games:
            self.shelf.note = found_words(fresh, scanned)
            self._refresh()
        elif not fresh:
            self.notify(
                "No new puzzle was found for this board: try another (b).",
                severity="warning",
                timeout=6,
            )
            self._refresh()

    # -- keys ------------------------------------------------------------------------------------

    async def action_next_puzzle(self) -> None:
        """The next puzzle of this board."""
        self._drop_job()
        await self._show_next()

    async def action_daily(self) -> None:
        """The puzzle of the day: the same one all day, on any board."""
        puzzle = self.shelf.of_the_day(self.today or date.today())
        if puzzle is None:
            self.notify(
                "There is no puzzle bank to choose the day's puzzle from.", severity="warning"
            )
            return
        await self.show_puzzle(puzzle)
        self.shelf.daily = True
        self._refresh()

    async def action_next_board(self) -> None:
        """Puzzles on the next board (3×3, 4×4 with 3 and 4 in a row, … 15×15)."""
        self.shape = next_shape(self.shape)
        self._drop_job()
        await self._show_next()

    def action_from_games(self) -> None:
        """Look for puzzles in the player's newest games (in the worker)."""
        if self.store is None:
            self.notify("There is no history to look in.", severity="warning")
            return
        games = games_to_scan(self.store)
        if not games:
            self.notify("No games with a person in the history yet.", timeout=4)
            return
        self._drop_job()
        self._start_wait(self.shelf.start_scan(len(games)))
        submit_job(
            self,
            "puzzle",
            puzzles_in_games,
            (games, 10),
            lambda found: self._found_puzzles(tuple(found), "games"),
            self._failed,
            on_progress=self._scanned,
        )

    def _scanned(self, scan: GameScan) -> None:
        """How far the look through the games is, in the status (escape stops it)."""
        if self.shelf.scanning:
            self._start_wait(self.shelf.scan_words(scan))

    def action_back(self) -> None:
        """Back to where the puzzles were opened from; while `g` looks through the games,
        stop that instead."""
        if self.shelf.scanning:
            scanned = self.shelf.end_scan()
            self._drop_job()
            self.shelf.note = f"Stopped looking for puzzles in {scanned}: g looks again."
            self._refresh()
            return
        self.dismiss()

    # -- jobs ------------------------------------------------------------------------------------

    def _start_wait(self, words: str) -> None:
        self._waiting_for = words
        self._refresh()

    def _drop_job(self) -> None:
        """Stop the job running for this screen (nothing of it arrives after this), and stop
        playing out a line."""
        self.workers.cancel_group(self, "puzzle")
        self._waiting_for = ""
        self.shelf.scanning = ""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.attempt.interrupt()

    # -- drawing ---------------------------------------------------------------------------------

    def _refresh(self) -> None:
        puzzle = self.puzzle
        status = self.query_one("#puzzle-status", Static)
        words = self.query_one("#puzzle-words", Static)
        self.query_one("#puzzle-standing", Static).update(
            standing_words(self.mine, self.shelf.total)
        )
        if puzzle is None or (self._waiting_for and not self.attempt.busy):
            status.update(self._waiting_for or "No puzzle yet.")
            words.update("")
            return
        status.update(status_text(self.attempt, puzzle, self.shelf.daily))
        words.update(
            side_text(self.attempt, puzzle, self.shelf.note, self.words, self._last_outcome)
        )
        self.query_one("#puzzle-scroll", VerticalScroll).scroll_end(animate=False)
        self._draw_board(puzzle)
        self.refresh_bindings()

    def _draw_board(self, puzzle: Puzzle) -> None:
        position = self.attempt.position() or puzzle.board
        marks = position.marks()
        hints, best = board_hints(self.attempt, puzzle, marks)
        self.board.show(
            marks,
            hints=hints,
            last=self.played[-1] if self.played else None,
            best=best,
            winning=position.winning_line,
        )


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
