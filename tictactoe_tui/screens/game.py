"""The Game screen: the board, the status line, the evaluation panel, the scoreboard, the moves.

The screen owns the engine's `Game`. A player's pick arrives as `Board.CellChosen`; the screen
checks it, plays it, and when the computer is to move asks it in a thread worker, whose answer
comes back as `ComputerMoved` tagged with a token. Every new game, undo, cancel or settings visit
bumps the token and sets the search's stop event, so an answer that arrives late is dropped and a
cancelled search returns at once. The widgets only draw what this screen hands them.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import (
    Decision,
    Game,
    IllegalMove,
    Mark,
    Player,
    make_player,
)
from tictactoe_tui.engine.board import cell_notation, cell_words
from tictactoe_tui.engine.search import analyse_position
from tictactoe_tui.messages import ComputerMoved, HintReady, SearchFailed
from tictactoe_tui.report import (
    ALGORITHM_NAMES,
    algorithm_name,
    build_report,
    score_hints,
    score_words,
    terms_after,
    terms_lines,
)
from tictactoe_tui.screens.results import ResultsScreen
from tictactoe_tui.session import SessionScore
from tictactoe_tui.widgets import (
    Board,
    EvalPanel,
    MoveList,
    Scoreboard,
)
from tictactoe_tui.widgets.board import board_size_on_screen

if TYPE_CHECKING:
    from tictactoe_tui.settings import GameSettings

CVC_PAUSE = 0.6
"""Seconds between moves when two computers play, so a person can follow (never 0: it raises)."""
STATUS_HEIGHT = 3
PANEL_MIN_WIDTH = 46
MIN_WIDTH = 60
SCOREBOARD_HEIGHT = 3
FOOTER_HEIGHT = 1



class _SessionApp(Protocol):
    """What the screen needs from the app (TicTacToeApp provides it)."""

    session: SessionScore

    def open_settings(self) -> None:
        """Show the Settings screen."""


def needed_terminal(size: int, panel: bool = True) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows a size×size game without clipping."""
    board_width, board_height = board_size_on_screen(size)
    width = max(MIN_WIDTH, board_width + (PANEL_MIN_WIDTH if panel else 0))
    height = STATUS_HEIGHT + board_height + SCOREBOARD_HEIGHT + FOOTER_HEIGHT
    return width, height


