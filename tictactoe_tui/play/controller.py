"""The rules of the Game screen, without Textual: whose turn it is, what the computer is asked to
think about, what undo takes back, when a game is kept in the history, and what the status line
says.

The screen hands every event to a `GameController` (a cell chosen, a key, a search's answer) and
carries out the effects it returns, in order: say something, start or stop a search, show a
report in the panel, record a game, show the results, quit. After each call the screen redraws
the board, the move list and the status from the controller's queries (`board_view`,
`move_list`, `score_overlay`, `status`). The searches themselves run in the worker process; the
screen runs one at a time, so an answer always belongs to the search the controller asked for
last (`thinking` says what that search is for).

A game starts from the empty board or from `setup` moves (the review's "play from here"); those
moves are never taken back. A game with a move played in it is kept when it ends, and kept as
abandoned when it is left unfinished (new game, settings, quit, a signal, a crash): `abandon()`
gives the record once, so the app can save it on the way out. A finished game is one game however
often undo reopens it: undo hands back its record (`Reopened`) for the history to forget, the
session uncounts it, and it is kept again, once, when it ends or is left.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from tictactoe_tui.engine import (
    Algorithm,
    Analysis,
    Decision,
    EngineReport,
    Game,
    IllegalMove,
    Mark,
    Player,
    make_player,
)
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.players.guest import GUEST
from tictactoe_tui.engine.players.outside import ENGINE
from tictactoe_tui.engine.rules.board import cell_notation, cell_words
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.play import game_view
from tictactoe_tui.play.effects import (
    Bell,
    BoardView,
    ClearPanel,
    Effect,
    Finished,
    Quit,
    Record,
    Reopened,
    Say,
    ScoreChanged,
    ScoreOverlay,
    Search,
    ShowReport,
    ShowThinking,
    Status,
    StopSearch,
    Thinking,
    Wait,
    runs_in_process,
)
from tictactoe_tui.play.game_panel import (
    decision_panel,
    engine_panel,
    hint_panel,
    view_panel,
    with_yours,
)
from tictactoe_tui.play.log import GameLog
from tictactoe_tui.play.recording import GameRecord
from tictactoe_tui.play.searching import (
    SearchRun,
    analysis_failed,
    analysis_search,
    thinking_shown,
)
from tictactoe_tui.play.seats import Seats
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.text.panel import ThinkingReport
from tictactoe_tui.text.report import ALGORITHM_NAMES, move_words
from tictactoe_tui.worker.jobs import Forfeited, choose_move

__all__ = [
    "CVC_PAUSE",
    "QUIT_KEYS",
    "WAITING_TWO_PEOPLE",
    "Bell",
    "BoardView",
    "ClearPanel",
    "Effect",
    "Finished",
    "GameController",
    "GamePhase",
    "Quit",
    "Record",
    "Reopened",
    "Say",
    "ScoreChanged",
    "ScoreOverlay",
    "Search",
    "ShowReport",
    "ShowThinking",
    "Status",
    "StopSearch",
    "Thinking",
    "Wait",
    "runs_in_process",
    "with_yours",
]

CVC_PAUSE = 0.6
"""Seconds between moves when two computers play, so a person can follow (never 0: a Textual
timer of 0 raises)."""

WAITING_TWO_PEOPLE = "No analysis yet: press h to score every move of the side to move."
"""The panel's first words in a game between two people (no computer explains anything)."""

QUIT_KEYS = frozenset({"q", "y", "ctrl+c", "ctrl+q"})
"""The keys that answer "quit in the middle of the game?" with yes: q and y, and Ctrl+C and
Ctrl+Q, which quit as q does (pressed twice, they quit)."""


def _make_player(*args: Any, **kwargs: Any) -> Player:
    """`engine.make_player`, looked up here at each call: the app's tests replace this module's
    `make_player` to hold or break the computer's searches."""
    return make_player(*args, **kwargs)


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


