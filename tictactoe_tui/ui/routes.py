"""The app's screen routing: which screen opens for each request, and over what.

Every screen's module is imported when the screen is first shown, so the first paint waits
only for the first screen's code. A screen that shows once at a time (the history, the help,
the puzzles, the cards, the course) is not opened again while it is on top; it is asked for
by class name (`showing`), which never loads a screen's module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from tictactoe_tui.play.settings import GameSettings

if TYPE_CHECKING:
    from tictactoe_tui.engine import Board
    from tictactoe_tui.history.study import MoveTree
    from tictactoe_tui.play.drill import DrillStart
    from tictactoe_tui.ui.app import TicTacToeApp
    from tictactoe_tui.ui.screens.game import GameScreen


class ScreenRoutes:
    """Opens the app's screens, each with what the app holds (its settings, its history)."""

    def __init__(self, app: TicTacToeApp) -> None:
        """Route `app`'s screens."""
        self.app = app

    def showing(self, *names: str) -> bool:
        """Whether the screen on top is one of the named screens (by class name)."""
        return type(self.app.screen).__name__ in names

    def game_screen(self, settings: GameSettings, moves: Sequence[int] = ()) -> GameScreen:
        """A Game screen playing with the app's session score, worker and history."""
        from tictactoe_tui.ui.screens.game import GameScreen

        app = self.app
        return GameScreen(settings, moves, session=app.session, all_time=app.all_time)

    def start_game(self, settings: GameSettings, moves: Sequence[int] = ()) -> None:
        """Start a fresh game with `settings` (from the position `moves` lead to), replacing
        whatever screens are showing; a game left unfinished is kept as abandoned."""
        app = self.app
        app.settings = settings
        app.theme = settings.theme
        app.store.remember_settings(asdict(settings))
        app.keep_unfinished_games()
        # Drop every screen above Textual's own blank one (an old game, its results, a review)
        # so games never pile up; that screen cannot be popped, and the new game goes on top.
        while len(app.screen_stack) > 1:
            app.pop_screen()
        app.push_screen(self.game_screen(settings, moves))

    def settings_chosen(self, settings: GameSettings | None) -> None:
        """The Settings screen closed: start its game, or (escape) go back to the one showing."""
        if settings is not None:
            self.app.start_game(settings)

    def first_settings(self) -> None:
        """The first screen when no flags chose a game: Settings, with the current settings."""
        from tictactoe_tui.ui.screens.settings import SettingsScreen

        app = self.app
        app.push_screen(SettingsScreen(app.settings, offered=app.served), self.settings_chosen)

    def settings(self) -> None:
        """Show Settings prefilled with the current settings; escape comes back here."""
        from tictactoe_tui.ui.screens.settings import SettingsScreen

        app = self.app
        if not isinstance(app.screen, SettingsScreen):
            app.push_screen(
                SettingsScreen(app.settings, can_cancel=True, offered=app.served),
                self.settings_chosen,
            )

    def analysis(
        self,
        position: Board | MoveTree,
        settings: GameSettings | None = None,
        study_id: int | None = None,
    ) -> None:
        """Show the analysis board on `position` (or a study, `study_id` in the history),
        analysing with the time limit and depth of `settings` (default: the current ones);
        escape comes back to the screen underneath."""
        from tictactoe_tui.ui.screens.analysis import AnalysisScreen

        app = self.app
        settings = settings if settings is not None else app.settings
        app.push_screen(
            AnalysisScreen(
                position,
                time_limit=settings.time_limit,
                depth=settings.depth,
                store=app.store,
                study_id=study_id,
                eval_file=app.settings.eval_file,
            )
        )

    def drill_on(self, position: Board) -> None:
        """The alpha-beta drill on `position`, or a line saying why there is none."""
        from tictactoe_tui.play.drill import drill_start

        app = self.app
        try:
            start = drill_start(position, eval_file=app.settings.eval_file or None)
        except ValueError as error:
            app.notify(f"No drill here: {error}.", timeout=4)
            return
        app.open_drill(start)

    def drill(self, start: DrillStart) -> None:
        """Show the alpha-beta drill on `start`'s tree; escape comes back to the screen
        underneath. Each check is kept in the history."""
        from tictactoe_tui.ui.screens.drill import DrillScreen

        self.app.push_screen(DrillScreen(start, self.app.store))

    def cards(self) -> None:
        """Show the due "find a better move" cards (once); each answer is kept."""
        from tictactoe_tui.ui.screens.cards import CardsScreen

        if not self.showing("CardsScreen"):
            self.app.push_screen(CardsScreen(self.app.store))

    def history(self) -> None:
        """Show the history (once: asking again while it shows does nothing)."""
        from tictactoe_tui.ui.screens.history import HistoryScreen

        if not self.showing("HistoryScreen", "ReviewScreen", "StudiesScreen"):
            self.app.push_screen(HistoryScreen(self.app.store))

    def review_last_game(self) -> None:
        """Review the game that just ended."""
        from tictactoe_tui.ui.screens.review import ReviewScreen

        app = self.app
        if app.last_game is not None:
            game, game_id = app.last_game
            app.push_screen(ReviewScreen(game, app.store, game_id))

    def puzzles(self) -> None:
        """Show the puzzles, on the board of the current settings (once)."""
        from tictactoe_tui.ui.screens.puzzle import PuzzleScreen, shape_for

        app = self.app
        if not self.showing("PuzzleScreen"):
            shape = shape_for(app.settings.size, app.settings.win_length)
            app.push_screen(PuzzleScreen(app.store, shape))

    def course(self, lesson: str = "") -> None:
        """Show the course's lessons (once), with `lesson` (a key) open on top if given."""
        from tictactoe_tui.play.course import LessonError, load_course
        from tictactoe_tui.ui.screens.learn import CourseScreen

        app = self.app
        if self.showing("CourseScreen") or self.showing("LessonScreen"):
            return
        try:
            course = load_course()
        except LessonError as error:
            app.notify(f"The course cannot be read: {error}", severity="error")
            return
        app.push_screen(CourseScreen(app.store, course, lesson))

    def match(self) -> None:
        """Show the match runner, its form prefilled from the current settings."""
        # Imported here: the charting library loads only when someone asks for a match.
        from tictactoe_tui.ui.screens.match import MatchScreen

        app = self.app
        if not isinstance(app.screen, MatchScreen):
            app.push_screen(MatchScreen(app.settings))

    def help(self) -> None:
        """Show the help screen (once: asking again while it shows does nothing)."""
        app = self.app
        if self.showing("HelpScreen"):
            return
        if not app.is_screen_installed("help"):
            from tictactoe_tui.ui.screens.help import HelpScreen

            app.install_screen(HelpScreen(), "help")  # built once, shown again at once
        app.push_screen("help")
