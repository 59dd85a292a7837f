"""What the Game screen draws from its controller: the board, the faint scores and their
caption, the move list, the status line, and the result in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.effects import BoardView, ScoreOverlay, Status
from tictactoe_tui.play.settings import Mode
from tictactoe_tui.text.report import score_hints

if TYPE_CHECKING:
    from tictactoe_tui.play.controller import GameController
    from tictactoe_tui.play.turns import GameTurns


def board_view(game: GameController) -> BoardView:
    """The marks, the last move, the winning line and the digit labels on 3×3 (an earlier
    position shown: its marks and the move that made it)."""
    moves = game.game.moves
    if game.viewing is not None:
        shown = game.shown_position()
        last = moves[game.viewing - 1] if game.viewing else None
        return BoardView(shown.marks(), last, shown.winning_line, {})
    position = game.game.board
    labels = {}
    if position.size == 3 and game.mode is not Mode.COMPUTER_VS_COMPUTER and not game.game.is_over:
        labels = {i: str(i + 1) for i in range(position.size * position.size)}
    result = game.game.result
    return BoardView(
        position.marks(), moves[-1] if moves else None, result.line if result else (), labels
    )


def score_overlay(game: GameController) -> ScoreOverlay:
    """The side to move's scores once analysed (empty while hidden or while the computer
    thinks); while the quiet scoring runs, the caption says how far it got."""
    nothing = ScoreOverlay({}, "", "", None)
    if game.viewing is not None:
        shown = game.shown_position()
        looked = game.search.view_analysis(shown)
        if looked is None or not looked.scores or not game.show_scores:
            return nothing
        return ScoreOverlay(
            score_hints(looked), f"{shown.to_move}'s scores", "v", looked.scores[0].move
        )
    analysis = game.analysed()
    if not game.show_scores or game.thinking == "computer" or game.game.is_over:
        return nothing
    if analysis is None:
        caption = game.search.scores_progress if game.thinking == "scores" else ""
        return ScoreOverlay({}, caption, "v" if caption else "", None)
    best = analysis.scores[0].move if game.hint_shown and analysis.scores else None
    return ScoreOverlay(score_hints(analysis), f"{game.game.board.to_move}'s scores", "v", best)


def move_list(game: GameController) -> list[tuple[str, str]]:
    """Every move so far as (mark, cell name)."""
    size = game.game.size
    return [
        (str(game.mark_of(i)), cell_notation(cell, size)) for i, cell in enumerate(game.game.moves)
    ]


def status(game: GameController) -> Status:
    """The status line: the players, whose turn it is, the notice, the last move."""
    settings = game.settings
    if game.mode is Mode.HUMAN_VS_COMPUTER:
        players = (
            f"You: {settings.human_mark}   Computer: {settings.computer_mark} "
            f"({game.style_words()})"
        )
    elif game.mode is Mode.COMPUTER_VS_COMPUTER:
        players = f"Computer X vs computer O ({game.style_words()})"
    else:
        players = "X vs O, two players at one keyboard (h: hint)"
    return Status(players, _turn(game), game.notice, game.last_line)


def _turn(game: GameController) -> str:
    """Whose turn it is, or why nobody moves."""
    to_move = game.game.board.to_move
    cvc = game.mode is Mode.COMPUTER_VS_COMPUTER
    if game.viewing is not None:
        return (
            f"Looking back at move {game.viewing} of {len(game.game.moves)} (the game "
            "waits) · , . step · e analyses · a move returns"
        )
    if game.game.is_over:
        return f"Game over: {headline(game)} — n: new game · s: settings"
    if cvc and game.paused:
        return "Paused: space resumes (h: the analysis of this position)"
    if game.thinking == "computer":
        return f"{game.who(to_move)} is thinking…"
    if game.thinking == "hint":
        return f"Analysing {to_move}'s position…"
    if cvc or game.settings.is_computer(to_move):
        # Between a failed search and the computer's move, or before it starts.
        return f"{game.who(to_move)} to move"
    if game.mode is Mode.HUMAN_VS_COMPUTER:
        return f"Your turn ({to_move})"
    return f"{to_move} to move"


def headline(game: GameTurns) -> str:
    """The result in a few words: "You win!", "Computer wins", "X wins", "Draw"."""
    result = game.game.result
    winner = result.winner if result is not None else None
    if winner is None:
        return "Draw"
    if game.mode is Mode.HUMAN_VS_COMPUTER:
        return "Computer wins" if game.settings.is_computer(winner) else "You win!"
    return f"{winner} wins"


def result_detail(game: GameTurns) -> str:
    """How the game ended: the winning line and the number of moves."""
    result = game.game.result
    moves = len(game.game.moves)
    if result is not None and result.forfeit:
        return result.forfeit
    if result is None or result.winner is None:
        return f"The board is full after {moves} moves."
    size = game.game.size
    first, last = result.line[0], result.line[-1]
    return (
        f"{result.winner} made {len(result.line)} in a row, "
        f"{cell_notation(first, size)} to {cell_notation(last, size)}, in {moves} moves."
    )
