"""The command line's argument parser: every error is one clear line and exit status 2."""

from __future__ import annotations

import argparse
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line ("tictactoe-tui: ...") and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print the problem on one line, without the usage block, and exit with status 2."""
        self.exit(2, f"{self.prog}: {message}\n")
