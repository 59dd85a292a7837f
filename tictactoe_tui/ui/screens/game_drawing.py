"""The Game screen's drawing: its layout for the terminal's size, and its redraws.

The layout is the full one when the terminal has room for it, else the compact one (one-line
cells, a one-line verdict), else the "enlarge the terminal" notice; `needed_terminal` and
`compact_terminal` say how big a terminal each needs. The redraws show what the controller's
queries say now (the board, its scores, the move list, the status, the verdict line), each
only when it changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from tictactoe_tui.engine.rules.board import MIN_SIZE
from tictactoe_tui.play.controller import BoardView, ScoreOverlay
from tictactoe_tui.ui.keys import key_for
from tictactoe_tui.ui.widgets import Scoreboard
from tictactoe_tui.ui.widgets.board import board_size_on_screen
from tictactoe_tui.ui.widgets.too_small import TooSmall

if TYPE_CHECKING:
    from tictactoe_tui.ui.screens.game import GameScreen

STATUS_HEIGHT = 3
PANEL_MIN_WIDTH = 46
MIN_WIDTH = 60
SCOREBOARD_HEIGHT = 5
FOOTER_HEIGHT = 1
COMPACT_STATUS_HEIGHT = 2
VERDICT_HEIGHT = 1
COMPACT_MIN_WIDTH = 40
"""The compact layout's narrowest terminal: its verdict line ("e panel · Computer (O) played C1:
draw") needs the room, whatever the board's width."""

GAME_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #status {
        height: 3;
        padding: 0 1;
        background: $boost;
    }
    GameScreen #scoreboard { width: 100%; }
    GameScreen #verdict {
        display: none;
        height: 1;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    GameScreen #predict {
        display: none;
        height: auto;
        max-height: 4;
        padding: 0 1;
        background: $boost;
    }
    GameScreen.-predicting #predict { display: block; }
    GameScreen #predict-value { display: none; margin: 0 1; }
    GameScreen.-predict-value #predict-value { display: block; }
    GameScreen.-compact #status { height: 2; }
    GameScreen.-compact #verdict { display: block; }
    GameScreen.-too-small #position, GameScreen.-too-small #status,
    GameScreen.-too-small #verdict { display: none; }
    """
"""The Game screen's layout (its `DEFAULT_CSS`): the status, the predict bar, the verdict line
of the compact layout (`-compact`), the "enlarge the terminal" notice (`-too-small`)."""

PREDICTING_TURN = "Your prediction: the computer has chosen, its move waits for your answers"
"""The status line's turn while the questions are open."""


def needed_terminal(size: int, panel: bool = True) -> tuple[int, int]:
    """The smallest (width, height) terminal that shows a size×size game in the full layout
    (status, board, scoreboard, moves, and the panel beside them if `panel`)."""
    board_width, board_height = board_size_on_screen(size)
    width = max(MIN_WIDTH, board_width + (PANEL_MIN_WIDTH if panel else 0))
    height = STATUS_HEIGHT + board_height + SCOREBOARD_HEIGHT + FOOTER_HEIGHT
    return width, height


def compact_terminal(size: int) -> tuple[int, int]:
    """The smallest (width, height) terminal a size×size game plays in: the compact layout
    (the status, the board in one-line cells, a one-line verdict, the keys; the panel one key
    away, shown instead of the board)."""
    board_width, board_height = board_size_on_screen(size, compact=True)
    width = max(COMPACT_MIN_WIDTH, board_width)
    height = COMPACT_STATUS_HEIGHT + board_height + VERDICT_HEIGHT + FOOTER_HEIGHT
    return width, height


class GameDrawing:
    """What one Game screen shows, redrawn from its controller when it changes."""

    def __init__(self, screen: GameScreen) -> None:
        """Draw on `screen`, from its controller."""
        self.screen = screen
        # What the widgets show now: redrawn only when the controller's view of it changes.
        self._drawn_board: BoardView | None = None
        self._drawn_scores: ScoreOverlay | None = None
        self._drawn_moves: tuple[list[tuple[str, str]], int | None] = ([], None)

    def fit_terminal(self) -> None:
        """The full layout when the terminal has room for it, else the compact one, else the
        "enlarge the terminal" notice (the smallest terminal is the compact layout's)."""
        screen = self.screen
        view = screen.view
        size = screen.settings.size
        smaller = ", where a smaller board needs less room" if size > MIN_SIZE else ""
        small = screen.query_one(TooSmall).fit(
            compact_terminal(size),
            f"a {size}×{size} board",
            f"s opens the settings{smaller}; q quits.",
            note="Moves wait until the board fits.",
            refocus=view.board,
        )
        screen.controller.hidden = small
        have = screen.app.size
        full_width, full_height = needed_terminal(size, view.panel_wanted)
        compact = not small and (have.width < full_width or have.height < full_height)
        if compact != screen.has_class("-compact"):
            screen.set_class(compact, "-compact")
            view.set_compact(compact)
            self.status()

    def everything(self) -> None:
        """Redraw what changed: the board, its scores, the move list, the status."""
        screen = self.screen
        controller = screen.controller
        view = controller.board_view()
        turn = screen.predict.round
        asking_move = turn is not None and turn.stage == "move"
        screen.view.board.interactive = controller.interactive or asking_move
        if view != self._drawn_board:
            self._drawn_board = view
            screen.view.show_position(
                view.marks, last=view.last, winning=view.winning, labels=view.labels
            )
        self.scores()
        listed = controller.move_list()
        viewing = controller.viewing
        if (listed, viewing) != self._drawn_moves:
            self._drawn_moves = (listed, viewing)
            # Looking back: the move that made the position shown is highlighted.
            screen.view.show_moves(listed, current=viewing or None)
        self.status()

    def scores(self) -> None:
        """The scores written faintly in the empty cells, and the board's caption."""
        overlay = self.screen.controller.score_overlay()
        if overlay != self._drawn_scores:
            self._drawn_scores = overlay
            self.screen.view.show_scores(overlay.scores, overlay.caption, overlay.key, overlay.best)

    def scoreboard(self) -> None:
        """The session's score and the all-time one under the board."""
        screen = self.screen
        screen.query_one(Scoreboard).show(
            screen.controller.session.tally(screen.settings.mode), screen.all_time()
        )

    def status(self) -> None:
        """The status; in the compact layout, whose turn and the notice only (the board marks
        the last move, and the verdict line says what the panel says)."""
        screen = self.screen
        status = screen.controller.status()
        compact = screen.has_class("-compact")
        parts: list[str | tuple[str, str]] = [] if compact else [(status.players, "bold"), "\n"]
        turn = status.turn if screen.predict.round is None else PREDICTING_TURN
        parts.append((turn, "bold $accent"))
        if status.notice:
            parts += ["   ", (status.notice, "$text-warning")]
        if not compact:
            parts += ["\n", ("Last: " + status.last if status.last else "", "")]
        screen.query_one("#status", Static).update(Content.assemble(*parts))
        self.verdict()

    def verdict(self) -> None:
        """The compact layout's verdict line: the key that shows the panel, and the panel in
        one line (the footer is too narrow to list that key)."""
        screen = self.screen
        if not screen.has_class("-compact"):
            return
        verdict = screen.view.verdict_line(key_for(screen, "toggle_panel", ""))
        shown = screen.query_one("#verdict", Static)
        if shown.visual != verdict:
            shown.update(verdict)
