"""The Review screen: step through a played game with every position analysed and every move judged.

The screen holds a `GameReview` (see `review.py`). On mount it takes the analyses the history has
cached for the game's positions; 3×3 positions still missing are solved at once (a whole game
takes a few milliseconds), bigger boards are analysed in the app's worker process under the
review's time budget, one job per position, each result filling the progress bar and going into
the cache as it arrives. Leaving the screen cancels the analysis at once.

←/→ step one move, Home/End jump to the start or the end, a click on a move in the list or on a
point of the evaluation graph jumps there. The board shows the position after the current move,
with that move lit and, when it was not the best, the better move lit green; the panel shows the
position the move was played from, every candidate with its score and the played one marked.
A mistake or a blunder is also said in words from the threats on the board ("B1?? lets X
fork with A1", `text.threats.mistake_words`); "The best move" always names the move the panel
ranks first (`text.review.verdict_words`). `f` plays on from the shown position with the
game's settings; `e` opens the shown position on the analysis board; `c` opens the "find a
better move" cards (the learner's marked moves are kept as cards once the game is analysed,
`play.cards`); escape goes back. As on the
Game screen, Tab gives the panel's rows the keys (↑/↓ or a click draws a candidate's expected
line on the board) and `p` hides or shows those lines.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static
from textual_plotext import PlotextPlot

from tictactoe_tui.engine import Analysis
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.review import (
    GameReview,
    analyse_for_review,
    analysis_from_json,
    analysis_to_json,
    position_key,
    review_method,
)
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.cards import keep_review_cards
from tictactoe_tui.play.review import ReviewController, settings_of
from tictactoe_tui.text import scores
from tictactoe_tui.ui.jobs import app_thinker
from tictactoe_tui.ui.messages import Analyse, OpenCards, PlayFrom
from tictactoe_tui.ui.widgets import MoveList, PositionView
from tictactoe_tui.worker.client import JobFailed


class EvalGraph(PlotextPlot):
    """The evaluation over the game, seen from X; a click on the graph jumps to that move.

    A value that is only a bound is drawn with its mark ("≤" / "≥") instead of a point, and
    the caption under the graph reads out the shown position's value with its kind.
    """

    DEFAULT_CSS = """
    EvalGraph { height: 9; border: round $secondary 40%; border-title-color: $text-muted; }
    """

    class Picked(events.Event):
        """A point of the graph was clicked: show position `index`."""

        def __init__(self, index: int) -> None:
            """Remember which position."""
            super().__init__()
            self.index = index
            """The position (moves played) clicked."""

    def __init__(self, *, id: str | None = None) -> None:
        """An empty graph."""
        super().__init__(id=id)
        self.values: list[int | None] = []
        self.kinds: list[str] = []
        self.current = 0
        self.limit = 10
        self._frame: tuple[int, int] | None = None

    def show(
        self,
        values: list[int | None],
        current: int,
        limit: int,
        kinds: list[str] | None = None,
        readout: str = "",
    ) -> None:
        """Plot `values` (None: not analysed yet) with `current` marked; y runs ±`limit`.
        `kinds` says what each value is, seen from X ("exact", "estimate", "at_most",
        "at_least"; a bound gets its mark); `readout` is the caption under the graph."""
        self.values, self.current, self.limit = values, current, limit
        self.kinds = kinds if kinds is not None else ["estimate"] * len(values)
        self.border_subtitle = readout
        self.refresh()

    def render(self) -> RenderResult:
        """Draw the curve, the zero line and the current position."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        last = max(len(self.values) - 1, 1)
        known = [(i, v) for i, v in enumerate(self.values) if v is not None]
        if known:
            plt.plot([i for i, _ in known], [v for _, v in known], marker="braille")
        for kind in ("at_most", "at_least"):
            # A bound is no point on the curve: its mark says which side the value lies on.
            bounds = [(i, v) for i, v in known if i < len(self.kinds) and self.kinds[i] == kind]
            if bounds:
                plt.scatter(
                    [i for i, _ in bounds], [v for _, v in bounds], marker=scores.KIND_MARKS[kind]
                )
        if 0 <= self.current < len(self.values) and self.values[self.current] is not None:
            # The shown position: a dot, or its bound's own mark (a dot would hide it).
            kind = self.kinds[self.current] if self.current < len(self.kinds) else ""
            mark = scores.KIND_MARKS[kind] if kind in ("at_most", "at_least") else "●"
            plt.scatter([self.current], [self.values[self.current]], marker=mark)
        plt.hline(0)
        plt.xlim(0, last)
        plt.ylim(-self.limit, self.limit)
        ticks = move_ticks(last)
        plt.xticks([float(tick) for tick in ticks], [str(tick) for tick in ticks])
        plt.yticks([-self.limit, 0, self.limit], ["O", "0", "X"])
        rendered = super().render()
        if isinstance(rendered, Text):
            self._frame = _plot_columns(rendered.plain)
        return rendered

    def on_click(self, event: events.Click) -> None:
        """Jump to the move under the pointer."""
        if self._frame is None or len(self.values) < 2:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        left, right = self._frame
        span = max(right - left, 1)
        index = round((offset.x - left) / span * (len(self.values) - 1))
        self.post_message(self.Picked(min(max(index, 0), len(self.values) - 1)))


