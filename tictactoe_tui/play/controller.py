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

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from tictactoe_tui.engine import (
    Algorithm,
    Analysis,
    Decision,
    EngineReport,
    Game,
    IllegalMove,
    Mark,
    OutsidePlayer,
    Player,
    PlayerSpec,
    make_player,
)
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.players.foreign import ForeignPlayer, close_foreign
from tictactoe_tui.engine.players.guest import GUEST
from tictactoe_tui.engine.players.guest_search import GuestSearchPlayer
from tictactoe_tui.engine.players.learner import LearnerPlayer
from tictactoe_tui.engine.players.outside import ENGINE, engine_key
from tictactoe_tui.engine.rules.board import cell_notation, cell_words
from tictactoe_tui.history.record import Outcome, PlayedGame
from tictactoe_tui.play.log import GameLog
from tictactoe_tui.play.session import SessionScore
from tictactoe_tui.play.settings import SEARCHING_OPPONENTS, GameSettings, Mode
from tictactoe_tui.text.panel import PanelReport, ThinkingReport
from tictactoe_tui.text.report import (
    ALGORITHM_NAMES,
    algorithm_name,
    build_report,
    clever_move_words,
    move_words,
    score_hints,
    terms_after,
    terms_lines,
    thinking_report,
)
from tictactoe_tui.worker.jobs import Forfeited, choose_move, clever_analysis

if TYPE_CHECKING:
    from tictactoe_tui.engine.lab.yours import OnePly

CVC_PAUSE = 0.6
"""Seconds between moves when two computers play, so a person can follow (never 0: a Textual
timer of 0 raises)."""

WAITING_TWO_PEOPLE = "No analysis yet: press h to score every move of the side to move."
"""The panel's first words in a game between two people (no computer explains anything)."""

QUIT_KEYS = frozenset({"q", "y", "ctrl+c", "ctrl+q"})
"""The keys that answer "quit in the middle of the game?" with yes: q and y, and Ctrl+C and
Ctrl+Q, which quit as q does (pressed twice, they quit)."""

Thinking = Literal["computer", "hint", "scores", "view"]
"""What a search is for: the computer's move, a hint shown live in the panel, the quiet
scoring of a person's moves for the board, or an earlier position of the game being looked at."""


def runs_in_process(size: int, algorithm: str) -> bool:
    """Whether a search is small enough to run in the app's process rather than in the worker.

    Measured with `python scripts/worker_start.py`: a 3×3 alpha-beta or heuristic search takes
    well under 10 ms, too short to slow the UI, and running it here needs no worker (the first
    move never waits for the process to start). Minimax on 3×3 takes up to 1.5 s: the worker.
    """
    return size == 3 and algorithm != Algorithm.MINIMAX


# -- effects: what the screen is asked to do ----------------------------------------------------


@dataclass(frozen=True)
class Say:
    """Show a notice in the status line (and as a toast)."""

    text: str


@dataclass(frozen=True)
class Bell:
    """Ring the terminal's bell: a key meant for a hidden board must not play blind."""


@dataclass(frozen=True)
class Search:
    """Start a search in the worker (any running one is dropped): `job(*args)`."""

    kind: Thinking
    job: Callable[..., Any]
    args: tuple[Any, ...]
    in_process: bool
    """True when the search is small enough to run in the app's own process."""


@dataclass(frozen=True)
class StopSearch:
    """Drop the running search at once, and any move waiting for its turn."""


@dataclass(frozen=True)
class Wait:
    """Call `GameController.cvc_tick` after `seconds` (two computers play at a human pace)."""

    seconds: float


@dataclass(frozen=True)
class ShowReport:
    """Show an analysis in the evaluation panel."""

    report: PanelReport
    position: Position | None = None
    """The position whose moves the report's rows are (with `--eval FILE` the screen asks the
    learner's file for its value of each: `with_yours`); None when it does not matter."""


@dataclass(frozen=True)
class ClearPanel:
    """Empty the evaluation panel, leaving `text` in it (None: the panel's own first words)."""

    text: str | None = None


@dataclass(frozen=True)
class ShowThinking:
    """Show a running search live: the report, and the expected line drawn on the board."""

    report: ThinkingReport
    line: tuple[int, ...]
    mover: str


@dataclass(frozen=True)
class Record:
    """Keep this game in the history (finished, or abandoned)."""

    game: PlayedGame


@dataclass(frozen=True)
class Reopened:
    """Undo reopened a finished game: take its record (`game`, as `Record` gave it) out of the
    history, so the game is counted once, when it ends again or is left."""

    game: PlayedGame


