"""The Game screen: the status line over a position view (board, scoreboard, moves, panel).

The screen owns the engine's `Game` and plays it turn by turn. A player's pick arrives as
`Board.CellChosen` (or a digit on 3×3); the screen checks it and plays it. When the computer is
to move, the screen sends the search to the app's `Thinker` (a worker process; small 3×3
searches run in a thread here): its progress comes back as `SearchProgress` a few times a
second and is shown live (depth, positions, time against the budget, the best line drawn on the
board), then the decision as `ComputerMoved`. On a person's turn the same machinery scores
every move for them in the background (the faint scores on the board, `v` hides them); `h`
shows that analysis in the panel as a hint. Every message carries the token of its request:
a new game, an undo, a pause or a visit to the settings bumps the token and cancels the job,
so a late answer is dropped. A failed search is said in one line and the game goes on.

When a game ends the screen posts `GameEnded` with the whole game (the app keeps it in the
history), the session score counts it, and the Results dialog opens over the board (Escape
closes it to look at the board and the panel); a game left unfinished (new game, new settings,
quit) is posted as abandoned. The lab's screens open from here on the position of the moment.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from tictactoe_tui.engine import Analysis, Decision, Game, IllegalMove, Mark, Player, make_player
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.board import cell_notation, cell_words
from tictactoe_tui.history.record import Outcome
from tictactoe_tui.play.log import GameLog
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.text.panel import ThinkingReport
from tictactoe_tui.text.report import (
    ALGORITHM_NAMES,
    algorithm_name,
    build_report,
    score_hints,
    score_words,
    terms_after,
    terms_lines,
    thinking_report,
)
from tictactoe_tui.ui.messages import (
    ComputerMoved,
    GameEnded,
    HintReady,
    SearchFailed,
    SearchProgress,
)
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import Board, PositionView, Scoreboard
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall
from tictactoe_tui.worker.client import Job, Thinker
from tictactoe_tui.worker.jobs import choose_move, clever_analysis

if TYPE_CHECKING:
    from tictactoe_tui.play.settings import GameSettings

CVC_PAUSE = 0.6
"""Seconds between moves when two computers play, so a person can follow (never 0: it raises)."""
STATUS_HEIGHT = 3
PANEL_MIN_WIDTH = 46
MIN_WIDTH = 60
SCOREBOARD_HEIGHT = 5
FOOTER_HEIGHT = 1

WAITING_TWO_PEOPLE = "No analysis yet: press h to score every move of the side to move."
"""The panel's first words in a game between two people (no computer explains anything)."""


class _GameApp(Protocol):
    """What the screen needs from the app (TicTacToeApp provides it)."""

    session: SessionScore
    thinker: Thinker

    def open_settings(self) -> None:
        """Show the Settings screen."""

    def open_match(self) -> None:
        """Show the match runner."""

    def all_time(self, settings: GameSettings) -> tuple[tuple[str, int], ...]:
        """The all-time score of games like this one."""

    def review_last_game(self) -> None:
        """Review the game that just ended."""


