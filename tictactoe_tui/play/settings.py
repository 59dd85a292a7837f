"""The choices that set up a game (the command-line flags that make them are in `arguments`).

`GameSettings` is the one value the Settings screen, the command line and the Game screen share.
It checks itself when built, so a `GameSettings` that exists is always a playable game; the
command line and the Settings screen show the same messages because they come from here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum

from tictactoe_tui.engine import Algorithm, PlayerSpec
from tictactoe_tui.engine.players.guest import GUEST, check_guest_path
from tictactoe_tui.engine.players.outside import ENGINE, check_engine_path
from tictactoe_tui.engine.rules.board import MAX_SIZE, MIN_K, MIN_SIZE, Mark, default_k


class Mode(StrEnum):
    """Who plays whom."""

    HUMAN_VS_COMPUTER = "human-vs-computer"
    HUMAN_VS_HUMAN = "human-vs-human"
    COMPUTER_VS_COMPUTER = "computer-vs-computer"


MODES: tuple[str, ...] = tuple(Mode)
"""Every mode, as the command line and the history spell them."""


class First(StrEnum):
    """Who moves first (see `GameSettings.first_mark` for the modes without a human or a
    computer)."""

    HUMAN = "human"
    COMPUTER = "computer"


FIRST_CHOICES: tuple[str, ...] = tuple(First)
"""Who moves first, as the command line spells it."""

MARKS: tuple[str, ...] = tuple(Mark)
"""The marks a human can play."""


class Opponent(StrEnum):
    """The computer players the settings offer: ours (`engine.OPPONENTS`, named as `Algorithm`
    names them), an outside engine (`engine`, at `engine`'s path), and a learner's Python file
    (`python`, the file at `learner`)."""

    RANDOM = Algorithm.RANDOM.value
    H1 = Algorithm.H1.value
    H2 = Algorithm.H2.value
    MINIMAX = Algorithm.MINIMAX.value
    ALPHABETA = Algorithm.ALPHABETA.value
    ENGINE = ENGINE
    PYTHON = GUEST


COMPUTERS: tuple[str, ...] = tuple(Opponent)
"""The computer players the settings offer, as the command line spells them."""

CHOICES: dict[str, tuple[str, ...]] = {
    "mode": MODES,
    "first": FIRST_CHOICES,
    "mark": MARKS,
    "opponent": COMPUTERS,
}
"""The settings chosen from a list, and their lists (typed in any case on the command line)."""

_CHOSEN: dict[str, type[StrEnum]] = {
    "mode": Mode,
    "first": First,
    "mark": Mark,
    "opponent": Opponent,
}
"""The enum each setting chosen from a list is kept as (a plain string given is made one)."""

MIN_DIFFICULTY, MAX_DIFFICULTY = 1, 100
"""Difficulty is the percentage of clever moves."""

MAX_TIME_LIMIT = 60.0
"""Seconds: a longer think would only look like a hang."""

MIN_DEPTH, MAX_DEPTH = 1, 20
"""Plies the computer may be told to look ahead (a depth cut-off, scored with H1); deeper than the
empty cells is simply a full search."""

SEARCHING_OPPONENTS = (Opponent.MINIMAX, Opponent.ALPHABETA)
"""The computer players that search ahead, so a depth means something to them."""

FLAGS = {"eval_file": "--eval"}
"""The settings whose command-line flag is not their name with dashes."""


class SettingError(ValueError):
    """A setting with a value the game cannot use.

    `field` names the setting (a `GameSettings` field) and `problem` says what is wrong, as a
    fragment such as "must be between 3 and 20, not 21", so the command line can prefix the flag
    and the Settings screen can show it beside the control.
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field.replace('_', ' ')} {problem}")
        self.field = field
        self.problem = problem

    @property
    def flag(self) -> str:
        """The command-line flag of the setting, e.g. "--time-limit"."""
        return flag_of(self.field)


def flag_of(field: str) -> str:
    """The command-line flag of a `GameSettings` field: "time_limit" -> "--time-limit"."""
    return FLAGS.get(field, "--" + field.replace("_", "-"))


