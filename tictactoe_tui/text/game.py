"""Words for a kept game: its players, board and result, as the history and review show them."""

from __future__ import annotations

from tictactoe_tui.engine.players.outside import ENGINE
from tictactoe_tui.history.games import GameSummary
from tictactoe_tui.history.scores import ScoreLine, opponent_of
from tictactoe_tui.text.report import ALGORITHM_NAMES

MODE_WORDS = {
    "human-vs-computer": "vs computer",
    "human-vs-human": "two people",
    "computer-vs-computer": "two computers",
}
"""How the table names each mode."""


def player_name(name: str) -> str:
    """A player as people call it: "alpha-beta", "H1", "you"; an outside engine by its own
    name ("engine:Rapfi" is "Rapfi")."""
    engine, _, own = name.partition(":")
    if engine == ENGINE and own:
        return own
    return ALGORITHM_NAMES.get(name, name)


def opponent_words(mode: str, x: str, o: str, difficulty: int) -> str:
    """Who the game was against, with the difficulty when it was below 100."""
    if mode == "human-vs-human":
        return "a person"
    if mode == "computer-vs-computer":
        return f"{player_name(x)} vs {player_name(o)}"
    name = player_name(opponent_of(mode, x, o))
    return name if difficulty >= 100 else f"{name} {difficulty}%"


def result_words(game: GameSummary) -> str:
    """The result as the player sees it: "You won", "Computer won", "X won", "Draw"."""
    if game.outcome == "draw":
        return "Draw"
    if game.outcome == "abandoned":
        return "Abandoned"
    by = " (forfeit)" if game.forfeit else ""
    if game.mode == "human-vs-computer":
        human = "X" if game.x == "human" else "O"
        return ("You won" if game.outcome == human else "Computer won") + by
    return f"{game.outcome} won{by}"


def board_words(size: int, k: int) -> str:
    """ "3×3", or "10×10, 5 in a row" when k is not the whole side."""
    return f"{size}×{size}" if k == size else f"{size}×{size}, {k} in a row"


def score_line_words(line: ScoreLine) -> str:
    """One all-time line: "alpha-beta on 3×3: You 2 · Computer 5 · Draws 10"."""
    if line.mode == "human-vs-computer":
        who = opponent_words(line.mode, "human", line.opponent, line.difficulty)
    elif line.mode == "human-vs-human":
        who = "two people"
    else:
        x, _, o = line.opponent.partition(" vs ")
        who = opponent_words(line.mode, x, o, line.difficulty)
    counts = " · ".join(f"{label} {count}" for label, count in line.tally())
    extra = f" ({line.abandoned} abandoned)" if line.abandoned else ""
    return f"{who} on {board_words(line.size, line.k)}: {counts}{extra}"
