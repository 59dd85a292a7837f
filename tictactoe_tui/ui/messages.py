"""Messages from screens to the app: a game to keep, a game to start, another screen to show.

Widget-local messages live inside the widget that posts them (for example `Board.CellChosen`);
this module holds the ones that have no widget to belong to. Screens never call the app: they
post these (or dismiss with a result), and the app decides. Searches need no messages: a screen
awaits its worker's answer (`ui.jobs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from textual.message import Message

from tictactoe_tui.engine import Board
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.study import MoveTree
from tictactoe_tui.play.settings import GameSettings


@dataclass
class GameEnded(Message):
    """A game finished or was abandoned: the Game screen posts it and the app keeps it."""

    game: PlayedGame
    """What was played, move by move, and how it ended.

    A finished game reopened by undo is taken back first (`GameReopened`), then posted again,
    with the same `started`, when it ends again or is abandoned: one game, one record."""


@dataclass
class GameReopened(Message):
    """Undo reopened a finished game: the app takes its record out of the history, so the
    all-time score stops counting it, as the session's does."""

    game: PlayedGame
    """The record `GameEnded` carried for the game when it finished."""


@dataclass
class PlayFrom(Message):
    """A screen asks for a new game from a position (the review's "play from here"): the app
    starts it, so no screen needs to know the app."""

    settings: GameSettings
    """The game's settings."""
    moves: tuple[int, ...]
    """The moves that lead to the position the game starts from."""


@dataclass
class Navigate(Message):
    """A screen asks the app for another screen: "settings", "match" or "review" (the game
    that just ended)."""

    where: Literal["settings", "match", "review"]


@dataclass
class Analyse(Message):
    """A screen asks for the analysis board on a position (`e` in the game, the review and
    Settings) or on a study kept in the history: the app opens it over the screen, which
    waits untouched underneath."""

    position: Board | MoveTree
    """The position to study, or a whole study."""
    settings: GameSettings | None = None
    """Settings whose time limit and depth the analyses use (None: the app's current ones)."""
    study_id: int | None = None
    """The study's id in the history, when it was kept there (saving again replaces it)."""


@dataclass
class OpenDrill(Message):
    """A screen asks for the alpha-beta drill on a position (the tree view, the heuristic lab,
    the analysis board): the app cuts the tree and opens the drill over the screen."""

    position: Board
    """The position the drill's tree is cut from."""


@dataclass
class OpenCards(Message):
    """A screen asks for the "find a better move" cards (`c` in the review and the puzzles):
    the app opens them over the screen, which waits untouched underneath."""