@dataclass(frozen=True)
class GameSettings:
    """Everything that defines a game; checked when built (raises `SettingError`)."""

    mode: Mode = Mode.HUMAN_VS_COMPUTER
    """Who plays whom (a plain string, as `MODES` spell them, is made a `Mode`)."""
    first: First = First.HUMAN
    """Who moves first: "human" or "computer"."""
    mark: Mark = Mark.X
    """The human's mark; in human-vs-computer the other mark is the computer's."""
    opponent: Opponent = Opponent.ALPHABETA
    """The computer player: one of `OPPONENTS`, "engine" (the outside engine at `engine`) or
    "python" (the learner's file at `learner`)."""
    difficulty: int = 100
    """1..100: the computer plays its clever move with probability difficulty/100."""
    size: int = 3
    """The board is size × size."""
    k: int | None = None
    """Marks in a row that win; None means the default for the size (see `win_length`)."""
    time_limit: float = 1.0
    """Seconds per computer move on boards bigger than 3×3."""
    seed: int | None = None
    """Seed for the computer's random choices; None means a fresh game every time."""
    depth: int | None = None
    """Plies minimax and alpha-beta look ahead before scoring with H1; None: automatic (to the
    end of the game on 3×3, as deep as the time limit allows on bigger boards)."""
    theme: str = "textual-dark"
    """A Textual theme's name. The app knows which themes exist (the command line and the
    Settings screen offer only those; a remembered theme that no longer exists falls back to the
    default), so the game's rules need not."""
    engine: str = ""
    """The outside engine's program (a Gomocup brain) when `opponent` is "engine"."""
    x: str = ""
    """Computer-vs-computer: X's player as a spec (`alphabeta:time=0.5`, `engine:path=P`);
    empty: the opponent setting."""
    o: str = ""
    """Computer-vs-computer: O's player, the same way."""
    predict: bool = False
    """Predict mode (human-vs-computer): before the computer's move is shown, the learner says
    which move it will play and what the position is worth for it (`play.predict`)."""
    learner: str = ""
    """A learner's Python file the computer plays with: its `choose` (or `evaluate`, by the
    clever rule) when `opponent` is "python" (`--opponent python:path=FILE`); with alphabeta or
    minimax, the evaluation they score the depth cut-off with (`alphabeta:eval=FILE`)."""
    eval_file: str = ""
    """`--eval FILE`: a learner's evaluation shown beside H1 and H2 (its row in the compare
    screen, its value of every move in the heuristic lab); empty: none."""

    def __post_init__(self) -> None:
        for field, choices in CHOICES.items():
            _choose(field, getattr(self, field), choices)
            # A plain string (a flag, a JSON file) is kept as its enum's member.
            object.__setattr__(self, field, _CHOSEN[field](getattr(self, field)))
        _in_range("difficulty", self.difficulty, MIN_DIFFICULTY, MAX_DIFFICULTY)
        _in_range("size", self.size, MIN_SIZE, MAX_SIZE)
        if self.k is not None and not MIN_K <= self.k <= self.size:
            raise SettingError(
                "k", f"must be between {MIN_K} and the board size {self.size}, not {self.k}"
            )
        if self.depth is not None:
            _in_range("depth", self.depth, MIN_DEPTH, MAX_DEPTH)
        if not 0 < self.time_limit <= MAX_TIME_LIMIT:
            raise SettingError(
                "time_limit",
                f"must be more than 0 and at most {MAX_TIME_LIMIT:g} seconds, "
                f"not {self.time_limit:g}",
            )
        if self.opponent == ENGINE:
            try:
                check_engine_path(self.engine)
            except ValueError as error:
                raise SettingError("engine", f"cannot be used: {error}") from None
        # Two people play no computer: the Settings hide the file's box then, so it needs none.
        uses_learner = self.mode is not Mode.HUMAN_VS_HUMAN and (
            self.opponent == GUEST or (bool(self.learner) and self.opponent in SEARCHING_OPPONENTS)
        )
        for field, used in (("learner", uses_learner), ("eval_file", bool(self.eval_file))):
            if used:
                try:
                    check_guest_path(getattr(self, field))
                except ValueError as error:
                    raise SettingError(field, f"cannot be used: {error}") from None
        if uses_learner and self.opponent in SEARCHING_OPPONENTS:
            try:
                self.spec_for(self.computer_mark, own=False)
            except ValueError as error:
                raise SettingError("opponent", f"cannot be used: {error}") from None
        if not isinstance(self.predict, bool):
            raise SettingError("predict", f"must be on or off, not {self.predict!r}")
        for field in ("x", "o"):
            if getattr(self, field):
                try:
                    PlayerSpec.parse(getattr(self, field))
                except ValueError as error:
                    raise SettingError(field, f"is not a player: {error}") from None
        for mark in Mark:
            if self.is_computer(mark):
                problem = self.spec_for(mark).shape_problem(self.size, self.win_length)
                if problem:
                    own = self.mode is Mode.COMPUTER_VS_COMPUTER and getattr(self, mark.lower())
                    raise SettingError(
                        mark.lower() if own else "opponent", f"cannot play this board: {problem}"
                    )

    def spec_for(self, mark: Mark, own: bool = True) -> PlayerSpec:
        """The computer player of `mark`: its own spec in computer-vs-computer (`x`, `o`) when
        given (unless not `own`), else the opponent setting (with its depth, time and
        difficulty, and the learner's file: `python:path=FILE`, `alphabeta:eval=FILE`)."""
        spec = getattr(self, mark.lower()) if own and self.mode is Mode.COMPUTER_VS_COMPUTER else ""
        if spec:
            return PlayerSpec.parse(spec)
        if self.opponent == ENGINE:
            return PlayerSpec(ENGINE, time_limit=self.time_limit, path=self.engine)
        if self.opponent == GUEST:
            return PlayerSpec(GUEST, time_limit=self.time_limit, path=self.learner)
        searches = self.opponent in SEARCHING_OPPONENTS
        learner = self.learner if searches and self.learner else None
        return PlayerSpec(
            self.opponent,
            depth=self.depth if searches else None,
            time_limit=(self.search_time_limit if self.opponent is Opponent.ALPHABETA else None),
            difficulty=(self.difficulty if self.opponent is not Opponent.RANDOM else 100),
            eval_path=learner,
        )

    @property
    def win_length(self) -> int:
        """The number of marks in a row that wins (k resolved for the board size)."""
        return self.k if self.k is not None else default_k(self.size)

    @property
    def search_time_limit(self) -> float | None:
        """The computer's time budget: `time_limit` above 3×3, none on 3×3 (solved exactly)."""
        return self.time_limit if self.size > 3 else None

    @property
    def human_mark(self) -> Mark:
        """The mark `mark` names: the human's in human-vs-computer."""
        return self.mark

    @property
    def computer_mark(self) -> Mark:
        """The other mark: the computer's in human-vs-computer."""
        return self.human_mark.opponent

    @property
    def first_mark(self) -> Mark:
        """The mark that moves first.

        "human" first means `mark` starts, "computer" first means the other mark starts; the
        same rule holds in the modes with two humans or two computers, so X starts by default.
        """
        return self.human_mark if self.first is First.HUMAN else self.computer_mark

    def is_computer(self, mark: Mark) -> bool:
        """Whether the computer plays `mark` in this game's mode."""
        if self.mode is Mode.HUMAN_VS_COMPUTER:
            return mark == self.computer_mark
        return self.mode is Mode.COMPUTER_VS_COMPUTER

    def unused(self, field: str) -> str | None:
        """Why setting `field` changes nothing in this game (None when it matters).

        The command line warns with it when a flag is given in vain ("--opponent minimax with
        --mode human-vs-human"), rather than ignoring the flag silently.
        """
        searches = self.opponent in SEARCHING_OPPONENTS
        if field in ("x", "o") and self.mode is not Mode.COMPUTER_VS_COMPUTER:
            return "outside computer-vs-computer mode: only there does each side have its own"
        if field == "engine" and self.opponent != ENGINE:
            return "unless --opponent is engine (or engine:path=PATH)"
        if field == "learner" and self.opponent not in (GUEST, *SEARCHING_OPPONENTS):
            return (
                f"with the {self.opponent} computer: only python, alphabeta and minimax use a file"
            )
        if (
            self.opponent == GUEST
            and field in ("difficulty", "depth")
            and self.mode is not Mode.HUMAN_VS_HUMAN
        ):
            return "against your own Python file: it plays its own moves"
        if (
            self.opponent == ENGINE
            and field in ("difficulty", "depth")
            and self.mode is not Mode.HUMAN_VS_HUMAN
        ):
            return "against an outside engine: it plays its own moves, to its own depth"
        if field == "predict" and self.mode is not Mode.HUMAN_VS_COMPUTER:
            return "outside human-vs-computer mode: the questions are about the computer's reply"
        if self.mode is Mode.HUMAN_VS_HUMAN:
            if field in ("difficulty", "seed", "depth"):
                return "in human-vs-human mode: no computer plays"
            if field == "opponent":
                return "in human-vs-human mode: no computer plays (it only picks how hints work)"
        elif self.opponent is Opponent.RANDOM and field in ("difficulty", "depth"):
            return "against the random computer: it plays every move at random"
        elif not searches and field == "depth":
            return f"with the {self.opponent} computer: it looks one move ahead, no deeper"
        if field == "time_limit":
            if self.opponent == GUEST and self.mode is not Mode.HUMAN_VS_HUMAN:
                return None  # the learner's clock, per call, on every board
            if self.size == MIN_SIZE:
                return "on 3×3: the computer searches it with no time budget"
            if not searches and self.opponent != ENGINE and self.mode is not Mode.HUMAN_VS_HUMAN:
                return f"with the {self.opponent} computer: it does not search against the clock"
        return None


