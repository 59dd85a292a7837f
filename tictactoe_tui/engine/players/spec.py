"""A computer player's settings for a match (`PlayerSpec`), read from the command line's
`alphabeta:time=0.5:depth=3`, checked when made, and built into a fresh player for each game.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from tictactoe_tui.engine.players.computer import (
    MAX_DIFFICULTY,
    OPPONENTS,
    Player,
    check_difficulty,
    make_player,
)
from tictactoe_tui.engine.players.guest import GUEST, check_guest_path
from tictactoe_tui.engine.players.guest_search import GuestSearchPlayer
from tictactoe_tui.engine.players.learner import LearnerPlayer
from tictactoe_tui.engine.players.outside import (
    ENGINE,
    OutsidePlayer,
    check_engine_path,
    check_engine_shape,
)
from tictactoe_tui.engine.search.types import Algorithm

_DEPTH_PLAYERS = (Algorithm.MINIMAX, Algorithm.ALPHABETA)
_TIME_PLAYERS = (Algorithm.ALPHABETA, ENGINE, GUEST)
_PATH_PLAYERS = (ENGINE, GUEST)
_PLAYERS = (*OPPONENTS, ENGINE, GUEST)
_EVAL_PLAYERS = (Algorithm.MINIMAX, Algorithm.ALPHABETA)
_KEYS = ("depth", "time", "difficulty", "path", "eval")
_FILE_KEYS = ("path", "eval")
_OPTION_HELP = (
    "use depth=D, time=S or difficulty=P (engine: path=PATH and time=S; python: path=FILE and "
    "time=S; alphabeta and minimax: eval=FILE for your evaluation)"
)


def _spec_error(text: str, problem: str) -> ValueError:
    return ValueError(f"bad player {text!r}: {problem}")


def _whole(text: str, values: dict[str, str], key: str, unit: str) -> int | None:
    """The whole number given for `key`, or None when it is not given."""
    if key not in values:
        return None
    try:
        return int(values[key])
    except ValueError:
        raise _spec_error(
            text, f"{key} must be a whole number of {unit}, not {values[key]!r}"
        ) from None


def _options(text: str, parts: list[str]) -> dict[str, str]:
    """The `key=value` options of a spec; a path may hold colons (`path=/a:b` stays whole, as
    does `eval=/a:b`)."""
    values: dict[str, str] = {}
    last = ""
    for option in parts:
        key, equals, value = (s.strip() for s in option.partition("="))
        if last in _FILE_KEYS and not equals:
            values[last] += ":" + option
            continue
        if key in _FILE_KEYS and equals and not value:
            raise _spec_error(text, f"{key}= names nothing: give the file, {key}=/path/to/FILE")
        if not equals or not key or not value:
            raise _spec_error(text, f"{option!r} is not an option: {_OPTION_HELP}")
        if key not in _KEYS:
            raise _spec_error(text, f"unknown option {key!r}: {_OPTION_HELP}")
        if key in values:
            raise _spec_error(text, f"{key} is given twice")
        values[key] = value
        last = key
    return values


@dataclass(frozen=True)
class PlayerSpec:
    """A computer player's settings, written `alphabeta:time=0.5:depth=3` on the command line.

    `opponent` is one of the engine's `OPPONENTS`, `engine` (an outside Gomocup brain, with
    `path`) or `python` (a learner's file, with `path`: see `learner.LearnerPlayer`); `depth`
    (plies) applies to minimax and alpha-beta, `time_limit` to alpha-beta (seconds per move,
    boards above 3×3: 3×3 is always solved), to an outside engine (per move) and to a learner's
    file (per call), `difficulty` (percentage of clever moves) to our players but random.
    """

    opponent: str
    depth: int | None = None
    time_limit: float | None = None
    difficulty: int = MAX_DIFFICULTY
    path: str | None = None
    """The outside engine's program (`engine`: checked to exist and be executable) or the
    learner's file (`python`: checked to be a Python file)."""
    eval_path: str | None = None
    """A learner's file whose `evaluate` alpha-beta or minimax uses at the cut-off
    (`alphabeta:eval=FILE[:depth=D]`, `minimax:eval=FILE:depth=D`; see `guest_search`)."""

    def __post_init__(self) -> None:
        """Check every field, so a spec that exists always builds a player."""
        problem = self._problem()
        if problem:
            raise ValueError(problem)

    def _problem(self) -> str:
        """What is wrong with this spec, or "" when nothing is."""
        name = self.opponent
        if name not in _PLAYERS:
            return f"unknown player {name!r}: choose one of {', '.join(_PLAYERS)}"
        if self.eval_path is not None and name not in _EVAL_PLAYERS:
            return (
                "only alphabeta and minimax search with your evaluation "
                f"(alphabeta:eval=FILE), not {name}"
            )
        problem = self._limits_problem()
        if problem:
            return problem
        if name in _PATH_PLAYERS or self.eval_path is not None:
            problem = self._files_problem()
            if problem or name in _PATH_PLAYERS:
                return problem
        if self.path is not None:
            return (
                "only an outside engine (engine:path=PATH) or a learner's file "
                f"(python:path=FILE) takes a path, not {name}"
            )
        if self.difficulty != MAX_DIFFICULTY and name == Algorithm.RANDOM:
            return "random plays at random already: difficulty applies to the clever players"
        try:
            check_difficulty(self.difficulty)
        except ValueError as error:
            return str(error)
        return ""

    def _limits_problem(self) -> str:
        """What is wrong with the depth or the time limit, or "" when nothing is."""
        name = self.opponent
        if self.depth is not None:
            if name not in _DEPTH_PLAYERS:
                return (
                    f"{name} does not search, so it takes no depth"
                    if name != ENGINE
                    else "an outside engine takes no depth (the Gomocup protocol has only a time)"
                )
            if isinstance(self.depth, bool) or not isinstance(self.depth, int) or self.depth < 1:
                return f"depth must be a whole number of plies, at least 1, not {self.depth!r}"
        if self.time_limit is not None:
            if name not in _TIME_PLAYERS:
                return f"{name} has no time limit" + (
                    ": give it a depth" if name in _DEPTH_PLAYERS else ""
                )
            if (
                isinstance(self.time_limit, bool)
                or not isinstance(self.time_limit, int | float)
                or not math.isfinite(self.time_limit)
                or self.time_limit <= 0
            ):
                return f"time must be a number of seconds above 0, not {self.time_limit!r}"
        return ""

    def _files_problem(self) -> str:
        """What is wrong with a spec that names a file (a path, or an evaluation), or ""."""
        name = self.opponent
        if name in _PATH_PLAYERS:
            if self.difficulty != MAX_DIFFICULTY:
                who = "an outside engine" if name == ENGINE else "a learner's file"
                return f"{who} plays its own moves: difficulty applies to ours"
            try:
                (check_engine_path if name == ENGINE else check_guest_path)(self.path or "")
            except ValueError as error:
                return str(error)
            return ""
        if self.eval_path is not None:
            if name == Algorithm.MINIMAX and self.depth is None:
                return (
                    "minimax with your evaluation needs a depth (minimax:eval=FILE:depth=D): "
                    "without one it searches to the end and never calls evaluate"
                )
            if self.difficulty != MAX_DIFFICULTY:
                return "difficulty does not apply to a search with your evaluation"
            try:
                check_guest_path(self.eval_path)
            except ValueError as error:
                return str(error)
        return ""

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Read `name[:depth=D][:time=S][:difficulty=P]`, `engine:path=PATH[:time=S]`,
        `python:path=FILE[:time=S]` or `alphabeta:eval=FILE[:depth=D]`; ValueError with a
        clear message."""
        name, *options = (part.strip() for part in text.strip().split(":"))
        if not name:
            raise _spec_error(text, f"it must start with a player: one of {', '.join(_PLAYERS)}")
        if name.lower() not in _PLAYERS:
            raise ValueError(f"unknown player {name!r}: choose one of {', '.join(_PLAYERS)}")
        values = _options(text, options)
        depth = _whole(text, values, "depth", "plies")
        difficulty = _whole(text, values, "difficulty", "percent")
        try:
            time_limit = float(values["time"]) if "time" in values else None
        except ValueError:
            raise _spec_error(
                text, f"time must be a number of seconds, not {values['time']!r}"
            ) from None
        if name.lower() == ENGINE and "path" not in values:
            raise _spec_error(text, "an outside engine needs its program: engine:path=PATH")
        if name.lower() == GUEST and "path" not in values:
            raise _spec_error(text, "a learner's player needs its file: python:path=FILE")
        try:
            return cls(
                name.lower(),
                depth,
                time_limit,
                MAX_DIFFICULTY if difficulty is None else difficulty,
                values.get("path"),
                values.get("eval"),
            )
        except ValueError as error:
            raise _spec_error(text, str(error)) from None

    def __str__(self) -> str:
        """The spec as `parse` reads it: `alphabeta:depth=3:time=0.5:difficulty=80`."""
        parts = [self.opponent]
        if self.path is not None:
            parts.append(f"path={self.path}")
        if self.eval_path is not None:
            parts.append(f"eval={self.eval_path}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.time_limit is not None:
            short = f"{self.time_limit:g}"
            exact = short if float(short) == self.time_limit else repr(self.time_limit)
            parts.append(f"time={exact}")
        if self.difficulty != MAX_DIFFICULTY:
            parts.append(f"difficulty={self.difficulty}")
        return ":".join(parts)

    @property
    def outside(self) -> bool:
        """Whether this is an outside engine (`engine:path=PATH`)."""
        return self.opponent == ENGINE

    def shape_problem(self, size: int, k: int) -> str:
        """Why this player cannot play a size×size board with k in a row ("" when it can)."""
        if not self.outside:
            return ""
        try:
            check_engine_shape(size, k)
        except ValueError as error:
            return str(error)
        return ""

    def build(self, rng: random.Random) -> Player:
        """A fresh player with these settings, drawing every random choice from `rng` (an
        outside engine draws none: it starts on its first move)."""
        if self.outside:
            return OutsidePlayer(self.path or "", self.time_limit)
        if self.opponent == GUEST:
            return LearnerPlayer(self.path or "", rng, self.time_limit)
        if self.eval_path is not None:
            return GuestSearchPlayer(
                self.eval_path, rng, self.opponent, self.depth, self.time_limit
            )
        return make_player(
            self.opponent,
            rng,
            difficulty=self.difficulty,
            time_limit=self.time_limit,
            depth=self.depth,
        )
