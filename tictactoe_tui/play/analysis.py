"""The rules of the analysis board, without Textual: explore a study's move tree, set a position
up by hand, and analyse whatever position is shown.

The Analysis screen hands every event to an `AnalysisController` (a cell chosen, a key, a
search's answer) and carries out the effects it returns, as the Game screen does with its
`GameController` (and with the same effects: say something, start or stop a search, show a
report or a running search in the panel), then redraws from the controller's queries.

Two phases. Exploring: a cell plays a move for the side to move in the position shown; a move
played from a position that already has a continuation starts a variation (`study.MoveTree`);
keys go back, forward, to the root, to the end of the line, across variations, promote one,
delete one. Every position shown is analysed in the worker (the last search is dropped when you
move on) and the analysis is kept on its node, so coming back shows it at once. Setting up: put
X, O or nothing on any cell, choose the side to move, clear, paste a position; each change that
would make an impossible position is refused with one sentence and the last legal one stays.
Done makes the set-up position the root of a new study; cancel leaves the study as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import wraps
from typing import Concatenate, ParamSpec

from tictactoe_tui.engine import Algorithm, Analysis, Board, IllegalMove, Mark, Progress
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.rules.setup import read_position, setup_position, side_to_move
from tictactoe_tui.history.study import (
    MoveTree,
    Node,
    first_mover,
    main_line,
    marks_text,
    variation_at,
)
from tictactoe_tui.play.effects import (
    BoardView,
    ClearPanel,
    Say,
    ScoreOverlay,
    Search,
    ShowReport,
    ShowThinking,
    StopSearch,
)
from tictactoe_tui.play.searching import (
    SearchRun,
    analysis_failed,
    analysis_search,
    thinking_shown,
)
from tictactoe_tui.text.report import algorithm_name, build_report, move_words, score_hints


class Phase(StrEnum):
    """What the board's cells do: play moves (explore) or place marks (set up)."""

    EXPLORE = "explore"
    SETUP = "setup"


@dataclass(frozen=True)
class Copy:
    """Put `text` on the clipboard (where the terminal allows); it is also said on screen."""

    text: str


@dataclass(frozen=True)
class Resized:
    """The board changed size (a pasted position of another size): build a new board."""

    size: int


AnalysisEffect = Say | Search | StopSearch | ShowReport | ClearPanel | ShowThinking | Copy | Resized
"""Anything the analysis controller asks of its screen."""


@dataclass(frozen=True)
class MoveToken:
    """One entry of the move list: a move (with its node's number) or a bracket of a variation."""

    text: str
    """What is written: "3. X B2", "(" or ")"."""
    node: int | None
    """The node the move leads to (`Node.ident`), None for a bracket."""
    depth: int
    """How deep in variations the entry is (0: the main line)."""


SETUP_WORDS = (
    "Setting up: x, o or . puts X, O or nothing on the cursor's cell (a click cycles "
    "them); m switches the side to move; n clears the board; v pastes a position; "
    "s is done (a new study from this position); escape cancels."
)
"""The panel's words while a position is being set up."""


SETTING_UP = "Setting up a position: s is done, escape cancels; then the moves can be explored."
"""What a key of the move tree says while a position is being set up."""


Effects = list[AnalysisEffect]
P = ParamSpec("P")


def _exploring(
    key: Callable[Concatenate[AnalysisController, P], Effects],
) -> Callable[Concatenate[AnalysisController, P], Effects]:
    """A key of the move tree: while a position is being set up, it says so instead."""

    @wraps(key)
    def guarded(controller: AnalysisController, /, *args: P.args, **kwargs: P.kwargs) -> Effects:
        if controller.phase is Phase.SETUP:
            return controller.say(SETTING_UP)
        return key(controller, *args, **kwargs)

    return guarded


