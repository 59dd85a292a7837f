"""The Game screen: the status line over a position view (board, scoreboard, moves, panel).

The rules live in `play.controller.GameController`: the screen hands it every event (a cell
chosen with the mouse or the keys, a key, a search's answer) and carries out the effects it
returns (`game_effects`), then redraws the board, the move list and the status from the
controller's queries (`game_drawing`, which also fits the layout to the terminal). Searches run
in the app's worker process (small 3×3 ones in a thread here) through one Textual worker group:
starting a search, or stopping one, cancels the one before, so an answer always belongs to the
search the controller asked for last. Progress arrives a few times a second and is shown live
(depth, positions, time against the budget, the best line drawn on the board). In predict mode
the computer's move waits for the learner's answers (`game_predict`).

When a game ends it is kept in the history (`GameEnded`), the session score counts it, and the
Results dialog opens over the board (Escape closes it to look at the board and the panel); a game
left unfinished (new game, new settings, quit) is kept as abandoned. Undo after the end reopens
the game: its record leaves the history (`GameReopened`) until it ends again. The lab's screens
(`game_lab`) and the analysis board (`e`) open from here on the position of the moment. The
settings, the match runner, the lab's screens and the analysis board use the same worker: the
game's search stops when they open and starts again when this screen shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static

from tictactoe_tui.engine import Game, Mark
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.controller import (
    WAITING_TWO_PEOPLE,
    Effect,
    GameController,
    Search,
    ShowReport,
    Thinking,
    runs_in_process,
)
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.messages import Analyse, GameEnded, Navigate
from tictactoe_tui.ui.screens.game_drawing import (
    GAME_CSS,
    PREDICTING_TURN,
    GameDrawing,
    compact_terminal,
    needed_terminal,
)
from tictactoe_tui.ui.screens.game_effects import GameEffects
from tictactoe_tui.ui.screens.game_lab import (
    open_compare,
    open_heuristics,
    open_pairing,
    open_search_tree,
)
from tictactoe_tui.ui.screens.game_predict import HIDDEN_SEARCH, PredictQuestions
from tictactoe_tui.ui.screens.new_game import NewGameDialog
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.widgets import Board, PositionView, Scoreboard
from tictactoe_tui.ui.widgets.footer import Footer
from tictactoe_tui.ui.widgets.too_small import TooSmall

if TYPE_CHECKING:
    # Predict mode loads when first used: the first paint does not need it.
    from tictactoe_tui.play.predict import Round

__all__ = [
    "HIDDEN_SEARCH",
    "PREDICTING_TURN",
    "AllTime",
    "GameScreen",
    "compact_terminal",
    "needed_terminal",
]

AllTime = Callable[[GameSettings, Mapping[Mark, str]], tuple[tuple[str, int], ...]]
"""The all-time score of games like the ones some settings make, with some sides named as the
history names them (`GameController.history_names`), read from the history."""


class GameScreen(Screen[None]):
    """One game at a time with the given settings; `n` starts the next one on the same screen."""

    DEFAULT_CSS = GAME_CSS

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
        self.effects = GameEffects(self)
        """Carries out the controller's effects (and the searches' answers)."""
        self.drawing = GameDrawing(self)
        """The layout for the terminal's size, and the redraws."""
        self.predict = PredictQuestions(self, settings.predict)
        """Predict mode: the questions about the computer's move held back (`f` switches)."""

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
        return None if self.predict.round is not None else self.controller.thinking

    @property
    def round(self) -> Round | None:
        """The questions open now about the computer's move held back, if any."""
        return self.predict.round

    @property
    def predicting(self) -> bool:
        """Predict mode: the computer's move waits for the learner's answers (`f` switches)."""
        return self.predict.on

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
        self.drawing.fit_terminal()
        self.redraw()
        # The worker process starts once the board is on the screen, so it does not delay the
        # first paint.
        if not runs_in_process(self.settings.size, self.settings.opponent):
            self.app.call_after_refresh(lambda: app_thinker(self).start())

    def on_resize(self, event: events.Resize) -> None:
        """Swap the game for an "enlarge the terminal" message when it no longer fits."""
        self.drawing.fit_terminal()

    def on_screen_resume(self) -> None:
        """Back from help, settings, the lab or the results: carry on where the game was."""
        if not self.has_class("-too-small"):
            self.view.board.focus()
        self.redraw()
        self.app.call_after_refresh(self._carry_on)

    def _carry_on(self) -> None:
        if self.is_current:
            self.run_effects(self.controller.resume())

    def on_unmount(self) -> None:
        """Stop a running search, keep a game left unfinished, end any outside engine."""
        self.effects.stop_search()
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
            self.drawing.status()

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
            return self.predict.round is not None
        return True

    # -- carrying out the controller's effects (game_effects) -----------------------------------

    def run_effects(self, effects: Sequence[Effect]) -> None:
        """Do what the controller asks, in order, then redraw."""
        self.effects.run(effects)

    def say(self, text: str) -> None:
        """A notice as a toast (once while the same one shows)."""
        self.effects.notify(text)

    def redraw(self) -> None:
        """Redraw what changed: the board, its scores, the move list, the status."""
        self.drawing.everything()

    @work(exclusive=True, group="search", exit_on_error=False)
    async def search_in_worker(self, search: Search) -> None:
        """Run one search in the worker; a newer one (or a stop) cancels it."""
        await self.effects.search(search)

    def show_progress(self, progress: Any) -> None:
        """A report from the running search, shown live."""
        self.effects.progress(progress)

    @work(exclusive=True, group="yours", exit_on_error=False)
    async def value_in_worker(self, shown: ShowReport) -> None:
        """With `--eval FILE`: the learner's value of each move of the report's position, put
        beside its rows once it is in (if the panel still shows that report)."""
        await self.effects.value_yours(shown)

    # -- the end of a game ----------------------------------------------------------------------

    def show_results(self, headline: str, detail: str) -> None:
        """The Results dialog over the board, with the scores counting this game."""
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
            self.drawing.status()
        else:
            self.call_later(self.action_new_game)

    # -- key actions ----------------------------------------------------------------------------

    @on(Board.CellChosen, "#board")
    def on_cell_chosen(self, message: Board.CellChosen) -> None:
        """A click or Enter on a cell: play it if the rules and the turn allow (or, while the
        move question is open, predict it)."""
        if self.predict.asking_move:
            self.predict.answer(cell_notation(message.cell, self.settings.size))
            return
        self.run_effects(self.controller.choose(message.cell))

    def action_place_digit(self, digit: int) -> None:
        """Digits 1–9 place a mark on 3×3: 1 is top-left, row by row."""
        if self.predict.asking_move:
            self.view.board.cursor = digit - 1
            self.predict.answer(str(digit))
            return
        refused = self.controller.digit_allowed()
        if refused is not None:
            self.run_effects([refused])
            return
        self.view.board.cursor = digit - 1
        self.run_effects(self.controller.choose(digit - 1))

    def action_new_game(self) -> None:
        """Start again with the same settings; after "play from here", ask from where."""
        setup = self.controller.setup
        if not setup:
            self.run_effects(self.controller.new_game())
            return

        def chosen(from_setup: bool | None) -> None:
            if from_setup is not None:
                self.run_effects(self.controller.new_game(from_setup))

        self.app.push_screen(NewGameDialog(len(setup)), chosen)

    def action_toggle_clever(self) -> None:
        """Switch the computer between clever and random, from its next move."""
        self.run_effects(self.controller.toggle_clever())
        if self.controller.mode is not Mode.HUMAN_VS_HUMAN:
            clever = "clever" if self.controller.clever else "random"
            self.view.panel.border_subtitle = f"computer: {clever}"

    def action_undo(self) -> None:
        """Take back the last move; against the computer, your last move and its reply."""
        self.run_effects(self.controller.undo())

    def action_hint(self) -> None:
        """Analyse the position of the side to move and show it in the panel."""
        self.run_effects(self.controller.hint())

    def action_toggle_panel(self) -> None:
        """Show or hide the evaluation panel; in the compact layout, show it instead of the
        board, or the board again."""
        view = self.view
        view.toggle_panel()
        self.drawing.fit_terminal()
        if view.query_one("#position-left").display and not self.has_class("-too-small"):
            view.board.focus()
        self.drawing.verdict()

    def action_analyse(self) -> None:
        """Open the analysis board on the position shown (the game's, or an earlier one while
        stepping back); the game waits untouched underneath (its search stops and restarts
        when you come back)."""
        self.run_effects(self.controller.leave())
        self.post_message(Analyse(self.controller.shown_position()))

    def action_step(self, delta: int) -> None:
        """`,` / `.`: an earlier (or later) position of this game, read-only, with its
        analysis; past the last move, back to the game."""
        self.run_effects(self.controller.step(delta))

    def action_toggle_scores(self) -> None:
        """Show or hide the scores written faintly in the empty cells."""
        self.run_effects(self.controller.toggle_scores())

    def action_toggle_lines(self) -> None:
        """Show or hide the expected line (1, 2, 3…) of the move picked in the panel."""
        shown = self.view.toggle_lines()
        self.run_effects(
            self.controller.say(
                "Expected line shown: pick a row in the panel (Tab, ↑↓ or a click)."
                if shown
                else "Expected line hidden."
            )
        )

    def action_toggle_pause(self) -> None:
        """Pause or resume a game between two computers."""
        self.run_effects(self.controller.toggle_pause())

    def action_settings(self) -> None:
        """Open the Settings screen; the search stops and restarts when you come back."""
        self.run_effects(self.controller.leave())
        self.post_message(Navigate("settings"))

    def action_compare(self) -> None:
        """The learning lab: every search algorithm on this position, side by side; the
        search stops and restarts when you come back."""
        open_compare(self)

    def action_search_tree(self) -> None:
        """The learning lab: the alpha-beta search from this position as a tree; the search
        stops and restarts when you come back."""
        open_search_tree(self)

    def action_match(self) -> None:
        """Open the match runner; the search stops and restarts when you come back."""
        self.run_effects(self.controller.leave())
        self.post_message(Navigate("match"))

    def action_heuristics(self) -> None:
        """Open the heuristic lab on this position; the search restarts when you come back."""
        open_heuristics(self)

    def action_pairing(self) -> None:
        """The learning lab: why this position is a draw when a pairing strategy proves it (the
        side that moved last defends), to play against; the search restarts when you come back."""
        open_pairing(self)

    def action_engine_words(self) -> None:
        """The last lines an outside engine wrote to stderr, or your code's traceback when it
        lost by a fault, in the panel."""
        self.run_effects(self.controller.engine_words())

    def action_quit_game(self) -> None:
        """Quit; in the middle of a game, ask once first (q again or y confirms)."""
        self.run_effects(self.controller.request_quit())

    def action_confirm_quit(self) -> None:
        """`y` after "quit?": keep the game as abandoned and quit."""
        self.run_effects(self.controller.confirm_quit())

    # -- predict mode (game_predict) ------------------------------------------------------------

    @on(Input.Submitted, "#predict-value")
    def _value_given(self, event: Input.Submitted) -> None:
        """The value answer typed, then Enter."""
        self.predict.value_given(event.value)

    def action_skip_question(self) -> None:
        """Escape: skip the open question."""
        self.predict.skip()

    def action_toggle_predict(self) -> None:
        """f: predict mode on or off, from the computer's next move."""
        self.predict.toggle()
