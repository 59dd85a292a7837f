"""The Game screen: the status line over a position view (board, scoreboard, moves, panel).

The rules live in `play.controller.GameController`: the screen hands it every event (a cell
chosen with the mouse or the keys, a key, a search's answer) and carries out the effects it
returns, then redraws the board, the move list and the status from the controller's queries.
Searches run in the app's worker process (small 3×3 ones in a thread here) through one Textual
worker group: starting a search, or stopping one, cancels the one before, so an answer always
belongs to the search the controller asked for last. Progress arrives a few times a second and
is shown live (depth, positions, time against the budget, the best line drawn on the board).

When a game ends it is kept in the history (`GameEnded`), the session score counts it, and the
Results dialog opens over the board (Escape closes it to look at the board and the panel); a game
left unfinished (new game, new settings, quit) is kept as abandoned. Undo after the end reopens
the game: its record leaves the history (`GameReopened`) until it ends again. The lab's screens
and the analysis board (`e`) open from here on the position of the moment. The settings, the
match runner, the lab's screens and the analysis board use the same worker: the game's search
stops when they open and starts again when this screen shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, assert_never

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static

from tictactoe_tui.engine import Game, Mark
from tictactoe_tui.engine.rules.board import MIN_SIZE, cell_notation
from tictactoe_tui.play.controller import (
    WAITING_TWO_PEOPLE,
    Bell,
    BoardView,
    ClearPanel,
    Effect,
    Finished,
    GameController,
    Quit,
    Record,
    Reopened,
    Say,
    ScoreChanged,
    ScoreOverlay,
    Search,
    ShowReport,
    ShowThinking,
    StopSearch,
    Thinking,
    Wait,
    runs_in_process,
    with_yours,
)
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.text.panel import PanelReport
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.keys import key_for
from tictactoe_tui.ui.messages import Analyse, GameEnded, GameReopened, Navigate
from tictactoe_tui.ui.screens.new_game import NewGameDialog
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import Board, PositionView, Scoreboard
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall

if TYPE_CHECKING:
    # Predict mode and the worker's client load when first used: the first paint needs neither.
    from tictactoe_tui.play.predict import Predictor, Round

STATUS_HEIGHT = 3
PANEL_MIN_WIDTH = 46
MIN_WIDTH = 60
SCOREBOARD_HEIGHT = 5
FOOTER_HEIGHT = 1
COMPACT_STATUS_HEIGHT = 2
VERDICT_HEIGHT = 1
COMPACT_MIN_WIDTH = 40
"""The compact layout's narrowest terminal: its verdict line ("e panel · Computer (O) played C1:
draw") needs the room, whatever the board's width."""

NOTICE_SECONDS = 3.0
"""How long a notice's toast stays; the same notice again meanwhile is not shown twice."""

HIDDEN_SEARCH = (
    "Predict mode: the computer's search is hidden until you have said which move it will "
    "play and what the position is worth for it (f turns predict mode off)."
)
"""The panel while the computer thinks in predict mode."""

PREDICTING_TURN = "Your prediction: the computer has chosen, its move waits for your answers"
"""The status line's turn while the questions are open."""

AllTime = Callable[[GameSettings, Mapping[Mark, str]], tuple[tuple[str, int], ...]]
"""The all-time score of games like the ones some settings make, with some sides named as the
history names them (`GameController.history_names`), read from the history."""


