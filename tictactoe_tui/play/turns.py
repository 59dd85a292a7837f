"""One game's turn cycle, without Textual: who plays each side, whose turn it is, the search
the computer (or a hint, or the quiet scoring) runs and what its answer does, the moves it
plays, and the end of the game with its one record.

`GameTurns` is the part of `controller.GameController` (its base class) that the keys lean on:
the controller adds what a person does (a move, undo, a hint, pause, new game, stepping back,
quitting) and what the screen draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from tictactoe_tui.engine import Analysis, Decision, Game, IllegalMove, Mark
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.players.guest import GUEST
from tictactoe_tui.engine.players.outside import ENGINE
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.play import game_view
from tictactoe_tui.play.effects import ClearPanel, Effect, Finished, Say, StopSearch, Thinking, Wait
from tictactoe_tui.play.game_panel import decision_panel, engine_panel, hint_panel, view_panel
from tictactoe_tui.play.game_search import GameSearch
from tictactoe_tui.play.log import GameLog
from tictactoe_tui.play.recording import GameRecord
from tictactoe_tui.play.searching import analysis_failed
from tictactoe_tui.play.seats import MakePlayer, Seats
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.text.report import move_words
from tictactoe_tui.worker.jobs import Forfeited

CVC_PAUSE = 0.6
"""Seconds between moves when two computers play, so a person can follow (never 0: a Textual
timer of 0 raises)."""


class GamePhase(StrEnum):
    """Where the game on the board is."""

    PLAYING = "playing"
    """The game goes on: a person's move or a computer's is wanted."""
    WAITING = "waiting"
    """Two computers: the pause before the next move runs (a `Wait` is out)."""
    PAUSED = "paused"
    """Two computers: space holds the next move back."""
    OVER = "over"
    """The game ended, and was counted and kept (undo reopens it)."""


class GameTurns:
    """One game at a time: its sides, its searches, its moves, its end."""

    def __init__(
        self,
        settings: GameSettings,
        setup: Sequence[int],
        session: SessionScore | None,
        make_player: MakePlayer,
    ) -> None:
        """Prepare a game with `settings`, from the position `setup` leads to (default: the
        empty board). `session` is the score kept across games (the app's); the computer's
        players are made by `make_player`."""
        self.settings = settings
        """The settings every game here is played with."""
        self.setup = tuple(setup)
        """The moves every game starts from ("play from here" in a review)."""
        self.session = session if session is not None else SessionScore()
        """The score over the games of this session."""
        self.seats = Seats(settings, make_player)
        """Who plays each computer side."""
        self.phase = GamePhase.PLAYING
        """Where the game on the board is."""
        self.hidden = False
        """True while the terminal is too small for the board: moves are refused."""
        self.show_scores = True
        """Whether the person's moves are scored faintly on the board (`v`)."""
        self.quit_pending = False
        """True after q in the middle of a game, until y / q confirms or another key withdraws."""
        self.hint_shown = False
        """True while the panel shows a hint for the position on the board."""
        self.notice = ""
        """The notice the status line shows, if any."""
        self.last_line = ""
        """What the last move was, in words."""
        self.engine_log: tuple[str, ...] = ()
        """The last lines an outside engine wrote to stderr (or printed in vain) when it lost
        by a fault; `engine_words` shows them, or a running engine's."""
        self.viewing: int | None = None
        """While stepping back through the game (`step`): the number of moves of the position
        shown, read-only; None for the live position. The game waits meanwhile."""
        self.search = GameSearch(settings, self.seats)
        """The search running for the game, and the analyses the searches gave."""
        self.record = GameRecord(settings, self.session)
        """The game's record in the history, once given."""
        self.game, self.log = self._fresh_game()

    # -- who is who -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        """Who plays whom."""
        return self.seats.mode

    @property
    def clever(self) -> bool:
        """Whether the computer plays clever moves (`c` switches to random ones and back)."""
        return self.seats.clever

    @property
    def paused(self) -> bool:
        """Computer-vs-computer only: True while space holds the next move back."""
        return self.phase is GamePhase.PAUSED

    @property
    def thinking(self) -> Thinking | None:
        """What the search running now is for, or None."""
        return self.search.run.what

    def who(self, mark: Mark) -> str:
        """A player's name for the status line: "You (X)", "Computer (O)", "X"."""
        return self.seats.who(mark)

    def playing(self, mark: Mark | None = None) -> str:
        """The algorithm the computer of `mark` plays now (`Seats.playing`)."""
        return self.seats.playing(mark)

    def hint_algorithm(self) -> str:
        """The algorithm hints use (`Seats.hint_algorithm`)."""
        return self.seats.hint_algorithm()

    @property
    def engines_only(self) -> bool:
        """Whether every computer plays its own moves (an engine, a learner's code)."""
        return self.seats.engines_only

    def engine_name(self, mark: Mark) -> str:
        """The program name of `mark`'s outside engine ("" when it is not one)."""
        return self.seats.engine_name(mark)

    def history_names(self) -> dict[Mark, str]:
        """How the history names each side an outside engine plays (`Seats.history_names`)."""
        return self.seats.history_names()

    def learner_name(self, mark: Mark) -> str:
        """How `mark`'s learner's code is named ("" when its player is not a learner's)."""
        return self.seats.learner_name(mark)

    @property
    def learners(self) -> bool:
        """Whether a learner's code plays in this game."""
        return self.seats.learners

    def style_words(self) -> str:
        """How the computer plays, in words (`Seats.style_words`)."""
        return self.seats.style_words()

    def mark_of(self, index: int) -> Mark:
        """The mark that made the game's move number `index` (0-based): the sides alternate."""
        first = self.game.first
        return first if index % 2 == 0 else first.opponent

    @property
    def interactive(self) -> bool:
        """Whether a person may choose cells on the board now."""
        return self.mode is not Mode.COMPUTER_VS_COMPUTER and not self.game.is_over

    def close_engines(self) -> None:
        """End every outside engine's and learner's process (it starts again on its next move,
        a learner's reading its file again): at the end of each game, and when the game screen
        goes."""
        self.seats.close()

    def _fresh_game(self) -> tuple[Game, GameLog]:
        game = Game(self.settings.size, self.settings.win_length, self.settings.first_mark)
        for cell in self.setup:
            game.play(cell)
        return game, GameLog(self.settings, game.moves)

    # -- the turn cycle -------------------------------------------------------------------------

    def next_turn(self) -> list[Effect]:
        """Finish the game, start the computer, or wait for a person, as the position asks
        (nothing while an earlier position is shown: the game waits)."""
        if self.viewing is not None:
            return []
        if self.game.is_over:
            return self._finish()
        if self.thinking in ("computer", "hint"):
            return []
        if not self.settings.is_computer(self.game.board.to_move):
            if self.show_scores and self.thinking is None and self.analysed() is None:
                return self._search("scores")
            return []
        if self.mode is Mode.COMPUTER_VS_COMPUTER:
            if self.phase in (GamePhase.PAUSED, GamePhase.WAITING):
                return []
            self.phase = GamePhase.WAITING
            return [Wait(CVC_PAUSE)]
        return self._search("computer")

    def cvc_tick(self) -> list[Effect]:
        """Two computers: the pause between their moves is over."""
        self._end_wait()
        if (
            not self.paused
            and not self.game.is_over
            and self.thinking is None
            and self.viewing is None
        ):
            return self._search("computer")
        return []

    def _end_wait(self) -> None:
        """No `Wait` is out any more (it ended, or the search it led to was dropped)."""
        if self.phase is GamePhase.WAITING:
            self.phase = GamePhase.PLAYING

    def analysed(self) -> Analysis | None:
        """The analysis of the position on the board now, if one arrived."""
        return self.search.analysed(self.game.board)

    def _search(self, kind: Thinking, position: Position | None = None) -> list[Effect]:
        return self.search.start(kind, self.game.board if position is None else position)

    def _stop(self) -> list[Effect]:
        """Drop the running search and any move waiting for its turn."""
        self.search.run.stop()
        self._end_wait()
        return [StopSearch()]

    def progress(self, progress: Any) -> list[Effect]:
        """A report from the running search: shown live for the computer and a hint; for the
        quiet scoring, the caption under the board says how far it got."""
        return self.search.progress(progress, self.game.board)

    def search_done(self, result: Any) -> list[Effect]:
        """The running search's answer: the computer's `(decision, rng_state)`, or an analysis
        of a person's position."""
        kind = self.search.answered(result)
        if kind == "computer":
            decision, rng_state = result
            if rng_state is not None:
                # The player ran on a copy in the worker: carry its generator on from there.
                self.seats.rng.setstate(rng_state)
            if isinstance(decision, Forfeited):
                return self._forfeited(decision)
            return self._play_computer(decision)
        if kind == "view":
            return self._view_shown() if self.viewing is not None else []
        return self._hint_shown() if kind == "hint" else []

    def search_failed(self, error: str) -> list[Effect]:
        """A search raised or its process died: say so in one line, and go on."""
        if self.search.run.end() == "computer":
            # The game must go on: the computer plays a random move rather than stall.
            decision = self.seats.random_player().choose(self.game.board)
            effects = self._play_computer(decision)
            return [
                *effects,
                self._say(
                    f"The search failed ({error}): the computer played a random move instead."
                ),
            ]
        return [ClearPanel(analysis_failed(error)), self._say(analysis_failed(error))]

    def _forfeited(self, fault: Forfeited) -> list[Effect]:
        """An outside engine or a learner's code failed on its move: it loses, and the game
        ends (and is kept) with the reason."""
        mover = self.game.board.to_move
        learner = self.learner_name(mover)
        name = self.engine_name(mover) or learner or "the outside engine"
        self.engine_log = fault.log
        self.game.forfeit(mover, f"{self.who(mover)} ({name}) lost by a fault: {fault.reason}.")
        self.last_line = f"{self.who(mover)} lost by a fault: {fault.reason}."
        shows = "its traceback" if learner else "the last lines of its stderr"
        panel = f"{self.who(mover)} ({name}) lost by a fault: {fault.reason}." + (
            f"\n\nl shows {shows}." if fault.log else ""
        )
        return [ClearPanel(panel), *self._after_move()]

    def engine_words(self) -> list[Effect]:
        """l: the last lines of an outside engine's stderr (and what it printed in vain), in
        the panel: the failed engine's, else the running ones'."""
        shown = engine_panel(self.seats, self.engine_log, self.game.result)
        return [shown] if isinstance(shown, ClearPanel) else [self._say(shown)]

    def _play_computer(self, decision: Decision) -> list[Effect]:
        before = self.game.board
        try:
            self.game.play(decision.move)
        except IllegalMove as error:
            return [self._say(f"The computer tried an illegal move: {error}")]
        self.log.computer_move(decision, before.to_move, self.search.run.elapsed())
        effects: list[Effect] = [decision_panel(self.seats, decision, before)]
        # An outside engine's move is neither our clever move nor a random one: its own.
        style = (
            ""
            if decision.algorithm in (ENGINE, GUEST) or self.learner_name(before.to_move)
            else f"{'clever' if decision.clever else 'random'} — "
        )
        self.last_line = (
            f"{self.who(before.to_move)} played "
            f"{cell_notation(decision.move, before.size)}: {style}"
            f"{decision.reason}"
        )
        return effects + self._after_move()

    def _hint_shown(self) -> list[Effect]:
        position = self.game.board
        analysis = self.analysed()
        if analysis is None:
            return []
        if not analysis.scores:
            text = "No hint: the search stopped before scoring a move."
            return [ClearPanel(text), self._say(text)]
        best = analysis.scores[0]
        self.hint_shown = True
        self.notice = (
            f"Hint: {cell_notation(best.move, position.size)} ({move_words(best, position)})."
        )
        return [hint_panel(position, analysis)]

    def _after_move(self) -> list[Effect]:
        """Whoever moved: forget the old hint and hand the turn on."""
        self.notice = ""
        self.hint_shown = False
        return self.next_turn()

    # -- the end of a game ----------------------------------------------------------------------

    def _finish(self) -> list[Effect]:
        result = self.game.result
        if result is None or self.phase is GamePhase.OVER:
            return []
        self.phase = GamePhase.OVER
        self.close_engines()
        effects = self.record.finish(result, self.log, self.history_names())
        return [*effects, Finished(self.headline(), self.result_detail())]

    def abandon(self) -> PlayedGame | None:
        """The record of the game left unfinished now (one with a move played in it), once;
        None when there is nothing to keep or it was kept already."""
        if (
            self.record.kept is not None
            or self.game.is_over
            or len(self.game.moves) <= len(self.setup)
        ):
            return None
        return self.record.abandon(self.log, self.history_names())

    def headline(self) -> str:
        """The result in a few words: "You win!", "Computer wins", "X wins", "Draw"."""
        return game_view.headline(self)

    def result_detail(self) -> str:
        """How the game ended: the winning line and the number of moves."""
        return game_view.result_detail(self)

    # -- the position shown ---------------------------------------------------------------------

    def shown_position(self) -> Position:
        """The position on the board: the live one, or the earlier one being looked at."""
        if self.viewing is None:
            return self.game.board
        board = Position.empty(self.game.size, self.game.k, self.game.first)
        for cell in self.game.moves[: self.viewing]:
            board = board.play(cell)
        return board

    def _view_shown(self) -> list[Effect]:
        """The earlier position's analysis, or a search for it."""
        position = self.shown_position()
        number = self.viewing or 0
        if position.is_over:
            return [ClearPanel(f"After move {number}: the game is over here.")]
        analysis = self.search.view_analysis(position)
        if analysis is None:
            return self._search("view", position)
        return [view_panel(position, number, analysis)]

    # -- notices ----------------------------------------------------------------------------------

    def say(self, text: str) -> list[Effect]:
        """A notice about something the screen did on its own (the panel, the lines)."""
        return [self._say(text)]

    def _say(self, text: str) -> Say:
        """A notice: kept for the status line, and shown as a toast by the screen."""
        self.notice = text
        return Say(text)

    def clear_notice(self) -> None:
        """Forget the notice (the results dialog was closed to look at the board)."""
        self.notice = ""
