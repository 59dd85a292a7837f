"""`tictactoe-tui --text [game flags]`: the game as plain lines on stdin and stdout.

For screen readers, braille displays and pipes: nothing is drawn, nothing moves on the screen,
every line is a sentence. The flow is the Game screen's without the screen: the same
`GameController` decides everything; this loop reads one line, hands it to the controller (a
cell chosen, undo, hint, new, quit) and carries out the effects it returns, in order, printing
what happened in one sentence per move. A search the controller asks for runs to its end before
the next line is read, so a script can pipe a whole game in (`printf '5\\n1\\n' | tictactoe-tui
--text`) and a move typed while the computer thinks is simply the next one read.

The same flags as the full-screen app (`cli.flags`, read without loading Textual), the same
history (every game ended or left is kept, so `tictactoe-tui history` lists it), the same
settings remembered. Bad input gets one sentence and changes nothing; the end of the input (or
Ctrl+C) ends the program cleanly, keeping a game left unfinished as abandoned.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, replace
from typing import TextIO, assert_never

from tictactoe_tui.cli.flags import TEXT_MODE_FLAG, data_dir_flag, parse_args
from tictactoe_tui.cli.text_predict import TextPredictions
from tictactoe_tui.cli.text_search import run_to_end
from tictactoe_tui.cli.text_words import opening_lines, players_words, read_cell, thinking_words
from tictactoe_tui.engine import Mark
from tictactoe_tui.engine.players.outside import ENGINE
from tictactoe_tui.history import notices
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.controller import (
    Bell,
    ClearPanel,
    Effect,
    Finished,
    GameController,
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
)
from tictactoe_tui.play.session import SessionScore, all_time
from tictactoe_tui.play.settings import GameSettings, Mode, settings_from_values
from tictactoe_tui.text.panel import PanelReport
from tictactoe_tui.text.plain import WORDS, board_lines, help_lines, report_lines, tally_words
from tictactoe_tui.worker.client import Thinker

UNSAID = (Bell, StopSearch, ShowThinking, ScoreChanged, ClearPanel)
"""The effects the text mode carries out by doing nothing: nothing is drawn, no search runs in
the background, and the panel's own notes ("press h") name keys of the full screen. Every other
effect is told (a test checks that each of the controller's effects is one or the other)."""

PROMPT = "> "
"""What a terminal shows where the next line is typed (never written into a pipe)."""

INTERRUPTED = 130
"""The exit status after Ctrl+C (128 + SIGINT), as the full-screen app's."""

COMMANDS = {alias: word for word, short, _ in WORDS for alias in (word, short)}
"""Every word the loop understands, and its short form, mapped to the word."""
COMMANDS["exit"] = "quit"


def main(argv: Sequence[str]) -> int:
    """Play in the text mode with the game flags in `argv` (which hold `--text`)."""
    flags = [arg for arg in argv if arg != TEXT_MODE_FLAG]
    settings, any_game_flag = parse_args(flags, text_mode=True)
    store = HistoryStore.open(data_dir_flag(flags))
    if store.notice:
        print(store.notice, file=sys.stderr)
    last = settings_from_values(store.last_settings() or {})
    if not any_game_flag and last is not None:
        # Where the full-screen app opens Settings with them: the last game's settings.
        settings = last
    else:
        # The theme is the full-screen app's business: keep the one it remembers.
        settings = replace(settings, theme=last.theme) if last is not None else settings
        store.remember_settings(asdict(settings))
    game = TextGame(settings, store, sys.stdout)
    if threading.current_thread() is threading.main_thread():
        # Ctrl+C ends the game as `quit` does even when the program was started with SIGINT
        # ignored (a shell's background job inherits that): Python would then never raise
        # KeyboardInterrupt, and a search would run on to its clock.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return game.play(typed_lines(sys.stdin))
    finally:
        game.close()
        store.close()


def engine_move_line(played: str, said: Sequence[str]) -> str:
    """An outside engine's move in one line: `played` ("Computer (O) (Rapfi, an outside
    engine) played D5."), then only the last of its MESSAGE lines `said`, and how to hear
    the rest."""
    if not said:
        return f"{played} It said nothing about it."
    rest = f" (engine: all {len(said)} lines)" if len(said) > 1 else ""
    return f"{played} Its last word: {said[-1]}{rest}"


def typed_lines(stream: TextIO, prompt: str = PROMPT) -> Iterator[str]:
    """The lines typed or piped in; a terminal gets a prompt and line editing (`input`)."""
    if stream.isatty():
        while True:
            try:
                yield input(prompt)
            except EOFError:
                print()  # the prompt's line ends, so the next words start on their own
                return
    else:
        yield from stream


class TextGame:
    """One session of games in the text mode: a controller, the history, the output."""

    def __init__(self, settings: GameSettings, store: HistoryStore, out: TextIO) -> None:
        """Prepare a game with `settings`, kept in `store`, told on `out`."""
        self.controller = GameController(settings, session=SessionScore())
        """The game's rules, as the Game screen's."""
        # The board's faint scores have nowhere to show: no quiet scoring after each move.
        self.controller.show_scores = False
        self.store = store
        self.out = out
        self.thinker = Thinker()
        """Runs the searches (in this process: nothing else runs while the computer thinks)."""
        self.report: PanelReport | str | None = None
        """The computer's reasons for its last move (what the panel would show), for `why`."""
        self._quit = False
        self._told: tuple[object, int] | None = None
        self._input: Iterator[str] = iter(())
        self.engine_said: tuple[str, ...] = ()
        """The MESSAGE lines of the outside engine's last move, for the `engine` word."""
        self.predictions: TextPredictions | None = None
        """Predict mode's questions (None while it is off)."""
        self._predict_on = settings.predict

    # -- the loop -------------------------------------------------------------------------------

    def play(self, lines: Iterable[str]) -> int:
        """Play from `lines` until quit or their end; the exit status."""
        self._input = iter(lines)
        if self._predict_on:
            self.predictions = TextPredictions(self.store, self._input, self._say)
        try:
            self._say(*opening_lines(self.controller))
            self._run(self.controller.next_turn())
            self._say_turn()
            for line in self._input:
                self._handle(line.strip())
                if self._quit:
                    return 0
                self._say_turn()
            self._leave("End of input.")
        except KeyboardInterrupt:
            self._leave("Interrupted.")
            return INTERRUPTED
        return 0

    def close(self) -> None:
        """Keep a game left unfinished (if it was not kept yet: the output may have gone, so
        without a word), and end the searches and every outside engine's or learner's process
        (reaped, so none outlives the program)."""
        self._keep_unfinished()
        self.controller.close_engines()
        self.thinker.close()

    def _leave(self, why: str) -> None:
        """The input ended: keep a game left unfinished, and say where it went."""
        kept = self._keep_unfinished()
        self._say(f"{why} {kept}" if kept else why)

    def _keep_unfinished(self) -> str:
        """Save a game left unfinished as abandoned, once: where it went, in a sentence ("" when
        there was none)."""
        game = self.controller.abandon()
        return "" if game is None else self._where_kept(game, ending=True)

    def _where_kept(self, game: PlayedGame, ending: bool) -> str:
        """Save the unfinished `game` and say where it went, true to what the store did (the
        program `ending` after it or not)."""
        kept = self.store.keep(game)
        return notices.game_kept(
            "The unfinished game",
            self.store.path.parent,
            saved=kept.game_id is not None,
            record=kept.record,
            in_memory=kept.in_memory,
            why=kept.why,
            ending=ending,
        )

    def _keep_first(self, effects: Sequence[Effect]) -> list[Effect]:
        """Keep the unfinished game that `effects` (new, quit) record, at once, saying where it
        went; the other effects, to carry out after that sentence."""
        rest: list[Effect] = []
        ending = any(isinstance(effect, Quit) for effect in effects)
        for effect in effects:
            if isinstance(effect, Record):
                self._say(self._where_kept(effect.game, ending=ending))
            else:
                rest.append(effect)
        return rest

    def _handle(self, text: str) -> None:
        """One line: a cell, a word, or one sentence saying what was not understood."""
        if not text:
            return
        word = COMMANDS.get(text.lower())
        if word is None:
            self._choose(text)
        elif word == "undo":
            self._run(self.controller.undo())
        elif word == "hint":
            self._run(self.controller.hint())
        elif word == "why":
            self._why()
        elif word == "engine":
            self._engine_words()
        elif word == "clever":
            self._run(self.controller.toggle_clever())
        elif word == "board":
            self._say(*board_lines(self.controller.game.board))
        elif word == "moves":
            self._moves()
        elif word == "score":
            self._score()
        elif word == "predict":
            self._toggle_predict()
        elif word == "new":
            self.report = None
            if self.predictions is not None:
                self.predictions.new_game()
            effects = self._keep_first(self.controller.new_game())
            self._say(f"New game. {players_words(self.controller)}")
            self._run(effects)
        elif word == "help":
            self._say(*help_lines(self.controller.settings.size))
        else:
            effects = self.controller.request_quit()
            if not any(isinstance(effect, Quit) for effect in effects):
                # Mid-game the screen asks "quit?" first; typing the word is the answer.
                effects = self.controller.confirm_quit()
            self._run(self._keep_first(effects))

    def _choose(self, text: str) -> None:
        """A cell typed by name (or by digit on 3×3): played if the rules allow."""
        controller = self.controller
        size = controller.settings.size
        if controller.mode is Mode.COMPUTER_VS_COMPUTER and not controller.game.is_over:
            self._say("Two computers play this game: new starts another, quit ends.")
            return
        cell = read_cell(text, size)
        if isinstance(cell, str):
            self._say(cell)
            return
        before = len(controller.game.moves)
        effects = controller.choose(cell)
        if len(controller.game.moves) > before:
            self._say(controller.last_line)
        self._run(effects)

    # -- the controller's effects ---------------------------------------------------------------

    def _run(self, effects: Sequence[Effect]) -> None:
        """Carry out the controller's effects in order, and those they lead to."""
        todo: deque[Effect] = deque(effects)
        while todo:
            effect = todo.popleft()
            more: Sequence[Effect] = ()
            match effect:
                case Say():
                    self._say(effect.text)
                case Search():
                    more = self._search(effect)
                case Wait():
                    # Two computers: a reader reads at their own pace, the lines wait for them.
                    more = self.controller.cvc_tick()
                case ShowReport():
                    # The panel shows either the hint asked for or the computer's reasons (told
                    # as it moved, kept for `why`).
                    if self.controller.hint_shown:
                        self._say(*report_lines(effect.report, played_move=False))
                case Record():
                    self._keep(effect)
                case Reopened():
                    self._forget(effect)
                case Finished():
                    self._finished(effect)
                case Quit():
                    self._quit = True
                case Bell() | StopSearch() | ShowThinking() | ScoreChanged() | ClearPanel():
                    pass  # `UNSAID`: nothing is drawn, nothing runs in the background
                case _:
                    assert_never(effect)
            todo.extendleft(reversed(more))

    def _search(self, search: Search) -> Sequence[Effect]:
        """Run one search to its end (the next line waits), then hand its answer over."""
        controller = self.controller
        if not search.in_process:
            self._say(thinking_words(controller, search))
        result, error = run_to_end(self.thinker, search)
        if search.kind == "computer" and error is None and self._predicting():
            assert self.predictions is not None
            decision = result[0]
            self.predictions.ask(controller.game.board, getattr(decision, "analysis", None))
        # A failed computer search still moves (at random, and a Say tells why).
        effects = (
            controller.search_failed(error) if error is not None else controller.search_done(result)
        )
        if search.kind == "computer":
            decision = result[0] if error is None else None
            engine = getattr(decision, "algorithm", "") == ENGINE
            if engine:
                self.engine_said = tuple(getattr(decision, "said", ()))
            self._say(*self._computer_moved(effects, engine))
        return effects

    def _computer_moved(self, effects: Sequence[Effect], engine: bool = False) -> list[str]:
        """The computer's move in a sentence or two, from what the panel would show first:
        "Computer (O) played C1. A clever move: alpha-beta: draw."; kept for `why`. Nothing
        when it did not move (its Say tells why). An outside `engine`'s move keeps only its
        last MESSAGE line (a screen reader would read them all): `engine` tells the rest."""
        shown = effects[0] if effects else None
        if isinstance(shown, ShowReport):
            self.report = shown.report
            return [f"{shown.report.title}. {shown.report.verdict}"]
        if engine and isinstance(shown, ClearPanel) and shown.text:
            self.report = shown.text
            return [engine_move_line(shown.text.split("\n", 1)[0], self.engine_said)]
        if isinstance(shown, ClearPanel) and shown.text:
            # A random player's move has no analysis: the panel's words say so instead.
            self.report = shown.text
            result = self.controller.game.result
            controller = self.controller
            if result is not None and result.forfeit and controller.learners:
                # Your code lost by a fault: the reason, then the traceback the full screen's
                # l shows (here there is no key for it).
                reason = shown.text.split("\n\n")[0]
                trace = controller.engine_log
                return [reason, *(("Its traceback:", *trace) if trace else ())]
            return [shown.text]
        return []

    def _keep(self, record: Record) -> None:
        """Save a game in the history; say so when the history cannot."""
        before = self.store.notice
        self.store.save(record.game)
        if self.store.notice and self.store.notice != before:
            self._say(self.store.notice)

    def _forget(self, reopened: Reopened) -> None:
        """Undo reopened a finished game: out of the history until it ends again (as the app)."""
        before = self.store.notice
        self.store.forget(reopened.game)
        if self.store.notice and self.store.notice != before:
            self._say(self.store.notice)

    def _finished(self, finished: Finished) -> None:
        """The game ended: the result, how, the session's score, what next."""
        controller = self.controller
        tally = controller.session.tally(controller.settings.mode)
        undo = (
            ""
            if controller.mode is Mode.COMPUTER_VS_COMPUTER
            else "undo to take the last move back, "
        )
        predictions = self.predictions if self._predicting() else None
        predicted = [] if predictions is None else [predictions.game_over()]
        self._say(
            f"Game over: {finished.headline.rstrip('!')}. {finished.detail}",
            *predicted,
            f"This session: {tally_words(tally)}.",
            f"Type new for another game, {undo}or quit.",
        )

    # -- predict mode ---------------------------------------------------------------------------

    def _predicting(self) -> bool:
        """True when the learner is asked before each computer move (a person plays it)."""
        return self.predictions is not None and self.controller.mode is Mode.HUMAN_VS_COMPUTER

    def _toggle_predict(self) -> None:
        """The predict word: the questions on or off, from the next computer move."""
        if self.controller.mode is not Mode.HUMAN_VS_COMPUTER:
            self._say(
                "Predict mode asks about the computer's replies to you: it needs a game "
                "against the computer."
            )
            return
        if self.predictions is None:
            self.predictions = TextPredictions(self.store, self._input, self._say)
            self._say(
                "Predict mode on: before each computer move you say which move it will "
                "play and what the position is worth for it."
            )
        else:
            self.predictions = None
            self._say("Predict mode off: the computer's moves are told at once.")

    # -- the words ------------------------------------------------------------------------------

    def _say_turn(self) -> None:
        """Whose turn it is, when a person is to move and the position is new (not after a
        word that changed nothing, such as board or help)."""
        controller = self.controller
        board = controller.game.board
        position = (controller.game, len(controller.game.moves))
        if position == self._told:
            return
        self._told = position
        if controller.game.is_over or controller.settings.is_computer(board.to_move):
            return
        if controller.mode is Mode.HUMAN_VS_COMPUTER:
            self._say(f"Your move, {board.to_move}.")
        else:
            self._say(f"{board.to_move} to move.")

    def _engine_words(self) -> None:
        """The engine word: every MESSAGE line the outside engine said on its last move."""
        if not self.controller.engine_name(Mark.X) and not self.controller.engine_name(Mark.O):
            self._say("No outside engine plays in this game.")
        elif not self.engine_said:
            self._say("The outside engine has said nothing (no MESSAGE lines) on its last move.")
        else:
            self._say(
                "Its MESSAGE lines on its last move (its own words, not our analysis):",
                *(f"  {line}" for line in self.engine_said),
            )

    def _why(self) -> None:
        if self.report is None:
            self._say("The computer has not moved yet in this game.")
        elif isinstance(self.report, str):
            self._say(self.report)
        else:
            self._say(*report_lines(self.report, played_move=True))

    def _moves(self) -> None:
        moves = self.controller.move_list()
        if not moves:
            self._say("No move has been played yet.")
            return
        self._say(
            " ".join(
                f"{number}. {mark} {cell}." for number, (mark, cell) in enumerate(moves, start=1)
            )
        )

    def _score(self) -> None:
        settings = self.controller.settings
        session = tally_words(self.controller.session.tally(settings.mode))
        line = all_time(self.store, settings, self.controller.history_names())
        self._say(
            f"This session: {session}.",
            f"All time, games like this one: {tally_words(line.tally())}"
            + (f", and {line.abandoned} abandoned." if line.abandoned else "."),
        )

    def _say(self, *lines: str) -> None:
        """Write whole lines at once, straight away (a reader must not wait for a buffer)."""
        self.out.write("".join(f"{line}\n" for line in lines))
        self.out.flush()
