"""What a player may start when the app is served to browsers: only what the server named.

`tictactoe-tui serve` starts each browser tab's app with `$TICTACTOE_TUI_SERVED` set to what its
own command line named: `{"engines": [PROGRAM, ...], "python": [FILE, ...]}`, absolute paths.
While the variable is set (the served app, and every process it starts, its search worker
included), `check_engine_path` and `check_guest_path` refuse any other program or learner's file
in one sentence. Every way of naming one goes through them: a player spec (`engine:path=`,
`python:path=`, `alphabeta:eval=`) from the Settings, the match runner or the command line, the
settings a game in the history was played with, the course's code answer, and each player
before it starts anything. The refusal comes before the file is looked at, so it says nothing
about what exists on the server. A value that cannot be read offers nothing (it fails closed).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Literal

__all__ = ["SERVED_ENV", "Offered", "check_offered", "served"]

SERVED_ENV = "TICTACTOE_TUI_SERVED"
"""The environment variable that marks an app served to browsers and names what it offers."""

Kind = Literal["engine", "python"]
"""An outside engine's program, or a learner's Python file."""


def _same(text: str) -> str:
    """A path as it is compared: absolute, `~` expanded, links followed."""
    return os.path.realpath(os.path.expanduser(text))


@dataclass(frozen=True)
class Offered:
    """The programs and files a served app may start: those the server's command line named."""

    engines: tuple[str, ...] = ()
    """Outside engines' programs (Gomocup brains)."""
    python: tuple[str, ...] = ()
    """Learner's Python files (`python:path=FILE`, `alphabeta:eval=FILE`)."""

    def to_env(self) -> str:
        """The value of `SERVED_ENV` that stands for this."""
        return json.dumps({"engines": list(self.engines), "python": list(self.python)})

    @classmethod
    def from_env(cls, text: str) -> Offered:
        """Read `SERVED_ENV`'s value; anything malformed offers nothing."""
        try:
            value = json.loads(text)
        except ValueError:
            return cls()
        if not isinstance(value, dict):
            return cls()

        def paths(key: str) -> tuple[str, ...]:
            found = value.get(key)
            if not isinstance(found, list):
                return ()
            return tuple(p for p in found if isinstance(p, str) and p)

        return cls(paths("engines"), paths("python"))

    def of(self, kind: Kind) -> tuple[str, ...]:
        """The paths offered of `kind`."""
        return self.engines if kind == "engine" else self.python

    def refusal(self, kind: Kind, text: str) -> str | None:
        """Why `text` may not be started here (one sentence), or None when it is offered."""
        offered = self.of(kind)
        if _same(text) in {_same(path) for path in offered}:
            return None
        what = "outside engine" if kind == "engine" else "Python file"
        choose = f"choose one it offers: {', '.join(offered)}" if offered else "it offers none"
        return f"this server offers no {what} {text}: {choose}"


def served() -> Offered | None:
    """What this process may start when it is served to browsers; None when it is not served."""
    text = os.environ.get(SERVED_ENV)
    return None if text is None else Offered.from_env(text)


def check_offered(kind: Kind, text: str) -> None:
    """ValueError with one sentence when this process is served and `text` is not offered."""
    offered = served()
    if offered is not None:
        problem = offered.refusal(kind, text)
        if problem is not None:
            raise ValueError(problem)
