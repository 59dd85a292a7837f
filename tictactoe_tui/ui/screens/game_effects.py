"""The Game screen's effects: carrying out what `GameController` returns, in order.

Each effect is one thing to do on the screen or the app: a notice, the bell, a search to start
or stop, a pause between two computers' moves, the panel's report or its live search, a game to
keep in the history or to forget, the score, the results, quitting. A search's answer (and the
learner's `--eval` values of a report's moves) come back here from the screen's workers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, assert_never

from textual.timer import Timer

from tictactoe_tui.play.controller import (
    Bell,
    ClearPanel,
    Effect,
    Finished,
    Quit,
    Record,
    Reopened,
    Say,
    ScoreChanged,
    Search,
    ShowReport,
    ShowThinking,
    StopSearch,
    Wait,
    with_yours,
)
from tictactoe_tui.text.panel import PanelReport
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.messages import GameEnded, GameReopened
from tictactoe_tui.ui.screens.game_predict import HIDDEN_SEARCH

if TYPE_CHECKING:
    from tictactoe_tui.ui.screens.game import GameScreen

NOTICE_SECONDS = 3.0
"""How long a notice's toast stays; the same notice again meanwhile is not shown twice."""


class GameEffects:
    """Carries out one Game screen's controller's effects, and its searches' answers."""

    def __init__(self, screen: GameScreen) -> None:
        """Act on `screen` (its widgets, its workers, its app)."""
        self.screen = screen
        self._timer: Timer | None = None
        self._toast: tuple[str, float] = ("", 0.0)
        self._panel_report: PanelReport | None = None
        """The report the panel shows now (None: something else), so the learner's values
        (`--eval`) arriving late go only beside the report they were asked for."""

    def run(self, effects: Sequence[Effect]) -> None:
        """Do what the controller asks, in order, then redraw."""
        screen = self.screen
        app = screen.app
        for effect in effects:
            match effect:
                case Say():
                    self.notify(effect.text)
                case Bell():
                    app.bell()
                case Search():
                    screen.search_in_worker(effect)
                case StopSearch():
                    self.stop_search()
                    screen.predict.drop_round()
                case Wait():
                    self._timer = screen.set_timer(effect.seconds, self._cvc_tick)
                case ShowReport():
                    self._show_report(effect)
                case ClearPanel():
                    self._panel_report = None
                    if effect.text is None:
                        screen.view.clear_panel()
                    else:
                        screen.view.clear_panel(effect.text)
                case ShowThinking():
                    self.show_thinking(effect)
                case Record():
                    app.post_message(GameEnded(effect.game))
                case Reopened():
                    app.post_message(GameReopened(effect.game))
                    # Once the app has forgotten the record: the all-time score reads the
                    # history.
                    app.call_later(screen.drawing.scoreboard)
                case ScoreChanged():
                    screen.drawing.scoreboard()
                case Finished():
                    # After the app has handled the GameEnded just posted, so all-time scores
                    # count this game.
                    app.call_later(screen.show_results, effect.headline, effect.detail)
                case Quit():
                    app.call_later(app.exit)
                case _:
                    assert_never(effect)
        screen.redraw()

    def run_quietly(self, effects: Sequence[Effect]) -> None:
        """Progress: only the panel and the board's caption change, not the whole screen."""
        for effect in effects:
            if isinstance(effect, ShowThinking):
                self.show_thinking(effect)
        self.screen.drawing.scores()
        self.screen.drawing.verdict()

    def notify(self, text: str) -> None:
        """A notice as a toast, unless the same one is still showing (a key pressed ten
        times says it once)."""
        now = time.monotonic()
        if self._toast[0] == text and now - self._toast[1] < NOTICE_SECONDS:
            return
        self._toast = (text, now)
        self.screen.notify(text, timeout=NOTICE_SECONDS)

    def _show_report(self, effect: ShowReport) -> None:
        screen = self.screen
        screen.view.show_report(effect.report)
        self._panel_report = effect.report
        if screen.settings.eval_file and effect.position is not None:
            screen.value_in_worker(effect)

    async def search(self, search: Search) -> None:
        """Run one search in the worker and hand its answer to the controller (in predict
        mode, the computer's move waits for the learner's answers)."""
        from tictactoe_tui.worker.client import JobFailed

        screen = self.screen
        try:
            result = await app_thinker(screen).run(
                search.job,
                *search.args,
                on_progress=screen.show_progress,
                in_process=search.in_process,
            )
        except JobFailed as error:
            self.run(screen.controller.search_failed(str(error)))
            return
        if search.kind == "computer" and screen.predict.asks_before(result):
            return
        self.run(screen.controller.search_done(result))

    async def value_yours(self, shown: ShowReport) -> None:
        """With `--eval FILE`: the learner's value of each move of the report's position, put
        beside its rows once it is in (if the panel still shows that report); a fault is one
        line. The file runs in a process of its own: the app's thread only waits."""
        from tictactoe_tui.engine.lab.compare import YoursFailed  # the lab loads when asked
        from tictactoe_tui.engine.lab.yours import try_one_ply
        from tictactoe_tui.engine.players.guest import DEFAULT_TIME
        from tictactoe_tui.worker.client import JobFailed

        screen = self.screen
        assert shown.position is not None
        try:
            answer = await app_thinker(screen).run(
                try_one_ply,
                shown.position,
                screen.settings.eval_file,
                DEFAULT_TIME,
                in_process=True,
            )
        except JobFailed as error:
            self.notify(f"Your evaluation failed: {error}")
            return
        if isinstance(answer, YoursFailed):
            self.notify(f"Your evaluation failed: {answer.reason}")
        elif self._panel_report is shown.report:
            self._panel_report = with_yours(shown.report, answer)
            screen.view.show_report(self._panel_report)

    def show_thinking(self, thinking: ShowThinking) -> None:
        """The search live in the panel; in predict mode the computer's is kept hidden (its
        best move so far would give the answer away)."""
        self._panel_report = None
        if self.screen.predict.hides_search():
            self.screen.view.clear_panel(HIDDEN_SEARCH)
        else:
            self.screen.view.show_thinking(thinking.report, thinking.line, thinking.mover)

    def stop_search(self) -> None:
        """Cancel the running search, and the pause before two computers' next move."""
        screen = self.screen
        screen.workers.cancel_group(screen, "search")
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _cvc_tick(self) -> None:
        self._timer = None
        self.run(self.screen.controller.cvc_tick())

    def progress(self, progress: Any) -> None:
        """A report from the running search, shown live."""
        self.run_quietly(self.screen.controller.progress(progress))
