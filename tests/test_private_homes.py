"""No test writes outside a temporary folder: the session's fixture moves every place the
program writes to (the crash log too) into one."""

from __future__ import annotations

from pathlib import Path

from tictactoe_tui.history import locations
from tictactoe_tui.ui.app import crash_log_path


def test_the_crash_log_of_a_test_is_in_the_sessions_temporary_folder(private_homes: Path) -> None:
    assert crash_log_path().resolve().is_relative_to(private_homes.resolve())


def test_the_history_of_a_test_is_in_a_temporary_folder(data_dir: Path) -> None:
    assert locations.data_dir().resolve() == data_dir.resolve()