class AnalysisController:
    """One study at a time: its tree, the node shown, the set-up position being edited."""

    def __init__(
        self,
        root: Board | MoveTree,
        *,
        time_limit: float | None = 1.0,
        depth: int | None = None,
        algorithm: str = Algorithm.ALPHABETA,
    ) -> None:
        """A study of `root`; every position shown is analysed by `algorithm` within
        `time_limit` seconds on boards over 3×3 (3×3 is solved) and `depth` plies (None:
        automatic). `root` may be a whole study (reopened from the history)."""
        self.tree = root if isinstance(root, MoveTree) else MoveTree(root)
        """The moves explored, from the root position."""
        self.node = self.tree.root
        """The node whose position is shown while exploring."""
        self.phase = Phase.EXPLORE
        """Whether the cells play moves or place marks."""
        self.setup = self.tree.root.position
        """While setting up: the position as edited so far (always a legal one)."""
        self.algorithm = algorithm
        """The algorithm that analyses the positions shown."""
        self.time_limit = time_limit
        """Seconds each analysis may take (boards over 3×3)."""
        self.depth = depth
        """Plies each analysis looks ahead (None: automatic)."""
        self.notice = ""
        """The notice the status line shows, if any."""
        self._run: SearchRun[Node] = SearchRun(self.node.position)

    @property
    def thinking(self) -> Node | None:
        """The node being analysed now, if any."""
        return self._run.what

    # -- what is shown ----------------------------------------------------------------------------

    @property
    def position(self) -> Board:
        """The position on the board: the set-up one while setting up, else the node's."""
        return self.setup if self.phase is Phase.SETUP else self.node.position

    @property
    def position_text(self) -> str:
        """The shown position as `analyse` and `--position` read it."""
        return str(self.position)

    def board_view(self) -> BoardView:
        """The marks, the last move, the winning line, and digit labels while exploring 3×3."""
        position = self.position
        labels = {}
        if position.size == 3 and self.phase is Phase.EXPLORE and not position.is_over:
            labels = {cell: str(cell + 1) for cell in position.legal_moves()}
        last = self.node.move if self.phase is Phase.EXPLORE else None
        return BoardView(position.marks(), last, position.winning_line, labels)

    def score_overlay(self) -> ScoreOverlay:
        """The shown position's scores in its empty cells, once analysed; the best one lit."""
        analysis = self.node.analysis if self.phase is Phase.EXPLORE else None
        if analysis is None or not analysis.scores:
            return ScoreOverlay({}, "", "", None)
        return ScoreOverlay(
            score_hints(analysis),
            f"{self.node.position.to_move}'s scores",
            "",
            analysis.scores[0].move,
        )

    def move_tokens(self) -> list[MoveToken]:
        """The move list with its variations, as a chess GUI writes it: the main line, each
        variation in brackets after the move it replaces ("1. X B2 2. O A1 (2. O C3 3. X A1)
        3. X C3")."""
        tokens: list[MoveToken] = []
        _line_tokens(self.tree.root, tokens, 0)
        return tokens

    def status_lines(self) -> tuple[str, str]:
        """The status: where we are (phase, move, side to move) and the position's string."""
        position = self.position
        if self.phase is Phase.SETUP:
            where = f"Setting up: {position.to_move} to move"
        else:
            where = _where(self.tree, self.node)
        return where, f"Position: {self.position_text}   (c copies, v pastes, k keeps the study)"

    # -- exploring --------------------------------------------------------------------------------

    def play(self, cell: int) -> list[AnalysisEffect]:
        """A cell chosen while exploring: play it for the side to move (a variation when the
        position already had a continuation), or say why not."""
        if self.phase is Phase.SETUP:
            return self.cycle(cell)
        position = self.node.position
        if position.is_over:
            return [
                self._say(
                    f"The game is over here ({_result_words(position)}): go back "
                    "to try another move."
                )
            ]
        taken = position[cell] if 0 <= cell < position.size**2 else None
        if taken is not None:
            return [self._say(f"{cell_notation(cell, position.size)} is taken by {taken}.")]
        try:
            child, new = self.tree.add(self.node, cell)
        except IllegalMove as error:
            return [self._say(str(error))]
        branching = new and len(self.node.children) > 1
        self.node = child
        self.notice = "A new variation." if branching else ""
        return self._shown()

    @_exploring
    def back(self) -> list[AnalysisEffect]:
        """One move back towards the root."""
        if self.node.parent is None:
            return [self._say("This is the root position: there is no move before it.")]
        return self._go(self.node.parent)

    @_exploring
    def forward(self) -> list[AnalysisEffect]:
        """One move along the main continuation."""
        if not self.node.children:
            return [self._say("The end of this line: play a move to go on.")]
        return self._go(self.node.children[0])

    @_exploring
    def to_root(self) -> list[AnalysisEffect]:
        """Back to the root position."""
        return self._go(self.tree.root)

    @_exploring
    def to_end(self) -> list[AnalysisEffect]:
        """To the end of the line shown (following main continuations)."""
        line = main_line(self.node)
        return self._go(line[-1]) if line else self._shown()

    @_exploring
    def variation(self, step: int) -> list[AnalysisEffect]:
        """To the next (`step` 1) or previous (-1) variation at the nearest branch point."""
        here = variation_at(self.node)
        if here is None or here.parent is None:
            return [
                self._say(
                    "No other variation here: play another move from an earlier "
                    "position to start one."
                )
            ]
        siblings = here.parent.children
        return self._go(siblings[(siblings.index(here) + step) % len(siblings)])

    @_exploring
    def goto(self, ident: int) -> list[AnalysisEffect]:
        """Show the node numbered `ident` (a click on the move list)."""
        node = self.tree.find(ident)
        return self._go(node) if node is not None else []

    @_exploring
    def promote(self) -> list[AnalysisEffect]:
        """Make the variation shown the main continuation at its branch point."""
        branch = self.tree.promote(self.node)
        if branch is None:
            return [self._say("This is the main line already: nothing to promote.")]
        assert branch.move is not None  # a branch is never the root
        name = cell_notation(branch.move, branch.position.size)
        return [self._say(f"{branch.ply}. {branch.mover} {name} is now the main line.")]

    @_exploring
    def delete(self) -> list[AnalysisEffect]:
        """Delete the move shown and everything after it; show the position before it."""
        node = self.node
        if node.parent is None:
            return [self._say("The root cannot be deleted: s sets up another position.")]
        assert node.move is not None
        later = sum(1 for _ in node.walk()) - 1
        name = cell_notation(node.move, node.position.size)
        self.node = self.tree.delete(node)
        effects = self._shown()
        after = f" and the {later} move{'s' if later != 1 else ''} after it" if later else ""
        return [*effects, self._say(f"Deleted {node.ply}. {node.mover} {name}{after}.")]

    def _go(self, node: Node) -> list[AnalysisEffect]:
        self.node = node
        self.notice = ""
        return self._shown()

    # -- setting up -------------------------------------------------------------------------------

    def start_setup(self) -> list[AnalysisEffect]:
        """Edit the shown position by hand (the study is unchanged until done)."""
        if self.phase is Phase.SETUP:
            return self.finish_setup()
        self.phase = Phase.SETUP
        self.setup = self.node.position
        self.notice = ""
        return [*self._stop(), ClearPanel(SETUP_WORDS)]

    def put(self, cell: int, mark: Mark | None) -> list[AnalysisEffect]:
        """Put `mark` (None: nothing) on `cell`; an impossible result is refused, with why."""
        if self.phase is not Phase.SETUP:
            return [self._say("s sets up a position first: then x, o and . place marks.")]
        marks = list(marks_text(self.setup))
        marks[cell] = "." if mark is None else str(mark)
        return self._set_up("".join(marks), self.setup.to_move)

    def cycle(self, cell: int) -> list[AnalysisEffect]:
        """A click in set-up: the cell goes empty → X → O → empty, skipping a mark that would
        make an impossible position (when none fits, the first one's reason is said)."""
        order: list[Mark | None] = [None, Mark.X, Mark.O]
        now = order.index(self.setup[cell])
        refusal: list[AnalysisEffect] = []
        for step in (1, 2):
            effects = self.put(cell, order[(now + step) % 3])
            if not effects:
                return []
            refusal = refusal or effects
        return refusal

    def switch_side(self) -> list[AnalysisEffect]:
        """The other side to move, if the position allows it."""
        if self.phase is not Phase.SETUP:
            return [self._say("s sets up a position first: then m chooses the side to move.")]
        return self._set_up(marks_text(self.setup), self.setup.to_move.opponent, strict=True)

    def clear(self) -> list[AnalysisEffect]:
        """Empty the board (X to move)."""
        if self.phase is not Phase.SETUP:
            return [self._say("s sets up a position first: then n clears the board.")]
        self.setup = Board.empty(self.setup.size, self.setup.k)
        return [self._say("Board cleared: X to move.")]

    def paste(self, text: str) -> list[AnalysisEffect]:
        """A position string (as `analyse` reads it: rows split by '/', '.' 'X' 'O' in either
        case): set up from it, or start a new study from it while exploring."""
        current = self.position
        try:
            board = read_position(text)
            if board.size == current.size and board.k != current.k:
                board = read_position(text, current.k)  # the same board keeps its k
        except IllegalMove as error:
            return [self._say(_sentence(f"Not pasted: {_clause(str(error))}"))]
        resized = board.size != current.size
        effects: list[AnalysisEffect] = [Resized(board.size)] if resized else []
        if self.phase is Phase.SETUP:
            self.setup = board
            return [*effects, self._say(f"Pasted {board}: {board.to_move} to move.")]
        self._new_study(board)
        return [
            *effects,
            *self._shown(),
            self._say(f"Pasted: a new study from this position, {board.to_move} to move."),
        ]

    def finish_setup(self) -> list[AnalysisEffect]:
        """Done: the set-up position becomes the root of a new study (unless unchanged)."""
        if self.phase is not Phase.SETUP:
            return []
        self.phase = Phase.EXPLORE
        if self.setup == self.node.position:
            return [*self._shown(), self._say("The position is unchanged.")]
        self._new_study(self.setup)
        return [
            *self._shown(),
            self._say(f"A new study from {self.setup}: {self.setup.to_move} to move."),
        ]

    def cancel_setup(self) -> list[AnalysisEffect]:
        """Escape while setting up: back to the study as it was."""
        self.phase = Phase.EXPLORE
        # A position of another size pasted meanwhile: the board goes back to the study's.
        resized = self.setup.size != self.node.position.size
        self.setup = self.node.position
        effects: list[AnalysisEffect] = [Resized(self.setup.size)] if resized else []
        return [*effects, *self._shown(), self._say("Set-up cancelled: the study is as it was.")]

    def _set_up(self, marks: str, wanted: Mark, strict: bool = False) -> list[AnalysisEffect]:
        """Take `marks` with `wanted` to move (unless `strict`: the side the marks force, and
        with equal counts the side that moved first, so placing marks keeps the turns)."""
        size, k = self.setup.size, self.setup.k
        side = wanted if strict else side_to_move(marks, size, k, first_mover(self.setup))
        try:
            self.setup = setup_position(marks, size, k, side)
        except IllegalMove as error:
            return [self._say(_sentence(str(error)))]
        self.notice = ""
        return []

    def _new_study(self, root: Board) -> None:
        self.tree = MoveTree(root)
        self.node = self.tree.root
        self.setup = root

    # -- copying ----------------------------------------------------------------------------------

    def copy(self) -> list[AnalysisEffect]:
        """The position's string to the clipboard, and said on screen."""
        return [
            Copy(self.position_text),
            self._say(
                f"Copied {self.position_text} (v pastes it back; --position and "
                "analyse read it too)."
            ),
        ]

    # -- analysis ---------------------------------------------------------------------------------

    def _shown(self) -> list[AnalysisEffect]:
        """A new position is shown: its kept analysis, or a search for it."""
        effects = self._stop()
        node = self.node
        position = node.position
        if position.is_over:
            return [*effects, ClearPanel(f"The game is over here: {_result_words(position)}.")]
        if node.analysis is not None:
            return [*effects, _report(node)]
        self._run.start(node, position)
        search = analysis_search(
            "hint", position, self.algorithm, self._budget(position), self.depth
        )
        return [*effects, search, self._thinking_shown(None)]

    def resume(self) -> list[AnalysisEffect]:
        """Back on the screen (from a lab screen or help): analyse the position shown again if
        its analysis had not arrived."""
        if self.phase is Phase.SETUP or self.thinking is not None:
            return []
        return self._shown()

    def leave(self) -> list[AnalysisEffect]:
        """Another screen opens over this one: stop the search (`resume` starts it again)."""
        return self._stop()

    def _stop(self) -> list[AnalysisEffect]:
        return [StopSearch()] if self._run.stop() else []

    def progress(self, progress: Progress) -> list[AnalysisEffect]:
        """A report from the running analysis, shown live with its best line on the board."""
        if self.thinking is None:
            return []
        return [self._thinking_shown(progress)]

    def _thinking_shown(self, progress: Progress | None) -> ShowThinking:
        position = self.node.position
        title = f"Analysing {position.to_move}'s moves…"
        budget = self._budget(position) if self.algorithm == Algorithm.ALPHABETA else None
        return thinking_shown(title, self.algorithm, progress, position, budget)

    def hint(self) -> list[AnalysisEffect]:
        """h: say the best move of the position shown (it is analysed as soon as it shows)."""
        position = self.node.position
        if self.phase is Phase.SETUP:
            return [self._say("s finishes the set-up first: then the position is analysed.")]
        if position.is_over:
            return [
                self._say(
                    f"The game is over here ({_result_words(position)}): there is no move to hint."
                )
            ]
        analysis = self.node.analysis
        if analysis is None or not analysis.scores:
            return [self._say("The analysis is still running: the best move shows when it ends.")]
        best = analysis.scores[0]
        return [
            _report(self.node),
            self._say(
                f"Hint: {cell_notation(best.move, position.size)} ({move_words(best, position)})."
            ),
        ]

    def _budget(self, position: Board) -> float | None:
        """The analysis's time limit: none on 3×3 (solved exactly), as the game's hint."""
        return self.time_limit if position.size > 3 else None

    def search_done(self, analysis: Analysis) -> list[AnalysisEffect]:
        """The analysis of the node being analysed: keep it on the node and show it."""
        node = self._run.end()
        if node is None:
            return []
        node.analysis = analysis
        return [_report(node)] if node is self.node and self.phase is Phase.EXPLORE else []

    def search_failed(self, error: str) -> list[AnalysisEffect]:
        """The analysis raised or its process died: say so, and go on."""
        self._run.stop()
        return [ClearPanel(analysis_failed(error)), self._say(analysis_failed(error))]

    def say(self, text: str) -> list[AnalysisEffect]:
        """A notice about something the screen did on its own (keeping the study)."""
        return [self._say(text)]

    def _say(self, text: str) -> Say:
        self.notice = text
        return Say(text)