class GameScreen(Screen[None]):
    """One game at a time with the given settings; `n` starts the next one on the same screen."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #status {
        height: 3;
        padding: 0 1;
        background: $boost;
    }
    GameScreen #game-main { height: 1fr; }
    GameScreen #game-left { width: auto; height: 1fr; }
    GameScreen #scoreboard { width: 100%; }
    GameScreen #move-list { width: 100%; height: 1fr; max-height: 100%; }
    GameScreen #eval-panel { width: 1fr; }
    GameScreen #too-small {
        display: none;
        height: 1fr;
        content-align: center middle;
        text-align: center;
        color: $text-warning;
        text-style: bold;
        padding: 1 2;
    }
    GameScreen.-too-small #game-main, GameScreen.-too-small #status { display: none; }
    GameScreen.-too-small #too-small { display: block; }
    GameScreen.-no-panel #eval-panel { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
        Binding("c", "toggle_clever", "Clever/random"),
        Binding("n", "new_game", "New"),
        Binding("u", "undo", "Undo"),
        Binding("h", "hint", "Hint"),
        Binding("e", "toggle_panel", "Panel"),
        Binding("v", "toggle_scores", "Scores"),
        Binding("s", "settings", "Settings"),
        Binding("space", "toggle_pause", "Pause", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, settings: GameSettings) -> None:
        """Prepare a game with `settings`; it starts when the screen is shown."""
        super().__init__()
        self.settings = settings
        """The settings this screen plays with."""
        self.clever = True
        """Whether the computer plays its clever move (`c` switches it to random and back)."""
        self.game = self._fresh_game()
        """The game being played."""
        self.paused = False
        """Computer-vs-computer only: True while space holds the next move back."""
        self.thinking: str | None = None
        """"computer" or "hint" while a search runs in the worker, else None."""
        # The rng lives as long as the screen, so a seed reproduces a whole session of games.
        self._rng = random.Random(settings.seed)
        self._player = self._make_player()
        self._token = 0
        self._stop = threading.Event()
        self._timer: Timer | None = None
        self._recorded = False
        self._report_hints: dict[int, str] = {}
        self._hints_for: Mark | None = None
        self._best: int | None = None
        self._show_scores = True
        self._last_line = ""
        self._notice = ""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status on top, the board with the score and moves on the left, the panel on the right."""
        yield Static("", id="status", markup=False)
        with Horizontal(id="game-main"):
            with Vertical(id="game-left"):
                yield Board(self.settings.size, id="board")
                yield Scoreboard(self._session.tally(self.settings.mode), id="scoreboard")
                yield MoveList(id="move-list")
            yield EvalPanel(id="eval-panel")
        yield Static("", id="too-small", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Draw the empty board and let the computer open if it moves first."""
        board = self.query_one(Board)
        board.interactive = self.settings.mode != "computer-vs-computer"
        board.cursor = (self.settings.size // 2) * (self.settings.size + 1)
        board.focus()
        self._fit_terminal()
        self._refresh_all()
        self._next_turn()

    def on_resize(self, event: events.Resize) -> None:
        """Swap the game for an "enlarge the terminal" message when it no longer fits."""
        self._fit_terminal()

    def on_screen_resume(self) -> None:
        """Back from help or settings: carry on if the computer was interrupted."""
        self.query_one(Board).focus()
        # A finished game is the Results dialog's business: resuming must not reopen it.
        if self.thinking is None and not self.game.is_over:
            self._next_turn()

    def on_unmount(self) -> None:
        """Stop a running search: a thread cannot be killed, so it must be asked to return."""
        self._cancel_search()

    def _fit_terminal(self) -> None:
        width, height = needed_terminal(self.settings.size, not self.has_class("-no-panel"))
        have = self.app.size
        too_small = have.width < width or have.height < height
        self.set_class(too_small, "-too-small")
        if too_small:
            size = self.settings.size
            self.query_one("#too-small", Static).update(
                f"Enlarge the terminal: a {size}×{size} board needs at least {width}×{height} "
                f"characters, and this one is {have.width}×{have.height}.\n\n"
                "(e hides the evaluation panel; s opens settings for a smaller board; q quits.)"
            )

    # -- who is who -----------------------------------------------------------------------------

    @property
    def _session(self) -> SessionScore:
        app: Any = self.app
        session: SessionScore = app.session
        return session

    def _who(self, mark: Mark) -> str:
        """A player's name for the status line: "You (X)", "Computer (O)", "X"."""
        if self.settings.mode == "human-vs-computer":
            return f"Computer ({mark})" if self.settings.is_computer(mark) else f"You ({mark})"
        if self.settings.mode == "computer-vs-computer":
            return f"Computer {mark}"
        return str(mark)

    def _fresh_game(self) -> Game:
        """An empty game of this screen's size, k and first mark."""
        return Game(self.settings.size, self.settings.win_length, self.settings.first_mark)

    def _make_player(self) -> Player:
        settings = self.settings
        return make_player(
            settings.opponent,
            rng=self._rng,
            difficulty=settings.difficulty,
            time_limit=settings.search_time_limit,
            clever=self.clever,
            depth=settings.depth,
        )

    def _style_words(self) -> str:
        """How the computer plays: "alpha-beta, clever" / "random (alpha-beta advising)"."""
        algorithm = ALGORITHM_NAMES[self.settings.opponent]
        if self.settings.opponent == "random":
            return "random"
        if not self.clever:
            return f"random for now; c brings back {algorithm}"
        if self.settings.difficulty < 100:
            return f"{algorithm}, clever {self.settings.difficulty}% of the time"
        return f"{algorithm}, clever"

    # -- the turn cycle -------------------------------------------------------------------------

    def _next_turn(self) -> None:
        """Finish the game, start the computer, or wait for a human, as the position asks."""
        if self.game.is_over:
            self._finish()
            return
        mover = self.game.board.to_move
        if not self.settings.is_computer(mover) or self.thinking is not None:
            self._refresh_status()
            return
        if self.settings.mode == "computer-vs-computer":
            if self.paused or self._timer is not None:
                self._refresh_status()
                return
            self._timer = self.set_timer(CVC_PAUSE, self._cvc_tick)
            self._refresh_status()
            return
        self._start_search("computer")

    def _cvc_tick(self) -> None:
        self._timer = None
        if not self.paused and not self.game.is_over and self.thinking is None:
            self._start_search("computer")

    def _start_search(self, kind: str) -> None:
        self._cancel_search()
        self._token += 1
        self._stop = threading.Event()
        self.thinking = kind
        if kind == "computer":
            self._think(self._player, self.game.board, self._token, self._stop)
        else:
            self._analyse(self.game.board, self._token, self._stop)
        self._refresh_status()

    def _cancel_search(self) -> None:
        """Drop whatever the worker is doing: its answer will carry a stale token."""
        self._stop.set()
        self._token += 1
        self.thinking = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.workers.cancel_group(self, "ai")

    @work(thread=True, exclusive=True, exit_on_error=False, group="ai")
    def _think(self, player: Player, position: Position, token: int,
               stop: threading.Event) -> None:
        """Ask the computer for a move, off the UI thread, and post the decision back."""
        should_stop = _stop_check(stop)
        try:
            decision = player.choose(position, should_stop)
        except Exception as error:  # shown to the user: no traceback may reach the screen
            self.post_message(SearchFailed(f"{type(error).__name__}: {error}", token))
            return
        self.post_message(ComputerMoved(decision, token))

    @work(thread=True, exclusive=True, exit_on_error=False, group="ai")
    def _analyse(self, position: Position, token: int, stop: threading.Event) -> None:
        """Analyse the position for a hint, off the UI thread, and post the analysis back."""
        should_stop = _stop_check(stop)
        algorithm = self._hint_algorithm()
        try:
            analysis = analyse_position(position, algorithm,
                                        time_limit=self.settings.search_time_limit,
                                        should_stop=should_stop)
        except Exception as error:  # shown to the user: no traceback may reach the screen
            self.post_message(SearchFailed(f"{type(error).__name__}: {error}", token))
            return
        self.post_message(HintReady(analysis, token))

    def _hint_algorithm(self) -> str:
        # Hints use the opponent's own algorithm so a learner compares like with like; the
        # random opponent has none, so alpha-beta (exact on 3×3, fast elsewhere) stands in.
        opponent = self.settings.opponent
        return "alphabeta" if opponent == "random" else opponent

    def on_computer_moved(self, message: ComputerMoved) -> None:
        """Play the computer's move, unless it answers a question nobody is asking any more."""
        if message.token != self._token or self.thinking != "computer":
            return
        self.thinking = None
        decision = message.decision
        before = self.game.board
        try:
            self.game.play(decision.move)
        except IllegalMove as error:
            self._say(f"The computer tried an illegal move: {error}")
            return
        self._show_decision(decision, before)
        self._last_line = (f"{self._who(before.to_move)} played "
                           f"{cell_notation(decision.move, before.size)}: "
                           f"{'clever' if decision.clever else 'random'} — {decision.reason}")
        self._notice = ""
        self._refresh_all()
        self._next_turn()

    def on_hint_ready(self, message: HintReady) -> None:
        """Show the hint in the panel and light its best cell."""
        if message.token != self._token or self.thinking != "hint":
            return
        self.thinking = None
        position = self.game.board
        analysis = message.analysis
        if not analysis.scores:
            self._say("No hint: the search stopped before scoring a move.")
            return
        best = analysis.scores[0]
        name = cell_notation(best.move, position.size)
        words = f"{score_words(best.score, position, best.exact)}, score {best.score}"
        report = build_report(
            f"Hint for {position.to_move}: {name} ({words})", analysis, position, best.move,
            verdict=f"The best move for {position.to_move} by {algorithm_name(analysis)}.",
            terms=terms_after(analysis.algorithm, position, best.move),
        )
        self.query_one(EvalPanel).show(report)
        self._report_hints = score_hints(analysis)
        self._hints_for = position.to_move
        self._best = best.move
        self._notice = f"Hint: {name} ({words})."
        self._refresh_all()

    def on_search_failed(self, message: SearchFailed) -> None:
        """A search raised: say so, and let the people carry on."""
        if message.token != self._token:
            return
        self.thinking = None
        self._say(f"The search failed: {message.error}")

    # -- players' moves -------------------------------------------------------------------------

    @on(Board.CellChosen, "#board")
    def on_cell_chosen(self, message: Board.CellChosen) -> None:
        """A click or Enter on a cell: play it if the rules and the turn allow."""
        self._human_move(message.cell)

    def action_place_digit(self, digit: int) -> None:
        """Digits 1–9 place a mark on 3×3: 1 is top-left, row by row."""
        if self.settings.size != 3:
            self._say("Digits place marks on 3×3 only: use the arrows and Enter, or click.")
            return
        self.query_one(Board).cursor = digit - 1
        self._human_move(digit - 1)

    def _human_move(self, cell: int) -> None:
        position = self.game.board
        size = position.size
        if self.settings.mode == "computer-vs-computer":
            self._say("Two computers are playing: space pauses, n starts a new game.")
            return
        if self.thinking == "computer":
            self._say("Wait: the computer is still thinking. Your move was not played.")
            return
        if self.settings.is_computer(position.to_move):
            self._say("It is the computer's turn.")
            return
        taken = position[cell] if 0 <= cell < size * size else None
        if taken is not None:
            name = f"{cell_notation(cell, size)} ({cell_words(cell, size)})"
            self._say(f"{name} is taken by {taken}.")
            return
        try:
            self.game.play(cell)
        except IllegalMove as error:
            self._say(str(error))
            return
        if self.thinking == "hint":
            self._cancel_search()
        self._last_line = f"{self._who(position.to_move)} played {cell_notation(cell, size)}."
        self._notice = ""
        self._report_hints = {}
        self._best = None
        self._refresh_all()
        self._next_turn()

    def _show_decision(self, decision: Decision, before: Position) -> None:
        """Put the computer's reasoning in the panel and its scores in the empty cells."""
        panel = self.query_one(EvalPanel)
        mover = before.to_move
        name = cell_notation(decision.move, before.size)
        analysis = decision.analysis
        self._best = decision.move
        if analysis is None or not analysis.scores:
            self._report_hints = {}
            panel.clear(f"{self._who(mover)} played {name} at random: a random player does "
                        "not search, so there are no scores to show.")
            return
        if decision.clever:
            verdict = f"A clever move: {decision.reason}."
        elif decision.reason.startswith("random move"):
            # The reason repeats "random move"; keep only what it adds, e.g. "(difficulty 70)".
            verdict = f"A random move{decision.reason.removeprefix('random move')}."
        else:
            verdict = f"A random move ({decision.reason})."
        if not decision.clever:
            best = cell_notation(analysis.scores[0].move, before.size)
            verdict += f" The clever move was {best}."
        report = build_report(
            f"{self._who(mover)} played {name}", analysis, before, decision.move,
            verdict=verdict,
            terms=terms_lines(decision.terms, name, before.k) if decision.terms else (),
        )
        panel.show(report)
        self._report_hints = score_hints(analysis)
        self._hints_for = mover

    # -- the end of a game ----------------------------------------------------------------------

    def _finish(self) -> None:
        result = self.game.result
        if result is None:
            return
        self.query_one(Board).interactive = False
        if not self._recorded:
            self._recorded = True
            self._session.record(result, self.settings)
        tally = self._session.tally(self.settings.mode)
        self.query_one(Scoreboard).show(tally)
        self._refresh_board()
        self._refresh_status()
        self.app.push_screen(
            ResultsScreen(self._headline(result.winner), self._result_detail(), tally),
            self._after_results,
        )

    def _headline(self, winner: Mark | None) -> str:
        if winner is None:
            return "Draw"
        if self.settings.mode == "human-vs-computer":
            return "Computer wins" if self.settings.is_computer(winner) else "You win!"
        return f"{winner} wins"

    def _result_detail(self) -> str:
        result = self.game.result
        moves = len(self.game.moves)
        if result is None or result.winner is None:
            return f"The board is full after {moves} moves."
        size = self.game.size
        first, last = result.line[0], result.line[-1]
        return (f"{result.winner} made {len(result.line)} in a row, "
                f"{cell_notation(first, size)} to {cell_notation(last, size)}, in {moves} moves.")

    def _after_results(self, choice: str | None) -> None:
        # The dialog calls this before it is popped: act once it is gone, or a screen pushed
        # now (settings) would be the one popped.
        if choice == "settings":
            self.call_later(self.action_settings)
        elif choice == "quit":
            self.call_later(self.action_quit_game)
        else:
            self.call_later(self.action_new_game)

    # -- key actions ----------------------------------------------------------------------------

    def action_new_game(self) -> None:
        """Start again with the same settings; a running search is dropped at once."""
        self._cancel_search()
        self.game = self._fresh_game()
        self._recorded = False
        self.paused = False
        self._report_hints = {}
        self._best = None
        self._last_line = ""
        self._notice = "New game."
        board = self.query_one(Board)
        board.interactive = self.settings.mode != "computer-vs-computer"
        self.query_one(EvalPanel).clear()
        self.query_one(Scoreboard).show(self._session.tally(self.settings.mode))
        self._refresh_all()
        self._next_turn()

    def action_toggle_clever(self) -> None:
        """Switch the computer between clever and random, from its next move."""
        if self.settings.mode == "human-vs-human":
            self._say("No computer plays in a game between two people.")
            return
        self.clever = not self.clever
        self._player = self._make_player()
        mode = "clever" if self.clever else "random"
        self.query_one(EvalPanel).border_subtitle = f"computer: {mode}"
        later = " (from its next move)" if self.thinking == "computer" else ""
        self._say(f"The computer now plays {mode}{later}.")

    def action_undo(self) -> None:
        """Take back the last move; against the computer, your last move and its reply."""
        if self.settings.mode == "computer-vs-computer":
            self._say("Undo takes back a person's move: there is none in this game.")
            return
        game = self.game
        if self.settings.mode == "human-vs-human":
            undone = 1 if game.can_undo else 0
        else:
            # Take back the computer's replies, then the human's move before them.
            human = self.settings.human_mark
            marks = [self._mark_of(i) for i in range(len(game.moves))]
            if human not in marks:
                self._say("Nothing to undo: you have not moved yet.")
                return
            undone = len(marks) - max(i for i, m in enumerate(marks) if m is human)
        if undone == 0:
            self._say("Nothing to undo: no move has been played.")
            return
        self._cancel_search()
        taken = [game.undo() for _ in range(undone)]
        names = ", ".join(cell_notation(cell, game.size) for cell in reversed(taken))
        self._report_hints = {}
        self._best = None
        self._last_line = ""
        self.query_one(EvalPanel).clear("Move taken back. Press h to analyse this position.")
        self._say(f"Took back {names}.")
        self._refresh_all()
        self._next_turn()

    def _mark_of(self, index: int) -> Mark:
        """The mark that made the game's move number `index` (0-based): the sides alternate."""
        first = self.game.first
        return first if index % 2 == 0 else first.opponent

    def action_hint(self) -> None:
        """Analyse the position of the side to move and show it in the panel."""
        if self.game.is_over:
            return
        if self.thinking == "computer" or self.settings.is_computer(self.game.board.to_move):
            self._say("The computer's own analysis will show in the panel when it moves.")
            return
        self._notice = ""       # the turn line says "Analysing X's position…" while it runs
        self._start_search("hint")

    def action_toggle_panel(self) -> None:
        """Show or hide the evaluation panel."""
        self.toggle_class("-no-panel")
        self._fit_terminal()

    def action_toggle_scores(self) -> None:
        """Show or hide the scores written faintly in the empty cells."""
        self._show_scores = not self._show_scores
        self._say("Scores on the board " + ("shown." if self._show_scores else "hidden."))
        self._refresh_board()

    def action_toggle_pause(self) -> None:
        """Pause or resume a game between two computers."""
        if self.settings.mode != "computer-vs-computer" or self.game.is_over:
            return
        self.paused = not self.paused
        if self.paused and self._timer is not None:
            self._timer.stop()
            self._timer = None
        # The turn line already says "Paused: space resumes"; only resuming needs a word.
        self._notice = "" if self.paused else "Resumed."
        self._next_turn()
        self._refresh_status()

    def action_settings(self) -> None:
        """Open the Settings screen; the search stops and restarts when you come back."""
        self._cancel_search()
        app: _SessionApp = self.app  # type: ignore[assignment]
        app.open_settings()

    def action_quit_game(self) -> None:
        """Stop any search and quit."""
        self._cancel_search()
        self.app.exit()

    # -- drawing --------------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        """Show a notice in the status line (and as a toast, so it is seen)."""
        self._notice = text
        self.notify(text, timeout=3)
        self._refresh_status()

    def _refresh_all(self) -> None:
        self._refresh_board()
        self._refresh_status()
        self._refresh_moves()

    def _refresh_board(self) -> None:
        position = self.game.board
        cells = position.size * position.size
        marks = [str(position[i] or "") for i in range(cells)]
        legend = ""
        if self._show_scores and self._report_hints:
            hints = self._report_hints
            legend = f"scores for {self._hints_for} (v hides)"
        elif position.size == 3 and self.settings.mode != "computer-vs-computer":
            # Without scores, 3×3 cells show the digit that plays them.
            hints = {i: str(i + 1) for i in range(cells)}
        else:
            hints = {}
        result = self.game.result
        board = self.query_one(Board)
        board.border_subtitle = legend
        board.show(
            marks,
            hints=hints,
            last=self.game.moves[-1] if self.game.moves else None,
            best=self._best if self._show_scores else None,
            winning=result.line if result else (),
        )

    def _refresh_moves(self) -> None:
        size = self.game.size
        moves = [(str(self._mark_of(i)), cell_notation(cell, size))
                 for i, cell in enumerate(self.game.moves)]
        self.query_one(MoveList).show(moves)

    def _refresh_status(self) -> None:
        self.query_one("#status", Static).update(self._status_content())

    def _status_content(self) -> Content:
        settings = self.settings
        if settings.mode == "human-vs-computer":
            players = (f"You: {settings.human_mark}   Computer: {settings.computer_mark} "
                       f"({self._style_words()})")
        elif settings.mode == "computer-vs-computer":
            players = f"Computer X vs computer O ({self._style_words()})"
        else:
            players = "X vs O, two players at one keyboard (h: hint)"
        board = self.game.board
        if self.game.is_over:
            result = self.game.result
            turn = "Game over: " + self._headline(result.winner if result else None)
        elif self.thinking == "computer":
            turn = f"{self._who(board.to_move)} is thinking…"
        elif self.thinking == "hint":
            turn = f"Analysing {board.to_move}'s position…"
        elif settings.mode == "computer-vs-computer":
            turn = ("Paused: space resumes" if self.paused
                    else f"{self._who(board.to_move)} to move")
        elif settings.mode == "human-vs-computer":
            turn = f"Your turn ({board.to_move})"
        else:
            turn = f"{board.to_move} to move"
        parts: list[str | tuple[str, str]] = [(players, "bold"), "\n", (turn, "bold $accent")]
        if self._notice:
            parts += ["   ", (self._notice, "$text-warning")]
        parts += ["\n", ("Last: " + self._last_line if self._last_line else "", "")]
        return Content.assemble(*parts)


# -- the worker's stop check -------------------------------------------------------------------


def _stop_check(stop: threading.Event) -> Callable[[], bool]:
    """The search's should_stop: the screen's event, or the worker being cancelled."""
    worker = get_current_worker()
    return lambda: stop.is_set() or worker.is_cancelled
