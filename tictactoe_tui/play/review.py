"""The review screen's rules, without Textual: which position is shown, what the board, the panel,
the move list, the status lines and the graph say about it, and whether play can go on from it.

The screen (`ui.screens.review`) only draws what this hands it and runs the analyses; the
verdicts themselves are `history.review`'s (judged on proven values where they are exact).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tictactoe_tui.engine import OPPONENTS, Analysis, Mark
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search.types import Band, Kind, win_score
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.review import GameReview, Verdict
from tictactoe_tui.play.settings import (
    MODES,
    GameSettings,
    Mode,
    Opponent,
    SettingError,
    settings_from_values,
)
from tictactoe_tui.text import scores
from tictactoe_tui.text.game import board_words, opponent_words
from tictactoe_tui.text.panel import PanelReport
from tictactoe_tui.text.report import build_report, score_hints
from tictactoe_tui.text.review import verdict_words

FLIPPED_KIND = {"at_most": "at_least", "at_least": "at_most"}
"""A bound seen from the other side: at most for O is at least for X."""

FLIPPED_BAND = {"win": "loss", "loss": "win"}
"""A band seen from the other side."""


def settings_of(game: PlayedGame, theme: str) -> GameSettings:
    """The settings a game was played with (rebuilt from the record if they were not kept)."""
    kept = settings_from_values(game.settings)
    if kept is not None:
        return replace(kept, theme=theme)
    mode = Mode(game.mode) if game.mode in MODES else Mode.HUMAN_VS_HUMAN
    computer = game.o if game.x == "human" else game.x
    try:
        return GameSettings(
            mode=mode,
            mark=Mark.X if game.x == "human" else Mark.O,
            opponent=Opponent(computer) if computer in OPPONENTS else Opponent.ALPHABETA,
            difficulty=game.difficulty,
            size=game.size,
            k=game.k,
            theme=theme,
        )
    except SettingError:
        return GameSettings(mode=Mode.HUMAN_VS_HUMAN, size=game.size, k=game.k, theme=theme)


@dataclass(frozen=True)
class ReviewBoard:
    """What the board shows: the marks, the last move, the winning line, and the scores of the
    moves there were before the shown move (with the better move the review names)."""

    marks: tuple[str, ...]
    last: int | None
    winning: tuple[int, ...]
    hints: dict[int, str]
    caption: str
    better: int | None


@dataclass(frozen=True)
class ReviewGraph:
    """The evaluation graph: each position's value (None: not analysed yet), the one shown, the
    scale, each value's kind (exact, estimate, bound) and the caption under it."""

    values: list[int | None]
    index: int
    limit: int
    kinds: list[str]
    readout: str


