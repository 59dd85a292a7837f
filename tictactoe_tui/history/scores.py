"""All-time results by kind of game (opponent, difficulty, board), counted from the games kept.

The scoreboard's all-time line and the History screen read these: against the computer the
wins are the person's, between people or computers they are X's.
"""

from __future__ import annotations

from dataclasses import dataclass

from tictactoe_tui.engine import Mark
from tictactoe_tui.history.database import Database


@dataclass(frozen=True)
class ScoreLine:
    """All-time results of one kind of game: one opponent, difficulty and board.

    Against the computer `wins` are the human's and `losses` the computer's; in the other modes
    they are X's and O's.
    """

    mode: str
    opponent: str
    """The computer's name against a human; "human" between people; "x vs o" for computers."""
    difficulty: int
    size: int
    k: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0

    @property
    def games(self) -> int:
        """Every game counted, abandoned ones too."""
        return self.wins + self.losses + self.draws + self.abandoned

    def tally(self) -> tuple[tuple[str, int], ...]:
        """The labelled counts a scoreboard shows, like the session's."""
        won, lost = ("You", "Computer") if self.mode == "human-vs-computer" else ("X", "O")
        return ((won, self.wins), (lost, self.losses), ("Draws", self.draws))


def opponent_of(mode: str, x: str, o: str) -> str:
    """Who a game was against: the computer's name, "human", or "x vs o" for two computers."""
    if mode == "human-vs-computer":
        return o if x == "human" else x
    if mode == "human-vs-human":
        return "human"
    return f"{x} vs {o}"


def score_lines(database: Database) -> list[ScoreLine]:
    """All-time results by kind of game (opponent, difficulty, board), most played first."""
    rows = database.rows(
        "SELECT mode, x, o, difficulty, size, k, outcome, COUNT(*) FROM games "
        "GROUP BY mode, x, o, difficulty, size, k, outcome"
    )
    lines: dict[tuple[str, str, int, int, int], dict[str, int]] = {}
    for mode, x, o, difficulty, size, k, outcome, count in rows:
        key = (mode, opponent_of(mode, x, o), difficulty, size, k)
        counts = lines.setdefault(key, {"wins": 0, "losses": 0, "draws": 0, "abandoned": 0})
        counts[_column(mode, x, outcome)] += count
    made = [
        ScoreLine(
            mode,
            opponent,
            difficulty,
            size,
            k,
            counts["wins"],
            counts["losses"],
            counts["draws"],
            counts["abandoned"],
        )
        for (mode, opponent, difficulty, size, k), counts in lines.items()
    ]
    return sorted(made, key=lambda line: (-line.games, line.opponent, line.size))


def score_for(
    lines: list[ScoreLine], mode: str, x: str, o: str, difficulty: int, size: int, k: int
) -> ScoreLine:
    """The line of one kind of game among `lines` (zeros when none was played)."""
    key = (mode, opponent_of(mode, x, o), difficulty, size, k)
    for line in lines:
        if (line.mode, line.opponent, line.difficulty, line.size, line.k) == key:
            return line
    return ScoreLine(*key)


def _column(mode: str, x: str, outcome: str) -> str:
    """Which ScoreLine count a game's outcome adds to."""
    if outcome in ("draw", "abandoned"):
        return "draws" if outcome == "draw" else "abandoned"
    if mode == "human-vs-computer":
        human = Mark.X if x == "human" else Mark.O
        return "wins" if outcome == str(human) else "losses"
    return "wins" if outcome == "X" else "losses"
