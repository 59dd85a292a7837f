"""The game's one search at a time: the computer's move, a hint shown live, the quiet scoring
of a person's moves, or an earlier position looked at; what each is shown as while it runs, and
the analyses they gave (the live position's, and the earlier positions')."""

from __future__ import annotations

from typing import Any

from tictactoe_tui.engine import Algorithm, Analysis, EngineReport
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.play.effects import Effect, Search, ShowThinking, Thinking, runs_in_process
from tictactoe_tui.play.searching import SearchRun, analysis_search, thinking_shown
from tictactoe_tui.play.seats import Seats
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.panel import ThinkingReport
from tictactoe_tui.worker.jobs import choose_move


class GameSearch:
    """The search running for the game, and the analyses kept from the searches that ended."""

    def __init__(self, settings: GameSettings, seats: Seats) -> None:
        """No search yet; the searches use `settings`' limits and `seats`' players."""
        self.settings = settings
        self.seats = seats
        self.run: SearchRun[Thinking] = SearchRun(
            Position.empty(settings.size, settings.win_length)
        )
        """The search running now (`run.what` says what it is for)."""
        self.scores_progress = ""
        """How far the quiet scoring got, for the caption under the board."""
        self._analysis: tuple[Position, Analysis] | None = None
        self._views: dict[Position, Analysis] = {}

    def analysed(self, board: Position) -> Analysis | None:
        """The analysis of `board` (the live position) if one arrived."""
        if self._analysis is not None and self._analysis[0] is board:
            return self._analysis[1]
        return None

    def view_analysis(self, position: Position) -> Analysis | None:
        """The analysis of an earlier position of the game, once one arrived."""
        return self._views.get(position)

    def forget(self) -> None:
        """A new game: forget the analyses of the last one's positions."""
        self._analysis = None
        self._views = {}

    def start(self, kind: Thinking, position: Position) -> list[Effect]:
        """Search `position` for `kind`: the search, and (but for the quiet scoring) the panel
        showing it live."""
        self.run.start(kind, position)
        # Until its first report, the quiet scoring says at least that it runs.
        self.scores_progress = f"scoring {position.to_move}'s moves…"
        if kind == "computer":
            player = self.seats.sides[position.to_move]
            algorithm = self.seats.playing(position.to_move)
            # An outside engine or a learner's code runs in its own process already: the app's
            # thread only waits for its answer (and the process must stay a child of the app,
            # to end with it).
            in_process = self.seats.foreign(position.to_move)
            in_process = in_process or runs_in_process(position.size, algorithm)
            search = Search(kind, choose_move, (player, self.seats.rng, position), in_process)
        else:
            limit, depth = self.settings.search_time_limit, self.settings.depth
            search = analysis_search(kind, position, self.seats.hint_algorithm(), limit, depth)
        if kind == "scores":
            return [search]
        return [search, self.shown(None)]

    def answered(self, result: Any) -> Thinking | None:
        """The running search's answer came: what it was for (None: it had been stopped),
        with an analysis kept for its position."""
        kind = self.run.end()
        if kind == "view":
            self._views[self.run.position] = result
        elif kind in ("hint", "scores"):
            self._analysis = (self.run.position, result)
        return kind

    def progress(self, progress: Any, board: Position) -> list[Effect]:
        """A report from the running search: shown live for the computer and a hint; for the
        quiet scoring of `board`, the caption under the board says how far it got."""
        if self.run.what in ("computer", "hint", "view"):
            return [self.shown(progress)]
        if self.run.what == "scores":
            budget = self.settings.search_time_limit
            clock = (
                f"{progress.elapsed:.1f} of {budget:g} s"
                if budget is not None
                else f"{progress.elapsed:.1f} s"
            )
            depth = f"depth {progress.depth}, " if progress.depth else ""
            self.scores_progress = f"scoring {board.to_move}'s moves… {depth}{clock}"
        return []

    def shown(self, progress: Any) -> ShowThinking:
        """The running search live in the panel, after its last report (None: none yet)."""
        position = self.run.position
        mover = position.to_move
        if self.run.what != "computer":
            algorithm = self.seats.hint_algorithm()
            title = f"Analysing {mover}'s position…"
        else:
            algorithm = self.seats.playing(mover)
            title = f"{self.seats.who(mover)} is thinking…"
            if self.seats.learner_name(mover) or self.seats.engine_name(mover):
                return self._foreign_shown(title, progress)
        budget = self.settings.search_time_limit if algorithm == Algorithm.ALPHABETA else None
        return thinking_shown(title, algorithm, progress, position, budget)

    def _foreign_shown(self, title: str, progress: Any) -> ShowThinking:
        """An outside engine or a learner's code thinking: its clock (and an engine's words)."""
        mover = self.run.position.to_move
        seconds = self.settings.spec_for(mover).time_limit
        elapsed = progress.elapsed if progress is not None else 0.0
        learner = self.seats.learner_name(mover)
        if learner:
            report = ThinkingReport(title, learner, 0, 0, elapsed, seconds, "", "")
        else:
            name = self.seats.engine_name(mover)
            said = progress.said if isinstance(progress, EngineReport) else ()
            report = ThinkingReport(
                title,
                f"{name} (outside engine)",
                0,
                0,
                elapsed,
                seconds,
                "",
                "",
                said=said,
                said_by=name,
            )
        return ShowThinking(report, (), str(mover))