def move_ticks(last: int) -> list[int]:
    """Where the graph's x axis is marked: every move up to 24, else every 2nd, 5th, 10th, ...
    move (moves are whole numbers: plotext's own ticks would read 10.2, 20.5, ...)."""
    step = 1
    while last / step > 24 or (step > 1 and last / step > 8):
        step = next((nice for nice in (2, 5, 10, 20, 25, 50, 100) if nice > step), step * 10)
    return list(range(0, last + 1, step))


def _plot_columns(text: str) -> tuple[int, int] | None:
    """The first and last column of the plotting area, read off the frame's bottom line."""
    for line in text.splitlines():
        if "└" in line and "┘" in line:
            return line.index("└") + 1, line.index("┘") - 1
    return None


class ReviewScreen(Screen[None]):
    """A finished (or abandoned) game, move by move, with the review's verdicts."""

    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; }
    ReviewScreen #review-status {
        height: auto; min-height: 2; max-height: 4; padding: 0 1; background: $boost;
    }
    ReviewScreen #review-view { height: 1fr; }
    ReviewScreen #review-progress { height: 1; padding: 0 1; }
    ReviewScreen #review-progress Bar { width: 1fr; }
    ReviewScreen.-analysed #review-progress { display: none; }
    """

    AUTO_FOCUS = None
    """Nothing takes the focus: the board only shows, and the panel's rows take it with Tab."""

    # Priority: the arrows step through the game even while the panel's rows have the focus
    # (up and down still move among the rows, to draw each candidate's line on the board).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Previous", key_display="←", priority=True),
        Binding("right", "step(1)", "Next", key_display="→", priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("f", "play_from_here", "Play from here"),
        Binding("e", "analyse", "Analyse"),
        Binding("p", "toggle_lines", "Lines", show=False),
        Binding("c", "cards", "Cards", show=False),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self, game: PlayedGame, store: HistoryStore | None = None, game_id: int | None = None
    ) -> None:
        """Review `game`; analyses come from (and go to) `store`'s cache when there is one."""
        super().__init__()
        self.controller = ReviewController(game, game_id)
        """The position shown and what each part says of it."""
        self.store = store
        """The history whose cache keeps the analyses (None: nothing is cached)."""
        self._method = review_method(game.size)
        self._cards_made = False

    @property
    def review(self) -> GameReview:
        """The positions, their analyses and the verdicts (the controller's)."""
        return self.controller.review

    @property
    def game_id(self) -> int | None:
        """The game's id in the history, for the title."""
        return self.controller.game_id

    @property
    def game(self) -> PlayedGame:
        """The game under review."""
        return self.review.game

    @property
    def index(self) -> int:
        """The position shown: the number of moves played."""
        return self.controller.index

    def compose(self) -> ComposeResult:
        """Status, the board and moves beside the panel, the progress bar, the graph."""
        yield Static("", id="review-status", markup=False)
        view = PositionView(self.game.size, id="review-view", board_id="review-board")
        view.board.can_focus = False
        view.board.interactive = False
        yield view
        yield ProgressBar(
            total=max(self.review.progress[1], 1), show_eta=False, id="review-progress"
        )
        graph = EvalGraph(id="review-graph")
        graph.border_title = "Evaluation (X up, O down): click to jump"
        yield graph
        yield Footer()

    def on_mount(self) -> None:
        """Take the cached analyses, then analyse the rest (at once on 3×3, else in a worker)."""
        self._take_cached()
        if self.review.to_analyse and self.game.size == 3:
            for index in self.review.to_analyse:
                self._analysed(index, analyse_for_review(self.review.positions[index]))
        if self.review.to_analyse:
            self._analyse_in_background()
        self._refresh()

    # -- analysing ------------------------------------------------------------------------------

    def _take_cached(self) -> None:
        if self.store is None:
            return
        keys = {position_key(self.review.positions[i]): i for i in self.review.to_analyse}
        for key, text in self.store.cached_analyses(keys, self._method).items():
            analysis = analysis_from_json(text)
            if analysis is not None:
                self.controller.take_analysis(keys[key], analysis)

    @work(exclusive=True, group="analysis", exit_on_error=False)
    async def _analyse_in_background(self) -> None:
        """Analyse each waiting position in the worker, in order, showing each as it comes."""
        thinker = app_thinker(self)
        for index in self.review.to_analyse:
            try:
                analysis = await thinker.run(analyse_for_review, self.review.positions[index])
            except JobFailed as error:
                # What was analysed stays; say that the rest stopped, and why.
                self.notify(f"The analysis stopped: {error}", severity="error")
                return
            self._analysed(index, analysis)

    def _analysed(self, index: int, analysis: Analysis) -> None:
        """One position's analysis is in: keep it, cache it and redraw."""
        self.controller.take_analysis(index, analysis)
        if self.store is not None:
            self.store.cache_analysis(
                position_key(self.review.positions[index]), self._method, analysis_to_json(analysis)
            )
        if self.is_mounted:
            self._refresh()

    # -- moving through the game ----------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        """One move back or forward."""
        self.controller.step(delta)
        self._refresh()

    def action_jump(self, index: int) -> None:
        """To the start (0) or the end (-1)."""
        self.controller.jump(index)
        self._refresh()

    def action_goto(self, index: int) -> None:
        """Show the position after `index` moves (clamped to the game)."""
        self.controller.goto(index)
        self._refresh()

    @on(EvalGraph.Picked)
    def on_graph_picked(self, event: EvalGraph.Picked) -> None:
        """A click on the graph."""
        self.action_goto(event.index)

    def action_play_from_here(self) -> None:
        """Start a new game from the shown position with the game's settings."""
        cells = self.controller.play_from_here()
        if isinstance(cells, str):
            self.notify(cells, severity="warning")
            return
        self.post_message(PlayFrom(settings_of(self.game, self.app.theme), cells))

    def action_analyse(self) -> None:
        """Open the analysis board on the shown position (the review stays underneath)."""
        self.post_message(Analyse(self.controller.position))

    def action_cards(self) -> None:
        """Open the "find a better move" cards (this game's among them, once analysed)."""
        self.post_message(OpenCards())

    def action_toggle_lines(self) -> None:
        """Hide or show the expected lines on the board."""
        self.view.toggle_lines()

    def action_back(self) -> None:
        """Back to the history (or the results)."""
        self.dismiss()

    # -- drawing --------------------------------------------------------------------------------

    def _keep_cards(self) -> None:
        """Once every position is analysed, keep the learner's marked moves as cards (a
        position already kept keeps its card)."""
        if self.store is not None and not self._cards_made:
            self._cards_made = True
            keep_review_cards(self.store, self.review, datetime.now(), self.game_id)

    def _refresh(self) -> None:
        done, total = self.review.progress
        if self.controller.analysed:
            self._keep_cards()
        self.set_class(self.controller.analysed, "-analysed")
        self.query_one("#review-progress", ProgressBar).update(total=max(total, 1), progress=done)
        self._show_board()
        self._show_panel()
        self._show_moves()
        self._show_status()
        self._show_graph()

    @property
    def view(self) -> PositionView:
        """The board, the move list and the panel."""
        return self.query_one("#review-view", PositionView)

    def _show_board(self) -> None:
        board = self.controller.board()
        self.view.show_position(board.marks, last=board.last, winning=board.winning)
        self.view.show_scores(board.hints, board.caption, best=board.better)

    def _show_panel(self) -> None:
        panel = self.controller.panel()
        if isinstance(panel, str):
            self.view.clear_panel(panel)
        else:
            self.view.show_report(panel)

    def _show_moves(self) -> None:
        self.view.moves.show(self.controller.moves(), current=self.index or None)

    @on(MoveList.Picked)
    def on_move_picked(self, event: MoveList.Picked) -> None:
        """A click on a move in the list jumps there."""
        self.action_goto(event.number)

    def _show_status(self) -> None:
        first, second = self.controller.status()
        self.query_one("#review-status", Static).update(f"{first}\n{second}")

    def _show_graph(self) -> None:
        graph = self.controller.graph()
        self.query_one("#review-graph", EvalGraph).show(
            graph.values, graph.index, graph.limit, graph.kinds, graph.readout
        )
