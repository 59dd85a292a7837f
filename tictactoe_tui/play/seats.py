"""Who plays each side of the game: the computer's players (ours with the opponent setting, a
side's own spec, an outside engine, a learner's code), clever or random, and their names in
words ("You (X)", "alpha-beta, clever", "X alpha-beta · O pbrain-rapfi (outside engine)")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tictactoe_tui.engine import Algorithm, Mark, OutsidePlayer, Player, PlayerSpec
from tictactoe_tui.engine.players.foreign import ForeignPlayer, close_foreign
from tictactoe_tui.engine.players.guest import GUEST
from tictactoe_tui.engine.players.guest_search import GuestSearchPlayer
from tictactoe_tui.engine.players.learner import LearnerPlayer
from tictactoe_tui.engine.players.outside import ENGINE, engine_key
from tictactoe_tui.play.settings import SEARCHING_OPPONENTS, GameSettings, Mode, Opponent
from tictactoe_tui.text.report import ALGORITHM_NAMES

MakePlayer = Callable[..., Player]
"""`engine.make_player`, or what stands in for it (the app's tests hold or break the searches)."""


class Seats:
    """The players of one game's computer sides, with the settings they come from."""

    def __init__(self, settings: GameSettings, make_player: MakePlayer) -> None:
        """The computer sides `settings` ask for, built with `make_player`."""
        self.settings = settings
        """The settings the players come from."""
        self.make_player = make_player
        self.clever = settings.opponent != Opponent.RANDOM
        """Whether the computer plays clever moves: `c` switches between the opponent's
        algorithm and random moves (a random opponent switches to alpha-beta and back)."""
        # The rng lives as long as the seats, so a seed reproduces a session of games.
        self.rng = random.Random(settings.seed)
        """The generator every computer move draws from."""
        self._player = self._make_player()
        self.sides = self._side_players()
        """Each computer mark's player."""

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
        spec = self.own_spec(mark) if mark is not None else None
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

    def own_spec(self, mark: Mark) -> PlayerSpec | None:
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
    def own_sides(self) -> bool:
        """Whether any computer side plays with a spec of its own (`own_spec`)."""
        return any(self.own_spec(mark) is not None for mark in self.sides)

    @property
    def engines_only(self) -> bool:
        """Whether every computer in this game plays its own moves: an outside engine or a
        learner's code (c changes nothing)."""
        return bool(self.sides) and all(
            isinstance(player, ForeignPlayer) for player in self.sides.values()
        )

    def foreign(self, mark: Mark) -> bool:
        """Whether `mark`'s computer runs in a process of its own (an engine, a learner's)."""
        return isinstance(self.sides.get(mark), ForeignPlayer)

    def outside_players(self) -> list[OutsidePlayer]:
        """The outside engines playing in this game."""
        return [player for player in self.sides.values() if isinstance(player, OutsidePlayer)]

    def engine_name(self, mark: Mark) -> str:
        """The program name of `mark`'s outside engine ("" when it is not one)."""
        player = self.sides.get(mark)
        return player.name if isinstance(player, OutsidePlayer) else ""

    def history_names(self) -> dict[Mark, str]:
        """How the history names each side an outside engine plays (`engine_key`: by the
        name its `ABOUT` gave, else its file name), so each engine scores on its own."""
        return {mark: engine_key(self.engine_name(mark)) for mark in Mark if self.engine_name(mark)}

    def learner_name(self, mark: Mark) -> str:
        """How `mark`'s learner's code is named ("yours: FILE", or "alpha-beta with yours:
        FILE"; "" when its player is not a learner's)."""
        player = self.sides.get(mark)
        if isinstance(player, LearnerPlayer):
            return player.name
        if isinstance(player, GuestSearchPlayer):
            return player.label
        return ""

    @property
    def learners(self) -> bool:
        """Whether a learner's code plays in this game."""
        return any(self.learner_name(mark) for mark in self.sides)

    def style_words(self) -> str:
        """How the computer plays: "alpha-beta, clever", "random; c: alpha-beta", or, for
        computers of their own, each side's: "X alpha-beta · O pbrain-rapfi (outside engine)"."""
        opponent = self.settings.opponent
        computers = [mark for mark in Mark if self.settings.is_computer(mark)]
        if any(self.own_spec(mark) is not None for mark in computers):
            return " · ".join(
                f"{mark} {self._side_words(mark)}" if len(computers) > 1 else self._side_words(mark)
                for mark in computers
            )
        if opponent == Opponent.RANDOM:
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

    def switch(self) -> None:
        """`c`: clever moves become random ones or back, from the next move; our sides follow
        the switch, an outside engine keeps its process and its own play."""
        self.clever = not self.clever
        self._player = self._make_player()
        self.sides = {
            mark: player if isinstance(player, ForeignPlayer) else new
            for (mark, player), new in zip(
                self.sides.items(), self._side_players().values(), strict=True
            )
        }

    def random_player(self) -> Player:
        """A random player on the same generator (a failed search's stand-in)."""
        return self.make_player(Algorithm.RANDOM, self.rng)

    def _make_player(self) -> Player:
        settings = self.settings
        common: dict[str, Any] = {"rng": self.rng, "time_limit": settings.search_time_limit}
        if settings.opponent == Opponent.RANDOM:
            return self.make_player(
                self.playing(), difficulty=settings.difficulty, depth=settings.depth, **common
            )
        if settings.opponent in (ENGINE, GUEST) or self._searches_with_learner:
            # Never asked to move: every engine or learner's side has a player of its own
            # (`sides`).
            return self.make_player(Algorithm.ALPHABETA, **common)
        return self.make_player(
            settings.opponent,
            difficulty=settings.difficulty,
            clever=self.clever,
            depth=settings.depth,
            **common,
        )

    def _side_players(self) -> dict[Mark, Player]:
        """Each computer mark's player: the opponent setting's (one player for both marks, as
        ever), or a side's own spec, or an outside engine or a learner's code (one process per
        side)."""
        sides: dict[Mark, Player] = {}
        for mark in Mark:
            if not self.settings.is_computer(mark):
                continue
            spec = self.own_spec(mark)
            if spec is None:
                sides[mark] = self._player
            elif spec.outside:
                sides[mark] = OutsidePlayer(spec.path or "", spec.time_limit)
            elif spec.opponent == GUEST or spec.eval_path is not None:
                sides[mark] = spec.build(self.rng)
            else:
                # A side of its own follows c, unless it is random already.
                sides[mark] = self.make_player(
                    spec.opponent,
                    rng=self.rng,
                    difficulty=spec.difficulty,
                    time_limit=spec.time_limit,
                    depth=spec.depth,
                    clever=self.clever or spec.opponent == Algorithm.RANDOM,
                )
        return sides

    def close(self) -> None:
        """End every outside engine's and learner's process (it starts again on its next move,
        a learner's reading its file again)."""
        close_foreign(self.sides.values())