def _canonical(text: str, choices: Sequence[str]) -> str:
    """`text` as it is spelled in `choices`, whatever its case, where that names one choice."""
    if text in choices:
        return text
    matches = [choice for choice in choices if choice.casefold() == text.strip().casefold()]
    return matches[0] if len(matches) == 1 else text


def _choose(field: str, value: str, choices: Sequence[str]) -> None:
    """Raise `SettingError` unless `value` is one of `choices`."""
    if value not in choices:
        raise SettingError(field, f"must be one of {', '.join(choices)}, not {value!r}")


def _in_range(field: str, value: int, low: int, high: int) -> None:
    """Raise `SettingError` unless low <= value <= high."""
    if not low <= value <= high:
        raise SettingError(field, f"must be between {low} and {high}, not {value}")


def _read_int(field: str, text: str) -> int:
    """Read a whole number typed for `field`; `SettingError` if it is not one."""
    try:
        return int(text.strip())
    except ValueError:
        raise SettingError(field, f"must be a whole number, not {text.strip()!r}") from None


ON_WORDS = frozenset({"on", "yes", "true", "1"})
OFF_WORDS = frozenset({"off", "no", "false", "0", ""})
"""How a switch's setting may be typed."""


def _read_switch(field: str, text: str) -> bool:
    """Read a switch typed for `field` (on/off, yes/no); `SettingError` if it is neither."""
    word = text.strip().lower()
    if word in ON_WORDS or word in OFF_WORDS:
        return word in ON_WORDS
    raise SettingError(field, f"must be on or off, not {text.strip()!r}")