class ReviewController:
    """A finished (or abandoned) game under review: the position shown and the words for it."""

    def __init__(self, game: PlayedGame, game_id: int | None = None) -> None:
        self.review = GameReview(game)
        """The positions, their analyses and the verdicts."""
        self.game_id = game_id
        """The game's id in the history, for the title."""
        self.index = len(game.moves)
        """The position shown: the number of moves played (the game's end at first)."""

    @property
    def game(self) -> PlayedGame:
        """The game under review."""
        return self.review.game

    @property
    def analysed(self) -> bool:
        """True once every position the review needs is analysed."""
        done, total = self.review.progress
        return done >= total

    # -- moving through the game ----------------------------------------------------------------

    def goto(self, index: int) -> None:
        """Show the position after `index` moves (clamped to the game)."""
        self.index = min(max(index, 0), len(self.game.moves))

    def step(self, delta: int) -> None:
        """One move back or forward."""
        self.goto(self.index + delta)

    def jump(self, index: int) -> None:
        """To the start (0) or the end (-1)."""
        self.goto(len(self.game.moves) if index < 0 else index)

    def take_analysis(self, index: int, analysis: Analysis) -> None:
        """Position `index`'s analysis is in."""
        self.review.analyses[index] = analysis

    @property
    def position(self) -> Position:
        """The position shown."""
        return self.review.positions[self.index]

    def play_from_here(self) -> tuple[int, ...] | str:
        """The moves to play a new game from (the game's first `index` cells), or why not."""
        if self.position.is_over:
            return "The game is over in this position: step back to play on from an earlier one."
        return tuple(self.game.cells[: self.index])

    # -- what each part shows -------------------------------------------------------------------

    def verdict(self) -> Verdict | None:
        """The review's verdict on the move that led to the shown position (None at the start or
        before it is analysed)."""
        return self.review.verdict(self.index) if self.index else None

    def board(self) -> ReviewBoard:
        """The board: the shown position, and the scores of the moves before the shown one."""
        position = self.position
        marks = position.marks()
        before = self.review.analyses[self.index - 1] if self.index else self.review.analyses[0]
        hints = score_hints(before) if before is not None else {}
        verdict = self.verdict()
        return ReviewBoard(
            marks=marks,
            last=self.game.cells[self.index - 1] if self.index else None,
            winning=position.winning_line,
            hints={cell: hint for cell, hint in hints.items() if not marks[cell]},
            caption=f"scores before move {max(self.index, 1)}",
            better=verdict.better if verdict is not None else None,
        )

    def panel(self) -> PanelReport | str:
        """The panel: the analysis of the position the shown move was played in, with the
        review's sentence on that move; or a line saying why there is none yet."""
        analysed_at = self.index - 1 if self.index else 0
        position = self.review.positions[analysed_at]
        analysis = self.review.analyses[analysed_at]
        if position.is_over:
            return "The game is over."
        if analysis is None:
            done, total = self.review.progress
            return f"Analysing the game: {done} of {total} positions done…"
        if not self.index:
            return build_report(
                f"Start: {position.to_move} to move",
                analysis,
                position,
                -1,
                verdict="Every first move, best first.",
            )
        verdict = self.verdict()
        cell = self.game.cells[self.index - 1]
        title = f"{self.index}. {position.to_move} {cell_notation(cell, position.size)}"
        if verdict is None:
            return build_report(title, analysis, position, cell)
        words = verdict_words(verdict, self.review.positions[verdict.number - 1])
        return build_report(f"{title}{verdict.symbol}", analysis, position, cell, verdict=words)

    def moves(self) -> list[tuple[str, str]]:
        """The move list: each move's mark and its cell with the review's symbol (?!, ?, ??)."""
        size = self.game.size
        moves = []
        for number, cell in enumerate(self.game.cells, start=1):
            verdict = self.review.verdict(number)
            symbol = verdict.symbol if verdict is not None else ""
            mover = str(self.review.positions[number - 1].to_move)
            moves.append((mover, f"{cell_notation(cell, size)}{symbol}"))
        return moves

    def status(self) -> tuple[str, str]:
        """The two status lines: the game (who, where, the result) and the move shown with each
        side's count of ?!, ? and ?? (or the forfeit's reason at the end of a forfeited game)."""
        game = self.game
        title = f"Game {self.game_id}" if self.game_id is not None else "Game"
        who = opponent_words(game.mode, game.x, game.o, game.difficulty)
        sides = (
            f"you ({'X' if game.x == 'human' else 'O'}) vs {who}"
            if game.mode == "human-vs-computer"
            else who
        )
        if game.outcome == "abandoned":
            result = "abandoned"
        elif game.outcome == "draw":
            result = "a draw"
        else:
            result = f"{game.outcome} won" + (" by forfeit" if game.forfeit else "")
        count = len(game.moves)
        first = (
            f"{title}, {game.started:%Y-%m-%d %H:%M}: {sides}, "
            f"{board_words(game.size, game.k)}, {result} after {count} "
            f"move{'' if count == 1 else 's'}"
        )
        where = f"Move {self.index} of {count} (←/→ step)"
        if game.forfeit and self.index == count:
            return first, f"{where}   {game.forfeit}"
        counts = []
        for mark in (Mark.X, Mark.O):
            found = self.review.counts(mark)
            counts.append(
                f"{mark}: {found['inaccuracy']} ?!, {found['mistake']} ?, {found['blunder']} ??"
            )
        second = f"{where}   " + "   ".join(counts)
        if self.index <= game.setup_moves and game.setup_moves:
            second += f"   (moves 1–{game.setup_moves} were set up from an earlier game)"
        return first, second

    def graph(self) -> ReviewGraph:
        """The graph of the game's values, seen from X."""
        positions = self.review.positions
        values = [self.review.value(i) for i in range(len(positions))]
        limit = win_score(positions[0])
        if self.game.size > 3:
            # Heuristic values are small next to a win's size² + 1: scale to what was seen.
            seen = [abs(v) for v in values if v is not None]
            limit = max(min(max(seen, default=1), limit), 1)
        points = [self.seen_from_x(i) for i in range(len(positions))]
        return ReviewGraph(
            values=values,
            index=self.index,
            limit=limit,
            kinds=[kind for _, kind, _ in points],
            readout=readout(self.index, points[self.index], positions[self.index]),
        )

    def seen_from_x(self, index: int) -> tuple[int | None, str, str]:
        """Position `index`'s value seen from X, with its kind and band (a finished game's is
        exact; at most for O is at least for X)."""
        board = self.review.positions[index]
        analysis = self.review.analyses[index]
        value = self.review.value(index)
        if board.is_over or analysis is None or not analysis.scores:
            band = "draw" if value == 0 else "win" if (value or 0) > 0 else "loss"
            return value, "exact" if board.is_over else "", band
        best = analysis.scores[0]
        if board.to_move is Mark.X:
            return value, best.kind, best.band
        return value, FLIPPED_KIND.get(best.kind, best.kind), FLIPPED_BAND.get(best.band, best.band)


def readout(index: int, point: tuple[int | None, str, str], board: Position) -> str:
    """The graph's caption: the shown position's value, seen from X, and what it is:
    "after move 7: ~-13 for X (estimate)", "after move 9: ≥ +92 for X (win in ≤ 9)"."""
    value, kind, band = point
    if board.is_over:
        winner = board.winner
        return f"after move {index}: {'a draw' if winner is None else f'{winner} won'}"
    if value is None or not kind:
        return f"after move {index}: not analysed yet"
    marked = scores.marked_score(value, kind)
    meaning = scores.short_meaning(value, board, Kind(kind), Band(band))
    return f"after move {index}: {marked} for X ({meaning})"