@dataclass(frozen=True)
class ScoreChanged:
    """The session's score changed: redraw the scoreboard."""


@dataclass(frozen=True)
class Finished:
    """The game ended: show the results (after the game was recorded)."""

    headline: str
    detail: str


@dataclass(frozen=True)
class Quit:
    """Close the app (the game was recorded first)."""


Effect = (
    Say
    | Bell
    | Search
    | StopSearch
    | Wait
    | ShowReport
    | ClearPanel
    | ShowThinking
    | Record
    | Reopened
    | ScoreChanged
    | Finished
    | Quit
)
"""Anything the controller asks of its screen."""


@dataclass(frozen=True)
class BoardView:
    """What the board shows: each cell's mark, the last move, the winning line, cell labels."""

    marks: tuple[str, ...]
    last: int | None
    winning: tuple[int, ...]
    labels: dict[int, str]


@dataclass(frozen=True)
class ScoreOverlay:
    """The faint scores written in the empty cells, with the caption under the board."""

    scores: dict[int, str]
    caption: str
    key: str
    best: int | None


@dataclass(frozen=True)
class Status:
    """The status line's three parts: who plays whom, whose turn it is, a notice, the last move."""

    players: str
    turn: str
    notice: str
    last: str


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
        self.clever = settings.opponent != Algorithm.RANDOM
        """Whether the computer plays clever moves: `c` switches between the opponent's
        algorithm and random moves (a random opponent switches to alpha-beta and back)."""
        self.paused = False
        """Computer-vs-computer only: True while space holds the next move back."""
        self.thinking: Thinking | None = None
        """What the search running now is for, or None."""
        self.hidden = False
        """True while the terminal is too small for the board: moves are refused."""
        self.show_scores = True
        """Whether the person's moves are scored faintly on the board (`v`)."""
        self.quit_pending = False
        """True after q in the middle of a game, until y / q confirms or another key withdraws."""
        self.notice = ""
        """The notice the status line shows, if any."""
        self.last_line = ""
        """What the last move was, in words."""
        self.thinking_started = False
        """True once a quiet scoring reported progress (the caption then says how far it got)."""
        # The rng lives as long as the controller, so a seed reproduces a session of games.
        self._rng = random.Random(settings.seed)
        self._player = self._make_player()
        self._sides = self._side_players()
        self.engine_log: tuple[str, ...] = ()
        """The last lines an outside engine wrote to stderr (or printed in vain) when it lost
        by a fault; `engine_words` shows them, or a running engine's."""
        self._searching: Position = Position.empty(settings.size, settings.win_length)
        self._search_started = 0.0
        self._waiting = False
        self._analysis: tuple[Position, Analysis] | None = None
        self._scores_progress = ""
        self.hint_shown = False
        """True while the panel shows a hint for the position on the board."""
        self.viewing: int | None = None
        """While stepping back through the game (`step`): the number of moves of the position
        shown, read-only; None for the live position. The game waits meanwhile."""
        self._view_analyses: dict[Position, Analysis] = {}
        self.game, self.log = self._fresh_game()
        self._recorded = False
        self._kept = False
        self._finished_record: PlayedGame | None = None
        """The record `Record` gave for the finished game on the board (undo hands it back)."""

    # -- who is who -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        """Who plays whom."""
        return Mode(self.settings.mode)

    def who(self, mark: Mark) -> str:
        """A player's name for the status line: "You (X)", "Computer (O)", "X"."""
        if self.mode is Mode.HUMAN_VS_COMPUTER:
            return f"Computer ({mark})" if self.settings.is_computer(mark) else f"You ({mark})"
        if self.mode is Mode.COMPUTER_VS_COMPUTER:
            return f"Computer {mark}"
        return str(mark)

    def playing(self, mark: Mark | None = None) -> str:
        """The algorithm the computer of `mark` plays now: an outside engine ("engine"), its
        spec's, the opponent's, alpha-beta or random (no mark: the opponent setting's)."""
        spec = self._own_spec(mark) if mark is not None else None
        if spec is not None and spec.opponent in (ENGINE, GUEST):
            return spec.opponent
        if not self.clever:
            return Algorithm.RANDOM
        opponent = spec.opponent if spec is not None else self.settings.opponent
        return Algorithm.ALPHABETA if opponent == Algorithm.RANDOM else opponent

    def hint_algorithm(self) -> str:
        """The algorithm hints use: the opponent's own, so a learner compares like with like;
        the random opponent (and an outside engine) has none, so alpha-beta (exact on 3×3,
        fast elsewhere) stands in."""
        opponent = self.settings.opponent
        return Algorithm.ALPHABETA if opponent in (Algorithm.RANDOM, ENGINE, GUEST) else opponent

    def _own_spec(self, mark: Mark) -> PlayerSpec | None:
        """The spec of `mark`'s computer when it is not one of ours with the opponent setting:
        its own spec in computer-vs-computer, an outside engine, or a learner's file."""
        settings = self.settings
        own = settings.mode == Mode.COMPUTER_VS_COMPUTER and getattr(settings, mark.lower())
        if own or settings.opponent in (ENGINE, GUEST) or self._searches_with_learner:
            return settings.spec_for(mark)
        return None

    @property
    def _searches_with_learner(self) -> bool:
        """Whether the opponent is our search with the learner's evaluation (alphabeta:eval=)."""
        return bool(self.settings.learner) and self.settings.opponent in SEARCHING_OPPONENTS

    @property
    def engines_only(self) -> bool:
        """Whether every computer in this game plays its own moves: an outside engine or a
        learner's code (c changes nothing)."""
        return bool(self._sides) and all(
            isinstance(player, ForeignPlayer) for player in self._sides.values()
        )

    def engine_name(self, mark: Mark) -> str:
        """The program name of `mark`'s outside engine ("" when it is not one)."""
        player = self._sides.get(mark)
        return player.name if isinstance(player, OutsidePlayer) else ""

    def history_names(self) -> dict[Mark, str]:
        """How the history names each side an outside engine plays (`engine_key`: by the
        name its `ABOUT` gave, else its file name), so each engine scores on its own."""
        return {mark: engine_key(self.engine_name(mark)) for mark in Mark if self.engine_name(mark)}

    def learner_name(self, mark: Mark) -> str:
        """How `mark`'s learner's code is named ("yours: FILE", or "alpha-beta with yours:
        FILE"; "" when its player is not a learner's)."""
        player = self._sides.get(mark)
        if isinstance(player, LearnerPlayer):
            return player.name
        if isinstance(player, GuestSearchPlayer):
            return player.label
        return ""

    @property
    def learners(self) -> bool:
        """Whether a learner's code plays in this game."""
        return any(self.learner_name(mark) for mark in self._sides)

    def style_words(self) -> str:
        """How the computer plays: "alpha-beta, clever", "random; c: alpha-beta", or, for
        computers of their own, each side's: "X alpha-beta · O pbrain-rapfi (outside engine)"."""
        opponent = self.settings.opponent
        computers = [mark for mark in Mark if self.settings.is_computer(mark)]
        if any(self._own_spec(mark) is not None for mark in computers):
            return " · ".join(
                f"{mark} {self._side_words(mark)}" if len(computers) > 1 else self._side_words(mark)
                for mark in computers
            )
        if opponent == Algorithm.RANDOM:
            return (
                "alpha-beta for now; c: back to random" if self.clever else "random; c: alpha-beta"
            )
        algorithm = ALGORITHM_NAMES[opponent]
        if not self.clever:
            return f"random for now; c brings back {algorithm}"
        if self.settings.difficulty < 100:
            return f"{algorithm}, clever {self.settings.difficulty}% of the time"
        return f"{algorithm}, clever"

    def _side_words(self, mark: Mark) -> str:
        name = self.engine_name(mark)
        if name:
            return f"{name} (outside engine)"
        learner = self.learner_name(mark)
        if learner:
            return learner
        playing = self.playing(mark)
        return ALGORITHM_NAMES.get(playing, playing) + ("" if self.clever else ", random for now")

    def mark_of(self, index: int) -> Mark:
        """The mark that made the game's move number `index` (0-based): the sides alternate."""
        first = self.game.first
        return first if index % 2 == 0 else first.opponent

    @property
    def interactive(self) -> bool:
        """Whether a person may choose cells on the board now."""
        return self.mode is not Mode.COMPUTER_VS_COMPUTER and not self.game.is_over

    def _fresh_game(self) -> tuple[Game, GameLog]:
        game = Game(self.settings.size, self.settings.win_length, self.settings.first_mark)
        for cell in self.setup:
            game.play(cell)
        return game, GameLog(self.settings, game.moves)

    def _make_player(self) -> Player:
        settings = self.settings
        if settings.opponent == Algorithm.RANDOM:
            return make_player(
                self.playing(),
                rng=self._rng,
                difficulty=settings.difficulty,
                time_limit=settings.search_time_limit,
                depth=settings.depth,
            )
        if settings.opponent in (ENGINE, GUEST) or self._searches_with_learner:
            # Never asked to move: every engine or learner's side has a player of its own
            # (`_sides`).
            return make_player(
                Algorithm.ALPHABETA, rng=self._rng, time_limit=settings.search_time_limit
            )
        return make_player(
            settings.opponent,
            rng=self._rng,
            difficulty=settings.difficulty,
            time_limit=settings.search_time_limit,
            clever=self.clever,
            depth=settings.depth,
        )

    def _side_players(self) -> dict[Mark, Player]:
        """Each computer mark's player: the opponent setting's (one player for both marks, as
        ever), or a side's own spec, or an outside engine or a learner's code (one process per
        side)."""
        sides: dict[Mark, Player] = {}
        for mark in Mark:
            if not self.settings.is_computer(mark):
                continue
            spec = self._own_spec(mark)
            if spec is None:
                sides[mark] = self._player
            elif spec.outside:
                sides[mark] = OutsidePlayer(spec.path or "", spec.time_limit)
            elif spec.opponent == GUEST or spec.eval_path is not None:
                sides[mark] = spec.build(self._rng)
            else:
                # A side of its own follows c, unless it is random already.
                sides[mark] = make_player(
                    spec.opponent,
                    rng=self._rng,
                    difficulty=spec.difficulty,
                    time_limit=spec.time_limit,
                    depth=spec.depth,
                    clever=self.clever or spec.opponent == Algorithm.RANDOM,
                )
        return sides

    def close_engines(self) -> None:
        """End every outside engine's and learner's process (it starts again on its next move,
        a learner's reading its file again): at the end of each game, and when the game screen
        goes."""
        close_foreign(self._sides.values())

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
            if self.paused or self._waiting:
                return []
            self._waiting = True
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
        self._waiting = False
        if (
            not self.paused
            and not self.game.is_over
            and self.thinking is None
            and self.viewing is None
        ):
            return self._search("computer")
        return []

    def analysed(self) -> Analysis | None:
        """The analysis of the position on the board now, if one arrived."""
        if self._analysis is not None and self._analysis[0] is self.game.board:
            return self._analysis[1]
        return None

    def _search(self, kind: Thinking, position: Position | None = None) -> list[Effect]:
        position = self.game.board if position is None else position
        self.thinking = kind
        self._searching = position
        self._search_started = time.perf_counter()
        # Until its first report, the quiet scoring says at least that it runs.
        self._scores_progress = f"scoring {position.to_move}'s moves…"
        if kind == "computer":
            algorithm = self.playing(position.to_move)
            job: Callable[..., Any] = choose_move
            args: tuple[Any, ...] = (self._sides[position.to_move], self._rng, position)
        else:
            algorithm = self.hint_algorithm()
            job = clever_analysis
            args = (position, algorithm, self.settings.search_time_limit, self.settings.depth)
        # An outside engine or a learner's code runs in its own process already: the app's
        # thread only waits for its answer (and the process must stay a child of the app, to
        # end with it).
        foreign = kind == "computer" and isinstance(self._sides[position.to_move], ForeignPlayer)
        in_process = foreign or runs_in_process(position.size, algorithm)
        effects: list[Effect] = [Search(kind, job, args, in_process)]
        if kind != "scores":
            effects.append(self._thinking_shown(None))
        return effects

    def _stop(self) -> list[Effect]:
        """Drop the running search and any move waiting for its turn."""
        self.thinking = None
        self._waiting = False
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
            self._scores_progress = f"scoring {self.game.board.to_move}'s moves… {depth}{clock}"
        return []

    def _thinking_shown(self, progress: Any) -> ShowThinking:
        position = self._searching
        if self.thinking == "computer":
            title = f"{self.who(position.to_move)} is thinking…"
            algorithm = self.playing(position.to_move)
            name = self.engine_name(position.to_move)
            learner = self.learner_name(position.to_move)
            if learner:
                seconds = self.settings.spec_for(position.to_move).time_limit
                elapsed = progress.elapsed if progress is not None else 0.0
                report = ThinkingReport(title, learner, 0, 0, elapsed, seconds, "", "")
                return ShowThinking(report, (), str(position.to_move))
            if name:
                seconds = self.settings.spec_for(position.to_move).time_limit
                said = progress.said if isinstance(progress, EngineReport) else ()
                report = ThinkingReport(
                    title,
                    f"{name} (outside engine)",
                    0,
                    0,
                    progress.elapsed if progress is not None else 0.0,
                    seconds,
                    "",
                    "",
                    said=said,
                    said_by=name,
                )
                return ShowThinking(report, (), str(position.to_move))
        else:
            title = f"Analysing {position.to_move}'s position…"
            algorithm = self.hint_algorithm()
        budget = self.settings.search_time_limit if algorithm == Algorithm.ALPHABETA else None
        if progress is None:
            report = ThinkingReport(
                title, ALGORITHM_NAMES.get(algorithm, algorithm), 0, 0, 0.0, budget, "", ""
            )
            line: tuple[int, ...] = ()
        else:
            report = thinking_report(title, algorithm, progress, position, budget)
            line = progress.pv
        return ShowThinking(report, line, str(position.to_move))

    def search_done(self, result: Any) -> list[Effect]:
        """The running search's answer: the computer's `(decision, rng_state)`, or an analysis
        of a person's position."""
        kind, self.thinking = self.thinking, None
        if kind == "computer":
            decision, rng_state = result
            if rng_state is not None:
                # The player ran on a copy in the worker: carry its generator on from there.
                self._rng.setstate(rng_state)
            if isinstance(decision, Forfeited):
                return self._forfeited(decision)
            return self._play_computer(decision)
        if kind is None:
            return []
        if kind == "view":
            self._view_analyses[self._searching] = result
            return self._view_shown() if self.viewing is not None else []
        self._analysis = (self._searching, result)
        if kind == "hint":
            return self._hint_shown()
        return []

    def search_failed(self, error: str) -> list[Effect]:
        """A search raised or its process died: say so in one line, and go on."""
        kind, self.thinking = self.thinking, None
        if kind == "computer":
            # The game must go on: the computer plays a random move rather than stall.
            decision = make_player(Algorithm.RANDOM, self._rng).choose(self.game.board)
            effects = self._play_computer(decision)
            return [
                *effects,
                self._say(
                    f"The search failed ({error}): the computer played a random move instead."
                ),
            ]
        return [
            ClearPanel(f"The analysis failed: {error}"),
            self._say(f"The analysis failed: {error}"),
        ]

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
        lines = self.engine_log
        if self.learners and not any(isinstance(p, OutsidePlayer) for p in self._sides.values()):
            if not lines:
                result = self.game.result
                lost = result is not None and bool(result.forfeit)
                return [
                    self._say(
                        "No traceback: your code raised no exception (its answer broke the "
                        "rules, as the results say)."
                        if lost
                        else "Your code has not failed in this game: no traceback to show."
                    )
                ]
            return [ClearPanel("Your code's traceback (its file and line):\n\n" + "\n".join(lines))]
        if not lines:
            lines = tuple(
                line
                for player in self._sides.values()
                if isinstance(player, OutsidePlayer)
                for line in player.log
            )
        if not any(isinstance(p, OutsidePlayer) for p in self._sides.values()):
            return [self._say("No outside engine or Python file of yours plays in this game.")]
        if not lines:
            return [self._say("The outside engine has written nothing to stderr.")]
        return [
            ClearPanel(
                "The outside engine's last lines (stderr, and what it printed "
                "that meant nothing), oldest first:\n\n" + "\n".join(lines)
            )
        ]

    def _play_computer(self, decision: Decision) -> list[Effect]:
        before = self.game.board
        try:
            self.game.play(decision.move)
        except IllegalMove as error:
            return [self._say(f"The computer tried an illegal move: {error}")]
        self.log.computer_move(decision, before.to_move, time.perf_counter() - self._search_started)
        effects: list[Effect] = [self._decision_shown(decision, before)]
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

    def _decision_shown(self, decision: Decision, before: Position) -> ShowReport | ClearPanel:
        """The computer's reasoning for the panel."""
        mover = before.to_move
        name = cell_notation(decision.move, before.size)
        analysis = decision.analysis
        if decision.algorithm == ENGINE:
            engine = self.engine_name(mover)
            words = (
                "\n".join(f"  {line}" for line in decision.said)
                if decision.said
                else "  (it said nothing: no MESSAGE lines)"
            )
            return ClearPanel(
                f"{self.who(mover)} ({engine}, an outside engine) played {name}.\n\n"
                f"In its own words (its MESSAGE lines, not our analysis):\n"
                f"{words}"
            )
        learner = self.learner_name(mover)
        if learner:
            # The reason starts with the name and the move, which the sentence says already.
            why = decision.reason.removeprefix(f"{learner}: ")
            why = why.removeprefix(f"choose() played {name}").removeprefix(f"{name}, ")
            return ClearPanel(
                f"{self.who(mover)} ({learner}, your code) played {name}"
                + (f": {why}." if why else ".")
            )
        if analysis is None or not analysis.scores:
            return ClearPanel(
                f"{self.who(mover)} played {name} at random: a random player "
                "does not search, so there are no scores to show."
            )
        if decision.clever:
            verdict = f"A clever move: {decision.reason}."
        elif decision.reason.startswith("random move"):
            # The reason repeats "random move"; keep only what it adds, e.g. "(difficulty 70)".
            verdict = f"A random move{decision.reason.removeprefix('random move')}."
        else:
            verdict = f"A random move ({decision.reason})."
        if not decision.clever:
            verdict += " " + clever_move_words(analysis, before, decision.move)
        return ShowReport(
            build_report(
                f"{self.who(mover)} played {name}",
                analysis,
                before,
                decision.move,
                verdict=verdict,
                terms=terms_lines(decision.terms, name, before.k) if decision.terms else (),
            ),
            before,
        )

    def _hint_shown(self) -> list[Effect]:
        position = self.game.board
        analysis = self.analysed()
        if analysis is None:
            return []
        if not analysis.scores:
            text = "No hint: the search stopped before scoring a move."
            return [ClearPanel(text), self._say(text)]
        best = analysis.scores[0]
        name = cell_notation(best.move, position.size)
        words = move_words(best, position)
        self.hint_shown = True
        self.notice = f"Hint: {name} ({words})."
        return [
            ShowReport(
                build_report(
                    f"Hint for {position.to_move}: {name} ({words})",
                    analysis,
                    position,
                    best.move,
                    verdict=f"The best move for {position.to_move} by {algorithm_name(analysis)}.",
                    terms=terms_after(analysis.algorithm, position, best.move),
                ),
                position,
            )
        ]

    # -- a person's moves -----------------------------------------------------------------------

    def choose(self, cell: int) -> list[Effect]:
        """A person chose `cell` (a click, Enter, a digit): play it if the rules and the turn
        allow, else say why not (nothing changes)."""
        if self.viewing is not None and not self.hidden:
            # A key that plays returns to the game first, then plays there.
            return [*self.to_live(), *self.choose(cell)]
        position = self.game.board
        size = position.size
        if self.hidden:
            return [Bell()]
        if self.mode is Mode.COMPUTER_VS_COMPUTER:
            return [self._say("Two computers are playing: space pauses, n starts a new game.")]
        if self.game.is_over:
            return [self._say("The game is over: n starts a new one, u takes back the last move.")]
        if self.thinking == "computer":
            return [self._say("Wait: the computer is still thinking. Your move was not played.")]
        if self.settings.is_computer(position.to_move):
            return [self._say("It is the computer's turn.")]
        taken = position[cell] if 0 <= cell < size * size else None
        if taken is not None:
            return [
                self._say(
                    f"{cell_notation(cell, size)} ({cell_words(cell, size)}) is taken by {taken}."
                )
            ]
        try:
            self.game.play(cell)
        except IllegalMove as error:
            return [self._say(str(error))]
        self.log.human_move(cell, position.to_move)
        effects = self._stop()
        self.last_line = f"{self.who(position.to_move)} played {cell_notation(cell, size)}."
        return effects + self._after_move()

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
        if result is None or self._recorded:
            return []
        self._recorded = True
        self.close_engines()
        self.session.record(result, self.settings)
        outcome: Outcome = "draw" if result.winner is None else result.winner.value
        self._finished_record = self._keep(outcome, result.forfeit)
        return [
            Record(self._finished_record),
            ScoreChanged(),
            Finished(self.headline(), self.result_detail()),
        ]

    def _keep(self, outcome: Outcome, forfeit: str = "") -> PlayedGame:
        self._kept = True
        return self.log.played_game(outcome, forfeit, self.history_names())

    def abandon(self) -> PlayedGame | None:
        """The record of the game left unfinished now (one with a move played in it), once;
        None when there is nothing to keep or it was kept already."""
        if self._kept or self.game.is_over or len(self.game.moves) <= len(self.setup):
            return None
        return self._keep("abandoned")

    def headline(self) -> str:
        """The result in a few words: "You win!", "Computer wins", "X wins", "Draw"."""
        result = self.game.result
        winner = result.winner if result is not None else None
        if winner is None:
            return "Draw"
        if self.mode is Mode.HUMAN_VS_COMPUTER:
            return "Computer wins" if self.settings.is_computer(winner) else "You win!"
        return f"{winner} wins"

    def result_detail(self) -> str:
        """How the game ended: the winning line and the number of moves."""
        result = self.game.result
        moves = len(self.game.moves)
        if result is not None and result.forfeit:
            return result.forfeit
        if result is None or result.winner is None:
            return f"The board is full after {moves} moves."
        size = self.game.size
        first, last = result.line[0], result.line[-1]
        return (
            f"{result.winner} made {len(result.line)} in a row, "
            f"{cell_notation(first, size)} to {cell_notation(last, size)}, in {moves} moves."
        )

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
        self._recorded = self._kept = False
        self._finished_record = None
        self.paused = False
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
        self.clever = not self.clever
        self._player = self._make_player()
        # Our sides follow the switch; an outside engine keeps its process and its own play.
        self._sides = {
            mark: player if isinstance(player, ForeignPlayer) else new
            for (mark, player), new in zip(
                self._sides.items(), self._side_players().values(), strict=True
            )
        }
        self.log.switched(self.clever)
        later = " (from its next move)" if self.thinking == "computer" else ""
        own = any(self._own_spec(mark) is not None for mark in self._sides)
        words = self.style_words() if own else ALGORITHM_NAMES[self.playing()]
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
        start = len(self.setup)  # the game starts after its setup moves: those stay
        if self.mode is Mode.HUMAN_VS_HUMAN:
            undone = 1 if len(game.moves) > start else 0
        else:
            # Take back the computer's replies, then the human's move before them.
            human = self.settings.human_mark
            marks = [self.mark_of(i) for i in range(start, len(game.moves))]
            if human not in marks:
                return [self._say("Nothing to undo: you have not moved yet.")]
            undone = len(marks) - max(i for i, m in enumerate(marks) if m is human)
        if undone == 0:
            return [self._say("Nothing to undo: no move has been played.")]
        effects = self._stop()
        result = game.result
        if result is not None and self._recorded:
            # The game is open again: its result no longer counts, here or in the history, and
            # it is kept again when it ends (or is abandoned): one game, one record.
            self.session.take_back(result, self.settings)
            if self._finished_record is not None:
                effects.append(Reopened(self._finished_record))
                self._finished_record = None
            effects.append(ScoreChanged())
            self._recorded = self._kept = False
        taken = [game.undo() for _ in range(undone)]
        self.log.undone(undone)
        names = ", ".join(cell_notation(cell, game.size) for cell in reversed(taken))
        self.hint_shown = False
        self.last_line = ""
        effects.append(ClearPanel("Move taken back. Press h to analyse this position."))
        effects += self.next_turn()
        return [*effects, self._say(f"Took back {names}.")]

    def hint(self) -> list[Effect]:
        """Analyse the position of the side to move and show it in the panel (an earlier
        position shown: its analysis; two computers paused: the position they stopped at)."""
        if self.viewing is not None:
            return self._view_shown() if self.thinking is None else []
        if self.game.is_over:
            return [self._say("The game is over: there is no move to hint.")]
        paused = self.mode is Mode.COMPUTER_VS_COMPUTER and self.paused
        if self.thinking == "computer" or (
            self.settings.is_computer(self.game.board.to_move) and not paused
        ):
            return [self._say("The computer's own analysis will show in the panel when it moves.")]
        self.notice = ""  # the turn line says "Analysing X's position…" meanwhile
        if self.analysed() is not None:
            return self._hint_shown()
        if self.thinking == "scores":
            # The quiet scoring already runs: let it finish as the hint, shown live from now.
            self.thinking = "hint"
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
        self.paused = not self.paused
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
        if not analysis.scores:
            return [ClearPanel("No analysis: the search stopped before scoring a move.")]
        best = analysis.scores[0]
        name = cell_notation(best.move, position.size)
        return [
            ShowReport(
                build_report(
                    f"After move {number}: {position.to_move} to move, best {name} "
                    f"({move_words(best, position)})",
                    analysis,
                    position,
                    best.move,
                    verdict=f"Looking back at the game (read-only): the best move for "
                    f"{position.to_move} by {algorithm_name(analysis)}.",
                ),
                position,
            )
        ]

    def leave(self) -> list[Effect]:
        """The player goes elsewhere (settings, the match runner, the heuristic lab): stop the
        search; it starts again on `resume`."""
        return self._stop()

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
        """The marks, the last move, the winning line and the digit labels on 3×3 (an earlier
        position shown: its marks and the move that made it)."""
        if self.viewing is not None:
            shown = self.shown_position()
            last = self.game.moves[self.viewing - 1] if self.viewing else None
            return BoardView(shown.marks(), last, shown.winning_line, {})
        position = self.game.board
        cells = position.size * position.size
        labels = {}
        if (
            position.size == 3
            and self.mode is not Mode.COMPUTER_VS_COMPUTER
            and not self.game.is_over
        ):
            labels = {i: str(i + 1) for i in range(cells)}  # the digit that plays each cell
        result = self.game.result
        return BoardView(
            position.marks(),
            self.game.moves[-1] if self.game.moves else None,
            result.line if result else (),
            labels,
        )

    def score_overlay(self) -> ScoreOverlay:
        """The side to move's scores once analysed (empty while hidden or while the computer
        thinks); while the quiet scoring runs, the caption says how far it got."""
        if self.viewing is not None:
            shown = self.shown_position()
            looked = self._view_analyses.get(shown)
            if looked is None or not looked.scores or not self.show_scores:
                return ScoreOverlay({}, "", "", None)
            return ScoreOverlay(
                score_hints(looked), f"{shown.to_move}'s scores", "v", looked.scores[0].move
            )
        analysis = self.analysed()
        to_move = self.game.board.to_move
        if not self.show_scores or self.thinking == "computer" or self.game.is_over:
            return ScoreOverlay({}, "", "", None)
        if analysis is None:
            caption = self._scores_progress if self.thinking == "scores" else ""
            return ScoreOverlay({}, caption, "v" if caption else "", None)
        best = analysis.scores[0].move if self.hint_shown and analysis.scores else None
        return ScoreOverlay(score_hints(analysis), f"{to_move}'s scores", "v", best)

    def move_list(self) -> list[tuple[str, str]]:
        """Every move so far as (mark, cell name)."""
        size = self.game.size
        return [
            (str(self.mark_of(i)), cell_notation(cell, size))
            for i, cell in enumerate(self.game.moves)
        ]

    def status(self) -> Status:
        """The status line: the players, whose turn it is, the notice, the last move."""
        settings = self.settings
        if self.mode is Mode.HUMAN_VS_COMPUTER:
            players = (
                f"You: {settings.human_mark}   Computer: {settings.computer_mark} "
                f"({self.style_words()})"
            )
        elif self.mode is Mode.COMPUTER_VS_COMPUTER:
            players = f"Computer X vs computer O ({self.style_words()})"
        else:
            players = "X vs O, two players at one keyboard (h: hint)"
        board = self.game.board
        if self.viewing is not None:
            turn = (
                f"Looking back at move {self.viewing} of {len(self.game.moves)} (the game "
                "waits) · , . step · e analyses · a move returns"
            )
        elif self.game.is_over:
            turn = f"Game over: {self.headline()} — n: new game · s: settings"
        elif self.mode is Mode.COMPUTER_VS_COMPUTER and self.paused:
            turn = "Paused: space resumes (h: the analysis of this position)"
        elif self.thinking == "computer":
            turn = f"{self.who(board.to_move)} is thinking…"
        elif self.thinking == "hint":
            turn = f"Analysing {board.to_move}'s position…"
        elif self.mode is Mode.COMPUTER_VS_COMPUTER:
            turn = f"{self.who(board.to_move)} to move"
        elif settings.is_computer(board.to_move):
            # Between a failed search and the computer's move, or before it starts.
            turn = f"{self.who(board.to_move)} to move"
        elif self.mode is Mode.HUMAN_VS_COMPUTER:
            turn = f"Your turn ({board.to_move})"
        else:
            turn = f"{board.to_move} to move"
        return Status(players, turn, self.notice, self.last_line)


def with_yours(report: PanelReport, values: OnePly) -> PanelReport:
    """`report` with the learner's evaluation (`--eval FILE`) beside each row: the board after
    the move, for the mover, as the heuristic lab and `analyse --eval` give it ("yours +4" in
    the row's note), and a legend line saying whose it is."""
    known = {move.move: move.yours for move in values.moves}
    rows = tuple(
        replace(row, note=" · ".join(filter(None, (row.note, f"yours {known[row.move]:+g}"))))
        if row.move in known
        else row
        for row in report.rows
    )
    legend = f"{values.name}: its evaluate() of the board after each move, for the mover"
    return replace(report, rows=rows, legend=(*report.legend, legend))
