"""The command line's argument parser and value readers: every error is one clear line, status 2."""

from __future__ import annotations

import argparse
import math
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line ("tictactoe-tui: ...") and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print the problem on one line, without the usage block, and exit with status 2."""
        self.exit(2, f"{self.prog}: {message}\n")


def positive_int(text: str) -> int:
    """argparse's reader for a count or a depth: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_seconds(text: str) -> float:
    """argparse's reader for a time limit: a finite number of seconds above 0 (not nan or inf)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value