def _read_float(field: str, text: str) -> float:
    """Read a number of seconds typed for `field`; `SettingError` if it is not a finite number."""
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise SettingError(field, f"must be a number of seconds, not {text.strip()!r}")
    return value


OPTIONAL = ("k", "seed", "depth")
"""The settings that may be left blank (None)."""

GAME_FLAGS = (
    "mode",
    "first",
    "mark",
    "opponent",
    "difficulty",
    "size",
    "k",
    "time_limit",
    "seed",
    "depth",
    "engine",
    "x",
    "o",
    "predict",
)
"""The fields whose flags mean "start the game now"; --theme alone still opens Settings."""


def settings_from_text(values: dict[str, str], themes: Sequence[str] = ()) -> GameSettings:
    """Build `GameSettings` from typed text, one entry per field (missing = default).

    Blank text for an optional setting (k, seed, depth) means "none": the default k, a random
    seed, an automatic depth. A choice may be typed in any case ("x" for "X"). With `themes`, the
    theme must be one of them.

    Raises `SettingError` naming the first field that cannot be used.
    """
    numbers: dict[str, Callable[[str, str], object]] = {
        "difficulty": _read_int,
        "size": _read_int,
        "k": _read_int,
        "seed": _read_int,
        "depth": _read_int,
        "time_limit": _read_float,
        "predict": _read_switch,
    }
    known = {f.name for f in fields(GameSettings)}
    kwargs: dict[str, object] = {}
    for name, text in values.items():
        if name not in known:
            raise SettingError(name, "is not a setting")
        if name in OPTIONAL and not text.strip():
            continue
        read = numbers.get(name)
        if read is not None:
            kwargs[name] = read(name, text)
        else:
            kwargs[name] = _canonical(text, CHOICES.get(name, ()))
    if themes and "theme" in kwargs:
        theme = _canonical(str(kwargs["theme"]), themes)
        _choose("theme", theme, themes)
        kwargs["theme"] = theme
    return GameSettings(**kwargs)  # type: ignore[arg-type]


def settings_from_values(values: dict[str, object]) -> GameSettings | None:
    """`GameSettings` from plain values (as the history keeps them); None if they do not make
    a playable game. Unknown names are ignored, so older or newer files still load; so is
    `eval_file`: `--eval FILE` is for the run it is given to, never remembered."""
    known = {f.name for f in fields(GameSettings)} - {"eval_file"}
    try:
        return GameSettings(**{k: v for k, v in values.items() if k in known})  # type: ignore[arg-type]
    except (TypeError, SettingError):
        return None
