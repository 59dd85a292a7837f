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

`GameController` is the one face the screens use; its parts are elsewhere in `play`:
`turns.GameTurns` (its base: the turn cycle, the searches' answers, the end of a game, and
`GamePhase`, where the game is), `seats` (who plays each side), `game_search` (the game's one
search), `recording` (the game's one record), `game_panel` and `game_view` (what the panel, the
board and the status line say), `effects` (what it asks of the screen). Every name importers use
is still importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tictactoe_tui.engine import IllegalMove, Player, make_player
from tictactoe_tui.engine.rules.board import cell_notation, cell_words
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
from tictactoe_tui.play.game_panel import with_yours
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import GameSettings, Mode
from tictactoe_tui.play.turns import CVC_PAUSE, GamePhase, GameTurns
from tictactoe_tui.text.report import ALGORITHM_NAMES

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

WAITING_TWO_PEOPLE = "No analysis yet: press h to score every move of the side to move."
"""The panel's first words in a game between two people (no computer explains anything)."""

QUIT_KEYS = frozenset({"q", "y", "ctrl+c", "ctrl+q"})
"""The keys that answer "quit in the middle of the game?" with yes: q and y, and Ctrl+C and
Ctrl+Q, which quit as q does (pressed twice, they quit)."""


def _make_player(*args: Any, **kwargs: Any) -> Player:
    """`engine.make_player`, looked up here at each call: the app's tests replace this module's
    `make_player` to hold or break the computer's searches."""
    return make_player(*args, **kwargs)


class GameController(GameTurns):
    """One game at a time with the given settings; `new_game` starts the next one. The screen's
    one face: a person's keys and moves, and what the screen draws (the turn cycle underneath
    is `GameTurns`')."""

    def __init__(
        self, settings: GameSettings, setup: Sequence[int] = (), session: SessionScore | None = None
    ) -> None:
        """Prepare a game with `settings`, from the position `setup` leads to (default: the
        empty board). `session` is the score kept across games (the app's)."""
        super().__init__(settings, setup, session, _make_player)

    def resume(self) -> list[Effect]:
        """Back on the screen (from help, settings, the lab or the results): carry on, unless
        the game is over (the results are the dialog's business) or a search runs; an earlier
        position shown gets its analysis back."""
        if self.viewing is not None:
            return self._view_shown() if self.thinking is None else []
        if self.thinking is None and not self.game.is_over:
            return self.next_turn()
        return []

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

    # -- keys -------------------------------------------------------------------------------------

    def new_game(self, from_setup: bool = True) -> list[Effect]:
        """Start again with the same settings (from the setup position, unless `from_setup` is
        False: then from the empty board, for good); a running search is dropped at once."""
        effects = self._stop()
        self.viewing = None
        self.search.forget()
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
            self.search.run.what = "hint"
            return [self.search.shown(None)]
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