class GameController:
    """One game at a time with the given settings; `new_game` starts the next one."""

    def __init__(
        self, settings: GameSettings, setup: Sequence[int] = (), session: SessionScore | None = None
    ) -> None:
        """Prepare a game with `settings`, from the position `setup` leads to (default: the
        empty board). `session` is the score kept across games (the app's)."""
        self.settings = settings
        """The settings every game here is played with."""
        self.setup = tuple(setup)
        """The moves every game starts from ("play from here" in a review)."""
        self.session = session if session is not None else SessionScore()
        """The score over the games of this session."""
        self.seats = Seats(settings, _make_player)
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
        self.scores_progress = ""
        """How far the quiet scoring got, for the caption under the board."""
        self._run: SearchRun[Thinking] = SearchRun(
            Position.empty(settings.size, settings.win_length)
        )
        self._analysis: tuple[Position, Analysis] | None = None
        self._view_analyses: dict[Position, Analysis] = {}
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
        return self._run.what

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

    def resume(self) -> list[Effect]:
        """Back on the screen (from help, settings, the lab or the results): carry on, unless
        the game is over (the results are the dialog's business) or a search runs; an earlier
        position shown gets its analysis back."""
        if self.viewing is not None:
            return self._view_shown() if self.thinking is None else []
        if self.thinking is None and not self.game.is_over:
            return self.next_turn()
        return []

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
        if self._analysis is not None and self._analysis[0] is self.game.board:
            return self._analysis[1]
        return None

    def _search(self, kind: Thinking, position: Position | None = None) -> list[Effect]:
        position = self.game.board if position is None else position
        self._run.start(kind, position)
        # Until its first report, the quiet scoring says at least that it runs.
        self.scores_progress = f"scoring {position.to_move}'s moves…"
        if kind == "computer":
            player = self.seats.sides[position.to_move]
            algorithm = self.playing(position.to_move)
            # An outside engine or a learner's code runs in its own process already: the app's
            # thread only waits for its answer (and the process must stay a child of the app,
            # to end with it).
            in_process = self.seats.foreign(position.to_move)
            in_process = in_process or runs_in_process(position.size, algorithm)
            search = Search(kind, choose_move, (player, self.seats.rng, position), in_process)
        else:
            limit, depth = self.settings.search_time_limit, self.settings.depth
            search = analysis_search(kind, position, self.hint_algorithm(), limit, depth)
        if kind == "scores":
            return [search]
        return [search, self._thinking_shown(None)]

    def _stop(self) -> list[Effect]:
        """Drop the running search and any move waiting for its turn."""
        self._run.stop()
        self._end_wait()
        return [StopSearch()]

    def progress(self, progress: Any) -> list[Effect]:
        """A report from the running search: shown live for the computer and a hint; for the
        quiet scoring, the caption under the board says how far it got."""
        if self.thinking in ("computer", "hint", "view"):
            return [self._thinking_shown(progress)]
        if self.thinking == "scores":
            budget = self.settings.search_time_limit
            clock = (
                f"{progress.elapsed:.1f} of {budget:g} s"
                if budget is not None
                else f"{progress.elapsed:.1f} s"
            )
            depth = f"depth {progress.depth}, " if progress.depth else ""
            self.scores_progress = f"scoring {self.game.board.to_move}'s moves… {depth}{clock}"
        return []

    def _thinking_shown(self, progress: Any) -> ShowThinking:
        position = self._run.position
        mover = position.to_move
        if self.thinking != "computer":
            algorithm = self.hint_algorithm()
            title = f"Analysing {mover}'s position…"
        else:
            algorithm = self.playing(mover)
            title = f"{self.who(mover)} is thinking…"
            foreign = self.learner_name(mover) or self.engine_name(mover)
            if foreign:
                return self._foreign_thinking(title, progress)
        budget = self.settings.search_time_limit if algorithm == Algorithm.ALPHABETA else None
        return thinking_shown(title, algorithm, progress, position, budget)

    def _foreign_thinking(self, title: str, progress: Any) -> ShowThinking:
        """An outside engine or a learner's code thinking: its clock (and an engine's words)."""
        mover = self._run.position.to_move
        seconds = self.settings.spec_for(mover).time_limit
        elapsed = progress.elapsed if progress is not None else 0.0
        learner = self.learner_name(mover)
        if learner:
            report = ThinkingReport(title, learner, 0, 0, elapsed, seconds, "", "")
        else:
            name = self.engine_name(mover)
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

    def search_done(self, result: Any) -> list[Effect]:
        """The running search's answer: the computer's `(decision, rng_state)`, or an analysis
        of a person's position."""
        kind = self._run.end()
        if kind == "computer":
            decision, rng_state = result
            if rng_state is not None:
                # The player ran on a copy in the worker: carry its generator on from there.
                self.seats.rng.setstate(rng_state)
            if isinstance(decision, Forfeited):
                return self._forfeited(decision)
            return self._play_computer(decision)
        if kind is None:
            return []
        if kind == "view":
            self._view_analyses[self._run.position] = result
            return self._view_shown() if self.viewing is not None else []
        self._analysis = (self._run.position, result)
        if kind == "hint":
            return self._hint_shown()
        return []

    def search_failed(self, error: str) -> list[Effect]:
        """A search raised or its process died: say so in one line, and go on."""
        if self._run.end() == "computer":
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
        self.log.computer_move(decision, before.to_move, self._run.elapsed())
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

    # -- a person's moves -----------------------------------------------------------------------

    def choose(self, cell: int) -> list[Effect]:
        """A person chose `cell` (a click, Enter, a digit): play it if the rules and the turn
        allow, else say why not (nothing changes)."""
        if self.viewing is not None and not self.hidden:
            # A key that plays returns to the game first, then plays there.
            return [*self.to_live(), *self.choose(cell)]
        position = self.game.board
        size = position.size
        refusal = self._refusal(cell)
        if refusal is not None:
            return [refusal]
        try:
            self.game.play(cell)
        except IllegalMove as error:
            return [self._say(str(error))]
        self.log.human_move(cell, position.to_move)
        effects = self._stop()
        self.last_line = f"{self.who(position.to_move)} played {cell_notation(cell, size)}."
        return effects + self._after_move()

    def _refusal(self, cell: int) -> Effect | None:
        """Why a person may not play `cell` now (None: they may try)."""
        position = self.game.board
        size = position.size
        if self.hidden:
            return Bell()
        if self.mode is Mode.COMPUTER_VS_COMPUTER:
            return self._say("Two computers are playing: space pauses, n starts a new game.")
        if self.game.is_over:
            return self._say("The game is over: n starts a new one, u takes back the last move.")
        if self.thinking == "computer":
            return self._say("Wait: the computer is still thinking. Your move was not played.")
        if self.settings.is_computer(position.to_move):
            return self._say("It is the computer's turn.")
        taken = position[cell] if 0 <= cell < size * size else None
        if taken is not None:
            where = f"{cell_notation(cell, size)} ({cell_words(cell, size)})"
            return self._say(f"{where} is taken by {taken}.")
        return None

    def digit_allowed(self) -> Effect | None:
        """Why a digit key cannot place a mark now (None when it can)."""
        if self.settings.size != 3:
            return self._say("Digits place marks on 3×3 only: use the arrows and Enter, or click.")
        if self.hidden:
            return Bell()
        return None

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

    # -- keys -------------------------------------------------------------------------------------

    def new_game(self, from_setup: bool = True) -> list[Effect]:
        """Start again with the same settings (from the setup position, unless `from_setup` is
        False: then from the empty board, for good); a running search is dropped at once."""
        effects = self._stop()
        self.viewing = None
        self._view_analyses = {}
        kept = self.abandon()
        if kept is not None:
            effects.append(Record(kept))
        if not from_setup:
            self.setup = ()
        self.close_engines()
        self.engine_log = ()
        self.game, self.log = self._fresh_game()
        self.record.forget()
        self.phase = GamePhase.PLAYING
        self._analysis = None
        self.hint_shown = False
        self.last_line = ""
        if self.setup:
            # Not the empty board: say so, on the status line and as a toast.
            effects.append(self._say(f"New game from the position after move {len(self.setup)}."))
        else:
            self.notice = "New game."
        panel = WAITING_TWO_PEOPLE if self.mode is Mode.HUMAN_VS_HUMAN else None
        return [*effects, ClearPanel(panel), ScoreChanged(), *self.next_turn()]

    def toggle_clever(self) -> list[Effect]:
        """Switch the computer between clever and random, from its next move."""
        if self.mode is Mode.HUMAN_VS_HUMAN:
            return [self._say("No computer plays in a game between two people.")]
        if self.engines_only:
            return [
                self._say(
                    "Your code plays its own moves: c changes nothing."
                    if self.learners
                    else "An outside engine plays its own moves: c changes nothing."
                )
            ]
        self.seats.switch()
        self.log.switched(self.clever)
        later = " (from its next move)" if self.thinking == "computer" else ""
        words = self.style_words() if self.seats.own_sides else ALGORITHM_NAMES[self.playing()]
        return [self._say(f"The computer now plays {words}{later}.")]

    def undo(self) -> list[Effect]:
        """Take back the last move; against the computer, your last move and its reply."""
        if self.mode is Mode.COMPUTER_VS_COMPUTER:
            return [self._say("Undo takes back a person's move: there is none in this game.")]
        if self.hidden:
            return [Bell()]
        if self.viewing is not None:
            return [*self.to_live(), *self.undo()]
        game = self.game
        undone = self._undoable()
        if isinstance(undone, Say):
            return [undone]
        effects = self._stop()
        result = game.result
        if result is not None and self.phase is GamePhase.OVER:
            # The game is open again: its result no longer counts, here or in the history, and
            # it is kept again when it ends (or is abandoned): one game, one record.
            effects += self.record.reopen(result)
            self.phase = GamePhase.PLAYING
        taken = [game.undo() for _ in range(undone)]
        self.log.undone(undone)
        names = ", ".join(cell_notation(cell, game.size) for cell in reversed(taken))
        self.hint_shown = False
        self.last_line = ""
        effects.append(ClearPanel("Move taken back. Press h to analyse this position."))
        effects += self.next_turn()
        return [*effects, self._say(f"Took back {names}.")]

    def _undoable(self) -> int | Say:
        """How many moves undo takes back (the setup's stay), or why it takes none."""
        start = len(self.setup)
        moves = self.game.moves
        if self.mode is Mode.HUMAN_VS_HUMAN:
            undone = 1 if len(moves) > start else 0
        else:
            # Take back the computer's replies, then the human's move before them.
            human = self.settings.human_mark
            marks = [self.mark_of(i) for i in range(start, len(moves))]
            if human not in marks:
                return self._say("Nothing to undo: you have not moved yet.")
            undone = len(marks) - max(i for i, m in enumerate(marks) if m is human)
        if undone == 0:
            return self._say("Nothing to undo: no move has been played.")
        return undone

    def hint(self) -> list[Effect]:
        """Analyse the position of the side to move and show it in the panel (an earlier
        position shown: its analysis; two computers paused: the position they stopped at)."""
        if self.viewing is not None:
            return self._view_shown() if self.thinking is None else []
        if self.game.is_over:
            return [self._say("The game is over: there is no move to hint.")]
        if self.thinking == "computer" or (
            self.settings.is_computer(self.game.board.to_move) and not self.paused
        ):
            return [self._say("The computer's own analysis will show in the panel when it moves.")]
        self.notice = ""  # the turn line says "Analysing X's position…" meanwhile
        if self.analysed() is not None:
            return self._hint_shown()
        if self.thinking == "scores":
            # The quiet scoring already runs: let it finish as the hint, shown live from now.
            self._run.what = "hint"
            return [self._thinking_shown(None)]
        return self._search("hint")

    def toggle_scores(self) -> list[Effect]:
        """Show or hide the scores written faintly in the empty cells."""
        self.show_scores = not self.show_scores
        if self.show_scores:
            effects: list[Effect] = [self._say("Scores on the board shown.")]
            if self.thinking is None and not self.game.is_over:
                effects += self.next_turn()
            return effects
        effects = self._stop() if self.thinking == "scores" else []
        return [*effects, self._say("Scores on the board hidden.")]

    def toggle_pause(self) -> list[Effect]:
        """Pause or resume a game between two computers."""
        if self.mode is not Mode.COMPUTER_VS_COMPUTER:
            return []
        if self.game.is_over:
            return [self._say("The game is over: n starts a new one.")]
        if self.viewing is not None:
            return [*self.to_live(), *self.toggle_pause()]
        self.phase = GamePhase.PLAYING if self.paused else GamePhase.PAUSED
        # Stop at once, even mid-search: the board stays as it is until space again.
        effects: list[Effect] = self._stop()
        # The turn line says "Paused: space resumes"; only resuming needs a word.
        self.notice = "" if self.paused else "Resumed."
        if self.paused:
            # The position the computers stopped at, analysed in the panel (h shows it again).
            return [*effects, *self._search("hint")]
        return effects + self.next_turn()

    # -- stepping through the game ---------------------------------------------------------------

    def shown_position(self) -> Position:
        """The position on the board: the live one, or the earlier one being looked at."""
        if self.viewing is None:
            return self.game.board
        board = Position.empty(self.game.size, self.game.k, self.game.first)
        for cell in self.game.moves[: self.viewing]:
            board = board.play(cell)
        return board

    def view_analysis(self, position: Position) -> Analysis | None:
        """The analysis of an earlier position of the game, once one arrived."""
        return self._view_analyses.get(position)

    def step(self, delta: int) -> list[Effect]:
        """`,` / `.`: show the position `delta` moves earlier (or later), read-only, with its
        analysis, while the game waits; stepping past the last move returns to the game."""
        if self.hidden:
            return [Bell()]
        moves = len(self.game.moves)
        now = moves if self.viewing is None else self.viewing
        target = now + delta
        if target < 0:
            return [self._say("This is the start of the game: there is no move before it.")]
        if target >= moves:
            if self.viewing is None:
                return [self._say("This is the game as it stands: , steps back through it.")]
            return self.to_live()
        effects = self._stop()  # the game waits: no computer move, no scoring meanwhile
        self.viewing = target
        self.notice = ""
        return effects + self._view_shown()

    def to_live(self) -> list[Effect]:
        """Back to the game as it stands, which goes on."""
        if self.viewing is None:
            return []
        self.viewing = None
        effects = self._stop()
        self.notice = "Back to the game."
        report = self.analysed()
        panel: Effect = (
            ClearPanel("Back to the game: h analyses the position.")
            if report is None or not self.hint_shown
            else self._hint_shown()[0]
        )
        return [*effects, panel, *self.next_turn()]

    def _view_shown(self) -> list[Effect]:
        """The earlier position's analysis, or a search for it."""
        position = self.shown_position()
        number = self.viewing or 0
        if position.is_over:
            return [ClearPanel(f"After move {number}: the game is over here.")]
        analysis = self._view_analyses.get(position)
        if analysis is None:
            return self._search("view", position)
        return [view_panel(position, number, analysis)]

    def leave(self) -> list[Effect]:
        """The player goes elsewhere (settings, the match runner, the heuristic lab): stop the
        search; it starts again on `resume`."""
        return self._stop()

    # -- the quit question ------------------------------------------------------------------------

    def request_quit(self) -> list[Effect]:
        """q: quit; in the middle of a game, ask once first (q again or y confirms)."""
        if self.quit_pending or not self.game.moves or self.game.is_over:
            return self._quit()
        self.quit_pending = True
        return [
            self._say("Quit in the middle of the game? q again or y quits; any other key goes on.")
        ]

    def confirm_quit(self) -> list[Effect]:
        """y after "quit?": keep the game as abandoned and quit."""
        return self._quit() if self.quit_pending else []

    def _quit(self) -> list[Effect]:
        effects = self._stop()
        self.close_engines()
        kept = self.abandon()
        if kept is not None:
            effects.append(Record(kept))
        return [*effects, Quit()]

    def key_pressed(self, key: str) -> bool:
        """Any key but the quitting ones withdraws a pending "quit?"; True when it did."""
        if self.quit_pending and key not in QUIT_KEYS:
            self.quit_pending = False
            self.notice = ""
            return True
        return False

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

    # -- what the screen draws --------------------------------------------------------------------

    def board_view(self) -> BoardView:
        """The marks, the last move, the winning line and the digit labels on 3×3."""
        return game_view.board_view(self)

    def score_overlay(self) -> ScoreOverlay:
        """The faint scores in the empty cells and their caption (`game_view.score_overlay`)."""
        return game_view.score_overlay(self)

    def move_list(self) -> list[tuple[str, str]]:
        """Every move so far as (mark, cell name)."""
        return game_view.move_list(self)

    def status(self) -> Status:
        """The status line: the players, whose turn it is, the notice, the last move."""
        return game_view.status(self)