def needed_terminal(size: int, panel: bool = True) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows a size×size game in the full layout
    (status, board, scoreboard, moves, and the panel beside them if `panel`)."""
    board_width, board_height = board_size_on_screen(size)
    width = max(MIN_WIDTH, board_width + (PANEL_MIN_WIDTH if panel else 0))
    height = STATUS_HEIGHT + board_height + SCOREBOARD_HEIGHT + FOOTER_HEIGHT
    return width, height


def compact_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal a size×size game plays in: the compact layout
    (the status, the board in one-line cells, a one-line verdict, the keys; the panel one key
    away, shown instead of the board)."""
    board_width, board_height = board_size_on_screen(size, compact=True)
    width = max(COMPACT_MIN_WIDTH, board_width)
    height = COMPACT_STATUS_HEIGHT + board_height + VERDICT_HEIGHT + FOOTER_HEIGHT
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
    GameScreen #scoreboard { width: 100%; }
    GameScreen #verdict {
        display: none;
        height: 1;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    GameScreen #predict {
        display: none;
        height: auto;
        max-height: 4;
        padding: 0 1;
        background: $boost;
    }
    GameScreen.-predicting #predict { display: block; }
    GameScreen #predict-value { display: none; margin: 0 1; }
    GameScreen.-predict-value #predict-value { display: block; }
    GameScreen.-compact #status { height: 2; }
    GameScreen.-compact #verdict { display: block; }
    GameScreen.-too-small #position, GameScreen.-too-small #status,
    GameScreen.-too-small #verdict { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"place_digit({d})", f"Cell {d}", show=False) for d in range(1, 10)),
        Binding("c", "toggle_clever", "Clever/random"),
        Binding("n", "new_game", "New"),
        Binding("u", "undo", "Undo"),
        Binding("h", "hint", "Hint"),
        Binding("e", "analyse", "Analyse"),
        # Not the arrows: they move the board's cursor. The status line names these.
        Binding("comma", "step(-1)", "Earlier", key_display=",", show=False),
        Binding("full_stop", "step(1)", "Later", key_display=".", show=False),
        Binding("shift+left", "step(-1)", "Earlier", show=False),
        Binding("shift+right", "step(1)", "Later", show=False),
        Binding("i", "toggle_panel", "Panel", show=False),
        Binding("v", "toggle_scores", "Scores"),
        # Not in the footer (it would push "? Help" off a 100-column one): the board's caption
        # and the panel say "p".
        Binding("p", "toggle_lines", "Line", show=False),
        Binding("s", "settings", "Settings"),
        Binding("a", "compare", "Compare", show=False),
        Binding("t", "search_tree", "Search tree", show=False),
        Binding("m", "match", "Match runner", show=False),
        Binding("w", "heuristics", "Heuristic lab", show=False),
        Binding("d", "pairing", "Why a draw", show=False),
        Binding("l", "engine_words", "Engine's stderr / your traceback", show=False),
        Binding("space", "toggle_pause", "Pause", show=False),
        Binding("f", "toggle_predict", "Predict", show=False),
        Binding("escape", "skip_question", "Skip", show=False),
        Binding("q", "quit_game", "Quit"),
        Binding("y", "confirm_quit", "Yes, quit", show=False),
    ]

    def __init__(
        self,
        settings: GameSettings,
        moves: Sequence[int] = (),
        *,
        session: SessionScore | None = None,
        all_time: AllTime | None = None,
    ) -> None:
        """Prepare a game with `settings`, from the position `moves` lead to (default: the empty
        board); it starts when the screen is shown. `session` is the score across games,
        `all_time` reads the history's score of games like these."""
        super().__init__()
        self.controller = GameController(settings, moves, session)
        """The game's rules: this screen only shows what it says and does what it asks."""
        self._all_time = all_time
        self._timer: Timer | None = None
        # What the widgets show now: redrawn only when the controller's view of it changes.
        self._drawn_board: BoardView | None = None
        self._drawn_scores: ScoreOverlay | None = None
        self._drawn_moves: tuple[list[tuple[str, str]], int | None] = ([], None)
        self._toast: tuple[str, float] = ("", 0.0)
        self._panel_report: PanelReport | None = None
        """The report the panel shows now (None: something else), so the learner's values
        (`--eval`) arriving late go only beside the report they were asked for."""
        self.predicting = settings.predict
        """Predict mode: the computer's move waits for the learner's answers (`f` switches)."""
        self._predictor: Predictor | None = None
        self.round: Round | None = None
        """The questions open now about the computer's move held back, if any."""

    @property
    def settings(self) -> GameSettings:
        """The settings this screen plays with."""
        return self.controller.settings

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.controller.game

    @property
    def thinking(self) -> Thinking | None:
        """What the running search is for ("computer", "hint", "scores"), or None (also while
        the computer's move waits for the learner's predictions: nothing runs then)."""
        return None if self.round is not None else self.controller.thinking

    @property
    def view(self) -> PositionView:
        """The board, move list and evaluation panel."""
        return self.query_one(PositionView)

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status on top, then the position view (board, score, moves | panel), the footer."""
        yield Static("", id="status", markup=False)
        yield PositionView(
            self.settings.size,
            id="position",
            under_board=Scoreboard(
                self.controller.session.tally(self.settings.mode), self.all_time(), id="scoreboard"
            ),
        )
        yield Static("", id="predict", markup=False)
        yield Input(placeholder="win, draw or loss; Enter answers", id="predict-value")
        yield Static("", id="verdict", markup=False)
        yield TooSmall(id="too-small")
        yield Footer()

    def all_time(self) -> tuple[tuple[str, int], ...]:
        """The all-time score of games like this one (none without a history)."""
        if self._all_time is None:
            return ()
        return self._all_time(self.settings, self.controller.history_names())

    def on_mount(self) -> None:
        """Draw the empty board; the first turn starts when the screen is shown (resume)."""
        board = self.view.board
        board.cursor = (self.settings.size // 2) * (self.settings.size + 1)
        board.focus()
        if self.controller.mode is Mode.HUMAN_VS_HUMAN:
            self.view.clear_panel(WAITING_TWO_PEOPLE)
        self._fit_terminal()
        self._redraw()
        # The worker process starts once the board is on the screen, so it does not delay the
        # first paint.
        if not runs_in_process(self.settings.size, self.settings.opponent):
            self.app.call_after_refresh(lambda: app_thinker(self).start())

    def on_resize(self, event: events.Resize) -> None:
        """Swap the game for an "enlarge the terminal" message when it no longer fits."""
        self._fit_terminal()

    def on_screen_resume(self) -> None:
        """Back from help, settings, the lab or the results: carry on where the game was."""
        if not self.has_class("-too-small"):
            self.view.board.focus()
        self._redraw()
        self.app.call_after_refresh(self._carry_on)

    def _carry_on(self) -> None:
        if self.is_current:
            self._run(self.controller.resume())

    def on_unmount(self) -> None:
        """Stop a running search, keep a game left unfinished, end any outside engine."""
        self._stop_search()
        self.keep_unfinished()
        self.controller.close_engines()

    def keep_unfinished(self) -> None:
        """Hand the app a game left unfinished (once), to keep as abandoned."""
        game = self.controller.abandon()
        if game is not None:
            self.app.post_message(GameEnded(game))

    def on_key(self, event: events.Key) -> None:
        """Any key but q and y withdraws a pending "quit this game?"."""
        if self.controller.key_pressed(event.key):
            self._redraw_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys that mean nothing in this game (no computer: no clever/random).

        `y` confirms a pending quit only; otherwise it passes on to the app (the history).
        """
        if action == "confirm_quit":
            return self.controller.quit_pending
        if action == "toggle_clever":
            return (
                self.controller.mode is not Mode.HUMAN_VS_HUMAN and not self.controller.engines_only
            )
        if action == "toggle_pause":
            return self.controller.mode is Mode.COMPUTER_VS_COMPUTER
        if action == "toggle_predict":
            return self.controller.mode is Mode.HUMAN_VS_COMPUTER
        if action == "skip_question":
            return self.round is not None
        return True

    def _fit_terminal(self) -> None:
        """The full layout when the terminal has room for it, else the compact one, else the
        "enlarge the terminal" notice (the smallest terminal is the compact layout's)."""
        view = self.view
        size = self.settings.size
        smaller = ", where a smaller board needs less room" if size > MIN_SIZE else ""
        small = self.query_one(TooSmall).fit(
            compact_terminal(size),
            f"a {size}×{size} board",
            f"s opens the settings{smaller}; q quits.",
            note="Moves wait until the board fits.",
            refocus=view.board,
        )
        self.controller.hidden = small
        have = self.app.size
        full_width, full_height = needed_terminal(size, view.panel_wanted)
        compact = not small and (have.width < full_width or have.height < full_height)
        if compact != self.has_class("-compact"):
            self.set_class(compact, "-compact")
            view.set_compact(compact)
            self._redraw_status()

    # -- carrying out the controller's effects --------------------------------------------------

    def _run(self, effects: Sequence[Effect]) -> None:
        """Do what the controller asks, in order, then redraw."""
        for effect in effects:
            match effect:
                case Say():
                    self._notify(effect.text)
                case Bell():
                    self.app.bell()
                case Search():
                    self._search(effect)
                case StopSearch():
                    self._stop_search()
                    self._drop_round()
                case Wait():
                    self._timer = self.set_timer(effect.seconds, self._cvc_tick)
                case ShowReport():
                    self.view.show_report(effect.report)
                    self._panel_report = effect.report
                    if self.settings.eval_file and effect.position is not None:
                        self._value_yours(effect)
                case ClearPanel():
                    self._panel_report = None
                    if effect.text is None:
                        self.view.clear_panel()
                    else:
                        self.view.clear_panel(effect.text)
                case ShowThinking():
                    self._show_thinking(effect)
                case Record():
                    self.app.post_message(GameEnded(effect.game))
                case Reopened():
                    self.app.post_message(GameReopened(effect.game))
                    # Once the app has forgotten the record: the all-time score reads the
                    # history.
                    self.app.call_later(self._redraw_scoreboard)
                case ScoreChanged():
                    self._redraw_scoreboard()
                case Finished():
                    # After the app has handled the GameEnded just posted, so all-time scores
                    # count this game.
                    self.app.call_later(self._show_results, effect.headline, effect.detail)
                case Quit():
                    self.app.call_later(self.app.exit)
                case _:
                    assert_never(effect)
        self._redraw()

    def _notify(self, text: str) -> None:
        """A notice as a toast, unless the same one is still showing (a key pressed ten
        times says it once)."""
        now = time.monotonic()
        if self._toast[0] == text and now - self._toast[1] < NOTICE_SECONDS:
            return
        self._toast = (text, now)
        self.notify(text, timeout=NOTICE_SECONDS)

    @work(exclusive=True, group="search", exit_on_error=False)
    async def _search(self, search: Search) -> None:
        """Run one search in the worker; a newer one (or a stop) cancels it."""
        from tictactoe_tui.worker.client import JobFailed

        try:
            result = await app_thinker(self).run(
                search.job,
                *search.args,
                on_progress=self.show_progress,
                in_process=search.in_process,
            )
        except JobFailed as error:
            self._run(self.controller.search_failed(str(error)))
            return
        if search.kind == "computer" and self._asks_before(result):
            return
        self._run(self.controller.search_done(result))

    def show_progress(self, progress: Any) -> None:
        """A report from the running search, shown live."""
        self._run_quietly(self.controller.progress(progress))

    def _run_quietly(self, effects: Sequence[Effect]) -> None:
        """Progress: only the panel and the board's caption change, not the whole screen."""
        for effect in effects:
            if isinstance(effect, ShowThinking):
                self._show_thinking(effect)
        self._redraw_scores()
        self._redraw_verdict()

    @work(exclusive=True, group="yours", exit_on_error=False)
    async def _value_yours(self, shown: ShowReport) -> None:
        """With `--eval FILE`: the learner's value of each move of the report's position, put
        beside its rows once it is in (if the panel still shows that report); a fault is one
        line. The file runs in a process of its own: the app's thread only waits."""
        from tictactoe_tui.engine.lab.compare import YoursFailed  # the lab loads when asked
        from tictactoe_tui.engine.lab.yours import try_one_ply
        from tictactoe_tui.engine.players.guest import DEFAULT_TIME
        from tictactoe_tui.worker.client import JobFailed

        assert shown.position is not None
        try:
            answer = await app_thinker(self).run(
                try_one_ply, shown.position, self.settings.eval_file, DEFAULT_TIME, in_process=True
            )
        except JobFailed as error:
            self._notify(f"Your evaluation failed: {error}")
            return
        if isinstance(answer, YoursFailed):
            self._notify(f"Your evaluation failed: {answer.reason}")
        elif self._panel_report is shown.report:
            self._panel_report = with_yours(shown.report, answer)
            self.view.show_report(self._panel_report)

    def _show_thinking(self, thinking: ShowThinking) -> None:
        """The search live in the panel; in predict mode the computer's is kept hidden (its
        best move so far would give the answer away)."""
        self._panel_report = None
        if self._hides_search():
            self.view.clear_panel(HIDDEN_SEARCH)
        else:
            self.view.show_thinking(thinking.report, thinking.line, thinking.mover)

    def _hides_search(self) -> bool:
        """True while the computer thinks in predict mode, or its move waits for answers."""
        return (
            self.predicting
            and self.controller.mode is Mode.HUMAN_VS_COMPUTER
            and self.controller.thinking == "computer"
        )

    def _stop_search(self) -> None:
        self.workers.cancel_group(self, "search")
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _cvc_tick(self) -> None:
        self._timer = None
        self._run(self.controller.cvc_tick())

    # -- the end of a game ----------------------------------------------------------------------

    def _show_results(self, headline: str, detail: str) -> None:
        tally = self.controller.session.tally(self.settings.mode)
        all_time = self.all_time()
        self.query_one(Scoreboard).show(tally, all_time)
        self.app.push_screen(ResultsScreen(headline, detail, tally, all_time), self._after_results)

    def _after_results(self, choice: str | None) -> None:
        # The dialog calls this before it is popped: act once it is gone, or a screen pushed
        # now (settings) would be the one popped.
        if choice == "settings":
            self.call_later(self.action_settings)
        elif choice == "review":
            self.call_later(self.post_message, Navigate("review"))
        elif choice == "quit":
            self.call_later(self.action_quit_game)
        elif choice == "look":
            self.controller.clear_notice()
            self._redraw_status()
        else:
            self.call_later(self.action_new_game)

    # -- key actions ----------------------------------------------------------------------------

    @on(Board.CellChosen, "#board")
    def on_cell_chosen(self, message: Board.CellChosen) -> None:
        """A click or Enter on a cell: play it if the rules and the turn allow (or, while the
        move question is open, predict it)."""
        if self.round is not None and self.round.stage == "move":
            self._answer(cell_notation(message.cell, self.settings.size))
            return
        self._run(self.controller.choose(message.cell))

    def action_place_digit(self, digit: int) -> None:
        """Digits 1–9 place a mark on 3×3: 1 is top-left, row by row."""
        if self.round is not None and self.round.stage == "move":
            self.view.board.cursor = digit - 1
            self._answer(str(digit))
            return
        refused = self.controller.digit_allowed()
        if refused is not None:
            self._run([refused])
            return
        self.view.board.cursor = digit - 1
        self._run(self.controller.choose(digit - 1))

    def action_new_game(self) -> None:
        """Start again with the same settings; after "play from here", ask from where."""
        setup = self.controller.setup
        if not setup:
            self._run(self.controller.new_game())
            return

        def chosen(from_setup: bool | None) -> None:
            if from_setup is not None:
                self._run(self.controller.new_game(from_setup))

        self.app.push_screen(NewGameDialog(len(setup)), chosen)

    def action_toggle_clever(self) -> None:
        """Switch the computer between clever and random, from its next move."""
        self._run(self.controller.toggle_clever())
        if self.controller.mode is not Mode.HUMAN_VS_HUMAN:
            clever = "clever" if self.controller.clever else "random"
            self.view.panel.border_subtitle = f"computer: {clever}"

    def action_undo(self) -> None:
        """Take back the last move; against the computer, your last move and its reply."""
        self._run(self.controller.undo())

    def action_hint(self) -> None:
        """Analyse the position of the side to move and show it in the panel."""
        self._run(self.controller.hint())

    def action_toggle_panel(self) -> None:
        """Show or hide the evaluation panel; in the compact layout, show it instead of the
        board, or the board again."""
        view = self.view
        view.toggle_panel()
        self._fit_terminal()
        if view.query_one("#position-left").display and not self.has_class("-too-small"):
            view.board.focus()
        self._redraw_verdict()

    def action_analyse(self) -> None:
        """Open the analysis board on the position shown (the game's, or an earlier one while
        stepping back); the game waits untouched underneath (its search stops and restarts
        when you come back)."""
        self._run(self.controller.leave())
        self.post_message(Analyse(self.controller.shown_position()))

    def action_step(self, delta: int) -> None:
        """`,` / `.`: an earlier (or later) position of this game, read-only, with its
        analysis; past the last move, back to the game."""
        self._run(self.controller.step(delta))

    def action_toggle_scores(self) -> None:
        """Show or hide the scores written faintly in the empty cells."""
        self._run(self.controller.toggle_scores())

    def action_toggle_lines(self) -> None:
        """Show or hide the expected line (1, 2, 3…) of the move picked in the panel."""
        shown = self.view.toggle_lines()
        self._run(
            self.controller.say(
                "Expected line shown: pick a row in the panel (Tab, ↑↓ or a click)."
                if shown
                else "Expected line hidden."
            )
        )

    def action_toggle_pause(self) -> None:
        """Pause or resume a game between two computers."""
        self._run(self.controller.toggle_pause())

    def action_settings(self) -> None:
        """Open the Settings screen; the search stops and restarts when you come back."""
        self._run(self.controller.leave())
        self.post_message(Navigate("settings"))

    def action_compare(self) -> None:
        """The learning lab: every search algorithm on this position, side by side; the
        search stops and restarts when you come back."""
        from tictactoe_tui.ui.screens.compare import CompareScreen  # the lab loads when opened

        self._run(self.controller.leave())
        self.app.push_screen(CompareScreen.for_game(self.game, self.settings))

    def action_search_tree(self) -> None:
        """The learning lab: the alpha-beta search from this position as a tree; the search
        stops and restarts when you come back."""
        from tictactoe_tui.ui.screens.tree import TreeScreen

        self._run(self.controller.leave())
        self.app.push_screen(
            TreeScreen(self.controller.shown_position(), eval_file=self.settings.eval_file or None)
        )

    def action_match(self) -> None:
        """Open the match runner; the search stops and restarts when you come back."""
        self._run(self.controller.leave())
        self.post_message(Navigate("match"))

    def action_heuristics(self) -> None:
        """Open the heuristic lab on this position; the search restarts when you come back."""
        from tictactoe_tui.ui.screens.heuristics import HeuristicScreen

        # The panel's analysis of this position, so the lab's numbers are the panel's.
        analysis = self.controller.analysed()
        self._run(self.controller.leave())
        # Looking back: the lab studies the earlier position shown, with no panel analysis.
        shown = self.controller.shown_position()
        if shown is not self.game.board:
            analysis = None
        self.app.push_screen(
            HeuristicScreen(
                shown,
                self.settings.search_time_limit,
                analysis=analysis,
                depth=self.settings.depth,
                eval_file=self.settings.eval_file or None,
            )
        )

    def action_pairing(self) -> None:
        """The learning lab: why this position is a draw when a pairing strategy proves it (the
        side that moved last defends), to play against; the search restarts when you come back."""
        from tictactoe_tui.ui.screens.pairing import PairingScreen

        self._run(self.controller.leave())
        self.app.push_screen(PairingScreen(self.controller.shown_position()))

    def action_engine_words(self) -> None:
        """The last lines an outside engine wrote to stderr, or your code's traceback when it
        lost by a fault, in the panel."""
        self._run(self.controller.engine_words())

    def action_quit_game(self) -> None:
        """Quit; in the middle of a game, ask once first (q again or y confirms)."""
        self._run(self.controller.request_quit())

    def action_confirm_quit(self) -> None:
        """`y` after "quit?": keep the game as abandoned and quit."""
        self._run(self.controller.confirm_quit())

    # -- predict mode ---------------------------------------------------------------------------

    @property
    def predictor(self) -> Predictor:
        """The learner's predictions: this session's, with the history's tally."""
        if self._predictor is None:
            from tictactoe_tui.history.predictions import predictions, tally_of
            from tictactoe_tui.play.predict import Predictor

            store = getattr(self.app, "store", None)
            tally = tally_of(predictions(store)) if store is not None else None
            self._predictor = Predictor() if tally is None else Predictor(tally=tally)
        return self._predictor

    def _asks_before(self, result: Any) -> bool:
        """In predict mode, hold the computer's move back and open the questions about it;
        True when a question is open (the move is played once it is answered)."""
        if not self.predicting or self.controller.mode is not Mode.HUMAN_VS_COMPUTER:
            return False
        from tictactoe_tui.play.predict import Round

        decision = result[0]
        board = self.game.board
        questions = self.predictor.ask(board, getattr(decision, "analysis", None))
        if not questions.asks_anything:
            self.predictor.done()
            self._show_predict(questions.reasons)
            return False
        self.round = Round(self.predictor, result)
        self._show_predict([*questions.reasons, self.round.prompt])
        self._redraw()
        return True

    def _answer(self, text: str) -> None:
        """One answer to the open question: judged at once; the move follows the last one."""
        from tictactoe_tui.play.predict import AnswerError

        turn = self.round
        assert turn is not None
        try:
            turn.answer(text)
        except AnswerError as error:
            self._show_predict([str(error), turn.prompt])
            return
        self._after_answer()

    def _after_answer(self) -> None:
        turn = self.round
        assert turn is not None
        said = [judgement.line for judgement in turn.verdicts]
        if not turn.done:
            self._show_predict([*said, turn.prompt])
            return
        from tictactoe_tui.history.predictions import keep_prediction

        self.round = None
        store = getattr(self.app, "store", None)
        if store is not None:
            for judgement in turn.verdicts:
                for kept in judgement.kept:
                    keep_prediction(store, kept)
        tally = self.predictor.tally.lines()
        self._show_predict(
            [
                *turn.lines(),
                f"{self.predictor.summary()} in this game · all time: " + ", ".join(tally),
            ]
        )
        self.view.board.focus()
        self._run(self.controller.search_done(turn.held))

    def _show_predict(self, lines: list[str]) -> None:
        """The predict bar: the question open (with an answer box for the value), or what
        the last round said."""
        self.set_class(bool(lines), "-predicting")
        self.query_one("#predict", Static).update("\n".join(lines))
        value = self.round is not None and self.round.stage == "value"
        self.set_class(value, "-predict-value")
        box = self.query_one("#predict-value", Input)
        if value:
            box.value = ""
            box.focus()

    @on(Input.Submitted, "#predict-value")
    def _value_given(self, event: Input.Submitted) -> None:
        """The value answer typed, then Enter."""
        if self.round is not None and self.round.stage == "value":
            self._answer(event.value)

    def _drop_round(self) -> None:
        """The held move is gone (undo, a new game): so are its questions."""
        if self.round is not None:
            self.round = None
            self.predictor.done()
            self._show_predict([])
            self.view.board.focus()

    def action_skip_question(self) -> None:
        """Escape: skip the open question."""
        if self.round is not None:
            self.round.skip()
            self._after_answer()

    def action_toggle_predict(self) -> None:
        """f: predict mode on or off, from the computer's next move."""
        self.predicting = not self.predicting
        if self.predicting:
            self._notify(
                "Predict mode on: before each computer move, say which move it will play and "
                "what the position is worth for it."
            )
        else:
            self._notify("Predict mode off: the computer's moves are shown at once.")
            if self.round is not None:
                self.action_skip_question()
                if self.round is not None:
                    self.action_skip_question()
            self._show_predict([])

    # -- drawing --------------------------------------------------------------------------------

    def _redraw(self) -> None:
        """Redraw what changed: the board, its scores, the move list, the status."""
        view = self.controller.board_view()
        asking_move = self.round is not None and self.round.stage == "move"
        self.view.board.interactive = self.controller.interactive or asking_move
        if view != self._drawn_board:
            self._drawn_board = view
            self.view.show_position(
                view.marks, last=view.last, winning=view.winning, labels=view.labels
            )
        self._redraw_scores()
        listed = self.controller.move_list()
        viewing = self.controller.viewing
        if (listed, viewing) != self._drawn_moves:
            self._drawn_moves = (listed, viewing)
            # Looking back: the move that made the position shown is highlighted.
            self.view.show_moves(listed, current=viewing or None)
        self._redraw_status()

    def _redraw_scores(self) -> None:
        overlay = self.controller.score_overlay()
        if overlay != self._drawn_scores:
            self._drawn_scores = overlay
            self.view.show_scores(overlay.scores, overlay.caption, overlay.key, overlay.best)

    def _redraw_scoreboard(self) -> None:
        self.query_one(Scoreboard).show(
            self.controller.session.tally(self.settings.mode), self.all_time()
        )

    def _redraw_status(self) -> None:
        """The status; in the compact layout, whose turn and the notice only (the board marks
        the last move, and the verdict line says what the panel says)."""
        status = self.controller.status()
        compact = self.has_class("-compact")
        parts: list[str | tuple[str, str]] = [] if compact else [(status.players, "bold"), "\n"]
        turn = status.turn if self.round is None else PREDICTING_TURN
        parts.append((turn, "bold $accent"))
        if status.notice:
            parts += ["   ", (status.notice, "$text-warning")]
        if not compact:
            parts += ["\n", ("Last: " + status.last if status.last else "", "")]
        self.query_one("#status", Static).update(Content.assemble(*parts))
        self._redraw_verdict()

    def _redraw_verdict(self) -> None:
        """The compact layout's verdict line: the key that shows the panel, and the panel in
        one line (the footer is too narrow to list that key)."""
        if not self.has_class("-compact"):
            return
        verdict = self.view.verdict_line(key_for(self, "toggle_panel", ""))
        shown = self.query_one("#verdict", Static)
        if shown.visual != verdict:
            shown.update(verdict)