def needed_terminal(size: int, panel: bool = True) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows a size×size game without clipping."""
    board_width, board_height = board_size_on_screen(size)
    width = max(MIN_WIDTH, board_width + (PANEL_MIN_WIDTH if panel else 0))
    height = STATUS_HEIGHT + board_height + SCOREBOARD_HEIGHT + FOOTER_HEIGHT
    return width, height


def runs_in_process(size: int, algorithm: str) -> bool:
    """Whether a search is small enough to run here rather than in the worker process.

    Measured with `python scripts/worker_start.py`: a 3×3 alpha-beta or heuristic search takes
    well under 10 ms, too short to slow the UI, and running it here needs no worker (the first
    move never waits for the process to start). Minimax on 3×3 takes up to 1.5 s: the worker.
    """
    return size == 3 and algorithm != "minimax"


class GameScreen(Screen[None]):
    """One game at a time with the given settings; `n` starts the next one on the same screen."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #status {
        height: 3;
        padding: 0 1;
        background: $boost;
    }
    GameScreen #scoreboard { width: 100%; }
    GameScreen.-too-small #position, GameScreen.-too-small #status { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
        Binding("c", "toggle_clever", "Clever/random"),
        Binding("n", "new_game", "New"),
        Binding("u", "undo", "Undo"),
        Binding("h", "hint", "Hint"),
        Binding("e", "toggle_panel", "Panel"),
        Binding("v", "toggle_scores", "Scores"),
        # Not in the footer (it would push "? Help" off a 100-column one): the board's caption
        # and the panel say "p".
        Binding("p", "toggle_lines", "Line", show=False),
        Binding("s", "settings", "Settings"),
        Binding("a", "compare", "Compare", show=False),
        Binding("t", "search_tree", "Search tree", show=False),
        Binding("m", "match", "Match runner", show=False),
        Binding("w", "heuristics", "Heuristic lab", show=False),
        Binding("space", "toggle_pause", "Pause", show=False),
        Binding("q", "quit_game", "Quit"),
        Binding("y", "confirm_quit", "Yes, quit", show=False),
    ]

    def __init__(self, settings: GameSettings, moves: Sequence[int] = ()) -> None:
        """Prepare a game with `settings`, from the position `moves` lead to (default: the
        empty board); it starts when the screen is shown."""
        super().__init__()
        self.settings = settings
        """The settings this screen plays with."""
        self.setup = tuple(moves)
        """The moves every game on this screen starts from ("Play from here" in a review)."""
        self.clever = settings.opponent != "random"
        """Whether the computer plays clever moves: `c` switches between the opponent's
        algorithm and random moves (a random opponent switches to alpha-beta and back)."""
        self.game = self._fresh_game()
        """The game being played."""
        self.paused = False
        """Computer-vs-computer only: True while space holds the next move back."""
        self.thinking: str | None = None
        """What the search running now is for: "computer" (its move), "hint" (shown live in
        the panel) or "scores" (a person's moves scored quietly for the board); else None."""
        # The rng lives as long as the screen, so a seed reproduces a whole session of games.
        self._rng = random.Random(settings.seed)
        self._player = self._make_player()
        self._token = 0
        self._job: Job | None = None
        self._searching: Position = self.game.board
        self._search_started = 0.0
        self._timer: Timer | None = None
        self._recorded = False
        self._posted = False
        self._analysis: tuple[Position, Analysis] | None = None
        self._hint_shown = False
        self._show_scores = True
        self._quit_pending = False
        self._last_line = ""
        self._notice = ""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status on top, then the position view (board, score, moves | panel), the footer."""
        yield Static("", id="status", markup=False)
        yield PositionView(
            self.settings.size, id="position",
            under_board=Scoreboard(self._app.session.tally(self.settings.mode), self._all_time(),
                                   id="scoreboard"),
        )
        yield TooSmall(id="too-small")
        yield Footer()

    @property
    def token(self) -> int:
        """The generation of the search asked for now: messages that carry another are stale."""
        return self._token

    @property
    def view(self) -> PositionView:
        """The board, move list and evaluation panel."""
        return self.query_one(PositionView)

    def on_mount(self) -> None:
        """Draw the empty board and let the computer open if it moves first."""
        board = self.view.board
        board.interactive = self.settings.mode != "computer-vs-computer"
        board.cursor = (self.settings.size // 2) * (self.settings.size + 1)
        board.focus()
        if self.settings.mode == "human-vs-human":
            self.view.clear_panel(WAITING_TWO_PEOPLE)
        self._fit_terminal()
        self._refresh_all()
        # The first turn (and the worker process) start once the board is on the screen, so
        # they do not delay the first paint; the screen's resume starts the turn.
        if not runs_in_process(self.settings.size, self.settings.opponent):
            self.call_after_refresh(self._app.thinker.start)

    def on_resize(self, event: events.Resize) -> None:
        """Swap the game for an "enlarge the terminal" message when it no longer fits."""
        self._fit_terminal()

    def on_screen_resume(self) -> None:
        """Back from help, settings or the results: carry on where the game was."""
        if not self.has_class("-too-small"):
            self.view.board.focus()
        self._refresh_status()
        self.call_after_refresh(self._carry_on)

    def _carry_on(self) -> None:
        # A finished game is the Results dialog's business: resuming must not reopen it.
        if self.thinking is None and not self.game.is_over and self.is_current:
            self._next_turn()

    def on_unmount(self) -> None:
        """Stop a running search, and record a game left unfinished."""
        self._cancel_search()
        self.abandon()

    def on_key(self, event: events.Key) -> None:
        """Any key but q and y withdraws a pending "quit this game?"."""
        if self._quit_pending and event.key not in ("q", "y"):
            self._quit_pending = False
            self._notice = ""
            self._refresh_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys that mean nothing in this game (no computer: no clever/random).

        `y` confirms a pending quit only; otherwise it passes on to the app (the history).
        """
        if action == "confirm_quit":
            return self._quit_pending
        if action == "toggle_clever":
            return self.settings.mode != "human-vs-human"
        if action == "toggle_pause":
            return self.settings.mode == "computer-vs-computer"
        return True

    def _fit_terminal(self) -> None:
        panel = self.view.panel_shown
        size = self.settings.size
        was_small = self.has_class("-too-small")
        keys = "e hides the evaluation panel; " if panel else ""
        small = self.query_one(TooSmall).fit(
            needed_terminal(size, panel), f"a {size}×{size} board",
            f"{keys}s opens settings for a smaller board; q quits.",
            note="Moves wait until the board fits.")
        if was_small and not small and (self.focused is None or not self.focused.display):
            # Hiding the board took its focus away: give it back, or the arrows do nothing.
            self.view.board.focus()

    # -- who is who -----------------------------------------------------------------------------

    @property
    def _app(self) -> _GameApp:
        app: Any = self.app
        game_app: _GameApp = app
        return game_app

    @property
    def _session(self) -> SessionScore:
        return self._app.session

    def _who(self, mark: Mark) -> str:
        """A player's name for the status line: "You (X)", "Computer (O)", "X"."""
        if self.settings.mode == "human-vs-computer":
            return f"Computer ({mark})" if self.settings.is_computer(mark) else f"You ({mark})"
        if self.settings.mode == "computer-vs-computer":
            return f"Computer {mark}"
        return str(mark)

    def _fresh_game(self) -> Game:
        """A game of this screen's size, k and first mark, with the setup moves played, and
        a fresh record of it."""
        game = Game(self.settings.size, self.settings.win_length, self.settings.first_mark)
        for cell in self.setup:
            game.play(cell)
        self.game_log = GameLog(self.settings, game.moves)
        """The record of this game, posted with `GameEnded` when it ends."""
        return game

    def _playing(self) -> str:
        """The algorithm the computer plays now: the opponent's, alpha-beta or random."""
        if not self.clever:
            return "random"
        opponent = self.settings.opponent
        return "alphabeta" if opponent == "random" else opponent

    def _make_player(self) -> Player:
        settings = self.settings
        if settings.opponent == "random":
            return make_player(self._playing(), rng=self._rng, difficulty=settings.difficulty,
                               time_limit=settings.search_time_limit, depth=settings.depth)
        return make_player(settings.opponent, rng=self._rng, difficulty=settings.difficulty,
                           time_limit=settings.search_time_limit, clever=self.clever,
                           depth=settings.depth)

    def _style_words(self) -> str:
        """How the computer plays: "alpha-beta, clever", "random; c: alpha-beta"."""
        opponent = self.settings.opponent
        if opponent == "random":
            return ("alpha-beta for now; c: back to random" if self.clever
                    else "random; c: alpha-beta")
        algorithm = ALGORITHM_NAMES[opponent]
        if not self.clever:
            return f"random for now; c brings back {algorithm}"
        if self.settings.difficulty < 100:
            return f"{algorithm}, clever {self.settings.difficulty}% of the time"
        return f"{algorithm}, clever"

    # -- the turn cycle -------------------------------------------------------------------------

    def _next_turn(self) -> None:
        """Finish the game, start the computer, or wait for a person, as the position asks."""
        if self.game.is_over:
            self._finish()
            return
        mover = self.game.board.to_move
        if self.thinking in ("computer", "hint"):
            self._refresh_status()
            return
        if not self.settings.is_computer(mover):
            self._score_for_person()
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

    def _score_for_person(self) -> None:
        """Score the person's moves in the background for the board (unless `v` hid them)."""
        if self._show_scores and self.thinking is None and not self._analysed():
            self._start_search("scores")
        self._refresh_scores()

    def _analysed(self) -> Analysis | None:
        """The analysis of the position on the board now, if one arrived."""
        if self._analysis is not None and self._analysis[0] is self.game.board:
            return self._analysis[1]
        return None

    def _start_search(self, kind: str) -> None:
        """Send a search to the worker: the computer's move, or the analysis of a person's."""
        self._cancel_search()
        self._token += 1
        token = self._token
        position = self.game.board
        self.thinking = kind
        self._searching = position
        self._search_started = time.perf_counter()
        if kind == "computer":
            algorithm = self._playing()
            fn: Any = choose_move
            args: tuple[Any, ...] = (self._player, self._rng, position)
        else:
            algorithm = self._hint_algorithm()
            fn, args = clever_analysis, (position, algorithm, self.settings.search_time_limit,
                                         self.settings.depth)
        self._job = self._app.thinker.submit(
            fn, *args,
            on_progress=lambda progress: self.post_message(SearchProgress(progress, token)),
            on_done=partial(self._search_done, kind, token),
            on_error=lambda error: self.post_message(SearchFailed(error, token)),
            in_process=runs_in_process(position.size, algorithm),
        )
        if kind != "scores":
            self._show_thinking(None)
        self._refresh_status()

    def _search_done(self, kind: str, token: int, result: Any) -> None:
        """The Thinker's answer (on its thread): hand it to the screen as a message."""
        if kind == "computer":
            decision, rng_state = result
            self.post_message(ComputerMoved(decision, token, rng_state))
        else:
            self.post_message(HintReady(result, token))

    def _cancel_search(self) -> None:
        """Drop whatever the worker is doing: it stops, and a late answer has a stale token."""
        if self._job is not None:
            self._job.cancel()
            self._job = None
        self._token += 1
        self.thinking = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _hint_algorithm(self) -> str:
        # Hints use the opponent's own algorithm so a learner compares like with like; the
        # random opponent has none, so alpha-beta (exact on 3×3, fast elsewhere) stands in.
        opponent = self.settings.opponent
        return "alphabeta" if opponent == "random" else opponent

    def on_search_progress(self, message: SearchProgress) -> None:
        """Show how far the running search got (not for the quiet scoring of a person's moves)."""
        if message.token == self._token and self.thinking in ("computer", "hint"):
            self._show_thinking(message.progress)

    def _show_thinking(self, progress: Any) -> None:
        position = self._searching
        if self.thinking == "computer":
            title = f"{self._who(position.to_move)} is thinking…"
            algorithm = self._playing()
        else:
            title = f"Analysing {position.to_move}'s position…"
            algorithm = self._hint_algorithm()
        budget = self.settings.search_time_limit if algorithm == "alphabeta" else None
        if progress is None:
            report = ThinkingReport(title, ALGORITHM_NAMES.get(algorithm, algorithm), 0, 0,
                                    0.0, budget, "", "")
            line: tuple[int, ...] = ()
        else:
            report = thinking_report(title, algorithm, progress, position, budget)
            line = progress.pv
        self.view.show_thinking(report, line, str(position.to_move))

    def on_computer_moved(self, message: ComputerMoved) -> None:
        """Play the computer's move, unless it answers a question nobody is asking any more."""
        if message.token != self._token or self.thinking != "computer":
            return
        self._job = None
        self.thinking = None
        if message.rng_state is not None:
            self._rng.setstate(message.rng_state)
        self._play_computer(message.decision)

    def _play_computer(self, decision: Decision) -> None:
        before = self.game.board
        try:
            self.game.play(decision.move)
        except IllegalMove as error:
            self._say(f"The computer tried an illegal move: {error}")
            return
        self.game_log.computer_move(decision, before.to_move,
                               time.perf_counter() - self._search_started)
        self._show_decision(decision, before)
        self._last_line = (f"{self._who(before.to_move)} played "
                           f"{cell_notation(decision.move, before.size)}: "
                           f"{'clever' if decision.clever else 'random'} — {decision.reason}")
        self._after_move()

    def on_hint_ready(self, message: HintReady) -> None:
        """Keep the analysis of a person's position; show it as a hint if one was asked for."""
        if message.token != self._token or self.thinking not in ("hint", "scores"):
            return
        self._job = None
        kind, self.thinking = self.thinking, None
        self._analysis = (self._searching, message.analysis)
        if kind == "hint":
            self._show_hint()
        self._refresh_scores()
        self._refresh_status()

    def _show_hint(self) -> None:
        """The analysis of the person's position in the panel, its best move lit."""
        position = self.game.board
        analysis = self._analysed()
        if analysis is None:
            return
        if not analysis.scores:
            self.view.clear_panel("No hint: the search stopped before scoring a move.")
            self._say("No hint: the search stopped before scoring a move.")
            return
        best = analysis.scores[0]
        name = cell_notation(best.move, position.size)
        words = f"{score_words(best.score, position, best.exact)}, score {best.score}"
        self.view.show_report(build_report(
            f"Hint for {position.to_move}: {name} ({words})", analysis, position, best.move,
            verdict=f"The best move for {position.to_move} by {algorithm_name(analysis)}.",
            terms=terms_after(analysis.algorithm, position, best.move),
        ))
        self._hint_shown = True
        self._notice = f"Hint: {name} ({words})."
        self._refresh_scores()

    def on_search_failed(self, message: SearchFailed) -> None:
        """A search raised or its process died: say so in one line, and go on."""
        if message.token != self._token:
            return
        kind, self.thinking = self.thinking, None
        self._job = None
        if kind == "computer":
            # The game must go on: the computer plays a random move rather than stall.
            decision = make_player("random", self._rng).choose(self.game.board)
            self._play_computer(decision)
            self._say(f"The search failed ({message.error}): the computer played a random "
                      "move instead.")
            return
        self.view.clear_panel(f"The analysis failed: {message.error}")
        self._say(f"The analysis failed: {message.error}")

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
        if self.has_class("-too-small"):
            self.app.bell()
            return
        self.view.board.cursor = digit - 1
        self._human_move(digit - 1)

    def _human_move(self, cell: int) -> None:
        position = self.game.board
        size = position.size
        if self.has_class("-too-small"):
            self.app.bell()  # the board is hidden: a key meant for it must not play blind
            return
        if self.settings.mode == "computer-vs-computer":
            self._say("Two computers are playing: space pauses, n starts a new game.")
            return
        if self.game.is_over:
            self._say("The game is over: n starts a new one, u takes back the last move.")
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
        self.game_log.human_move(cell, position.to_move)
        self._cancel_search()
        self._last_line = f"{self._who(position.to_move)} played {cell_notation(cell, size)}."
        self._after_move()

    def _after_move(self) -> None:
        """Whoever moved: forget the old hint, redraw, and hand the turn on."""
        self._notice = ""
        self._hint_shown = False
        self._refresh_all()
        self._next_turn()

    def _show_decision(self, decision: Decision, before: Position) -> None:
        """Put the computer's reasoning in the panel."""
        mover = before.to_move
        name = cell_notation(decision.move, before.size)
        analysis = decision.analysis
        if analysis is None or not analysis.scores:
            self.view.clear_panel(f"{self._who(mover)} played {name} at random: a random "
                                  "player does not search, so there are no scores to show.")
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
        self.view.show_report(build_report(
            f"{self._who(mover)} played {name}", analysis, before, decision.move,
            verdict=verdict,
            terms=terms_lines(decision.terms, name, before.k) if decision.terms else (),
        ))

    # -- the end of a game ----------------------------------------------------------------------

    def _finish(self) -> None:
        result = self.game.result
        if result is None:
            return
        self.view.board.interactive = False
        if not self._recorded:
            self._recorded = True
            self._session.record(result, self.settings)
            self._post_game("draw" if result.winner is None else str(result.winner))  # type: ignore[arg-type]
        self._refresh_board()
        self._refresh_status()
        # After the app has handled the GameEnded just posted, so all-time scores count it.
        self.app.call_later(self._show_results, result.winner)

    def _show_results(self, winner: Mark | None) -> None:
        tally = self._session.tally(self.settings.mode)
        all_time = self._all_time()
        self.query_one(Scoreboard).show(tally, all_time)
        self.app.push_screen(
            ResultsScreen(self._headline(winner), self._result_detail(), tally, all_time),
            self._after_results,
        )

    def _all_time(self) -> tuple[tuple[str, int], ...]:
        return self._app.all_time(self.settings)

    def _post_game(self, outcome: Outcome) -> None:
        """Tell the app (and so the history) about the game: finished or abandoned."""
        self._posted = True
        self.app.post_message(GameEnded(self.game_log.played_game(outcome)))

    def abandon(self) -> None:
        """Keep an unfinished game (one with a move played in it) as abandoned."""
        if (not self._posted and not self.game.is_over
                and len(self.game.moves) > len(self.setup)):
            self._post_game("abandoned")

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
        elif choice == "review":
            self.call_later(self._app.review_last_game)
        elif choice == "quit":
            self.call_later(self.action_quit_game)
        elif choice == "look":
            self._notice = ""
            self._refresh_status()
        else:
            self.call_later(self.action_new_game)

    # -- key actions ----------------------------------------------------------------------------

    def action_new_game(self) -> None:
        """Start again with the same settings; a running search is dropped at once."""
        self._cancel_search()
        self.abandon()
        self.game = self._fresh_game()
        self._recorded = self._posted = False
        self.paused = False
        self._analysis = None
        self._hint_shown = False
        self._last_line = ""
        self._notice = "New game."
        self.view.board.interactive = self.settings.mode != "computer-vs-computer"
        if self.settings.mode == "human-vs-human":
            self.view.clear_panel(WAITING_TWO_PEOPLE)
        else:
            self.view.clear_panel()
        self.query_one(Scoreboard).show(self._session.tally(self.settings.mode), self._all_time())
        self._refresh_all()
        self._next_turn()

    def action_toggle_clever(self) -> None:
        """Switch the computer between clever and random, from its next move."""
        if self.settings.mode == "human-vs-human":
            self._say("No computer plays in a game between two people.")
            return
        self.clever = not self.clever
        self._player = self._make_player()
        self.game_log.switched(self.clever)
        self.view.panel.border_subtitle = f"computer: {'clever' if self.clever else 'random'}"
        later = " (from its next move)" if self.thinking == "computer" else ""
        self._say(f"The computer now plays {ALGORITHM_NAMES[self._playing()]}{later}.")

    def action_undo(self) -> None:
        """Take back the last move; against the computer, your last move and its reply."""
        if self.settings.mode == "computer-vs-computer":
            self._say("Undo takes back a person's move: there is none in this game.")
            return
        if self.has_class("-too-small"):
            self.app.bell()
            return
        game = self.game
        start = len(self.setup)  # the game starts after its setup moves: those stay
        if self.settings.mode == "human-vs-human":
            undone = 1 if len(game.moves) > start else 0
        else:
            # Take back the computer's replies, then the human's move before them.
            human = self.settings.human_mark
            marks = [self._mark_of(i) for i in range(start, len(game.moves))]
            if human not in marks:
                self._say("Nothing to undo: you have not moved yet.")
                return
            undone = len(marks) - max(i for i, m in enumerate(marks) if m is human)
        if undone == 0:
            self._say("Nothing to undo: no move has been played.")
            return
        self._cancel_search()
        result = game.result
        if result is not None and self._recorded:
            # The game is open again: its result no longer counts, and it is posted again
            # when it ends (or is abandoned).
            self._session.take_back(result, self.settings)
            self.query_one(Scoreboard).show(self._session.tally(self.settings.mode),
                                            self._all_time())
            self._recorded = self._posted = False
            self.view.board.interactive = True
        taken = [game.undo() for _ in range(undone)]
        self.game_log.undone(undone)
        names = ", ".join(cell_notation(cell, game.size) for cell in reversed(taken))
        self._hint_shown = False
        self._last_line = ""
        self.view.clear_panel("Move taken back. Press h to analyse this position.")
        self._refresh_all()
        self._next_turn()
        self._say(f"Took back {names}.")

    def _mark_of(self, index: int) -> Mark:
        """The mark that made the game's move number `index` (0-based): the sides alternate."""
        first = self.game.first
        return first if index % 2 == 0 else first.opponent

    def action_hint(self) -> None:
        """Analyse the position of the side to move and show it in the panel."""
        if self.game.is_over:
            self._say("The game is over: there is no move to hint.")
            return
        if self.thinking == "computer" or self.settings.is_computer(self.game.board.to_move):
            self._say("The computer's own analysis will show in the panel when it moves.")
            return
        self._notice = ""  # the turn line says "Analysing X's position…" meanwhile
        if self._analysed() is not None:
            self._show_hint()
        elif self.thinking == "scores":
            # The quiet scoring already runs: let it finish as the hint, shown live from now.
            self.thinking = "hint"
            self._show_thinking(None)
        else:
            self._start_search("hint")
        self._refresh_status()

    def action_toggle_panel(self) -> None:
        """Show or hide the evaluation panel."""
        self.view.toggle_panel()
        self._fit_terminal()

    def action_toggle_scores(self) -> None:
        """Show or hide the scores written faintly in the empty cells."""
        self._show_scores = not self._show_scores
        if self._show_scores:
            self._say("Scores on the board shown.")
            if self.thinking is None and not self.game.is_over:
                self._next_turn()
        else:
            if self.thinking == "scores":
                self._cancel_search()
            self._say("Scores on the board hidden.")
        self._refresh_scores()

    def action_toggle_lines(self) -> None:
        """Show or hide the expected line (1, 2, 3…) of the move picked in the panel."""
        shown = self.view.toggle_lines()
        self._say("Expected line shown: pick a row in the panel (Tab, ↑↓ or a click)."
                  if shown else "Expected line hidden.")

    def action_toggle_pause(self) -> None:
        """Pause or resume a game between two computers."""
        if self.settings.mode != "computer-vs-computer":
            return
        if self.game.is_over:
            self._say("The game is over: n starts a new one.")
            return
        self.paused = not self.paused
        if self.paused:
            # Stop at once, even mid-search: the board stays as it is until space again.
            self._cancel_search()
            self.view.clear_panel("Paused: space resumes.")
        # The turn line says "Paused: space resumes"; only resuming needs a word.
        self._notice = "" if self.paused else "Resumed."
        self._next_turn()
        self._refresh_status()

    def action_settings(self) -> None:
        """Open the Settings screen; the search stops and restarts when you come back."""
        self._cancel_search()
        self._app.open_settings()

    def action_compare(self) -> None:
        """The learning lab: every search algorithm on this position, side by side."""
        from tictactoe_tui.ui.screens.compare import CompareScreen  # the lab loads when opened

        self.app.push_screen(CompareScreen.for_game(self.game, self.settings))

    def action_search_tree(self) -> None:
        """The learning lab: the alpha-beta search from this position as a tree."""
        from tictactoe_tui.ui.screens.tree import TreeScreen

        self.app.push_screen(TreeScreen(self.game.board))

    def action_match(self) -> None:
        """Open the match runner; the search stops and restarts when you come back."""
        self._cancel_search()
        self._app.open_match()

    def action_heuristics(self) -> None:
        """Open the heuristic lab on this position; the search restarts when you come back."""
        from tictactoe_tui.ui.screens.heuristics import HeuristicScreen

        self._cancel_search()
        self.app.push_screen(HeuristicScreen(self.game.board, self.settings.search_time_limit))

    def action_quit_game(self) -> None:
        """Quit; in the middle of a game, ask once first (q again or y confirms)."""
        if self._quit_pending or not self.game.moves or self.game.is_over:
            self.action_confirm_quit(asked=False)
            return
        self._quit_pending = True
        self._say("Quit in the middle of the game? q again or y quits; any other key goes on.")

    def action_confirm_quit(self, asked: bool = True) -> None:
        """`y` after "quit?": record the game as abandoned and quit."""
        if asked and not self._quit_pending:
            return
        self._cancel_search()
        self.abandon()
        # After the message, so the app hears of the game before it closes.
        self.app.call_later(self.app.exit)

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
        marks = position.marks()
        labels = {}
        if (position.size == 3 and self.settings.mode != "computer-vs-computer"
                and not self.game.is_over):
            labels = {i: str(i + 1) for i in range(cells)}  # the digit that plays each cell
        result = self.game.result
        self.view.show_position(marks, last=self.game.moves[-1] if self.game.moves else None,
                                winning=result.line if result else (), labels=labels)
        self._refresh_scores()

    def _refresh_scores(self) -> None:
        """The side to move's scores on the board, once analysed (a live hint), unless hidden."""
        analysis = self._analysed()
        if not self._show_scores or analysis is None or self.thinking == "computer":
            self.view.show_scores({})
            return
        best = analysis.scores[0].move if self._hint_shown and analysis.scores else None
        self.view.show_scores(score_hints(analysis), f"{self.game.board.to_move}'s scores", "v",
                              best)

    def _refresh_moves(self) -> None:
        size = self.game.size
        moves = [(str(self._mark_of(i)), cell_notation(cell, size))
                 for i, cell in enumerate(self.game.moves)]
        self.view.show_moves(moves)

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
            turn = ("Game over: " + self._headline(result.winner if result else None)
                    + " — n: new game · s: settings")
        elif self.thinking == "computer":
            turn = f"{self._who(board.to_move)} is thinking…"
        elif self.thinking == "hint":
            turn = f"Analysing {board.to_move}'s position…"
        elif settings.mode == "computer-vs-computer":
            turn = ("Paused: space resumes" if self.paused
                    else f"{self._who(board.to_move)} to move")
        elif settings.is_computer(board.to_move):
            # Between a failed search and the computer's move, or before it starts.
            turn = f"{self._who(board.to_move)} to move"
        elif settings.mode == "human-vs-computer":
            turn = f"Your turn ({board.to_move})"
        else:
            turn = f"{board.to_move} to move"
        parts: list[str | tuple[str, str]] = [(players, "bold"), "\n", (turn, "bold $accent")]
        if self._notice:
            parts += ["   ", (self._notice, "$text-warning")]
        parts += ["\n", ("Last: " + self._last_line if self._last_line else "", "")]
        return Content.assemble(*parts)