def _report(node: Node) -> ShowReport | ClearPanel:
    """The panel for a node's position: its analysis and best move."""
    analysis = node.analysis
    position = node.position
    if analysis is None or not analysis.scores:
        return ClearPanel("No analysis: the search stopped before scoring a move.")
    best = analysis.scores[0]
    name = cell_notation(best.move, position.size)
    return ShowReport(
        build_report(
            f"{position.to_move} to move: {name} ({move_words(best, position)})",
            analysis,
            position,
            best.move,
            verdict=f"The best move for {position.to_move} by {algorithm_name(analysis)}.",
        )
    )


def _where(tree: MoveTree, node: Node) -> str:
    """Where exploring is: the move shown, its result or side to move, and the study's size."""
    position = node.position
    where = (f"Move {node.ply} of this line" if node.ply else "The root position") + (
        f", {_result_words(position)}" if position.is_over else f", {position.to_move} to move"
    )
    if tree.root.children:
        variations = sum(max(len(n.children) - 1, 0) for n in tree.nodes())
        moves = len(tree)
        where += (
            f" · {moves} move{'' if moves == 1 else 's'}, {variations} "
            f"variation{'' if variations == 1 else 's'}"
        )
    return where


def _line_tokens(node: Node, tokens: list[MoveToken], depth: int) -> None:
    """The tokens of the line after `node`: its main continuation with each variation in
    brackets right after the move it is an alternative to."""
    while node.children:
        main, *others = node.children
        tokens.append(_move_token(main, depth))
        for other in others:
            tokens.append(MoveToken("(", None, depth + 1))
            tokens.append(_move_token(other, depth + 1))
            _line_tokens(other, tokens, depth + 1)
            tokens.append(MoveToken(")", None, depth + 1))
        node = main


def _move_token(node: Node, depth: int) -> MoveToken:
    assert node.move is not None
    return MoveToken(
        f"{node.ply}. {node.mover} {cell_notation(node.move, node.position.size)}",
        node.ident,
        depth,
    )


def _result_words(position: Board) -> str:
    """ "X won" or "a draw"."""
    return f"{position.winner} won" if position.winner is not None else "a draw"


def _clause(text: str) -> str:
    """A sentence made a clause to follow a colon: "Impossible position" → "impossible
    position" (a mark or a cell's name, "X cannot…", "A1 is…", keeps its capital)."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _sentence(text: str) -> str:
    """One sentence: a capital first and a full stop at the end."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."
